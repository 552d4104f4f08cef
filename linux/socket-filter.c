/* SPDX-License-Identifier: Apache-2.0 */
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
#include <fcntl.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* The programs gen-socket-filter made at build time from the rules below
   (ASH_SOCKET_FILTER_PREBUILT is 0 where it could not run: a cross
   build).  gen-socket-filter itself is built without them.  */
#ifndef ASH_SOCKET_FILTER_GENERATOR
#include "linux/socket-filter-bpf.h"
#else
#define ASH_SOCKET_FILTER_PREBUILT 0
#endif

/* The seals a filter memfd must carry: nothing can change its contents or
   size, nor take a seal off (none can be), once it is handed over.  */
#define FILTER_SEALS (F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL)

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

/* Families below this are refused one by one under ASH_SOCKETS_NETNS;
   any value from it up (the kernel knows 46 today) is refused by one
   comparison.  */
#define ASH_FAMILY_LIMIT 64

static int
add_rules (scmp_filter_ctx ctx, enum ash_socket_policy sockets,
           const char **what)
{
  int r;

  *what = "socket";
  switch (sockets)
    {
    case ASH_SOCKETS_NETWORK:
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socket), 1,
                            SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32, AF_UNIX));
      break;
    case ASH_SOCKETS_NETNS:
      /* "Not AF_INET nor AF_INET6" in rules of one comparison each.  A
         family with high bits set is at least ASH_FAMILY_LIMIT as a 64-bit
         number, and so refused.  */
      r = 0;
      for (unsigned long long f = 0; f < ASH_FAMILY_LIMIT && r >= 0; f++)
        if (f != AF_INET && f != AF_INET6)
          r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES),
                                SCMP_SYS (socket), 1,
                                SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32, f));
      if (r >= 0)
        r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socket),
                              1, SCMP_A0 (SCMP_CMP_GE, ASH_FAMILY_LIMIT));
      break;
    case ASH_SOCKETS_NONE:
    default:
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socket),
                            0);
      break;
    }
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

/* The kernel interfaces a scanner has no use for and that reach outside
   the sandbox, refused with EPERM whatever their arguments, in the manner
   of the default filters of Flatpak and systemd: the keyrings (a key of
   the operator's session keyring), other processes' memory, file
   descriptors and tracing (ptrace, process_vm_*, pidfd_getfd), the kernel's
   own programmable and debugging interfaces (bpf, perf_event_open,
   userfaultfd), loading a kernel or a module, mounting, and entering or
   making namespaces (which would give a process a fresh set of
   capabilities over a new mount tree).  */
static const char *const refused_calls[] = {
  "keyctl",
  "add_key",
  "request_key",
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "pidfd_getfd",
  "kcmp",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "mount",
  "umount",
  "umount2",
  "pivot_root",
  "move_mount",
  "open_tree",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "mount_setattr",
  "unshare",
  "setns",
  "swapon",
  "swapoff",
  "reboot",
  "acct",
  "quotactl",
  "quotactl_fd",
  "lookup_dcookie",
  "vhangup",
};

/* clone() flags that make namespaces.  */
#define ASH_CLONE_NS_FLAGS                                                    \
  (0x00020000ULL /* CLONE_NEWNS */ | 0x02000000ULL     /* CLONE_NEWCGROUP */  \
   | 0x04000000ULL /* CLONE_NEWUTS */ | 0x08000000ULL  /* CLONE_NEWIPC */     \
   | 0x10000000ULL /* CLONE_NEWUSER */ | 0x20000000ULL /* CLONE_NEWPID */     \
   | 0x40000000ULL /* CLONE_NEWNET */ | 0x00000080ULL /* CLONE_NEWTIME */)

/* personality(2): PER_LINUX, PER_LINUX32 and the query 0xffffffff stay;
   a flag (ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, ...: bits 17 to 27) or
   another execution domain (the low byte, up to PER_HPUX) is refused.  */
#define ASH_PER_LINUX32 0x0008ULL
#define ASH_PER_MASK 0x00ffULL
#define ASH_PER_MAX_DOMAIN 0x0010ULL
#define ASH_PER_QUERY_BIT 0x80000000ULL

/* ioctl(2) requests that push input into a terminal or reach the
   console.  */
#define ASH_TIOCSTI 0x5412ULL
#define ASH_TIOCLINUX 0x541CULL

/* setpriority(2) WHICH for one process.  */
#define ASH_PRIO_PROCESS 0ULL

