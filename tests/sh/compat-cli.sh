#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream ASH v3's `ash scan` command line: every flag spelling and its
# --no- form is accepted with its meaning, the container flags are refused
# before anything is written (exit 3), and a flag ash cannot honour is
# refused, never accepted and ignored.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_OFFLINE CI
src=$TEST_TMP/src
out=$TEST_TMP/results
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
mkdir -p "$src"
printf 'FAKE-FINDING low\nFAKE-FINDING medium\n' >"$src/a.txt"

# agg EXPR: a Python expression over the aggregated results (a).
agg () {
  python3 -c "
import json, sys
a = json.load(open(sys.argv[1] + '/ash_aggregated_results.json'))
r = a['scanner_results']
print($1)" "$out"
}
scan () {
  run_ash scan --source-dir "$src" --output-dir "$out" -P \
    --ash-plugin-modules "$mods" "$@"
}

# Every spelling is known (each with --help after it: parsed, then the
# help is printed), and the help lists it.
for f in --min-severity=LOW --ignore-suppressions --no-ignore-suppressions \
    --simple --show-summary --no-show-summary --output-formats=sarif \
    --formats=sarif --format=sarif -fsarif -p -P --progress --no-progress \
    --use-existing --no-use-existing --cleanup --no-cleanup --phases=scan \
    --no-inspect --offline --no-offline --quiet --no-quiet \
    --offline-semgrep-rulesets=p/ci --python-only --full \
    --python-based-scanners-only --all-enabled-scanners \
    --python-based-plugins-only --all-enabled-plugins --changed-files-only \
    --no-changed-files-only --base-ref=main --fail-on-findings \
    --no-fail-on-findings --color --no-color --log-level=TRACE \
    --log-level=SIMPLE --log-level=QUIET --strategy=sequential -v -d \
    --build --no-build -b -B --run --no-run -r -R --force --oci-runner=x \
    --oci=x --runner=x -ox --build-target=ci --container-uid=1 -u1 \
    --container-gid=1 -g1 --ash-revision-to-install=v3 \
    --custom-containerfile=x --custom-build-arg=A=1; do
  # shellcheck disable=SC2086
  run_ash scan $f --help
  [ "$status" -eq 0 ] || { not_ok "ash scan accepts $f"; diag "$(cat "$TEST_TMP/err")"; continue; }
done
ok "ash scan accepts every upstream spelling"
run_ash scan --help
for n in min-severity ignore-suppressions show-summary no-show-summary \
    output-formats use-existing cleanup phases offline-semgrep-rulesets \
    python-only changed-files-only base-ref oci-runner custom-build-arg; do
  grep -q -- "--$n" "$TEST_TMP/out" || not_ok "--help lists --$n"
done
ok "--help lists them"

# --min-severity replaces global_settings.severity_threshold.
scan --scanners fake-sarif --min-severity HIGH
assert_eq "--min-severity HIGH: nothing actionable" "$(agg "r['fake-sarif']['actionable_count']")" 0
assert_eq "--min-severity HIGH: exit 0" "$status" 0
scan --scanners fake-sarif --min-severity low
assert_eq "--min-severity low: both actionable" "$(agg "r['fake-sarif']['actionable_count']")" 2
scan --scanners fake-sarif
assert_eq "default MEDIUM: one actionable" "$(agg "r['fake-sarif']['actionable_count']")" 1
scan --scanners fake-sarif --min-severity SEVERE
assert_eq "--min-severity: a bad value is a usage error" "$status" 5

# --ignore-suppressions.
printf 'global_settings:\n  suppressions:\n    - path: a.txt\n      reason: test\n' >"$TEST_TMP/sup.yaml"
scan --scanners fake-sarif -c "$TEST_TMP/sup.yaml"
assert_eq "the suppression applies" "$(agg "r['fake-sarif']['suppressed_count']")" 2
scan --scanners fake-sarif -c "$TEST_TMP/sup.yaml" --ignore-suppressions
assert_eq "--ignore-suppressions: none applies" "$(agg "r['fake-sarif']['suppressed_count'], r['fake-sarif']['actionable_count']")" "0 1"
scan --scanners fake-sarif -c "$TEST_TMP/sup.yaml" --ignore-suppressions --no-ignore-suppressions
assert_eq "--no-ignore-suppressions undoes it" "$(agg "r['fake-sarif']['suppressed_count']")" 2

