#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The escape suite's scoring cannot be fooled: a probe run counts as a
# refusal only with one well-formed report that agrees with the exit
# status; a probe that read a file and then crashed, printed nothing,
# printed two reports or an unknown word is "broken", never refused.

. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/sh/sandbox-escape-score.sh"

rfile=$TEST_TMP/run.out

# score OUTPUT STATUS: probe_result for a run that printed OUTPUT and
# exited with STATUS.
score () {
  printf '%b' "$1" >"$rfile"
  rc=$2
  probe_result
}

assert_eq "a refusal with its errno" "$(score 'RESULT read-file denied EACCES\n' 1)" EACCES
assert_eq "a success" "$(score 'RESULT read-file ok\n' 0)" ok
assert_eq "a report through a terminal (CR LF)" "$(score 'RESULT open-tty denied ENXIO\r\n' 1)" ENXIO
assert_eq "read, then crashed at exit (SIGSEGV)" "$(score 'RESULT read-file ok\n' 139)" broken
assert_eq "a refusal, then crashed" "$(score 'RESULT read-file denied EACCES\n' 134)" broken
assert_eq "nothing printed, exit 1" "$(score '' 1)" broken
assert_eq "the runner's own failure (98)" "$(score 'test-backend-run: cannot compute the policy\n' 98)" broken
assert_eq "an unavailable backend (77)" "$(score 'bwrap cannot create a sandbox here\n' 77)" broken
assert_eq "denied without an errno" "$(score 'RESULT read-file denied\n' 1)" broken
assert_eq "denied with a word that is no errno" "$(score 'RESULT read-file denied maybe\n' 1)" broken
assert_eq "two reports" "$(score 'RESULT read-file denied EACCES\nRESULT read-file ok\n' 1)" broken
assert_eq "ok with exit 1" "$(score 'RESULT read-file ok\n' 1)" broken
assert_eq "denied with exit 0" "$(score 'RESULT read-file denied EPERM\n' 0)" broken

B=bwrap
assert_eq "expected: the backend's own outcomes" "$(expected 'bwrap:ENOENT landlock:EACCES' | tr '\n' ' ')" "ENOENT "
assert_eq "expected: a list and the wildcard" "$(expected 'bwrap:EROFS,ok *:EPERM' | tr '\n' ' ')" "EROFS ok EPERM "
B=firejail
assert_eq "expected: nothing for a backend not named" "$(expected 'bwrap:ENOENT landlock:EACCES')" ""
done_testing
