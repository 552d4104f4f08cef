#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ASH's own directory in TMPDIR (TMPDIR/ash-UID), where the run
# directories and the Landlock backend's private directories go, so that
# their stale ones are found without reading TMPDIR: made 0700 (0711 as
# root, whose scanner account must reach its directories there), and never
# used when anything else holds the name.  The attacks, by another local
# user who can write TMPDIR (as /tmp is): a directory of another account
# at the name, a link to a directory of ours elsewhere, a file, and a
# directory of ours that others can write.  Each is refused with a warning
# and the scan makes its directories directly in TMPDIR, as private as
# ever; nothing is made in or through what was planted.  The controls: a
# clean TMPDIR gets the directory, and one of ours with a looser mode
# (0755) is taken and given the right one.  As root, and again as the
# unprivileged account.
. "$top_srcdir/tests/libtest.sh"

bin=$TEST_TMP/bin
mkdir -p "$bin"
# A bandit that says where its --ini is.
cp "$top_srcdir/tests/fixtures/tools/fake-bandit-ini" "$bin/bandit"
# A plugin scanner that says what TMPDIR it was given.
cat >"$bin/where.sh" <<'EOF'
#!/bin/sh
printf '%s\n' "$TMPDIR" >"$1/tmpdir"
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"where"}},"results":[]}]}' >"$1/none.sarif"
exit 0
EOF
chmod 755 "$TEST_TMP" "$bin" "$bin/bandit" "$bin/where.sh"
printf 'scanners:\n  where:\n    tool: %s\n    args: ["{results_dir}"]\n    output: { format: sarif, path: "{results_dir}/none.sarif" }\n' \
  "$bin/where.sh" >"$bin/where.yaml"
chmod 644 "$bin/where.yaml"
landlock=
"$ASH" sandbox probe 2>/dev/null | grep -q '^landlock: usable' && landlock=1

# scan NAME: a sandbox-off bandit scan as $who with TMPDIR=$w/tmp; its
# --ini in $ini, its exit status in $rc.
scan () {
  # shellcheck disable=SC2086
  $as_user env -i PATH="$bin:/usr/bin:/bin" HOME="$w/home" TMPDIR="$w/tmp" \
    LANG=C.UTF-8 "$ASH" scan --source-dir "$w/src" --output-dir "$w/out-$1" \
    --no-progress --sandbox off --scanners bandit >"$TEST_TMP/out" 2>&1
  rc=$?
  ini=$(sed -n 's/^ini=//p' "$w/out-$1/scanners/bandit/source/bandit.stdout.log" 2>/dev/null)
}

# landlock_scan NAME: the same with the plugin scanner under Landlock; the
# TMPDIR it got in $got.
landlock_scan () {
  # shellcheck disable=SC2086
  $as_user env -i PATH=/usr/bin:/bin HOME="$w/home" TMPDIR="$w/tmp" \
    LANG=C.UTF-8 $scanner_user_env ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$ASH" scan --source-dir "$w/src" --output-dir "$w/out-$1" \
    --no-progress --sandbox landlock --ash-plugin-modules "$bin/where.yaml" \
    --scanners where >"$TEST_TMP/out" 2>&1
  rc=$?
  got=$(cat "$w/out-$1/scanners/where/source/tmpdir" 2>/dev/null)
}

# fresh: an empty TMPDIR, and the rest of the tree, for $who.
fresh () {
  w=$TEST_TMP/$who
  [ -d "$w" ] && { chmod -R u+rwx "$w" 2>/dev/null; rm -rf "$w"; }
  mkdir -p "$w/src" "$w/tmp" "$w/home" "$w/elsewhere"
  echo 'x = 1' >"$w/src/a.py"
  chmod 755 "$w" "$w/src"
  chmod 1777 "$w/tmp"
  [ -n "$as_user" ] && chown "$who" "$w" "$w/home" "$w/elsewhere"
  own=$(ash_tmp_dir "$w/tmp" "$who")
}

# warned NAME: the warning is in the log of the scan NAME (which must
# have one).
warned () {
  test -s "$w/out-$1/ash.log" &&
    grep -q "is not a directory of this account's own that no other account can write" \
      "$w/out-$1/ash.log"
}

