#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The database phase of grype and trivy-repo, against fakes that record
# every call: two scans started together never update the same database
# at once (the second waits on the lock in the cache directory while the
# first one's update is held open, and starts its own only after it), for
# grype and for trivy's database and checks bundle; the control shows the
# observation sees an overlap when the two scans use different caches.
# A scanner reads the database under the lock, shared: an update waits
# while a scan's grype (blocked on a FIFO) runs, until its database's age
# has been read, and an offline scan's grype does not start while an
# update is held open; the controls, with another cache, run at once.
# A sandboxed scanner cannot change the database the next scan reads:
# its writes to the cache are refused or thrown away under every usable
# backend, while the same write lands with --sandbox off; as root, also
# for an unprivileged account that owns the caches.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v flock >/dev/null 2>&1 || skip_all "flock (util-linux) is not installed"
[ -d /proc/self/fd ] || skip_all "/proc is not mounted"

src=$TEST_TMP/src
mkdir -p "$src/js"
printf 'GEM\n  specs:\n    addressable (2.7.0)\n' >"$src/js/Gemfile.lock"
cp "$top_srcdir/tests/fixtures/repos/npm-small/package-lock.json" "$src/"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-grype" "$tools/grype"
cp "$top_srcdir/tests/fixtures/tools/fake-trivy" "$tools/trivy"
cp "$top_srcdir/tests/fixtures/deps/grype.json" "$tools/"
PATH=$tools:$PATH
export PATH
unset GRYPE_FAKE_MODE GRYPE_FAKE_BUILT GRYPE_FAKE_SLEEP GRYPE_FAKE_HOLD \
  GRYPE_FAKE_POISON GRYPE_DB_MAX_ALLOWED_BUILT_AGE TRIVY_FAKE_MODE \
  TRIVY_FAKE_UPDATED TRIVY_FAKE_SLEEP TRIVY_FAKE_HOLD TRIVY_FAKE_POISON \
  ASH_DB_LOCK_TIMEOUT || :
mods="--ash-plugin-modules trivy-repo"

# wait_for DESCRIPTION COMMAND...: wait until COMMAND succeeds (the
# bound is only against a hang; nothing is timed).
wait_for () {
  _what=$1
  shift
  _i=0
  until "$@"; do
    _i=$((_i + 1))
    [ $_i -lt 1200 ] || return 1
    sleep 0.1
  done
}
# The number of processes that have FILE open.
openers () {
  find /proc/[0-9]*/fd -maxdepth 1 -lname "$1" 2>/dev/null | cut -d/ -f3 | sort -u | wc -l
}
count () {
  grep -c "^$1" "$2" 2>/dev/null || :
}
# started LOG N: at least N updates have started.
started () {
  [ "$(count update-start "$1")" -ge "$2" ]
}
# second_blocked_or_started LOG LOCK: the second scan either waits on the
# lock (two processes have it open: the first scan, which holds it, and
# the second, which tries to take it) or has started its own update.
second_blocked_or_started () {
  started "$1" 2 || [ "$(openers "$2")" -ge 2 ]
}

