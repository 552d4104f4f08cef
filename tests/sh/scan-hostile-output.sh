#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Terminal and report injection: what a scanner writes (its stderr, its
# findings' messages), a file name from the repository and an in-tree
# project_name reach the terminal, ash.log and the reports with their
# control characters shown as text, and the Markdown and HTML reports
# with their markup escaped.
. "$top_srcdir/tests/libtest.sh"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/src
out=$TEST_TMP/results
mkdir -p "$src/.ash"
esc=$(printf '\033')
bel=$(printf '\007')
cr=$(printf '\r')
# A file name with an OSC title and a screen clear (sorted first).
name=$(printf 'a\033]0;FILE-TITLE\007\033[2J<script>x.txt')
printf 'x\n' >"$src/$name" || bail "cannot create the hostile file name"
printf 'project_name: "p\\e]52;c;cm0gLXJmIH4K\\a\\e[2J<img src=x onerror=alert(3)>\\rPASSED"\n' >"$src/.ash/.ash.yaml"

run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
  --sandbox off --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/hostile-scanners.yaml" \
  --scanners hostile-sarif,hostile-error
assert_eq "the scan completes (1: an ERROR scanner)" "$status" 1

# Negative control: the payloads really reached ash.
assert_file_contains "control: the scanner's raw stderr log holds ESC" \
  "$out/scanners/hostile-error/source/hostile-error.stderr.log" "$esc]0;PWNED-TITLE"
assert_file_contains "control: the aggregated results hold the project name" \
  "$out/ash_aggregated_results.json" 'p\u001B]52;c;'

r=$out/reports
for f in "$TEST_TMP/out" "$TEST_TMP/err" "$out/ash.log" "$r/ash.summary.txt" \
         "$r/ash.summary.md" "$r/ash.html" "$r/ash.csv" "$r/ash.junit.xml"; do
  check "$(basename "$f"): exists" test -s "$f"
  assert_file_lacks "$(basename "$f"): no ESC byte" "$f" "$esc"
  assert_file_lacks "$(basename "$f"): no BEL byte" "$f" "$bel"
  assert_file_lacks "$(basename "$f"): no carriage return" "$f" "$cr"
done
for f in "$TEST_TMP/out" "$r/ash.summary.txt" "$r/ash.summary.md"; do
  check_fails "$(basename "$f"): no fake PASSED row" grep -q '^bandit  *PASSED' "$f"
done
assert_file_contains "terminal summary: the stderr payload shown as text" \
  "$TEST_TMP/out" '\e]0;PWNED-TITLE\x07\e]52;c;'
assert_file_contains "terminal summary: the carriage return shown as text" \
  "$TEST_TMP/out" '\rbandit'
assert_file_contains "ash.summary.txt: the project name shown as text" \
  "$r/ash.summary.txt" 'Project: p\e]52;c;cm0gLXJmIH4K\x07\e[2J'
assert_file_contains "ash.summary.txt: the file name shown as text" \
  "$r/ash.summary.txt" 'a\e]0;FILE-TITLE\x07\e[2J<script>x.txt:1'
for f in "$r/ash.summary.md" "$r/ash.html"; do
  check_fails "$(basename "$f"): no <script> tag" grep -q '\(^\|[^\\]\)<script' "$f"
  check_fails "$(basename "$f"): no <img> tag" grep -q '\(^\|[^\\]\)<img' "$f"
done
assert_file_contains "ash.summary.md: the tag escaped" "$r/ash.summary.md" '\<script\>'
assert_file_contains "ash.html: the tag escaped" "$r/ash.html" '&lt;script&gt;alert(1)'
assert_file_contains "ash.html: the project name escaped" "$r/ash.html" '\e[2J&lt;img src=x onerror=alert(3)&gt;'
done_testing
