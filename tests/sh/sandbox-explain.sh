# `ash sandbox explain bandit` on this machine: bandit's Python prefix
# read-only, no home, no network, a filtered environment.
. "$top_srcdir/tests/libtest.sh"

[ -x /usr/bin/bandit ] || skip_all "bandit is not installed in /usr/bin"
command -v jq >/dev/null || skip_all "jq is not installed"

mkdir -p "$TEST_TMP/home/.ssh" "$TEST_TMP/src"
echo key >"$TEST_TMP/home/.ssh/id_rsa"
cd "$TEST_TMP/src" || bail "cd"

explain () {
  HOME="$TEST_TMP/home" PATH=/usr/bin:/bin \
    MY_API_TOKEN=tok-value-123 AWS_SECRET_ACCESS_KEY=aws-value-456 \
    SSH_AUTH_SOCK=/run/agent LANG=C.UTF-8 \
    "$ASH" sandbox explain "$@" --source-dir "$TEST_TMP/src" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

explain bandit
assert_eq "explain exits 0" "$status" 0
assert_eq "the output is JSON" "$(jq -r .scanner "$TEST_TMP/out")" bandit
rule=$(jq -r '.paths[] | select(.path == "/usr") | .access + " " + .rule' "$TEST_TMP/out")
case $rule in
  "read "*"install prefix of the interpreter /usr/bin/python3"*)
    ok "bandit's Python prefix /usr is read-only" ;;
  *) not_ok "bandit's Python prefix /usr is read-only"; diag "got: $rule" ;;
esac
assert_eq "no network" "$(jq -r .network "$TEST_TMP/out")" false
assert_eq "no refusal" "$(jq -r .refusal "$TEST_TMP/out")" null
assert_eq "the home is not mounted" \
  "$(jq -r --arg h "$TEST_TMP/home" '[.paths[] | select(.path | startswith($h))] | length' "$TEST_TMP/out")" 0
assert_eq "the source tree is data" \
  "$(jq -r --arg s "$TEST_TMP/src" '.paths[] | select(.path == $s) | .access' "$TEST_TMP/out")" data
assert_eq "LANG and PATH are passed" \
  "$(jq -r '[.env[] | select(. == "LANG" or . == "PATH")] | length' "$TEST_TMP/out")" 2
for v in MY_API_TOKEN AWS_SECRET_ACCESS_KEY SSH_AUTH_SOCK HOME; do
  assert_eq "$v is dropped" \
    "$(jq -r --arg v "$v" '[.dropped[] | select(.name == $v)] | length' "$TEST_TMP/out")" 1
done
assert_file_lacks "no dropped value is shown" "$TEST_TMP/out" tok-value-123
assert_file_lacks "no dropped value is shown (aws)" "$TEST_TMP/out" aws-value-456

# The control: a grant from the operator gives bandit a network, and
# --offline takes it away again.
explain bandit --config-overrides 'sandbox.network_scanners=[bandit]'
assert_eq "network_scanners grants a network" "$(jq -r .network "$TEST_TMP/out")" true
explain bandit --offline --config-overrides 'sandbox.network_scanners=[bandit]'
assert_eq "--offline takes it away" "$(jq -r .network "$TEST_TMP/out")" false

done_testing
