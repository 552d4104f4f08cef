#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# grype end to end through a fake grype that writes the real grype JSON
# report and records every call: the database update runs once, outside
# the sandbox, under the lock, from a directory outside the tree, before
# the scanner, which runs with its own update off; offline nothing is
# updated; a stale database makes grype ERROR with its age and the fix; a
# .grype.yaml in the tree changes nothing (the control shows it would);
# the findings are the report's, the same under every usable backend;
# broken reports are an ERROR naming the file, another scanner's results
# kept; grype's exit 2 under --fail-on is not an error.  Two scans started
# together: tests/sh/scan-db-lock.sh.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v flock >/dev/null 2>&1 || skip_all "flock (util-linux) is not installed"

src=$TEST_TMP/src
mkdir -p "$src/js"
printf 'GEM\n  specs:\n    addressable (2.7.0)\n' >"$src/js/Gemfile.lock"
# A repository's own grype config would move the cache and turn checks off.
printf 'db:\n  cache-dir: /tmp/evil\n  auto-update: true\nignore:\n  - vulnerability: GHSA-jxhc-q857-3j6g\n' >"$src/.grype.yaml"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-grype" "$tools/grype"
cp "$top_srcdir/tests/fixtures/deps/grype.json" "$tools/"
cp "$top_srcdir/tests/fixtures/tools/grype-data/TestSarifPresenter_directory.golden" "$tools/grype-sarif.golden"
PATH=$tools:$PATH
GRYPE_DB_CACHE_DIR=$TEST_TMP/cache/grype/db
GRYPE_FAKE_LOG=$TEST_TMP/calls.log
export PATH GRYPE_DB_CACHE_DIR GRYPE_FAKE_LOG
unset GRYPE_FAKE_MODE GRYPE_FAKE_BUILT GRYPE_FAKE_SLEEP GRYPE_DB_MAX_ALLOWED_BUILT_AGE || :

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
assert_match () {
  if grep -qE -- "$3" "$2" 2>/dev/null; then ok "$1"; else not_ok "$1"; diag "'$3' not matched in $2"; sed 's/^/#   /' "$2" | head -20; fi
}
status_of () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"][sys.argv[2]]
print(r["status"], r.get("error_reason") or r.get("missing_reason") or "")' "$1/ash_aggregated_results.json" "$2"
}

: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress --sandbox off --scanners grype
assert_eq "findings: exit 2" "$status" 2
assert_eq "one update" "$(grep -c '^update-start' "$GRYPE_FAKE_LOG")" 1
assert_eq "the update came before the scan" "$(sed -n '1s/ .*//p' "$GRYPE_FAKE_LOG")" update-start
assert_match "the update held the lock" "$GRYPE_FAKE_LOG" "^update-start .*lock=held"
check_fails "the update did not run in the tree" grep -q "^update-start .*cwd=$src[/ ]" "$GRYPE_FAKE_LOG"
assert_match "the update got an explicit config outside the tree" "$GRYPE_FAKE_LOG" "^update-start .*argv=db update --config /.*/ash-grype-db-[^/]*/grype.yaml "
assert_match "the update wrote the cache the scan reads" "$GRYPE_FAKE_LOG" "^update-start .*cache=$GRYPE_DB_CACHE_DIR "
assert_match "the scan ran with its own update off, on that cache" "$GRYPE_FAKE_LOG" "^scan .*cache=$GRYPE_DB_CACHE_DIR auto_update=false"
assert_match "the scan got ash's empty config, not the tree's .grype.yaml" "$GRYPE_FAKE_LOG" "^scan .*--config /.*/ash-grype-[^/]*/grype.yaml"
assert_file_lacks "the tree's .grype.yaml is never passed" "$GRYPE_FAKE_LOG" "$src/.grype.yaml"
assert_match "the scan is of dir:SOURCE" "$GRYPE_FAKE_LOG" "^scan .*argv=dir:$src "
tail -n 1 "$GRYPE_FAKE_LOG" >"$TEST_TMP/last"
assert_match "the staleness check ran after the scan" "$TEST_TMP/last" "^status "
findings "$TEST_TMP/off" >"$TEST_TMP/want"
python3 - "$top_srcdir/tests/fixtures/deps/grype.json" >"$TEST_TMP/expect" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["matches"]:
    v, a = m["vulnerability"], m["artifact"]
    print(v["id"] + "-" + a["name"], a["locations"][0]["path"].lstrip("/"), 1, v["severity"].upper())
