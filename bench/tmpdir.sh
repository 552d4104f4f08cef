#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tmpdir.sh -- what a crowded TMPDIR costs a scan: a one-scanner scan (a
# plugin scanner running `true`) with the sandbox off and under Landlock,
# with TMPDIR an empty directory and one holding ENTRIES other entries
# (files and directories of no one's run, as a shared /tmp holds), each
# command once a round, in a new random order each round, measured with
# hyperfine.
# ASH finds a killed run's leftovers in its own directory in TMPDIR
# (TMPDIR/ash-UID); a build that reads TMPDIR whole for them, such as
# ASH_COMPARE, pays for every entry.
#
#   bench/tmpdir.sh [BUILDDIR]    (after `make` in BUILDDIR)
#
# Environment: RUNS (default 20), ENTRIES (default 5000), ASH_COMPARE
# (another ash binary, with its helpers beside it), BENCH_DIR (where the
# TMPDIRs go; default BUILDDIR: on the disk /tmp is on here, ext4, whose
# large directories cost what /tmp's do), BACKENDS (default "off
# landlock").
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-20}
entries=${ENTRIES:-5000}
backends=${BACKENDS:-off landlock}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${BENCH_DIR:-$builddir}/ash-bench.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/empty" "$work/full" "$work/home" "$work/home-compare"
chmod 700 "$work/home" "$work/home-compare"
chmod 1777 "$work/empty" "$work/full"
echo data >"$work/src/a.txt"
printf 'scanners:\n  noop1:\n    tool: "true"\n    output: { format: sarif, path: "{results_dir}/none.sarif" }\n' \
  >"$work/noop1.yaml"
# ENTRIES entries, a tenth of them directories, named as other programs
# name theirs.
i=0
while [ "$i" -lt "$entries" ]; do
  if [ $((i % 10)) = 0 ]; then
    mkdir "$work/full/tmp.d$i"
  else
    : >"$work/full/tmp.f$i"
  fi
  i=$((i + 1))
done

# scan ASH HELPERS HOME TMPDIR BACKEND NAME: the command line of one scan.
scan () {
  echo "env -u XDG_CACHE_HOME HOME=$3 TMPDIR=$4 PATH=/usr/bin:/bin ASH_HELPER_DIR=$2 $1 scan --source-dir $work/src --output-dir $work/out-$6 --no-progress --quiet --sandbox $5 --ash-plugin-modules $work/noop1.yaml --scanners noop1"
}
# The commands, one a line, in the order of the table.
: >"$work/cmds"
for b in $backends; do
  for t in empty full; do
    scan "$ash" "$builddir/linux" "$work/home" "$work/$t" "$b" "$b-$t" >>"$work/cmds"
    [ -z "${ASH_COMPARE:-}" ] \
      || scan "$ASH_COMPARE" "$(dirname "$ASH_COMPARE")" "$work/home-compare" "$work/$t" "$b" "compare-$b-$t" >>"$work/cmds"
  done
done
# Each command once a round, in a new random order each round (the
# first command of a round runs on a machine that has been idle a
# moment, which would favour or burden the same one each time); a
# warm-up round first, which also fills the probe caches.  The no-op
# scanner writes no SARIF, so every scan exits 1: hyperfine is told to
# take that.
for round in $(seq 0 "$runs"); do
  shuf "$work/cmds" >"$work/order"
  set --
  while IFS= read -r c; do
    set -- "$@" "$c"
  done <"$work/order"
  hyperfine -N -i --style none --runs 1 --export-json "$work/r$round.json" \
    "$@" >/dev/null 2>&1
done
python3 - "$work" "$runs" "$entries" "${ASH_COMPARE:+1}" "$backends" <<'PY'
import json, statistics, sys
work, runs, entries, compare, backends = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5].split()
cmds = open("%s/cmds" % work).read().splitlines()
wall = {c: [] for c in cmds}
cpu = {c: [] for c in cmds}
for i in range(1, runs + 1):
    for r in json.load(open("%s/r%d.json" % (work, i)))["results"]:
        wall[r["command"]].append(r["times"][0] * 1000)
        cpu[r["command"]].append((r["user"] + r["system"]) * 1000)
wall = [statistics.median(wall[c]) for c in cmds]
cpu = [statistics.median(cpu[c]) for c in cmds]
print("| build | sandbox | empty TMPDIR, wall (ms) | %s entries, wall (ms) | added | empty, CPU (ms) | %s entries, CPU (ms) | added |" % (entries, entries))
print("|---|---|---|---|---|---|---|---|")
k = 0
for b in backends:
    idx = {}
    for t in ("empty", "full"):
        idx[("this", t)] = k; k += 1
        if compare:
            idx[("compare", t)] = k; k += 1
    for who in (("this", "compare") if compare else ("this",)):
        e, f = idx[(who, "empty")], idx[(who, "full")]
        print("| %s | %s | %.2f | %.2f | %+.2f | %.2f | %.2f | %+.2f |" % (
            "this build" if who == "this" else "ASH_COMPARE", b, wall[e], wall[f],
            wall[f] - wall[e], cpu[e], cpu[f], cpu[f] - cpu[e]))
PY
echo
echo "Rounds: $runs (each command once a round, in a random order, after one warm-up round); hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
