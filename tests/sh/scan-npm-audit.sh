#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# npm-audit end to end through a fake npm that writes the real npm audit
# report (npm's audit endpoint is not reachable from the test machines):
# one result per advisory and package at each lockfile, the same findings
# under every usable sandbox backend, broken reports make npm-audit ERROR
# with the file named while other scanners' results are kept, offline a
# project with a lockfile is MISSING, the repository's .npmrc does not move
# the registry, and an unknown option is a configuration error.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/npm-small
cp -R "$top_srcdir/tests/fixtures/repos/npm-small" "$src"
printf 'FAKE-FINDING high\n' >"$src/notes.txt"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-npm" "$tools/npm"
cp "$top_srcdir/tests/fixtures/deps/npm-audit.json" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
cp "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" "$TEST_TMP/"
PATH=$tools:$PATH
# The operator's home, with a file npm must not see under a sandbox
# (outside ~/.npm, npm-audit's declared cache, which the sandbox mounts).
HOME=$TEST_TMP/home
npm_config_fake_canary=$HOME/.config/canary
mkdir -p "$HOME/.npm" "$HOME/.config"
echo secret >"$npm_config_fake_canary"
chmod -R a+rX "$HOME"
export PATH HOME npm_config_fake_canary
unset npm_config_registry NPM_CONFIG_REGISTRY npm_config_fake_mode || :

findings () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
  for x in run["results"]:
    if x["properties"]["scanner_name"] != "npm-audit": continue
    l = x["locations"][0]["physicalLocation"]
    print(x["ruleId"], l["artifactLocation"]["uri"], l["region"]["startLine"], x["properties"]["severity"], x["level"])
' "$1/ash_aggregated_results.json" | sort
}
status_of () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"][sys.argv[2]]
print(r["status"], r.get("error_reason") or r.get("missing_reason") or "")' "$1/ash_aggregated_results.json" "$2"
}

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress --sandbox off --scanners npm-audit
assert_eq "findings: exit 2" "$status" 2
findings "$TEST_TMP/off" >"$TEST_TMP/want"
# What the report holds: 23 advisories over 17 packages (28 results per
# lockfile) and 5 packages vulnerable only through others, at two
# lockfiles.
python3 - "$top_srcdir/tests/fixtures/deps/npm-audit.json" >"$TEST_TMP/expect" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sev = {"moderate": "MEDIUM", "high": "HIGH", "critical": "CRITICAL", "low": "LOW", "info": "INFO"}
lvl = {"MEDIUM": "warning", "HIGH": "error", "CRITICAL": "error", "LOW": "note", "INFO": "none"}
lines = {"minimist": 15, "vue": 18}
for lock in ("package-lock.json", "web/package-lock.json"):
    for name, v in d["vulnerabilities"].items():
        vias = [x for x in v["via"] if isinstance(x, dict)]
        line = lines.get(name, 1)
        if not vias:
            s = sev[v["severity"]]
            print("npm-audit-transitive-" + name, lock, line, s, lvl[s])
        for x in vias:
            s = sev[x["severity"]]
            print(x["url"].rsplit("/", 1)[1], lock, line, s, lvl[s])
PY
sort "$TEST_TMP/expect" >"$TEST_TMP/expect.sorted"
assert_eq "56 results: one per advisory and package, at each lockfile" "$(wc -l <"$TEST_TMP/want")" 56
check "rule ids, lockfiles, lines and severities are the report's" cmp -s "$TEST_TMP/want" "$TEST_TMP/expect.sorted" || diff "$TEST_TMP/want" "$TEST_TMP/expect.sorted" | head >&2
assert_file_contains "npm ran in each lockfile's directory" "$TEST_TMP/off/scanners/npm-audit/source/npm-audit.stderr.log" "cwd=$src/web"
assert_file_contains "the registry is npm's, not the tree's .npmrc" "$TEST_TMP/off/scanners/npm-audit/source/npm-audit.stderr.log" "registry=https://registry.npmjs.org/ "
assert_file_contains "control: unsandboxed, npm sees the canary in the home" "$TEST_TMP/off/scanners/npm-audit/source/npm-audit.stderr.log" " canary=seen"
assert_file_lacks "no absolute host path in the report" "$TEST_TMP/off/reports/ash.sarif" "\"uri\": \"$src"
python3 -c '
import json, sys
run = [r for r in json.load(open(sys.argv[1]))["runs"] if r["tool"]["driver"]["name"] == "npm-audit"][0]
d = run["tool"]["driver"]
assert d["version"] == "8.19.4", d.get("version")
for rule in d["rules"]:
    assert rule["help"]["text"] and rule["properties"]["security-severity"], rule
