#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SIGINT and SIGTERM end the running scanners, the results gathered so far
# are written with the unfinished scanners ERROR "interrupted", and ash
# exits 130 / 143.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
# alive PID: the process exists and is not a zombie waiting to be reaped.
alive () {
  _st=$(ps -o stat= -p "$1" 2>/dev/null)
  [ -n "$_st" ] && [ "${_st#Z}" = "$_st" ]
}
src=$TEST_TMP/src
mkdir -p "$src"
printf 'FAKE-FINDING high\n' >"$src/a.txt"

for sig in INT TERM; do
  out=$TEST_TMP/out-$sig
  # A background job of a non-interactive shell ignores SIGINT; give ash
  # the default disposition back, as a terminal would.
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
    --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" \
    --scanners fake-hang,fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err" &
  pid=$!
  n=0
  while [ ! -s "$out/scanners/fake-hang/source/child.pid" ] && [ $n -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  kill -s "$sig" "$pid"
  wait "$pid"
  st=$?
  want=130
  [ "$sig" = TERM ] && want=143
  assert_eq "SIG$sig: exit $want" "$st" "$want"
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
r = a["scanner_results"]
print(r["fake-hang"]["status"], r["fake-hang"].get("error_reason"), a["metadata"]["interrupted"])' \
    "$out/ash_aggregated_results.json" >"$TEST_TMP/agg" 2>&1
  assert_file_contains "SIG$sig: the hanging scanner is ERROR interrupted" "$TEST_TMP/agg" "ERROR interrupted True"
  check "SIG$sig: the reports were written" test -f "$out/reports/ash.sarif"
  cpid=$(cat "$out/scanners/fake-hang/source/child.pid")
  if alive "$cpid"; then
    not_ok "SIG$sig: the scanner's child was ended"
    kill "$cpid"
  else
    ok "SIG$sig: the scanner's child was ended"
  fi
done
done_testing