# concurrent NAME LOG CACHE1 CACHE2 HOLDVAR SCANARGS...: two scans, the
# first one's update held open until the test releases it.
concurrent () {
  _name=$1 _log=$2 _c1=$3 _c2=$4 _holdvar=$5
  shift 5
  _hold=$TEST_TMP/release-$_name
  rm -f "$_hold"
  : >"$_log"
  env "$_holdvar=$_hold" "$cache_var=$_c1" "$ASH" scan --source-dir "$src" \
    --output-dir "$TEST_TMP/$_name-1" --no-progress --sandbox off "$@" \
    >"$TEST_TMP/$_name-1.out" 2>&1 &
  _p1=$!
  if ! wait_for "the first update" started "$_log" 1; then
    touch "$_hold"
    wait $_p1
    bail "$_name: the first scan's update did not start"
  fi
  env "$_holdvar=$_hold" "$cache_var=$_c2" "$ASH" scan --source-dir "$src" \
    --output-dir "$TEST_TMP/$_name-2" --no-progress --sandbox off "$@" \
    >"$TEST_TMP/$_name-2.out" 2>&1 &
  _p2=$!
  wait_for "the second scan" second_blocked_or_started "$_log" "$_c1/.ash-db.lock"
  _during=$(count update-start "$_log")
  _openers=$(openers "$_c1/.ash-db.lock")
  touch "$_hold"
  wait $_p1
  _s1=$?
  wait $_p2
  _s2=$?
  # What a scan that did not end with its findings said.
  [ "$_s1" = 2 ] || diag "$_name, first scan (exit $_s1):" "$(tail -n 15 "$TEST_TMP/$_name-1.out")"
  [ "$_s2" = 2 ] || diag "$_name, second scan (exit $_s2):" "$(tail -n 15 "$TEST_TMP/$_name-2.out")"
}

# grype: the same cache.
GRYPE_FAKE_LOG=$TEST_TMP/grype.log
export GRYPE_FAKE_LOG
cache_var=GRYPE_DB_CACHE_DIR
gc=$TEST_TMP/cache/grype/db
concurrent grype "$GRYPE_FAKE_LOG" "$gc" "$gc" GRYPE_FAKE_HOLD --scanners grype
assert_eq "grype: while the first scan updates, the second does not" "$_during" 1
check "grype: the second scan waits on the lock in the cache" test "$_openers" -ge 2
assert_eq "grype: both scans finish with their findings" "$_s1 $_s2" "2 2"
assert_eq "grype: each scan updated once, one after the other" \
  "$(grep '^update-' "$GRYPE_FAKE_LOG" | cut -d' ' -f1 | tr '\n' ' ')" \
  "update-start update-end update-start update-end "
check_fails "grype: no update ran without the lock" grep -Eq '^update-.* lock=(free|none)' "$GRYPE_FAKE_LOG"
# Control: with two caches there are two locks, and the second update
# starts while the first is still held, which this test would see.
concurrent grype-ctl "$GRYPE_FAKE_LOG" "$gc" "$TEST_TMP/cache2/grype/db" GRYPE_FAKE_HOLD --scanners grype
assert_eq "grype control: with separate caches the updates overlap" "$_during" 2

# A scan's scanner reads the database under the same lock, shared, from
# before it starts until the database's age has been read: another scan's
# update waits for it, and it waits for another scan's update.
# scan_bg NAME CACHE [ENV...]: a grype scan in the background (pid in $!).
scan_bg () {
  _n=$1 _c=$2
  shift 2
  env GRYPE_DB_CACHE_DIR="$_c" "$@" "$ASH" scan --source-dir "$src" \
    --output-dir "$TEST_TMP/$_n" --no-progress --sandbox off --scanners grype \
    ${offline:+--offline} >"$TEST_TMP/$_n.out" 2>&1 &
}
# kinds LOG: the kinds of the fake's log lines, in order.
kinds () {
  cut -d' ' -f1 "$1" | tr '\n' ' '
}
# release_scan: the blocked scanner reads its line.  Bounded, so that a
# scanner that never opened the FIFO cannot hang the test.
release_scan () {
  timeout 60 sh -c "echo go >'$fifo'"
}
blocked_or_started () { # LOG LOCK: a second update started, or two
  # processes have the lock open (the first scan, and the second waiting)
  started "$1" 2 || [ "$(openers "$2")" -ge 2 ]
}
fifo=$TEST_TMP/scan-fifo
mkfifo "$fifo" || bail "cannot make a FIFO"
offline=
# scanner_then_update NAME CACHE2: the first scan's scanner blocks on the
# FIFO; a second scan, online, on CACHE2.
scanner_then_update () {
  : >"$GRYPE_FAKE_LOG"
  scan_bg "$1-1" "$gc" GRYPE_FAKE_SCAN_FIFO="$fifo"
  _p1=$!
  if ! wait_for "the first scanner" grep -q '^scan ' "$GRYPE_FAKE_LOG"; then
    release_scan
    wait $_p1
    bail "$1: the first scan's scanner did not start"
  fi
  scan_bg "$1-2" "$2"
  _p2=$!
  wait_for "the second scan" blocked_or_started "$GRYPE_FAKE_LOG" "$gc/.ash-db.lock"
  _during=$(count update-start "$GRYPE_FAKE_LOG")
  release_scan
  wait $_p1
  _s1=$?
  wait $_p2
  _s2=$?
}
scanner_then_update held-scan "$gc"
assert_eq "while the first scan's scanner runs, the second scan's update waits" "$_during" 1
assert_eq "scanner held: both scans finish with their findings" "$_s1 $_s2" "2 2"
assert_eq "the second update began after the first scanner ended and its database's age was read" \
  "$(kinds "$GRYPE_FAKE_LOG")" \
  "update-start update-end scan scan-end status update-start update-end scan scan-end status "
