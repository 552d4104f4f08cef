#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream's scanners.NAME.options.tool_version and install_timeout:
# ash installs nothing while it scans, so tool_version is a constraint the
# tool ash finds must satisfy (else the scanner is MISSING, saying which
# version it found and how to install another), and install_timeout is
# accepted with a warning that it has no effect on a scan.  The version is
# asked of the tool inside its sandbox (a tool that reads a secret on
# --version reads nothing; control: unsandboxed it does), kept in the tool
# probe cache, and escaped wherever it is shown.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
unset ASH_CONFIG ASH_SCANNERS ASH_EXCLUDED_SCANNERS CI
export XDG_CACHE_HOME="$TEST_TMP/cache"

src=$TEST_TMP/repo
mkdir -p "$src"
printf 'AWSTemplateFormatVersion: "2010-09-09"\nResources: {}\n' >"$src/test.yaml"

# A checkov that answers --version with what VERSION_FILE holds, or, when
# SECRET is readable, with the secret's text; each --version call is
# logged to CALLS when it can be written.  Otherwise it is the fake
# checkov of tests/fixtures/tools.
tools=$TEST_TMP/tools
mkdir -p "$tools" "$TEST_TMP/secret"
chmod 755 "$tools"
cp "$top_srcdir/tests/fixtures/tools/checkov" "$tools/checkov.real"
cp -r "$top_srcdir/tests/fixtures/tools/iac-data" "$tools/"
printf '3.2.396\n' >"$tools/VERSION"
cat >"$tools/checkov" <<EOF
#!/bin/sh
if [ "\$1" = --version ]; then
  echo call >>"$TEST_TMP/calls" 2>/dev/null
  if cat "$TEST_TMP/secret/version" 2>/dev/null; then exit 0; fi
  cat "$tools/VERSION"
  exit 0
fi
exec "$tools/checkov.real" "\$@"
EOF
chmod 755 "$tools/checkov"
PATH=$tools:$top_srcdir/tests/fixtures/tools:$PATH
export PATH

conf=$TEST_TMP/ash.yaml
with_version () {
  printf 'scanners:\n  checkov:\n    options:\n      tool_version: "%s"\n' "$1" >"$conf"
}
status_of () { # OUT SCANNER
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"][sys.argv[2]]
print(r["status"])' "$1" "$2"
}
reason_of () { # OUT SCANNER
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"][sys.argv[2]]
print(r.get("missing_reason") or r.get("error_reason") or "")' "$1" "$2"
}
scan () { # OUT [ARGS...]
  _o=$1
  shift
  rm -rf "$_o"
  run_ash scan --source-dir "$src" --output-dir "$_o" --no-progress \
    --scanners checkov -c "$conf" "$@"
}

# Satisfied: checkov runs.
with_version ">=3.2.0,<4.0.0"
scan "$TEST_TMP/ok" --sandbox off
assert_eq "3.2.396 satisfies >=3.2.0,<4.0.0: checkov ran" \
  "$(status_of "$TEST_TMP/ok" checkov)" FAILED
check "... and scanned (its argv recorded)" test -s "$TEST_TMP/ok/scanners/checkov/source/ARGS"

# Not satisfied: MISSING, naming what was found and how to install.
with_version ">=4.0.0"
scan "$TEST_TMP/old" --sandbox off
assert_eq "3.2.396 does not satisfy >=4.0.0: checkov is MISSING" \
  "$(status_of "$TEST_TMP/old" checkov)" MISSING
reason=$(reason_of "$TEST_TMP/old" checkov)
assert_contains "... the reason names the version found and where" "$reason" \
  "checkov 3.2.396 at $tools/checkov does not satisfy scanners.checkov.options.tool_version '>=4.0.0'"
assert_contains "... and how to install another" "$reason" "ash dependencies install --scanners checkov"
check "... checkov did not scan" test ! -e "$TEST_TMP/old/scanners/checkov/source/ARGS"
assert_eq "... the scan is incomplete (exit 1)" "$status" 1

# Every clause counts; spelling variants upstream writes.
for spec in "~=3.2" "==3.2.*" ">=3.2.396" "!=3.2.395, >3"; do
  with_version "$spec"
  scan "$TEST_TMP/v"  --sandbox off
  assert_eq "3.2.396 satisfies '$spec'" "$(status_of "$TEST_TMP/v" checkov)" FAILED
