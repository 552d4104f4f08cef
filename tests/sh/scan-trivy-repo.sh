#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# trivy-repo (the plugin module ash ships, with ash's adapter) through a
# fake trivy that records every call: the database update runs once,
# outside the sandbox, under the lock, before the scan; trivy runs from a
# private directory with ash's own config and ignore file, so a trivy.yaml
# and .trivyignore in the tree change nothing; its cache is in memory and
# it never updates a database itself; findings are the same under every
# usable backend; offline nothing is updated; a stale database is an ERROR.
# The control runs the fake in the tree without ash's files, where the
# tree's trivy.yaml and .trivyignore do apply.  Two scans started
# together: tests/sh/scan-db-lock.sh.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v flock >/dev/null 2>&1 || skip_all "flock (util-linux) is not installed"

src=$TEST_TMP/src
mkdir -p "$src/config"
cp "$top_srcdir/tests/fixtures/repos/npm-small/package-lock.json" "$src/"
printf 'x\nAWS_ACCESS_KEY_ID=AKIAEXAMPLEEXAMPLE12\n' >"$src/config/keys.txt"
printf 'severity: [LOW]\ncache:\n  dir: /tmp/evil\n' >"$src/trivy.yaml"
printf 'CVE-2021-44906\n' >"$src/.trivyignore"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-trivy" "$tools/trivy"
PATH=$tools:$PATH
TRIVY_CACHE_DIR=$TEST_TMP/cache/trivy
TRIVY_FAKE_LOG=$TEST_TMP/calls.log
export PATH TRIVY_CACHE_DIR TRIVY_FAKE_LOG
unset TRIVY_FAKE_MODE TRIVY_FAKE_UPDATED TRIVY_FAKE_SLEEP || :
mods="--ash-plugin-modules trivy-repo"

assert_match () {
  if grep -qE -- "$3" "$2" 2>/dev/null; then ok "$1"; else not_ok "$1"; diag "'$3' not matched in $2"; sed 's/^/#   /' "$2" | head -20; fi
}
findings () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
  for x in run["results"]:
    l = x["locations"][0]["physicalLocation"]
    print(x["ruleId"], l["artifactLocation"]["uri"], l["region"]["startLine"], x["properties"]["severity"])
' "$1/ash_aggregated_results.json" | sort
}
status_of () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"][sys.argv[2]]
print(r["status"], r.get("error_reason") or r.get("missing_reason") or "")' "$1/ash_aggregated_results.json" "$2"
}

