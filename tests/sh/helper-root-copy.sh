#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run as root, ash starts its helper (ash-landlock-exec: the Landlock
# wrapper and the socket filter every backend applies) as the scanner
# account.  From a build tree that account cannot reach (a checkout in
# root's home), the helper is used through a copy it can run, made for
# the run and removed after it: every backend still sandboxes, none is
# lost to "Permission denied".
. "$top_srcdir/tests/libtest.sh"

[ "$(id -u)" = 0 ] || skip_all "only ash run as root starts its helper as another account"
[ -n "${ASH_SCANNER_USER:-}" ] || skip_all "no scanner account"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"

priv=$TEST_TMP/priv
mkdir -p "$priv/bin"
chmod 700 "$priv"
cp "$ASH" "$top_builddir/linux/ash-landlock-exec" "$priv/bin/"
src=$TEST_TMP/src
cp -R "$top_srcdir/examples/vulnerable-app" "$src"
chmod -R a+rX "$src"

# The negative control: the scanner account cannot reach the helper
# where the build put it.
check_fails "control: the scanner account cannot run the helper in the private tree" \
  $(as_unpriv_cmd "$ASH_SCANNER_USER") test -x "$priv/bin/ash-landlock-exec"

count () {
  jq -r '.scanner_results.bandit.status + " " +
         (.scanner_results.bandit.finding_count | tostring)' \
    "$1/ash_aggregated_results.json" 2>/dev/null
}

"$priv/bin/ash" scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress \
  --scanners bandit --sandbox off >/dev/null 2>&1
want=$(count "$TEST_TMP/off")
check "off: bandit ran" sh -c "echo '$want' | grep -q '^FAILED '"
ls -d /run/ash-helper-* /tmp/ash-helper-* 2>/dev/null | sort >"$TEST_TMP/before"

"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
for b in bwrap landlock firejail; do
  if ! grep -q "^$b: usable" "$TEST_TMP/probe"; then
    ok "$b # SKIP $b is not usable here"
    continue
  fi
  "$priv/bin/ash" scan --source-dir "$src" --output-dir "$TEST_TMP/$b" --no-progress \
    --scanners bandit --sandbox "$b" >"$TEST_TMP/out" 2>&1
  assert_eq "$b: from the private tree, bandit runs sandboxed with the same result" \
    "$(count "$TEST_TMP/$b")" "$want"
done
ls -d /run/ash-helper-* /tmp/ash-helper-* 2>/dev/null | sort >"$TEST_TMP/after"
check "the copies are removed after the run" cmp -s "$TEST_TMP/before" "$TEST_TMP/after"
done_testing
