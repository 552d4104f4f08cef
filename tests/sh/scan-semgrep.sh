#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# semgrep end to end through the fake semgrep (tests/fixtures/tools/
# fake-semgrep, which keeps semgrep's flags and writes the findings of a
# real semgrep 1.116.0 run, semgrep-data/semgrep.src.json, as SARIF): the
# findings ash reports are the ones that output holds, the same with
# --sandbox off and under every usable backend; offline the rules come from
# $SEMGREP_RULES_CACHE_DIR or the scanner is ERROR; the options reach the
# command line; broken reports make semgrep ERROR naming the file.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
tool=${GREP_TOOL:-semgrep}
TOOL=$(echo "$tool" | tr a-z A-Z)

src=$TEST_TMP/repo
cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$src"
tools=$TEST_TMP/tools
mkdir -p "$tools/semgrep-data"
cp "$top_srcdir/tests/fixtures/tools/fake-semgrep" "$tools/$tool"
cp "$top_srcdir/tests/fixtures/tools/semgrep-data/semgrep.src.json" "$tools/semgrep-data/"
chmod 755 "$tools/$tool"
PATH=$tools:$PATH
export PATH
unset SEMGREP_RULES_CACHE_DIR OPENGREP_RULES_CACHE_DIR

# What the real output holds, read independently of ash: every finding
# but those in files upstream's default exclusions (*-converted.py,
# *_report_result.txt) leave out; ERROR is HIGH and WARNING MEDIUM.
expected () {
  python3 - "$top_srcdir/tests/fixtures/tools/semgrep-data/semgrep.src.json" "$tool" "$@" <<'PY'
import fnmatch, json, sys
d = json.load(open(sys.argv[1]))
sev = {"ERROR": "HIGH", "WARNING": "MEDIUM", "INFO": "LOW"}
drop = sys.argv[3:]
for r in d["results"]:
    p = r["path"][len("/src/"):]
    base = p.rsplit("/", 1)[-1]
    if fnmatch.fnmatch(base, "*-converted.py") or fnmatch.fnmatch(base, "*_report_result.txt"):
        continue
    if any(p.startswith(x + "/") for x in drop):
        continue
    print(sys.argv[2], r["check_id"], p, r["start"]["line"], sev[r["extra"]["severity"]])
PY
}
findings () {
  aggregated_findings "$1"
}
want=$(expected | sort)
check "the real output has findings to compare" test "$(echo "$want" | wc -l)" -gt 20

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress \
  --sandbox off --scanners "$tool"
assert_eq "unsandboxed: findings, exit 2" "$status" 2
assert_eq "unsandboxed: the findings the real output holds" "$(findings "$TEST_TMP/off" | sort)" "$want"
assert_file_lacks "no 'no adapter' message" "$TEST_TMP/err" "no adapter"
python3 - "$TEST_TMP/off/reports/ash.sarif" "$tool" >"$TEST_TMP/drv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    drv = run["tool"]["driver"]
    if drv["name"] != sys.argv[2]:
        continue
    print("driver", drv["name"], drv.get("version"))
    print("invocations", "invocations" in run)
    for r in drv["rules"]:
        print("rule-help", bool(r["help"]["text"]), r["properties"]["security-severity"])
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print("uri", l["artifactLocation"]["uri"][0] == "/", "uriBaseId" in l["artifactLocation"])
PY
case $tool in semgrep) v=1.116.0 ;; *) v=1.6.0 ;; esac
assert_file_contains "driver name and version" "$TEST_TMP/drv" "driver $tool $v"
assert_file_contains "no invocations with host paths" "$TEST_TMP/drv" "invocations False"
assert_file_contains "ERROR rules score high" "$TEST_TMP/drv" "rule-help True 8.0"
assert_file_contains "WARNING rules score medium" "$TEST_TMP/drv" "rule-help True 6.0"
assert_file_lacks "no absolute or based uri" "$TEST_TMP/drv" "uri True"
check "ash.sarif holds no host path of the tree" sh -c "! grep -q '$src' '$TEST_TMP/off/reports/ash.sarif'"

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
has_backend () { case " $(echo $backends) " in *" $1 "*) return 0 ;; esac; return 1; }
for b in bwrap landlock firejail; do
  if ! has_backend "$b"; then ok "# SKIP $b is not usable here"; continue; fi
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress \
    --sandbox "$b" --scanners "$tool"
  assert_eq "$b: exit 2" "$status" 2
  assert_eq "$b: the same findings as unsandboxed" "$(findings "$TEST_TMP/out-$b" | sort)" "$want"
done

# ignore_paths and the options reach the tool (ignore_paths leaves out
# what exists in the tree).
mkdir -p "$src/js/docker"
printf 'FROM debian\n' >"$src/js/docker/Dockerfile"
cat >"$TEST_TMP/conf.yaml" <<EOF2
global_settings:
  ignore_paths: [{path: js/, reason: vendored javascript}]