m = [r for r in d["rules"] if r["id"] == "GHSA-xvch-5gv4-984h"][0]
assert m["properties"]["security-severity"] == "9.8", m
' "$TEST_TMP/off/reports/ash.sarif"
check "driver version, rule help and security-severity" test $? -eq 0

# The merged ash.sarif is valid SARIF 2.1.0.
schema=/work/shared/data/sarif-schema-2.1.0.json
[ -f "$top_srcdir/../shared/data/sarif-schema-2.1.0.json" ] && schema=$top_srcdir/../shared/data/sarif-schema-2.1.0.json
if python3 -c 'import jsonschema' 2>/dev/null && [ -f "$schema" ]; then
  python3 -c '
import json, sys, jsonschema
jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "$schema" "$TEST_TMP/off/reports/ash.sarif"
  check "ash.sarif validates against the SARIF 2.1.0 schema" test $? -eq 0
else
  ok "# SKIP python3-jsonschema or the SARIF schema is not available"
fi
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
for b in $backends; do
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress --sandbox "$b" --scanners npm-audit
  assert_eq "$b: exit 2" "$status" 2
  findings "$TEST_TMP/out-$b" >"$TEST_TMP/got-$b"
  check "$b: the same findings as unsandboxed" cmp -s "$TEST_TMP/got-$b" "$TEST_TMP/want"
  assert_file_contains "$b: the registry is npm's, not the tree's .npmrc" "$TEST_TMP/out-$b/scanners/npm-audit/source/npm-audit.stderr.log" "registry=https://registry.npmjs.org/ "
  assert_file_contains "$b: the operator's home is hidden from npm" "$TEST_TMP/out-$b/scanners/npm-audit/source/npm-audit.stderr.log" " canary=unseen"
  check_fails "$b: ... it never sees the canary there" grep -q " canary=seen" "$TEST_TMP/out-$b/scanners/npm-audit/source/npm-audit.stderr.log"
  # ~/.npm is private: a cache of npm's own under the results (where the
  # backend has no throwaway overlay), else the sandbox's private home.
  sed -n 's/^fake-npm: argv=audit .* home=\([^ ]*\) cache=\([^ ]*\) canary=.*$/\1 \2/p' \
    "$TEST_TMP/out-$b/scanners/npm-audit/source/npm-audit.stderr.log" | head -n 1 >"$TEST_TMP/cache-$b"
  read -r h c <"$TEST_TMP/cache-$b" || :
  diag "$b: HOME='${h:-}' npm_config_cache='${c:-}'"
  case ${h:-}:${c:-} in
    *:"$TEST_TMP/out-$b/scanners/npm-audit/"*) ok "$b: npm's cache is private (under its results)" ;;
    "$HOME":|:) not_ok "$b: npm's cache is private (it would be the operator's ~/.npm)" ;;
    *:) ok "$b: npm's cache is private (in the sandbox's own home)" ;;
    *) not_ok "$b: npm's cache is private: '$c'" ;;
  esac
done
[ -n "$backends" ] || ok "# SKIP no sandbox backend is usable here"

# ash sandbox explain npm-audit: the spec's row (a network online, ~/.npm
# as its cache, a private npm_config_cache where caches are read-only).
for b in auto landlock; do
  "$ASH" sandbox explain npm-audit --sandbox "$b" --source-dir "$src" >"$TEST_TMP/explain-$b" 2>/dev/null
done
python3 - "$TEST_TMP/explain-auto" "$HOME" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["network"] is True, d["network"]
assert any(p["path"] == sys.argv[2] + "/.npm" and p["access"] == "cache" for p in d["paths"]), d["paths"]
PY
check "explain npm-audit: a network, ~/.npm as its cache" test $? -eq 0
check "explain npm-audit under Landlock: a private npm_config_cache" grep -q '"name": "npm_config_cache"' "$TEST_TMP/explain-landlock"
"$ASH" sandbox explain npm-audit --sandbox auto --offline --source-dir "$src" >"$TEST_TMP/explain-offline" 2>/dev/null
check "explain npm-audit --offline: no network" grep -q '"network": false' "$TEST_TMP/explain-offline"

