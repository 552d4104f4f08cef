#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One real container-mode scan with podman: ash build-image builds the ci
# image from this source tree on a Debian bookworm base, and
# ash scan --mode container scans the bundled example with bandit inside
# it; the host sees the same findings as a local scan of the same tree.
#
# It costs about ten minutes on two busy cores (the image's build stage
# installs the toolchain and compiles ash, and any change to the tree
# invalidates that layer), so it is opt-in: it runs with
# ASH_TEST_CONTAINER=1, which also makes the base image
# localhost/ash-debian:bookworm when podman's store lacks it
# (build-aux/container-base: debootstrap from the Debian mirror and podman
# import).
# Here podman runs containers only with --runtime=runc
# --cgroup-manager=cgroupfs and a containers.conf whose default_ulimits is
# empty: the test gives ash a podman wrapper that says so.

. "$top_srcdir/tests/libtest.sh"

base=localhost/ash-debian:bookworm
image=localhost/ash-test-e2e:ci
[ "${ASH_TEST_CONTAINER-}" = 1 ] ||
  skip_all "a real podman build and scan takes about ten minutes: set ASH_TEST_CONTAINER=1 to run it"
podman=$(command -v podman) || skip_all "podman is not installed"
[ "$(id -u)" = 0 ] || skip_all "the test builds the ci image, whose user is root, and runs podman as root"
command -v bandit >/dev/null 2>&1 ||
  skip_all "bandit is not installed (the local scan to compare with needs it)"

conf=$TEST_TMP/containers.conf
printf '[containers]\ndefault_ulimits = []\n' >"$conf"
wrap=$TEST_TMP/podman-here
cat >"$wrap" <<EOF
#!/bin/sh
CONTAINERS_CONF='$conf'
export CONTAINERS_CONF
exec '$podman' --runtime=runc --cgroup-manager=cgroupfs "\$@"
EOF
chmod +x "$wrap"

if ! "$wrap" image exists "$base"; then
  command -v debootstrap >/dev/null 2>&1 ||
    skip_all "the base image $base is not in podman's store, and debootstrap, which build-aux/container-base needs to make it, is not installed"
  PODMAN=$wrap "$top_srcdir/build-aux/container-base" "$base" >"$TEST_TMP/base.log" 2>&1 ||
    { sed 's/^/# /' "$TEST_TMP/base.log" | tail -20; bail "build-aux/container-base failed"; }
fi

# The image: ash from this tree, bandit from Debian, nothing else.
ASH_IMAGE_NAME=$image ASH_ROOT_DIR=$top_srcdir "$ASH" build-image \
  --oci-runner "$wrap" --build-target ci \
  --custom-build-arg "BASE_IMAGE=$base" \
  --custom-build-arg "SCANNER_PACKAGES=bandit" \
  --custom-build-arg "ASH_SCANNERS=none" --quiet \
  >"$TEST_TMP/build.out" 2>"$TEST_TMP/build.err"
st=$?
assert_eq "ash build-image: exit 0" "$st" 0
if [ "$st" != 0 ]; then
  tail -30 "$TEST_TMP/build.err" | awk '{ print "# " $0 }'
  done_testing
fi

# The example, copied so that neither scan writes into the source tree.
src=$TEST_TMP/vulnerable-app
cp -R "$top_srcdir/examples/vulnerable-app" "$src"
ASH_IMAGE_NAME=$image "$ASH" scan --mode container --no-build \
  --oci-runner "$wrap" --build-target ci --source-dir "$src" \
  --output-dir "$TEST_TMP/in-container" --scanners bandit --no-progress \
  >"$TEST_TMP/c.out" 2>"$TEST_TMP/c.err"
assert_eq "the scan in the container: exit 2 (bandit's findings)" "$?" 2
"$ASH" scan --mode local --sandbox off --source-dir "$src" \
  --output-dir "$TEST_TMP/local" --scanners bandit --no-progress \
  >"$TEST_TMP/l.out" 2>"$TEST_TMP/l.err"
assert_eq "the local scan: exit 2" "$?" 2

findings () {
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for run in d['runs']:
    for r in run['results']:
        loc = r['locations'][0]['physicalLocation']
        print(r['ruleId'], loc['artifactLocation']['uri'], loc['region']['startLine'])
" "$1/reports/ash.sarif" | LC_ALL=C sort
}
findings "$TEST_TMP/in-container" >"$TEST_TMP/c.findings"
findings "$TEST_TMP/local" >"$TEST_TMP/l.findings"
check "the container scan found something" test -s "$TEST_TMP/c.findings"
if cmp -s "$TEST_TMP/c.findings" "$TEST_TMP/l.findings"; then
  ok "the host sees the same findings as a local scan"
else
  not_ok "the host sees the same findings as a local scan"
  diff "$TEST_TMP/l.findings" "$TEST_TMP/c.findings" | awk '{ print "# " $0 }'
fi
check "the results are owned by the container's user (root, as here)" \
  test "$(stat -c %u "$TEST_TMP/in-container/ash_aggregated_results.json")" = 0
check "nothing was written into the scanned tree" \
  test ! -e "$src/.ash"

# --sandbox bwrap is refused before podman is started.
ASH_IMAGE_NAME=$image "$ASH" scan --mode container --no-build \
  --oci-runner "$wrap" --source-dir "$src" --output-dir "$TEST_TMP/x" \
  --sandbox bwrap >/dev/null 2>&1
assert_eq "--sandbox bwrap: exit 5" "$?" 5
check "and nothing was written" test ! -e "$TEST_TMP/x"

done_testing