assert_eq "each scanner ran with the lock held" \
  "$(grep -c '^scan .* lock=held' "$GRYPE_FAKE_LOG")" 2
# Control: without a scan of the same cache running, the update runs at
# once, while the first scanner is still blocked.
scanner_then_update held-scan-ctl "$TEST_TMP/cache3/grype/db"
assert_eq "control: with another cache, the second update runs while the first scanner runs" "$_during" 2

# update_then_scanner NAME CACHE2: the first scan's update is held open;
# a second scan, offline, on CACHE2.
update_then_scanner () {
  _hold=$TEST_TMP/release-$1
  rm -f "$_hold"
  : >"$GRYPE_FAKE_LOG"
  scan_bg "$1-1" "$gc" GRYPE_FAKE_HOLD="$_hold"
  _p1=$!
  if ! wait_for "the first update" started "$GRYPE_FAKE_LOG" 1; then
    touch "$_hold"
    wait $_p1
    bail "$1: the first scan's update did not start"
  fi
  offline=1
  scan_bg "$1-2" "$2"
  _p2=$!
  offline=
  wait_for "the second scan" scan_waits_or_ran "$GRYPE_FAKE_LOG" "$gc/.ash-db.lock"
  _during=$(count 'scan ' "$GRYPE_FAKE_LOG")
  touch "$_hold"
  wait $_p1
  _s1=$?
  wait $_p2
  _s2=$?
}
scan_waits_or_ran () { # LOG LOCK: a scanner ran, or two processes have
  # the lock open (the first scan, and the second waiting)
  [ "$(count 'scan ' "$1")" -ge 1 ] || [ "$(openers "$2")" -ge 2 ]
}
update_then_scanner held-update "$gc"
assert_eq "while another scan updates the database, an offline scan's scanner does not start" "$_during" 0
assert_eq "update held: both scans finish with their findings" "$_s1 $_s2" "2 2"
case $(kinds "$GRYPE_FAKE_LOG") in
  "update-start update-end "*) ok "the offline scan's scanner started after the update ended" ;;
  *) not_ok "the offline scan's scanner started after the update ended"; diag "$(kinds "$GRYPE_FAKE_LOG")" ;;
esac
# Control: an offline scan of another cache (a fresh database there) runs
# its scanner while the update is held.
mkdir -p "$TEST_TMP/cache4/grype/db"
date -u +%Y-%m-%dT%H:%M:%SZ >"$TEST_TMP/cache4/grype/db/fake-built"
update_then_scanner held-update-ctl "$TEST_TMP/cache4/grype/db"
check "control: with another cache, the offline scanner runs while the update is held" test "$_during" -ge 1

