#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The escape suite under bwrap (see sandbox-escape.sh).
SANDBOX_BACKEND=bwrap
. "$top_srcdir/tests/sh/sandbox-escape.sh"
