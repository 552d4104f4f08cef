#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bandit plus the code and secret scanners (gitleaks, semgrep, opengrep,
# detect-secrets, through their fakes) over one example repository: the
# merged ash.sarif holds the union of what each finds alone, with
# --sandbox off and under every usable backend (bwrap, Landlock,
# firejail); the reports and the summary count them; ash.sarif validates
# against the SARIF 2.1.0 schema; and no planted secret (one across lines,
# two holding terminal escape sequences) appears in any file below the
# output directory, the logs included, or on the terminal.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"

src=$TEST_TMP/example
cp -R "$top_srcdir/tests/fixtures/repos/secrets" "$src"
cp -R "$top_srcdir/tests/fixtures/repos/py-small/pkg" "$src/pkg"
# Secrets holding terminal escape sequences, one of them across lines (a
# private key block, which gitleaks matches whole).
printf 'db_password = "\033]0;owned\007PLANTEDpw4hunter\033[2Jsecret"\n' >"$src/app/db.py"
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktPLANTEDmultiLINEone\033]0;owned\007AAAAAAAAAAAA\nPLANTEDsecondLINE\033[2J\033[31mBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB\n-----END OPENSSH PRIVATE KEY-----\n' >"$src/keys/escape.pem"
tools=$TEST_TMP/tools
mkdir -p "$tools/semgrep-data"
cp "$top_srcdir/tests/fixtures/tools/fake-gitleaks" "$tools/gitleaks"
cp "$top_srcdir/tests/fixtures/tools/fake-semgrep" "$tools/semgrep"
cp "$top_srcdir/tests/fixtures/tools/fake-semgrep" "$tools/opengrep"
cp "$top_srcdir/tests/fixtures/tools/fake-detect-secrets" "$tools/detect-secrets"
cp "$top_srcdir/tests/fixtures/tools/semgrep-data/semgrep.src.json" "$tools/semgrep-data/"
chmod 755 "$tools"/*
PATH=$tools:$PATH
export PATH
all=bandit,gitleaks,semgrep,opengrep,detect-secrets
planted="AKIAZZPLANTED2TEST7Q AKIAZZPLANTED3LEGACY ghp_PLANTEDtoken0123456789abcdefghijklmn ghp_VENDORtoken0123456789abcdefghijklmno PLANTEDpw4hunter b3BlbnNzaC1rZXktPLANTEDmultiLINEone PLANTEDsecondLINE"

# The control: gitleaks without --redact writes the key block, escapes
# and all, so the greps below would see a leak.
gitleaks dir --no-banner --report-format=sarif --report-path="$TEST_TMP/raw.sarif" \
  --exit-code=2 "$src/keys" >/dev/null 2>&1
check "control: unredacted, the key block's second line is in gitleaks' report" \
  grep -qF PLANTEDsecondLINE "$TEST_TMP/raw.sarif"

findings () {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["properties"]["scanner_name"], x["ruleId"],
              l["artifactLocation"]["uri"], l["region"].get("startLine"),
              x["properties"].get("severity") or x["properties"].get("issue_severity"))' \
    "$1/reports/ash.sarif" | sort
}

: >"$TEST_TMP/union"
for s in $(echo "$all" | tr , ' '); do
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/alone-$s" --no-progress \
    --sandbox off --scanners "$s"
  assert_eq "$s alone: findings, exit 2" "$status" 2
  findings "$TEST_TMP/alone-$s" >>"$TEST_TMP/union"
done
want=$(sort "$TEST_TMP/union")
total=$(echo "$want" | wc -l)

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
modes=off
for b in bwrap landlock firejail; do
  if grep -q "^$b: usable\$" "$TEST_TMP/probe"; then
    modes="$modes $b"
  else
    ok "# SKIP $b is not usable here"
  fi
done
for m in $modes; do
  out=$TEST_TMP/all-$m
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox "$m" --scanners "$all"
  assert_eq "$m: all five, exit 2" "$status" 2
  assert_eq "$m: ash.sarif holds the union of their findings" "$(findings "$out")" "$want"
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
r = a["scanner_results"]
print(sum(r[s]["finding_count"] for s in sys.argv[2].split(",")))
print(" ".join(r[s]["status"] for s in sys.argv[2].split(",")))' \
    "$out/ash_aggregated_results.json" "$all" >"$TEST_TMP/agg"
  check "$m: the aggregated results count every finding ($total)" grep -qx "$total" "$TEST_TMP/agg"
  assert_file_contains "$m: each scanner FAILED (it found issues)" "$TEST_TMP/agg" "FAILED FAILED FAILED FAILED FAILED"
  for s in gitleaks semgrep opengrep detect-secrets; do
    check "$m: the summary has a row for $s" grep -Eq "^ *$s +FAILED" "$TEST_TMP/out"
    check "$m: the text report names $s" grep -q "$s" "$(find "$out/reports" -name 'ash.summary.txt' | head -1)"
  done
  for s in $planted; do
    check_fails "$m: $s appears in no file below the output directory" grep -rqF -- "$s" "$out"
    check_fails "$m: $s does not reach the terminal" grep -qF -- "$s" "$TEST_TMP/out" "$TEST_TMP/err"
  done
  check_fails "$m: no escape character below the output directory" grep -rqP '\x1b' "$out"
  check_fails "$m: no escape character on the terminal" grep -qP '\x1b' "$TEST_TMP/out" "$TEST_TMP/err"
  check "$m: the key block is reported, by gitleaks and detect-secrets" \
    test "$(findings "$out" | grep -c ' keys/escape.pem 1 ')" = 2
  if python3 -c 'import jsonschema' 2>/dev/null; then
    schema=$top_srcdir/../shared/data/sarif-schema-2.1.0.json
    [ -f "$schema" ] || schema=/work/shared/data/sarif-schema-2.1.0.json
    if [ -f "$schema" ]; then
      check "$m: ash.sarif validates against the SARIF 2.1.0 schema" python3 -c '
import json, sys, jsonschema
jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
        "$schema" "$out/reports/ash.sarif"
    else
      ok "# SKIP the SARIF schema is not available"
    fi
  else
    ok "# SKIP python3-jsonschema is not installed"
  fi
done
# The install hints of the MISSING reasons are the commands `ash
# dependencies install` prints.
PATH=/usr/bin:/bin "$ASH" dependencies install --dry-run >"$TEST_TMP/deps" 2>&1
PATH=/usr/bin:/bin "$ASH" scan --source-dir "$src" --output-dir "$TEST_TMP/missing" \
  --no-progress --sandbox off --scanners gitleaks,semgrep,opengrep,detect-secrets \
  >/dev/null 2>&1
for s in gitleaks semgrep opengrep detect-secrets; do
  hint=$(python3 -c '
import json, re, sys
r = json.load(open(sys.argv[1]))["scanner_results"][sys.argv[2]]
m = re.search(r"install it with: (.*), or ash dependencies install", r.get("missing_reason", ""))
print(m.group(1) if m else "")' "$TEST_TMP/missing/ash_aggregated_results.json" "$s")
  check "$s: MISSING names an install command" test -n "$hint"
  check "$s: ash dependencies install prints the same command" grep -qF -- "$hint" "$TEST_TMP/deps"
done
done_testing
