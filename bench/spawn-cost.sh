#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# spawn-cost.sh -- what one sandboxed spawn of `true` costs under each Linux
# backend, against a bare spawn and against the bare backend command with
# the same mounts.  Medians of many runs, measured with hyperfine.
#
#   bench/spawn-cost.sh [BUILDDIR]      (after `make check` in BUILDDIR)
#
# Environment: RUNS (default 200), WARMUP (default 10).
# Prints a Markdown table on stdout; hyperfine's JSON is kept in
# $BENCH_OUT (default: a temporary directory, removed at the end).
#
# Columns:
#   bare true          hyperfine runs `true` itself
#   backend command    the command line the backend's wrap() builds, run
#                      directly (bwrap/firejail/ash-landlock-exec + true)
#                      with the descriptors it names opened again, as the
#                      scanner account when root; the script it runs
#                      starts a bash and, as root, setpriv: "bare true"
#                      does not
#   ash spawn          tests/unit/test-backend-run: ASH's probe (once per
#                      process), wrap() and spawn.c, then the same command
#   ash probe          test-backend-run --probe-only: the probe alone
# The cost ASH adds to each spawn in a scan, where the probe runs once, is
# about "ash spawn" minus "ash probe" minus "backend command".
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
run=$builddir/tests/unit/test-backend-run
runs=${RUNS:-200}
warmup=${WARMUP:-10}

bash=$(command -v bash) \
  || { echo "bash is not installed (the bare commands need it)" >&2; exit 1; }
command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x "$run" ] \
  || { echo "$run is missing: run 'make check' (or 'make tests/unit/test-backend-run') first" >&2; exit 1; }

ASH_HELPER_DIR=$builddir/linux
export ASH_HELPER_DIR
work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
chmod 755 "$work"
keep=${BENCH_OUT:-}
out=${keep:-$work/json}
mkdir -p "$out" "$work/src/out/scanners/true"
trap 'rm -rf "$work"' EXIT
# The Landlock private directories of --print-argv land here.
TMPDIR=$work
export TMPDIR

true_path=$(command -v true)
case $true_path in
  /*) ;;
  *) true_path=/usr/bin/true ;;
esac
policy="--source $work/src --output $work/src/out --results $work/src/out/scanners/true"

# median FILE: the median of hyperfine's JSON, in milliseconds.
median () {
  python3 -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$1"
}

# measure NAME COMMAND: run hyperfine and print the median.
measure () {
  _name=$1
  shift
  hyperfine -N --style none --warmup "$warmup" --runs "$runs" \
    --export-json "$out/$_name.json" "$*" >/dev/null 2>&1 \
    || { echo "failed"; return 0; }
  median "$out/$_name.json"
}

bare=$(measure bare "$true_path")
echo "| backend | bare true (ms) | backend command (ms) | ash spawn (ms) | ash probe (ms) |"
echo "|---|---|---|---|---|"
for b in bwrap firejail landlock; do
  if ! why=$("$run" --backend "$b" --results "$work/src/out/scanners/true" \
               --probe-only -- "$true_path"); then
    echo "| $b | $bare | unavailable: $why | | |"
    continue
  fi
  # The command line names descriptors (--fd N, --ro-bind-fd N) that
  # wrap() opened: a bash script (dash redirects single-digit descriptors
  # only) opens them again from the same paths, then runs it, as the
  # scanner account when root (as ASH does; ASH_SCANNER_USER, nobody by
  # default).  A command that fails would be timed failing: it is run and
  # checked first.
  # shellcheck disable=SC2086
  "$run" --backend "$b" $policy --print-fds --print-argv -- "$true_path" >"$work/argv"
  as_user=
  if [ "$(id -u)" = 0 ]; then
    su=${ASH_SCANNER_USER:-nobody}
    as_user="setpriv --reuid=$(id -u "$su") --regid=$(id -g "$su") --clear-groups"
  fi
  printf '#!%s\nexec %s\nexec %s %s\n' "$bash" "$(sed -n 1p "$work/argv")" \
    "$as_user" "$(sed -n 2p "$work/argv")" >"$work/bare-$b"
  chmod 755 "$work/bare-$b"
  if "$work/bare-$b" >"$work/bare-$b.out" 2>&1; then
    backend_ms=$(measure "$b-command" "$work/bare-$b")
  else
    echo "$b: the bare command fails: $(head -c 300 "$work/bare-$b.out")" >&2
    backend_ms=failed
  fi
  ash_ms=$(measure "$b-ash" "$run --backend $b $policy -- $true_path")
  probe_ms=$(measure "$b-probe" "$run --backend $b $policy --probe-only -- $true_path")
  echo "| $b | $bare | $backend_ms | $ash_ms | $probe_ms |"
done
off_ms=$(measure off-ash "$run --backend off $policy -- $true_path")
echo "| off (no sandbox) | $bare | | $off_ms | |"
echo
echo "Runs per cell: $runs (after $warmup warm-up runs); hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
