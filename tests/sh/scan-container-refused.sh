#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --mode container is refused (exit 3) until ash can run a scan in a
# container: it never falls back to a scan on the host, which with
# --sandbox off would run every scanner unconfined over an untrusted tree.
# --sandbox with a mode other than off is still the usage error (exit 5)
# that the spec ranks first.

. "$top_srcdir/tests/libtest.sh"

src=$TEST_TMP/src
out=$TEST_TMP/out-dir
tools=$TEST_TMP/tools
mkdir -p "$src" "$tools"
printf 'import pickle\n' >"$src/a.py"
# A bandit that records that it ran.
cat >"$tools/bandit" <<EOS
#!/bin/sh
echo ran >>"$TEST_TMP/bandit-ran"
exit 0
EOS
chmod +x "$tools/bandit"

for how in "--mode container" "ASH_MODE=container"; do
  rm -rf "$out" "$TEST_TMP/bandit-ran"
  case $how in
    --mode*) PATH=$tools:/usr/bin:/bin "$ASH" scan --source-dir "$src" \
      --output-dir "$out" --no-progress --scanners bandit --sandbox off \
      --mode container >"$TEST_TMP/out" 2>"$TEST_TMP/err" ;;
    *) ASH_MODE=container PATH=$tools:/usr/bin:/bin "$ASH" scan \
      --source-dir "$src" --output-dir "$out" --no-progress \
      --scanners bandit --sandbox off >"$TEST_TMP/out" 2>"$TEST_TMP/err" ;;
  esac
  assert_eq "$how --sandbox off: exit 3" "$?" 3
  assert_file_contains "$how: the reason is given" "$TEST_TMP/err" \
    "--mode container cannot run: this ash cannot start a scan in a container image yet, and it never scans on the host instead"
  check "$how: no scanner ran on the host" test ! -e "$TEST_TMP/bandit-ran"
  check "$how: nothing was written" test ! -e "$out"
done

PATH=$tools:/usr/bin:/bin "$ASH" scan --source-dir "$src" \
  --output-dir "$out" --no-progress --scanners bandit --sandbox bwrap \
  --mode container >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "--sandbox bwrap with --mode container stays a usage error (exit 5)" "$?" 5
check "and nothing ran" test ! -e "$TEST_TMP/bandit-ran"

# The control: the same command in local mode runs the scanner.
PATH=$tools:/usr/bin:/bin "$ASH" scan --source-dir "$src" \
  --output-dir "$out" --no-progress --scanners bandit --sandbox off \
  --mode local >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "control: --mode local runs the scanner" test -s "$TEST_TMP/bandit-ran"

done_testing
