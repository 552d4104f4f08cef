/* SPDX-License-Identifier: Apache-2.0 */
/* private-dir.h -- the private directories a Linux backend makes on the
   host for one spawn: a fresh directory whose name carries ASH's pid,
   holding the scanner's private HOME (and, under Landlock, its TMPDIR),
   with a link in the HOME to each path the policy grants under the real
   home; removed after the spawn, or by a later run when the run that made
   it was killed.  */

#ifndef ASH_LINUX_PRIVATE_DIR_H
#define ASH_LINUX_PRIVATE_DIR_H

#include "base/error.h"
#include "sandbox/policy.h"

/* Make a new directory BASE/PREFIX<pid>-XXXXXX, mode 0700, ASH's own,
   holding the directories SUBDIRS (NULL-terminated, or NULL), 0700 too.
   First queues for removal, once per process and PREFIX, the directories
   of that prefix in BASE that runs of ASH since killed left (their pid is
   gone; a directory of ASH's user or of the scanner account).  0 with *RET_DIR
   (newly allocated), or a negative errno with ERR filled.  */
int ash_linux_private_dir_make (const char *base, const char *prefix,
                                const char *const *subdirs, char **ret_dir,
                                struct ash_error *err);

/* Make, on the removal thread, the directory the next
   ash_linux_private_dir_make() of BASE, PREFIX and SUBDIRS (the same
   array) will return, so that the spawn does not wait for it; one at a
   time (nothing more is made until that one is taken or removed), and
   removed by ash_linux_private_dir_flush() when no spawn took it.  Also
   queues the removal of PREFIX's stale directories in BASE.  */
void ash_linux_private_dir_prepare (const char *base, const char *prefix,
                                    const char *const *subdirs);

/* Remove DIR and everything in it, at any depth and whatever modes the
   scanner left, never following a link; a failure is a warning.  The
   removal is done on a thread of its own, after those queued before it,
   and is complete by the time ash_linux_private_dir_flush() returns, and
   before ASH exits; without that thread, here.  */
void ash_linux_private_dir_remove (const char *dir);

/* The same for DIR made with SUBDIRS (the array given to
   ash_linux_private_dir_make(), which must outlive the removal): when
   they are empty and all there is, they and DIR are removed by name,
   without reading any directory; otherwise as above.  */
void ash_linux_private_dir_remove_made (const char *dir,
                                        const char *const *subdirs);

/* Wait until what was queued so far (removals, the directory made ahead)
   is done, and remove nothing more: for tests.  */
void ash_linux_private_dir_wait (void);

/* Wait until every removal queued so far (the private directories of the
   spawns that ended, the stale ones of runs that were killed) is done,
   and remove the directory made ahead that no spawn took.  Also run at
   exit.  */
void ash_linux_private_dir_flush (void);

/* Make the links POLICY names (home_links) in the private home open on
   HOME_FD: NAME, relative, links to TARGET, the directories on the way
   made.  A granted directory nested in another granted one is reached
   through the outer link.  0, or a negative errno with ERR filled.  */
int ash_linux_home_links_make (int home_fd, const struct ash_policy *policy,
                               struct ash_error *err);

#endif
