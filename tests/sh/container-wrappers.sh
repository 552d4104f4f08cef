#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The wrappers ./ash and invoke-ash (POSIX sh) and Invoke-ASH.ps1, against
# a container runtime that records every call
# (tests/fixtures/tools/fake-oci-runtime): the exact command lines and the
# runtime's environment, --sandbox (exit 5 for a mode, 3 for a value the
# wrapper cannot use, off passed last), the config rules (never read,
# ASH_CONFIG warned about and not passed, --config relative to the source
# directory), and each refusal with its control.  shellcheck checks the sh
# wrappers; build-aux/check-ps1 the PowerShell one.

. "$top_srcdir/tests/libtest.sh"

root=$(cd "$top_srcdir" && pwd -P)
src=$TEST_TMP/src
bin=$TEST_TMP/bin
sys=$TEST_TMP/sys
log=$TEST_TMP/oci.log
mkdir -p "$src" "$bin" "$sys"
printf 'import pickle\n' >"$src/a.py"
printf 'sandbox:\n  mode: bwrap\n' >"$src/c.yaml"
printf '{"sandbox": "bwrap"}\n' >"$src/doc.json"
srcreal=$(cd "$src" && pwd -P)
cp "$top_srcdir/tests/fixtures/tools/fake-oci-runtime" "$bin/podman"
# The programs the wrappers and the fake runtime use, and no runtime: the
# machine's own podman or docker must not be found.
for t in sh id sed mkdir dirname env sort; do
  p=$(command -v "$t") || bail "$t is not installed"
  ln -s "$p" "$sys/$t"
done
uid=$(id -u)
gid=$(id -g)

# w WRAPPER ARGS...: run a wrapper from the source directory with the
# fake runtime; stdout, stderr in $TEST_TMP/out, err; $status.
w () {
  _w=$1
  shift
  rm -f "$log"
  (cd "$src" && env -u ASH_CONFIG -u OCI_RUNNER -u ASH_IMAGE_NAME \
    FAKE_OCI_LOG="$log" PATH="$bin:$sys" WRAPPER_TEST_MARKER=kept \
    ${ROOT+ASH_ROOT_DIR="$ROOT"} "$_w" "$@") >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}
argv () {
  awk -v n="$1" '/^call$/ { k++ } k == n && /^arg / { sub(/^arg /, ""); print }' "$log"
}
envof () {
  awk -v n="$1" '/^call$/ { k++ } k == n && /^env / { sub(/^env /, ""); print }' "$log"
}
calls () {
  if [ -f "$log" ]; then grep -c '^call$' "$log"; else echo 0; fi
}
same () {
  if cmp -s "$2" "$TEST_TMP/want"; then
    ok "$1"
  else
    not_ok "$1"
    diff "$TEST_TMP/want" "$2" | awk '{ print "# " $0 }'
  fi
}

out=$srcreal/.ash/ash_output
for wrapper in ash invoke-ash; do
  if [ "$wrapper" = ash ]; then
    W=$root/ash
    unset ROOT
  else
    W=$root/container/invoke-ash
    ROOT=$root
  fi
  t=$wrapper

  # 1. No command: a scan.  The image is built from the checkout, then run.
  w "$W" --scanners bandit
  assert_eq "$t: exit 0, a build and a run" "$status:$(calls)" "0:2"
  cat >"$TEST_TMP/want" <<EOF
build
--build-arg
UID=$uid
--build-arg
GID=$gid
--tag
automated-security-helper:non-root
--target
non-root
--file
$root/container/Containerfile
--build-arg
OFFLINE=NO
--build-arg
OFFLINE_SEMGREP_RULESETS=p/ci
$root
EOF
  argv 1 >"$TEST_TMP/got"
  same "$t: the build command line" "$TEST_TMP/got"
  cat >"$TEST_TMP/want" <<EOF
