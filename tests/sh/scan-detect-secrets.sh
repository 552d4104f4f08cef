#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# detect-secrets end to end through the fake detect-secrets (tests/
# fixtures/tools/fake-detect-secrets: detect-secrets' "scan" command line
# and its baseline report): the findings are the same with --sandbox off
# and under every usable backend; the baseline rules of the spec hold (the
# verification filter removed from an in-tree baseline and offline; no
# verification without a network, with the warning naming the setting); a
# baseline that is not JSON, and a broken report, make detect-secrets
# ERROR naming the file; no planted secret, nor the escape sequences in
# one, reaches any file below the output directory.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/secrets
cp -R "$top_srcdir/tests/fixtures/repos/secrets" "$src"
# A secret holding terminal escape sequences.
printf 'db_password = "\033]0;owned\007hunter2\033[2Jsecret"\n' >"$src/app/db.py"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-detect-secrets" "$tools/detect-secrets"
chmod 755 "$tools/detect-secrets"
PATH=$tools:$PATH
export PATH
planted="AKIAZZPLANTED2TEST7Q AKIAZZPLANTED3LEGACY ghp_PLANTEDtoken0123456789abcdefghijklmn hunter2"

cat >"$TEST_TMP/conf.yaml" <<'EOF2'
global_settings:
  ignore_paths: [{path: vendor/, reason: third-party code}]
EOF2
findings () { aggregated_findings "$1"; }
no_secret_below () {
  for s in $planted; do
    if grep -rqF -- "$s" "$1"; then
      not_ok "$2: no planted secret below the output directory ($s in $(grep -rlF -- "$s" "$1" | head -3))"
      return
    fi
  done
  if grep -rqP '\x1b' "$1"; then
    not_ok "$2: no escape character below the output directory ($(grep -rlP '\x1b' "$1" | head -3))"
    return
  fi
  ok "$2: no planted secret or escape character below the output directory"
}
want="detect-secrets AWS-Access-Key app/legacy.py 2 CRITICAL
detect-secrets AWS-Access-Key app/settings.py 3 CRITICAL
detect-secrets GitHub-Token docs/notes.txt 2 CRITICAL
detect-secrets Private-Key keys/deploy.pem 1 CRITICAL
detect-secrets Secret-Keyword app/db.py 1 CRITICAL"

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
assert_eq "unsandboxed: findings, exit 2" "$status" 2
assert_eq "unsandboxed: one result per secret" "$(findings "$TEST_TMP/off")" "$want"
no_secret_below "$TEST_TMP/off" "unsandboxed"
check "no escape character on the terminal" sh -c "! grep -qP '\\x1b' '$TEST_TMP/out' '$TEST_TMP/err'"
assert_file_lacks "no 'no adapter' message" "$TEST_TMP/err" "no adapter"
python3 - "$TEST_TMP/off/reports/ash.sarif" >"$TEST_TMP/drv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    drv = run["tool"]["driver"]
    if drv["name"] != "detect-secrets":
        continue
    print("driver", drv["name"], drv.get("version"))
    for r in drv["rules"]:
        print("rule", r["id"], bool(r["help"]["text"]), r["properties"]["security-severity"])
    for x in run["results"]:
        print("uri-absolute", x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("/"))
PY
assert_file_contains "driver name and version from detect-secrets' report" "$TEST_TMP/drv" "driver detect-secrets 1.5.0"
assert_file_contains "rules have help and a critical security-severity" "$TEST_TMP/drv" "rule AWS-Access-Key True 9.5"
assert_file_lacks "no absolute location" "$TEST_TMP/drv" "uri-absolute True"

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
has_backend () { case " $(echo $backends) " in *" $1 "*) return 0 ;; esac; return 1; }
for b in bwrap landlock firejail; do
  if ! has_backend "$b"; then ok "# SKIP $b is not usable here"; continue; fi
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress \
    --sandbox "$b" --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
  assert_eq "$b: exit 2" "$status" 2
  assert_eq "$b: the same findings as unsandboxed" "$(findings "$TEST_TMP/out-$b")" "$want"
  no_secret_below "$TEST_TMP/out-$b" "$b"
done

