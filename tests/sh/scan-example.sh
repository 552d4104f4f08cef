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
# Which scanners are MISSING depends on the tools this machine has: each
# MISSING row names a tool that is really not installed, with the command
# that installs it, and every other scanner ran or says why it did not.
py "
for k, v in sorted(r.items()):
    if v['status'] == 'MISSING':
        print(k, v['missing_reason'].split(' ', 1)[0])
" >"$TEST_TMP/missing"
check "some scanners are MISSING (their tools are not on this machine)" test -s "$TEST_TMP/missing"
while read -r name tool; do
  check "$name is MISSING because $tool is not installed" \
    sh -c "! command -v '$tool' >/dev/null 2>&1"
done <"$TEST_TMP/missing"
# (cdk-nag's names where it looked: "is not installed in DIR (install it
# with: ...)".)
assert_eq "every MISSING row says how to install its tool" \
  "$(py "print(all(' is not installed' in v['missing_reason'] and ' (install it with: ' in v['missing_reason'] for v in r.values() if v['status'] == 'MISSING'))")" True
assert_eq "every other scanner ran, or says why not" \
  "$(py "print(all(v['status'] in ('PASSED', 'FAILED') or (v['status'] == 'ERROR' and v.get('error_reason')) for v in r.values() if v['status'] != 'MISSING'))")" True
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
