/* SPDX-License-Identifier: Apache-2.0 */
/* landlock-uapi.h -- our own copy of the Landlock user-space interface.

   The distribution's <linux/landlock.h> can be older than the running
   kernel (Debian 12's knows ABI 1 and 2 only), so ash carries the
   definitions it needs up to ABI 6 and asks the kernel at run time which of
   them it understands.  Never include <linux/landlock.h> together with this
   header.

   ABI history, as far as ash uses it:
     1 (Linux 5.13)  filesystem rights EXECUTE .. MAKE_SYM
     2 (Linux 5.19)  REFER (link and rename across directories)
     3 (Linux 6.2)   TRUNCATE
     4 (Linux 6.7)   TCP bind and connect rules
     5 (Linux 6.10)  IOCTL_DEV
     6 (Linux 6.12)  scoping of abstract Unix sockets and signals
     7 (Linux 6.15)  audit logging flags (not used)  */

#ifndef ASH_LANDLOCK_UAPI_H
#define ASH_LANDLOCK_UAPI_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The three system calls have the same numbers on every architecture that
   uses the unified syscall table (x86_64, i386, arm, aarch64, riscv, ...);
   x32 adds its usual bit, which <sys/syscall.h> accounts for when it knows
   the names.  */
#ifndef __NR_landlock_create_ruleset
#if defined __x86_64__ && defined __ILP32__
#define __NR_landlock_create_ruleset (0x40000000 + 444)
#define __NR_landlock_add_rule (0x40000000 + 445)
#define __NR_landlock_restrict_self (0x40000000 + 446)
#else
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#endif

/* The argument of landlock_create_ruleset().  The kernel accepts a shorter
   structure from older programs and a longer one whose extra bytes are
   zero, so one size serves every ABI; fields a kernel does not know must be
   zero.  */
struct ash_landlock_ruleset_attr
{
  uint64_t handled_access_fs;  /* ABI 1 */
  uint64_t handled_access_net; /* ABI 4 */
  uint64_t scoped;             /* ABI 6 */
};

/* Flag of landlock_create_ruleset(NULL, 0, flags): return the ABI.  */
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)

/* Rule types of landlock_add_rule().  */
#define LANDLOCK_RULE_PATH_BENEATH 1
#define LANDLOCK_RULE_NET_PORT 2

/* The kernel declares this structure packed: 12 bytes.  */
struct ash_landlock_path_beneath_attr
{
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__ ((packed));

struct ash_landlock_net_port_attr
{
  uint64_t allowed_access;
  uint64_t port;
};

/* Filesystem rights.  */
#define LANDLOCK_ACCESS_FS_EXECUTE (1ULL << 0)
#define LANDLOCK_ACCESS_FS_WRITE_FILE (1ULL << 1)
#define LANDLOCK_ACCESS_FS_READ_FILE (1ULL << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR (1ULL << 3)
#define LANDLOCK_ACCESS_FS_REMOVE_DIR (1ULL << 4)
#define LANDLOCK_ACCESS_FS_REMOVE_FILE (1ULL << 5)
#define LANDLOCK_ACCESS_FS_MAKE_CHAR (1ULL << 6)
#define LANDLOCK_ACCESS_FS_MAKE_DIR (1ULL << 7)
#define LANDLOCK_ACCESS_FS_MAKE_REG (1ULL << 8)
#define LANDLOCK_ACCESS_FS_MAKE_SOCK (1ULL << 9)
#define LANDLOCK_ACCESS_FS_MAKE_FIFO (1ULL << 10)
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK (1ULL << 11)
#define LANDLOCK_ACCESS_FS_MAKE_SYM (1ULL << 12)
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)     /* ABI 2 */
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */

/* All rights each ABI knows.  */
#define ASH_LANDLOCK_FS_ABI1 ((LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1)
#define ASH_LANDLOCK_FS_ABI2 (ASH_LANDLOCK_FS_ABI1 | LANDLOCK_ACCESS_FS_REFER)
#define ASH_LANDLOCK_FS_ABI3                                                  \
  (ASH_LANDLOCK_FS_ABI2 | LANDLOCK_ACCESS_FS_TRUNCATE)
#define ASH_LANDLOCK_FS_ABI5                                                  \
  (ASH_LANDLOCK_FS_ABI3 | LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* The rights that make sense on a file rather than a directory: a
   path-beneath rule on a file may only carry these.  */
#define ASH_LANDLOCK_FS_FILE_RIGHTS                                           \
  (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE                 \
   | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE               \
   | LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* Network rights (ABI 4): TCP only.  */
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)

/* Scopes (ABI 6).  */
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

static inline int
ash_landlock_create_ruleset (const struct ash_landlock_ruleset_attr *attr,
                             size_t size, uint32_t flags)
{
  return (int) syscall (__NR_landlock_create_ruleset, attr, size, flags);
}

static inline int
ash_landlock_add_rule (int ruleset_fd, int rule_type, const void *rule_attr,
                       uint32_t flags)
{
  return (int) syscall (__NR_landlock_add_rule, ruleset_fd, rule_type,
                        rule_attr, flags);
}

static inline int
ash_landlock_restrict_self (int ruleset_fd, uint32_t flags)
{
  return (int) syscall (__NR_landlock_restrict_self, ruleset_fd, flags);
}

#endif /* ASH_LANDLOCK_UAPI_H */
