#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# contrib/homebrew: the formula parses as Ruby, builds from the release
# tarball of the version configure.ac declares, depends on exactly the
# libraries configure looks for on macOS, and passes configure only
# options it knows.
. "$top_srcdir/tests/libtest.sh"

formula=$top_srcdir/contrib/homebrew/automated-security-helper.rb
[ -f "$formula" ] || bail "the formula is missing"

if command -v ruby >/dev/null 2>&1; then
  check "ruby -c accepts the formula" ruby -c "$formula"
else
  ok "# SKIP ruby -c: ruby is not installed"
fi

version=$(sed -n 's/^AC_INIT(\[ash\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
[ -n "$version" ] || bail "cannot read the version from configure.ac"
assert_file_contains "the url is the release tarball of $version" "$formula" \
  "/v$version/ash-$version.tar.gz\""
assert_file_contains "the license is the project's" "$formula" \
  'license "Apache-2.0"'
check "the project's license is Apache-2.0" grep -q "Apache License" "$top_srcdir/LICENSE"

# The libraries configure requires everywhere but Linux (libseccomp is
# Linux-only), by pkg-config name, mapped to Homebrew's formulae; gettext
# for AM_GNU_GETTEXT.
sed -n 's/^ASH_DEPENDENCY(\[[A-Z]*\], \[\([a-z0-9.-]*\).*/\1/p' \
  "$top_srcdir/configure.ac" >"$TEST_TMP/pc"
: >"$TEST_TMP/want"
while read -r pc; do
  case $pc in
    yaml-0.1) echo libyaml ;;
    jansson) echo jansson ;;
    *) echo "UNMAPPED:$pc" ;;
  esac
done <"$TEST_TMP/pc" >>"$TEST_TMP/want"
grep -q 'AM_GNU_GETTEXT(\[external\])' "$top_srcdir/configure.ac" &&
  echo gettext >>"$TEST_TMP/want"
sort -u "$TEST_TMP/want" >"$TEST_TMP/want.sorted"
sed -n 's/^  depends_on "\([^"]*\)"$/\1/p' "$formula" | sort -u >"$TEST_TMP/have"
assert_eq "the formula depends on what configure requires off Linux" \
  "$(tr '\n' ' ' <"$TEST_TMP/have")" "$(tr '\n' ' ' <"$TEST_TMP/want.sorted")"
check "pkg-config is a build dependency" grep -q 'depends_on "pkgconf" => :build' "$formula"
check "libseccomp (Linux-only) is not a dependency" \
  sh -c "! grep -q 'depends_on \"libseccomp\"' '$formula'"

# Every --option the formula passes is one configure knows.
if [ -x "$top_srcdir/configure" ]; then
  "$top_srcdir/configure" --help >"$TEST_TMP/help" 2>&1
  for opt in $(grep -o -- '"--[a-z-]*' "$formula" | tr -d '"' | sort -u); do
    check "configure knows $opt" grep -q -- "$opt" "$TEST_TMP/help"
  done
else
  ok "# SKIP configure --help: the tree is not bootstrapped"
fi
check "the formula builds with configure && make && make install" \
  sh -c "grep -q 'system \"./configure\"' '$formula' && grep -q 'system \"make\", \"install\"' '$formula'"

# build-aux/release-formula fills in a release's url and sha256.
rf=$top_srcdir/build-aux/release-formula
r=$TEST_TMP/release
mkdir -p "$r/ash-9.8.7"
echo data >"$r/ash-9.8.7/README"
(cd "$r" && tar -czf ash-9.8.7.tar.gz ash-9.8.7)
"$rf" "$r/ash-9.8.7.tar.gz" >"$r/out.rb" 2>"$r/err"
assert_eq "release-formula: a release tarball is accepted" "$?" 0
sum=$(sha256sum "$r/ash-9.8.7.tar.gz" | cut -d ' ' -f 1)
assert_file_contains "the sha256 is the tarball's" "$r/out.rb" "  sha256 \"$sum\""
assert_file_contains "the url names the release" "$r/out.rb" \
  '/download/v9.8.7/ash-9.8.7.tar.gz"'
assert_file_lacks "the placeholder is gone" "$r/out.rb" "0000000000000000"
check "control: the committed formula holds the placeholder" \
  grep -q 'sha256 "0\{64\}"' "$formula"
assert_eq "everything else is the committed formula" \
  "$(diff "$formula" "$r/out.rb" | grep -c '^[<>]')" 4
if command -v ruby >/dev/null 2>&1; then
  check "ruby -c accepts the filled formula" ruby -c "$r/out.rb"
else
  ok "# SKIP ruby -c: ruby is not installed"
fi
cp "$r/ash-9.8.7.tar.gz" "$r/ash-1.0.tar.gz"
"$rf" "$r/ash-1.0.tar.gz" >/dev/null 2>"$r/err"
assert_eq "a tarball whose directory is another version is refused" "$?" 2
assert_file_contains "with the reason" "$r/err" "does not hold ash-1.0/"
printf 'not gzip' >"$r/ash-2.0.tar.gz"
"$rf" "$r/ash-2.0.tar.gz" >/dev/null 2>"$r/err"
assert_eq "a file that is not a gzip archive is refused" "$?" 2
"$rf" "$r/other.tar.gz" >/dev/null 2>"$r/err"
assert_eq "a name that is not ash-VERSION.tar.gz is refused" "$?" 2
done_testing