# trivy-repo: the database download and the checks bundle of one scan
# never overlap the other's.
TRIVY_FAKE_LOG=$TEST_TMP/trivy.log
export TRIVY_FAKE_LOG
cache_var=TRIVY_CACHE_DIR
tc=$TEST_TMP/cache/trivy
concurrent trivy "$TRIVY_FAKE_LOG" "$tc" "$tc" TRIVY_FAKE_HOLD $mods --scanners trivy-repo
assert_eq "trivy-repo: while the first scan updates, the second does not" "$_during" 1
check "trivy-repo: the second scan waits on the lock in the cache" test "$_openers" -ge 2
assert_eq "trivy-repo: both scans finish with their findings" "$_s1 $_s2" "2 2"
assert_eq "trivy-repo: database and checks of one scan, then of the other" \
  "$(grep -E '^(update|checks)-' "$TRIVY_FAKE_LOG" | cut -d' ' -f1 | tr '\n' ' ')" \
  "update-start update-end checks-start checks-end update-start update-end checks-start checks-end "
check_fails "trivy-repo: no update ran without the lock" grep -Eq '^(update|checks)-.* lock=(free|none)' "$TRIVY_FAKE_LOG"
assert_eq "trivy-repo: each scanner ran with the lock held (shared)" \
  "$(grep -c '^scan .* lock=held' "$TRIVY_FAKE_LOG")" 2
concurrent trivy-ctl "$TRIVY_FAKE_LOG" "$tc" "$TEST_TMP/cache2/trivy" TRIVY_FAKE_HOLD $mods --scanners trivy-repo
assert_eq "trivy-repo control: with separate caches the updates overlap" "$_during" 2

# grype and trivy-repo sharing one cache directory: each scan's updates
# come before its shared locks, so the second update does not wait on the
# scan's own lock (a bound of 2 s would make it ERROR).
: >"$GRYPE_FAKE_LOG"
: >"$TRIVY_FAKE_LOG"
env GRYPE_DB_CACHE_DIR="$TEST_TMP/shared-cache" TRIVY_CACHE_DIR="$TEST_TMP/shared-cache" \
  ASH_DB_LOCK_TIMEOUT=2 "$ASH" scan --source-dir "$src" --output-dir "$TEST_TMP/shared" \
  --no-progress --sandbox off $mods --scanners grype,trivy-repo >"$TEST_TMP/shared.out" 2>&1
assert_eq "one cache for grype and trivy-repo: both scan with their findings (exit 2)" "$?" 2
check "one cache: grype and trivy each updated it once" \
  test "$(count update-start "$GRYPE_FAKE_LOG") $(count update-start "$TRIVY_FAKE_LOG")" = "1 1"

# A scanner writing into its database cache.  Offline, so that no update
# rewrites the cache between the scans; the databases are fresh from the
# scans above.
GRYPE_DB_CACHE_DIR=$gc TRIVY_CACHE_DIR=$tc
export GRYPE_DB_CACHE_DIR TRIVY_CACHE_DIR
poison () {
  rm -f "$gc/poison" "$tc/poison"
  : >"$GRYPE_FAKE_LOG"
  : >"$TRIVY_FAKE_LOG"
  GRYPE_FAKE_POISON=1 TRIVY_FAKE_POISON=1 run_ash scan --source-dir "$src" \
    --output-dir "$TEST_TMP/poison-$1" --no-progress --sandbox "$1" --offline \
    $mods --scanners grype,trivy-repo
}
# not_poisoned WHO STATUS GRYPE-CACHE TRIVY-CACHE: the scans ran, and
# neither scanner's write into its cache reached the host.
not_poisoned () {
  assert_eq "$1: the scans ran (exit 2)" "$2" 2
  check_fails "$1: grype's write into the database cache does not reach the host" test -e "$3/poison"
  check_fails "$1: trivy-repo's write into the database cache does not reach the host" test -e "$4/poison"
}
poison off
assert_eq "off: the scans ran (exit 2)" "$status" 2
check "control, off: grype's write into its database cache lands" test -f "$gc/poison"
check "control, off: trivy-repo's write into its database cache lands" test -f "$tc/poison"
# The caches are writable by anyone, so that only the sandbox stops the
# write: as root, ash runs a sandboxed scanner as the scanner account.
chmod -R a+rwX "$gc" "$tc"
if [ -n "${ASH_SCANNER_USER:-}" ] && [ "$(id -u)" = 0 ]; then
  rm -f "$gc/probe"
  $(as_unpriv_cmd "$ASH_SCANNER_USER") sh -c "echo x >'$gc/probe'" 2>/dev/null
  check "control: the scanner account $ASH_SCANNER_USER can write the cache itself" test -f "$gc/probe"
  rm -f "$gc/probe"