scanners:
  $tool:
    options:
      exclude_rule: [generic.secrets.security.detected-aws-access-key-id-value.detected-aws-access-key-id-value]
      severity: [ERROR]
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opts" --no-progress \
  --sandbox off --scanners "$tool" --config "$TEST_TMP/conf.yaml"
want2=$(expected js | grep ' HIGH$' | grep -v detected-aws-access-key-id-value | sort)
assert_eq "ignore_paths, exclude_rule and severity applied" "$(findings "$TEST_TMP/opts" | sort)" "$want2"

for bad in "tool_version: 'latest'" "metrics: on" "severity: [CRITICAL]"; do
  printf 'scanners:\n  %s:\n    options:\n      %s\n' "$tool" "$bad" >"$TEST_TMP/bad.yaml"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress \
    --sandbox off --scanners "$tool" --config "$TEST_TMP/bad.yaml"
  assert_eq "'$bad': configuration error, exit 3" "$status" 3
  assert_file_contains "'$bad': the error names the option" "$TEST_TMP/err" "scanners.$tool.options.${bad%%:*}"
done

# Offline: the rules come from the rules cache, mounted read-only.
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/nocache" --no-progress \
  --sandbox off --offline --scanners "$tool"
assert_eq "offline without a rules cache: exit 1" "$status" 1
assert_file_contains "offline without rules: the reason says what to set" \
  "$TEST_TMP/nocache/ash_aggregated_results.json" "${TOOL}_RULES_CACHE_DIR"
mkdir -p "$TEST_TMP/rules/python"
printf 'rules: []\n' >"$TEST_TMP/rules/python/a.yaml"
printf 'rules: []\n' >"$TEST_TMP/rules/b.yml"
for b in off bwrap landlock firejail; do
  if [ "$b" != off ] && ! has_backend "$b"; then ok "# SKIP $b is not usable here"; continue; fi
  env "${TOOL}_RULES_CACHE_DIR=$TEST_TMP/rules" "$ASH" scan --source-dir "$src" \
    --output-dir "$TEST_TMP/cache-$b" --no-progress --sandbox "$b" --offline \
    --scanners "$tool" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "offline with a rules cache ($b): exit 2" "$?" 2
  assert_eq "offline with a rules cache ($b): the same findings" "$(findings "$TEST_TMP/cache-$b" | sort)" "$want"
done

# A repository's own config naming its own rules in the tree is refused:
# the rules would be the repository's, not the operator's.
mkdir -p "$src/.git" "$src/.ash"
printf 'rules: []\n' >"$src/.semgrep.yml"
printf 'scanners:\n  %s:\n    options:\n      config: .semgrep.yml\n' "$tool" >"$src/.ash/.ash.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/tree" --no-progress \
  --sandbox off --scanners "$tool"
assert_eq "in-tree config naming in-tree rules: exit 1" "$status" 1
assert_file_contains "the reason names the option" "$TEST_TMP/tree/ash_aggregated_results.json" \
  "scanners.$tool.options.config is '.semgrep.yml', set by a config the scanned repository could have written"
printf 'scanners:\n  %s:\n    options:\n      config: /etc/passwd\n' "$tool" >"$src/.ash/.ash.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/tree2" --no-progress \
  --sandbox off --scanners "$tool"
assert_eq "in-tree config naming rules outside the tree: exit 1" "$status" 1
assert_file_contains "the reason names the option" "$TEST_TMP/tree2/ash_aggregated_results.json" \
  "scanners.$tool.options.config is '/etc/passwd', set by a config the scanned repository could have written ("
rm -rf "$src/.git" "$src/.ash" "$src/.semgrep.yml"

# Broken reports: ERROR naming the file; bandit's results are kept.
scanners=$tool
command -v bandit >/dev/null 2>&1 && scanners=$tool,bandit
for brk in missing empty truncated garbage; do
  echo "$brk" >"$src/.fake-break"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/brk" --no-progress \
    --sandbox off --scanners "$scanners"
  assert_eq "$brk report: exit 1" "$status" 1
  assert_file_contains "$brk report: ERROR naming $tool.sarif" \
    "$TEST_TMP/brk/ash_aggregated_results.json" "scanners/$tool/source/$tool.sarif"
  if [ "$scanners" != "$tool" ]; then
    check "$brk report: bandit's results kept" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]
sys.exit(not (r[sys.argv[2]]["status"] == "ERROR" and r["bandit"]["status"] == "FAILED"
              and r["bandit"]["finding_count"] > 0))' "$TEST_TMP/brk/ash_aggregated_results.json" "$tool"
  fi
done
rm -f "$src/.fake-break"
done_testing
