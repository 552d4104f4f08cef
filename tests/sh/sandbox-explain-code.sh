#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ash sandbox explain shows the spec's row for semgrep, opengrep,
# detect-secrets and gitleaks: network when online (semgrep, opengrep;
# detect-secrets only when sandbox.network_scanners names it, never
# offline; gitleaks never), the caches (~/.semgrep, ~/.opengrep, semgrep's
# uv cache) and the rules cache directory read-only, and no GITLEAKS_
# variable passed in.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
src=$TEST_TMP/src
mkdir -p "$src" "$TEST_TMP/rules/python"
printf 'x = 1\n' >"$src/a.py"
explain () { # SCANNER [OPTION]... -> a summary of the policy on stdout
  s=$1
  shift
  "$ASH" sandbox explain "$s" --source-dir "$src" --output-dir "$TEST_TMP/out" "$@" 2>/dev/null |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
print("network", d["network"])
r = d["requirements"]
print("caches", " ".join(r["cache_paths"]) or "-")
print("cache_env", " ".join(r["cache_env"]) or "-")
print("prefixes", " ".join(r["env_prefixes"]) or "-")
for p in d["paths"]:
    if p["rule"].endswith("_RULES_CACHE_DIR"):
        print("rules", p["rule"], p["access"], p["exec"])
print("env", " ".join(sorted(d["env"])))'
}

explain semgrep >"$TEST_TMP/semgrep"
assert_file_contains "semgrep: network when online" "$TEST_TMP/semgrep" "network True"
assert_file_contains "semgrep: ~/.semgrep" "$TEST_TMP/semgrep" "caches ~/.semgrep"
assert_file_contains "semgrep: the uv cache" "$TEST_TMP/semgrep" "cache_env UV_CACHE_DIR"
assert_file_contains "semgrep: its variables" "$TEST_TMP/semgrep" "prefixes SEMGREP_"
explain semgrep --offline >"$TEST_TMP/semgrep-off"
assert_file_contains "semgrep offline: no network" "$TEST_TMP/semgrep-off" "network False"
SEMGREP_RULES_CACHE_DIR=$TEST_TMP/rules explain semgrep >"$TEST_TMP/semgrep-rules"
assert_file_contains "semgrep: \$SEMGREP_RULES_CACHE_DIR read-only" "$TEST_TMP/semgrep-rules" \
  "rules \$SEMGREP_RULES_CACHE_DIR read False"

explain opengrep >"$TEST_TMP/opengrep"
assert_file_contains "opengrep: network when online" "$TEST_TMP/opengrep" "network True"
assert_file_contains "opengrep: ~/.opengrep" "$TEST_TMP/opengrep" "caches ~/.opengrep"
OPENGREP_RULES_CACHE_DIR=$TEST_TMP/rules explain opengrep >"$TEST_TMP/opengrep-rules"
assert_file_contains "opengrep: \$OPENGREP_RULES_CACHE_DIR read-only" "$TEST_TMP/opengrep-rules" \
  "rules \$OPENGREP_RULES_CACHE_DIR read False"

explain detect-secrets >"$TEST_TMP/ds"
assert_file_contains "detect-secrets: no network by default" "$TEST_TMP/ds" "network False"
assert_file_contains "detect-secrets: no cache" "$TEST_TMP/ds" "caches -"
explain detect-secrets --config-overrides 'sandbox.network_scanners=[detect-secrets]' >"$TEST_TMP/ds-net"
assert_file_contains "detect-secrets: a network when sandbox.network_scanners names it" "$TEST_TMP/ds-net" "network True"
explain detect-secrets --offline --config-overrides 'sandbox.network_scanners=[detect-secrets]' >"$TEST_TMP/ds-off"
assert_file_contains "detect-secrets: none offline, even when named" "$TEST_TMP/ds-off" "network False"

GITLEAKS_CONFIG=$TEST_TMP/x.toml GITLEAKS_LICENSE=x explain gitleaks >"$TEST_TMP/gl"
assert_file_contains "gitleaks: no network" "$TEST_TMP/gl" "network False"
assert_file_contains "gitleaks: no cache" "$TEST_TMP/gl" "caches -"
assert_file_lacks "gitleaks: no GITLEAKS_ variable passed in" "$TEST_TMP/gl" "GITLEAKS_"
check "gitleaks: the environment is listed (the check above can fail)" grep -q '^env .*PATH' "$TEST_TMP/gl"
done_testing
