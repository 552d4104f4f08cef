#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The infrastructure-as-code adapters whose tools this machine cannot
# install, end to end through their fake tools (tests/fixtures/tools/),
# which write the tools' recorded outputs: the findings equal what those
# outputs hold, and are the same with --sandbox off and under every usable
# backend, as root and as an unprivileged account.  A broken output makes
# only that scanner ERROR, with a reason naming the file.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
scanners=${IAC_SCANNERS:-checkov,cfn-nag,actionlint,zizmor,cfn-guard,cdk-nag}

work=$TEST_TMP/work
mkdir -p "$work/bin"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp -R "$top_srcdir/tests/fixtures/tools" "$work/tools"
cp -R "$top_srcdir/tests/fixtures/cfn-guard-rules" "$work/rules"
iac_install_ash "$work/bin"
# The fake node reads no modules, but cdk-nag is MISSING without them.
mkdir -p "$work/node_modules/cdk-nag" "$work/node_modules/aws-cdk-lib" "$work/node_modules/constructs"
chmod -R a+rX "$work"
chmod 755 "$TEST_TMP"

status_of () { # OUT SCANNER
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"][sys.argv[2]]
print(r["status"])' "$1" "$2"
}

# The findings the recorded outputs hold.
cat >"$TEST_TMP/want" <<'W'
checkov CKV_AWS_18 test.yaml 4 HIGH
checkov CKV_AWS_21 test.yaml 4 HIGH
checkov CKV_AWS_53 test.yaml 4 HIGH
checkov CKV_AWS_54 test.yaml 4 HIGH
checkov CKV_AWS_55 test.yaml 4 HIGH
checkov CKV_AWS_56 test.yaml 4 HIGH
checkov CKV_DOCKER_2 js/docker/Dockerfile 1 HIGH
checkov CKV_DOCKER_3 js/docker/Dockerfile 1 HIGH
checkov CKV_DOCKER_4 js/docker/Dockerfile 10 HIGH
checkov CKV_DOCKER_4 js/docker/Dockerfile 7 HIGH
actionlint expression .github/workflows/ci.yml 10 HIGH
zizmor zizmor/artipacked .github/workflows/ci.yml 7 MEDIUM
zizmor zizmor/artipacked .github/workflows/release.yaml 9 MEDIUM
zizmor zizmor/template-injection .github/workflows/ci.yml 10 HIGH
cfn-guard S3_BUCKET_LOGGING_ENABLED cdk/cfn-to-cdk.template.json 3 HIGH
cfn-guard S3_BUCKET_LOGGING_ENABLED cfn_and_python/test.yaml 4 HIGH
cfn-guard S3_BUCKET_LOGGING_ENABLED test.yaml 4 HIGH
cfn-guard S3_BUCKET_SERVER_SIDE_ENCRYPTION_ENABLED cdk/cfn-to-cdk.template.json 3 HIGH
cfn-guard S3_BUCKET_SERVER_SIDE_ENCRYPTION_ENABLED cfn_and_python/test.yaml 4 HIGH
cfn-guard S3_BUCKET_SERVER_SIDE_ENCRYPTION_ENABLED test.yaml 4 HIGH
cdk-nag AwsSolutions-S1 cdk/cfn-to-cdk.template.json 3 HIGH
cdk-nag AwsSolutions-S1 test.yaml 4 HIGH
cdk-nag AwsSolutions-S10 cdk/cfn-to-cdk.template.json 3 HIGH
cdk-nag AwsSolutions-S10 test.yaml 4 HIGH
cfn-nag W35 cfn_and_python/test.yaml 5 MEDIUM
cfn-nag W35 test.yaml 5 MEDIUM
cfn-nag W41 cfn_and_python/test.yaml 5 MEDIUM
cfn-nag W41 test.yaml 5 MEDIUM
cfn-nag W51 cfn_and_python/test.yaml 5 MEDIUM
cfn-nag W51 test.yaml 5 MEDIUM
W
# actionlint's shellcheck integration, with the real shellcheck: the
# operator's config (outside the tree) turns it on.
conf=$work/operator.yaml
printf 'scanners: {}\n' >"$conf"
if command -v shellcheck >/dev/null 2>&1; then
  printf 'scanners:\n  actionlint:\n    options:\n      shellcheck: shellcheck\n' >"$conf"
  cat >>"$TEST_TMP/want" <<'W'
actionlint shellcheck .github/workflows/ci.yml 10 LOW
actionlint shellcheck .github/workflows/ci.yml 12 LOW
actionlint shellcheck .github/workflows/ci.yml 12 LOW
actionlint shellcheck .github/workflows/ci.yml 12 LOW
W
else
  ok "actionlint's shellcheck integration # SKIP shellcheck is not installed"
fi
for s in $(echo "$scanners" | tr , ' '); do
  grep "^$s " "$TEST_TMP/want"
done | sort >"$TEST_TMP/want.sel"

