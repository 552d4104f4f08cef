#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream ASH v3's configuration keys that ash accepts with their meaning:
# external_reports_to_include (SARIF from below the scanned directory
# only), reporters.NAME.extension, scanners.NAME.options.severity_threshold
# (taking effect on that scanner's findings and status), the scanner-level
# severity_threshold upstream ignores (accepted with a warning saying where
# it belongs), and upstream's plugin module names mapped to ash's module
# files with the tier rules applied to the mapped file.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES CI
src=$TEST_TMP/src
out=$TEST_TMP/results
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
mkdir -p "$src/sub"
printf 'FAKE-FINDING low\nFAKE-FINDING medium\n' >"$src/a.txt"

agg () {
  python3 -c "
import json, sys
a = json.load(open(sys.argv[1] + '/ash_aggregated_results.json'))
r = a['scanner_results']
print($1)" "$out"
}
scan () {
  run_ash scan --source-dir "$src" --output-dir "$out" -P \
    --ash-plugin-modules "$mods" --scanners fake-sarif "$@"
}
conf () { printf "$1" >"$TEST_TMP/c.yaml"; }

# scanners.NAME.options.severity_threshold takes effect on that scanner.
conf 'scanners:\n  fake-sarif:\n    options:\n      severity_threshold: LOW\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "options.severity_threshold LOW: both findings actionable" "$(agg "r['fake-sarif']['actionable_count'], r['fake-sarif']['status']")" "2 FAILED"
conf 'global_settings:\n  severity_threshold: LOW\nscanners:\n  fake-sarif:\n    options:\n      severity_threshold: HIGH\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "options.severity_threshold HIGH wins over the global LOW" "$(agg "r['fake-sarif']['actionable_count'], r['fake-sarif']['status']")" "0 PASSED"
assert_eq "... and the scan exits 0" "$status" 0
scan -c "$TEST_TMP/c.yaml" --min-severity LOW
assert_eq "--min-severity wins over the scanner's" "$(agg "r['fake-sarif']['actionable_count']")" 2
conf 'scanners:\n  fake-sarif:\n    options:\n      severity_threshold: null\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "options.severity_threshold null: the global MEDIUM" "$(agg "r['fake-sarif']['actionable_count']")" 1
conf 'scanners:\n  fake-sarif:\n    options:\n      severity_threshold: SEVERE\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "a bad options.severity_threshold is a configuration error" "$status" 3
assert_file_contains "... naming the key" "$TEST_TMP/err" "scanners.fake-sarif.options.severity_threshold"
conf 'scanners:\n  semgrep:\n    options:\n      severity_threshold: LOW\n  bandit:\n    options:\n      severity_threshold: CRITICAL\n'
"$ASH" config validate --source-dir "$src" -c "$TEST_TMP/c.yaml" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "builtin scanners accept options.severity_threshold" "$?" 0

# Upstream accepts scanners.NAME.severity_threshold and ignores it: ash
# too, with a warning saying where it belongs.
conf 'scanners:\n  fake-sarif:\n    severity_threshold: HIGH\n'
scan -c "$TEST_TMP/c.yaml"
assert_file_contains "misplaced severity_threshold: the warning" "$TEST_TMP/err" \
  "scanners.fake-sarif.severity_threshold does nothing there (upstream ignores it too); it belongs in scanners.fake-sarif.options.severity_threshold"
assert_eq "misplaced severity_threshold: no effect" "$(agg "r['fake-sarif']['actionable_count']")" 1
"$ASH" config validate --source-dir "$src" -c "$TEST_TMP/c.yaml" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "config validate accepts it" "$?" 0
assert_file_contains "config validate warns" "$TEST_TMP/err" "it belongs in scanners.fake-sarif.options.severity_threshold"

