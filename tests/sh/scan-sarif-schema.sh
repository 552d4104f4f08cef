#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# reports/ash.sarif validates against the official SARIF 2.1.0 schema, for
# a scan with findings, suppressions, ERROR and MISSING scanners, and for an
# empty one.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
python3 -c 'import jsonschema' 2>/dev/null || skip_all "python3-jsonschema is not installed"
schema=$top_srcdir/../shared/data/sarif-schema-2.1.0.json
[ -f "$schema" ] || schema=/work/shared/data/sarif-schema-2.1.0.json
[ -f "$schema" ] || skip_all "the SARIF 2.1.0 schema is not available"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
src=$TEST_TMP/src
cp -R "$top_srcdir/tests/fixtures/repos/py-small" "$src"
printf 'one\nFAKE-FINDING high # ash-ignore: FAKE001\nFAKE-FINDING low\n' >"$src/notes.txt"

validate () {
  python3 - "$schema" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft4Validator(schema).validate(doc)
PY
}
quiet_validate () {
  validate "$@" 2>/dev/null
}

scanners=fake-sarif,fake-silent,semgrep
command -v bandit >/dev/null 2>&1 && scanners=$scanners,bandit
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/o1" --no-progress \
  --ash-plugin-modules "$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml" \
  --scanners "$scanners"
check "the scan ran (exit 1: an ERROR scanner)" test "$status" = 1
check "ash.sarif with findings validates" validate "$TEST_TMP/o1/reports/ash.sarif"
assert_file_contains "it holds a suppressed result" "$TEST_TMP/o1/reports/ash.sarif" '"kind": "inSource"'

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/o2" --no-progress --scanners semgrep
check "ash.sarif without runs validates" validate "$TEST_TMP/o2/reports/ash.sarif"

# The control: the validator does reject a document that breaks the schema.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["version"] = "2.0"; d["runs"][0]["results"][0]["level"] = "severe"
json.dump(d, open(sys.argv[2], "w"))' "$TEST_TMP/o1/reports/ash.sarif" "$TEST_TMP/broken.sarif"
check_fails "a broken document does not validate" quiet_validate "$TEST_TMP/broken.sarif"
done_testing
