#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cfn-nag's rule_directory, profile_path and deny_list_path (through the
# fake cfn_nag_scan): the operator's files, outside the tree, are copied
# into the run's directory and reach cfn_nag unsandboxed and under every
# usable backend, with the same findings; the same options from a config
# the scanned repository could have written are left out with a warning
# (its Ruby rules do not run, its deny list turns nothing off).
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
work=$TEST_TMP/work
mkdir -p "$work/bin" "$work/rules"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp -R "$top_srcdir/tests/fixtures/tools" "$work/tools"
iac_install_ash "$work/bin"
cat >"$work/rules/BucketNamedRule.rb" <<'R'
# A custom rule; the fake cfn_nag_scan reads the line below.
# fake-violation F999 FAIL 4 S3 bucket is named by the operator's rule
R
printf 'RulesToSuppress:\n- id: W35\n  reason: access logs elsewhere\n' >"$work/deny.yml"
printf 'W41\n' >"$work/profile.txt"
chmod -R a+rX "$work"

scan () { # OUT MODE CONFIG
  env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$HOME" LANG=C.UTF-8 \
    "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$1" --no-progress \
    --scanners cfn-nag --sandbox "$2" ${3:+--config "$3"} >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

# The control: cfn_nag's own rules only.
scan control off
iac_findings "$work/control" >"$TEST_TMP/control"
assert_file_contains "control: W35 reported" "$TEST_TMP/control" "cfn-nag W35 test.yaml 5 MEDIUM"
assert_file_lacks "control: no custom rule ran" "$TEST_TMP/control" "F999"

printf 'scanners:\n  cfn-nag:\n    options:\n      rule_directory: %s\n      deny_list_path: %s\n' \
  "$work/rules" "$work/deny.yml" >"$work/operator.yaml"
cat >"$TEST_TMP/want" <<'W'
cfn-nag F999 cfn_and_python/test.yaml 4 HIGH
cfn-nag F999 test.yaml 4 HIGH
cfn-nag W41 cfn_and_python/test.yaml 5 MEDIUM
cfn-nag W41 test.yaml 5 MEDIUM
cfn-nag W51 cfn_and_python/test.yaml 5 MEDIUM
cfn-nag W51 test.yaml 5 MEDIUM
W
scan own-off off "$work/operator.yaml"
assert_eq "operator's rules: exit 2 (a FAIL finding)" "$status" 2
iac_findings "$work/own-off" >"$TEST_TMP/own-off"
check "operator's rules: the custom rule ran, the deny list dropped W35" \
  cmp "$TEST_TMP/want" "$TEST_TMP/own-off"
sandboxed () { # BACKEND
  scan "own-$1" "$1" "$work/operator.yaml"
  iac_findings "$work/own-$1" >"$TEST_TMP/own-$1"
  check "$1: the copies are read, the same findings as unsandboxed" \
    cmp "$TEST_TMP/own-off" "$TEST_TMP/own-$1"
}
iac_backends sandboxed

printf 'scanners:\n  cfn-nag:\n    options:\n      profile_path: %s\n' "$work/profile.txt" >"$work/profile.yaml"
scan profile off "$work/profile.yaml"
assert_eq "profile: only W41" "$(iac_findings "$work/profile" | cut -d' ' -f2 | sort -u)" "W41"

# The same options from the scanned repository's own config (a git
# checkout): left out with a warning.
mkdir -p "$work/src/.ash" "$work/src/evil"
cp "$work/rules/BucketNamedRule.rb" "$work/src/evil/"
cp "$work/deny.yml" "$work/src/evil/deny.yml"
printf 'scanners:\n  cfn-nag:\n    options:\n      rule_directory: evil\n      deny_list_path: evil/deny.yml\n' \
  >"$work/src/.ash/.ash.yaml"
git -C "$work/src" init -q 2>/dev/null
scan repo off
assert_file_contains "the repository's rule_directory is refused with a warning" \
  "$TEST_TMP/err" "not passing scanners.cfn-nag.options.rule_directory"
assert_file_contains "the repository's deny_list_path is refused with a warning" \
  "$TEST_TMP/err" "not passing scanners.cfn-nag.options.deny_list_path"
iac_findings "$work/repo" >"$TEST_TMP/repo"
assert_file_lacks "the repository's Ruby rule did not run" "$TEST_TMP/repo" "F999"
assert_file_contains "the repository's deny list turned nothing off" "$TEST_TMP/repo" "cfn-nag W35 test.yaml 5 MEDIUM"
rm -rf "$work/src/.ash" "$work/src/.git" "$work/src/evil"

printf 'scanners:\n  cfn-nag:\n    options:\n      rule_directory: %s\n' "$work/deny.yml" >"$work/notdir.yaml"
scan notdir off "$work/notdir.yaml"
assert_file_contains "a rule_directory that is not a directory: the reason names it" \
  "$TEST_TMP/out" "scanners.cfn-nag.options.rule_directory names $work/deny.yml, which is not a directory"
done_testing
