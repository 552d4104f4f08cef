#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The escape suite under firejail (see sandbox-escape.sh).
SANDBOX_BACKEND=firejail
. "$top_srcdir/tests/sh/sandbox-escape.sh"
