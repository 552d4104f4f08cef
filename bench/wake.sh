#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# wake.sh -- how late ASH notices that a scanner has exited: a plugin
# scanner that sleeps 45 ms, the duration ASH records for it (in
# ash_aggregated_results.json) against the scanner's own run time
# measured by hyperfine.  Medians.
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
cat >"$work/tools/sleep45-tool" <<'TOOL'
#!/bin/sh
sleep 0.045
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"sleep45"}},"results":[]}]}' >"$1"
TOOL
chmod 755 "$work/tools/sleep45-tool"
cat >"$work/sleep45.yaml" <<'MOD'
scanners:
  sleep45:
    tool: sleep45-tool
    args: ["{results_dir}/s.sarif"]
    output: { format: sarif, path: "{results_dir}/s.sarif" }
MOD

# recorded ASH FILE: one scan; the duration ASH recorded, in ms, to FILE.
recorded () {
  PATH=$work/tools:$PATH "$1" scan --source-dir "$work/src" \
    --output-dir "$work/out" --no-progress --quiet --sandbox "$sandbox" \
    --ash-plugin-modules "$work/sleep45.yaml" --scanners sleep45 \
    >/dev/null 2>&1 || true
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scanner_results"]["sleep45"]["duration"] * 1000)' \
    "$work/out/ash_aggregated_results.json" >>"$2"
}

# One round: the scanner alone under hyperfine (one run), then one scan
# with each ash.  Rounds interleave, so that the load of the machine falls
# on every column alike.
: >"$work/own.ms"
: >"$work/ash"
: >"$work/compare"
i=0
while [ "$i" -lt "$runs" ]; do
  hyperfine -N --style none --runs 1 --export-json "$work/own.json" \
    "$work/tools/sleep45-tool $work/own/s.sarif" >/dev/null 2>&1
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"] * 1000)' \
    "$work/own.json" >>"$work/own.ms"
  recorded "$ash" "$work/ash"
  [ -z "${ASH_COMPARE:-}" ] || recorded "$ASH_COMPARE" "$work/compare"
  i=$((i + 1))
done

python3 - "$sandbox" "$work/own.ms" "$work/ash" "$work/compare" <<'EOF'
import statistics, sys
def med(path):
    v = [float(l) for l in open(path) if l.strip()]
    return statistics.median(v) if v else None
own, ash, other = med(sys.argv[2]), med(sys.argv[3]), med(sys.argv[4])
print("| ash | sandbox | scanner's own (ms) | recorded by ash (ms) | difference (ms) |")
print("|---|---|---|---|---|")
if other is not None:
    print("| ASH_COMPARE | %s | %.2f | %.2f | %+.2f |" % (sys.argv[1], own, other, other - own))
print("| this build | %s | %.2f | %.2f | %+.2f |" % (sys.argv[1], own, ash, ash - own))
EOF
echo
echo "Rounds: $runs; hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
