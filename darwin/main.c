/* SPDX-License-Identifier: Apache-2.0 */
/* main.c -- ash on macOS: the command line with the sandbox-exec backend.  */

#include <config.h>

#include "cli/cli.h"
#include "backends.h"
#include "sandbox/backend.h"

static const struct ash_backend *const darwin_backends[] = {
  &ash_backend_sandbox_exec,
  NULL,
};

int
main (int argc, char **argv)
{
  return ash_main (argc, argv, darwin_backends);
}
