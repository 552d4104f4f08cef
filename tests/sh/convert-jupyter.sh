#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The jupyter converter with the real jupyter-nbconvert, unsandboxed and
# under each usable Linux backend (as root and as an unprivileged
# account): bandit finds the issue in a notebook's code cell and the SARIF
# points at the notebook; a malformed notebook is failed_inputs and the
# scan exits 1 (unless ignore_paths leaves it out); a hostile notebook
# leaks nothing.  Then a converter taken over by its input (a fake
# nbconvert) tries to read the tree, the output and the home directory, to
# write into the tree and to reach the network: every attempt succeeds
# with --sandbox off (the control) and fails under each backend.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v jupyter-nbconvert >/dev/null 2>&1 || skip_all "jupyter-nbconvert is not installed"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
[ -n "$backends" ] || diag "no sandbox backend is usable here: only the unsandboxed runs"

fix=$top_srcdir/tests/fixtures/converters
w=$TEST_TMP/w
mkdir -p "$w/good/src" "$w/all/src" "$TEST_TMP/home/.ssh"
cp "$fix/vuln.py" "$w/good/"
cp "$fix/vuln.py" "$w/all/"
echo "HOME-CANARY-7f3a" >"$TEST_TMP/home/.ssh/id_rsa"
python3 "$fix/make-notebooks.py" "$w/good/src" "http://127.0.0.1:9/" || bail "cannot make the notebooks"
rm -rf "$w/good/src/hostile" "$w/good/src/broken"
python3 "$fix/make-notebooks.py" "$w/all/src" "http://127.0.0.1:9/" || bail "cannot make the notebooks"
echo "SRC-CANARY-91bc" >"$w/all/secret.txt"
chmod -R a+rX "$TEST_TMP"

agg () { # OUT EXPR over the aggregated results (a) and the jupyter row (c)
  python3 -c "
import json, sys
a = json.load(open(sys.argv[1] + '/ash_aggregated_results.json'))
c = a['converter_results']['jupyter']
print($2)" "$1"
}
locs () { # OUT: uri cell line rule, one finding a line
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/reports/ash.sarif"))
for run in a["runs"]:
    for x in run["results"]:
        l = x["locations"][0]
        print("%s %s %s %s" % (l["physicalLocation"]["artifactLocation"]["uri"],
              l.get("properties", {}).get("notebook_code_cell"),
              l.get("properties", {}).get("converted_path"), x["ruleId"]))' "$1" | sort
}
scan () { # MODE SRC OUT [ARGS...]
  _m=$1 _s=$2 _o=$3
  shift 3
  HOME=$TEST_TMP/home run_ash scan --source-dir "$_s" --output-dir "$_o" --no-progress \
    --scanners bandit --sandbox "$_m" "$@"
}

for m in off $backends; do
  out=$TEST_TMP/good-$m
  scan "$m" "$w/good/src" "$out"
  assert_eq "$m: a notebook with vulnerable code: exit 2" "$status" 2
  assert_eq "$m: the notebook is converted" "$(agg "$out" "c['status'], [x['original'] for x in c['converted_files']]")" \
    "PASSED ['nb/analysis.ipynb']"
  case $(locs "$out") in
    *"nb/analysis.ipynb 2 converted/jupyter/nb/analysis.py B602"*) ok "$m: bandit's finding points at the notebook and its code cell" ;;
    *) not_ok "$m: bandit's finding points at the notebook and its code cell"; diag "$(locs "$out")" ;;
  esac
  if [ "$m" != off ]; then
    assert_eq "$m: the converter's enforced policy is recorded" \
      "$(agg "$out" "c['sandbox']['backend'], c['sandbox']['staged_input_only'], c['sandbox']['network']")" \
      "$m True False"
  fi

  out=$TEST_TMP/all-$m
  rm -f /tmp/ash-pwned-ext
  scan "$m" "$w/all/src" "$out"
  assert_eq "$m: a malformed notebook: exit 1" "$status" 1
  failed=$(agg "$out" "[x['path'] for x in c['failed_inputs']]")
  case $failed in
    *"'broken/bad.ipynb'"*) ok "$m: the malformed notebook is in failed_inputs" ;;
    *) not_ok "$m: the malformed notebook is in failed_inputs"; diag "$failed" ;;
  esac
  check_fails "$m: the hostile notebook's output extension wrote nothing outside" test -e /tmp/ash-pwned-ext
  check_fails "$m: the hostile notebook's name ran nothing" \
    sh -c "find '$TEST_TMP' /tmp -maxdepth 3 -name PWNED 2>/dev/null | grep -q ."
  check_fails "$m: no canary in anything the scan wrote" \
    grep -rqs -e SRC-CANARY -e HOME-CANARY "$out"
  check_fails "$m: no staging directory is left" test -e "$out/converted/jupyter/.work"

done

printf 'global_settings:\n  ignore_paths:\n    - path: broken/\n      reason: malformed on purpose\n' >"$TEST_TMP/ignore.yaml"
scan off "$w/all/src" "$TEST_TMP/ign" --config "$TEST_TMP/ignore.yaml"
assert_eq "ignore_paths leaves the malformed notebook out: exit 2" "$status" 2
assert_eq "the ignored notebook is not an input" \
  "$(agg "$TEST_TMP/ign" "sorted(x['original'] for x in c['converted_files']), c['failed_inputs']")" \
  "['hostile/--template=x;touch PWNED.ipynb', 'nb/analysis.ipynb'] []"

