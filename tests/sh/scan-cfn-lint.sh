#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cfn-lint for real: the templates of the scan set (and only those) are
# linted, with ASH's empty config rather than the repository's .cfnlintrc,
# the findings are the same unsandboxed and under each usable backend, and
# the options reach cfn-lint.
. "$top_srcdir/tests/libtest.sh"

command -v cfn-lint >/dev/null 2>&1 || skip_all "cfn-lint is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
# A pyenv shim is a script that runs pyenv from the home directory, which
# a sandbox does not mount: use the interpreter's own bin directory.
tool=$(command -v cfn-lint)
if command -v pyenv >/dev/null 2>&1 && pyenv which cfn-lint >/dev/null 2>&1; then
  tool=$(pyenv which cfn-lint)
fi
PATH=$(dirname "$tool"):$PATH
export PATH

src=$TEST_TMP/iac
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$src"
# A repository .cfnlintrc that would turn every rule off.
printf 'ignore_checks:\n  - E\n  - W\n' >"$src/.cfnlintrc"

findings () {
  python3 - "$1/ash_aggregated_results.json" <<'PY' | sort
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["ruleId"], l["artifactLocation"]["uri"], l["region"]["startLine"],
              x["properties"]["issue_severity"], x["level"])
PY
}

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress --scanners cfn-lint --sandbox off
assert_eq "W findings only: exit 0" "$status" 0
findings "$TEST_TMP/off" >"$TEST_TMP/f-off"
assert_file_contains "the repository's .cfnlintrc is not read: W2001 reported" "$TEST_TMP/f-off" "W2001 test.yaml 16 LOW note"
assert_file_lacks "notcfn.yaml is not a template" "$TEST_TMP/f-off" "notcfn.yaml"
assert_file_lacks "broken.yaml is not a template" "$TEST_TMP/f-off" "broken.yaml"
python3 - "$TEST_TMP/off/reports/ash.sarif" >"$TEST_TMP/drv" <<'PY'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    d = run["tool"]["driver"]
    if d["name"] != "cfn-lint": continue
    print("version", bool(d.get("version")) or "none")
    for r in d["rules"]:
        print("rule", r["id"], r["properties"]["security-severity"], bool(r["help"]["text"]))
PY
assert_file_contains "rule W2001 with help and security-severity" "$TEST_TMP/drv" "rule W2001 3.0 True"
check "no absolute host path in the report" sh -c "! grep -q '$src' '$TEST_TMP/off/reports/ash.sarif'"

# Options: ignore_checks removes W2001; an unknown option is refused.
cat >"$TEST_TMP/opts.yaml" <<'C'
scanners:
  cfn-lint:
    options:
      ignore_checks: [W2001]
      regions: [us-east-1, eu-west-1]
C
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opt" --no-progress --scanners cfn-lint --config "$TEST_TMP/opts.yaml"
findings "$TEST_TMP/opt" >"$TEST_TMP/f-opt"
assert_file_lacks "ignore_checks reaches cfn-lint" "$TEST_TMP/f-opt" "W2001"
# Both are configuration errors: exit 3 before cfn-lint runs.
printf 'scanners:\n  cfn-lint:\n    options:\n      no_such: 1\n' >"$TEST_TMP/bad.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress --scanners cfn-lint --config "$TEST_TMP/bad.yaml"
assert_eq "an unknown option: exit 3" "$status" 3
assert_file_contains "an unknown option is an error naming it" "$TEST_TMP/err" "scanners.cfn-lint.options.no_such is not an option of cfn-lint"
check "... and cfn-lint did not run" test ! -e "$TEST_TMP/bad/scanners/cfn-lint"
printf 'scanners:\n  cfn-lint:\n    options:\n      regions: ["--update-specs"]\n' >"$TEST_TMP/bad2.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad2" --no-progress --scanners cfn-lint --config "$TEST_TMP/bad2.yaml"
assert_eq "a region that is not one: exit 3" "$status" 3
assert_file_contains "a region that is not one is refused" "$TEST_TMP/err" "'--update-specs' is not a value cfn-lint accepts"
check "... and cfn-lint did not run" test ! -e "$TEST_TMP/bad2/scanners/cfn-lint"

# Run as root, ash runs a sandboxed scanner as the scanner account: a
# cfn-lint that account cannot run (installed under root's home) is never
# PASSED.
account_runs_tool=yes
if [ "$(id -u)" = 0 ] && [ -n "${ASH_SCANNER_USER:-}" ] &&
   ! $(as_unpriv_cmd "$ASH_SCANNER_USER") "$tool" --version >/dev/null 2>&1; then
  account_runs_tool=
fi
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
for b in bwrap landlock firejail; do
  if ! grep -q "^$b: usable" "$TEST_TMP/probe"; then
    ok "$b # SKIP $b is not usable here"
    continue
  fi
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/$b" --no-progress --scanners cfn-lint --sandbox "$b"
  if [ -z "$account_runs_tool" ]; then
    check "$b: a cfn-lint the scanner account ($ASH_SCANNER_USER) cannot run is not PASSED" \
      sh -c "jq -e '.scanner_results[\"cfn-lint\"].status != \"PASSED\"' '$TEST_TMP/$b/ash_aggregated_results.json' >/dev/null"
    ok "$b: the same findings as unsandboxed # SKIP $tool is out of reach of the scanner account"
    continue
  fi
  assert_eq "$b: exit 0 as unsandboxed" "$status" 0
  findings "$TEST_TMP/$b" >"$TEST_TMP/f-$b"
  check "$b: the same findings as unsandboxed" cmp "$TEST_TMP/f-off" "$TEST_TMP/f-$b"
