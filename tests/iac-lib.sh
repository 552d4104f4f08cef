# SPDX-License-Identifier: Apache-2.0
# iac-lib.sh -- what the infrastructure-as-code scanner tests share.
# Source it after libtest.sh:
#   . "$top_srcdir/tests/iac-lib.sh"

# iac_findings OUT: "scanner rule uri line severity" for each result of
# the scan written to OUT, sorted (the severity is issue_severity, which
# the IaC adapters set, else severity, which the others set).
iac_findings () {
  python3 - "$1/ash_aggregated_results.json" <<'PY' | sort
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["properties"]["scanner_name"], x["ruleId"],
              l["artifactLocation"]["uri"], l.get("region", {}).get("startLine"),
              x["properties"].get("issue_severity", x["properties"].get("severity")))
PY
}

# iac_install_ash DIR: ash, its helpers and cdk-nag's worker into DIR, as
# an installed ash keeps them beside it.
iac_install_ash () {
  mkdir -p "$1"
  cp "$ASH" "$1/ash"
  cp "$top_srcdir/data/cdk-nag-worker.js" "$1/"
  for _h in "$(dirname "$ASH")"/ash-landlock-exec; do
    [ -x "$_h" ] && cp "$_h" "$1/"
  done
}

# iac_backends CMD...: for each of bwrap, landlock and firejail, run
# "CMD BACKEND" when ash's probe finds it usable, else a skipped test
# saying so.
iac_backends () {
  _probe=$("$ASH" sandbox probe 2>&1)
  for _b in bwrap landlock firejail; do
    if echo "$_probe" | grep -q "^$_b: usable"; then
      "$@" "$_b"
    else
      ok "$_b # SKIP $_b is not usable here"
    fi
  done
}
