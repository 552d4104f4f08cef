#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash run as root: no sandboxed scanner reads a file only root may read.
# Under bwrap, Landlock and firejail (each where usable) a scanner runs as
# the scanner account (ASH_SCANNER_USER; nobody by default, an account
# firejail allows for firejail), so /etc/shadow and a 0600 file of root's
# planted in /opt (a system directory mounted whole) are refused with
# EACCES; the control: both are read with the sandbox off.  The scanner
# still writes its results directory and its private HOME and TMPDIR.  A
# source tree the account cannot read stops the scanner with the reason,
# and a whole scan of it is ERROR, never PASSED.
. "$top_srcdir/tests/libtest.sh"

[ "$(id -u)" = 0 ] || skip_all "ash does not run as root here"
command -v setpriv >/dev/null || skip_all "setpriv is not installed"
RUN=$top_builddir/tests/unit/test-backend-run
PROBE=$top_builddir/tests/fixtures/escape-probe
[ -x "$RUN" ] || bail "$RUN is not built"
[ -x "$PROBE" ] || skip_all "tests/fixtures/escape-probe is not built"
PROBE_DIR=$(cd "$(dirname "$PROBE")" && pwd)
PROBE=$PROBE_DIR/$(basename "$PROBE")
[ -r /etc/shadow ] || skip_all "there is no /etc/shadow to read"
[ -d /opt ] && [ -w /opt ] || skip_all "/opt is not writable"

planted=/opt/ash-root-only-$$
cleanup_extra () {
  rm -f "$planted"
  rm -rf "$TEST_TMP"
}
trap cleanup_extra EXIT
echo ROOT-ONLY-SECRET >"$planted"
chmod 600 "$planted"

fj_user=$(unpriv_user)

# run BACKEND SRC -- ARGS...: the probe under BACKEND, as a scanner; output
# in $TEST_TMP/out, status in $rc.
run () {
  _b=$1
  _src=$2
  shift 3
  _user=
  [ "$_b" = firejail ] && _user=$fj_user
  mkdir -p "$TEST_TMP/$_b/res" "$TEST_TMP/$_b/home" "$TEST_TMP/$_b/tmp"
  env HOME="$TEST_TMP/$_b/home" TMPDIR="$TEST_TMP/$_b/tmp" \
    ASH_HELPER_DIR="$ASH_HELPER_DIR" ASH_SCANNER_USER="$_user" \
    "$RUN" --backend "$_b" --source "$_src" --results "$TEST_TMP/$_b/res" \
    --cwd / --read "$PROBE_DIR" --timeout 60 -- "$PROBE" "$@" \
    >"$TEST_TMP/out" 2>&1
  rc=$?
}

result () {
  sed -n 's/^RESULT [^ ]* //p' "$TEST_TMP/out" | head -n 1
}

src=$TEST_TMP/src
mkdir -p "$src"
echo SOURCE >"$src/code.py"
chmod 755 "$TEST_TMP" "$src"

# The controls: root reads both with the sandbox off.
for f in /etc/shadow "$planted"; do
  run off "$src" -- read-file "$f"
  assert_eq "off: reading $f succeeds (control)" "$(result)" ok
done

for B in bwrap landlock firejail; do
  _user=
  [ "$B" = firejail ] && _user=$fj_user
  why=$(ASH_SCANNER_USER="$_user" "$RUN" --backend "$B" --results "$TEST_TMP" \
    --probe-only -- /bin/true)
  case $? in
    0) ;;
    77)
      ok "# SKIP $B is not usable here: $why"
      continue
      ;;
    *) bail "the $B probe failed: $why" ;;
  esac
  for f in /etc/shadow "$planted"; do
    run "$B" "$src" -- read-file "$f"
    assert_eq "$B: a scanner of root's ash cannot read $f" "$(result)" \
      "denied EACCES"
    assert_file_lacks "$B: nothing of $f reaches the scanner's output" \
      "$TEST_TMP/out" ROOT-ONLY-SECRET
  done
  want=$(id -u "${_user:-nobody}" 2>/dev/null || echo 65534)
  run "$B" "$src" -- read-file "$src/code.py"
  assert_eq "$B: the scanner account reads the source tree" "$(result)" ok
  run "$B" "$src" -- write-file "$TEST_TMP/$B/res/report.sarif"
  assert_eq "$B: the scanner account writes its results directory" \
    "$(result)" ok
  _owner=$(stat -c %u "$TEST_TMP/$B/res/report.sarif" 2>/dev/null)
  assert_eq "$B: the scanner ran as uid $want, not root" "$_owner" "$want"

  # A source tree the scanner account cannot read: the scanner does not
  # run on nothing.
  priv=$TEST_TMP/private-$B
  mkdir -p "$priv/src"
  echo SOURCE >"$priv/src/code.py"
  chmod 700 "$priv"
  run "$B" "$priv/src" -- read-file "$priv/src/code.py"
  if [ "$rc" -ne 0 ] && [ "$(result)" != ok ]; then
    ok "$B: a source tree the scanner account cannot read stops the scanner (exit $rc)"
  else
    not_ok "$B: a source tree the scanner account cannot read stops the scanner"
    diag "exit $rc" "$(cat "$TEST_TMP/out")"
  fi
  if [ "$B" != firejail ]; then
    assert_file_contains "$B: the reason names the account and the tree" \
      "$TEST_TMP/out" "cannot read $priv/src"
  fi
done

# A whole scan of a tree the scanner account cannot read: ERROR with the
# reason, never PASSED.
if command -v bandit >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 &&
   "$ASH" sandbox probe 2>/dev/null | grep -q "^bwrap: usable"; then
  priv=$TEST_TMP/private-scan
  mkdir -p "$priv"
  cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$priv/src"
  chmod 700 "$priv"
  HOME="$TEST_TMP/bwrap/home" "$ASH" scan --source-dir "$priv/src" \
    --output-dir "$TEST_TMP/scan-out" --no-progress --sandbox bwrap \
    --scanners bandit >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  st=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"]["bandit"]
print(r["status"], r.get("error_reason") or "")' "$TEST_TMP/scan-out" 2>&1)
  case $st in
    "ERROR "*"cannot read"*) ok "a whole scan of a tree the scanner account cannot read is ERROR: $st" ;;
    *) not_ok "a whole scan of a tree the scanner account cannot read is ERROR with the reason"
       diag "$st" "$(cat "$TEST_TMP/err")" ;;
  esac
else
  ok "# SKIP bandit, python3 or bwrap is missing"
fi

done_testing
