#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# build-aux/install-deps: building needs only the build packages and the
# example scan's; --test adds what the suite needs.  --print lists them
# without installing, so this test changes nothing on the machine.
. "$top_srcdir/tests/libtest.sh"

deps=$top_srcdir/build-aux/install-deps

sh "$deps" --print >"$TEST_TMP/build" 2>"$TEST_TMP/err"
assert_eq "--print exits 0" "$?" 0
sh "$deps" --print --test >"$TEST_TMP/test" 2>>"$TEST_TMP/err"
assert_eq "--print --test exits 0" "$?" 0

for p in gcc make autoconf automake gnulib libyaml-dev libjansson-dev \
  libseccomp-dev bubblewrap bandit; do
  check "the build set holds $p" grep -qx "$p" "$TEST_TMP/build"
done
for p in valgrind hyperfine firejail; do
  check "the build set leaves out $p" sh -c "! grep -qx '$p' '$TEST_TMP/build'"
  check "the test set holds $p" grep -qx "$p" "$TEST_TMP/test"
done
# Everything a build needs is also in the test set.
missing=$(grep -vxF -f "$TEST_TMP/test" "$TEST_TMP/build" || true)
assert_eq "the test set includes the build set" "$missing" ""

sh "$deps" --bogus >/dev/null 2>"$TEST_TMP/err"
assert_eq "an unknown option is an error" "$?" 2
assert_file_contains "naming it" "$TEST_TMP/err" "unknown option '--bogus'"

# The README and CI use it as documented.
check "the README's first command installs the build set" \
  grep -q '^\./build-aux/install-deps && ' "$top_srcdir/README.md"
check "the test runner installs the test set" \
  grep -q '^\./build-aux/install-deps --test$' "$top_srcdir/build-aux/test-all"
done_testing
