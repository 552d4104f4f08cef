#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The reports against the published schemas of their formats.
#
# CycloneDX 1.6 (ash.cdx.json, the gitlab-cyclonedx report): the official
# schema files as the npm package @cyclonedx/cyclonedx-library ships them
# (res/schema: bom-1.6, the spdx license list and jsf-0.82 it refers to),
# fetched with `npm pack` at a pinned version, its integrity checked
# against the one pinned here, and kept below the build directory
# (tests/.schema-cache); the schemas' $refs are resolved among those files,
# nothing else is fetched.  When the registry cannot be reached, those
# checks skip saying why and the reports are checked against the
# hand-written offline subset instead.
#
# SARIF 2.1.0 (ash.ghas.sarif, ash.sarif): the official schema of the
# shared data directory.
#
# GitLab SAST: GitLab's published sast-report-format.json of schema
# version 15.0.7, as GitLab's own repository vendors it (committed in
# tests/fixtures/schemas/gitlab/, origin in its README), and the offline
# subset of 15.2.2, the version the report declares, whose published
# schema is on no registry this project reaches.
#
# SPDX 2.3: the published schema of the SPDX specification
# (tests/fixtures/schemas/spdx/, origin in the README), and the subset.
#
# OCSF 1.1: no package of the registries this project reaches carries its
# published schema (tests/fixtures/schemas/README says which were looked
# at); only the offline subset checks it, and the test says so.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
python3 -c 'import jsonschema' 2>/dev/null || skip_all "python3-jsonschema is not installed"

# npm runs with the PATH the test was given: the fixtures' tools include
# a fake node.
host_path=$PATH
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$tools/syft"
cp "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
PATH=$tools:$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES CI SYFT_FAKE_MODE
mods=$top_srcdir/tests/fixtures/plugins/report-inject.yaml
offline=$top_srcdir/tests/fixtures/schemas
validator=$top_srcdir/tests/schema-validate.py
src=$TEST_TMP/src
mkdir -p "$src"
printf 'x\n' >"$src/plain.txt"
printf 'global_settings:\n  suppressions:\n    - path: plain.txt\n      rule_id: PLAIN001\n      reason: known\n' >"$TEST_TMP/c.yaml"

# scan NAME [ash scan options]: the reports of a scan, in $TEST_TMP/NAME.
scan () {
  _n=$1
  shift
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/$_n" --no-progress --sandbox off \
    --ash-plugin-modules "$mods" -c "$TEST_TMP/c.yaml" "$@"
  assert_eq "$_n: the scan runs (exit 2, the finding)" "$status" 2
}
all=cyclonedx,gitlab-cyclonedx,gitlab-sast,github-ghas,sarif,ocsf,spdx
scan full --scanners report-inject,syft -f "$all"
SYFT_FAKE_MODE=clash scan clash --scanners report-inject,syft -f cyclonedx,gitlab-cyclonedx
scan nosbom --scanners report-inject -f "$all"
cdx_docs="$TEST_TMP/full/reports/ash.cdx.json $TEST_TMP/full/reports/ash.gl-dependency-scanning-report.cdx.json
$TEST_TMP/clash/reports/ash.cdx.json $TEST_TMP/clash/reports/ash.gl-dependency-scanning-report.cdx.json
$TEST_TMP/nosbom/reports/ash.cdx.json"

# valid DIR MAIN-SCHEMA DOCUMENT...: the validator's verdict, its
# complaints in $TEST_TMP/why.
valid () {
  python3 "$validator" "$@" >"$TEST_TMP/why" 2>&1
}
# expect_valid DESCRIPTION DIR MAIN-SCHEMA DOCUMENT...
expect_valid () {
  _d=$1
  shift
  if valid "$@"; then
    ok "$_d"
  else
    not_ok "$_d"
    diag "$(head -n 20 "$TEST_TMP/why")"
  fi
}
# mutate IN OUT PYTHON: OUT is IN with PYTHON applied to its document d.
mutate () {
  python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$3
json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}

