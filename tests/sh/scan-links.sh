#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Links below the output directory, with the sandbox off (issue "tree
# safety"): a link at ash.log or a linked output directory stops the scan
# with exit 3 before it starts; a symlink, a hard link or a FIFO where a
# report goes is refused with the exact message; nothing is ever written
# where a link points.  A sandboxed scanner's links and FIFOs are swept
# from its results directory; unsandboxed ones are left and not followed.
. "$top_srcdir/tests/libtest.sh"

src=$TEST_TMP/src
out=$TEST_TMP/outdir
victim=$TEST_TMP/victim
mkdir -p "$src" "$victim" "$TEST_TMP/bin"
printf 'FAKE-FINDING low\n' >"$src/a.txt"
printf 'precious\n' >"$victim/file"
PATH=$top_srcdir/tests/fixtures/tools:$TEST_TMP/bin:/usr/bin:/bin
export PATH
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
untouched () { # NAME: the victim directory holds only its one file, unchanged
  check "$1: nothing written outside" sh -c "[ \"\$(ls -A '$victim')\" = file ] && [ \"\$(cat '$victim/file')\" = precious ]"
}

# 1. A link at ash.log: exit 3 before the scan starts.
mkdir -p "$out"
ln -s "$victim/file" "$out/ash.log"
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners fake-sarif
assert_eq "link at ash.log: exit 3" "$status" 3
assert_file_contains "the message names the link" "$TEST_TMP/err" \
  "ERROR    $out/ash.log is a symlink, and ASH writes it itself; remove the link, or pass --output-dir with a directory that is not a link"
check "the link is left in place" test -L "$out/ash.log"
check "the scan did not start" test ! -e "$out/scanners/fake-sarif"
untouched "ash.log link"
rm -rf "$out"

# 2. An output directory that is a symlink: exit 3, nothing written.
ln -s "$victim" "$out"
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners fake-sarif
assert_eq "linked output directory: exit 3" "$status" 3
assert_file_contains "the message names it" "$TEST_TMP/err" "$out"
untouched "linked output directory"
rm -f "$out"

# 3. An output directory reached through a link below the source
#    directory (a committed build -> elsewhere).
ln -s "$victim" "$src/build"
run_ash scan --source-dir "$src" --output-dir "$src/build/ash" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners fake-sarif
assert_eq "output directory through a link in the tree: exit 3" "$status" 3
untouched "output directory through a link"
rm -f "$src/build"

# 4-7. Links a scanner (unsandboxed) plants where ASH writes its reports.
# The planter runs as a plugin scanner; it writes valid SARIF itself.
cat >"$TEST_TMP/bin/link-planter" <<'EOS'
#!/bin/sh
# link-planter RESULTS_DIR KIND VICTIM: plant KIND below the output dir.
res=$1 kind=$2 victim=$3
outdir=${res%/scanners/*}
mkdir -p "$outdir/reports"
case $kind in
  report-link) ln -s "$victim/file" "$outdir/reports/ash.sarif" ;;
  reports-dir-link) rm -rf "$outdir/reports"; ln -s "$victim" "$outdir/reports" ;;
  report-hardlink) ln "$victim/file" "$outdir/reports/ash.flat.json" ;;
  report-fifo) mkfifo "$outdir/reports/ash.summary.md" ;;
  results-link) ln -s "$victim/file" "$res/planted-link"; mkfifo "$res/planted-fifo" ;;
esac
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"link-planter"}},"results":[]}]}\n' >"$res/planter.sarif"
EOS
chmod +x "$TEST_TMP/bin/link-planter"
plant () { # KIND [ASH OPTIONS]: a scan whose one scanner plants KIND
  kind=$1; shift
  cat >"$TEST_TMP/planter.yaml" <<EOS
scanners:
  planter:
    tool: link-planter
    args: ["{results_dir}", "$kind", "$victim"]
    output: { format: sarif, path: "{results_dir}/planter.sarif" }
EOS
  rm -rf "$out"
  run_ash scan --source-dir "$src" --output-dir "$out" --no-progress \
    --ash-plugin-modules "$TEST_TMP/planter.yaml" --scanners planter "$@"
}
refused="is a symlink, and ASH does not write through a symlink below its output directory"

plant report-link --sandbox off
assert_eq "link at a report: exit 3" "$status" 3
assert_file_contains "exact message" "$TEST_TMP/err" \
  "reports/ash.sarif was not written: $out/reports/ash.sarif $refused"
check "the link stays" test -L "$out/reports/ash.sarif"
check "the other reports are written" test -s "$out/reports/ash.summary.txt"
check "the aggregated results are written" test -s "$out/ash_aggregated_results.json"
untouched "link at a report"

plant reports-dir-link --sandbox off
assert_eq "linked reports directory: exit 3" "$status" 3
assert_file_contains "exact message, naming the component" "$TEST_TMP/err" \
  "reports/ash.sarif was not written: $out/reports $refused"
untouched "linked reports directory"

plant report-hardlink --sandbox off
assert_eq "hard link at a report: exit 3" "$status" 3
assert_file_contains "exact message" "$TEST_TMP/err" \
  "reports/ash.flat.json was not written: 2 names refer to it"
untouched "hard link at a report"

plant report-fifo --sandbox off
assert_eq "FIFO at a report: refused, no hang (exit 1: ASH could not write a report)" "$status" 1
assert_file_contains "the FIFO is named" "$TEST_TMP/err" "reports/ash.summary.md was not written"
check "the FIFO stays a FIFO" test -p "$out/reports/ash.summary.md"
untouched "FIFO at a report"

# 8. Links a scanner leaves in its own results directory: unsandboxed
#    they stay (ASH writes nothing through them)...
plant results-link --sandbox off
assert_eq "unsandboxed planter: exit 0" "$status" 0
check "unsandboxed: the link is not swept" test -L "$out/scanners/planter/source/planted-link"
untouched "link in the results directory, unsandboxed"
# ...sandboxed, they are swept after the spawn.
if "$ASH" sandbox probe 2>&1 | grep -q '^landlock: usable'; then
  plant results-link --sandbox landlock
  assert_eq "sandboxed planter: exit 0" "$status" 0
  check "sandboxed: the symlink is swept" test ! -e "$out/scanners/planter/source/planted-link" -a ! -L "$out/scanners/planter/source/planted-link"
  check "sandboxed: the FIFO is swept" test ! -e "$out/scanners/planter/source/planted-fifo"
  assert_file_contains "the sweep is logged" "$TEST_TMP/err" "which a scanner left in its results directory"
  untouched "link in the results directory, sandboxed"
else
  ok "the sweep # SKIP landlock is not usable here"
fi
done_testing
