#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Suppressions as upstream has them, end to end: an inline ash-ignore or
# ash-ignore-next-line suppresses only the rule it names (a bare marker or
# another rule suppresses nothing); "**/" in a path matches zero or more
# directories; rule ids and paths compare without case; an entry stops
# applying on its expiration date, with a warning, and one expiring within
# 30 days is warned about.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
src=$TEST_TMP/src
out=$TEST_TMP/results
mkdir -p "$src/tests/unit" "$src/docs"

scan () {
  printf '%s\n' "$1" >"$TEST_TMP/conf.yaml"
  run_ash scan --source-dir "$src" --output-dir "$out" -P \
    --config "$TEST_TMP/conf.yaml" \
    --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" \
    --scanners fake-sarif
}
suppressed () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
out = []
for run in a["sarif"]["runs"]:
    for r in run["results"]:
        if r.get("suppressions"):
            loc = r["locations"][0]["physicalLocation"]
            out.append("%s:%d" % (loc["artifactLocation"]["uri"], loc["region"]["startLine"]))
print(" ".join(sorted(out)))' "$out/ash_aggregated_results.json"
}

# Inline: the rule id must match the finding's (FAKE001), in any case.
cat >"$src/docs/a.txt" <<'TXT'
FAKE-FINDING high # ash-ignore: FAKE001 reviewed
FAKE-FINDING high # ash-ignore: OTHER1
FAKE-FINDING high # ash-ignore
# ash-ignore-next-line: fake001
FAKE-FINDING high
// ash-ignore-next-line: OTHER1
FAKE-FINDING high
FAKE-FINDING high // ASH-IGNORE: FAKE0*
TXT
scan 'project_name: t'
assert_eq "inline: only the directives naming FAKE001 suppress" "$(suppressed)" "docs/a.txt:1 docs/a.txt:5 docs/a.txt:8"
scan 'project_name: t'
run_ash scan --source-dir "$src" --output-dir "$out" -P --ignore-suppressions \
  --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" --scanners fake-sarif
assert_eq "inline: --ignore-suppressions applies none" "$(suppressed)" ""
rm -f "$src/docs/a.txt"

# "**/" matches zero or more directories; case does not matter.
printf 'FAKE-FINDING high\n' >"$src/tests/top.txt"
printf 'FAKE-FINDING high\n' >"$src/tests/unit/deep.txt"
printf 'FAKE-FINDING high\n' >"$src/docs/Readme.txt"
scan 'global_settings:
  suppressions:
    - path: "tests/**/*.txt"
      rule_id: FAKE001
      reason: test data'
assert_eq "tests/**/*.txt: tests/top.txt and tests/unit/deep.txt" "$(suppressed)" "tests/top.txt:1 tests/unit/deep.txt:1"
scan 'global_settings:
  suppressions:
    - path: "**/deep.txt"
      reason: any depth'
assert_eq "**/deep.txt" "$(suppressed)" "tests/unit/deep.txt:1"
scan 'global_settings:
  suppressions:
    - path: "DOCS/readme.TXT"
      rule_id: fake001
      reason: case'
assert_eq "path and rule id without case" "$(suppressed)" "docs/Readme.txt:1"

# Expiration: the date itself no longer applies; soon is warned about.
today=$(date -u +%Y-%m-%d)
soon=$(python3 -c 'import datetime; print((datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=10)).isoformat())')
scan "global_settings:
  suppressions:
    - path: docs/Readme.txt
      reason: ends today
      expiration: \"$today\""
assert_eq "an entry expiring today does not apply" "$(suppressed)" ""
assert_file_contains "... and a warning says so" "$TEST_TMP/err" "expired on $today and does not apply"
scan "global_settings:
  suppressions:
    - path: docs/Readme.txt
      reason: ends soon
      expiration: \"$soon\""
assert_eq "an entry expiring in 10 days applies" "$(suppressed)" "docs/Readme.txt:1"
assert_file_contains "... with a warning" "$TEST_TMP/err" "expires on $soon, in 10 days"
done_testing