static int
add_sandbox_rules (scmp_filter_ctx ctx, const char **what)
{
  int r;

  for (size_t i = 0; i < sizeof refused_calls / sizeof refused_calls[0]; i++)
    {
      int nr = seccomp_syscall_resolve_name (refused_calls[i]);

      *what = refused_calls[i];
      /* A call this architecture does not have cannot be made.  */
      if (nr == __NR_SCMP_ERROR)
        continue;
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), nr, 0);
      if (r < 0 && r != -EDOM)
        return r;
    }

  /* clone3() passes its flags in memory that seccomp cannot read: ENOSYS,
     so that the C library falls back to clone(), whose flags it can.  */
  *what = "clone3";
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS), SCMP_SYS (clone3), 0);
  if (r < 0)
    return r;
  /* clone() with a namespace flag: one rule per flag, each bit alone.  */
  *what = "clone";
  for (unsigned long long bit = 1; bit <= 0x80000000ULL; bit <<= 1)
    {
      if (!(bit & ASH_CLONE_NS_FLAGS))
        continue;
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (clone), 1,
                            SCMP_A0 (SCMP_CMP_MASKED_EQ, bit, bit));
      if (r < 0)
        return r;
    }

  /* Another process's limits or priority: prlimit64 may read any
     process's limits and set the caller's own (pid 0), setpriority may
     set the caller's own priority only.  A scanner that set ash's
     file-size limit to 0 would end the scan.  */
  *what = "prlimit64";
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (prlimit64), 2,
                        SCMP_A0 (SCMP_CMP_NE, 0), SCMP_A2 (SCMP_CMP_NE, 0));
  if (r < 0)
    return r;
  *what = "setpriority";
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (setpriority), 1,
                        SCMP_A0 (SCMP_CMP_NE, ASH_PRIO_PROCESS));
  if (r < 0)
    return r;
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (setpriority), 1,
                        SCMP_A1 (SCMP_CMP_NE, 0));
  if (r < 0)
    return r;

  /* personality(): seccomp cannot say "not one of 0, 8, 0xffffffff" in
     one rule, so each flag bit and each other execution domain is refused
     on its own, with bit 31 (set only in the query 0xffffffff) clear.  */
  *what = "personality";
  for (unsigned long long bit = 0x0020000ULL; bit <= 0x8000000ULL; bit <<= 1)
    {
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM),
                            SCMP_SYS (personality), 1,
                            SCMP_A0 (SCMP_CMP_MASKED_EQ,
                                     bit | ASH_PER_QUERY_BIT, bit));
      if (r < 0)
        return r;
    }
  for (unsigned long long domain = 1; domain <= ASH_PER_MAX_DOMAIN; domain++)
    {
      if (domain == ASH_PER_LINUX32)
        continue;
      r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM),
                            SCMP_SYS (personality), 1,
                            SCMP_A0 (SCMP_CMP_MASKED_EQ,
                                     ASH_PER_MASK | ASH_PER_QUERY_BIT,
                                     domain));
      if (r < 0)
        return r;
    }

  *what = "ioctl";
  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (ioctl), 1,
                        SCMP_A1 (SCMP_CMP_MASKED_EQ, LOW32, ASH_TIOCSTI));
  if (r < 0)
    return r;
  return seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (ioctl), 1,
                           SCMP_A1 (SCMP_CMP_MASKED_EQ, LOW32, ASH_TIOCLINUX));
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

  r = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socketcall), 1,
                        SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32, ASH_SYS_SOCKET));
  if (r < 0)
    return r;
  return seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EACCES), SCMP_SYS (socketcall),
                           1,
                           SCMP_A0 (SCMP_CMP_MASKED_EQ, LOW32,
                                    ASH_SYS_SOCKETPAIR));
}

/* Whether the programs made at build time are used (tests turn them off
   to compare them with what libseccomp builds now).  */
static bool use_prebuilt = true;

void
ash_socket_filter_use_prebuilt (bool on)
{
  use_prebuilt = on;
}

bool
ash_socket_filter_have_prebuilt (void)
{
#if ASH_SOCKET_FILTER_PREBUILT
  /* The programs are for the architecture libseccomp was native to where
     they were made; a libseccomp of another one builds its own.  */
  return seccomp_arch_native () == ASH_SOCKET_FILTER_PREBUILT_ARCH;
#else
  return false;
#endif
}

/* The program made at build time for SOCKETS, with its length in *RET_N,
   or NULL when there is none to use.  */
static const struct sock_filter *
prebuilt (enum ash_socket_policy sockets, size_t *ret_n)
{
#if ASH_SOCKET_FILTER_PREBUILT
  if (!use_prebuilt || (unsigned) sockets >= ASH_SOCKET_FILTER_PREBUILT_COUNT
      || !ash_socket_filter_have_prebuilt ())
    return NULL;
  *ret_n = ash_socket_filter_prebuilt[sockets].len;
  return ash_socket_filter_prebuilt[sockets].insns;
#else
  (void) sockets;
  (void) ret_n;
  return NULL;
#endif
}

