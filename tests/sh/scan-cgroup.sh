#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Processes and memory of a scanner bounded by a control group of its own
# where ash can make one (pids.max, memory.max): as root, whom RLIMIT_NPROC
# does not bound, a scanner that starts 100 sleepers under
# max_scanner_processes 40 gets fewer than 40, under every backend; one
# that touches 200 MiB under max_scanner_memory 100 MiB is ERROR with the
# reason; the log says which bound applies; no group is left behind.  The
# control: without the limits all 100 sleepers start and the allocation
# succeeds.  Every attempt is tiny (100 sleepers, 200 MiB), so a missing
# bound harms nothing.  Where no group can be made (no cgroup v2 delegated
# to the account, no cgroup v1 as root) the test is skipped, saying why.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
tools=$TEST_TMP/bin
mkdir -p "$tools" "$TEST_TMP/src" "$TEST_TMP/home"
cp "$top_srcdir/tests/fixtures/tools/fake-hog-tool" "$tools/"
cp "$top_srcdir/tests/fixtures/plugins/hog-scanners.yaml" "$TEST_TMP/hog.yaml"
printf 'x\n' >"$TEST_TMP/src/a.txt"
cp "$ASH" "$TEST_TMP/ash"
for h in "$(dirname "$ASH")"/ash-landlock-exec; do
  [ -x "$h" ] && cp "$h" "$TEST_TMP/"
done
chmod -R a+rX "$TEST_TMP"
printf 'global_settings:\n  max_scanner_processes: 40\n  max_scanner_memory: 104857600\n' \
  >"$TEST_TMP/limited.yaml"
printf 'global_settings:\n  max_scanner_processes: 0\n  max_scanner_memory: 0\n' \
  >"$TEST_TMP/unlimited.yaml"

# scan MODE OUT CONFIG SCANNER
scan () {
  env -i $scanner_user_env PATH="$tools:/usr/bin:/bin" HOME="$TEST_TMP/home" LANG=C.UTF-8 \
    "$TEST_TMP/ash" scan --source-dir "$TEST_TMP/src" \
    --output-dir "$TEST_TMP/$2" --no-progress --sandbox "$1" \
    --ash-plugin-modules "$TEST_TMP/hog.yaml" --config "$3" \
    --scanners "$4" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}
reason () { # OUT SCANNER
  python3 -c "
import json
d = json.load(open('$TEST_TMP/$1/ash_aggregated_results.json'))
s = d['scanner_results']['$2']
print(s['status'], s.get('error_reason', ''))"
}
sleepers () { # OUT
  sed -n 's/^started \([0-9]*\) sleepers$/\1/p' \
    "$TEST_TMP/$1/scanners/hog-procs/source/hog-procs.stdout.log" 2>/dev/null
}

scan off probe "$TEST_TMP/limited.yaml" hog-procs
if ! grep -q "hog-procs: at most 40 processes (a pids cgroup)" "$TEST_TMP/probe/ash.log"; then
  why=$(sed -n 's/.*hog-procs: at most 40 processes (\(.*\)), [0-9]* bytes of memory.*/\1/p' "$TEST_TMP/probe/ash.log")
  skip_all "no control group can be made here (${why:-see ash.log})"
fi

for mode in off bwrap firejail landlock; do
  if [ "$mode" != off ] &&
     ! "$TEST_TMP/ash" sandbox probe 2>/dev/null | grep -q "^$mode: usable"; then
    _tap_n=$((_tap_n + 1))
    echo "ok $_tap_n - # SKIP $mode is unavailable here"
    continue
  fi
  scan "$mode" "p-$mode" "$TEST_TMP/limited.yaml" hog-procs
  n=$(sleepers "p-$mode")
  check "$mode: max_scanner_processes 40 holds as $(id -un) (${n:-none} sleepers)" \
    test "${n:-100}" -lt 40
  assert_file_contains "$mode: the log says a pids cgroup bounds it" \
    "$TEST_TMP/p-$mode/ash.log" "at most 40 processes (a pids cgroup)"
  scan "$mode" "m-$mode" "$TEST_TMP/limited.yaml" hog-memory
  r=$(reason "m-$mode" hog-memory)
  case $r in
    "ERROR "*"went over its memory limit of 104857600 bytes"*) ok "$mode: over max_scanner_memory: ERROR with the reason" ;;
    *) not_ok "$mode: over max_scanner_memory: ERROR with the reason"; diag "$r" ;;
  esac
  assert_file_contains "$mode: the log says a memory cgroup bounds it" \
    "$TEST_TMP/m-$mode/ash.log" "bytes of memory (a memory cgroup)"
  scan "$mode" "u-$mode" "$TEST_TMP/unlimited.yaml" hog-procs
  assert_eq "$mode: control: without the limit all 100 sleepers start" \
    "$(sleepers "u-$mode")" 100
  scan "$mode" "v-$mode" "$TEST_TMP/unlimited.yaml" hog-memory
  assert_eq "$mode: control: without the limit the allocation succeeds" \
    "$(reason "v-$mode" hog-memory)" "PASSED "
done
left=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "ash-[0-9]*-hog-*" 2>/dev/null |
  while read -r g; do
    p=${g##*/ash-}
    p=${p%%-*}
    kill -0 "$p" 2>/dev/null || echo "$g"
  done)
assert_eq "no scanner's group is left behind" "$left" ""
done_testing
