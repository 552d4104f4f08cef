/* SPDX-License-Identifier: Apache-2.0 */
/* main.c -- ash on Linux: the command line with the Linux backends, in the
   order --sandbox auto tries them.  */

#include <config.h>

#include "backends.h"
#include "cli/cli.h"
#include "sandbox/backend.h"

static const struct ash_backend *const linux_backends[] = {
  &ash_backend_bwrap,
  &ash_backend_firejail,
  &ash_backend_landlock,
  NULL,
};

int
main (int argc, char **argv)
{
  return ash_main (argc, argv, linux_backends);
}
