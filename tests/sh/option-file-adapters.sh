#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The one option-file rule (scanners/option-file.c) for the IaC and
# dependency adapters, as for bandit: a repository's .ash/.ash.yaml whose
# scanners.checkov.options.config_file, scanners.grype.options.config_file,
# scanners.syft.options.config_file or trivy-repo's config_file and
# ignore_file names a file in the tree is refused with the rule's warning,
# and the tool is not given the file (grype and trivy, which the fakes
# model reading it, keep the findings it would drop).  The control: the
# same options from --config-overrides (the operator's) are passed, and
# drop those findings.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"

src=$TEST_TMP/src
mkdir -p "$src/.ash" "$src/.git" "$src/js"
cp "$top_srcdir/tests/fixtures/repos/iac/test.yaml" "$src/" 2>/dev/null ||
  printf 'Resources:\n  B:\n    Type: AWS::S3::Bucket\n' >"$src/test.yaml"
printf 'GEM\n  specs:\n    addressable (2.7.0)\n' >"$src/js/Gemfile.lock"
printf 'skip-check: [CKV_AWS_18]\n' >"$src/quiet-checkov.yaml"
printf 'ignore:\n  - vulnerability: GHSA-jxhc-q857-3j6g\n' >"$src/quiet-grype.yaml"
printf '# nothing\n' >"$src/quiet-syft.yaml"
printf 'severity: [LOW]\n' >"$src/quiet-trivy.yaml"
printf 'CVE-2021-44906\n' >"$src/quiet.trivyignore"
cat >"$src/.ash/.ash.yaml" <<'EOC'
scanners:
  checkov:
    options:
      config_file: quiet-checkov.yaml
  grype:
    options:
      config_file: quiet-grype.yaml
  syft:
    options:
      config_file: quiet-syft.yaml
  trivy-repo:
    options:
      config_file: quiet-trivy.yaml
      ignore_file: quiet.trivyignore
EOC
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp -R "$top_srcdir/tests/fixtures/tools/checkov" "$top_srcdir/tests/fixtures/tools/iac-data" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/fake-grype" "$tools/grype"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$tools/syft"
cp "$top_srcdir/tests/fixtures/tools/fake-trivy" "$tools/trivy"
cp "$top_srcdir/tests/fixtures/deps/grype.json" "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
PATH=$tools:$PATH
GRYPE_DB_CACHE_DIR=$TEST_TMP/cache/grype/db
GRYPE_FAKE_LOG=$TEST_TMP/calls.log
TRIVY_CACHE_DIR=$TEST_TMP/cache/trivy
TRIVY_FAKE_LOG=$TEST_TMP/trivy.log
export PATH GRYPE_DB_CACHE_DIR GRYPE_FAKE_LOG TRIVY_CACHE_DIR TRIVY_FAKE_LOG
unset GRYPE_FAKE_MODE GRYPE_FAKE_BUILT GRYPE_FAKE_SLEEP GRYPE_DB_MAX_ALLOWED_BUILT_AGE \
  TRIVY_FAKE_MODE TRIVY_FAKE_HOLD TRIVY_FAKE_POISON SYFT_FAKE_MODE || :
# Fresh databases, for the offline scans' staleness check.
mkdir -p "$GRYPE_DB_CACHE_DIR" "$TRIVY_CACHE_DIR/db"
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
echo "$now" >"$GRYPE_DB_CACHE_DIR/fake-built"
printf '{"Version":2,"UpdatedAt":"%s"}\n' "$now" >"$TRIVY_CACHE_DIR/db/metadata.json"
scanners="--ash-plugin-modules trivy-repo --scanners checkov,grype,syft,trivy-repo"

: >"$GRYPE_FAKE_LOG"
: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out1" --no-progress \
  --sandbox off --offline $scanners
assert_file_contains "checkov: the repository's config_file is refused by the option-file rule" \
  "$TEST_TMP/err" "checkov: not passing scanners.checkov.options.config_file ($src/quiet-checkov.yaml) to the scanner"
assert_file_contains "grype: the repository's config_file is refused by the option-file rule" \
  "$TEST_TMP/err" "grype: not passing scanners.grype.options.config_file ($src/quiet-grype.yaml) to the scanner"
args=$(find "$TEST_TMP/out1/scanners/checkov" -name ARGS | head -n 1)
check "checkov ran" test -n "$args"
[ -n "$args" ] && check_fails "checkov was not given the file" grep -q quiet-checkov "$args"
check_fails "grype was not given the file" grep -q -- "--config $src/quiet-grype.yaml" "$GRYPE_FAKE_LOG"
assert_file_contains "grype: the finding the file would drop is reported" \
  "$TEST_TMP/out1/ash_aggregated_results.json" '"ruleId": "GHSA-jxhc-q857-3j6g-'
for k in syft.config_file trivy-repo.config_file trivy-repo.ignore_file; do
  assert_file_contains "${k%%.*}: the repository's ${k#*.} is refused by the option-file rule" \
    "$TEST_TMP/err" "${k%%.*}: not passing scanners.${k%%.*}.options.${k#*.} ($src/"
done
check_fails "syft was not given the file" grep -q -- "--config $src/quiet-syft.yaml" "$TEST_TMP/out1/scanners/syft/source/syft.stderr.log"
check_fails "trivy was not given the files" grep -q -- "$src/quiet" "$TRIVY_FAKE_LOG"
assert_file_contains "trivy-repo: the findings the files would drop are reported" \
  "$TEST_TMP/out1/ash_aggregated_results.json" '"ruleId": "CVE-2021-44906"'

# Control: the operator's overrides pass the same files.
: >"$GRYPE_FAKE_LOG"
: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out2" --no-progress \
  --sandbox off --offline $scanners \
  --config-overrides "scanners.checkov.options.config_file=$src/quiet-checkov.yaml" \
  --config-overrides "scanners.grype.options.config_file=$src/quiet-grype.yaml" \
  --config-overrides "scanners.syft.options.config_file=$src/quiet-syft.yaml" \
  --config-overrides "scanners.trivy-repo.options.config_file=$src/quiet-trivy.yaml" \
  --config-overrides "scanners.trivy-repo.options.ignore_file=$src/quiet.trivyignore"
assert_file_lacks "control: no warning" "$TEST_TMP/err" "not passing scanners."
args=$(find "$TEST_TMP/out2/scanners/checkov" -name ARGS | head -n 1)
check "control: checkov is given the operator's file" grep -q "$src/quiet-checkov.yaml" "$args"
check "control: grype is given the operator's file" grep -q -- "--config $src/quiet-grype.yaml" "$GRYPE_FAKE_LOG"
assert_file_lacks "control: grype drops what the file ignores" \
  "$TEST_TMP/out2/ash_aggregated_results.json" '"ruleId": "GHSA-jxhc-q857-3j6g-'
check "control: syft is given the operator's file" grep -q -- "--config $src/quiet-syft.yaml" "$TEST_TMP/out2/scanners/syft/source/syft.stderr.log"
check "control: trivy is given the operator's config and ignore file" \
  grep -q -- "--config $src/quiet-trivy.yaml --ignorefile $src/quiet.trivyignore " "$TRIVY_FAKE_LOG"
assert_file_lacks "control: trivy drops what the files ignore" \
  "$TEST_TMP/out2/ash_aggregated_results.json" '"ruleId": "CVE-2021-44906"'
done_testing
