#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The options of the infrastructure-as-code and workflow scanners
# (checkov, cfn-lint, cfn-nag, actionlint, zizmor, cfn-guard, cdk-nag)
# are checked with the configuration: a bad one (an unknown key, a value
# of the wrong type, a value the scanner refuses) makes `ash scan` exit 3
# with the configuration error naming the scanner and the key before any
# scanner runs, and `ash config validate` refuses it with the same
# message.  A value that holds control characters reaches the terminal
# escaped.  severity_threshold, the scan's own option, is taken by each.  Control: each scanner's documented options validate, and the
# scan runs every scanner with them (through the fake tools of
# tests/fixtures/tools and a recorded cfn-lint).
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
unset ASH_CONFIG ASH_SCANNERS ASH_EXCLUDED_SCANNERS CI

work=$TEST_TMP/work
mkdir -p "$work/bin"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp -R "$top_srcdir/tests/fixtures/tools" "$work/tools"
cp -R "$top_srcdir/tests/fixtures/cfn-guard-rules" "$work/rules"
cp "$top_srcdir/tests/fixtures/tools/fake-cfn-lint" "$work/tools/cfn-lint"
iac_install_ash "$work/bin"
# The fake node reads no modules, but cdk-nag is MISSING without them.
mkdir -p "$work/node_modules/cdk-nag" "$work/node_modules/aws-cdk-lib" \
  "$work/node_modules/constructs"
chmod -R a+rX "$work"
iac=checkov,cfn-lint,cfn-nag,actionlint,zizmor,cfn-guard,cdk-nag

