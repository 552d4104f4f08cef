/* SPDX-License-Identifier: Apache-2.0 */
/* poll.h -- declared for the Windows build, which starts no programs and
   so never waits on a pipe: poll() fails with ENOSYS.  */
#ifndef ASH_W32_POLL_H
#define ASH_W32_POLL_H
struct pollfd
{
  int fd;
  short events;
  short revents;
};
#define POLLIN 1
#define POLLPRI 2
#define POLLOUT 4
#define POLLERR 8
#define POLLHUP 16
#define POLLNVAL 32
int poll (struct pollfd *fds, unsigned long n, int timeout);
#endif
