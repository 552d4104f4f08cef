#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The record of each scanner's sandbox policy (scanner_results.NAME.sandbox
# in the aggregated results) is there for every scanner whose sandbox was
# decided: one that ran (the record is made while its program runs) and
# one that its own checks stopped after the decision (checkov, whose
# tool_version it does not satisfy, is asked inside the sandbox and is
# then MISSING; its record is made with the aggregation).  Under each
# usable backend, as the user running the test and, as root, as an
# unprivileged one.  The record is the policy as it was decided, which is
# what `ash sandbox explain` prints: syft's adapter adds its own setting
# (SYFT_CHECK_FOR_APP_UPDATE, which syft is shown to get) after the
# decision; the record's environment is explain's, and the record names
# that setting apart, in adapter_env.  The control: with --sandbox off no
# record is made.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
unset ASH_CONFIG ASH_SCANNERS ASH_EXCLUDED_SCANNERS CI

src=$TEST_TMP/repo
mkdir -p "$src"
printf 'AWSTemplateFormatVersion: "2010-09-09"\nResources: {}\n' >"$src/test.yaml"
tools=$TEST_TMP/tools
mkdir -p "$tools"
cp "$top_srcdir/tests/fixtures/tools/checkov" "$tools/checkov.real"
cp "$top_srcdir/tests/fixtures/tools/fake-syft" "$tools/syft"
cp "$top_srcdir/tests/fixtures/deps/syft.json" "$tools/"
cp -r "$top_srcdir/tests/fixtures/tools/iac-data" "$tools/"
cat >"$tools/checkov" <<EOF
#!/bin/sh
if [ "\$1" = --version ]; then
  echo 3.2.396
  exit 0
fi
exec "$tools/checkov.real" "\$@"
EOF
chmod -R a+rX "$TEST_TMP"
chmod 755 "$tools/checkov" "$tools/syft"
PATH=$tools:$top_srcdir/tests/fixtures/tools:$PATH
export PATH

# The record of checkov's sandbox in OUT: "STATUS MODE BACKEND RESULTS",
# RESULTS saying whether its results_dir is checkov's.
record () {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"]["checkov"]
s = r.get("sandbox") or {}
print(r["status"], s.get("mode"), s.get("backend"),
      str(s.get("results_dir", "")).endswith("/scanners/checkov/source"))' "$1"
}

probe_out=$("$ASH" sandbox probe 2>&1)
per_user () {
  d=$TEST_TMP/u-$who
  mkdir -p "$d"
  [ -z "$as_user" ] || chown "$who" "$d"
  for b in bwrap landlock firejail; do
    if ! echo "$probe_out" | grep -q "^$b: usable"; then
      ok "$who, $b # SKIP $b is not usable here"
      continue
    fi
    for want in ">=3" ">=4"; do
      printf 'scanners:\n  checkov:\n    options:\n      tool_version: "%s"\n' \
        "$want" >"$d/ash.yaml"
      rm -rf "$d/out"
      $as_user env XDG_CACHE_HOME="$d/cache-$b" "$ASH" scan --source-dir "$src" \
        --output-dir "$d/out" --no-progress --scanners checkov \
        -c "$d/ash.yaml" --sandbox "$b" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
      [ -f "$d/out/ash_aggregated_results.json" ] \
        || awk '{ print "# " $0 }' "$TEST_TMP/err"
      if [ "$want" = ">=3" ]; then
        assert_eq "$who, $b: checkov ran, and its policy is recorded" \
          "$(record "$d/out")" "FAILED $b $b True"
      else
        assert_eq "$who, $b: checkov stopped after its sandbox was decided, and its policy is recorded" \
          "$(record "$d/out")" "MISSING $b $b True"
      fi
    done
    # syft: the record's environment names are explain's, without the
    # setting the adapter adds, which syft got.
    rm -rf "$d/out"
    $as_user env XDG_CACHE_HOME="$d/cache-$b" "$ASH" scan --source-dir "$src" \
      --output-dir "$d/out" --no-progress --scanners syft --sandbox "$b" \
      >"$TEST_TMP/out" 2>"$TEST_TMP/err"
    rec_env=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"]["syft"]
print(" ".join(sorted((r.get("sandbox") or {}).get("env") or [])))' "$d/out")
    rec_adapter=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/ash_aggregated_results.json"))["scanner_results"]["syft"]
print(" ".join(sorted((r.get("sandbox") or {}).get("adapter_env", ["(none)"]))))' "$d/out")
    rm -rf "$d/out/ash_aggregated_results.json" "$d/out/reports"
    $as_user env XDG_CACHE_HOME="$d/cache-$b" "$ASH" sandbox explain syft \
      --source-dir "$src" --output-dir "$d/out" --sandbox "$b" \
      >"$TEST_TMP/explain" 2>"$TEST_TMP/explain.err"
    exp_env=$(python3 -c '
import json, sys
print(" ".join(sorted(json.load(open(sys.argv[1])).get("env") or [])))' "$TEST_TMP/explain")
    check "$who, $b: syft got the adapter's own setting" \
      grep -q "update=false" "$d/out/scanners/syft/source/syft.stderr.log"
    assert_eq "$who, $b: syft's recorded environment is explain's" "$rec_env" "$exp_env"
    assert_eq "$who, $b: the record names the adapter's own setting apart" \
      "$rec_adapter" "SYFT_CHECK_FOR_APP_UPDATE"
    case " $rec_env " in
      *" PATH "*) ok "$who, $b: ... and lists PATH" ;;
      *) not_ok "$who, $b: ... and lists PATH"; diag "record: $rec_env" ;;
    esac
  done
  # The control: unsandboxed, nothing is recorded.
  printf 'scanners:\n  checkov:\n    options:\n      tool_version: ">=3"\n' >"$d/ash.yaml"
  rm -rf "$d/out"
  $as_user env XDG_CACHE_HOME="$d/cache-off" "$ASH" scan --source-dir "$src" \
    --output-dir "$d/out" --no-progress --scanners checkov -c "$d/ash.yaml" \
    --sandbox off >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  assert_eq "$who, control: --sandbox off records no policy" \
    "$(record "$d/out")" "FAILED None None False"
}
each_user per_user

done_testing
