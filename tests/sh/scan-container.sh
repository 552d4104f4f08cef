#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash scan --mode container and ash build-image, against a container
# runtime that records every call (tests/fixtures/tools/fake-oci-runtime):
# the exact build and run command lines and the runtime's environment,
# every refusal (each with its control), the sandbox warning, and that
# nothing ever runs on the host.

. "$top_srcdir/tests/libtest.sh"

src=$TEST_TMP/src
out=$TEST_TMP/outdir
bin=$TEST_TMP/bin
log=$TEST_TMP/oci.log
mkdir -p "$src/.ash" "$bin"
printf 'import pickle\n' >"$src/a.py"
cp "$top_srcdir/tests/fixtures/tools/fake-oci-runtime" "$bin/podman"
# A bandit on PATH that records that it ran: a scan on the host would.
cat >"$bin/bandit" <<EOS
#!/bin/sh
echo ran >>"$TEST_TMP/bandit-ran"
exit 0
EOS
chmod +x "$bin/bandit"
srcreal=$(cd "$src" && pwd -P)
root=$(cd "$top_srcdir" && pwd -P)
uid=$(id -u)
gid=$(id -g)

# c ARGS...: ash with the fake runtime first on PATH; stdout and stderr in
# $TEST_TMP/out, err; $status.
c () {
  rm -f "$log"
  env -u ASH_CONFIG -u OCI_RUNNER -u ASH_IMAGE_NAME -u ASH_MODE \
    FAKE_OCI_LOG="$log" PATH="$bin:/usr/bin:/bin" ASH_ROOT_DIR="$root" \
    CONTAINER_TEST_MARKER=kept "$ASH" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

# argv N: the arguments of the runtime's Nth call, one a line.
argv () {
  awk -v n="$1" '/^call$/ { k++ } k == n && /^arg / { sub(/^arg /, ""); print }' "$log"
}
envof () {
  awk -v n="$1" '/^call$/ { k++ } k == n && /^env / { sub(/^env /, ""); print }' "$log"
}
calls () {
  if [ -f "$log" ]; then grep -c '^call$' "$log"; else echo 0; fi
}
# same DESCRIPTION GOT-FILE: ok when GOT-FILE equals $TEST_TMP/want.
same () {
  if cmp -s "$2" "$TEST_TMP/want"; then
    ok "$1"
  else
    not_ok "$1"
    diff "$TEST_TMP/want" "$2" | awk '{ print "# " $0 }'
  fi
}
no_host_scan () {
  check "$1: no scanner ran on the host" test ! -e "$TEST_TMP/bandit-ran"
}

# 1. The scan: the image is built, then run with the source read-only at
# /src and the output at /out; the exit code of the scan inside is ash's.
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --scanners bandit --no-progress -v
assert_eq "container scan: exit 0 as the scan inside" "$status" 0
assert_eq "container scan: a build and a run" "$(calls)" 2
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
same "the build command line" "$TEST_TMP/got"
cat >"$TEST_TMP/want" <<EOF
run
--rm
-e
ASH_ACTUAL_SOURCE_DIR=$srcreal
-e
ASH_ACTUAL_OUTPUT_DIR=$(cd "$out" && pwd -P)
-e
ASH_DEBUG=NO
--mount
type=bind,source=$srcreal,destination=/src,readonly
--mount
type=bind,source=$(cd "$out" && pwd -P),destination=/out
automated-security-helper:non-root
ash
scan
--source-dir
/src
--output-dir
/out
--mode
local
--scanners=bandit
--no-progress
--verbose
--config-overrides=sandbox.mode=off
EOF
argv 2 >"$TEST_TMP/got"
same "the run command line" "$TEST_TMP/got"
envof 2 >"$TEST_TMP/env"
assert_file_contains "the runtime gets ash's environment" "$TEST_TMP/env" \
  "CONTAINER_TEST_MARKER=kept"
check "what the container wrote is in the output directory" \
  test -s "$out/from-the-container"
check "the output directory is the operator's" \
  test "$(stat -c %u "$out")" = "$uid"
no_host_scan "container scan"

for st in 1 2; do
  rm -f "$log"
  FAKE_OCI_RUN_STATUS=$st FAKE_OCI_LOG="$log" PATH="$bin:/usr/bin:/bin" \
    ASH_ROOT_DIR="$root" "$ASH" scan --mode container --source-dir "$src" \
    --output-dir "$out" >/dev/null 2>&1
  assert_eq "the scan's exit code $st comes through" "$?" "$st"
done
rm -f "$log"
FAKE_OCI_BUILD_STATUS=7 FAKE_OCI_LOG="$log" PATH="$bin:/usr/bin:/bin" \
  ASH_ROOT_DIR="$root" "$ASH" scan --mode container --source-dir "$src" \
  --output-dir "$out" >/dev/null 2>&1
assert_eq "a failed build: its exit code" "$?" 7
assert_eq "a failed build: nothing is run" "$(calls)" 1

# An output directory inside the source directory is hidden from the scan.
c scan --mode container --source-dir "$src"
assert_eq "default output directory: exit 0" "$status" 0
argv 2 >"$TEST_TMP/got"
assert_file_contains "the output inside the source is masked by a tmpfs" \
  "$TEST_TMP/got" "type=tmpfs,destination=/src/.ash/ash_output"

# 2. --sandbox other than off: exit 5 before any image is built or run.
for m in auto bwrap firejail landlock; do
  c scan --mode container --source-dir "$src" --output-dir "$out" --sandbox "$m"
  assert_eq "--sandbox $m: exit 5" "$status" 5
  assert_eq "--sandbox $m: the runtime is never called" "$(calls)" 0
done
printf '{"sandbox": "bwrap"}\n' >"$TEST_TMP/doc.json"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --cli-json-input "$TEST_TMP/doc.json"
assert_eq "--cli-json-input's sandbox bwrap: exit 5" "$status" 5
assert_eq "and the runtime is never called" "$(calls)" 0
c scan --mode container --source-dir "$src" --output-dir "$out" --sandbox off
assert_eq "control: --sandbox off runs" "$status" 0
argv 2 | tail -2 >"$TEST_TMP/got"
printf '%s\n' --sandbox=off --config-overrides=sandbox.mode=off >"$TEST_TMP/want"
same "--sandbox off reaches the scan inside, then sandbox.mode=off" \
  "$TEST_TMP/got"
no_host_scan "--sandbox"

# 3. A mode from the config file or an override: the warning, whatever
# --quiet and --log-level say, and sandbox.mode=off as the last override.
printf 'sandbox:\n  mode: bwrap\n' >"$src/.ash/.ash.yaml"
for q in --quiet "--log-level=CRITICAL"; do
  c scan --mode container --source-dir "$src" --output-dir "$out" "$q"
  assert_eq "config mode bwrap, $q: the scan runs" "$status" 0
  assert_file_contains "config mode bwrap, $q: the warning" "$TEST_TMP/err" \
    "WARNING  sandbox.mode bwrap (from $src/.ash/.ash.yaml) is not applied in container mode"
  assert_eq "config mode bwrap, $q: sandbox.mode=off is the last argument" \
    "$(argv 2 | tail -1)" "--config-overrides=sandbox.mode=off"
done
printf 'sandbox:\n  mode: "off"\n' >"$src/.ash/.ash.yaml"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --config-overrides sandbox.mode=landlock
assert_file_contains "an override asking for landlock: the warning" \
  "$TEST_TMP/err" "sandbox.mode landlock (from --config-overrides) is not applied"
argv 2 | tail -2 >"$TEST_TMP/got"
printf '%s\n' --config-overrides=sandbox.mode=landlock \
  --config-overrides=sandbox.mode=off >"$TEST_TMP/want"
same "the override is passed, then sandbox.mode=off after it" "$TEST_TMP/got"
c scan --mode container --source-dir "$src" --output-dir "$out"
assert_file_lacks "control: mode off in the config, no warning" \
  "$TEST_TMP/err" "WARNING"
rm -f "$src/.ash/.ash.yaml"

# 4. The runtime: none found, one found only inside the scanned tree, a
# named one that is missing.  Each exits 3 and runs nothing.
# ash needs nothing from PATH in container mode but the runtime, so PATH
# can leave out the runtimes this machine may have.
rm -f "$log"
env -u OCI_RUNNER FAKE_OCI_LOG="$log" PATH="$TEST_TMP/none" \
  ASH_ROOT_DIR="$root" "$ASH" scan --mode container --source-dir "$src" \
  --output-dir "$TEST_TMP/fresh" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "no runtime: exit 3" "$?" 3
check "no runtime: no output directory was made" test ! -e "$TEST_TMP/fresh"
assert_file_contains "no runtime: the reason" "$TEST_TMP/err" \
  "no container runtime (finch, docker, nerdctl or podman) was found"
mkdir -p "$src/tools"
cp "$bin/podman" "$src/tools/podman"
for allow in "" --allow-in-tree-tools; do
  rm -f "$log"
  # shellcheck disable=SC2086
  env -u OCI_RUNNER FAKE_OCI_LOG="$log" PATH="$src/tools" \
    ASH_ROOT_DIR="$root" "$ASH" scan --mode container --source-dir "$src" \
    --output-dir "$out" $allow >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "runtime only in the tree $allow: exit 3" "$?" 3
  assert_file_contains "runtime only in the tree $allow: the reason" \
    "$TEST_TMP/err" "podman only inside the scanned directory"
  assert_eq "runtime only in the tree $allow: it is never run" "$(calls)" 0
done
rm -f "$log"
env -u OCI_RUNNER FAKE_OCI_LOG="$log" PATH="$bin" ASH_ROOT_DIR="$root" \
  "$ASH" scan --mode container --source-dir "$src" --output-dir "$out" \
  >/dev/null 2>&1
assert_eq "control: the same runtime outside the tree runs" "$?:$(calls)" "0:2"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --oci-runner "$src/tools/podman"
assert_eq "--oci-runner inside the tree: exit 3" "$status" 3
assert_eq "--oci-runner inside the tree: never run" "$(calls)" 0
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --oci-runner docker-nowhere
assert_eq "--oci-runner naming no program: exit 3" "$status" 3
assert_file_contains "and the reason names it" "$TEST_TMP/err" \
  "the container runtime 'docker-nowhere' cannot be used"
assert_eq "no other runtime is tried in its place" "$(calls)" 0
rm -f "$log"
OCI_RUNNER=docker-nowhere FAKE_OCI_LOG="$log" PATH="$bin:/usr/bin:/bin" \
  ASH_ROOT_DIR="$root" "$ASH" scan --mode container --source-dir "$src" \
  --output-dir "$out" >/dev/null 2>&1
assert_eq "OCI_RUNNER naming no program: exit 3, nothing run" \
  "$?:$(calls)" "3:0"
cp "$bin/podman" "$bin/my-runtime"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --oci-runner my-runtime
assert_eq "control: --oci-runner naming an installed runtime runs it" \
  "$status:$(argv 1 | head -1)" "0:build"
rm -rf "$src/tools"
no_host_scan "runtime"

# 5. --no-build: the image must exist.
rm -f "$log"
FAKE_OCI_NO_IMAGE=1 FAKE_OCI_LOG="$log" PATH="$bin:/usr/bin:/bin" \
  "$ASH" scan --mode container --source-dir "$src" \
  --output-dir "$TEST_TMP/fresh" --no-build >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "--no-build, image missing: exit 3" "$?" 3
check "--no-build, image missing: no output directory was made" \
  test ! -e "$TEST_TMP/fresh"
assert_file_contains "--no-build, image missing: the reason" "$TEST_TMP/err" \
  "the image automated-security-helper:non-root is missing"
assert_eq "--no-build, image missing: only the inspection ran" \
  "$(argv 1 | head -2 | tr '\n' ' ')" "image inspect "
assert_eq "--no-build, image missing: nothing else" "$(calls)" 1
c scan --mode container --source-dir "$src" --output-dir "$out" -B
assert_eq "control: -B with the image there runs it, no build" \
  "$status:$(calls):$(argv 2 | head -1)" "0:2:run"

# 6. Building needs ash's source tree; --no-build does not.
rm -f "$log"
FAKE_OCI_LOG="$log" PATH="$bin:/usr/bin:/bin" ASH_ROOT_DIR="$TEST_TMP" \
  "$ASH" scan --mode container --source-dir "$src" --output-dir "$out" \
  >"$TEST_TMP/out" 2>"$TEST_TMP/err"
assert_eq "no source tree to build from: exit 3" "$?" 3
assert_file_contains "no source tree: the reason" "$TEST_TMP/err" \
  "container mode cannot build the image: no ash source tree"
assert_eq "no source tree: the runtime is never called" "$(calls)" 0

# 7. The options of the build, and ash build-image.
c build-image --source-dir "$src" --build-target ci -u 1234 -g 5678 --force \
  --offline --quiet --custom-build-arg BASE_IMAGE=localhost/x:y \
  --offline-semgrep-rulesets p/default
assert_eq "build-image: exit 0, one call" "$status:$(calls)" "0:1"
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
OFFLINE_SEMGREP_RULESETS=p/default
--build-arg
BASE_IMAGE=localhost/x:y
--no-cache
-q
$root
EOF
argv 1 >"$TEST_TMP/got"
same "build-image: the command line" "$TEST_TMP/got"
# shellcheck disable=SC2016
printf 'ARG ASH_BASE_IMAGE\nFROM ${ASH_BASE_IMAGE}\n' >"$TEST_TMP/Custom"
c scan --mode container --source-dir "$src" --output-dir "$out" --offline \
  --custom-containerfile "$TEST_TMP/Custom" --build-target ci
assert_eq "custom containerfile: two builds and a run" "$status:$(calls)" "0:3"
cat >"$TEST_TMP/want" <<EOF
build
--tag
automated-security-helper:custom
--file
$TEST_TMP/Custom
--build-arg
ASH_BASE_IMAGE=automated-security-helper:ci
$TEST_TMP
EOF
argv 2 >"$TEST_TMP/got"
same "custom containerfile: built on the image" "$TEST_TMP/got"
argv 3 >"$TEST_TMP/got"
assert_file_contains "custom containerfile: its image is run" "$TEST_TMP/got" \
  "automated-security-helper:custom"
assert_file_contains "--offline: no network for the container" \
  "$TEST_TMP/got" "--network=none"
assert_file_contains "--offline: the scan inside is offline" \
  "$TEST_TMP/got" "--offline"
c scan --mode container --source-dir "$src" --output-dir "$out" --no-run
assert_eq "--no-run: the build only" "$status:$(calls):$(argv 1 | head -1)" \
  "0:1:build"

# 8. Values container mode cannot use.
for bad in "-u abc" "--container-gid=-1" "--build-target=fat" \
    "--custom-build-arg=novalue" "--custom-build-arg==x"; do
  # shellcheck disable=SC2086
  c scan --mode container --source-dir "$src" --output-dir "$out" $bad
  assert_eq "$bad: exit 5, nothing run" "$status:$(calls)" "5:0"
done
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --ash-revision-to-install v3.0.0
assert_eq "--ash-revision-to-install v3.0.0: exit 3, nothing run" \
  "$status:$(calls)" "3:0"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --ash-revision-to-install LOCAL
assert_eq "control: --ash-revision-to-install LOCAL runs" "$status" 0
printf 'x = 1\n' >"$TEST_TMP/plugin.py"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --ash-plugin-modules "$TEST_TMP/plugin.py"
assert_eq "plugin modules: exit 3, nothing run" "$status:$(calls)" "3:0"
printf 'sandbox:\n  mode: "off"\n' >"$TEST_TMP/outside.yaml"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --config "$TEST_TMP/outside.yaml"
assert_eq "a config outside the source directory: exit 3, nothing run" \
  "$status:$(calls)" "3:0"
assert_file_contains "and the reason" "$TEST_TMP/err" \
  "is all the scan in the container sees"
rm -f "$log"
ASH_CONFIG="$TEST_TMP/outside.yaml" FAKE_OCI_LOG="$log" \
  PATH="$bin:/usr/bin:/bin" ASH_ROOT_DIR="$root" "$ASH" scan \
  --mode container --source-dir "$src" --output-dir "$out" >/dev/null 2>&1
assert_eq "ASH_CONFIG outside the source directory: exit 3, nothing run" \
  "$?:$(calls)" "3:0"
mkdir -p "$src/conf"
cp "$TEST_TMP/outside.yaml" "$src/conf/ash.yaml"
c scan --mode container --source-dir "$src" --output-dir "$out" \
  --config "$src/conf/ash.yaml"
assert_eq "control: a config inside the source directory runs" "$status" 0
assert_file_contains "and the scan inside names it below /src" \
  "$TEST_TMP/oci.log" "arg --config=/src/conf/ash.yaml"
rm -rf "$src/conf"

# 9. An output directory the scanned tree links elsewhere: exit 3 before
# the runtime is called; nothing is written where the link points.
mkdir -p "$TEST_TMP/elsewhere"
rm -rf "$src/.ash/ash_output"
ln -s "$TEST_TMP/elsewhere" "$src/.ash/ash_output"
c scan --mode container --source-dir "$src"
assert_eq "a linked output directory: exit 3, nothing run" "$status:$(calls)" "3:0"
check "nothing was written where it points" \
  test -z "$(ls -A "$TEST_TMP/elsewhere")"
rm "$src/.ash/ash_output"
c scan --mode container --source-dir "$src"
assert_eq "control: the same without the link runs" "$status:$(calls)" "0:2"

# 10. A container option in a local scan is a usage error, not ignored.
for f in --no-build "--oci-runner=podman" "-u1000" "--build-target=ci"; do
  c scan --source-dir "$src" --output-dir "$out" --scanners bandit "$f"
  assert_eq "local scan with $f: exit 5" "$status" 5
done
no_host_scan "local scan with a container option"
c scan --source-dir "$src" --output-dir "$out" --scanners bandit
check "control: the local scan runs the scanner" test -s "$TEST_TMP/bandit-ran"

done_testing
