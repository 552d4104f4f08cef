#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make install DESTDIR=...: the program, its helper in pkglibexecdir, the
# bundled plugins, the man pages and the German catalogue land where the
# configured directories say; and the installed ash finds its installed
# ash-landlock-exec, which is not next to it.

. "$top_srcdir/tests/libtest.sh"

[ -f "$top_builddir/Makefile" ] || bail "$top_builddir is not configured"

# mkvar NAME: a make variable of the build tree, fully expanded.
printf 'print-%%:\n\t@echo $($*)\n' >"$TEST_TMP/print.mk"
mkvar () {
  env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "${MAKE:-make}" -s --no-print-directory \
    -C "$top_builddir" -f Makefile -f "$TEST_TMP/print.mk" "print-$1"
}
prefix=$(mkvar prefix)
bindir=$(mkvar bindir)
pkglibexecdir=$(mkvar pkglibexecdir)
pkgdatadir=$(mkvar pkgdatadir)
mandir=$(mkvar mandir)
localedir=$(mkvar localedir)
use_nls=$(mkvar USE_NLS)
platform=$(mkvar ash_platform)
[ -n "$prefix" ] && [ -n "$bindir" ] || bail "cannot read the installation directories"

stage=$TEST_TMP/stage
if env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "${MAKE:-make}" -C "$top_builddir" \
     install DESTDIR="$stage" >"$TEST_TMP/install.log" 2>&1; then
  ok "make install DESTDIR=... succeeds"
else
  not_ok "make install DESTDIR=... succeeds"
  tail -n 30 "$TEST_TMP/install.log" | awk '{ print "# " $0 }'
fi

check_installed () {
  if [ -f "$stage$2" ]; then ok "$1: $2"; else not_ok "$1: $2"; fi
}
check_installed "the program" "$bindir/ash"
check "which is executable" test -x "$stage$bindir/ash"
if [ "$platform" = linux ]; then
  check_installed "the Landlock helper" "$pkglibexecdir/ash-landlock-exec"
  check "which is executable" test -x "$stage$pkglibexecdir/ash-landlock-exec"
  check "and not also in bindir" test ! -e "$stage$bindir/ash-landlock-exec"
fi
check_installed "the cdk-nag worker" "$pkglibexecdir/cdk-nag-worker.js"
check "which is executable" test -x "$stage$pkglibexecdir/cdk-nag-worker.js"
for p in "$top_srcdir"/data/plugins/*.yaml; do
  check_installed "a bundled plugin" "$pkgdatadir/plugins/${p##*/}"
done
docdir=$(mkvar docdir)
check_installed "the license, with the documentation" "$docdir/LICENSE"
check_installed "the notice" "$docdir/NOTICE"
check_installed "ash(1)" "$mandir/man1/ash.1"
check_installed "ash.yaml(5)" "$mandir/man5/ash.yaml.5"
check_installed "ash-sandbox(7)" "$mandir/man7/ash-sandbox.7"
check_installed "invoke-ash(1)" "$mandir/man1/invoke-ash.1"
check_installed "the container wrapper invoke-ash" "$bindir/invoke-ash"
check "which is executable" test -x "$stage$bindir/invoke-ash"
for f in Containerfile Invoke-ASH.ps1 ash; do
  check_installed "container/$f" "$pkgdatadir/container/$f"
done
assert_file_contains "ash-sandbox(7) is assembled" "$stage$mandir/man7/ash-sandbox.7" \
  ".SH SEE ALSO"
if [ "$use_nls" = yes ]; then
  check_installed "the German catalogue" "$localedir/de/LC_MESSAGES/ash.mo"
else
  ok "# SKIP the German catalogue: configured with --disable-nls"
fi

# The staged program looks for its helper in the configured pkglibexecdir,
# so run it where the staged prefix is mounted over the configured one.
if [ "$platform" != linux ]; then
  done_testing
fi
case $pkglibexecdir in
  "$prefix"/*) ;;
  *) ok "# SKIP running the installed ash: pkglibexecdir is outside the prefix"
     done_testing ;;
esac
if [ "$(id -u)" = 0 ]; then unshare_cmd="unshare --mount"; else unshare_cmd="unshare --mount --map-root-user"; fi
in_installed () {
  # shellcheck disable=SC2086
  $unshare_cmd sh -c 'mount --bind "$1$2" "$2" && shift 2 && exec "$@"' sh \
    "$stage" "$prefix" "$@"
}
if [ ! -d "$prefix" ] || ! in_installed true 2>"$TEST_TMP/unshare.err"; then
  ok "# SKIP running the installed ash: cannot mount the staged prefix over $prefix ($(head -n 1 "$TEST_TMP/unshare.err" 2>/dev/null))"
  done_testing
fi
cd "$TEST_TMP" || bail "cannot enter $TEST_TMP"
mkdir -p src
in_installed env -u ASH_HELPER_DIR "$bindir/ash" sandbox probe --source-dir src \
  >"$TEST_TMP/out" 2>&1
assert_file_contains "the installed ash finds its installed helper" "$TEST_TMP/out" \
  "landlock: usable"
# Negative control: the same binary without the installation mounted has
# no helper next to it or in pkglibexecdir.
if [ -e "$pkglibexecdir/ash-landlock-exec" ]; then
  ok "# SKIP the control: $pkglibexecdir/ash-landlock-exec is installed on this system"
else
  "$stage$bindir/ash" sandbox probe --source-dir src >"$TEST_TMP/out" 2>&1
  assert_file_contains "without the installation it has no helper" "$TEST_TMP/out" \
    "landlock: unavailable"
fi

done_testing
