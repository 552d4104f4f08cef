#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash config get --explain-tiers names each contributing file, its tier and
# the reason.
. "$top_srcdir/tests/libtest.sh"

repo=$TEST_TMP/repo
mkdir -p "$repo/.git" "$repo/.ash"
printf 'sandbox:\n  network_scanners: [bandit]\n' > "$repo/.ash/.ash.yaml"
operator=$TEST_TMP/operator.yaml
printf 'sandbox:\n  mode: bwrap\n' > "$operator"

run_ash config get --explain-tiers --source-dir "$repo"
assert_eq "explain-tiers exits 0" "$status" 0
assert_file_contains "the discovered file is named" "$TEST_TMP/out" "$repo/.ash/.ash.yaml"
assert_file_contains "it may not grant" "$TEST_TMP/out" "repository (may not grant)"
assert_file_contains "the reason names the checkout" "$TEST_TMP/out" "inside the git checkout $repo"

run_ash config get --explain-tiers --format json --source-dir "$repo"
assert_eq "json explain-tiers exits 0" "$status" 0
check "the JSON says the repository file may not grant" \
  python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"]; sys.exit(0 if [x["may_grant"] for x in f if x["origin"]=="discovered"]==[False] else 1)' "$TEST_TMP/out"

# Control: the operator's file outside every checkout may grant.
run_ash config get --explain-tiers --format json --source-dir "$repo" --config "$operator"
check "an operator file outside every checkout may grant" \
  python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"]; sys.exit(0 if [x["may_grant"] for x in f if x["name"]==sys.argv[2]]==[True] else 1)' "$TEST_TMP/out" "$operator"

# The same file moved into a checkout loses the right to grant.
mkdir -p "$TEST_TMP/ops/.git"
cp "$operator" "$TEST_TMP/ops/operator.yaml"
run_ash config get --explain-tiers --source-dir "$repo" --config "$TEST_TMP/ops/operator.yaml"
assert_file_contains "an operator file in a checkout may not grant" "$TEST_TMP/out" "inside the git checkout $TEST_TMP/ops"
done_testing
