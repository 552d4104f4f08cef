/* SPDX-License-Identifier: Apache-2.0 */
/* ash as on a platform without a sandbox backend: the command line with
   the none backend alone, for tests that show how such a platform's
   message reaches a scan on a machine that has backends.  */

#include <config.h>

#include "cli/cli.h"
#include "sandbox/backend.h"

static const struct ash_backend none_backend
  = ASH_BACKEND_NONE ("no scanner sandbox is available on this test "
                      "platform");

static const struct ash_backend *const none_backends[] = {
  &none_backend,
  NULL,
};

int
main (int argc, char **argv)
{
  return ash_main (argc, argv, none_backends);
}
