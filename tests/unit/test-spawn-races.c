/* SPDX-License-Identifier: Apache-2.0 */
/* Races in spawn.c that a test can only reach by stopping the code at the
   point where they happen: this program builds spawn.c into itself with
   hooks there.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void terminate_hook (int slot, pid_t pgid);
static void drain_hook (void);
static void poll_hook (void);
static void exit_seen_hook (bool by_event);
#define ASH_SPAWN_TERMINATE_HOOK(slot, pgid) terminate_hook (slot, pgid)
#define ASH_SPAWN_DRAIN_HOOK() drain_hook ()
#define ASH_SPAWN_POLL_HOOK() poll_hook ()
#define ASH_SPAWN_EXIT_SEEN_HOOK(by_event) exit_seen_hook (by_event)

#include "proc/spawn.c"

#include "tap.h"

static char *tmpdir;

static void
sleep_ms (int ms)
{
  struct timespec ts = { ms / 1000, (long) (ms % 1000) * 1000000L };
  nanosleep (&ts, NULL);
}

/* ---- terminate_all against the waiter ---------------------------------- */

static atomic_int hook_target; /* the pgid to stop at, or 0 */
static atomic_bool hook_reached;
static atomic_bool hook_saw_clear;  /* the waiter cleared the slot */
static atomic_bool hook_saw_reaped; /* ...and reaped the leader under us */

/* Called by ash_spawn_terminate_all() between reading SLOT and signalling
   PGID.  Waits for the waiter to clear the slot, then watches for up to a
   second whether it reaps the leader, which would free the process group
   id for reuse before the kill() below it.  */
static void
terminate_hook (int slot, pid_t pgid)
{
  if (pgid != atomic_load (&hook_target))
    return;
  atomic_store (&hook_reached, true);
  for (int i = 0; i < 3000 && atomic_load (&registry[slot]) != 0; i++)
    sleep_ms (10);
  if (atomic_load (&registry[slot]) != 0)
    return;
  atomic_store (&hook_saw_clear, true);
  for (int i = 0; i < 100; i++)
    {
      siginfo_t si;
      if (waitid (P_PID, (id_t) pgid, &si, WEXITED | WNOHANG | WNOWAIT) < 0
          && errno == ECHILD)
        {
          atomic_store (&hook_saw_reaped, true);
          return;
        }
      sleep_ms (10);
    }
}

struct run_arg
{
  const char *script;
  int rc;
  struct ash_cmd_result res;
  atomic_bool done;
};

static void *
run_main (void *p)
{
  struct run_arg *a = p;
  struct ash_cmd cmd;
  struct ash_error err = ASH_ERROR_INIT;
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, "/bin/sh");
  ash_strvec_push (&cmd.argv, "-c");
  ash_strvec_push (&cmd.argv, a->script);
  ash_strvec_push (&cmd.env, "PATH=/usr/bin:/bin");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  a->rc = ash_cmd_run (&cmd, &a->res, &err);
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  atomic_store (&a->done, true);
  return NULL;
}

static pid_t
wait_pidfile (const char *path)
{
  for (int i = 0; i < 3000; i++)
    {
      FILE *f = fopen (path, "r");
      int pid = 0;
      if (f)
        {
          if (fscanf (f, "%d", &pid) != 1)
            pid = 0;
          fclose (f);
        }
      if (pid > 0)
        return (pid_t) pid;
      sleep_ms (10);
    }
  return 0;
}

static void
test_terminate_while_reaped (void)
{
  _cleanup_free_ char *pidfile = ash_path_join (tmpdir, "leader.pid");
  _cleanup_free_ char *script
    = xasprintf ("echo $$ > '%s.tmp' && mv '%s.tmp' '%s' && exec sleep 30",
                 pidfile, pidfile, pidfile);
  struct run_arg a = { script, 1, { 0 }, false };
  pthread_t t;

  pthread_create (&t, NULL, run_main, &a);
  pid_t pid = wait_pidfile (pidfile);
  tap_ok (pid > 0, "the command started (%d)", (int) pid);
  if (pid <= 0)
    {
      pthread_join (t, NULL);
      return;
    }
  atomic_store (&hook_target, pid);
  /* Bumps the generation, so the waiter ends the command itself while we
     stand between reading its slot and signalling it.  */
  ash_spawn_terminate_all ();
  atomic_store (&hook_target, 0);
  pthread_join (t, NULL);

  tap_ok (atomic_load (&hook_reached), "terminate_all read the slot");
  tap_ok (atomic_load (&hook_saw_clear), "the waiter cleared the slot");
  tap_ok (!atomic_load (&hook_saw_reaped),
          "the waiter did not reap the leader while terminate_all could "
          "still signal its process group");
  tap_ok (a.rc == 0 && a.res.interrupted, "the command was interrupted");
}

/* ---- the final drain --------------------------------------------------- */

static atomic_int drain_fd = -1; /* a write end of the capture pipe */
static atomic_long drain_calls;

/* Called before each read of the final drain: a straggler that writes
   more each time ASH has read.  */
static void
drain_hook (void)
{
  int fd = atomic_load (&drain_fd);
  if (fd < 0)
    return;
  atomic_fetch_add (&drain_calls, 1);
  static char block[4096];
  memset (block, 'x', sizeof block);
  (void) write (fd, block, sizeof block);
}

