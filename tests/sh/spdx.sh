#!/bin/sh
# Every source file carries "SPDX-License-Identifier: Apache-2.0":
# build-aux/spdx finds none missing in the tree, finds one in a scratch
# tree, and --add writes it in the file's comment syntax.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
spdx=$top_srcdir/build-aux/spdx

if git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
  python3 "$spdx" "$top_srcdir" >"$TEST_TMP/tree" 2>&1
  status=$?
  assert_eq "every tracked source file has its license line" "$status" 0
  [ "$status" -eq 0 ] || diag "$(head -n 20 "$TEST_TMP/tree")"
else
  ok "# SKIP the tree check: not a git checkout (a release tarball)"
fi

s=$TEST_TMP/scratch
mkdir -p "$s/lib" "$s/tests/fixtures"
printf '#include <stdio.h>\n' >"$s/lib/a.c"
printf '#!/bin/sh\necho hi\n' >"$s/run.sh"
printf '.TH X 1\n' >"$s/x.1"
printf 'data\n' >"$s/tests/fixtures/input.c"
chmod +x "$s/run.sh"
python3 "$spdx" "$s" >"$TEST_TMP/scratch.out" 2>&1
assert_eq "a file without the line fails the check" "$?" 1
assert_file_contains "and is named" "$TEST_TMP/scratch.out" "lib/a.c: no SPDX"
assert_file_lacks "test data is left alone" "$TEST_TMP/scratch.out" "fixtures"
python3 "$spdx" --add "$s" >/dev/null 2>&1
assert_eq "C gets a C comment" "$(head -n 1 "$s/lib/a.c")" \
  "/* SPDX-License-Identifier: Apache-2.0 */"
assert_eq "a script keeps its #! line first" "$(head -n 1 "$s/run.sh")" "#!/bin/sh"
assert_eq "and gets a # comment after it" "$(sed -n 2p "$s/run.sh")" \
  "# SPDX-License-Identifier: Apache-2.0"
check "and stays executable" test -x "$s/run.sh"
assert_eq "a man page gets a roff comment" "$(head -n 1 "$s/x.1")" \
  '.\" SPDX-License-Identifier: Apache-2.0'
python3 "$spdx" "$s" >/dev/null 2>&1
assert_eq "after --add the check passes" "$?" 0
done_testing
