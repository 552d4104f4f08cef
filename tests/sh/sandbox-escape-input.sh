#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A sandbox that cannot show the scanner its input must not let it run on
# nothing: firejail puts an empty tmpfs over /var/tmp, so a source tree
# there would be scanned as empty and pass.  Under every Linux backend the
# wrapper checks, before the scanner starts, that the source and output
# directories are there and are the same directories as on the host; when
# they are not, nothing runs and the wrapper says why (exit 126).  The
# control: the same tree outside /var/tmp is read.
#
# As root, a tree on a file system of its own (a tmpfs mounted for the
# test): firejail's --read-only=/ reaches the root file system only, so
# every other mount point must be made read-only by name; a source file
# there must not be overwritten nor a file planted in the output directory
# (the control: both work with the sandbox off).  As root, every case runs
# again as the unprivileged account.

. "$top_srcdir/tests/libtest.sh"

RUN=$top_builddir/tests/unit/test-backend-run
PROBE=$(cd "$top_builddir/tests/fixtures" && pwd)/escape-probe
[ -x "$RUN" ] || bail "$RUN is not built"
[ -x "$PROBE" ] || skip_all "tests/fixtures/escape-probe is not built"
[ -d /var/tmp ] && [ -w /var/tmp ] || skip_all "/var/tmp is not writable"

# one WHO BACKEND BASE [PROBE-ARGS...]: read a source file of a tree made
# in BASE, or run the probe with PROBE-ARGS ($S is the source directory,
# $O the output directory); the tree is left in $_t.
one () {
  _who=$1 _b=$2 _base=$3
  shift 3
  _t=$(mktemp -d "$_base/ash-input.XXXXXX")
  chmod 755 "$_t"
  _src=$_t/src
  _out=$_src/.ash/ash_output
  _res=$_out/scanners/escape-probe
  mkdir -p "$_res" "$_t/home" "$_t/tmp"
  echo SOURCE >"$_src/code.py"
  [ "$_who" = "$(id -un)" ] || chown -R "$_who" "$_t"
  [ $# -gt 0 ] || set -- read-file "$_src/code.py"
  S=$_src O=$_out
  # shellcheck disable=SC2046
  $as_user env HOME="$_t/home" TMPDIR="$_t/tmp" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$RUN" --backend "$_b" --source "$_src" --output "$_out" --results "$_res" \
    --read "$(dirname "$PROBE")" --timeout 60 -- "$PROBE" \
    $(for a in "$@"; do printf '%s\n' "$a" | sed "s|^S/|$_src/|; s|^O/|$_out/|"; done) \
    >"$TEST_TMP/out" 2>&1
  rc=$?
}

# other_mount WHO BACKEND: the writes on a file system of its own.
other_mount () {
  one "$1" "$2" "$mnt" write-file S/code.py
  [ "$(cat "$S/code.py")" != SOURCE ] && e=1 || e=0
  rm -rf "$_t"
  one "$1" "$2" "$mnt" write-file O/planted.json
  [ -e "$O/planted.json" ] && e2=1 || e2=0
  rm -rf "$_t"
  if [ "$2" = off ]; then
    check "off/$1: on another mount, overwriting a source file succeeds (control)" [ $e = 1 ]
    check "off/$1: on another mount, planting a file in the output directory succeeds (control)" [ $e2 = 1 ]
  else
    check "$2/$1: on another mount, overwriting a source file is refused" [ $e = 0 ]
    check "$2/$1: on another mount, planting a file in the output directory is refused" [ $e2 = 0 ]
  fi
}

round () {
  for b in bwrap firejail landlock; do
    why=$($as_user env ASH_HELPER_DIR="$ASH_HELPER_DIR" "$RUN" --backend "$b" \
            --results /tmp --probe-only -- /bin/true)
    if [ $? -ne 0 ]; then
      _tap_n=$((_tap_n + 1))
      echo "ok $_tap_n - # SKIP $b is unavailable to $who: $why"
      continue
    fi
    # The control: a tree outside /var/tmp and /tmp is read.
    one "$who" "$b" "$ctl_base"
    rm -rf "$_t"
    if [ $rc -eq 0 ] && grep -q '^RESULT read-file ok$' "$TEST_TMP/out"; then
      ok "$b/$who: the scanner reads a source file (control)"
    else
      not_ok "$b/$who: the scanner reads a source file (control)"
      diag "exit $rc" "$(cat "$TEST_TMP/out")"
    fi
    # Under /var/tmp: read, or not started with the reason; never started
    # without its input.
    one "$who" "$b" /var/tmp
    rm -rf "$_t"
    if [ $rc -eq 0 ] && grep -q '^RESULT read-file ok$' "$TEST_TMP/out"; then
      ok "$b/$who: a source tree under /var/tmp is shown to the scanner"
    elif [ $rc -eq 126 ] &&
         grep -q 'the sandbox does not show .* to the scanner' "$TEST_TMP/out" &&
         ! grep -q '^RESULT' "$TEST_TMP/out"; then
      ok "$b/$who: a source tree under /var/tmp that $b hides: the scanner does not start, and the reason is given"
    else
      not_ok "$b/$who: a source tree under /var/tmp is either shown or the scanner does not start"
      diag "exit $rc" "$(cat "$TEST_TMP/out")"
    fi
    [ -n "$mnt" ] && other_mount "$who" "$b"
  done
  [ -n "$mnt" ] && other_mount "$who" off
}

who=$(id -un)
as_user=
if [ "$(id -u)" = 0 ] && [ -d /var/lib ]; then
  ctl_base=$(mktemp -d /var/lib/ash-input-ctl.XXXXXX)
else
  ctl_base=$(mktemp -d "$(cd "$top_builddir" && pwd)/tests/ash-input-ctl.XXXXXX")
fi
chmod 755 "$ctl_base"
mnt=
if [ "$(id -u)" = 0 ]; then
  mnt=$(mktemp -d /var/lib/ash-input-mnt.XXXXXX)
  if mount -t tmpfs -o size=4m,mode=755 ash-input "$mnt" 2>/dev/null; then
    :
  else
    rmdir "$mnt"
    mnt=
    _tap_n=$((_tap_n + 1))
    echo "ok $_tap_n - # SKIP cannot mount a tmpfs for the other-mount cases"
  fi
fi
trap '[ -n "$mnt" ] && umount "$mnt" && rmdir "$mnt"; rm -rf "$ctl_base" "$TEST_TMP"' EXIT
each_user round
done_testing
