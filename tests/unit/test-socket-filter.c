/* SPDX-License-Identifier: Apache-2.0 */
/* test-socket-filter.c -- the seccomp socket filter, with and without a
   network, against the same calls made without it (the negative control
   that shows each refused call works otherwise).  */

#include <config.h>

#include "tap.h"
#include "../../linux/socket-filter.h"
#define ASH_SOCKET_FILTER_BPF_MACROS_ONLY
#include "linux/socket-filter-bpf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum
{
  C_UNIX_STREAM,
  C_UNIX_DGRAM,
  C_UNIX_HIGHBITS,
  C_INET_STREAM,
  C_INET6_DGRAM,
  C_INET_HIGHBITS,
  C_PAIR_DGRAM,
  C_PAIR_DGRAM_FLAGS,
  C_PAIR_RAW,
  C_PAIR_STREAM,
  C_PAIR_STREAM_FLAGS,
  C_PAIR_SEQPACKET,
  C_IO_URING_SETUP,
  C_NETLINK,
  C_PACKET,
  C_PAIR_DGRAM_HIGHBITS,
  C_IO_URING_ENTER,
  C_IO_URING_REGISTER,
  C_X32_UNIX,
  C_NNP,
  C_TIOCSTI,
  C_TIOCLINUX,
  C_COUNT
};

static const char *const names[C_COUNT] = {
  "socket(AF_UNIX, SOCK_STREAM)",
  "socket(AF_UNIX, SOCK_DGRAM)",
  "socket(AF_UNIX | 1 << 32, SOCK_STREAM)",
  "socket(AF_INET, SOCK_STREAM)",
  "socket(AF_INET6, SOCK_DGRAM)",
  "socket(AF_INET | 1 << 32, SOCK_STREAM)",
  "socketpair(SOCK_DGRAM)",
  "socketpair(SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC)",
  "socketpair(SOCK_RAW)",
  "socketpair(SOCK_STREAM)",
  "socketpair(SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC)",
  "socketpair(SOCK_SEQPACKET)",
  "io_uring_setup",
  "socket(AF_NETLINK, NETLINK_ROUTE)",
  "socket(AF_PACKET, SOCK_RAW)",
  "socketpair(SOCK_DGRAM | 1 << 32)",
  "io_uring_enter",
  "io_uring_register",
  "x32 socket(AF_UNIX)",
  "no_new_privs",
  "ioctl(TIOCSTI)",
  "ioctl(TIOCLINUX)",
};

/* 0 when the call worked, else its errno.  */
static int
result_of_fd (long fd)
{
  if (fd < 0)
    return errno;
  close ((int) fd);
  return 0;
}

static int
pair (int type)
{
  int sv[2];
  if (socketpair (AF_UNIX, type, 0, sv) < 0)
    return errno;
  close (sv[0]);
  close (sv[1]);
  return 0;
}

