#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# How the configuration is resolved: discovery order, --config and
# ASH_CONFIG precedence, extends chains, !ENV, overrides, config get/init.
. "$top_srcdir/tests/libtest.sh"

unset ASH_CONFIG ASH_SOURCE_DIR
fx="$top_srcdir/tests/fixtures/config"
get () { "$ASH" config get "$@" 2>"$TEST_TMP/err"; }

# Discovery: every name in the root first, then every name in .ash/.
names=".ashrc.yaml .ash.yml .ash.yaml .ash.json ash.yml ash.yaml ash.json"
src="$TEST_TMP/disc"
mkdir -p "$src/.ash"
for n in $names; do
  case $n in
    *.json) printf '{"project_name": ".ash/%s"}\n' "$n" > "$src/.ash/$n"
            printf '{"project_name": "%s"}\n' "$n" > "$src/$n" ;;
    *) printf 'project_name: .ash/%s\n' "$n" > "$src/.ash/$n"
       printf 'project_name: %s\n' "$n" > "$src/$n" ;;
  esac
done
for n in $names; do
  assert_eq "discovery picks $n in the root" \
    "$(get project_name --source-dir "$src")" "$n"
  rm "$src/$n"
done
for n in $names; do
  assert_eq "then .ash/$n" "$(get project_name --source-dir "$src")" ".ash/$n"
  rm "$src/.ash/$n"
done
assert_eq "no file: the defaults" "$(get project_name --source-dir "$src")" \
  ash-scan
"$ASH" config validate --source-dir "$src" > "$TEST_TMP/out"
assert_file_contains "validate says the defaults apply" "$TEST_TMP/out" \
  "the built-in defaults apply"

# --config beats ASH_CONFIG beats discovery.
printf 'project_name: discovered\n' > "$src/.ash/.ash.yaml"
printf 'project_name: from-env\n' > "$TEST_TMP/env.yaml"
printf 'project_name: from-flag\n' > "$TEST_TMP/flag.yaml"
assert_eq "discovered" "$(get project_name --source-dir "$src")" discovered
assert_eq "ASH_CONFIG beats discovery" \
  "$(ASH_CONFIG="$TEST_TMP/env.yaml" get project_name --source-dir "$src")" \
  from-env
assert_eq "--config beats ASH_CONFIG" \
  "$(ASH_CONFIG="$TEST_TMP/env.yaml" get project_name --source-dir "$src" \
     -c "$TEST_TMP/flag.yaml")" from-flag
assert_eq "ASH_SOURCE_DIR is the source directory" \
  "$(ASH_SOURCE_DIR="$src" get project_name)" discovered

# extends: a chain, relative to the file naming it; the file wins.
get --config "$fx/extends/project.yaml" --format json > "$TEST_TMP/x.json"
assert_file_contains "extends: the file's own value" "$TEST_TMP/x.json" \
  '"mode": "bwrap"'
assert_file_contains "extends: the nearer base beats the farther" \
  "$TEST_TMP/x.json" '"project_name": "team"'
assert_file_contains "extends: the farthest base still counts" \
  "$TEST_TMP/x.json" '"scan_timeout": 900'
assert_file_contains "extends: a base value not overridden" \
  "$TEST_TMP/x.json" '"fail_on_findings": false'
assert_file_lacks "extends is consumed" "$TEST_TMP/x.json" '"extends"'
"$ASH" config validate --config "$fx/extends/project.yaml" > "$TEST_TMP/out"
assert_file_contains "validate lists the chain" "$TEST_TMP/out" \
  "extends $fx/extends/team/org.yaml"

# An extends cycle names the files.
printf 'extends: b.yaml\n' > "$TEST_TMP/a.yaml"
printf 'extends: a.yaml\n' > "$TEST_TMP/b.yaml"
run_ash config get --config "$TEST_TMP/a.yaml"
assert_eq "extends cycle exits 3" "$status" 3
assert_file_contains "extends cycle names the files" "$TEST_TMP/err" \
  "ash: $TEST_TMP/b.yaml:1:1: extends: cycle: $TEST_TMP/a.yaml -> $TEST_TMP/b.yaml -> $TEST_TMP/a.yaml"

# !ENV with and without a default.
printf 'project_name: !ENV ${ASH_T_NAME}\nfail_on_findings: !ENV ${ASH_T_FAIL:true}\n' \
  > "$TEST_TMP/env-tag.yaml"
