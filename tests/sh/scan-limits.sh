#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Per-scanner resource limits (global_settings.max_scanner_output,
# max_scanner_memory, max_scanner_processes): a scanner over its limit is
# stopped there and is ERROR with the reason, the other scanners' results
# and every report are still written, and the same scanner without the
# limit does what it tried (the negative control).  Every attempt is
# tiny: 2 MiB of file, 200 MiB of untouched address space, 100 sleepers.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
tools=$TEST_TMP/tools
mkdir -p "$tools" "$TEST_TMP/src"
cp "$top_srcdir/tests/fixtures/tools/fake-hog-tool" \
   "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
cp "$top_srcdir/tests/fixtures/plugins/hog-scanners.yaml" "$TEST_TMP/hog.yaml"
cat "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" >>"$TEST_TMP/hog.yaml"
sed -i '/^scanners:$/d; 1i scanners:' "$TEST_TMP/hog.yaml"
printf 'FAKE-FINDING low\n' >"$TEST_TMP/src/a.txt"
cp "$ASH" "$TEST_TMP/ash"
chmod -R a+rX "$TEST_TMP"

# scan OUT CONFIG SCANNERS [PREFIX...]
scan () {
  _out=$1 _conf=$2 _sc=$3
  shift 3
  env -i $scanner_user_env PATH="$tools:/usr/bin:/bin" HOME="$TEST_TMP" LANG=C.UTF-8 "$@" \
    "$TEST_TMP/ash" scan --source-dir "$TEST_TMP/src" \
    --output-dir "$TEST_TMP/$_out" --no-progress --sandbox off \
    --ash-plugin-modules "$TEST_TMP/hog.yaml" --config "$_conf" \
    --scanners "$_sc" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}
reason () { # OUT SCANNER
  python3 -c "
import json
d = json.load(open('$TEST_TMP/$1/ash_aggregated_results.json'))
s = d['scanner_results']['$2']
print(s['status'], s.get('error_reason', ''))"
}

printf 'global_settings:\n  max_scanner_output: 1048576\n  max_scanner_memory: 104857600\n' \
  >"$TEST_TMP/limited.yaml"
printf 'global_settings:\n  max_scanner_output: 0\n  max_scanner_memory: 0\n  max_scanner_processes: 0\n' \
  >"$TEST_TMP/unlimited.yaml"

# Files.
scan lim "$TEST_TMP/limited.yaml" hog-file,fake-sarif
assert_eq "over max_scanner_output: the scan completes, incomplete (1)" "$status" 1
r=$(reason lim hog-file)
case $r in
  "ERROR "*SIGXFSZ*max_scanner_output*|"ERROR "*"File size limit exceeded"*) ok "the scanner is ERROR, naming the limit: $r" ;;
  *) not_ok "the scanner is ERROR, naming the limit"; diag "$r" ;;
esac
size=$(stat -c %s "$TEST_TMP/lim/scanners/hog-file/source/big.out" 2>/dev/null || echo 0)
check "its file stopped at the limit ($size bytes)" test "$size" -le 1048576
assert_eq "the other scanner's results are read" "$(reason lim fake-sarif)" "PASSED "
for f in ash.sarif ash.summary.txt ash.summary.md ash.html ash.csv ash.flat.json ash.junit.xml; do
  check "report $f written" test -s "$TEST_TMP/lim/reports/$f"
done
assert_file_contains "the log says how each limit is enforced" "$TEST_TMP/lim/ash.log" \
  "hog-file: at most"
scan unl "$TEST_TMP/unlimited.yaml" hog-file
assert_eq "control: without the limit the 2 MiB file is written" \
  "$(stat -c %s "$TEST_TMP/unl/scanners/hog-file/source/big.out" 2>/dev/null)" 2097152

# The scanner's standard output and error, which it writes into its logs
# in the results directory: the same limit.
scan lim4 "$TEST_TMP/limited.yaml" hog-stdout
r=$(reason lim4 hog-stdout)
case $r in
  "ERROR "*SIGXFSZ*max_scanner_output*|"ERROR "*"File size limit exceeded"*) ok "a log over max_scanner_output: ERROR naming the limit: $r" ;;
  *) not_ok "a log over max_scanner_output: ERROR naming the limit"; diag "$r" ;;
esac
size=$(stat -c %s "$TEST_TMP/lim4/scanners/hog-stdout/source/hog-stdout.stdout.log" 2>/dev/null || echo 0)
check "its stdout log stopped at the limit ($size bytes)" test "$size" -le 1048576
scan unl4 "$TEST_TMP/unlimited.yaml" hog-stdout
assert_eq "control: without the limit the 2 MiB stdout log is written" \
  "$(stat -c %s "$TEST_TMP/unl4/scanners/hog-stdout/source/hog-stdout.stdout.log" 2>/dev/null)" 2097152
assert_eq "control: and the 2 MiB stderr log" \
  "$(stat -c %s "$TEST_TMP/unl4/scanners/hog-stdout/source/hog-stdout.stderr.log" 2>/dev/null)" 2097152

# Memory.
scan lim2 "$TEST_TMP/limited.yaml" hog-memory
r=$(reason lim2 hog-memory)
case $r in
  "ERROR "*MemoryError*|"ERROR "*"went over its memory limit"*) ok "over max_scanner_memory: ERROR with the reason: $r" ;;
  *) not_ok "over max_scanner_memory: ERROR with the reason"; diag "$r" ;;
esac
scan unl2 "$TEST_TMP/unlimited.yaml" hog-memory
assert_eq "control: without the limit the allocation succeeds" \
  "$(reason unl2 hog-memory)" "PASSED "

# Processes: RLIMIT_NPROC counts every process of the account and does
# not hold for root, so this part runs as an account of its own: a uid
# no one else uses, so that other processes cannot change the count.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  uid=$((60000 + $$ % 5000))
  as="setpriv --reuid=$uid --regid=$uid --clear-groups"
  chown -R "$uid:$uid" "$TEST_TMP"
  printf 'global_settings:\n  max_scanner_processes: 40\n' >"$TEST_TMP/procs.yaml"
  scan lim3 "$TEST_TMP/procs.yaml" hog-procs $as
  n=$(sed -n 's/^started \([0-9]*\) sleepers$/\1/p' \
        "$TEST_TMP/lim3/scanners/hog-procs/source/hog-procs.stdout.log")
  check "max_scanner_processes 40: the scanner got fewer than 40 sleepers (${n:-none})" \
    test "${n:-100}" -lt 40
  assert_file_contains "the log says RLIMIT_NPROC" "$TEST_TMP/lim3/ash.log" \
    "at most 40 processes (RLIMIT_NPROC"
  scan unl3 "$TEST_TMP/unlimited.yaml" hog-procs $as
  n=$(sed -n 's/^started \([0-9]*\) sleepers$/\1/p' \
        "$TEST_TMP/unl3/scanners/hog-procs/source/hog-procs.stdout.log")
  assert_eq "control: without the limit all 100 sleepers start" "${n:-none}" 100
else
  diag "not root: the process limit is not checked"
fi
done_testing
