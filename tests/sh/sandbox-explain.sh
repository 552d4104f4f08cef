# SPDX-License-Identifier: Apache-2.0
# `ash sandbox explain bandit` on this machine: bandit's Python prefix
# read-only, no home, no network, a filtered environment.
. "$top_srcdir/tests/libtest.sh"

[ -x /usr/bin/bandit ] || skip_all "bandit is not installed in /usr/bin"
command -v jq >/dev/null || skip_all "jq is not installed"

mkdir -p "$TEST_TMP/home/.ssh" "$TEST_TMP/src"
echo key >"$TEST_TMP/home/.ssh/id_rsa"
cd "$TEST_TMP/src" || bail "cd"

# The same environment for explain and for the scan it is compared with.
with_env () {
  env -u ASH_PLUGIN_PATH -u ASH_PLUGIN_MODULES -u ASH_CONFIG \
    -u ASH_SANDBOX -u ASH_OFFLINE -u ASH_OUTPUT_DIR -u ASH_SOURCE_DIR \
    -u GRYPE_DB_CACHE_DIR -u XDG_CACHE_HOME \
    HOME="$TEST_TMP/home" PATH=/usr/bin:/bin \
    MY_API_TOKEN=tok-value-123 AWS_SECRET_ACCESS_KEY=aws-value-456 \
    SSH_AUTH_SOCK=/run/agent LANG=C.UTF-8 MYTOOL_LEVEL=3 "$@"
}

explain () {
  with_env "$ASH" sandbox explain "$@" --source-dir "$TEST_TMP/src" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

explain bandit
assert_eq "explain exits 0" "$status" 0
assert_eq "the output is JSON" "$(jq -r .scanner "$TEST_TMP/out")" bandit
rule=$(jq -r '.paths[] | select(.path == "/usr") | .access + " " + .rule' "$TEST_TMP/out")
case $rule in
  "read "*"install prefix of the interpreter /usr/bin/python3"*)
    ok "bandit's Python prefix /usr is read-only" ;;
  *) not_ok "bandit's Python prefix /usr is read-only"; diag "got: $rule" ;;
esac
assert_eq "no network" "$(jq -r .network "$TEST_TMP/out")" false
assert_eq "no refusal" "$(jq -r .refusal "$TEST_TMP/out")" null
assert_eq "the home is not mounted" \
  "$(jq -r --arg h "$TEST_TMP/home" '[.paths[] | select(.path | startswith($h))] | length' "$TEST_TMP/out")" 0
assert_eq "the source tree is data" \
  "$(jq -r --arg s "$TEST_TMP/src" '.paths[] | select(.path == $s) | .access' "$TEST_TMP/out")" data
assert_eq "LANG and PATH are passed" \
  "$(jq -r '[.env[] | select(. == "LANG" or . == "PATH")] | length' "$TEST_TMP/out")" 2
for v in MY_API_TOKEN AWS_SECRET_ACCESS_KEY SSH_AUTH_SOCK HOME; do
  assert_eq "$v is dropped" \
    "$(jq -r --arg v "$v" '[.dropped[] | select(.name == $v)] | length' "$TEST_TMP/out")" 1
done
assert_file_lacks "no dropped value is shown" "$TEST_TMP/out" tok-value-123
assert_file_lacks "no dropped value is shown (aws)" "$TEST_TMP/out" aws-value-456

# The control: a grant from the operator gives bandit a network, and
# --offline takes it away again.
explain bandit --config-overrides 'sandbox.network_scanners=[bandit]'
assert_eq "network_scanners grants a network" "$(jq -r .network "$TEST_TMP/out")" true
explain bandit --offline --config-overrides 'sandbox.network_scanners=[bandit]'
assert_eq "--offline takes it away" "$(jq -r .network "$TEST_TMP/out")" false

