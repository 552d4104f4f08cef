/* cli.h -- the ash command line.  */

#ifndef ASH_CLI_H
#define ASH_CLI_H

#include <stddef.h>

struct ash_backend;

/* Exit codes (DESIGN section 5).  When several apply, the first in the
   order 5, 3, 1, 2 wins.  */
enum
{
  ASH_EXIT_OK = 0,
  ASH_EXIT_INCOMPLETE = 1,
  ASH_EXIT_FINDINGS = 2,
  ASH_EXIT_CONFIG = 3,
  ASH_EXIT_USAGE = 5,
};

/* Run the ash command line.  BACKENDS lists this platform's sandbox
   backends in the order --sandbox auto tries them (NULL-terminated).
   PLATFORM_NOTE is the reason every scanner is MISSING on a platform with
   no backend (Windows), or NULL.  */
int ash_main (int argc, char **argv, const struct ash_backend *const *backends,
              const char *platform_note);

#endif
