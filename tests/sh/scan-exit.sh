#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The exit code: 0 clean, 1 incomplete (MISSING or ERROR under
# fail_on_incomplete_scanners), 2 actionable findings (fail_on_findings),
# 3 configuration error, 5 usage error; when several apply the first in
# the order 5, 3, 1, 2 wins.
. "$top_srcdir/tests/libtest.sh"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
mkdir -p "$src"
printf 'FAKE-FINDING high\n' >"$src/high.txt"
clean=$TEST_TMP/clean
mkdir -p "$clean"
printf 'FAKE-FINDING low\n' >"$clean/low.txt"

s () {
  run_ash scan --output-dir "$out" --no-progress --ash-plugin-modules "$mods" "$@"
}

s --source-dir "$clean" --scanners fake-sarif
assert_eq "only a finding below the threshold: 0" "$status" 0
s --source-dir "$src" --scanners fake-sarif
assert_eq "an actionable finding: 2" "$status" 2
s --source-dir "$src" --scanners fake-sarif --no-fail-on-findings
assert_eq "--no-fail-on-findings: 0" "$status" 0
printf 'fail_on_findings: false\n' >"$TEST_TMP/nofail.yaml"
s --source-dir "$src" --scanners fake-sarif --config "$TEST_TMP/nofail.yaml"
assert_eq "fail_on_findings: false: 0" "$status" 0
s --source-dir "$clean" --scanners fake-sarif,fake-silent
assert_eq "an ERROR scanner: 1" "$status" 1
s --source-dir "$src" --scanners fake-sarif,fake-silent
assert_eq "ERROR and findings: 1 wins over 2" "$status" 1
printf 'fail_on_incomplete_scanners: false\n' >"$TEST_TMP/noinc.yaml"
s --source-dir "$src" --scanners fake-sarif,fake-silent --config "$TEST_TMP/noinc.yaml"
assert_eq "fail_on_incomplete_scanners false: findings decide, 2" "$status" 2
s --source-dir "$clean" --scanners fake-sarif,fake-silent --config "$TEST_TMP/noinc.yaml"
assert_eq "fail_on_incomplete_scanners false and no findings: 0" "$status" 0
PATH=/usr/bin:/bin s --source-dir "$clean" --scanners fake-sarif
assert_eq "a MISSING scanner: 1" "$status" 1
s --source-dir "$src" --scanners fake-sarif --exclude-scanners fake-sarif
assert_eq "an excluded scanner is SKIPPED, not incomplete: 0" "$status" 0
assert_file_contains "recorded excluded" "$out/ash_aggregated_results.json" '"excluded": true'
printf 'no_such_key: 1\n' >"$TEST_TMP/bad.yaml"
s --source-dir "$src" --scanners fake-sarif,fake-silent --config "$TEST_TMP/bad.yaml"
assert_eq "a configuration error wins over findings and ERROR: 3" "$status" 3
s --source-dir "$src" --scanners fake-sarif --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/bad-format.yaml"
assert_eq "an invalid plugin module: 3" "$status" 3
s --source-dir "$src" --config "$TEST_TMP/bad.yaml" --no-such-option
assert_eq "a usage error wins over a configuration error: 5" "$status" 5
done_testing
