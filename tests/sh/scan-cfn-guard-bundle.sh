#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cfn-guard's rules bundle beside ASH's bin directory (share/cfn-guard-rules
# next to $ASH_BIN_PATH), without $ASH_CFN_GUARD_RULES_DIR: found, and
# readable under each usable backend, with the same findings as
# unsandboxed (through the fake cfn-guard).  The control: the same bin
# directory without the bundle leaves cfn-guard MISSING, naming where it
# looked.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
work=$TEST_TMP/work
iac_install_ash "$work/bin"
mkdir -p "$work/share"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp -R "$top_srcdir/tests/fixtures/tools" "$work/tools"
chmod -R a+rX "$work"

scan () { # OUT MODE
  env -i $scanner_user_env ASH_BIN_PATH="$work/bin" PATH="$work/tools:/usr/bin:/bin" \
    HOME="$HOME" LANG=C.UTF-8 "$work/bin/ash" scan --source-dir "$work/src" \
    --output-dir "$work/$1" --no-progress --scanners cfn-guard --sandbox "$2" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

scan none off
assert_file_contains "without the bundle: MISSING, naming where it looked" "$TEST_TMP/out" \
  "cfn-guard MISSING: cfn-guard's rules bundle is not installed: $work/bin/../share/cfn-guard-rules does not exist"

cp -R "$top_srcdir/tests/fixtures/cfn-guard-rules" "$work/share/cfn-guard-rules"
chmod -R a+rX "$work/share"
scan off off
assert_eq "with the bundle: findings (exit 2)" "$status" 2
iac_findings "$work/off" >"$TEST_TMP/off"
assert_file_contains "the bundle's rules ran" "$TEST_TMP/off" \
  "cfn-guard S3_BUCKET_LOGGING_ENABLED test.yaml 4 HIGH"
sandboxed () { # BACKEND
  scan "$1" "$1"
  assert_eq "$1: exit 2 as unsandboxed" "$status" 2
  iac_findings "$work/$1" >"$TEST_TMP/$1"
  check "$1: the bundle is readable, the same findings" cmp "$TEST_TMP/off" "$TEST_TMP/$1"
}
iac_backends sandboxed
done_testing
