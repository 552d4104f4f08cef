#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The status of a scanner that cannot be sandboxed (spec "Scan a repository
# you do not trust"): a backend the operator named that is unavailable is
# ERROR; --sandbox auto with no working backend is MISSING; a policy that
# refuses the scanner is ERROR, logged while the tool is checked, and its
# probes are refused rather than run unsandboxed.  A renamed scanner
# section is MISSING.  Each case has its control.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
mkdir -p "$src" "$TEST_TMP/tools"
printf 'exec(input())\n' >"$src/a.py"
# A PATH with bandit and nothing else: no bwrap, no firejail.
ln -s "$(command -v bandit)" "$TEST_TMP/tools/bandit"
agg=$out/ash_aggregated_results.json

# A named backend that is not installed: ERROR, never falls back.
PATH=$TEST_TMP/tools "$ASH" scan --source-dir "$src" --output-dir "$out" \
  --no-progress --scanners bandit --sandbox firejail >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "named backend unavailable: exit 1" "$?" 1
assert_file_contains "logged as the spec shows" "$TEST_TMP/err" \
  "ERROR    bandit not run: scanner sandbox unavailable: firejail is not installed"
assert_file_contains "in ash.log too" "$out/ash.log" \
  "bandit not run: scanner sandbox unavailable: firejail is not installed"
assert_file_contains "bandit is ERROR" "$TEST_TMP/out" "bandit           ERROR"
assert_file_contains "error_reason carries the reason" "$agg" \
  '"error_reason": "scanner sandbox unavailable: firejail is not installed'
assert_file_lacks "no missing_reason for it" "$agg" '"missing_reason": "scanner sandbox'
check "bandit did not run" test ! -e "$out/scanners/bandit/source/bandit.json"

# --sandbox auto with no backend that works: a copy of ash without its
# ash-landlock-exec beside it, and no bwrap or firejail on PATH.
mkdir -p "$TEST_TMP/lonely"
cp "$ASH" "$TEST_TMP/lonely/ash"
if [ -e /usr/local/libexec/ash/ash-landlock-exec ]; then
  ok "auto with nothing usable # SKIP an installed ash-landlock-exec is found"
else
  PATH=$TEST_TMP/tools "$TEST_TMP/lonely/ash" scan --source-dir "$src" \
    --output-dir "$out" --no-progress --scanners bandit --sandbox auto \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "auto, nothing usable: exit 1" "$?" 1
  assert_file_contains "logged with auto's reason" "$TEST_TMP/err" \
    "ERROR    bandit not run: scanner sandbox unavailable: --sandbox auto found no working sandbox ("
  assert_file_contains "each backend's reason is listed" "$TEST_TMP/err" "bwrap is not installed"
  assert_file_contains "bandit is MISSING" "$TEST_TMP/out" "bandit           MISSING"
  assert_file_contains "missing_reason carries the reason" "$agg" \
    '"missing_reason": "scanner sandbox unavailable: --sandbox auto found no working sandbox ('
  check "bandit did not run" test ! -e "$out/scanners/bandit/source/bandit.json"
fi
# The control: the same copy and PATH run bandit with --sandbox off.
PATH=$TEST_TMP/tools "$TEST_TMP/lonely/ash" scan --source-dir "$src" \
  --output-dir "$out" --no-progress --scanners bandit --sandbox off \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "control: --sandbox off runs bandit (findings, exit 2)" "$?" 2
check "control: bandit wrote its report" test -f "$out/scanners/bandit/source/bandit.json"

# A policy refusal: the tool sits in a directory directly in the home
# that is not a bin directory, so it cannot be mounted.  The fake tool
# records every run, so a probe that ran unsandboxed would show.
if ! "$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1 || ! grep -q '^bwrap: usable' "$TEST_TMP/probe"; then
  ok "policy refusal # SKIP bwrap is not usable here"
else
  home=$TEST_TMP/home
  mkdir -p "$home/tools"
  cat >"$home/tools/bandit" <<EOS
#!/bin/sh
echo "\$*" >>"$TEST_TMP/bandit-ran"
exit 0
EOS
  chmod +x "$home/tools/bandit"
  HOME=$home PATH=$home/tools:/usr/bin:/bin "$ASH" scan --source-dir "$src" \
    --output-dir "$out" --no-progress --scanners bandit --sandbox bwrap \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "policy refusal: exit 1" "$?" 1
  assert_file_contains "the refusal is logged while checking" "$TEST_TMP/err" \
    "ERROR    bandit cannot be sandboxed as requested: its tool $home/tools/bandit cannot be mounted"
  assert_file_lacks "the reason is not said twice" "$TEST_TMP/err" \
    "cannot be sandboxed as requested: bandit cannot be sandboxed"
  assert_file_contains "bandit is ERROR" "$TEST_TMP/out" "bandit           ERROR"
  assert_file_contains "error_reason carries it" "$agg" \
    '"error_reason": "bandit cannot be sandboxed as requested: its tool '
  rec=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]["bandit"].get("sandbox") or {}
print(r.get("mode"), r.get("backend"), (r.get("refusal") or "").startswith("bandit cannot be sandboxed as requested: its tool "))' "$agg")
  assert_eq "the refused policy is recorded, with its refusal" "$rec" "bwrap bwrap True"
  check "neither its probe nor its scan ran unsandboxed" test ! -e "$TEST_TMP/bandit-ran"
  # explain computes the same policy through the same function, and says
  # the refusal once.
  HOME=$home PATH=$home/tools:/usr/bin:/bin "$ASH" sandbox explain bandit \
    --source-dir "$src" --output-dir "$out" --sandbox bwrap \
    >"$TEST_TMP/explain" 2>"$TEST_TMP/explain.err"
  assert_file_contains "explain prints the refusal" "$TEST_TMP/explain.err" \
    "bandit cannot be sandboxed as requested: its tool $home/tools/bandit cannot be mounted"
  assert_file_lacks "explain does not say it twice" "$TEST_TMP/explain.err" \
    "cannot be sandboxed as requested: bandit cannot be sandboxed"
  assert_file_contains "explain's record carries the same refusal" \
    "$TEST_TMP/explain" '"refusal": "bandit cannot be sandboxed as requested: its tool '
  check "explain ran nothing" test ! -e "$TEST_TMP/bandit-ran"
  # The control: with --sandbox off the same tool runs (probe and scan).
  HOME=$home PATH=$home/tools:/usr/bin:/bin "$ASH" scan --source-dir "$src" \
    --output-dir "$out" --no-progress --scanners bandit --sandbox off \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  check "control: the fake tool ran with --sandbox off" test -s "$TEST_TMP/bandit-ran"
fi

# A config section that renames its scanner: MISSING under a sandbox.
cfg=$TEST_TMP/ash.yaml
printf 'scanners:\n  bandit:\n    name: grype\n' >"$cfg"
PATH=/usr/bin:/bin "$ASH" scan --source-dir "$src" --output-dir "$out" \
  --no-progress --scanners bandit --sandbox auto --config "$cfg" \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "renamed section: exit 1" "$?" 1
assert_file_contains "MISSING with the spec's reason" "$agg" \
  "\"missing_reason\": \"grype: the config names this scanner 'grype', but its own name is 'bandit'\""
assert_file_contains "logged" "$TEST_TMP/err" \
  "ERROR    bandit not run: grype: the config names this scanner 'grype', but its own name is 'bandit'"
check "bandit did not run" test ! -e "$out/scanners/bandit/source/bandit.json"
done_testing