# An in-tree baseline: its settings are used (only the AWS plugin), its
# verification filter is removed with a warning, its results are not.
cat >"$src/.secrets.baseline" <<'EOF2'
{
  "version": "1.5.0",
  "plugins_used": [{"name": "AWSKeyDetector"}],
  "filters_used": [
    {"path": "detect_secrets.filters.allowlist.is_line_allowlisted"},
    {"path": "detect_secrets.filters.common.is_ignored_due_to_verification_policies", "min_level": 2}
  ],
  "results": {"app/settings.py": [{"type": "AWS Access Key", "filename": "app/settings.py", "hashed_secret": "0", "is_verified": false, "line_number": 3}]}
}
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/base" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
assert_eq "in-tree baseline: exit 2" "$status" 2
assert_eq "in-tree baseline: its plugins only" "$(findings "$TEST_TMP/base")" "detect-secrets AWS-Access-Key app/legacy.py 2 CRITICAL
detect-secrets AWS-Access-Key app/settings.py 3 CRITICAL"
assert_file_contains "in-tree baseline: the verification filter is removed, with a warning" "$TEST_TMP/err" "Removing the detect-secrets verification filter"
assert_file_lacks "in-tree baseline: detect-secrets did not verify" \
  "$TEST_TMP/base/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"
python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))
print([f["path"] for f in b["filters_used"]])' \
  "$TEST_TMP/base/scanners/detect-secrets/source/detect-secrets.baseline.json" >"$TEST_TMP/filters"
assert_file_lacks "the baseline detect-secrets got has no verification filter" "$TEST_TMP/filters" "verification"

# An audited baseline: its labels (is_secret) show in the results, and a
# secret audited as a false positive is still reported, as upstream ASH
# does (a repository cannot hide its own secrets by auditing them); an
# entry for a file that no longer holds the secret is not reported.
sha () { printf '%s' "$1" | sha1sum | cut -d' ' -f1; }
k2=$(grep -o 'AKIA[0-9A-Z]\{16\}' "$src/app/settings.py")
k3=$(grep -o 'AKIA[0-9A-Z]\{16\}' "$src/app/legacy.py")
cat >"$src/.secrets.baseline" <<EOF2
{
  "version": "1.5.0",
  "plugins_used": [{"name": "AWSKeyDetector"}],
  "filters_used": [],
  "results": {
    "app/settings.py": [{"type": "AWS Access Key", "filename": "app/settings.py", "hashed_secret": "$(sha "$k2")", "is_verified": false, "is_secret": false, "line_number": 3}],
    "app/legacy.py": [{"type": "AWS Access Key", "filename": "app/legacy.py", "hashed_secret": "$(sha "$k3")", "is_verified": false, "is_secret": true, "line_number": 2}],
    "gone.py": [{"type": "AWS Access Key", "filename": "gone\u001b]0;x\u0007.py", "hashed_secret": "0", "is_secret": false, "line_number": 9}]
  }
}
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/audit" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
assert_eq "audited baseline: exit 2" "$status" 2
python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(l["artifactLocation"]["uri"], x["properties"].get("is_secret"))' \
  "$TEST_TMP/audit/ash_aggregated_results.json" | sort >"$TEST_TMP/audited"
assert_eq "audited baseline: both secrets reported, with their labels" "$(cat "$TEST_TMP/audited")" \
  "app/legacy.py True
app/settings.py False"
check "audited baseline: the summary counts the false positive too" \
  sh -c "python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"scanner_results\"][\"detect-secrets\"][\"finding_count\"])' '$TEST_TMP/audit/ash_aggregated_results.json' | grep -qx 2"
no_secret_below "$TEST_TMP/audit" "audited baseline"
rm -f "$src/.secrets.baseline"

# An in-tree baseline naming plugins and filters of its own: detect-
# secrets would load and run their code, one file in the tree and one
# outside it (each leaves a mark when run).  ASH removes them with a
# warning; the control is the operator's baseline outside the tree, whose
# plugins run.
mkdir -p "$TEST_TMP/outside"
for w in in out filter; do
  printf 'open("%s/ran-%s", "w").write("x")\n' "$TEST_TMP" "$w" >"$TEST_TMP/outside/$w.py"
