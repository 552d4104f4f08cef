#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The options of the dependency and SBOM scanners (grype, syft,
# npm-audit, trivy-repo) are checked with the configuration: a bad one
# (an unknown key, a value of the wrong type, a value the scanner
# refuses) makes `ash scan` exit 3 with the configuration error naming
# the scanner and the key before any scanner runs, and `ash config
# validate` refuses it with the same message.  A value that holds control
# characters reaches the terminal escaped.  severity_threshold, the
# scan's own option, is taken by each: above npm-audit's findings it
# makes npm-audit pass (control: below them it fails).  Control: the
# documented options and upstream's documented scanners' configuration
# validate, and the scan runs every scanner with them (through the fake
# tools of tests/fixtures/tools).
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v flock >/dev/null 2>&1 || skip_all "flock (util-linux) is not installed"
unset ASH_CONFIG ASH_SCANNERS ASH_EXCLUDED_SCANNERS CI

src=$TEST_TMP/src
cp -R "$top_srcdir/tests/fixtures/repos/npm-small" "$src"
printf 'GEM\n  specs:\n    addressable (2.7.0)\n' >"$src/Gemfile.lock"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-grype" "$tools/grype"
cp "$top_srcdir/tests/fixtures/deps/grype.json" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/grype-data/TestSarifPresenter_directory.golden" "$tools/grype-sarif.golden"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$tools/syft"
cp "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/fake-npm" "$tools/npm"
cp "$top_srcdir/tests/fixtures/deps/npm-audit.json" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/fake-trivy" "$tools/trivy"
PATH=$tools:$PATH
HOME=$TEST_TMP/home
mkdir -p "$HOME/.npm"
GRYPE_DB_CACHE_DIR=$TEST_TMP/cache/grype/db
GRYPE_FAKE_LOG=$TEST_TMP/grype.log
TRIVY_CACHE_DIR=$TEST_TMP/cache/trivy
TRIVY_FAKE_LOG=$TEST_TMP/trivy.log
export PATH HOME GRYPE_DB_CACHE_DIR GRYPE_FAKE_LOG TRIVY_CACHE_DIR TRIVY_FAKE_LOG
unset GRYPE_FAKE_MODE GRYPE_FAKE_BUILT GRYPE_FAKE_SLEEP SYFT_FAKE_MODE \
  SYFT_CACHE_DIR TRIVY_FAKE_MODE TRIVY_FAKE_UPDATED TRIVY_FAKE_SLEEP \
  npm_config_registry NPM_CONFIG_REGISTRY npm_config_fake_mode || :
deps=grype,syft,npm-audit,trivy-repo
mods="--ash-plugin-modules trivy-repo"

status_of () { # OUT SCANNER
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"][sys.argv[2]]
print(r["status"])' "$1" "$2"
}

# refused SCANNER OPTION-LINES MESSAGE: the options (YAML lines below
# scanners.SCANNER.options) are a configuration error saying MESSAGE, in
# the scan (no scanner ran: no results directory) and in config validate.
refused () {
  printf 'ash_plugin_modules: [trivy-repo]\nscanners:\n  %s:\n    options:\n%s\n' "$1" "$2" >"$TEST_TMP/bad.yaml"
  what="$1: $(printf '%s' "$2" | tr -s ' \n' '  ')"
  rm -rf "$TEST_TMP/bad"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" \
    --no-progress --sandbox off --scanners "$deps" --config "$TEST_TMP/bad.yaml"
  assert_eq "$what: the scan exits 3" "$status" 3
  assert_file_contains "$what: ... with the configuration error" \
    "$TEST_TMP/err" "$3"
  check "$what: ... before any scanner ran" test ! -e "$TEST_TMP/bad/scanners"
  run_ash config validate --source-dir "$src" --config "$TEST_TMP/bad.yaml"
  assert_eq "$what: config validate exits 3" "$status" 3
  assert_file_contains "$what: ... with the same message" "$TEST_TMP/err" \
    "ash: $3"
}

