/* SPDX-License-Identifier: Apache-2.0 */
/* pool.c -- a small worker pool.  */

#include <config.h>

#include <pthread.h>

#include "base/util.h"
#include "scan/pool.h"

struct pool
{
  void *const *items;
  size_t n;
  size_t next;
  pthread_mutex_t lock;
  void (*fn) (void *ctx, void *item);
  void *ctx;
};

static void *
pool_worker (void *arg)
{
  struct pool *p = arg;
  for (;;)
    {
      pthread_mutex_lock (&p->lock);
      size_t i = p->next < p->n ? p->next++ : p->n;
      pthread_mutex_unlock (&p->lock);
      if (i >= p->n)
        return NULL;
      p->fn (p->ctx, p->items[i]);
    }
}

void
ash_pool_run (void *const *items, size_t n, unsigned workers,
              void (*fn) (void *ctx, void *item), void *ctx)
{
  struct pool p = { .items = items, .n = n, .fn = fn, .ctx = ctx };
  pthread_t *threads;
  size_t started = 0;

  if (n == 0)
    return;
  if (workers == 0)
    workers = 1;
  if (workers > n)
    workers = (unsigned) n;
  pthread_mutex_init (&p.lock, NULL);
  /* The calling thread is one of the workers: the others are started,
     none for a single item or worker.  They are kept side by side, so
     that the join below sees exactly those that started, whichever
     failed.  */
  threads = xcalloc (workers, sizeof *threads);
  for (unsigned i = 1; i < workers; i++)
    if (pthread_create (&threads[started], NULL, pool_worker, &p) == 0)
      started++;
  pool_worker (&p);
  for (size_t i = 0; i < started; i++)
    pthread_join (threads[i], NULL);
  free (threads);
  pthread_mutex_destroy (&p.lock);
}
