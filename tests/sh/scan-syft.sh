#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# syft end to end through a fake syft that writes the real syft SBOM: the
# CycloneDX SBOM is kept under the scanner's results (the cyclonedx
# reports carry it), syft contributes no findings, it gets ash's empty config and a
# private cache, the same under every usable backend; a broken SBOM is an
# ERROR naming it; options reach syft's command line.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/src
mkdir -p "$src/js" "$src/vendor"
printf 'GEM\n  specs:\n    addressable (2.7.0)\n' >"$src/js/Gemfile.lock"
printf 'exclude: ["./js"]\n' >"$src/.syft.yaml"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$tools/syft"
cp "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
PATH=$tools:$PATH
export PATH
unset SYFT_FAKE_MODE SYFT_CACHE_DIR || :

status_of () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"][sys.argv[2]]
print(r["status"], r.get("error_reason") or r.get("missing_reason") or "", r["finding_count"])' "$1/ash_aggregated_results.json" "$2"
}
components () {
  python3 -c '
import json, sys
print(len(json.load(open(sys.argv[1]))["components"]))' "$1/scanners/syft/source/syft.cdx.json"
}

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/off" --no-progress --sandbox off --scanners syft
assert_eq "an SBOM only: exit 0" "$status" 0
assert_eq "PASSED with no findings" "$(status_of "$TEST_TMP/off" syft)" "PASSED  0"
assert_eq "the CycloneDX SBOM is kept, with the 33 packages" "$(components "$TEST_TMP/off")" 33
check "syft's own JSON SBOM is kept" test -s "$TEST_TMP/off/scanners/syft/source/syft.json"
assert_eq "the CycloneDX report carries the SBOM's 33 components" \
  "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["components"]))' "$TEST_TMP/off/reports/ash.cdx.json")" 33
check "the default additional output (syft-table) is kept" test -s "$TEST_TMP/off/scanners/syft/source/syft.cdx.json.syft-table.txt"
assert_file_contains "the log says where the SBOM is and which reports carry it" "$TEST_TMP/err" "syft: the CycloneDX SBOM (33 components) is kept at scanners/syft/source/syft.cdx.json; the cyclonedx, spdx and gitlab-cyclonedx reports carry it"
log=$TEST_TMP/off/scanners/syft/source/syft.stderr.log
assert_file_contains "dir:SOURCE with its base path" "$log" "argv=dir:$src --base-path $src --config "
assert_file_lacks "the tree's .syft.yaml is never passed" "$log" "$src/.syft.yaml"
assert_file_contains "no update check" "$log" "update=false"
python3 -c '
import json, sys
run = [r for r in json.load(open(sys.argv[1]))["runs"] if r["tool"]["driver"]["name"] == "syft"][0]
assert run["tool"]["driver"]["version"] == "1.22.0"
assert run["properties"]["sbom"] == "scanners/syft/source/syft.cdx.json"
assert run["properties"]["sbom_components"] == 33
assert run["results"] == []
' "$TEST_TMP/off/reports/ash.sarif"
check "the SARIF run names the SBOM and has no results" test $? -eq 0

# The merged ash.sarif is valid SARIF 2.1.0.
schema=/work/shared/data/sarif-schema-2.1.0.json
[ -f "$top_srcdir/../shared/data/sarif-schema-2.1.0.json" ] && schema=$top_srcdir/../shared/data/sarif-schema-2.1.0.json
if python3 -c 'import jsonschema' 2>/dev/null && [ -f "$schema" ]; then
  python3 -c '
import json, sys, jsonschema
jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "$schema" "$TEST_TMP/off/reports/ash.sarif"
  check "ash.sarif validates against the SARIF 2.1.0 schema" test $? -eq 0
else
  ok "# SKIP python3-jsonschema or the SARIF schema is not available"
fi
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
backends=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe")
for b in $backends; do
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/out-$b" --no-progress --sandbox "$b" --scanners syft
  assert_eq "$b: exit 0" "$status" 0
  assert_eq "$b: the same SBOM" "$(components "$TEST_TMP/out-$b")" 33
  check "$b: the SBOM is the same as unsandboxed" cmp -s "$TEST_TMP/out-$b/scanners/syft/source/syft.cdx.json" "$TEST_TMP/off/scanners/syft/source/syft.cdx.json"
  # syft's cache is private: a directory of its own under the results
  # (where the backend has no throwaway overlay), else ~/.cache/syft in
  # the sandbox's private home; never the operator's.
  sed -n 's/^fake-syft: .* cache=\([^ ]*\) update=.* home=\([^ ]*\)$/\1 \2/p' \
    "$TEST_TMP/out-$b/scanners/syft/source/syft.stderr.log" | head -n 1 >"$TEST_TMP/cache-$b"
  read -r c h <"$TEST_TMP/cache-$b" || :
  diag "$b: SYFT_CACHE_DIR='${c:-}' HOME='${h:-}'"
  case ${c:-}:${h:-} in
    "$TEST_TMP/out-$b/scanners/syft/"*:*) ok "$b: syft's cache is private (under its results)" ;;
    :"$HOME"|:) not_ok "$b: syft's cache is private (it would use the operator's)" ;;
    :*) ok "$b: syft's cache is private (in the sandbox's own home)" ;;
    *) not_ok "$b: syft's cache is private: '$c'" ;;
  esac