refused grype "      only_fixed: true" \
  "scanners.grype.options: unknown option 'only_fixed' (known: config_file, severity_threshold, offline, scan_timeout)"
refused grype "      offline: sometimes" \
  "scanners.grype.options.offline must be true or false"
refused grype "      config_file: [a, b]" \
  "scanners.grype.options.config_file must be a non-empty string"
refused syft "      scope: all-layers" \
  "scanners.syft.options: unknown option 'scope'"
refused syft "      additional_outputs: [pdf]" \
  "scanners.syft.options.additional_outputs: unknown format 'pdf'"
refused syft "      exclude: vendor" \
  "scanners.syft.options.exclude must be a list"
refused syft "      exclude: [{reason: none}]" \
  "scanners.syft.options.exclude[0] has no path"
refused npm-audit "      audit_level: high" \
  "scanners.npm-audit.options: unknown option 'audit_level' (known: offline, severity_threshold, scan_timeout)"
refused npm-audit "      offline: 2" \
  "scanners.npm-audit.options.offline must be true or false"
refused trivy-repo "      list_all_pkgs: true" \
  "scanners.trivy-repo.options: unknown option 'list_all_pkgs'"
refused trivy-repo "      scanners: [vuln, sbom]" \
  "scanners.trivy-repo.options.scanners: unknown kind 'sbom' (known: vuln, secret, misconfig, license)"
refused trivy-repo "      ignore_file: {path: x}" \
  "scanners.trivy-repo.options.ignore_file must be a non-empty string"

# A severity_threshold that is not a severity is refused by the
# configuration's schema first (test-deps-options shows the adapters'
# own check agrees).
printf 'scanners:\n  grype:\n    options:\n      severity_threshold: INFO\n' >"$TEST_TMP/bad.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" \
  --no-progress --sandbox off $mods --scanners "$deps" --config "$TEST_TMP/bad.yaml"
assert_eq "grype severity_threshold INFO: exit 3" "$status" 3
assert_file_contains "... the schema names it" "$TEST_TMP/err" \
  "'scanners.grype.options.severity_threshold' must be one of ALL, LOW, MEDIUM, HIGH, CRITICAL"

# trivy-repo is the scanner of a plugin module: config validate loads the
# modules the scan would (above, the configuration's ash_plugin_modules)
# to check its options; without the module there is no trivy-repo to
# refuse them for.
printf 'scanners:\n  trivy-repo:\n    options:\n      scanners: [sbom]\n' >"$TEST_TMP/bad.yaml"
run_ash config validate --source-dir "$src" --config "$TEST_TMP/bad.yaml"
assert_eq "trivy-repo without its module: config validate accepts it" "$status" 0
rm -rf "$TEST_TMP/bad"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" \
  --no-progress --sandbox off --scanners grype --config "$TEST_TMP/bad.yaml"
check "... as the scan does (no trivy-repo: grype ran)" test -d "$TEST_TMP/bad/scanners/grype"

# The scanned repository's own configuration is checked the same way.
mkdir -p "$src/.ash"
printf 'scanners:\n  syft:\n    options:\n      additional_outputs: [evil]\n' \
  >"$src/.ash/.ash.yaml"
rm -rf "$TEST_TMP/bad"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" \
  --no-progress --sandbox off $mods --scanners "$deps"
assert_eq "the repository's config: the scan exits 3" "$status" 3
assert_file_contains "... naming the key" "$TEST_TMP/err" \
  "scanners.syft.options.additional_outputs: unknown format 'evil'"
check "... before any scanner ran" test ! -e "$TEST_TMP/bad/scanners"
rm -rf "$src/.ash"

# A value with control characters is shown escaped, never raw.
printf 'scanners:\n  syft:\n    options:\n      additional_outputs: ["\\e]0;owned\\a\\e[2J"]\n' \
  >"$TEST_TMP/bad.yaml"
