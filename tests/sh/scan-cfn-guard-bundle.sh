#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cfn-guard's rules bundle beside ASH's bin directory (share/cfn-guard-rules
# next to $ASH_BIN_PATH), without $ASH_CFN_GUARD_RULES_DIR: found, and
# readable under each usable backend, with the same findings as
# unsandboxed (through the fake cfn-guard).  The control: the same bin
# directory without the bundle leaves cfn-guard MISSING, naming where it
# looked, unless rule_sets is empty and the operator's rules_paths give
# the rules, which need no bundle.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
work=$TEST_TMP/work
iac_install_ash "$work/bin"
mkdir -p "$work/share"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp -R "$top_srcdir/tests/fixtures/tools" "$work/tools"
chmod -R a+rX "$work"

scan () { # OUT MODE [ARGS...]
  out=$1 mode=$2
  shift 2
  env -i $scanner_user_env ASH_BIN_PATH="$work/bin" PATH="$work/tools:/usr/bin:/bin" \
    HOME="$HOME" LANG=C.UTF-8 "$work/bin/ash" scan --source-dir "$work/src" \
    --output-dir "$work/$out" --no-progress --scanners cfn-guard --sandbox "$mode" \
    "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

scan none off
assert_file_contains "without the bundle: MISSING, naming where it looked" "$TEST_TMP/out" \
  "cfn-guard MISSING: cfn-guard's rules bundle is not installed: $work/bin/../share/cfn-guard-rules does not exist"
assert_file_contains "... and how to install it" "$TEST_TMP/out" \
  "(set ASH_CFN_GUARD_RULES_DIR, or install the AWS Guard Rules Registry there)"

# The operator's own rules (a rules file in the tree, named by a config
# outside it) with rule_sets empty need no bundle: cfn-guard runs them,
# unsandboxed and under each usable backend.
cat >"$work/src/own.guard" <<'G'
#fake-check AWS::SQS::Queue KmsMasterKeyId
rule SQS_QUEUE_ENCRYPTED { Resources.*.Properties.KmsMasterKeyId exists }
G
chmod a+r "$work/src/own.guard"
printf 'scanners:\n  cfn-guard:\n    options:\n      rule_sets: []\n      rules_paths: [own.guard]\n' >"$work/own.yaml"
scan own-off off --config "$work/own.yaml"
assert_eq "no bundle, rule_sets empty, rules_paths: cfn-guard runs (findings: exit 2)" "$status" 2
iac_findings "$work/own-off" >"$TEST_TMP/own-off"
assert_eq "... the own rules' finding" "$(cat "$TEST_TMP/own-off")" \
  "cfn-guard SQS_QUEUE_ENCRYPTED test.yaml 11 HIGH"
own_sandboxed () { # BACKEND
  scan "own-$1" "$1" --config "$work/own.yaml"
  assert_eq "$1: no bundle, own rules: exit 2 as unsandboxed" "$status" 2
  iac_findings "$work/own-$1" >"$TEST_TMP/own-$1"
  check "$1: the same finding" cmp "$TEST_TMP/own-off" "$TEST_TMP/own-$1"
}
iac_backends own_sandboxed
# The negative: a rule set named beside the own rules needs the bundle,
# and without it cfn-guard is MISSING with the install hint.
printf 'scanners:\n  cfn-guard:\n    options:\n      rule_sets: [wa-Security-Pillar]\n      rules_paths: [own.guard]\n' >"$work/both.yaml"
scan both off --config "$work/both.yaml"
assert_eq "a rule set and own rules, no bundle: cfn-guard MISSING" \
  "$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["scanner_results"]["cfn-guard"]["status"])' "$work/both/ash_aggregated_results.json")" MISSING
assert_file_contains "... naming where it looked and how to install it" "$TEST_TMP/out" \
  "cfn-guard's rules bundle is not installed: $work/bin/../share/cfn-guard-rules does not exist (set ASH_CFN_GUARD_RULES_DIR, or install the AWS Guard Rules Registry there)"
rm -f "$work/src/own.guard"

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
