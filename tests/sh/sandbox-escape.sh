# SPDX-License-Identifier: Apache-2.0
# sandbox-escape.sh -- the escape suite, sourced by sandbox-escape-BACKEND.sh
# with SANDBOX_BACKEND set.
#
# tests/fixtures/escape-probe makes one attempt per run.  Each attempt runs
# under the backend and with the sandbox off; it must fail sandboxed and
# succeed unsandboxed (the negative control that proves the attempt is
# real).  Where it can, the verdict comes from the host side: did the file
# outside change, did the listener receive anything.  A sandboxed attempt
# counts as refused only when the probe itself reports the refusal this
# backend gives for it ("RESULT <attempt> denied EACCES", exit 1): a probe
# that prints nothing, crashes, dies at exit or reports another errno is
# never a pass (an unreadable report is a broken test: the suite then ends
# with exit 99).  Documented exceptions are recorded as TAP TODO items when
# they get through, and as SKIP with the reason when they do not occur.
# An attempt whose control fails on this host (the call is refused without
# a sandbox too, e.g. for an unprivileged account) is a SKIP with the
# control's errno, since its sandboxed refusal proves nothing.
#
# Commands run through tests/unit/test-backend-run, which computes the
# baseline policy (system directories and the probe's directory read-only,
# the source and output directories as data, the results directory
# writable, private HOME and TMPDIR, PATH and LANG only), wraps the command
# with the backend's wrap() and starts it through spawn.c.  As root, every
# attempt runs a second time as an unprivileged account (unpriv_user).

. "$top_srcdir/tests/libtest.sh"

B=${SANDBOX_BACKEND:?}
RUN=$top_builddir/tests/unit/test-backend-run
PROBE=${ESCAPE_PROBE:-$top_builddir/tests/fixtures/escape-probe}
[ -x "$RUN" ] || bail "$RUN is not built"
[ -x "$PROBE" ] || skip_all "tests/fixtures/escape-probe is not built"
PROBE_DIR=$(cd "$(dirname "$PROBE")" && pwd)
PROBE=$PROBE_DIR/$(basename "$PROBE")

why=$("$RUN" --backend "$B" --results "$TEST_TMP" --probe-only -- /bin/true)
case $? in
  0) ;;
  77) skip_all "$why" ;;
  *) bail "the $B probe failed: $why" ;;
esac

canary=ash-escape-$$
passwd_home=$(getent passwd "$(id -u)" | cut -d: -f6)
# A directory outside $HOME and /tmp (firejail shows such places; it makes
# /var/tmp private along with /tmp).
# As root that is a directory made in /var/lib for the test; otherwise the
# build tree, which may itself lie in $HOME or /tmp (a clone in /tmp): then
# firejail hides it too, and the documented exception does not show.
if [ "$(id -u)" = 0 ] && [ -d /var/lib ] && [ -w /var/lib ]; then
  shown=/var/lib/$canary
else
  shown=$(cd "$top_builddir" && pwd)/tests/$canary
