#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A repository built to hurt, scanned with bandit alone, without a sandbox
# and under each usable one: the scan completes, with bandit's results and
# every report written.  It holds a
# FIFO named fifo.py (bandit would block on it until the scan timeout), a
# 3 GB sparse big.py, ten nested 1 MB .gitignore files, a file name and an
# in-tree project_name full of terminal escapes, and a directory 600
# levels deep.  ash runs under a 2 GiB address-space limit, so that a
# regression fails here rather than taking the machine's memory.  A
# billion-laughs .ash/.ash.yaml is refused with exit 3.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/repo
out=$TEST_TMP/results
mkdir -p "$src/.ash" "$src/pkg"
printf 'import subprocess\nsubprocess.call("ls", shell=True)\n' >"$src/pkg/app.py"
mkfifo "$src/fifo.py" || bail "mkfifo"
python3 -c "
f = open('$src/big.py', 'wb'); f.truncate(3000000000); f.close()" || bail "sparse file"
python3 - "$src" <<'PY' || bail "ignore files"
import os, sys
d = sys.argv[1]
for i in range(10):
    d = os.path.join(d, "n%d" % i)
    os.makedirs(d)
    with open(os.path.join(d, ".gitignore"), "w") as f:
        n = 0
        while f.tell() < 1000000:
            f.write("rule%d_%d.py\n" % (n, i))
            n += 1
    open(os.path.join(d, "x.py"), "w").write("x = 1\n")
PY
name=$(printf 'e\033]0;TITLE\007\033[2J.py')
printf 'import pickle\npickle.loads(b"")\n' >"$src/$name"
printf 'project_name: "p\\e]52;c;cm0gLXJmIH4K\\a\\e[2J<script>x</script>\\rPASSED"\n' \
  >"$src/.ash/.ash.yaml"
python3 -c "
import os
fd = os.open('$src', os.O_RDONLY)
for i in range(600):
    os.mkdir('d', dir_fd=fd)
    nfd = os.open('d', os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
" || bail "deep tree"

# hostile MODE OUT: scan the repository with --sandbox MODE into OUT and
# check the scan, the results and every report.
hostile () {
  _m=$1 _o=$2
  (limit_memory 2048; "$ASH" scan --source-dir "$src" --output-dir "$_o" \
    --scanners bandit --sandbox "$_m" --no-progress) >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
  case $status in
    1|2) ok "$_m: the scan completes (exit $status)" ;;
    *) not_ok "$_m: the scan completes"; diag "status $status" "$(tail -5 "$TEST_TMP/err")" ;;
  esac
  st=$(python3 -c "
import json
d = json.load(open('$_o/ash_aggregated_results.json'))
print(d['scanner_results']['bandit']['status'])" 2>/dev/null)
  assert_eq "$_m: bandit ran and its results were read" "$st" FAILED
  assert_file_contains "$_m: bandit's finding in pkg/app.py" "$_o/reports/ash.sarif" "pkg/app.py"
  for f in ash.sarif ash.summary.txt ash.summary.md ash.html ash.csv ash.flat.json ash.junit.xml; do
    check "$_m: report $f written" test -s "$_o/reports/$f"
  done
  assert_file_contains "$_m: the FIFO is left out with a warning" "$_o/ash.log" \
    "Not scanning 'fifo.py': not a regular file (a FIFO)"
  assert_file_contains "$_m: the large file is left out with a warning" "$_o/ash.log" \
    "Not scanning 'big.py': 3000000000 bytes is more than global_settings.max_file_size"
  assert_file_lacks "$_m: the scan set lists neither" "$_o/ash-scan-set-files-list.txt" "fifo.py"
  esc=$(printf '\033')
  for f in "$TEST_TMP/out" "$TEST_TMP/err" "$_o/ash.log" "$_o/reports/ash.summary.txt" \
           "$_o/reports/ash.summary.md" "$_o/reports/ash.html"; do
    assert_file_lacks "$_m: $(basename "$f"): no ESC byte" "$f" "$esc"
  done
  check_fails "$_m: ash.html: no <script> tag" grep -q '<script' "$_o/reports/ash.html"
}

# Under each sandbox too: a scanner given the tree sees the FIFO and the
# large file unless the sandbox leaves them out.
for mode in bwrap landlock firejail; do
  if "$ASH" sandbox probe 2>/dev/null | grep -q "^$mode: usable"; then
    hostile "$mode" "$TEST_TMP/results-$mode"
  else
    ok "$mode # SKIP $mode is not usable here"
  fi
done
hostile off "$out"

# A second run with the same output directory clears the first one's
# results, whatever a scanner left there (here: 600 levels, mode 000).
python3 -c "
import os
fd = os.open('$out/scanners/bandit/source', os.O_RDONLY)
for i in range(600):
    os.mkdir('d', dir_fd=fd)
    nfd = os.open('d', os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.chmod('$out/scanners/bandit/source/d', 0)
" || bail "deep results"
(limit_memory 2048; "$ASH" scan --source-dir "$src" --output-dir "$out" \
  --scanners bandit --sandbox off --no-progress) >"$TEST_TMP/out" 2>"$TEST_TMP/err"
status=$?
case $status in
  1|2) ok "a second run over the deep results completes (exit $status)" ;;
  *) not_ok "a second run over the deep results completes"; diag "status $status" "$(tail -5 "$TEST_TMP/err")" ;;
esac

# The billion-laughs configuration.
bomb=$TEST_TMP/bomb
mkdir -p "$bomb/.ash"
python3 - "$bomb/.ash/.ash.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('project_name: x\nl0: &l0 "lol"\n')
    for i in range(1, 10):
        f.write("l%d: &l%d [%s]\n" % (i, i, ",".join(["*l%d" % (i - 1)] * 10)))
PY
(limit_memory 2048; "$ASH" scan --source-dir "$bomb" --output-dir "$TEST_TMP/bomb-out" \
  --scanners bandit --sandbox off --no-progress) >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "a billion-laughs .ash/.ash.yaml is a configuration error (3)" "$?" 3
assert_file_contains "saying why" "$TEST_TMP/err" "expands to more than 200000 nodes"
chmod -R u+rwX "$TEST_TMP" 2>/dev/null
done_testing
