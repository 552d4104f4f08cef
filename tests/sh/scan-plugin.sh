#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Plugin module scanners end to end, and the scanners that fail: one that
# hangs (killed with its child after scan_timeout), one that crashes, one
# that writes invalid SARIF and one that writes nothing are ERROR with a
# reason.  An invalid module is a configuration error (exit 3) naming the
# file and line.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
# alive PID: the process exists and is not a zombie waiting to be reaped.
alive () {
  _st=$(ps -o stat= -p "$1" 2>/dev/null)
  [ -n "$_st" ] && [ "${_st#Z}" = "$_st" ]
}
plugins=$top_srcdir/tests/fixtures/plugins
src=$TEST_TMP/src
out=$TEST_TMP/out-dir
mkdir -p "$src/docs"
printf 'one\nFAKE-FINDING high\nthree FAKE-FINDING low\n' >"$src/docs/notes.txt"

# 1. A working plugin scanner.
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules "$plugins/fake-scanners.yaml" --scanners fake-sarif
assert_eq "a high finding: exit 2" "$status" 2
assert_file_contains "its result is in ash.sarif" "$out/reports/ash.sarif" '"uri": "docs/notes.txt"'
assert_file_contains "tagged with its scanner" "$out/reports/ash.sarif" '"scanner_name": "fake-sarif"'
assert_file_contains "{target} and {results_dir} were expanded" "$out/scanners/fake-sarif/source/fake-sarif.stdout.log" "fake-sarif-tool scanned $src"
assert_file_contains "{scan_set} names the scan-set list" "$out/scanners/fake-sarif/source/fake-sarif.stdout.log" "scan set: $src/docs/notes.txt"
python3 - "$out/ash_aggregated_results.json" >"$TEST_TMP/agg" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["scanner_results"]["fake-sarif"]
print(a["status"], a["finding_count"], a["actionable_count"], a["severity_counts"]["high"], a["severity_counts"]["low"], a["exit_code"])
PY
assert_file_contains "FAILED, 2 findings, 1 actionable, 1 high, 1 low, tool exit 1" "$TEST_TMP/agg" "FAILED 2 1 1 1 1"

# A plugin's finding in an archive member is reported at the archive,
# as a built-in scanner's is (its results are processed one at a time as
# its log is read); a plain file's finding beside it is the control.
msrc=$TEST_TMP/member-src
mkdir -p "$msrc"
printf 'x FAKE-FINDING high\n' >"$msrc/plain.txt"
python3 -c '
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w")
z.writestr("inner/notes.txt", "one\nFAKE-FINDING high\n")
z.close()' "$msrc/pack.zip"
run_ash scan --source-dir "$msrc" --output-dir "$TEST_TMP/member-out" --no-progress \
  --ash-plugin-modules "$plugins/fake-scanners.yaml" --scanners fake-sarif --sandbox off
python3 - "$TEST_TMP/member-out/ash_aggregated_results.json" >"$TEST_TMP/member" <<'PY2'
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for r in run["results"]:
        l = r["locations"][0]
        p = l.get("properties", {})
        print(l["physicalLocation"]["artifactLocation"]["uri"], p.get("archive_member"), p.get("converted_path"))
PY2
assert_file_contains "a plugin's finding in a plain file (control)" "$TEST_TMP/member" "plain.txt None None"
assert_file_contains "a plugin's finding in an archive member is reported at the archive" \
  "$TEST_TMP/member" "pack.zip inner/notes.txt converted/archive/pack.zip/inner/notes.txt"

# A plugin's log is read one result at a time: a log refused for what it
# holds is refused with the same reason, whatever comes first in it or
# after the results, and none of its results is reported; a log with
# its results before its tool and version is read whole (the control).
mkdir -p "$TEST_TMP/cbin" "$TEST_TMP/csrc"
echo x >"$TEST_TMP/csrc/a.txt"
printf '#!/bin/sh\ncp "$ASH_TEST_LOG" "$1"\n' >"$TEST_TMP/cbin/copy-tool"
chmod 755 "$TEST_TMP/cbin/copy-tool"
printf 'scanners:\n  copier:\n    tool: copy-tool\n    args: ["{results_dir}/out.sarif"]\n    output: { format: sarif, path: "{results_dir}/out.sarif" }\n' \
  >"$TEST_TMP/copier.yaml"
