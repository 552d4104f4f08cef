#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Landlock rules are made from the descriptors ash opened, never from a
# name looked up again: a local user who can write the directory above the
# source tree and above the results directory swaps each for a link to a
# directory of their choice between ash's checks (in the backend's wrap())
# and the wrapper's rules.  test-backend-run --after-wrap makes the swap at
# exactly that point.  The scanner then reads neither the linked source
# file nor writes into the linked results directory (both are open to
# everyone by mode, so only Landlock can refuse them), while the
# directories ash opened, now under other names, are the ones granted.
# The negative control runs the same wrapper command line with the same
# swap, with the rules given by name (the --fd words left out): the
# scanner then reads the other file and writes where the link points.  A
# link already there when ash looks is refused, and nothing runs.  As
# root, and again as the unprivileged account.
. "$top_srcdir/tests/libtest.sh"

require_backend_run landlock

bin=$TEST_TMP/bin
mkdir -p "$bin"
cat >"$bin/scan.sh" <<'EOF'
#!/bin/sh
# $1: the directory holding src and out as the scanner is told.
echo "read: $(cat "$1/src/code.py" 2>&1)"
echo PLANT >"$1/out/res/planted" 2>/dev/null && echo planted
echo "moved: $(cat "$1/src.moved/code.py" 2>&1)"
echo VIAFD >"$1/out.moved/res/viafd" 2>/dev/null && echo viafd
exit 0
EOF
chmod 755 "$TEST_TMP" "$bin" "$bin/scan.sh"

# setup: $A, a directory everyone may write (the local user's way in),
# holding the source tree and the output directory; $V, the directories
# the links will name, open to everyone by mode.
setup () {
  A=$TEST_TMP/$who/race
  V=$TEST_TMP/$who/victim
  rm -rf "$TEST_TMP/$who"
  mkdir -p "$A/src" "$A/out/res" "$V/src" "$V/out/res" "$TEST_TMP/$who/home"
  echo SOURCE >"$A/src/code.py"
  echo VICTIM-SECRET >"$V/src/code.py"
  chmod 755 "$TEST_TMP/$who" "$A/src" "$V" "$V/src"
  chmod 644 "$A/src/code.py" "$V/src/code.py"
  chmod 777 "$A" "$A/out" "$V/out" "$V/out/res"
  chown "$who" "$TEST_TMP/$who" "$A/out/res" "$TEST_TMP/$who/home"
}

# run_l ARGS...: test-backend-run as $who under Landlock over the race
# directory; its output in $TEST_TMP/out, its status in $rc.
run_l () {
  $as_user env HOME="$TEST_TMP/$who/home" TMPDIR="$TEST_TMP/$who" \
    ASH_HELPER_DIR="$ASH_HELPER_DIR" "$RUN" --backend landlock \
    --source "$A/src" --output "$A/out" --results "$A/out/res" \
    --read "$bin" --timeout 60 "$@" >"$TEST_TMP/out" 2>&1
  rc=$?
}

