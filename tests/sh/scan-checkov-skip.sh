#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# checkov's exclusions (through the fake checkov, which applies each
# --skip-path as checkov does): the scan set's ignore_paths and a link
# that leaves the tree reach checkov as --skip-path regular expressions,
# unsandboxed and under bwrap; every character of a path is taken
# literally (an ignored "t.st.yaml" does not hide test.yaml, punctuation
# and ".terraform" survive checkov's own rewriting); a path checkov's
# syntax cannot hold makes checkov ERROR, naming why, and the other
# scanner's results are kept.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/src
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$src"
cp -R "$top_srcdir/tests/fixtures/tools" "$TEST_TMP/tools"
PATH=$TEST_TMP/tools:$PATH
export PATH

files () { # OUT: the files checkov reported, sorted and unique
  python3 - "$1/ash_aggregated_results.json" <<'PY' | sort -u
import json, sys
a = json.load(open(sys.argv[1]))
for run in a["sarif"]["runs"]:
    for x in run["results"]:
        if x["properties"]["scanner_name"] == "checkov":
            print(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
PY
}
scan () { # NAME CONFIG MODE [SCANNERS]
  run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/$1" --no-progress \
    --scanners "${4:-checkov}" --config "$2" --sandbox "$3"
}

# The control: nothing ignored, both files reported.
printf 'scanners: {}\n' >"$TEST_TMP/none.yaml"
scan control "$TEST_TMP/none.yaml" off
assert_eq "control: checkov reports test.yaml and the Dockerfile" \
  "$(files "$TEST_TMP/control" | tr '\n' ' ')" "js/docker/Dockerfile test.yaml "

# ignore_paths: a directory, a name whose '.' would match any character,
# and one full of regex punctuation with ".terraform" in it.
mkdir -p "$src/a+b (1)$^x"
echo 'resource "x" "y" {}' >"$src/a+b (1)$^x/m.terraform"
cat >"$TEST_TMP/ignore.yaml" <<'Y'
global_settings:
  ignore_paths:
    - {path: "js/docker", reason: vendored}
    - {path: "t.st.yaml", reason: "matches no file, and must not hide test.yaml"}
    - {path: "a+b (1)$^x/m.terraform", reason: odd}
Y
for m in off bwrap; do
  if [ "$m" = bwrap ] && ! "$ASH" sandbox probe 2>/dev/null | grep -q "^bwrap: usable"; then
    ok "bwrap # SKIP bwrap is not usable here"
    continue
  fi
  scan "ign-$m" "$TEST_TMP/ignore.yaml" "$m"
  assert_eq "$m: exit 2 (findings)" "$status" 2
  assert_eq "$m: an ignored directory is not reported, test.yaml is" \
    "$(files "$TEST_TMP/ign-$m" | tr '\n' ' ')" "test.yaml "
done
args=$TEST_TMP/ign-off/scanners/checkov/source/ARGS
assert_file_contains "the ignored directory is a --skip-path" "$args" "js/docker"
# Each --skip-path, compiled as checkov compiles it, matches the ignored
# path itself and not a path that differs where an unescaped value would
# have matched anything.
python3 - "$args" "$src" >"$TEST_TMP/match" <<'PY'
import os, re, sys
args = open(sys.argv[1]).read().split("\n")
pats = [re.compile(args[i + 1].replace(".terraform", r"\.terraform"))
        for i, a in enumerate(args) if a == "--skip-path"]
def skipped(p):
    return any(x.search(os.path.join(sys.argv[2], p)) for x in pats)
print("odd", skipped("a+b (1)$^x/m.terraform"))
print("near", skipped("aab (1)$^x/m.terraform"), skipped("a+b (1)$^x/mxterraform"))
print("test", skipped("test.yaml"))
PY
assert_file_contains "the punctuated path is matched literally" "$TEST_TMP/match" "odd True"
assert_file_contains "and nothing near it" "$TEST_TMP/match" "near False False"
assert_file_contains "test.yaml is not matched by t.st.yaml" "$TEST_TMP/match" "test False"

# A link leaving the tree: js/ moved out and linked back.
mv "$src/js" "$TEST_TMP/outside-js"
ln -s "$TEST_TMP/outside-js" "$src/js"
rm -rf "$src/a+b (1)$^x"
scan link "$TEST_TMP/none.yaml" off
assert_file_contains "the link is named in the warning" "$TEST_TMP/err" "Not scanning 'js'"
assert_eq "the link's target is not reported" \
  "$(files "$TEST_TMP/link" | tr '\n' ' ')" "test.yaml "
rm "$src/js"
mv "$TEST_TMP/outside-js" "$src/js"

# A path checkov's --skip-path cannot hold: checkov is ERROR, naming why;
# cfn-nag, beside it, keeps its findings.
mkdir "$src/a
b"
echo x >"$src/a
b/f.tf"
printf 'global_settings:\n  ignore_paths:\n    - {path: "a?b", reason: r}\n' >"$TEST_TMP/nl.yaml"
scan nl "$TEST_TMP/nl.yaml" off checkov,cfn-nag
assert_eq "unexpressible path: exit 1 (incomplete scan)" "$status" 1
assert_file_contains "the reason says why" "$TEST_TMP/out" \
  "checkov ERROR: checkov was not run on the source directory: an ignored path holds a line break"
python3 - "$TEST_TMP/nl/ash_aggregated_results.json" >"$TEST_TMP/nl.st" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
print(a["scanner_results"]["checkov"]["status"], a["scanner_results"]["cfn-nag"]["status"])
PY
assert_eq "checkov ERROR, cfn-nag FAILED (ran, found)" "$(cat "$TEST_TMP/nl.st")" "ERROR FAILED"
done_testing
