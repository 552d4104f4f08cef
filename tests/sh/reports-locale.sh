#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Machine-readable outputs do not depend on the locale: under de_DE.UTF-8,
# whose decimal separator is a comma, JUnit's time attributes, the text
# summary's durations and the JSON documents keep the decimal point.  The
# locale is compiled into the test's directory (LOCPATH), and a control
# shows that it does print a decimal comma.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v localedef >/dev/null 2>&1 || skip_all "localedef is not installed"
locales=$TEST_TMP/locales
mkdir -p "$locales"
localedef -i de_DE -f UTF-8 "$locales/de_DE.UTF-8" >"$TEST_TMP/localedef.out" 2>&1 \
  || skip_all "localedef cannot build de_DE.UTF-8 (no locale sources): $(tail -n 1 "$TEST_TMP/localedef.out")"
de () {
  env LOCPATH="$locales" LC_ALL=de_DE.UTF-8 "$@"
}
assert_eq "control: de_DE.UTF-8 writes a decimal comma" "$(de /usr/bin/printf '%.3f' 1.5)" "1,500"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES CI
src=$TEST_TMP/src
out=$TEST_TMP/out
mkdir -p "$src"
printf 'x\n' >"$src/plain.txt"
de "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/report-inject.yaml" \
  --scanners report-inject -f junitxml,text,flat-json,sarif,cyclonedx,ocsf,gitlab-sast \
  >"$TEST_TMP/out.txt" 2>"$TEST_TMP/err"
assert_eq "the scan under de_DE.UTF-8 runs (exit 2, the finding)" "$?" 2

junit=$out/reports/ash.junit.xml
check "junit: a report" test -s "$junit"
check "junit: every time attribute has a decimal point" \
  python3 -c 'import re, sys
t = re.findall(r"time=\"([^\"]*)\"", open(sys.argv[1]).read())
sys.exit(0 if t and all(re.fullmatch(r"[0-9]+\.[0-9]{3}", x) for x in t) else 1)' "$junit"
check_fails "junit: no time with a decimal comma" grep -q 'time="[0-9]*,' "$junit"
check_fails "text summary: no duration with a decimal comma" grep -Eq '[0-9],[0-9]s' "$out/reports/ash.summary.txt"
assert_file_contains "text summary: durations with a decimal point" "$out/reports/ash.summary.txt" ".0s"
for f in ash.flat.json ash.sarif ash.cdx.json ash.ocsf.json ash.gl-sast-report.json; do
  check "$f: parses as JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/reports/$f"
done
assert_eq "aggregated results: summary_stats.duration is a JSON number" \
  "$(python3 -c 'import json, sys; print(type(json.load(open(sys.argv[1]))["metadata"]["summary_stats"]["duration"]).__name__)' "$out/ash_aggregated_results.json")" \
  float

done_testing