done
[ -n "$backends" ] || ok "# SKIP no sandbox backend is usable here"

cp "$top_srcdir/tests/fixtures/tools/fake-sarif-tool" "$tools/"
printf 'FAKE-FINDING high\n' >"$src/notes.txt"
# ash sandbox explain syft: the spec's row (no network, syft's cache,
# which a backend without overlays replaces with a private one).
mkdir -p "$TEST_TMP/home/.cache/syft"
for b in auto landlock; do
  HOME=$TEST_TMP/home "$ASH" sandbox explain syft --sandbox "$b" --source-dir "$src" >"$TEST_TMP/explain-$b" 2>/dev/null
done
python3 - "$TEST_TMP/explain-auto" "$TEST_TMP/home" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["network"] is False, d["network"]
assert any(p["path"] == sys.argv[2] + "/.cache/syft" and p["access"] == "cache" for p in d["paths"]), d["paths"]
PY
check "explain syft: no network, ~/.cache/syft as its cache" test $? -eq 0
check "explain syft under Landlock: a private SYFT_CACHE_DIR" grep -q '"name": "SYFT_CACHE_DIR"' "$TEST_TMP/explain-landlock"

for mode in empty truncated notjson none exit3; do
  SYFT_FAKE_MODE=$mode run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/bad-$mode" --no-progress --sandbox off \
    --scanners syft,fake-sarif --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml"
  assert_eq "$mode: exit 1" "$status" 1
  case $(status_of "$TEST_TMP/bad-$mode" syft) in
    "ERROR syft exited with status 3"*|ERROR*syft.cdx.json*) ok "$mode: ERROR naming the SBOM or the status" ;;
    *) not_ok "$mode: ERROR naming the SBOM: $(status_of "$TEST_TMP/bad-$mode" syft)" ;;
  esac
  case $(status_of "$TEST_TMP/bad-$mode" fake-sarif) in
    FAILED*) ok "$mode: the other scanner's results are kept" ;;
    *) not_ok "$mode: the other scanner's results are kept: $(status_of "$TEST_TMP/bad-$mode" fake-sarif)" ;;
  esac
done

cat >"$TEST_TMP/opts.yaml" <<'EOC'
global_settings:
  ignore_paths:
    - path: vendor
      reason: third party
scanners:
  syft:
    options:
      exclude:
        - path: js/old
          reason: legacy
      additional_outputs: [spdx-json]
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/opts" --no-progress --sandbox off --scanners syft --config "$TEST_TMP/opts.yaml"
log=$TEST_TMP/opts/scanners/syft/source/syft.stderr.log
assert_file_contains "exclude becomes --exclude" "$log" "--exclude=./js/old"
assert_file_contains "ignore_paths becomes --exclude" "$log" "--exclude=./vendor"
assert_file_contains "additional_outputs becomes -o" "$log" "-o spdx-json=$TEST_TMP/opts/scanners/syft/source/syft.cdx.json.spdx-json.json"
check "the additional output is kept" test -s "$TEST_TMP/opts/scanners/syft/source/syft.cdx.json.spdx-json.json"
cat >"$TEST_TMP/unk.yaml" <<'EOC'
scanners:
  syft:
    options:
      scope: all-layers
EOC
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/unk" --no-progress --sandbox off --scanners syft --config "$TEST_TMP/unk.yaml"
assert_eq "an unknown option: a configuration error (exit 3)" "$status" 3
assert_file_contains "... naming it" "$TEST_TMP/err" "scanners.syft.options: unknown option 'scope'"
check "... before any scanner ran" test ! -e "$TEST_TMP/unk/scanners"

# As an unprivileged operator (the test runs as root): the same SBOM
# unsandboxed and under each usable backend.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  who=$(unpriv_user)
  as_user=$(as_unpriv_cmd "$who")
  u=$TEST_TMP/unpriv
  mkdir -p "$u/home"
  chown -R "$who" "$u"
  chmod a+rx "$TEST_TMP"
  chmod -R a+rX "$src" "$tools"
  for m in off $backends; do
    $as_user env -i PATH="$tools:/usr/bin:/bin" HOME="$u/home" LANG=C.UTF-8 \
      "$ASH" scan --source-dir "$src" --output-dir "$u/out-$m" --no-progress \
      --sandbox "$m" --scanners syft >"$u/out" 2>"$u/err"
    st=$?
    assert_eq "$who, $m: exit 0" "$st" 0
    [ "$st" = 0 ] || diag "$(tail -n 5 "$u/err")"
    check "$who, $m: the SBOM is the same as root's unsandboxed one" \
      cmp -s "$u/out-$m/scanners/syft/source/syft.cdx.json" "$TEST_TMP/off/scanners/syft/source/syft.cdx.json"
  done
else
  ok "# SKIP the unprivileged round: not root, or no setpriv"
fi
done_testing
