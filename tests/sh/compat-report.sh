#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream's `ash report --report-format NAME` (and its --format): one
# report printed again from the output directory's
# ash_aggregated_results.json, the same bytes the scan wrote into
# reports/, with the configuration's reporter options; nothing scanned,
# nothing written.  A cloud reporter is refused (exit 3), an unknown name
# is a usage error (exit 5), no earlier results or nothing to report is
# exit 1.
. "$top_srcdir/tests/libtest.sh"

tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$tools/syft"
cp "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
PATH=$tools:$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES ASH_OUTPUT_DIR CI SYFT_FAKE_MODE
mods=$top_srcdir/tests/fixtures/plugins/report-inject.yaml
src=$TEST_TMP/src
out=$TEST_TMP/results
mkdir -p "$src"
printf 'x\n' >"$src/plain.txt"
files='sarif:ash.sarif markdown:ash.summary.md text:ash.summary.txt flat-json:ash.flat.json
html:ash.html junitxml:ash.junit.xml csv:ash.csv cyclonedx:ash.cdx.json
gitlab-sast:ash.gl-sast-report.json github-ghas:ash.ghas.sarif ocsf:ash.ocsf.json
yaml:ash.yaml spdx:ash.spdx.json gitlab-cyclonedx:ash.gl-dependency-scanning-report.cdx.json
unused-suppressions:ash.unused-suppressions.json'
all=$(for f in $files; do printf '%s,' "${f%%:*}"; done)
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners report-inject,syft -f "${all%,}"
assert_eq "the scan runs (exit 2, the finding)" "$status" 2

listing () {
  (cd "$out" && find . -exec ls -ld --time-style=+%s.%N {} + | sort)
}
listing >"$TEST_TMP/before"

# report NAME: `ash report` of the scan's output directory for NAME.
report () {
  run_ash report --source-dir "$src" --output-dir "$out" --report-format "$1"
}
for f in $files; do
  report "${f%%:*}"
  assert_eq "report --report-format ${f%%:*}: exit 0" "$status" 0
  check "report --report-format ${f%%:*}: the bytes of reports/${f#*:}" \
    cmp -s "$TEST_TMP/out" "$out/reports/${f#*:}"
done
run_ash report --source-dir "$src" --output-dir "$out"
check "report without a format: the markdown summary, as upstream" \
  cmp -s "$TEST_TMP/out" "$out/reports/ash.summary.md"
run_ash report --source-dir "$src" --output-dir "$out" --format csv
check "--format is upstream's spelling of --report-format" \
  cmp -s "$TEST_TMP/out" "$out/reports/ash.csv"
run_ash report --source-dir "$src" --output-dir "$out" --format csv --report-format sarif
check "... the last one given wins" cmp -s "$TEST_TMP/out" "$out/reports/ash.sarif"
check "the output directory is as the scan left it" \
  sh -c 'listing () { (cd "$1" && find . -exec ls -ld --time-style=+%s.%N {} + | sort); }; listing "$1" | cmp -s - "$2"' sh "$out" "$TEST_TMP/before"

# The configuration's reporter options apply.
printf 'reporters:\n  markdown:\n    options:\n      include_summary: false\n' >"$TEST_TMP/c.yaml"
run_ash report --source-dir "$src" --output-dir "$out" -c "$TEST_TMP/c.yaml"
assert_eq "reporters.markdown.options: exit 0" "$status" 0
assert_file_lacks "include_summary: false: no scanner table" "$TEST_TMP/out" "| Scanner | Status"
assert_file_contains "control: the scan's summary has it" "$out/reports/ash.summary.md" "| Scanner | Status"
printf 'reporters:\n  markdown:\n    options:\n      include_sumary: false\n' >"$TEST_TMP/c.yaml"
run_ash report --source-dir "$src" --output-dir "$out" -c "$TEST_TMP/c.yaml"
assert_eq "a misspelt reporter option: a configuration error (exit 3)" "$status" 3

# Refusals.
for r in s3 bedrock-summary-reporter; do
  report "$r"
  assert_eq "report --report-format $r: exit 3" "$status" 3
  assert_file_contains "... not available, and why" "$TEST_TMP/err" "reporter '$r' is not available in ash: "
done
report pdf
assert_eq "report --report-format pdf: a usage error (exit 5)" "$status" 5
assert_file_contains "... naming the reporters" "$TEST_TMP/err" "unknown reporter 'pdf' for --report-format (expected one of: sarif, markdown,"
run_ash report --source-dir "$src" --output-dir "$TEST_TMP/none"
assert_eq "no earlier results: exit 1" "$status" 1
assert_file_contains "... saying so" "$TEST_TMP/err" "no results of an earlier scan: "
check_fails "... and nothing created" test -e "$TEST_TMP/none"
mkdir -p "$TEST_TMP/bad"
printf '{"metadata": 1}' >"$TEST_TMP/bad/ash_aggregated_results.json"
run_ash report --source-dir "$src" --output-dir "$TEST_TMP/bad"
assert_eq "a file that is not ash's results: exit 1" "$status" 1
assert_file_contains "... saying so" "$TEST_TMP/err" "is not ash's aggregated results"
rm "$TEST_TMP/bad/ash_aggregated_results.json"
ln -s "$out/ash_aggregated_results.json" "$TEST_TMP/bad/ash_aggregated_results.json"
run_ash report --source-dir "$src" --output-dir "$TEST_TMP/bad"
assert_eq "results that are a symbolic link are not followed: exit 1" "$status" 1
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/nosbom" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners report-inject
run_ash report --source-dir "$src" --output-dir "$TEST_TMP/nosbom" --report-format gitlab-cyclonedx
assert_eq "gitlab-cyclonedx without an SBOM: exit 1" "$status" 1
assert_file_contains "... nothing to report" "$TEST_TMP/err" "report gitlab-cyclonedx: nothing to report"
check_fails "... and nothing on stdout" test -s "$TEST_TMP/out"

done_testing