done
for spec in "~=3.3" "==3.1.*" "<3.2.396" ">=3.2.0,!=3.2.396"; do
  with_version "$spec"
  scan "$TEST_TMP/v"  --sandbox off
  assert_eq "3.2.396 does not satisfy '$spec'" "$(status_of "$TEST_TMP/v" checkov)" MISSING
done

# What is not a constraint is a configuration error, in the scan and in
# config validate alike, and nothing runs (bandit, whose options are
# checked with the configuration).
for spec in "latest" "^3.2" "3.2.396" ">=3.2 <4"; do
  printf 'scanners:\n  bandit:\n    options:\n      tool_version: "%s"\n' "$spec" >"$conf"
  rm -rf "$TEST_TMP/bad"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress \
    --scanners bandit -c "$conf" --sandbox off
  assert_eq "bandit: '$spec' is a configuration error (exit 3)" "$status" 3
  assert_file_contains "... naming the key" "$TEST_TMP/err" \
    "scanners.bandit.options.tool_version: '$spec' is not a version constraint"
  check "... and nothing ran" test ! -e "$TEST_TMP/bad/scanners/bandit"
  run_ash config validate --source-dir "$src" -c "$conf"
  assert_eq "config validate refuses '$spec' too (exit 3)" "$status" 3
done
printf 'scanners:\n  bandit:\n    options:\n      tool_version: 3\n' >"$conf"
run_ash config validate --source-dir "$src" -c "$conf"
assert_eq "a tool_version that is not a string is refused (exit 3)" "$status" 3
assert_file_contains "... saying it must be a string" "$TEST_TMP/err" \
  "scanners.bandit.options.tool_version must be a string"
for bad in 0 -5 86401 '"300"'; do
  printf 'scanners:\n  bandit:\n    options:\n      install_timeout: %s\n' "$bad" >"$conf"
  run_ash config validate --source-dir "$src" -c "$conf"
  assert_eq "install_timeout $bad is refused (exit 3)" "$status" 3
  assert_file_contains "... naming the range" "$TEST_TMP/err" \
    "scanners.bandit.options.install_timeout must be a number of seconds from 1 to 86400"
done
# checkov's options are checked with the configuration too: a
# configuration error (exit 3) in the scan and in config validate, and
# checkov is never asked.
with_version "latest"
rm -f "$TEST_TMP/calls"
scan "$TEST_TMP/bad" --sandbox off
assert_eq "checkov: 'latest' is a configuration error (exit 3)" "$status" 3
assert_file_contains "... naming the key" "$TEST_TMP/err" \
  "scanners.checkov.options.tool_version: 'latest' is not a version constraint"
check "... checkov did not run" test ! -e "$TEST_TMP/bad/scanners/checkov"
check "... and was not asked for its version" test ! -e "$TEST_TMP/calls"
run_ash config validate --source-dir "$src" -c "$conf"
assert_eq "config validate refuses it too (exit 3)" "$status" 3
assert_file_contains "... with the same message" "$TEST_TMP/err" \
  "ash: scanners.checkov.options.tool_version: 'latest' is not a version constraint"

# The probe cache: asked once per tool; again when the tool changes, and
# every time with --no-probe-cache.
with_version ">=3"
rm -rf "$XDG_CACHE_HOME" && rm -f "$TEST_TMP/calls"
scan "$TEST_TMP/c1" --sandbox off
scan "$TEST_TMP/c2" --sandbox off
assert_eq "the version is asked once for two scans" "$(wc -l <"$TEST_TMP/calls")" 1
printf '3.2.397\n' >"$tools/VERSION"
printf '\n# changed\n' >>"$tools/checkov"
scan "$TEST_TMP/c3" --sandbox off
assert_eq "a changed tool is asked again" "$(wc -l <"$TEST_TMP/calls")" 2
with_version "==3.2.397"
scan "$TEST_TMP/c3" --sandbox off
assert_eq "... and its new version counts" "$(status_of "$TEST_TMP/c3" checkov)" FAILED
scan "$TEST_TMP/c4" --sandbox off --no-probe-cache
scan "$TEST_TMP/c4" --sandbox off --no-probe-cache
assert_eq "--no-probe-cache asks every time" "$(wc -l <"$TEST_TMP/calls")" 4
printf '3.2.396\n' >"$tools/VERSION"

