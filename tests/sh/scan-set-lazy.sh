#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The scan set is built only when a scanner that runs is handed the tree:
# a plugin given {target} gets it (the list, the ignore report, the
# warnings about a link leaving the tree and a FIFO); a plugin given
# neither {target} nor {scan_set} does not (no list, no warning, the list
# of an earlier scan removed, the converters SKIPPED saying why), with the
# same outcome.  A plugin not handed the tree that still reports findings
# in it (it scans its working directory, the source directory) gets the
# scan set built then, so that its findings in ignored files are dropped
# exactly as for the plugin handed the tree.  A builtin scanner always
# gets it.  1,500 links leaving the tree are each warned about, once a
# line in ash.log and a record in ash.log.jsonl.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v mkfifo >/dev/null 2>&1 || skip_all "mkfifo is not installed"
src=$TEST_TMP/src
out=$TEST_TMP/results
mkdir -p "$src/ignored" "$src/pkg" "$TEST_TMP/bin"
printf 'FAKE-FINDING high\n' >"$src/pkg/a.txt"
printf 'FAKE-FINDING high\n' >"$src/ignored/b.txt"
printf 'ignored/\n' >"$src/.gitignore"
printf 'outside\n' >"$TEST_TMP/outside.txt"
ln -s "$TEST_TMP/outside.txt" "$src/leaves.py"
mkfifo "$src/fifo.py" || bail "mkfifo"
PATH=$top_srcdir/tests/fixtures/tools:$TEST_TMP/bin:/usr/bin:/bin
export PATH
cat >"$TEST_TMP/bin/empty-sarif-tool" <<'EOS'
#!/bin/sh
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"empty"}},"results":[]}]}\n' >"$1"
EOS
chmod 755 "$TEST_TMP/bin/empty-sarif-tool"
mods=$TEST_TMP/mods.yaml
cat >"$mods" <<'EOS'
scanners:
  seer:
    tool: empty-sarif-tool
    args: ["{results_dir}/x.sarif", "{target}"]
    output: { format: sarif, path: "{results_dir}/x.sarif" }
  blind:
    tool: empty-sarif-tool
    args: ["{results_dir}/x.sarif"]
    output: { format: sarif, path: "{results_dir}/x.sarif" }
  seer-finder:
    tool: fake-sarif-tool
    args: ["{results_dir}/f.sarif", "{target}"]
    output: { format: sarif, path: "{results_dir}/f.sarif" }
  blind-finder:
    tool: fake-sarif-tool
    args: ["{results_dir}/f.sarif", "."]
    output: { format: sarif, path: "{results_dir}/f.sarif" }
EOS
scan () { # SCANNER
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
    --sandbox off --ash-plugin-modules "$mods" --scanners "$1"
}
status_of () { # SCANNER
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))
print(a["scanner_results"][sys.argv[2]]["status"])' "$out" "$1"
}
conv_reason () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))
c = a["converter_results"]
print(c["archive"]["status"], c["archive"].get("skipped_reason"), "|",
      c["jupyter"]["status"], c["jupyter"].get("skipped_reason"))' "$out"
}
findings () { # the findings of the last scan: "rule file line", sorted
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["ruleId"], l["artifactLocation"]["uri"], l["region"]["startLine"])' "$out" | sort
}
leave_warning="Not scanning 'leaves.py': link leaves the scanned tree"
fifo_warning="Not scanning 'fifo.py': not a regular file (a FIFO)"

# 1. Handed the tree: the scan set is built, listed and warned about.
scan seer
assert_eq "seer ({target}): exit 0" "$status" 0
assert_eq "seer: PASSED" "$(status_of seer)" PASSED
assert_file_contains "seer: the scan set lists pkg/a.txt" \
  "$out/ash-scan-set-files-list.txt" "$src/pkg/a.txt"
assert_file_contains "seer: the ignore report names ignored/" \
  "$out/ash-ignore-report.txt" "ignored: .gitignore:1: ignored/"
