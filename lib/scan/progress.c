/* SPDX-License-Identifier: Apache-2.0 */
/* progress.c -- the live display and the plain progress lines.  */

#include <config.h>

#include "scan/progress.h"

#include <pthread.h>
#include <time.h>

#include "base/util.h"

struct running
{
  char *name;
  double started;
};

struct ash_progress
{
  enum ash_progress_mode mode;
  FILE *stream;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  pthread_t thread;
  bool thread_started;
  bool stopping;
  struct running *run;
  size_t n_run;
  size_t drawn; /* lines drawn last time (LIVE) */
};

enum ash_progress_mode
ash_progress_choose (int option, bool ci, bool quiet, FILE *stream)
{
  if (option == 0 || quiet)
    return ASH_PROGRESS_OFF;
  if (option < 0 && ci)
    return ASH_PROGRESS_OFF;
  return isatty (fileno (stream)) ? ASH_PROGRESS_LIVE : ASH_PROGRESS_PLAIN;
}

/* Called with the lock held.  */
static void
clear_live (struct ash_progress *p)
{
  for (size_t i = 0; i < p->drawn; i++)
    fputs ("\033[1A\033[2K", p->stream);
  p->drawn = 0;
}

static void
draw_live (struct ash_progress *p)
{
  double now = ash_now ();
  clear_live (p);
  for (size_t i = 0; i < p->n_run; i++)
    fprintf (p->stream, "  %-20s running  %6.1fs\n", p->run[i].name,
             now - p->run[i].started);
  p->drawn = p->n_run;
  fflush (p->stream);
}

static void *
live_thread (void *arg)
{
  struct ash_progress *p = arg;
  pthread_mutex_lock (&p->lock);
  while (!p->stopping)
    {
      struct timespec ts;
      draw_live (p);
      clock_gettime (CLOCK_REALTIME, &ts);
      ts.tv_nsec += 250 * 1000 * 1000;
      if (ts.tv_nsec >= 1000 * 1000 * 1000)
        {
          ts.tv_sec++;
          ts.tv_nsec -= 1000 * 1000 * 1000;
        }
      pthread_cond_timedwait (&p->cond, &p->lock, &ts);
    }
  clear_live (p);
  fflush (p->stream);
  pthread_mutex_unlock (&p->lock);
  return NULL;
}

struct ash_progress *
ash_progress_start (enum ash_progress_mode mode, FILE *stream)
{
  struct ash_progress *p = xzalloc (sizeof *p);
  p->mode = mode;
  p->stream = stream;
  pthread_mutex_init (&p->lock, NULL);
  pthread_cond_init (&p->cond, NULL);
  if (mode == ASH_PROGRESS_LIVE
      && pthread_create (&p->thread, NULL, live_thread, p) == 0)
    p->thread_started = true;
  else if (mode == ASH_PROGRESS_LIVE)
    p->mode = ASH_PROGRESS_PLAIN;
  return p;
}

void
ash_progress_begin (struct ash_progress *p, const char *name)
{
  if (p == NULL || p->mode == ASH_PROGRESS_OFF)
    return;
  pthread_mutex_lock (&p->lock);
  p->run = xreallocarray (p->run, p->n_run + 1, sizeof *p->run);
  p->run[p->n_run].name = xstrdup (name);
  p->run[p->n_run].started = ash_now ();
  p->n_run++;
  if (p->mode == ASH_PROGRESS_PLAIN)
    {
      fprintf (p->stream, _ ("%s: started\n"), name);
      fflush (p->stream);
    }
  else
    pthread_cond_signal (&p->cond);
  pthread_mutex_unlock (&p->lock);
}

void
ash_progress_end (struct ash_progress *p, const char *name, const char *status,
                  double seconds)
{
  if (p == NULL || p->mode == ASH_PROGRESS_OFF)
    return;
  pthread_mutex_lock (&p->lock);
  for (size_t i = 0; i < p->n_run; i++)
    if (streq (p->run[i].name, name))
      {
        free (p->run[i].name);
        p->run[i] = p->run[--p->n_run];
        break;
      }
  if (p->mode == ASH_PROGRESS_LIVE)
    clear_live (p);
  fprintf (p->stream, _ ("%s: %s (%.1fs)\n"), name, status, seconds);
  if (p->mode == ASH_PROGRESS_LIVE)
    draw_live (p);
  fflush (p->stream);
  pthread_mutex_unlock (&p->lock);
}

void
ash_progress_pause (struct ash_progress *p)
{
  if (p == NULL || p->mode == ASH_PROGRESS_OFF)
    return;
  pthread_mutex_lock (&p->lock);
  if (p->mode == ASH_PROGRESS_LIVE)
    {
      clear_live (p);
      fflush (p->stream);
    }
}

void
ash_progress_resume (struct ash_progress *p)
{
  if (p == NULL || p->mode == ASH_PROGRESS_OFF)
    return;
  if (p->mode == ASH_PROGRESS_LIVE)
    draw_live (p);
  pthread_mutex_unlock (&p->lock);
}

void
ash_progress_stop (struct ash_progress *p)
{
  if (p == NULL)
    return;
  pthread_mutex_lock (&p->lock);
  p->stopping = true;
  pthread_cond_signal (&p->cond);
  pthread_mutex_unlock (&p->lock);
  if (p->thread_started)
    pthread_join (p->thread, NULL);
  for (size_t i = 0; i < p->n_run; i++)
    free (p->run[i].name);
  free (p->run);
  pthread_mutex_destroy (&p->lock);
  pthread_cond_destroy (&p->cond);
  free (p);
}
