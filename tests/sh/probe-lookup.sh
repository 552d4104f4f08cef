#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A scan looks its backend's probe up when it first selects the backend,
# once its output directory is claimed (orchestrator.c): a scan refused at
# its output directory (a link, exit 3) probes nothing and writes nothing
# through the link, also under valgrind where it is installed; with the
# sandbox off nothing is probed.  The control: the same Landlock scan into
# a plain directory probes, caches the probe and records the backend.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" sandbox probe 2>/dev/null | grep -q "^landlock: usable" ||
  skip_all "Landlock is not usable here"

w=$TEST_TMP
mkdir -p "$w/src" "$w/real" "$w/home"
echo x >"$w/src/a.txt"
ln -s "$w/real" "$w/outlink"
msg="the output directory $w/outlink is a symlink; pass --output-dir with a directory that is not a link"
cache=$w/home/.cache/ash

# scan OUTPUT MODE [PREFIX...]: a scan with no probe cache.
scan () {
  _o=$1 _m=$2
  shift 2
  rm -rf "$w/home/.cache"
  env -u XDG_CACHE_HOME HOME="$w/home" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$@" "$ASH" scan --source-dir "$w/src" --output-dir "$_o" \
    --no-progress --sandbox "$_m" >"$w/out" 2>"$w/err"
}
probed () { ls "$cache"/probe-* 2>/dev/null | grep -q .; }

scan "$w/outlink" landlock
assert_eq "a refused output directory exits 3" "$?" 3
assert_file_contains "with the refusal" "$w/err" "$msg"
check_fails "nothing is written through the link" sh -c "ls -A '$w/real' | grep -q ."
check_fails "no backend was probed before the refusal" probed

if asan_build; then
  # AddressSanitizer checks the same accesses itself (the run above).
  ok "under valgrind # SKIP valgrind cannot run a program built with AddressSanitizer"
elif command -v valgrind >/dev/null 2>&1; then
  scan "$w/outlink" landlock valgrind -q --error-exitcode=99 \
    --trace-children=no --errors-for-leak-kinds=none
  rc=$?
  assert_eq "under valgrind: exits 3, no invalid memory access" "$rc" 3
  [ "$rc" = 3 ] || diag "$(cat "$w/err")"
else
  ok "under valgrind # SKIP valgrind is not installed"
fi

# With the mode off, nothing is looked up and the scan records mode off.
scan "$w/out-off" off
mode=$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["metadata"]["sandbox_mode"])' \
  "$w/out-off/ash_aggregated_results.json" 2>&1)
assert_eq "with --sandbox off the scan records mode off" "$mode" off
check_fails "with --sandbox off no backend is probed" probed

# The control: into a plain directory the Landlock scan probes, caches
# the probe and records its backend.
scan "$w/out-ll" landlock
mode=$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["metadata"]["sandbox_mode"])' \
  "$w/out-ll/ash_aggregated_results.json" 2>&1)
assert_eq "control: the Landlock scan records mode landlock" "$mode" landlock
check "control: it probed Landlock and cached the probe" \
  test -s "$cache/probe-landlock.json"
done_testing
