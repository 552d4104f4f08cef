#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scanners.bandit.options: the options ash builds are accepted (with
# upstream's excluded_paths mappings of path and reason reaching bandit);
# an unknown option, tool_version, install_timeout and additional_formats
# are configuration errors naming the option, before anything runs.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/py-small
cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$src"

# Control: every supported option at once.
cat >"$TEST_TMP/good.yaml" <<'EOF2'
scanners:
  bandit:
    options:
      confidence_level: low
      ignore_nosec: false
      additional_formats: []
      excluded_paths:
        - {path: pkg/runner.py, reason: generated}
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/good" --no-progress \
  --sandbox off --scanners bandit --config "$TEST_TMP/good.yaml"
check "supported options: the scan runs (exit $status)" test "$status" -eq 0 -o "$status" -eq 2
check "bandit's results are written" test -f "$TEST_TMP/good/reports/ash.sarif"
python3 - "$TEST_TMP/good/reports/ash.sarif" >"$TEST_TMP/uris" <<'PY'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run["results"]:
        print(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
PY
assert_file_contains "other files are still scanned" "$TEST_TMP/uris" "pkg/ignored.py"
assert_file_lacks "an excluded_paths mapping reaches bandit" "$TEST_TMP/uris" "pkg/runner.py"

# skips and tests (upstream's bandit options) reach bandit as -s and -t.
rules () {
  python3 -c '
import json, sys
print(" ".join(sorted({r["ruleId"] for run in json.load(open(sys.argv[1]))["runs"] for r in run["results"]})))' "$1"
}
printf 'scanners:\n  bandit:\n    options:\n      skips: [B404, B602]\n' >"$TEST_TMP/skips.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/skips" --no-progress \
  --sandbox off --scanners bandit --config "$TEST_TMP/skips.yaml"
assert_eq "skips: those tests do not run" "$(rules "$TEST_TMP/skips/reports/ash.sarif")" "B301 B403"
printf 'scanners:\n  bandit:\n    options:\n      tests: [B602]\n' >"$TEST_TMP/tests.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/tests" --no-progress \
  --sandbox off --scanners bandit --config "$TEST_TMP/tests.yaml"
assert_eq "tests: only those run" "$(rules "$TEST_TMP/tests/reports/ash.sarif")" "B602"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/all" --no-progress \
  --sandbox off --scanners bandit
assert_eq "control: without them, all four" "$(rules "$TEST_TMP/all/reports/ash.sarif")" "B301 B403 B404 B602"

refused ()
{
  # $1: description; $2: option line; $3: expected message
  printf 'scanners:\n  bandit:\n    options:\n      %s\n' "$2" >"$TEST_TMP/bad.yaml"
  rm -rf "$TEST_TMP/bad"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress \
    --sandbox off --scanners bandit --config "$TEST_TMP/bad.yaml"
  assert_eq "$1: exit 3" "$status" 3
  assert_file_contains "$1: the error names the option" "$TEST_TMP/err" "$3"
  check "$1: bandit did not run" test ! -e "$TEST_TMP/bad/scanners/bandit"
}
refused "unknown option" "profile: strict" \
  "scanners.bandit.options.profile: ash does not support this option of bandit"
refused "skips that are not test ids" "skips: ['-r/etc']" \
  "scanners.bandit.options.skips must list test ids"
refused "misspelt option" "confidence: high" \
  "scanners.bandit.options.confidence: ash does not support this option of bandit"
refused "bad confidence_level" "confidence_level: extreme" \
  "scanners.bandit.options.confidence_level: 'extreme' is not one of"
refused "tool_version that is not a constraint" "tool_version: '1.7.0'" \
  "scanners.bandit.options.tool_version: '1.7.0' is not a version constraint"
refused "install_timeout of 0" "install_timeout: 0" \
  "scanners.bandit.options.install_timeout must be a number of seconds"
refused "additional_formats" "additional_formats: [html]" \
  "scanners.bandit.options.additional_formats is not supported"
refused "excluded_paths of numbers" "excluded_paths: [1]" \
  "scanners.bandit.options.excluded_paths[0] must be a path"

done_testing
