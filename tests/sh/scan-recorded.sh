#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Outputs the real tools wrote (tests/fixtures/tools/README.md names each
# one's origin), replayed byte for byte by the fake tools: gitleaks'
# SARIF (its own report test's, and a real 8.30.1 run's), a
# detect-secrets baseline, and checkov's SARIF.  The findings ash
# reports (count, rule ids, files, lines, severities) equal what each
# recording holds, read here from the recording itself, with --sandbox
# off and under every usable backend, as root and as an unprivileged
# account; a secret value or snippet the recording holds reaches no file
# below the output directory.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

fx=$top_srcdir/tests/fixtures/tools
work=$TEST_TMP/work
mkdir -p "$work/bin" "$work/tools"
iac_install_ash "$work/bin"
cp "$fx/fake-gitleaks" "$work/tools/gitleaks"
cp "$fx/gitleaks-data/sarif_simple.sarif" "$work/tools/gitleaks-replay.sarif"
cp "$fx/fake-detect-secrets" "$work/tools/detect-secrets"
cp "$fx/detect-secrets-data/secrets.baseline" "$work/tools/detect-secrets-replay.json"
cp "$fx/checkov" "$work/tools/checkov"
cp -R "$fx/iac-data" "$work/tools/iac-data"
cp "$fx/iac-data/checkov/results_sarif.sarif" "$work/tools/checkov-replay.sarif"
chmod 755 "$work/tools/gitleaks" "$work/tools/detect-secrets" "$work/tools/checkov"

# The tree the recordings name: every file a finding points at exists
# (the checkov SARIF's "path%20to/ec2.tf" is the file "path to/ec2.tf").
src=$work/src
mkdir -p "$src/detect_secrets/plugins" "$src/docs" "$src/path to" "$src/app"
for f in auth.py detect_secrets/plugins/private_key.py detect_secrets/plugins/twilio.py \
  docs/audit.md docs/design.md s3.tf "path to/ec2.tf" app/settings.py docs/example.md; do
  python3 -c 'import sys; open(sys.argv[1], "w").write("x = 1\n" * 250)' "$src/$f"
done
chmod -R a+rX "$work"
chmod 755 "$TEST_TMP"

# What each recording holds, one "scanner rule file line severity" a line:
# gitleaks' results are secrets (CRITICAL, as ash rates every gitleaks
# finding); detect-secrets' rule is the secret's type with every
# character outside [A-Za-z0-9._-] made '-', and every secret CRITICAL;
# checkov's results are all level "error" without a severity of their
# own: HIGH, and ash reports the file a percent-encoded URI names.
python3 - "$fx" >"$TEST_TMP/want" <<'PY'
import json, sys, re
from urllib.parse import unquote
fx = sys.argv[1]
g = json.load(open(fx + "/gitleaks-data/sarif_simple.sarif"))
for run in g["runs"]:
    for r in run["results"]:
        l = r["locations"][0]["physicalLocation"]
        print("gitleaks", r["ruleId"], l["artifactLocation"]["uri"],
              l["region"]["startLine"], "CRITICAL")
d = json.load(open(fx + "/detect-secrets-data/secrets.baseline"))
for f, lst in d["results"].items():
    for x in lst:
        print("detect-secrets", re.sub(r"[^A-Za-z0-9._-]", "-", x["type"]),
              x.get("filename", f), x["line_number"], "CRITICAL")
c = json.load(open(fx + "/iac-data/checkov/results_sarif.sarif"))
for run in c["runs"]:
    for r in run["results"]:
        assert r["level"] == "error"
        l = r["locations"][0]["physicalLocation"]
        print("checkov", r["ruleId"], unquote(l["artifactLocation"]["uri"]),
              l["region"]["startLine"], "HIGH")
PY
sort -o "$TEST_TMP/want" "$TEST_TMP/want"
assert_eq "the recordings hold 19 findings" "$(wc -l <"$TEST_TMP/want")" 19

# What of the recordings must not reach a report ash makes (the tools' own
# outputs below scanners/ are theirs): gitleaks' unredacted snippet "a
# secret" (ash's own messages say "a secret of type ..."), the hashes
# detect-secrets keeps (ash reports neither a value nor its hash).
no_leak_below () { # DIR WHAT
  _found=$(grep -rhoE --exclude-dir=scanners 'a secret.{0,8}' "$1" | grep -v '^a secret of type' | head -3)
  for s in daefe0b4345a654580dcad25c7c11ff4c944a8c0 63e1b8ad9e948f948bc19035801e8529c4c94b13; do
    grep -rqF --exclude-dir=scanners -- "$s" "$1" && _found="$_found [$s]"
  done
  assert_eq "$2: no recorded snippet or hash in ash's reports" "$_found" ""
}