fi
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
for b in $backends; do
  poison "$b"
  not_poisoned "$b" "$status" "$gc" "$tc"
  # bwrap with throwaway overlays lets the write succeed and drops it;
  # every other backend mounts the cache read-only and refuses it.
  want=refused
  if [ "$b" = bwrap ] && ! grep -q 'overlays: not supported' "$TEST_TMP/probe"; then
    want=written
  fi
  check "$b: the write into the cache was $want in the sandbox" \
    grep -q "poison=$want" "$TEST_TMP/poison-$b/scanners/grype/source/grype.stderr.log"
  assert_file_contains "$b: grype read the cache (it tried the write there)" \
    "$TEST_TMP/poison-$b/scanners/grype/source/grype.stderr.log" "cache=$gc "
done
[ -n "$backends" ] || ok "# SKIP no sandbox backend is usable here"

# The same, scanned by an unprivileged account that owns the caches (as
# root above, the sandboxed scanner ran as the scanner account).
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
  ok "# SKIP the unprivileged run needs root and setpriv"
  done_testing
fi
user=$(unpriv_user)
as=$(as_unpriv_cmd "$user")
work=$TEST_TMP/work
mkdir -p "$work/bin" "$work/cache/grype/db" "$work/cache/trivy/db"
cp -R "$src" "$work/src"
cp "$tools/grype" "$tools/trivy" "$tools/grype.json" "$ASH" "$work/bin/"
cp "$top_srcdir/data/plugins/trivy-repo.yaml" "$work/"
for h in "$(dirname "$ASH")"/ash-landlock-exec; do
  [ -x "$h" ] && cp "$h" "$work/bin/"
done
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
echo "$now" >"$work/cache/grype/db/fake-built"
printf '{"Version":2,"UpdatedAt":"%s"}\n' "$now" >"$work/cache/trivy/db/metadata.json"
chmod 755 "$work/bin"/*
chown -R "$user" "$work"
chmod 755 "$TEST_TMP"
home=$(getent passwd "$user" | cut -d: -f6)
[ -d "$home" ] || home=$work
run_as () {
  env -i $scanner_user_env PATH="$work/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 \
    GRYPE_DB_CACHE_DIR="$work/cache/grype/db" TRIVY_CACHE_DIR="$work/cache/trivy" \
    GRYPE_FAKE_POISON=1 TRIVY_FAKE_POISON=1 $as "$@"
}
upoison () {
  rm -f "$work/cache/grype/db/poison" "$work/cache/trivy/poison"
  run_as "$work/bin/ash" scan --source-dir "$work/src" --output-dir "$work/out-$1" --no-progress \
    --sandbox "$1" --offline --ash-plugin-modules "$work/trivy-repo.yaml" \
    --scanners grype,trivy-repo >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
upoison off
assert_eq "$user, off: the scans ran (exit 2)" "$?" 2
check "control, $user, off: grype's write into its cache lands" test -f "$work/cache/grype/db/poison"
check "control, $user, off: trivy-repo's write into its cache lands" test -f "$work/cache/trivy/poison"
run_as "$work/bin/ash" sandbox probe >"$TEST_TMP/uprobe" 2>&1
ubackends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/uprobe")
for b in $ubackends; do
  upoison "$b"
  not_poisoned "$user, $b" "$?" "$work/cache/grype/db" "$work/cache/trivy"
done
[ -n "$ubackends" ] || ok "# SKIP no sandbox backend is usable for $user"
done_testing