# --show-summary / --no-show-summary, --simple, log levels.
scan --scanners fake-sarif
assert_file_contains "the summary is shown by default" "$TEST_TMP/out" "Reports:"
scan --scanners fake-sarif --no-show-summary
assert_file_lacks "--no-show-summary" "$TEST_TMP/out" "Reports:"
scan --scanners fake-sarif --no-show-summary --show-summary
assert_file_contains "--show-summary after it wins" "$TEST_TMP/out" "Reports:"
scan --scanners fake-sarif --simple
assert_file_lacks "--simple: no INFO lines" "$TEST_TMP/err" "INFO "
assert_file_contains "--simple: the summary" "$TEST_TMP/out" "Reports:"
scan --scanners fake-sarif --log-level SIMPLE
assert_file_lacks "--log-level SIMPLE is --simple" "$TEST_TMP/err" "INFO "
scan --scanners fake-sarif --log-level QUIET
assert_file_lacks "--log-level QUIET is --quiet: no summary" "$TEST_TMP/out" "Reports:"
assert_file_lacks "--log-level QUIET: no INFO" "$TEST_TMP/err" "INFO "
scan --scanners fake-sarif --quiet --no-quiet
assert_file_contains "--no-quiet undoes --quiet" "$TEST_TMP/err" "INFO "
scan --scanners fake-sarif --log-level TRACE
assert_file_contains "--log-level TRACE shows debug records" "$TEST_TMP/err" "DEBUG "
scan --scanners fake-sarif --log-level LOUD
assert_eq "an unknown log level is a usage error" "$status" 5

# The spellings of --output-format.
for f in --output-formats --formats --format -f; do
  rm -rf "$out"
  scan --scanners fake-sarif "$f" markdown
  assert_eq "$f markdown" "$(ls "$out/reports" | grep -c summary.md) $(ls "$out/reports" | grep -c html)" "1 0"
done

# --use-existing and --phases report: the reports again, no scanner.
scan --scanners fake-sarif
printf 'FAKE-FINDING high\n' >>"$src/a.txt"
rm -rf "$out/reports"
scan --use-existing --scanners fake-sarif
assert_eq "--use-existing: exit of the recorded scan" "$status" 2
assert_file_contains "--use-existing: the reports are written again" "$out/reports/ash.sarif" "FAKE001"
assert_eq "--use-existing: no scanner ran (the old counts)" "$(agg "r['fake-sarif']['finding_count']")" 2
assert_file_lacks "--use-existing: no scanner ran" "$TEST_TMP/err" "fake-sarif: FAILED"
rm -rf "$out/reports"
scan --phases report
assert_file_contains "--phases report is --use-existing" "$out/reports/ash.sarif" "FAKE001"
rm -rf "$TEST_TMP/none"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/none" --use-existing
assert_eq "--use-existing without results: exit 1" "$status" 1
assert_file_contains "--use-existing without results: says so" "$TEST_TMP/err" "no results of an earlier scan"

# --phases scan: no reports; --phases without convert: no converted/;
# --cleanup removes it after the scan.
python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.writestr("in.txt", "FAKE-FINDING high\n"); z.close()' "$src/z.zip"
rm -rf "$out"
scan --scanners fake-sarif --phases scan
check_fails "--phases scan: no reports" test -e "$out/reports/ash.sarif"
check "--phases scan: the aggregated results" test -s "$out/ash_aggregated_results.json"
check_fails "--phases scan: no convert phase either" test -e "$out/converted"
rm -rf "$out"
scan --scanners fake-sarif --phases convert,scan
check "--phases convert,scan: converted/" test -d "$out/converted"
check_fails "--phases convert,scan: no reports" test -e "$out/reports/ash.sarif"
rm -rf "$out"
scan --scanners fake-sarif --phases scan,report
check_fails "--phases scan,report: no convert phase" test -e "$out/converted"
assert_eq "--phases scan,report: the archive member is not scanned" "$(agg "r['fake-sarif']['finding_count']")" 3
scan --scanners fake-sarif --cleanup
check_fails "--cleanup removes converted/" test -e "$out/converted"
assert_eq "--cleanup: the member was scanned" "$(agg "r['fake-sarif']['finding_count']")" 4
scan --scanners fake-sarif --cleanup --no-cleanup
check "--no-cleanup keeps converted/" test -d "$out/converted"
rm -f "$src/z.zip"
run_ash scan --source-dir "$src" --phases convert,report
assert_eq "--phases convert without scan is refused" "$status" 5
run_ash scan --source-dir "$src" --inspect
assert_eq "--inspect is refused (exit 5)" "$status" 5
assert_file_contains "--inspect: not available" "$TEST_TMP/err" "not available"
run_ash scan --source-dir "$src" --phases scan,inspect
assert_eq "--phases inspect is refused" "$status" 5

