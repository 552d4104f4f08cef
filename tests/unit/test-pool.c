/* SPDX-License-Identifier: Apache-2.0 */
/* test-pool.c -- the worker pool, the caller one of its workers, and when
   a thread cannot be started.

   pthread_create is interposed: this program's definition wins over the
   C library's for the pool's calls, fails the calls the test chooses
   (EAGAIN, as when the process is out of threads) and starts the others
   through the real one, with a wrapper that records when each thread's
   routine has returned.  The pool must join exactly the threads that
   started, whichever failed: joining the slot of one that did not start
   (a zeroed pthread_t) crashes or fails, and a thread not joined could
   still be using the pool on its caller's stack after the call
   returned.  */

#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "base/util.h"
#include "scan/pool.h"
#include "tap.h"

#define MAX_THREADS 16

typedef int (*create_fn) (pthread_t *, const pthread_attr_t *,
                          void *(*) (void *), void *);

struct started
{
  void *(*routine) (void *);
  void *arg;
  atomic_bool returned;
};

static struct started started[MAX_THREADS];
static atomic_int n_started;
static atomic_int n_calls;
/* Bit I set: the Ith call to pthread_create fails.  */
static unsigned fail_mask;

static void *
wrapper (void *arg)
{
  struct started *s = arg;
  void *r = s->routine (s->arg);
  atomic_store (&s->returned, true);
  return r;
}

int
pthread_create (pthread_t *thread, const pthread_attr_t *attr,
                void *(*routine) (void *), void *arg)
{
  static create_fn real;
  int call = atomic_fetch_add (&n_calls, 1);

  if (real == NULL)
    real = (create_fn) dlsym (RTLD_NEXT, "pthread_create");
  if (call < 32 && (fail_mask & (1u << call)))
    return EAGAIN;
  int i = atomic_fetch_add (&n_started, 1);
  if (i >= MAX_THREADS || real == NULL)
    return EAGAIN;
  started[i].routine = routine;
  started[i].arg = arg;
  atomic_store (&started[i].returned, false);
  return real (thread, attr, wrapper, &started[i]);
}

static atomic_int done[8];

static void
work (void *ctx _unused_, void *item)
{
  atomic_fetch_add (&done[(int *) item - (int *) ctx], 1);
}

/* Run the pool over the first N of eight items with WORKERS, the Ith
   pthread_create failing for each bit I of MASK, and check the items,
   the threads asked for and started, and that every started one was
   joined.  */
static void
run_n (const char *what, unsigned mask, size_t n, unsigned workers,
       int want_started)
{
  static int items[8];
  void *ptrs[8];

  for (int i = 0; i < 8; i++)
    {
      ptrs[i] = &items[i];
      atomic_store (&done[i], 0);
    }
  atomic_store (&n_calls, 0);
  atomic_store (&n_started, 0);
  fail_mask = mask;
  ash_pool_run (ptrs, n, workers, work, items);
  if (workers > n)
    workers = (unsigned) n;

  bool once = true;
  for (size_t i = 0; i < 8; i++)
    once = once && atomic_load (&done[i]) == (i < n ? 1 : 0);
  tap_ok (once, "%s: every item is done once", what);
  tap_is_int (atomic_load (&n_calls), workers - 1,
              "%s: a thread is asked for each worker but the caller", what);
  tap_is_int (atomic_load (&n_started), want_started, "%s: %d threads started",
              what, want_started);
  bool all = true;
  for (int i = 0; i < atomic_load (&n_started); i++)
    all = all && atomic_load (&started[i].returned);
  tap_ok (all,
          "%s: every thread that started had ended when the pool "
          "returned (it was joined)",
          what);
}

static void
run (const char *what, unsigned mask, unsigned workers, int want_started)
{
  run_n (what, mask, 8, workers, want_started);
}

int
main (void)
{
  run ("all start", 0, 4, 3);
  run ("the second fails, later ones start", 1u << 1, 4, 2);
  run ("the first fails", 1u << 0, 4, 2);
  run ("all but the last fail", 0x3, 4, 1);
  run ("none starts: the caller does the work", 0x7, 4, 0);
  /* One item, or one worker: the caller does it, and no thread is
     started.  */
  run_n ("one item", 0, 1, 4, 0);
  run_n ("one worker", 0, 8, 1, 0);
  return tap_done ();
}
