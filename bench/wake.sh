#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# wake.sh -- how late ASH notices that a scanner has exited: a plugin
# scanner that sleeps 45 ms, the duration ASH records for it (in
# ash_aggregated_results.json) against the tool's own run time, read from
# its own clock, and against hyperfine's start and wait of the same tool.
# Medians of the per-run differences.
#
#   bench/wake.sh [BUILDDIR]          (after `make` in BUILDDIR)
#
# Environment: RUNS (default 40), SANDBOX (default off), ASH_COMPARE (another
# ash binary measured in the same rounds, e.g. one built from main).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-40}
sandbox=${SANDBOX:-off}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tools" "$work/src" "$work/own"
echo data >"$work/src/a.txt"
# The tool: a static C program that sleeps 45 ms, writes an empty SARIF and
# writes its own run time, read from CLOCK_MONOTONIC at the start of
# main() and just before it exits, to the file its second argument names
# (when given).  Its own clock is the nearest measure of "the scanner's own" run:
# what ASH's recorded duration adds to it is ASH's start of the child (the
# clone, the child's set-up, the execve and the loader of a static
# program) and the wait's wake-up and reaping.
cat >"$work/sleep45.c" <<'TOOL'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
int
main (int argc, char **argv)
{
  double start = now_ms ();
  struct timespec d = { 0, 45000000L };
  const char *own = argc > 2 ? argv[2] : NULL;
  FILE *f;
  if (argc < 2 || argc > 3)
    return 2;
  nanosleep (&d, NULL);
  f = fopen (argv[1], "w");
  if (f == NULL)
    return 1;
  fputs ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
         "{\"name\":\"sleep45\"}},\"results\":[]}]}", f);
  if (fclose (f) != 0)
    return 1;
  if (own != NULL && (f = fopen (own, "w")) != NULL)
    {
      fprintf (f, "%.4f\n", now_ms () - start);
      fclose (f);
    }
  return 0;
}
TOOL
${CC:-cc} -O2 -static -o "$work/tools/sleep45-tool" "$work/sleep45.c" 2>/dev/null \
  || ${CC:-cc} -O2 -o "$work/tools/sleep45-tool" "$work/sleep45.c"
cat >"$work/sleep45.yaml" <<'MOD'
scanners:
  sleep45:
    tool: sleep45-tool
    args: ["{results_dir}/s.sarif", "{results_dir}/own.ms"]
    output: { format: sarif, path: "{results_dir}/s.sarif" }
MOD

# recorded ASH FILE: one scan; the duration ASH recorded and the tool's
# own run time, in ms, as one line "RECORDED OWN" appended to FILE.
recorded () {
  rm -rf "$work/out"
  PATH=$work/tools:$PATH "$1" scan --source-dir "$work/src" \
    --output-dir "$work/out" --no-progress --quiet --sandbox "$sandbox" \
    --ash-plugin-modules "$work/sleep45.yaml" --scanners sleep45 \
    >/dev/null 2>&1 || true
  _own=$(find "$work/out" -name own.ms -type f | head -n 1)
  [ -n "$_own" ] || { echo "wake.sh: $1 left no own.ms: the scan failed" >&2; exit 1; }
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scanner_results"]["sleep45"]["duration"] * 1000, open(sys.argv[2]).read().strip())' \
    "$work/out/ash_aggregated_results.json" "$_own" >>"$2"
}

# One round: the tool alone under hyperfine (one run: hyperfine's own
# start and wait of it), then one scan with each ash.  Rounds interleave,
# so that the load of the machine falls on every column alike.
: >"$work/hf"
: >"$work/ash"
: >"$work/compare"
i=0
while [ "$i" -lt "$runs" ]; do
  rm -f "$work/own/own.ms"
  hyperfine -N --style none --runs 1 --export-json "$work/own.json" \
    "$work/tools/sleep45-tool $work/own/s.sarif $work/own/own.ms" >/dev/null 2>&1
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"] * 1000, open(sys.argv[2]).read().strip())' \
    "$work/own.json" "$work/own/own.ms" >>"$work/hf"
  recorded "$ash" "$work/ash"
  [ -z "${ASH_COMPARE:-}" ] || recorded "$ASH_COMPARE" "$work/compare"
  i=$((i + 1))
done

python3 - "$sandbox" "$work/hf" "$work/ash" "$work/compare" <<'EOF'
import statistics, sys
def rows(path):
    return [tuple(map(float, l.split())) for l in open(path) if l.strip()]
def line(name, path):
    r = rows(path)
    if not r:
        return
    rec = statistics.median(x for x, _ in r)
    own = statistics.median(y for _, y in r)
    diff = [x - y for x, y in r]
    p90 = statistics.quantiles(diff, n=10)[-1] if len(diff) > 1 else diff[0]
    print("| %s | %s | %.2f | %.2f | %+.2f | %+.2f | %+.2f |" % (
        name, sys.argv[1], own, rec, statistics.median(diff), min(diff), p90))
print("| measured by | sandbox | tool's own clock (ms) | recorded (ms) | recorded - own, median (ms) | min (ms) | 90th percentile (ms) |")
print("|---|---|---|---|---|---|---|")
line("hyperfine (start and wait of the tool alone)", sys.argv[2])
line("ASH_COMPARE", sys.argv[4])
line("this build", sys.argv[3])
EOF
echo
echo "Rounds: $runs; hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
