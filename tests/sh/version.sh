#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash --version prints the package version, then the GNU copyright and
# license lines, and exits 0.  The license is in the tree.
. "$top_srcdir/tests/libtest.sh"

run_ash --version
assert_eq "ash --version exits 0" "$status" 0
assert_file_contains "ash --version names the version" "$TEST_TMP/out" "ash 0.1.0"
assert_file_contains "the copyright line" "$TEST_TMP/out" \
  "Copyright (C) 2026 The ash authors."
assert_file_contains "the license line" "$TEST_TMP/out" \
  "License Apache-2.0: Apache License, Version 2.0 <https://www.apache.org/licenses/LICENSE-2.0>."
assert_file_contains "the warranty line" "$TEST_TMP/out" \
  "There is NO WARRANTY, to the extent permitted by law."
assert_eq "nothing on stderr" "$(cat "$TEST_TMP/err")" ""
check "the license text is in the tree" grep -q "Apache License" "$top_srcdir/LICENSE"
check "and says which version" grep -q "Version 2.0, January 2004" "$top_srcdir/LICENSE"
done_testing