: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress --sandbox off $mods --scanners trivy-repo
assert_eq "findings: exit 2" "$status" 2
assert_eq "one update" "$(grep -c '^update-start' "$TRIVY_FAKE_LOG")" 1
assert_eq "the update came first" "$(sed -n '1s/ .*//p' "$TRIVY_FAKE_LOG")" update-start
assert_match "the update: download-db-only into the cache, explicit config, under the lock" "$TRIVY_FAKE_LOG" "^update-start argv=image --download-db-only --no-progress --cache-dir $TRIVY_CACHE_DIR --config /[^ ]*/trivy.yaml cwd=/[^ ]*ash-trivy-db-.* lock=held"
assert_match "the scan ran from a directory outside the tree" "$TRIVY_FAKE_LOG" "^scan .*cwd=/[^ ]*/ash-trivy-repo-[^/ ]* "
assert_match "memory cache, no database update, no Java database" "$TRIVY_FAKE_LOG" "^scan argv=repository --format sarif --output [^ ]* --cache-backend=memory --skip-db-update --skip-java-db-update --cache-dir $TRIVY_CACHE_DIR "
assert_match "ash's own config, ignore file, secret config and module dir" "$TRIVY_FAKE_LOG" "^scan .*--config /[^ ]*/ash-trivy-repo-[^/ ]*/trivy.yaml --ignorefile /[^ ]*/trivyignore --secret-config /[^ ]*/trivy-secret.yaml --module-dir /[^ ]*/trivy-modules "
assert_file_lacks "the tree's trivy.yaml and .trivyignore are never passed" "$TRIVY_FAKE_LOG" "$src/trivy.yaml"
assert_match "upstream's defaults" "$TRIVY_FAKE_LOG" "^scan .*--scanners vuln,secret,misconfig,license --license-full --ignore-unfixed --disable-telemetry --skip-check-update $src"
assert_eq "one checks bundle download" "$(grep -c '^checks-start' "$TRIVY_FAKE_LOG")" 1
assert_eq "database, then checks bundle, then the scan" "$(cut -d' ' -f1 "$TRIVY_FAKE_LOG" | tr '\n' ' ')" "update-start update-end checks-start checks-end scan "
assert_match "the checks bundle: a misconfiguration scan of an empty private directory into the cache, explicit config and ignore file, under the lock" "$TRIVY_FAKE_LOG" "^checks-start argv=config --no-progress --quiet --cache-dir $TRIVY_CACHE_DIR --config /[^ ]*ash-trivy-db-[^/ ]*/trivy.yaml --ignorefile /[^ ]*ash-trivy-db-[^/ ]*/trivyignore /[^ ]*ash-trivy-db-[^/ ]*/empty cwd=/[^ ]*ash-trivy-db-[^/ ]* .*lock=held"
check "the checks bundle is in the cache" test -f "$TRIVY_CACHE_DIR/policy/metadata.json"
assert_match "the scan does not update the checks bundle" "$TRIVY_FAKE_LOG" "^scan .*--skip-check-update"
findings "$TEST_TMP/off" >"$TEST_TMP/want"
printf '%s\n' "CVE-2021-44906 package-lock.json 15 CRITICAL" "aws-access-key-id config/keys.txt 2 CRITICAL" | sort >"$TEST_TMP/expect"
check "rule ids, files, lines and severities are trivy's" cmp -s "$TEST_TMP/want" "$TEST_TMP/expect"
# Control: trivy run in the tree without ash's config and ignore file
# reads the tree's trivy.yaml (LOW only) and .trivyignore, and reports
# neither finding.
(cd "$src" && trivy repository --format sarif --output "$TEST_TMP/ctl.sarif" "$src") 2>/dev/null
check "control: trivy in the tree wrote its report" test -s "$TEST_TMP/ctl.sarif"
check_fails "control: the tree's .trivyignore applied there" grep -q '"ruleId":"CVE-2021-44906"' "$TEST_TMP/ctl.sarif"
check_fails "control: the tree's trivy.yaml applied there" grep -q '"ruleId":"aws-access-key-id"' "$TEST_TMP/ctl.sarif"
assert_file_lacks "no host path in the report" "$TEST_TMP/off/reports/ash.sarif" "file://$src"

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
  : >"$TRIVY_FAKE_LOG"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress --sandbox "$b" $mods --scanners trivy-repo
  assert_eq "$b: exit 2" "$status" 2
  findings "$TEST_TMP/out-$b" >"$TEST_TMP/got-$b"
  check "$b: the same findings as unsandboxed" cmp -s "$TEST_TMP/got-$b" "$TEST_TMP/want"
  assert_eq "$b: one update, outside the sandbox" "$(grep -c '^update-start' "$TRIVY_FAKE_LOG")" 1
  assert_eq "$b: one checks bundle download, outside the sandbox" "$(grep -c '^checks-start' "$TRIVY_FAKE_LOG")" 1
done
[ -n "$backends" ] || ok "# SKIP no sandbox backend is usable here"
# Two scans started together take turns: tests/sh/scan-db-lock.sh.
"$ASH" sandbox explain trivy-repo $mods >"$TEST_TMP/explain" 2>&1
assert_file_contains "explain: the trivy cache" "$TEST_TMP/explain" "$TRIVY_CACHE_DIR"
assert_match "explain: a network" "$TEST_TMP/explain" '"network": *true'
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        if "env_prefixes" in o:
            return o["env_prefixes"]
        for v in o.values():
            x = find(v)
            if x is not None:
                return x
    return None
assert find(d) == ["TRIVY_"], find(d)
' "$TEST_TMP/explain" 2>/dev/null
check "explain: the TRIVY_ variables, as the builtin trivy declares" test $? -eq 0

