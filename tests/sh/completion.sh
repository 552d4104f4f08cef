#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Shell completions come from the command line's own tables: bash
# completes `ash scan --sa` to `--sandbox` and the value of --sandbox to
# the modes; every option of --help is offered; zsh and fish scripts are
# generated and parse.
. "$top_srcdir/tests/libtest.sh"

run_ash completion bash
assert_eq "ash completion bash exits 0" "$status" 0
cp "$TEST_TMP/out" "$TEST_TMP/ash.bash"
run_ash completion zsh
assert_eq "ash completion zsh exits 0" "$status" 0
cp "$TEST_TMP/out" "$TEST_TMP/_ash"
run_ash completion fish
assert_eq "ash completion fish exits 0" "$status" 0
cp "$TEST_TMP/out" "$TEST_TMP/ash.fish"

run_ash completion tcsh
assert_eq "an unknown shell is a usage error" "$status" 5
assert_file_contains "naming the shells" "$TEST_TMP/err" \
  "invalid value 'tcsh' for ash completion (expected one of: bash, zsh, fish)"
run_ash completion
assert_eq "no shell is a usage error" "$status" 5

if ! command -v bash >/dev/null 2>&1; then
  ok "# SKIP bash completion: bash is not installed"
else
  # complete WORDS...: the completions bash offers for the last word.
  complete_words () {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
             _ash; printf "%s\n" "${COMPREPLY[@]}"' sh "$TEST_TMP/ash.bash" "$@"
  }
  assert_eq "ash scan --sa completes to --sandbox" \
    "$(complete_words ash scan --sa)" "--sandbox"
  assert_eq "ash --sa (scan is the default command) completes to --sandbox" \
    "$(complete_words ash --sa)" "--sandbox"
  assert_eq "--sandbox completes to the modes" \
    "$(complete_words ash scan --sandbox '' | tr '\n' ' ')" \
    "off auto bwrap firejail landlock sandbox-exec "
  assert_eq "--sandbox l completes to landlock" \
    "$(complete_words ash scan --sandbox l)" "landlock"
  assert_eq "the complete line adds a space after a whole word" \
    "$(bash -c '. "$1"; complete -p ash' sh "$TEST_TMP/ash.bash")" \
    "complete -F _ash ash"
  assert_eq "commands are completed" \
    "$(complete_words ash sa | tr '\n' ' ')" "sandbox "
  assert_eq "subcommands are completed" \
    "$(complete_words ash sandbox '' | tr '\n' ' ')" "probe explain "
  assert_eq "config get takes --format with its values" \
    "$(complete_words ash config get --format '' | tr '\n' ' ')" "yaml json "
  assert_eq "an option of another command is not offered" \
    "$(complete_words ash sandbox probe --for)" ""
  assert_eq "an option value does not count as the command" \
    "$(complete_words ash --source-dir config --sa)" "--sandbox"
  # Every option --help lists for scan is offered for scan.
  "$ASH" --help >"$TEST_TMP/help"
  sed -n '/^Options of ash scan:/,/^The other commands/p' "$TEST_TMP/help" |
    grep -o -- '--[a-z][a-z-]*' | sort -u >"$TEST_TMP/help-opts"
  complete_words ash scan -- | sort -u >"$TEST_TMP/comp-opts"
  missing=$(comm -23 "$TEST_TMP/help-opts" "$TEST_TMP/comp-opts" | tr '\n' ' ')
  assert_eq "every option of ash scan in --help is completed" "$missing" ""
  check "the bash script parses" bash -n "$TEST_TMP/ash.bash"
fi

if command -v zsh >/dev/null 2>&1; then
  check "the zsh script parses" zsh -n "$TEST_TMP/_ash"
else
  ok "# SKIP zsh syntax: zsh is not installed"
fi
check "the zsh script declares itself" grep -qx '#compdef ash' "$TEST_TMP/_ash"
if command -v fish >/dev/null 2>&1; then
  check "the fish script parses" fish --no-execute "$TEST_TMP/ash.fish"
else
  ok "# SKIP fish syntax: fish is not installed"
fi
assert_file_contains "fish: --sandbox with its modes" "$TEST_TMP/ash.fish" \
  "-l sandbox -x -a 'off auto bwrap firejail landlock sandbox-exec'"
done_testing
