#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The probe cache of each backend, and what keeps a stale entry from
# weakening a sandbox:
# - Landlock: an entry whose ABI the kernel no longer gives is rechecked
#   and probed afresh (control: the intact entry is used);
# - bwrap (through a bwrap on PATH that counts its runs): a cached probe
#   runs no bwrap at all and a scan runs bwrap once per scanner, while
#   ash inside a seccomp filter runs bwrap's test command again before
#   relying on the entry; a bwrap that stops setting up sandboxes (its
#   identity unchanged) fails the scanner and drops the entry (control:
#   the same scan with a working bwrap keeps it);
# - firejail: cached, and probed afresh in another mount namespace; a
#   firejail that runs the command without a sandbox, as firejail inside
#   another sandbox does, is refused by the wrapper, fails the scanner
#   and drops the entry (control: the real firejail keeps it);
# - the wrapper's --ready-fd and --not-mount-ns themselves.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
helper=$(dirname "$ASH")/ash-landlock-exec
[ -x "$helper" ] || skip_all "ash-landlock-exec is not built next to ash"

home=$TEST_TMP/home
mkdir -p "$home"
chmod 700 "$home"
cache=$home/.cache/ash
tools=$TEST_TMP/tools
mkdir -p "$tools"
# The counting tools run as the scanner account when ash runs as root.
log=$TEST_TMP/log
mkdir -p "$log"
chmod 1777 "$log"
chmod 755 "$TEST_TMP"

# probe [PREFIX...]: ash sandbox probe with the test's home and tools.
probe () {
  env -u XDG_CACHE_HOME HOME="$home" PATH="$tools:/usr/bin:/bin" \
    $scanner_user_env "$@" "$ASH" sandbox probe >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
# from_cache BACKEND: whether the last probe took BACKEND from the cache.
from_cache () {
  sed -n "/^$1:/,/^[a-z]/p" "$TEST_TMP/out" | sed '1!{/^[a-z]/d;}' |
    grep -q "from the probe cache"
}
usable () {
  grep -q "^$1: usable" "$TEST_TMP/out"
}
# runs NAME: how many times the counting NAME ran since the last reset.
runs () {
  if [ -f "$log/$1" ]; then wc -l <"$log/$1" | tr -d ' '; else echo 0; fi
}
reset_runs () {
  rm -f "$log/$1"
}

# A scan of one plugin scanner under BACKEND, into $TEST_TMP/scan-TAG.
src=$TEST_TMP/src
mkdir -p "$src"
printf 'FAKE-FINDING high\n' >"$src/notes.txt"
cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
cp "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" "$TEST_TMP/"
chmod -R a+rX "$src" "$tools"
scan () {
  rm -rf "$TEST_TMP/scan-$2"
  env -u XDG_CACHE_HOME HOME="$home" PATH="$tools:/usr/bin:/bin" \
    $scanner_user_env "$ASH" scan --source-dir "$src" \
    --output-dir "$TEST_TMP/scan-$2" --no-progress --sandbox "$1" \
    --ash-plugin-modules "$TEST_TMP/fake-scanners.yaml" --scanners fake-sarif \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}
# found TAG: whether that scan reported fake-sarif's finding in notes.txt.
found () {
  python3 - "$TEST_TMP/scan-$1/ash_aggregated_results.json" <<'PY'
import json, sys
try:
    a = json.load(open(sys.argv[1]))
except OSError:
    sys.exit(1)
hits = [x for run in a["sarif"]["runs"] for x in run["results"]
        if x["ruleId"] == "FAKE001"
        and x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "notes.txt"]
sys.exit(0 if hits else 1)
PY
}

# --- Landlock: a stale ABI --------------------------------------------------
probe
if usable landlock; then
  probe
  check "landlock: the second probe uses the cache" from_cache landlock
  python3 - "$cache/probe-landlock.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["probe"]["landlock_abi"] += 1
open(p, "w").write(json.dumps(d))
PY
  probe
  check_fails "landlock: an entry with an ABI the kernel does not give is probed afresh" \
    from_cache landlock
  check "landlock: and the fresh probe is usable" usable landlock
  assert_eq "landlock: the fresh probe's ABI is stored" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["probe"]["landlock_abi"])' "$cache/probe-landlock.json")" \
    "$(sed -n 's/^  note: Landlock ABI \([0-9]*\).*/\1/p' "$TEST_TMP/out")"
