#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# libarchive loaded lazily (configure's default on Linux): ash is not
# linked with it, and loads it when the first archive is extracted, not to
# print its version nor for a scan with no archive.  What the dynamic
# loader reports (LD_DEBUG=libs) is read for ash's own process only; a
# scan with archives is the control that shows the loading is seen.
. "$top_srcdir/tests/libtest.sh"

[ "${ASH_TEST_LAZY_LIBARCHIVE:-no}" = yes ] ||
  skip_all "libarchive is linked into ash in this build (--disable-lazy-libarchive, or not Linux)"
soname=${ASH_TEST_LIBARCHIVE_SONAME:-}
[ -n "$soname" ] || bail "the lazy build has no SONAME for libarchive"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
"$ASH" --version >/dev/null 2>&1 || bail "ash does not run"

if command -v readelf >/dev/null 2>&1; then
  needed=$(readelf -d "$ASH" | sed -n 's/^.*(NEEDED).*library: \[\(.*\)\]$/\1/p')
  assert_contains "control: readelf lists what ash needs (libjansson)" "$needed" libjansson
  case $needed in
    *libarchive*|*"$soname"*) not_ok "ash has no DT_NEEDED entry for libarchive"; diag "$needed" ;;
    *) ok "ash has no DT_NEEDED entry for libarchive" ;;
  esac
else
  ok "control: readelf lists what ash needs # SKIP readelf is not installed"
  ok "ash has no DT_NEEDED entry for libarchive # SKIP readelf is not installed"
fi

# ld_libs NAME ARGS...: run ash with LD_DEBUG=libs; $ldlog is what the
# loader said in ash's process (scanners write files of their own).
ld_libs () {
  _n=$1
  shift
  LD_DEBUG=libs LD_DEBUG_OUTPUT="$TEST_TMP/ld-$_n" "$ASH" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" &
  _pid=$!
  wait "$_pid"
  status=$?
  ldlog=$TEST_TMP/ld-$_n.$_pid
}

agg () { # OUT EXPR: a Python expression over the archive converter's row (c)
  python3 -c "
import json, sys
c = json.load(open(sys.argv[1] + '/ash_aggregated_results.json'))['converter_results']['archive']
print($2)" "$1"
}

ld_libs version --version
assert_eq "ash --version exits 0" "$status" 0
assert_file_contains "control: the loader's report names libjansson" "$ldlog" "libjansson"
assert_file_lacks "ash --version does not load $soname" "$ldlog" "$soname"

mkdir -p "$TEST_TMP/plain" "$TEST_TMP/arch"
printf 'import subprocess\nsubprocess.call("ls", shell=True)\n' >"$TEST_TMP/plain/app.py"
python3 -c '
import io, sys, tarfile, zipfile
with zipfile.ZipFile(sys.argv[1] + "/code.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("pkg/app.py", "import os\n")
with tarfile.open(sys.argv[1] + "/code.tar.gz", "w:gz") as t:
    data = b"import sys\n"
    i = tarfile.TarInfo("lib/mod.py")
    i.size = len(data)
    t.addfile(i, io.BytesIO(data))' "$TEST_TMP/arch" || bail "cannot make the archives"

ld_libs plain scan --source-dir "$TEST_TMP/plain" --output-dir "$TEST_TMP/out-plain" \
  --no-progress --scanners bandit --sandbox off
assert_eq "a scan with no archive: the archive converter has nothing to do" \
  "$(agg "$TEST_TMP/out-plain" "c['status'] + ': ' + c['skipped_reason']")" \
  "SKIPPED: no archive in the scan set"
assert_file_contains "control: the loader's report names libjansson" "$ldlog" "libjansson"
assert_file_lacks "a scan with no archive does not load $soname" "$ldlog" "$soname"

ld_libs arch scan --source-dir "$TEST_TMP/arch" --output-dir "$TEST_TMP/out-arch" \
  --no-progress --scanners bandit --sandbox off
assert_file_contains "control: a scan with archives loads $soname" "$ldlog" "$soname"
assert_eq "the archive converter PASSED" "$(agg "$TEST_TMP/out-arch" "c['status']")" PASSED
assert_eq "both archives are extracted" \
  "$(agg "$TEST_TMP/out-arch" "' '.join(sorted(x['path'] for x in c['converted_files']))")" \
  "archive/code.tar.gz/lib/mod.py archive/code.zip/pkg/app.py"
check "the zip's member is in converted/" test -f "$TEST_TMP/out-arch/converted/archive/code.zip/pkg/app.py"

done_testing
