#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Hostile trees for the infrastructure-as-code scanners (through their fake
# tools): a workflow that is a link leaving the tree is excluded with the
# warning and reaches neither actionlint nor zizmor, and checkov is told to
# skip it (the control: a link that stays inside is scanned); a file that
# is not valid YAML or JSON is not a template, is given to none of
# cfn-nag, cfn-guard and cdk-nag, and crashes nothing; a 50 MB template
# full of intrinsic tags is discovered and handed to each of them.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/src
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$src"
tools=$TEST_TMP/tools
cp -R "$top_srcdir/tests/fixtures/tools" "$tools"
cp -R "$top_srcdir/tests/fixtures/cfn-guard-rules" "$TEST_TMP/rules"
# cdk-nag through the fake node, which reads no modules (cdk-nag is
# MISSING without them).
mkdir -p "$TEST_TMP/nm/cdk-nag" "$TEST_TMP/nm/aws-cdk-lib" "$TEST_TMP/nm/constructs"
PATH=$tools:$PATH
ASH_CFN_GUARD_RULES_DIR=$TEST_TMP/rules
ASH_CDK_NAG_MODULES=$TEST_TMP/nm
FAKE_CFN_NAG_ARGS=$TEST_TMP/cfn-nag.args
export PATH ASH_CFN_GUARD_RULES_DIR ASH_CDK_NAG_MODULES FAKE_CFN_NAG_ARGS

# A workflow outside the tree, full of what both tools report.
mkdir -p "$TEST_TMP/outside"
cp "$src/.github/workflows/ci.yml" "$TEST_TMP/outside/evil.yml"
ln -s "$TEST_TMP/outside/evil.yml" "$src/.github/workflows/leak.yml"
# The control: a link that stays in the tree.
ln -s ci.yml "$src/.github/workflows/inside.yml"
# Not YAML, not JSON.
printf 'Resources: {{{\n\t- !Ref [\n' >"$src/garbage.yaml"
printf '{"Resources": ' >"$src/garbage.json"
# A 50 MB template with intrinsic tags everywhere.
python3 - "$src/big.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("AWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
            "  Big:\n    Type: AWS::S3::Bucket\n    Properties:\n"
            "      BucketName: !Join ['-', [!Ref AWS::StackName, big]]\n")
    i = 0
    while f.tell() < 50 * 1024 * 1024:
        f.write("  Q%d:\n    Type: AWS::SQS::Queue\n    Properties:\n"
                "      QueueName: !Sub '${AWS::StackName}-%d'\n"
                "      Tags: [{Key: !Ref AWS::Region, Value: !GetAtt [Q0, Arn]}]\n" % (i, i))
        i += 1
PY

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-dir" --no-progress \
  --scanners actionlint,zizmor,cfn-guard,cfn-nag,checkov,cdk-nag
check "the scan completes (exit 2: findings)" test "$status" = 2
assert_file_contains "the leaving link is named in the warning" "$TEST_TMP/err" "Not scanning '.github/workflows/leak.yml': link leaves the scanned tree"
python3 - "$TEST_TMP/out-dir/ash_aggregated_results.json" >"$TEST_TMP/f" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["properties"]["scanner_name"], x["ruleId"], l["artifactLocation"]["uri"])
for n in ("actionlint", "zizmor", "cfn-guard", "cfn-nag", "checkov", "cdk-nag"):
    print("status", n, a["scanner_results"][n]["status"])
PY
assert_file_lacks "actionlint was not given the leaving link" "$TEST_TMP/f" "actionlint expression .github/workflows/leak.yml"
assert_file_lacks "zizmor was not given the leaving link" "$TEST_TMP/f" "leak.yml"
assert_file_lacks "no finding names the outside file" "$TEST_TMP/f" "evil.yml"
assert_file_contains "control: a link inside the tree is scanned" "$TEST_TMP/f" "actionlint expression .github/workflows/inside.yml"
assert_file_lacks "garbage.yaml is not a template" "$TEST_TMP/f" "garbage"
assert_file_contains "the 50 MB template with intrinsic tags is checked" "$TEST_TMP/f" "cfn-guard S3_BUCKET_LOGGING_ENABLED big.yaml"
for n in actionlint zizmor cfn-guard cfn-nag checkov cdk-nag; do
  assert_file_contains "$n FAILED (ran, found)" "$TEST_TMP/f" "status $n FAILED"
done
# What each template scanner was handed.
pattern=$(sed -n '/^--template-pattern$/{n;p}' "$TEST_TMP/cfn-nag.args")
check "cfn-nag's template pattern names the 50 MB template" \
  sh -c 'printf "%s\n" "$1/big.yaml" | grep -Eq -- "$2"' - "$src" "$pattern"
check_fails "cfn-nag's template pattern names neither broken file" \
  sh -c 'printf "%s\n%s\n" "$1/garbage.yaml" "$1/garbage.json" | grep -Eq -- "$2"' - "$src" "$pattern"
python3 - "$TEST_TMP/out-dir/scanners/cdk-nag/source/cdk-nag-out/manifest.json" >"$TEST_TMP/cdk" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["templates"]:
    print(t["template"])
PY
assert_file_contains "cdk-nag was handed the 50 MB template" "$TEST_TMP/cdk" "big.yaml"
assert_file_lacks "cdk-nag was handed neither broken file" "$TEST_TMP/cdk" "garbage"
args=$TEST_TMP/out-dir/scanners/checkov/source/ARGS
assert_file_contains "checkov is told to skip the leaving link" "$args" "[.]github/workflows/leak[.]yml"
done_testing