round () {
  uid=$(id -u "$who")
  [ "$uid" = 0 ] && want=711 || want=700

  # --- the control: a clean TMPDIR gets ASH's own directory --------------
  fresh
  scan clean
  assert_eq "$who: clean: the scan passes" "$rc" 0
  case $ini in
    "$own"/ash-bandit-*) ok "$who: clean: the run directory is in $own" ;;
    *) not_ok "$who: clean: the run directory is in $own"
       diag "ini '$ini'" "$(cat "$TEST_TMP/out")" ;;
  esac
  assert_eq "$who: clean: it is $who's, mode $want" \
    "$(stat -c '%u %a' "$own" 2>/dev/null)" "$uid $want"
  assert_eq "$who: clean: TMPDIR holds it alone afterwards" "$(ls -A "$w/tmp")" \
    "$(basename "$own")"
  check "$who: clean: the scan has a log" test -s "$w/out-clean/ash.log"
  check_fails "$who: clean: no warning in it" warned clean
  if [ -n "$landlock" ]; then
    landlock_scan clean-landlock
    assert_eq "$who: clean: a Landlock scan passes" "$rc" 0
    case $got in
      "$own"/ash-landlock-*/tmp) ok "$who: clean: the Landlock TMPDIR is in $own" ;;
      *) not_ok "$who: clean: the Landlock TMPDIR is in $own"
         diag "TMPDIR '$got'" "$(cat "$TEST_TMP/out")" ;;
    esac
  fi

  # --- one of ours with a looser mode: taken, and its mode set -------------
  fresh
  mkdir "$own"
  chmod 755 "$own"
  [ -n "$as_user" ] && chown "$who" "$own"
  scan loose
  case $ini in
    "$own"/ash-bandit-*) ok "$who: 0755: the directory is used" ;;
    *) not_ok "$who: 0755: the directory is used"; diag "ini '$ini'" ;;
  esac
  assert_eq "$who: 0755: and made $want" "$(stat -c %a "$own")" "$want"

  # --- the attacks -----------------------------------------------------------
  for attack in other link file writable; do
    fresh
    case $attack in
      other)
        # Another account's directory: as root, the unprivileged
        # account's (or root's, when the scan runs as that account).
        [ "$(id -u)" = 0 ] || { ok "# SKIP $who: other: only root can make another account's directory"; continue; }
        mkdir "$own"
        if [ -n "$as_user" ]; then chown 0:0 "$own"; else chown "$(unpriv_user)" "$own"; fi
        chmod 755 "$own"
        ;;
      link)
        ln -s "$w/elsewhere" "$own"
        [ -n "$as_user" ] && chown -h "$who" "$own"
        ;;
      file)
        : >"$own"
        [ -n "$as_user" ] && chown "$who" "$own"
        ;;
      writable)
        mkdir "$own"
        chmod 777 "$own"
        [ -n "$as_user" ] && chown "$who" "$own"
        ;;
    esac
    before=$(ls -la "$own" 2>/dev/null; ls -A "$w/elsewhere")
    scan "$attack"
    assert_eq "$who: $attack: the scan still passes" "$rc" 0
    case $ini in
      "$w/tmp"/ash-bandit-*) ok "$who: $attack: the run directory is made directly in TMPDIR" ;;
      *) not_ok "$who: $attack: the run directory is made directly in TMPDIR"
         diag "ini '$ini'" "$(cat "$TEST_TMP/out")" ;;
    esac
    check "$who: $attack: with the warning" warned "$attack"
    assert_eq "$who: $attack: what was planted is as it was, nothing made in or through it" \
      "$(ls -la "$own" 2>/dev/null; ls -A "$w/elsewhere")" "$before"
    assert_eq "$who: $attack: nothing is left in TMPDIR but what was planted" \
      "$(ls -A "$w/tmp")" "$(basename "$own")"
    if [ -n "$landlock" ]; then
      landlock_scan "$attack-landlock"
      assert_eq "$who: $attack: a Landlock scan still passes" "$rc" 0
      case $got in
        "$w/tmp"/ash-landlock-*/tmp) ok "$who: $attack: its TMPDIR is made directly in TMPDIR" ;;
        *) not_ok "$who: $attack: its TMPDIR is made directly in TMPDIR"
           diag "TMPDIR '$got'" "$(cat "$TEST_TMP/out")" ;;
      esac
      assert_eq "$who: $attack: Landlock made nothing in or through what was planted" \
        "$(ls -la "$own" 2>/dev/null; ls -A "$w/elsewhere")" "$before"
    fi
  done
}

each_user round
done_testing
