#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# gitleaks, semgrep, opengrep and detect-secrets (through their fakes)
# scanned by an unprivileged account, with --sandbox off and under every
# backend usable for that account: the findings are the same in every mode.
# The other tests of these scanners run as whoever runs make check (root
# on the build machine, whose sandboxed scanners run as the scanner
# account).
. "$top_srcdir/tests/libtest.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to switch to an unprivileged account"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
user=$(unpriv_user)
as=$(as_unpriv_cmd "$user")
scanners=gitleaks,semgrep,opengrep,detect-secrets
# Everything the account needs, readable (and the output writable) by it.
work=$TEST_TMP/work
mkdir -p "$work/bin/semgrep-data"
cp -R "$top_srcdir/tests/fixtures/repos/secrets" "$work/src"
cp -R "$top_srcdir/tests/fixtures/repos/py-small/pkg" "$work/src/pkg"
cp "$top_srcdir/tests/fixtures/tools/fake-gitleaks" "$work/bin/gitleaks"
cp "$top_srcdir/tests/fixtures/tools/fake-semgrep" "$work/bin/semgrep"
cp "$top_srcdir/tests/fixtures/tools/fake-semgrep" "$work/bin/opengrep"
cp "$top_srcdir/tests/fixtures/tools/fake-detect-secrets" "$work/bin/detect-secrets"
cp "$top_srcdir/tests/fixtures/tools/semgrep-data/semgrep.src.json" "$work/bin/semgrep-data/"
cp "$ASH" "$work/bin/ash"
for h in "$(dirname "$ASH")"/ash-landlock-exec; do
  [ -x "$h" ] && cp "$h" "$work/bin/"
done
chmod 755 "$work/bin"/*
chown -R "$user" "$work"
chmod 755 "$TEST_TMP"
home=$(getent passwd "$user" | cut -d: -f6)
[ -d "$home" ] || home=$work
run_as () {
  env -i $scanner_user_env PATH="$work/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 $as "$@"
}
scan () { # OUT MODE
  run_as "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$1" \
    --no-progress --scanners "$scanners" --sandbox "$2" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
findings () { aggregated_findings "$work/$1"; }
statuses () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]
print(" ".join("%s=%s" % (s, r[s]["status"]) for s in sys.argv[2].split(",")))' \
    "$work/$1/ash_aggregated_results.json" "$scanners"
}

scan out-off off
assert_eq "control: the four ran unsandboxed as $user (exit 2)" "$?" 2
findings out-off >"$TEST_TMP/off"
for s in $(echo "$scanners" | tr , ' '); do
  check "control: $s found something" grep -q "^$s " "$TEST_TMP/off"
done

run_as "$work/bin/ash" sandbox probe >"$TEST_TMP/probe" 2>&1
for b in bwrap landlock firejail; do
  if ! grep -q "^$b: usable" "$TEST_TMP/probe"; then
    for i in 1 2 3 4; do ok "$b as $user # SKIP $b is not usable for $user"; done
    continue
  fi
  scan "out-$b" "$b"
  assert_eq "$b as $user: exit 2" "$?" 2
  assert_eq "$b as $user: every scanner FAILED (found issues)" "$(statuses "out-$b")" \
    "gitleaks=FAILED semgrep=FAILED opengrep=FAILED detect-secrets=FAILED"
  findings "out-$b" >"$TEST_TMP/$b"
  check "$b as $user: the same findings as unsandboxed" cmp -s "$TEST_TMP/off" "$TEST_TMP/$b"
  check "$b as $user: the results belong to $user" test "$(stat -c %U "$work/out-$b/reports/ash.sarif")" = "$user"
done
done_testing
