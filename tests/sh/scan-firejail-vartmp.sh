#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A whole scan of a source tree under /var/tmp, which firejail replaces
# with an empty tmpfs: bandit must be ERROR (or MISSING) with the reason,
# never PASSED with 0 findings.  The control: the same tree outside
# /var/tmp, scanned the same way, has findings.  As root the scan runs
# again as the unprivileged account.
. "$top_srcdir/tests/libtest.sh"

command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
[ -d /var/tmp ] && [ -w /var/tmp ] || skip_all "/var/tmp is not writable"
"$ASH" sandbox probe 2>/dev/null | grep -q "^firejail: usable" ||
  skip_all "firejail is not usable here"

status_of () { # OUT
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"]["bandit"]
print(r["status"], r.get("finding_count", 0), r.get("error_reason") or r.get("missing_reason") or "")' "$1"
}

# round WHO PREFIX...: the control tree, then the tree under /var/tmp.
round () {
  _who=$1
  shift
  for base in "$ctl" /var/tmp; do
    t=$(mktemp -d "$base/ash-vartmp.XXXXXX")
    chmod 755 "$t"
    cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$t/src"
    mkdir -p "$t/home"
    [ "$_who" = "$(id -un)" ] || chown -R "$_who" "$t"
    "$@" env -i $scanner_user_env PATH=/usr/bin:/bin HOME="$t/home" LANG=C.UTF-8 \
      ASH_HELPER_DIR="$ASH_HELPER_DIR" "$ASH" scan --source-dir "$t/src" \
      --output-dir "$t/out" --no-progress --sandbox firejail \
      --scanners bandit >"$TEST_TMP/out" 2>"$TEST_TMP/err"
    rc=$?
    st=$(status_of "$t/out" 2>/dev/null)
    if [ "$base" = /var/tmp ]; then
      case $st in
        "ERROR "*"does not show"*|"MISSING "*) ok "$_who: under /var/tmp bandit is not PASSED: $st" ;;
        *) not_ok "$_who: under /var/tmp bandit is ERROR or MISSING with the reason"; diag "$st" "$(cat "$TEST_TMP/err")" ;;
      esac
      check "$_who: under /var/tmp the scan exits 1" [ "$rc" = 1 ]
    else
      case $st in
        "FAILED "*) n=${st#FAILED }; n=${n%% *}
                    check "$_who: control: the same tree elsewhere has findings ($n)" test "$n" -gt 0 ;;
        *) not_ok "$_who: control: the same tree elsewhere has findings"; diag "$st" "$(cat "$TEST_TMP/err")" ;;
      esac
    fi
    rm -rf "$t"
  done
}

if [ "$(id -u)" = 0 ] && [ -d /var/lib ]; then
  ctl=$(mktemp -d /var/lib/ash-vartmp-ctl.XXXXXX)
else
  ctl=$(mktemp -d "$(cd "$top_builddir" && pwd)/tests/ash-vartmp-ctl.XXXXXX")
fi
chmod 755 "$ctl"
trap 'rm -rf "$ctl" "$TEST_TMP"' EXIT
round "$(id -un)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  u=$(unpriv_user)
  # shellcheck disable=SC2046
  round "$u" $(as_unpriv_cmd "$u")
fi
done_testing
