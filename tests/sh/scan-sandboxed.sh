#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bandit and a plugin scanner run under each usable sandbox backend find
# what they find unsandboxed (the control), and the enforced policy is
# recorded per scanner in the aggregated results.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
[ -n "$backends" ] || skip_all "no sandbox backend is usable here"

# Everything the sandboxed scanners need must be readable outside /root.
src=$TEST_TMP/py-small
cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$src"
printf 'FAKE-FINDING high\n' >"$src/notes.txt"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
cp "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" "$TEST_TMP/"
PATH=$tools:$PATH
export PATH

findings () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
r = a["scanner_results"]
print(sorted((x["properties"]["scanner_name"], x["ruleId"],
  x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
  x["locations"][0]["physicalLocation"]["region"]["startLine"])
  for run in a["sarif"]["runs"] for x in run["results"]))' "$1/ash_aggregated_results.json"
}

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress --sandbox off \
  --ash-plugin-modules "$TEST_TMP/fake-scanners.yaml" --scanners bandit,fake-sarif
assert_eq "unsandboxed: exit 2" "$status" 2
want=$(findings "$TEST_TMP/off")

for b in $backends; do
  out=$TEST_TMP/out-$b
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox "$b" \
    --ash-plugin-modules "$TEST_TMP/fake-scanners.yaml" --scanners bandit,fake-sarif
  assert_eq "$b: exit 2" "$status" 2
  assert_eq "$b: the same findings as unsandboxed" "$(findings "$out")" "$want"
  rec=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]["bandit"]["sandbox"]
print(r["mode"], r["backend"], r["network"], r["results_dir"].endswith("/scanners/bandit/source"))' "$out/ash_aggregated_results.json")
  assert_eq "$b: bandit's enforced policy is recorded" "$rec" "$b $b False True"
done
done_testing
