#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The disk: a scanner that fills the output directory's file system (a
# 4 MiB tmpfs mounted for the test) is ERROR, named as the one that filled
# it, and its results are removed, so that the other scanner's results,
# ash_aggregated_results.json and every report are still written.  A
# scanner whose results directory holds more than max_scanner_results in
# all (each file under max_scanner_output) is ERROR with the reason.  The control:
# on a file system with room and without the limit, the same scanner
# writes its files and PASSES.  Without a sandbox and under bwrap and
# Landlock where usable.  The tmpfs cases need root (mount).
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
tools=$TEST_TMP/bin
mkdir -p "$tools" "$TEST_TMP/src" "$TEST_TMP/home"
cp "$top_srcdir/tests/fixtures/tools/fake-hog-tool" \
   "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
cp "$top_srcdir/tests/fixtures/plugins/hog-scanners.yaml" "$TEST_TMP/hog.yaml"
cat "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" >>"$TEST_TMP/hog.yaml"
sed -i '/^scanners:$/d; 1i scanners:' "$TEST_TMP/hog.yaml"
printf 'FAKE-FINDING low\n' >"$TEST_TMP/src/a.txt"
chmod -R a+rX "$TEST_TMP"
printf 'global_settings:\n  max_scanner_results: 1048576\n' >"$TEST_TMP/capped.yaml"
printf 'global_settings:\n  max_scanner_results: 0\n' >"$TEST_TMP/uncapped.yaml"

# scan MODE OUTDIR CONFIG
scan () {
  env -i $scanner_user_env PATH="$tools:/usr/bin:/bin" HOME="$TEST_TMP/home" LANG=C.UTF-8 \
    "$ASH" scan --source-dir "$TEST_TMP/src" --output-dir "$2" \
    --no-progress --sandbox "$1" --strategy sequential \
    --ash-plugin-modules "$TEST_TMP/hog.yaml" --config "$3" \
    --scanners hog-fill,fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}
reason () { # OUTDIR SCANNER
  python3 -c "
import json
d = json.load(open('$1/ash_aggregated_results.json'))
s = d['scanner_results']['$2']
print(s['status'], s.get('error_reason', ''))"
}

modes=off
for b in bwrap landlock; do
  "$ASH" sandbox probe 2>/dev/null | grep -q "^$b: usable" && modes="$modes $b"
done

for mode in $modes; do
  # The control: room and no limit.
  scan "$mode" "$TEST_TMP/ctl-$mode" "$TEST_TMP/uncapped.yaml"
  assert_eq "$mode: control: the filler PASSES with room" \
    "$(reason "$TEST_TMP/ctl-$mode" hog-fill)" "PASSED "
  n=$(ls "$TEST_TMP/ctl-$mode/scanners/hog-fill/source" | grep -c '^fill\.')
  assert_eq "$mode: control: it wrote all 256 files" "$n" 256
  rm -rf "$TEST_TMP/ctl-$mode"

  # The whole results directory over max_scanner_output.
  scan "$mode" "$TEST_TMP/cap-$mode" "$TEST_TMP/capped.yaml"
  r=$(reason "$TEST_TMP/cap-$mode" hog-fill)
  case $r in
    "ERROR "*"into its results directory, more than global_settings.max_scanner_results (1048576)"*)
      ok "$mode: over max_scanner_results: ERROR with the reason" ;;
    *) not_ok "$mode: over max_scanner_results: ERROR with the reason"; diag "$r" ;;
  esac
  assert_eq "$mode: the other scanner's results are read" \
    "$(reason "$TEST_TMP/cap-$mode" fake-sarif)" "PASSED "
done

if [ "$(id -u)" != 0 ]; then
  diag "not root: no tmpfs can be mounted, the full disk is not checked"
  done_testing
fi
mnt=$(mktemp -d /var/lib/ash-disk.XXXXXX 2>/dev/null) || {
  diag "cannot make a mount point in /var/lib"
  done_testing
}
if ! mount -t tmpfs -o size=4m,mode=755 ash-disk "$mnt"; then
  rmdir "$mnt"
  skip_all "cannot mount a tmpfs"
fi
trap 'umount "$mnt"; rmdir "$mnt"; rm -rf "$TEST_TMP"' EXIT
for mode in $modes; do
  out=$mnt/out-$mode
  scan "$mode" "$out" "$TEST_TMP/uncapped.yaml"
  r=$(reason "$out" hog-fill 2>/dev/null)
  case $r in
    "ERROR fake-hog-tool filled the file system of the output directory"*)
      ok "$mode: a full disk: the scanner that filled it is named" ;;
    *) not_ok "$mode: a full disk: the scanner that filled it is named"; diag "$r" "$(cat "$TEST_TMP/err")" ;;
  esac
  assert_eq "$mode: a full disk: the other scanner's results are read" \
    "$(reason "$out" fake-sarif 2>/dev/null)" "PASSED "
  for f in ash.sarif ash.summary.txt ash.summary.md ash.html ash.csv ash.flat.json ash.junit.xml; do
    check "$mode: a full disk: report $f written" test -s "$out/reports/$f"
  done
  assert_eq "$mode: a full disk: the scan is incomplete (1)" "$status" 1
  rm -rf "$out"
done
done_testing
