#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream ASH 3's outputs: every reporter name is either written or
# refused (upstream's cloud reporters: "not available", exit 3; unknown
# names: an error), never accepted and ignored; the reports upstream has
# (cyclonedx with syft's SBOM, gitlab-sast, github-ghas, ocsf, yaml, spdx,
# gitlab-cyclonedx, unused-suppressions) with upstream's file names (each
# checked against its schema by reports-schemas.sh);
# ash_aggregated_results.json with upstream's fields;
# and a finding whose rule, message and path are built to break each
# format (control characters, quotes, YAML, CSV, Markdown and HTML
# syntax) arrives in each report correctly encoded.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
python3 -c 'import yaml' 2>/dev/null || skip_all "python3-yaml is not installed"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
mv "$tools/fake-syft" "$tools/syft"
PATH=$tools:$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES CI
mods=$top_srcdir/tests/fixtures/plugins/report-inject.yaml
src=$TEST_TMP/src
out=$TEST_TMP/results
mkdir -p "$src"
printf 'x\n' >"$src/plain.txt"
conf () { printf "$1" >"$TEST_TMP/c.yaml"; }
validate () {
  "$ASH" config validate --source-dir "$src" -c "$TEST_TMP/c.yaml" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
scan () {
  rm -rf "$out"
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
    --ash-plugin-modules "$mods" "$@"
}
py () { python3 -c "$@"; }

# 1. Upstream's cloud reporters are refused, in the configuration and in
# --output-formats, unless turned off.
for r in asff aws-security-hub security-hub cloudwatch-logs s3 bedrock-summary-reporter; do
  conf "reporters:\n  $r:\n    enabled: true\n"
  validate
  assert_eq "reporters.$r: a configuration error (exit 3)" "$?" 3
  assert_file_contains "reporters.$r: not available, and why" "$TEST_TMP/err" "reporter '$r' is not available in ash: it "
  conf "reporters:\n  $r:\n    options:\n      bucket_name: b\n"
  validate
  assert_eq "reporters.$r without enabled: refused too" "$?" 3
  conf "reporters:\n  $r:\n    enabled: false\n"
  validate
  assert_eq "control: reporters.$r turned off is accepted" "$?" 0
  scan --scanners report-inject -f "sarif,$r"
  assert_eq "-f $r: exit 3" "$status" 3
  assert_file_contains "-f $r: not available" "$TEST_TMP/err" "reporter '$r' is not available in ash"
  check_fails "-f $r: nothing was scanned" test -e "$out/ash_aggregated_results.json"
done
printf '{"output_formats": ["sarif", "bedrock-summary-reporter"]}' >"$TEST_TMP/in.json"
scan --scanners report-inject --cli-json-input "$TEST_TMP/in.json"
assert_eq "a cloud reporter in --cli-json-input: exit 3" "$status" 3
assert_file_contains "... naming where" "$TEST_TMP/err" "'output_formats' in $TEST_TMP/in.json: reporter 'bedrock-summary-reporter' is not available in ash"
conf 'reporters:\n  s3:\n    enabled: true\n'
scan --scanners report-inject -c "$TEST_TMP/c.yaml"
assert_eq "a scan with reporters.s3: exit 3" "$status" 3
check_fails "... nothing was scanned" test -e "$out/ash_aggregated_results.json"

# Unknown names: an error in both places.
conf 'reporters:\n  pdf:\n    enabled: true\n'
validate
assert_eq "reporters.pdf: a configuration error" "$?" 3
assert_file_contains "... naming it and the known reporters" "$TEST_TMP/err" "unknown reporter 'pdf': ash has the reporters sarif, markdown"
scan --scanners report-inject -f pdf
assert_eq "-f pdf: a usage error" "$status" 5

# 2. Every reporter name ash knows is written when named, with upstream's
# file name, and reporters.NAME.enabled: false turns it off.
files='sarif:ash.sarif markdown:ash.summary.md text:ash.summary.txt flat-json:ash.flat.json
html:ash.html junitxml:ash.junit.xml csv:ash.csv cyclonedx:ash.cdx.json
gitlab-sast:ash.gl-sast-report.json github-ghas:ash.ghas.sarif ocsf:ash.ocsf.json
yaml:ash.yaml spdx:ash.spdx.json gitlab-cyclonedx:ash.gl-dependency-scanning-report.cdx.json
unused-suppressions:ash.unused-suppressions.json'
all=$(for f in $files; do printf '%s,' "${f%%:*}"; done)
conf 'global_settings:\n  suppressions:\n    - path: plain.txt\n      rule_id: PLAIN001\n      reason: "known: [x](y)"\n    - path: "never/**"\n      reason: "stale | *entry*"\n      line_start: 4\n'
scan --scanners report-inject,syft -f "${all%,}" -c "$TEST_TMP/c.yaml"
assert_eq "every reporter named: the scan exits 2 (actionable finding)" "$status" 2
for f in $files; do
  check "-f ${f%%:*}: reports/${f#*:}" test -s "$out/reports/${f#*:}"
done
cp -r "$out" "$TEST_TMP/all"
A=$TEST_TMP/all

# By default, as upstream: yaml and spdx off, the others on.
scan --scanners report-inject -c "$TEST_TMP/c.yaml"
check_fails "default: no ash.yaml" test -e "$out/reports/ash.yaml"
check_fails "default: no ash.spdx.json" test -e "$out/reports/ash.spdx.json"
for f in ash.cdx.json ash.gl-sast-report.json ash.ghas.sarif ash.ocsf.json ash.unused-suppressions.json; do
  check "default: $f" test -s "$out/reports/$f"
done
check_fails "default without syft: no gitlab-cyclonedx report (no SBOM)" \
  test -e "$out/reports/ash.gl-dependency-scanning-report.cdx.json"
conf 'reporters:\n  cyclonedx:\n    enabled: false\n  gitlab-sast:\n    enabled: false\n  github-ghas:\n    enabled: false\n  ocsf:\n    enabled: false\n  unused-suppressions:\n    enabled: false\n  yaml:\n    enabled: true\n'
scan --scanners report-inject -c "$TEST_TMP/c.yaml"
for f in ash.cdx.json ash.gl-sast-report.json ash.ghas.sarif ash.ocsf.json ash.unused-suppressions.json; do
  check_fails "enabled: false: no $f" test -e "$out/reports/$f"
done
check "enabled: true: ash.yaml" test -s "$out/reports/ash.yaml"
# Every reporter, the four upstream writes by default included.
conf 'reporters:\n  sarif:\n    enabled: false\n  markdown:\n    enabled: false\n  text:\n    enabled: false\n  flat-json:\n    enabled: false\n'
scan --scanners report-inject -c "$TEST_TMP/c.yaml"
for f in ash.sarif ash.summary.md ash.summary.txt ash.flat.json; do
  check_fails "enabled: false: no $f" test -e "$out/reports/$f"
done
check "enabled: false of other reporters leaves ash.html" test -s "$out/reports/ash.html"
check "and the aggregated results" test -s "$out/ash_aggregated_results.json"

# 3. Each report against its schema: tests/sh/reports-schemas.sh.

# What each report holds.
assert_eq "cdx: syft's 33 components and both findings as vulnerabilities" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.cdx.json")); print(len(d["components"]), len(d["vulnerabilities"]), sorted(v["ratings"][0]["severity"] for v in d["vulnerabilities"]))')" \
  "33 2 ['high', 'medium']"
assert_eq "cdx: the suppressed finding is not_affected with its reason" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.cdx.json")); print([(v["id"], v["analysis"]["state"], v["analysis"]["detail"]) for v in d["vulnerabilities"] if "analysis" in v])')" \
  "[('PLAIN001', 'not_affected', 'known: [x](y)')]"
assert_eq "spdx: syft's 33 packages, each described" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.spdx.json")); print(len(d["packages"]), len(d["relationships"]))')" "33 33"
assert_eq "gitlab-cyclonedx: the schema version and each component's category" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.gl-dependency-scanning-report.cdx.json")); p = lambda o: {x["name"]: x["value"] for x in o.get("properties", [])}; print(p(d["metadata"])["gitlab:meta:schema_version"], all(p(c)["gitlab:dependency_scanning:category"] == "production" for c in d["components"]))')" \
  "1 True"
assert_eq "gitlab-sast: severities, the suppressed one as Info with its reason" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.gl-sast-report.json")); print(d["scan"]["status"], sorted((v["name"][:3], v["severity"], "solution" in v) for v in d["vulnerabilities"]))')" \
  "failure [('INJ', 'High', False), ('PLA', 'Info', True)]"
assert_eq "ghas: the suppressed finding is left out; security-severity, fullDescription, tags, partialFingerprints, %SRCROOT%" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.ghas.sarif")); r = d["runs"][0]; x = r["results"][0]; ru = r["tool"]["driver"]["rules"][x["ruleIndex"]]
print(len(r["results"]), ru["properties"]["security-severity"], "fullDescription" in ru, "report-inject" in ru["properties"]["tags"], "ashFindingId/v1" in x["partialFingerprints"], x["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"])')" \
  "1 8.0 True True True %SRCROOT%"
assert_eq "ocsf: one finding each, the suppressed one Suppressed" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.ocsf.json")); print(sorted((f["severity_id"], f["status"]) for f in d))')" \
  "[(3, 'Suppressed'), (4, 'New')]"
assert_eq "unused-suppressions: the entry that matched nothing" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.unused-suppressions.json")); print(d["summary"], [e["path"] for e in d["unused_suppressions"]])')" \
  "{'total_suppressions': 2, 'used_suppressions': 1, 'unused_suppressions': 1} ['never/**']"

# ash.flat.json and ash.csv in upstream's shape: its flat vulnerability
# fields, in its order, then ash's.
assert_eq "flat.json: upstream's fields first, then ash's" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.flat.json")); print(list(d[0])[:21] == ["id", "title", "description", "severity", "scanner", "scanner_type", "rule_id", "file_path", "line_start", "line_end", "cve_id", "cwe_id", "fix_available", "is_suppressed", "suppression_kind", "suppression_justification", "detected_at", "code_snippet", "tags", "properties", "references"], list(d[0])[21:])')" \
  "True ['message', 'suppressed', 'actionable']"
assert_eq "flat.json: upstream's severities and the suppression" \
  "$(py 'import json; d = json.load(open("'"$A"'/reports/ash.flat.json")); print(sorted((f["severity"], f["is_suppressed"], f["suppression_kind"], f["suppression_justification"]) for f in d))')" \
  "[('HIGH', False, None, None), ('MEDIUM', True, 'external', 'known: [x](y)')]"
assert_eq "csv: upstream's columns, then actionable" \
  "$(head -n 1 "$A/reports/ash.csv")" \
  "id,title,description,severity,scanner,scanner_type,rule_id,file_path,line_start,line_end,cve_id,cwe_id,fix_available,is_suppressed,suppression_kind,suppression_justification,detected_at,code_snippet,tags,properties,references,actionable"

# 4. ash_aggregated_results.json with upstream's names and shapes.
assert_eq "aggregated: upstream's top-level keys" \
  "$(py 'import json; a = json.load(open("'"$A"'/ash_aggregated_results.json")); print(all(k in a for k in ("name", "description", "metadata", "ash_config", "scanner_results", "converter_results", "sarif", "cyclonedx", "additional_reports", "validation_checkpoints", "used_suppressions")))')" True
assert_eq "aggregated: per scanner actionable_finding_count, suppressed_finding_count, severity_counts" \
  "$(py 'import json; r = json.load(open("'"$A"'/ash_aggregated_results.json"))["scanner_results"]["report-inject"]; print(r["actionable_finding_count"], r["suppressed_finding_count"], r["severity_counts"]["high"], r["status"])')" \
  "1 1 1 FAILED"
assert_eq "aggregated: metadata.summary_stats as upstream, with severity_counts" \
  "$(py 'import json; s = json.load(open("'"$A"'/ash_aggregated_results.json"))["metadata"]["summary_stats"]; print(s["total"], s["actionable"], s["suppressed"], s["high"], s["severity_counts"]["high"], s["passed"], s["failed"])')" \
  "2 1 1 1 1 1 1"
assert_eq "aggregated: metadata.summary_stats.start and end, ISO 8601 UTC, start <= end, start the report's generated_at" \
  "$(py '
import json, re
m = json.load(open("'"$A"'/ash_aggregated_results.json"))["metadata"]
s = m["summary_stats"]
iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
print(bool(iso.match(s["start"])), bool(iso.match(s["end"])), s["start"] <= s["end"], s["start"] == m["generated_at"])')" \
  "True True True True"
assert_eq "aggregated: used_suppressions as upstream's ids; ash_config is the configuration used" \
  "$(py 'import json; a = json.load(open("'"$A"'/ash_aggregated_results.json")); print(a["used_suppressions"], a["ash_config"]["global_settings"]["suppressions"][1]["path"])')" \
  "['plain.txt|PLAIN001|*|*'] never/**"
assert_eq "aggregated: cyclonedx is syft's SBOM" \
  "$(py 'import json; a = json.load(open("'"$A"'/ash_aggregated_results.json")); print(a["cyclonedx"]["bomFormat"], len(a["cyclonedx"]["components"]))')" "CycloneDX 33"
assert_eq "aggregated: ash's own fields stay" \
  "$(py 'import json; r = json.load(open("'"$A"'/ash_aggregated_results.json"))["scanner_results"]; print("actionable_count" in r["report-inject"], "missing_reason" in r.get("cfn-nag", r["report-inject"]) or True)')" "True True"
assert_eq "aggregated: without syft, cyclonedx is null" \
  "$(py 'import json; print(json.load(open("'"$out"'/ash_aggregated_results.json"))["cyclonedx"])')" None

# A hostile SBOM: syft's refs are the ones ash names its findings with.
# The CycloneDX report keeps every ref unique and the SBOM's dependency
# graph whole, in the SBOM's own namespace.
SYFT_FAKE_MODE=clash scan --scanners report-inject,syft -f cyclonedx,gitlab-cyclonedx
assert_eq "clash: the scan runs (exit 2, the finding)" "$status" 2
cp "$out/reports/ash.cdx.json" "$TEST_TMP/clash.cdx.json"
assert_eq "control: the SBOM syft wrote carries ash's finding refs" \
  "$(py 'import json; c = json.load(open("'"$out"'/ash_aggregated_results.json"))["cyclonedx"]; print(c["metadata"]["component"]["bom-ref"], [x["bom-ref"] for x in c["components"]])')" \
  "ash-finding-3 ['ash-finding-1', 'right-pkg']"
assert_eq "clash: every bom-ref of the CycloneDX report is unique, the findings keep theirs" \
  "$(py '
import json
d = json.load(open("'"$TEST_TMP"'/clash.cdx.json"))
refs = []
def walk(c):
    refs.append(c["bom-ref"])
    for s in c.get("components", []): walk(s)
walk(d["metadata"]["component"])
for c in d["components"]: walk(c)
vulns = [v["bom-ref"] for v in d["vulnerabilities"]]
print(len(refs + vulns) == len(set(refs + vulns)), vulns, sorted(refs))')" \
  "True ['ash-finding-1', 'ash-finding-2'] ['sbom:ash-finding-1', 'sbom:ash-finding-2', 'sbom:ash-finding-3', 'sbom:right-pkg']"
assert_eq "clash: the dependency graph is syft's, renamed with its components" \
  "$(py '
import json
d = json.load(open("'"$TEST_TMP"'/clash.cdx.json"))
print([(x["ref"], x.get("dependsOn")) for x in d["dependencies"]])')" \
  "[('sbom:ash-finding-3', ['sbom:ash-finding-1', 'sbom:right-pkg']), ('sbom:ash-finding-1', ['sbom:ash-finding-2'])]"
SYFT_FAKE_MODE=clash scan --scanners syft -f cyclonedx
assert_eq "control: without findings, the SBOM's refs are still renamed (no ref of ash's namespace)" \
  "$(py 'import json; d = json.load(open("'"$out"'/reports/ash.cdx.json")); print(d["vulnerabilities"], [c["bom-ref"] for c in d["components"]])')" \
  "[] ['sbom:ash-finding-1', 'sbom:right-pkg']"

# 5. The hostile finding in every report.
esc=$(printf '\033')
bel=$(printf '\007')
check "control: the raw SARIF of the scanner holds the payload" \
  grep -q 'INJ-TITLE' "$A/scanners/report-inject/source/inject.sarif"
for f in $files; do
  check_fails "${f#*:}: no raw ESC" grep -q "$esc" "$A/reports/${f#*:}"
  check_fails "${f#*:}: no raw BEL" grep -q "$bel" "$A/reports/${f#*:}"
done
check_fails "ash_aggregated_results.json: no raw ESC" grep -q "$esc" "$A/ash_aggregated_results.json"
# JSON reports decode to exactly what the scanner wrote.
assert_eq "gitlab-sast: the message round-trips" \
  "$(py '
import json
d = json.load(open("'"$A"'/reports/ash.gl-sast-report.json"))
m = [v["description"] for v in d["vulnerabilities"] if v["name"].startswith("INJ")][0]
print(m.startswith("=HYPERLINK(\"http://evil\") \x1b]0;INJ-TITLE\x07") and m.endswith("<script>x</script>"))')" True
assert_eq "cdx, ocsf, ghas: the message round-trips" \
  "$(py '
import json
want_start = "=HYPERLINK(\"http://evil\") \x1b]0;INJ-TITLE\x07\x1b[2J\r\nkey: value\n- item\n&anchor"
c = json.load(open("'"$A"'/reports/ash.cdx.json"))["vulnerabilities"]
o = json.load(open("'"$A"'/reports/ash.ocsf.json"))
g = json.load(open("'"$A"'/reports/ash.ghas.sarif"))["runs"][0]["results"]
print(any(v["description"].startswith(want_start) for v in c), any(f["finding_info"]["desc"].startswith(want_start) for f in o), g[0]["message"]["text"].startswith(want_start))')" \
  "True True True"
# YAML: a safe loader reads back the same strings, and no payload line
# became a key, a list item, an anchor, a tag or a document.
assert_eq "ash.yaml: safe_load reads back the message, the rule and the path unchanged" \
  "$(py '
import yaml, json
y = yaml.safe_load(open("'"$A"'/reports/ash.yaml"))
j = json.load(open("'"$A"'/ash_aggregated_results.json"))
def msgs(d): return sorted(r["message"]["text"] for run in d["sarif"]["runs"] for r in run.get("results", []))
def rules(d): return sorted(r["ruleId"] for run in d["sarif"]["runs"] for r in run.get("results", []))
print(msgs(y) == msgs(j), rules(y) == rules(j), "INJ\x1b001: x" in rules(y), sorted(y) == sorted(j))')" \
  "True True True True"
check_fails "ash.yaml: no line starts with the payload's YAML" grep -Eq '^(key:|- item|&anchor|--- )' "$A/reports/ash.yaml"
# CSV: one record per finding, the formula neutralised, quotes doubled.
assert_eq "ash.csv: two records; the message is one quoted field that cannot run as a formula" \
  "$(py '
import csv
rows = list(csv.DictReader(open("'"$A"'/reports/ash.csv", newline="")))
m = [r["description"] for r in rows if r["title"].startswith("INJ")][0]
print(len(rows), m.startswith("'"'"'=HYPERLINK(\"http://evil\")"), "\\x1b" in m or "\\033" in m or "\\e" in m)')" \
  "2 True True"
# Markdown: the unused-suppressions report in Markdown escapes the reason.
conf 'global_settings:\n  suppressions:\n    - path: "never/[x](javascript:alert(1))"\n      reason: "<script>x</script> | **b**"\nreporters:\n  unused-suppressions:\n    options:\n      output_format: markdown\n'
scan --scanners report-inject -c "$TEST_TMP/c.yaml"
assert_file_contains "unused-suppressions output_format markdown: a Markdown report" "$out/reports/ash.unused-suppressions.json" "# Unused Suppressions Report"
assert_file_lacks "... the reason's HTML escaped" "$out/reports/ash.unused-suppressions.json" "<script>"
assert_file_lacks "... the path's link escaped" "$out/reports/ash.unused-suppressions.json" "[x](javascript"
assert_file_contains "... the path is there, escaped" "$out/reports/ash.unused-suppressions.json" 'never\/\[x\]\(javascript\:alert\(1\)\)'
# ghas: the path is a URI reference, percent-encoded.
assert_eq "ghas: the hostile path is percent-encoded" \
  "$(py 'import json; print(json.load(open("'"$A"'/reports/ash.ghas.sarif"))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])')" \
  "sub%20dir/we%23ird%3F%26name%1B.txt"

# The enforced sandbox record in the results does not list the names of
# the operator's environment variables the scanner was not given.
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1 || :
b=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe" | head -n 1)
if [ -n "$b" ]; then
  ZZ_OPERATOR_ONLY_NAME=1 run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
    --sandbox "$b" --ash-plugin-modules "$mods" --scanners report-inject
  assert_eq "$b: the sandboxed scan runs (exit 2)" "$status" 2
  assert_eq "$b: the record counts what was dropped and skipped" \
    "$(py 'import json; s = json.load(open("'"$out"'/ash_aggregated_results.json"))["scanner_results"]["report-inject"]["sandbox"]; print(s["backend"], "dropped" in s, "skipped" in s, s["dropped_count"] > 0)')" \
    "$b False False True"
  assert_file_lacks "$b: no name of a variable the scanner was not given" \
    "$out/ash_aggregated_results.json" ZZ_OPERATOR_ONLY_NAME
  ZZ_OPERATOR_ONLY_NAME=1 "$ASH" sandbox explain report-inject --source-dir "$src" --sandbox "$b" \
    --ash-plugin-modules "$mods" >"$TEST_TMP/explain" 2>&1
  assert_file_contains "control: sandbox explain lists it for the operator" "$TEST_TMP/explain" ZZ_OPERATOR_ONLY_NAME
else
  ok "# SKIP no sandbox backend is usable here"
fi

# 6. Upstream's keys for what ash does not have are accepted with a
# warning that they have no effect; a wrong type is still an error.
conf 'project_name: p\nbuild:\n  mode: ONLINE\n  tool_install_scripts: {}\nworkspace:\n  projects: []\nmcp-resource-management:\n  max_concurrent_scans: 5\nglobal_settings:\n  mcp:\n    runtime_overrides:\n      enabled: false\n'
validate
assert_eq "build, workspace, mcp-resource-management, global_settings.mcp: accepted" "$?" 0
for k in build workspace mcp-resource-management global_settings.mcp; do
  assert_file_contains "... '$k' has no effect, said" "$TEST_TMP/err" "'$k' has no effect in ash ("
done
scan --scanners report-inject -c "$TEST_TMP/c.yaml"
assert_eq "... a scan with them runs (exit 2, the finding)" "$status" 2
assert_file_contains "... and warns" "$TEST_TMP/err" "'mcp-resource-management' has no effect in ash"
conf 'project_name: p\n'
validate
assert_file_lacks "control: no such warning without them" "$TEST_TMP/err" "has no effect in ash"
conf 'build: 3\n'
validate
assert_eq "build: 3 is a configuration error" "$?" 3
assert_file_contains "... naming the type" "$TEST_TMP/err" "'build' must be a mapping"

done_testing
