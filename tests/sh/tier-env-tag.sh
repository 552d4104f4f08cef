#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A configuration file the scanned repository could have written may not
# read ASH's environment: any !ENV in it (the discovered .ash/.ash.yaml, a
# base it extends, a nested key, one with a default) is refused with exit 3
# before anything is written, naming FILE:LINE:COLUMN and never the value.
# The control: the same file given with --config from outside every
# checkout (the operator tier) expands the variable.  As root, every check
# runs again as the unprivileged test account.
. "$top_srcdir/tests/libtest.sh"

secret="planted-$$-sEcReT-value"
who=$(id -un)
as_user=

# run_as ARGS...: ash as the current round's user, with PLANTED_SECRET and
# PLANTED_FLAG in its environment; output in $out and $err.
run_as () {
  env PLANTED_SECRET="$secret" PLANTED_FLAG=false $as_user "$ASH" "$@" \
    >"$out" 2>"$err"
  status=$?
}

# lacks_secret WHAT: the planted value is in no file under the base
# directory's output directories, nor on stdout or stderr.
lacks_secret () {
  if grep -rqF -- "$secret" "$base/outdir" "$out" "$err"; then
    not_ok "$1: the planted value leaked ($who)"
    grep -rlF -- "$secret" "$base/outdir" "$out" "$err" | awk '{ print "# " $0 }'
  else
    ok "$1: the planted value is nowhere ($who)"
  fi
}

# refused WHAT FILE LINE:COL ARGS...: ash ARGS exits 3 naming FILE:LINE:COL
# and the reason, without the value.
refused () {
  what=$1 file=$2 where=$3
  shift 3
  run_as "$@"
  assert_eq "$what: exit 3 ($who)" "$status" 3
  assert_file_contains "$what: names the place ($who)" "$err" \
    "$file:$where: !ENV is refused"
  assert_file_contains "$what: says what to do instead ($who)" "$err" \
    "--config-overrides"
  lacks_secret "$what"
}

