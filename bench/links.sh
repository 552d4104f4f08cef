#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# links.sh -- what links that leave the tree cost a scan: a bandit scan
# (a stand-in bandit that writes an empty report, so that ASH's own work
# is what is measured) of a 10,000-file tree, with 2,000 links to a file
# outside the tree and without them, with 2,000 regular files in their
# place, and with the links and one path longer than all of them.
# Medians of interleaved rounds (each command once a round), measured
# with hyperfine.
#
#   bench/links.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (default 10), FILES (default 10000), LINKS (default
# 2000), ASH_COMPARE (another ash binary measured in the same run).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-10}
files=${FILES:-10000}
links=${LINKS:-2000}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home"
cat >"$work/bin/bandit" <<'TOOL'
#!/bin/sh
[ "$1" = --help ] && { echo "  -f {csv,json}, --format {csv,json}"; exit 0; }
out=
while [ $# -gt 0 ]; do
  [ "$1" = -o ] && { out=$2; shift; }
  shift
done
printf '{"errors":[],"results":[],"metrics":{}}' >"$out"
TOOL
chmod 755 "$work/bin/bandit"
echo outside >"$work/outside.txt"
python3 - "$work" "$files" "$links" <<'PY'
import os, sys
work, files, links = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def tree(name, extra):
    """FILES modules in directories of 100, and LINKS more entries spread
    over those directories: links to a file outside the tree, or regular
    files."""
    for i in range(files):
        d = os.path.join(work, name, "pkg%03d" % (i // 100))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "mod%05d.py" % i), "w") as f:
            f.write("x = %d\n" % i)
    dirs = max(1, (files + 99) // 100)
    for i in range(links if extra else 0):
        p = os.path.join(work, name, "pkg%03d" % (i % dirs), "out%05d.py" % i)
        if extra == "links":
            os.symlink(os.path.join(work, "outside.txt"), p)
        else:
            with open(p, "w") as f:
                f.write("outside\n")
tree("plain", None)
tree("links", "links")
# The same tree with one more file, whose path is longer than every
# link's: bandit's exclusion check then reads the paths through the
# automaton of all the links, which a tree whose paths are all as short
# as its links does not need.
tree("long", "links")
with open(os.path.join(work, "long", "pkg000", "a-module-with-a-longer-name.py"), "w") as f:
    f.write("x = 0\n")
# The reference for what 2,000 more entries cost whatever they are: the
# same tree with regular files where the links are.
tree("more", "files")
PY

scan () { # ASH TREE
  echo "env -u XDG_CACHE_HOME HOME=$work/home PATH=$work/bin:/usr/bin:/bin $1 scan --source-dir $work/$2 --output-dir $work/out-$2 --no-progress --quiet --scanners bandit --sandbox off"
}
set -- "$(scan "$ash" plain)" "$(scan "$ash" links)" "$(scan "$ash" more)" "$(scan "$ash" long)"
[ -z "${ASH_COMPARE:-}" ] || set -- "$@" "$(scan "$ASH_COMPARE" plain)" "$(scan "$ASH_COMPARE" links)"
# Rounds, each command once a round, so that a change in the machine's
# load falls on every command alike (a warm-up round first).
for round in $(seq 0 "$runs"); do
  hyperfine -N --style none --runs 1 --export-json "$work/r$round.json" \
    "$@" >/dev/null 2>&1
done
# The floor: what reading the 2,000 links alone costs (one readlinkat()
# each, relative to its directory, which the walk cannot do without),
# median of 11 passes, less the same loop without the call.
python3 - "$work/links" >"$work/floor" <<'PY'
import os, statistics, sys, time
root = sys.argv[1]
dirs = []
for d in sorted(os.listdir(root)):
    fd = os.open(os.path.join(root, d), os.O_RDONLY | os.O_DIRECTORY)
    dirs.append((fd, [n for n in os.listdir(fd) if os.path.islink(os.path.join(root, d, n))]))
def one(read):
    t = time.process_time()
    for fd, names in dirs:
        for n in names:
            if read:
                os.readlink(n, dir_fd=fd)
    return time.process_time() - t
with_call = statistics.median(one(True) for _ in range(11))
without = statistics.median(one(False) for _ in range(11))
print("%.2f" % ((with_call - without) * 1000))
PY
python3 - "$work" "$files" "$links" "${ASH_COMPARE:-}" "$runs" "$(cat "$work/floor")" <<'PY'
import json, statistics, sys
rounds = [json.load(open("%s/r%d.json" % (sys.argv[1], i)))["results"]
          for i in range(1, int(sys.argv[5]) + 1)]
r = [statistics.median(rd[k]["times"][0] * 1000 for rd in rounds)
     for k in range(len(rounds[0]))]
# CPU time (user and system, the scan and its children), which the
# machine's load moves less than the wall-clock time.
c = [statistics.median((rd[k]["user"] + rd[k]["system"]) * 1000
                       for rd in rounds) for k in range(len(rounds[0]))]
print("| ash | %s files (ms) | %s files + %s leaving links (ms) | added | CPU, %s files (ms) | CPU, with the links (ms) | CPU added |" % (sys.argv[2], sys.argv[2], sys.argv[3], sys.argv[2]))
print("|---|---|---|---|---|---|---|")
def row(name, a, b):
    print("| %s | %.1f | %.1f | %+.0f%% | %.1f | %.1f | %+.0f%% |" % (
        name, r[a], r[b], (r[b] / r[a] - 1) * 100, c[a], c[b],
        (c[b] / c[a] - 1) * 100))
if sys.argv[4]:
    row("ASH_COMPARE", 4, 5)
row("this build", 0, 1)
row("this build, %s regular files where the links are" % sys.argv[3], 0, 2)
row("this build, the links and one longer path (the automaton built)", 0, 3)
floor = float(sys.argv[6])
print()
print("Reading the %s links alone (one readlinkat() each): %.2f ms of CPU, "
      "%.0f%% of this build's CPU time for the %s files."
      % (sys.argv[3], floor, floor / c[0] * 100, sys.argv[2]))
PY
echo
echo "Rounds: $runs (interleaved, after one warm-up round); hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
