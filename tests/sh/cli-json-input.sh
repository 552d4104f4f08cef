#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --cli-json-input: a flag beats the document, the document beats the
# environment; unknown keys and wrong types are usage errors.  The resolved
# options are observed through what they change: --config-overrides and
# --config through `ash config get`, and --source-dir / --mode / --sandbox
# through `ash scan` reaching (or not) the configuration.
. "$top_srcdir/tests/libtest.sh"

unset ASH_CONFIG ASH_SOURCE_DIR ASH_MODE
hint="Try 'ash --help' for more information."
src="$TEST_TMP/src"
mkdir -p "$src" "$TEST_TMP/env-src" "$TEST_TMP/json-src" "$TEST_TMP/flag-src"
for w in env json flag; do
  printf 'project_name: %s\n' "$w" > "$TEST_TMP/$w-src/.ash.yaml"
  printf 'sandbox: [\n' > "$TEST_TMP/$w-src/broken.yaml"
done

printf '{"config": "%s"}\n' "$TEST_TMP/json-src/broken.yaml" > "$TEST_TMP/c.json"
env ASH_CONFIG="$TEST_TMP/env-src/broken.yaml" "$ASH" scan \
  --cli-json-input "$TEST_TMP/c.json" --source-dir "$src" \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "document config: exit 3" "$?" 3
assert_file_contains "the document's config beats ASH_CONFIG" "$TEST_TMP/err" \
  "$TEST_TMP/json-src/broken.yaml"
"$ASH" scan --cli-json-input "$TEST_TMP/c.json" --source-dir "$src" \
  --config "$TEST_TMP/flag-src/broken.yaml" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "the flag's config beats the document" "$TEST_TMP/err" \
  "$TEST_TMP/flag-src/broken.yaml"

env ASH_SOURCE_DIR="$TEST_TMP/env-src" "$ASH" sandbox explain bandit \
  --config-overrides 'project_name=1' >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "explain loads the configuration too" "$TEST_TMP/err" \
  "invalid configuration override 'project_name=1'"

# Overrides: the flag's list replaces the document's, which replaces none
# from the environment (there is no environment variable for them).
printf '{"config_overrides": ["project_name=1"], "source_dir": "%s"}\n' \
  "$TEST_TMP/env-src" > "$TEST_TMP/ov.json"
"$ASH" scan --cli-json-input "$TEST_TMP/ov.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "the document's overrides apply" "$TEST_TMP/err" \
  "override 'project_name=1'"
"$ASH" scan --cli-json-input "$TEST_TMP/ov.json" \
  --config-overrides 'fail_on_findings=maybe' >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "flag overrides: exit 3" "$?" 3
assert_file_contains "the flag's overrides replace the document's" \
  "$TEST_TMP/err" "override 'fail_on_findings=maybe'"
assert_file_lacks "the document's are not applied" "$TEST_TMP/err" \
  "project_name=1"

# mode and sandbox: document values take part in the container refusal,
# and a flag beats the document.
printf '{"mode": "container", "sandbox": "bwrap"}\n' > "$TEST_TMP/mode.json"
run_ash scan --cli-json-input "$TEST_TMP/mode.json"
assert_eq "document: container + bwrap refused" "$status" 5
assert_file_contains "refusal message" "$TEST_TMP/err" \
  "--sandbox bwrap cannot be used with --mode container"
run_ash scan --cli-json-input "$TEST_TMP/mode.json" --sandbox off \
  --config "$TEST_TMP/flag-src/broken.yaml"
assert_eq "flag --sandbox off beats the document" "$status" 3
env ASH_MODE=local "$ASH" scan --cli-json-input "$TEST_TMP/mode.json" \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "document mode beats ASH_MODE" "$?" 5
run_ash scan --cli-json-input "$TEST_TMP/mode.json" --mode local \
  --config "$TEST_TMP/flag-src/broken.yaml"
assert_eq "flag --mode local beats the document" "$status" 3

# Types and keys.
bad () {
  printf '%s\n' "$2" > "$TEST_TMP/bad.json"
  run_ash scan --cli-json-input "$TEST_TMP/bad.json"
  assert_eq "$1: exit 5" "$status" 5
  assert_eq "$1: message" "$(sed -n 1p "$TEST_TMP/err")" "$3"
  assert_eq "$1: hint" "$(sed -n 2p "$TEST_TMP/err")" "$hint"
}
bad "unknown key" '{"source_directory": "/x"}' \
  "ash: --cli-json-input $TEST_TMP/bad.json: unknown key 'source_directory'"
bad "wrong type (bool)" '{"offline": "yes"}' \
  "ash: --cli-json-input $TEST_TMP/bad.json: 'offline' must be true or false"
bad "wrong type (string)" '{"mode": 1}' \
  "ash: --cli-json-input $TEST_TMP/bad.json: 'mode' must be a string"
bad "wrong type (list)" '{"scanners": [1]}' \
  "ash: --cli-json-input $TEST_TMP/bad.json: 'scanners' must be a string or a list of strings"
bad "bad value" '{"sandbox": "docker"}' \
  "ash: invalid value 'docker' for 'sandbox' in $TEST_TMP/bad.json (expected one of: off, auto, bwrap, firejail, landlock, sandbox-exec)"
bad "not an object" '[1]' \
  "ash: --cli-json-input $TEST_TMP/bad.json: the document must be a JSON object"
bad "no nesting of itself" '{"cli_json_input": "x"}' \
  "ash: --cli-json-input $TEST_TMP/bad.json: unknown key 'cli_json_input'"
run_ash scan --cli-json-input "$TEST_TMP/missing.json"
assert_eq "missing document: exit 5" "$status" 5
run_ash config get --cli-json-input "$TEST_TMP/c.json"
assert_eq "--cli-json-input is an option of scan only" "$status" 5
done_testing
