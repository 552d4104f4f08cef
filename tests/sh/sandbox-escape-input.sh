#!/bin/sh
# A sandbox that cannot show the scanner its input must not let it run on
# nothing: firejail puts an empty tmpfs over /var/tmp, so a source tree
# there would be scanned as empty and pass.  Under every Linux backend the
# wrapper checks, before the scanner starts, that the source and output
# directories are there and are the same directories as on the host; when
# they are not, nothing runs and the wrapper says why (exit 126).  The
# control: the same tree outside /var/tmp is read.  As root, every case
# runs again as the unprivileged account.

. "$top_srcdir/tests/libtest.sh"

RUN=$top_builddir/tests/unit/test-backend-run
PROBE=$(cd "$top_builddir/tests/fixtures" && pwd)/escape-probe
[ -x "$RUN" ] || bail "$RUN is not built"
[ -x "$PROBE" ] || skip_all "tests/fixtures/escape-probe is not built"
[ -d /var/tmp ] && [ -w /var/tmp ] || skip_all "/var/tmp is not writable"

# one WHO BACKEND BASE: read a source file of a tree made in BASE.
one () {
  _t=$(mktemp -d "$3/ash-input.XXXXXX")
  chmod 755 "$_t"
  _src=$_t/src
  _out=$_src/.ash/ash_output
  _res=$_out/scanners/escape-probe
  mkdir -p "$_res" "$_t/home" "$_t/tmp"
  echo SOURCE >"$_src/code.py"
  [ "$1" = "$(id -un)" ] || chown -R "$1" "$_t"
  $as_user env HOME="$_t/home" TMPDIR="$_t/tmp" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$RUN" --backend "$2" --source "$_src" --output "$_out" --results "$_res" \
    --read "$(dirname "$PROBE")" --timeout 60 -- "$PROBE" read-file \
    "$_src/code.py" >"$TEST_TMP/out" 2>&1
  rc=$?
  rm -rf "$_t"
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
    if [ $rc -eq 0 ] && grep -q '^RESULT read-file ok$' "$TEST_TMP/out"; then
      ok "$b/$who: the scanner reads a source file (control)"
    else
      not_ok "$b/$who: the scanner reads a source file (control)"
      diag "exit $rc" "$(cat "$TEST_TMP/out")"
    fi
    # Under /var/tmp: read, or not started with the reason; never started
    # without its input.
    one "$who" "$b" /var/tmp
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
  done
}

who=$(id -un)
as_user=
if [ "$(id -u)" = 0 ] && [ -d /var/lib ]; then
  ctl_base=$(mktemp -d /var/lib/ash-input-ctl.XXXXXX)
else
  ctl_base=$(mktemp -d "$(cd "$top_builddir" && pwd)/tests/ash-input-ctl.XXXXXX")
fi
chmod 755 "$ctl_base"
trap 'rm -rf "$ctl_base" "$TEST_TMP"' EXIT
round
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  round
fi
done_testing