# No backend can plan the spawn (sandbox-exec does not exist on Linux):
# the notebook is refused with the reason, nbconvert never runs.
scan sandbox-exec "$w/good/src" "$TEST_TMP/refused"
assert_eq "no backend for the converter: exit 1" "$status" 1
assert_eq "the notebook is in refused_inputs with the reason" \
  "$(agg "$TEST_TMP/refused" "[(x['path'], x['reason'].startswith('converter sandbox unavailable: ')) for x in c['refused_inputs']], c['converted_files']")" \
  "[('nb/analysis.ipynb', True)] []"

# A converter taken over by its input.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); s.settimeout(600)
while True:
    try:
        c, _ = s.accept(); c.close()
    except Exception:
        break' "$port" &
listener=$!
# Wait until it listens, so that the control's attempt is a real one.
tries=0
until python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null; do
  tries=$((tries + 1))
  [ "$tries" -le 120 ] || bail "the test's listener on port $port did not start"
  sleep 1
done
mkdir -p "$TEST_TMP/tools" "$w/fake/src"
echo "SRC-CANARY-91bc" >"$w/fake/src/secret.txt"
cp "$w/good/src/nb/analysis.ipynb" "$w/fake/src/"
for m in off $backends; do
  out=$TEST_TMP/fake-$m
  sed -e "s|@SRC@|$w/fake/src|g" -e "s|@OUT@|$out|g" -e "s|@HOME@|$TEST_TMP/home|g" \
    -e "s|@PORT@|$port|g" "$fix/fake-nbconvert.in" >"$TEST_TMP/tools/jupyter-nbconvert"
  chmod 755 "$TEST_TMP/tools/jupyter-nbconvert"
  rm -f "$w/fake/src/written-by-converter"
  PATH=$TEST_TMP/tools:$PATH scan "$m" "$w/fake/src" "$out"
  conv=$out/converted/jupyter/analysis.py
  if [ "$m" = off ]; then
    for what in "read-src: SRC-CANARY" "read-out: " "read-home: HOME-CANARY" "write-src: yes" "network: yes"; do
      assert_file_contains "control (--sandbox off): $what" "$conv" "$what"
    done
  else
    check "$m: the converter ran" test -f "$conv"
    assert_file_lacks "$m: cannot read the scanned tree" "$conv" "SRC-CANARY"
    assert_file_lacks "$m: cannot read the home directory" "$conv" "HOME-CANARY"
    # bwrap mounts a throwaway directory over the tree, so the write may
    # succeed in there: what counts is that the tree is unchanged.
    check_fails "$m: the tree is unchanged" test -e "$w/fake/src/written-by-converter"
    assert_file_lacks "$m: no network" "$conv" "network: yes"
    if grep -q 'read-out: .' "$conv" 2>/dev/null; then
      not_ok "$m: cannot read the output directory"
    else
      ok "$m: cannot read the output directory"
    fi
  fi
done
kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null

# The unprivileged account, under each backend, with the real nbconvert.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && [ -n "$backends" ]; then
  user=$(unpriv_user)
  as=$(as_unpriv_cmd "$user")
  u=$TEST_TMP/unpriv
  mkdir -p "$u/bin" "$u/src"
  cp -R "$w/good/src/nb" "$u/src/"
  cp "$ASH" "$u/bin/ash"
  for h in "$(dirname "$ASH")"/ash-landlock-exec; do
    [ -x "$h" ] && cp "$h" "$u/bin/"
  done
  chown -R "$user" "$u"
  home=$(getent passwd "$user" | cut -d: -f6)
  [ -d "$home" ] || home=$u
  for m in $backends; do
    env -i $scanner_user_env PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 $as \
      "$u/bin/ash" scan --source-dir "$u/src" --output-dir "$u/out-$m" \
      --no-progress --scanners bandit --sandbox "$m" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
    assert_eq "$m as $user: exit 2" "$?" 2
    case $(locs "$u/out-$m") in
      *"nb/analysis.ipynb 2 "*B602*) ok "$m as $user: the finding points at the notebook" ;;
      *) not_ok "$m as $user: the finding points at the notebook"; diag "$(cat "$TEST_TMP/err")" ;;
    esac
  done
else
  ok "# SKIP the unprivileged runs need root, setpriv and a usable backend"
fi

# ash sandbox explain jupyter shows the converter's policy.
if [ -n "$backends" ]; then
  b=$(echo $backends | cut -d' ' -f1)
  "$ASH" sandbox explain jupyter --sandbox "$b" --source-dir "$w/good/src" \
    --output-dir "$TEST_TMP/explain-out" >"$TEST_TMP/explain" 2>"$TEST_TMP/explain.err"
  assert_eq "explain jupyter exits 0" "$?" 0
  assert_eq "explain jupyter: staged input only, results in converted/jupyter, the tree hidden" \
    "$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
acc = {x["path"]: x["access"] for x in p["paths"]}
print(p["staged_input_only"], p["results_dir"].endswith("/converted/jupyter"),
      acc.get(sys.argv[2]), p["network"])' "$TEST_TMP/explain" "$w/good/src")" \
    "True True hide False"
fi
done_testing