# Broken reports: npm-audit is ERROR naming the report, fake-sarif keeps
# its results.
for mode in empty truncated notjson error; do
  npm_config_fake_mode=$mode run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad-$mode" --no-progress \
    --sandbox off --scanners npm-audit,fake-sarif --ash-plugin-modules "$TEST_TMP/fake-scanners.yaml"
  assert_eq "$mode: incomplete scan, exit 1" "$status" 1
  st=$(status_of "$TEST_TMP/bad-$mode" npm-audit)
  case $st in
    "ERROR "*package-lock.json*) ok "$mode: npm-audit ERROR naming the lockfile ($st)" ;;
    *) not_ok "$mode: npm-audit ERROR naming the lockfile ($st)" ;;
  esac
  case $(status_of "$TEST_TMP/bad-$mode" fake-sarif) in
    FAILED*) ok "$mode: the other scanner's results are kept" ;;
    *) not_ok "$mode: the other scanner's results are kept" ;;
  esac
done

# pnpm and yarn lockfiles: tests/sh/scan-npm-audit-pm.sh.

# ignore_paths leaves a lockfile out.
cat >"$TEST_TMP/ign.yaml" <<'EOC'
global_settings:
  ignore_paths:
    - path: web
      reason: vendored
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/ign" --no-progress --sandbox off --scanners npm-audit --config "$TEST_TMP/ign.yaml"
assert_file_lacks "an ignored lockfile is not audited" "$TEST_TMP/ign/ash_aggregated_results.json" "web/package-lock.json"

# Offline: MISSING with the reason, and npm is not run.
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/offline" --no-progress --sandbox off --scanners npm-audit --offline
assert_eq "offline: exit 1" "$status" 1
case $(status_of "$TEST_TMP/offline" npm-audit) in
  "MISSING npm-audit cannot run offline: npm, pnpm and yarn audit only against the package registry"*) ok "offline: MISSING with the spec's reason" ;;
  *) not_ok "offline: MISSING with the spec's reason: $(status_of "$TEST_TMP/offline" npm-audit)" ;;
esac
check_fails "offline: npm was not run" test -s "$TEST_TMP/offline/scanners/npm-audit/source/npm-audit.stderr.log"
cat >"$TEST_TMP/offopt.yaml" <<'EOC'
scanners:
  npm-audit:
    options:
      offline: true
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/offopt" --no-progress --sandbox off --scanners npm-audit --config "$TEST_TMP/offopt.yaml"
assert_eq "option offline: MISSING, exit 1" "$(status_of "$TEST_TMP/offopt" npm-audit | cut -d' ' -f1)" MISSING

# An option ash does not know is an error naming it.
cat >"$TEST_TMP/unk.yaml" <<'EOC'
scanners:
  npm-audit:
    options:
      audit_level: high
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/unk" --no-progress --sandbox off --scanners npm-audit --config "$TEST_TMP/unk.yaml"
assert_eq "an unknown option: a configuration error (exit 3)" "$status" 3
assert_file_contains "... naming it" "$TEST_TMP/err" "scanners.npm-audit.options: unknown option 'audit_level'"
check "... before any scanner ran" test ! -e "$TEST_TMP/unk/scanners"

# As an unprivileged operator (the test runs as root): the same findings
# unsandboxed and under each usable backend, and the account's home hidden
# from npm under each backend (its canary seen only unsandboxed, the
# control).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  u=$TEST_TMP/unpriv
  mkdir -p "$u/home/.npm" "$u/home/.config"
  echo secret >"$u/home/.config/canary"
  chown -R "$who" "$u"
  chmod a+rx "$TEST_TMP"
  chmod -R a+rX "$src" "$tools"
  for m in off $backends; do
    $as_user env -i PATH="$tools:/usr/bin:/bin" HOME="$u/home" LANG=C.UTF-8 \
      npm_config_fake_canary="$u/home/.config/canary" \
      "$ASH" scan --source-dir "$src" --output-dir "$u/out-$m" --no-progress \
      --sandbox "$m" --scanners npm-audit >"$u/out" 2>"$u/err"
    st=$?
    assert_eq "$who, $m: exit 2" "$st" 2
    [ "$st" = 2 ] || diag "$(tail -n 5 "$u/err")"
    findings "$u/out-$m" >"$u/got-$m" 2>/dev/null
    check "$who, $m: the same findings as root's unsandboxed scan" cmp -s "$u/got-$m" "$TEST_TMP/want"
    if [ "$m" = off ]; then
      assert_file_contains "control, $who: unsandboxed, npm sees the home's canary" \
        "$u/out-$m/scanners/npm-audit/source/npm-audit.stderr.log" " canary=seen"
    else
      assert_file_contains "$who, $m: the account's home is hidden from npm" \
        "$u/out-$m/scanners/npm-audit/source/npm-audit.stderr.log" " canary=unseen"
    fi
  done
else
  ok "# SKIP the unprivileged round: not root, or no setpriv"
fi
done_testing
