#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# one-scanner.sh -- the sandbox cost of one scanner in a scan, as issue
# 22 reads it: a one-scanner scan under the backend less the same scan
# with the sandbox off, against the bare backend command (the command
# line the backend's wrap() builds, as bench/noop.sh makes it) less the
# bare command with no backend (the same `true`, in the same shell).
# Every command runs once per round, in a new random order each round,
# so that load that comes and goes falls on all of them alike; the
# figures are medians over the rounds (wall time) and means (CPU time,
# user + system of every process waited for).
#
#   bench/one-scanner.sh [BUILDDIR]   (after `make check`, which builds
#                                      tests/unit/test-backend-run)
#
# Environment: ROUNDS (default 40), GAP (seconds of pause before each
# run, default 0), BACKENDS (default "landlock bwrap"), ASH_COMPARE
# (another ash binary, with its helpers in ASH_COMPARE_HELPERS, by default
# its directory, and a home of its own for its probe cache),
# ASH_SCANNER_USER (as for noop.sh), BENCH_DIR, BENCH_KEEP (as for
# noop.sh).
#
# Figures are steadier with the tree on a tmpfs of its own (making and
# removing files on ext4 costs differently from one directory to the
# next), e.g. `mount -t tmpfs -o size=2g tmpfs /srv/bench` and
# BENCH_DIR=/srv/bench; bwrap's bare command fails with its tree on
# /dev/shm, and bwrap is then left out.  As root, firejail runs only for
# an account it allows (ASH_SCANNER_USER=ash-test here: nobody is
# refused).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
run=$builddir/tests/unit/test-backend-run
rounds=${ROUNDS:-40}
gap=${GAP:-0}
backends=${BACKENDS:-landlock bwrap}

