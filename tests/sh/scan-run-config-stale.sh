#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The run directories of a scanner (TMPDIR/ash-UID/ash-NAME-PID-XXXXXX,
# in ASH's own directory in TMPDIR) that a run
# of ash killed with kill -9 left behind are removed by the next run: only
# those of ash's own account whose ash is gone, whatever they hold (a tree
# deeper than 256 levels, a directory of mode 000), never following a link
# in them, never a link named like one, never one whose ash is alive, never
# another account's.  The control: a killed run really leaves its directory
# (a fake bandit that never returns, killed with ash).
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/src
tmp=$TEST_TMP/tmp
ud=$(ash_tmp_dir "$tmp")
mkdir -p "$src" "$tmp" "$TEST_TMP/bin"
printf 'x = 1\n' >"$src/a.py"

# A bandit that announces itself, then sleeps until killed.
cat >"$TEST_TMP/bin/bandit" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo "bandit 1.7.5"; exit 0; }
echo \$\$ >"$TEST_TMP/started.tmp"
mv "$TEST_TMP/started.tmp" "$TEST_TMP/started"
exec sleep 600
EOF
chmod +x "$TEST_TMP/bin/bandit"

wait_until () {
  _n=$(($1 * 10))
  shift
  while ! "$@" 2>/dev/null; do
    _n=$((_n - 1))
    [ "$_n" -gt 0 ] || return 1
    sleep 0.1
  done
}

# The control: kill -9 of ash leaves its run directory.
TMPDIR=$tmp PATH=$TEST_TMP/bin:$PATH "$ASH" scan --source-dir "$src" \
  --output-dir "$TEST_TMP/out-killed" --no-progress --sandbox off \
  --scanners bandit >/dev/null 2>&1 &
apid=$!
if wait_until 60 test -e "$TEST_TMP/started"; then
  kill -9 "$apid"
  wait "$apid" 2>/dev/null
  kill -KILL "$(cat "$TEST_TMP/started")" 2>/dev/null
  left=$(ls -d "$ud/ash-bandit-$apid-"* 2>/dev/null | head -n 1)
  check "control: the killed run left its run directory" test -n "$left"
else
  kill -9 "$apid" 2>/dev/null
  wait "$apid" 2>/dev/null
  not_ok "control: the fake bandit started"
  left=
fi

# ASH's own directory, as the killed run made it (made here too, should
# that run have failed, so that what follows has a place).
mkdir -p "$ud"

# A pid that is gone: a process that has exited.
sh -c 'exit 0' &
dead=$!
wait "$dead"
# What the dead run left: a deep tree, a directory of mode 000, and a link
# to a file outside that must survive.
stale=$ud/ash-bandit-$dead-aaaaaa
mkdir -p "$stale"
echo KEEP >"$TEST_TMP/outside"
ln -s "$TEST_TMP/outside" "$stale/link"
python3 -c "
import os
fd = os.open('$stale', os.O_RDONLY)
for i in range(300):
    os.mkdir('d', dir_fd=fd)
    nfd = os.open('d', os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
"
mkdir "$stale/locked"
chmod 000 "$stale/locked"
# Not to be touched: a live ash's (this shell's pid), a link named like a
# stale directory, a name without a pid.
alive=$ud/ash-bandit-$$-bbbbbb
mkdir -p "$alive"
mkdir -p "$TEST_TMP/target"
ln -s "$TEST_TMP/target" "$ud/ash-bandit-$dead-cccccc"
mkdir -p "$ud/ash-bandit-dddddd"
# One directly in TMPDIR, where ASH no longer makes them: TMPDIR itself
# is not read (it may hold any number of entries), so it stays.
flat=$tmp/ash-bandit-$dead-ffffff
mkdir -p "$flat"
other=
if [ "$(id -u)" = 0 ]; then
  who=$(unpriv_user)
  other=$ud/ash-bandit-$dead-eeeeee
  mkdir -p "$other"
  chown "$who" "$other"
fi

TMPDIR=$tmp
export TMPDIR
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-next" \
  --no-progress --sandbox off --scanners bandit
[ -n "$left" ] && check_fails "the killed run's directory is removed" test -e "$left"
check_fails "the dead run's directory is removed, deep tree and mode 000 included" test -e "$stale"
assert_file_contains "and the log says so" "$TEST_TMP/out-next/ash.log" \
  "left by a run of ash that was killed"
assert_eq "the link in it was not followed" "$(cat "$TEST_TMP/outside")" KEEP
check "a live ash's directory is kept" test -d "$alive"
check "a link named like one is kept" test -L "$ud/ash-bandit-$dead-cccccc"
check "its target is kept" test -d "$TEST_TMP/target"
check "a name without a pid is kept" test -d "$ud/ash-bandit-dddddd"
[ -n "$other" ] && check "another account's directory is kept" test -d "$other"
check "one directly in TMPDIR is not looked at" test -d "$flat"
rest=$(ls "$ud" | grep '^ash-bandit-' | grep -v -e "^ash-bandit-$$-bbbbbb\$" \
  -e "^ash-bandit-$dead-cccccc\$" -e '^ash-bandit-dddddd$' -e "^ash-bandit-$dead-eeeeee\$")
assert_eq "the run left no run directory behind" "$rest" ""
chmod -R u+rwx "$tmp" 2>/dev/null
done_testing
