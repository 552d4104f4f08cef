#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The one option-file rule (scanners/option-file.c) for the IaC and
# dependency adapters, as for bandit: a repository's .ash/.ash.yaml whose
# scanners.checkov.options.config_file or scanners.grype.options.config_file
# names a file in the tree is refused with the rule's warning, and the tool
# is not given the file.  The control: the same option from
# --config-overrides (the operator's) is passed.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"

src=$TEST_TMP/src
mkdir -p "$src/.ash" "$src/.git" "$src/js"
cp "$top_srcdir/tests/fixtures/repos/iac/test.yaml" "$src/" 2>/dev/null ||
  printf 'Resources:\n  B:\n    Type: AWS::S3::Bucket\n' >"$src/test.yaml"
printf 'GEM\n  specs:\n    addressable (2.7.0)\n' >"$src/js/Gemfile.lock"
printf 'skip-check: [CKV_AWS_18]\n' >"$src/quiet-checkov.yaml"
printf 'ignore:\n  - vulnerability: GHSA-jxhc-q857-3j6g\n' >"$src/quiet-grype.yaml"
cat >"$src/.ash/.ash.yaml" <<'EOC'
scanners:
  checkov:
    options:
      config_file: quiet-checkov.yaml
  grype:
    options:
      config_file: quiet-grype.yaml
EOC
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp -R "$top_srcdir/tests/fixtures/tools/checkov" "$top_srcdir/tests/fixtures/tools/iac-data" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/fake-grype" "$tools/grype"
cp "$top_srcdir/tests/fixtures/deps/grype.json" "$tools/"
PATH=$tools:$PATH
GRYPE_DB_CACHE_DIR=$TEST_TMP/cache/grype/db
GRYPE_FAKE_LOG=$TEST_TMP/calls.log
export PATH GRYPE_DB_CACHE_DIR GRYPE_FAKE_LOG
unset GRYPE_FAKE_MODE GRYPE_FAKE_BUILT GRYPE_FAKE_SLEEP GRYPE_DB_MAX_ALLOWED_BUILT_AGE || :

: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out1" --no-progress \
  --sandbox off --offline --scanners checkov,grype
assert_file_contains "checkov: the repository's config_file is refused by the option-file rule" \
  "$TEST_TMP/err" "checkov: not passing scanners.checkov.options.config_file ($src/quiet-checkov.yaml) to the scanner"
assert_file_contains "grype: the repository's config_file is refused by the option-file rule" \
  "$TEST_TMP/err" "grype: not passing scanners.grype.options.config_file ($src/quiet-grype.yaml) to the scanner"
args=$(find "$TEST_TMP/out1/scanners/checkov" -name ARGS | head -n 1)
check "checkov ran" test -n "$args"
[ -n "$args" ] && check_fails "checkov was not given the file" grep -q quiet-checkov "$args"
check_fails "grype was not given the file" grep -q -- "--config $src/quiet-grype.yaml" "$GRYPE_FAKE_LOG"

# Control: the operator's overrides pass the same files.
: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out2" --no-progress \
  --sandbox off --offline --scanners checkov,grype \
  --config-overrides "scanners.checkov.options.config_file=$src/quiet-checkov.yaml" \
  --config-overrides "scanners.grype.options.config_file=$src/quiet-grype.yaml"
assert_file_lacks "control: no warning" "$TEST_TMP/err" "not passing scanners."
args=$(find "$TEST_TMP/out2/scanners/checkov" -name ARGS | head -n 1)
check "control: checkov is given the operator's file" grep -q "$src/quiet-checkov.yaml" "$args"
check "control: grype is given the operator's file" grep -q -- "--config $src/quiet-grype.yaml" "$GRYPE_FAKE_LOG"
done_testing
