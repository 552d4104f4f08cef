#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every file a multi-scanner scan writes (ash_aggregated_results.json and
# each report) is byte for byte the golden kept in
# tests/fixtures/reports-golden/expected/, once what changes from one scan
# to the next (times, durations, the scan's directories, identifiers made
# from them, ash's version) is replaced by a placeholder.  The scanners:
# two plugin scanners whose SARIF logs hold what the reports read (rules,
# every level, severities from properties, in-source and configured
# suppressions, an ash-ignore comment, text outside ASCII and outside the
# BMP, a result without a location, two runs in one log), the finding
# built to break the formats (report-inject), syft's SBOM, a scanner that
# ends ERROR and one that is MISSING.  The same bytes again through
# `ash report` for each format.  REGEN=1 writes the goldens instead.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
fix=$top_srcdir/tests/fixtures/reports-golden
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
mv "$tools/fake-syft" "$tools/syft"
for n in one two; do
  printf '#!/bin/sh\ncat "%s/%s.sarif" >"$1"\nexit 1\n' "$fix" "$n" >"$tools/golden-$n-tool"
  chmod 755 "$tools/golden-$n-tool"
done
PATH=$tools:$top_srcdir/tests/fixtures/tools:$PATH
export PATH
unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES ASH_OUTPUT_DIR CI SYFT_FAKE_MODE
cat >"$TEST_TMP/golden.yaml" <<'MOD'
scanners:
  golden-one:
    tool: golden-one-tool
    args: ["{results_dir}/one.sarif"]
    output: { format: sarif, path: "{results_dir}/one.sarif" }
  golden-two:
    tool: golden-two-tool
    args: ["{results_dir}/two.sarif"]
    output: { format: sarif, path: "{results_dir}/two.sarif" }
  golden-missing:
    tool: golden-no-such-tool
    args: ["{results_dir}/x.sarif"]
    output: { format: sarif, path: "{results_dir}/x.sarif" }
MOD
mods=$TEST_TMP/golden.yaml,$top_srcdir/tests/fixtures/plugins/report-inject.yaml,$top_srcdir/tests/fixtures/plugins/fake-scanners.yaml
src=$TEST_TMP/src
out=$TEST_TMP/results
mkdir -p "$src/app" "$src/lib" "$src/vendor" "$src/config"
printf 'import os\n\neval(x)\ny = 1\n' >"$src/app/main.py"
printf 'x = 1\n' >"$src/lib/other.py.txt"
printf 'a = 1\nb = eval(a)  # ash-ignore: G001 reviewed\n' >"$src/lib/other.py"
printf 'k = 1\n' >"$src/vendor/lib.py"
printf 'x\n' >"$src/plain.txt"
cat >"$src/.ash.yaml" <<'CONF'
project_name: golden
global_settings:
  severity_threshold: LOW
  suppressions:
    - path: "vendor/**"
      rule_id: G001
      reason: vendored code
    - path: "never/*.py"
      reason: matches nothing
reporters:
  markdown:
    options:
      top_hotspots_limit: 3
CONF
formats=sarif,markdown,text,flat-json,html,junitxml,csv,cyclonedx,gitlab-sast,github-ghas,ocsf,yaml,spdx,gitlab-cyclonedx,unused-suppressions
run_ash scan --source-dir "$src" --output-dir "$out" --no-progress --sandbox off \
  --ash-plugin-modules "$mods" \
  --scanners golden-one,golden-two,golden-missing,report-inject,fake-invalid,syft -f "$formats"
assert_eq "the scan is incomplete (exit 1: one scanner ERROR, one MISSING)" "$status" 1

