#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bandit scanned sandboxed under bwrap and under Landlock as an
# unprivileged account (the other scan tests run as whoever runs make
# check, root on the build machine), with the same findings as the
# unsandboxed control run by that account.
. "$top_srcdir/tests/libtest.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to switch to an unprivileged account"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
user=$(unpriv_user)
as=$(as_unpriv_cmd "$user")
# Everything the account needs, readable (and the output writable) by it.
work=$TEST_TMP/work
mkdir -p "$work/src" "$work/bin"
cp "$top_srcdir/examples/vulnerable-app/"*.py "$work/src/" 2>/dev/null ||
  printf 'exec(input())\n' >"$work/src/a.py"
cp "$ASH" "$work/bin/ash"
for h in "$(dirname "$ASH")"/ash-landlock-exec; do
  [ -x "$h" ] && cp "$h" "$work/bin/"
done
chown -R "$user" "$work"
chmod 755 "$TEST_TMP"
home=$(getent passwd "$user" | cut -d: -f6)
[ -d "$home" ] || home=$work
scan () { # OUT MODE
  env -i $scanner_user_env PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 $as \
    "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$1" \
    --no-progress --scanners bandit --sandbox "$2" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
findings () { # OUT: bandit's findings, one "file:line:rule" a line
  python3 -c "
import json
d = json.load(open('$work/$1/reports/ash.sarif'))
for run in d['runs']:
    for x in run['results']:
        l = x['locations'][0]['physicalLocation']
        print('%s:%s:%s' % (l['artifactLocation']['uri'], l['region']['startLine'], x['ruleId']))" | sort
}

scan out-off off
st=$?
check "control: bandit ran unsandboxed as $user (exit 0 or 2)" test "$st" = 2 -o "$st" = 0
findings out-off >"$TEST_TMP/off"
check "control: it found something" test -s "$TEST_TMP/off"

for b in bwrap landlock; do
  if ! env -i $scanner_user_env PATH=/usr/bin:/bin HOME="$home" $as "$work/bin/ash" sandbox probe 2>&1 |
       grep -q "^$b: usable"; then
    ok "$b as $user # SKIP $b is not usable for $user"
    continue
  fi
  scan "out-$b" "$b"
  assert_eq "$b as $user: same exit as unsandboxed" "$?" "$st"
  assert_eq "$b as $user: bandit's sandbox names the backend" \
    "$(python3 -c "import json; print(json.load(open('$work/out-$b/ash_aggregated_results.json'))['scanner_results']['bandit']['sandbox']['backend'])")" "$b"
  findings "out-$b" >"$TEST_TMP/$b"
  check "$b as $user: the same findings as unsandboxed" cmp -s "$TEST_TMP/off" "$TEST_TMP/$b"
  check "$b as $user: the results belong to $user" test "$(stat -c %U "$work/out-$b/reports/ash.sarif")" = "$user"
done
done_testing
