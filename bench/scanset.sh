#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scanset.sh -- the scan set of a large tree: FILES files (default
# 100,000) in 1,000 directories.  What the scan set adds to a scan (a scan
# with one plugin scanner running `true {target}` over the tree, less the
# same scan over a one-file tree) against `find -type f` over the same
# tree, and against `find -type f -size`, which applies the same size cap
# as ASH's default global_settings.max_file_size and so stats every
# regular file as ASH must; the scan's peak memory (/usr/bin/time).  The
# scans run with the default max_file_size and with max_file_size: 0 (no
# cap: the types the directory listing gives are enough).  A scan whose
# one scanner is not handed the tree (`true` alone) does not build the
# scan set: it is measured over the big tree too.  ASH_COMPARE is another
# ash binary measured in the same rounds.  Each round runs every command
# once (one warm-up round first); the figures are the medians of the
# rounds, in wall-clock time and in CPU time (user and system).
#
#   bench/scanset.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (rounds, default 5), FILES (default 100000),
# ASH_COMPARE.
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-5}
files=${FILES:-100000}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/small"
echo x >"$work/small/a.txt"
python3 - "$work/big" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%03d" % (i % 1000))
    if i < 1000:
        os.makedirs(d)
    with open(os.path.join(d, "f%06d.txt" % i), "w") as f:
        f.write("x\n")
PY
cat >"$work/noop.yaml" <<'MOD'
scanners:
  noop:
    tool: "true"
    args: ["{target}"]
    output: { format: sarif, path: "{results_dir}/none.sarif" }
  blind:
    tool: "true"
    output: { format: sarif, path: "{results_dir}/none.sarif" }
MOD
printf 'global_settings:\n  max_file_size: 0\n' >"$work/nocap.yaml"
scan () { # TREE [ASH] [ARGS...]
  _t=$1
  _a=${2:-$ash}
  shift
  [ $# -gt 0 ] && shift
  echo "env -u XDG_CACHE_HOME HOME=$work/home PATH=/usr/bin:/bin $_a scan --source-dir $work/$_t --output-dir $work/out-$_t --no-progress --quiet --sandbox off --ash-plugin-modules $work/noop.yaml --scanners ${scanner:-noop} $*"
}
blind () { # TREE: the scan whose scanner is not handed the tree
  scanner=blind
  scan "$1"
  scanner=noop
}
nocap="--config $work/nocap.yaml"
set -- "find $work/big -type f" "find $work/big -type f -size -104857601c" \
  "$(scan small)" "$(scan big)" "$(scan small "$ash" "$nocap")" \
  "$(scan big "$ash" "$nocap")" \
  "$(blind small)" "$(blind big)"
if [ -n "${ASH_COMPARE:-}" ]; then
  set -- "$@" "$(scan small "$ASH_COMPARE")" "$(scan big "$ASH_COMPARE")" \
    "$(scan small "$ASH_COMPARE" "$nocap")" "$(scan big "$ASH_COMPARE" "$nocap")"
fi
for round in $(seq 0 "$runs"); do
  hyperfine -N -i --style none --runs 1 --export-json "$work/r$round.json" \
    "$@" >/dev/null 2>&1
done
# shellcheck disable=SC2046
/usr/bin/time -f '%M' -o "$work/rss-big" $(scan big) >/dev/null 2>&1 || true
# shellcheck disable=SC2046
/usr/bin/time -f '%M' -o "$work/rss-small" $(scan small) >/dev/null 2>&1 || true
n=$(wc -l <"$work/out-big/ash-scan-set-files-list.txt" 2>/dev/null || find "$work/out-big" -name 'ash-scan-set-files-list.txt' -exec cat {} + | wc -l)
python3 - "$work" "$files" "$n" "${ASH_COMPARE:-}" "$runs" <<'PY'
import json, statistics, sys
work, files, listed, cmp_ = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rounds = [json.load(open("%s/r%d.json" % (work, i)))["results"]
          for i in range(1, int(sys.argv[5]) + 1)]
wall = [statistics.median(rd[k]["times"][0] * 1000 for rd in rounds)
        for k in range(len(rounds[0]))]
cpu = [statistics.median((rd[k]["user"] + rd[k]["system"]) * 1000
                         for rd in rounds) for k in range(len(rounds[0]))]
rss_big = int(open(work + "/rss-big").read().split()[-1]) / 1024
rss_small = int(open(work + "/rss-small").read().split()[-1]) / 1024
print("| run | wall (ms) | CPU (ms) | wall per file (us) | / find -type f | / find -type f -size |")
print("|---|---|---|---|---|---|")
def ref(name, k):
    print("| %s | %.0f | %.0f | %.2f | | |" % (name, wall[k], cpu[k], wall[k] * 1000 / files))
def added(name, small, big):
    w = wall[big] - wall[small]
    c = cpu[big] - cpu[small]
    print("| %s | %.0f | %.0f | %.2f | %.2fx | %.2fx |" % (
        name, w, c, w * 1000 / files, w / wall[0], w / wall[1]))
ref("find -type f", 0)
ref("find -type f -size -104857601c (the default cap; stats every file)", 1)
added("scan set added, default max_file_size", 2, 3)
added("scan set added, max_file_size: 0", 4, 5)
added("scanner not handed the tree (scan set not built)", 6, 7)
if cmp_:
    added("ASH_COMPARE: scan set added, default max_file_size", 8, 9)
    added("ASH_COMPARE: scan set added, max_file_size: 0", 10, 11)
print()
print("The one-file scans: %.0f ms (default), %.0f ms (max_file_size: 0), %.0f ms (not handed the tree)%s." % (
    wall[2], wall[4], wall[6],
    ("; ASH_COMPARE %.0f ms and %.0f ms" % (wall[8], wall[10])) if cmp_ else ""))
print("Peak RSS: %.0f MiB with %d files, %.0f MiB with one; files in the scan-set list: %s." % (rss_big, files, rss_small, listed.strip()))
PY
echo
echo "Rounds: $runs (interleaved, after one warm-up round); hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
