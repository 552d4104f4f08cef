#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The results directory under bwrap and firejail, raced: a local user who
# can write the directory above it swaps that directory for a link to a
# directory of their choice between ash's checks (wrap()) and the
# backend's mounts (test-backend-run --after-wrap makes the swap at that
# point).  bwrap binds the descriptor ash opened, so the scanner writes
# into the directory ash checked; firejail mounts by name, and the wrapper
# inside finds another directory than ash saw at that name and does not
# start the scanner.  Either way nothing is written where the link points
# (a directory open to everyone, so only the sandbox can refuse).  The
# control, for firejail: the same command line without the wrapper's
# check of the results directory starts the scanner.  As root (the
# scanner then runs as the scanner account) and as the unprivileged
# account.
. "$top_srcdir/tests/libtest.sh"

RUN=$top_builddir/tests/unit/test-backend-run
[ -x "$RUN" ] || bail "$RUN is not built"

bin=$TEST_TMP/bin
mkdir -p "$bin"
cat >"$bin/scan.sh" <<'EOF'
#!/bin/sh
echo started
echo PLANT >"$1/out/res/planted" 2>/dev/null && echo planted
echo VIAFD >"$1/out.moved/res/viafd" 2>/dev/null && echo viafd
exit 0
EOF
chmod 755 "$TEST_TMP" "$bin" "$bin/scan.sh"

setup () {
  A=$TEST_TMP/$who/race
  V=$TEST_TMP/$who/victim
  rm -rf "$TEST_TMP/$who"
  mkdir -p "$A/src" "$A/out/res" "$V/out/res" "$TEST_TMP/$who/home"
  echo SOURCE >"$A/src/code.py"
  chmod 755 "$TEST_TMP/$who" "$A/src" "$V"
  chmod 777 "$A" "$A/out" "$V/out" "$V/out/res"
  chown "$who" "$TEST_TMP/$who" "$A/out/res" "$TEST_TMP/$who/home"
  hook=$(swap_hook "$A" "$V" out)
}

# run_b ARGS...: test-backend-run as $who under $B.
run_b () {
  $as_user env HOME="$TEST_TMP/$who/home" TMPDIR="$TEST_TMP/$who" \
    ASH_HELPER_DIR="$ASH_HELPER_DIR" "$RUN" --backend "$B" \
    --source "$A/src" --output "$A/out" --results "$A/out/res" \
    --read "$bin" --timeout 60 "$@" >"$TEST_TMP/out" 2>&1
  rc=$?
}

round () {
  for B in bwrap firejail; do
    why=$($as_user "$RUN" --backend "$B" --results /tmp --probe-only -- /bin/true)
    if [ $? -ne 0 ]; then
      ok "# SKIP $B is not usable to $who: $why"
      continue
    fi
    setup
    run_b --after-wrap "$hook" -- "$bin/scan.sh" "$A"
    if [ -L "$A/out" ] && [ -s "$A/swapped" ]; then
      ok "$B/$who: the directory above the results directory was swapped for a link after ash's checks"
    else
      not_ok "$B/$who: the swap happened"
      diag "exit $rc" "$(cat "$TEST_TMP/out")"
    fi
    if [ -e "$V/out/res/planted" ]; then
      not_ok "$B/$who: nothing is written where the swapped-in link points"
    else
      ok "$B/$who: nothing is written where the swapped-in link points"
    fi
    if [ "$rc" -eq 126 ] && grep -q "does not show $A/out/res to the scanner" "$TEST_TMP/out"; then
      ok "$B/$who: the wrapper finds another directory at the results directory's name and does not start the scanner"
    elif [ "$rc" -eq 0 ] && [ "$(cat "$A/out.moved/res/planted" 2>/dev/null)" = PLANT ]; then
      ok "$B/$who: the scanner writes into the results directory ash opened (now under another name on the host)"
    else
      not_ok "$B/$who: the scanner neither writes into the directory ash opened nor is stopped"
      diag "exit $rc" "$(cat "$TEST_TMP/out")"
    fi

    [ "$B" = firejail ] || continue
    # The control: the same command line without the check of the results
    # directory starts the scanner on the swapped-in name.
    setup
    run_b --print-argv -- "$bin/scan.sh" "$A"
    # shellcheck disable=SC2046
    set -- $(sed "s|--expect=$A/out/res=[0-9:]* ||" "$TEST_TMP/out")
    sh -c "$hook"
    $as_user env HOME="$TEST_TMP/$who/home" "$@" >"$TEST_TMP/out" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^started$' "$TEST_TMP/out"; then
      ok "$B/$who: without the check, the scanner starts on the swapped-in name (control)"
    else
      not_ok "$B/$who: without the check, the scanner starts on the swapped-in name (control)"
      diag "exit $rc" "$(cat "$TEST_TMP/out")"
    fi
  done
}

each_user round

done_testing
