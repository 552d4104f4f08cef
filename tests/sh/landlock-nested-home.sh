#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Under Landlock a tool installed in a directory nested in the home, as
# pyenv installs one (~/.pyenv/versions/3.11/bin, whose install prefix
# ~/.pyenv/versions/3.11 is granted too), runs: the private home gets one
# link for the outermost granted directory and none beneath it, instead
# of failing with "cannot link ... in the private home: Not a directory".
# Run by the account running make check and, as root, by an unprivileged
# account; and with the real cfn-lint when it is installed.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
grep -q "^landlock: usable" "$TEST_TMP/probe" ||
  skip_all "Landlock is not usable here: $(grep '^landlock:' "$TEST_TMP/probe")"

mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml

# setup DIR: a home in DIR with the fake tool in a nested bin directory,
# and a tree with one finding.
setup () {
  mkdir -p "$1/home/.pyenv/versions/3.11/bin" "$1/home/.pyenv/versions/3.11/lib" \
    "$1/src"
  cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$1/home/.pyenv/versions/3.11/bin/"
  chmod 755 "$1/home/.pyenv/versions/3.11/bin/fake-sarif-tool"
  printf 'FAKE-FINDING high\n' >"$1/src/a.txt"
}

# status OUT: the fake scanner's status in OUT.
scanner_status () {
  python3 -c "
import json, sys
print(json.load(open(sys.argv[1]))['scanner_results']['fake-sarif']['status'])" \
    "$1/ash_aggregated_results.json" 2>/dev/null || echo none
}

# scan WORK MODE [PREFIX...]: the fake scanner over WORK/src.
scan () {
  _w=$1 _m=$2
  shift 2
  env -i $scanner_user_env PATH="$_w/home/.pyenv/versions/3.11/bin:/usr/bin:/bin" HOME="$_w/home" \
    LANG=C.UTF-8 "$@" "$ASH_RUN" scan --source-dir "$_w/src" \
    --output-dir "$_w/out-$_m" --no-progress --scanners fake-sarif \
    --ash-plugin-modules "$mods" --sandbox "$_m" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

ASH_RUN=$ASH
work=$TEST_TMP/me
setup "$work"
scan "$work" off
assert_eq "control: the tool runs unsandboxed (findings: exit 2)" "$status" 2
scan "$work" landlock
assert_eq "landlock: the tool in a nested home directory runs (exit 2)" "$status" 2
assert_file_lacks "landlock: no 'cannot link' error" "$TEST_TMP/err" "cannot link"
assert_eq "landlock: the scanner FAILED on its finding, not ERROR" \
  "$(scanner_status "$work/out-landlock")" FAILED
env -i $scanner_user_env PATH="$work/home/.pyenv/versions/3.11/bin:/usr/bin:/bin" HOME="$work/home" \
  LANG=C.UTF-8 "$ASH" sandbox explain fake-sarif --source-dir "$work/src" \
  --ash-plugin-modules "$mods" >"$TEST_TMP/explain" 2>"$TEST_TMP/err"
python3 - "$TEST_TMP/explain" >"$TEST_TMP/links" <<'PY' || bail "explain gave no JSON"
import json, sys
d = json.load(open(sys.argv[1]))
names = [l["name"] for l in d["home_links"]]
for n in names:
    print(n, "nested" if any(n.startswith(m + "/") for m in names) else "top")
PY
assert_file_contains "explain: the install prefix is linked in the private home" \
  "$TEST_TMP/links" ".pyenv/versions/3.11 top"
assert_file_lacks "explain: no link beneath another link" "$TEST_TMP/links" "nested"

# As an unprivileged account, with a home of its own.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  user=$(unpriv_user)
  as=$(as_unpriv_cmd "$user")
  uwork=$TEST_TMP/unpriv
  setup "$uwork"
  mkdir -p "$uwork/bin"
  cp "$ASH" "$uwork/bin/ash"
  [ -x "$(dirname "$ASH")/ash-landlock-exec" ] &&
    cp "$(dirname "$ASH")/ash-landlock-exec" "$uwork/bin/"
  chown -R "$user" "$uwork"
  chmod 755 "$TEST_TMP"
  ASH_RUN=$uwork/bin/ash
  # shellcheck disable=SC2086
  scan "$uwork" off $as
  assert_eq "control as $user: the tool runs unsandboxed" "$status" 2
  # shellcheck disable=SC2086
  scan "$uwork" landlock $as
  assert_eq "landlock as $user: the tool in a nested home directory runs" "$status" 2
  assert_file_lacks "landlock as $user: no 'cannot link' error" "$TEST_TMP/err" "cannot link"
  ASH_RUN=$ASH
else
  ok "# SKIP not root: the unprivileged run needs root to switch accounts"
fi

# The real cfn-lint, when it is installed (through pyenv's shims, its
# real tool is under ~/.pyenv/versions/...).
if command -v cfn-lint >/dev/null 2>&1; then
  tool=$(command -v cfn-lint)
  if command -v pyenv >/dev/null 2>&1 && pyenv which cfn-lint >/dev/null 2>&1; then
    tool=$(pyenv which cfn-lint)
  fi
  src=$TEST_TMP/iac
  cp -R "$top_srcdir/tests/fixtures/repos/iac" "$src"
  PATH=$(dirname "$tool"):$PATH "$ASH" scan --source-dir "$src" \
    --output-dir "$TEST_TMP/cfn" --no-progress --scanners cfn-lint \
    --sandbox landlock >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  st=$?
  assert_file_lacks "cfn-lint ($tool) under landlock: no 'cannot link' error" \
    "$TEST_TMP/err" "cannot link"
  if [ "$(id -u)" = 0 ] &&
     ! $(as_unpriv_cmd "${ASH_SCANNER_USER:-nobody}") test -x "$tool" 2>/dev/null; then
    # As root the scanner runs as the scanner account, which cannot run a
    # tool under root's own home: never PASSED without having run.
    cst=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["scanner_results"]["cfn-lint"]["status"])' \
      "$TEST_TMP/cfn/ash_aggregated_results.json" 2>/dev/null)
    check "cfn-lint under root's home, as the scanner account: not PASSED ($cst)" \
      test "$cst" = ERROR -o "$cst" = MISSING
  else
    check "cfn-lint under landlock: it ran (exit 0 or 2, got $st)" test "$st" = 0 -o "$st" = 2
  fi
else
  ok "# SKIP cfn-lint is not installed"
fi

done_testing
