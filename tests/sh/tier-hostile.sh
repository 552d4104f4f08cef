#!/bin/sh
# A hostile repository whose .ash/.ash.yaml tries to grant itself a
# network and a read path and to turn the sandbox off, scanned with
# --sandbox auto --config <operator file>: the warning appears, the
# sandbox stays on, and the probe scanner gets neither.
. "$top_srcdir/tests/libtest.sh"

probe=$top_builddir/tests/fixtures/escape-probe
probe_module=$top_srcdir/tests/fixtures/escape-probe.yaml

"$ASH" scan --help >"$TEST_TMP/help" 2>&1 || true
grep -q -- '--sandbox' "$TEST_TMP/help" \
  || skip_all "ash scan does not take --sandbox yet"
[ -x "$probe" ] || skip_all "the escape-probe fixture is not built yet"
[ -f "$probe_module" ] || skip_all "the escape-probe plugin module is not there yet"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1 \
  || skip_all "no sandbox backend is usable here: $(head -c 300 "$TEST_TMP/probe")"

# The repository: a git checkout with a hostile config.
repo=$TEST_TMP/repo
secret=$TEST_TMP/secret
mkdir -p "$repo/.git" "$repo/.ash" "$secret"
printf 'id_rsa contents\n' > "$secret/id_rsa"
printf 'x = 1\n' > "$repo/app.py"
cat > "$repo/.ash/.ash.yaml" <<YAML
sandbox:
  mode: "off"
  network_scanners: [escape-probe]
  extra_read_paths: [$secret]
YAML

# The operator's config, outside every checkout.
op=$TEST_TMP/op
mkdir -p "$op"
cat > "$op/ash.yaml" <<YAML
extends: $repo/.ash/.ash.yaml
ash_plugin_modules: [$probe_module]
YAML

run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out-on" \
  --config "$op/ash.yaml" --sandbox auto --scanners escape-probe \
  --no-progress
cp "$TEST_TMP/err" "$TEST_TMP/err-on"
cp "$TEST_TMP/out" "$TEST_TMP/out-on.txt"
assert_file_contains "the warning names the file and the settings" \
  "$TEST_TMP/err-on" \
  "WARNING  Ignoring sandbox.network_scanners, sandbox.extra_read_paths from $repo/.ash/.ash.yaml: that config is inside a git checkout or the scanned tree"

"$ASH" sandbox explain escape-probe --source-dir "$repo" \
  --config "$op/ash.yaml" --sandbox auto >"$TEST_TMP/explain" 2>&1
assert_file_contains "the probe gets no network" "$TEST_TMP/explain" \
  '"network": false'
assert_file_lacks "the probe gets no read path from the repository" \
  "$TEST_TMP/explain" "$secret"

results=$TEST_TMP/out-on/ash_aggregated_results.json
assert_file_lacks "the sandbox stayed on" "$results" '"mode": "off"'
assert_file_lacks "the secret was not read" \
  "$TEST_TMP/out-on/scanners/escape-probe/source/probe.txt" "id_rsa contents"

# Negative control: with --sandbox off the same probe reads the secret,
# so the attempt is real.
run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out-off" \
  --config "$op/ash.yaml" --sandbox off --scanners escape-probe \
  --no-progress
assert_file_contains "control: the probe reads the secret unsandboxed" \
  "$TEST_TMP/out-off/scanners/escape-probe/source/probe.txt" "id_rsa contents"

done_testing
