/* SPDX-License-Identifier: Apache-2.0 */
/* pool.h -- a small worker pool.

   N threads, the caller's among them, take the next item until none is
   left; the call returns when every item is done.  Used for the check
   phase (every scanner at once) and the scan phase (at most --max-workers
   at once).  */

#ifndef ASH_POOL_H
#define ASH_POOL_H

#include <stddef.h>

/* Call FN (CTX, ITEMS[i]) once for each of the N items, on at most WORKERS
   threads (at least one; no more than N), the calling thread one of them:
   WORKERS - 1 are started, none for a single item.  When no thread can be
   started, the calling thread does all the work.  */
void ash_pool_run (void *const *items, size_t n, unsigned workers,
                   void (*fn) (void *ctx, void *item), void *ctx);

#endif