# normal FILE: FILE with what changes between scans replaced.
normal () {
  python3 - "$1" "$TEST_TMP" "$version" "$srcdir_abs" <<'PY'
import re, sys
path, tmp, version, srcdir = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
t = open(path, "rb").read().decode("utf-8", "surrogateescape")
# The directories, also as Markdown writes them (punctuation escaped).
md = lambda s: re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", s)
t = t.replace(tmp, "@TMP@").replace(md(tmp), "@TMP@")
# The source tree the fake tools are run from.
t = t.replace(srcdir, "@SRC@").replace(md(srcdir), "@SRC@")
t = re.sub(r"\d{4}(\\?-)\d\d\1\d\dT\d\d(\\?:)\d\d\2\d\d(\\?\.\d+)?Z?", "@TIME@", t)
t = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "@UUID@", t)
t = re.sub(r'("?duration"?:\s*)[0-9.e+-]+', r"\1@N@", t)
t = re.sub(r'("\w*time": )\d+', r"\1@N@", t)
t = re.sub(r'(time=")[0-9.]+(")', r"\1@N@\2", t)
t = re.sub(r"\b\d+\.\d+ ?s\b", "@SECONDS@", t)
t = re.sub(r"(?<![\w.\\])" + re.escape(version) + r"(?![\w.])", "@VERSION@", t)
t = t.replace(md(version), "@VERSION@")
sys.stdout.write(t)
PY
}
version=$("$ASH" --version | sed -n '1s/.* //p')
srcdir_abs=$(cd "$top_srcdir" && pwd -P)
names='ash_aggregated_results.json reports/ash.sarif reports/ash.summary.md reports/ash.summary.txt
reports/ash.flat.json reports/ash.html reports/ash.junit.xml reports/ash.csv reports/ash.cdx.json
reports/ash.gl-sast-report.json reports/ash.ghas.sarif reports/ash.ocsf.json reports/ash.yaml
reports/ash.spdx.json reports/ash.gl-dependency-scanning-report.cdx.json
reports/ash.unused-suppressions.json'
mkdir -p "$TEST_TMP/got"
for f in $names; do
  g=$(echo "$f" | tr / _)
  if [ ! -f "$out/$f" ]; then
    not_ok "$f was written"
    continue
  fi
  normal "$out/$f" >"$TEST_TMP/got/$g"
  if [ -n "${REGEN:-}" ]; then
    mkdir -p "$fix/expected"
    cp "$TEST_TMP/got/$g" "$fix/expected/$g"
  fi
  if cmp -s "$TEST_TMP/got/$g" "$fix/expected/$g"; then
    ok "$f: the golden's bytes"
  else
    not_ok "$f: the golden's bytes"
    diff "$fix/expected/$g" "$TEST_TMP/got/$g" | head -20 | sed 's/^/# /'
  fi
done

# The same through `ash report`, from the aggregated results.
for pair in sarif:ash.sarif markdown:ash.summary.md text:ash.summary.txt flat-json:ash.flat.json \
  html:ash.html junitxml:ash.junit.xml csv:ash.csv cyclonedx:ash.cdx.json \
  gitlab-sast:ash.gl-sast-report.json github-ghas:ash.ghas.sarif ocsf:ash.ocsf.json \
  yaml:ash.yaml spdx:ash.spdx.json unused-suppressions:ash.unused-suppressions.json; do
  run_ash report --source-dir "$src" --output-dir "$out" --report-format "${pair%%:*}"
  if cmp -s "$TEST_TMP/out" "$out/reports/${pair#*:}"; then
    ok "ash report --report-format ${pair%%:*}: the bytes of reports/${pair#*:}"
  else
    not_ok "ash report --report-format ${pair%%:*}: the bytes of reports/${pair#*:}"
    diff "$out/reports/${pair#*:}" "$TEST_TMP/out" | head -10 | sed 's/^/# /'
    sed 's/^/# /' "$TEST_TMP/err"
  fi
done

# The control: a report that differs from its golden by one byte fails.
printf ' ' >>"$out/reports/ash.csv"
normal "$out/reports/ash.csv" >"$TEST_TMP/changed"
check_fails "control: a changed report is told from its golden" \
  cmp -s "$TEST_TMP/changed" "$fix/expected/reports_ash.csv"
done_testing
