/* SPDX-License-Identifier: Apache-2.0 */
/* socket-filter.h -- the seccomp socket filter every Linux backend runs.

   Installed into the calling thread (and so into everything it execs and
   forks afterwards), it makes:
     - socket(AF_UNIX, ...) fail with EACCES, always;
     - socket() of every family fail with EACCES under ASH_SOCKETS_NONE, and
       of every family but AF_INET and AF_INET6 under ASH_SOCKETS_NETNS
       (the command has a network namespace of its own, whose loopback is
       all an IP socket reaches: "IP sockets are left to the network
       namespace");
     - socketpair() of any type other than SOCK_STREAM and SOCK_SEQPACKET
       (a datagram pair, or SOCK_RAW, which AF_UNIX turns into a datagram
       pair) fail with EACCES;
     - io_uring_setup(), io_uring_enter() and io_uring_register() fail with
       ENOSYS, so that runtimes fall back to ordinary system calls;
     - on i386, socketcall(SYS_SOCKET) and socketcall(SYS_SOCKETPAIR) fail
       with EACCES, since their arguments sit in memory that seccomp cannot
       inspect (the direct socket() and socketpair() calls are filtered as
       above).
     - the kernel interfaces listed in socket-filter.c (keyrings, ptrace
       and other processes' memory, bpf, perf events, userfaultfd, kexec,
       modules, mounts, namespaces, personality flags, TIOCSTI and
       TIOCLINUX, another process's limits and priority) fail with EPERM,
       clone3() with ENOSYS (so that the C library falls back to clone(),
       whose namespace flags are refused).
   int arguments are compared on their low 32 bits, as the kernel reads
   them, so a family with high bits set is caught as well.  The filter
   covers every architecture the kernel can run on this machine: the native
   one, plus i386 and x32 on x86_64 and arm on aarch64; a system call from
   any other architecture kills the process.  It sets no_new_privs first.

   This file uses only libc and libseccomp, so that the small
   ash-landlock-exec program can carry it; ash builds it too, to make the
   filter once for all the scanners it starts (ash_socket_filter_memfd).
   The build runs the rules through libseccomp once, in gen-socket-filter,
   and carries the programs it gives (linux/socket-filter-bpf.h), so that
   a run does not build them again.  */

#ifndef ASH_SOCKET_FILTER_H
#define ASH_SOCKET_FILTER_H

#include <stdbool.h>

/* Which sockets a command may create (never an AF_UNIX one).  */
enum ash_socket_policy
{
  ASH_SOCKETS_NONE = 0,    /* none: no network */
  ASH_SOCKETS_NETWORK = 1, /* every family but AF_UNIX: a network */
  ASH_SOCKETS_NETNS = 2,   /* AF_INET and AF_INET6 only: no network, in a
                              network namespace of its own */
};

/* Install the filter.  Returns 0, or a negative errno and, when RET_ERROR
   is not NULL, a newly allocated one-line message (the caller frees it)
   saying what failed.  */
int ash_socket_filter_install (enum ash_socket_policy sockets,
                               char **ret_error);

/* Write the filter in libseccomp's pseudo-filter-code text form to FD
   without loading it (for tests and debugging).  Same return convention.  */
int ash_socket_filter_export (enum ash_socket_policy sockets, int fd,
                              char **ret_error);

/* The filter as a BPF program (an array of struct sock_filter, as the
   kernel takes it), built once and handed to ash-landlock-exec as a
   descriptor (--seccomp-fd) instead of being built by it on every run:
   a memfd holding exactly the program, sealed against writing, growing,
   shrinking and further seals, close-on-exec and above 2.  Returns the
   descriptor, or a negative errno with RET_ERROR as above.  */
int ash_socket_filter_memfd (enum ash_socket_policy sockets, char **ret_error);

/* The filter as a BPF program, always built by libseccomp (never the
   program made at build time), written to FD.  Same return convention.
   gen-socket-filter makes linux/socket-filter-bpf.h with it; tests
   compare that with what libseccomp builds.  */
int ash_socket_filter_write_bpf (enum ash_socket_policy sockets, int fd,
                                 char **ret_error);

/* ash_socket_filter_install() and ash_socket_filter_memfd() use the
   programs gen-socket-filter made at build time, the same instructions
   libseccomp would build, when the build has them
   (ash_socket_filter_have_prebuilt(): not a cross build, and the
   libseccomp the program runs with native to the same architecture).
   ash_socket_filter_use_prebuilt (false) makes them build with libseccomp
   instead (for tests).  */
bool ash_socket_filter_have_prebuilt (void);
void ash_socket_filter_use_prebuilt (bool on);
/* Whether ash_socket_filter_memfd (SOCKETS) writes a program made at
   build time (it then costs a few system calls, not libseccomp's
   build).  */
bool ash_socket_filter_is_prebuilt (enum ash_socket_policy sockets);

/* The most instructions a BPF program may hold (the kernel's
   BPF_MAXINSNS).  */
#define ASH_SOCKET_FILTER_MAX_INSNS 4096

/* Install the BPF program held by the descriptor FD, which must be a memfd
   that ash_socket_filter_memfd() made: a regular file with all four seals
   above, holding a whole number of instructions, from 1 to
   ASH_SOCKET_FILTER_MAX_INSNS, whose first loads the system call's
   architecture (as every filter libseccomp makes does).  Anything else is
   refused before the kernel is asked, and the kernel refuses a program it
   cannot verify; either way nothing is installed.  no_new_privs is set
   first.  FD is read at offset 0 (pread, so that processes sharing it do
   not race on its offset) and left open: the caller closes it.  Same
   return convention as ash_socket_filter_install().  */
int ash_socket_filter_install_fd (int fd, char **ret_error);

#endif /* ASH_SOCKET_FILTER_H */
