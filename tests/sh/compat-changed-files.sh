#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --changed-files-only and --base-ref: only the findings in the files git
# says changed between the merge base and HEAD are reported; git runs
# through the spawn choke point, and nothing the scanned repository's own
# git configuration or attributes name runs (core.fsmonitor,
# diff.external, a textconv or clean filter, hooks), each shown live by a
# plain git command as the negative control.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v git >/dev/null 2>&1 || skip_all "git is not installed"
PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS CI
src=$TEST_TMP/repo
out=$TEST_TMP/results
mods=$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
marks=$TEST_TMP/marks
mkdir -p "$src" "$marks"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
g () { git -C "$src" -c user.name=t -c user.email=t@example.org "$@" >/dev/null 2>&1; }

g init -q -b main
printf 'FAKE-FINDING medium\n' >"$src/old.txt"
printf 'FAKE-FINDING medium\n' >"$src/later.txt"
g add . && g commit -q -m base
g checkout -q -b feature
printf 'FAKE-FINDING medium\nFAKE-FINDING high\n' >"$src/later.txt"
mkdir -p "$src/sub dir"
printf 'FAKE-FINDING medium\n' >"$src/sub dir/new.txt"
g add . && g commit -q -m change
# An uncommitted change is not a committed one: not counted.
printf 'FAKE-FINDING medium\n' >>"$src/old.txt"

files () {
  python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))
s = set()
for run in a["scanner_results"]["fake-sarif"]["sarif"]["runs"] if "sarif" in a["scanner_results"]["fake-sarif"] else []:
    for r in run["results"]:
        s.add(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
if not s:
    for run in a["sarif"]["runs"]:
        for r in run["results"]:
            s.add(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
print(" ".join(sorted(s)))' "$out"
}
scan () {
  run_ash scan --source-dir "$src" --output-dir "$out" -P \
    --ash-plugin-modules "$mods" --scanners fake-sarif "$@"
}

scan
assert_eq "without the flag: findings in every file" "$(files)" "later.txt old.txt sub dir/new.txt"
scan --changed-files-only --base-ref main
assert_eq "--changed-files-only --base-ref main" "$(files)" "later.txt sub dir/new.txt"
assert_eq "the exit code follows the kept findings" "$status" 2
scan --changed-files-only --base-ref HEAD
assert_eq "--base-ref HEAD: nothing changed, nothing reported" "$(files)" ""
assert_eq "--base-ref HEAD: exit 0" "$status" 0
scan --changed-files-only --base-ref main --no-changed-files-only
assert_eq "--no-changed-files-only undoes it" "$status" 5

# No base: upstream reports every finding, with a warning saying why.
scan --changed-files-only
assert_eq "no origin: main is the default base" "$(files)" "later.txt sub dir/new.txt"
scan --changed-files-only --base-ref no-such-branch
assert_file_contains "a missing base: a warning" "$TEST_TMP/err" "'no-such-branch' is not in the repository"
assert_eq "a missing base: every finding" "$(files)" "later.txt old.txt sub dir/new.txt"
scan --changed-files-only --base-ref=--output=/tmp/x
assert_file_contains "a base ref that is an option is refused" "$TEST_TMP/err" "is not a git revision"

# The repository's configuration names programs; none of them runs.
cat >"$marks/hook" <<EOS
#!/bin/sh
touch "$marks/ran-\$(basename "\$0")-\$\$"
cat
EOS
chmod 755 "$marks/hook"
for n in fsmonitor external textconv clean post-checkout; do
  ln -s "$marks/hook" "$marks/$n"
done
g config core.fsmonitor "$marks/fsmonitor"
g config diff.external "$marks/external"
g config diff.fake.textconv "$marks/textconv"
g config filter.fake.clean "$marks/clean"
g config core.hooksPath "$marks"
printf '*.txt diff=fake filter=fake\n' >"$src/.gitattributes"
g add .gitattributes
g commit -q -m attrs
rm -f "$marks"/ran-*
scan --changed-files-only --base-ref main
assert_eq "under hostile git configuration: the same files" "$(files)" "later.txt sub dir/new.txt"
assert_eq "no program of the repository's configuration ran" "$(ls "$marks" | grep -c '^ran-')" 0
# Negative controls: the same configuration runs each program under plain
# git commands.
(cd "$src" && git status >/dev/null 2>&1)
check "control: git status runs core.fsmonitor" sh -c "ls '$marks' | grep -q '^ran-fsmonitor'"
(cd "$src" && git diff main...HEAD -- later.txt >/dev/null 2>&1)
check "control: git diff runs diff.external" sh -c "ls '$marks' | grep -q '^ran-external'"
(cd "$src" && git diff --no-ext-diff main...HEAD -- later.txt >/dev/null 2>&1)
check "control: git diff runs the textconv" sh -c "ls '$marks' | grep -q '^ran-textconv'"
(cd "$src" && touch old.txt && git add old.txt >/dev/null 2>&1)
check "control: git add runs the clean filter" sh -c "ls '$marks' | grep -q '^ran-clean'"
done_testing