run
--rm
-e
ASH_ACTUAL_SOURCE_DIR=$srcreal
-e
ASH_ACTUAL_OUTPUT_DIR=$out
-e
ASH_DEBUG=NO
--mount
type=bind,source=$srcreal,destination=/src,readonly
--mount
type=bind,source=$out,destination=/out
--mount
type=tmpfs,destination=/src/.ash/ash_output
automated-security-helper:non-root
ash
scan
--source-dir
/src
--output-dir
/out
--mode
local
--scanners
bandit
--sandbox
off
EOF
  argv 2 >"$TEST_TMP/got"
  same "$t: the run command line" "$TEST_TMP/got"
  envof 2 >"$TEST_TMP/env"
  assert_file_contains "$t: the runtime gets the caller's environment" \
    "$TEST_TMP/env" "WRAPPER_TEST_MARKER=kept"
  check "$t: what the container wrote is in the output directory" \
    test -s "$out/from-the-container"
  w "$W" scan --scanners bandit
  argv 2 >"$TEST_TMP/got"
  same "$t scan: the same command line" "$TEST_TMP/got"

  # 2. --sandbox: a mode exits 5, another value 3, before anything runs.
  for m in auto bwrap firejail landlock sandbox-exec; do
    w "$W" scan --sandbox "$m"
    assert_eq "$t --sandbox $m: exit 5, nothing run" "$status:$(calls)" "5:0"
  done
  w "$W" --sandbox=bwrap
  assert_eq "$t --sandbox=bwrap, no command: exit 5" "$status:$(calls)" "5:0"
  for v in bogus OFF ""; do
    w "$W" --sandbox "$v"
    assert_eq "$t --sandbox '$v': exit 3, nothing run" "$status:$(calls)" "3:0"
  done
  w "$W" config get --sandbox bwrap
  assert_eq "$t config get --sandbox bwrap: exit 5" "$status:$(calls)" "5:0"
  w "$W" --sandbox off --config-overrides sandbox.mode=bwrap \
    --cli-json-input doc.json
  assert_eq "control: $t --sandbox off runs" "$status" 0
  argv 2 | sed -n '/^--mode$/,$p' >"$TEST_TMP/got"
  cat >"$TEST_TMP/want" <<EOF
