#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A plugin scanner handed {target} walks the tree itself and is not told
# what the scan set leaves out: a FIFO named fifo.py that it opens must
# not block it.  Under bwrap /dev/null is bound over the FIFO (it reads
# nothing at once), under firejail it is blacklisted (opening it fails at
# once), and Landlock, which cannot hide a file inside a directory it
# grants, refuses the scanner with the reason (firejail too, for a name
# it would expand as a glob).  Either way the scan goes
# on and the regular files stay readable.  The negative control: without
# a sandbox the same scanner blocks on the FIFO until its scan_timeout
# (2 s) ends it.
. "$top_srcdir/tests/libtest.sh"

tools=$TEST_TMP/bin
src=$TEST_TMP/src
mkdir -p "$tools" "$src" "$TEST_TMP/home"
printf 'x = 1\n' >"$src/a.py"
mkfifo "$src/fifo.py" || bail "mkfifo"
cat >"$tools/fifo-reader-tool" <<'TOOL'
#!/bin/sh
# fifo-reader-tool TARGET RESULTS-DIR: reads TARGET/fifo.py and
# TARGET/a.py, says what happened in RESULTS-DIR/report.txt, and writes
# an empty SARIF.
{
  if cat "$1/fifo.py" >/dev/null 2>&1; then echo "fifo.py: read"; else echo "fifo.py: not opened"; fi
  if grep -q 'x = 1' "$1/a.py"; then echo "a.py: read"; fi
} >"$2/report.txt"
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"fifo-reader"}},"results":[]}]}\n' >"$2/fifo.sarif"
TOOL
chmod 755 "$tools/fifo-reader-tool"
cat >"$TEST_TMP/plugins.yaml" <<'PLUG'
scanners:
  fifo-reader:
    tool: fifo-reader-tool
    args: ["{target}", "{results_dir}"]
    output: { format: sarif, path: "{results_dir}/fifo.sarif" }
PLUG
printf 'scanners:\n  fifo-reader:\n    options:\n      scan_timeout: 2\n' >"$TEST_TMP/config.yaml"
chmod -R a+rX "$TEST_TMP"

# scan MODE OUTDIR: as the account $as names (empty: this one), with $ash
as=
ash=$ASH
scan () {
  env -i $scanner_user_env PATH="$tools:/usr/bin:/bin" HOME="$TEST_TMP/home" LANG=C.UTF-8 \
    $as "$ash" scan --source-dir "$src" --output-dir "$2" --no-progress \
    --sandbox "$1" --ash-plugin-modules "$TEST_TMP/plugins.yaml" \
    --config "$TEST_TMP/config.yaml" --scanners fifo-reader \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
# reason OUTDIR: "STATUS REASON"
reason () {
  jq -r '.scanner_results["fifo-reader"] | "\(.status) \(.error_reason // "")"' \
    "$1/ash_aggregated_results.json"
}
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

scan off "$TEST_TMP/out-off"
assert_eq "control: without a sandbox the scanner blocks on the FIFO until its timeout" \
  "$(reason "$TEST_TMP/out-off")" "ERROR timed out after 2 s"
assert_file_contains "control: the scan set leaves the FIFO out with a warning" \
  "$TEST_TMP/out-off/ash.log" "Not scanning 'fifo.py': not a regular file (a FIFO)"

# sandboxed WHO OUTBASE
sandboxed () {
  for mode in bwrap firejail landlock; do
    if ! "$ASH" sandbox probe 2>/dev/null | grep -q "^$mode: usable"; then
      ok "$1: $mode # SKIP $mode is not usable here"
      continue
    fi
    o=$2-$mode
    scan "$mode" "$o"
    r=$(reason "$o")
    case $mode in
      landlock)
        case $r in
          "ERROR "*"Landlock cannot hide $src/fifo.py (a FIFO, socket or device in the scanned tree) from a scanner given the directory"*)
            ok "$1: landlock: the scanner is refused, with the reason" ;;
          *) not_ok "$1: landlock: the scanner is refused, with the reason"; diag "$r" ;;
        esac
        check "$1: landlock: the reports are still written" test -s "$o/reports/ash.summary.txt" ;;
      *)
        assert_eq "$1: $mode: the scanner does not block on the FIFO" "$r" "PASSED "
        assert_eq "$1: $mode: the sandbox record names the masked FIFO" \
          "$(jq -r '.scanner_results["fifo-reader"].sandbox.masked | join(" ")' "$o/ash_aggregated_results.json")" \
          "$src/fifo.py"
        assert_file_contains "$1: $mode: it still reads the regular files" \
          "$o/scanners/fifo-reader/source/report.txt" "a.py: read" ;;
    esac
  done
}
sandboxed "$(id -un)" "$TEST_TMP/out"

# firejail expands globs in the paths it is given: a FIFO named "*.py"
# blacklisted as such would hide every .py file of its directory from the
# scanner.  Under firejail such a name is refused; bwrap masks it, and
# the scanner still reads a.py.
glob=$TEST_TMP/glob
mkdir -p "$glob"
printf 'x = 1\n' >"$glob/a.py"
mkfifo "$glob/*.py" || bail "mkfifo"
ln -s '*.py' "$glob/fifo.py"
chmod -R a+rX "$glob"
src_saved=$src
src=$glob
for mode in firejail bwrap; do
  if ! "$ASH" sandbox probe 2>/dev/null | grep -q "^$mode: usable"; then
    ok "glob name: $mode # SKIP $mode is not usable here"
    continue
  fi
  o=$TEST_TMP/glob-$mode
  scan "$mode" "$o"
  r=$(reason "$o")
  case $mode in
    firejail)
      case $r in
        "ERROR "*"firejail cannot hide $glob/*.py (a FIFO, socket or device in the scanned tree) from a scanner given the directory: it would expand the name"*)
          ok "glob name: firejail refuses to blacklist it, with the reason" ;;
        *) not_ok "glob name: firejail refuses to blacklist it, with the reason"; diag "$r" ;;
      esac ;;
    bwrap)
      assert_eq "glob name: bwrap masks it" "$r" "PASSED "
      assert_file_contains "glob name: bwrap: the scanner still reads a.py" \
        "$o/scanners/fifo-reader/source/report.txt" "a.py: read" ;;
  esac
done
src=$src_saved

# As root, once more as an unprivileged account.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  user=$(unpriv_user)
  as=$(as_unpriv_cmd "$user")
  mkdir -p "$TEST_TMP/u/bin"
  cp "$ASH" "$TEST_TMP/u/bin/ash"
  for h in "$(dirname "$ASH")"/ash-landlock-exec; do
    [ -x "$h" ] && cp "$h" "$TEST_TMP/u/bin/"
  done
  ash=$TEST_TMP/u/bin/ash
  chown -R "$user" "$TEST_TMP/u" "$TEST_TMP/home"
  chmod 755 "$TEST_TMP"
  sandboxed "$user" "$TEST_TMP/u/out"
fi
done_testing
