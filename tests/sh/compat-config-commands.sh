#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream's configuration commands: `ash config init` writes
# .ash/.ash.yaml and .ash/.gitignore (or -c PATH) and refuses to overwrite;
# `ash config update --set/--modifications KEY=VALUE [--dry-run]` rewrites
# the file (or only shows it) and refuses what the schema refuses;
# `ash config lint` lists every problem.
. "$top_srcdir/tests/libtest.sh"

unset ASH_CONFIG
proj=$TEST_TMP/my-proj
mkdir -p "$proj"

run_ash config init --source-dir "$proj"
assert_eq "config init: exit 0" "$status" 0
check "config init: .ash/.ash.yaml" test -s "$proj/.ash/.ash.yaml"
assert_file_contains "config init: .ash/.gitignore ignores the output" "$proj/.ash/.gitignore" "ash_output*"
assert_file_contains "config init: the project is named after the directory" "$proj/.ash/.ash.yaml" 'project_name: "my-proj"'
run_ash config get project_name --source-dir "$proj"
assert_eq "config init: the file is the one discovered" "$(cat "$TEST_TMP/out")" "my-proj"
printf 'keep\n' >"$proj/.ash/.gitignore"
run_ash config init --source-dir "$proj"
assert_eq "config init: an existing file is not overwritten (exit 3)" "$status" 3
run_ash config init --source-dir "$proj" --force
assert_eq "config init --force: exit 0" "$status" 0
assert_eq "config init --force: an existing .gitignore is kept" "$(cat "$proj/.ash/.gitignore")" keep
run_ash config init --source-dir "$proj" -c "$TEST_TMP/elsewhere/conf.yaml"
assert_eq "config init -c PATH: exit 0" "$status" 0
check "config init -c PATH: written there" test -s "$TEST_TMP/elsewhere/conf.yaml"
check "config init -c PATH: no .gitignore outside .ash" test ! -e "$TEST_TMP/elsewhere/.gitignore"
mkdir -p "$TEST_TMP/victim" "$TEST_TMP/linked"
ln -s "$TEST_TMP/victim" "$TEST_TMP/linked/.ash"
run_ash config init --source-dir "$TEST_TMP/linked"
check "config init: a linked .ash is refused" test "$status" -ne 0
check "config init: nothing written through the link" test ! -e "$TEST_TMP/victim/.ash.yaml"

# config update.
conf=$proj/.ash/.ash.yaml
printf '# yaml-language-server: $schema=AshConfig.json\nproject_name: p\n' >"$conf"
run_ash config update --source-dir "$proj" --set global_settings.severity_threshold=LOW --dry-run
assert_eq "config update --dry-run: exit 0" "$status" 0
assert_file_contains "config update --dry-run: shows the result" "$TEST_TMP/out" "severity_threshold: LOW"
assert_file_lacks "config update --dry-run: the file is unchanged" "$conf" "LOW"
run_ash config update --source-dir "$proj" --set global_settings.severity_threshold=LOW \
  --modifications 'scanners.bandit.enabled=false' --modifications 'global_settings.ignore_paths+=[{"path": "x", "reason": "y"}]'
assert_eq "config update: exit 0" "$status" 0
run_ash config get --source-dir "$proj" --format json
assert_eq "config update: the values are written" "$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
print(c["global_settings"]["severity_threshold"], c["scanners"]["bandit"]["enabled"], c["global_settings"]["ignore_paths"])' "$TEST_TMP/out")" \
  "LOW False [{'path': 'x', 'reason': 'y'}]"
assert_eq "config update: the schema line is kept" "$(head -n 1 "$conf")" '# yaml-language-server: $schema=AshConfig.json'
cp "$conf" "$TEST_TMP/before"
run_ash config update --source-dir "$proj" --set global_settings.severity_threshold=SEVERE
assert_eq "config update: a value the schema refuses: exit 3" "$status" 3
check "config update: ... and the file is unchanged" cmp -s "$conf" "$TEST_TMP/before"
run_ash config update "$conf" --set nosuch=1
assert_eq "config update FILE: an unknown key: exit 3" "$status" 3
printf 'project_name: !ENV ${HOME}\n' >"$TEST_TMP/env.yaml"
run_ash config update "$TEST_TMP/env.yaml" --set fail_on_findings=false
assert_eq "config update: a file with !ENV is refused" "$status" 3
assert_file_contains "config update: ... it is unchanged" "$TEST_TMP/env.yaml" '!ENV ${HOME}'
run_ash config update --source-dir "$TEST_TMP/elsewhere/none" --set a=1
assert_eq "config update: no file: exit 3" "$status" 3

# config lint.
run_ash config lint --source-dir "$proj"
assert_eq "config lint: a clean file: exit 0" "$status" 0
printf 'scanners:\n  bandit:\n    severity_threshold: LOW\n' >"$conf"
run_ash config lint --source-dir "$proj"
assert_eq "config lint: a warning: exit 1" "$status" 1
assert_file_contains "config lint: names it" "$TEST_TMP/out" "it belongs in scanners.bandit.options.severity_threshold"
printf 'scanners:\n  bandit:\n    enable: true\n' >"$conf"
run_ash config lint --source-dir "$proj"
assert_eq "config lint: an error: exit 3" "$status" 3
run_ash config lint --fix
assert_eq "config lint --fix is not accepted (usage error)" "$status" 5

# What the scan refuses, config validate and config lint refuse too: a
# scanner option ash cannot read (a tool_version that is not a version
# constraint).
printf 'scanners:\n  bandit:\n    options:\n      tool_version: "latest"\n' >"$conf"
run_ash scan --source-dir "$proj" --output-dir "$TEST_TMP/tv-out" --scanners bandit --no-progress --sandbox off
assert_eq "control: the scan refuses bandit's tool_version 'latest' (exit 3)" "$status" 3
assert_file_contains "control: ... naming it" "$TEST_TMP/err" "scanners.bandit.options.tool_version: 'latest' is not a version constraint"
run_ash config validate --source-dir "$proj"
assert_eq "config validate: bandit's tool_version 'latest' is a configuration error (exit 3)" "$status" 3
assert_file_contains "config validate: ... naming it" "$TEST_TMP/err" "ash: scanners.bandit.options.tool_version: 'latest' is not a version constraint"
run_ash config lint --source-dir "$proj"
assert_eq "config lint: the same error (exit 3)" "$status" 3
assert_file_contains "config lint: ... naming it" "$TEST_TMP/err" "scanners.bandit.options.tool_version: 'latest' is not a version constraint"
printf 'scanners:\n  bandit:\n    options:\n      tool_version: ">=1.7.0,<2.0.0"\n' >"$conf"
run_ash config validate --source-dir "$proj"
assert_eq "control: upstream's own constraint validates" "$status" 0
printf 'scanners:\n  bandit:\n    options:\n      skips: [B101]\n' >"$conf"
run_ash config validate --source-dir "$proj"
assert_eq "control: a supported bandit option validates" "$status" 0
done_testing
