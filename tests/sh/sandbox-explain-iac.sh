#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `ash sandbox explain NAME` for the infrastructure-as-code and workflow
# scanners shows each one's row of the spec's per-scanner needs: no
# network for any; the uv cache (a private one) for checkov, cfn-lint and
# zizmor; Ruby's gem paths for cfn-nag; the rules bundle for cfn-guard;
# jsii's runtime cache and the modules for cdk-nag; nothing more for
# actionlint.  The paths named by variables are mounted when set.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
mkdir -p "$TEST_TMP/src" "$TEST_TMP/rules" "$TEST_TMP/modules" "$TEST_TMP/gems"
explain () { # NAME: "key value" lines of its explanation
  env ASH_CFN_GUARD_RULES_DIR="$TEST_TMP/rules" ASH_CDK_NAG_MODULES="$TEST_TMP/modules" \
    GEM_HOME="$TEST_TMP/gems" "$ASH" sandbox explain "$1" --source-dir "$TEST_TMP/src" \
    --output-dir "$TEST_TMP/out" >"$TEST_TMP/x.json" 2>"$TEST_TMP/x.err"
  status=$?
  python3 - "$TEST_TMP/x.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["requirements"]
print("network", d["network"])
for k in ("read_paths", "cache_paths", "cache_env", "env_prefixes", "env_names",
          "read_path_env"):
    print(k, " ".join(r[k]))
print("private_caches", " ".join(c["name"] for c in d["private_caches"]))
print("sandbox_exec_env", " ".join(d["sandbox_exec_env"]))
for p in d["paths"]:
    print("path", p["path"], p["access"], p["rule"])
print("env", " ".join(d["env"]))
PY
}
want () { # NAME KEY VALUE
  assert_file_contains "$1: $2 $3" "$TEST_TMP/$1" "$2 $3"
}
for s in checkov cfn-nag cfn-lint cfn-guard cdk-nag actionlint zizmor; do
  explain "$s" >"$TEST_TMP/$s"
  assert_eq "$s: explain exits 0" "$status" 0
  want "$s" network False
done
for s in checkov cfn-lint zizmor; do
  want "$s" cache_env UV_CACHE_DIR
  want "$s" private_caches UV_CACHE_DIR
done
want checkov env_prefixes CHECKOV_
want cfn-nag read_paths "~/.gem ~/.local/share/gem /var/lib/gems"
want cfn-nag env_names "GEM_HOME GEM_PATH"
want cfn-nag path "$TEST_TMP/gems read \$GEM_HOME"
want cfn-guard read_path_env ASH_CFN_GUARD_RULES_DIR
want cfn-guard path "$TEST_TMP/rules read \$ASH_CFN_GUARD_RULES_DIR"
want cdk-nag cache_paths "~/.cache/aws/jsii"
want cdk-nag env_prefixes JSII_
want cdk-nag read_path_env ASH_CDK_NAG_MODULES
want cdk-nag path "$TEST_TMP/modules read \$ASH_CDK_NAG_MODULES"
for k in read_paths cache_paths cache_env env_prefixes env_names read_path_env; do
  check "actionlint: no $k" grep -qx "$k " "$TEST_TMP/actionlint"
done
check_fails "actionlint: GEM_HOME is not passed to it" grep -q "^env .*GEM_HOME" "$TEST_TMP/actionlint"
done_testing