# 1. CycloneDX 1.6, the official schema from the npm registry.
pkg=@cyclonedx/cyclonedx-library
ver=10.3.0
integrity=sha512-RIT28sp1U0PCHaaeF3yNRwk6Jig/XJ8UsYAVOMYaHQ+0VVOvsjcp0PTWQFLUqJFF8XMud+Kdq6G+wtDAh+QJFA==
cache=$(cd "$(dirname "$ASH")/.." && pwd)/tests/.schema-cache
tgz=$cache/cyclonedx-cyclonedx-library-$ver.tgz
sri () {
  python3 -c 'import base64, hashlib, sys
print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$1"
}
# fetch: the pinned tarball in $tgz, or why not in $unreachable (the
# registry cannot be reached) or $broken (it answered wrongly).
unreachable=
broken=
fetch () {
  if [ -f "$tgz" ] && [ "$(sri "$tgz")" = "$integrity" ]; then
    return 0
  fi
  if ! PATH=$host_path command -v npm >/dev/null 2>&1; then
    unreachable="npm is not installed"
    return 1
  fi
  mkdir -p "$cache"
  _t=$(mktemp -d "$cache/fetch.XXXXXX")
  (cd "$_t" && PATH=$host_path npm pack --json --pack-destination "$_t" --cache "$cache/npm" \
    --fetch-retries 0 --fetch-timeout 60000 --no-audit --no-fund "$pkg@$ver") \
    >"$TEST_TMP/npm.json" 2>"$TEST_TMP/npm.err"
  _rc=$?
  if [ $_rc -ne 0 ]; then
    _code=$(sed -n 's/^npm \(error\|ERR!\) code \([A-Z_0-9]*\).*/\2/p' "$TEST_TMP/npm.err" | head -n 1)
    case $_code in
      ENOTFOUND | EAI_AGAIN | ECONNREFUSED | ECONNRESET | ETIMEDOUT | ENETUNREACH | EHOSTUNREACH | ESOCKETTIMEDOUT | ERR_SOCKET_TIMEOUT)
        unreachable="the npm registry cannot be reached (npm pack $pkg@$ver: $_code)" ;;
      *) broken="npm pack $pkg@$ver failed: ${_code:-exit $_rc}" ;;
    esac
    diag "$(tail -n 5 "$TEST_TMP/npm.err")"
    rm -rf "$_t"
    return 1
  fi
  _got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[0]["integrity"])' "$TEST_TMP/npm.json" 2>/dev/null)
  _file=$_t/$(basename "$tgz")
  if [ "$_got" != "$integrity" ] || [ ! -f "$_file" ] || [ "$(sri "$_file")" != "$integrity" ]; then
    broken="$pkg@$ver: the tarball's integrity is not the one pinned (npm says ${_got:-nothing})"
    rm -rf "$_t"
    return 1
  fi
  mv -f "$_file" "$tgz"
  rm -rf "$_t"
}
cdx=$TEST_TMP/cdx-schema
main=bom-1.6.SNAPSHOT.schema.json
if fetch; then
  ok "$pkg@$ver: fetched or cached, its integrity the one pinned"
  mkdir -p "$cdx"
  tar -xzf "$tgz" -C "$cdx" --strip-components=3 package/res/schema/$main \
    package/res/schema/spdx.SNAPSHOT.schema.json package/res/schema/jsf-0.82.SNAPSHOT.schema.json
  check "the package carries the CycloneDX 1.6 schema, its spdx and jsf schemas" \
    test -s "$cdx/$main" -a -s "$cdx/spdx.SNAPSHOT.schema.json" -a -s "$cdx/jsf-0.82.SNAPSHOT.schema.json"
  assert_eq "it is the official CycloneDX 1.6 schema" \
    "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["$id"])' "$cdx/$main")" \
    "http://cyclonedx.org/schema/bom-1.6.schema.json"
  for d in $cdx_docs; do
    expect_valid "${d#"$TEST_TMP"/}: valid CycloneDX 1.6 (official schema)" "$cdx" "$main" "$d"
  done
  # Controls: the schema rejects what it must, its $refs resolved locally
  # (the license id is checked against the spdx schema).
  mutate "$TEST_TMP/full/reports/ash.cdx.json" "$TEST_TMP/bad.json" \
    'd["vulnerabilities"][0]["ratings"][0]["severity"] = "severe"'
  check_fails "control: a rating 'severe' is rejected" valid "$cdx" "$main" "$TEST_TMP/bad.json"
  mutate "$TEST_TMP/full/reports/ash.cdx.json" "$TEST_TMP/lic.json" \
    'd["components"][0]["licenses"] = [{"license": {"id": "MIT"}}]'
  expect_valid "control: a component with the SPDX license MIT is valid" "$cdx" "$main" "$TEST_TMP/lic.json"
  mutate "$TEST_TMP/full/reports/ash.cdx.json" "$TEST_TMP/bad.json" \
    'd["components"][0]["licenses"] = [{"license": {"id": "NOT-A-LICENSE"}}]'
  check_fails "control: a license id not in the spdx schema is rejected (its \$ref resolved)" \
    valid "$cdx" "$main" "$TEST_TMP/bad.json"
  assert_file_contains "... and why" "$TEST_TMP/why" "components/0/licenses"
  mutate "$TEST_TMP/full/reports/ash.cdx.json" "$TEST_TMP/bad.json" \
    'd["components"][0]["type"] = "gadget"'
  check_fails "control: a component of an unknown type is rejected" valid "$cdx" "$main" "$TEST_TMP/bad.json"
