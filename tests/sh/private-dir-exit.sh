#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The private directories of a Landlock spawn (its TMPDIR and HOME on the
# host) are removed on a thread of their own after the spawn, and that
# removal is complete before the process exits, on every way out:
#   - test-backend-run, which runs one wrapped command and returns from
#     main without waiting for anything (the exit handler waits);
#   - a scan that ends normally;
#   - a scan ended by SIGTERM while its scanner runs (exit 143);
#   - a scan whose sandboxed scanner fails (its shell finds no script).
# Each scanner leaves 3,000 files and a tree in its private TMPDIR and
# HOME, so that the removal takes much longer than the exit: without the
# wait at exit, the directories would still be there.  The stale
# directory of a killed run (a dead pid in its name) is removed by the
# next run, in the background too, before it exits.  As root, and again
# as the unprivileged account.
. "$top_srcdir/tests/libtest.sh"

require_backend_run landlock

bin=$TEST_TMP/bin
mkdir -p "$bin"
# fill.sh RESULTS [hang]: write 3,000 files and a tree into $TMPDIR and
# $HOME, say where in RESULTS/dirs, and with "hang" wait to be killed.
cat >"$bin/fill.sh" <<'EOF'
#!/bin/sh
for d in "$TMPDIR" "$HOME"; do
  mkdir -p "$d/a/b/c/d" || exit 1
  i=0
  while [ $i -lt 1500 ]; do
    : >"$d/f$i" && : >"$d/a/b/c/d/g$i" || exit 1
    i=$((i + 1))
  done
done
printf '%s\n%s\n' "$TMPDIR" "$HOME" >"$1/dirs"
[ "$2" = hang ] && { echo started >"$1/started"; sleep 60; }
exit 0
EOF
chmod 755 "$TEST_TMP" "$bin" "$bin/fill.sh"
printf 'scanners:\n  fill:\n    tool: %s\n    args: ["{results_dir}"]\n    output: { format: sarif, path: "{results_dir}/none.sarif" }\n  fill-hang:\n    tool: %s\n    args: ["{results_dir}", "hang"]\n    output: { format: sarif, path: "{results_dir}/none.sarif" }\n  absent:\n    tool: /bin/sh\n    args: ["%s/no-such-script"]\n    output: { format: sarif, path: "{results_dir}/none.sarif" }\n' \
  "$bin/fill.sh" "$bin/fill.sh" "$bin" >"$bin/fill.yaml"
chmod 644 "$bin/fill.yaml"

# left: every ash-landlock-* directory in ASH's own directory in $w/tmp
# ($ud), and any directly in $w/tmp, on one line.
left () {
  ls -d "$ud"/ash-landlock-* "$w/tmp"/ash-landlock-* 2>/dev/null | tr '\n' ' '
}

# scan SCANNERS [BG]: a Landlock scan as $who of SCANNERS; with BG, in the
# background (its pid in $pid).
scan () {
  set -- env -i PATH=/usr/bin:/bin HOME="$w/home" TMPDIR="$w/tmp" \
    LANG=C.UTF-8 $scanner_user_env ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    $as_user "$ASH" scan --source-dir "$w/src" --output-dir "$w/out-$1" \
    --no-progress --sandbox landlock --ash-plugin-modules "$bin/fill.yaml" \
    --scanners "$1"
  if [ "${BG:-}" ]; then
    "$@" >"$TEST_TMP/out" 2>&1 &
    pid=$!
  else
    "$@" >"$TEST_TMP/out" 2>&1
    rc=$?
  fi
}

round () {
  w=$TEST_TMP/$who
  ud=$(ash_tmp_dir "$w/tmp" "$who")
  rm -rf "$w"
  mkdir -p "$w/src" "$w/tmp" "$w/home" "$w/res"
  echo x >"$w/src/a.txt"
  chmod 755 "$w" "$w/src"
  [ -n "$as_user" ] && chown "$who" "$w/tmp" "$w/home" "$w/res" "$w"

  # --- the exit handler: test-backend-run waits for nothing itself -------
  $as_user env HOME="$w/home" TMPDIR="$w/tmp" ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$RUN" --backend landlock --source "$w/src" --results "$w/res" \
    --read "$bin" --timeout 60 -- "$bin/fill.sh" "$w/res" >"$TEST_TMP/out" 2>&1
  assert_eq "$who: test-backend-run: the command ran (0)" "$?" 0
  case $(sed -n 1p "$w/res/dirs" 2>/dev/null) in
    "$ud/ash-landlock-"*) ok "$who: test-backend-run: the files went into the private TMPDIR" ;;
    *) not_ok "$who: test-backend-run: the files went into the private TMPDIR"
       diag "$(cat "$TEST_TMP/out")" ;;
  esac
  assert_eq "$who: test-backend-run: nothing is left once it has exited" "$(left)" ""

  # --- a scan that ends normally ------------------------------------------
  scan fill
  case $(sed -n 1p "$w/out-fill/scanners/fill/source/dirs" 2>/dev/null) in
    "$ud/ash-landlock-"*) ok "$who: scan: the scanner filled its private TMPDIR" ;;
    *) not_ok "$who: scan: the scanner filled its private TMPDIR"
       diag "exit $rc" "$(cat "$TEST_TMP/out")" ;;
  esac
  assert_eq "$who: scan: nothing is left once ash has exited" "$(left)" ""

  # --- a scan ended by SIGTERM --------------------------------------------
  BG=1 scan fill-hang
  n=0
  while [ ! -s "$w/out-fill-hang/scanners/fill-hang/source/started" ] && [ $n -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  check "$who: SIGTERM: the scanner was running" \
    test -s "$w/out-fill-hang/scanners/fill-hang/source/started"
  kill -s TERM "$pid"
  wait "$pid"
  assert_eq "$who: SIGTERM: ash exits 143" "$?" 143
  assert_eq "$who: SIGTERM: nothing is left once ash has exited" "$(left)" ""

  # --- a scanner that fails -------------------------------------------------
  scan absent
  check_fails "$who: a scanner that fails: the scan does not pass ($rc)" test "$rc" = 0
  assert_eq "$who: a scanner that fails: nothing is left once ash has exited" "$(left)" ""

  # --- a killed run's directory, removed by the next run --------------------
  sh -c 'exit 0' &
  dead=$!
  wait "$dead"
  mkdir -p "$ud/ash-landlock-$dead-XXXXXX/tmp/x/y"
  i=0
  while [ $i -lt 500 ]; do
    : >"$ud/ash-landlock-$dead-XXXXXX/tmp/x/y/f$i"
    i=$((i + 1))
  done
  chmod 700 "$ud/ash-landlock-$dead-XXXXXX"
  [ -n "$as_user" ] && chown -R "$who" "$ud/ash-landlock-$dead-XXXXXX"
  scan fill
  assert_eq "$who: a killed run's directory is removed by the next run, before it exits" \
    "$(left)" ""
}

each_user round
done_testing