PY
sort "$TEST_TMP/expect" >"$TEST_TMP/expect.sorted"
assert_eq "8 findings" "$(wc -l <"$TEST_TMP/want")" 8
grep -q '^GHSA-jxhc-q857-3j6g-' "$TEST_TMP/want"
check "the finding the tree's .grype.yaml ignores is reported" test $? -eq 0
# Control: grype run in the tree without ash's --config reads that
# .grype.yaml and leaves the finding out.
(cd "$src" && grype "dir:$src" -o "json=$TEST_TMP/ctl.json") 2>/dev/null
check "control: grype in the tree, without ash's config, drops it" test -s "$TEST_TMP/ctl.json"
check_fails "control: the tree's ignore list applied there" grep -q GHSA-jxhc-q857-3j6g "$TEST_TMP/ctl.json"
check "rule ids, files, lines and severities are the report's" cmp -s "$TEST_TMP/want" "$TEST_TMP/expect.sorted"
python3 -c '
import json, sys
run = [r for r in json.load(open(sys.argv[1]))["runs"] if r["tool"]["driver"]["name"] == "grype"][0]
assert run["tool"]["driver"]["version"] == "0.91.0"
for rule in run["tool"]["driver"]["rules"]:
    assert rule["help"]["text"] and rule["properties"]["security-severity"], rule
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
  : >"$GRYPE_FAKE_LOG"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress --sandbox "$b" --scanners grype
  assert_eq "$b: exit 2" "$status" 2
  findings "$TEST_TMP/out-$b" >"$TEST_TMP/got-$b"
  check "$b: the same findings as unsandboxed" cmp -s "$TEST_TMP/got-$b" "$TEST_TMP/want"
  assert_eq "$b: one update, outside the sandbox (it could write the log)" "$(grep -c '^update-start' "$GRYPE_FAKE_LOG")" 1
  check_fails "$b: the sandboxed scan could not write outside its results" grep -q '^scan ' "$GRYPE_FAKE_LOG"
  assert_file_contains "$b: the sandboxed scan read the cache with its update off" "$TEST_TMP/out-$b/scanners/grype/source/grype.stderr.log" "cache=$GRYPE_DB_CACHE_DIR auto_update=false"
done
[ -n "$backends" ] || ok "# SKIP no sandbox backend is usable here"

"$ASH" sandbox explain grype --sandbox auto >"$TEST_TMP/explain" 2>/dev/null
assert_match "explain grype: the database cache" "$TEST_TMP/explain" "\"path\": \"$GRYPE_DB_CACHE_DIR\""
assert_match "explain grype: a network" "$TEST_TMP/explain" '"network": *true'
check "explain grype: the GRYPE_ variables" grep -q '"GRYPE_"' "$TEST_TMP/explain"

# Two scans started together take turns: tests/sh/scan-db-lock.sh.

# A lock held elsewhere: bounded wait, then ERROR naming the lock.
# The holder says when it has the lock and keeps it until it is killed.
( flock 9 && echo held >"$TEST_TMP/held" && exec sleep 600 ) \
  9>"$GRYPE_DB_CACHE_DIR/.ash-db.lock" &
holder=$!
_i=0
until [ -s "$TEST_TMP/held" ] || [ $_i -ge 600 ]; do
  sleep 0.1
  _i=$((_i + 1))
