#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A config that was asked for (--config, ASH_CONFIG, discovery) and cannot
# be loaded stops the scan with exit 3: it never runs with the defaults,
# whose sandbox mode is off.
. "$top_srcdir/tests/libtest.sh"

src=$TEST_TMP/src
mkdir -p "$src/.ash"
printf 'x = 1\n' > "$src/app.py"
printf 'project_name: ok\n' > "$TEST_TMP/good.yaml"

run_ash config validate --config "$TEST_TMP/good.yaml" --source-dir "$src"
if [ "$status" -ne 0 ]; then
  skip_all "ash cannot load a configuration yet (config validate exits $status)"
fi

unset ASH_CONFIG

# --config names a missing file.
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/o1" \
  --config "$TEST_TMP/missing.yaml" --sandbox off
assert_eq "--config naming a missing file exits 3" "$status" 3
check_fails "nothing was scanned for a missing --config" \
  test -e "$TEST_TMP/o1/ash_aggregated_results.json"

# ASH_CONFIG names a missing file.
ASH_CONFIG=$TEST_TMP/missing.yaml run_ash scan --source-dir "$src" \
  --output-dir "$TEST_TMP/o2"
assert_eq "ASH_CONFIG naming a missing file exits 3" "$status" 3

# A discovered config that does not parse.  It asks for a sandbox: running
# with the defaults instead would run the scanners unsandboxed.
printf 'sandbox:\n  mode: bwrap\n  network_scanners: [a\n' > "$src/.ash/.ash.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/o3"
assert_eq "a discovered config that does not parse exits 3" "$status" 3
assert_file_contains "the error names the file" "$TEST_TMP/err" ".ash.yaml"
check_fails "nothing was scanned for a broken discovered config" \
  test -e "$TEST_TMP/o3/ash_aggregated_results.json"

# An --config whose extends base is missing.
printf 'extends: %s\n' "$TEST_TMP/nobase.yaml" > "$TEST_TMP/ext.yaml"
rm -f "$src/.ash/.ash.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/o4" \
  --config "$TEST_TMP/ext.yaml"
assert_eq "a missing extends base exits 3" "$status" 3

# Negative control: the same scan with a config that loads does not exit 3.
run_ash config validate --config "$TEST_TMP/good.yaml" --source-dir "$src"
assert_eq "the control config loads" "$status" 0

done_testing
