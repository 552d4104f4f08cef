/* SPDX-License-Identifier: Apache-2.0 */
/* thread.h -- starting a helper thread that runs beside its starter.

   A thread ASH starts to work ahead (the socket filter's builder, the
   remover of private directories) is worth something only if it runs
   while its starter goes on.  On some systems the scheduler queues
   a new thread on its starter's CPU, behind it, even with another CPU
   idle, and it runs only once the starter blocks: on a two-CPU virtual
   machine here, 2 ms late more often than not (bench/README.md, "Helper
   threads started on another CPU").  ash_thread_start() asks for another
   CPU: where more than one is allowed, the thread is created allowed on
   every one but its starter's current CPU, and the first thing it does
   is allow them all again, so that nothing stays pinned.  Where the
   system has no such calls it is a plain pthread_create().  */

#ifndef ASH_THREAD_H
#define ASH_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/* Start FN (ARG) on a thread of its own, detached when DETACHED, else
   into *RET (joinable; RET may be NULL only when DETACHED), with every
   signal blocked in it (ASH takes SIGINT and SIGTERM on a thread of its
   own).  0, or an error number as pthread_create() gives.  */
int ash_thread_start (pthread_t *ret, bool detached, void *(*fn) (void *),
                      void *arg);

#endif /* ASH_THREAD_H */
