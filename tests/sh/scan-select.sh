#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Which scanners run: --scanners narrows, --exclude-scanners wins (SKIPPED
# with excluded: true), scanners.NAME.enabled: false skips, --mode
# precommit keeps upstream's fast set, and --strategy sequential runs the
# same scanners one by one.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
mkdir -p "$src"
printf 'FAKE-FINDING low\n' >"$src/a.txt"

rows () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]
for n in sys.argv[2:]:
    x = r.get(n)
    print(n, x["status"] if x else "absent", "excluded" if x and x["excluded"] else "-")' \
    "$out/ash_aggregated_results.json" "$@"
}

run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --ash-plugin-modules "$mods" \
  --scanners fake-sarif,fake-silent --exclude-scanners fake-silent
assert_eq "--exclude-scanners wins over --scanners" "$(rows fake-sarif fake-silent semgrep | tr '\n' ' ')" \
  "fake-sarif PASSED - fake-silent SKIPPED excluded semgrep SKIPPED - "
assert_eq "exit 0" "$status" 0

printf 'scanners:\n  fake-silent:\n    enabled: false\n' >"$TEST_TMP/conf.yaml"
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --ash-plugin-modules "$mods" \
  --config "$TEST_TMP/conf.yaml" --exclude-scanners fake-hang,fake-crash,fake-invalid \
  --scanners fake-sarif,fake-silent
assert_eq "enabled: false is SKIPPED, not excluded" "$(rows fake-silent)" "fake-silent SKIPPED -"

run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --mode precommit \
  --exclude-scanners bandit,detect-secrets,checkov,cdk-nag,npm-audit
assert_eq "precommit: semgrep and grype are not in the fast set" \
  "$(rows semgrep grype bandit | tr '\n' ' ')" "semgrep SKIPPED - grype SKIPPED - bandit SKIPPED excluded "
assert_file_contains "precommit: the reason" "$out/ash_aggregated_results.json" "not one of the precommit mode's scanners"

run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --ash-plugin-modules "$mods" \
  --strategy sequential --scanners fake-sarif,fake-silent
assert_eq "sequential: the same results" "$(rows fake-sarif fake-silent | tr '\n' ' ')" \
  "fake-sarif PASSED - fake-silent ERROR - "
assert_eq "sequential: exit 1" "$status" 1
done_testing
