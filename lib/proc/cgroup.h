/* SPDX-License-Identifier: Apache-2.0 */
/* cgroup.h -- a control group per scanner: a bound on its processes
   (pids.max) and its memory (memory.max), where ASH can make one.

   Made only where it is allowed and works, never assumed: cgroup v2 at
   the root of the hierarchy when ASH is root, or below the nearest
   ancestor of ASH's own cgroup that ASH's account may write and that
   delegates the pids (and memory) controllers; cgroup v1's pids and
   memory hierarchies when ASH is root.  The command joins the group
   between fork and exec (struct ash_cmd_limits), so that nothing it
   starts escapes it.  On a system without control groups nothing is
   made, and the caller falls back to resource limits.  */

#ifndef ASH_CGROUP_H
#define ASH_CGROUP_H

#include <stdbool.h>

#include "base/error.h"

struct ash_cgroup
{
  char *v2;        /* the group's directory (cgroup v2), or NULL */
  char *v1_pids;   /* its directory in v1's pids hierarchy, or NULL */
  char *v1_memory; /* its directory in v1's memory hierarchy, or NULL */
  int procs_fd[2]; /* cgroup.procs (v2) or tasks (v1), open for writing;
                      -1: none */
  bool pids;       /* pids.max is set */
  bool memory;     /* memory.max (memory.limit_in_bytes) is set */
};

#define ASH_CGROUP_INIT                                                       \
  {                                                                           \
    NULL, NULL, NULL, { -1, -1 }, false, false                                \
  }

/* Make a group named NAME (unique in this process) bounded to PIDS_MAX
   processes and MEMORY_MAX bytes (0: that bound is not wanted).  0 with
   RET filled (RET->pids and RET->memory say which bounds hold; a bound
   that was asked for and could not be set is simply not there), or a
   negative errno when no group can be made here, with *RET_WHY (newly
   allocated) saying why, for the log.  */
int ash_cgroup_make (const char *name, unsigned long long pids_max,
                     unsigned long long memory_max, struct ash_cgroup *ret,
                     char **ret_why);

/* Whether the kernel ended a process of the group for going over its
   memory bound.  */
bool ash_cgroup_memory_exceeded (const struct ash_cgroup *cg);

/* End every process left in the group (cgroup.kill where there is one,
   and SIGKILL to each process it lists) and return once it lists none,
   the group kept (its memory events can still be read).  NULL-safe.  */
void ash_cgroup_end (struct ash_cgroup *cg);

/* End every process left in the group as ash_cgroup_end() does, remove
   the group and release CG.  NULL-safe.  */
void ash_cgroup_remove (struct ash_cgroup *cg);

/* Remove the groups that runs of ash killed with kill -9 left behind:
   those whose name carries the pid of a process that no longer exists,
   with whatever they still hold killed first.  Once per process.  */
void ash_cgroup_sweep (void);

#endif
