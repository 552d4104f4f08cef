#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash sandbox probe: every backend usable or the exact reason and fix; the
# tool rules (a bwrap found only inside the scanned directory counts as not
# installed); the exit status.

. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v bwrap >/dev/null || skip_all "bwrap is not installed"

src=$TEST_TMP/src
mkdir -p "$src/bin" "$TEST_TMP/empty"
cd "$TEST_TMP" || bail "cannot enter $TEST_TMP"

run_ash sandbox probe --source-dir "$src"
assert_eq "probe exits 0 when a backend is usable" "$status" 0
assert_file_contains "bwrap is usable here" "$TEST_TMP/out" "bwrap: usable"
assert_file_contains "Landlock is usable here" "$TEST_TMP/out" "landlock: usable"
assert_file_contains "auto picks bwrap first" "$TEST_TMP/out" "auto: bwrap"
if bwrap --help 2>&1 | grep -q -- --overlay-src; then
  assert_file_lacks "this bwrap has overlays" "$TEST_TMP/out" "caches are read-only"
else
  assert_file_contains "the missing overlay support is noted" "$TEST_TMP/out" \
    "throwaway cache overlays: not supported by this bwrap; caches are read-only"
fi

# Nothing on PATH: the spec's messages, word for word, with their fixes.
PATH=$TEST_TMP/empty run_ash sandbox probe --source-dir "$src"
assert_file_contains "bwrap missing" "$TEST_TMP/out" \
  "bwrap: unavailable: bwrap is not installed (install the 'bubblewrap' package)"
assert_file_contains "with its fix" "$TEST_TMP/out" "  fix: Install bubblewrap."
assert_file_contains "firejail missing" "$TEST_TMP/out" \
  "firejail: unavailable: firejail is not installed"
assert_file_contains "with its fix" "$TEST_TMP/out" \
  "  fix: Install firejail, or use another backend."
assert_file_contains "auto falls to Landlock" "$TEST_TMP/out" "auto: landlock"

# A bwrap only inside the scanned directory is not installed...
cat >"$src/bin/bwrap" <<'EOF'
#!/bin/sh
echo "bwrap: in-tree bwrap ran" >&2
exit 1
EOF
chmod 755 "$src/bin/bwrap"
PATH=$src/bin run_ash sandbox probe --source-dir "$src"
assert_file_contains "an in-tree bwrap counts as not installed" "$TEST_TMP/out" \
  "bwrap: unavailable: bwrap is not installed (install the 'bubblewrap' package)"
assert_file_lacks "and is not run" "$TEST_TMP/out" "in-tree bwrap ran"
# ... unless in-tree tools are allowed (then its failure is reported with
# what it printed).
PATH=$src/bin:/usr/bin run_ash sandbox probe --source-dir "$src" --allow-in-tree-tools
assert_file_contains "allowed, it runs and its error is the reason" "$TEST_TMP/out" \
  "bwrap: unavailable: bwrap cannot create a sandbox here (bwrap: in-tree bwrap ran)"
assert_file_contains "with its fix" "$TEST_TMP/out" \
  "  fix: Allow unprivileged user namespaces, or use landlock."

# A bwrap that the AppArmor userns restriction stops: the fix is in the
# message.
printf '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n' \
  >"$src/bin/bwrap"
PATH=$src/bin:/usr/bin run_ash sandbox probe --source-dir "$src" --allow-in-tree-tools
assert_file_contains "the AppArmor case names bwrap's error" "$TEST_TMP/out" \
  "bwrap: unavailable: bwrap cannot create a sandbox here (bwrap: setting up uid map: Permission denied; "
assert_file_contains "and both fixes" "$TEST_TMP/out" \
  "an AppArmor profile that grants userns to $src/bin/bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0, lifts it)"

# A bwrap that runs true but not the socket filter inside.
printf '%s\n' '#!/bin/sh' 'for a; do' '  case $a in' \
  '    */ash-landlock-exec) echo "ash-landlock-exec: cannot load the filter" >&2; exit 126 ;;' \
  '  esac' 'done' 'exit 0' >"$src/bin/bwrap"
