/* SPDX-License-Identifier: Apache-2.0 */
/* chown.h -- hand a directory ASH made over to another user.

   When ASH runs as root, each sandboxed scanner runs as an unprivileged
   account (sandbox/run.c): the directories ASH made for it (its results
   directory, its run's config directory) are given to that account
   first, never through a link.  */

#ifndef ASH_FS_CHOWN_H
#define ASH_FS_CHOWN_H

#include <sys/types.h>

#include "base/error.h"

/* Give the directory PATH (absolute), and everything in it, to UID and
   GID.  PATH is opened from / without following a link at any component
   (-ELOOP), and so is everything below it; links themselves are left
   alone.  0 or a negative errno with ERR filled.  */
int ash_tree_chown_all (const char *path, uid_t uid, gid_t gid,
                        struct ash_error *err);

/* The same for the directory open on DIRFD (any kind of descriptor):
   0 or a negative errno.  */
int ash_tree_chown_fd (int dirfd, uid_t uid, gid_t gid);

#endif
