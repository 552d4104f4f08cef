#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Scanners that cannot run are MISSING with the reason: the tool is not
# installed (and how to install it), the tool is found only inside the
# scanned directory, no sandbox backend can be used.  Nothing runs
# unsandboxed after a sandbox was asked for.
. "$top_srcdir/tests/libtest.sh"

src=$TEST_TMP/src
out=$TEST_TMP/out-dir
mkdir -p "$src/bin"
printf 'FAKE-FINDING high\n' >"$src/a.txt"
cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$src/bin/"
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml

PATH=/usr/bin:/bin "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
  --scanners semgrep,gitleaks >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "MISSING scanners: exit 1" "$?" 1
assert_file_contains "semgrep named with its install command" "$TEST_TMP/out" "semgrep MISSING: semgrep is not installed (install it with: uv tool install semgrep, or ash dependencies install)"
assert_file_contains "gitleaks named with its install command" "$TEST_TMP/out" "gitleaks MISSING: gitleaks is not installed (install it with: "
assert_file_contains "missing_reason recorded" "$out/ash_aggregated_results.json" '"missing_reason": "semgrep is not installed'
assert_file_contains "logged as the spec shows" "$TEST_TMP/err" "ERROR    semgrep not run: semgrep is not installed"

# Every builtin scanner has an adapter now: none is MISSING for want of
# one when its tool is installed.
check "no builtin scanner lacks an adapter" \
  sh -c "! '$ASH' scan --source-dir '$src' --output-dir '$out' --no-progress 2>/dev/null | grep -q 'has no adapter'"
# The message only shows for a tool that is installed: with stand-ins for
# grype, syft, npm and trivy on PATH, the dependency scanners and
# trivy-repo reach their adapters (the stand-ins fail, so they are ERROR,
# never MISSING for want of an adapter).
mkdir -p "$TEST_TMP/stubs"
for t in grype syft npm trivy; do
  printf '#!/bin/sh\nexit 1\n' >"$TEST_TMP/stubs/$t"
  chmod +x "$TEST_TMP/stubs/$t"
done
mkdir -p "$TEST_TMP/deps"
printf '{"name":"x","version":"1.0.0"}\n' >"$TEST_TMP/deps/package.json"
printf '{"name":"x","lockfileVersion":3,"packages":{}}\n' >"$TEST_TMP/deps/package-lock.json"
PATH=$TEST_TMP/stubs:/usr/bin:/bin "$ASH" scan --source-dir "$TEST_TMP/deps" --output-dir "$TEST_TMP/deps-out" \
  --no-progress --sandbox off --ash-plugin-modules trivy-repo \
  --scanners grype,syft,npm-audit,trivy-repo >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_file_lacks "installed grype, syft, npm and trivy: no 'has no adapter'" "$TEST_TMP/out" "has no adapter"
for s in grype syft npm-audit trivy-repo; do
  check "$s: its adapter ran the installed stand-in (ERROR)" grep -q "^ *$s ERROR" "$TEST_TMP/out"
done

# A tool found only inside the scanned directory is not installed...
PATH=$src/bin:/usr/bin:/bin "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
  --ash-plugin-modules "$mods" --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "in-tree tool: exit 1" "$?" 1
assert_file_contains "in-tree tool: MISSING, naming where" "$TEST_TMP/out" "fake-sarif MISSING: fake-sarif-tool was found only inside the scanned directory"
check "and it did not run" test ! -e "$out/scanners/fake-sarif/source/fake.sarif"
# ...unless the operator allows it (the control: the same tool runs).
PATH=$src/bin:/usr/bin:/bin "$ASH" scan --source-dir "$src" --output-dir "$out" --no-progress \
  --allow-in-tree-tools --ash-plugin-modules "$mods" --scanners fake-sarif >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "--allow-in-tree-tools: it runs and finds (exit 2)" "$?" 2
check "its output is there" test -f "$out/scanners/fake-sarif/source/fake.sarif"

# A sandbox that cannot be provided: not run, with the reason.
# On Linux the macOS backend is one that is never there.
PATH=$top_srcdir/tests/fixtures/tools:/usr/bin:/bin
export PATH
mode=auto
[ "$(uname -s)" = Linux ] && mode=sandbox-exec
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox "$mode" \
  --ash-plugin-modules "$mods" --scanners fake-sarif
if [ "$mode" = auto ] && ! grep -q "fake-sarif MISSING" "$TEST_TMP/out"; then
  ok "fake-sarif ran sandboxed (a backend is usable here) # SKIP"
else
  assert_eq "no usable sandbox ($mode): exit 1" "$status" 1
  # A backend named and unavailable is ERROR; auto with none usable is
  # MISSING.
  st=MISSING
  [ "$mode" = auto ] || st=ERROR
  assert_file_contains "$st with the sandbox reason" "$TEST_TMP/out" "fake-sarif $st: scanner sandbox unavailable: "
  assert_file_contains "logged as the spec shows" "$TEST_TMP/err" "ERROR    fake-sarif not run: scanner sandbox unavailable: "
  check "it did not run unsandboxed" test ! -e "$out/scanners/fake-sarif/source/fake.sarif"
  assert_file_contains "the sandbox record names the mode" "$out/ash_aggregated_results.json" "\"mode\": \"$mode\""
fi
# The control: with --sandbox off it runs.
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" --scanners fake-sarif
assert_eq "--sandbox off: it runs (exit 2)" "$status" 2
check "its output is there" test -f "$out/scanners/fake-sarif/source/fake.sarif"
# A scanner --scanners names that does not exist is MISSING, not dropped.
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --scanners no-such-scanner
assert_eq "an unknown scanner name: exit 1" "$status" 1
assert_file_contains "it is a MISSING row with the reason" "$TEST_TMP/out" "no-such-scanner MISSING: --scanners names 'no-such-scanner', which is neither a builtin scanner nor one a loaded plugin module defines"
done_testing
