#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --color colours the terminal summary as upstream does: each scanner's
# status, and its severity counts that are not zero.  Not with --no-color,
# not when NO_COLOR is set (unless --color is given), never when stdout
# is not a terminal, and never in the text report.  The columns line up
# with and without colour.  The terminal is a pseudo-terminal from
# script(1).
. "$top_srcdir/tests/libtest.sh"

command -v script >/dev/null 2>&1 || skip_all "script (util-linux) is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES CI NO_COLOR
src=$TEST_TMP/src
mkdir -p "$src"
printf 'x\n' >"$src/plain.txt"
esc=$(printf '\033')

# on_tty NAME [VAR=VALUE...] -- [ash scan options]: the scan with its
# stdout on a terminal, what the terminal showed in $TEST_TMP/NAME.
on_tty () {
  _n=$1
  shift
  _env=
  while [ "$1" != -- ]; do
    _env="$_env $1"
    shift
  done
  shift
  script -qec "env $_env '$ASH' scan --source-dir '$src' --output-dir '$TEST_TMP/out-$_n' --no-progress --sandbox off --ash-plugin-modules '$top_srcdir/tests/fixtures/plugins/report-inject.yaml' --scanners report-inject $*" /dev/null \
    </dev/null >"$TEST_TMP/$_n" 2>&1
  tr -d '\r' <"$TEST_TMP/$_n" >"$TEST_TMP/$_n.txt"
}
check "control: script gives ash a terminal" \
  script -qec 'test -t 1' /dev/null

on_tty default --
assert_file_contains "a terminal: the FAILED status in red" "$TEST_TMP/default.txt" "${esc}[31mFAILED${esc}[0m"
assert_file_contains "... a SKIPPED one dimmed" "$TEST_TMP/default.txt" "${esc}[2mSKIPPED${esc}[0m"
assert_file_contains "... the high count that is not zero in red" "$TEST_TMP/default.txt" "${esc}[31m1${esc}[0m"
on_tty nocolor -- --no-color
check_fails "--no-color: no colour" grep -q "$esc" "$TEST_TMP/nocolor.txt"
assert_file_contains "control: --no-color still prints the summary" "$TEST_TMP/nocolor.txt" "report-inject    FAILED"
on_tty env NO_COLOR=1 --
check_fails "NO_COLOR=1: no colour" grep -q "$esc" "$TEST_TMP/env.txt"
on_tty empty NO_COLOR= --
assert_file_contains "NO_COLOR empty: colour, as no-color.org says" "$TEST_TMP/empty.txt" "${esc}[31mFAILED"
on_tty forced NO_COLOR=1 -- --color
assert_file_contains "NO_COLOR=1 with --color: colour" "$TEST_TMP/forced.txt" "${esc}[31mFAILED"

# The coloured table is the plain one with the colours added (the times
# left out: they differ from run to run).
table () {
  sed -n '/^Scanner /,/ findings (/p' "$1" | sed "s/${esc}\[[0-9;]*m//g" | sed 's/ *[0-9.]*s$//'
}
assert_eq "the columns line up as without colour" "$(table "$TEST_TMP/default.txt")" "$(table "$TEST_TMP/nocolor.txt")"
check "control: the table is there" grep -q '^report-inject ' "$TEST_TMP/nocolor.txt"

# Not a terminal: never.
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-pipe" --no-progress --sandbox off \
  --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/report-inject.yaml" --scanners report-inject --color
assert_eq "stdout not a terminal: the scan runs (exit 2)" "$status" 2
check_fails "stdout not a terminal, even with --color: no colour" grep -q "$esc" "$TEST_TMP/out"
assert_file_contains "control: the summary is printed" "$TEST_TMP/out" "report-inject    FAILED"
check_fails "the text report has no colour" grep -q "$esc" "$TEST_TMP/out-default/reports/ash.summary.txt"
check "control: the text report has the table" grep -q '^report-inject *FAILED' "$TEST_TMP/out-default/reports/ash.summary.txt"

done_testing