# A hostile version string is escaped in the reason, the log and the
# reports.
printf '3.2.396\033]0;owned\007\033[2J\n' >"$tools/VERSION"
printf '\n# hostile\n' >>"$tools/checkov"
with_version ">=4"
scan "$TEST_TMP/esc" --sandbox off
assert_eq "a version with control characters: MISSING" "$(status_of "$TEST_TMP/esc" checkov)" MISSING
check_fails "... no escape character reaches stderr" grep -q "$(printf '\033')" "$TEST_TMP/err"
check_fails "... nor the aggregated results" grep -rq "$(printf '\033')" "$TEST_TMP/esc/ash_aggregated_results.json"
check_fails "... nor a report" grep -rq "$(printf '\033')" "$TEST_TMP/esc/reports"
assert_file_contains "... it is shown escaped" "$TEST_TMP/err" 'checkov 3.2.396\e]0;owned'
printf '3.2.396\n' >"$tools/VERSION"
printf '\n# restored\n' >>"$tools/checkov"

# install_timeout: accepted, with a warning that it does nothing here.
printf 'scanners:\n  checkov:\n    options:\n      install_timeout: 300\n' >"$conf"
scan "$TEST_TMP/it" --sandbox off
assert_eq "install_timeout is accepted: checkov ran" "$(status_of "$TEST_TMP/it" checkov)" FAILED
assert_file_contains "... with a warning saying where it belongs" "$TEST_TMP/err" \
  "scanners.checkov.options.install_timeout has no effect on a scan: ash installs no tool while it scans"
# actionlint prints its version for -version.
mkdir -p "$src/.github/workflows"
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n' >"$src/.github/workflows/ci.yml"
printf 'scanners:\n  actionlint:\n    options:\n      tool_version: "<1.7"\n' >"$conf"
rm -rf "$TEST_TMP/al"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/al" --no-progress \
  --scanners actionlint -c "$conf" --sandbox off
assert_eq "actionlint 1.7.12 does not satisfy <1.7: MISSING" "$(status_of "$TEST_TMP/al" actionlint)" MISSING
assert_contains "... asked with -version" "$(reason_of "$TEST_TMP/al" actionlint)" "actionlint 1.7.12 at"

# The version is asked inside the scanner's sandbox: a checkov that
# answers with a secret it can read answers with its own file there.
printf '9.9.9\n' >"$TEST_TMP/secret/version"
chmod 644 "$TEST_TMP/secret/version"
with_version "<9"
confined () { # BACKEND
  rm -rf "$d/sb"
  $as_user env XDG_CACHE_HOME="$d/cache-$1" "$ASH" scan --source-dir "$src" \
    --output-dir "$d/sb" --no-progress --scanners checkov -c "$conf" \
    --sandbox "$1" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  [ -f "$d/sb/ash_aggregated_results.json" ] || awk '{ print "# " $0 }' "$TEST_TMP/err"
  assert_eq "$who, $1: the probe could not read the secret: checkov ran" \
    "$(status_of "$d/sb" checkov)" FAILED
}
probe_out=$("$ASH" sandbox probe 2>&1)
per_user () {
  d=$TEST_TMP/u-$who
  mkdir -p "$d"
  [ -z "$as_user" ] || chown "$who" "$d"
  for b in bwrap landlock firejail; do
    if echo "$probe_out" | grep -q "^$b: usable"; then
      confined "$b"
    else
      ok "$who, $b # SKIP $b is not usable here"
    fi
  done
  rm -rf "$d/sb"
  $as_user env XDG_CACHE_HOME="$d/cache-off" "$ASH" scan --source-dir "$src" \
    --output-dir "$d/sb" --no-progress --scanners checkov -c "$conf" \
    --sandbox off >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$who, control: unsandboxed, the probe read the secret: checkov is MISSING" \
    "$(status_of "$d/sb" checkov)" MISSING
  assert_contains "... naming the secret's version" "$(reason_of "$d/sb" checkov)" "checkov 9.9.9 at"
}
each_user per_user

done_testing
