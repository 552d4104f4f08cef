#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The archive converter: the members of zip and tar archives are scanned
# like plain files and reported at the archive, and what could escape the
# work directory (zip slip, links, devices, FIFOs) or exhaust the disk (a
# 10 GiB bomb) is refused with its reason, nothing written outside
# converted/.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bandit >/dev/null 2>&1 || skip_all "bandit is not installed"
"$ASH" scan --help >/dev/null 2>&1 || bail "ash does not run"

fix=$top_srcdir/tests/fixtures/converters
mkdir -p "$TEST_TMP/w/a/src" "$TEST_TMP/plain/pkg" "$TEST_TMP/plain/deep"
cp "$fix/vuln.py" "$fix/vuln2.py" "$TEST_TMP/w/a/"
src=$TEST_TMP/w/a/src
python3 "$fix/make-archives.py" "$src" "$TEST_TMP/abs" || bail "cannot make the archives"

# The fixtures hold what they claim (the attempts are real).
names=$(python3 -c '
import sys, tarfile, zipfile
print(" ".join(zipfile.ZipFile(sys.argv[1]).namelist()))
t = tarfile.open(sys.argv[2])
print(" ".join("%s:%s" % (m.name, m.type.decode()) for m in t.getmembers()))
print(tarfile.open(sys.argv[3]).getmembers()[0].size)' \
  "$src/slip.zip" "$src/dev.tar" "$src/bomb.tar.gz")
case $names in
  *"../../slip-escaped.txt"*"null:3 disk:4 fifo:6"*10737418240*) ok "the hostile archives hold their entries" ;;
  *) not_ok "the hostile archives hold their entries"; diag "$names" ;;
esac

agg () { # OUT EXPR: a Python expression over the aggregated results (a)
  python3 -c "
import json, sys
a = json.load(open(sys.argv[1] + '/ash_aggregated_results.json'))
c = a['converter_results']['archive']
print($2)" "$1"
}

out=$TEST_TMP/o
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --scanners bandit --sandbox off
assert_eq "refused entries make the scan incomplete: exit 1" "$status" 1
assert_eq "the archive converter is FAILED" "$(agg "$out" "c['status']")" FAILED
refused=$(agg "$out" "'\n'.join(sorted('%s | %s' % (x['path'], x['reason']) for x in c['refused_inputs']))")
for want in \
  "slip.zip!../../slip-escaped.txt | the entry's path contains '..'" \
  "slip.zip!$TEST_TMP/abs/slip-absolute.txt | the entry's path is absolute" \
  "link.tar!etc-link | a symbolic link that leaves the work directory" \
  "link.tar!up-link | a symbolic link that leaves the work directory" \
  "link.tar!hard-passwd | a hard link that leaves the work directory" \
  "dev.tar!null | a character device, which is never extracted" \
  "dev.tar!disk | a block device, which is never extracted" \
  "dev.tar!fifo | a FIFO, which is never extracted" \
  "names.tar!caf\\xe9.txt | its name is not UTF-8 text, which the results cannot name; not extracted"; do
  case $refused in
    *"$want"*) ok "refused: $want" ;;
    *) not_ok "refused: $want"; diag "$refused" ;;
  esac
done
failed=$(agg "$out" "'\n'.join('%s | %s' % (x['path'], x['reason']) for x in c['failed_inputs'])")
case $failed in
  "bomb.tar.gz | bomb.tar.gz: refused: the entry 'zeros.bin' declares 10.0 GiB, more than 1.0 GiB (converters.archive.options.max_total_size)")
    ok "the 10 GiB bomb is refused by its declared size" ;;
  *) not_ok "the 10 GiB bomb is refused by its declared size"; diag "$failed" ;;
esac
assert_eq "a link inside the archive is skipped, not refused" \
  "$(agg "$out" "[x['path'] for x in c['skipped_entries']]")" "['link.tar!inside-link']"
assert_file_contains "the refusal is logged with its reason" "$TEST_TMP/err" "slip.zip!../../slip-escaped.txt refused"

check_fails "the member whose name is not UTF-8 is not extracted" \
  sh -c "find '$out/converted' -name 'caf*' | grep -q ."
assert_eq "the member with a UTF-8 name is (control)" \
  "$(find "$out/converted" -name 'na*ve.txt' | wc -l)" 1

# Nothing outside converted/, nothing through a link, no device or bomb.
check_fails "no zip slip above the work directory" \
  sh -c "find '$TEST_TMP' -name slip-escaped.txt | grep -q ."
check_fails "no absolute entry written" test -e "$TEST_TMP/abs/slip-absolute.txt"
check_fails "no symlink, device or FIFO in converted/" \
  sh -c "find '$out/converted' ! -type f ! -type d | grep -q ."
