#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# noop.sh -- what the sandbox costs a scanner that does nothing: scans
# with one and with 20 plugin scanners whose tool is `true`, under each
# backend, against the bare backend command (the command line the
# backend's wrap() builds, printed by test-backend-run --print-argv) run
# once and 20 times.  Per scanner, "ash" is (20 scanners - 1 scanner) / 19
# and "bare" is (20 runs - 1 run) / 19.  Wall time (medians) and CPU time
# (user + system of every process waited for, means), measured with
# hyperfine.
# The bare command runs with the descriptors its command line names open
# (test-backend-run --print-fds) and, as root, as the scanner account, as
# ash runs it; a bare command that fails is reported, not timed.
#
#   bench/noop.sh [BUILDDIR]     (after `make check`, which builds
#                                 tests/unit/test-backend-run)
#
# Environment: RUNS (default 10), WARMUP (default 2), BACKENDS (default
# "off bwrap landlock firejail"), ASH_COMPARE (another ash binary, whose
# helpers, ash-landlock-exec, are in ASH_COMPARE_HELPERS, by default the
# directory it is in: one row more per backend, measured in the same
# hyperfine run), BENCH_DIR (where the working directory is made, by
# default BUILDDIR), BENCH_KEEP (set: keep the working directory),
# ASH_SCANNER_USER (as for ash: the account the bare commands run as when
# root; firejail refuses nobody, the default), GAP (seconds hyperfine
# waits before each run, through --prepare: by default none, and each run
# starts as the one before ends, which the kernel's cgroup v1 migration
# lock rewards, see bench/README.md).  The ASH_COMPARE scans keep their
# probe cache in a home of their own.
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
ash=$builddir/linux/ash
run=$builddir/tests/unit/test-backend-run
runs=${RUNS:-10}
warmup=${WARMUP:-2}
backends=${BACKENDS:-off bwrap landlock firejail}

command -v hyperfine >/dev/null 2>&1 \
  || { echo "hyperfine is not installed (build-aux/install-deps installs it)" >&2; exit 1; }
bash=$(command -v bash) \
  || { echo "bash is not installed (the bare commands need it)" >&2; exit 1; }
[ -x "$ash" ] || { echo "$ash is missing: run 'make' first" >&2; exit 1; }
[ -x "$run" ] || { echo "$run is missing: run 'make tests/unit/test-backend-run'" >&2; exit 1; }