round () {
  base=$(mktemp -d "${TMPDIR:-/tmp}/ash-envtier.XXXXXX")
  chmod 755 "$base"
  out=$base/stdout err=$base/stderr
  repo=$base/repo
  mkdir -p "$repo/.git" "$repo/.ash" "$base/outdir" "$base/ops"
  printf 'print("hello")\n' >"$repo/app.py"

  # The plain attack, and one with a default.
  printf 'project_name: !ENV ${PLANTED_SECRET}\n' >"$base/plain.yaml"
  printf 'fail_on_findings: true\nproject_name: !ENV "x-${PLANTED_SECRET:dflt}"\n' \
    >"$base/default.yaml"
  # A nested key.
  printf 'reporters:\n  markdown:\n    options:\n      include_summary: !ENV ${PLANTED_SECRET}\n' \
    >"$base/nested.yaml"
  printf 'reporters:\n  markdown:\n    options:\n      include_summary: !ENV ${PLANTED_FLAG}\n' \
    >"$base/nested-flag.yaml"
  if [ -n "$as_user" ]; then
    chown -R "$who" "$base"
  fi

  # Discovered in the repository.
  cp "$base/plain.yaml" "$repo/.ash/.ash.yaml"
  refused "discovered .ash/.ash.yaml" "$repo/.ash/.ash.yaml" 1:15 \
    config get project_name --source-dir "$repo"
  refused "config get --explain-tiers" "$repo/.ash/.ash.yaml" 1:15 \
    config get --explain-tiers --source-dir "$repo"
  refused "config get --explain-tiers --format json" "$repo/.ash/.ash.yaml" \
    1:15 config get --explain-tiers --format json --source-dir "$repo"
  refused "config validate" "$repo/.ash/.ash.yaml" 1:15 \
    config validate --source-dir "$repo"
  refused "config lint" "$repo/.ash/.ash.yaml" 1:15 \
    config lint --source-dir "$repo"

  # A scan: refused before the output directory is touched.
  printf 'keep\n' >"$base/outdir/sentinel"
  [ -z "$as_user" ] || chown -R "$who" "$base/outdir"
  refused "scan" "$repo/.ash/.ash.yaml" 1:15 \
    scan --source-dir "$repo" --output-dir "$base/outdir" --sandbox off
  check "scan: the output directory is not cleared ($who)" \
    test -f "$base/outdir/sentinel"
  check "scan: nothing was written to the output directory ($who)" \
    test "$(ls -A "$base/outdir")" = sentinel

  cp "$base/default.yaml" "$repo/.ash/.ash.yaml"
  refused "!ENV with a default" "$repo/.ash/.ash.yaml" 2:15 \
    config get project_name --source-dir "$repo"

  cp "$base/nested.yaml" "$repo/.ash/.ash.yaml"
  refused "!ENV in reporters.markdown.options" "$repo/.ash/.ash.yaml" 4:24 \
    config get --source-dir "$repo"

  # In a base the repository's file extends.
  printf 'extends: base.yaml\nfail_on_findings: true\n' >"$repo/.ash/.ash.yaml"
  cp "$base/plain.yaml" "$repo/.ash/base.yaml"
  refused "!ENV in an extended in-tree base" "$repo/.ash/base.yaml" 1:15 \
    config get project_name --source-dir "$repo"

  # An operator file outside every checkout that extends the repository's
  # file: the base is still the repository's.
  printf 'extends: %s\n' "$repo/.ash/base.yaml" >"$base/operator-ext.yaml"
  refused "!ENV in an in-tree base of an operator file" \
    "$repo/.ash/base.yaml" 1:15 \
    config get project_name --source-dir "$repo" --config "$base/operator-ext.yaml"

  # --config naming a file inside a checkout is the repository's too.
  cp "$base/plain.yaml" "$repo/.ash/given.yaml"
  refused "--config inside the checkout" "$repo/.ash/given.yaml" 1:15 \
    config get project_name --source-dir "$repo" --config "$repo/.ash/given.yaml"

  # The file ASH_CONFIG names, read for its grants behind a --config that
  # may not grant, is judged the same way.
  printf 'project_name: clean\n' >"$repo/.ash/clean.yaml"
  env ASH_CONFIG="$repo/.ash/given.yaml" PLANTED_SECRET="$secret" $as_user \
    "$ASH" sandbox explain bandit --source-dir "$repo" \
    --config "$repo/.ash/clean.yaml" >"$out" 2>"$err"
  status=$?
  assert_eq "ASH_CONFIG inside the checkout, as grant source: exit 3 ($who)" \
    "$status" 3
  assert_file_contains "ASH_CONFIG inside the checkout: names the place ($who)" \
    "$err" "$repo/.ash/given.yaml:1:15: !ENV is refused"
  lacks_secret "ASH_CONFIG inside the checkout, as grant source"
  env ASH_CONFIG="$base/plain.yaml" PLANTED_SECRET="$secret" $as_user \
    "$ASH" sandbox explain bandit --source-dir "$repo" \
    --config "$repo/.ash/clean.yaml" >"$out" 2>"$err"
  assert_eq "control: ASH_CONFIG outside, as grant source: exit 0 ($who)" \
    "$?" 0

  # A scanned directory in no checkout (an extracted archive).
  mkdir -p "$base/archive/.ash"
  cp "$base/plain.yaml" "$base/archive/.ash/.ash.yaml"
  [ -z "$as_user" ] || chown -R "$who" "$base/archive"
  refused "a scanned directory in no checkout" "$base/archive/.ash/.ash.yaml" \
    1:15 config get project_name --source-dir "$base/archive"

  # A link in the tree to a file outside it is judged by its name.
  rm -f "$repo/.ash/.ash.yaml"
  ln -s "$base/plain.yaml" "$repo/.ash/.ash.yaml"
  refused "a link in the tree to an outside file" "$repo/.ash/.ash.yaml" 1:15 \
    config get project_name --source-dir "$repo"
  rm -f "$repo/.ash/.ash.yaml"
  printf 'project_name: plain\n' >"$repo/.ash/.ash.yaml"

  # Controls: the same files from outside every checkout expand.
  run_as config get project_name --source-dir "$repo" --config "$base/plain.yaml"
  assert_eq "control: --config outside expands !ENV: exit 0 ($who)" "$status" 0
  assert_file_contains "control: --config outside expands !ENV ($who)" \
    "$out" "$secret"
  run_as config get project_name --source-dir "$repo" --config "$base/default.yaml"
  assert_file_contains "control: !ENV with a default, outside ($who)" \
    "$out" "x-$secret"
  run_as config get reporters.markdown.options.include_summary \
    --source-dir "$repo" --config "$base/nested-flag.yaml"
  assert_eq "control: a nested !ENV outside: exit 0 ($who)" "$status" 0
  assert_file_contains "control: a nested !ENV outside expands ($who)" \
    "$out" false
  # An outside file extending an outside base: both may read it.
  cp "$base/plain.yaml" "$base/ops/base.yaml"
  printf 'extends: ops/base.yaml\n' >"$base/ext.yaml"
  [ -z "$as_user" ] || chown -R "$who" "$base"
  run_as config get project_name --source-dir "$repo" --config "$base/ext.yaml"
  assert_file_contains "control: an outside base's !ENV expands ($who)" \
    "$out" "$secret"
  env PLANTED_SECRET="$secret" ASH_CONFIG="$base/plain.yaml" $as_user \
    "$ASH" config get project_name --source-dir "$repo" >"$out" 2>"$err"
  assert_file_contains "control: ASH_CONFIG outside expands !ENV ($who)" \
    "$out" "$secret"
  run_as config get --explain-tiers --source-dir "$repo" --config "$base/plain.yaml"
  assert_file_contains "control: explain-tiers lists the operator's !ENV ($who)" \
    "$out" "reads the environment (!ENV) at: 1:15"
  lacks_secret "control: explain-tiers"

  rm -rf "$base"
}

trap 'rm -rf "$TEST_TMP" ${base:+"$base"}' EXIT
each_user round
done_testing