ash_env () { # ash ARGS..., with the fake tools, into out and err
  env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$HOME" \
    LANG=C.UTF-8 XDG_CACHE_HOME="$TEST_TMP/cache" \
    ASH_CFN_GUARD_RULES_DIR="$work/rules" \
    ASH_CDK_NAG_MODULES="$work/node_modules" \
    "$work/bin/ash" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

status_of () { # OUT SCANNER
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"][sys.argv[2]]
print(r["status"])' "$1" "$2"
}

# refused SCANNER OPTION-LINES MESSAGE: the options (YAML lines below
# scanners.SCANNER.options) are a configuration error saying MESSAGE, in
# the scan (no scanner ran: no results directory) and in config validate.
refused () {
  printf 'scanners:\n  %s:\n    options:\n%s\n' "$1" "$2" >"$work/bad.yaml"
  what="$1: $(printf '%s' "$2" | tr -s ' \n' '  ')"
  rm -rf "$work/bad"
  ash_env scan --source-dir "$work/src" --output-dir "$work/bad" \
    --no-progress --sandbox off --scanners "$iac" --config "$work/bad.yaml"
  assert_eq "$what: the scan exits 3" "$status" 3
  assert_file_contains "$what: ... with the configuration error" \
    "$TEST_TMP/err" "$3"
  check "$what: ... before any scanner ran" test ! -e "$work/bad/scanners"
  ash_env config validate --source-dir "$work/src" --config "$work/bad.yaml"
  assert_eq "$what: config validate exits 3" "$status" 3
  assert_file_contains "$what: ... with the same message" "$TEST_TMP/err" \
    "ash: $3"
}

refused checkov "      nope: 1" \
  "scanners.checkov.options.nope is not an option of checkov"
refused checkov "      frameworks: [cobol]" \
  "scanners.checkov.options.frameworks: 'cobol' is not a value checkov accepts"
refused checkov "      config_file: [a, b]" \
  "scanners.checkov.options.config_file must be a string"
refused checkov "      tool_version: latest" \
  "scanners.checkov.options.tool_version: 'latest' is not a version constraint"
refused checkov "      skip_path: ['(']" \
  "scanners.checkov.options.skip_path: '(' is not a regular expression checkov can use"
refused cfn-lint "      no_such: 1" \
  "scanners.cfn-lint.options.no_such is not an option of cfn-lint"
refused cfn-lint "      regions: ['--update-specs']" \
  "scanners.cfn-lint.options.regions: '--update-specs' is not a value cfn-lint accepts"
refused cfn-lint "      config_file: 5" \
  "scanners.cfn-lint.options.config_file must be a string"
refused cfn-nag "      tool_version: '>=0.8'" \
  "scanners.cfn-nag.options.tool_version is not an option of cfn-nag"
refused cfn-nag "      rule_directory: {path: rules}" \
  "scanners.cfn-nag.options.rule_directory must be a string"
refused actionlint "      color: true" \
  "scanners.actionlint.options.color is not an option of actionlint"
refused actionlint "      shellcheck: true" \
  "scanners.actionlint.options.shellcheck must be a string"
refused actionlint "      install_timeout: 0" \
  "scanners.actionlint.options.install_timeout must be a number of seconds from 1 to 86400"
refused zizmor "      persona: evil" \
  "scanners.zizmor.options.persona must be one of regular, pedantic, auditor, not 'evil'"
refused zizmor "      online_audits: true" \
  "scanners.zizmor.options.online_audits is not supported: ash gives zizmor neither a network nor a GitHub token"
refused zizmor "      config_file: 1" \
  "scanners.zizmor.options.config_file must be a string"
refused cfn-guard "      rules: []" \
  "scanners.cfn-guard.options.rules is not an option of cfn-guard"
refused cfn-guard "      rule_sets: [../../etc/x]" \
  "scanners.cfn-guard.options.rule_sets: '../../etc/x' is not a value cfn-guard accepts"
refused cfn-guard "      rules_paths: own.guard" \
  "scanners.cfn-guard.options.rules_paths must be a list of strings"
refused cfn-guard "      rule_sets: []" \
  "cfn-guard has no rules: rule_sets is empty and rules_paths names none"
refused cdk-nag "      tool_version: '>=2'" \
  "scanners.cdk-nag.options.tool_version is not supported: ash does not check the version of cdk-nag's modules"
refused cdk-nag "      nag_packs: {Evil: true}" \
  "scanners.cdk-nag.options.nag_packs.Evil is not a cdk-nag rule pack"
refused cdk-nag "      nag_packs: {AwsSolutionsChecks: false}" \
  "scanners.cdk-nag.options.nag_packs turns every rule pack off"

# The scanned repository's own configuration is checked the same way: a
# bad option there stops the scan before anything runs.
mkdir -p "$work/src/.ash"
printf 'scanners:\n  zizmor:\n    options:\n      persona: evil\n' \
  >"$work/src/.ash/.ash.yaml"
rm -rf "$work/bad"
ash_env scan --source-dir "$work/src" --output-dir "$work/bad" \
  --no-progress --sandbox off --scanners "$iac"
assert_eq "the repository's config: the scan exits 3" "$status" 3
assert_file_contains "... naming the key" "$TEST_TMP/err" \
  "scanners.zizmor.options.persona must be one of regular, pedantic, auditor, not 'evil'"
check "... before any scanner ran" test ! -e "$work/bad/scanners"
rm -rf "$work/src/.ash"

# A value with control characters is shown escaped, never raw.
printf 'scanners:\n  checkov:\n    options:\n      frameworks: ["\\e]0;owned\\a\\e[2J"]\n' \
  >"$work/bad.yaml"
rm -rf "$work/bad"
ash_env scan --source-dir "$work/src" --output-dir "$work/bad" \
  --no-progress --sandbox off --scanners "$iac" --config "$work/bad.yaml"
assert_eq "a hostile value: exit 3" "$status" 3
check_fails "... no escape character reaches the terminal" \
  grep -q "$(printf '\033')" "$TEST_TMP/err" "$TEST_TMP/out"
assert_file_contains "... it is shown escaped" "$TEST_TMP/err" \
  "frameworks: '\\e]0;owned\\x07\\e[2J' is not a value checkov accepts"
ash_env config validate --source-dir "$work/src" --config "$work/bad.yaml"
assert_eq "... config validate exits 3" "$status" 3
check_fails "... no escape character from config validate" \
  grep -q "$(printf '\033')" "$TEST_TMP/err" "$TEST_TMP/out"

# Control: each scanner's documented options.  config validate accepts
# them all; the scan runs every scanner with them (the fake cfn-lint
# replays a recorded run, which takes no option ash would add to its
# command: its documented options are validated only).
cat >"$work/good.yaml" <<'EOF'
scanners:
  checkov:
    options:
      frameworks: [cloudformation, dockerfile, github_actions]
      skip_frameworks: [secrets]
      additional_formats: []
      offline: true
      skip_path: ['^tests/', {path: fixtures, reason: data}]
      tool_version: '>=3'
      install_timeout: 300
  cfn-nag:
    options:
      rule_directory: null
  actionlint:
    options:
      shellcheck: ''
      tool_version: '>=1.6'
  zizmor:
    options:
      persona: pedantic
      online_audits: false
  cfn-guard:
    options:
      rule_sets: [wa-Security-Pillar]
  cdk-nag:
    options:
      nag_packs: {AwsSolutionsChecks: true, HIPAASecurityChecks: false}
      install_timeout: 60
EOF
cp "$work/good.yaml" "$work/good-validate.yaml"
cat >>"$work/good-validate.yaml" <<'EOF'
  cfn-lint:
    options:
      regions: [us-east-1, ALL_REGIONS]
      ignore_checks: [W2001]
      include_checks: [I]
      tool_version: '>=1'
EOF
ash_env config validate --source-dir "$work/src" --config "$work/good-validate.yaml"
assert_eq "control: config validate accepts the documented options" "$status" 0
printf '  cfn-lint:\n    options:\n      tool_version: ">=1"\n' >>"$work/good.yaml"
ash_env config validate --source-dir "$work/src" --config "$work/good.yaml"
assert_eq "control: ... and the scan's configuration" "$status" 0
rm -rf "$work/good"
ash_env scan --source-dir "$work/src" --output-dir "$work/good" \
  --no-progress --sandbox off --scanners "$iac" --config "$work/good.yaml"
assert_eq "control: the scan completes (findings: exit 2)" "$status" 2
iac_findings "$work/good" >"$TEST_TMP/found"
for s in $(echo "$iac" | tr , ' '); do
  check "control: $s ran (its results directory)" test -d "$work/good/scanners/$s"
  st=$(status_of "$work/good" "$s")
  check "control: $s completed ($st)" test "$st" = PASSED -o "$st" = FAILED
  check "control: $s reported its tool's findings" grep -q "^$s " "$TEST_TMP/found"
done

# severity_threshold is the scan's own option, taken by every scanner
# (upstream's configs set it for checkov and cfn-nag): above the
# findings' HIGH, checkov and cfn-nag pass; control: checkov failed with
# the default threshold above.
assert_eq "control: checkov failed with the default threshold" \
  "$(status_of "$work/good" checkov)" FAILED
printf 'scanners:\n  checkov:\n    options:\n      severity_threshold: CRITICAL\n  cfn-nag:\n    options:\n      severity_threshold: CRITICAL\n' \
  >"$work/threshold.yaml"
ash_env config validate --source-dir "$work/src" --config "$work/threshold.yaml"
assert_eq "severity_threshold: config validate accepts it" "$status" 0
rm -rf "$work/thr"
ash_env scan --source-dir "$work/src" --output-dir "$work/thr" \
  --no-progress --sandbox off --scanners checkov,cfn-nag \
  --config "$work/threshold.yaml"
assert_eq "severity_threshold CRITICAL: the scan passes" "$status" 0
assert_eq "... checkov and cfn-nag ran and passed" \
  "$(status_of "$work/thr" checkov) $(status_of "$work/thr" cfn-nag)" \
  "PASSED PASSED"
done_testing
