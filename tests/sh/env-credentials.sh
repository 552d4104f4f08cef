#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Credentials in the environment are screened by value as well as by name:
# a proxy URL with user:password, one with a user name alone and no
# scheme, a package index URL with a token as its user, and names holding
# KEY, APIKEY, PASSWD, CREDENTIAL, PRIVATE or AUTH in any position never
# reach a scanner's environment (ash sandbox explain shows the environment
# the sandbox builds).  Controls: the same names with harmless values pass,
# and the operator's sandbox.env_allow passes a named variable through;
# a repository's config cannot.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

repo=$TEST_TMP/repo
mkdir -p "$repo/.git" "$repo/.ash"
printf 'x = 1\n' >"$repo/app.py"

explain () {
  (cd "$repo" && env "$@" "$ASH" sandbox explain bandit --source-dir "$repo" \
     --sandbox bwrap >"$TEST_TMP/explain" 2>"$TEST_TMP/err")
  python3 - "$TEST_TMP/explain" >"$TEST_TMP/env" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["env"]:
    print("PASS", e.split("=", 1)[0])
for e in d["dropped"]:
    print("DROP", e["name"], e["why"])
PY
}

explain HTTPS_PROXY=http://alice:pw@proxy.example:3128 \
  https_proxy=alice@proxy.example:3128 \
  UV_INDEX_URL=https://tok3n@pypi.example/simple \
  UV_EXTRA_INDEX_URL=https://pypi.example/simple/@scope \
  ASH_DEPLOY_KEY=k ASH_APIKEY=k UV_PASSWD=p ASH_CREDENTIALS_FILE=c \
  ASH_PRIVATE_PEM=p ASH_BASICAUTH=a ASH_HARMLESS=1 HTTP_PROXY=http://proxy.example:3128
for v in HTTPS_PROXY https_proxy UV_INDEX_URL ASH_DEPLOY_KEY ASH_APIKEY UV_PASSWD \
         ASH_CREDENTIALS_FILE ASH_PRIVATE_PEM ASH_BASICAUTH; do
  assert_file_contains "$v is dropped" "$TEST_TMP/env" "DROP $v "
  assert_file_lacks "$v is not passed" "$TEST_TMP/env" "PASS $v"
done
assert_file_contains "a user name alone in a URL counts" "$TEST_TMP/env" \
  "DROP UV_INDEX_URL value carries user:password@ (or a user name) in a URL"
assert_file_contains "KEY in any position" "$TEST_TMP/env" "DROP ASH_DEPLOY_KEY name contains KEY"
# Controls: harmless values and names pass.
assert_file_contains "control: a proxy without userinfo passes" "$TEST_TMP/env" "PASS HTTP_PROXY"
assert_file_contains "control: an @ in a URL's path is not userinfo" "$TEST_TMP/env" "PASS UV_EXTRA_INDEX_URL"
assert_file_contains "control: a harmless ASH_ name passes" "$TEST_TMP/env" "PASS ASH_HARMLESS"

# The operator's explicit allow passes one through.
(cd "$repo" && ASH_DEPLOY_KEY=k ASH_APIKEY=k "$ASH" sandbox explain bandit --source-dir "$repo" \
   --sandbox bwrap --config-overrides 'sandbox.env_allow=[ASH_DEPLOY_KEY]' >"$TEST_TMP/explain" 2>"$TEST_TMP/err")
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join("PASS "+e.split("=",1)[0] for e in d["env"]))' \
  "$TEST_TMP/explain" >"$TEST_TMP/env"
assert_file_contains "sandbox.env_allow from the operator passes it" "$TEST_TMP/env" "PASS ASH_DEPLOY_KEY"
assert_file_lacks "and only it" "$TEST_TMP/env" "PASS ASH_APIKEY"

# A repository's config cannot.
printf 'sandbox:\n  env_allow: [ASH_DEPLOY_KEY]\n' >"$repo/.ash/.ash.yaml"
(cd "$repo" && ASH_DEPLOY_KEY=k "$ASH" sandbox explain bandit --source-dir "$repo" \
   --sandbox bwrap >"$TEST_TMP/explain" 2>"$TEST_TMP/err")
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join("PASS "+e.split("=",1)[0] for e in d["env"]))' \
  "$TEST_TMP/explain" >"$TEST_TMP/env"
assert_file_lacks "a repository's env_allow is ignored" "$TEST_TMP/env" "PASS ASH_DEPLOY_KEY"
assert_file_contains "with the spec's warning" "$TEST_TMP/err" "Ignoring sandbox.env_allow from $repo/.ash/.ash.yaml"

done_testing
