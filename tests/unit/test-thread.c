/* SPDX-License-Identifier: Apache-2.0 */
/* test-thread.c -- ash_thread_start(): a helper thread that runs beside
   its starter.

   The thread must run FN (ARG) and hand back its value when joinable,
   run detached when asked, have every signal blocked (SIGINT and SIGTERM
   are the signal thread's), leave its starter's mask alone, and, once
   FN runs, be allowed on every CPU its starter is (the other CPU it was
   started on is only where to start), whatever the starter is allowed:
   all the CPUs or one.  */

#include <config.h>

#include <sched.h>
#include <semaphore.h>
#include <signal.h>

#include "base/thread.h"
#include "base/util.h"
#include "tap.h"

struct seen
{
  sigset_t mask;
  cpu_set_t allowed;
  sem_t done;
  void *arg;
};

static void *
observe (void *p)
{
  struct seen *s = p;
  pthread_sigmask (SIG_SETMASK, NULL, &s->mask);
  (void) sched_getaffinity (0, sizeof s->allowed, &s->allowed);
  sem_post (&s->done);
  return s->arg;
}

static void
check_start (const char *how)
{
  struct seen s;
  pthread_t t;
  void *ret = NULL;
  cpu_set_t mine;
  sigset_t before, after;

  memset (&s, 0, sizeof s);
  sem_init (&s.done, 0, 0);
  s.arg = &s;
  sched_getaffinity (0, sizeof mine, &mine);
  pthread_sigmask (SIG_SETMASK, NULL, &before);
  tap_is_int (ash_thread_start (&t, false, observe, &s), 0,
              "%s: a joinable thread starts", how);
  pthread_sigmask (SIG_SETMASK, NULL, &after);
  tap_ok (pthread_join (t, &ret) == 0 && ret == &s,
          "%s: joined, it hands back what FN returned", how);
  tap_ok (sigismember (&s.mask, SIGINT) && sigismember (&s.mask, SIGTERM)
            && sigismember (&s.mask, SIGCHLD),
          "%s: every signal is blocked in it", how);
  tap_ok (sigismember (&before, SIGINT) == sigismember (&after, SIGINT)
            && sigismember (&before, SIGTERM) == sigismember (&after, SIGTERM),
          "%s: the starter's signal mask is as it was", how);
  tap_ok (CPU_EQUAL (&s.allowed, &mine),
          "%s: FN runs allowed on the %d CPUs its starter is (%d)", how,
          CPU_COUNT (&mine), CPU_COUNT (&s.allowed));

  memset (&s.allowed, 0, sizeof s.allowed);
  tap_is_int (ash_thread_start (NULL, true, observe, &s), 0,
              "%s: a detached thread starts", how);
  sem_wait (&s.done); /* the joinable one's post */
  sem_wait (&s.done);
  tap_ok (CPU_EQUAL (&s.allowed, &mine),
          "%s: the detached one runs, allowed where its starter is", how);
  sem_destroy (&s.done);
}

int
main (void)
{
  cpu_set_t all, one;

  alarm (30);
  sched_getaffinity (0, sizeof all, &all);
  check_start ("every CPU");
  if (CPU_COUNT (&all) < 2)
    tap_skip ("one CPU only: the starter cannot be narrowed further");
  else
    {
      CPU_ZERO (&one);
      for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET (c, &all))
          {
            CPU_SET (c, &one);
            break;
          }
      tap_ok (sched_setaffinity (0, sizeof one, &one) == 0,
              "control: the starter narrowed to one CPU");
      check_start ("one CPU");
      sched_setaffinity (0, sizeof all, &all);
    }
  return tap_done ();
}
