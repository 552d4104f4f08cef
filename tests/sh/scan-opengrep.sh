#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# opengrep end to end: the semgrep test (scan-semgrep.sh) run with the
# fake installed as opengrep, so every case there holds for opengrep with
# its own rules cache variable, $OPENGREP_RULES_CACHE_DIR.
GREP_TOOL=opengrep
export GREP_TOOL
. "$top_srcdir/tests/sh/scan-semgrep.sh"
