/* SPDX-License-Identifier: Apache-2.0 */
/* test-tree-tsan.c -- lib/fs/tree.c's process-wide state is safe to share
   between scan threads.

   tree.c is compiled into this program with ThreadSanitizer (built only
   where the compiler offers it: configure's ASH_TSAN), and two threads
   use the walker switch at once: one sets it, the other asks whether the
   walker is in use, as scan threads do.  A plain variable written and read
   so is a data race, which ThreadSanitizer reports, failing the program
   (its exit status 66); the atomic ones are not.  */

#include "fs/tree.c"

#include <pthread.h>

#include "tap.h"

#define ROUNDS 20000

static void *
setter (void *arg _unused_)
{
  for (int i = 0; i < ROUNDS; i++)
    ash_tree_set_walker (i & 1);
  return NULL;
}

static void *
reader (void *arg)
{
  int *in_use = arg;
  for (int i = 0; i < ROUNDS; i++)
    *in_use += ash_tree_using_walker ();
  return NULL;
}

int
main (void)
{
  pthread_t a, b;
  int in_use = 0;
  bool started = pthread_create (&a, NULL, setter, NULL) == 0
                 && pthread_create (&b, NULL, reader, &in_use) == 0;
  tap_ok (started, "two threads use the walker switch at once");
  if (started)
    {
      pthread_join (a, NULL);
      pthread_join (b, NULL);
    }
  tap_ok (in_use >= 0 && in_use <= ROUNDS,
          "the reader saw a walker setting each time (%d of %d in use)",
          in_use, ROUNDS);
  return tap_done ();
}
