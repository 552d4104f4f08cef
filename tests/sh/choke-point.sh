#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Only lib/proc/spawn.c and linux/landlock-exec.c start processes: the check
# passes on the real tree and fails, naming file and line, on a fixture tree
# that starts one elsewhere.

. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
check=$top_srcdir/build-aux/check-spawn-sites
fixture=$top_srcdir/tests/fixtures/choke-point

python3 "$check" "$top_srcdir" >"$TEST_TMP/real" 2>&1
status=$?
assert_eq "the source tree starts processes only through lib/proc/spawn.c" \
  "$status" 0
[ "$status" -eq 0 ] || diag "$(cat "$TEST_TMP/real")"

python3 "$check" "$fixture" >"$TEST_TMP/fixture" 2>&1
status=$?
assert_eq "a spawn call outside the choke point fails the check" "$status" 1
assert_file_contains "popen() is named with its file and line" \
  "$TEST_TMP/fixture" "linux/bad.c:9: popen()"
assert_file_contains "syscall (SYS_clone3) is named with its file and line" \
  "$TEST_TMP/fixture" "linux/bad.c:12: syscall(SYS_clone3)"
assert_eq "comments, strings, members and the choke point are not reported" \
  "$(wc -l <"$TEST_TMP/fixture" | tr -d ' ')" 2
assert_file_lacks "lib/proc/spawn.c itself is allowed" "$TEST_TMP/fixture" \
  "lib/proc/spawn.c:"

# GNU style may break a long call before its parenthesis.
mkdir -p "$TEST_TMP/split/lib"
printf '%s\n' '#include <unistd.h>' 'int' 'f (void)' '{' \
  '  return execvp' '    ("x", 0);' '}' 'int' 'g (void)' '{' \
  '  return syscall' '    (SYS_clone3, 0);' '}' >"$TEST_TMP/split/lib/split.c"
python3 "$check" "$TEST_TMP/split" >"$TEST_TMP/split.out" 2>&1
assert_eq "a call split across lines fails the check" "$?" 1
assert_file_contains "and is named at the line of its name" \
  "$TEST_TMP/split.out" "lib/split.c:5: execvp()"
assert_file_contains "a split syscall (SYS_clone3) is named too" \
  "$TEST_TMP/split.out" "lib/split.c:11: syscall(SYS_clone3)"

mkdir "$TEST_TMP/empty"
python3 "$check" "$TEST_TMP/empty" >/dev/null 2>&1
assert_eq "a tree without sources is an error, not a pass" "$?" 2

done_testing
