#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# findings.sh -- what many findings in one file cost: a plugin scanner
# that reports RESULTS findings (default 40,000), all in one file of as
# many lines, against the same number spread over FILES files (default
# 400).  Each scan checks every finding for an inline ash-ignore comment.
# Medians, measured with hyperfine.
#
#   bench/findings.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (default 5), RESULTS, FILES, ASH_COMPARE (another ash
# binary measured in the same run).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-5}
results=${RESULTS:-40000}
files=${FILES:-400}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home"
python3 - "$work" "$results" "$files" <<'PY'
import json, os, sys
work, n, nf = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def sarif(locs):
    return {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "many"}},
            "results": [{"ruleId": "R1", "level": "warning",
                         "message": {"text": "finding %d" % i},
                         "locations": [{"physicalLocation": {
                             "artifactLocation": {"uri": uri},
                             "region": {"startLine": line}}}]}
                        for i, (uri, line) in enumerate(locs)]}]}
# One file of N lines, one finding a line.
os.makedirs(os.path.join(work, "one"))
with open(os.path.join(work, "one", "big.py"), "w") as f:
    for i in range(n):
        f.write("x%d = eval(s)\n" % i)
json.dump(sarif([("big.py", i + 1) for i in range(n)]), open(os.path.join(work, "one.sarif"), "w"))
# The same findings over NF files.
per = n // nf
os.makedirs(os.path.join(work, "many"))
for k in range(nf):
    with open(os.path.join(work, "many", "m%04d.py" % k), "w") as f:
        for i in range(per):
            f.write("x%d = eval(s)\n" % i)
json.dump(sarif([("m%04d.py" % k, i + 1) for k in range(nf) for i in range(per)]),
          open(os.path.join(work, "many.sarif"), "w"))
PY
cat >"$work/bin/many-tool" <<'TOOL'
#!/bin/sh
# many-tool OUT TARGET: copies the prepared report for TARGET's tree.
cp "$(dirname "$2")/$(basename "$2").sarif" "$1"
TOOL
chmod 755 "$work/bin/many-tool"
cat >"$work/many.yaml" <<'MOD'
scanners:
  many:
    tool: many-tool
    args: ["{results_dir}/many.sarif", "{target}"]
    output: { format: sarif, path: "{results_dir}/many.sarif" }
MOD

scan () { # ASH TREE
  echo "env -u XDG_CACHE_HOME HOME=$work/home PATH=$work/bin:/usr/bin:/bin $1 scan --source-dir $work/$2 --output-dir $work/out-$2 --no-progress --quiet --sandbox off --no-fail-on-findings --ash-plugin-modules $work/many.yaml --scanners many"
}
set -- "$(scan "$ash" many)" "$(scan "$ash" one)"
[ -z "${ASH_COMPARE:-}" ] || set -- "$@" "$(scan "$ASH_COMPARE" many)" "$(scan "$ASH_COMPARE" one)"
hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$work/r.json" \
  "$@" >/dev/null 2>&1
python3 - "$work/r.json" "$results" "$files" "${ASH_COMPARE:-}" <<'PY'
import json, sys
r = [x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]]
print("| ash | %s results over %s files (ms) | %s results in one file (ms) | ratio |" % (sys.argv[2], sys.argv[3], sys.argv[2]))
print("|---|---|---|---|")
if sys.argv[4]:
    print("| ASH_COMPARE | %.1f | %.1f | %.2fx |" % (r[2], r[3], r[3] / r[2]))
print("| this build | %.1f | %.1f | %.2fx |" % (r[0], r[1], r[1] / r[0]))
PY
echo
echo "Runs: $runs; hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
