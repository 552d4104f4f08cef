/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h -- the ash command line.  */

#ifndef ASH_CLI_H
#define ASH_CLI_H

#include <stddef.h>

#include "scan/exit-codes.h"

struct ash_backend;

/* Run the ash command line.  BACKENDS lists this platform's sandbox
   backends in the order --sandbox auto tries them (NULL-terminated).
   PLATFORM_NOTE is the reason every scanner is MISSING on a platform with
   no backend (Windows), or NULL.  */
int ash_main (int argc, char **argv, const struct ash_backend *const *backends,
              const char *platform_note);

#endif
