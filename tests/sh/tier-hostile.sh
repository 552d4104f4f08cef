#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A hostile repository whose .ash/.ash.yaml tries to grant itself a network
# and a read path and to turn the sandbox off, scanned with --sandbox auto
# --config <operator file outside every checkout> (and again with the
# operator's file setting sandbox.mode: bwrap and no --sandbox): the
# warning of the spec appears, the sandbox stays on, and the probe scanner
# reaches neither a loopback listener nor the "granted" file, judged from
# the host.  Controls: the same grants through --config-overrides let the
# probe connect and read, and so does --sandbox off.  As root, the whole
# round runs again as an unprivileged account.
. "$top_srcdir/tests/libtest.sh"

probe=$top_builddir/tests/fixtures/escape-probe
module=$top_srcdir/tests/fixtures/plugins/hostile-probe.yaml

[ -x "$ASH" ] || bail "$ASH is not built"
[ -x "$probe" ] || skip_all "the escape-probe fixture is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1 \
  || skip_all "no sandbox backend is usable here: $(head -c 300 "$TEST_TMP/probe")"
grep -q '^bwrap: usable' "$TEST_TMP/probe" \
  || skip_all "bwrap is not usable here: $(grep '^bwrap' "$TEST_TMP/probe")"

# setup BASE: under BASE (which the account running ash can read and
# write) a copy of the probe and the module, the hostile repository (a
# git checkout), a secret outside it, and the operator's files outside
# every checkout.
setup () {
  base=$1
  tools=$base/tools
  repo=$base/repo
  secret=$base/secret
  op=$base/op
  mkdir -p "$tools" "$repo/.git" "$repo/.ash" "$repo/.escape" "$secret" "$op"
  cp "$probe" "$tools/escape-probe"
  cp "$module" "$tools/hostile-probe.yaml"
  printf 'HOSTILE-SECRET-%s\n' "$$" >"$secret/id_rsa"
  printf 'x = 1\n' >"$repo/app.py"
  cat >"$repo/.ash/.ash.yaml" <<YAML
sandbox:
  mode: "off"
  network_scanners: [hostile-probe]
  extra_read_paths: [$secret]
  read_path_scanners: [hostile-probe]
YAML
  # The attempts, shipped by the repository as a hostile one would.  The
  # port is read when the scanner runs.
  cat >"$repo/.escape/attempt.sh" <<SH
#!/bin/sh
out=\$1
port=\$(cat '$repo/.escape/port')
{
  '$tools/escape-probe' read-file '$secret/id_rsa'
  cat '$secret/id_rsa'
  '$tools/escape-probe' tcp-connect 127.0.0.1 "\$port"
} >"\$out/attempt.txt" 2>&1
'$tools/escape-probe' sarif "\$out/hostile-probe.sarif" "\$(cat "\$out/attempt.txt")"
SH
  # The operator's file extends the repository's config and grants
  # only the probe's own directory, which it may.
  cat >"$op/ash.yaml" <<YAML
extends: $repo/.ash/.ash.yaml
sandbox:
  extra_read_paths: [$tools]
YAML
  cat >"$op/ash-bwrap.yaml" <<YAML
extends: $repo/.ash/.ash.yaml
sandbox:
  mode: bwrap
  extra_read_paths: [$tools]
YAML
  if [ -n "$as_user" ]; then
    chown -R "$who" "$base"
    chmod 700 "$secret"
  fi
}

# listen: start a loopback TCP listener; $lpid, $llog.
listen () {
  llog=$base/listener.$1
  "$probe" tcp-listen 127.0.0.1 0 3600 >"$llog" 2>&1 &
  lpid=$!
  _i=0
  until grep -q '^PORT' "$llog" || [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  sed -n 's/^PORT //p' "$llog" >"$repo/.escape/port"
  [ -s "$repo/.escape/port" ] || bail "the loopback listener did not start: $(cat "$llog")"
}

# connected: did the listener get a connection during the scan?
# Answered once a tagged connection made from here after the scan has
# arrived (listener_settle in tests/libtest.sh), not after a time.
connected () {
  listener_settle "$probe" "$llog" tcp 127.0.0.1 "$(cat "$repo/.escape/port")" ||
    bail "the listener ($llog) did not hear the host's own tagged line"
  listener_heard "$llog"
}

unlisten () {
  kill "$lpid" 2>/dev/null
  wait "$lpid" 2>/dev/null
}

# scan NAME ARGS...: scan the repository as $who into $base/out-NAME.
scan () {
  _n=$1
  shift
  out=$base/out-$_n
  listen "$_n"
  $as_user env HOME="$base" "$ASH" scan --source-dir "$repo" \
    --output-dir "$out" --no-progress \
    --ash-plugin-modules "$tools/hostile-probe.yaml" --scanners hostile-probe \
    "$@" >"$base/stdout-$_n" 2>"$base/stderr-$_n"
  status=$?
  connected && got_net=1 || got_net=0
  unlisten
  if grep -rqF "HOSTILE-SECRET-$$" "$out" 2>/dev/null; then
    got_secret=1
  else
    got_secret=0
  fi
  attempt=$out/scanners/hostile-probe/source/attempt.txt
}

# record: the probe's sandbox record as "mode backend network reads-secret".
record () {
  python3 - "$out/ash_aggregated_results.json" "$secret" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]["hostile-probe"]
s = r.get("sandbox") or {}
print(s.get("mode"), s.get("backend"), json.dumps(s.get("network")),
      sys.argv[2] in json.dumps(s))
PY
}