bash=$(command -v bash) \
  || { echo "bash is not installed (the bare commands need it)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }
[ -x "$run" ] || { echo "$run is missing: run 'make tests/unit/test-backend-run'" >&2; exit 1; }

ASH_HELPER_DIR=$builddir/linux
export ASH_HELPER_DIR
work=$(mktemp -d "${BENCH_DIR:-$builddir}/ash-bench.XXXXXX")
chmod 755 "$work"
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/home-compare" "$work/src" "$work/src/out/scanners/noop"
chmod 700 "$work/home" "$work/home-compare"
echo data >"$work/src/a.txt"
true_path=$(command -v true)
case $true_path in /*) ;; *) true_path=/usr/bin/true ;; esac
printf 'scanners:\n  noop1:\n    tool: "true"\n    output: { format: sarif, path: "{results_dir}/none.sarif" }\n' \
  >"$work/noop1.yaml"
as_user=
if [ "$(id -u)" = 0 ]; then
  su=${ASH_SCANNER_USER:-nobody}
  as_user="setpriv --reuid=$(id -u "$su") --regid=$(id -g "$su") --clear-groups"
fi

# One scan, written as a script so that the harness runs it without a
# shell of its own: BACKEND NAME [ASH HELPERS HOME].
ashscan () {
  printf '#!/bin/sh\nexec env -u XDG_CACHE_HOME HOME=%s PATH=/usr/bin:/bin ASH_HELPER_DIR=%s %s scan --source-dir %s --output-dir %s --no-progress --quiet --sandbox %s --ash-plugin-modules %s --scanners noop1\n' \
    "${5:-$work/home}" "${4:-$builddir/linux}" "${3:-$ash}" "$work/src" \
    "$work/out-$2" "$1" "$work/noop1.yaml" >"$work/$2"
  chmod 755 "$work/$2"
  echo "$2=$work/$2"
}
cmp_helpers=${ASH_COMPARE_HELPERS:-$(dirname "${ASH_COMPARE:-.}")}

# The bare command with no backend: `true` in the shell and as the
# account the bare backend commands use.
printf '#!%s\nexec %s %s\n' "$bash" "$as_user" "$true_path" >"$work/bare-off"
chmod 755 "$work/bare-off"
set -- "$(ashscan off ash-off)" "bare-off=$work/bare-off"
[ -n "${ASH_COMPARE:-}" ] \
  && set -- "$@" "$(ashscan off compare-off "$ASH_COMPARE" "$cmp_helpers" "$work/home-compare")"
for b in $backends; do
  "$run" --backend "$b" --results "$work/src/out/scanners/noop" --probe-only -- "$true_path" >/dev/null 2>&1 \
    || { echo "$b: unavailable here, left out" >&2; continue; }
  TMPDIR=$work "$run" --backend "$b" --source "$work/src" --output "$work/src/out" \
    --results "$work/src/out/scanners/noop" --print-fds --print-argv -- "$true_path" >"$work/argv"
  printf '#!%s\nexec %s\nexec %s %s\n' "$bash" "$(sed -n 1p "$work/argv")" "$as_user" \
    "$(sed -n 2p "$work/argv")" >"$work/bare-$b"
  chmod 755 "$work/bare-$b"
  "$work/bare-$b" >/dev/null 2>&1 \
    || { echo "$b: the bare command fails, left out" >&2; continue; }
  set -- "$@" "$(ashscan "$b" "ash-$b")" "bare-$b=$work/bare-$b"
  [ -n "${ASH_COMPARE:-}" ] \
    && set -- "$@" "$(ashscan "$b" "compare-$b" "$ASH_COMPARE" "$cmp_helpers" "$work/home-compare")"
done

python3 - "$rounds" "$gap" "$@" <<'PY'
import os, random, statistics, sys, time
rounds, gap = int(sys.argv[1]), float(sys.argv[2])
cmds = [a.split("=", 1) for a in sys.argv[3:]]
null = os.open(os.devnull, os.O_RDWR)
def run(path):
    t = time.monotonic()
    pid = os.posix_spawn(path, [path], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, null, 1),
                                       (os.POSIX_SPAWN_DUP2, null, 2)])
    _, _, ru = os.wait4(pid, 0)
    return (time.monotonic() - t) * 1000, (ru.ru_utime + ru.ru_stime) * 1000
wall = {n: [] for n, _ in cmds}
cpu = {n: [] for n, _ in cmds}
for n, p in cmds:  # warm-up: the probe cache, the page cache
    run(p); run(p)
for _ in range(rounds):
    order = list(cmds)
    random.shuffle(order)
    for n, p in order:
        if gap:
            time.sleep(gap)
        w, c = run(p)
        wall[n].append(w)
        cpu[n].append(c)
med = {n: statistics.median(v) for n, v in wall.items()}
mean = {n: statistics.mean(v) for n, v in cpu.items()}
print("| command | wall, median (ms) | wall, quartiles (ms) | CPU, mean (ms) |")
print("|---|---|---|---|")
for n, _ in cmds:
    v = sorted(wall[n])
    print("| %s | %.2f | %.2f to %.2f | %.2f |" % (n, med[n], v[len(v) // 4], v[3 * len(v) // 4], mean[n]))
print()
print("| backend | sandbox cost in a scan, wall (ms) | bare backend, wall (ms) | ratio, wall | sandbox cost in a scan, CPU (ms) | bare backend, CPU (ms) | ratio, CPU |")
print("|---|---|---|---|---|---|---|")
for n, _ in cmds:
    if not n.startswith("bare-") or n == "bare-off":
        continue
    b = n[5:]
    bw, bc = med[n] - med["bare-off"], mean[n] - mean["bare-off"]
    for who in ("ash", "compare"):
        if "%s-%s" % (who, b) not in med:
            continue
        sw = med["%s-%s" % (who, b)] - med["%s-off" % who]
        sc = mean["%s-%s" % (who, b)] - mean["%s-off" % who]
        print("| %s%s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |" % (
            b, ", ASH_COMPARE" if who == "compare" else "", sw, bw, sw / bw, sc, bc, sc / bc))
PY
echo
echo "Rounds: $rounds (interleaved, after 2 warm-up runs of each)${GAP:+, each run after a pause of $GAP s}; $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
