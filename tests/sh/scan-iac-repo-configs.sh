#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The tool configs a scanned repository holds are configuration from the
# repository: checkov's .checkov.yaml, actionlint's .github/actionlint.yaml
# and zizmor's zizmor.yml, found where upstream ASH (or the tool) looks,
# are judged by the option-file rule and not given to the tools (a
# warning names each; checkov gets no --config-file, actionlint ash's
# empty config, zizmor --no-config).  The control: the operator's config
# files, outside the tree, named by the operator's ash config, are given.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v git >/dev/null 2>&1 || skip_all "git is not installed"
src=$TEST_TMP/src
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$src"
cp -R "$top_srcdir/tests/fixtures/tools" "$TEST_TMP/tools"
printf 'skip-check: [CKV_AWS_18]\n' >"$src/.checkov.yaml"
printf 'self-hosted-runner:\n  labels: [evil]\n' >"$src/.github/actionlint.yaml"
printf 'rules:\n  artipacked:\n    disable: true\n' >"$src/zizmor.yml"
git -C "$src" init -q
mkdir -p "$TEST_TMP/op"
cp "$src/.checkov.yaml" "$TEST_TMP/op/checkov.yaml"
cp "$src/.github/actionlint.yaml" "$TEST_TMP/op/actionlint.yaml"
cp "$src/zizmor.yml" "$TEST_TMP/op/zizmor.yml"
PATH=$TEST_TMP/tools:$PATH
FAKE_ACTIONLINT_ARGS=$TEST_TMP/actionlint.args
FAKE_ZIZMOR_ARGS=$TEST_TMP/zizmor.args
export PATH FAKE_ACTIONLINT_ARGS FAKE_ZIZMOR_ARGS

scan () { # OUT [CONFIG]
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/$1" --no-progress \
    --sandbox off --scanners checkov,actionlint,zizmor ${2:+--config "$2"}
}
value_after () { # FILE FLAG: the argument after FLAG (or FLAG=VALUE's)
  sed -n "/^$2\$/{n;p;q}; s/^$2=//p" "$1" | head -n 1
}

scan repo
assert_eq "the scan completes (exit 2: findings)" "$status" 2
for k in checkov actionlint zizmor; do
  assert_file_contains "$k: the repository's config is refused with a warning" \
    "$TEST_TMP/err" "$k: not passing scanners.$k.options.config_file"
done
cargs=$TEST_TMP/repo/scanners/checkov/source/ARGS
check_fails "checkov is given no --config-file" grep -qx -- "--config-file" "$cargs"
al=$(value_after "$TEST_TMP/actionlint.args" -config-file)
check "actionlint is given a config" test -n "$al"
check_fails "actionlint's config is nothing of the scanned tree (ash's own, in the run's directory)" \
  sh -c 'case $1 in "$2"/*) exit 0 ;; esac; exit 1' - "$al" "$src"
assert_file_contains "zizmor is told to read no config" "$TEST_TMP/zizmor.args" "--no-config"

# The control: the operator's files.
cat >"$TEST_TMP/op.yaml" <<Y
scanners:
  checkov:
    options:
      config_file: $TEST_TMP/op/checkov.yaml
  actionlint:
    options:
      config_file: $TEST_TMP/op/actionlint.yaml
  zizmor:
    options:
      config_file: $TEST_TMP/op/zizmor.yml
Y
scan opscan "$TEST_TMP/op.yaml"
assert_eq "control: the scan completes" "$status" 2
assert_eq "control: checkov gets the operator's config" \
  "$(value_after "$TEST_TMP/opscan/scanners/checkov/source/ARGS" --config-file)" "$TEST_TMP/op/checkov.yaml"
assert_eq "control: actionlint gets the operator's config" \
  "$(value_after "$TEST_TMP/actionlint.args" -config-file)" "$TEST_TMP/op/actionlint.yaml"
assert_eq "control: zizmor gets the operator's config" \
  "$(value_after "$TEST_TMP/zizmor.args" --config)" "$TEST_TMP/op/zizmor.yml"
done_testing