done

# Broken output: a wrapper runs the real cfn-lint, then breaks the report
# it wrote; cfn-lint is ERROR with a reason naming the file, and cfn-nag
# (its fake tool), beside it, keeps its findings.
mkdir -p "$TEST_TMP/wrap"
cp -R "$top_srcdir/tests/fixtures/tools/cfn_nag_scan" "$top_srcdir/tests/fixtures/tools/iac-data" "$TEST_TMP/wrap/"
cat >"$TEST_TMP/wrap/cfn-lint" <<W
#!/bin/sh
out=
for a in "\$@"; do
  case \$a in --output-file=*) out=\${a#--output-file=} ;; esac
done
"$tool" "\$@"
rc=\$?
if [ -n "\$out" ] && [ -f "\$out" ]; then
  case \$BREAK_CFN_LINT in
    none) rm -f "\$out" ;;
    empty) : >"\$out" ;;
    truncated) head -c 200 "\$out" >"\$out.t" && mv "\$out.t" "\$out" ;;
    notreport) echo 'Traceback (most recent call last):' >"\$out" ;;
  esac
fi
exit \$rc
W
chmod +x "$TEST_TMP/wrap/cfn-lint"
for m in none empty truncated notreport; do
  BREAK_CFN_LINT=$m PATH=$TEST_TMP/wrap:$PATH \
    "$ASH" scan --source-dir "$src" --output-dir "$TEST_TMP/broken-$m" --no-progress \
    --sandbox off --scanners cfn-lint,cfn-nag >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$m output: exit 1 (incomplete scan)" "$?" 1
  python3 - "$TEST_TMP/broken-$m/ash_aggregated_results.json" >"$TEST_TMP/broken" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
print(a["scanner_results"]["cfn-lint"]["status"], a["scanner_results"]["cfn-nag"]["status"],
      a["scanner_results"]["cfn-nag"]["finding_count"] > 0)
PY
  assert_eq "$m output: cfn-lint ERROR, cfn-nag's findings kept" "$(cat "$TEST_TMP/broken")" "ERROR FAILED True"
  # cfn-lint.sarif, or cfn-lint.json when ash's probe found no SARIF in
  # this cfn-lint (the wrapper is a new tool to it).
  check "$m output: the reason names the report" \
    grep -Eq "^cfn-lint ERROR: .*cfn-lint[.](sarif|json)" "$TEST_TMP/out"
done

# All seven together on the tree with CloudFormation, a CDK-style template,
# a Dockerfile and two workflows: cfn-lint for real, the others through
# their fake tools; each runs and reports its findings.
tools=$TEST_TMP/tools
cp -R "$top_srcdir/tests/fixtures/tools" "$tools"
mkdir -p "$TEST_TMP/bin"
cp "$ASH" "$top_srcdir/data/cdk-nag-worker.js" "$TEST_TMP/bin/"
printf 'scanners:\n  actionlint:\n    options:\n      shellcheck: shellcheck\n' >"$TEST_TMP/all.yaml"
command -v shellcheck >/dev/null 2>&1 || printf 'scanners: {}\n' >"$TEST_TMP/all.yaml"
# The fake node reads no modules, but cdk-nag is MISSING without them.
mkdir -p "$TEST_TMP/node_modules/cdk-nag" "$TEST_TMP/node_modules/aws-cdk-lib" "$TEST_TMP/node_modules/constructs"
PATH=$tools:$PATH ASH_CFN_GUARD_RULES_DIR=$top_srcdir/tests/fixtures/cfn-guard-rules \
  ASH_CDK_NAG_MODULES=$TEST_TMP/node_modules \
  "$TEST_TMP/bin/ash" scan --source-dir "$src" --output-dir "$TEST_TMP/all" --no-progress \
  --scanners checkov,cfn-nag,cfn-lint,cfn-guard,cdk-nag,actionlint,zizmor \
  --config "$TEST_TMP/all.yaml" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "all seven: findings fail the scan (exit 2)" "$?" 2
python3 - "$TEST_TMP/all/ash_aggregated_results.json" >"$TEST_TMP/all.txt" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
for n in ("checkov", "cfn-nag", "cfn-lint", "cfn-guard", "cdk-nag", "actionlint", "zizmor"):
    r = a["scanner_results"][n]
    print(n, r["status"], r["finding_count"] > 0)
PY
for n in checkov cfn-nag cfn-lint cfn-guard cdk-nag actionlint zizmor; do
  check "all seven: $n ran and found something" grep -Eq "^$n (PASSED|FAILED) True" "$TEST_TMP/all.txt"
done
schema=$top_srcdir/../shared/data/sarif-schema-2.1.0.json
[ -f "$schema" ] || schema=/work/shared/data/sarif-schema-2.1.0.json
if [ -f "$schema" ] && python3 -c 'import jsonschema' 2>/dev/null; then
check "all seven: the merged SARIF is valid" python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
  "$TEST_TMP/all/reports/ash.sarif" "$schema"
else
  ok "all seven: the merged SARIF is valid # SKIP no schema or python3-jsonschema"
fi
done_testing