R='{"message":{"text":"m"},"ruleId":"R1","level":"error","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.txt"},"region":{"startLine":1}}}]}'
N='{"ruleId":"R2"}'
T='"tool":{"driver":{"name":"t"}}'
copier () { # NAME LOG WANT: the copier's status, findings, reason and results
  printf '%s' "$2" >"$TEST_TMP/$1.json"
  ASH_TEST_LOG=$TEST_TMP/$1.json PATH=$TEST_TMP/cbin:$PATH run_ash scan \
    --source-dir "$TEST_TMP/csrc" --output-dir "$TEST_TMP/cout" --no-progress \
    --ash-plugin-modules "$TEST_TMP/copier.yaml" --scanners copier --sandbox off
  got=$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
r = a["scanner_results"]["copier"]
print(r["status"], r["finding_count"], r.get("error_reason"),
      sum(len(x.get("results", [])) for x in a["sarif"]["runs"]))' \
    "$TEST_TMP/cout/ash_aggregated_results.json")
  assert_eq "copier, $1" "$got" "$3"
}
bad="ERROR 0 out.sarif (exit status 0): the output is not a SARIF 2.1.0 log:"
copier "a result without a message after a good one" \
  "{\"version\":\"2.1.0\",\"runs\":[{$T,\"results\":[$R,$N]}]}" "$bad a result has no message 0"
copier "a later run without a driver name holding one" \
  "{\"version\":\"2.1.0\",\"runs\":[{$T,\"results\":[$R]},{\"tool\":{\"driver\":{}},\"results\":[$N]}]}" \
  "$bad a run has no tool.driver.name 0"
copier "one in the first run, a later run without a driver name" \
  "{\"version\":\"2.1.0\",\"runs\":[{$T,\"results\":[$N]},{\"tool\":{\"driver\":{}},\"results\":[$R]}]}" \
  "$bad a result has no message 0"
copier "the wrong version after the results" \
  "{\"runs\":[{\"results\":[$R,$N],$T}],\"version\":\"2.0.0\"}" "$bad its version is not \"2.1.0\" 0"
copier "a duplicate key in a later result" \
  "{\"version\":\"2.1.0\",\"runs\":[{$T,\"results\":[$R,{\"message\":{\"text\":\"a\"},\"ruleId\":\"x\",\"ruleId\":\"y\"}]}]}" \
  "ERROR 0 out.sarif (exit status 0): the output is not JSON (line 1: duplicate object key near '\"ruleId\"') 0"
copier "results before the tool and the version (control)" \
  "{\"runs\":[{\"results\":[$R,$R],$T}],\"version\":\"2.1.0\"}" "FAILED 2 None 2"

# Found by name on ASH_PLUGIN_PATH.
ASH_PLUGIN_PATH=$plugins "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules fake-scanners --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "module found by name on ASH_PLUGIN_PATH" "$?" 2

# 2. Scanners that fail.
cat >"$TEST_TMP/conf.yaml" <<'EOF2'
scanners:
  fake-hang:
    options:
      scan_timeout: 1
EOF2
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --config "$TEST_TMP/conf.yaml" \
  --ash-plugin-modules "$plugins/fake-scanners.yaml" \
  --scanners fake-hang,fake-crash,fake-invalid,fake-silent
assert_eq "ERROR scanners make the scan incomplete: exit 1" "$status" 1
python3 - "$out/ash_aggregated_results.json" >"$TEST_TMP/agg" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["scanner_results"]
for n in ("fake-hang", "fake-crash", "fake-invalid", "fake-silent"):
    print(n, a[n]["status"], a[n].get("error_reason"))
