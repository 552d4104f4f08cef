#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# checkov's exclusions (through the fake checkov, which applies each
# --skip-path as checkov does): the scan set's ignore_paths and a link
# that leaves the tree reach checkov as --skip-path regular expressions,
# unsandboxed and under bwrap; every character of a path is taken
# literally (an ignored "t.st.yaml" does not hide test.yaml, punctuation
# and ".terraform" survive checkov's own rewriting), in ignored paths and
# in links leaving the tree alike; a path checkov's syntax cannot hold (a
# control character) makes checkov ERROR, naming why, and the other
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
# usable MODE: whether ash can scan with --sandbox MODE here; a skipped
# test saying why when it cannot.
usable () {
  [ "$1" = off ] && return 0
  "$ASH" sandbox probe 2>/dev/null | grep -q "^$1: usable" && return 0
  ok "$1 # SKIP $1 is not usable here"
  return 1
}
# scan_reports NAME CONFIG FILES WHAT: with --sandbox off and bwrap (when
# usable), a scan NAME-MODE with CONFIG exits 2 and checkov reports FILES
# (sorted, each followed by a space).
scan_reports () {
  for _m in off bwrap; do
    usable "$_m" || continue
    scan "$1-$_m" "$2" "$_m"
    assert_eq "$_m: $4: exit 2 (findings)" "$status" 2
    assert_eq "$_m: $4" "$(files "$TEST_TMP/$1-$_m" | tr '\n' ' ')" "$3"
  done
}
# skipped ARGS PATH...: for each PATH (relative to the tree), True when a
# --skip-path of the argv recorded in ARGS, compiled as checkov compiles it
# (".terraform" made "\.terraform" first), is found in the path checkov
# searches (the tree's path joined with PATH), else False.
skipped () {
  python3 - "$src" "$@" <<'PY'
import os, re, sys
args = open(sys.argv[2]).read().split("\n")
pats = [re.compile(args[i + 1].replace(".terraform", r"\.terraform"))
        for i, a in enumerate(args) if a == "--skip-path"]
print(*(any(x.search(os.path.join(sys.argv[1], p)) for x in pats)
        for p in sys.argv[3:]))
PY
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
scan_reports ign "$TEST_TMP/ignore.yaml" "test.yaml " \
  "an ignored directory is not reported, test.yaml is"
args=$TEST_TMP/ign-off/scanners/checkov/source/ARGS
assert_file_contains "the ignored directory is a --skip-path" "$args" "js/docker"
# Each --skip-path, compiled as checkov compiles it, matches the ignored
# path itself and not a path that differs where an unescaped value would
# have matched anything.
{
  echo "odd $(skipped "$args" 'a+b (1)$^x/m.terraform')"
  echo "near $(skipped "$args" 'aab (1)$^x/m.terraform' 'a+b (1)$^x/mxterraform')"
  echo "test $(skipped "$args" test.yaml)"
} >"$TEST_TMP/match"
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

# Links leaving the tree whose names hold spaces, brackets, '+', '$' and
# the rest of a regular expression's punctuation: checkov runs (no ERROR)
# and each reaches it as a --skip-path that, compiled as checkov compiles
# it, matches that link and no path near it; the near paths are plain
# files of the tree, still scanned (the control).
echo 'outside' >"$TEST_TMP/outside.tf"
odd='we ird [1] (a+b) $x^ {2} *?|.tf'
ln -s "$TEST_TMP/outside.tf" "$src/$odd"
mkdir -p "$src/sub dir+"
ln -s "$TEST_TMP/outside.tf" "$src/sub dir+/c\\d.terraform"
near1='we ird [1] (aab) $x^ {2} *?|.tf'
near2='we ird 1 (a+b) x {2} .tf'
echo 'near' >"$src/$near1"
echo 'near' >"$src/$near2"
echo 'near' >"$src/sub dir+/cd.terraform"
for m in off bwrap; do
  usable "$m" || continue
  scan "odd-$m" "$TEST_TMP/none.yaml" "$m"
  assert_eq "$m: odd leaving links: checkov ran (exit 2, findings)" "$status" 2
  assert_file_contains "$m: the odd link is named in the warning" "$TEST_TMP/err" "Not scanning '$odd'"
  oargs=$TEST_TMP/odd-$m/scanners/checkov/source/ARGS
  {
    echo "odd $(skipped "$oargs" "$odd" 'sub dir+/c\d.terraform')"
    echo "near $(skipped "$oargs" "$near1" "$near2" 'sub dir+/cd.terraform' test.yaml)"
  } >"$TEST_TMP/odd-match"
  assert_file_contains "$m: both odd links are skipped" "$TEST_TMP/odd-match" "odd True True"
  assert_file_contains "$m: no path near them is (the control)" "$TEST_TMP/odd-match" "near False False False False"
  assert_eq "$m: test.yaml still reported" "$(files "$TEST_TMP/odd-$m" | tr '\n' ' ')" "js/docker/Dockerfile test.yaml "
done
rm -rf "$src/$odd" "$src/sub dir+" "$src/we ird"*

# A repository's leaving links named "s" and "src" (a part of the scanned
# directory's own path) must not hide the tree from checkov: each
# --skip-path matches only a path ending with the link's.  The control: a
# value that merely held "s" would have matched every path here.
ln -s "$TEST_TMP/outside.tf" "$src/s"
ln -s "$TEST_TMP/outside.tf" "$src/src"
scan_reports blind "$TEST_TMP/none.yaml" "js/docker/Dockerfile test.yaml " \
  "links named s and src hide nothing else"
assert_eq "the links themselves are skipped" "$(skipped "$TEST_TMP/blind-off/scanners/checkov/source/ARGS" s src)" "True True"
check "control: a value holding s would match test.yaml" \
  python3 -c 'import os, re, sys; sys.exit(not re.search("s", os.path.join(sys.argv[1], "test.yaml")))' "$src"
rm "$src/s" "$src/src"

# A leaving link named "docker" while js/docker is a directory of the tree:
# its --skip-path would skip js/docker too, so checkov is ERROR naming
# why, and cfn-nag beside it keeps its findings.
ln -s "$TEST_TMP/outside.tf" "$src/docker"
scan ender "$TEST_TMP/none.yaml" off checkov,cfn-nag
assert_eq "a link other paths end with: exit 1 (incomplete scan)" "$status" 1
assert_file_contains "the reason names the other path" "$TEST_TMP/out" \
  "the path 'js/docker' ends with its path"
rm "$src/docker"

# A leaving link whose name holds a control character (a tab) cannot be
# a --skip-path: checkov ERROR naming why, cfn-nag kept.
ln -s "$TEST_TMP/outside.tf" "$src/tab	x.tf"
scan tab "$TEST_TMP/none.yaml" off checkov,cfn-nag
assert_eq "tab in a leaving link: exit 1 (incomplete scan)" "$status" 1
assert_file_contains "the reason says why" "$TEST_TMP/out" \
  "and checkov's --skip-path cannot name it: its path holds a control character"
rm "$src/tab	x.tf"

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
