#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The installed ash speaks German from its installed catalogue: a usage
# error under LANGUAGE=de is the translated one, and with LANGUAGE unset it
# is the English original.

. "$top_srcdir/tests/libtest.sh"

[ -f "$top_builddir/Makefile" ] || bail "$top_builddir is not configured"

printf 'print-%%:\n\t@echo $($*)\n' >"$TEST_TMP/print.mk"
mkvar () {
  env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "${MAKE:-make}" -s --no-print-directory \
    -C "$top_builddir" -f Makefile -f "$TEST_TMP/print.mk" "print-$1"
}
[ "$(mkvar USE_NLS)" = yes ] || skip_all "configured with --disable-nls"
locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8' || skip_all "no C.UTF-8 locale"
prefix=$(mkvar prefix)
bindir=$(mkvar bindir)
localedir=$(mkvar localedir)
case $localedir in
  "$prefix"/*) ;;
  *) skip_all "localedir $localedir is outside the prefix $prefix" ;;
esac
[ -d "$prefix" ] || skip_all "the prefix $prefix does not exist to mount over"

stage=$TEST_TMP/stage
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "${MAKE:-make}" -C "$top_builddir" \
  install DESTDIR="$stage" >"$TEST_TMP/install.log" 2>&1 ||
  { tail -n 30 "$TEST_TMP/install.log"; bail "make install DESTDIR=$stage failed"; }
[ -f "$stage$localedir/de/LC_MESSAGES/ash.mo" ] ||
  bail "make install did not install the German catalogue"

# The program reads its catalogue from the configured localedir: run the
# staged program where the staged prefix is mounted over the configured one.
if [ "$(id -u)" = 0 ]; then unshare_cmd="unshare --mount"; else unshare_cmd="unshare --mount --map-root-user"; fi
in_installed () {
  # shellcheck disable=SC2086
  $unshare_cmd sh -c 'mount --bind "$1$2" "$2" && shift 2 && exec "$@"' sh \
    "$stage" "$prefix" "$@"
}
in_installed true 2>"$TEST_TMP/unshare.err" ||
  skip_all "cannot mount the staged prefix over $prefix: $(head -n 1 "$TEST_TMP/unshare.err")"

in_installed env LANGUAGE=de LC_ALL=C.UTF-8 "$bindir/ash" --bogus \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "a usage error exits 5 in German too" "$?" 5
assert_file_contains "the problem is named in German" "$TEST_TMP/err" \
  "ash: unbekannte Option »--bogus«"
assert_file_contains "and the hint" "$TEST_TMP/err" \
  "»ash --help« liefert weitere Informationen."

# Controls: the same program in English without LANGUAGE, and without the
# installed catalogue in German it falls back to English.
in_installed env -u LANGUAGE LC_ALL=C.UTF-8 "$bindir/ash" --bogus \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "without LANGUAGE it is English" "$TEST_TMP/err" \
  "ash: unrecognized option '--bogus'"
rm -f "$stage$localedir/de/LC_MESSAGES/ash.mo"
in_installed env LANGUAGE=de LC_ALL=C.UTF-8 "$bindir/ash" --bogus \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "without the catalogue it is English" "$TEST_TMP/err" \
  "ash: unrecognized option '--bogus'"

done_testing