done
[ -s "$TEST_TMP/held" ] || bail "the lock holder did not take the lock"
ASH_DB_LOCK_TIMEOUT=1 run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/locked" --no-progress --sandbox off --scanners grype
# Offline, nothing is updated, but grype reads the database, and its age
# is read, under the same lock (shared), so that another scan's update is
# never read half-written.
: >"$GRYPE_FAKE_LOG"
ASH_DB_LOCK_TIMEOUT=1 run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/locked-offline" --no-progress --sandbox off --scanners grype --offline
locked_offline=$status
kill $holder 2>/dev/null; wait $holder 2>/dev/null
assert_eq "lock held, offline: exit 1" "$locked_offline" 1
case $(status_of "$TEST_TMP/locked-offline" grype) in
  "ERROR another scan held the database lock $GRYPE_DB_CACHE_DIR/.ash-db.lock for more than 1 s"*) ok "lock held, offline: the scan waited on the lock, then ERROR naming it" ;;
  *) not_ok "lock held, offline: the scan waited on the lock, then ERROR naming it"; diag "$(status_of "$TEST_TMP/locked-offline" grype)" ;;
esac
check_fails "lock held, offline: grype did not scan" grep -q '^scan' "$GRYPE_FAKE_LOG"
check_fails "lock held, offline: grype db status did not run" grep -q '^status' "$GRYPE_FAKE_LOG"
assert_eq "lock timeout: exit 1" "$status" 1
case $(status_of "$TEST_TMP/locked" grype) in
  "ERROR another scan held the database lock $GRYPE_DB_CACHE_DIR/.ash-db.lock for more than 1 s"*) ok "lock timeout: ERROR naming the lock" ;;
  *) not_ok "lock timeout: ERROR naming the lock: $(status_of "$TEST_TMP/locked" grype)" ;;
esac

# Offline: no update; a fresh database passes, a stale one is an ERROR.
: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/offline" --no-progress --sandbox off --scanners grype --offline
assert_eq "offline, fresh database: exit 2" "$status" 2
check_fails "offline: nothing updated" grep -q '^update' "$GRYPE_FAKE_LOG"
GRYPE_FAKE_BUILT=2020-01-01T00:00:00Z run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/stale" --no-progress --sandbox off --scanners grype --offline
assert_eq "stale database: exit 1" "$status" 1
case $(status_of "$TEST_TMP/stale" grype) in
  "ERROR the grype database in $GRYPE_DB_CACHE_DIR was built "*" days ago (2020-01-01T00:00:00Z), past its bound of 5 days (max-allowed-built-age 120h); update it with 'grype db update'"*) ok "stale database: ERROR with the age and the fix" ;;
  *) not_ok "stale database: ERROR with the age and the fix: $(status_of "$TEST_TMP/stale" grype)" ;;
esac
GRYPE_DB_MAX_ALLOWED_BUILT_AGE=100000h GRYPE_FAKE_BUILT=2020-01-01T00:00:00Z run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bound" --no-progress --sandbox off --scanners grype --offline
assert_eq "GRYPE_DB_MAX_ALLOWED_BUILT_AGE moves the bound" "$status" 2
rm -f "$GRYPE_DB_CACHE_DIR/fake-built"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/nodb" --no-progress --sandbox off --scanners grype --offline
case $(status_of "$TEST_TMP/nodb" grype) in
  "ERROR there is no usable grype database in $GRYPE_DB_CACHE_DIR"*) ok "no database: ERROR saying so" ;;
  *) not_ok "no database: ERROR saying so: $(status_of "$TEST_TMP/nodb" grype)" ;;
esac