static void
run_calls (int *r)
{
  unsigned char params[120];

  r[C_UNIX_STREAM] = result_of_fd (socket (AF_UNIX, SOCK_STREAM, 0));
  r[C_UNIX_DGRAM] = result_of_fd (socket (AF_UNIX, SOCK_DGRAM, 0));
  r[C_UNIX_HIGHBITS] = result_of_fd (
    syscall (SYS_socket, (1ULL << 32) | AF_UNIX, (long) SOCK_STREAM, 0L));
  r[C_INET_STREAM] = result_of_fd (socket (AF_INET, SOCK_STREAM, 0));
  r[C_INET6_DGRAM] = result_of_fd (socket (AF_INET6, SOCK_DGRAM, 0));
  r[C_INET_HIGHBITS] = result_of_fd (
    syscall (SYS_socket, (1ULL << 32) | AF_INET, (long) SOCK_STREAM, 0L));
  r[C_PAIR_DGRAM] = pair (SOCK_DGRAM);
  r[C_PAIR_DGRAM_FLAGS] = pair (SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC);
  r[C_PAIR_RAW] = pair (SOCK_RAW);
  r[C_PAIR_STREAM] = pair (SOCK_STREAM);
  r[C_PAIR_STREAM_FLAGS] = pair (SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC);
  r[C_PAIR_SEQPACKET] = pair (SOCK_SEQPACKET);
  /* The kernel reads the type as an int: high bits do not hide a
     datagram pair.  */
  int sv[2];
  if (syscall (SYS_socketpair, (long) AF_UNIX, (1ULL << 32) | SOCK_DGRAM, 0L,
               sv)
      < 0)
    r[C_PAIR_DGRAM_HIGHBITS] = errno;
  else
    {
      r[C_PAIR_DGRAM_HIGHBITS] = 0;
      close (sv[0]);
      close (sv[1]);
    }
  /* Protocol 0 is NETLINK_ROUTE; an AF_PACKET socket needs CAP_NET_RAW.  */
  r[C_NETLINK] = result_of_fd (socket (AF_NETLINK, SOCK_RAW, 0));
  r[C_PACKET] = result_of_fd (socket (AF_PACKET, SOCK_RAW, 0));
  memset (params, 0, sizeof params);
#ifdef SYS_io_uring_setup
  r[C_IO_URING_SETUP]
    = result_of_fd (syscall (SYS_io_uring_setup, 1L, params));
#else
  r[C_IO_URING_SETUP] = ENOSYS;
#endif
  /* On a descriptor that is not an io_uring: EBADF or EOPNOTSUPP unless
     the filter answers first.  */
#ifdef SYS_io_uring_enter
  r[C_IO_URING_ENTER]
    = syscall (SYS_io_uring_enter, -1L, 0L, 0L, 0L, NULL, 0L) < 0 ? errno : 0;
#else
  r[C_IO_URING_ENTER] = ENOSYS;
#endif
#ifdef SYS_io_uring_register
  r[C_IO_URING_REGISTER]
    = syscall (SYS_io_uring_register, -1L, 0L, NULL, 0L) < 0 ? errno : 0;
#else
  r[C_IO_URING_REGISTER] = ENOSYS;
#endif
#if defined __x86_64__ && !defined __ILP32__
  /* The x32 system call of the same name: a separate table the filter
     must cover too.  ENOSYS when the kernel has no x32 support.  */
  r[C_X32_UNIX]
    = result_of_fd (syscall (0x40000000L + SYS_socket, (long) AF_UNIX,
                             (long) SOCK_STREAM, 0L));
#else
  r[C_X32_UNIX] = EACCES;
#endif
  r[C_NNP] = prctl (PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : EPERM;
  /* On a pipe, which is no terminal: the kernel's own answer is ENOTTY,
     so EPERM can only come from the filter.  The high bits of the request
     are ignored by the kernel and must not hide it from the filter.  */
  {
    int p[2];
    char c = 'x';

    if (pipe (p) < 0)
      r[C_TIOCSTI] = r[C_TIOCLINUX] = errno;
    else
      {
        r[C_TIOCSTI] = syscall (SYS_ioctl, (long) p[0],
                                (long) ((1ULL << 32) | TIOCSTI), &c)
                           < 0
                         ? errno
                         : 0;
        r[C_TIOCLINUX] = ioctl (p[0], TIOCLINUX, &c) < 0 ? errno : 0;
        close (p[0]);
        close (p[1]);
      }
  }
}

/* Make the calls in a child, with the filter (MODE 1: no network, 2:
   network), with the same filter built in the parent as a sealed memfd
   and loaded from it (MODE 3: no network, 4: network), or without it
   (MODE 0).  Returns false when the child failed.  */
static bool
calls_in_child (int mode, int *r)
{
  int fds[2];
  pid_t pid;
  int status;

  int filter_fd = -1;

  if (mode >= 3)
    {
      char *error = NULL;
      filter_fd = ash_socket_filter_memfd (mode == 4 ? ASH_SOCKETS_NETWORK
                                                     : ASH_SOCKETS_NONE,
                                           &error);
      if (filter_fd < 0)
        {
          tap_diag ("%s", error ? error : "memfd failed");
          free (error);
          return false;
        }
    }
  if (pipe (fds) < 0)
    return false;
  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    return false;
  if (pid == 0)
    {
      char *error = NULL;
      int res[C_COUNT];

      close (fds[0]);
      if (mode >= 3 && ash_socket_filter_install_fd (filter_fd, &error) < 0)
        {
          fprintf (stderr, "# %s\n", error ? error : "install failed");
          _exit (3);
        }
      if (mode >= 3)
        close (filter_fd);
      if (mode != 0 && mode < 3
          && ash_socket_filter_install (mode == 2 ? ASH_SOCKETS_NETWORK
                                                  : ASH_SOCKETS_NONE,
                                        &error)
               < 0)
        {
          fprintf (stderr, "# %s\n", error ? error : "install failed");
          _exit (3);
        }
      run_calls (res);
      if (write (fds[1], res, sizeof res) != (ssize_t) sizeof res)
        _exit (4);
      _exit (0);
    }
  close (fds[1]);
  if (filter_fd >= 0)
    close (filter_fd);
  ssize_t n = read (fds[0], r, sizeof (int) * C_COUNT);
  close (fds[0]);
  waitpid (pid, &status, 0);
  return n == (ssize_t) (sizeof (int) * C_COUNT) && WIFEXITED (status)
         && WEXITSTATUS (status) == 0;
}

static void
expect_refused (const int *filtered, const int *bare, int c, int err,
                const char *mode)
{
  if (bare[c] != 0)
    tap_ok (false, "%s works without the filter (control): %s", names[c],
            strerror (bare[c]));
  else
    tap_ok (true, "%s works without the filter (control)", names[c]);
  tap_is_int (filtered[c], err, "%s is refused with %s, %s", names[c],
              err == ENOSYS ? "ENOSYS" : "EACCES", mode);
}

static void
expect_allowed (const int *filtered, int c, const char *mode)
{
  tap_is_int (filtered[c], 0, "%s still works, %s", names[c], mode);
}

/* The bytes of the regular file FD (malloc'd), their count in *RET_N;
   NULL when it cannot be read.  */
static char *
fd_bytes (int fd, size_t *ret_n)
{
  struct stat st;
  if (fstat (fd, &st) < 0 || st.st_size <= 0)
    return NULL;
  char *b = malloc ((size_t) st.st_size);
  if (b && pread (fd, b, (size_t) st.st_size, 0) != (ssize_t) st.st_size)
    {
      free (b);
      return NULL;
    }
  *ret_n = (size_t) st.st_size;
  return b;
}

/* The programs made at build time are the ones libseccomp builds from the
   rules now, for every policy: in the memfd ash hands over, and loaded in
   place (the calls give the same results as under libseccomp's own).  */
static void
check_prebuilt (const int *off)
{
  static const char *const pol[] = { "no network", "network", "netns" };
#if !ASH_SOCKET_FILTER_PREBUILT
  (void) off;
  (void) pol;
  tap_skip ("a cross build carries no programs made at build time");
#else
  tap_ok (ash_socket_filter_have_prebuilt (),
          "this build carries the programs made at build time");
  for (int p = 0; p < 3; p++)
    {
      char *error = NULL;
      size_t nlib = 0, npre = 0;
      int lib = memfd_create ("lib", MFD_CLOEXEC);
      bool built = lib >= 0
                   && ash_socket_filter_write_bpf ((enum ash_socket_policy) p,
                                                   lib, &error)
                        == 0;
      char *want = built ? fd_bytes (lib, &nlib) : NULL;
      int fd = ash_socket_filter_memfd ((enum ash_socket_policy) p, &error);
      char *got = fd >= 0 ? fd_bytes (fd, &npre) : NULL;
      tap_ok (want && got && nlib == npre && memcmp (want, got, nlib) == 0,
              "the memfd's program (%s) is the one libseccomp builds: %zu "
              "and %zu bytes",
              pol[p], npre, nlib);
      ash_socket_filter_use_prebuilt (false);
      int fd2 = ash_socket_filter_memfd ((enum ash_socket_policy) p, &error);
      ash_socket_filter_use_prebuilt (true);
      size_t n2 = 0;
      char *got2 = fd2 >= 0 ? fd_bytes (fd2, &n2) : NULL;
      tap_ok (want && got2 && n2 == nlib && memcmp (want, got2, nlib) == 0,
              "without the programs made at build time the memfd holds the "
              "same program (%s)",
              pol[p]);
      free (want);
      free (got);
      free (got2);
      free (error);
      if (lib >= 0)
        close (lib);
      if (fd >= 0)
        close (fd);
      if (fd2 >= 0)
        close (fd2);
    }
  {
    int lib_off[C_COUNT];
    ash_socket_filter_use_prebuilt (false);
    bool got = calls_in_child (1, lib_off);
    ash_socket_filter_use_prebuilt (true);
    bool same = got;
    for (int c = 0; got && c < C_COUNT; c++)
      if (lib_off[c] != off[c])
        {
          tap_diag ("%s: %s built by libseccomp, %s from the build's program",
                    names[c], strerror (lib_off[c]), strerror (off[c]));
          same = false;
        }
    tap_ok (same, "the filter libseccomp builds and loads gives every call "
                  "the result the build's program does");
  }
#endif
}

int
main (void)
{
  int bare[C_COUNT], off[C_COUNT], on[C_COUNT];

  if (!calls_in_child (0, bare))
    tap_skip_all ("cannot run the calls without a filter");
  if (!calls_in_child (1, off))
    {
      tap_ok (false, "the filter can be installed (no network)");
      return tap_done ();
    }
  if (!calls_in_child (2, on))
    {
      tap_ok (false, "the filter can be installed (network)");
      return tap_done ();
    }

  /* The same filters, built as ash builds them for every wrapper (once,
     into a sealed memfd) and loaded from the descriptor: each call gives
     the same result as under the filter built and loaded in place.  */
  {
    int off_fd[C_COUNT], on_fd[C_COUNT];
    bool got_off = calls_in_child (3, off_fd);
    bool got_on = calls_in_child (4, on_fd);

    tap_ok (got_off, "the filter loads from its memfd (no network)");
    tap_ok (got_on, "the filter loads from its memfd (network)");
    for (int c = 0; got_off && got_on && c < C_COUNT; c++)
      {
        tap_is_int (off_fd[c], off[c],
                    "%s: the same from the memfd as built, without a "
                    "network",
                    names[c]);
        tap_is_int (on_fd[c], on[c],
                    "%s: the same from the memfd as built, with a network",
                    names[c]);
      }
  }

  const char *offline = "without a network";
  const char *online = "with a network";

  /* Unix sockets: refused in both modes.  The high-bits family is AF_UNIX
     to the kernel (the control shows it), so it must be refused too.  */
  expect_refused (off, bare, C_UNIX_STREAM, EACCES, offline);
  expect_refused (on, bare, C_UNIX_STREAM, EACCES, online);
  expect_refused (on, bare, C_UNIX_DGRAM, EACCES, online);
  expect_refused (on, bare, C_UNIX_HIGHBITS, EACCES, online);
  expect_refused (off, bare, C_UNIX_HIGHBITS, EACCES, offline);

  /* IP sockets: refused without a network only.  */
  expect_refused (off, bare, C_INET_STREAM, EACCES, offline);
  expect_refused (off, bare, C_INET6_DGRAM, EACCES, offline);
  expect_refused (off, bare, C_INET_HIGHBITS, EACCES, offline);
  expect_allowed (on, C_INET_STREAM, online);
  expect_allowed (on, C_INET6_DGRAM, online);

  /* socketpair: datagram (and raw, which is datagram) refused, whatever
     the flags; stream and seqpacket kept.  */
  expect_refused (off, bare, C_PAIR_DGRAM, EACCES, offline);
  expect_refused (on, bare, C_PAIR_DGRAM, EACCES, online);
  expect_refused (on, bare, C_PAIR_DGRAM_FLAGS, EACCES, online);
  expect_refused (on, bare, C_PAIR_RAW, EACCES, online);
  expect_allowed (off, C_PAIR_STREAM, offline);
  expect_allowed (off, C_PAIR_STREAM_FLAGS, offline);
  expect_allowed (off, C_PAIR_SEQPACKET, offline);
  expect_allowed (on, C_PAIR_STREAM, online);
  expect_allowed (on, C_PAIR_SEQPACKET, online);
  expect_refused (on, bare, C_PAIR_DGRAM_HIGHBITS, EACCES, online);

  /* Other families: refused without a network.  With one, only AF_UNIX is
     refused by the filter: a netlink socket still opens (what it can do
     is the kernel's business), and AF_PACKET is left to CAP_NET_RAW.  */
  expect_refused (off, bare, C_NETLINK, EACCES, offline);
  expect_allowed (on, C_NETLINK, online);
  if (bare[C_PACKET] == 0)
    expect_refused (off, bare, C_PACKET, EACCES, offline);
  else
    tap_is_int (off[C_PACKET], EACCES,
                "%s is refused with EACCES, %s "
                "(no control: %s without the filter)",
                names[C_PACKET], offline, strerror (bare[C_PACKET]));

  /* io_uring: ENOSYS.  Without the filter it may be disabled by sysctl
     (EPERM) but never ENOSYS on a kernel that has it.  */
  if (bare[C_IO_URING_SETUP] == ENOSYS)
    tap_diag ("this kernel has no io_uring; only the filtered result is "
              "checked");
  else
    tap_ok (true,
            "io_uring_setup is not ENOSYS without the filter "
            "(control: %s)",
            bare[C_IO_URING_SETUP] ? strerror (bare[C_IO_URING_SETUP])
                                   : "works");
  tap_is_int (off[C_IO_URING_SETUP], ENOSYS,
              "io_uring_setup fails with ENOSYS, %s", offline);
  tap_is_int (on[C_IO_URING_SETUP], ENOSYS,
              "io_uring_setup fails with ENOSYS, %s", online);
  for (int c = C_IO_URING_ENTER; c <= C_IO_URING_REGISTER; c++)
    {
      if (bare[c] == ENOSYS)
        tap_diag ("%s is ENOSYS without the filter", names[c]);
      else
        tap_ok (true, "%s is not ENOSYS without the filter (control: %s)",
                names[c], bare[c] ? strerror (bare[c]) : "works");
      tap_is_int (off[c], ENOSYS, "%s fails with ENOSYS, %s", names[c],
                  offline);
      tap_is_int (on[c], ENOSYS, "%s fails with ENOSYS, %s", names[c], online);
    }

  /* x32: refused either by the filter or by a kernel without x32.  */
  tap_ok (off[C_X32_UNIX] == EACCES || off[C_X32_UNIX] == ENOSYS,
          "the x32 socket(AF_UNIX) call does not get through (%s)",
          off[C_X32_UNIX] ? strerror (off[C_X32_UNIX]) : "it worked");
  tap_ok (on[C_X32_UNIX] == EACCES || on[C_X32_UNIX] == ENOSYS,
          "the x32 socket(AF_UNIX) call does not get through with a network "
          "(%s)",
          on[C_X32_UNIX] ? strerror (on[C_X32_UNIX]) : "it worked");

  if (bare[C_NNP] == 0)
    tap_diag ("no_new_privs is already set where the tests run");
  tap_is_int (off[C_NNP], 0, "the filter sets no_new_privs");

  /* The exported filter covers the other architectures this one runs.  */
  {
    char path[] = "/tmp/test-socket-filter.XXXXXX";
    int fd = mkstemp (path);
    char *error = NULL;
    char buf[65536];
    ssize_t n;

    tap_ok (fd >= 0
              && ash_socket_filter_export (ASH_SOCKETS_NONE, fd, &error) == 0,
            "the filter can be exported");
    if (fd >= 0)
      {
        lseek (fd, 0, SEEK_SET);
        n = read (fd, buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = '\0';
        close (fd);
        unlink (path);
#if defined __x86_64__
        tap_ok (strstr (buf, "filter for arch x86 ") != NULL
                  && strstr (buf, "filter for arch x32 ") != NULL,
                "the filter covers i386 and x32 besides x86_64");
        tap_ok (strstr (buf, "\"socketcall\" (102)") != NULL,
                "the i386 part refuses socketcall(2)");
#elif defined __aarch64__
        tap_ok (strstr (buf, "filter for arch arm ") != NULL,
                "the filter covers arm besides aarch64");
#endif
      }
  }

  /* Terminal ioctls that inject input or reach the console: refused in
     both modes (EPERM), where the kernel itself says ENOTTY.  */
  for (int c = C_TIOCSTI; c <= C_TIOCLINUX; c++)
    {
      tap_is_int (bare[c], ENOTTY,
                  "%s on a pipe is ENOTTY without the "
                  "filter (control)",
                  names[c]);
      tap_is_int (off[c], EPERM, "%s is refused with EPERM, %s", names[c],
                  offline);
      tap_is_int (on[c], EPERM, "%s is refused with EPERM, %s", names[c],
                  online);
    }

  check_prebuilt (off);

  return tap_done ();
}
