#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A scan under a sandbox looks its backend's probe up on a thread of its
# own while it claims the output directory (orchestrator.c).  That thread
# is waited for on every way out: a scan refused at its output directory
# (a link, exit 3) after the lookup started ends with the refusal once the
# lookup is done (its probe is in the cache), and, under valgrind where it
# is installed, without a read or write of memory the scan has freed.  The scan that runs selects the backend the
# settings name, whatever the lookup found first.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" sandbox probe 2>/dev/null | grep -q "^landlock: usable" ||
  skip_all "Landlock is not usable here"

w=$TEST_TMP
mkdir -p "$w/src" "$w/real" "$w/home"
echo x >"$w/src/a.txt"
ln -s "$w/real" "$w/outlink"
msg="the output directory $w/outlink is a symlink; pass --output-dir with a directory that is not a link"

# refused [PREFIX...]: a Landlock scan into the linked output directory,
# with no probe cache, so that the lookup probes.
refused () {
  rm -rf "$w/home/.cache"
  env -u XDG_CACHE_HOME HOME="$w/home" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$@" "$ASH" scan --source-dir "$w/src" --output-dir "$w/outlink" \
    --no-progress --sandbox landlock >"$w/out" 2>"$w/err"
}

refused
assert_eq "a refused output directory still exits 3" "$?" 3
assert_file_contains "with the refusal" "$w/err" "$msg"
check_fails "nothing is written through the link" sh -c "ls -A '$w/real' | grep -q ."
# The lookup probed (no cache), which takes longer than the refusal: that
# its probe reached the cache shows it was waited for, not cut short by
# the exit.
check "the lookup was waited for: its probe is in the cache" \
  test -s "$w/home/.cache/ash/probe-landlock.json"

if asan_build; then
  # AddressSanitizer checks the same accesses itself (the runs above).
  ok "under valgrind # SKIP valgrind cannot run a program built with AddressSanitizer"
elif command -v valgrind >/dev/null 2>&1; then
  refused valgrind -q --error-exitcode=99 --trace-children=no \
    --errors-for-leak-kinds=none
  rc=$?
  assert_eq "under valgrind: exits 3, no invalid memory access" "$rc" 3
  [ "$rc" = 3 ] || diag "$(cat "$w/err")"
else
  ok "under valgrind # SKIP valgrind is not installed"
fi

# The settings decide: with the mode off, nothing is looked up (no probe
# reaches the empty cache) and the scan records mode off.
rm -rf "$w/home/.cache"
env -u XDG_CACHE_HOME HOME="$w/home" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
  "$ASH" scan --source-dir "$w/src" --output-dir "$w/out-off" --no-progress \
  --sandbox off >"$w/out" 2>"$w/err"
mode=$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["metadata"]["sandbox_mode"])' \
  "$w/out-off/ash_aggregated_results.json" 2>&1)
assert_eq "with --sandbox off the scan records mode off" "$mode" off
check_fails "with --sandbox off no backend is probed" \
  sh -c "ls '$w/home/.cache/ash'/probe-* 2>/dev/null | grep -q ."
done_testing
