#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A repository's config may extend only files inside its own tree, and no
# configuration error quotes the content of the file it read: a
# .ash/.ash.yaml with "extends: <a root-only file>" (directly, or through a
# link in the tree) is refused, naming the file, line and column, and the
# secret's text appears nowhere in ash's output.  Controls: a base inside
# the tree loads, and an operator's --config (outside every checkout) may
# extend a file anywhere.  Keys and values of a file that is not a
# configuration (a shadow-style line ending in ":", invalid JSON, a bad
# enum value) are never quoted.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"

secret=SECRETHASH$$
repo=$TEST_TMP/repo
mkdir -p "$repo/.git" "$repo/.ash" "$TEST_TMP/etc"
printf 'x = 1\n' >"$repo/app.py"
shadow=$TEST_TMP/etc/shadow
printf 'root:$y$j9T$%s/abc:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n' \
  "$secret" >"$shadow"
chmod 600 "$shadow"

scan () {
  run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out" \
    --scanners bandit --no-progress "$@"
}

# 1. extends: an absolute path outside the tree.
printf 'extends: %s\n' "$shadow" >"$repo/.ash/.ash.yaml"
scan
assert_eq "in-tree extends of an outside file: exit 3" "$status" 3
assert_file_contains "the refusal names the file, line and column" "$TEST_TMP/err" \
  "$repo/.ash/.ash.yaml:1:1: extends: refusing the base configuration $shadow"
assert_file_lacks "the secret is not printed" "$TEST_TMP/err" "$secret"
assert_file_lacks "nor logged on stdout" "$TEST_TMP/out" "$secret"

# 2. extends: a relative path that climbs out of the tree.
printf 'extends: ../../etc/shadow\n' >"$repo/.ash/.ash.yaml"
scan
assert_eq "extends climbing out of the tree: exit 3" "$status" 3
assert_file_contains "refused as outside the tree" "$TEST_TMP/err" "may extend only files inside"

# 3. extends: a link in the tree to the outside file.
ln -s "$shadow" "$repo/base.yaml"
printf 'extends: ../base.yaml\n' >"$repo/.ash/.ash.yaml"
scan
assert_eq "extends through a link leading out: exit 3" "$status" 3
assert_file_contains "refused as outside the tree" "$TEST_TMP/err" "may extend only files inside"
assert_file_lacks "the secret is not printed" "$TEST_TMP/err" "$secret"
rm "$repo/base.yaml"

# Control: a base inside the tree loads.
printf 'fail_on_findings: false\n' >"$repo/base.yaml"
printf 'extends: ../base.yaml\n' >"$repo/.ash/.ash.yaml"
run_ash config get fail_on_findings --source-dir "$repo"
assert_eq "control: a base inside the tree loads" "$status" 0
assert_file_contains "control: and its value applies" "$TEST_TMP/out" "false"
rm "$repo/.ash/.ash.yaml"

# Control: the operator's --config outside every checkout extends anywhere,
# and the shadow file is then reported without its content.
op=$TEST_TMP/op.yaml
printf 'extends: %s\n' "$shadow" >"$op"
run_ash scan --config "$op" --source-dir "$repo" --output-dir "$TEST_TMP/out" \
  --scanners bandit --no-progress
assert_eq "operator's extends of a non-config: exit 3" "$status" 3
assert_file_contains "the error names the base and its position" "$TEST_TMP/err" "$shadow:1:1:"
assert_file_lacks "the key read from it is not quoted" "$TEST_TMP/err" "$secret"
assert_file_lacks "nor its first field" "$TEST_TMP/err" "root:"

# JSON syntax errors do not quote the text near the error.
printf '{"a": %s}\n' "$secret" >"$TEST_TMP/bad.json"
run_ash scan --config "$TEST_TMP/bad.json" --source-dir "$repo" \
  --output-dir "$TEST_TMP/out" --scanners bandit --no-progress
assert_eq "invalid JSON: exit 3" "$status" 3
assert_file_contains "JSON error with its position" "$TEST_TMP/err" "bad.json:1:"
assert_file_lacks "JSON error without the text" "$TEST_TMP/err" "$secret"

# A bad enum value is not quoted.
printf 'sandbox:\n  mode: %s\n' "$secret" >"$TEST_TMP/enum.yaml"
run_ash scan --config "$TEST_TMP/enum.yaml" --source-dir "$repo" \
  --output-dir "$TEST_TMP/out" --scanners bandit --no-progress
assert_eq "bad enum: exit 3" "$status" 3
assert_file_contains "bad enum names the key" "$TEST_TMP/err" "enum.yaml:2:3: 'sandbox.mode' must be one of"
assert_file_lacks "bad enum does not quote the value" "$TEST_TMP/err" "$secret"

# !ENV errors do not quote the value.
printf 'project_name: !ENV "${%s"\n' "$secret" >"$TEST_TMP/env.yaml"
run_ash scan --config "$TEST_TMP/env.yaml" --source-dir "$repo" \
  --output-dir "$TEST_TMP/out" --scanners bandit --no-progress
assert_eq "bad !ENV: exit 3" "$status" 3
assert_file_lacks "bad !ENV does not quote the value" "$TEST_TMP/err" "$secret"

done_testing
