/* SPDX-License-Identifier: Apache-2.0 */
/* test-cgroup.c -- ending a scanner's control group.

   A process joins a group made by ash_cgroup_make() the way a scanner
   does (it writes "0" to the group's procs file) and starts what a
   hostile scanner would leave behind: sleepers in sessions of their own
   that ignore the polite signals, more of them than one round of pidfds
   covers, and, in a second group, a fork bomb bounded by pids.max.
   ash_cgroup_end() must return only once the group lists no process,
   keeping the group; ash_cgroup_remove() must then remove it.  This
   program is a child subreaper, so that every process started is its to
   reap, and each must have been ended by SIGKILL.  Where no group can be
   made (no delegated cgroup v2, no cgroup v1 as root) it is skipped,
   saying why.  */

#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "proc/cgroup.h"
#include "tap.h"

#define SLEEPERS 40

/* The group directories of CG.  */
static const char *
dirs (const struct ash_cgroup *cg, int i)
{
  const char *d[] = { cg->v2, cg->v1_pids, cg->v1_memory };
  return i < 3 ? d[i] : NULL;
}

/* How many processes the procs file of each of CG's directories lists,
   added up; -1 when one cannot be read.  */
static long
listed (const struct ash_cgroup *cg)
{
  long n = 0;

  for (int i = 0; i < 3; i++)
    {
      const char *d = dirs (cg, i);
      if (!d)
        continue;
      _cleanup_free_ char *p = ash_path_join (d, "cgroup.procs");
      FILE *f = fopen (p, "re");
      long pid;
      if (!f)
        return -1;
      while (fscanf (f, "%ld", &pid) == 1)
        n++;
      fclose (f);
    }
  return n;
}

static void
join (const struct ash_cgroup *cg)
{
  for (size_t i = 0; i < ARRAY_SIZE (cg->procs_fd); i++)
    if (cg->procs_fd[i] >= 0 && write (cg->procs_fd[i], "0", 1) != 1)
      _exit (2);
}

/* A sleeper that a scanner leaves behind: a session of its own, deaf to
   SIGTERM, SIGHUP and SIGINT.  */
