# SPDX-License-Identifier: Apache-2.0
# libtest.sh -- a small TAP library for the shell tests.  Source it:
#   . "$top_srcdir/tests/libtest.sh"
# then call ok/not_ok/assert_* and finally done_testing.
# skip_all REASON prints "1..0 # SKIP REASON" and exits 77.
# Variables from the test environment: top_srcdir, top_builddir, ASH (the
# built ash binary), ASH_HELPER_DIR, ASH_TEST_ASAN (yes in a build with
# AddressSanitizer).

set -u
_tap_n=0
_tap_failed=0
TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ash-test-$TEST_NAME.XXXXXX")
chmod 755 "$TEST_TMP"
# shellcheck disable=SC2064
trap "rm -rf '$TEST_TMP'" EXIT

ok () {
  _tap_n=$((_tap_n + 1))
  echo "ok $_tap_n - $*"
}

not_ok () {
  _tap_n=$((_tap_n + 1))
  _tap_failed=$((_tap_failed + 1))
  echo "not ok $_tap_n - $*"
}

diag () {
  printf '%s\n' "$@" | sed 's/^/# /'
}

skip_all () {
  echo "1..0 # SKIP $*"
  exit 77
}

# bail REASON: the test itself is broken (exit 99).
bail () {
  echo "Bail out! $*"
  exit 99
}

# asan_build: true when the programs under test are built with
# AddressSanitizer (make check-sanitize, --enable-fuzzing).  A part of a
# test that cannot run under it (an address-space limit, which its shadow
# memory exceeds; no /proc) prints "ok N # SKIP" with the reason there,
# and still runs in the plain build.
asan_build () {
  [ "${ASH_TEST_ASAN:-no}" = yes ]
}

# require_backend_run BACKEND: set RUN to tests/unit/test-backend-run, and
# skip the whole test, with the probe's reason, when BACKEND cannot run
# here (bail when the probe fails otherwise).
require_backend_run () {
  RUN=$top_builddir/tests/unit/test-backend-run
  [ -x "$RUN" ] || bail "$RUN is not built"
  _why=$("$RUN" --backend "$1" --results "$TEST_TMP" --probe-only -- /bin/true)
  case $? in
    0) ;;
    77) skip_all "$_why" ;;
    *) bail "the $1 probe failed: $_why" ;;
  esac
}

