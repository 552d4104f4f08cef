#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bandit end to end on a small repository: it really runs, its findings are
# in reports/ash.sarif with the right locations, inline ash-ignore comments
# suppress, and the exit code follows the findings.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/py-small
cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$src"
out=$TEST_TMP/out-dir

run_ash scan --source-dir "$src" --output-dir "$out" --scanners bandit --no-progress
assert_eq "findings at or above MEDIUM: exit 2" "$status" 2
check "reports/ash.sarif written" test -f "$out/reports/ash.sarif"
for f in ash.summary.md ash.summary.txt ash.flat.json ash_aggregated_results.json ash.log ash.log.jsonl; do
  check "$f written" test -n "$(find "$out" -name "$f")"
done
check "bandit's stdout captured" test -f "$out/scanners/bandit/source/bandit.stdout.log"
check "bandit's stderr captured" test -f "$out/scanners/bandit/source/bandit.stderr.log"

# Locations and properties, read back from the SARIF.
python3 - "$out/reports/ash.sarif" >"$TEST_TMP/locs" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for run in doc["runs"]:
    for r in run["results"]:
        loc = r["locations"][0]["physicalLocation"]
        sup = "suppressed" if r.get("suppressions") else "active"
        print(r["properties"]["scanner_name"], r["ruleId"],
              loc["artifactLocation"]["uri"], loc["region"]["startLine"],
              r["level"], r["properties"]["issue_severity"], sup)
PY
assert_file_contains "B602 at runner.py:7, error, HIGH" "$TEST_TMP/locs" "bandit B602 pkg/runner.py 7 error HIGH active"
assert_file_contains "B301 at runner.py:13, warning, MEDIUM" "$TEST_TMP/locs" "bandit B301 pkg/runner.py 13 warning MEDIUM active"
assert_file_contains "B404 at runner.py:3, note, LOW" "$TEST_TMP/locs" "bandit B404 pkg/runner.py 3 note LOW active"
assert_file_contains "ash-ignore suppresses ignored.py:7" "$TEST_TMP/locs" "bandit B602 pkg/ignored.py 7 error HIGH suppressed"
assert_file_contains "ash-ignore-next-line suppresses ignored.py:12" "$TEST_TMP/locs" "bandit B602 pkg/ignored.py 12 error HIGH suppressed"
assert_file_lacks "clean.py has no finding" "$TEST_TMP/locs" "clean.py"

python3 - "$out/ash_aggregated_results.json" >"$TEST_TMP/agg" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
b = a["scanner_results"]["bandit"]
print("status", b["status"])
print("finding_count", b["finding_count"])
print("actionable_count", b["actionable_count"])
print("suppressed_count", b["suppressed_count"])
print("exit_code", b["exit_code"])
print("keys", " ".join(sorted(a)))
print("semgrep", a["scanner_results"]["semgrep"]["status"])
PY
assert_file_contains "bandit FAILED" "$TEST_TMP/agg" "status FAILED"
assert_file_contains "seven findings" "$TEST_TMP/agg" "finding_count 7"
assert_file_contains "two actionable (B602, B301 in runner.py)" "$TEST_TMP/agg" "actionable_count 2"
assert_file_contains "two suppressed" "$TEST_TMP/agg" "suppressed_count 2"
assert_file_contains "bandit's own exit code (1: issues found)" "$TEST_TMP/agg" "exit_code 1"
assert_file_contains "upstream top-level keys" "$TEST_TMP/agg" "keys additional_reports ash_config converter_results cyclonedx description metadata name sarif scanner_results used_suppressions validation_checkpoints"
assert_file_contains "a scanner left out by --scanners is SKIPPED" "$TEST_TMP/agg" "semgrep SKIPPED"
assert_file_contains "summary table row" "$TEST_TMP/out" "bandit           FAILED"
assert_file_contains "summary says where the reports are" "$TEST_TMP/out" "Reports: $out/reports"

# The bandit options: confidence_level high keeps everything here (all
# HIGH confidence); excluded_paths leaves runner.py out.
cat >"$TEST_TMP/conf.yaml" <<'EOF2'
scanners:
  bandit:
    options:
      confidence_level: high
      excluded_paths: ["*/runner.py"]
EOF2
run_ash scan --source-dir "$src" --output-dir "$out" --scanners bandit --no-progress --config "$TEST_TMP/conf.yaml"
assert_eq "only suppressed and LOW findings left: exit 0" "$status" 0
assert_file_lacks "excluded_paths leaves runner.py out" "$out/reports/ash.sarif" "runner.py"
assert_file_contains "ignored.py still scanned" "$out/reports/ash.sarif" "ignored.py"
done_testing