# --no-offline overrides ASH_OFFLINE.
ASH_OFFLINE=1 "$ASH" sandbox explain semgrep --source-dir "$src" >"$TEST_TMP/x" 2>&1
assert_file_contains "ASH_OFFLINE: no network" "$TEST_TMP/x" '"network": false'
ASH_OFFLINE=1 "$ASH" sandbox explain semgrep --source-dir "$src" --no-offline >"$TEST_TMP/x" 2>&1
assert_file_lacks "--no-offline: the network again" "$TEST_TMP/x" '"network": false'

# --python-only and its spellings; --full undoes it.
for f in --python-only --python-based-scanners-only --python-based-plugins-only; do
  scan --scanners fake-sarif,bandit $f
  assert_eq "$f: fake-sarif and semgrep are skipped" \
    "$(agg "r['fake-sarif']['status'], 'Python' in r['fake-sarif'].get('skipped_reason', ''), 'Python' in r['semgrep'].get('skipped_reason', ''), 'Python' in r['bandit'].get('skipped_reason', '')")" \
    "SKIPPED True False False"
done
scan --scanners fake-sarif --python-only --full
assert_eq "--full undoes --python-only" "$(agg "r['fake-sarif']['status']")" FAILED

# ASH_SCANNERS and ASH_EXCLUDED_SCANNERS (white space or commas).
ASH_SCANNERS="fake-sarif fake-silent" ASH_EXCLUDED_SCANNERS=fake-silent scan
assert_eq "ASH_SCANNERS, ASH_EXCLUDED_SCANNERS" "$(agg "r['fake-sarif']['status'], r['fake-silent']['status'], r['fake-silent']['excluded'], r['semgrep']['status']")" \
  "FAILED SKIPPED True SKIPPED"
ASH_SCANNERS=fake-sarif scan --scanners fake-silent
assert_eq "--scanners wins over ASH_SCANNERS" "$(agg "r['fake-sarif']['status']")" SKIPPED

# An unknown name in --exclude-scanners is an error with a "did you
# mean", before any scanner runs; so is one in ASH_EXCLUDED_SCANNERS.
rm -rf "$out"
scan --scanners fake-sarif --exclude-scanners fake-sarf
assert_eq "--exclude-scanners typo: exit 5" "$status" 5
assert_file_contains "--exclude-scanners typo: did you mean" "$TEST_TMP/err" "did you mean 'fake-sarif'?"
check_fails "--exclude-scanners typo: nothing ran" test -e "$out/ash_aggregated_results.json"
ASH_EXCLUDED_SCANNERS=bandti scan --scanners fake-sarif
assert_eq "ASH_EXCLUDED_SCANNERS typo: exit 5" "$status" 5
assert_file_contains "ASH_EXCLUDED_SCANNERS typo: did you mean" "$TEST_TMP/err" "did you mean 'bandit'?"
# Without plugin modules, before the output directory is touched: the
# results of the last scan stay.
scan --scanners fake-sarif
run_ash scan --source-dir "$src" --output-dir "$out" -P --exclude-scanners semgrpe
assert_eq "builtin typo: exit 5" "$status" 5
assert_file_contains "builtin typo: did you mean" "$TEST_TMP/err" "did you mean 'semgrep'?"
check "builtin typo: the last results are untouched" test -s "$out/ash_aggregated_results.json"
# With plugin modules named, too: the typo is caught before the output
# directory is cleared (it was caught once the modules were loaded, after
# the last results were gone).
scan --scanners fake-sarif
cp "$out/ash_aggregated_results.json" "$TEST_TMP/last.json"
check "control: the last scan left its reports" test -s "$out/reports/ash.sarif"
scan --exclude-scanners fake-sarff
assert_eq "plugin typo: exit 5" "$status" 5
assert_file_contains "plugin typo: did you mean the plugin's scanner" "$TEST_TMP/err" "did you mean 'fake-sarif'?"
check "plugin typo: the last aggregated results are untouched" cmp -s "$out/ash_aggregated_results.json" "$TEST_TMP/last.json"
check "plugin typo: the last reports are still there" test -s "$out/reports/ash.sarif"
check "plugin typo: the last scanner results are still there" test -d "$out/scanners/fake-sarif"
scan --exclude-scanners fake-silent --scanners fake-sarif
assert_eq "control: a plugin scanner's right name is accepted" "$status" 2
scan --scanners fake-sarfi
assert_file_contains "--scanners typo: did you mean" "$TEST_TMP/err" "did you mean 'fake-sarif'?"

