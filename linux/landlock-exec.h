/* SPDX-License-Identifier: Apache-2.0 */
/* landlock-exec.h -- the exit statuses of the ash-landlock-exec program,
   for the backends that start it.

   Apart from these, the program exits with its command's status, or 128
   plus the number of the signal that ended the command.  Every status below
   comes with one line on stderr: "ash-landlock-exec: <reason>", except in
   --probe mode, where the line is the bare reason (for
   ASH_LANDLOCK_EXIT_UNAVAILABLE and ASH_LANDLOCK_EXIT_OLD_ABI, the spec's
   message word for word).  */

#ifndef ASH_LANDLOCK_EXEC_H
#define ASH_LANDLOCK_EXEC_H

/* The program's name, as installed in $(pkglibexecdir).  */
#define ASH_LANDLOCK_EXEC_NAME "ash-landlock-exec"

/* Landlock is not built into the kernel, not enabled at boot, or refused:
   "Landlock is not available (...)".  */
#define ASH_LANDLOCK_EXIT_UNAVAILABLE 121
/* "Landlock ABI <n> is below 3 (Linux 6.2), ...".  */
#define ASH_LANDLOCK_EXIT_OLD_ABI 122
/* The command line of ash-landlock-exec itself is wrong.  */
#define ASH_LANDLOCK_EXIT_USAGE 125
/* The sandbox could not be set up; nothing was run.  */
#define ASH_LANDLOCK_EXIT_SETUP 126
/* The command could not be executed.  */
#define ASH_LANDLOCK_EXIT_EXEC 127

#endif /* ASH_LANDLOCK_EXEC_H */