rm -rf "$TEST_TMP/bad"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" \
  --no-progress --sandbox off $mods --scanners "$deps" --config "$TEST_TMP/bad.yaml"
assert_eq "a hostile value: exit 3" "$status" 3
check_fails "... no escape character reaches the terminal" \
  grep -q "$(printf '\033')" "$TEST_TMP/err" "$TEST_TMP/out"
assert_file_contains "... it is shown escaped" "$TEST_TMP/err" \
  "additional_outputs: unknown format '\\e]0;owned\\x07\\e[2J'"
run_ash config validate --source-dir "$src" --config "$TEST_TMP/bad.yaml"
assert_eq "... config validate exits 3" "$status" 3
check_fails "... no escape character from config validate" \
  grep -q "$(printf '\033')" "$TEST_TMP/err" "$TEST_TMP/out"

# Control: the documented options validate, and every scanner runs with
# them.
cat >"$TEST_TMP/good.yaml" <<'EOF2'
ash_plugin_modules: [trivy-repo]
scanners:
  grype:
    options:
      severity_threshold: MEDIUM
      offline: false
      scan_timeout: 600
  syft:
    options:
      severity_threshold: MEDIUM
      additional_outputs: [spdx-json]
      exclude: [./vendor, {path: node_modules}]
  npm-audit:
    options:
      severity_threshold: MEDIUM
      offline: false
  trivy-repo:
    options:
      scanners: [vuln, secret]
      severity_threshold: HIGH
      ignore_unfixed: true
      license_full: false
EOF2
run_ash config validate --source-dir "$src" --config "$TEST_TMP/good.yaml"
assert_eq "control: config validate accepts the documented options" "$status" 0
run_ash config validate --source-dir "$src" \
  --config "$top_srcdir/tests/fixtures/upstream-configs/docs-scanners.yaml"
assert_eq "control: ... and upstream's documented scanners" "$status" 0
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/good" \
  --no-progress --sandbox off $mods --scanners "$deps" --config "$TEST_TMP/good.yaml"
assert_eq "control: the scan completes (findings: exit 2)" "$status" 2
for s in $(echo "$deps" | tr , ' '); do
  check "control: $s ran (its results directory)" test -d "$TEST_TMP/good/scanners/$s"
  st=$(status_of "$TEST_TMP/good" "$s")
  check "control: $s completed ($st)" test "$st" = PASSED -o "$st" = FAILED
done
assert_eq "control: npm-audit failed at MEDIUM" \
  "$(status_of "$TEST_TMP/good" npm-audit)" FAILED

# severity_threshold takes effect for npm-audit, which refused it before:
# at CRITICAL only the report's critical findings are actionable, fewer
# than at the default MEDIUM, and the findings themselves are the same.
agg () { # OUT SCANNER FIELD
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"][sys.argv[2]]
print(r[sys.argv[3]])' "$1" "$2" "$3"
}
printf 'scanners:\n  npm-audit:\n    options:\n      severity_threshold: CRITICAL\n' \
  >"$TEST_TMP/crit.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/crit" \
  --no-progress --sandbox off --scanners npm-audit --config "$TEST_TMP/crit.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/low" \
  --no-progress --sandbox off --scanners npm-audit
crit=$(agg "$TEST_TMP/crit" npm-audit actionable_count)
low=$(agg "$TEST_TMP/low" npm-audit actionable_count)
check "severity_threshold CRITICAL: fewer actionable findings ($crit) than by default ($low)" \
  test "$crit" -lt "$low"
assert_eq "... the same findings" "$(agg "$TEST_TMP/crit" npm-audit finding_count)" \
  "$(agg "$TEST_TMP/low" npm-audit finding_count)"
assert_eq "... npm-audit ran (not ERROR): its critical findings fail it" \
  "$(status_of "$TEST_TMP/crit" npm-audit)" FAILED
assert_eq "... exactly the critical findings are actionable" "$crit" \
  "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"]["npm-audit"]
print(r["severity_counts"]["critical"])' "$TEST_TMP/crit")"
done_testing
