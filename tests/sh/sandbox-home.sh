#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The HOME a sandboxed scanner gets, under every usable backend: a
# directory of the scanner's own user (as root, the scanner account),
# which it can write, and never the operator's real home: a file there
# that the scanner's user could read by its modes (the canary) cannot be
# read.  A cache declared under the operator's home stays readable through
# HOME where the backend gives the scanner a home of its own (Landlock, and
# firejail run as root), and the private home is gone after the scan.
# The control: with --sandbox off the same scanner reads the canary, and
# as root the scanner account reads it outside any sandbox.  As root the
# round runs again as the unprivileged operator.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"

# setup DIR: the round's tree in DIR: the operator's home (the canary,
# and a cache declared under it), a source directory, the probe scanner
# and its module.
setup () {
  t=$1
  mkdir -p "$t/home/.probe-cache" "$t/src" "$t/tools"
  echo "CANARY-$who" >"$t/home/canary"
  echo "CACHE-$who" >"$t/home/.probe-cache/entry"
  echo 'print(1)' >"$t/src/main.py"
  cp "$top_srcdir/tests/fixtures/tools/fake-home-probe-tool" "$t/tools/"
  cat >"$t/home-probe.yaml" <<YAML
scanners:
  home-probe:
    tool: fake-home-probe-tool
    args: ["{results_dir}", "$t/home/canary", ".probe-cache/entry"]
    output: { format: sarif, path: "{results_dir}/home-probe.sarif" }
    sandbox_requirements: { cache_paths: ["~/.probe-cache"] }
YAML
  chmod -R a+rX "$t"
  [ "$who" = "$(id -un)" ] || chown -R "$who" "$t"
}

# scan MODE: the probe's report of a scan under MODE in $t/report-MODE.
scan () {
  # shellcheck disable=SC2086
  $as_user env -i $scanner_user_env PATH="$t/tools:/usr/bin:/bin" \
    HOME="$t/home" LANG=C.UTF-8 ASH_HELPER_DIR="$ASH_HELPER_DIR" \
    "$ASH" scan --source-dir "$t/src" --output-dir "$t/out-$1" --no-progress \
    --sandbox "$1" --ash-plugin-modules "$t/home-probe.yaml" \
    --scanners home-probe >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  cp "$t/out-$1/scanners/home-probe/source/home.txt" "$t/report-$1" 2>/dev/null ||
    : >"$t/report-$1"
}

# value MODE KEY: the probe's KEY in its report under MODE.
value () {
  sed -n "s/^$2=//p" "$t/report-$1"
}

# one WHERE: the scans of the tree in $t; WHERE names the place of the
# operator's home.
one () {
  where=$1
  scan off
  assert_eq "off/$who, home $where: the control reads the canary in the operator's home" \
    "$(value off canary)" "CANARY-$who"
  if [ "$(id -u)" = 0 ] && [ -z "$as_user" ]; then
    # The canary is hidden by the sandbox, not by its modes.
    # shellcheck disable=SC2046
    check "$who, home $where: the scanner account reads the canary outside a sandbox (control)" \
      $(as_unpriv_cmd "$ASH_SCANNER_USER") grep -q CANARY "$t/home/canary"
  fi

  for b in $usable; do
    scan "$b"
    d="$b/$who, home $where"
    if [ ! -s "$t/report-$b" ]; then
      not_ok "$d: the probe scanner ran"
      diag "$(tail -n 5 "$TEST_TMP/err")"
      continue
    fi
    h=$(value "$b" HOME)
    assert_eq "$d: the scanner runs as uid $sid" "$(value "$b" uid)" "$sid"
    assert_eq "$d: its HOME ($h) belongs to it" "$(value "$b" owner)" "$sid"
    assert_eq "$d: it can write its HOME" "$(value "$b" writable)" yes
    assert_eq "$d: it cannot read the canary in the operator's home" \
      "$(value "$b" canary)" unreadable
    if [ "$b" = firejail ] && [ "$where" = elsewhere ]; then
      # The policy hides such a HOME whole from firejail, which cannot
      # show what is inside it again.
      ok "# SKIP $d: firejail hides a HOME outside /tmp other than the passwd entry's, with its caches"
    else
      assert_eq "$d: the declared cache is read through HOME" \
        "$(value "$b" cache)" "CACHE-$who"
    fi
    case $b:$h in
      landlock:"$(ash_tmp_dir /tmp "$who")"/ash-landlock-*|firejail:/tmp/ash-firejail-*)
        check_fails "$d: the private home is removed after the scan" test -e "$h"
        ;;
      landlock:*)
        not_ok "$d: the private home is in ASH's own directory in /tmp ($h)" ;;
    esac
  done
}

round () {
  if [ "$(id -u)" = 0 ] && [ -z "$as_user" ]; then
    sid=$(id -u "$ASH_SCANNER_USER")
  else
    sid=$(id -u "$who")
  fi
  usable=
  for b in bwrap landlock firejail; do
    # shellcheck disable=SC2086
    if $as_user env -i $scanner_user_env PATH=/usr/bin:/bin \
         ASH_HELPER_DIR="$ASH_HELPER_DIR" "$ASH" sandbox probe 2>/dev/null |
         grep -q "^$b: usable"; then
      usable="$usable $b"
    else
      ok "# SKIP $b is not usable to $who"
    fi
  done
  setup "$base/$who"
  one elsewhere
  setup "$TEST_TMP/$who"
  one "in /tmp"
}

# Outside /tmp, which firejail makes private, and outside /var/lib, from
# which firejail 0.9.72 runs no program.
base=$(mktemp -d "$(cd "$top_builddir" && pwd)/tests/ash-home.XXXXXX")
chmod 755 "$base"
trap 'rm -rf "$base" "$TEST_TMP"' EXIT
each_user round
done_testing
