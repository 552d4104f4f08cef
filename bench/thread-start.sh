#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# thread-start.sh -- how soon a helper thread runs while its starter
# keeps its CPU busy, started with pthread_create() and with
# ash_thread_start() (which asks for another CPU), round by round in
# turn (tests/fixtures/thread-start).
#
#   bench/thread-start.sh [BUILDDIR]   (after `make check`, which builds
#                                       tests/fixtures/thread-start)
#
# Environment: ROUNDS (default 200), SPIN (ms the starter keeps its CPU
# busy after the start, default 2).
set -eu

builddir=${1:-.}
builddir=$(cd "$builddir" && pwd)
prog=$builddir/tests/fixtures/thread-start
[ -x "$prog" ] || { echo "$prog is missing: run 'make tests/fixtures/thread-start'" >&2; exit 1; }
echo "| started with | delay, median (ms) | delay, 90th percentile (ms) | ran only once the starter stopped |"
echo "|---|---|---|---|"
"$prog" "${ROUNDS:-200}" "${SPIN:-2}"
echo
echo "Rounds: ${ROUNDS:-200}, starter busy ${SPIN:-2} ms; $(nproc) CPUs; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)."