: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/offline" --no-progress --sandbox off $mods --scanners trivy-repo --offline
assert_eq "offline, fresh database: exit 2" "$status" 2
check_fails "offline: nothing updated" grep -q '^update' "$TRIVY_FAKE_LOG"
check_fails "offline: no checks bundle download" grep -q '^checks' "$TRIVY_FAKE_LOG"
assert_match "offline: --offline-scan" "$TRIVY_FAKE_LOG" "^scan .*--offline-scan --skip-check-update"
printf '{"Version":2,"UpdatedAt":"2020-01-01T00:00:00Z"}\n' >"$TRIVY_CACHE_DIR/db/metadata.json"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/stale" --no-progress --sandbox off $mods --scanners trivy-repo --offline
assert_eq "stale database: exit 1" "$status" 1
case $(status_of "$TEST_TMP/stale" trivy-repo) in
  "ERROR the trivy database in $TRIVY_CACHE_DIR was built "*"(2020-01-01T00:00:00Z), past its bound of 5 days"*"trivy image --download-db-only"*) ok "stale database: ERROR with the age and the fix" ;;
  *) not_ok "stale database: ERROR with the age and the fix: $(status_of "$TEST_TMP/stale" trivy-repo)" ;;
esac

cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
printf 'FAKE-FINDING high\n' >"$src/notes.txt"
for mode in empty notjson none; do
  TRIVY_FAKE_MODE=$mode run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad-$mode" --no-progress --sandbox off \
    --ash-plugin-modules trivy-repo,"$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" --scanners trivy-repo,fake-sarif
  assert_eq "$mode: exit 1" "$status" 1
  case $(status_of "$TEST_TMP/bad-$mode" trivy-repo) in
    ERROR*trivy-repo.sarif*) ok "$mode: ERROR naming the report" ;;
    *) not_ok "$mode: ERROR naming the report: $(status_of "$TEST_TMP/bad-$mode" trivy-repo)" ;;
  esac
  case $(status_of "$TEST_TMP/bad-$mode" fake-sarif) in
    FAILED*) ok "$mode: the other scanner's results are kept" ;;
    *) not_ok "$mode: the other scanner's results are kept: $(status_of "$TEST_TMP/bad-$mode" fake-sarif)" ;;
  esac
done

cat >"$TEST_TMP/opts.yaml" <<'EOC'
scanners:
  trivy-repo:
    options:
      scanners: [vuln]
      license_full: false
      ignore_unfixed: false
      severity_threshold: HIGH
EOC
: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opts" --no-progress --sandbox off $mods --scanners trivy-repo --config "$TEST_TMP/opts.yaml"
assert_match "options reach trivy" "$TRIVY_FAKE_LOG" "^scan .*--scanners vuln --disable-telemetry --severity HIGH,CRITICAL --skip-check-update $src"
assert_eq "no misconfiguration scan: the database is updated" "$(grep -c '^update-start' "$TRIVY_FAKE_LOG")" 1
check_fails "no misconfiguration scan: no checks bundle download" grep -q '^checks-start' "$TRIVY_FAKE_LOG"
# ignore_paths reach trivy as --skip-dirs and --skip-files; one its
# syntax cannot hold (a comma) makes trivy-repo ERROR naming it.
printf 'global_settings:\n  ignore_paths:\n    - path: vendor\n      reason: third party\n' >"$TEST_TMP/ign.yaml"
: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/ign" --no-progress --sandbox off $mods --scanners trivy-repo --config "$TEST_TMP/ign.yaml"
assert_match "ignore_paths: --skip-dirs and --skip-files" "$TRIVY_FAKE_LOG" "^scan .*--skip-dirs vendor --skip-files vendor $src"
printf 'global_settings:\n  ignore_paths:\n    - path: "a,b"\n      reason: odd\n' >"$TEST_TMP/comma.yaml"
: >"$TRIVY_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/comma" --no-progress --sandbox off $mods --scanners trivy-repo --config "$TEST_TMP/comma.yaml"
case $(status_of "$TEST_TMP/comma" trivy-repo) in
  "ERROR trivy's --skip-dirs cannot name the ignore path 'a,b'"*) ok "an ignore path with a comma: ERROR naming it" ;;
  *) not_ok "an ignore path with a comma: ERROR naming it: $(status_of "$TEST_TMP/comma" trivy-repo)" ;;
esac
check_fails "an ignore path with a comma: trivy did not scan" grep -q '^scan' "$TRIVY_FAKE_LOG"
cat >"$TEST_TMP/unk.yaml" <<'EOC'
scanners:
  trivy-repo:
    options:
      list_all_pkgs: true
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/unk" --no-progress --sandbox off $mods --scanners trivy-repo --config "$TEST_TMP/unk.yaml"
assert_eq "an unknown option: a configuration error (exit 3)" "$status" 3
assert_file_contains "... naming it" "$TEST_TMP/err" "scanners.trivy-repo.options: unknown option 'list_all_pkgs'"
check "... before any scanner ran" test ! -e "$TEST_TMP/unk/scanners"

