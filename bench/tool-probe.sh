#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tool-probe.sh -- what the tool probe cache saves: a bandit scan of
# tests/fixtures/repos/py-small with the sandbox off, with the cache
# (bandit's --help answered from ~/.cache/ash) and with --no-probe-cache
# (bandit --help runs in every scan).  Medians, measured with hyperfine.
#
#   bench/tool-probe.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (default 20).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
srcdir=$(cd "$(dirname "$0")/.." && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-20}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
command -v bandit >/dev/null 2>&1 || { echo "bandit is not installed" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ash-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
chmod 700 "$work/home"
cp -R "$srcdir/tests/fixtures/repos/py-small" "$work/src"
scan="env -u XDG_CACHE_HOME HOME=$work/home $ash scan --source-dir $work/src --output-dir $work/out --no-progress --quiet --scanners bandit --sandbox off --no-fail-on-findings"
hyperfine -N --style none --warmup 2 --runs "$runs" --export-json "$work/r.json" \
  "$scan" "$scan --no-probe-cache" >/dev/null 2>&1
python3 - "$work/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("| bandit scan | median (ms) |")
print("|---|---|")
print("| probe answered from the cache | %.1f |" % (r[0]["median"] * 1000))
print("| --no-probe-cache (bandit --help every scan) | %.1f |" % (r[1]["median"] * 1000))
PY
echo
echo "Runs: $runs; hyperfine $(hyperfine --version | cut -d' ' -f2); bandit $(bandit --version 2>/dev/null | head -1 | cut -d' ' -f2); $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