# hostile NAME MODE ARGS...: a scan the repository attacks; the sandbox
# holds, in mode MODE, under bwrap.
hostile () {
  _name=$1
  _mode=$2
  shift 2
  scan "$_name" "$@"
  _e=$base/stderr-$_name
  if [ ! -f "$attempt" ]; then
    not_ok "$who, $_name: the probe ran sandboxed"
    diag "$(head -c 2000 "$_e")"
    return
  fi
  ok "$who, $_name: the probe ran sandboxed"
  assert_file_contains "$who, $_name: the warning names the file and the settings" \
    "$_e" \
    "WARNING  Ignoring sandbox.network_scanners, sandbox.extra_read_paths, sandbox.read_path_scanners from $repo/.ash/.ash.yaml: that config is inside a git checkout or the scanned tree, or was delivered by an MCP client. A network_scanners list there still removes network from scanners it does not name, and a sandbox mode there still applies when nothing else turns the sandbox on. To keep a setting, move the file outside every git checkout, or pass the setting with --config-overrides. A file inside the scanned directory has to move out of it as well."
  assert_eq "$who, $_name: the warning is logged once" \
    "$(grep -c 'Ignoring sandbox' "$_e")" 1
  assert_eq "$who, $_name: the sandbox stays on, with no network and no secret path" \
    "$(record)" "$_mode bwrap false False"
  assert_eq "$who, $_name: the listener got no connection" "$got_net" 0
  assert_eq "$who, $_name: the secret is not in the results" "$got_secret" 0
  assert_file_contains "$who, $_name: the read was refused" "$attempt" \
    "RESULT read-file denied"
  assert_file_contains "$who, $_name: the connection was refused" "$attempt" \
    "RESULT tcp-connect denied"
}

round () {
  setup "$1"

  hostile auto auto --config "$op/ash.yaml" --sandbox auto
  hostile operator-mode bwrap --config "$op/ash-bwrap.yaml"

  # Control: the same grants from the operator's --config-overrides.
  scan overrides --config "$op/ash.yaml" --sandbox auto \
    --config-overrides 'sandbox.network_scanners=[hostile-probe]' \
    --config-overrides "sandbox.extra_read_paths=[$tools, $secret]" \
    --config-overrides 'sandbox.read_path_scanners=[hostile-probe]'
  assert_eq "$who, control: overrides grant the network (the record)" \
    "$(record)" "auto bwrap true True"
  assert_eq "$who, control: with the overrides the probe connects" "$got_net" 1
  assert_eq "$who, control: with the overrides the probe reads the secret" \
    "$got_secret" 1

  # Control: unsandboxed, the probe reads the secret and connects.
  scan off --config "$op/ash.yaml" --sandbox off
  assert_eq "$who, control: --sandbox off reads the secret" "$got_secret" 1
  assert_eq "$who, control: --sandbox off connects" "$got_net" 1
}

who=$(id -un)
as_user=
round "$TEST_TMP/self"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  mkdir -p "$TEST_TMP/unpriv"
  chown "$who" "$TEST_TMP/unpriv"
  if $as_user "$ASH" sandbox probe >"$TEST_TMP/probe-unpriv" 2>&1 \
     && grep -q '^bwrap: usable' "$TEST_TMP/probe-unpriv"; then
    round "$TEST_TMP/unpriv"
  else
    ok "# SKIP bwrap is unavailable to $who: $(head -c 300 "$TEST_TMP/probe-unpriv")"
  fi
fi

done_testing