# reporters.NAME.extension names the report file ash.EXTENSION.
conf 'reporters:\n  markdown:\n    extension: md.txt\n  html:\n    extension: report.html\n'
rm -rf "$out"
scan -c "$TEST_TMP/c.yaml"
check "markdown extension md.txt: reports/ash.md.txt" test -s "$out/reports/ash.md.txt"
check "... instead of ash.summary.md" test ! -e "$out/reports/ash.summary.md"
check "html extension: reports/ash.report.html" test -s "$out/reports/ash.report.html"
for bad in ../x /etc/x .hidden 'a b' ''; do
  printf 'reporters:\n  markdown:\n    extension: "%s"\n' "$bad" >"$TEST_TMP/c.yaml"
  scan -c "$TEST_TMP/c.yaml"
  assert_eq "extension '$bad' is refused (exit 3)" "$status" 3
done
conf 'reporters:\n  markdown:\n    extension: sarif\n'
rm -rf "$out"
scan -c "$TEST_TMP/c.yaml"
assert_file_contains "an extension that names another report's file: an error" "$TEST_TMP/err" "is the file of another report"
assert_file_contains "... that report is not overwritten" "$out/reports/ash.sarif" '"version"'

# reporters.markdown.options and reporters.text.options.
printf 'FAKE-FINDING high\nFAKE-FINDING high\nFAKE-FINDING high\n' >"$src/sub/b.txt"
conf 'reporters:\n  markdown:\n    options:\n      include_summary: false\n      max_detailed_findings: 1\n      top_hotspots_limit: 1\n      use_collapsible_details: true\n  text:\n    options:\n      include_detailed_findings: false\n      top_hotspots_limit: 2\n'
scan -c "$TEST_TMP/c.yaml"
md=$out/reports/ash.summary.md
txt=$out/reports/ash.summary.txt
assert_file_lacks "markdown include_summary false: no scanner table" "$md" "| Scanner | Status"
assert_eq "markdown max_detailed_findings 1: one finding row" "$(grep -c '^| high\|^| medium\|^| low' "$md")" 1
assert_file_contains "markdown: how many are not listed" "$md" "4 more findings are not listed"
assert_file_contains "markdown top_hotspots_limit: the file with most findings" "$md" "| sub\/b\.txt | 3 |"
assert_file_lacks "markdown top_hotspots_limit 1: only one" "$md" "| a\.txt |"
assert_file_contains "markdown use_collapsible_details" "$md" "<details>"
assert_file_lacks "text include_detailed_findings false: no findings" "$txt" "Findings:"
assert_file_contains "text top_hotspots_limit 2" "$txt" "a.txt: 2"
conf 'project_name: x\n'
scan -c "$TEST_TMP/c.yaml"
assert_file_contains "control: by default the markdown has the scanner table" "$md" "| Scanner | Status"
assert_eq "control: by default the markdown lists every finding" "$(grep -c '^| high\|^| medium\|^| low' "$md")" 5
assert_file_lacks "control: no hotspots by default" "$md" "Hotspots"
assert_file_contains "control: the text lists the findings" "$txt" "Findings:"
conf 'reporters:\n  markdown:\n    options:\n      include_sumary: true\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "a misspelt markdown option is a configuration error" "$status" 3
conf 'reporters:\n  text:\n    options:\n      max_detailed_findings: -1\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "a negative max_detailed_findings is a configuration error" "$status" 3
rm -f "$src/sub/b.txt"

# external_reports_to_include: SARIF from below the scanned directory.
cat >"$src/sub/other.sarif" <<'JSON'
{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "other-tool"}}, "results": [
 {"ruleId": "OT1", "level": "error", "message": {"text": "from another tool"},
  "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.txt"}, "region": {"startLine": 2}}}]}]}]}