done
cp "$TEST_TMP/outside/in.py" "$src/in_tree_plugin.py"
cat >"$TEST_TMP/code.baseline" <<EOF2
{
  "version": "1.5.0",
  "plugins_used": [
    {"name": "AWSKeyDetector"},
    {"name": "TreeDetector", "path": "file://./in_tree_plugin.py"},
    {"name": "OutDetector", "path": "file://$TEST_TMP/outside/out.py"}
  ],
  "filters_used": [
    {"path": "file://$TEST_TMP/outside/filter.py::f"}
  ],
  "results": {}
}
EOF2
cp "$TEST_TMP/code.baseline" "$src/.secrets.baseline"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/code" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
assert_eq "in-tree baseline with plugins of its own: exit 2" "$status" 2
for w in in out filter; do
  check_fails "in-tree baseline: its $w plugin's code did not run" test -e "$TEST_TMP/ran-$w"
done
assert_file_contains "in-tree baseline: the warning names what was not loaded" "$TEST_TMP/err" \
  "Not loading the detect-secrets plugins and filters 'file://./in_tree_plugin.py', 'file://$TEST_TMP/outside/out.py', 'file://$TEST_TMP/outside/filter.py::f' from"
assert_eq "in-tree baseline: its own detector list still applies" "$(findings "$TEST_TMP/code")" \
  "detect-secrets AWS-Access-Key app/legacy.py 2 CRITICAL
detect-secrets AWS-Access-Key app/settings.py 3 CRITICAL"
rm -f "$src/.secrets.baseline"
cat >"$TEST_TMP/ops-code.yaml" <<EOF2
global_settings:
  ignore_paths: [{path: vendor/, reason: third-party code}]
scanners:
  detect-secrets:
    options:
      baseline_file: $TEST_TMP/code.baseline
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/code-ops" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/ops-code.yaml"
check "the operator's baseline: its plugin outside the tree runs (control)" test -e "$TEST_TMP/ran-out"
check "the operator's baseline: its filter runs (control)" test -e "$TEST_TMP/ran-filter"
rm -f "$TEST_TMP"/ran-*

# The same plugins from a config the repository wrote (inside a git
# checkout): removed; and a repository's baseline that lists no plugin at
# all does not turn detect-secrets off.
mkdir -p "$src/.git" "$src/.ash"
cat >"$src/.ash/.ash.yaml" <<EOF2
scanners:
  detect-secrets:
    options:
      scan_settings:
        plugins_used:
          - {name: GitHubTokenDetector}
          - {name: OutDetector, path: "file://$TEST_TMP/outside/out.py"}
        filters_used:
          - {path: "file://$TEST_TMP/outside/filter.py::f"}
          - {path: detect_secrets.filters.common.is_ignored_due_to_verification_policies, min_level: 2}
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/code-cfg" --no-progress \
  --sandbox off --scanners detect-secrets
assert_eq "repository config with plugins of its own: exit 2" "$status" 2
check_fails "repository config: its plugin's code did not run" test -e "$TEST_TMP/ran-out"
check_fails "repository config: its filter's code did not run" test -e "$TEST_TMP/ran-filter"
assert_file_contains "repository config: the warning names the plugin" "$TEST_TMP/err" "'file://$TEST_TMP/outside/out.py'"
assert_file_contains "repository config: its verification filter is removed" "$TEST_TMP/err" "Removing the detect-secrets verification filter"
assert_file_lacks "repository config: detect-secrets did not verify" \
  "$TEST_TMP/code-cfg/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"
assert_eq "repository config: its detector list applies" "$(findings "$TEST_TMP/code-cfg")" \
  "detect-secrets GitHub-Token docs/notes.txt 2 CRITICAL
detect-secrets GitHub-Token vendor/bundle.txt 1 CRITICAL"
rm -rf "$src/.git" "$src/.ash" "$src/in_tree_plugin.py"
printf '{"version": "1.5.0", "plugins_used": [], "filters_used": [], "results": {}}\n' >"$src/.secrets.baseline"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/noplug" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
assert_eq "in-tree baseline listing no plugin: every default plugin runs" "$(findings "$TEST_TMP/noplug")" "$want"
rm -f "$src/.secrets.baseline"

# A baseline that is not JSON: ERROR naming it.
echo '{"plugins_used": [' >"$src/.secrets.baseline"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/badbase" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/conf.yaml"
assert_eq "baseline not JSON: exit 1" "$status" 1
assert_file_contains "baseline not JSON: the reason names it" "$TEST_TMP/badbase/ash_aggregated_results.json" ".secrets.baseline"
rm -f "$src/.secrets.baseline"