else
  skip_reason="Landlock is not usable here"
  for t in 1 2 3 4; do ok "# SKIP $skip_reason"; done
fi

# --- the wrapper's --ready-fd and --not-mount-ns ----------------------------
own_ns=$(stat -L -c %i /proc/self/ns/mnt)
: >"$TEST_TMP/ready"
"$helper" --socket-filter --ready-fd 3 -- /bin/sh -c 'echo leaked >&3' \
  3>"$TEST_TMP/ready" 2>"$TEST_TMP/werr"
st=$?
assert_eq "wrapper: --ready-fd gets one byte before the command runs" \
  "$(cat "$TEST_TMP/ready")" 1
check_fails "wrapper: the command does not inherit the --ready-fd descriptor" \
  test "$st" = 0
: >"$TEST_TMP/ready"
"$helper" --socket-filter --not-mount-ns="$own_ns" --ready-fd 3 -- /bin/true \
  3>"$TEST_TMP/ready" 2>"$TEST_TMP/werr"
assert_eq "wrapper: a command left in the refused mount namespace is not started (126)" "$?" 126
assert_file_contains "wrapper: and it says why" "$TEST_TMP/werr" \
  "did not give the command a mount namespace of its own"
assert_eq "wrapper: and it never says ready" "$(cat "$TEST_TMP/ready")" ""
: >"$TEST_TMP/ready"
"$helper" --socket-filter --not-mount-ns=1 --ready-fd 3 -- /bin/true \
  3>"$TEST_TMP/ready" 2>"$TEST_TMP/werr"
assert_eq "wrapper: control: another namespace's number lets the command run" "$?" 0
assert_eq "wrapper: control: and it says ready" "$(cat "$TEST_TMP/ready")" 1
"$helper" --socket-filter --not-mount-ns=abc -- /bin/true 2>"$TEST_TMP/werr"
assert_eq "wrapper: a --not-mount-ns that is not a number is a usage error" "$?" 125
"$helper" --probe --ready-fd 3 3>/dev/null 2>"$TEST_TMP/werr"
assert_eq "wrapper: --probe refuses --ready-fd" "$?" 125
"$helper" --socket-filter --ready-fd 9 -- /bin/true 9>&- 2>"$TEST_TMP/werr"
assert_eq "wrapper: a --ready-fd that is not open: nothing runs (126)" "$?" 126
if grep -q "Landlock ABI" "$TEST_TMP/out" 2>/dev/null || "$helper" --probe >/dev/null 2>&1; then
  : >"$TEST_TMP/ready"
  "$helper" --ro / --ready-fd 3 -- /bin/true 3>"$TEST_TMP/ready" 2>"$TEST_TMP/werr"
  assert_eq "wrapper: under Landlock, the command runs" "$?" 0
  assert_eq "wrapper: under Landlock, --ready-fd gets its byte" "$(cat "$TEST_TMP/ready")" 1
else
  ok "# SKIP Landlock is not usable here"
  ok "# SKIP Landlock is not usable here"
fi

# --- bwrap --------------------------------------------------------------------
if command -v bwrap >/dev/null 2>&1; then
  real_bwrap=$(command -v bwrap)
  cat >"$tools/bwrap" <<EOF
#!/bin/sh
echo run >>'$log/bwrap'
if [ -e '$log/bwrap-broken' ]; then
  echo 'bwrap: setting up uid map: Permission denied' >&2
  exit 1
fi
exec '$real_bwrap' "\$@"
EOF
  chmod 755 "$tools/bwrap"
  rm -rf "$cache"
  probe
