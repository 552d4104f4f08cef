/* socket-filter.c -- build and load the seccomp socket filter.

   See socket-filter.h for what the filter does.  Why each rule exists:

   Landlock does not mediate connect() on a Unix socket path, and bwrap and
   firejail leave sockets visible in directories they mount, so a process
   that can create an AF_UNIX socket can talk to the Docker socket, the
   session bus or the journal.  socketpair() is what tools use for pipes, so
   stream and seqpacket pairs stay; a datagram socket, however it was
   created, can sendto() any datagram socket by path (/dev/log), so datagram
   pairs go.  AF_UNIX turns SOCK_RAW into SOCK_DGRAM, so the rule refuses
   every type but the two allowed ones rather than SOCK_DGRAM alone.
   io_uring can create sockets without the socket system call (and its
   operations are invisible to seccomp), so it is refused, with ENOSYS so
   that callers fall back.  */

#include <config.h>

#include "socket-filter.h"

#include <errno.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>

/* socketcall(2) call numbers (<linux/net.h>).  */
#define ASH_SYS_SOCKET 1
#define ASH_SYS_SOCKETPAIR 8

/* The kernel reads the family, type and protocol as int: compare the low
   32 bits only, so that 0x100000001 counts as AF_UNIX as it does for the
   kernel.  */
#define LOW32 0xffffffffULL

/* The kernel's SOCK_TYPE_MASK: the type without SOCK_NONBLOCK and
   SOCK_CLOEXEC.  */
#define SOCK_TYPE_BITS 0xfULL

static void
set_error (char **ret_error, const char *fmt, ...)
{
  va_list ap;
  char *msg;

  if (ret_error == NULL)
    return;
  va_start (ap, fmt);
  if (vasprintf (&msg, fmt, ap) < 0)
    msg = NULL;
  va_end (ap);
  *ret_error = msg;
}

/* Add the architectures the kernel also runs beside the native one.  On
   x86_64 that is i386 and x32, on aarch64 32-bit arm.  A process of any
   architecture missing from the filter is killed on its first system call
   (libseccomp's default bad-architecture action), so a gap fails closed.  */
static int
add_architectures (scmp_filter_ctx ctx)
{
  static const uint32_t x86_64_extra[] = { SCMP_ARCH_X86, SCMP_ARCH_X32 };
  static const uint32_t aarch64_extra[] = { SCMP_ARCH_ARM };
  const uint32_t *extra = NULL;
  size_t n = 0;
  uint32_t native = seccomp_arch_native ();

  if (native == SCMP_ARCH_X86_64)
    {
      extra = x86_64_extra;
      n = sizeof x86_64_extra / sizeof x86_64_extra[0];
    }
  else if (native == SCMP_ARCH_AARCH64)
    {
      extra = aarch64_extra;
      n = sizeof aarch64_extra / sizeof aarch64_extra[0];
    }

  for (size_t i = 0; i < n; i++)
    {
      int r = seccomp_arch_add (ctx, extra[i]);
      if (r < 0 && r != -EEXIST)
        return r;
    }
  return 0;
}

static int
add_rules (scmp_filter_ctx ctx, bool allow_network, const char **what)
{
  int r;

  *what = "socket";
  if (allow_network)
    r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socket), 1,
                          SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32, AF_UNIX));
  else
    r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socket),
                          0);
  if (r < 0)
    return r;

  /* Refuse every socketpair() type but stream and seqpacket.  libseccomp
     cannot express "not in", so list the other fifteen values of the type
     bits; the flags above them (SOCK_NONBLOCK, SOCK_CLOEXEC) are masked
     out.  */
  *what = "socketpair";
  for (unsigned long long type = 0; type <= SOCK_TYPE_BITS; type++)
    {
      if (type == SOCK_STREAM || type == SOCK_SEQPACKET)
        continue;
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES),
                            SCMP_SYS (socketpair), 1,
                            SCMP_A1 (SCMP_CMP_MASKED_EQ, SOCK_TYPE_BITS,
                                     type));
      if (r < 0)
        return r;
    }

  *what = "io_uring";
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS),
                        SCMP_SYS (io_uring_setup), 0);
  if (r < 0)
    return r;
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS),
                        SCMP_SYS (io_uring_enter), 0);
  if (r < 0)
    return r;
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS),
                        SCMP_SYS (io_uring_register), 0);
  if (r < 0)
    return r;

  return 0;
}