# Unknown names are an error naming the scanner, not the strictest
# default with a warning.
explain no-such-scanner
assert_eq "an unknown scanner exits 1" "$status" 1
assert_file_contains "the error names the scanner" "$TEST_TMP/err" \
  "unknown scanner 'no-such-scanner'"
assert_file_contains "the error lists the known names" "$TEST_TMP/err" \
  "known: bandit"
check_fails "nothing is printed for an unknown scanner" test -s "$TEST_TMP/out"

# A plugin scanner: unknown until its module is loaded, then its declared
# requirements make the policy.
cat >"$TEST_TMP/my-plugin.yaml" <<'YAML'
scanners:
  my-scanner:
    tool: bandit
    args: ["-f", "sarif", "-o", "{results_dir}/out.sarif", "-r", "{target}"]
    output: { format: sarif, path: "{results_dir}/out.sarif" }
    sandbox_requirements:
      network: true
      env_prefixes: [MYTOOL_]
YAML
explain my-scanner
assert_eq "a plugin scanner without its module exits 1" "$status" 1
assert_file_contains "the error names it" "$TEST_TMP/err" \
  "unknown scanner 'my-scanner'"
explain my-scanner --ash-plugin-modules "$TEST_TMP/my-plugin.yaml"
assert_eq "with --ash-plugin-modules it is explained" "$status" 0
assert_eq "its declared network shows" "$(jq -r .network "$TEST_TMP/out")" true
assert_eq "its declared prefix passes MYTOOL_LEVEL" \
  "$(jq -r '[.env[] | select(. == "MYTOOL_LEVEL")] | length' "$TEST_TMP/out")" 1
assert_eq "its requirements are the module's" \
  "$(jq -r '.requirements.env_prefixes[0]' "$TEST_TMP/out")" MYTOOL_
explain bandit
assert_eq "bandit does not get MYTOOL_LEVEL" \
  "$(jq -r '[.env[] | select(. == "MYTOOL_LEVEL")] | length' "$TEST_TMP/out")" 0
# The module named by the operator's --config, as the scan loads it.
printf 'ash_plugin_modules: [%s]\n' "$TEST_TMP/my-plugin.yaml" \
  >"$TEST_TMP/ops.yaml"
explain my-scanner --config "$TEST_TMP/ops.yaml"
assert_eq "a module named by --config loads" "$status" 0
assert_eq "and its network shows" "$(jq -r .network "$TEST_TMP/out")" true

# --output-dir moves the results directory.
explain bandit --output-dir "$TEST_TMP/elsewhere"
assert_eq "--output-dir moves the results directory" \
  "$(jq -r .results_dir "$TEST_TMP/out")" "$TEST_TMP/elsewhere/scanners/bandit/source"

# Without --sandbox the mode is off and no backend enforces the policy.
explain bandit
assert_eq "the default mode is off" "$(jq -r .mode "$TEST_TMP/out")" off
assert_eq "no backend with the sandbox off" "$(jq -r .backend "$TEST_TMP/out")" null
assert_file_contains "it says why" "$TEST_TMP/out" '"backend_reason": "the sandbox is off'
assert_file_contains "the per-run config directory is explained" \
  "$TEST_TMP/out" '"run_config_dir": '

