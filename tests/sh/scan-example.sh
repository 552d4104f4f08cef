#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The README's first command, as written (with a temporary output
# directory): bandit scans the bundled example sandboxed, its findings are
# in reports/ash.sarif, the scanners whose tools are not installed are
# MISSING with how to install them, and the incomplete scan exits 1.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
grep -q 'ash scan --source-dir examples/vulnerable-app --output-dir /tmp/ash-example --sandbox auto' \
  "$top_srcdir/README.md" || skip_all "the README no longer shows the command"
out=$TEST_TMP/ash-example
cd "$top_srcdir" || exit 1
"$ASH" scan --source-dir examples/vulnerable-app --output-dir "$out" --sandbox auto \
  >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
assert_eq "exit 1: an incomplete scan" "$?" 1
agg=$out/ash_aggregated_results.json
py () { python3 -c "import json,sys; r=json.load(open('$agg'))['scanner_results']; $1"; }
assert_eq "bandit FAILED (it found issues)" "$(py "print(r['bandit']['status'])")" FAILED
assert_eq "bandit ran sandboxed under a backend" \
  "$(py "print(r['bandit']['sandbox']['backend'] in ('bwrap', 'firejail', 'landlock'))")" True
# npm-audit has an adapter: with npm installed it runs (the example has
# no lockfile) and is not MISSING.
want_missing=14
command -v npm >/dev/null 2>&1 && want_missing=13
assert_eq "$want_missing scanners are MISSING" "$(py "print(sum(v['status'] == 'MISSING' for v in r.values()))")" "$want_missing"
assert_eq "every MISSING row says how to install its tool, or that ash has no adapter" \
  "$(py "print(all('install it with: ' in v['missing_reason'] or v['missing_reason'].startswith('ash has no adapter') for v in r.values() if v['status'] == 'MISSING'))")" True
assert_eq "bandit's findings are in reports/ash.sarif, with locations" \
  "$(python3 -c "
import json
d = json.load(open('$out/reports/ash.sarif'))
res = [x for run in d['runs'] for x in run['results']
       if x.get('properties', {}).get('scanner_name', run['tool']['driver']['name']).startswith('bandit')
       or run['tool']['driver']['name'] == 'Bandit']
print(len(res) > 0 and all(x['locations'][0]['physicalLocation']['artifactLocation']['uri'] for x in res))")" True
assert_file_contains "the results record the sandbox mode" "$agg" '"sandbox_mode": "auto"'
done_testing