static void
on_alarm (int sig)
{
  (void) sig;
  static const char msg[]
    = "not ok - the final drain of a fed pipe stopped (hung)\n";
  (void) write (1, msg, sizeof msg - 1);
  _exit (1);
}

static void
test_drain_bounded (void)
{
  _cleanup_free_ char *pidfile = ash_path_join (tmpdir, "drain.pid");
  _cleanup_free_ char *gofile = ash_path_join (tmpdir, "drain.go");
  _cleanup_free_ char *script
    = xasprintf ("echo $$ > '%s.tmp' && mv '%s.tmp' '%s'; "
                 "while [ ! -e '%s' ]; do sleep 0.01; done; echo done",
                 pidfile, pidfile, pidfile, gofile);
  struct run_arg a = { script, 1, { 0 }, false };
  pthread_t t;

  pthread_create (&t, NULL, run_main, &a);
  pid_t pid = wait_pidfile (pidfile);
  int fd = -1;
  if (pid > 0)
    {
      /* The command's stdout is the capture pipe: open it here, as a
         writer outside its process group would hold it.  */
      char path[64];
      snprintf (path, sizeof path, "/proc/%d/fd/1", (int) pid);
      fd = open (path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    }
  tap_ok (fd >= 0, "opened the capture pipe through /proc");
  if (fd < 0)
    {
      FILE *g = fopen (gofile, "w");
      if (g)
        fclose (g);
      pthread_join (t, NULL);
      return;
    }
  atomic_store (&drain_fd, fd);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  alarm (60);
  FILE *g = fopen (gofile, "w");
  if (g)
    fclose (g);
  pthread_join (t, NULL);
  alarm (0);
  atomic_store (&drain_fd, -1);
  close (fd);
  tap_ok (a.rc == 0 && a.res.status == 0,
          "ash_cmd_run() returned while a writer kept filling the pipe "
          "(%ld reads in the final drain)",
          (long) atomic_load (&drain_calls));
}

/* ---- the wait wakes on the child's exit ---------------------------------- */

static atomic_bool watch_wait; /* record the hooks below */
static atomic_int polls;       /* polls of the watched wait */
static atomic_int exit_seen;   /* 0: not yet, 1: by event, 2: by a poll */

static void
poll_hook (void)
{
  if (atomic_load (&watch_wait))
    atomic_fetch_add (&polls, 1);
}

static void
exit_seen_hook (bool by_event)
{
  if (atomic_load (&watch_wait))
    atomic_store (&exit_seen, by_event ? 1 : 2);
}

struct stdin_run
{
  int fd;
  int rc;
  struct ash_cmd_result res;
};

static void *
run_reader (void *p)
{
  struct stdin_run *a = p;
  struct ash_cmd cmd;
  struct ash_error err = ASH_ERROR_INIT;
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, "/bin/sh");
  ash_strvec_push (&cmd.argv, "-c");
  ash_strvec_push (&cmd.argv, "read x; exit 0");
  ash_strvec_push (&cmd.env, "PATH=/usr/bin:/bin");
  cmd.stdin_mode = ASH_STDIO_FD;
  cmd.stdin_fd = a->fd;
  a->rc = ash_cmd_run (&cmd, &a->res, &err);
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  return NULL;
}

/* A child that exits while its waiter sleeps in poll() wakes it through the
   child's descriptor (Linux 5.3 and later), not at the end of a timeout:
   the waiter reports that the exit came as an event.  The child reads its
   stdin, whose write end the test closes only once the waiter has polled
   at least once, so the exit always comes while the child is waited for.  */
static void
test_exit_wakes_wait (void)
{
#if defined __linux__ && defined SYS_pidfd_open
  long probe = syscall (SYS_pidfd_open, getpid (), 0);
  if (probe < 0)
    {
      tap_ok (true, "# SKIP this kernel has no pidfd_open()");
      return;
    }
  close ((int) probe);
  int p[2];
  if (pipe (p) < 0)
    {
      tap_ok (false, "pipe: %s", strerror (errno));
      return;
    }
  struct stdin_run a = { p[0], 1, { 0 } };
  pthread_t t;
  atomic_store (&polls, 0);
  atomic_store (&exit_seen, 0);
  atomic_store (&watch_wait, true);
  pthread_create (&t, NULL, run_reader, &a);
  while (atomic_load (&polls) == 0)
    sleep_ms (1);
  close (p[1]);
  pthread_join (t, NULL);
  atomic_store (&watch_wait, false);
  close (p[0]);
  tap_ok (a.rc == 0 && a.res.status == 0, "the reader ran and exited 0");
  tap_ok (atomic_load (&exit_seen) == 1,
          "the wait woke on the child's exit (seen: %d)",
          atomic_load (&exit_seen));
#else
  tap_ok (true, "# SKIP no pidfd_open() on this system");
#endif
}

int
main (void)
{
  char tmpl[] = "/tmp/ash-test-spawn-races.XXXXXX";
  tmpdir = mkdtemp (tmpl);
  if (!tmpdir)
    return 99;

  test_terminate_while_reaped ();
  test_drain_bounded ();
  test_exit_wakes_wait ();

  _cleanup_free_ char *p1 = ash_path_join (tmpdir, "leader.pid");
  _cleanup_free_ char *p2 = ash_path_join (tmpdir, "drain.pid");
  _cleanup_free_ char *p3 = ash_path_join (tmpdir, "drain.go");
  unlink (p1);
  unlink (p2);
  unlink (p3);
  rmdir (tmpdir);
  return tap_done ();
}