# limit_memory MIB: in a subshell, before running ash: cap its address
# space at MIB MiB (ulimit -v), so that a regression cannot take the
# machine down.  AddressSanitizer cannot start under such a limit (its
# shadow memory alone is larger), so in a build with it the cap is its
# hard_rss_limit_mb, added to ASAN_OPTIONS, instead: ash aborts once it
# holds MIB MiB.  A command run with env -i must pass ASAN_OPTIONS on.
limit_memory () {
  if asan_build; then
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$1
    export ASAN_OPTIONS
  else
    ulimit -v $(($1 * 1024))
  fi
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check () {
  _d=$1
  shift
  if "$@"; then ok "$_d"; else not_ok "$_d"; fi
}

# check_fails DESCRIPTION COMMAND...: ok when COMMAND fails.
check_fails () {
  _d=$1
  shift
  if "$@"; then not_ok "$_d"; else ok "$_d"; fi
}

# assert_eq DESCRIPTION GOT WANT
assert_eq () {
  if [ "$2" = "$3" ]; then
    ok "$1"
  else
    not_ok "$1"
    diag "got:  $2" "want: $3"
  fi
}

# assert_file_contains DESCRIPTION FILE FIXED-STRING
assert_file_contains () {
  if grep -qF -- "$3" "$2" 2>/dev/null; then
    ok "$1"
  else
    not_ok "$1"
    diag "'$3' not found in $2:"
    [ -f "$2" ] && head -c 2000 "$2" | awk '{ print "#   " $0 }'
  fi
}

# assert_contains DESCRIPTION TEXT FIXED-STRING
assert_contains () {
  if printf '%s\n' "$2" | grep -qF -- "$3"; then
    ok "$1"
  else
    not_ok "$1"
    diag "'$3' not found in:"
    printf '%s\n' "$2" | head -c 2000 | awk '{ print "#   " $0 }'
  fi
}

# assert_file_lacks DESCRIPTION FILE FIXED-STRING
assert_file_lacks () {
  if grep -qF -- "$3" "$2" 2>/dev/null; then
    not_ok "$1"
    diag "'$3' unexpectedly found in $2"
  else
    ok "$1"
  fi
}

# run_ash ARGS...: run ash with stdout/stderr in $TEST_TMP/out, err;
# sets $status.
run_ash () {
  "$ASH" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

done_testing () {
  echo "1..$_tap_n"
  [ "$_tap_failed" -eq 0 ]
  exit $?
}

# aggregated_findings OUT: the findings of OUT/ash_aggregated_results.json,
# one "scanner rule file line severity" a line, sorted.
aggregated_findings () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        l = x["locations"][0]["physicalLocation"]
        print(x["properties"]["scanner_name"], x["ruleId"],
              l["artifactLocation"]["uri"], l["region"]["startLine"],
              x["properties"]["severity"])' "$1/ash_aggregated_results.json" | sort
}

# ash_tmp_dir DIR [USER]: ASH's own directory in the temporary directory
# DIR when ASH runs as USER (default: this account), DIR/ash-UID: where its
# run directories and the Landlock backend's private directories go.
ash_tmp_dir () {
  echo "$1/ash-$(id -u ${2:+"$2"})"
}

# unpriv_user: the account root runs the unprivileged half of a test as.
# firejail refuses "nobody" and needs a home that exists, so as root a
# dedicated system account, ash-test, with its home in /var/lib/ash-test,
# is created when missing (useradd), and its home given back to it when
# another uid owns it; without useradd the test falls back to nobody.
# Prints the name.
unpriv_user () {
  if id ash-test >/dev/null 2>&1; then
    # An account removed and made again gets a new uid, but keeps the
    # home of the old one, which firejail then refuses ("not owned by
    # the current user"): as root, give the home back to the account.
    if [ "$(id -u)" = 0 ]; then
      _home=$(getent passwd ash-test | cut -d: -f6)
      if [ -n "$_home" ] && [ -d "$_home" ] && [ ! -L "$_home" ] &&
         [ "$(stat -c %u "$_home")" != "$(id -u ash-test)" ]; then
        chown ash-test:"$(id -g ash-test)" "$_home"
      fi
    fi
    echo ash-test
  elif [ "$(id -u)" = 0 ] && command -v useradd >/dev/null 2>&1 &&
       useradd --system --create-home --home-dir /var/lib/ash-test \
         --shell /usr/sbin/nologin ash-test >/dev/null 2>&1; then
    echo ash-test
  else
    echo nobody
  fi
}

# As root, ash runs every sandboxed scanner as the scanner account
# (ASH_SCANNER_USER, nobody by default); the tests use the unprivileged
# account, which firejail allows (it never allows nobody).  A test that
# clears the environment passes it on with $scanner_user_env.
if [ "$(id -u)" = 0 ] && [ -z "${ASH_SCANNER_USER+set}" ]; then
  ASH_SCANNER_USER=$(unpriv_user)
  export ASH_SCANNER_USER
fi
scanner_user_env=${ASH_SCANNER_USER:+ASH_SCANNER_USER=$ASH_SCANNER_USER}

# as_unpriv_cmd USER: the setpriv prefix that runs a command as USER.
as_unpriv_cmd () {
  echo "setpriv --reuid=$1 --regid=$(id -g "$1") --clear-groups"
}

# each_user FUNC: run FUNC as the user running the test, then, as root
# where setpriv exists, again as the unprivileged account.  FUNC sees the
# account's name in $who and the prefix that runs a command as it in
# $as_user (empty for the first run).
each_user () {
  who=$(id -un)
  as_user=
  "$1"
  if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    who=$(unpriv_user)
    as_user=$(as_unpriv_cmd "$who")
    "$1"
  fi
}

# An escape-probe listener (tcp-listen, udp-listen, unix-dgram-listen)
# prints "RECEIVED" for each connection or datagram, "RECEIVED TAG" for
# one that sent a TAG line.  Whether an attempt got through is known
# without waiting for a time: after the attempt, listener_settle sends
# the listener a tagged line from outside any sandbox and waits for it.
# Datagrams to one socket and connections to one listener from this host
# come in the order they were sent, so once the tag shows, whatever the
# attempt sent has shown too, and listener_heard answers for good.
#
# swap_hook DIR TARGET NAME...: a shell command (for test-backend-run's
# --before-wrap/--after-wrap) that, as a local user who can write DIR
# would, moves each DIR/NAME aside to DIR/NAME.moved, puts a link to
# TARGET/NAME at its name, and then writes SWAPPED to DIR/swapped.
swap_hook () {
  _sh_dir=$1 _sh_target=$2
  shift 2
  _sh_cmd=
  for _sh_name in "$@"; do
    _sh_cmd="$_sh_cmd mv '$_sh_dir/$_sh_name' '$_sh_dir/$_sh_name.moved' && ln -s '$_sh_target/$_sh_name' '$_sh_dir/$_sh_name' &&"
  done
  printf '%s' "$_sh_cmd echo SWAPPED >'$_sh_dir/swapped'"
}

# listener_settle PROBE LOG KIND TARGET...: KIND tcp or udp (TARGET is
# HOST PORT), unix (TARGET is the datagram socket's path) or abstract
# (TARGET is the abstract socket's name); LOG is the listener's
# output.  The kernel may drop a UDP datagram and gives no event for it:
# that one is sent again, up to 5 times, each waited for up to 10 s; the
# others are waited for up to 60 s.  Returns 1 when the tag never shows.
_settle_n=0
listener_settle () {
  _sp=$1 _sl=$2 _sk=$3
  shift 3
  _settle_n=$((_settle_n + 1))
  _stag=settle-$$-$_settle_n
  case $_sk in
    udp) _stries=5 _swait=100 ;;
    *) _stries=1 _swait=600 ;;
  esac
  _st=0
  while [ "$_st" -lt "$_stries" ]; do
    _st=$((_st + 1))
    case $_sk in
      tcp) "$_sp" tcp-connect "$1" "$2" "$_stag" ;;
      udp) "$_sp" udp-send "$1" "$2" "$_stag" ;;
      unix) "$_sp" dev-log "$1" "$_stag" ;;
      abstract) "$_sp" abstract-connect "$1" "$_stag" ;;
    esac >/dev/null 2>&1
    _si=0
    while [ "$_si" -lt "$_swait" ]; do
      grep -qx "RECEIVED $_stag" "$_sl" 2>/dev/null && return 0
      sleep 0.1
      _si=$((_si + 1))
    done
  done
  return 1
}

# listener_heard LOG [TAG]: the listener got a connection or datagram
# other than listener_settle's (with TAG: one tagged TAG).  Meant after
# listener_settle.
listener_heard () {
  if [ $# -gt 1 ]; then
    grep -qx "RECEIVED $2" "$1" 2>/dev/null
  else
    grep '^RECEIVED' "$1" 2>/dev/null | grep -qv '^RECEIVED settle-'
  fi
}