static void
sleeper (int report)
{
  pid_t me = getpid ();
  signal (SIGTERM, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  signal (SIGINT, SIG_IGN);
  (void) setsid ();
  if (write (report, &me, sizeof me) != sizeof me)
    _exit (2);
  close (report);
  for (;;)
    pause ();
}

/* Reap every child; how many there were, and how many of them were not
   ended by SIGKILL in *BAD.  */
static int
reap_all (int *bad)
{
  int n = 0, st;

  *bad = 0;
  while (waitpid (-1, &st, 0) > 0)
    {
      n++;
      if (!WIFSIGNALED (st) || WTERMSIG (st) != SIGKILL)
        ++*bad;
    }
  return n;
}

static bool
gone (const struct ash_cgroup *cg, char **saved)
{
  struct stat sb;
  for (int i = 0; i < 3; i++)
    if (saved[i] && (stat (saved[i], &sb) == 0 || errno != ENOENT))
      return false;
  (void) cg;
  return true;
}

static void
save_dirs (const struct ash_cgroup *cg, char **saved)
{
  for (int i = 0; i < 3; i++)
    saved[i] = dirs (cg, i) ? xstrdup (dirs (cg, i)) : NULL;
}

/* Fork a process that joins CG, with a pipe to tell its starter
   things: 0 in it, *REPORT the pipe's writing end; its pid in the
   starter, *REPORT the reading end.  */
static pid_t
fork_member (const struct ash_cgroup *cg, int *report)
{
  int fds[2];
  pid_t pid;

  if (pipe (fds) < 0)
    abort ();
  pid = fork ();
  if (pid < 0)
    abort ();
  close (fds[pid == 0 ? 0 : 1]);
  *report = fds[pid == 0 ? 1 : 0];
  if (pid == 0)
    join (cg);
  return pid;
}

static void
test_sleepers (void)
{
  struct ash_cgroup cg = ASH_CGROUP_INIT;
  _cleanup_free_ char *why = NULL;
  char *saved[3];
  int fd, bad;
  pid_t pids[SLEEPERS + 1];
  size_t got = 0;

  if (ash_cgroup_make ("unit-sleepers", 200, 0, &cg, &why) < 0)
    tap_skip_all (why ? why : "no control group can be made here");
  save_dirs (&cg, saved);
  if (fork_member (&cg, &fd) == 0)
    {
      for (int i = 0; i < SLEEPERS; i++)
        if (fork () == 0)
          sleeper (fd);
      sleeper (fd);
    }
  while (got < ARRAY_SIZE (pids)
         && read (fd, &pids[got], sizeof pids[0]) == sizeof pids[0])
    got++;
  close (fd);
  tap_is_int (got, SLEEPERS + 1, "every sleeper started");
  tap_is_int (listed (&cg), SLEEPERS + 1,
              "control: the group lists them all before it is ended");

  ash_cgroup_end (&cg);
  tap_is_int (listed (&cg), 0,
              "ash_cgroup_end: the group lists no process once it returns");
  struct stat sb;
  tap_ok (stat (saved[0] ? saved[0] : saved[1], &sb) == 0,
          "ash_cgroup_end keeps the group");
  tap_is_int (reap_all (&bad), SLEEPERS + 1,
              "every process of the group was reaped");
  tap_is_int (bad, 0, "each was ended by SIGKILL");

  ash_cgroup_end (&cg);
  tap_is_int (listed (&cg), 0, "ending an empty group returns");
  ash_cgroup_remove (&cg);
  tap_ok (gone (&cg, saved), "ash_cgroup_remove removes the group");
  tap_ok (cg.v2 == NULL && cg.v1_pids == NULL && cg.v1_memory == NULL,
          "and releases it");
  for (int i = 0; i < 3; i++)
    free (saved[i]);
}

/* Every process of the group forks as fast as it can; pids.max bounds
   them.  */
static void
test_fork_bomb (void)
{
  struct ash_cgroup cg = ASH_CGROUP_INIT;
  _cleanup_free_ char *why = NULL;
  char *saved[3];
  int fd, bad;
  char c;

  if (ash_cgroup_make ("unit-bomb", 32, 0, &cg, &why) < 0 || !cg.pids)
    {
      tap_skip (why ? why : "no pids bound can be set here");
      ash_cgroup_remove (&cg);
      return;
    }
  save_dirs (&cg, saved);
  if (fork_member (&cg, &fd) == 0)
    {
      /* Once the bound is reached, say so, and go on trying.  */
      bool told = false;
      for (;;)
        {
          pid_t p = fork ();
          if (p < 0 && !told)
            {
              if (write (fd, "x", 1) != 1)
                _exit (2);
              told = true;
            }
          if (p == 0)
            told = true;
        }
    }
  tap_ok (read (fd, &c, 1) == 1, "control: the bomb reaches pids.max");
  close (fd);
  tap_ok (listed (&cg) > 1, "control: the group lists the bomb's processes");

  ash_cgroup_end (&cg);
  tap_is_int (listed (&cg), 0, "ash_cgroup_end empties a forking group");
  int n = reap_all (&bad);
  tap_ok (n >= 1 && bad == 0,
          "each of its %d processes reaped was ended by "
          "SIGKILL (%d were not)",
          n, bad);
  ash_cgroup_remove (&cg);
  tap_ok (gone (&cg, saved), "ash_cgroup_remove removes it");
  for (int i = 0; i < 3; i++)
    free (saved[i]);
}

int
main (void)
{
  /* A process left running would hang the test: fail it instead.  */
  alarm (60);
  if (prctl (PR_SET_CHILD_SUBREAPER, 1) < 0)
    tap_skip_all ("this system has no child subreapers");
  ash_cgroup_end (NULL);
  ash_cgroup_remove (NULL);
  test_sleepers ();
  test_fork_bomb ();
  return tap_done ();
}