# The container flags in a local scan: a usage error (exit 5), never
# accepted and ignored; nothing scanned or written.
for f in --build --no-build -b -B --run --no-run -r -R --force \
    --oci-runner=podman --oci=podman --runner=podman -opodman \
    --build-target=ci --container-uid=1000 -u1000 --container-gid=1000 \
    -g1000 --ash-revision-to-install=v3.0.0 --custom-containerfile=Dockerfile \
    --custom-build-arg=A=1; do
  rm -rf "$out"
  scan --scanners fake-sarif "$f"
  if [ "$status" -eq 5 ] && grep -q "is an option of container mode" "$TEST_TMP/err" && [ ! -e "$out" ]; then
    :
  else
    not_ok "$f is refused with exit 5 before anything is written"
    diag "status $status" "$(cat "$TEST_TMP/err")"
  fi
done
ok "the container flags are refused in a local scan with exit 5, nothing written"
printf '{"oci_runner": "podman"}\n' >"$TEST_TMP/cli.json"
scan --cli-json-input "$TEST_TMP/cli.json"
assert_eq "a container option in --cli-json-input is refused too" "$status" 5

# --base-ref only with --changed-files-only.
scan --base-ref main
assert_eq "--base-ref alone is refused" "$status" 5

# --offline-semgrep-rulesets online says it does nothing there.
scan --scanners fake-sarif --offline-semgrep-rulesets p/ci
assert_file_contains "--offline-semgrep-rulesets online: a warning" "$TEST_TMP/err" "applies only offline"

# Offline, --offline-semgrep-rulesets picks the cached rulesets.
tools=$TEST_TMP/tools
mkdir -p "$tools/semgrep-data" "$TEST_TMP/rules"
cp "$top_srcdir/tests/fixtures/tools/fake-semgrep" "$tools/semgrep"
cp "$top_srcdir/tests/fixtures/tools/semgrep-data/semgrep.src.json" "$tools/semgrep-data/"
chmod 755 "$tools/semgrep"
printf 'rules: []\n' >"$TEST_TMP/rules/ci.yml"
printf 'rules: []\n' >"$TEST_TMP/rules/other.yaml"
SEMGREP_RULES_CACHE_DIR=$TEST_TMP/rules PATH=$tools:$PATH \
  run_ash scan --source-dir "$src" --output-dir "$out" -P --sandbox off --offline \
  --scanners semgrep --offline-semgrep-rulesets p/ci --log-level DEBUG
assert_eq "--offline-semgrep-rulesets p/ci: semgrep runs" "$(agg "r['semgrep']['status'] in ('PASSED', 'FAILED')")" True
SEMGREP_RULES_CACHE_DIR=$TEST_TMP/rules PATH=$tools:$PATH \
  run_ash scan --source-dir "$src" --output-dir "$out" -P --sandbox off --offline \
  --scanners semgrep --offline-semgrep-rulesets p/ci,p/secrets
assert_eq "a ruleset not in the cache: semgrep ERROR" "$(agg "r['semgrep']['status']")" ERROR
assert_file_contains "a ruleset not in the cache: the reason names it" "$out/ash_aggregated_results.json" "the ruleset 'p/secrets' of --offline-semgrep-rulesets"

done_testing
