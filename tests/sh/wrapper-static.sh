#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash-landlock-exec is linked as configure decided: where it found a
# static PIE can be linked (ASH_TEST_WRAPPER_STATIC=yes), the wrapper has
# no program interpreter and needs no shared library, is still
# position-independent, and runs; ash itself, dynamically linked, is the
# control that the check sees a dynamic program as one.
. "$top_srcdir/tests/libtest.sh"

W=$ASH_HELPER_DIR/ash-landlock-exec
[ -x "$W" ] || skip_all "ash-landlock-exec is not built"
[ -x "$ASH" ] || skip_all "ash is not built"
command -v readelf >/dev/null 2>&1 ||
  skip_all "readelf is not installed (Debian: binutils)"

# dynamic PROGRAM: whether PROGRAM has a program interpreter or needs a
# shared library.
dynamic () {
  LC_ALL=C readelf -l "$1" 2>/dev/null | grep -q 'INTERP' ||
    LC_ALL=C readelf -d "$1" 2>/dev/null | grep -q '(NEEDED)'
}

check "control: ash is seen as dynamically linked" dynamic "$ASH"

case $ASH_TEST_WRAPPER_STATIC in
  yes)
    check_fails "the wrapper has no interpreter and needs no shared library" \
      dynamic "$W"
    LC_ALL=C readelf -h "$W" | grep -q 'Type:[[:space:]]*DYN'
    assert_eq "the static wrapper is position-independent (a static PIE)" \
      "$?" 0
    ;;
  no)
    ok "# SKIP the static link: configure linked the wrapper dynamically (see its notice)"
    check "the wrapper, linked dynamically, is seen as such" dynamic "$W"
    ;;
  *) bail "ASH_TEST_WRAPPER_STATIC is '$ASH_TEST_WRAPPER_STATIC'" ;;
esac

# It runs either way: the socket filter loads and the command runs.
"$W" --socket-filter -- /bin/sh -c 'exit 7' 2>"$TEST_TMP/err"
assert_eq "the wrapper runs a command under the socket filter" "$?" 7
"$W" --help >"$TEST_TMP/help" 2>&1
assert_eq "the wrapper prints its help" "$?" 0

done_testing