PATH=$src/bin:/usr/bin run_ash sandbox probe --source-dir "$src" --allow-in-tree-tools
assert_file_contains "a filter failure inside bwrap" "$TEST_TMP/out" \
  "bwrap: unavailable: bwrap cannot apply the Unix-socket filter in its sandbox (ash-landlock-exec: cannot load the filter)"
assert_file_contains "with its fix" "$TEST_TMP/out" \
  "  fix: Use the bwrap from your distribution, on x86_64 or aarch64, on a kernel that allows seccomp filters."

# A firejail that runs its command without a sandbox, as it does inside a
# container with its own PID namespace.
printf '%s\n' '#!/bin/sh' 'while case $1 in -*) true ;; *) false ;; esac; do shift; done' \
  'echo "Warning: an existing sandbox was detected. $1 will run without any additional sandboxing features" >&2' \
  'exec "$@"' >"$src/bin/firejail"
chmod 755 "$src/bin/firejail"
PATH=$src/bin:/usr/bin run_ash sandbox probe --source-dir "$src" --allow-in-tree-tools
assert_file_contains "firejail's warning makes it unavailable" "$TEST_TMP/out" \
  "firejail: unavailable: firejail ran a test command without a sandbox (Warning: an existing sandbox was detected."
assert_file_contains "with its fix" "$TEST_TMP/out" \
  "  fix: Use bwrap or landlock; firejail does not sandbox inside this container."
# The same without the warning: the namespace gives it away.
printf '%s\n' '#!/bin/sh' 'while case $1 in -*) true ;; *) false ;; esac; do shift; done' 'exec "$@"' \
  >"$src/bin/firejail"
own_ns=$(readlink /proc/self/ns/mnt)
PATH=$src/bin:/usr/bin run_ash sandbox probe --source-dir "$src" --allow-in-tree-tools
assert_file_contains "ASH's own mount namespace makes it unavailable" "$TEST_TMP/out" \
  "firejail: unavailable: firejail ran a test command without a sandbox (it reported $own_ns, and ASH's own mount namespace is $own_ns)"
rm -f "$src/bin/firejail"

# No backend at all: a copy of ash without its wrapper next to it, and no
# tools on PATH.
cp "$ASH" "$TEST_TMP/empty/ash"
PATH=$TEST_TMP/empty "$TEST_TMP/empty/ash" sandbox probe --source-dir "$src" \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
status=$?
if grep -q "landlock: usable" "$TEST_TMP/out"; then
  ok "# SKIP an installed ash-landlock-exec makes Landlock usable"
else
  assert_eq "probe exits 1 when no backend is usable" "$status" 1
  assert_file_contains "Landlock without its wrapper" "$TEST_TMP/out" \
    "landlock: unavailable: Landlock is not available (ash-landlock-exec was not found"
  assert_file_contains "auto lists why each backend failed" "$TEST_TMP/out" \
    "auto: unavailable: --sandbox auto found no working sandbox (bwrap: bwrap is not installed (install the 'bubblewrap' package); firejail: firejail is not installed; landlock: Landlock is not available ("
  assert_file_contains "with its fix" "$TEST_TMP/out" \
    "  fix: Lists why each backend failed; fix one of them."
fi

# As an unprivileged user.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  setpriv --reuid=nobody --regid=nogroup --clear-groups \
    env HOME=/nonexistent "$ASH" sandbox probe --source-dir "$src" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "as nobody, probe exits 0" "$?" 0
  assert_file_contains "as nobody, bwrap is usable" "$TEST_TMP/out" "bwrap: usable"
  assert_file_contains "as nobody, Landlock is usable" "$TEST_TMP/out" "landlock: usable"
  if grep -q "firejail: unavailable" "$TEST_TMP/out"; then
    assert_file_contains "as nobody, firejail's refusal comes with a fix" \
      "$TEST_TMP/out" "  fix: "
  else
    assert_file_contains "as nobody, firejail is usable" "$TEST_TMP/out" \
      "firejail: usable"
  fi
fi

done_testing
