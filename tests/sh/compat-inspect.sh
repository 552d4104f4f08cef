#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream's `ash inspect sarif-fields`: the field paths of the SARIF
# results each scanner wrote (OUTPUT/scanners/NAME/**/*.sarif) and each
# SARIF report (OUTPUT/reports/*.sarif, "ash" for ash.sarif), written to
# OUTPUT/inspect/sarif_fields.json and .csv, with a summary.  A link below
# scanners/ is not followed, and names are shown as text.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES ASH_OUTPUT_DIR CI
src=$TEST_TMP/src
res=$TEST_TMP/results
mkdir -p "$src"
printf 'x\n' >"$src/plain.txt"
run_ash scan --source-dir "$src" --output-dir "$res" --no-progress --sandbox off \
  --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/report-inject.yaml" \
  --scanners report-inject -f sarif,github-ghas
assert_eq "the scan runs (exit 2, the finding)" "$status" 2

inspect () {
  run_ash inspect sarif-fields --source-dir "$src" --output-dir "$1"
}
# scanners FIELD: the scanners the last sarif_fields.json lists for FIELD.
scanners () {
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(d.get(sys.argv[2], {})))' "$res/inspect/sarif_fields.json" "runs[].results[].$1"
}

inspect "$res"
assert_eq "inspect sarif-fields: exit 0" "$status" 0
assert_eq "ruleId: the scanner, ash.sarif and the GitHub report" "$(scanners ruleId)" "['ash', 'ash.ghas', 'report-inject']"
assert_eq "uriBaseId: only the GitHub report writes it" \
  "$(scanners locations[].physicalLocation.artifactLocation.uriBaseId)" "['ash.ghas']"
assert_eq "properties are not expanded: the field, none below it" \
  "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("runs[].results[].properties" in d, [k for k in d if k.startswith("runs[].results[].properties.")])' "$res/inspect/sarif_fields.json")" \
  "True []"
assert_eq "the CSV's header" "$(head -n 1 "$res/inspect/sarif_fields.csv" | tr -d '\r')" "field,scanners"
assert_file_contains "the CSV lists ruleId with its scanners" "$res/inspect/sarif_fields.csv" '"runs[].results[].ruleId","ash, ash.ghas, report-inject"'
assert_file_contains "the summary: the scanners" "$TEST_TMP/out" "Total unique scanners"
assert_eq "the summary: report-inject's fields are all in ash.sarif" \
  "$(sed -n 's/^  report-inject  *\([0-9]*\) *\([0-9]*\) *\([0-9]*\)$/\3/p' "$TEST_TMP/out")" 0

# Scanner output below scanners/: a link is not followed; a scanner
# directory named to drive the terminal is shown as text; a file that is
# not JSON is left out with a warning.
esc=$(printf '\033')
printf '{"runs": [{"results": [{"outsideOnly": 1}]}]}' >"$TEST_TMP/outside.sarif"
mkdir -p "$res/scanners/evil"
ln -s "$TEST_TMP/outside.sarif" "$res/scanners/evil/link.sarif"
mkdir -p "$res/scanners/ev${esc}[2Jil"
printf '{"runs": [{"results": [{"ruleId": "x"}]}]}' >"$res/scanners/ev${esc}[2Jil/a.sarif"
printf 'not json' >"$res/scanners/evil/broken.sarif"
inspect "$res"
assert_eq "with hostile scanner output: exit 0" "$status" 0
assert_eq "a linked SARIF file is not read" "$(scanners outsideOnly)" "[]"
check_fails "no raw ESC on stdout" grep -q "$esc" "$TEST_TMP/out"
assert_file_contains "the directory's name shown as text" "$TEST_TMP/out" 'ev\e[2Jil'
assert_file_contains "a file that is not JSON: a warning" "$TEST_TMP/err" "scanners/evil/broken.sarif: not JSON, left out"
rm "$res/scanners/evil/link.sarif"
cp "$TEST_TMP/outside.sarif" "$res/scanners/evil/copy.sarif"
inspect "$res"
assert_eq "control: the same file, not a link, is read" "$(scanners outsideOnly)" "['evil']"

# Refusals.
inspect "$TEST_TMP/none"
assert_eq "no output directory: exit 1" "$status" 1
assert_file_contains "... saying so" "$TEST_TMP/err" "no results of an earlier scan: "
check_fails "... and nothing created" test -e "$TEST_TMP/none"
mkdir -p "$TEST_TMP/empty"
inspect "$TEST_TMP/empty"
assert_eq "no SARIF files: exit 1" "$status" 1
assert_file_contains "... saying so" "$TEST_TMP/err" "no SARIF files found in"

done_testing
