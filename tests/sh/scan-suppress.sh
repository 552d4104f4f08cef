#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# global_settings.severity_threshold and config suppressions (rule glob,
# path glob, line range, expiration) decide what is actionable.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
mkdir -p "$src/docs" "$src/other"
printf 'one\nFAKE-FINDING high\nthree FAKE-FINDING low\n' >"$src/docs/notes.txt"

# scan CONFIG-BODY: run the fake-sarif scanner with that config.
scan () {
  printf '%s\n' "$1" >"$TEST_TMP/conf.yaml"
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
    --config "$TEST_TMP/conf.yaml" \
    --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" \
    --scanners fake-sarif
}
counts () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["scanner_results"]["fake-sarif"]
print(a["actionable_count"], a["suppressed_count"], a["status"])' "$out/ash_aggregated_results.json"
}

scan 'project_name: t'
assert_eq "default threshold MEDIUM: the high finding is actionable" "$(counts)" "1 0 FAILED"
assert_eq "exit 2" "$status" 2

scan 'global_settings:
  severity_threshold: LOW'
assert_eq "threshold LOW: both are actionable" "$(counts)" "2 0 FAILED"

scan 'global_settings:
  severity_threshold: CRITICAL'
assert_eq "threshold CRITICAL: nothing is actionable" "$(counts)" "0 0 PASSED"
assert_eq "exit 0 below the threshold" "$status" 0

scan 'global_settings:
  suppressions:
    - rule_id: "FAKE*"
      path: "docs/*.txt"
      line_start: 2
      line_end: 2
      reason: reviewed'
assert_eq "a suppression on line 2 suppresses the high finding" "$(counts)" "0 1 PASSED"
assert_eq "exit 0 when the actionable finding is suppressed" "$status" 0
assert_file_contains "the suppression's reason is in the SARIF" "$out/reports/ash.sarif" '"justification": "reviewed"'

scan 'global_settings:
  suppressions:
    - rule_id: "FAKE001"
      path: "docs/notes.txt"
      line_start: 3
      reason: only line 3 and after'
assert_eq "a line range that misses line 2 leaves it" "$(counts)" "1 1 FAILED"

scan 'global_settings:
  suppressions:
    - rule_id: "OTHER*"
      path: "docs/*"
      reason: another rule'
assert_eq "another rule suppresses nothing" "$(counts)" "1 0 FAILED"

scan 'global_settings:
  suppressions:
    - path: "other/*"
      reason: another path'
assert_eq "another path suppresses nothing" "$(counts)" "1 0 FAILED"

scan 'global_settings:
  suppressions:
    - rule_id: "FAKE001"
      path: "docs/notes.txt"
      reason: expired
      expiration: "2020-01-31"'
assert_eq "an expired suppression does not apply" "$(counts)" "1 0 FAILED"
assert_file_contains "and a warning says so" "$TEST_TMP/err" "expired on 2020-01-31 and does not apply"

scan 'global_settings:
  suppressions:
    - rule_id: "FAKE001"
      path: "docs/notes.txt"
      reason: not yet
      expiration: "2999-01-31"'
assert_eq "a suppression that expires later applies" "$(counts)" "0 2 PASSED"

# Inline comments in the scanned file.
printf 'one\nFAKE-FINDING high # ash-ignore: FAKE001\nthree FAKE-FINDING low\n' >"$src/docs/notes.txt"
scan 'project_name: t'
assert_eq "ash-ignore on the line suppresses it" "$(counts)" "0 1 PASSED"
printf 'one\n# ash-ignore-next-line: FAKE001\nFAKE-FINDING high\n' >"$src/docs/notes.txt"
scan 'project_name: t'
assert_eq "ash-ignore-next-line suppresses the next line" "$(counts)" "0 1 PASSED"
done_testing
