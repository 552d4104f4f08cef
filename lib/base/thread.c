/* SPDX-License-Identifier: Apache-2.0 */
/* thread.c -- starting a helper thread that runs beside its starter (see
   thread.h).  */

#include <config.h>

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

/* pthread_create() with the attributes asked for: detached or not, and
   allowed on WHERE only (NULL: wherever the starter is).  */
static int
create (pthread_t *t, bool detached, const void *where, size_t where_size,
        void *(*fn) (void *), void *arg)
{
  pthread_attr_t attr;
  int r = pthread_attr_init (&attr);

  if (r != 0)
    return r;
  if (detached)
    (void) pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
#ifdef __linux__
  if (where)
    r = pthread_attr_setaffinity_np (&attr, where_size, where);
#else
  (void) where;
  (void) where_size;
#endif
  if (r == 0)
    r = pthread_create (t, &attr, fn, arg);
  pthread_attr_destroy (&attr);
  return r;
}

int
ash_thread_start (pthread_t *ret, bool detached, void *(*fn) (void *),
                  void *arg)
{
  pthread_t t;
  sigset_t all, old;
  int r = -1;

  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
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
        r = create (&t, detached, &elsewhere, sizeof elsewhere, trampoline, s);
      }
    if (r != 0)
      free (s);
  }
#endif
  /* One CPU, or refused with that mask (a cpuset changed meanwhile, say):
     a plain start.  */
  if (r != 0)
    r = create (&t, detached, NULL, 0, fn, arg);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (r == 0 && ret)
    *ret = t;
  return r;
}