fi
case $shown in
  /tmp/*|/var/tmp/*|"${HOME:-/nonexistent}"/*) shown_hidden=1 ;;
  *) shown_hidden=0 ;;
esac
cleanup_extra () {
  rm -rf "$shown"* "/dev/shm/$canary"* 2>/dev/null
  [ -n "${passwd_canary:-}" ] && rm -f "$passwd_canary"
  rm -rf "$TEST_TMP"
}
trap cleanup_extra EXIT

# setup WHO: a fresh layout owned by WHO, in $base.
setup () {
  base=$TEST_TMP/$who
  rm -rf "$base" "$shown-$who" "/dev/shm/$canary-$who"
  src=$base/src
  out=$src/.ash/ash_output
  res=$out/scanners/escape-probe
  home=$base/home
  mkdir -p "$res" "$base/outside" "$home/.ssh" "$base/tmp" "$shown-$who"
  echo SOURCE >"$src/code.py"
  echo LOG >"$out/ash.log"
  echo OUTSIDE-SECRET >"$base/outside/secret.txt"
  echo SHOWN-SECRET >"$shown-$who/secret.txt"
  echo "-----BEGIN OPENSSH PRIVATE KEY-----" >"$home/.ssh/id_rsa"
  ln -s "$base/outside/secret.txt" "$src/link-out"
  ln -s "$shown-$who/secret.txt" "$src/link-shown"
  if [ "$who" != "$(id -un)" ]; then
    chown -R "$who" "$base" "$shown-$who"
  fi
  chmod 755 "$TEST_TMP" "$base"
}

# run MODE [--network] [--env NAME=VALUE] -- PROBE-ARGS...: run the probe
# as $who under MODE (a backend, or off); output in $rfile, status in $rc.
run () {
  _mode=$1
  shift
  _opts=
  while [ "$1" != -- ]; do
    _opts="$_opts $1"
    shift
  done
  shift
  rfile=$base/run.out
  # shellcheck disable=SC2086
  $as_user env HOME="$home" TMPDIR="$base/tmp" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    AWS_SECRET_ACCESS_KEY=$canary-aws GITHUB_TOKEN=$canary-gh \
    "$RUN" --backend "$_mode" --source "$src" --output "$out" \
    --results "$res" --cwd "$src" --read "$PROBE_DIR" --timeout 60 $_opts \
    -- "$PROBE" "$@" >"$rfile" 2>&1
  rc=$?
}

# run_sh MODE SCRIPT [TIMEOUT]: run /bin/sh -c SCRIPT as $who under MODE.
run_sh () {
  rfile=$base/run.out
  $as_user env HOME="$home" TMPDIR="$base/tmp" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$RUN" --backend "$1" --source "$src" --output "$out" --results "$res" \
    --read "$PROBE_DIR" --timeout "${3:-60}" -- /bin/sh -c "$2" \
    >"$rfile" 2>&1
  rc=$?
}

# probe_result and expected: how one run is read.
. "$top_srcdir/tests/sh/sandbox-escape-score.sh"

_broken=0
# Set while an attempt runs whose control may fail for reasons of the host
# (a call the kernel lacks, a privilege the account lacks): its control is
# then a SKIP, and so is the sandboxed attempt.
ctl_may_fail=0

# control_key DESCRIPTION: where the control's outcome is kept.
control_file () {
  echo "$TEST_TMP/control-$who-$(echo "$1" | tr -c 'A-Za-z0-9\n' _)"
}

# judge MODE DESCRIPTION ESCAPED(0/1) EXPECT [TODO-REASON]
# EXPECT is the spec for expected(), or "-" when the verdict is the host
# side's alone (the attempt is a process left behind, not one call).
judge () {
  _label="$1/$who${net:+/$net}: $2"
  if [ "$1" = off ]; then
    if [ "$4" != - ]; then
      probe_result >"$(control_file "$2")"
    fi
    if [ "$3" = 1 ]; then
      ok "$_label succeeds (control)"
    elif [ "$ctl_may_fail" = 1 ] && [ "$4" != - ] &&
         [ "$(cat "$(control_file "$2")")" != broken ]; then
      _tap_n=$((_tap_n + 1))
      echo "ok $_tap_n - $_label # SKIP refused on this host without a sandbox ($(cat "$(control_file "$2")"))"
    else
      not_ok "$_label succeeds (control)"
      diag "exit $rc" "$(cat "$rfile" 2>/dev/null)"
    fi
    return
  fi
  _got=-
  if [ "$4" != - ]; then
    _got=$(probe_result)
    if [ "$_got" = broken ]; then
      _broken=1
      not_ok "$_label: the probe's report is unreadable (broken test)"
      diag "exit $rc" "$(cat "$rfile" 2>/dev/null)"
      return
    fi
  fi
  _ctl=$(cat "$(control_file "$2")" 2>/dev/null)
  if [ "$3" = 0 ] && [ "$4" != - ] && [ -n "$_ctl" ] && [ "$_ctl" != ok ]; then
    _tap_n=$((_tap_n + 1))
    echo "ok $_tap_n - $_label # SKIP refused on this host without a sandbox too ($_ctl)"
    return
  fi
  if [ -n "${5:-}" ]; then
    # A documented exception: expected to get through.
    _tap_n=$((_tap_n + 1))
    if [ "$3" = 1 ]; then
      echo "not ok $_tap_n - $_label gets through # TODO documented: $5"
    else
      echo "ok $_tap_n - $_label # SKIP the documented exception did not occur: $5"
    fi
    return
  fi
  if [ "$3" = 1 ]; then
    not_ok "$_label is refused"
    diag "exit $rc" "$(cat "$rfile" 2>/dev/null)"
    return
  fi
  if [ "$4" = - ]; then
    ok "$_label is refused"
    return
  fi
  _want=$(expected "$4")
  for _e in $_want; do
    if [ "$_got" = "$_e" ]; then
      ok "$_label is refused ($_got)"
      return
    fi
  done
  not_ok "$_label is refused"
  diag "the probe reported $_got; expected under $B: ${_want:-nothing}" \
    "exit $rc" "$(cat "$rfile" 2>/dev/null)"
}

# probe_ok: the attempt reported success.
probe_ok () {
  [ "$rc" -eq 0 ] && grep -q '^RESULT .* ok$' "$rfile"
}

listener_start () {
  lfile=$base/listener.$_tap_n
  "$PROBE" "$@" >"$lfile" 2>&1 &
  lpid=$!
  _i=0
  until grep -q '^RESULT' "$lfile" 2>/dev/null || [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  lport=$(sed -n 's/^PORT //p' "$lfile")
}

# received KIND TARGET...: the listener got a connection or datagram from
# the attempt.  Answered once a tagged line sent from here after the
# attempt has arrived (listener_settle in tests/libtest.sh), not after a
# time; a listener that never hears it ends the test.
received () {
  listener_settle "$PROBE" "$lfile" "$@" ||
    bail "the listener ($lfile) did not hear the host's own tagged line"
  listener_heard "$lfile"
}

listener_stop () {
  kill "$lpid" 2>/dev/null
  wait "$lpid" 2>/dev/null
}

# --- the attempts; each takes the mode ---------------------------------

a_read_ssh_key () {
  setup
  run "$1" -- read-file "$home/.ssh/id_rsa"
  probe_ok && e=1 || e=0
  judge "$1" "reading \$HOME/.ssh/id_rsa" $e "bwrap:ENOENT landlock:EACCES firejail:EACCES,ENOENT"
}

a_read_passwd_home () {
  [ -n "$passwd_canary" ] || return 0
  setup
  run "$1" -- read-file "$passwd_canary"
  probe_ok && e=1 || e=0
  judge "$1" "reading a file in the passwd entry's home" $e "bwrap:ENOENT landlock:EACCES firejail:EACCES,ENOENT"
}

a_read_link_out () {
  setup
  run "$1" -- read-file "$src/link-out"
  probe_ok && e=1 || e=0
  judge "$1" "reading through a link in the tree to a file outside" $e "bwrap:ENOENT landlock:EACCES firejail:EACCES,ENOENT"
}

a_read_link_shown () {
  setup
  run "$1" -- read-file "$src/link-shown"
  probe_ok && e=1 || e=0
  if [ "$1" = firejail ] && [ "$shown_hidden" = 0 ]; then
    judge "$1" "reading through a link to a file outside \$HOME and /tmp" $e \
      "bwrap:ENOENT landlock:EACCES firejail:EACCES,ENOENT" "firejail shows every path outside \$HOME and /tmp that the user can read"
  else
    judge "$1" "reading through a link to a file outside \$HOME and /tmp" $e \
      "bwrap:ENOENT landlock:EACCES firejail:EACCES,ENOENT"
  fi
}

a_write_outside () {
  setup
  run "$1" -- write-file "$base/outside/new.txt"
  [ -e "$base/outside/new.txt" ] && e=1 || e=0
  judge "$1" "writing outside the output directory" $e \
    "bwrap:ENOENT landlock:EACCES firejail:ENOENT,EROFS,EACCES"
}

a_write_output () {
  setup
  run "$1" -- write-file "$out/ash.log"
  [ "$(cat "$out/ash.log")" != LOG ] && e=1 || e=0
  judge "$1" "overwriting ash.log in the output directory" $e \
    "bwrap:EROFS landlock:EACCES firejail:EROFS,EACCES"
  setup
  run "$1" -- write-file "$out/planted.json"
  [ -e "$out/planted.json" ] && e=1 || e=0
  judge "$1" "creating a file in the output directory outside the results directory" \
    $e "bwrap:EROFS landlock:EACCES firejail:EROFS,EACCES"
}

a_write_source () {
  setup
  run "$1" -- write-file "$src/code.py"
  [ "$(cat "$src/code.py")" != SOURCE ] && e=1 || e=0
  # As root the scanner runs as the scanner account, which the
  # permissions refuse (EACCES) before the read-only mount does.
  judge "$1" "overwriting a source file" $e "bwrap:EROFS,EACCES landlock:EACCES firejail:EROFS,EACCES"
  setup
  run "$1" -- truncate "$src/code.py"
  [ "$(cat "$src/code.py")" != SOURCE ] && e=1 || e=0
  judge "$1" "truncating a source file" $e "bwrap:EROFS,EACCES landlock:EACCES firejail:EROFS,EACCES"
  setup
  run "$1" -- write-file "$src/new.py"
  [ -e "$src/new.py" ] && e=1 || e=0
  judge "$1" "creating a file in the source tree" $e "bwrap:EROFS,EACCES landlock:EACCES firejail:EROFS,EACCES"
}

a_write_results () {
  setup
  run "$1" -- write-file "$res/report.sarif"
  if [ -s "$res/report.sarif" ]; then
    ok "$1/$who: writing the results directory works"
  else
    not_ok "$1/$who: writing the results directory works"
    diag "exit $rc" "$(cat "$rfile")"
  fi
}

a_dev_shm () {
  setup
  run "$1" -- write-file "/dev/shm/$canary-$who"
  [ -e "/dev/shm/$canary-$who" ] && e=1 || e=0
  rm -f "/dev/shm/$canary-$who"
  if [ "$1" = landlock ]; then
    judge "$1" "leaving a file in the host's /dev/shm" $e "landlock:EACCES" \
      "Landlock cannot make /dev/shm private"
  else
    judge "$1" "leaving a file in the host's /dev/shm" $e \
      "bwrap:ok firejail:ok"
  fi
}

a_tcp () {
  setup
  listener_start tcp-listen 127.0.0.1 0 3600
  run "$1" -- tcp-connect 127.0.0.1 "$lport"
  received tcp 127.0.0.1 "$lport" && e=1 || e=0
  listener_stop
  judge "$1" "TCP to a loopback listener" $e \
    "bwrap:ECONNREFUSED firejail:ECONNREFUSED landlock:EACCES"
}

a_udp () {
  setup
  listener_start udp-listen 127.0.0.1 0 3600
  run "$1" -- udp-send 127.0.0.1 "$lport"
  received udp 127.0.0.1 "$lport" && e=1 || e=0
  listener_stop
  judge "$1" "UDP to a loopback listener" $e \
    "bwrap:ok firejail:ok landlock:EACCES"
}

a_unix_path () {
  setup
  listener_start unix-dgram-listen "$src/log.sock" 3600
  [ "$who" = root ] || chown "$who" "$src/log.sock"
  run "$1" $netopt -- unix-connect "$src/log.sock"
  probe_ok && e=1 || e=0
  listener_stop
  judge "$1" "a Unix socket by path in a mounted directory" $e "*:EACCES"
}

a_abstract () {
  setup
  listener_start unix-bind-abstract "$canary-$who-$_tap_n" 3600
  run "$1" $netopt -- abstract-connect "$canary-$who-$_tap_n"
  received abstract "$canary-$who-$_tap_n" && e=1 || e=0
  listener_stop
  judge "$1" "an abstract Unix socket bound on the host" $e "*:EACCES"
}

a_syscalls () {
  for _a in socketpair-dgram socketpair-raw "socket-highbits unix" io-uring; do
    setup
    # shellcheck disable=SC2086
    run "$1" $netopt -- $_a
    probe_ok && e=1 || e=0
    case $_a in
      io-uring) judge "$1" "$_a" $e "*:ENOSYS" ;;
      *) judge "$1" "$_a" $e "*:EACCES" ;;
    esac
  done
}

a_tty () {
  setup
  # A controlling terminal for the run, from script(1).
  script -qec "$as_user env HOME='$home' TMPDIR='$base/tmp' ASH_HELPER_DIR='$ASH_HELPER_DIR' '$RUN' --backend '$1' --results '$res' --read '$PROBE_DIR' --timeout 60 -- '$PROBE' open-tty" /dev/null </dev/null >"$base/run.out" 2>&1
  rc=$?
  rfile=$base/run.out
  grep -q 'RESULT open-tty ok' "$rfile" && e=1 || e=0
  judge "$1" "opening the controlling terminal" $e \
    "bwrap:ENXIO firejail:ENXIO landlock:EACCES,ENXIO"
}

a_environ () {
  setup
  $as_user env ASH_ESCAPE_SECRET=$canary sleep 600 &
  _spid=$!
  # The event: the process runs sleep as the account, with the secret.
  _i=0
  until grep -qa "ASH_ESCAPE_SECRET=$canary" "/proc/$_spid/environ" 2>/dev/null &&
        [ "$(stat -c %u "/proc/$_spid")" = "$(id -u "$who")" ] ||
        [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  run "$1" -- read-environ "$_spid"
  probe_ok && e=1 || e=0
  kill "$_spid" 2>/dev/null
  wait "$_spid" 2>/dev/null
  judge "$1" "reading /proc/PID/environ of a process of the same user outside" \
    $e "bwrap:ENOENT landlock:EACCES firejail:ENOENT,EACCES"
}

a_credentials () {
  setup
  run "$1" -- getenv AWS_SECRET_ACCESS_KEY
  probe_ok && e=1 || e=0
  judge "$1" "AWS_SECRET_ACCESS_KEY in the scanner's environment" $e "*:ENOENT"
  setup
  run "$1" -- getenv GITHUB_TOKEN
  probe_ok && e=1 || e=0
  judge "$1" "GITHUB_TOKEN in the scanner's environment" $e "*:ENOENT"
}

# lingering: a process with MARK in its command line is still running.
lingering () {
  pgrep -f "$1" >/dev/null 2>&1
}

a_lingerer () {
  setup
  _mark=$res/planted-$_tap_n
  # spawn-lingerer returns once the lingerer has left the scanner's
  # process group (which spawn.c ends with the scanner).
  run_sh "$1" "'$PROBE' spawn-lingerer 2 '$PROBE' symlink /etc/passwd '$_mark'"
  # The lingerer plants its link 2 s after the scanner exits.  The event:
  # the link is there, or the lingerer is gone.
  _i=0
  until [ -L "$_mark" ] || ! lingering "$_mark" || [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  [ -L "$_mark" ] && e=1 || e=0
  lingering "$_mark" && e=1
  judge "$1" "a process left behind that plants a link later" $e -
  # Nothing of it may be left in either case.
  pkill -f "$_mark" 2>/dev/null
}

a_timeout () {
  setup
  _mark=$res/late-$_tap_n
  # The scanner leaves a detached process, then hangs until its timeout.
  run_sh "$1" "'$PROBE' spawn-lingerer 3 '$PROBE' write-file '$_mark'; exec sleep 60" 1
  # The event: the mark is there, or the lingerer is gone.
  _i=0
  until [ -e "$_mark" ] || ! lingering "$_mark" || [ $_i -ge 600 ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  [ -e "$_mark" ] && e=1 || e=0
  lingering "$_mark" && e=1
  judge "$1" "a process left running when the scanner times out" $e -
  pkill -f "$_mark" 2>/dev/null
}

# The kernel interfaces the sandbox filter refuses, each against the
# process's parent where it takes a process (ash, for a real scanner).
kernel_attempts="keyctl add-key request-key prlimit:parent setpriority:parent
process-vm-readv:parent pidfd-getfd:parent ptrace:parent perf-event-open bpf
userfaultfd kexec-load mount unshare clone-newuser setns personality tiocsti"

a_kernel () {
  ctl_may_fail=1
  for _k in $kernel_attempts; do
    setup
    # shellcheck disable=SC2046
    run "$1" -- $(echo "$_k" | tr : ' ')
    probe_ok && e=1 || e=0
    judge "$1" "$(echo "$_k" | tr : ' ')" $e "*:EPERM"
  done
  ctl_may_fail=0
}

# Root on the host: a write to a sysctl (core_pattern) as root.  The probe
# writes back what it read, so that the control changes nothing.
a_core_pattern () {
  ctl_may_fail=1
  setup
  run "$1" -- rewrite-file /proc/sys/kernel/core_pattern
  probe_ok && e=1 || e=0
  judge "$1" "writing /proc/sys/kernel/core_pattern" $e \
    "bwrap:EROFS,EACCES landlock:EACCES firejail:EACCES,EROFS"
  ctl_may_fail=0
}

# A file only root may read: as root, ash runs the scanner as the scanner
# account.  (For an unprivileged account the control is refused, a SKIP.)
a_read_root_only () {
  ctl_may_fail=1
  setup
  run "$1" -- read-file /etc/shadow
  probe_ok && e=1 || e=0
  judge "$1" "reading /etc/shadow" $e "*:EACCES"
  ctl_may_fail=0
}

# Without a network a scanner keeps its own loopback where it has a network
# namespace of its own (bwrap, firejail); Landlock refuses every family.
a_own_loopback () {
  setup
  run "$1" -- tcp-loopback
  if [ "$1" = landlock ]; then
    probe_ok && e=1 || e=0
    judge "$1" "a TCP socket on its own loopback" $e "landlock:EACCES"
  elif probe_ok; then
    ok "$1/$who${net:+/$net}: a scanner without a network keeps its own loopback"
  else
    not_ok "$1/$who${net:+/$net}: a scanner without a network keeps its own loopback"
    diag "exit $rc" "$(cat "$rfile")"
  fi
}

# --- the rounds ----------------------------------------------------------

round () {
  # Files and the environment: once, without a network.
  net=
  netopt=
  for _m in off "$B"; do
    a_write_results "$_m"
    a_read_ssh_key "$_m"
    a_read_passwd_home "$_m"
    a_read_link_out "$_m"
    a_read_link_shown "$_m"
    a_write_outside "$_m"
    a_write_output "$_m"
    a_write_source "$_m"
    a_dev_shm "$_m"
    a_tty "$_m"
    a_environ "$_m"
    a_credentials "$_m"
    a_lingerer "$_m"
    a_timeout "$_m"
    a_kernel "$_m"
    a_core_pattern "$_m"
    [ -e /etc/shadow ] && a_read_root_only "$_m"
  done
  # The network: offline, and a scanner that declares no network online
  # gets the same policy (network: false).
  net=offline
  for _m in off "$B"; do
    a_tcp "$_m"
    a_udp "$_m"
    [ "$_m" = off ] || a_own_loopback "$_m"
  done
  # Local IPC: refused with and without a network.
  for net in offline online; do
    netopt=
    [ "$net" = online ] && netopt=--network
    for _m in off "$B"; do
      [ "$_m" = off ] && [ "$net" = online ] && continue
      a_unix_path "$_m"
      a_abstract "$_m"
      a_syscalls "$_m"
    done
  done
}

who=$(id -un)
as_user=
passwd_canary=
if [ -n "$passwd_home" ] && [ -d "$passwd_home" ] && [ -w "$passwd_home" ]; then
  passwd_canary=$passwd_home/.$canary-passwd-home
  echo PASSWD-HOME-SECRET >"$passwd_canary"
fi
round

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  rm -f "$passwd_canary"
  passwd_canary=
  why=$($as_user "$RUN" --backend "$B" --results /tmp --probe-only -- /bin/true)
  if [ $? -eq 0 ]; then
    round
  else
    _tap_n=$((_tap_n + 1))
    echo "ok $_tap_n - # SKIP $B is unavailable to $who: $why"
  fi
fi

[ "$_broken" = 0 ] || bail "an attempt's report was unreadable (see above)"
done_testing