JSON
conf 'external_reports_to_include: [sub/other.sarif]\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "an external report: its findings are a row" "$(agg "r['external-reports']['status'], r['external-reports']['finding_count'], r['external-reports']['actionable_count']")" "FAILED 1 1"
assert_file_contains "... in the SARIF report" "$out/reports/ash.sarif" "from another tool"
printf 'external_reports_to_include: ["%s/sub/other.sarif"]\n' "$src" >"$TEST_TMP/c.yaml"
scan -c "$TEST_TMP/c.yaml"
assert_eq "an absolute path inside the scanned directory" "$(agg "r['external-reports']['finding_count']")" 1
conf 'external_reports_to_include: [sub/other.sarif]\nglobal_settings:\n  suppressions:\n    - path: a.txt\n      rule_id: OT1\n      reason: known\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "suppressions apply to external findings" "$(agg "r['external-reports']['suppressed_count']")" 1
printf 'secret\n' >"$TEST_TMP/outside.sarif"
ln -s "$TEST_TMP/outside.sarif" "$src/link.sarif"
for p in /etc/passwd ../outside.sarif "$TEST_TMP/outside.sarif" link.sarif; do
  printf 'external_reports_to_include: ["%s"]\n' "$p" >"$TEST_TMP/c.yaml"
  scan -c "$TEST_TMP/c.yaml"
  assert_eq "external report $p is refused: ERROR, exit 1" "$(agg "r['external-reports']['status']") $status" "ERROR 1"
  assert_file_lacks "... its content is in no report" "$out/reports/ash.sarif" "secret"
done
rm -f "$src/link.sarif"
conf 'external_reports_to_include: [a.txt]\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "a file that is not SARIF: ERROR" "$(agg "r['external-reports']['status']")" ERROR
assert_file_contains "... naming it" "$out/ash_aggregated_results.json" "external_reports_to_include: a.txt:"
conf 'external_reports_to_include: []\n'
scan -c "$TEST_TMP/c.yaml"
assert_eq "an empty list: no row" "$(agg "'external-reports' in r")" False

# Upstream's plugin module names map to ash's module files.
# (installed: copied out of the checkout the tests run in)
mkdir -p "$TEST_TMP/plugins"
cp "$top_srcdir"/data/plugins/*.yaml "$TEST_TMP/plugins/"
ASH_PLUGIN_PATH=$TEST_TMP/plugins
export ASH_PLUGIN_PATH
run_ash scan --source-dir "$src" --output-dir "$out" -P --scanners trivy-repo \
  --ash-plugin-modules automated_security_helper.plugin_modules.ash_trivy_plugins
assert_eq "--ash-plugin-modules ...ash_trivy_plugins loads trivy-repo" "$(agg "'trivy-repo' in r and r['trivy-repo']['status'] != 'SKIPPED'")" True
repo=$TEST_TMP/repo
mkdir -p "$repo/.git" "$repo/.ash"
printf 'FAKE-FINDING high\n' >"$repo/a.txt"
cat >"$repo/.ash/.ash.yaml" <<'YAML'
ash_plugin_modules:
  - automated_security_helper.plugin_modules.ash_snyk_plugins
  - automated_security_helper.plugin_modules.ash_trivy_plugins
  - automated_security_helper.plugin_modules.ash_ferret_plugins
YAML
run_ash scan --source-dir "$repo" --output-dir "$out" -P --scanners bandit
assert_file_contains "a repository's ash_snyk_plugins stays reserved" "$TEST_TMP/err" \
  "Not loading plugin module 'automated_security_helper.plugin_modules.ash_snyk_plugins' named by $repo/.ash/.ash.yaml: ash_aws_plugins and ash_snyk_plugins"
assert_file_contains "trivy-repo's file is judged: it declares a network" "$TEST_TMP/err" \
  "trivy-repo.yaml' named by $repo/.ash/.ash.yaml: it declares a network"
assert_file_contains "ferret-scan's file is judged: it declares environment variables" "$TEST_TMP/err" \
  "ferret-scan.yaml' named by $repo/.ash/.ash.yaml: it declares environment variables"
assert_eq "none loads from the repository's file" "$(agg "'trivy-repo' in r, 'snyk-code' in r, 'ferret-scan' in r")" "False False False"
run_ash scan --source-dir "$repo" --output-dir "$out" -P --scanners ferret-scan,bandit \
  --ash-plugin-modules automated_security_helper.plugin_modules.ash_ferret_plugins
assert_eq "control: the operator's ash_ferret_plugins loads ferret-scan" "$(agg "'ferret-scan' in r")" True
done_testing
