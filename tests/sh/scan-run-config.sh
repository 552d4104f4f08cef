#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The config files ASH writes for a scanner's tool: a directory of the run's
# own, outside the scanned tree, mode 0700, removed when the run ends.
# bandit gets an empty --ini from it, so a .bandit committed to the
# repository does not turn its checks off.  Under a sandbox without cache
# overlays, a scanner's private caches are made under its results
# directory before the spawn and removed after.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
tmp=$TEST_TMP/tmp
# ASH's own directory in TMPDIR, which holds the run directories.
ud=$(ash_tmp_dir "$tmp")
mkdir -p "$src" "$tmp"
printf 'exec(input())\n' >"$src/a.py"
printf '[bandit]\nskips: B102\n' >"$src/.bandit"

# The control: bandit run directly takes the repository's .bandit.
bandit -r -f json "$src" >"$TEST_TMP/direct.json" 2>/dev/null
assert_file_lacks "control: bandit alone obeys the planted .bandit" "$TEST_TMP/direct.json" '"test_id": "B102"'

TMPDIR=$tmp run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --scanners bandit
assert_eq "the exec finding is reported (exit 2)" "$status" 2
assert_file_contains "B102 is in bandit's report" "$out/scanners/bandit/source/bandit.json" '"test_id": "B102"'
check "the run's config directory was made in ASH's own directory in TMPDIR" test -d "$ud"
check "the run's config directory is removed" sh -c "! ls '$ud' | grep -q ash-bandit-"

# What the tool sees: a fake bandit records its --ini file and the mode of
# the directory holding it, and UV_CACHE_DIR.
mkdir -p "$TEST_TMP/bin"
cp "$top_srcdir/tests/fixtures/tools/fake-bandit-ini" "$TEST_TMP/bin/bandit"
chmod +x "$TEST_TMP/bin/bandit"
PATH=$TEST_TMP/bin:/usr/bin:/bin TMPDIR=$tmp run_ash scan --source-dir "$src" \
  --output-dir "$out" --no-progress --scanners bandit
log=$out/scanners/bandit/source/bandit.stdout.log
assert_eq "fake bandit: exit 0" "$status" 0
assert_file_contains "the ini is in the run's directory in TMPDIR" "$log" "ini=$ud/ash-bandit-"
assert_file_contains "the ini is empty but for its section" "$log" "ini-body=[bandit]"
assert_file_contains "the directory is 0700" "$log" "dir-mode=700"
check "and it is removed after the run" sh -c "! ls '$ud' | grep -q ash-bandit-"
assert_eq "nothing else is left in TMPDIR" "$(ls -A "$tmp")" "$(basename "$ud")"

# A TMPDIR inside the scanned tree is not used.
mkdir -p "$src/tmp"
PATH=$TEST_TMP/bin:/usr/bin:/bin TMPDIR=$src/tmp run_ash scan --source-dir "$src" \
  --output-dir "$out" --no-progress --scanners bandit
assert_file_contains "a TMPDIR inside the tree is not used" "$log" "ini=$(ash_tmp_dir /tmp)/ash-bandit-"

# Private caches under Landlock (no cache overlays there).
if "$ASH" sandbox probe 2>&1 | grep -q '^landlock: usable'; then
  PATH=$TEST_TMP/bin:/usr/bin:/bin TMPDIR=$tmp run_ash scan --source-dir "$src" \
    --output-dir "$out" --no-progress --scanners bandit --sandbox landlock
  assert_eq "landlock: exit 0" "$status" 0
  assert_file_contains "the private cache is under the results directory" "$log" \
    "cache=$out/scanners/bandit/source/.cache/UV_CACHE_DIR"
  assert_file_contains "and it exists when the scanner starts" "$log" "cache-exists"
  check "it is removed after the spawn" test ! -e "$out/scanners/bandit/source/.cache"
  assert_file_contains "the sandboxed run gets the ini too" "$log" "ini=$ud/ash-bandit-"
else
  ok "private caches # SKIP landlock is not usable here"
fi
done_testing
