#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A scanner's private TMPDIR under Landlock (a directory on the host, made
# for each spawn in ash's TMPDIR) is removed after the scan, whatever the
# scanner left there: a tree 307 levels deep (past the 256 levels where a
# cleanup that recurses would stop), a directory of mode 000 at level 300,
# and a link to the scanner's results directory, which must not be
# followed.  As root, and as an unprivileged account, for which the mode
# really denies.  The control: without a sandbox the scanner writes the
# same tree into ash's own TMPDIR, where it stays.  (Under bwrap and
# firejail the private /tmp is a tmpfs that goes with the sandbox.)
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" sandbox probe 2>/dev/null | grep -q "^landlock: usable" ||
  skip_all "Landlock is not usable here"

# run_as WHO: the whole check, as WHO (the empty prefix: whoever runs it).
run_as () {
  _who=$1 _as=$2
  w=$TEST_TMP/$_who
  ud=$(ash_tmp_dir "$w/tmp" "$_who")
  mkdir -p "$w/src" "$w/bin" "$w/tools" "$w/tmp" "$w/home"
  printf 'x\n' >"$w/src/a.txt"
  cp "$top_srcdir/tests/fixtures/tools/fake-hog-tool" "$w/tools/"
  cp "$top_srcdir/tests/fixtures/plugins/hog-scanners.yaml" "$w/hog.yaml"
  cp "$ASH" "$w/bin/ash"
  for h in "$(dirname "$ASH")"/ash-landlock-exec; do
    [ -x "$h" ] && cp "$h" "$w/bin/"
  done
  [ -n "$_as" ] && chown -R "$_who" "$w"
  chmod 755 "$TEST_TMP" "$w"
  for mode in landlock off; do
    env -i PATH="$w/tools:/usr/bin:/bin" HOME="$w/home" TMPDIR="$w/tmp" \
      LANG=C.UTF-8 $_as "$w/bin/ash" scan --source-dir "$w/src" \
      --output-dir "$w/out-$mode" --no-progress --sandbox "$mode" \
      --ash-plugin-modules "$w/hog.yaml" --scanners hog-deeptmp \
      >"$TEST_TMP/out" 2>"$TEST_TMP/err"
    st=$?
    log=$w/out-$mode/scanners/hog-deeptmp/source/hog-deeptmp.stdout.log
    used=$(sed -n 's/^TMPDIR //p' "$log" 2>/dev/null)
    if [ "$mode" = landlock ]; then
      assert_eq "$_who: landlock: the scan passes (0)" "$st" 0
      case $used in
        "$ud/ash-landlock-"*) ok "$_who: landlock: the tree was made in the private TMPDIR ($used)" ;;
        *) not_ok "$_who: landlock: the tree was made in the private TMPDIR"
           diag "TMPDIR '$used'" "$(cat "$TEST_TMP/err")" ;;
      esac
      check_fails "$_who: landlock: the private TMPDIR is removed, deep tree and mode 000 included" \
        test -e "${used%/*}"
      check_fails "$_who: landlock: nothing is left in ash's own directory in TMPDIR ($(ls -A "$ud" | tr '\n' ' '))" \
        sh -c "ls -A '$ud' | grep -q ."
      assert_eq "$_who: landlock: TMPDIR holds that directory alone" \
        "$(ls -A "$w/tmp" | tr '\n' ' ')" "$(basename "$ud") "
      check "$_who: landlock: the link was not followed" \
        test -e "$w/out-landlock/scanners/hog-deeptmp/source/keep"
    else
      check "$_who: control: without a sandbox the tree stays in ash's TMPDIR" \
        test -d "$w/tmp/deep-tree/d/d/d"
      chmod -R u+rwx "$w/tmp" 2>/dev/null
      rm -rf "$w/tmp/deep-tree"
    fi
  done
}

run_as "$(id -un)" ""
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  user=$(unpriv_user)
  as=$(as_unpriv_cmd "$user")
  if env -i PATH=/usr/bin:/bin $as "$ASH" sandbox probe 2>/dev/null |
       grep -q "^landlock: usable"; then
    run_as "$user" "$as"
  else
    ok "as $user # SKIP Landlock is not usable for $user"
  fi
fi
chmod -R u+rwx "$TEST_TMP" 2>/dev/null
done_testing
