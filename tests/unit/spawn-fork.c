/* SPDX-License-Identifier: Apache-2.0 */
/* spawn.c with its fork() path, the one ASH takes where it cannot start
   a child that shares its memory (not Linux, or a build with a
   sanitizer): test-spawn-fork runs the tests of test-spawn.c against
   it.  */

#include <config.h>

#define ASH_SPAWN_FORK 1
#include "proc/spawn.c"
