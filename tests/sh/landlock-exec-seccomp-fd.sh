#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash-landlock-exec --seccomp-fd: the socket filter ash builds once and
# hands over as a sealed memfd.  Loaded from the descriptor, in Landlock
# mode and in socket-filter mode, it refuses what the filter the wrapper
# builds itself refuses (each next to the same attempt bare, which
# works); any descriptor but a sealed memfd holding a filter for the
# policy asked for stops the wrapper with its setup status (126) and a
# message, before the command runs; the command never inherits the
# descriptor.  As root, the whole set runs again as nobody.
. "$top_srcdir/tests/libtest.sh"

wrapper_built=$ASH_HELPER_DIR/ash-landlock-exec
probe_built=$top_builddir/tests/fixtures/escape-probe
fd_built=$top_builddir/tests/fixtures/filter-fd
[ -x "$wrapper_built" ] || skip_all "ash-landlock-exec is not built"
[ -x "$probe_built" ] || skip_all "escape-probe is not built"
[ -x "$fd_built" ] || skip_all "filter-fd is not built"
if ! timeout -k 5 60 "$wrapper_built" --probe >/dev/null \
     2>"$TEST_TMP/probe.err"; then
  skip_all "$(cat "$TEST_TMP/probe.err")"
fi

# The build tree may not be readable by nobody: copy the programs into a
# directory everyone can read.
BIN=$TEST_TMP/bin
mkdir "$BIN"
cp "$wrapper_built" "$probe_built" "$fd_built" "$BIN/"
chmod 755 "$TEST_TMP" "$BIN" "$BIN"/*
W=$BIN/ash-landlock-exec
P=$BIN/escape-probe
F=$BIN/filter-fd

bounded () {
  timeout -k 5 60 "$@"
}
as_user () {
  bounded $as_prefix "$@"
}

# wrapped MODE KIND POLICY [WRAPPER-OPTION]... -- CMD...: CMD under the
# wrapper in MODE (landlock, filter) given a descriptor of KIND (see
# tests/fixtures/filter-fd.c) holding the filter for POLICY, or, with
# KIND "built", no descriptor (the wrapper builds the filter).
wrapped () {
  _mode=$1
  _kind=$2
  _policy=$3
  shift 3
  _wopts=
  while [ "$1" != -- ]; do
    _wopts="$_wopts $1"
    shift
  done
  shift
  case $_mode in
    landlock)
      _wopts="$_wopts --ro /usr --ro /lib --ro /lib64 --ro /bin --ro /sbin"
      _wopts="$_wopts --ro /etc --ro $BIN --rw $D"
      _wopts="$_wopts --tmpdir $D/private/tmp --home $D/private/home" ;;
    filter) _wopts="--socket-filter$_wopts" ;;
  esac
  case $_kind in
    built) as_user "$W" $_wopts -- "$@" ;;
    *) as_user "$F" "$_kind" "$_policy" "$W" --seccomp-fd @FD@ $_wopts \
         -- "$@" ;;
  esac
}

# attempt MODE KIND POLICY WANT [WRAPPER-OPTION]... -- PROBE-ARG...: the
# escape probe's attempt, wrapped (MODE landlock or filter) or bare (MODE
# bare), must give WANT ("ok" or "denied[ ERRNO]").
attempt () {
  _m=$1
  _k=$2
  _p=$3
  _want=$4
  shift 4
  _opts=
  while [ "$1" != -- ]; do
    _opts="$_opts $1"
    shift
  done
  shift
  case $_m in
    bare) as_user "$P" "$@" >"$TEST_TMP/att" 2>&1 ;;
    *) wrapped "$_m" "$_k" "$_p" $_opts -- "$P" "$@" >"$TEST_TMP/att" 2>&1 ;;
  esac
  _st=$?
  _got=$(sed -n "s/^RESULT $1 //p" "$TEST_TMP/att" | tr -d '\r')
  case $_want in
    ok) _want_st=0 ;;
    *) _want_st=1 ;;
  esac
  case $_got in
    "$_want"|"$_want "*)
      if [ "$_st" -eq "$_want_st" ]; then
        ok "$who: $* $_m $_k $_p$_opts: $_got"
        return 0
      fi ;;
  esac
  not_ok "$who: $* $_m $_k $_p$_opts: want $_want"
  diag "status $_st" "$(cat "$TEST_TMP/att")"
  return 1
}

# refused MODE KIND POLICY MESSAGE [WRAPPER-OPTION]...: the wrapper given
# a descriptor of KIND stops with status 126 and MESSAGE, and the command
# (which would leave a mark) does not run.
refused () {
  _m=$1
  _k=$2
  _p=$3
  _msg=$4
  shift 4
  rm -f "$D/ran"
  wrapped "$_m" "$_k" "$_p" "$@" -- /bin/sh -c ": >'$D/ran'" \
    >"$TEST_TMP/ref" 2>&1
  _st=$?
  if [ "$_st" -eq 126 ] && [ ! -e "$D/ran" ] \
     && grep '^ash-landlock-exec: ' "$TEST_TMP/ref" | grep -qF -- "$_msg"
  then
    ok "$who: $_m: a $_k descriptor ($_p$*) is refused: $(cat "$TEST_TMP/ref")"
  else
    not_ok "$who: $_m: a $_k descriptor ($_p$*) is refused with 126 and '$_msg'"
    diag "status $_st, command ran: $([ -e "$D/ran" ] && echo yes || echo no)" \
      "$(cat "$TEST_TMP/ref")"
  fi
}

suite () {
  D=$TEST_TMP/$who
  mkdir -p "$D/private"
  if [ -n "$run_as" ]; then
    chown -R "$run_as:$run_group" "$D"
  fi

  for mode in landlock filter; do
    # The filter handed over refuses what the built one refuses; the bare
    # attempts are the negative control.
    for kind in good built; do
      attempt $mode $kind none "denied EACCES" -- socket-highbits unix
      attempt $mode $kind none "denied EACCES" -- socket-highbits inet
      attempt $mode $kind none "denied EACCES" -- socketpair-dgram
      attempt $mode $kind none "denied ENOSYS" -- io-uring
      attempt $mode $kind none ok -- socketpair-stream
      attempt $mode $kind network "denied EACCES" --network -- \
        socket-highbits unix
      attempt $mode $kind network ok --network -- socket-highbits inet
    done
    # A command that passes: the descriptor itself lets it run.
    rm -f "$D/ran"
    wrapped $mode good none -- /bin/sh -c ": >'$D/ran'" \
      >"$TEST_TMP/ran.out" 2>&1
    assert_eq "$who: $mode: with a good descriptor the command runs" \
      "$?:$([ -e "$D/ran" ] && echo ran)" "0:ran"
    [ $? -eq 0 ] || diag "$(cat "$TEST_TMP/ran.out")"
  done
  attempt bare - - ok -- socket-highbits unix
  attempt bare - - ok -- socket-highbits inet
  attempt bare - - ok -- socketpair-dgram
  attempt bare - - ok -- io-uring
  attempt bare - - ok -- socketpair-stream
  # In its own network namespace (bwrap, firejail) a command keeps IP
  # sockets and loses every other family.
  # (Nothing listens on port 1: the socket is made, the connection
  # refused.)
  for kind in good built; do
    attempt filter $kind netns "denied ECONNREFUSED" --private-network -- \
      tcp-connect 127.0.0.1 1
    attempt filter $kind netns "denied EACCES" --private-network -- \
      socket-highbits unix
    attempt filter $kind none "denied EACCES" -- tcp-connect 127.0.0.1 1
  done
  attempt bare - - "denied ECONNREFUSED" -- tcp-connect 127.0.0.1 1

  for mode in landlock filter; do
    refused $mode unsealed none "is not sealed against writing, growing, shrinking and new seals"
    refused $mode noseal none "is not sealed against writing, growing, shrinking and new seals"
    refused $mode truncated none "not a whole number of 8-byte BPF instructions"
    refused $mode short none "cannot load the seccomp filter of descriptor"
    refused $mode garbage none "does not hold a socket filter"
    refused $mode empty none "is empty"
    refused $mode large none "holds more than 4096 BPF instructions"
    refused $mode file none "is not a sealed memfd"
    refused $mode pipe none "is not a sealed memfd"
    refused $mode closed none "--seccomp-fd 1000: Bad file descriptor"
    # Well-formed but weaker than the policy asked for: a filter that
    # allows everything, the network filter where none was asked for.
    refused $mode allow none "the socket filter loaded but does not refuse Unix and IP sockets"
    refused $mode good network "the socket filter loaded but does not refuse Unix and IP sockets"
  done
  refused filter good network "the socket filter loaded but does not refuse Unix and netlink sockets" --private-network

  # The command never inherits the descriptor.  Control: without the
  # wrapper the same shell sees it.
  as_user "$F" good none /bin/sh -c \
    'if [ -e /proc/self/fd/@FD@ ]; then echo inherited; else echo absent; fi' \
    >"$TEST_TMP/inh" 2>&1
  assert_eq "$who: control: a command started with the descriptor has it" \
    "$(cat "$TEST_TMP/inh")" inherited
  for mode in landlock filter; do
    wrapped $mode good none -- /bin/sh -c \
      'if [ -e /proc/self/fd/@FD@ ]; then echo inherited; else echo absent; fi' \
      >"$TEST_TMP/inh" 2>&1
    assert_eq "$who: $mode: the command does not inherit the descriptor" \
      "$(cat "$TEST_TMP/inh")" absent
  done
}

# Usage errors (125): nothing is run.
"$W" --supervise --seccomp-fd 3 -- true 3</dev/null 2>"$TEST_TMP/u.err"
assert_eq "--seccomp-fd with --supervise is a usage error" "$?" 125
"$W" --probe --seccomp-fd 3 3</dev/null 2>"$TEST_TMP/u.err"
assert_eq "--seccomp-fd with --probe is a usage error" "$?" 125
"$W" --socket-filter --seccomp-fd 3 --seccomp-fd 3 -- true 3</dev/null \
  2>"$TEST_TMP/u.err"
assert_eq "--seccomp-fd twice is a usage error" "$?" 125
assert_file_contains "--seccomp-fd twice says so" "$TEST_TMP/u.err" \
  "--seccomp-fd is given twice"
for bad in 2 abc 3x -4 ''; do
  "$W" --socket-filter --seccomp-fd "$bad" -- true 2>"$TEST_TMP/u.err"
  assert_eq "--seccomp-fd '$bad' is a usage error" "$?" 125
done
"$W" --help | grep -q -- "--seccomp-fd N"
assert_eq "--help describes --seccomp-fd" "$?" 0

who=$(id -un)
run_as=
run_group=
as_prefix=
suite

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
  who=nobody
  run_as=nobody
  run_group=$(id -gn nobody)
  as_prefix="setpriv --reuid=$run_as --regid=$run_group --clear-groups --"
  suite
else
  diag "not root: the suite ran only as $(id -un)"
fi

done_testing
