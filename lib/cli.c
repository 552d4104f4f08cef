/* cli.c -- the ash command line: commands, options, usage errors.  */

#include <config.h>

#include "cli.h"

#include <locale.h>
#include <stdio.h>

#include "util.h"

int
ash_main (int argc, char **argv, const struct ash_backend *const *backends,
          const char *platform_note)
{
  (void) backends;
  (void) platform_note;
  setlocale (LC_ALL, "");
  bindtextdomain (PACKAGE, LOCALEDIR);
  textdomain (PACKAGE);
  if (argc > 1 && streq (argv[1], "--version"))
    {
      printf ("ash %s\n", PACKAGE_VERSION);
      return ASH_EXIT_OK;
    }
  fprintf (stderr, _("ash: the command line is not built yet\n"));
  return ASH_EXIT_USAGE;
}
