#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sarif-big.sh -- a large SARIF through a scan: a plugin scanner that
# hands over a generated SARIF of SIZE_MIB MiB (default 100), and what the
# scan takes in time and peak memory (/usr/bin/time -v), against the
# yardstick of loading and dumping the same file with Python's json.
# Each figure is the median of RUNS runs.  This build reads the file
# under a global_settings.max_scanner_document just above its size, and
# once more under a cap of CAP_MIB (default half of SIZE_MIB), which it
# refuses without reading it; ASH_COMPARE (a build with that setting)
# runs with the first cap too.  One more row runs this build with the
# first cap and `--output-formats sarif`: ash.sarif and the aggregated
# results alone, the work that is like the yardstick's (one document
# read, one written), where the default scan writes every report.
# Each row gives wall time and CPU time (user + system).
#
#   bench/sarif-big.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (default 3), SIZE_MIB (default 100), ASH_COMPARE
# (another ash binary measured in the same rounds).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-3}
size=${SIZE_MIB:-100}
cap=${CAP_MIB:-$((size / 2))}

[ -x /usr/bin/time ] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home" "$work/src"
echo 'x = 1' >"$work/src/a.py"
python3 - "$work/big.sarif" "$size" <<'PY'
import json, sys
path, mib = sys.argv[1], int(sys.argv[2])
target = mib * 1024 * 1024
results = []
# Results shaped like a real scanner's (message, rule, location with a
# snippet, properties), about 900 bytes each once indented.
one = lambda i: {
    "ruleId": "B%03d" % (i % 700), "level": ["error", "warning", "note"][i % 3],
    "message": {"text": "Possible issue number %d: use of a function that may run arbitrary code; review it" % i},
    "locations": [{"physicalLocation": {
        "artifactLocation": {"uri": "pkg%03d/module%05d.py" % (i % 500, i % 20000)},
        "region": {"startLine": 1 + i % 400, "endLine": 1 + i % 400,
                   "snippet": {"text": "result = eval(user_input)  # line %d" % i}}}}],
    "properties": {"issue_severity": "MEDIUM", "issue_confidence": "HIGH",
                   "cwe": "CWE-%d" % (i % 1000)}}
def doc_of(n):
    return {"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "runs": [{"tool": {"driver": {"name": "big", "rules": []}},
                 "results": [one(i) for i in range(n)]}]}
# The size of one result where it stands in the document.
per = len(json.dumps(doc_of(1000), indent=2)) / 1000
doc = doc_of(int(target / per))
with open(path, "w") as f:
    json.dump(doc, f, indent=2)
PY
printf 'global_settings:\n  max_scanner_document: %s\n' \
  "$(($(stat -c %s "$work/big.sarif") + 1))" >"$work/read.yaml"
printf 'global_settings:\n  max_scanner_document: %s\n' \
  "$((cap * 1048576))" >"$work/capped.yaml"
cat >"$work/bin/big-tool" <<TOOL
#!/bin/sh
cp '$work/big.sarif' "\$1"
TOOL
chmod 755 "$work/bin/big-tool"
cat >"$work/big.yaml" <<'MOD'
scanners:
  big:
    tool: big-tool
    args: ["{results_dir}/big.sarif"]
    output: { format: sarif, path: "{results_dir}/big.sarif" }
MOD

# measure NAME COMMAND...: one run under /usr/bin/time; "seconds KiB" to
# $work/NAME.
measure () {
  _n=$1
  shift
  /usr/bin/time -f '%e %M %U %S' -o "$work/t" "$@" >/dev/null 2>&1 || true
  cat "$work/t" >>"$work/$_n"
}
: >"$work/python"; : >"$work/ash"; : >"$work/capped"; : >"$work/compare"; : >"$work/sarifonly"
i=0
while [ "$i" -lt "$runs" ]; do
  measure python python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), open("/dev/null","w"))' "$work/big.sarif"
  for which in ash sarifonly capped compare; do
    a=$ash
    set -- --config "$work/read.yaml"
    case $which in
      sarifonly) set -- --config "$work/read.yaml" --output-formats sarif ;;
      capped) set -- --config "$work/capped.yaml" ;;
      compare)
        [ -n "${ASH_COMPARE:-}" ] || continue
        a=$ASH_COMPARE ;;
    esac
    measure "$which" env -u XDG_CACHE_HOME HOME="$work/home" PATH="$work/bin:/usr/bin:/bin" \
      "$a" scan --source-dir "$work/src" --output-dir "$work/out" --no-progress --quiet \
      --sandbox off --no-fail-on-findings --ash-plugin-modules "$work/big.yaml" --scanners big "$@"
    status=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scanner_results"]["big"]["status"])' \
      "$work/out/ash_aggregated_results.json" 2>/dev/null || echo "no results")
    echo "$which: big $status" >>"$work/status"
    rm -rf "$work/out"
  done
  i=$((i + 1))
done
python3 - "$work" "$(stat -c %s "$work/big.sarif")" "${ASH_COMPARE:-}" "$cap" <<'PY'
import json, statistics, sys
work, size, cmp_, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def med(name):
    rows = [l.split() for l in open("%s/%s" % (work, name)) if l.strip() and not l.startswith("Command")]
    return (statistics.median(float(r[0]) for r in rows),
            statistics.median(int(r[1]) for r in rows) / 1024,
            statistics.median(float(r[2]) + float(r[3]) for r in rows))
n = len(json.load(open(work + "/big.sarif"))["runs"][0]["results"])
py = med("python")
print("SARIF: %.1f MiB, %d results" % (size / 1048576, n))
print()
print("| run | time (s) | CPU (s) | peak RSS (MiB) | time / Python | CPU / Python | RSS / file size |")
print("|---|---|---|---|---|---|---|")
print("| Python json load + dump | %.2f | %.2f | %.0f | 1.00x | 1.00x | %.1fx |" % (py[0], py[2], py[1], py[1] * 1048576 / size))
rows = [("this build, read (cap above its size)", med("ash")),
        ("this build, read, --output-formats sarif", med("sarifonly")),
        ("this build, refused (cap %s MiB)" % cap, med("capped"))]
if cmp_:
    rows.insert(0, ("ASH_COMPARE", med("compare")))
for name, (t, m, c) in rows:
    print("| ash scan, %s | %.2f | %.2f | %.0f | %.2fx | %.2fx | %.1fx |"
          % (name, t, c, m, t / py[0], c / py[2], m * 1048576 / size))
PY
echo
sort -u "$work/status" | sed 's/^/Scanner status: /'
echo "Runs: $runs (medians); $(python3 --version); $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
