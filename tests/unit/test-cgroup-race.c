/* SPDX-License-Identifier: Apache-2.0 */
/* test-cgroup-race.c -- a pid that leaves the group while ASH ends it.

   In cgroup v1 (no cgroup.kill) a group is ended by reading the pids it
   lists and signalling each.  A listed process that exits may have its
   pid taken by a process outside the group before the signal is sent,
   and that process must not be killed.  cgroup.c opens a pidfd for each
   listed pid, reads the list again, and signals only the pids listed
   both times.  Here the hook between the two readings moves a process
   of the group back into this program's own group, which is to ASH what
   a pid taken by an outsider is: listed the first time, not the second.
   That process must survive ash_cgroup_end(), and the group must list
   none.  The control: a process left in the group is ended by SIGKILL.
   Skipped where no group can be made, or no pidfds are to be had.  */

#include <config.h>

#include <stdbool.h>

static void relist_hook (void);
#define ASH_CGROUP_RELIST_HOOK() relist_hook ()
#include "proc/cgroup.c"

#include <sys/wait.h>

#include "tap.h"

static pid_t to_move;
static char *move_to; /* the procs file of this program's own group */
static bool moved;

static void
relist_hook (void)
{
  char num[32];
  int fd;

  if (to_move <= 0 || moved)
    return;
  snprintf (num, sizeof num, "%ld", (long) to_move);
  fd = open (move_to, O_WRONLY | O_CLOEXEC);
  if (fd >= 0 && write (fd, num, strlen (num)) == (ssize_t) strlen (num))
    moved = true;
  if (fd >= 0)
    close (fd);
}

/* This program's own group in the hierarchy whose controller line in
   /proc/self/cgroup is WHICH ("pids" for v1, "" for v2), under MOUNT:
   its cgroup.procs.  */
static char *
own_procs (const char *mount, const char *which)
{
  FILE *f = fopen ("/proc/self/cgroup", "re");
  char line[4096];
  char *ret = NULL;

  if (!f)
    return NULL;
  while (!ret && fgets (line, sizeof line, f))
    {
      char *a = strchr (line, ':'), *b = a ? strchr (a + 1, ':') : NULL;
      if (!b)
        continue;
      *b = '\0';
      if (*which ? !has_word_sep (a + 1, which) : a[1] != '\0')
        continue;
      b[strcspn (b + 1, "\n") + 1] = '\0';
      ret = xasprintf ("%s%s/cgroup.procs", mount,
                       streq (b + 1, "/") ? "" : b + 1);
    }
  fclose (f);
  return ret;
}

/* A process of the group CG that sleeps until it is signalled.  */
static pid_t
start_member (const struct ash_cgroup *cg)
{
  int fds[2];
  char c;
  pid_t pid;

  if (pipe (fds) < 0)
    abort ();
  pid = fork ();
  if (pid == 0)
    {
      for (size_t i = 0; i < ARRAY_SIZE (cg->procs_fd); i++)
        if (cg->procs_fd[i] >= 0 && write (cg->procs_fd[i], "0", 1) != 1)
          _exit (2);
      if (write (fds[1], "x", 1) != 1)
        _exit (2);
      for (;;)
        pause ();
    }
  close (fds[1]);
  if (read (fds[0], &c, 1) != 1)
    abort ();
  close (fds[0]);
  return pid;
}

static long
listed_count (const char *dir)
{
  _cleanup_free_ char *p = ash_path_join (dir, "cgroup.procs");
  pid_t *v;
  size_t n;
  if (!read_pids (p, &v, &n))
    return -1;
  free (v);
  return (long) n;
}

int
main (void)
{
  struct ash_cgroup cg = ASH_CGROUP_INIT;
  _cleanup_free_ char *why = NULL;
  const char *dir;
  int st;

  alarm (60);
#ifndef HAVE_PIDFDS
  tap_skip_all ("this system has no pidfds");
#endif
  if (syscall (SYS_pidfd_open, getpid (), 0) < 0)
    tap_skip_all ("this kernel has no pidfd_open");
  if (ash_cgroup_make ("unit-race", 16, 0, &cg, &why) < 0)
    tap_skip_all (why ? why : "no control group can be made here");
  dir = cg.v2 ? cg.v2 : cg.v1_pids;
  if (cg.v2)
    {
      for (size_t i = 0; v2_mounts[i] && !move_to; i++)
        {
          _cleanup_free_ char *c
            = ash_path_join (v2_mounts[i], "cgroup.controllers");
          if (ash_path_is_inside (cg.v2, v2_mounts[i])
              && access (c, F_OK) == 0)
            move_to = own_procs (v2_mounts[i], "");
        }
    }
  else
    move_to = own_procs (V1_PIDS, "pids");
  if (!dir || !move_to)
    {
      ash_cgroup_remove (&cg);
      tap_skip_all ("this program's own group could not be found");
    }

  /* The control: a member left in the group is ended.  */
  pid_t stay = start_member (&cg);
  tap_is_int (listed_count (dir), 1, "control: the group lists its member");
  ash_cgroup_end (&cg);
  tap_ok (waitpid (stay, &st, 0) == stay && WIFSIGNALED (st)
            && WTERMSIG (st) == SIGKILL,
          "control: a member still listed is ended by SIGKILL");

  /* The member leaves between the two readings.  */
  pid_t leaver = start_member (&cg);
  to_move = leaver;
  ash_cgroup_end (&cg);
  tap_ok (moved, "the hook moved the member out between the readings");
  tap_is_int (listed_count (dir), 0, "the group lists no process");
  tap_ok (waitpid (leaver, &st, WNOHANG) == 0 && kill (leaver, 0) == 0,
          "a process listed only in the first reading is not signalled");
  kill (leaver, SIGTERM);
  tap_ok (waitpid (leaver, &st, 0) == leaver && WIFSIGNALED (st)
            && WTERMSIG (st) == SIGTERM,
          "it lived until this program ended it");

  ash_cgroup_remove (&cg);
  free (move_to);
  return tap_done ();
}
