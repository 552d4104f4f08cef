#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash run by an unprivileged account that has no control group of its own
# (no cgroup delegation): max_scanner_processes falls back to RLIMIT_NPROC,
# the log says so, and a scanner that forks until the kernel refuses gets
# fewer processes than the limit, with the sandbox off and under each
# backend the account can use.  The control: without the limit the same
# scanner gets many more.  The whole run, ash included, is held by a pids
# control group this test makes (pids.max 300), so that a limit that does
# not hold cannot hurt the machine; the test is skipped, saying why, where
# it cannot make one.
. "$top_srcdir/tests/libtest.sh"

[ "$(id -u)" = 0 ] ||
  skip_all "needs root to switch to an unprivileged account and to make a control group"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# The test's own pids group: cgroup v1's pids hierarchy, or cgroup v2
# where its root hands out the pids controller.
cg=
if [ -w /sys/fs/cgroup/pids ] &&
   mkdir "/sys/fs/cgroup/pids/ash-test-nproc-$$" 2>/dev/null; then
  cg=/sys/fs/cgroup/pids/ash-test-nproc-$$
elif grep -qw pids /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
     mkdir "/sys/fs/cgroup/ash-test-nproc-$$" 2>/dev/null; then
  cg=/sys/fs/cgroup/ash-test-nproc-$$
fi
[ -n "$cg" ] || skip_all "no pids control group can be made here to hold the test"
cleanup () {
  # Whatever is left in the group is ended before the group goes.
  for _p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
    kill -KILL "$_p" 2>/dev/null
  done
  _i=0
  while [ -s "$cg/cgroup.procs" ] && [ "$_i" -lt 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  rmdir "$cg" 2>/dev/null
  rm -rf "$TEST_TMP"
}
trap cleanup EXIT
echo 300 >"$cg/pids.max" || bail "cannot set pids.max in $cg"

user=$(unpriv_user)
as=$(as_unpriv_cmd "$user")
work=$TEST_TMP/work
mkdir -p "$work/src" "$work/bin" "$work/tools"
printf 'x = 1\n' >"$work/src/a.py"
cp "$top_srcdir/tests/fixtures/tools/fake-hog-tool" "$work/tools/"
cp "$top_srcdir/tests/fixtures/plugins/hog-scanners.yaml" "$work/hog.yaml"
cp "$ASH" "$work/bin/ash"
for h in "$(dirname "$ASH")"/ash-landlock-exec; do
  [ -x "$h" ] && cp "$h" "$work/bin/"
done
printf 'global_settings:\n  max_scanner_processes: 40\n' >"$work/limited.yaml"
printf 'global_settings:\n  max_scanner_processes: 0\n' >"$work/unlimited.yaml"
chown -R "$user" "$work"
chmod 755 "$TEST_TMP"
home=$(getent passwd "$user" | cut -d: -f6)
[ -d "$home" ] || home=$work

# scan MODE OUT CONFIG: ash as the account, inside the test's group.
scan () {
  sh -c 'echo $$ >"$1/cgroup.procs" || exit 99; shift; exec "$@"' sh "$cg" \
    env -i PATH="$work/tools:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 $as \
    "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$2" \
    --no-progress --sandbox "$1" --ash-plugin-modules "$work/hog.yaml" \
    --config "$work/$3" --scanners hog-forkbomb \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
started () { # OUT
  sed -n 's/^started \([0-9]*\) processes$/\1/p' \
    "$work/$1/scanners/hog-forkbomb/source/hog-forkbomb.stdout.log" 2>/dev/null
}

for mode in off bwrap landlock; do
  if [ "$mode" != off ] &&
     ! env -i PATH=/usr/bin:/bin HOME="$home" $as "$work/bin/ash" sandbox probe \
         2>/dev/null | grep -q "^$mode: usable"; then
    ok "$mode as $user # SKIP $mode is not usable for $user"
    continue
  fi
  scan "$mode" "lim-$mode" limited.yaml
  n=$(started "lim-$mode")
  check "$mode as $user: max_scanner_processes 40 holds (${n:-no} processes)" \
    test "${n:-1000}" -lt 40
  assert_file_contains "$mode as $user: the log says RLIMIT_NPROC bounds it" \
    "$work/lim-$mode/ash.log" "hog-forkbomb: at most 40 processes (RLIMIT_NPROC"
  assert_file_lacks "$mode as $user: not a cgroup" "$work/lim-$mode/ash.log" \
    "at most 40 processes (a pids cgroup)"
  scan "$mode" "unl-$mode" unlimited.yaml
  n=$(started "unl-$mode")
  check "$mode as $user: control: without the limit it gets far more (${n:-no} processes)" \
    test "${n:-0}" -ge 100
done
check_fails "nothing of the scans is left in the test's group" \
  test -s "$cg/cgroup.procs"
done_testing
