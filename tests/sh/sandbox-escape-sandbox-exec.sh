#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The escape suite under sandbox-exec, on macOS (see sandbox-escape.sh).
SANDBOX_BACKEND=sandbox-exec
. "$top_srcdir/tests/sh/sandbox-escape.sh"
