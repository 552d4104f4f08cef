#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# All seven infrastructure-as-code and workflow scanners in one scan of a
# tree holding a CloudFormation template, a CDK-style template, a
# Dockerfile and two workflows: each runs and reports its findings, the
# same unsandboxed and under each usable backend.  checkov, cfn-nag,
# cfn-guard, actionlint and zizmor run through their fake tools; cfn-lint
# is the real one and cdk-nag the real worker over aws-cdk-lib and
# cdk-nag from the npm registry (each skipped, saying why, when absent,
# and cdk-nag then runs through the fake node).
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
work=$TEST_TMP/work
mkdir -p "$work/bin" "$work/node"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp -R "$top_srcdir/tests/fixtures/tools" "$work/tools"
cp -R "$top_srcdir/tests/fixtures/cfn-guard-rules" "$work/rules"
iac_install_ash "$work/bin"
chmod -R a+rX "$work"
ls "$work/src/.github/workflows/ci.yml" "$work/src/.github/workflows/release.yaml" \
  "$work/src/js/docker/Dockerfile" "$work/src/test.yaml" \
  "$work/src/cdk/cfn-to-cdk.template.json" >/dev/null || bail "the fixture tree changed"

# cfn-lint: the real one (a pyenv shim runs pyenv from the home
# directory, which a sandbox does not mount: its interpreter's bin).
lint_dir=
if command -v cfn-lint >/dev/null 2>&1; then
  lint=$(command -v cfn-lint)
  if command -v pyenv >/dev/null 2>&1 && pyenv which cfn-lint >/dev/null 2>&1; then
    lint=$(pyenv which cfn-lint)
  fi
  lint_dir=$(dirname "$lint")
else
  ok "cfn-lint # SKIP cfn-lint is not installed"
fi
# cdk-nag: the real worker when the suite's npm cache has the modules
# (scan-cdk-nag.sh fills it) or npm can fill it; else the fake node.
cache=$(cd "$(dirname "$ASH")/.." && pwd)/tests/.cdk-nag-cache
modules=$work/fake-modules
mkdir -p "$modules/cdk-nag" "$modules/aws-cdk-lib" "$modules/constructs"
real_cdk=no
if command -v node >/dev/null 2>&1; then
  if [ ! -d "$cache/node_modules/cdk-nag" ] && command -v npm >/dev/null 2>&1; then
    mkdir -p "$cache"
    (cd "$cache" && timeout 900 npm install --no-audit --no-fund --prefix . \
       aws-cdk-lib@2 constructs@10 cdk-nag@2) >"$TEST_TMP/npm.log" 2>&1
  fi
  if [ -d "$cache/node_modules/cdk-nag" ] && [ -d "$cache/node_modules/aws-cdk-lib" ]; then
    ln -s "$(command -v node)" "$work/node/node"
    modules=$cache/node_modules
    real_cdk=yes
  fi
fi
[ "$real_cdk" = yes ] || ok "cdk-nag for real # SKIP aws-cdk-lib and cdk-nag are not installable here; the fake node runs"

# ash's bin directory on PATH, as installed: the worker beside ash.
path=$work/bin:$work/node:$work/tools:/usr/bin:/bin${lint_dir:+:$lint_dir}
# Run as root, ash runs a sandboxed scanner as the scanner account: a
# cfn-lint that account cannot run (installed under root's home) is left
# out of the sandboxed comparisons, and must not be PASSED there.
lint_reach=yes
if [ -n "$lint_dir" ] && [ "$(id -u)" = 0 ] && [ -n "${ASH_SCANNER_USER:-}" ] &&
   ! $(as_unpriv_cmd "$ASH_SCANNER_USER") "$lint_dir/cfn-lint" --version >/dev/null 2>&1; then
  lint_reach=
fi
scanners=checkov,cfn-nag,cfn-lint,cfn-guard,cdk-nag,actionlint,zizmor
scan () { # OUT MODE
  env -i $scanner_user_env PATH="$path" HOME="$HOME" LANG=C.UTF-8 \
    ASH_CFN_GUARD_RULES_DIR="$work/rules" ASH_CDK_NAG_MODULES="$modules" \
    "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$1" \
    --no-progress --scanners "$scanners" --sandbox "$2" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}