# The operator's settings verify; under a sandbox without a network
# detect-secrets cannot: --no-verify, and the warning names the setting.
cat >"$TEST_TMP/verify.yaml" <<'EOF2'
global_settings:
  ignore_paths: [{path: vendor/, reason: third-party code}]
scanners:
  detect-secrets:
    options:
      scan_settings:
        plugins_used: [{name: GitHubTokenDetector}]
        filters_used:
          - path: detect_secrets.filters.common.is_ignored_due_to_verification_policies
            min_level: 2
EOF2
if has_backend bwrap; then
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/verify" --no-progress \
    --sandbox bwrap --scanners detect-secrets --config "$TEST_TMP/verify.yaml"
  assert_eq "bwrap, verifying settings: exit 2" "$status" 2
  assert_eq "bwrap: the operator's plugins" "$(findings "$TEST_TMP/verify")" "detect-secrets GitHub-Token docs/notes.txt 2 CRITICAL"
  assert_file_contains "bwrap: the warning names sandbox.network_scanners" "$TEST_TMP/err" "Name detect-secrets in sandbox.network_scanners"
  assert_file_lacks "bwrap: no verification attempted" \
    "$TEST_TMP/verify/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"
else
  ok "# SKIP bwrap is not usable here"
fi
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/verify-on" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/verify.yaml"
assert_file_contains "online, unsandboxed, the operator's filter verifies (negative control)" \
  "$TEST_TMP/verify-on/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/verify-off" --no-progress \
  --sandbox off --offline --scanners detect-secrets --config "$TEST_TMP/verify.yaml"
assert_file_lacks "offline the filter is removed from every source" \
  "$TEST_TMP/verify-off/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"

# A network only when sandbox.network_scanners names detect-secrets, from
# a config outside every checkout: the operator's --config grants it (the
# filter verifies, no --no-verify); the same grant inherited from the
# repository's own config is dropped with a warning, and detect-secrets
# runs with --no-verify and the warning naming the setting.
if has_backend bwrap; then
  mkdir -p "$src/.git" "$src/.ash"
  printf 'sandbox:\n  network_scanners: [detect-secrets]\n' >"$src/.ash/net.yaml"
  { cat "$TEST_TMP/verify.yaml"; printf 'sandbox:\n  network_scanners: [detect-secrets]\n'; } >"$TEST_TMP/net-ok.yaml"
  { printf 'extends: %s\n' "$src/.ash/net.yaml"; cat "$TEST_TMP/verify.yaml"; } >"$TEST_TMP/net-tree.yaml"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/net-ok" --no-progress \
    --sandbox bwrap --scanners detect-secrets --config "$TEST_TMP/net-ok.yaml"
  assert_eq "bwrap, network granted by the operator: exit 2" "$status" 2
  assert_file_contains "bwrap, network granted by the operator: detect-secrets verifies (control)" \
    "$TEST_TMP/net-ok/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"
  assert_file_lacks "bwrap, network granted: no warning about the setting" "$TEST_TMP/err" "Name detect-secrets in sandbox.network_scanners"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/net-tree" --no-progress \
    --sandbox bwrap --scanners detect-secrets --config "$TEST_TMP/net-tree.yaml"
  assert_eq "bwrap, network grant from the repository's config: exit 2" "$status" 2
  assert_file_contains "the repository's grant is ignored, with a warning" "$TEST_TMP/err" "Ignoring sandbox.network_scanners"
  assert_file_lacks "the repository's grant gives no network: detect-secrets does not verify" \
    "$TEST_TMP/net-tree/scanners/detect-secrets/source/detect-secrets.stderr.log" "would verify"
  assert_file_contains "the warning names sandbox.network_scanners" "$TEST_TMP/err" "Name detect-secrets in sandbox.network_scanners"
  rm -rf "$src/.git" "$src/.ash"
else
  for i in 1 2 3 4 5 6 7; do ok "# SKIP bwrap is not usable here"; done
fi

# Under a sandbox ASH reads the operator's baseline outside the tree only
# inside an extra_read_paths entry when read_path_scanners names
# detect-secrets; otherwise it skips it with a warning, and every default
# plugin runs.  Unsandboxed it is read (the control).
if has_backend bwrap; then
  mkdir -p "$TEST_TMP/ops"
  printf '{"version": "1.5.0", "plugins_used": [{"name": "GitHubTokenDetector"}], "filters_used": [], "results": {}}\n' >"$TEST_TMP/ops/gh.baseline"
  cat >"$TEST_TMP/ops.yaml" <<EOF2
