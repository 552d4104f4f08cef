#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# CloudFormation's intrinsic tags (!Ref, !Sub, !GetAtt, !Join, !Select,
# !GetAZs, !If, !Equals) in every place a template may hold them, read by
# the real tools: cdk-nag's worker includes the template and reports its
# buckets and queues, cfn-lint lints it without an error, and the
# discovery of templates (ash's own YAML reading) hands it to both.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
work=$TEST_TMP/work
iac_install_ash "$work/bin"
cp -R "$top_srcdir/tests/fixtures/repos/iac-intrinsics" "$work/src"
path=$work/bin:/usr/bin:/bin
scanners=
cache=$(cd "$(dirname "$ASH")/.." && pwd)/tests/.cdk-nag-cache
if command -v node >/dev/null 2>&1 && [ -d "$cache/node_modules/cdk-nag" ] &&
   [ -d "$cache/node_modules/aws-cdk-lib" ]; then
  scanners=cdk-nag
  path=$path:$(dirname "$(command -v node)")
else
  ok "cdk-nag # SKIP node or the suite's npm cache of cdk-nag (scan-cdk-nag.sh fills it) is missing"
fi
if command -v cfn-lint >/dev/null 2>&1; then
  lint=$(command -v cfn-lint)
  if command -v pyenv >/dev/null 2>&1 && pyenv which cfn-lint >/dev/null 2>&1; then
    lint=$(pyenv which cfn-lint)
  fi
  scanners=${scanners:+$scanners,}cfn-lint
  path=$path:$(dirname "$lint")
else
  ok "cfn-lint # SKIP cfn-lint is not installed"
fi
[ -n "$scanners" ] || skip_all "neither cdk-nag nor cfn-lint can run here"

env -i PATH="$path" HOME="$HOME" LANG=C.UTF-8 ASH_CDK_NAG_MODULES="$cache/node_modules" \
  "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/out" --no-progress \
  --sandbox off --scanners "$scanners" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
status=$?
check "the scan completes (exit 0 or 2)" test "$status" = 0 -o "$status" = 2
iac_findings "$work/out" >"$TEST_TMP/f"
python3 - "$work/out/ash_aggregated_results.json" >"$TEST_TMP/st" <<'PY'
import json, sys
for n, r in json.load(open(sys.argv[1]))["scanner_results"].items():
    print(n, r["status"])
PY
case ,$scanners, in
  *,cdk-nag,*)
    assert_file_contains "cdk-nag ran and found" "$TEST_TMP/st" "cdk-nag FAILED"
    for l in "cdk-nag AwsSolutions-S1 tags.yaml 5 HIGH" "cdk-nag AwsSolutions-S10 tags.yaml 5 HIGH" \
             "cdk-nag AwsSolutions-SQS4 tags.yaml 12 HIGH" "cdk-nag AwsSolutions-SQS4 tags.yaml 21 HIGH"; do
      assert_file_contains "finding $l" "$TEST_TMP/f" "$l"
    done ;;
esac
case ,$scanners, in
  *,cfn-lint,*)
    check_fails "cfn-lint is neither ERROR nor MISSING" grep -Eq "^cfn-lint (ERROR|MISSING)" "$TEST_TMP/st"
    check_fails "cfn-lint reports no template it could not read (E0000)" grep -q "^cfn-lint E0000" "$TEST_TMP/f" ;;
esac
done_testing
