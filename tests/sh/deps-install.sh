#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash dependencies install: npm packages into ASH's bin directory with npm
# --prefix, Python tools with uv tool install, the rest printed with the
# same hint a MISSING reason names; --dry-run runs nothing; --scanners
# picks; the installers run from a private directory, never the one ash
# was started in; the next scan finds what was installed.  Once for real
# with npm when the registry answers.
. "$top_srcdir/tests/libtest.sh"

work=$TEST_TMP/repo
mkdir -p "$work"
# A repository's npm settings must not reach the install.
echo 'prefix=/tmp/evil' >"$work/.npmrc"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-npm" "$tools/npm"
cp "$top_srcdir/tests/fixtures/tools/fake-uv" "$tools/uv"
FAKE_NPM_LOG=$TEST_TMP/npm.log
FAKE_UV_LOG=$TEST_TMP/uv.log
export FAKE_NPM_LOG FAKE_UV_LOG
bin=$TEST_TMP/share/ash/bin
: >"$FAKE_NPM_LOG"; : >"$FAKE_UV_LOG"

cd "$work" || bail "cannot enter $work"
ASH_BIN_PATH=$bin PATH=$tools:$PATH run_ash dependencies install --dry-run
assert_eq "dry run: exit 0" "$status" 0
check_fails "dry run: npm not run" test -s "$FAKE_NPM_LOG"
check_fails "dry run: uv not run" test -s "$FAKE_UV_LOG"
assert_file_contains "dry run prints the npm command" "$TEST_TMP/out" "$tools/npm install --prefix $TEST_TMP/share/ash/lib --no-fund --no-audit aws-cdk-lib@2 constructs@10 cdk-nag@2"
assert_file_contains "dry run prints the uv command" "$TEST_TMP/out" "UV_TOOL_BIN_DIR=$bin $tools/uv tool install semgrep"

ASH_BIN_PATH=$bin PATH=$tools:$PATH run_ash dependencies install --scanners cdk-nag,semgrep,grype,npm-audit
assert_eq "install: exit 0" "$status" 0
assert_file_contains "npm installed cdk-nag's modules under the bin directory's prefix" "$FAKE_NPM_LOG" "install prefix=$TEST_TMP/share/ash/lib pkgs= aws-cdk-lib@2 constructs@10 cdk-nag@2"
assert_file_lacks "npm did not run in the directory ash was started in" "$FAKE_NPM_LOG" "cwd=$work"
assert_file_contains "uv installed semgrep into the bin directory" "$FAKE_UV_LOG" "tool install semgrep cwd="
assert_file_contains "uv's bin directory is ASH's" "$FAKE_UV_LOG" "bindir=$bin"
assert_file_lacks "uv did not run in the directory ash was started in" "$FAKE_UV_LOG" "cwd=$work"
check_fails "--scanners: checkov not installed" grep -q checkov "$FAKE_UV_LOG"
check "semgrep is in ASH's bin directory" test -x "$bin/semgrep"
# grype cannot be installed here: the hint is the MISSING reason's.
hint=$(grep '^grype ' "$TEST_TMP/out" | sed 's/^grype *install grype with: //; s/ (Homebrew.*//')
ASH_BIN_PATH=$bin PATH=/usr/bin:/bin run_ash scan --source-dir "$work" --output-dir "$TEST_TMP/o1" --no-progress --scanners grype
assert_file_contains "the MISSING reason names the same command" "$TEST_TMP/o1/ash_aggregated_results.json" "install it with: $hint, or ash dependencies install"
ASH_BIN_PATH=$bin PATH=/usr/bin:/bin run_ash scan --source-dir "$work" --output-dir "$TEST_TMP/o2" --no-progress --scanners semgrep
assert_file_contains "the next scan finds the installed tool" "$TEST_TMP/o2/ash_aggregated_results.json" "$bin/semgrep"

ASH_BIN_PATH=$bin PATH=$tools:$PATH run_ash dependencies install --scanners nosuch
assert_eq "an unknown scanner is a usage error" "$status" 5
ASH_BIN_PATH=$TEST_TMP/notbindir PATH=$tools:$PATH run_ash dependencies install --scanners cdk-nag
assert_eq "a bin directory npm's --prefix cannot reach: exit 1" "$status" 1
assert_file_contains "and says why" "$TEST_TMP/err" "does not end in /bin"

# For real, with npm and the registry.
real_npm=$(PATH=/usr/local/bin:/usr/bin:/bin command -v npm)
if [ -z "$real_npm" ]; then
  ok "# SKIP npm is not installed"
elif ! timeout 20 "$real_npm" ping >/dev/null 2>&1; then
  ok "# SKIP the npm registry is not reachable"
