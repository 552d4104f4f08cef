/* SPDX-License-Identifier: Apache-2.0 */
/* sys/wait.h -- declared for the Windows build, which starts no
   programs.  */
#ifndef ASH_W32_SYS_WAIT_H
#define ASH_W32_SYS_WAIT_H
#define WNOHANG 1
#define WIFEXITED(s) (((s) &0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((s) &0x7f) != 0 && ((s) &0x7f) != 0x7f)
#define WTERMSIG(s) ((s) &0x7f)
int waitpid (int pid, int *status, int options);
#endif