bool
ash_socket_filter_is_prebuilt (enum ash_socket_policy sockets)
{
  size_t n;

  return prebuilt (sockets, &n) != NULL;
}

/* The filter is released on failure by a goto ladder rather than by
   lib/base's cleanup attributes: this file is built into
   ash-landlock-exec too, which uses nothing of lib/ (only libc and
   libseccomp), and one label after five steps reads as plainly.  */
static int
build (enum ash_socket_policy sockets, scmp_filter_ctx *ret_ctx,
       char **ret_error)
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
      set_error (ret_error,
                 "cannot set no_new_privs in the seccomp filter: %s",
                 strerror (-r));
      goto fail;
    }

  r = add_architectures (ctx);
  if (r < 0)
    {
      set_error (ret_error,
                 "cannot add an architecture to the seccomp "
                 "filter: %s",
                 strerror (-r));
      goto fail;
    }

  r = add_rules (ctx, sockets, &what);
  if (r < 0)
    {
      set_error (ret_error, "cannot add the %s rule to the seccomp filter: %s",
                 what, strerror (-r));
      goto fail;
    }

  r = add_sandbox_rules (ctx, &what);
  if (r < 0)
    {
      set_error (ret_error, "cannot add the %s rule to the seccomp filter: %s",
                 what, strerror (-r));
      goto fail;
    }

  r = add_socketcall_rules (ctx);
  if (r < 0)
    {
      set_error (ret_error,
                 "cannot add the socketcall rule to the seccomp "
                 "filter: %s",
                 strerror (-r));
      goto fail;
    }

  *ret_ctx = ctx;
  return 0;

fail:
  seccomp_release (ctx);
  return r;
}