findings () { # OUT: its findings, then each scanner's status
  iac_findings "$1"
  python3 - "$1/ash_aggregated_results.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
for n, r in sorted(a["scanner_results"].items()):
    print("status", n, r["status"])
PY
}

scan off off
assert_eq "unsandboxed: findings fail the scan (exit 2)" "$status" 2
findings "$work/off" >"$TEST_TMP/off"
# One finding each scanner's output is known to hold, on each kind of
# file of the tree.
for l in "checkov CKV_AWS_18 test.yaml 4 HIGH" \
         "checkov CKV_DOCKER_2 js/docker/Dockerfile 1 HIGH" \
         "cfn-nag W35 test.yaml 5 MEDIUM" \
         "cfn-guard S3_BUCKET_LOGGING_ENABLED cdk/cfn-to-cdk.template.json 3 HIGH" \
         "cdk-nag AwsSolutions-S1 cdk/cfn-to-cdk.template.json 3 HIGH" \
         "cdk-nag AwsSolutions-S1 test.yaml 4 HIGH" \
         "actionlint expression .github/workflows/ci.yml 10 HIGH" \
         "zizmor zizmor/artipacked .github/workflows/release.yaml 9 MEDIUM" \
         "zizmor zizmor/template-injection .github/workflows/ci.yml 10 HIGH"; do
  assert_file_contains "finding: $l" "$TEST_TMP/off" "$l"
done
for s in checkov cfn-nag cfn-guard cdk-nag actionlint zizmor; do
  assert_file_contains "$s ran and found (FAILED)" "$TEST_TMP/off" "status $s FAILED"
done
if [ -n "$lint_dir" ]; then
  assert_file_contains "finding: cfn-lint W2001 on test.yaml" "$TEST_TMP/off" "cfn-lint W2001 test.yaml 16 LOW"
  check_fails "cfn-lint is neither ERROR nor MISSING" grep -Eq "^status cfn-lint (ERROR|MISSING)" "$TEST_TMP/off"
else
  assert_file_contains "cfn-lint absent: MISSING" "$TEST_TMP/off" "status cfn-lint MISSING"
fi
check_fails "no other scanner ran" grep -Eq "^status (bandit|semgrep|grype) (PASSED|FAILED)" "$TEST_TMP/off"

sandboxed () { # BACKEND
  b=$1
  scan "$b" "$b"
  if [ -n "$lint_reach" ]; then
    assert_eq "$b: exit 2 as unsandboxed" "$status" 2
  else
    assert_eq "$b: exit 1 (cfn-lint could not run)" "$status" 1
  fi
  findings "$work/$b" >"$TEST_TMP/$b"
  cp "$TEST_TMP/off" "$TEST_TMP/want-$b"
  if [ -z "$lint_reach" ]; then
    check_fails "$b: a cfn-lint the scanner account cannot run is not PASSED" \
      grep -q "^status cfn-lint PASSED" "$TEST_TMP/$b"
    ok "$b: cfn-lint's findings as unsandboxed # SKIP $lint_dir/cfn-lint is out of reach of the scanner account"
    grep -v "^cfn-lint \|^status cfn-lint " "$TEST_TMP/off" >"$TEST_TMP/want-$b"
    grep -v "^cfn-lint \|^status cfn-lint " "$TEST_TMP/$b" >"$TEST_TMP/$b.cut"
    mv "$TEST_TMP/$b.cut" "$TEST_TMP/$b"
  fi
  check "$b: the same findings and statuses as unsandboxed" cmp "$TEST_TMP/want-$b" "$TEST_TMP/$b"
  cmp -s "$TEST_TMP/want-$b" "$TEST_TMP/$b" || diff "$TEST_TMP/want-$b" "$TEST_TMP/$b" | head -20 | awk '{ print "# " $0 }'
}
iac_backends sandboxed
done_testing
