#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A plugin module that declares a network, environment variables or read
# paths may be enabled only by a config file that may grant them.  A
# repository's .ash/.ash.yaml naming installed modules that declare each
# of these gets the warning and none of them loads, while an installed
# module that declares nothing loads from the same file.  Control: the
# operator's --ash-plugin-modules loads the module with a network.
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

PATH=$top_srcdir/tests/fixtures/tools:$PATH
export PATH
plugins=$TEST_TMP/plugins
mkdir -p "$plugins"
module () {
  # module NAME SCANNER REQUIREMENTS
  cat >"$plugins/$1.yaml" <<YAML
scanners:
  $2:
    tool: fake-sarif-tool
    args: ["{results_dir}/fake.sarif", "{target}", "{scan_set}"]
    output: { format: sarif, path: "{results_dir}/fake.sarif" }
    sandbox_requirements: $3
YAML
}
module netmod net-sarif '{ network: true }'
module envmod env-sarif '{ env_names: [MYTOOL_TOKEN] }'
module prefixmod prefix-sarif '{ env_prefixes: [MYTOOL_] }'
module pathmod path-sarif '{ read_paths: ["~/.config/mytool"] }'
module plainmod plain-sarif '{ network: false }'
ASH_PLUGIN_PATH=$plugins
export ASH_PLUGIN_PATH

repo=$TEST_TMP/repo
mkdir -p "$repo/.git" "$repo/.ash" "$repo/docs"
printf 'FAKE-FINDING high\n' >"$repo/docs/notes.txt"
cat >"$repo/.ash/.ash.yaml" <<'YAML'
ash_plugin_modules: [netmod, envmod, prefixmod, pathmod, plainmod]
YAML

scanners_in () {
  python3 -c 'import json,sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["scanner_results"])))' \
    "$1/ash_aggregated_results.json"
}

run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out1" --no-progress \
  --scanners plain-sarif
assert_eq "the module that declares nothing runs (exit 2 on its finding)" "$status" 2
for m in netmod:"a network" envmod:"environment variables" prefixmod:"environment variables" pathmod:"read paths"; do
  name=${m%%:*}
  what=${m#*:}
  assert_file_contains "$name is refused with the warning" "$TEST_TMP/err" \
    "Not loading plugin module '$plugins/$name.yaml' named by $repo/.ash/.ash.yaml: it declares $what, which only a config file that may grant can enable"
done
list=$(scanners_in "$TEST_TMP/out1")
for s in net-sarif env-sarif prefix-sarif path-sarif; do
  case " $list " in
    *" $s "*) not_ok "$s is not loaded" ;;
    *) ok "$s is not loaded" ;;
  esac
done
case " $list " in
  *" plain-sarif "*) ok "plain-sarif is loaded" ;;
  *) not_ok "plain-sarif is loaded" ;;
esac

# Control: the operator names the module with a network.
run_ash scan --source-dir "$repo" --output-dir "$TEST_TMP/out2" --no-progress \
  --ash-plugin-modules netmod --scanners net-sarif
assert_eq "control: --ash-plugin-modules loads it (exit 2 on its finding)" "$status" 2
assert_file_lacks "control: no refusal for it" "$TEST_TMP/err" "Not loading plugin module '$plugins/netmod.yaml'"

done_testing
