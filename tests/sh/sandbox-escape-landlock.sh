#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The escape suite under landlock (see sandbox-escape.sh).
SANDBOX_BACKEND=landlock
. "$top_srcdir/tests/sh/sandbox-escape.sh"
