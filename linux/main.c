/* main.c -- ash on Linux: the command line with the Linux backends, in the
   order --sandbox auto tries them.  */

#include <config.h>

#include "backend.h"
#include "backends.h"
#include "cli.h"

static const struct ash_backend *const linux_backends[] = {
  &ash_backend_bwrap,
  &ash_backend_firejail,
  &ash_backend_landlock,
  NULL,
};

int
main (int argc, char **argv)
{
  return ash_main (argc, argv, linux_backends, NULL);
}