check_fails "nothing written through the link entry" test -e /etc/written-through.txt
check "the file after the link entry is a plain file in the work directory" \
  test -f "$out/converted/archive/link.tar/etc-link/written-through.txt"
check_fails "the bomb left nothing behind" test -e "$out/converted/archive/bomb.tar.gz"
check "ordinary members are extracted" test -f "$out/converted/archive/good.zip/pkg/vuln.py"
check "nested archives are extracted" \
  test -f "$out/converted/archive/nested.tar.gz/inner.zip.contents/deep/vuln2.py"

# bandit's findings are at the archive, with the member named.
locs=$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1] + "/reports/ash.sarif"))
for run in a["runs"]:
    for x in run["results"]:
        l = x["locations"][0]
        print("%s %s %s %s" % (l["physicalLocation"]["artifactLocation"]["uri"],
              l.get("properties", {}).get("archive_member"),
              l["physicalLocation"]["region"]["startLine"], x["ruleId"]))' "$out" | sort)
case $locs in
  *"good.zip pkg/vuln.py 4 B602"*) ok "a finding in a zip member points at the archive and the member" ;;
  *) not_ok "a finding in a zip member points at the archive and the member"; diag "$locs" ;;
esac
case $locs in
  *"nested.tar.gz inner.zip!/deep/vuln2.py 4 B301"*) ok "a finding in a nested archive names the chain" ;;
  *) not_ok "a finding in a nested archive names the chain"; diag "$locs" ;;
esac

# The caps are configurable: the ratio stops the bomb as it expands.
cat >"$TEST_TMP/caps.yaml" <<'YAML'
converters:
  archive:
    options:
      max_total_size: 21474836480
      max_ratio: 50
YAML
cp "$src/bomb.tar.gz" "$TEST_TMP/bomb-only.tar.gz"
mkdir -p "$TEST_TMP/b"
mv "$TEST_TMP/bomb-only.tar.gz" "$TEST_TMP/b/bomb.tar.gz"
run_ash scan --source-dir "$TEST_TMP/b" --output-dir "$TEST_TMP/out-b" --config "$TEST_TMP/caps.yaml" \
  --no-progress --scanners bandit --sandbox off
assert_eq "a bomb under the ratio cap: exit 1" "$status" 1
assert_eq "the bomb is refused as a decompression bomb" \
  "$(agg "$TEST_TMP/out-b" "c['failed_inputs'][0]['reason']")" \
  "bomb.tar.gz!zeros.bin: refused as a decompression bomb: it expands more than 50 times its compressed size (converters.archive.options.max_ratio)"
used=$(du -sk "$TEST_TMP/out-b" | cut -f1)
check "the bomb was stopped early (${used} KiB written)" test "$used" -lt 102400

cat >"$TEST_TMP/entries.yaml" <<'YAML'
converters:
  archive:
    options:
      max_entries: 1
      max_depth: 0
YAML
mkdir -p "$TEST_TMP/g"
cp "$src/good.zip" "$src/nested.tar.gz" "$TEST_TMP/g/"
run_ash scan --source-dir "$TEST_TMP/g" --output-dir "$TEST_TMP/out-g" --config "$TEST_TMP/entries.yaml" \
  --no-progress --scanners bandit --sandbox off
assert_eq "over the entry cap: exit 1" "$status" 1
assert_eq "max_entries and max_depth are applied" \
  "$(agg "$TEST_TMP/out-g" "[x['reason'] for x in c['failed_inputs']] + [x['reason'] for x in c['refused_inputs']]")" \
  "['good.zip: refused: it has more than 1 entries (converters.archive.options.max_entries)', 'a nested archive deeper than converters.archive.options.max_depth']"

printf 'converters:\n  archive:\n    options:\n      max_ratio: -1\n' >"$TEST_TMP/bad.yaml"
run_ash scan --source-dir "$TEST_TMP/g" --output-dir "$TEST_TMP/out-bad" --config "$TEST_TMP/bad.yaml" --no-progress
assert_eq "a bad cap is a configuration error: exit 3" "$status" 3
assert_file_contains "it names the key" "$TEST_TMP/err" "converters.archive.options.max_ratio"

printf 'converters:\n  archive:\n    enabled: false\n' >"$TEST_TMP/off.yaml"
run_ash scan --source-dir "$TEST_TMP/g" --output-dir "$TEST_TMP/out-off" --config "$TEST_TMP/off.yaml" \
  --no-progress --scanners bandit --sandbox off
assert_eq "converters.archive.enabled: false skips it (exit 0)" "$status" 0
assert_eq "the skipped converter says why" "$(agg "$TEST_TMP/out-off" "c['status'], c['skipped_reason']")" \
  "SKIPPED disabled in the configuration"
done_testing