ASH_HELPER_DIR=$builddir/linux
export ASH_HELPER_DIR
# Not under /tmp or /var/tmp, which firejail hides from the sandbox:
# in the build tree unless BENCH_DIR names another directory.
work=$(mktemp -d "${BENCH_DIR:-$builddir}/ash-bench.XXXXXX")
chmod 755 "$work"
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/home-compare" "$work/src" "$work/src/out/scanners/noop"
chmod 700 "$work/home" "$work/home-compare"
echo data >"$work/src/a.txt"
true_path=$(command -v true)
case $true_path in /*) ;; *) true_path=/usr/bin/true ;; esac
for n in 1 20; do
  {
    echo "scanners:"
    i=1
    while [ "$i" -le "$n" ]; do
      echo "  noop$i:"
      echo "    tool: \"true\""
      echo "    output: { format: sarif, path: \"{results_dir}/none.sarif\" }"
      i=$((i + 1))
    done
  } >"$work/noop$n.yaml"
done
names20=$(seq -s, -f 'noop%g' 1 20)

ashscan () { # BACKEND N SCANNERS [ASH HELPERS HOME]
  echo "env -u XDG_CACHE_HOME HOME=${6:-$work/home} PATH=/usr/bin:/bin ASH_HELPER_DIR=${5:-$builddir/linux} ${4:-$ash} scan --source-dir $work/src --output-dir $work/out-$1-$2 --no-progress --quiet --sandbox $1 --ash-plugin-modules $work/noop$2.yaml --scanners $3"
}
cmp_helpers=${ASH_COMPARE_HELPERS:-$(dirname "${ASH_COMPARE:-.}")}

: >"$work/rows"
for b in $backends; do
  set -- "$(ashscan "$b" 1 noop1)" "$(ashscan "$b" 20 "$names20")"
  bare_ok=no
  if [ "$b" != off ] \
     && "$run" --backend "$b" --results "$work/src/out/scanners/noop" --probe-only -- "$true_path" >/dev/null 2>&1; then
    # The command line names descriptors (--fd N, --ro-bind-fd N) that
    # wrap() opened: the script opens them again from the same paths
    # first.  The Landlock private directories land in $work.
    TMPDIR=$work "$run" --backend "$b" --source "$work/src" --output "$work/src/out" \
      --results "$work/src/out/scanners/noop" --print-fds --print-argv -- "$true_path" >"$work/argv"
    redirs=$(sed -n 1p "$work/argv")
    cmdline=$(sed -n 2p "$work/argv")
    # As root, ash runs a sandboxed scanner as the scanner account
    # (ASH_SCANNER_USER, nobody by default): so does the bare command.
    as_user=
    if [ "$(id -u)" = 0 ]; then
      su=${ASH_SCANNER_USER:-nobody}
      as_user="setpriv --reuid=$(id -u "$su") --regid=$(id -g "$su") --clear-groups"
    fi
    # bash: dash redirects single-digit descriptors only.
    printf '#!%s\nexec %s\nexec %s %s\n' "$bash" "$redirs" "$as_user" "$cmdline" >"$work/bare1"
    printf '#!%s\nexec %s\nexec %s /bin/sh -c '"'"'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do %s || exit 1; done'"'"'\n' \
      "$bash" "$redirs" "$as_user" "$cmdline" >"$work/bare20"
    chmod 755 "$work/bare1" "$work/bare20"
    # A bare command that fails would be timed failing: check it runs.
    if "$work/bare1" >/dev/null 2>&1 && "$work/bare20" >/dev/null 2>&1; then
      set -- "$@" "$work/bare1" "$work/bare20"
      bare_ok=yes
    else
      echo "$b: the bare command fails: $cmdline" >&2
    fi
  elif [ "$b" = off ]; then
    printf '#!/bin/sh\nexec %s\n' "$true_path" >"$work/bare1"
    printf '#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do %s; done\n' "$true_path" >"$work/bare20"
    chmod 755 "$work/bare1" "$work/bare20"
    set -- "$@" "$work/bare1" "$work/bare20"
    bare_ok=yes
  fi
  if [ -n "${ASH_COMPARE:-}" ]; then
    set -- "$@" "$(ashscan "$b" 1 noop1 "$ASH_COMPARE" "$cmp_helpers" "$work/home-compare")" \
      "$(ashscan "$b" 20 "$names20" "$ASH_COMPARE" "$cmp_helpers" "$work/home-compare")"
  fi
  if hyperfine -N -i --style none --warmup "$warmup" --runs "$runs" \
       ${GAP:+--prepare "sleep $GAP"} --export-json "$work/$b.json" "$@" >/dev/null 2>&1; then
    echo "$b $bare_ok" >>"$work/rows"
  else
    echo "$b failed" >>"$work/rows"
  fi
done
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
rows = []
for line in open(work + "/rows"):
    b, ok = line.split()
    if ok == "failed":
        rows.append((b, ok, None))
        continue
    res = json.load(open("%s/%s.json" % (work, b)))["results"]
    wall = [x["median"] * 1000 for x in res]
    # CPU of the whole tree (ash, wrappers, tools): hyperfine's means of
    # the user and system times of what it waited for.
    cpu = [(x["user"] + x["system"]) * 1000 for x in res]
    rows.append((b, ok, (wall, cpu)))

def table(title, idx):
    print(title)
    print()
    print("| backend | ash, 1 scanner (ms) | ash, 20 scanners (ms) | bare, 1 run (ms) | bare, 20 runs (ms) | per scanner: ash (ms) | per scanner: bare (ms) | ash - bare per scanner (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    for b, ok, data in rows:
        if data is None:
            print("| %s | failed | | | | | | |" % b)
            continue
        r = data[idx]
        a1, a20 = r[0], r[1]
        pa = (a20 - a1) / 19
        if ok == "yes":
            b1, b20 = r[2], r[3]
            pb = (b20 - b1) / 19
            print("| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %+.2f |" % (b, a1, a20, b1, b20, pa, pb, pa - pb))
        else:
            print("| %s | %.1f | %.1f | unavailable | | %.2f | | |" % (b, a1, a20, pa))
        c = r[4:] if ok == "yes" else r[2:]
        if len(c) == 2:
            pc = (c[1] - c[0]) / 19
            if ok == "yes":
                print("| %s, ASH_COMPARE | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %+.2f |" % (b, c[0], c[1], b1, b20, pc, pb, pc - pb))
            else:
                print("| %s, ASH_COMPARE | %.1f | %.1f | unavailable | | %.2f | | |" % (b, c[0], c[1], pc))
    print()

table("Wall time (medians):", 0)
table("CPU time, user + system of every process (means):", 1)
PY
echo
echo "Runs: $runs after $warmup warm-up runs${GAP:+, each after a pause of $GAP s}; hyperfine $(hyperfine --version | cut -d' ' -f2); $(uname -sr); user $(id -un); load average $(cut -d' ' -f1-3 /proc/loadavg)."
