#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian package: built with dpkg-buildpackage, clean under lintian,
# installed next to Debian's own ash package, running the example scan
# (build-aux/check-debian does the work).  It installs and removes
# packages on this machine and takes minutes, so it runs when asked:
# under CI (CI=true) or with ASH_TEST_DEBIAN_PACKAGE=1.
. "$top_srcdir/tests/libtest.sh"

case ${ASH_TEST_DEBIAN_PACKAGE:-} in
  1) ;;
  0) skip_all "ASH_TEST_DEBIAN_PACKAGE=0" ;;
  *) [ "${CI:-}" = true ] ||
       skip_all "it installs packages: set ASH_TEST_DEBIAN_PACKAGE=1 (CI=true sets it)" ;;
esac
[ -d "$top_srcdir/debian" ] || skip_all "no debian/ directory in this tree"
exec sh "$top_srcdir/build-aux/check-debian"