global_settings:
  ignore_paths: [{path: vendor/, reason: third-party code}]
scanners:
  detect-secrets:
    options:
      baseline_file: $TEST_TMP/ops/gh.baseline
EOF2
  gh_only="detect-secrets GitHub-Token docs/notes.txt 2 CRITICAL"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opsb-off" --no-progress \
    --sandbox off --scanners detect-secrets --config "$TEST_TMP/ops.yaml"
  assert_eq "unsandboxed, the operator's baseline outside the tree is read (control)" \
    "$(findings "$TEST_TMP/opsb-off")" "$gh_only"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opsb-bw" --no-progress \
    --sandbox bwrap --scanners detect-secrets --config "$TEST_TMP/ops.yaml"
  assert_eq "bwrap: a baseline outside the tree is skipped: every plugin runs" \
    "$(findings "$TEST_TMP/opsb-bw")" "$want"
  assert_file_contains "bwrap: the warning says why" "$TEST_TMP/err" \
    "Not reading the detect-secrets baseline $TEST_TMP/ops/gh.baseline: it is outside the source tree, and sandbox.read_path_scanners does not name detect-secrets"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opsb-ok" --no-progress \
    --sandbox bwrap --scanners detect-secrets --config "$TEST_TMP/ops.yaml" \
    --config-overrides "sandbox.extra_read_paths=[$TEST_TMP/ops]" \
    --config-overrides "sandbox.read_path_scanners=[detect-secrets]"
  assert_eq "bwrap: inside extra_read_paths, with read_path_scanners, it is read" \
    "$(findings "$TEST_TMP/opsb-ok")" "$gh_only"
else
  for i in 1 2 3 4; do ok "# SKIP bwrap is not usable here"; done
fi

# Unsupported options: configuration errors naming them.
printf 'scanners:\n  detect-secrets:\n    options:\n      exclude_lines: [x]\n' >"$TEST_TMP/bad.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress \
  --sandbox off --scanners detect-secrets --config "$TEST_TMP/bad.yaml"
assert_eq "unsupported option: exit 3" "$status" 3
assert_file_contains "the error names it" "$TEST_TMP/err" "scanners.detect-secrets.options.exclude_lines"

for brk in empty truncated garbage; do
  echo "$brk" >"$src/.fake-break"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/brk" --no-progress \
    --sandbox off --scanners detect-secrets
  assert_eq "$brk report: exit 1" "$status" 1
  assert_file_contains "$brk report: ERROR naming the file" \
    "$TEST_TMP/brk/ash_aggregated_results.json" "scanners/detect-secrets/source/detect-secrets.stdout.log"
done
rm -f "$src/.fake-break"
# With a baseline the report is that file: missing, empty, truncated or
# garbage, detect-secrets is ERROR naming it, and bandit's results are
# kept.
if command -v bandit >/dev/null 2>&1; then
  mkdir -p "$src/py"
  cp "$top_srcdir/tests/fixtures/repos/py-small/pkg/runner.py" "$src/py/"
  printf '{"version": "1.5.0", "plugins_used": [{"name": "AWSKeyDetector"}], "filters_used": [], "results": {}}\n' >"$src/.secrets.baseline"
  for brk in missing empty truncated garbage; do
    echo "$brk" >"$src/.fake-break"
    run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/brkb" --no-progress \
      --sandbox off --scanners detect-secrets,bandit
    assert_eq "$brk baseline report: exit 1" "$status" 1
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]
print(r["detect-secrets"]["status"], r["detect-secrets"].get("error_reason"))
print("bandit", r["bandit"]["status"], r["bandit"]["finding_count"])' \
      "$TEST_TMP/brkb/ash_aggregated_results.json" >"$TEST_TMP/brkb-status"
    assert_file_contains "$brk baseline report: ERROR naming the file" "$TEST_TMP/brkb-status" \
      "$TEST_TMP/brkb/scanners/detect-secrets/source/detect-secrets.baseline.json"
    assert_file_contains "$brk baseline report: bandit's results kept" "$TEST_TMP/brkb-status" "bandit FAILED"
  done
  rm -rf "$src/.fake-break" "$src/.secrets.baseline" "$src/py"
else
  ok "# SKIP bandit is not installed"
fi
done_testing
