#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The memory a scanner's output costs ash is bounded: a SARIF log larger
# than global_settings.max_scanner_document is not read, and one within
# it whose parse would take more than 32 times its size (nothing but
# empty objects) is refused too; either scanner is ERROR with a reason
# that names the file and the setting, and the other scanner's results,
# the aggregated results and every report are still written.  The
# control: the same large log under a larger cap is read, with all its
# results.  ash runs with RLIMIT_AS of 1 GiB (with AddressSanitizer, an RSS
# limit: limit_memory), so that a regression cannot hurt the machine.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
tools=$TEST_TMP/bin
mkdir -p "$tools" "$TEST_TMP/src" "$TEST_TMP/home"
cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
printf 'FAKE-FINDING low\n' >"$TEST_TMP/src/a.txt"

# big.sarif: 10,000 results shaped like a real scanner's, about 7 MiB;
# dense.sarif: about 3 MiB of empty objects, which jansson holds in about
# 90 times that.
python3 - "$TEST_TMP" <<'PY'
import json, sys
d = sys.argv[1]
one = lambda i: {
    "ruleId": "B%03d" % (i % 700), "level": "warning",
    "message": {"text": "possible issue %d: review this call" % i},
    "locations": [{"physicalLocation": {
        "artifactLocation": {"uri": "pkg/module%05d.py" % i},
        "region": {"startLine": 1 + i % 400,
                   "snippet": {"text": "result = eval(user_input)  # %d" % i}}}}],
    "properties": {"issue_severity": "LOW", "cwe": "CWE-%d" % (i % 1000)}}
doc = {"version": "2.1.0",
       "runs": [{"tool": {"driver": {"name": "big-tool"}},
                 "results": [one(i) for i in range(10000)]}]}
with open(d + "/big.sarif", "w") as f:
    json.dump(doc, f, indent=2)
with open(d + "/dense.sarif", "w") as f:
    f.write('{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"d"}},'
            '"results":[],"properties":{"x":[' + ",".join(["{}"] * 1000000)
            + ']}}]}')
PY
big_size=$(wc -c <"$TEST_TMP/big.sarif")
printf '#!/bin/sh\ncp "$1" "$2"\n' >"$tools/copy-tool"
chmod 755 "$tools/copy-tool"
cat >"$TEST_TMP/plugins.yaml" <<PLUG
scanners:
  big:
    tool: copy-tool
    args: ["$TEST_TMP/big.sarif", "{results_dir}/big.sarif"]
    output: { format: sarif, path: "{results_dir}/big.sarif" }
  dense:
    tool: copy-tool
    args: ["$TEST_TMP/dense.sarif", "{results_dir}/dense.sarif"]
    output: { format: sarif, path: "{results_dir}/dense.sarif" }
PLUG
sed 1d "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" \
  | sed '/^scanners:$/d' >>"$TEST_TMP/plugins.yaml"
printf 'global_settings:\n  max_scanner_document: 4194304\n' >"$TEST_TMP/capped.yaml"
printf 'global_settings:\n  max_scanner_document: 16777216\n' >"$TEST_TMP/roomy.yaml"

# scan OUTDIR CONFIG SCANNERS
scan () {
  (
    limit_memory 1024 || exit 99
    env -i ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
      PATH="$tools:/usr/bin:/bin" HOME="$TEST_TMP/home" LANG=C.UTF-8 \
      "$ASH" scan --source-dir "$TEST_TMP/src" --output-dir "$1" \
      --no-progress --sandbox off --strategy sequential \
      --ash-plugin-modules "$TEST_TMP/plugins.yaml" --config "$2" \
      --scanners "$3" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  )
  status=$?
}
# result OUTDIR SCANNER: "STATUS FINDINGS REASON"
result () {
  python3 -c "
import json
d = json.load(open('$1/ash_aggregated_results.json'))
s = d['scanner_results']['$2']
print(s['status'], s['finding_count'], s.get('error_reason', ''))"
}

# The control: under a cap above its size, the large log is read whole.
scan "$TEST_TMP/roomy" "$TEST_TMP/roomy.yaml" big,fake-sarif
assert_eq "control: a log under the cap is read, all its results" \
  "$(result "$TEST_TMP/roomy" big)" "PASSED 10000 "

scan "$TEST_TMP/capped" "$TEST_TMP/capped.yaml" big,dense,fake-sarif
assert_eq "over the cap: the scan is incomplete (exit 1)" "$status" 1
r=$(result "$TEST_TMP/capped" big)
case $r in
  "ERROR 0 /"*"/scanners/big/source/big.sarif was not read: it is larger than 4194304 bytes (global_settings.max_scanner_document)")
    ok "a log over max_scanner_document: ERROR naming the file and the limit" ;;
  *) not_ok "a log over max_scanner_document: ERROR naming the file and the limit"
     diag "$r" "big.sarif: $big_size bytes"; cat "$TEST_TMP/err" >&2 ;;
esac
r=$(result "$TEST_TMP/capped" dense)
case $r in
  "ERROR 0 dense.sarif (exit status 0): the output was not read: its "*" bytes would take more than "*" bytes of memory once parsed, 32 times its size and 1 MiB (global_settings.max_scanner_document)")
    ok "a log too dense to parse within 32 times its size: ERROR with the reason" ;;
  *) not_ok "a log too dense to parse within 32 times its size: ERROR with the reason"
     diag "$r" ;;
esac
assert_eq "the other scanner's results are kept" \
  "$(result "$TEST_TMP/capped" fake-sarif)" "PASSED 1 "
assert_file_contains "ash.log names the scanner and the cap" \
  "$TEST_TMP/capped/ash.log" "global_settings.max_scanner_document"
for f in ash.sarif ash.summary.txt ash.summary.md ash.html ash.csv ash.flat.json ash.junit.xml; do
  check "report $f written" test -s "$TEST_TMP/capped/reports/$f"
done
check "ash.sarif holds the other scanner's finding" \
  grep -q FAKE001 "$TEST_TMP/capped/reports/ash.sarif"
done_testing
