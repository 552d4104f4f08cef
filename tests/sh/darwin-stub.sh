#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# darwin/ compiled on Linux (configure's darwin build check), its
# sandbox-exec path pointing at tests/darwin/sandbox-exec:
#   - with nothing there, the probe gives the spec's message word for word,
#     and a sandboxed scan records the scanner MISSING (auto) or ERROR
#     (named) with it, running nothing;
#   - with a stub there that records how it is called, a scan runs the
#     scanner through "sandbox-exec -f PROFILE -D NAME=PATH... COMMAND":
#     the profile denies by default and holds no path, every path is a
#     parameter, the profile's directory is private (0700) and outside
#     the output directory, the scanner gets a private TMPDIR, leads a new
#     session, and the private directory is gone after the spawn.
. "$top_srcdir/tests/libtest.sh"

ASHD=$top_builddir/tests/darwin/ash
stub=$top_builddir/tests/darwin/sandbox-exec
[ -x "$ASHD" ] || skip_all "darwin/ was not compiled (configure --disable-darwin-build-check)"
[ -r /proc/self/stat ] || skip_all "the stub needs /proc to tell its session"

msg="sandbox-exec is not present (it has been removed from this macOS)"
# A source directory whose name would end a string and a form if it were
# pasted into the profile.
src=$TEST_TMP/'src")(allow default)(x "'
out=$TEST_TMP/outdir
mkdir -p "$src"
printf 'FAKE-FINDING high\n' >"$src/a.txt"
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
PATH=$top_srcdir/tests/fixtures/tools:/usr/bin:/bin
export PATH

rm -f "$stub" "$top_builddir/tests/darwin/stub.log" "$top_builddir/tests/darwin/last-profile.sb"

"$ASHD" sandbox probe >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "probe without sandbox-exec: exit 1" "$?" 1
assert_file_contains "the probe gives the spec's message" "$TEST_TMP/out" "sandbox-exec: unavailable: $msg"

"$ASHD" scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox auto \
  --ash-plugin-modules "$mods" --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "scan under auto without sandbox-exec: exit 1" "$?" 1
assert_file_contains "auto: MISSING with the message" "$TEST_TMP/out" "fake-sarif MISSING: scanner sandbox unavailable: --sandbox auto found no working sandbox (sandbox-exec: $msg)"
check "auto: nothing ran" test ! -e "$out/scanners/fake-sarif/source/fake.sarif"

"$ASHD" scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox sandbox-exec \
  --ash-plugin-modules "$mods" --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "scan under sandbox-exec without it: exit 1" "$?" 1
assert_file_contains "named: ERROR with the message word for word" "$TEST_TMP/out" "fake-sarif ERROR: scanner sandbox unavailable: $msg"
check "named: nothing ran" test ! -e "$out/scanners/fake-sarif/source/fake.sarif"

# The negative control: the same scan with the sandbox off runs it.
"$ASHD" scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "--sandbox off: it runs and finds (exit 2)" "$?" 2

# With the stub in place.
cp "$top_srcdir/tests/fixtures/sandbox-exec-stub" "$stub"
chmod 755 "$stub"
trap 'rm -rf "$TEST_TMP"; rm -f "$stub" "$top_builddir/tests/darwin/stub.log" "$top_builddir/tests/darwin/last-profile.sb"' EXIT
log=$top_builddir/tests/darwin/stub.log
"$ASHD" sandbox probe >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "probe with sandbox-exec: exit 0" "$?" 0
assert_file_contains "sandbox-exec usable" "$TEST_TMP/out" "sandbox-exec: usable"
assert_file_contains "the probe applied an allow-all profile" "$log" "inline (version 1)(allow default)"

rm -rf "$out"; : >"$log"
# Run as root, ash runs the sandboxed command as the scanner account: the
# stub's records are files that account may write.
sb=$top_builddir/tests/darwin/last-profile.sb
: >"$sb"
chmod 666 "$log" "$sb"
"$ASHD" scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox sandbox-exec \
  --ash-plugin-modules "$mods" --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "scan through sandbox-exec: it runs and finds (exit 2)" "$?" 2
check "its output is there" test -f "$out/scanners/fake-sarif/source/fake.sarif"
assert_file_contains "the scanner's command ran through sandbox-exec" "$log" "command $top_srcdir/tests/fixtures/tools/fake-sarif-tool"
profile=$(sed -n 's/^profile //p' "$log" | tail -n 1)
pdir=${profile%/*}
check "a profile was given with -f" test -n "$profile"
assert_file_contains "the profile's directory is private" "$log" "dir-mode 700"
assert_file_contains "the profile is read-only" "$log" "profile-mode 400"
case $pdir in
  "$out"*|"$src"*) not_ok "the profile is outside the output and source directories" ;;
  *) ok "the profile is outside the output and source directories" ;;
esac
sb=$top_builddir/tests/darwin/last-profile.sb
assert_file_contains "the profile denies by default" "$sb" "(deny default)"
if grep -q '"/' "$sb"; then not_ok "no path in the profile's text"; else ok "no path in the profile's text"; fi
leaks=0
sed -n 's/^param [^=]*=//p' "$log" >"$TEST_TMP/values"
while IFS= read -r v; do
  if grep -qF -- "$v" "$sb"; then leaks=$((leaks + 1)); diag "in the text: $v"; fi
done <"$TEST_TMP/values"
assert_eq "no parameter's value in the profile's text" "$leaks" 0
res=$(cd "$out/scanners/fake-sarif/source" && pwd -P)
assert_file_contains "the results directory is a parameter" "$TEST_TMP/values" "$res"
tmpdir=$(sed -n 's/^tmpdir //p' "$log" | tail -n 1)
assert_eq "TMPDIR is the private one" "$tmpdir" "$pdir/tmp"
assert_file_contains "the private TMPDIR is a parameter" "$TEST_TMP/values" "$pdir/tmp"
# The profile's own directory may be named for its metadata (it is on the
# way to the private TMPDIR), never in a rule that writes or runs.
pname=$(awk -v d="$pdir" 'index($0, "param ") == 1 { kv = substr($0, 7); i = index(kv, "="); if (substr(kv, i + 1) == d) print substr(kv, 1, i - 1) }' "$log" | tail -n 1)
rules=$(awk '/^\(allow (file-write|process-exec)/ { on = 1 } on { print } /\)\)$/ { on = 0 }' "$sb")
case $rules in
  *"(param \"$pname\")"*) not_ok "the profile's directory is neither writable nor executable" ;;
  *) ok "the profile's directory is neither writable nor executable" ;;
esac
assert_file_lacks "the hostile source directory name is not in the profile" "$sb" "allow default)(x"
srcreal=$(cd "$src" && pwd -P)
assert_file_contains "the source directory is passed as a parameter, as is" "$TEST_TMP/values" "$srcreal"
assert_file_contains "the scanner leads a new session" "$log" "session-leader yes"
check "the private directory is removed after the spawn" test ! -e "$pdir"
done_testing
