#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# gitleaks end to end through the fake gitleaks (tests/fixtures/tools/
# fake-gitleaks, which keeps gitleaks' flags, exit codes, .gitleaksignore
# and SARIF): its findings with --sandbox off and under every usable
# backend are the same; the tree's .gitleaks.toml is not read; what the
# tree's .gitleaksignore hides is re-scanned and reported; ignore_paths
# reach gitleaks; the options follow the option-file rule; a broken report
# makes gitleaks ERROR naming the file while bandit's results are kept; no
# planted secret reaches any file below the output directory.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/secrets
cp -R "$top_srcdir/tests/fixtures/repos/secrets" "$src"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-gitleaks" "$tools/gitleaks"
chmod 755 "$tools/gitleaks"
PATH=$tools:$PATH
export PATH
planted="AKIAZZPLANTED2TEST7Q AKIAZZPLANTED3LEGACY ghp_PLANTEDtoken0123456789abcdefghijklmn"

cat >"$TEST_TMP/conf.yaml" <<'EOF2'
global_settings:
  ignore_paths:
    - path: vendor/
      reason: third-party code
EOF2

findings () { aggregated_findings "$1"; }
no_secret_below () {
  for s in $planted; do
    if grep -rqF -- "$s" "$1"; then
      not_ok "$2: no planted secret below the output directory ($s found: $(grep -rlF -- "$s" "$1" | head -3))"
      return
    fi
  done
  ok "$2: no planted secret below the output directory"
}

want="gitleaks aws-access-token app/legacy.py 2 CRITICAL
gitleaks aws-access-token app/settings.py 3 CRITICAL
gitleaks github-pat docs/notes.txt 2 CRITICAL
gitleaks private-key keys/deploy.pem 1 CRITICAL"

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress \
  --sandbox off --scanners gitleaks --config "$TEST_TMP/conf.yaml"
assert_eq "unsandboxed: findings, exit 2" "$status" 2
assert_eq "unsandboxed: the findings the fake's output holds" "$(findings "$TEST_TMP/off")" "$want"
no_secret_below "$TEST_TMP/off" "unsandboxed"
assert_file_lacks "no 'no adapter' message" "$TEST_TMP/err" "no adapter"
python3 - "$TEST_TMP/off/reports/ash.sarif" >"$TEST_TMP/drv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    drv = run["tool"]["driver"]
    if drv["name"] != "gitleaks":
        continue
    print("version", drv.get("version"), drv.get("semanticVersion"))
    for r in drv["rules"]:
        print("rule", r["id"], "help" in r, r["properties"]["security-severity"])
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print("snippet", l["region"].get("snippet", {}).get("text"))
        print("level", x["level"])
        print("uri-absolute", l["artifactLocation"]["uri"].startswith("/"))
PY
assert_file_contains "driver version from gitleaks version" "$TEST_TMP/drv" "version 8.21.2 None"
assert_file_contains "rules have help and a security-severity" "$TEST_TMP/drv" "rule aws-access-token True 9.5"
assert_file_lacks "every snippet redacted" "$TEST_TMP/drv" "snippet AKIA"
assert_file_contains "snippets say REDACTED" "$TEST_TMP/drv" "snippet REDACTED"
assert_file_lacks "no absolute location" "$TEST_TMP/drv" "uri-absolute True"
assert_file_contains "results are errors" "$TEST_TMP/drv" "level error"
assert_file_contains "the .gitleaksignore re-scan is logged" "$TEST_TMP/off/ash.log" ".gitleaksignore names 1 file(s)"

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
for b in bwrap landlock firejail; do
  case " $(echo $backends) " in
    *" $b "*) ;;
    *) ok "# SKIP $b is not usable here"; continue ;;
  esac
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress \
    --sandbox "$b" --scanners gitleaks --config "$TEST_TMP/conf.yaml"
  assert_eq "$b: exit 2" "$status" 2
  assert_eq "$b: the same findings as unsandboxed" "$(findings "$TEST_TMP/out-$b")" "$want"
  no_secret_below "$TEST_TMP/out-$b" "$b"
done

