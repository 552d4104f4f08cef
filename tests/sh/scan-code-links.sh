#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A link in the tree that leaves it reaches gitleaks, semgrep, opengrep
# and detect-secrets in each tool's own exclusion syntax (gitleaks: a path
# in the allowlist of the config ash writes; semgrep and opengrep: an
# anchored --exclude; detect-secrets: an anchored --exclude-files regex),
# and a link whose path holds a line break, which none of those can name,
# keeps the scanner off the directory with an error naming the link.  The fakes record their
# command line (and the config gitleaks is given) through a wrapper.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/src
cp -R "$top_srcdir/tests/fixtures/repos/secrets" "$src"
mkdir -p "$TEST_TMP/outside" "$TEST_TMP/tools/semgrep-data"
echo 'k = "AKIAZZOUTSIDE4LINKQQ"' >"$TEST_TMP/outside/leak.py"
ln -s "$TEST_TMP/outside/leak.py" "$src/app/leak.py"
cp "$top_srcdir/tests/fixtures/tools/semgrep-data/semgrep.src.json" "$TEST_TMP/tools/semgrep-data/"
for t in gitleaks:fake-gitleaks semgrep:fake-semgrep opengrep:fake-semgrep detect-secrets:fake-detect-secrets; do
  name=${t%%:*}
  cp "$top_srcdir/tests/fixtures/tools/${t#*:}" "$TEST_TMP/tools/$name.real"
  cat >"$TEST_TMP/tools/$name" <<EOF2
#!/bin/sh
# Record the command line, and the file a --config= names, then run the fake.
{ printf '%s\n' "\$@"; for a in "\$@"; do case \$a in --config=/*) cat "\${a#--config=}" ;; esac; done; } >>"$TEST_TMP/argv-$name"
exec "\$0.real" "\$@"
EOF2
  chmod 755 "$TEST_TMP/tools/$name" "$TEST_TMP/tools/$name.real"
done
PATH=$TEST_TMP/tools:$PATH
export PATH
scanners=gitleaks,semgrep,opengrep,detect-secrets

run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/o1" --no-progress \
  --sandbox off --scanners "$scanners"
assert_eq "a link leaving the tree: findings, exit 2" "$status" 2
assert_file_contains "the link is named in a warning" "$TEST_TMP/err" "Not scanning 'app/leak.py': link leaves the scanned tree"
check_fails "no scanner reports the link's target" grep -q 'app/leak.py' "$TEST_TMP/o1/reports/ash.sarif"
check_fails "the value behind the link is nowhere below the output directory" grep -rqF AKIAZZOUTSIDE4LINKQQ "$TEST_TMP/o1"
assert_file_contains "gitleaks: the link in the allowlist of its config" "$TEST_TMP/argv-gitleaks" '"^(\\./)?app/leak\\.py(/|$)",'
assert_file_contains "semgrep: an anchored --exclude" "$TEST_TMP/argv-semgrep" "--exclude=/app/leak.py"
assert_file_contains "opengrep: an anchored --exclude" "$TEST_TMP/argv-opengrep" "--exclude=/app/leak.py"
assert_file_contains "detect-secrets: an anchored --exclude-files" "$TEST_TMP/argv-detect-secrets" "^(\\./)?app/leak\\.py(/|\$)"

# A link whose path holds a line break: no exclusion syntax names it.
ln -s "$TEST_TMP/outside/leak.py" "$src/app/evil
name.py"
run_ash scan --source-dir "$src" --output-dir "$TEST_TMP/nl" --no-progress \
  --sandbox off --scanners "$scanners"
assert_eq "a link with a line break: exit 1" "$status" 1
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["scanner_results"]
for s in sys.argv[2].split(","):
    print(s, r[s]["status"], r[s].get("error_reason") or r[s].get("missing_reason") or "")' \
  "$TEST_TMP/nl/ash_aggregated_results.json" "$scanners" >"$TEST_TMP/nl-status"
for s in gitleaks semgrep opengrep detect-secrets; do
  assert_file_contains "$s: not run on the directory, saying why" "$TEST_TMP/nl-status" \
    "$s ERROR $s was not run on the source directory: the link 'app/evil\\nname.py' leaves the scanned tree, and its path holds a line break"
done
check_fails "the line break never reaches the terminal raw" grep -q '^name.py' "$TEST_TMP/out" "$TEST_TMP/err"
done_testing
