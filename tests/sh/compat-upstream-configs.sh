#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream's own configuration files and documented snippets
# (tests/fixtures/upstream-configs, origins in its README) are accepted
# unchanged and take effect: the project name, suppressions with "**/",
# ignore_paths, scanners turned off, per-scanner severity thresholds,
# reporters, expired suppressions warned about.  The plugin example, which
# names Python plugins ash cannot load, is refused naming what is missing.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_CONFIG ASH_SCANNERS ASH_EXCLUDED_SCANNERS CI
fix=$top_srcdir/tests/fixtures/upstream-configs
out=$TEST_TMP/results

agg () {
  python3 -c "
import json, sys
a = json.load(open(sys.argv[1] + '/ash_aggregated_results.json'))
r = a['scanner_results']
def bandit_uris(supp):
    return sorted({x['locations'][0]['physicalLocation']['artifactLocation']['uri'] + ':' + x['ruleId']
                   for run in r['bandit']['sarif']['runs'] if 'sarif' in r['bandit'] for x in run['results']
                   if bool(x.get('suppressions')) == supp} if 'sarif' in r['bandit'] else
                  {x['locations'][0]['physicalLocation']['artifactLocation']['uri'] + ':' + x['ruleId']
                   for run in a['sarif']['runs'] for x in run['results']
                   if x.get('properties', {}).get('scanner_name') == 'bandit' and bool(x.get('suppressions')) == supp})
print($1)" "$out"
}

# A tree like upstream's: tests with asserts, a virtualenv, test data.
src=$TEST_TMP/repo
mkdir -p "$src/.ash" "$src/tests/unit/deep" "$src/.venv/lib" "$src/tests/test_data" "$src/app"
printf 'def test_a():\n    assert 1 == 1\n' >"$src/tests/test_top.py"
printf 'def test_b():\n    assert 2 == 2\n' >"$src/tests/unit/deep/test_deep.py"
printf 'import subprocess\nsubprocess.call(input(), shell=True)\n' >"$src/.venv/lib/venv_mod.py"
printf 'import subprocess\nsubprocess.call(input(), shell=True)\n' >"$src/tests/test_data/data_mod.py"
printf 'import subprocess\nsubprocess.call(input(), shell=True)\nassert True\n' >"$src/app/main.py"

for f in ash-repo.ash.yaml ash-repo.ash_no_ignore.yaml docs-global-settings.yaml docs-scanners.yaml docs-converters.yaml; do
  "$ASH" config validate --source-dir "$src" -c "$fix/$f" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$f is accepted unchanged" "$?" 0
done

# upstream's own .ash/.ash.yaml, where upstream keeps it.
cp "$fix/ash-repo.ash.yaml" "$src/.ash/.ash.yaml"
run_ash scan --source-dir "$src" --output-dir "$out" -P --sandbox off --scanners bandit
assert_eq ".ash.yaml: the project name" "$(agg "a['metadata']['project_name']")" automated-security-helper
assert_eq ".ash.yaml: tests/**/*.py B101 suppresses the asserts at any depth" \
  "$(agg "bandit_uris(True)")" "['tests/test_top.py:B101', 'tests/unit/deep/test_deep.py:B101']"
assert_eq ".ash.yaml: **/.venv/** and tests/test_data/** count for nothing; app/ does" \
  "$(agg "[u for u in bandit_uris(False) if not u.startswith('app/main.py:')], 'app/main.py:B602' in bandit_uris(False)")" "[] True"
assert_file_contains ".ash.yaml: the expired suppression is warned about" "$TEST_TMP/err" \
  "run-shell-injection in .github/workflows/run-ash-security-scan.yml expired on 2026-06-01"
check ".ash.yaml: csv is enabled" test -s "$out/reports/ash.csv"
check ".ash.yaml: html is enabled" test -s "$out/reports/ash.html"
assert_eq ".ash.yaml: the exit code follows the actionable B602" "$status" 2
assert_file_contains ".ash.yaml: markdown use_collapsible_details" "$out/reports/ash.summary.md" "<details>"
assert_file_contains ".ash.yaml: markdown top_hotspots_limit" "$out/reports/ash.summary.md" "## Hotspots"
run_ash config get scanners.checkov.options.severity_threshold --source-dir "$src"
assert_eq ".ash.yaml: checkov's own threshold is read" "$(cat "$TEST_TMP/out")" LOW
rm -f "$src/.ash/.ash.yaml"

# .ash_no_ignore.yaml: opengrep off, no suppressions.
run_ash scan --source-dir "$src" --output-dir "$out" -P --sandbox off \
  --scanners bandit,opengrep -c "$fix/ash-repo.ash_no_ignore.yaml"
assert_eq ".ash_no_ignore.yaml: opengrep is off" "$(agg "r['opengrep']['status'], 'enabled' in r['opengrep'].get('skipped_reason', '') or 'disabled' in r['opengrep'].get('skipped_reason', '')")" "SKIPPED True"
assert_eq ".ash_no_ignore.yaml: nothing is suppressed" "$(agg "bandit_uris(True)")" "[]"
assert_eq "control: without ignore_paths, .venv and tests/test_data count" \
  "$(agg "'.venv/lib/venv_mod.py:B602' in bandit_uris(False), 'tests/test_data/data_mod.py:B602' in bandit_uris(False)")" "True True"

# The documented global_settings: ignore_paths and an expired suppression.
run_ash scan --source-dir "$src" --output-dir "$out" -P --sandbox off \
  --scanners bandit -c "$fix/docs-global-settings.yaml"
assert_file_lacks "docs global_settings: tests/test_data is not scanned" "$out/ash_aggregated_results.json" "data_mod.py"
assert_file_contains "docs global_settings: the expired suppression is warned about" "$TEST_TMP/err" \
  "RULE-123 in src/example.py expired on 2025-12-31"

# The documented scanners: bandit's confidence_level high and
# severity_threshold MEDIUM: its LOW findings are not actionable.
run_ash scan --source-dir "$src" --output-dir "$out" -P --sandbox off \
  --scanners bandit -c "$fix/docs-scanners.yaml"
assert_eq "docs scanners: bandit's findings at MEDIUM and above are actionable" \
  "$(agg "r['bandit']['actionable_count'] == r['bandit']['severity_counts']['high'] + r['bandit']['severity_counts']['medium'] + r['bandit']['severity_counts']['critical'], r['bandit']['actionable_count'] < r['bandit']['finding_count']")" "True True"

# The documented scanners' checkov entry: its install_timeout is warned
# about (ash installs no tool while it scans), its frameworks honoured.
src_iac=$TEST_TMP/iac
mkdir -p "$src_iac"
printf 'AWSTemplateFormatVersion: "2010-09-09"\nResources: {}\n' >"$src_iac/test.yaml"
run_ash scan --source-dir "$src_iac" --output-dir "$TEST_TMP/iac-out" -P --sandbox off \
  --scanners checkov -c "$fix/docs-scanners.yaml"
assert_file_contains "docs scanners: checkov's install_timeout is warned about" "$TEST_TMP/err" \
  "scanners.checkov.options.install_timeout has no effect on a scan"
assert_file_contains "docs scanners: checkov ran with --framework all" \
  "$TEST_TMP/iac-out/scanners/checkov/source/ARGS" "all"

# The plugin example names Python plugins: refused, naming what is missing.
run_ash config validate --source-dir "$src" -c "$fix/plugins-example.ash.yaml"
assert_eq "the plugin example is refused (exit 3)" "$status" 3
assert_file_contains "... naming the converter it defines" "$TEST_TMP/err" "unknown converter 'my-example-converter'"
done_testing
