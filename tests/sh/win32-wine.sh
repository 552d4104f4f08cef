#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash.exe, the Windows build (cross-compiled with mingw-w64 by
# build-aux/win32-build; `make check-win32` builds it and runs this test
# with ASH_WIN32_EXE set), run under wine:
#   - `ash.exe --version` prints the version and exits 0;
#   - `ash.exe scan --sandbox auto` records every scanner it would run
#     MISSING with the spec's message word for word, runs none, and exits 1;
#   - with a named backend (bwrap) the same message, MISSING, exit 1;
#   - --sandbox off runs nothing either: this build starts no program.
. "$top_srcdir/tests/libtest.sh"

exe=${ASH_WIN32_EXE:-}
[ -n "$exe" ] || skip_all "ash.exe is not built here; run 'make check-win32' (needs gcc-mingw-w64-x86-64, wine and deb-src; see tests/README)"
[ -f "$exe" ] || skip_all "ASH_WIN32_EXE names no file: $exe"
command -v wine >/dev/null 2>&1 || skip_all "wine is not installed (apt-get install wine)"

msg="no scanner sandbox is available on Windows; run ASH under WSL2 and use --sandbox bwrap there, or use --mode container"
WINEPREFIX=$TEST_TMP/wine
WINEDEBUG=-all
WINEDLLOVERRIDES="mscoree,mshtml="
export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES
# Wait for this prefix's wineserver to end before the prefix is removed.
# shellcheck disable=SC2064
trap "wineserver -w 2>/dev/null; rm -rf '$TEST_TMP'" EXIT
wine_run () { # wine_run ARGS...: ash.exe under wine; output in out/err
  wine "$exe" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
  status=$?
  tr -d '\r' <"$TEST_TMP/out" >"$TEST_TMP/out.u" && mv "$TEST_TMP/out.u" "$TEST_TMP/out"
}

wine_run --version
if [ "$status" -ne 0 ] && ! [ -s "$TEST_TMP/out" ]; then
  cat "$TEST_TMP/err" >&2
  skip_all "wine cannot run programs here (exit $status)"
fi
assert_eq "ash.exe --version: exit 0" "$status" 0
assert_file_contains "ash.exe --version names ash" "$TEST_TMP/out" "ash "

mkdir -p "$TEST_TMP/src"
printf 'print("hello")\n' >"$TEST_TMP/src/a.py"
# Paths spelled with "/" are on the current drive, Z:, which wine maps
# to the Unix root when the working directory is a Unix one.
cd "$TEST_TMP" || bail "cannot enter $TEST_TMP"
src=$TEST_TMP/src
outd=$TEST_TMP/src/ash-out

wine_run scan --source-dir "$src" --output-dir "$outd" --no-progress --sandbox auto
assert_eq "scan --sandbox auto: exit 1 (incomplete scan)" "$status" 1
assert_file_contains "bandit MISSING with the spec's message" "$TEST_TMP/out" "bandit MISSING: scanner sandbox unavailable: $msg"
if grep -E ' (PASSED|FAILED) ' "$TEST_TMP/out" >/dev/null; then
  not_ok "no scanner ran"
else
  ok "no scanner ran"
fi
check "the results record the reason" grep -q "no scanner sandbox is available on Windows" "$TEST_TMP/src/ash-out/ash_aggregated_results.json"

wine_run sandbox probe
assert_eq "sandbox probe: exit 1" "$status" 1
assert_file_contains "sandbox probe gives the message" "$TEST_TMP/out" "auto: unavailable: $msg"

wine_run scan --source-dir "$src" --output-dir "$outd" --no-progress --sandbox bwrap
assert_eq "scan --sandbox bwrap: exit 1" "$status" 1
assert_file_contains "a named backend: MISSING, the same message" "$TEST_TMP/out" "bandit MISSING: scanner sandbox unavailable: $msg"

# --sandbox off: this build starts no program; the scanner is recorded as
# not run, and the scan is incomplete.
wine_run scan --source-dir "$src" --output-dir "$outd" --no-progress --sandbox off --scanners bandit
assert_eq "--sandbox off: incomplete scan (exit 1)" "$status" 1
if grep -E '^bandit +(PASSED|FAILED) ' "$TEST_TMP/out" >/dev/null; then
  not_ok "--sandbox off: bandit did not run"
else
  ok "--sandbox off: bandit did not run"
fi
done_testing