int
ash_socket_filter_install (enum ash_socket_policy sockets, char **ret_error)
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

  size_t n;
  const struct sock_filter *insns = prebuilt (sockets, &n);
  if (insns)
    {
      struct sock_fprog prog = { .len = (unsigned short) n,
                                 .filter = (struct sock_filter *) insns };
      if (prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
        {
          r = -errno;
          set_error (ret_error, "cannot load the seccomp filter: %s",
                     strerror (-r));
          return r;
        }
      return 0;
    }

  r = build (sockets, &ctx, ret_error);
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

/* The filter of SOCKETS built by libseccomp and written to FD, as a BPF
   program (BPF) or as libseccomp's pseudo-filter text.  */
static int
export_filter (enum ash_socket_policy sockets, int fd, bool bpf,
               char **ret_error)
{
  scmp_filter_ctx ctx;
  int r = build (sockets, &ctx, ret_error);
  if (r < 0)
    return r;
  r = bpf ? seccomp_export_bpf (ctx, fd) : seccomp_export_pfc (ctx, fd);
  seccomp_release (ctx);
  if (r < 0)
    set_error (ret_error, "cannot export the seccomp filter: %s",
               strerror (-r));
  return r;
}

int
ash_socket_filter_export (enum ash_socket_policy sockets, int fd,
                          char **ret_error)
{
  return export_filter (sockets, fd, false, ret_error);
}

int
ash_socket_filter_write_bpf (enum ash_socket_policy sockets, int fd,
                             char **ret_error)
{
  return export_filter (sockets, fd, true, ret_error);
}

/* Write the N bytes at P to FD.  0 or a negative errno.  */
static int
write_all (int fd, const void *p, size_t n)
{
  const char *c = p;
  while (n > 0)
    {
      ssize_t k = write (fd, c, n);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        return k < 0 ? -errno : -EIO;
      c += k;
      n -= (size_t) k;
    }
  return 0;
}

int
ash_socket_filter_memfd (enum ash_socket_policy sockets, char **ret_error)
{
  scmp_filter_ctx ctx = NULL;
  struct stat st;
  size_t n = 0;
  int fd, r;

  /* The program made at build time when there is one: libseccomp's
     rule database and code generator cost more than the rest of a
     sandboxed spawn's preparation together.  */
  const struct sock_filter *insns = prebuilt (sockets, &n);
  if (insns == NULL)
    {
      r = build (sockets, &ctx, ret_error);
      if (r < 0)
        return r;
    }
  fd = memfd_create ("ash-socket-filter", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0)
    {
      r = -errno;
      if (ctx)
        seccomp_release (ctx);
      set_error (ret_error, "cannot create a memfd for the seccomp filter: %s",
                 strerror (-r));
      return r;
    }
  /* Descriptors 0 to 2 are the standard streams of the command it is
     handed to: never one of them (ash may run with one closed).  */
  if (fd < 3)
    {
      int high = fcntl (fd, F_DUPFD_CLOEXEC, 3);
      r = -errno;
      close (fd);
      if (high < 0)
        {
          if (ctx)
            seccomp_release (ctx);
          set_error (ret_error, "cannot move the seccomp filter's memfd: %s",
                     strerror (-r));
          return r;
        }
      fd = high;
    }
  if (insns)
    r = write_all (fd, insns, n * sizeof *insns);
  else
    {
      r = seccomp_export_bpf (ctx, fd);
      seccomp_release (ctx);
    }
  if (r < 0)
    {
      set_error (ret_error, "cannot export the seccomp filter: %s",
                 strerror (-r));
      goto fail;
    }
  if (fcntl (fd, F_ADD_SEALS, FILTER_SEALS) < 0)
    {
      r = -errno;
      set_error (ret_error, "cannot seal the seccomp filter's memfd: %s",
                 strerror (-r));
      goto fail;
    }
  if (fstat (fd, &st) < 0 || st.st_size <= 0
      || st.st_size % (off_t) sizeof (struct sock_filter) != 0
      || st.st_size > (off_t) (ASH_SOCKET_FILTER_MAX_INSNS
                               * sizeof (struct sock_filter)))
    {
      r = -EINVAL;
      set_error (ret_error,
                 "the exported seccomp filter is not a BPF program of 1 to "
                 "%d instructions",
                 ASH_SOCKET_FILTER_MAX_INSNS);
      goto fail;
    }
  return fd;

fail:
  close (fd);
  return r;
}

int
ash_socket_filter_install_fd (int fd, char **ret_error)
{
  struct sock_filter *insns;
  struct sock_fprog prog;
  struct stat st;
  size_t size, done;
  int seals, r;

  if (fstat (fd, &st) < 0)
    {
      r = -errno;
      set_error (ret_error, "seccomp filter descriptor %d: %s", fd,
                 strerror (-r));
      return r;
    }
  seals = S_ISREG (st.st_mode) ? fcntl (fd, F_GET_SEALS) : -1;
  if (seals < 0)
    {
      set_error (ret_error,
                 "seccomp filter descriptor %d is not a sealed memfd", fd);
      return -EINVAL;
    }
  if ((seals & FILTER_SEALS) != FILTER_SEALS)
    {
      set_error (ret_error,
                 "seccomp filter descriptor %d is not sealed against "
                 "writing, growing, shrinking and new seals",
                 fd);
      return -EINVAL;
    }
  if (st.st_size <= 0)
    {
      set_error (ret_error, "seccomp filter descriptor %d is empty", fd);
      return -EINVAL;
    }
  if (st.st_size % (off_t) sizeof (struct sock_filter) != 0)
    {
      set_error (ret_error,
                 "seccomp filter descriptor %d holds %lld bytes, not a "
                 "whole number of %zu-byte BPF instructions",
                 fd, (long long) st.st_size, sizeof (struct sock_filter));
      return -EINVAL;
    }
  if (st.st_size
      > (off_t) (ASH_SOCKET_FILTER_MAX_INSNS * sizeof (struct sock_filter)))
    {
      set_error (ret_error,
                 "seccomp filter descriptor %d holds more than %d BPF "
                 "instructions",
                 fd, ASH_SOCKET_FILTER_MAX_INSNS);
      return -E2BIG;
    }

  size = (size_t) st.st_size;
  insns = malloc (size);
  if (insns == NULL)
    {
      set_error (ret_error, "out of memory");
      return -ENOMEM;
    }
  for (done = 0; done < size;)
    {
      ssize_t n = pread (fd, (char *) insns + done, size - done, (off_t) done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          r = n < 0 ? -errno : -EIO;
          set_error (ret_error, "cannot read seccomp filter descriptor %d: %s",
                     fd, n < 0 ? strerror (-r) : "it ends early");
          free (insns);
          return r;
        }
      done += (size_t) n;
    }
  /* Every filter libseccomp makes starts by loading the architecture,
     which its first test compares: a program that does not is not one of
     ash's.  */
  if (insns[0].code != (BPF_LD | BPF_W | BPF_ABS)
      || insns[0].k != offsetof (struct seccomp_data, arch))
    {
      set_error (ret_error,
                 "seccomp filter descriptor %d does not hold a socket "
                 "filter (it does not start by checking the architecture)",
                 fd);
      free (insns);
      return -EINVAL;
    }

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    {
      r = -errno;
      set_error (ret_error, "cannot set no_new_privs: %s", strerror (-r));
      free (insns);
      return r;
    }
  prog.len = (unsigned short) (size / sizeof (struct sock_filter));
  prog.filter = insns;
  r = prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0 ? -errno
                                                                   : 0;
  free (insns);
  if (r < 0)
    set_error (ret_error,
               "cannot load the seccomp filter of descriptor %d: %s", fd,
               strerror (-r));
  return r;
}
