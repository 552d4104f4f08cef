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
assert_file_contains "dry run prints the npm command" "$TEST_TMP/out" "$tools/npm install -g --prefix $TEST_TMP/share/ash --no-fund --no-audit aws-cdk-lib constructs cdk-nag"
assert_file_contains "dry run prints the uv command" "$TEST_TMP/out" "UV_TOOL_BIN_DIR=$bin $tools/uv tool install semgrep"

ASH_BIN_PATH=$bin PATH=$tools:$PATH run_ash dependencies install --scanners cdk-nag,semgrep,grype,npm-audit
assert_eq "install: exit 0" "$status" 0
assert_file_contains "npm installed cdk-nag's modules under the bin directory's prefix" "$FAKE_NPM_LOG" "install prefix=$TEST_TMP/share/ash pkgs= aws-cdk-lib constructs cdk-nag"
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
  ASH_BIN_PATH=$rbin PATH=/usr/local/bin:/usr/bin:/bin run_ash dependencies install --scanners npm-audit,cdk-nag
  assert_eq "real npm: exit 0" "$status" 0
  for m in cdk-nag aws-cdk-lib constructs; do
    check "real npm: $m is installed under the prefix" test -d "$TEST_TMP/real/lib/node_modules/$m"
  done
fi
done_testing
