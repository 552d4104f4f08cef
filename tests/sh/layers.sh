#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# lib/ is layered (lib/README.md): a file includes headers of its own layer
# and the layers below, never above.  The check passes on the real tree and
# fails, naming file and line, on scratch copies of it with one deliberate
# fault each.

. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
check=$top_srcdir/build-aux/check-layers

python3 "$check" "$top_srcdir" >"$TEST_TMP/real" 2>&1
status=$?
assert_eq "the source tree includes no header from a layer above" "$status" 0
[ "$status" -eq 0 ] || diag "$(cat "$TEST_TMP/real")"

# A fresh scratch copy of the tree's sources in $TEST_TMP/$1.
scratch () {
  mkdir "$TEST_TMP/$1"
  for d in lib linux darwin win32; do
    [ -d "$top_srcdir/$d" ] && cp -R "$top_srcdir/$d" "$TEST_TMP/$1/$d"
  done
  chmod -R u+w "$TEST_TMP/$1"
}

# Insert LINE after the first line of FILE.
insert () {
  sed "1a\\
$2" "$1" >"$1.new" && mv "$1.new" "$1"
}

scratch control
python3 "$check" "$TEST_TMP/control" >"$TEST_TMP/control.out" 2>&1
assert_eq "control: an unchanged copy passes" "$?" 0

scratch up
insert "$TEST_TMP/up/lib/base/util.c" '#include "cli/cli.h"'
python3 "$check" "$TEST_TMP/up" >"$TEST_TMP/up.out" 2>&1
assert_eq "base/ including the command line fails the check" "$?" 1
assert_file_contains "the violation is named with its file and line" \
  "$TEST_TMP/up.out" 'lib/base/util.c:2: base (layer 1, base) includes "cli/cli.h" from layer 7'
assert_eq "and it is the only one" \
  "$(wc -l <"$TEST_TMP/up.out" | tr -d ' ')" 1

scratch up2
insert "$TEST_TMP/up2/lib/scan/orchestrator.c" '#include "report/reports.h"'
python3 "$check" "$TEST_TMP/up2" >"$TEST_TMP/up2.out" 2>&1
assert_eq "the scan layer including a reporter fails the check" "$?" 1
assert_file_contains "with the layers named" "$TEST_TMP/up2.out" \
  'includes "report/reports.h" from layer 6 (report)'

scratch proc
insert "$TEST_TMP/proc/lib/proc/spawn.c" '#include "sandbox/backend.h"'
python3 "$check" "$TEST_TMP/proc" >"$TEST_TMP/proc.out" 2>&1
assert_eq "spawn including the backend table fails the check" "$?" 1

scratch backend
insert "$TEST_TMP/backend/linux/bwrap.c" '#include "scan/results.h"'
python3 "$check" "$TEST_TMP/backend" >"$TEST_TMP/backend.out" 2>&1
assert_eq "a backend including the scan layer fails the check" "$?" 1
assert_file_contains "and is named as a backend" "$TEST_TMP/backend.out" \
  'linux/bwrap.c:2: a linux backend (layer 4'

scratch platform
insert "$TEST_TMP/platform/lib/scan/job.c" '#include "../../linux/backends.h"'
python3 "$check" "$TEST_TMP/platform" >"$TEST_TMP/platform.out" 2>&1
assert_eq "lib/ reaching into a platform directory fails the check" "$?" 1

scratch nofolder
insert "$TEST_TMP/nofolder/lib/base/buf.c" '#include "util.h"'
python3 "$check" "$TEST_TMP/nofolder" >"$TEST_TMP/nofolder.out" 2>&1
assert_eq "a lib/ header included without its folder fails the check" "$?" 1
assert_file_contains "and says how to write it" "$TEST_TMP/nofolder.out" \
  'write "base/util.h"'

scratch missing
insert "$TEST_TMP/missing/lib/base/buf.c" '#include "base/nothere.h"'
python3 "$check" "$TEST_TMP/missing" >"$TEST_TMP/missing.out" 2>&1
assert_eq "an include of a lib/ header that does not exist fails" "$?" 1

scratch confh
printf '/* a second config.h */\n' >"$TEST_TMP/confh/lib/config/config.h"
python3 "$check" "$TEST_TMP/confh" >"$TEST_TMP/confh.out" 2>&1
assert_eq "a file called config.h in lib/ fails the check" "$?" 1
assert_file_contains "and is named" "$TEST_TMP/confh.out" \
  "lib/config/config.h:1: a file called config.h"

scratch flat
printf '#include "base/util.h"\n' >"$TEST_TMP/flat/lib/stray.c"
python3 "$check" "$TEST_TMP/flat" >"$TEST_TMP/flat.out" 2>&1
assert_eq "a file directly in lib/ fails the check" "$?" 1

mkdir "$TEST_TMP/empty"
python3 "$check" "$TEST_TMP/empty" >/dev/null 2>&1
assert_eq "a tree without lib/ sources is an error, not a pass" "$?" 2

# No config.h exists outside the build's generated one.
found=$(cd "$top_srcdir" && find lib linux darwin win32 tests -name config.h \
  -print 2>/dev/null)
assert_eq "no source file is called config.h" "$found" ""

done_testing