run_as () { # WHO OUT MODE
  if [ "$1" = root ]; then pre=; else pre=$(as_unpriv_cmd "$1"); fi
  env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 $pre \
    "$work/bin/ash" scan --source-dir "$src" --output-dir "$work/$2" --no-progress \
    --scanners "$scanners" --sandbox "$3" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

scanners=gitleaks,detect-secrets,checkov
accounts=root
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  accounts="root $(unpriv_user)"
fi
for who in $accounts; do
  home=$HOME
  if [ "$who" != root ]; then
    home=$(getent passwd "$who" | cut -d: -f6)
    [ -d "$home" ] || home=$work
    chown -R "$who" "$work"
  fi
  run_as "$who" "out-$who-off" off
  assert_eq "$who, unsandboxed: findings fail the scan (exit 2)" "$status" 2
  iac_findings "$work/out-$who-off" >"$TEST_TMP/off"
  check "$who, unsandboxed: the findings the recordings hold" cmp "$TEST_TMP/want" "$TEST_TMP/off"
  no_leak_below "$work/out-$who-off" "$who, unsandboxed"
  if [ "$who" = root ]; then
    probe=$("$work/bin/ash" sandbox probe 2>&1)
  else
    probe=$(env -i $scanner_user_env PATH=/usr/bin:/bin HOME="$home" $(as_unpriv_cmd "$who") "$work/bin/ash" sandbox probe 2>&1)
  fi
  for b in bwrap landlock firejail; do
    if ! echo "$probe" | grep -q "^$b: usable"; then
      ok "$who, $b # SKIP $b is not usable here"
      continue
    fi
    run_as "$who" "out-$who-$b" "$b"
    assert_eq "$who, $b: exit 2 as unsandboxed" "$status" 2
    iac_findings "$work/out-$who-$b" >"$TEST_TMP/$b"
    check "$who, $b: the same findings as unsandboxed" cmp "$TEST_TMP/off" "$TEST_TMP/$b"
    no_leak_below "$work/out-$who-$b" "$who, $b"
  done
done
chown -R "$(id -un)" "$work" 2>/dev/null

# A second gitleaks recording, a real run: gitleaks 8.30.1 over upstream
# ASH's gitleaks fixture tree (app/settings.py, docs/example.md), with
# its full default rule set and --redact.
cp "$fx/gitleaks-data/gitleaks-8.30.1.sarif" "$work/tools/gitleaks-replay.sarif"
python3 - "$fx/gitleaks-data/gitleaks-8.30.1.sarif" <<'PY' | sort >"$TEST_TMP/want-gl"
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run["results"]:
        l = r["locations"][0]["physicalLocation"]
        print("gitleaks", r["ruleId"], l["artifactLocation"]["uri"],
              l["region"]["startLine"], "CRITICAL")
PY
assert_eq "gitleaks 8.30.1's report holds 4 findings" "$(wc -l <"$TEST_TMP/want-gl")" 4
scanners=gitleaks
home=$HOME
probe=$("$work/bin/ash" sandbox probe 2>&1)
for m in off bwrap landlock firejail; do
  if [ "$m" != off ] && ! echo "$probe" | grep -q "^$m: usable"; then
    ok "gitleaks 8.30.1, $m # SKIP $m is not usable here"
    continue
  fi
  run_as root "gl-$m" "$m"
  iac_findings "$work/gl-$m" >"$TEST_TMP/gl"
  check "gitleaks 8.30.1, $m: the findings its report holds" cmp "$TEST_TMP/want-gl" "$TEST_TMP/gl"
done

# Control: the replay is what decides.  Without the recordings beside
# them the fakes scan the tree themselves and find none of this.
rm -f "$work/tools/gitleaks-replay.sarif" "$work/tools/detect-secrets-replay.json" \
  "$work/tools/checkov-replay.sarif"
scanners=gitleaks,detect-secrets,checkov
run_as root out-noreplay off
iac_findings "$work/out-noreplay" >"$TEST_TMP/noreplay"
assert_file_lacks "control: without the recordings, no gitleaks test-rule" "$TEST_TMP/noreplay" "gitleaks test-rule"
assert_file_lacks "control: without the recordings, no detect-secrets finding in docs/audit.md" "$TEST_TMP/noreplay" "docs/audit.md"
assert_file_lacks "control: without the recordings, no checkov SARIF finding" "$TEST_TMP/noreplay" "CKV_AWS_3 "
done_testing