--mode
local
--config-overrides
sandbox.mode=bwrap
--cli-json-input=/src/doc.json
--sandbox
off
EOF
  same "$t: --sandbox off after every override and the JSON document" \
    "$TEST_TMP/got"

  # 3. The config: relative to the source directory; ASH_CONFIG is not
  # passed, with a warning; the file is never read (no warning about its
  # mode).
  w "$W" --config c.yaml
  assert_eq "$t --config c.yaml: exit 0" "$status" 0
  assert_eq "$t --config c.yaml: named below /src, then --sandbox off" \
    "$(argv 2 | tail -3 | tr '\n' ' ')" "--config=/src/c.yaml --sandbox off "
  assert_file_lacks "$t: the config's mode is not read, no warning" \
    "$TEST_TMP/err" "WARNING"
  for bad in "$srcreal/c.yaml" ../c.yaml sub/../../c.yaml missing.yaml; do
    w "$W" --config "$bad"
    assert_eq "$t --config $bad: exit 3, nothing run" "$status:$(calls)" "3:0"
  done
  w "$W" --cli-json-input "$srcreal/doc.json"
  assert_eq "$t --cli-json-input with an absolute path: exit 3" \
    "$status:$(calls)" "3:0"
  rm -f "$log"
  (cd "$src" && env ASH_CONFIG="$srcreal/c.yaml" FAKE_OCI_LOG="$log" \
    PATH="$bin:$sys" ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$t with ASH_CONFIG: the scan runs" "$?" 0
  assert_file_contains "$t with ASH_CONFIG: the warning" "$TEST_TMP/err" \
    "WARNING  ASH_CONFIG is set, but $wrapper does not pass it to the scan in the container"
  check_fails "$t with ASH_CONFIG: not in any command line" \
    grep -q "ASH_CONFIG" "$log"
  envof 2 >"$TEST_TMP/env"
  assert_file_lacks "$t with ASH_CONFIG: not in the runtime's environment" \
    "$TEST_TMP/env" "ASH_CONFIG"
  w "$W"
  assert_file_lacks "control: $t without ASH_CONFIG, no warning" \
    "$TEST_TMP/err" "WARNING"

  # 4. Another command gets nothing of the scan's.
  w "$W" config get scanners
  assert_eq "$t config get: exit 0" "$status" 0
  assert_eq "$t config get: the command inside" \
    "$(argv 2 | sed -n '/^automated-security-helper/,$p' | tr '\n' ' ')" \
    "automated-security-helper:non-root ash config get --source-dir /src scanners "

  # 5. The runtime: none, only inside the source directory, a named one
  # missing.  Exit 3, nothing run.
  rm -f "$log"
  (cd "$src" && env -u OCI_RUNNER FAKE_OCI_LOG="$log" PATH="$sys" \
    ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$t without a runtime: exit 3" "$?" 3
  assert_file_contains "$t without a runtime: the reason" "$TEST_TMP/err" \
    "no container runtime (finch, docker, nerdctl or podman) was found"
  mkdir -p "$src/tools"
  cp "$bin/podman" "$src/tools/docker"
  rm -f "$log"
  (cd "$src" && env -u OCI_RUNNER FAKE_OCI_LOG="$log" \
    PATH="$srcreal/tools:$sys" ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$t with a runtime only in the source directory: exit 3, not run" \
    "$?:$(calls)" "3:0"
  rm -f "$log"
  (cd "$src" && env -u OCI_RUNNER FAKE_OCI_LOG="$log" \
    PATH="$srcreal/tools:$bin:$sys" ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") \
    >/dev/null 2>&1
  assert_eq "control: $t takes the runtime outside the tree instead" \
    "$?:$(calls)" "0:2"
  rm -rf "$src/tools"
  w "$W" --oci-runner docker-nowhere
  assert_eq "$t --oci-runner naming no program: exit 3, nothing run" \
    "$status:$(calls)" "3:0"
  cp "$bin/podman" "$bin/my-runtime"
  rm -f "$log"
  (cd "$src" && env OCI_RUNNER=my-runtime FAKE_OCI_LOG="$log" PATH="$bin:$sys" \
    ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") >/dev/null 2>&1
  assert_eq "control: $t with OCI_RUNNER naming a runtime runs it" \
    "$?:$(calls)" "0:2"

  # 6. --no-build: the image must be there.
  rm -f "$log"
  (cd "$src" && env FAKE_OCI_NO_IMAGE=1 FAKE_OCI_LOG="$log" PATH="$bin:$sys" \
    "$W" --no-build) >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$t --no-build, image missing: exit 3, only the inspection" \
    "$?:$(calls):$(argv 1 | head -2 | tr '\n' ' ')" "3:1:image inspect "
  w "$W" --no-build
  assert_eq "control: $t --no-build with the image: run, no build" \
    "$status:$(calls):$(argv 2 | head -1)" "0:2:run"

  # 7. The exit code of the scan inside; a failed build.
  rm -f "$log"
  (cd "$src" && env FAKE_OCI_RUN_STATUS=2 FAKE_OCI_LOG="$log" PATH="$bin:$sys" \
    ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") >/dev/null 2>&1
  assert_eq "$t: the scan's exit code 2 comes through" "$?" 2
  rm -f "$log"
  (cd "$src" && env FAKE_OCI_BUILD_STATUS=7 FAKE_OCI_LOG="$log" PATH="$bin:$sys" \
    ${ROOT+ASH_ROOT_DIR="$ROOT"} "$W") >/dev/null 2>&1
  assert_eq "$t: a failed build exits with its code, nothing run" \
    "$?:$(calls)" "7:1"

  # 8. Values the wrapper cannot use.
  for bad in "-u abc" "--container-gid=x" "--build-target=fat" \
      "--custom-build-arg=novalue"; do
    # shellcheck disable=SC2086
    w "$W" $bad
    assert_eq "$t $bad: exit 5, nothing run" "$status:$(calls)" "5:0"
  done
  for bad in "--mode=local" "--ash-plugin-modules=p.py" \
      "--ash-revision-to-install=v3"; do
    w "$W" "$bad"
    assert_eq "$t $bad: exit 3, nothing run" "$status:$(calls)" "3:0"
  done

  # 9. The build options.
  w "$W" --offline --force --build-target ci -u 1234 -g 5678 \
    --custom-build-arg BASE_IMAGE=localhost/x:y
  assert_eq "$t build options: exit 0" "$status" 0
  argv 1 >"$TEST_TMP/got"
  cat >"$TEST_TMP/want" <<EOF
build
--build-arg
UID=1234
--build-arg
GID=5678
--tag
automated-security-helper:ci
--target
ci
--file
$root/container/Containerfile
--build-arg
OFFLINE=YES
--build-arg
OFFLINE_SEMGREP_RULESETS=p/ci
--build-arg
BASE_IMAGE=localhost/x:y
--no-cache
$root
EOF
  same "$t build options: the build command line" "$TEST_TMP/got"
  argv 2 >"$TEST_TMP/got"
  assert_file_contains "$t --offline: no network" "$TEST_TMP/got" "--network=none"
  assert_file_contains "$t --offline: the scan inside is offline" \
    "$TEST_TMP/got" "--offline"

  # The output directory may not hold the source directory.
  for o in . .. /; do
    w "$W" --output-dir "$o"
    assert_eq "$t --output-dir $o: exit 3, nothing run" "$status:$(calls)" "3:0"
  done

  # Nor be or hold a home directory; a directory inside one is fine.
  mkdir -p "$TEST_TMP/h/out"
  saved_home=$HOME
  HOME=$TEST_TMP/h
  w "$W" --output-dir "$TEST_TMP/h"
  assert_eq "$t --output-dir HOME: exit 3, nothing run" "$status:$(calls)" "3:0"
  assert_file_contains "$t: the refusal names the home" "$TEST_TMP/err" \
    "home directory '$TEST_TMP/h'"
  HOME=$TEST_TMP/h/out/deeper
  w "$W" --output-dir "$TEST_TMP/h"
  assert_eq "$t --output-dir holding HOME: exit 3, nothing run" \
    "$status:$(calls)" "3:0"
  HOME=$TEST_TMP/h
  w "$W" --output-dir "$TEST_TMP/h/out"
  assert_eq "$t --output-dir inside HOME: accepted (control)" "$status" 0
  HOME=$saved_home
  rm -rf "$TEST_TMP/h"

  # 10. An output directory the scanned tree links elsewhere.
  mkdir -p "$TEST_TMP/elsewhere" "$src/.ash"
  rm -rf "$src/.ash/ash_output"
  ln -s "$TEST_TMP/elsewhere" "$src/.ash/ash_output"
  w "$W"
  assert_eq "$t, a linked output directory: exit 3, nothing run" \
    "$status:$(calls)" "3:0"
  check "$t: nothing was written where the link points" \
    test -z "$(ls -A "$TEST_TMP/elsewhere")"
  rm "$src/.ash/ash_output"
  w "$W"
  assert_eq "control: $t without the link runs" "$status:$(calls)" "0:2"
done

# invoke-ash without a source tree cannot build; with --no-build it runs.
unset ROOT
w "$root/container/invoke-ash"
assert_eq "invoke-ash without ASH_ROOT_DIR: exit 3, nothing run" \
  "$status:$(calls)" "3:0"
assert_file_contains "and the reason" "$TEST_TMP/err" \
  "cannot build the image: no ash source tree"
w "$root/container/invoke-ash" --no-build
assert_eq "control: invoke-ash --no-build runs the image" "$status:$(calls)" "0:2"

# The POSIX wrappers pass shellcheck.
if command -v shellcheck >/dev/null 2>&1; then
  check "shellcheck: container/ash and container/invoke-ash" \
    shellcheck -s sh "$root/container/ash" "$root/container/invoke-ash"
else
  ok "# SKIP shellcheck is not installed"
fi

# Invoke-ASH.ps1: a syntax check that runs here, and its control.
ps1=$root/container/Invoke-ASH.ps1
if command -v python3 >/dev/null 2>&1; then
  check "check-ps1: Invoke-ASH.ps1 passes" "$root/build-aux/check-ps1" "$ps1"
  # shellcheck disable=SC2016
  sed 's/if (\$NoRun) { return }/if ($NoRun) { return /' "$ps1" >"$TEST_TMP/broken.ps1"
  check_fails "control: check-ps1 fails a copy missing a brace" \
    "$root/build-aux/check-ps1" "$TEST_TMP/broken.ps1"
else
  ok "# SKIP python3 is not installed (build-aux/check-ps1 needs it)"
  ok "# SKIP python3 is not installed"
fi
# shellcheck disable=SC2016
assert_file_contains "Invoke-ASH throws with exit code 5 for a sandbox mode" \
  "$ps1" 'Stop-InvokeASH 5 "--sandbox $Value cannot be used with Invoke-ASH'
# Running it needs PowerShell, which is not a Debian package.
if command -v pwsh >/dev/null 2>&1; then
  rm -f "$log"
  (cd "$src" && env FAKE_OCI_LOG="$log" PATH="$bin:$sys:$(dirname "$(command -v pwsh)")" \
    pwsh -NoProfile -NonInteractive -Command \
    ". '$ps1'; try { Invoke-ASH -Sandbox bwrap } catch { exit \$LASTEXITCODE }; exit 0") \
    >/dev/null 2>&1
  assert_eq "Invoke-ASH -Sandbox bwrap: \$LASTEXITCODE 5, nothing run" \
    "$?:$(calls)" "5:0"
  rm -f "$log"
  (cd "$src" && env FAKE_OCI_LOG="$log" PATH="$bin:$sys:$(dirname "$(command -v pwsh)")" \
    ASH_ROOT_DIR="$root" pwsh -NoProfile -NonInteractive -Command \
    ". '$ps1'; Invoke-ASH -Sandbox off; exit \$LASTEXITCODE") >/dev/null 2>&1
  assert_eq "control: Invoke-ASH -Sandbox off builds and runs" \
    "$?:$(calls):$(argv 2 | tail -1)" "0:2:off"
else
  ok "# SKIP pwsh is not installed (PowerShell is not a Debian package): Invoke-ASH -Sandbox bwrap not run"
  ok "# SKIP pwsh is not installed (PowerShell is not a Debian package): Invoke-ASH -Sandbox off not run"
fi

done_testing