assert_eq "!ENV reads the variable" \
  "$(ASH_T_NAME=hello get project_name -c "$TEST_TMP/env-tag.yaml")" hello
assert_eq "!ENV default when unset" \
  "$(ASH_T_NAME=x get fail_on_findings -c "$TEST_TMP/env-tag.yaml")" true
assert_eq "!ENV variable beats the default" \
  "$(ASH_T_NAME=x ASH_T_FAIL=false get fail_on_findings -c "$TEST_TMP/env-tag.yaml")" \
  false
unset ASH_T_NAME
run_ash config get -c "$TEST_TMP/env-tag.yaml"
assert_eq "!ENV without default and unset exits 3" "$status" 3
assert_file_contains "!ENV names the variable" "$TEST_TMP/err" \
  "env-tag.yaml:1:15: !ENV: environment variable 'ASH_T_NAME' is not set"

# Overrides: each value type, append, order.
ov () { get "$1" --format json --source-dir "$src" --config-overrides "$2"; }
assert_eq "override: JSON object" \
  "$(ov scanners.bandit.options 'scanners.bandit.options={"x": 1}' | tr -d ' \n')" \
  '{"x":1}'
assert_eq "override: naive list" \
  "$(ov sandbox.network_scanners 'sandbox.network_scanners=[grype, trivy-repo]' | tr -d ' \n')" \
  '["grype","trivy-repo"]'
assert_eq "override: bool" "$(ov fail_on_findings fail_on_findings=FALSE)" false
ov project_name project_name=null > /dev/null
assert_eq "override: null (no key takes null: an error naming it)" "$?" 3
assert_file_contains "override: null is parsed as null" "$TEST_TMP/err" \
  "ash: invalid configuration override 'project_name=null': 'project_name' must be a string, not null"
assert_eq "override: int" \
  "$(ov scanners.grype.options.scan_timeout scanners.grype.options.scan_timeout=30)" 30
assert_eq "override: float" \
  "$(ov scanners.grype.options.ratio scanners.grype.options.ratio=0.5)" 0.5
assert_eq "override: string" "$(ov project_name project_name=demo)" '"demo"'
assert_eq "override: append" \
  "$(get sandbox.extra_read_paths --format json -c "$fx/extends/project.yaml" \
      --config-overrides 'sandbox.extra_read_paths=[/a]' \
      --config-overrides 'sandbox.extra_read_paths+=[/b, /c]' \
      --config-overrides 'sandbox.extra_read_paths+=/d' | tr -d ' \n')" \
  '["/a","/b","/c","/d"]'
assert_eq "overrides apply in order, after the file" \
  "$(get sandbox.mode -c "$fx/extends/project.yaml" \
      --config-overrides sandbox.mode=landlock \
      --config-overrides sandbox.mode=off)" '"off"'

# config get: YAML and JSON agree; a missing key.
get --source-dir "$src" > "$TEST_TMP/all.yaml"
assert_file_contains "YAML output" "$TEST_TMP/all.yaml" "fail_on_incomplete_scanners: true"
run_ash config get no.such.key --source-dir "$src"
assert_eq "config get of a missing key fails" "$status" 1
assert_file_contains "and says so" "$TEST_TMP/err" "has no key 'no.such.key'"
run_ash config get --format xml
assert_eq "config get --format xml is a usage error" "$status" 5

# config init: a commented file that validates; refuses to overwrite.
init="$TEST_TMP/init"
mkdir -p "$init"
run_ash config init --source-dir "$init"
assert_eq "config init exits 0" "$status" 0
assert_file_contains "config init writes comments" "$init/.ash/.ash.yaml" "# "
run_ash config validate --source-dir "$init"
assert_eq "the written file validates" "$status" 0
assert_file_contains "and is the one found" "$TEST_TMP/out" "$init/.ash/.ash.yaml"
printf 'project_name: mine\n' > "$init/.ash/.ash.yaml"
run_ash config init --source-dir "$init"
assert_eq "config init refuses to overwrite (exit 3)" "$status" 3
assert_file_contains "and says how" "$TEST_TMP/err" "pass --force"
assert_file_contains "the file is untouched" "$init/.ash/.ash.yaml" "project_name: mine"
run_ash config init --source-dir "$init" --force
assert_eq "config init --force replaces it" "$status" 0
assert_file_lacks "replaced" "$init/.ash/.ash.yaml" "project_name: mine"
done_testing