# Broken reports: grype is ERROR naming the file, and another scanner's
# results are kept.
cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
printf 'FAKE-FINDING high\n' >"$src/notes.txt"
for mode in empty truncated notjson none; do
  GRYPE_FAKE_MODE=$mode run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad-$mode" --no-progress --sandbox off \
    --scanners grype,fake-sarif --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml"
  assert_eq "$mode: exit 1" "$status" 1
  case $(status_of "$TEST_TMP/bad-$mode" grype) in
    ERROR*grype.json*) ok "$mode: ERROR naming grype.json" ;;
    *) not_ok "$mode: ERROR naming grype.json: $(status_of "$TEST_TMP/bad-$mode" grype)" ;;
  esac
  case $(status_of "$TEST_TMP/bad-$mode" fake-sarif) in
    FAILED*) ok "$mode: the other scanner's results are kept" ;;
    *) not_ok "$mode: the other scanner's results are kept: $(status_of "$TEST_TMP/bad-$mode" fake-sarif)" ;;
  esac
done

# Options: severity_threshold becomes --fail-on; an unknown option is an error.
cat >"$TEST_TMP/opts.yaml" <<'EOC'
scanners:
  grype:
    options:
      severity_threshold: HIGH
EOC
: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opts" --no-progress --sandbox off --scanners grype --config "$TEST_TMP/opts.yaml"
assert_match "severity_threshold HIGH: --fail-on high" "$GRYPE_FAKE_LOG" "^scan .*--fail-on high"
# grype exits 2 when a match is at or above --fail-on: not an error.
assert_eq "grype's exit 2 with findings: FAILED, not ERROR" "$(status_of "$TEST_TMP/opts" grype)" "FAILED "
assert_eq "grype's exit 2 with findings: the 8 findings" "$(findings "$TEST_TMP/opts" | wc -l)" 8
sed 's/HIGH/CRITICAL/' "$TEST_TMP/opts.yaml" >"$TEST_TMP/crit.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/crit" --no-progress --sandbox off --scanners grype --config "$TEST_TMP/crit.yaml"
assert_eq "severity_threshold CRITICAL (grype exits 0): the same 8 findings" "$(findings "$TEST_TMP/crit" | wc -l)" 8
cat >"$TEST_TMP/unk.yaml" <<'EOC'
scanners:
  grype:
    options:
      only_fixed: true
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/unk" --no-progress --sandbox off --scanners grype --config "$TEST_TMP/unk.yaml"
assert_eq "an unknown option: a configuration error (exit 3)" "$status" 3
assert_file_contains "... naming it" "$TEST_TMP/err" "scanners.grype.options: unknown option 'only_fixed'"
check "... before any scanner ran" test ! -e "$TEST_TMP/unk/scanners"
# ignore_paths reach grype as --exclude; one its syntax cannot hold
# (a comma) makes grype ERROR naming it, and grype is not run.
cat >"$TEST_TMP/ign.yaml" <<'EOC'
global_settings:
  ignore_paths:
    - path: vendor
      reason: third party
EOC
: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/ign" --no-progress --sandbox off --scanners grype --config "$TEST_TMP/ign.yaml"
assert_match "ignore_paths: --exclude the path and below it" "$GRYPE_FAKE_LOG" "^scan .*--exclude=./vendor --exclude=./vendor/\*\*"
printf 'global_settings:\n  ignore_paths:\n    - path: "a,b"\n      reason: odd\n' >"$TEST_TMP/comma.yaml"
: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/comma" --no-progress --sandbox off --scanners grype --config "$TEST_TMP/comma.yaml"
case $(status_of "$TEST_TMP/comma" grype) in
  "ERROR grype's --exclude cannot name the ignore path 'a,b'"*) ok "an ignore path with a comma: ERROR naming it" ;;
  *) not_ok "an ignore path with a comma: ERROR naming it: $(status_of "$TEST_TMP/comma" grype)" ;;
esac
check_fails "an ignore path with a comma: grype did not scan" grep -q '^scan' "$GRYPE_FAKE_LOG"

# The operator's own config file (outside every checkout) is used, and its
# db.cache-dir is warned about.
printf 'db:\n  cache-dir: /tmp/elsewhere\n' >"$TEST_TMP/mygrype.yaml"
cat >"$TEST_TMP/cf.yaml" <<EOC
scanners:
  grype:
    options:
      config_file: $TEST_TMP/mygrype.yaml