# --sandbox: the backend that would enforce it, from the same probe the
# scan uses.
with_env "$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
if grep -q '^bwrap: usable' "$TEST_TMP/probe"; then
  explain bandit --sandbox bwrap
  assert_eq "--sandbox bwrap: mode" "$(jq -r .mode "$TEST_TMP/out")" bwrap
  assert_eq "--sandbox bwrap: backend" "$(jq -r .backend "$TEST_TMP/out")" bwrap
  assert_eq "--sandbox bwrap: no reason" "$(jq -r .backend_reason "$TEST_TMP/out")" null
  # The config's mode counts as --sandbox does.
  printf 'sandbox:\n  mode: bwrap\n' >"$TEST_TMP/mode.yaml"
  explain bandit --config "$TEST_TMP/mode.yaml"
  assert_eq "the config's sandbox.mode selects the backend" \
    "$(jq -r .mode,.backend "$TEST_TMP/out" | tr '\n' ' ')" "bwrap bwrap "

  # The scan's record and explain's output agree for the same options.
  printf 'import subprocess\nsubprocess.call("ls", shell=True)\n' \
    >"$TEST_TMP/src/a.py"
  with_env "$ASH" scan --scanners bandit --sandbox auto --no-progress \
    --source-dir "$TEST_TMP/src" --output-dir "$TEST_TMP/scan-out" \
    >"$TEST_TMP/scan.log" 2>&1
  # A backend that shows the host hides the output directory entry by
  # entry, as it was when the scanner started: the aggregated results and
  # the reports are written after that, so explain runs without them.
  mv "$TEST_TMP/scan-out/ash_aggregated_results.json" "$TEST_TMP/agg.json"
  rm -rf "$TEST_TMP/scan-out/reports"
  explain bandit --sandbox auto --output-dir "$TEST_TMP/scan-out"
  mv "$TEST_TMP/agg.json" "$TEST_TMP/scan-out/ash_aggregated_results.json"
  assert_eq "the scan's record holds the run's config directory, read-only" \
    "$(jq -r '[.scanner_results.bandit.sandbox.paths[]
               | select(.rule == "scanner run'"'"'s config directory")
               | .access] | join(",")' \
       "$TEST_TMP/scan-out/ash_aggregated_results.json")" read
  # The per-run config directory has a random name: the scan's record
  # holds it as a path, explain describes it under run_config_dir.
  # The record also names the settings the scanner's adapter adds over
  # the decided environment, which explain does not: bandit's adds none.
  assert_eq "bandit's record names no adapter setting" \
    "$(jq -c .scanner_results.bandit.sandbox.adapter_env "$TEST_TMP/scan-out/ash_aggregated_results.json")" "[]"
  # A backend that shows the host shows it again under /tmp: left out of
  # "show" as well.
  jq -S '.scanner_results.bandit.sandbox | del(.adapter_env)
         | ([.paths[] | select(.rule == "scanner run'"'"'s config directory")
             | .path]) as $rcd
         | .paths |= map(select(.rule != "scanner run'"'"'s config directory"))
         | .show |= map(select(. as $s | $rcd | index($s) | not))' \
    "$TEST_TMP/scan-out/ash_aggregated_results.json" >"$TEST_TMP/scan.json"
  # The results count what explain lists by name (the operator's
  # environment variables the scanner was not given, the PATH entries it
  # was not shown): the results are often published.
  jq -S 'del(.backend_reason, .run_config_dir, .tool, .requirements)
         | .dropped_count = (.dropped | length)
         | .skipped_count = (.skipped | length)
         | del(.dropped, .skipped)' \
    "$TEST_TMP/out" >"$TEST_TMP/explain.json"
  assert_eq "the scan recorded a backend" "$(jq -r .backend "$TEST_TMP/scan.json")" \
    "$(jq -r .backend "$TEST_TMP/explain.json")"
  if cmp -s "$TEST_TMP/scan.json" "$TEST_TMP/explain.json"; then
    ok "the scan's sandbox record for bandit is what explain prints"
  else
    not_ok "the scan's sandbox record for bandit is what explain prints"
    diag "$(diff "$TEST_TMP/scan.json" "$TEST_TMP/explain.json" | head -20)"
  fi
else
  for i in 1 2 3 4 5 6 7 8; do ok "# SKIP bwrap is not usable here"; done
fi

# A named backend that cannot be used says why, as the scan would.
explain bandit --sandbox sandbox-exec
assert_eq "an unusable backend still explains" "$status" 0
assert_eq "no backend" "$(jq -r .backend "$TEST_TMP/out")" null
assert_file_contains "the reason is the scan's" "$TEST_TMP/out" \
  '"backend_reason": "scanner sandbox unavailable: '

done_testing
