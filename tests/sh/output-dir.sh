#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Where the output directory may be, and what ash clears there.  The
# source directory itself is redirected to .ash/ash_output (the tree's own
# reports/ and scanners/ survive); /, a home directory, an ancestor of the
# source directory and a directory inside the tree other than
# .ash/ash_output are refused with exit 3 and nothing written; an existing
# directory ash did not create that holds reports/ is refused and left
# alone, while one ash created is cleared on the next run; a directory on
# the path that others may write (not sticky), or one owned by another
# user, is refused, and a sticky one is accepted.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"

src=$TEST_TMP/src
mkdir -p "$src/reports" "$src/scanners"
printf 'keep\n' >"$src/reports/mine.txt"
printf 'keep\n' >"$src/scanners/mine.txt"
printf 'x = 1\n' >"$src/app.py"

scan () {
  run_ash scan --source-dir "$src" --scanners none --no-progress "$@"
}

# accepted DESCRIPTION DIR: the scan ran (no configuration or output
# error) and wrote its results into DIR.
accepted () {
  if [ "$status" != 3 ] && [ -f "$2/ash_aggregated_results.json" ]; then
    ok "$1"
  else
    not_ok "$1"
    diag "exit $status" "$(tail -n 3 "$TEST_TMP/err")"
  fi
}

# The source directory itself.
scan --output-dir "$src"
assert_file_contains "--output-dir SOURCE is redirected, with a warning" "$TEST_TMP/err" \
  "writing the output to $src/.ash/ash_output instead"
check "the tree's reports/ survives" test -f "$src/reports/mine.txt"
check "the tree's scanners/ survives" test -f "$src/scanners/mine.txt"
check "the output went to .ash/ash_output" test -f "$src/.ash/ash_output/ash_aggregated_results.json"
(cd "$src" && "$ASH" scan --output-dir . --scanners none --no-progress >/dev/null 2>&1)
check "so does --output-dir . from inside it" test -f "$src/reports/mine.txt"

# Refused places.
scan --output-dir /
assert_eq "--output-dir / is refused (exit 3)" "$status" 3
assert_file_contains "with the reason" "$TEST_TMP/err" "refusing the output directory /"
check_fails "nothing written into /" test -e /ash_aggregated_results.json

mkdir -p "$TEST_TMP/home"
HOME=$TEST_TMP/home "$ASH" scan --source-dir "$src" --scanners none --no-progress \
  --output-dir "$TEST_TMP/home" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "--output-dir \$HOME is refused (exit 3)" "$?" 3
assert_file_contains "as a home directory" "$TEST_TMP/err" "the home directory $TEST_TMP/home"
check_fails "nothing written there" test -e "$TEST_TMP/home/reports"
# The home reached by other names: a link to it, the directory that holds
# it, and a HOME that is itself a link, given by its real path.
mkdir -p "$TEST_TMP/homes/h1"
ln -s "$TEST_TMP/homes/h1" "$TEST_TMP/h1-link"
for case in "link:$TEST_TMP/h1-link:$TEST_TMP/homes/h1" \
            "parent:$TEST_TMP/homes:$TEST_TMP/homes/h1" \
            "real:$TEST_TMP/homes/h1:$TEST_TMP/h1-link"; do
  name=${case%%:*}; rest=${case#*:}; out=${rest%%:*}; home=${rest#*:}
  HOME=$home "$ASH" scan --source-dir "$src" --scanners none --no-progress \
    --output-dir "$out" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$name: an output directory that is or holds \$HOME by another name is refused (exit 3)" "$?" 3
  assert_file_contains "$name: as a home directory" "$TEST_TMP/err" "the home directory $home"
  check_fails "$name: nothing written there" test -e "$TEST_TMP/homes/h1/reports"
done
# Control: a sibling of the home is not refused for it.
mkdir -p "$TEST_TMP/homes/other"
HOME=$TEST_TMP/homes/h1 "$ASH" scan --source-dir "$src" --scanners none --no-progress \
  --output-dir "$TEST_TMP/homes/other" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
status=$?
accepted "control: a directory beside \$HOME is accepted" "$TEST_TMP/homes/other"

scan --output-dir "$TEST_TMP"
assert_eq "an ancestor of the source directory is refused (exit 3)" "$status" 3
assert_file_contains "with the reason" "$TEST_TMP/err" "it holds the source directory"

scan --output-dir "$src/build/out"
assert_eq "a directory inside the tree is refused (exit 3)" "$status" 3
check_fails "and not created" test -e "$src/build"
scan --output-dir "$src/.ash/ash_output"
accepted "control: .ash/ash_output inside the tree is accepted" "$src/.ash/ash_output"

# A directory ash did not create.
mkdir -p "$TEST_TMP/theirs/reports"
printf 'precious\n' >"$TEST_TMP/theirs/reports/precious.txt"
scan --output-dir "$TEST_TMP/theirs"
assert_eq "an existing directory ash did not create is refused (exit 3)" "$status" 3
assert_file_contains "with the reason" "$TEST_TMP/err" "ash did not create it"
check "its files are left alone" test -f "$TEST_TMP/theirs/reports/precious.txt"

# Control: a directory ash created is cleared on the next run.
scan --output-dir "$TEST_TMP/ours"
accepted "control: a new directory" "$TEST_TMP/ours"
check "the manifest is written" test -f "$TEST_TMP/ours/.ash_output_manifest.json"
printf 'stale\n' >"$TEST_TMP/ours/reports/stale.txt"
scan --output-dir "$TEST_TMP/ours"
accepted "control: the second run" "$TEST_TMP/ours"
check_fails "control: what the earlier run left is cleared" test -e "$TEST_TMP/ours/reports/stale.txt"

# A directory others may write, on the path.
mkdir -m 0777 "$TEST_TMP/open"
chmod 0777 "$TEST_TMP/open"
scan --output-dir "$TEST_TMP/open/out"
assert_eq "below a directory others may write: refused (exit 3)" "$status" 3
assert_file_contains "naming that directory" "$TEST_TMP/err" "$TEST_TMP/open on its path is writable by other users"
check_fails "nothing created below it" test -e "$TEST_TMP/open/out"
mkdir -m 1777 "$TEST_TMP/sticky"
chmod 1777 "$TEST_TMP/sticky"
scan --output-dir "$TEST_TMP/sticky/out"
accepted "control: below a sticky directory: accepted" "$TEST_TMP/sticky/out"

if [ "$(id -u)" = 0 ]; then
  u=$(unpriv_user)
  mkdir -p "$TEST_TMP/other"
  chown "$u" "$TEST_TMP/other"
  scan --output-dir "$TEST_TMP/other/out"
  assert_eq "as root, below a directory another user owns: refused (exit 3)" "$status" 3
  assert_file_contains "naming the owner's directory" "$TEST_TMP/err" "$TEST_TMP/other on its path is owned by another user"
  mkdir -p "$TEST_TMP/sticky/theirs"
  chown "$u" "$TEST_TMP/sticky/theirs"
  scan --output-dir "$TEST_TMP/sticky/theirs"
  assert_eq "as root, an output directory another user owns: refused (exit 3)" "$status" 3
else
  diag "not root: the cases of another user's directories need root"
fi

done_testing
