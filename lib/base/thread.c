/* SPDX-License-Identifier: Apache-2.0 */
/* thread.c -- starting a helper thread that runs beside its starter (see
   thread.h).  */

#include <config.h>

#include <errno.h>
#include <sched.h>
#include <signal.h>

#include "base/thread.h"
#include "base/util.h"

#ifdef __linux__
struct start
{
  void *(*fn) (void *);
  void *arg;
  cpu_set_t allowed; /* what the starter was allowed */
};

static void *
trampoline (void *p)
{
  struct start s = *(struct start *) p;

  free (p);
  /* Allowed everywhere its starter is, again: the other CPU was only
     where to start.  */
  (void) pthread_setaffinity_np (pthread_self (), sizeof s.allowed,
                                 &s.allowed);
  return s.fn (s.arg);
}
#endif

int
ash_thread_start (pthread_t *ret, bool detached, void *(*fn) (void *),
                  void *arg)
{
  pthread_attr_t attr;
  pthread_t t;
  sigset_t all, old;
  int r;

  if ((r = pthread_attr_init (&attr)) != 0)
    return r;
  if (detached)
    (void) pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  r = -1;
#ifdef __linux__
  {
    struct start *s = xmalloc (sizeof *s);
    int cpu = sched_getcpu ();

    s->fn = fn;
    s->arg = arg;
    if (cpu >= 0 && cpu < CPU_SETSIZE
        && pthread_getaffinity_np (pthread_self (), sizeof s->allowed,
                                   &s->allowed)
             == 0
        && CPU_ISSET (cpu, &s->allowed) && CPU_COUNT (&s->allowed) > 1)
      {
        cpu_set_t elsewhere = s->allowed;
        CPU_CLR (cpu, &elsewhere);
        if (pthread_attr_setaffinity_np (&attr, sizeof elsewhere, &elsewhere)
            == 0)
          r = pthread_create (&t, &attr, trampoline, s);
        if (r != 0)
          {
            /* Refused with that mask (a cpuset changed meanwhile, say):
               a plain start.  */
            pthread_attr_destroy (&attr);
            if (pthread_attr_init (&attr) != 0)
              {
                free (s);
                pthread_sigmask (SIG_SETMASK, &old, NULL);
                return EAGAIN;
              }
            if (detached)
              (void) pthread_attr_setdetachstate (&attr,
                                                  PTHREAD_CREATE_DETACHED);
            r = -1;
          }
      }
    if (r != 0)
      {
        free (s);
        r = pthread_create (&t, &attr, fn, arg);
      }
  }
#else
  r = pthread_create (&t, &attr, fn, arg);
#endif
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_attr_destroy (&attr);
  if (r == 0 && ret)
    *ret = t;
  return r;
}
