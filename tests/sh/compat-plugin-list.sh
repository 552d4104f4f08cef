#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Upstream's `ash plugin list`: the scanners (builtin, and those of the
# plugin modules a scan would load), converters and reporters, each with
# whether the configuration enables it and where it comes from.  A module
# path built to drive the terminal is shown as text.
. "$top_srcdir/tests/libtest.sh"

unset ASH_SCANNERS ASH_EXCLUDED_SCANNERS ASH_CONFIG ASH_PLUGIN_MODULES CI
src=$TEST_TMP/src
mkdir -p "$src"
mod=$top_srcdir/tests/fixtures/plugins/report-inject.yaml
list () {
  run_ash plugin list --source-dir "$src" "$@"
}
# row NAME: NAME's row of the last listing, its spaces squeezed.
row () {
  grep -E "^  $1 " "$TEST_TMP/out" | tr -s ' '
}

list
assert_eq "plugin list: exit 0" "$status" 0
for s in bandit cdk-nag cfn-nag checkov detect-secrets grype npm-audit opengrep semgrep syft; do
  assert_eq "upstream's scanner $s is listed, enabled, builtin" "$(row "$s")" " $s True builtin"
done
for h in "ASH Scanners" "ASH Converters" "ASH Reporters"; do
  assert_file_contains "the '$h' table" "$TEST_TMP/out" "$h"
done
assert_eq "the converters" "$(row archive) /$(row jupyter)" " archive True builtin / jupyter True builtin"
assert_eq "yaml and spdx off by default, as upstream" "$(row yaml) /$(row spdx)" " yaml False builtin / spdx False builtin"
assert_eq "sarif on" "$(row sarif)" " sarif True builtin"
check_fails "control: no plugin scanner without a module" grep -q report-inject "$TEST_TMP/out"

list --ash-plugin-modules "$mod"
assert_eq "--ash-plugin-modules: its scanner, with its module" "$(row report-inject)" " report-inject True $mod"
ASH_PLUGIN_MODULES=$mod list
assert_eq "ASH_PLUGIN_MODULES: the same" "$(row report-inject)" " report-inject True $mod"

printf 'scanners:\n  bandit:\n    enabled: false\nreporters:\n  yaml:\n    enabled: true\nconverters:\n  jupyter:\n    enabled: false\n' >"$TEST_TMP/c.yaml"
list -c "$TEST_TMP/c.yaml"
assert_eq "-c: scanners.bandit.enabled false" "$(row bandit)" " bandit False builtin"
assert_eq "-c: reporters.yaml.enabled true" "$(row yaml)" " yaml True builtin"
assert_eq "-c: converters.jupyter.enabled false" "$(row jupyter)" " jupyter False builtin"
list --config-overrides scanners.semgrep.enabled=false
assert_eq "--config-overrides" "$(row semgrep)" " semgrep False builtin"

# A module whose path holds an escape sequence.
esc=$(printf '\033')
evil="$TEST_TMP/mod${esc}]0;pwned${esc}[2J.yaml"
cp "$mod" "$evil"
check "control: the module's file name holds a raw ESC" sh -c 'ls "$1" | grep -q "$2"' sh "$TEST_TMP" "$esc"
list --ash-plugin-modules "$evil"
assert_eq "a module with an escape sequence in its path: exit 0" "$status" 0
check_fails "... no raw ESC reaches the terminal" grep -q "$esc" "$TEST_TMP/out"
assert_file_contains "... the path shown as text" "$TEST_TMP/out" 'mod\e]0;pwned\e[2J.yaml'

# Refusals.
printf 'scanners:\n  broken: 3\n' >"$TEST_TMP/bad.yaml"
list --ash-plugin-modules "$TEST_TMP/bad.yaml"
assert_eq "an invalid module: a configuration error (exit 3)" "$status" 3
run_ash plugin lst
assert_eq "an unknown subcommand: a usage error (exit 5)" "$status" 5
assert_file_contains "... naming list" "$TEST_TMP/err" "unknown subcommand 'ash plugin lst' (expected one of: list)"

done_testing