else
  rbin=$TEST_TMP/real/bin
  # Before: node is there, cdk-nag's modules are not: MISSING with the
  # command that installs them.
  mkdir -p "$TEST_TMP/real/pre"
  cp -R "$top_srcdir/tests/fixtures/repos/iac" "$TEST_TMP/real/pre/src"
  ASH_CDK_NAG_MODULES= ASH_BIN_PATH=$rbin PATH=/usr/bin:/bin run_ash scan --source-dir "$TEST_TMP/real/pre/src" \
    --output-dir "$TEST_TMP/real/pre/o" --no-progress --sandbox off --scanners cdk-nag
  if [ -d /usr/local/lib/node_modules/cdk-nag ] || [ -d /usr/lib/node_modules/cdk-nag ]; then
    ok "# SKIP cdk-nag's modules are installed on this machine"
  else
    assert_file_contains "before: cdk-nag MISSING with the install command" "$TEST_TMP/real/pre/o/ash_aggregated_results.json" \
      "cdk-nag is not installed in /usr/local/lib/node_modules (install it with: apt-get install nodejs npm && npm install --prefix /usr/local/lib aws-cdk-lib@2 constructs@10 cdk-nag@2, or ash dependencies install)"
  fi
  ASH_BIN_PATH=$rbin PATH=/usr/local/bin:/usr/bin:/bin run_ash dependencies install --scanners npm-audit,cdk-nag
  assert_eq "real npm: exit 0" "$status" 0
  for m in cdk-nag aws-cdk-lib constructs; do
    check "real npm: $m is installed under the prefix" test -d "$TEST_TMP/real/lib/node_modules/$m"
    check_fails "real npm: $m has no copy of its own of another" test -d "$TEST_TMP/real/lib/node_modules/$m/node_modules/aws-cdk-lib"
  done
  for t in pnpm yarn; do
    check "real npm: $t is a working program in ASH's bin directory" "$rbin/$t" --version
  done
  # The next scan finds them: cdk-nag's modules under the bin directory's
  # prefix, pnpm and yarn in the bin directory (nothing else on PATH has
  # them; npm's audit endpoint is not reachable here, so the audits
  # themselves may fail, but they ran with these tools).
  unset ASH_CDK_NAG_MODULES || :
  rsrc=$TEST_TMP/real/src
  cp -R "$top_srcdir/tests/fixtures/repos/iac" "$rsrc"
  mkdir -p "$rsrc/pp" "$rsrc/yp"
  printf '{"name":"pp","version":"1.0.0"}\n' >"$rsrc/pp/package.json"
  printf "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n" >"$rsrc/pp/pnpm-lock.yaml"
  printf '{"name":"yp","version":"1.0.0"}\n' >"$rsrc/yp/package.json"
  printf '# yarn lockfile v1\n\n\n' >"$rsrc/yp/yarn.lock"
  # ash beside its cdk-nag worker, in a directory on PATH (a sandbox shows
  # PATH, not the build tree's data directory; installed, the worker is in
  # a system directory).
  abin=$TEST_TMP/real/ash
  mkdir -p "$abin"
  cp "$ASH" "$top_srcdir/data/cdk-nag-worker.js" "$abin/"
  for h in "$(dirname "$ASH")"/ash-landlock-exec; do
    [ -x "$h" ] && cp "$h" "$abin/"
  done
  modes=off
  for b in bwrap landlock firejail; do
    "$ASH" sandbox probe 2>&1 | grep -q "^$b: usable" && modes="$modes $b"
  done
  for m in $modes; do
    ASH_BIN_PATH=$rbin PATH=$abin:/usr/bin:/bin "$abin/ash" scan --source-dir "$rsrc" --output-dir "$TEST_TMP/real/o-$m" \
      --no-progress --sandbox "$m" --scanners cdk-nag,npm-audit >"$TEST_TMP/out" 2>"$TEST_TMP/err"
    agg=$TEST_TMP/real/o-$m/ash_aggregated_results.json
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for n in ("cdk-nag", "npm-audit"):
    s = r["scanner_results"][n]
    print(n, s["status"], s.get("missing_reason") or s.get("error_reason") or "")
for run in r["sarif"]["runs"]:
    for x in run["results"]:
        print("finding", x["ruleId"], x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
' "$agg" >"$TEST_TMP/real/st-$m"
    sed 's/^/# /' "$TEST_TMP/real/st-$m" | grep -v finding
    assert_file_contains "$m: the next scan runs cdk-nag with the installed modules" "$TEST_TMP/real/st-$m" "finding AwsSolutions-S1 test.yaml"
    assert_file_lacks "$m: npm-audit is not MISSING" "$TEST_TMP/real/st-$m" "npm-audit MISSING"
    # pnpm and yarn took ash's command lines and lockfiles and went as
    # far as the audit endpoint, which answers 405 here: pnpm's report
    # is ERR_PNPM_AUDIT_BAD_RESPONSE (an unknown option or an unreadable
    # lockfile would be another code), yarn 1's an error from its audits
    # endpoint (yarn audit, chosen after "yarn --version"), which yarn
    # prints on stderr.
    rd=$TEST_TMP/real/o-$m/scanners/npm-audit/source
    if grep -q 'ERR_PNPM_AUDIT_BAD_RESPONSE\|"advisories"' "$rd"/npm-audit.*.json 2>/dev/null; then
      ok "$m: the installed pnpm audited pnpm-lock.yaml up to the registry"
    else
      not_ok "$m: the installed pnpm audited pnpm-lock.yaml up to the registry"
      head -c 1500 "$rd"/npm-audit.*.json "$rd"/*.log 2>&1 | awk '{ print "# " $0 }'
    fi
    v=$(ls "$rd/"npm-audit.*.version 2>/dev/null | head -n 1)
    if grep -q '^1\.' "${v:-/nonexistent}" &&
       grep -q 'security/audits\|"auditSummary"' "$rd"/npm-audit.*.json "$rd"/npm-audit.stderr.log 2>/dev/null; then
      ok "$m: the installed yarn answered its version and ran yarn audit up to the registry"
    else
      not_ok "$m: the installed yarn answered its version and ran yarn audit up to the registry"
    fi
  done
fi
done_testing
