#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash dependencies install, the rules around the installers (with fake
# npm, uv and pipx that record their calls): ASH's bin directory defaults
# to $XDG_DATA_HOME/ash/bin, or ~/.local/share/ash/bin when XDG_DATA_HOME
# is unset or relative; without uv, Python tools go in with pipx install
# and PIPX_BIN_DIR; an installer found only inside the directory ash was
# started in (the scanned tree) is never run, while the same program
# outside it is (the control); it never runs in a sandbox: --sandbox is
# refused, and a sandbox mode in the tree's config does not stop the
# install.
. "$top_srcdir/tests/libtest.sh"

work=$TEST_TMP/repo
mkdir -p "$work/.ash" "$work/bin" "$TEST_TMP/tools" "$TEST_TMP/home"
printf 'sandbox:\n  mode: bwrap\n' >"$work/.ash/.ash.yaml"
cp "$top_srcdir/tests/fixtures/tools/fake-npm" "$TEST_TMP/tools/npm"
cp "$top_srcdir/tests/fixtures/tools/fake-uv" "$TEST_TMP/tools/uv"
# A fake pipx: records the call and puts a stub in PIPX_BIN_DIR.
cat >"$TEST_TMP/pipx" <<'EOF'
#!/bin/sh
echo "pipx argv=$* cwd=$(pwd) bindir=${PIPX_BIN_DIR:-}" >>"${FAKE_PIPX_LOG:-/dev/null}"
[ "${1:-}" = install ] && [ -n "${PIPX_BIN_DIR:-}" ] || exit 2
mkdir -p "$PIPX_BIN_DIR"
printf '#!/bin/sh\necho "%s stub"\n' "$2" >"$PIPX_BIN_DIR/$2"
chmod +x "$PIPX_BIN_DIR/$2"
EOF
chmod +x "$TEST_TMP/pipx"
FAKE_NPM_LOG=$TEST_TMP/npm.log
FAKE_UV_LOG=$TEST_TMP/uv.log
FAKE_PIPX_LOG=$TEST_TMP/pipx.log
export FAKE_NPM_LOG FAKE_UV_LOG FAKE_PIPX_LOG
cd "$work" || bail "cannot enter $work"

# The default bin directory.
env -u ASH_BIN_PATH XDG_DATA_HOME="$TEST_TMP/xdg" HOME="$TEST_TMP/home" \
  PATH="$TEST_TMP/tools:/usr/bin:/bin" "$ASH" dependencies install --dry-run \
  --scanners semgrep >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "default: \$XDG_DATA_HOME/ash/bin" "$TEST_TMP/out" "Installing into $TEST_TMP/xdg/ash/bin "
assert_file_contains "default: uv installs there" "$TEST_TMP/out" "UV_TOOL_BIN_DIR=$TEST_TMP/xdg/ash/bin "
env -u ASH_BIN_PATH XDG_DATA_HOME=relative HOME="$TEST_TMP/home" \
  PATH="$TEST_TMP/tools:/usr/bin:/bin" "$ASH" dependencies install --dry-run \
  --scanners semgrep >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "a relative XDG_DATA_HOME: ~/.local/share/ash/bin" "$TEST_TMP/out" "Installing into $TEST_TMP/home/.local/share/ash/bin "
env -u ASH_BIN_PATH -u XDG_DATA_HOME HOME="$TEST_TMP/home" \
  PATH="$TEST_TMP/tools:/usr/bin:/bin" "$ASH" dependencies install --dry-run \
  --scanners semgrep >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "XDG_DATA_HOME unset: ~/.local/share/ash/bin" "$TEST_TMP/out" "Installing into $TEST_TMP/home/.local/share/ash/bin "

# pipx when there is no uv.
mkdir -p "$TEST_TMP/pipxonly"
cp "$TEST_TMP/pipx" "$TEST_TMP/pipxonly/"
bin=$TEST_TMP/p/bin
: >"$FAKE_PIPX_LOG"
ASH_BIN_PATH=$bin PATH="$TEST_TMP/pipxonly:/usr/bin:/bin" run_ash dependencies install --scanners semgrep
assert_eq "pipx: exit 0" "$status" 0
check "pipx: pipx install, into ASH's bin directory" grep -qx "pipx argv=install semgrep cwd=[^ ]* bindir=$bin" "$FAKE_PIPX_LOG"
assert_file_lacks "pipx: not run in the directory ash was started in" "$FAKE_PIPX_LOG" "cwd=$work "
check "pipx: semgrep is in ASH's bin directory" test -x "$bin/semgrep"

# A PATH with none of the machine's installers (npm is in /usr/bin here).
sys=$TEST_TMP/sys
mkdir -p "$sys"
for p in sh cat chmod mkdir printf dirname; do
  q=$(command -v "$p") && [ -x "$q" ] && ln -s "$q" "$sys/$p"
done
# An npm and a uv inside the tree: never run.  The dry run names no
# installer there, and the install leaves their logs empty.
for t in npm uv; do
  cat >"$work/bin/$t" <<EOF
#!/bin/sh
echo "in-tree $t ran: \$*" >>"$TEST_TMP/intree.log"
exit 0
EOF
  chmod +x "$work/bin/$t"
done
: >"$TEST_TMP/intree.log"
bin=$TEST_TMP/t/bin
ASH_BIN_PATH=$bin PATH="$work/bin:$sys" run_ash dependencies install --scanners npm-audit,semgrep
assert_file_lacks "in-tree installers: not named" "$TEST_TMP/out" "$work/bin/"
check_fails "in-tree installers: not run" test -s "$TEST_TMP/intree.log"
check "in-tree installers: npm-audit needs npm" grep -q "^npm-audit  *needs npm to install" "$TEST_TMP/out"
# Control: the same programs outside the tree are run.
mkdir -p "$TEST_TMP/outside"
cp "$work/bin/npm" "$work/bin/uv" "$TEST_TMP/outside/"
ASH_BIN_PATH=$bin PATH="$TEST_TMP/outside:$sys" run_ash dependencies install --scanners npm-audit,semgrep
assert_file_contains "control: the same npm outside the tree runs" "$TEST_TMP/intree.log" "in-tree npm ran: install -g --prefix $TEST_TMP/t "
assert_file_contains "control: the same uv outside the tree runs" "$TEST_TMP/intree.log" "in-tree uv ran: tool install semgrep"

# Never in a sandbox.
ASH_BIN_PATH=$bin PATH="$TEST_TMP/tools:/usr/bin:/bin" run_ash dependencies install --sandbox bwrap --scanners semgrep
assert_eq "--sandbox is refused (usage error)" "$status" 5
assert_file_contains "and says so" "$TEST_TMP/err" "option '--sandbox' is not accepted by 'ash dependencies install'"
bin=$TEST_TMP/s/bin
: >"$FAKE_NPM_LOG"
ASH_BIN_PATH=$bin PATH="$TEST_TMP/tools:/usr/bin:/bin" run_ash dependencies install --scanners npm-audit
assert_eq "the tree's sandbox mode: the install still runs (exit 0)" "$status" 0
check "the tree's sandbox mode: npm installed into ASH's bin directory" test -x "$bin/pnpm"
assert_file_contains "the tree's sandbox mode: npm ran unsandboxed (it wrote its log)" "$FAKE_NPM_LOG" "install prefix=$TEST_TMP/s pkgs= pnpm yarn"
done_testing
