#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pygoat.sh -- bandit over a tree shaped like OWASP PyGoat (80 Python
# files with the usual findings: shell commands, eval, pickle, yaml.load,
# weak hashes, hard-coded passwords, SQL built from strings, requests
# without certificate checks), generated here so that no network is
# needed: bare bandit against an ASH scan running only bandit, with the
# sandbox off and under each Linux backend.  Medians of interleaved
# rounds (each command once a round), measured with hyperfine, in wall
# and CPU time; the probe cache is warm (the warm-up rounds fill it), as
# it is for every scan after the first.  As root, firejail needs a
# scanner account it allows (ASH_SCANNER_USER; it never allows nobody).
#
#   bench/pygoat.sh [BUILDDIR]     (after `make` in BUILDDIR)
#
# Environment: RUNS (default 10), WARMUP (default 2), BACKENDS (default
# "off bwrap landlock firejail").
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
runs=${RUNS:-10}
warmup=${WARMUP:-2}
backends=${BACKENDS:-off bwrap landlock firejail}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
bandit=$(command -v bandit) || { echo "bandit is not installed" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }

# Not under /tmp or /var/tmp, which firejail hides from the sandbox:
# in the build tree unless BENCH_DIR names another directory.
work=$(mktemp -d "${BENCH_DIR:-$builddir}/ash-bench.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
chmod 700 "$work/home"
python3 - "$work/pygoat" <<'PY'
import os, sys
root = sys.argv[1]
snippets = [
    "import subprocess\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n",
    "def calc(expr):\n    return eval(expr)\n",
    "import pickle\n\ndef load(data):\n    return pickle.loads(data)\n",
    "import yaml\n\ndef conf(text):\n    return yaml.load(text)\n",
    "import hashlib\n\ndef digest(p):\n    return hashlib.md5(p.encode()).hexdigest()\n",
    "PASSWORD = 'hunter2'\n\ndef login(user, password='admin123'):\n    return user == 'admin' and password == PASSWORD\n",
    "def find(cursor, name):\n    cursor.execute(\"SELECT * FROM users WHERE name = '%s'\" % name)\n    return cursor.fetchall()\n",
    "import requests\n\ndef fetch(url):\n    return requests.get(url, verify=False, timeout=5)\n",
    "def check(x):\n    assert x > 0\n    return x\n",
    "import os\n\ndef tmp():\n    return open('/tmp/pygoat.log', 'w')\n",
]
apps = ["introduction", "challenge", "insecure", "authentication", "xss", "sqli", "ssrf", "crypto"]
n = 0
for a in apps:
    for k in range(10):
        d = os.path.join(root, a, "views" if k < 5 else "utils")
        os.makedirs(d, exist_ok=True)
        body = "# %s module %d\nimport os\nimport sys\n\n" % (a, k)
        # Every file some plain code; about half of them one or two findings.
        body += "".join("def helper_%d(v):\n    return [i * %d for i in range(v)]\n\n" % (j, j) for j in range(12))
        if (n % 2) == 0:
            body += snippets[n % len(snippets)] + "\n"
        if (n % 5) == 0:
            body += snippets[(n + 3) % len(snippets)] + "\n"
        with open(os.path.join(d, "m%02d.py" % k), "w") as f:
            f.write(body)
        n += 1
PY
src=$work/pygoat

bare="$bandit -r -f json -o $work/bare.json -q $src"
ashscan () { # BACKEND
  echo "env -u XDG_CACHE_HOME HOME=$work/home ASH_HELPER_DIR=$builddir/linux $ash scan --source-dir $src --output-dir $work/out-$1 --no-progress --quiet --no-fail-on-findings --scanners bandit --sandbox $1"
}
set -- "$bare"
for b in $backends; do
  set -- "$@" "$(ashscan "$b")"
done
# Rounds, each command once a round, so that a change in the machine's
# speed falls on every command alike (WARMUP rounds first, not counted).
round=1
while [ "$round" -le $((warmup + runs)) ]; do
  hyperfine -N -i --style none --runs 1 --export-json "$work/r$round.json" \
    "$@" >/dev/null 2>&1
  round=$((round + 1))
done
"$bandit" -r -f json -o "$work/bare.json" -q "$src" >/dev/null 2>&1 || true
python3 - "$work" "$backends" "$warmup" "$runs" <<'PY'
import json, statistics, sys
work, backends = sys.argv[1], sys.argv[2].split()
warmup, runs = int(sys.argv[3]), int(sys.argv[4])
rounds = [json.load(open("%s/r%d.json" % (work, i)))["results"]
          for i in range(warmup + 1, warmup + runs + 1)]
n = len(rounds[0])
r = [statistics.median(rd[k]["times"][0] * 1000 for rd in rounds) for k in range(n)]
# CPU time (user and system of the command and its children), which the
# machine's load moves less than the wall-clock time.
c = [statistics.median((rd[k]["user"] + rd[k]["system"]) * 1000 for rd in rounds)
     for k in range(n)]
bare_n = len(json.load(open(work + "/bare.json"))["results"])
print("| run | median (ms) | ash / bare | CPU (ms) | CPU ash / bare | bandit findings |")
print("|---|---|---|---|---|---|")
print("| bare bandit | %.0f | 1.00 | %.0f | 1.00 | %d |" % (r[0], c[0], bare_n))
for i, b in enumerate(backends):
    try:
        agg = json.load(open("%s/out-%s/ash_aggregated_results.json" % (work, b)))
        sr = agg["scanner_results"]["bandit"]
        found = "%d (%s)" % (sr["finding_count"], sr["status"])
    except Exception as e:
        found = "no result (%s)" % e.__class__.__name__
    print("| ash, --sandbox %s | %.0f | %.2f | %.0f | %.2f | %s |"
          % (b, r[i + 1], r[i + 1] / r[0], c[i + 1], c[i + 1] / c[0], found))
PY
echo
echo "Rounds: $runs (interleaved, after $warmup warm-up rounds); hyperfine $(hyperfine --version | cut -d' ' -f2); bandit $("$bandit" --version 2>/dev/null | head -1 | cut -d' ' -f2); $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