PY
assert_file_contains "hang: ERROR timed out" "$TEST_TMP/agg" "fake-hang ERROR timed out after 1 s"
assert_file_contains "crash: ERROR with the signal" "$TEST_TMP/agg" "fake-crash ERROR fake-crash-tool crashed: killed by signal 11 (SIGSEGV)"
assert_file_contains "invalid SARIF: ERROR with why" "$TEST_TMP/agg" "fake-invalid ERROR invalid.sarif (exit status 0): the output is not JSON"
assert_file_contains "no output: ERROR with why" "$TEST_TMP/agg" "fake-silent ERROR fake-silent wrote no output (silent.sarif)"
assert_file_contains "the reason is in the summary" "$TEST_TMP/out" "fake-hang ERROR: timed out after 1 s"
for f in self child; do
  pid=$(cat "$out/scanners/fake-hang/source/$f.pid" 2>/dev/null)
  if [ -n "$pid" ] && ! alive "$pid"; then
    ok "the hanging scanner's $f process was ended"
  else
    not_ok "the hanging scanner's $f process was ended"
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
  fi
done
assert_file_contains "ash.log has the reason" "$out/ash.log" "timed out after 1 s"

# 3. Invalid modules: exit 3 naming the file and line.
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules "$plugins/bad-placeholder.yaml"
assert_eq "unknown placeholder: exit 3" "$status" 3
assert_file_contains "names the file and line" "$TEST_TMP/err" "$plugins/bad-placeholder.yaml:6:"
assert_file_contains "names the placeholder" "$TEST_TMP/err" "unknown placeholder '{source}'"
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules "$plugins/bad-format.yaml"
assert_eq "output format other than sarif: exit 3" "$status" 3
assert_file_contains "names the file and line of the format" "$TEST_TMP/err" "$plugins/bad-format.yaml:5:"
# A module does not read ASH's environment: !ENV in it would hand the
# operator's variables to the scanner around the environment filter.
cat >"$TEST_TMP/env-module.yaml" <<'EOF'
scanners:
  env-leak:
    tool: fake-sarif-tool
    args: ["{results_dir}/fake.sarif", !ENV "${PLANTED_PLUGIN_SECRET}"]
    output: { format: sarif, path: "{results_dir}/fake.sarif" }
EOF
PLANTED_PLUGIN_SECRET=plugin-secret-6e1f
export PLANTED_PLUGIN_SECRET
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules "$TEST_TMP/env-module.yaml" --scanners env-leak
unset PLANTED_PLUGIN_SECRET
assert_eq "!ENV in a module: exit 3" "$status" 3
assert_file_contains "names the file, line and column" "$TEST_TMP/err" \
  "$TEST_TMP/env-module.yaml:4:"
assert_file_contains "says why" "$TEST_TMP/err" "!ENV is refused in a plugin module"
if grep -rqs plugin-secret-6e1f "$out" "$TEST_TMP/out" "$TEST_TMP/err"; then
  not_ok "the planted value is nowhere"
else
  ok "the planted value is nowhere"
fi
sed 's/!ENV "\${PLANTED_PLUGIN_SECRET}"/"plugin-secret-6e1f"/' \
  "$TEST_TMP/env-module.yaml" >"$TEST_TMP/plain-module.yaml"
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules "$TEST_TMP/plain-module.yaml" --scanners env-leak \
  --sandbox off
assert_file_lacks "control: the same module with a plain value loads" \
  "$TEST_TMP/err" "plain-module.yaml:"
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules no-such-module
assert_eq "a module that is not found: exit 3" "$status" 3
assert_file_contains "says it was not found" "$TEST_TMP/err" "plugin module 'no-such-module' was not found"

# 4. The community modules ash ships load and, their tools missing here,
# are MISSING with how to install them.
for m in snyk-code trivy-repo ferret-scan; do
  ASH_PLUGIN_PATH=$top_srcdir/data/plugins PATH=/usr/bin:/bin "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
    --ash-plugin-modules "$m" --scanners "$m" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  st=$?
  if command -v "$(sed -n 's/^ *tool: //p' "$top_srcdir/data/plugins/$m.yaml")" >/dev/null 2>&1; then
    ok "$m: its tool is installed here (# SKIP)"
  else
    assert_eq "$m module loads; its tool is missing: exit 1" "$st" 1
  fi
  assert_file_contains "$m is named with an install hint" "$TEST_TMP/out" "$m MISSING: "
done
done_testing
