#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End to end: a tree holding a notebook and an archive with vulnerable
# Python gets the same bandit findings as the same code as plain files,
# reported at the notebook and at the archive's members.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
command -v jupyter-nbconvert >/dev/null 2>&1 || skip_all "jupyter-nbconvert is not installed"
"$ASH" sandbox probe >"$TEST_TMP/probe" 2>&1
b=$(sed -n 's/^\([a-z-]*\): usable$/\1/p' "$TEST_TMP/probe" | head -n 1)

schema=$top_srcdir/../shared/data/sarif-schema-2.1.0.json
[ -f "$schema" ] || schema=/work/shared/data/sarif-schema-2.1.0.json
{ [ -f "$schema" ] && python3 -c 'import jsonschema' 2>/dev/null; } || schema=
fix=$top_srcdir/tests/fixtures/converters
w=$TEST_TMP/w
mkdir -p "$w/conv/src" "$w/plain/nb" "$w/plain/pkg"
cp "$fix/vuln.py" "$fix/vuln2.py" "$w/conv/"
python3 "$fix/make-notebooks.py" "$w/conv/src" "http://127.0.0.1:9/" || bail "cannot make the notebooks"
rm -rf "$w/conv/src/hostile" "$w/conv/src/broken"
python3 -c '
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[2], "pkg/vuln2.py")' "$w/conv/src/code.zip" "$fix/vuln2.py"
cp "$fix/vuln.py" "$w/plain/nb/analysis.py"
cp "$fix/vuln2.py" "$w/plain/pkg/vuln2.py"

rules () { # OUT: scanner rule and the file (or archive member), sorted
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/reports/ash.sarif"))
for run in a["runs"]:
    for x in run["results"]:
        l = x["locations"][0]
        uri = l["physicalLocation"]["artifactLocation"]["uri"]
        m = l.get("properties", {}).get("archive_member")
        f = m if m else uri.replace(".ipynb", ".py")
        print(x["ruleId"], f)' "$1" | sort
}

for m in off $b; do
  run_ash scan --source-dir "$w/plain" --output-dir "$TEST_TMP/plain-$m" --no-progress --scanners bandit --sandbox "$m"
  assert_eq "$m: plain files: exit 2" "$status" 2
  run_ash scan --source-dir "$w/conv/src" --output-dir "$TEST_TMP/conv-$m" --no-progress --scanners bandit --sandbox "$m"
  assert_eq "$m: notebook and archive: exit 2" "$status" 2
  want=$(rules "$TEST_TMP/plain-$m")
  got=$(rules "$TEST_TMP/conv-$m")
  check "$m: the plain files have findings" test -n "$want"
  assert_eq "$m: the same bandit findings as the plain files" "$got" "$want"
  uris=$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/reports/ash.sarif"))
print(sorted({x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in a["runs"] for x in r["results"]}))' "$TEST_TMP/conv-$m")
  assert_eq "$m: reported at the notebook and the archive" "$uris" "['code.zip', 'nb/analysis.ipynb']"
  if [ -n "$schema" ]; then
    python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1] + "/reports/ash.sarif")), json.load(open(sys.argv[2])))' \
      "$TEST_TMP/conv-$m" "$schema"
    assert_eq "$m: the SARIF with mapped locations is valid" "$?" 0
  fi
  check "$m: the converted files have their own results directory" test -d "$TEST_TMP/conv-$m/scanners/bandit/converted"
done
done_testing
