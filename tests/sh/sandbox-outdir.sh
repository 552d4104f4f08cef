#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Of the output directory, a sandboxed scanner sees only its own results
# directory: not the rest of the output directory (ash.log, another
# scanner's results), not what else an operator's --output-dir holds (a
# home directory and its keys, a directory of private files), also where
# the output directory lies inside the source tree, which is shown whole.
# Each read is refused under bwrap, firejail and Landlock, as root and as
# the unprivileged account; the control: every read works with the sandbox
# off, and the scanner still writes its own results directory and reads the
# source tree beside the output directory.

. "$top_srcdir/tests/libtest.sh"

RUN=$top_builddir/tests/unit/test-backend-run
PROBE=$(cd "$top_builddir/tests/fixtures" && pwd)/escape-probe
[ -x "$RUN" ] || bail "$RUN is not built"
[ -x "$PROBE" ] || skip_all "tests/fixtures/escape-probe is not built"

# one WHO BACKEND LAYOUT PROBE-ARGS...: run the probe (or, with "cat
# FILE", cat, so that what was read is seen) over a tree made in $base.  LAYOUT is "in-tree" (the output directory is the default one
# inside the source tree), "home" (the output directory is HOME) or
# "private" (a directory of private files outside the tree).  In the
# probe's arguments S/ is the source directory, O/ the output directory.
one () {
  _who=$1 _b=$2 _layout=$3
  shift 3
  _t=$(mktemp -d "$base/ash-outdir.XXXXXX")
  chmod 755 "$_t"
  _src=$_t/src
  _home=$_t/home
  case $_layout in
    in-tree) _out=$_src/.ash/ash_output ;;
    home) _out=$_home ;;
    private) _out=$_t/private ;;
  esac
  _res=$_out/scanners/escape-probe/source
  mkdir -p "$_src" "$_home/.ssh" "$_t/tmp" "$_res" \
    "$_out/scanners/other/source"
  echo SOURCE >"$_src/code.py"
  echo PRIVATE >"$_out/private.txt"
  echo KEY >"$_home/.ssh/id_rsa"
  echo '{"other": 1}' >"$_out/scanners/other/source/other.json"
  echo LOG >"$_out/ash.log"
  [ "$_who" = "$(id -un)" ] || chown -R "$_who" "$_t"
  _prog=$PROBE
  if [ "$1" = cat ]; then
    _prog=$(command -v cat)
    shift
  fi
  # shellcheck disable=SC2046
  $as_user env HOME="$_home" TMPDIR="$_t/tmp" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$RUN" --backend "$_b" --source "$_src" --output "$_out" --results "$_res" \
    --read "$(dirname "$PROBE")" --timeout 60 -- "$_prog" \
    $(for a in "$@"; do printf '%s\n' "$a" | sed "s|^S/|$_src/|; s|^O/|$_out/|"; done) \
    >"$TEST_TMP/out" 2>&1
  rc=$?
  rm -rf "$_t"
}

# expect WHO BACKEND LAYOUT WHAT ok|refused PROBE-ARGS...: with "cat FILE
# MARK", ok means MARK was read.
expect () {
  _w=$1 _bk=$2 _l=$3 _what=$4 _want=$5
  shift 5
  if [ "$1" = cat ]; then
    one "$_w" "$_bk" "$_l" cat "$2"
    if grep -q "$3" "$TEST_TMP/out"; then _got=ok; else _got=refused; fi
  else
    one "$_w" "$_bk" "$_l" "$@"
  fi
  _name="$_bk/$_w/$_l: $_what"
  if [ "$1" = cat ]; then
    :
  elif grep -q "^RESULT $1 ok\$" "$TEST_TMP/out"; then
    _got=ok
  elif grep -q "^RESULT $1 " "$TEST_TMP/out"; then
    _got=refused
  else
    _got=none
  fi
  if [ "$_got" = "$_want" ]; then
    ok "$_name ($_want)"
  else
    not_ok "$_name ($_want)"
    diag "exit $rc" "$(cat "$TEST_TMP/out")"
  fi
}

round () {
  for b in off bwrap firejail landlock; do
    if [ "$b" != off ]; then
      why=$($as_user env ASH_HELPER_DIR="$ASH_HELPER_DIR" "$RUN" --backend "$b" \
              --results /tmp --probe-only -- /bin/true)
      if [ $? -ne 0 ]; then
        _tap_n=$((_tap_n + 1))
        echo "ok $_tap_n - # SKIP $b is unavailable to $who: $why"
        continue
      fi
      deny=refused
    else
      deny=ok
    fi
    for layout in in-tree home private; do
      expect "$who" "$b" "$layout" "reads a file of the output directory" \
        "$deny" cat O/private.txt PRIVATE
      expect "$who" "$b" "$layout" "reads ash.log" \
        "$deny" cat O/ash.log LOG
      expect "$who" "$b" "$layout" "reads another scanner's results" \
        "$deny" cat O/scanners/other/source/other.json '"other"' 
      expect "$who" "$b" "$layout" "writes its own results directory" \
        ok write-file O/scanners/escape-probe/source/mine.json
      expect "$who" "$b" "$layout" "reads the source tree" \
        ok cat S/code.py SOURCE
    done
    expect "$who" "$b" home "reads a key in the home that is the output directory" \
      "$deny" cat O/.ssh/id_rsa KEY
  done
}

who=$(id -un)
as_user=
if [ "$(id -u)" = 0 ] && [ -d /var/lib ]; then
  base=$(mktemp -d /var/lib/ash-outdir.XXXXXX)
else
  base=$(mktemp -d "$(cd "$top_builddir" && pwd)/tests/ash-outdir.XXXXXX")
fi
chmod 755 "$base"
trap 'rm -rf "$base" "$TEST_TMP"' EXIT
each_user round
done_testing