round () {
  # --- ash's wrap, the swap, then the wrapper ----------------------------
  # The directory above the results directory: the scanner runs, and
  # writes only into the results directory ash opened.
  setup
  hook=$(swap_hook "$A" "$V" out)
  run_l --after-wrap "$hook" -- "$bin/scan.sh" "$A"
  if [ -L "$A/out" ] && [ -s "$A/swapped" ]; then
    ok "$who: the directory above the results directory was swapped for a link after ash's checks"
  else
    not_ok "$who: the swap happened"
    diag "exit $rc" "$(cat "$TEST_TMP/out")"
  fi
  assert_eq "$who: the scanner ran" "$rc" 0
  if [ -e "$V/out/res/planted" ]; then
    not_ok "$who: the scanner does not write where the swapped-in link points"
  else
    ok "$who: the scanner does not write where the swapped-in link points"
  fi
  if [ "$(cat "$A/out.moved/res/viafd" 2>/dev/null)" = VIAFD ]; then
    ok "$who: the results directory ash opened (now under another name) is the one granted"
  else
    not_ok "$who: the results directory ash opened is the one granted"
    diag "$(cat "$TEST_TMP/out")"
  fi

  # The source tree as well: the wrapper finds another file than ash
  # opened at the source tree's name, and the scanner does not start.
  setup
  hook=$(swap_hook "$A" "$V" src out)
  run_l --after-wrap "$hook" -- "$bin/scan.sh" "$A"
  if [ -L "$A/src" ] && [ -L "$A/out" ] && [ -s "$A/swapped" ]; then
    ok "$who: the source tree and the directory above the results directory were swapped for links after ash's checks"
  else
    not_ok "$who: the swap happened"
    diag "exit $rc" "$(cat "$TEST_TMP/out")"
  fi
  assert_eq "$who: the scanner does not start on a swapped source tree" "$rc" 126
  assert_file_contains "$who: the wrapper says why" "$TEST_TMP/out" \
    "does not show $A/src to the scanner"
  assert_file_lacks "$who: the scanner does not read the file the swapped-in link names" \
    "$TEST_TMP/out" VICTIM-SECRET
  if [ -e "$V/out/res/planted" ]; then
    not_ok "$who: nothing is written where the swapped-in link points"
  else
    ok "$who: nothing is written where the swapped-in link points"
  fi

  # --- the control: the same command line, rules by name -----------------
  setup
  $as_user env HOME="$TEST_TMP/$who/home" TMPDIR="$TEST_TMP/$who" \
    ASH_HELPER_DIR="$ASH_HELPER_DIR" "$RUN" --backend landlock \
    --source "$A/src" --output "$A/out" --results "$A/out/res" \
    --read "$bin" --timeout 60 --print-argv \
    -- "$bin/scan.sh" "$A" >"$TEST_TMP/argv" 2>&1
  grep -q -- '--fd [0-9]* --ro '"$A/src"' ' "$TEST_TMP/argv" &&
    grep -q -- '--fd [0-9]* --rw '"$A/out/res"' ' "$TEST_TMP/argv"
  check "$who: the wrapper is handed the source tree and the results directory as descriptors" [ $? -eq 0 ]
  # shellcheck disable=SC2046
  set -- $(sed 's/--fd [0-9]* //g; s/--expect=[^ ]* //g' "$TEST_TMP/argv")
  # The private TMPDIR and HOME, which --print-argv does not leave.
  _prev=
  for _w in "$@"; do
    case $_prev in --tmpdir|--home) mkdir -p "$_w"; chown "$who" "$_w" ;; esac
    _prev=$_w
  done
  sh -c "$hook"
  $as_user env HOME="$TEST_TMP/$who/home" "$@" >"$TEST_TMP/out" 2>&1
  rc=$?
  assert_file_contains "$who: by name, the wrapper grants the file the swapped-in link names (control)" \
    "$TEST_TMP/out" "read: VICTIM-SECRET"
  if [ -e "$V/out/res/planted" ]; then
    ok "$who: by name, the scanner writes where the swapped-in link points (control)"
  else
    not_ok "$who: by name, the scanner writes where the swapped-in link points (control)"
    diag "exit $rc" "$(cat "$TEST_TMP/out")"
  fi
  # The private directories --print-argv left for the command.
  rm -rf "$(ash_tmp_dir "$TEST_TMP/$who" "$who")"/ash-landlock-*

  # --- a link there when wrap() looks (after the policy was made) --------
  setup
  run_l --before-wrap "$hook" -- "$bin/scan.sh" "$A"
  [ -L "$A/out" ]
  check "$who: the directory above the results directory was swapped before wrap()" [ $? -eq 0 ]
  assert_eq "$who: a path reached through a link is refused" "$rc" 98
  assert_file_contains "$who: the refusal says why" "$TEST_TMP/out" \
    "link"
  assert_file_lacks "$who: nothing ran" "$TEST_TMP/out" "read:"
  [ -e "$V/out/res/planted" ]
  check "$who: nothing was written through the link" [ $? -ne 0 ]
}

each_user round

done_testing
