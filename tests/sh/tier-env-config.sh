#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --config names a file inside the scanned checkout and ASH_CONFIG names
# the operator's file: the grants come from ASH_CONFIG's file when it may
# grant (outside every checkout), and its mode is a floor the in-tree
# file cannot lower.  Judged through a real `ash scan` of the escape
# probe: a loopback listener the test starts is reached only when
# ASH_CONFIG's file may grant the network; the control moves that file
# into a checkout of its own, which grants nothing.
. "$top_srcdir/tests/libtest.sh"

probe=$top_builddir/tests/fixtures/escape-probe
module=$top_srcdir/tests/fixtures/plugins/hostile-probe.yaml

[ -x "$ASH" ] || bail "$ASH is not built"
[ -x "$probe" ] || skip_all "the escape-probe fixture is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
grep -q '^bwrap: usable' "$TEST_TMP/probe" \
  || skip_all "bwrap is not usable here: $(head -c 300 "$TEST_TMP/probe")"

base=$TEST_TMP
tools=$base/tools
repo=$base/repo
secret=$base/secret
mkdir -p "$tools" "$repo/.git" "$repo/ci" "$repo/.escape" "$secret" \
  "$base/op" "$base/dot/.git"
cp "$probe" "$tools/escape-probe"
printf 'ENV-SECRET-%s\n' "$$" >"$secret/id_rsa"
cat >"$repo/ci/ash.yaml" <<YAML
sandbox:
  mode: "off"
  network_scanners: [hostile-probe]
  extra_read_paths: [$secret]
YAML
cat >"$repo/.escape/attempt.sh" <<SH
#!/bin/sh
out=\$1
{
  '$tools/escape-probe' read-file '$secret/id_rsa'
  cat '$secret/id_rsa'
  '$tools/escape-probe' tcp-connect 127.0.0.1 "\$(cat '$repo/.escape/port')"
} >"\$out/attempt.txt" 2>&1
'$tools/escape-probe' sarif "\$out/hostile-probe.sarif" "\$(cat "\$out/attempt.txt")"
SH
for d in op dot; do
  printf 'sandbox:\n  mode: bwrap\n  network_scanners: [hostile-probe]\n' \
    >"$base/$d/env.yaml"
done

# scan NAME ENV-FILE: sets $out, $got_net, $got_secret, $rec.
scan () {
  out=$base/out-$1
  llog=$base/listener-$1
  "$probe" tcp-listen 127.0.0.1 0 3600 >"$llog" 2>&1 &
  lpid=$!
  _i=0
  until grep -q '^PORT' "$llog" || [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  sed -n 's/^PORT //p' "$llog" >"$repo/.escape/port"
  ASH_CONFIG=$2 "$ASH" scan --source-dir "$repo" --output-dir "$out" \
    --no-progress --config "$repo/ci/ash.yaml" \
    --ash-plugin-modules "$module" --scanners hostile-probe \
    --config-overrides "sandbox.extra_read_paths=[$tools]" \
    >"$base/stdout-$1" 2>"$base/stderr-$1"
  # Whether the scan connected is answered once a tagged connection made
  # from here after it has arrived, not after a time.
  listener_settle "$probe" "$llog" tcp 127.0.0.1 "$(cat "$repo/.escape/port")" ||
    bail "the listener ($llog) did not hear the host's own tagged line"
  listener_heard "$llog" && got_net=1 || got_net=0
  kill "$lpid" 2>/dev/null
  wait "$lpid" 2>/dev/null
  grep -rqF "ENV-SECRET-$$" "$out" 2>/dev/null && got_secret=1 || got_secret=0
  rec=$(python3 - "$out/ash_aggregated_results.json" "$secret" <<'PY' 2>&1
import json, sys
s = json.load(open(sys.argv[1]))["scanner_results"]["hostile-probe"].get("sandbox") or {}
print(s.get("mode"), s.get("backend"), json.dumps(s.get("network")),
      sys.argv[2] in json.dumps(s))
PY
)
}

warning="WARNING  Ignoring sandbox.network_scanners, sandbox.extra_read_paths from $repo/ci/ash.yaml: that config is inside a git checkout or the scanned tree"

scan outside "$base/op/env.yaml"
assert_file_contains "the in-tree --config's grants are dropped with the warning" \
  "$base/stderr-outside" "$warning"
assert_eq "ASH_CONFIG's mode holds and its network grant applies" \
  "$rec" "bwrap bwrap true False"
assert_eq "the probe reaches the listener" "$got_net" 1
assert_eq "the in-tree read path is not granted" "$got_secret" 0

# Control: the same ASH_CONFIG file in a checkout of its own grants
# nothing, but its mode still holds.
scan checkout "$base/dot/env.yaml"
assert_file_contains "the in-tree --config's grants are dropped" \
  "$base/stderr-checkout" "$warning"
assert_file_contains "ASH_CONFIG's file in a checkout is named in a warning" \
  "$base/stderr-checkout" "WARNING  Ignoring sandbox.network_scanners from $base/dot/env.yaml: that config is inside a git checkout"
assert_eq "in a checkout, ASH_CONFIG's mode holds but grants no network" \
  "$rec" "bwrap bwrap false False"
assert_eq "the probe does not reach the listener" "$got_net" 0
assert_eq "the read path is still not granted" "$got_secret" 0

# A file ASH_CONFIG names that cannot be loaded stops the scan.
ASH_CONFIG=$base/op/none.yaml "$ASH" scan --source-dir "$repo" \
  --output-dir "$base/out-none" --no-progress --config "$repo/ci/ash.yaml" \
  --ash-plugin-modules "$module" --scanners hostile-probe \
  >"$base/stdout-none" 2>"$base/stderr-none"
assert_eq "a missing ASH_CONFIG file exits 3" "$?" 3
assert_file_contains "the error names the file" "$base/stderr-none" \
  "$base/op/none.yaml"

done_testing