EOC
: >"$GRYPE_FAKE_LOG"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/cf" --no-progress --sandbox off --scanners grype --config "$TEST_TMP/cf.yaml"
assert_match "the operator's config_file is passed" "$GRYPE_FAKE_LOG" "^scan .*--config $TEST_TMP/mygrype.yaml"
assert_file_contains "its db.cache-dir is warned about" "$TEST_TMP/err" "mygrype.yaml sets db.cache-dir, which ash overrides with GRYPE_DB_CACHE_DIR"
assert_match "the scan still reads the variable's cache" "$GRYPE_FAKE_LOG" "^scan .*cache=$GRYPE_DB_CACHE_DIR "

# grype's SARIF when it wrote no JSON report: the golden grype's own test
# expects of its SARIF writer for a directory scan, two results, read as
# the findings (rule ids, files, lines).  grype names the files of a dir:
# scan from the scanned directory with a leading "/", as in its JSON
# report: the path below the root, never taken for a host path.
GRYPE_FAKE_MODE=sarifonly run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/sarifonly" \
  --no-progress --sandbox off --scanners grype
assert_eq "SARIF only: findings, exit 2" "$status" 2
python3 - "$tools/grype-sarif.golden" <<'PY' | sort >"$TEST_TMP/want-sarif"
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["ruleId"], l["artifactLocation"]["uri"].lstrip("/"), l["region"]["startLine"])
PY
findings "$TEST_TMP/sarifonly" | cut -d' ' -f1-3 >"$TEST_TMP/got-sarif"
check "SARIF only: the findings are the SARIF's (rule, file, line)" cmp -s "$TEST_TMP/got-sarif" "$TEST_TMP/want-sarif"
cmp -s "$TEST_TMP/got-sarif" "$TEST_TMP/want-sarif" || diff "$TEST_TMP/want-sarif" "$TEST_TMP/got-sarif" | awk '{ print "# " $0 }'
check_fails "SARIF only: no location keeps the leading /" \
  grep -q '"uri": *"/some/path' "$TEST_TMP/sarifonly/reports/ash.sarif"
check_fails "SARIF only: grype is not ERROR" \
  sh -c "echo '$(status_of "$TEST_TMP/sarifonly" grype)' | grep -q '^ERROR'"

# As an unprivileged operator (the test runs as root): the update into the
# account's own cache, then the same findings unsandboxed and under each
# usable backend, the sandboxed scan unable to write outside its results.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  u=$TEST_TMP/unpriv
  mkdir -p "$u/cache"
  : >"$u/calls.log"
  chown -R "$who" "$u"
  chmod a+rx "$TEST_TMP"
  chmod -R a+rX "$src" "$tools"
  for m in off $backends; do
    $as_user env -i PATH="$tools:/usr/bin:/bin" HOME="$u" LANG=C.UTF-8 \
      GRYPE_DB_CACHE_DIR="$u/cache" GRYPE_FAKE_LOG="$u/calls.log" \
      "$ASH" scan --source-dir "$src" --output-dir "$u/out-$m" --no-progress \
      --sandbox "$m" --scanners grype >"$u/out" 2>"$u/err"
    st=$?
    assert_eq "$who, $m: exit 2" "$st" 2
    [ "$st" = 2 ] || diag "$(tail -n 5 "$u/err")"
    findings "$u/out-$m" >"$u/got-$m" 2>/dev/null
    check "$who, $m: the same findings as root's unsandboxed scan" cmp -s "$u/got-$m" "$TEST_TMP/want"
  done
  assert_eq "$who: one update a scan, into the account's cache" \
    "$(grep -c "^update-start .*cache=$u/cache " "$u/calls.log")" \
    "$(echo off $backends | wc -w)"
  if [ -n "$backends" ]; then
    check "$who: a sandboxed scan could not write outside its results" \
      test "$(grep -c '^scan ' "$u/calls.log")" -eq 1
  fi
else
  ok "# SKIP the unprivileged round: not root, or no setpriv"
fi
done_testing