# The config ash writes (gitleaks' default rules) and the empty ignore
# directory are in a directory of the run's own, outside the tree, mode
# 0700, removed when the run ends; a wrapper records what gitleaks got.
mkdir -p "$TEST_TMP/rc-tools" "$TEST_TMP/rc-tmp"
cp "$tools/gitleaks" "$TEST_TMP/rc-tools/gitleaks.real"
cat >"$TEST_TMP/rc-tools/gitleaks" <<EOF2
#!/bin/sh
for a in "\$@"; do
  case \$a in
    --config=*) c=\${a#--config=}; d=\$(dirname "\$c")
      echo "config=\$c dir-mode=\$(stat -c %a "\$d") default=\$(grep -c '^useDefault = true' "\$c")" >>"$TEST_TMP/rc-log" ;;
    --gitleaks-ignore-path=*) echo "ignore-path=\${a#--gitleaks-ignore-path=} entries=\$(ls -A "\${a#--gitleaks-ignore-path=}" | wc -l)" >>"$TEST_TMP/rc-log" ;;
  esac
done
exec "\$0.real" "\$@"
EOF2
chmod 755 "$TEST_TMP/rc-tools"/*
PATH=$TEST_TMP/rc-tools:$PATH TMPDIR=$TEST_TMP/rc-tmp run_ash scan --source-dir "$src" \
  --output-dir "$TEST_TMP/rc" --no-progress --sandbox off --scanners gitleaks --config "$TEST_TMP/conf.yaml"
assert_eq "run config: exit 2" "$status" 2
rc_ud=$(ash_tmp_dir "$TEST_TMP/rc-tmp")
assert_file_contains "gitleaks' config is in the run's own directory" "$TEST_TMP/rc-log" "config=$rc_ud/ash-gitleaks-"
assert_file_contains "that directory is 0700, the config keeps the default rules" "$TEST_TMP/rc-log" "dir-mode=700 default=1"
assert_file_contains "the ignore path is an empty directory there" "$TEST_TMP/rc-log" "ignore-path=$rc_ud/ash-gitleaks-"
assert_file_contains "the ignore directory is empty" "$TEST_TMP/rc-log" "entries=0"
check "the run's directory is removed after the run" sh -c "test -d '$rc_ud' && ! ls '$rc_ud' | grep -q ash-gitleaks-"

# GITLEAKS_* variables: never passed into a sandbox, and outside one
# ash's --config wins over GITLEAKS_CONFIG (which hides everything here).
cat >"$TEST_TMP/hide-all.toml" <<'EOF2'
[allowlist]
paths = ['''.*''']
EOF2
for b in off bwrap; do
  if [ "$b" = bwrap ] && ! case " $(echo $backends) " in *" bwrap "*) true ;; *) false ;; esac; then
    ok "# SKIP bwrap is not usable here"; ok "# SKIP bwrap is not usable here"; continue
  fi
  GITLEAKS_CONFIG=$TEST_TMP/hide-all.toml GITLEAKS_LICENSE=x run_ash scan --source-dir "$src" \
    --output-dir "$TEST_TMP/env-$b" --no-progress --sandbox "$b" --scanners gitleaks \
    --config "$TEST_TMP/conf.yaml"
  assert_eq "$b: GITLEAKS_CONFIG changes nothing" "$(findings "$TEST_TMP/env-$b")" "$want"
  if [ "$b" = off ]; then
    assert_file_contains "off: the variable reaches gitleaks (the control)" \
      "$TEST_TMP/env-$b/scanners/gitleaks/source/gitleaks.stderr.log" "environment has GITLEAKS_CONFIG"
  else
    assert_file_lacks "$b: no GITLEAKS_ variable reaches the sandbox" \
      "$TEST_TMP/env-$b/scanners/gitleaks/source/gitleaks.stderr.log" "environment has GITLEAKS_"
  fi
done

# Without ignore_paths, vendor/ is scanned.
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/noign" --no-progress \
  --sandbox off --scanners gitleaks
assert_file_contains "without ignore_paths vendor/ is scanned" "$TEST_TMP/noign/reports/ash.sarif" "vendor/bundle.txt"

# Older releases have no "dir": detect --no-git.
FAKE_GITLEAKS_VERSION=8.18.4 run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/old" \
  --no-progress --sandbox off --scanners gitleaks --config "$TEST_TMP/conf.yaml"
assert_eq "gitleaks 8.18 (detect --no-git): exit 2" "$status" 2
assert_eq "gitleaks 8.18: the same findings" "$(findings "$TEST_TMP/old")" "$want"

# An option ash does not support is a configuration error naming it.
cat >"$TEST_TMP/bad.yaml" <<'EOF2'
scanners:
  gitleaks:
    options:
      log_opts: "--all"
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress \
  --sandbox off --scanners gitleaks --config "$TEST_TMP/bad.yaml"
assert_eq "unsupported option: exit 3" "$status" 3
assert_file_contains "the error names the option" "$TEST_TMP/err" "scanners.gitleaks.options.log_opts"
cat >"$TEST_TMP/bad2.yaml" <<'EOF2'
scanners:
  gitleaks:
    options:
      max_target_megabytes: "many"
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad" --no-progress \
  --sandbox off --scanners gitleaks --config "$TEST_TMP/bad2.yaml"
assert_eq "wrong type: exit 3" "$status" 3
assert_file_contains "the error names the option and the type" "$TEST_TMP/err" "scanners.gitleaks.options.max_target_megabytes must be a positive integer"

# The operator's config_file (outside the tree) adds a rule; the default
# rules stay through [extend].
mkdir -p "$TEST_TMP/ops"
cat >"$TEST_TMP/ops/gitleaks.toml" <<'EOF2'
[extend]
useDefault = true
[[rules]]
id = "region-name"
description = "a region name"
regex = '''eu-west-1'''
EOF2
cat >"$TEST_TMP/ops.yaml" <<EOF2
global_settings:
  ignore_paths: [{path: vendor/, reason: third-party code}]
scanners:
  gitleaks:
    options:
      config_file: $TEST_TMP/ops/gitleaks.toml
      max_target_megabytes: 1
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/ops-out" --no-progress \
  --sandbox off --scanners gitleaks --config "$TEST_TMP/ops.yaml"
assert_eq "operator config_file: exit 2" "$status" 2
assert_file_contains "the operator's rule applies" "$TEST_TMP/ops-out/reports/ash.sarif" "region-name"
assert_file_contains "the default rules still apply" "$TEST_TMP/ops-out/reports/ash.sarif" "github-pat"
if case " $(echo $backends) " in *" bwrap "*) true ;; *) false ;; esac; then
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/ops-bw" --no-progress \
    --sandbox bwrap --scanners gitleaks --config "$TEST_TMP/ops.yaml"
  assert_eq "bwrap: a config_file outside the tree is refused: exit 1" "$status" 1
  assert_file_contains "bwrap: the reason names the option and the fix" "$TEST_TMP/err" "outside the source tree, so the sandbox does not mount it"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/ops-bw2" --no-progress \
    --sandbox bwrap --scanners gitleaks --config "$TEST_TMP/ops.yaml" \
    --config-overrides "sandbox.extra_read_paths=[$TEST_TMP/ops]"
  assert_eq "bwrap: inside extra_read_paths it is mounted: exit 2" "$status" 2
  assert_file_contains "bwrap: the operator's rule applies" "$TEST_TMP/ops-bw2/reports/ash.sarif" "region-name"
else
  ok "# SKIP bwrap is not usable here"
fi

# A repository's own config naming its own gitleaks config (that hides
# everything) is refused rather than used.
git init -q "$src" 2>/dev/null || mkdir -p "$src/.git"
mkdir -p "$src/.ash"
cat >"$src/.ash/.ash.yaml" <<'EOF2'
scanners:
  gitleaks:
    options:
      config_file: .gitleaks.toml
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/tree" --no-progress \
  --sandbox off --scanners gitleaks
assert_eq "in-tree config_file: gitleaks ERROR, exit 1" "$status" 1
assert_file_contains "the reason names the option" "$TEST_TMP/tree/ash_aggregated_results.json" "scanners.gitleaks.options.config_file is '.gitleaks.toml', set by a config the scanned repository could have written"
rm -rf "$src/.ash" "$src/.git"

# The tree's own .gitleaks.toml that turns the default rules off and adds
# rules from a file outside the tree: gitleaks reads it when told nothing
# (the control), never under ash, sandboxed or not.
cp "$src/.gitleaks.toml" "$TEST_TMP/gitleaks.toml.saved"
cat >"$TEST_TMP/outside-rules.toml" <<'EOF2'
[[rules]]
id = "outside-rule"
description = "a rule from outside the tree"
regex = '''AKIA'''
EOF2
cat >"$src/.gitleaks.toml" <<EOF2
[extend]
path = "$TEST_TMP/outside-rules.toml"
EOF2
(cd "$src" && gitleaks dir --no-banner --report-format=sarif \
  --report-path="$TEST_TMP/tree-rules.sarif" --exit-code=2 . >/dev/null 2>&1)
check "control: told nothing, gitleaks uses the tree's rules from outside it" \
  grep -q outside-rule "$TEST_TMP/tree-rules.sarif"
check "control: told nothing, gitleaks drops its default rules" \
  sh -c "! grep -q github-pat '$TEST_TMP/tree-rules.sarif'"
for b in off bwrap; do
  if [ "$b" = bwrap ] && ! case " $(echo $backends) " in *" bwrap "*) true ;; *) false ;; esac; then
    ok "# SKIP bwrap is not usable here"; continue
  fi
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/treerules-$b" --no-progress \
    --sandbox "$b" --scanners gitleaks --config "$TEST_TMP/conf.yaml"
  assert_eq "$b: the tree's .gitleaks.toml changes nothing" "$(findings "$TEST_TMP/treerules-$b")" "$want"
done
cp "$TEST_TMP/gitleaks.toml.saved" "$src/.gitleaks.toml"

# baseline_path: the operator's gitleaks report leaves its findings out;
# the same option from the repository's own config is refused.
mkdir -p "$TEST_TMP/ops"
printf '[{"RuleID": "github-pat", "File": "docs/notes.txt", "StartLine": 2}]\n' >"$TEST_TMP/ops/gl-baseline.json"
cat >"$TEST_TMP/opsb.yaml" <<EOF2
global_settings:
  ignore_paths: [{path: vendor/, reason: third-party code}]
scanners:
  gitleaks:
    options:
      baseline_path: $TEST_TMP/ops/gl-baseline.json
EOF2
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/glb" --no-progress \
  --sandbox off --scanners gitleaks --config "$TEST_TMP/opsb.yaml"
assert_eq "operator baseline_path: its finding is left out" "$(findings "$TEST_TMP/glb")" \
  "$(echo "$want" | grep -v github-pat)"
git init -q "$src" 2>/dev/null || mkdir -p "$src/.git"
mkdir -p "$src/.ash"
cp "$TEST_TMP/ops/gl-baseline.json" "$src/gl-baseline.json"
printf 'scanners:\n  gitleaks:\n    options:\n      baseline_path: gl-baseline.json\n' >"$src/.ash/.ash.yaml"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/glb-tree" --no-progress \
  --sandbox off --scanners gitleaks
assert_eq "in-tree baseline_path: gitleaks ERROR, exit 1" "$status" 1
assert_file_contains "in-tree baseline_path: the reason names the option" "$TEST_TMP/glb-tree/ash_aggregated_results.json" \
  "scanners.gitleaks.options.baseline_path is 'gl-baseline.json', set by a config the scanned repository could have written"
rm -rf "$src/.ash" "$src/.git" "$src/gl-baseline.json"

# Broken reports: gitleaks ERROR naming the file; bandit's results kept.
if command -v bandit >/dev/null 2>&1; then
  mkdir -p "$src/py"
  cp "$top_srcdir/tests/fixtures/repos/py-small/pkg/runner.py" "$src/py/"
  scanners=gitleaks,bandit
else
  scanners=gitleaks
fi
for brk in missing empty truncated garbage; do
  echo "$brk" >"$src/.fake-break"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/brk-$brk" --no-progress \
    --sandbox off --scanners "$scanners"
  assert_eq "$brk report: exit 1" "$status" 1
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]
print(r["gitleaks"]["status"], r["gitleaks"].get("error_reason"))
print("bandit", r["bandit"]["status"], r["bandit"]["finding_count"])' \
    "$TEST_TMP/brk-$brk/ash_aggregated_results.json" >"$TEST_TMP/brk"
  assert_file_contains "$brk report: gitleaks ERROR naming the file" "$TEST_TMP/brk" "ERROR "
  assert_file_contains "$brk report: the reason names gitleaks.sarif" "$TEST_TMP/brk" "scanners/gitleaks/source/gitleaks.sarif"
  if [ "$scanners" = gitleaks,bandit ]; then
    assert_file_contains "$brk report: bandit's results kept" "$TEST_TMP/brk" "bandit FAILED 4"
  fi
done
rm -f "$src/.fake-break"
done_testing