assert_file_contains "seer: the leaving link is warned about" "$out/ash.log" "$leave_warning"
assert_file_contains "seer: the FIFO is warned about" "$out/ash.log" "$fifo_warning"
check "seer: ash.log.jsonl has each warning as a record of its own" python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
w = [r["message"] for r in recs if r["level"] == "WARNING"]
sys.exit(not (sys.argv[2] in w and sys.argv[3] in w))' "$out/ash.log.jsonl" "$leave_warning" "$fifo_warning"
assert_file_lacks "seer: no word of a scan set not built" "$out/ash.log" "scan set is not built"
assert_eq "seer: the converters looked at the scan set" "$(conv_reason)" \
  "SKIPPED no archive in the scan set | SKIPPED no notebook in the scan set"

# 2. Not handed the tree: no scan set, and the lists of scan 1 are gone.
scan blind
assert_eq "blind (neither {target} nor {scan_set}): exit 0, as seer" "$status" 0
assert_eq "blind: PASSED, as seer" "$(status_of blind)" PASSED
check "blind: no scan-set list (the earlier one removed)" test ! -e "$out/ash-scan-set-files-list.txt"
check "blind: no ignore report (the earlier one removed)" test ! -e "$out/ash-ignore-report.txt"
assert_file_contains "blind: the log says the scan set is not built" "$out/ash.log" \
  "INFO     the scan set is not built: no scanner of this scan is handed the source directory"
assert_file_lacks "blind: no warning about the link" "$out/ash.log" "$leave_warning"
assert_file_lacks "blind: no warning about the FIFO" "$out/ash.log" "$fifo_warning"
assert_eq "blind: the converters say why they did not run" "$(conv_reason)" \
  "SKIPPED the scan set was not built: no scanner of this scan is handed the source directory | SKIPPED the scan set was not built: no scanner of this scan is handed the source directory"

# 3. Findings: the plugin handed the tree and the one scanning its working
#    directory report the same, the ignored file's finding dropped.
scan seer-finder
assert_eq "seer-finder: exit 2 (a finding)" "$status" 2
seer_findings=$(findings)
assert_eq "seer-finder: the finding in pkg/a.txt only" "$seer_findings" \
  "FAKE001 pkg/a.txt 1"
scan blind-finder
assert_eq "blind-finder: exit 2, as seer-finder" "$status" 2
assert_file_contains "blind-finder: its own output has the ignored file's finding" \
  "$out/scanners/blind-finder/source/f.sarif" "ignored/b.txt"
assert_eq "blind-finder: the same findings, ignored/b.txt dropped" \
  "$(findings)" "$seer_findings"
assert_eq "blind-finder: FAILED, as seer-finder" "$(status_of blind-finder)" FAILED
assert_file_contains "blind-finder: the scan set was built for its findings" \
  "$out/ash-scan-set-files-list.txt" "$src/pkg/a.txt"
assert_file_contains "blind-finder: and its warnings logged" "$out/ash.log" "$leave_warning"

# 4. A builtin scanner always gets it, even one whose tool is missing
#    (that is only known once the scan set is built).
if command -v grype >/dev/null 2>&1; then
  ok "builtin scanner # SKIP grype is installed on PATH, so it would run"
else
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
    --sandbox off --scanners grype
  assert_eq "grype (not installed): exit 1, incomplete" "$status" 1
  assert_file_contains "grype: the scan set is built" \
    "$out/ash-scan-set-files-list.txt" "$src/pkg/a.txt"
  assert_file_contains "grype: the leaving link is warned about" "$out/ash.log" "$leave_warning"
fi

# 5. Many warnings (written many lines to a write): every one of them, in
#    both logs, each line whole.
python3 -c '
import os, sys
os.makedirs(sys.argv[1] + "/many")
for i in range(1500):
    os.symlink(sys.argv[2], "%s/many/l%04d.py" % (sys.argv[1], i))' "$src" "$TEST_TMP/outside.txt" \
  || bail "links"
scan seer
assert_eq "1500 leaving links: exit 0" "$status" 0
assert_eq "ash.log: one warning line each" \
  "$(grep -c "^[0-9T:.-]*Z WARNING  Not scanning 'many/l[0-9]*\.py': link leaves the scanned tree\$" "$out/ash.log")" 1500
assert_eq "ash.log.jsonl: one record each" "$(python3 -c '
import json, sys
print(sum(1 for l in open(sys.argv[1])
          if json.loads(l)["message"].startswith("Not scanning '"'"'many/")))' "$out/ash.log.jsonl")" 1500
done_testing
