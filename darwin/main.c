/* main.c -- ash on macOS: the command line with the sandbox-exec backend.  */

#include <config.h>

#include "backend.h"
#include "cli.h"

static const struct ash_backend *const darwin_backends[] = {
  NULL,
};

int
main (int argc, char **argv)
{
  return ash_main (argc, argv, darwin_backends, NULL);
}
