#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Whole scans under each Linux backend:
#  - bandit's findings on the example repository are the same sandboxed
#    under bwrap, firejail and landlock as unsandboxed;
#  - the escape probe, run as a plugin scanner from a hostile tree
#    (tests/fixtures/plugins/escape-probe.yaml), cannot read a planted
#    ~/.ssh/id_rsa, change the source tree or reach a loopback listener
#    under --offline, and can with --sandbox off (the negative control).
# A backend that is unavailable is skipped with the probe's reason.

. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
PROBE=$top_builddir/tests/fixtures/escape-probe
plugins=$top_srcdir/tests/fixtures/plugins
backends="bwrap firejail landlock"

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
usable () {
  grep -q "^$1: usable" "$TEST_TMP/probe"
}

# findings OUT: "rule uri line" of every result, sorted.
findings () {
  python3 - "$1/reports/ash.sarif" <<'PY' | sort
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        loc = r["locations"][0]["physicalLocation"]
        print(r["ruleId"], loc["artifactLocation"]["uri"],
              loc["region"]["startLine"])
PY
}

# --- bandit, sandboxed and not ------------------------------------------
if command -v bandit >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  src=$TEST_TMP/example
  cp -R "$top_srcdir/examples/vulnerable-app" "$src"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-off" \
    --scanners bandit --no-progress --offline --sandbox off
  [ -f "$TEST_TMP/out-off/ash_aggregated_results.json" ] \
    || skip_all "ash scan does not run here: $(head -c 300 "$TEST_TMP/err")"
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-check" \
    --scanners bandit --no-progress --offline --sandbox auto
  if grep -q "cannot select a backend yet" "$TEST_TMP/out" "$TEST_TMP/err"; then
    skip_all "this ash scan does not select sandbox backends yet"
  fi
  findings "$TEST_TMP/out-off" >"$TEST_TMP/findings-off"
  check "bandit finds something unsandboxed" test -s "$TEST_TMP/findings-off"
  for b in $backends; do
    if ! usable "$b"; then
      ok "# SKIP $b: $(grep "^$b:" "$TEST_TMP/probe")"
      continue
    fi
    run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" \
      --scanners bandit --no-progress --offline --sandbox "$b"
    findings "$TEST_TMP/out-$b" >"$TEST_TMP/findings-$b"
    if cmp -s "$TEST_TMP/findings-off" "$TEST_TMP/findings-$b"; then
      ok "bandit's findings under $b equal the unsandboxed ones"
    else
      not_ok "bandit's findings under $b equal the unsandboxed ones"
      diag "$(diff "$TEST_TMP/findings-off" "$TEST_TMP/findings-$b")" \
        "$(cat "$TEST_TMP/err")"
    fi
  done
else
  ok "# SKIP bandit or python3 is not installed"
fi

# --- the escape probe as a plugin scanner ---------------------------------
if [ ! -x "$PROBE" ]; then
  ok "# SKIP tests/fixtures/escape-probe is not built"
  done_testing
fi
PROBE_DIR=$(cd "$(dirname "$PROBE")" && pwd)
PROBE=$PROBE_DIR/escape-probe

# scan MODE ATTEMPT...: a fresh tree whose .escape/attempt.sh runs ATTEMPT,
# scanned with --sandbox MODE --offline; $src, $out, $home are set.
scan () {
  _mode=$1
  shift
  base=$TEST_TMP/$_mode
  rm -rf "$base"
  src=$base/src
  out=$base/out
  home=$base/home
  mkdir -p "$src/.escape" "$home/.ssh"
  echo SOURCE >"$src/code.py"
  echo "-----BEGIN OPENSSH PRIVATE KEY-----" >"$home/.ssh/id_rsa"
  {
    echo '#!/bin/sh'
    printf "'%s' %s >\"\$1/attempt.txt\" 2>&1\n" "$PROBE" "$*"
    printf "'%s' sarif \"\$1/escape-probe.sarif\" \"\$(cat \"\$1/attempt.txt\")\"\n" "$PROBE"
  } >"$src/.escape/attempt.sh"
  HOME=$home "$ASH" scan --source-dir "$src" --output-dir "$out" \
    --no-progress --offline --sandbox "$_mode" \
    --ash-plugin-modules "$plugins/escape-probe.yaml" --scanners escape-probe \
    --config-overrides "sandbox.extra_read_paths=[$PROBE_DIR]" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
  attempt=$out/scanners/escape-probe/source/attempt.txt
  [ -f "$attempt" ] || attempt=$(find "$out/scanners/escape-probe" -name attempt.txt 2>/dev/null | head -n 1)
}

attempted_ok () {
  [ -n "$attempt" ] && grep -q '^RESULT .* ok$' "$attempt"
}

# judge MODE DESCRIPTION ESCAPED
judge () {
  if [ "$1" = off ]; then
    if [ "$3" = 1 ]; then ok "scan, off: $2 succeeds (control)"; else
      not_ok "scan, off: $2 succeeds (control)"
      diag "$(cat "$TEST_TMP/err")" "$(cat "$attempt" 2>/dev/null)"
    fi
  else
    if [ "$3" = 0 ] && [ -n "$attempt" ]; then ok "scan, $1: $2 is refused"; else
      not_ok "scan, $1: $2 is refused"
      diag "$(cat "$TEST_TMP/err")" "$(cat "$attempt" 2>/dev/null)"
    fi
  fi
}

for m in off $backends; do
  if [ "$m" != off ] && ! usable "$m"; then
    ok "# SKIP $m: $(grep "^$m:" "$TEST_TMP/probe")"
    continue
  fi
  scan "$m" read-file "'$TEST_TMP/$m/home/.ssh/id_rsa'"
  if [ "$m" = off ] && [ -z "$attempt" ]; then
    skip_all "ash scan cannot run the escape probe as a plugin scanner here: $(head -c 300 "$TEST_TMP/err")"
  fi
  attempted_ok && e=1 || e=0
  judge "$m" "reading \$HOME/.ssh/id_rsa" $e

  scan "$m" truncate "'$TEST_TMP/$m/src/code.py'"
  [ "$(cat "$src/code.py")" != SOURCE ] && e=1 || e=0
  judge "$m" "truncating a source file" $e

  # Emptied first: the previous mode's PORT must not be read before this
  # listener's redirection truncates the file.
  : >"$TEST_TMP/listener"
  "$PROBE" tcp-listen 127.0.0.1 0 3600 >"$TEST_TMP/listener" 2>&1 &
  lpid=$!
  _i=0
  until grep -q '^PORT' "$TEST_TMP/listener" || [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  port=$(sed -n 's/^PORT //p' "$TEST_TMP/listener")
  scan "$m" tcp-connect 127.0.0.1 "$port"
  # Answered once a tagged connection made from here after the scan has
  # arrived (listener_settle), not after a time.
  listener_settle "$PROBE" "$TEST_TMP/listener" tcp 127.0.0.1 "$port" ||
    bail "the listener did not hear the host's own tagged line"
  listener_heard "$TEST_TMP/listener" && e=1 || e=0
  kill "$lpid" 2>/dev/null
  wait "$lpid" 2>/dev/null
  judge "$m" "TCP to a loopback listener under --offline" $e
done

done_testing