fi
if command -v bwrap >/dev/null 2>&1 && usable bwrap; then
  check "bwrap: the first probe ran bwrap" test "$(runs bwrap)" -gt 0
  reset_runs bwrap
  probe
  check "bwrap: the second probe uses the cache" from_cache bwrap
  assert_eq "bwrap: and runs no bwrap at all" "$(runs bwrap)" 0

  # Inside a seccomp filter that refuses namespaces (the wrapper's own),
  # which the key cannot show, the entry is rechecked by running bwrap's
  # test command, which fails: bwrap is probed afresh and is unusable.
  reset_runs bwrap
  probe "$helper" --socket-filter --network --
  check_fails "bwrap: inside a seccomp filter, the cached entry is not relied on" \
    from_cache bwrap
  check "bwrap: its recheck ran bwrap" test "$(runs bwrap)" -ge 1
  check "bwrap: and bwrap is unusable there" grep -q "^bwrap: unavailable" "$TEST_TMP/out"
  probe
  probe
  check "bwrap: control: outside the filter, stored and used again" from_cache bwrap

  reset_runs bwrap
  scan bwrap ok
  assert_eq "bwrap: a cached scan: the scanner's findings (exit 2)" "$status" 2
  check "bwrap: a cached scan: the finding is there" found ok
  assert_eq "bwrap: a cached scan runs bwrap once, for its one scanner" "$(runs bwrap)" 1
  check "bwrap: control: a scan whose sandbox started keeps the entry" \
    test -f "$cache/probe-bwrap.json"

  # The same bwrap (path, inode, size, times: the key holds) now fails
  # before it sets anything up.
  touch "$log/bwrap-broken"
  scan bwrap broken
  check_fails "bwrap: a bwrap that sets nothing up: no finding" found broken
  check_fails "bwrap: and the scan does not pass" test "$status" = 0
  check_fails "bwrap: and the entry is dropped" test -e "$cache/probe-bwrap.json"
  reset_runs bwrap
  probe
  check_fails "bwrap: the next probe is not from the cache" from_cache bwrap
  check "bwrap: it ran bwrap, and found it unusable" \
    sh -c "test $(runs bwrap) -gt 0 && grep -q '^bwrap: unavailable' '$TEST_TMP/out'"
  check_fails "bwrap: an unusable bwrap is not stored" test -e "$cache/probe-bwrap.json"
  rm -f "$log/bwrap-broken" "$tools/bwrap"
else
  for t in $(seq 1 18); do ok "# SKIP bwrap is not usable here"; done
  rm -f "$tools/bwrap"
fi

# --- firejail -----------------------------------------------------------------
real_firejail=$(command -v firejail 2>/dev/null)
if [ -n "$real_firejail" ]; then
  # As firejail inside another sandbox does: the command runs without a
  # sandbox of firejail's making, in the caller's namespaces.
  cat >"$tools/firejail" <<EOF
#!/bin/sh
echo run >>'$log/firejail'
if [ -e '$log/firejail-none' ]; then
  while [ \$# -gt 0 ]; do
    case \$1 in --*) shift ;; *) break ;; esac
  done
  echo 'Warning: an existing sandbox was detected. It will run without any additional sandboxing features' >&2
  exec "\$@"
fi
exec '$real_firejail' "\$@"
EOF
  chmod 755 "$tools/firejail"
  rm -rf "$cache"
  probe
fi
if [ -n "$real_firejail" ] && usable firejail; then
  check "firejail: the first probe is stored" test -f "$cache/probe-firejail.json"
  reset_runs firejail
  probe
  check "firejail: the second probe uses the cache" from_cache firejail
  assert_eq "firejail: and runs no firejail" "$(runs firejail)" 0
  if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
    probe unshare -m
    check_fails "firejail: in another mount namespace, the entry is not used" \
      from_cache firejail
    probe
    probe
    check "firejail: back in ash's own, stored and used again" from_cache firejail
  else
    ok "# SKIP unshare -m is refused here"
    ok "# SKIP unshare -m is refused here"
  fi

  scan firejail ok
  assert_eq "firejail: a cached scan: the scanner's findings (exit 2)" "$status" 2
  check "firejail: a cached scan: the finding is there" found ok
  check "firejail: control: a scan whose sandbox started keeps the entry" \
    test -f "$cache/probe-firejail.json"

  touch "$log/firejail-none"
  scan firejail none
  check_fails "firejail: a command run without a sandbox: no finding" found none
  check_fails "firejail: and the scan does not pass" test "$status" = 0
  check_fails "firejail: and the entry is dropped" test -e "$cache/probe-firejail.json"
  rm -f "$log/firejail-none"
else
  for t in $(seq 1 12); do ok "# SKIP firejail is not usable here$( [ -z "$real_firejail" ] || echo ": $(grep '^firejail' "$TEST_TMP/out")")"; done
fi

done_testing
