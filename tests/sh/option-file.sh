#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The option-file rule for bandit: a repository's .ash/.ash.yaml whose
# scanners.bandit.options.config_file names a file in the tree that skips
# every test does not silence bandit: ash warns and runs bandit without it,
# and the findings are still reported.  Control: the same option from
# --config-overrides (the operator's) is passed, and bandit then reports
# nothing, which proves the file really silences it (it skips every test
# but B101, assert, which the repository does not use).
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

repo=$TEST_TMP/repo
cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$repo"
chmod -R u+w "$repo"
mkdir -p "$repo/.git" "$repo/.ash"
tests=$(bandit -h 2>/dev/null | sed -n "s/^[[:space:]]*\(B[0-9][0-9][0-9]\)[[:space:]].*/\1/p" | grep -v B101 | paste -sd, -)
[ -n "$tests" ] || bail "cannot list bandit's tests"
printf 'skips: [%s]\n' "$tests" >"$repo/quiet.yaml"
printf 'scanners:\n  bandit:\n    options:\n      config_file: quiet.yaml\n' \
  >"$repo/.ash/.ash.yaml"

count () {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scanner_results"]["bandit"]["finding_count"])' \
    "$1/ash_aggregated_results.json"
}

run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out1" --scanners bandit --no-progress
assert_eq "repository's config_file: findings still fail the scan (exit 2)" "$status" 2
assert_file_contains "a warning names the option and why" "$TEST_TMP/err" \
  "bandit: not passing scanners.bandit.options.config_file ($repo/quiet.yaml) to the scanner"
n=$(count "$TEST_TMP/out1")
check "bandit reported findings ($n)" test "$n" -gt 0
check_fails "bandit was not given the file" grep -q -- "quiet.yaml" "$TEST_TMP/out1/scanners/bandit/source/bandit.stderr.log"

# Control: the operator's override passes the same file.
run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out2" --scanners bandit --no-progress \
  --config-overrides "scanners.bandit.options.config_file=$repo/quiet.yaml"
assert_eq "control: the operator's config_file is passed (exit 0)" "$status" 0
assert_eq "control: and silences bandit" "$(count "$TEST_TMP/out2")" 0
assert_file_lacks "control: no warning" "$TEST_TMP/err" "not passing scanners.bandit.options.config_file"

done_testing
