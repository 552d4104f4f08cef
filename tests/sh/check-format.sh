#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The C sources are formatted as .clang-format says: build-aux/check-format
# finds nothing to change in the tree, and does find a misformatted file
# in a scratch copy (so the check can fail), which --apply then fixes.
# The style is written for clang-format 14 (Debian 12's); another major
# version formats some constructs differently, so the tree check is
# skipped with the reason there.
. "$top_srcdir/tests/libtest.sh"

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
command -v "$CLANG_FORMAT" >/dev/null 2>&1 ||
  skip_all "$CLANG_FORMAT is not installed"
major=$("$CLANG_FORMAT" --version | sed -n 's/.*clang-format version \([0-9]*\).*/\1/p')
[ "$major" = 14 ] ||
  skip_all "clang-format $major is installed; .clang-format is written for 14"
check_format=$top_srcdir/build-aux/check-format

if git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
  "$check_format" all >"$TEST_TMP/tree.diff" 2>&1
  status=$?
  assert_eq "every C file of the tree is formatted" "$status" 0
  [ "$status" -eq 0 ] || diag "$(head -n 40 "$TEST_TMP/tree.diff")"
else
  ok "# SKIP the tree check: not a git checkout (a release tarball)"
fi

# A scratch project with the same style file and tool.
s=$TEST_TMP/scratch
mkdir -p "$s/build-aux" "$s/lib"
cp "$top_srcdir/.clang-format" "$s/"
cp "$check_format" "$s/build-aux/"
cat >"$s/lib/good.c" <<'C'
static int
add (int a, int b)
{
  if (a > b)
    return a - b;
  return _ ("x") + b;
}
C
printf 'static int\nadd(int a,int b){return a+b;}\n' >"$s/lib/bad.c"
"$s/build-aux/check-format" "$s/lib/good.c" >"$TEST_TMP/good.out" 2>&1
assert_eq "control: a file in the style passes" "$?" 0
"$s/build-aux/check-format" "$s/lib/bad.c" >"$TEST_TMP/bad.out" 2>&1
assert_eq "a misformatted file fails the check" "$?" 1
assert_file_contains "and the diff names it" "$TEST_TMP/bad.out" "lib/bad.c"
"$s/build-aux/check-format" --apply "$s/lib/bad.c"
"$s/build-aux/check-format" "$s/lib/bad.c" >/dev/null 2>&1
assert_eq "--apply makes it pass" "$?" 0
assert_file_contains "with a space before the parenthesis" "$s/lib/bad.c" \
  "add (int a, int b)"
done_testing
