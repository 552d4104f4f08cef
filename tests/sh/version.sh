#!/bin/sh
# ash --version prints the package version and exits 0.
. "$top_srcdir/tests/libtest.sh"

run_ash --version
assert_eq "ash --version exits 0" "$status" 0
assert_file_contains "ash --version names the version" "$TEST_TMP/out" "ash 0.1.0"
done_testing
