#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every reason a scanner's sandbox cannot be had reaches the scan the one
# way (a struct ash_error whose kind decides the status), with the words
# and the exit code each had before: a platform without a backend (the
# none backend: MISSING in every mode), a backend the operator named that
# is unavailable (ERROR), and a policy that refuses the scanner (ERROR,
# logged while the tool is checked).  Each refusal has its control, the
# same scan with --sandbox off.
. "$top_srcdir/tests/libtest.sh"

NONE=$top_builddir/tests/none/ash
[ -x "$NONE" ] || skip_all "tests/none/ash is not built"
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
agg=$out/ash_aggregated_results.json
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
mkdir -p "$src"
printf 'FAKE-FINDING high\n' >"$src/a.txt"
PATH=$top_srcdir/tests/fixtures/tools:/usr/bin:/bin
export PATH
scan () {
  prog=$1
  shift
  "$prog" scan --source-dir "$src" --output-dir "$out" --no-progress \
    --ash-plugin-modules "$mods" --scanners fake-sarif "$@" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

# 1. The none backend: the platform's message, MISSING whatever mode was
# asked for, ahead of whether the tool is installed.
platform="no scanner sandbox is available on this test platform"
for mode in auto bwrap; do
  scan "$NONE" --sandbox "$mode"
  assert_eq "none backend, --sandbox $mode: exit 1" "$status" 1
  assert_file_contains "none backend, --sandbox $mode: MISSING with the platform's message" \
    "$TEST_TMP/out" "fake-sarif MISSING: scanner sandbox unavailable: $platform"
  assert_file_contains "none backend, --sandbox $mode: missing_reason" "$agg" \
    "\"missing_reason\": \"scanner sandbox unavailable: $platform\""
  check "none backend, --sandbox $mode: it did not run" \
    test ! -e "$out/scanners/fake-sarif/source/fake.sarif"
done
PATH=/usr/bin:/bin scan "$NONE" --sandbox auto
assert_file_contains "none backend: the platform's reason comes before the missing tool" \
  "$TEST_TMP/out" "fake-sarif MISSING: scanner sandbox unavailable: $platform"
scan "$NONE" --sandbox off
assert_eq "control: the none backend's ash runs it with --sandbox off (exit 2)" "$status" 2
check "control: its output is there" test -f "$out/scanners/fake-sarif/source/fake.sarif"

# 2. A backend named that this platform does not have: ERROR (a named
# backend never falls back), logged, with the sandbox record.
why="scanner sandbox unavailable: the sandbox-exec sandbox is not available on this platform"
scan "$ASH" --sandbox sandbox-exec
assert_eq "named backend unavailable: exit 1" "$status" 1
assert_file_contains "named backend unavailable: ERROR with the reason" \
  "$TEST_TMP/out" "fake-sarif ERROR: $why"
assert_file_contains "named backend unavailable: logged as the spec shows" \
  "$TEST_TMP/err" "ERROR    fake-sarif not run: $why"
assert_file_contains "named backend unavailable: error_reason" "$agg" "\"error_reason\": \"$why\""
assert_file_contains "named backend unavailable: the record's refusal" "$agg" "\"refusal\": \"$why\""
check "named backend unavailable: it did not run" \
  test ! -e "$out/scanners/fake-sarif/source/fake.sarif"
"$ASH" sandbox explain fake-sarif --ash-plugin-modules "$mods" --source-dir "$src" \
  --output-dir "$out" --sandbox sandbox-exec >"$TEST_TMP/explain" 2>"$TEST_TMP/explain.err"
assert_file_contains "named backend unavailable: explain warns with the same reason" \
  "$TEST_TMP/explain.err" "$why"
scan "$ASH" --sandbox off
assert_eq "control: --sandbox off runs it (exit 2)" "$status" 2

# 3. A policy that refuses the scanner: its tool lies in a directory of
# the home that is not a bin directory, which no backend mounts.
if ! "$ASH" sandbox probe 2>/dev/null | grep -q '^auto: '; then
  ok "policy refusal # SKIP no sandbox backend is usable here"
else
  home=$TEST_TMP/home
  mkdir -p "$home/tools"
  cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$home/tools/"
  why="fake-sarif cannot be sandboxed as requested: its tool $home/tools/fake-sarif-tool cannot be mounted"
  HOME=$home PATH=$home/tools:/usr/bin:/bin scan "$ASH" --sandbox auto
  assert_eq "policy refusal: exit 1" "$status" 1
  assert_file_contains "policy refusal: ERROR with the reason" "$TEST_TMP/out" "fake-sarif ERROR: $why"
  assert_file_contains "policy refusal: logged while the tool is checked" \
    "$TEST_TMP/err" "ERROR    $why"
  assert_file_contains "policy refusal: error_reason" "$agg" "\"error_reason\": \"$why"
  assert_file_contains "policy refusal: the record's refusal" "$agg" "\"refusal\": \"$why"
  check "policy refusal: it did not run" test ! -e "$out/scanners/fake-sarif/source/fake.sarif"
  HOME=$home PATH=$home/tools:/usr/bin:/bin scan "$ASH" --sandbox off
  assert_eq "control: the same tool runs with --sandbox off (exit 2)" "$status" 2
  check "control: its output is there" test -f "$out/scanners/fake-sarif/source/fake.sarif"
fi
done_testing
