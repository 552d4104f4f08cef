#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# wrapper.sh -- the Landlock wrapper on its own: ash-landlock-exec running
# `true` in its socket-filter mode and in its Landlock mode (the system
# directories read-only), building the socket filter itself and loading
# the one handed over by descriptor (--seccomp-fd, from a sealed memfd
# made once before the runs by tests/fixtures/filter-fd, as ash makes it
# once per process), against another build's wrapper.  Mean wall time and
# the mean user and system CPU time of the wrapper and its command,
# measured with hyperfine (-N: no shell).
#
#   bench/wrapper.sh [BUILDDIR]   (after `make check`, which builds
#                                  tests/fixtures/filter-fd)
#
# Environment: RUNS (default 300), WARMUP (default 20), COMPARE_HELPER
# (another build's ash-landlock-exec: two rows more).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
w=$builddir/linux/ash-landlock-exec
fd=$builddir/tests/fixtures/filter-fd
runs=${RUNS:-300}
warmup=${WARMUP:-20}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x "$w" ] || { echo "$w is missing: run 'make' first" >&2; exit 1; }
[ -x "$fd" ] || { echo "$fd is missing: run 'make tests/fixtures/filter-fd'" >&2; exit 1; }
truebin=$(command -v true)
case $truebin in /*) ;; *) truebin=/usr/bin/true ;; esac
ll="--ro /usr --ro /etc"
for d in /bin /lib /lib64 /sbin; do
  [ -e "$d" ] && ll="$ll --ro $d"
done

json=$(mktemp)
trap 'rm -f "$json"' EXIT
set --
if [ -n "${COMPARE_HELPER:-}" ]; then
  set -- "$@" -n "compare: --socket-filter" \
    "$COMPARE_HELPER --socket-filter -- $truebin"
fi
set -- "$@" -n "this: --socket-filter" "$w --socket-filter -- $truebin" \
  -n "this: --socket-filter --seccomp-fd" \
  "$w --socket-filter --seccomp-fd @FD@ -- $truebin"
if [ -n "${COMPARE_HELPER:-}" ]; then
  set -- "$@" -n "compare: Landlock" "$COMPARE_HELPER $ll -- $truebin"
fi
set -- "$@" -n "this: Landlock" "$w $ll -- $truebin" \
  -n "this: Landlock --seccomp-fd" "$w --seccomp-fd @FD@ $ll -- $truebin"

# filter-fd makes the sealed memfd, writes its number for @FD@, and runs
# hyperfine with it open: every run inherits it, as every wrapper ash
# starts does.
"$fd" good none hyperfine -N --style none -w "$warmup" -r "$runs" \
  --export-json "$json" "$@" >/dev/null

python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("| command | wall, mean (ms) | user (ms) | system (ms) | CPU, user + system (ms) |")
print("|---|---|---|---|---|")
for x in r:
    print("| %s | %.2f | %.2f | %.2f | %.2f |" % (x["command"], x["mean"] * 1e3,
          x["user"] * 1e3, x["system"] * 1e3, (x["user"] + x["system"]) * 1e3))
PY
echo
echo "Runs: $runs after $warmup warm-up runs; $(hyperfine --version); Linux $(uname -r); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
