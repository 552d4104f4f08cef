#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kill -9 of ash: nothing the scan started outlives it.  Under Landlock
# the wrapper gets a parent-death signal and ends the whole tree,
# detached descendants included; under bwrap the pid namespace dies with
# bwrap (--die-with-parent); firejail, which is setuid and loses a
# parent-death signal, runs under the wrapper in --supervise mode, which
# ends its whole tree.  The negative control: without a sandbox a
# detached process does outlive ash.
. "$top_srcdir/tests/libtest.sh"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
mods=$top_srcdir/tests/fixtures/plugins/hog-scanners.yaml
src=$TEST_TMP/src
mkdir -p "$src"
printf 'x\n' >"$src/a.txt"
LIMIT=60

# wait_until SECONDS CMD...: poll until CMD succeeds (the event), bounded.
wait_until () {
  _n=$(($1 * 10))
  shift
  while ! "$@" 2>/dev/null; do
    _n=$((_n - 1))
    [ "$_n" -gt 0 ] || return 1
    sleep 0.1
  done
}
# The lingerer, found by its command line (under bwrap it has a pid of
# its own namespace).
alive () { pgrep -f "ash-lingerer:$1" >/dev/null; }
dead () { ! alive "$1"; }
end () { pkill -KILL -f "ash-lingerer:$1"; }

# run MODE [ARGS...]: start a scan, wait for the lingerer, kill -9 ash;
# sets $lpid to the lingerer's marker.
run () {
  out=$TEST_TMP/out-$1
  _mode=$1
  shift
  rm -rf "$out"
  "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
    --sandbox "$_mode" --ash-plugin-modules "$mods" --scanners lingerer \
    "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" &
  apid=$!
  lpid=$out/scanners/lingerer/source
  if ! wait_until "$LIMIT" test -e "$lpid/lingerer.started"; then
    kill -9 "$apid" 2>/dev/null
    wait "$apid" 2>/dev/null
    end "$lpid"
    return 1
  fi
  wait_until "$LIMIT" alive "$lpid"
  kill -9 "$apid"
  wait "$apid" 2>/dev/null
  return 0
}

# The control runs without a control group: a scanner's group of a killed
# run is ended by the next run's sweep, and another test's ash may be that
# run.
printf 'global_settings:\n  max_scanner_processes: 0\n  max_scanner_memory: 0\n' \
  >"$TEST_TMP/nocg.yaml"
if run off --config "$TEST_TMP/nocg.yaml"; then
  wait_until 5 dead "$lpid"
  check "control: without a sandbox the detached process outlives ash" alive "$lpid"
  end "$lpid"
else
  not_ok "control: the scanner started"
  diag "$(cat "$TEST_TMP/err")"
fi

# With a control group, even without a sandbox, what a killed run left is
# ended by the next run.
if run off; then
  if grep -q 'lingerer: at most [0-9]* processes (a pids cgroup' \
       "$out/ash.log" 2>/dev/null; then
    "$ASH" scan --source-dir "$src" --output-dir "$TEST_TMP/out-next" \
      --no-progress --sandbox off --scanners bandit >/dev/null 2>&1
    wait_until "$LIMIT" dead "$lpid"
    check "off: the next run ends what the killed run's scanner left" dead "$lpid"
  else
    ok "# SKIP off: no pids cgroup here, so nothing ends what the killed run left"
  fi
  end "$lpid"
else
  not_ok "off: the scanner started"
  diag "$(cat "$TEST_TMP/err")"
fi

# The private directories of a killed run are removed by the next run.
# TMPDIR is the test's own, so that no one else's run is involved.
TMPDIR=$TEST_TMP/tmp
export TMPDIR
mkdir -p "$TMPDIR"

for mode in landlock bwrap firejail; do
  "$ASH" sandbox probe 2>/dev/null | grep -q "^$mode: usable" || {
    diag "$mode is not available here: not checked"
    continue
  }
  if run "$mode"; then
    wait_until "$LIMIT" dead "$lpid"
    check "$mode: kill -9 of ash ends the detached process too" dead "$lpid"
    end "$lpid"
    if [ "$mode" = landlock ]; then
      # What the killed run left, with a tree the scanner made deep and
      # unreadable in its private TMPDIR.
      left=$(ls -d "$(ash_tmp_dir "$TMPDIR")/ash-landlock-$apid-"* 2>/dev/null | head -n 1)
      check "landlock: the killed run left its private directory" test -n "$left"
      if [ -n "$left" ]; then
        python3 -c "
import os
fd = os.open('$left/tmp', os.O_RDONLY)
for i in range(300):
    os.mkdir('d', dir_fd=fd)
    nfd = os.open('d', os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.chmod('$left/tmp/d', 0)
"
        "$ASH" scan --source-dir "$src" --output-dir "$TEST_TMP/out-next" \
          --no-progress --sandbox landlock --ash-plugin-modules \
          "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" \
          --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
        check_fails "landlock: the next run removed it" test -e "$left"
        assert_file_contains "landlock: and said so" "$TEST_TMP/out-next/ash.log" \
          "left by a run of ash that was killed"
        check_fails "landlock: the next run left none of its own" \
          sh -c "ls -d '$(ash_tmp_dir "$TMPDIR")'/ash-landlock-* '$TMPDIR'/ash-landlock-* 2>/dev/null | grep -q ."
      fi
    fi
  else
    not_ok "$mode: the scanner started"
    diag "$(cat "$TEST_TMP/err")"
  fi
done
done_testing
