#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cdk-nag for real: aws-cdk-lib and cdk-nag installed from the npm registry
# into a cache of the test suite's own, ash's worker run by node over the
# scan set's templates, unsandboxed and under each usable backend, with
# the same findings.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v node >/dev/null 2>&1 || skip_all "node is not installed"
command -v npm >/dev/null 2>&1 || skip_all "npm is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cache=$(cd "$(dirname "$ASH")/.." && pwd)/tests/.cdk-nag-cache
if [ ! -d "$cache/node_modules/cdk-nag" ] || [ ! -d "$cache/node_modules/aws-cdk-lib" ]; then
  mkdir -p "$cache"
  if ! (cd "$cache" && timeout 900 npm install --no-audit --no-fund --prefix . \
          aws-cdk-lib@2 constructs@10 cdk-nag@2) >"$TEST_TMP/npm.log" 2>&1; then
    skip_all "aws-cdk-lib and cdk-nag could not be installed from the npm registry: $(tail -n 1 "$TEST_TMP/npm.log")"
  fi
fi

work=$TEST_TMP/work
mkdir -p "$work/bin"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
iac_install_ash "$work/bin"
ASH_CDK_NAG_MODULES=$cache/node_modules
PATH=$work/bin:$PATH
export ASH_CDK_NAG_MODULES PATH

"$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/off" --no-progress \
  --scanners cdk-nag --sandbox off >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "unsandboxed: findings fail the scan (exit 2)" "$?" 2
iac_findings "$work/off" >"$TEST_TMP/off"
# Upstream's recorded reports: S1 and S10 on each bucket.
for l in "cdk-nag AwsSolutions-S1 test.yaml 4 HIGH" "cdk-nag AwsSolutions-S10 test.yaml 4 HIGH" \
         "cdk-nag AwsSolutions-S1 cdk/cfn-to-cdk.template.json 3 HIGH" \
         "cdk-nag AwsSolutions-S10 cdk/cfn-to-cdk.template.json 3 HIGH" \
         "cdk-nag AwsSolutions-S1 cfn_and_python/test.yaml 4 HIGH"; do
  assert_file_contains "finding $l" "$TEST_TMP/off" "$l"
done
assert_file_lacks "notcfn.yaml is not a template" "$TEST_TMP/off" "notcfn.yaml"

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
for b in bwrap landlock firejail; do
  if ! grep -q "^$b: usable" "$TEST_TMP/probe"; then
    ok "$b # SKIP $b is not usable here"
    continue
  fi
  "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$b" --no-progress \
    --scanners cdk-nag --sandbox "$b" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$b: exit 2 as unsandboxed" "$?" 2
  iac_findings "$work/$b" >"$TEST_TMP/$b"
  check "$b: the same findings as unsandboxed" cmp "$TEST_TMP/off" "$TEST_TMP/$b"
done

# ash installed in a directory that is not on PATH (an /opt prefix): the
# sandbox still shows node the worker beside it, and nothing else of that
# directory.
iac_install_ash "$work/opt/bin"
echo "private" >"$work/opt/bin/other-file"
PATH=$(echo "$PATH" | sed "s|$work/bin:||")
export PATH
case ":$PATH:" in
  *":$work/opt/bin:"*|*":$work/bin:"*) bail "ash's directory is still on PATH" ;;
esac
"$work/opt/bin/ash" sandbox explain cdk-nag --sandbox bwrap --source-dir "$work/src" \
  >"$TEST_TMP/explain" 2>&1
assert_file_contains "explain: the worker beside ash is a declared read path" \
  "$TEST_TMP/explain" "$work/opt/bin/cdk-nag-worker.js"
assert_file_lacks "explain: the rest of its directory is not" "$TEST_TMP/explain" \
  "$work/opt/bin "
for b in bwrap landlock firejail; do
  if ! grep -q "^$b: usable" "$TEST_TMP/probe"; then
    ok "$b, ash off PATH # SKIP $b is not usable here"
    continue
  fi
  "$work/opt/bin/ash" scan --source-dir "$work/src" --output-dir "$work/opt-$b" \
    --no-progress --scanners cdk-nag --sandbox "$b" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$b, ash off PATH: exit 2 as unsandboxed" "$?" 2
  iac_findings "$work/opt-$b" >"$TEST_TMP/opt-$b"
  check "$b, ash off PATH: the same findings as unsandboxed" \
    cmp "$TEST_TMP/off" "$TEST_TMP/opt-$b"
done
done_testing
