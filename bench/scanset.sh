#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scanset.sh -- the scan set of a large tree: FILES files (default
# 100,000) in 1,000 directories.  What the scan set adds to a scan (a scan
# with one plugin scanner running `true` over the tree, less the same scan
# over a one-file tree) against `find -type f` over the same tree (and
# `find -type f -size`, which like ASH stats every file), and the
# scan's peak memory (/usr/bin/time -v).  Medians, measured with hyperfine.
# The scans run with the default global_settings.max_file_size (which
# needs each regular file's size) and with max_file_size: 0 (where the
# types readdir() gives are enough); ASH_COMPARE is another ash binary
# measured in the same run, with the default only.
#
#   bench/scanset.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (default 5), FILES (default 100000), ASH_COMPARE.
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
    output: { format: sarif, path: "{results_dir}/none.sarif" }
MOD
printf 'global_settings:\n  max_file_size: 0\n' >"$work/nocap.yaml"
scan () { # TREE [ASH] [ARGS...]
  _t=$1
  _a=${2:-$ash}
  shift
  [ $# -gt 0 ] && shift
  echo "env -u XDG_CACHE_HOME HOME=$work/home PATH=/usr/bin:/bin $_a scan --source-dir $work/$_t --output-dir $work/out-$_t --no-progress --quiet --sandbox off --ash-plugin-modules $work/noop.yaml --scanners noop $*"
}
set -- "find $work/big -type f" "find $work/big -type f -size -104857601c" \
  "$(scan small)" "$(scan big)" "$(scan small "$ash" --config "$work/nocap.yaml")" \
  "$(scan big "$ash" --config "$work/nocap.yaml")"
if [ -n "${ASH_COMPARE:-}" ]; then
  set -- "$@" "$(scan small "$ASH_COMPARE")" "$(scan big "$ASH_COMPARE")"
fi
hyperfine -N -i --style none --warmup 1 --runs "$runs" --export-json "$work/r.json" \
  "$@" >/dev/null 2>&1
# shellcheck disable=SC2046
/usr/bin/time -f '%M' -o "$work/rss-big" $(scan big) >/dev/null 2>&1 || true
# shellcheck disable=SC2046
/usr/bin/time -f '%M' -o "$work/rss-small" $(scan small) >/dev/null 2>&1 || true
n=$(wc -l <"$work/out-big/ash-scan-set-files-list.txt" 2>/dev/null || find "$work/out-big" -name 'ash-scan-set-files-list.txt' -exec cat {} + | wc -l)
python3 - "$work" "$files" "$n" "${ASH_COMPARE:-}" <<'PY'
import json, sys
work, files, listed, cmp_ = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
r = [x["median"] * 1000 for x in json.load(open(work + "/r.json"))["results"]]
find, find_size, small, big, small0, big0 = r[:6]
rss_big = int(open(work + "/rss-big").read().split()[-1]) / 1024
rss_small = int(open(work + "/rss-small").read().split()[-1]) / 1024
added = big - small
print("| run | median (ms) | per file (us) |")
print("|---|---|---|")
print("| find -type f | %.0f | %.2f |" % (find, find * 1000 / files))
print("| find -type f -size -104857601c (stats every file, as max_file_size makes ash) | %.0f | %.2f |" % (find_size, find_size * 1000 / files))
print("| ash scan, one file | %.0f | |" % small)
print("| ash scan, %d files | %.0f | |" % (files, big))
print("| what the scan set adds (difference) | %.0f | %.2f |" % (added, added * 1000 / files))
added0 = big0 - small0
print("| ash scan, one file, max_file_size: 0 | %.0f | |" % small0)
print("| ash scan, %d files, max_file_size: 0 | %.0f | |" % (files, big0))
print("| what the scan set adds, max_file_size: 0 (difference) | %.0f | %.2f |" % (added0, added0 * 1000 / files))
if cmp_:
    addedc = r[7] - r[6]
    print("| ASH_COMPARE: what the scan set adds (difference) | %.0f | %.2f |" % (addedc, addedc * 1000 / files))
print()
print("Scan set / find: %.2fx; / find with -size: %.2fx.  Peak RSS: %.0f MiB with %d files, %.0f MiB with one; files in the scan-set list: %s." % (added / find, added / find_size, rss_big, files, rss_small, listed.strip()))
print("Scan set / find, max_file_size: 0: %.2fx." % (added0 / find))
if cmp_:
    print("ASH_COMPARE: scan set / find: %.2fx; / find with -size: %.2fx." % (addedc / find, addedc / find_size))
PY
echo
echo "Runs: $runs; hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