else
  if [ -n "$broken" ]; then
    not_ok "$broken"
  else
    ok "# SKIP official CycloneDX 1.6 schema: $unreachable"
  fi
  for d in $cdx_docs; do
    expect_valid "${d#"$TEST_TMP"/}: valid against the offline CycloneDX 1.6 subset" \
      "$offline" cyclonedx-1.6-offline-subset.json "$d"
  done
  mutate "$TEST_TMP/full/reports/ash.cdx.json" "$TEST_TMP/bad.json" \
    'd["vulnerabilities"][0]["ratings"][0]["severity"] = "severe"'
  check_fails "control: the subset rejects a rating 'severe'" \
    valid "$offline" cyclonedx-1.6-offline-subset.json "$TEST_TMP/bad.json"
fi

# 2. SARIF 2.1.0, the official schema.
sarif_dir=$top_srcdir/../shared/data
[ -f "$sarif_dir/sarif-schema-2.1.0.json" ] || sarif_dir=/work/shared/data
if [ -f "$sarif_dir/sarif-schema-2.1.0.json" ]; then
  mkdir -p "$TEST_TMP/sarif-schema"
  cp "$sarif_dir/sarif-schema-2.1.0.json" "$TEST_TMP/sarif-schema/"
  for d in full/reports/ash.ghas.sarif full/reports/ash.sarif nosbom/reports/ash.ghas.sarif; do
    expect_valid "$d: valid SARIF 2.1.0 (official schema)" "$TEST_TMP/sarif-schema" sarif-schema-2.1.0.json "$TEST_TMP/$d"
  done
  mutate "$TEST_TMP/full/reports/ash.ghas.sarif" "$TEST_TMP/bad.json" 'd["runs"][0]["results"][0]["level"] = "fatal"'
  check_fails "control: a result of level 'fatal' is rejected" \
    valid "$TEST_TMP/sarif-schema" sarif-schema-2.1.0.json "$TEST_TMP/bad.json"
else
  ok "# SKIP official SARIF 2.1.0 schema: not in the shared data directory"
fi

# 3. GitLab SAST: GitLab's published schema 15.0.7.
gl=$top_srcdir/tests/fixtures/schemas/gitlab
assert_eq "the GitLab schema is the published SAST report format" \
  "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["$id"], d["self"]["version"])' "$gl/sast-report-format-15.0.7.json")" \
  "https://gitlab.com/gitlab-org/security-products/security-report-schemas/-/raw/master/dist/sast-report-format.json 15.0.7"
for d in full nosbom; do
  expect_valid "$d/reports/ash.gl-sast-report.json: valid GitLab SAST (GitLab's published schema 15.0.7)" \
    "$gl" sast-report-format-15.0.7.json "$TEST_TMP/$d/reports/ash.gl-sast-report.json"
done
mutate "$TEST_TMP/full/reports/ash.gl-sast-report.json" "$TEST_TMP/bad.json" 'd["vulnerabilities"][0]["severity"] = "Severe"'
check_fails "control: GitLab's schema rejects a severity 'Severe'" \
  valid "$gl" sast-report-format-15.0.7.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.gl-sast-report.json" "$TEST_TMP/bad.json" 'd["scan"]["start_time"] = "2026-01-01T00:00:00Z"'