run_as () { # WHO OUT MODE [ENV...]
  who=$1 out=$2 mode=$3
  shift 3
  if [ "$who" = root ]; then pre=; else pre=$(as_unpriv_cmd "$who"); fi
  env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 \
    ASH_CFN_GUARD_RULES_DIR="$work/rules" ASH_CDK_NAG_MODULES="$work/node_modules" "$@" $pre \
    "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/$out" \
    --no-progress --scanners "$scanners" --sandbox "$mode" --config "$conf" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

accounts=$(id -un)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  accounts="root $(unpriv_user)"
fi
for who in $accounts; do
  if [ "$who" = root ] || [ "$(id -u)" != 0 ]; then
    home=$HOME
    [ "$who" = root ] || who=$(id -un)
  else
    home=$(getent passwd "$who" | cut -d: -f6)
    [ -d "$home" ] || home=$work
    chown -R "$who" "$work"
  fi
  [ "$who" = "$(id -un)" ] && who=root
  run_as "$who" "out-$who-off" off
  assert_eq "$who, unsandboxed: findings fail the scan (exit 2)" "$status" 2
  iac_findings "$work/out-$who-off" >"$TEST_TMP/off"
  check "$who, unsandboxed: the findings the recorded outputs hold" \
    cmp "$TEST_TMP/want.sel" "$TEST_TMP/off"
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
  done
done
chown -R "$(id -un)" "$work" 2>/dev/null

# Broken outputs: only that scanner is ERROR, naming its file; the others'
# results are kept.
home=$HOME
broken () { # SCANNER VAR FILE: SCANNER broken, beside one other scanner
  other=checkov
  [ "$1" = checkov ] && other=cfn-nag
  saved=$scanners
  scanners=$1,$other
  for m in none empty truncated notjson notcsv; do
    [ "$m" = notcsv ] && [ "$1" != cdk-nag ] && continue
    [ "$m" = notjson ] && [ "$1" = cdk-nag ] && continue
    run_as root "out-broken" off "$2=$m"
    assert_eq "$1 $m output: exit 1 (incomplete scan)" "$status" 1
    assert_eq "$1 $m output: $1 is ERROR" "$(status_of "$work/out-broken" "$1")" ERROR
    assert_file_contains "$1 $m output: the reason names $3" "$TEST_TMP/out" "$3"
    iac_findings "$work/out-broken" >"$TEST_TMP/kept"
    check "$1 $m output: $other's findings kept" grep -q "^$other " "$TEST_TMP/kept"
  done
  scanners=$saved
}
case ",$scanners," in *,checkov,*) broken checkov FAKE_CHECKOV_MODE results_json.json ;; esac
case ",$scanners," in *,actionlint,*) broken actionlint FAKE_ACTIONLINT_MODE actionlint.stdout.log ;; esac
case ",$scanners," in *,zizmor,*) broken zizmor FAKE_ZIZMOR_MODE zizmor.stdout.log ;; esac
case ",$scanners," in *,cfn-guard,*) broken cfn-guard FAKE_CFN_GUARD_MODE cfn-guard.stdout.log ;; esac
case ",$scanners," in *,cdk-nag,*) broken cdk-nag FAKE_CDK_NAG_MODE cdk-nag-out/ ;; esac
case ",$scanners," in *,cfn-nag,*) broken cfn-nag FAKE_CFN_NAG_MODE cfn-nag.stdout.log ;; esac
# cfn-guard without a rules bundle is MISSING, saying where it looked.
env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$HOME" LANG=C.UTF-8 ASH_CFN_GUARD_RULES_DIR="$work/no-such-rules" \
  "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/out-nobundle" \
  --no-progress --scanners cfn-guard >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "no rules bundle: cfn-guard MISSING" "$(status_of "$work/out-nobundle" cfn-guard)" MISSING
assert_file_contains "the reason names the bundle directory" "$TEST_TMP/out" "cfn-guard's rules bundle is not installed: $work/no-such-rules does not exist"

# The operator's rules_paths are copied into the run's directory: a rules
# file outside the tree reaches cfn-guard under bwrap without a mount.
cat >"$work/own.guard" <<'G'
#fake-check AWS::SQS::Queue KmsMasterKeyId
rule SQS_QUEUE_ENCRYPTED { Resources.*.Properties.KmsMasterKeyId exists }
G
printf 'scanners:\n  cfn-guard:\n    options:\n      rule_sets: []\n      rules_paths: ["%s"]\n' "$work/own.guard" >"$work/own.yaml"
for m in off bwrap; do
  env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$HOME" LANG=C.UTF-8 ASH_CFN_GUARD_RULES_DIR="$work/rules" \
    "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/out-own-$m" --sandbox $m \
    --no-progress --scanners cfn-guard --config "$work/own.yaml" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  iac_findings "$work/out-own-$m" >"$TEST_TMP/own"
  assert_eq "$m: rules_paths alone: one finding" "$(cat "$TEST_TMP/own")" "cfn-guard SQS_QUEUE_ENCRYPTED test.yaml 11 HIGH"
done
# From a config inside the tree (a git checkout), rules_paths naming a
# file of that checkout is left out with a warning.
mkdir -p "$work/src/.ash"
cp "$work/own.guard" "$work/src/evil.guard"
printf 'scanners:\n  cfn-guard:\n    options:\n      rules_paths: [evil.guard]\n' >"$work/src/.ash/.ash.yaml"
git -C "$work/src" init -q 2>/dev/null
env -i $scanner_user_env PATH="$work/tools:/usr/bin:/bin" HOME="$HOME" LANG=C.UTF-8 ASH_CFN_GUARD_RULES_DIR="$work/rules" \
  "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/out-repo" \
  --no-progress --scanners cfn-guard >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_contains "a repository's rules_paths is refused with a warning" "$TEST_TMP/err" "not passing scanners.cfn-guard.options.rules_paths"
iac_findings "$work/out-repo" >"$TEST_TMP/repo"
assert_file_lacks "the repository's rules did not run" "$TEST_TMP/repo" "SQS_QUEUE_ENCRYPTED"
rm -rf "$work/src/.ash" "$work/src/.git" "$work/src/evil.guard"
done_testing
