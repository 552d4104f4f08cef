/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h -- the ash command line.  */

#ifndef ASH_CLI_H
#define ASH_CLI_H

#include <stddef.h>

#include "scan/exit-codes.h"

struct ash_backend;

/* Run the ash command line.  BACKENDS lists this platform's sandbox
   backends in the order --sandbox auto tries them (NULL-terminated); a
   platform with no sandbox (Windows) lists only its none backend
   (ASH_BACKEND_NONE), whose message every sandboxed scanner gets.  */
int ash_main (int argc, char **argv,
              const struct ash_backend *const *backends);

#endif
