#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Usage errors: one line naming the problem, then the hint; exit 5, before
# anything is read or scanned.  Plus --help, help COMMAND and --version.
. "$top_srcdir/tests/libtest.sh"

unset ASH_CONFIG ASH_MODE ASH_SOURCE_DIR ASH_OUTPUT_DIR ASH_OFFLINE
hint="Try 'ash --help' for more information."
sed 's/\\-/-/g' "$top_srcdir/doc/ash.1" > "$TEST_TMP/ash.1.txt"

# run_env VAR=VALUE... ARGS...: run_ash with variables set for it only.
run_env () {
  env "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

# usage DESCRIPTION EXPECTED-FIRST-LINE ARGS...
usage () {
  _d=$1 _want=$2
  shift 2
  run_ash "$@"
  assert_eq "$_d: exit 5" "$status" 5
  assert_eq "$_d: names the problem" "$(sed -n 1p "$TEST_TMP/err")" "$_want"
  assert_eq "$_d: then the hint" "$(sed -n 2p "$TEST_TMP/err")" "$hint"
  assert_eq "$_d: two lines" "$(wc -l < "$TEST_TMP/err")" 2
}

usage "unknown option" "ash: unrecognized option '--foo'" scan --foo
usage "unknown option, no command" "ash: unrecognized option '--foo'" --foo
usage "unknown short option" "ash: invalid option -- 'z'" -z
usage "missing argument" "ash: option '--sandbox' requires an argument" \
  scan --sandbox
usage "bad --sandbox value" \
  "ash: invalid value 'docker' for --sandbox (expected one of: off, auto, bwrap, firejail, landlock, sandbox-exec)" \
  scan --sandbox docker
usage "bad --mode value" \
  "ash: invalid value 'remote' for --mode (expected one of: local, container, precommit)" \
  --mode remote
usage "bad --strategy" \
  "ash: invalid value 'random' for --strategy (expected one of: parallel, sequential)" \
  scan --strategy random
usage "bad --max-workers" \
  "ash: invalid value '0' for --max-workers (expected a number from 1 to 4096)" \
  scan --max-workers 0
usage "bad --output-format" \
  "ash: invalid value 'pdf' for --output-format (expected one of: sarif, markdown, text, flat-json, html, junitxml, csv, cyclonedx, gitlab-sast, github-ghas, ocsf, yaml, spdx, gitlab-cyclonedx, unused-suppressions)" \
  scan -f sarif,pdf
usage "bad --log-level" \
  "ash: invalid value 'LOUD' for --log-level (expected one of: TRACE, DEBUG, VERBOSE, INFO, WARNING, ERROR, CRITICAL, SIMPLE, QUIET)" \
  scan --log-level LOUD
usage "scan option given to config" \
  "ash: option '--scanners' is not accepted by 'ash config get'" \
  config get --scanners bandit
usage "--sandbox given to config validate" \
  "ash: option '--sandbox' is not accepted by 'ash config validate'" \
  config validate --sandbox bwrap
usage "--force given to sandbox probe" "ash: option '--force' is not accepted by 'ash sandbox probe'" \
  sandbox probe --force
usage "unknown command" "ash: unknown command 'scna'" scna
usage "missing subcommand" \
  "ash: 'ash config' needs a subcommand: init, get, validate, update, lint" config
usage "unknown subcommand" \
  "ash: unknown subcommand 'ash sandbox run' (expected one of: probe, explain)" \
  sandbox run
usage "explain without a scanner" \
  "ash: 'ash sandbox explain' needs the name of a scanner" sandbox explain
usage "extra argument" "ash: unexpected argument 'extra'" scan extra
usage "ash report: an unknown reporter" \
  "ash: unknown reporter 'pdf' for --report-format (expected one of: sarif, markdown, text, flat-json, html, junitxml, csv, cyclonedx, gitlab-sast, github-ghas, ocsf, yaml, spdx, gitlab-cyclonedx, unused-suppressions)" \
  report --report-format pdf
run_env ASH_MODE=cloud "$ASH" scan
assert_eq "bad ASH_MODE exits 5" "$status" 5
run_env ASH_OFFLINE=perhaps "$ASH" scan
assert_eq "bad ASH_OFFLINE exits 5" "$status" 5
assert_file_contains "bad ASH_OFFLINE is named" "$TEST_TMP/err" "for ASH_OFFLINE"

# Container mode refuses --sandbox other than off, before anything else:
# even a broken config file is not read.
printf 'sandbox: [\n' > "$TEST_TMP/broken.yaml"
usage "--sandbox with --mode container" \
  "ash: --sandbox bwrap cannot be used with --mode container: container mode does not sandbox the scanners inside the image, the container is the boundary" \
  scan --mode container --sandbox bwrap --config "$TEST_TMP/broken.yaml"
run_env ASH_MODE=container "$ASH" scan --sandbox auto --config "$TEST_TMP/broken.yaml"
assert_eq "ASH_MODE=container with --sandbox auto: exit 5" "$status" 5
run_ash scan --mode container --sandbox off --config "$TEST_TMP/broken.yaml"
assert_eq "--sandbox off in container mode is accepted (then the config error)" \
  "$status" 3

# A usage error wins over a configuration error.
run_ash scan --bogus --config "$TEST_TMP/broken.yaml"
assert_eq "usage error before config error" "$status" 5

# Help and version.
run_ash --help
assert_eq "--help exits 0" "$status" 0
for opt in --source-dir --output-dir --config --config-overrides --scanners \
  --exclude-scanners --offline --mode --sandbox --allow-in-tree-tools \
  --ash-plugin-modules --fail-on-findings --no-fail-on-findings \
  --output-format --strategy --max-workers --progress --no-progress --quiet \
  --log-level --verbose --debug --color --no-color --cli-json-input; do
  assert_file_contains "--help lists $opt" "$TEST_TMP/out" "$opt"
  # The man page documents every option --help lists.
  assert_file_contains "ash(1) documents $opt" "$TEST_TMP/ash.1.txt" "$opt"
done
run_ash help config get
assert_eq "help COMMAND exits 0" "$status" 0
assert_file_contains "help config get shows --format" "$TEST_TMP/out" "--format"
assert_file_lacks "help config get omits --scanners" "$TEST_TMP/out" "--scanners"
run_ash sandbox explain --help
assert_file_contains "explain --help shows --sandbox" "$TEST_TMP/out" "--sandbox"
usage "help of an unknown command" "ash: unknown command 'nope'" help nope
run_ash --version
assert_eq "--version exits 0" "$status" 0
assert_file_contains "--version" "$TEST_TMP/out" "ash "

# dependencies install --dry-run prints commands and installs nothing
# (tests/sh/deps-install.sh installs).
ASH_BIN_PATH=$TEST_TMP/bin PATH=/nonexistent run_ash dependencies install --dry-run
assert_eq "dependencies install --dry-run exits 0" "$status" 0
assert_file_contains "dependencies install: bandit" "$TEST_TMP/out" \
  "apt-get install bandit"
assert_file_contains "dependencies install --dry-run says so" "$TEST_TMP/out" \
  "dry run: nothing is run"
done_testing