check_fails "control: GitLab's schema rejects a start_time with a zone" \
  valid "$gl" sast-report-format-15.0.7.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.gl-sast-report.json" "$TEST_TMP/bad.json" 'd["vulnerabilities"][0]["name"] = "x" * 256'
check_fails "control: GitLab's schema rejects a name of 256 characters" \
  valid "$gl" sast-report-format-15.0.7.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.gl-sast-report.json" "$TEST_TMP/bad.json" 'd["vulnerabilities"][0]["identifiers"] = []'
check_fails "control: GitLab's schema rejects a vulnerability without identifiers" \
  valid "$gl" sast-report-format-15.0.7.json "$TEST_TMP/bad.json"

# 4. SPDX 2.3: the specification's published schema.
sp=$top_srcdir/tests/fixtures/schemas/spdx
assert_eq "the SPDX schema is the published SPDX 2.3 schema" \
  "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["$id"], d["title"])' "$sp/spdx-schema-2.3.json")" \
  "http://spdx.org/rdf/terms/2.3 SPDX 2.3"
expect_valid "full/reports/ash.spdx.json: valid SPDX 2.3 (the published schema)" \
  "$sp" spdx-schema-2.3.json "$TEST_TMP/full/reports/ash.spdx.json"
mutate "$TEST_TMP/full/reports/ash.spdx.json" "$TEST_TMP/bad.json" 'd["packages"][0]["primaryPackagePurpose"] = "GADGET"'
check_fails "control: the SPDX schema rejects a package purpose 'GADGET'" \
  valid "$sp" spdx-schema-2.3.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.spdx.json" "$TEST_TMP/bad.json" 'd["packages"][0]["color"] = "red"'
check_fails "control: the SPDX schema rejects a package member it does not define" \
  valid "$sp" spdx-schema-2.3.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.spdx.json" "$TEST_TMP/bad.json" 'del d["creationInfo"]'
check_fails "control: the SPDX schema rejects a document without creationInfo" \
  valid "$sp" spdx-schema-2.3.json "$TEST_TMP/bad.json"

# 5. GitLab SAST 15.2.2, SPDX 2.3, OCSF 1.1: the offline subsets.
ok "# SKIP GitLab's published schema 15.2.2: no registry this project reaches carries it (15.0.7 is checked above)"
for f in "gitlab-sast-15.2.2:ash.gl-sast-report.json:GitLab SAST 15.2.2" \
  "spdx-2.3:ash.spdx.json:SPDX 2.3" \
  "ocsf-1.1-vulnerability-finding:ash.ocsf.json:OCSF 1.1 Vulnerability Finding"; do
  s=${f%%:*}
  r=${f#*:}
  r=${r%%:*}
  n=${f##*:}
  [ "$s" = ocsf-1.1-vulnerability-finding ] &&
    ok "# SKIP official $n schema: no package of the npm registry carries it"
  for d in full nosbom; do
    [ "$r" = ash.spdx.json ] && [ $d = nosbom ] && continue
    expect_valid "$d/reports/$r: valid against the offline $n subset" "$offline" "$s-offline-subset.json" "$TEST_TMP/$d/reports/$r"
  done
done
mutate "$TEST_TMP/full/reports/ash.gl-sast-report.json" "$TEST_TMP/bad.json" 'd["vulnerabilities"][0]["severity"] = "Severe"'
check_fails "control: the GitLab subset rejects a severity 'Severe'" \
  valid "$offline" gitlab-sast-15.2.2-offline-subset.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.spdx.json" "$TEST_TMP/bad.json" 'd["spdxVersion"] = "SPDX-9.9"'
check_fails "control: the SPDX subset rejects another spdxVersion" \
  valid "$offline" spdx-2.3-offline-subset.json "$TEST_TMP/bad.json"
mutate "$TEST_TMP/full/reports/ash.ocsf.json" "$TEST_TMP/bad.json" 'd[0]["class_uid"] = 1'
check_fails "control: the OCSF subset rejects another class" \
  valid "$offline" ocsf-1.1-vulnerability-finding-offline-subset.json "$TEST_TMP/bad.json"

done_testing
