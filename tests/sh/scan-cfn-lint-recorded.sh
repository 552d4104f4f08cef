#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cfn-lint through a fake that replays what the real cfn-lint 1.51.0 wrote
# over the IaC fixture tree (tests/fixtures/tools/fake-cfn-lint), so that
# cfn-lint's sandboxed runs are exercised where the real tool is absent or
# out of the scanner account's reach: the findings are exactly the
# recorded report's (rule, file, line, severity) with --sandbox off and
# under each usable backend, as root and as an unprivileged account; the
# SARIF probe's failure makes ash ask for JSON; a recording that no longer
# matches what ash passes fails the scanner rather than passing quietly.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

work=$TEST_TMP/work
mkdir -p "$work/tools"
chmod 755 "$TEST_TMP" "$work" "$work/tools"
ln -s "$top_srcdir/tests/fixtures/tools/fake-cfn-lint" "$work/tools/cfn-lint"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
chmod -R a+rX "$work/src"
path=$work/tools:/usr/bin:/bin

# The findings the recording holds, as iac_findings prints them: W rules
# LOW, I rules INFO, the others MEDIUM.
python3 - "$top_srcdir/tests/fixtures/tools/cfn-lint-data/cfn-lint-1.51.0.json" <<'PY' | sort >"$TEST_TMP/want"
import json, sys
for m in json.load(open(sys.argv[1])):
    rid = m["Rule"]["Id"]
    sev = {"W": "LOW", "I": "INFO"}.get(rid[0], "MEDIUM")
    print("cfn-lint", rid, m["Filename"], m["Location"]["Start"]["LineNumber"], sev)
PY
check "the recording holds findings" test -s "$TEST_TMP/want"

scan () { # OUT MODE
  $as_user env -i $scanner_user_env PATH="$path" HOME="$HOME" LANG=C.UTF-8 \
    "$ASH" scan --source-dir "$work/src" --output-dir "$1" --no-progress \
    --no-probe-cache --scanners cfn-lint --sandbox "$2" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
round () {
  for m in off bwrap landlock firejail; do
    if [ "$m" != off ] && ! grep -q "^$m: usable" "$TEST_TMP/probe"; then
      ok "$who, $m # SKIP $m is not usable here"
      continue
    fi
    o=$TEST_TMP/o-$who-$m
    [ -z "$as_user" ] || { mkdir -p "$o" && chown "$who" "$o"; }
    scan "$o" "$m"
    st=$?
    iac_findings "$o" >"$TEST_TMP/got-$who-$m" 2>/dev/null
    if cmp -s "$TEST_TMP/want" "$TEST_TMP/got-$who-$m"; then
      ok "$who, $m: the findings are the recorded report's (exit $st)"
    else
      not_ok "$who, $m: the findings are the recorded report's (exit $st)"
      diff "$TEST_TMP/want" "$TEST_TMP/got-$who-$m" | awk '{ print "# " $0 }'
      tail -n 5 "$TEST_TMP/err" | awk '{ print "# " $0 }'
    fi
    check "$who, $m: ash read cfn-lint's JSON report" \
      test -f "$o/scanners/cfn-lint/source/cfn-lint.json"
  done
}
each_user round

# Control: templates other than the recording's make the fake refuse, and
# ash reports cfn-lint as ERROR rather than PASSED with no findings.
as_user=
rm "$work/src/test.yaml"
scan "$TEST_TMP/o-changed" off
iac_status () {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scanner_results"]["cfn-lint"]["status"])' \
    "$1/ash_aggregated_results.json"
}
assert_eq "control: a run the recording does not match is ERROR" \
  "$(iac_status "$TEST_TMP/o-changed")" ERROR
done_testing