/* On i386 (and in the i386 part of an x86_64 filter) socket() and
   socketpair() can also be reached through socketcall(2), whose arguments
   are in memory seccomp cannot read.  libseccomp turns the socket() and
   socketpair() rules above into socketcall rules on the call number only,
   which would refuse every socket; to keep the result explicit and the same
   whatever libseccomp version builds it, ash refuses socketcall(SYS_SOCKET)
   and socketcall(SYS_SOCKETPAIR) itself.  32-bit programs whose C library
   uses the direct calls (Linux 4.3 and later provide them) are filtered
   like native ones.  */
static int
add_socketcall_rules (scmp_filter_ctx ctx)
{
  int r;

  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socketcall),
                        1, SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32,
                                    ASH_SYS_SOCKET));
  if (r < 0)
    return r;
  return seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES),
                           SCMP_SYS (socketcall), 1,
                           SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32,
                                    ASH_SYS_SOCKETPAIR));
}

static int
build (bool allow_network, scmp_filter_ctx *ret_ctx, char **ret_error)
{
  scmp_filter_ctx ctx;
  const char *what = "";
  int r;

  ctx = seccomp_init (SCMP_ACT_ALLOW);
  if (ctx == NULL)
    {
      set_error (ret_error, "cannot initialise the seccomp filter");
      return -ENOMEM;
    }

  r = seccomp_attr_set (ctx, SCMP_FLTATR_CTL_NNP, 1);
  if (r < 0)
    {
      set_error (ret_error, "cannot set no_new_privs in the seccomp filter: %s",
                 strerror (-r));
      goto fail;
    }

  r = add_architectures (ctx);
  if (r < 0)
    {
      set_error (ret_error, "cannot add an architecture to the seccomp "
                 "filter: %s", strerror (-r));
      goto fail;
    }

  r = add_rules (ctx, allow_network, &what);
  if (r < 0)
    {
      set_error (ret_error, "cannot add the %s rule to the seccomp filter: %s",
                 what, strerror (-r));
      goto fail;
    }

  r = add_socketcall_rules (ctx);
  if (r < 0)
    {
      set_error (ret_error, "cannot add the socketcall rule to the seccomp "
                 "filter: %s", strerror (-r));
      goto fail;
    }

  *ret_ctx = ctx;
  return 0;

fail:
  seccomp_release (ctx);
  return r;
}

int
ash_socket_filter_install (bool allow_network, char **ret_error)
{
  scmp_filter_ctx ctx;
  int r;

  /* Set no_new_privs ourselves as well, so that it holds even if loading
     fails half-way and the caller goes on to exec anyway.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    {
      r = -errno;
      set_error (ret_error, "cannot set no_new_privs: %s", strerror (errno));
      return r;
    }

  r = build (allow_network, &ctx, ret_error);
  if (r < 0)
    return r;

  r = seccomp_load (ctx);
  seccomp_release (ctx);
  if (r < 0)
    {
      set_error (ret_error, "cannot load the seccomp filter: %s",
                 strerror (-r));
      return r;
    }
  return 0;
}

int
ash_socket_filter_export (bool allow_network, int fd, char **ret_error)
{
  scmp_filter_ctx ctx;
  int r;

  r = build (allow_network, &ctx, ret_error);
  if (r < 0)
    return r;
  r = seccomp_export_pfc (ctx, fd);
  seccomp_release (ctx);
  if (r < 0)
    set_error (ret_error, "cannot export the seccomp filter: %s",
               strerror (-r));
  return r;
}
