#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every configuration error class exits 3 with file:line:column (or the
# override text) and the message, from `ash config validate` and from
# `ash scan` before anything is scanned.  One directory per case under
# tests/fixtures/config/errors/: input.yaml or input.json, expected (a line
# that stderr must contain), and optionally args (one argument per line).
. "$top_srcdir/tests/libtest.sh"

cases="$top_srcdir/tests/fixtures/config/errors"
unset ASH_CONFIG ASH_TEST_SURELY_UNSET_VAR

# The cases are the operator's files: they are read from a copy outside
# every git checkout and outside the scanned directory, since a file there
# may not use !ENV at all (env-unset; tests/sh/tier-env-tag.sh covers that
# refusal).
mkdir "$TEST_TMP/cases" "$TEST_TMP/src"
cp -R "$cases"/* "$TEST_TMP/cases/"

for dir in "$TEST_TMP/cases"/*/; do
  name=$(basename "$dir")
  input=$(ls "$dir" | grep '^input\.' | head -n 1)
  want=$(cat "$dir/expected")
  set -- --config "$dir$input"
  if [ -f "$dir/args" ]; then
    while IFS= read -r a; do set -- "$@" "$a"; done < "$dir/args"
  fi

  run_ash config validate --source-dir "$TEST_TMP/src" "$@"
  assert_eq "$name: config validate exits 3" "$status" 3
  assert_file_contains "$name: config validate names the problem" \
    "$TEST_TMP/err" "$want"

  run_ash scan --source-dir "$TEST_TMP/src" --output-dir "$TEST_TMP/out-$name" "$@"
  assert_eq "$name: scan exits 3" "$status" 3
  assert_file_contains "$name: scan names the problem" "$TEST_TMP/err" "$want"
  check_fails "$name: scan wrote nothing" test -e "$TEST_TMP/out-$name"
done

# The whole message of a located error starts with "ash: FILE:LINE:COL: ".
run_ash config validate --config "$cases/unknown-key/input.yaml"
first=$(head -n 1 "$TEST_TMP/err")
assert_eq "located error format" "$first" \
  "ash: $cases/unknown-key/input.yaml:5:5: unknown key in 'scanners.bandit'"
assert_eq "a config error is one line" "$(wc -l < "$TEST_TMP/err")" 1

# A file that was asked for and is missing: --config and ASH_CONFIG.
run_ash config validate --config "$TEST_TMP/nope.yaml"
assert_eq "missing --config exits 3" "$status" 3
assert_file_contains "missing --config is named" "$TEST_TMP/err" \
  "ash: $TEST_TMP/nope.yaml: cannot open the configuration file: No such file or directory"
env ASH_CONFIG="$TEST_TMP/gone.yaml" "$ASH" scan --source-dir "$TEST_TMP" \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
status=$?
assert_eq "missing ASH_CONFIG exits 3" "$status" 3
assert_file_contains "missing ASH_CONFIG is named" "$TEST_TMP/err" \
  "$TEST_TMP/gone.yaml: cannot open the configuration file"

# A relative --config is taken from the working directory.
mkdir -p "$TEST_TMP/rel"
printf 'project_name: relative\n' > "$TEST_TMP/rel/my.yaml"
(cd "$TEST_TMP/rel" && "$ASH" config get project_name --config my.yaml) \
  > "$TEST_TMP/out" 2>&1
assert_eq "relative --config" "$(cat "$TEST_TMP/out")" relative

# A discovered file that does not parse is an error too, never a fallback.
mkdir -p "$TEST_TMP/disc/.ash"
printf 'sandbox:\n  mode: [\n' > "$TEST_TMP/disc/.ash/.ash.yaml"
run_ash config get --source-dir "$TEST_TMP/disc"
assert_eq "broken discovered file exits 3" "$status" 3
assert_file_contains "broken discovered file is named" "$TEST_TMP/err" \
  "$TEST_TMP/disc/.ash/.ash.yaml:"
done_testing
