#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A scanner's capability probe (bandit --help) runs with a throwaway
# results directory, removed after it, never the real one: a bandit that
# plants a file in its results directory while it answers --help leaves
# nothing in scanners/bandit/source, under each usable backend.  Control:
# the same bandit run as the scanner itself does write there.  As root,
# again as an unprivileged account.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
real=$(command -v bandit) || skip_all "bandit is not installed"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1 || true

bin=$TEST_TMP/bin
mkdir -p "$bin"
# The fake bandit finds the results directory by ash's layout, from a
# variable the environment filter passes (ASH_*), and writes there.
cat >"$bin/bandit" <<SH
#!/bin/sh
d=\$ASH_TEST_OUT/scanners/bandit/source
if [ "\$1" = --help ]; then
  echo planted >"\$d/planted-by-probe" 2>/dev/null
else
  echo planted >"\$d/planted-by-scan" 2>/dev/null
fi
exec "$real" "\$@"
SH
chmod 755 "$bin/bandit"

# round LABEL BASE [PREFIX...]: scan a small tree under BASE with each
# usable backend, ash started through PREFIX (as another account).
round () {
  label=$1
  base=$2
  shift 2
  src=$base/src
  mkdir -p "$src"
  printf 'x = 1\n' >"$src/app.py"
  for backend in bwrap landlock firejail; do
    grep -q "^$backend: usable" "$TEST_TMP/probe" || { diag "$backend is not usable here"; continue; }
    ran=1
    out=$base/out-$backend
    "$@" env ASH_TEST_OUT="$out" PATH="$bin:$PATH" "$ASH" scan --source-dir "$src" \
      --output-dir "$out" --scanners bandit --sandbox "$backend" --no-progress \
      >"$TEST_TMP/out" 2>"$TEST_TMP/err"
    diag "$label $backend: exit $?"
    check "$label $backend: control: the scanner's own run writes its results directory" \
      test -f "$out/scanners/bandit/source/planted-by-scan"
    check_fails "$label $backend: the probe wrote nothing there" \
      test -e "$out/scanners/bandit/source/planted-by-probe"
    check_fails "$label $backend: its throwaway directory is gone" \
      test -e "$out/scanners/bandit/probe"
  done
}

ran=0
round "$(id -un)" "$TEST_TMP/self"
if [ "$(id -u)" = 0 ]; then
  u=$(unpriv_user)
  mkdir -p "$TEST_TMP/unpriv"
  chown "$u" "$TEST_TMP/unpriv"
  # shellcheck disable=SC2046
  round "$u" "$TEST_TMP/unpriv" $(as_unpriv_cmd "$u")
fi
[ "$ran" = 1 ] || skip_all "no sandbox backend is usable here"

done_testing