# The cache trivy itself would use: with a relative XDG_CACHE_HOME,
# $TMPDIR/trivy when TMPDIR is the user's own; a shared /tmp is refused.
mkdir -p "$TEST_TMP/mytmp"
chmod 700 "$TEST_TMP/mytmp"
: >"$TRIVY_FAKE_LOG"
env -u TRIVY_CACHE_DIR XDG_CACHE_HOME=relative TMPDIR="$TEST_TMP/mytmp" "$ASH" scan --source-dir "$src" \
  --output-dir "$TEST_TMP/reltmp" --no-progress --sandbox off $mods --scanners trivy-repo >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "relative XDG_CACHE_HOME, TMPDIR of the user's own: exit 2" "$?" 2
assert_match "the update and the scan use \$TMPDIR/trivy" "$TRIVY_FAKE_LOG" "^scan .*--cache-dir $TEST_TMP/mytmp/trivy "
assert_match "the update wrote it" "$TRIVY_FAKE_LOG" "^update-start .*--cache-dir $TEST_TMP/mytmp/trivy "
: >"$TRIVY_FAKE_LOG"
env -u TRIVY_CACHE_DIR -u TMPDIR XDG_CACHE_HOME=relative "$ASH" scan --source-dir "$src" \
  --output-dir "$TEST_TMP/relshared" --no-progress --sandbox off $mods --scanners trivy-repo >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "relative XDG_CACHE_HOME, the shared /tmp: exit 1" "$?" 1
case $(status_of "$TEST_TMP/relshared" trivy-repo) in
  *"cannot tell where trivy keeps its database"*"set TRIVY_CACHE_DIR"*) ok "the shared /tmp: refused, naming TRIVY_CACHE_DIR" ;;
  *) not_ok "the shared /tmp: refused, naming TRIVY_CACHE_DIR: $(status_of "$TEST_TMP/relshared" trivy-repo)" ;;
esac
check_fails "the shared /tmp: trivy did not run" grep -q '^scan' "$TRIVY_FAKE_LOG"
env -u TRIVY_CACHE_DIR -u TMPDIR XDG_CACHE_HOME=relative "$ASH" scan --source-dir "$src" \
  --output-dir "$TEST_TMP/reloff" --no-progress --sandbox off --offline $mods --scanners trivy-repo >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check_fails "the shared /tmp, offline: trivy did not run either" grep -q '^scan' "$TRIVY_FAKE_LOG"

# As an unprivileged operator (the test runs as root): the update and the
# checks bundle into the account's own cache, outside the sandbox, and the
# same findings unsandboxed and under each usable backend.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  u=$TEST_TMP/unpriv
  mkdir -p "$u/cache" "$u/home"
  chown -R "$who" "$u"
  chmod a+rx "$TEST_TMP"
  chmod -R a+rX "$src" "$tools"
  for m in off $backends; do
    : >"$u/calls.log"
    chown "$who" "$u/calls.log"
    $as_user env -i PATH="$tools:/usr/bin:/bin" HOME="$u/home" LANG=C.UTF-8 \
      TRIVY_CACHE_DIR="$u/cache" TRIVY_FAKE_LOG="$u/calls.log" \
      "$ASH" scan --source-dir "$src" --output-dir "$u/out-$m" --no-progress \
      --sandbox "$m" $mods --scanners trivy-repo >"$u/out" 2>"$u/err"
    st=$?
    assert_eq "$who, $m: exit 2" "$st" 2
    [ "$st" = 2 ] || diag "$(tail -n 5 "$u/err")"
    findings "$u/out-$m" >"$u/got-$m" 2>/dev/null
    check "$who, $m: the same findings as root's unsandboxed scan" cmp -s "$u/got-$m" "$TEST_TMP/want"
    assert_eq "$who, $m: one update and one checks bundle, outside the sandbox" \
      "$(grep -c '^update-start' "$u/calls.log") $(grep -c '^checks-start' "$u/calls.log")" "1 1"
  done
else
  ok "# SKIP the unprivileged round: not root, or no setpriv"
fi
done_testing
