/* SPDX-License-Identifier: Apache-2.0 */
/* log.c -- ash.log, ash.log.jsonl and the terminal.  */

#include <config.h>

#include "base/log.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/util.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static enum ash_log_level term_level = ASH_LOG_INFO;
static bool term_quiet;
static int log_fd = -1;
static int jsonl_fd = -1;

static const struct
{
  enum ash_log_level level;
  const char *name;
} level_names[] = {
  { ASH_LOG_DEBUG, "DEBUG" }, { ASH_LOG_VERBOSE, "VERBOSE" },
  { ASH_LOG_INFO, "INFO" },   { ASH_LOG_WARNING, "WARNING" },
  { ASH_LOG_ERROR, "ERROR" }, { ASH_LOG_CRITICAL, "CRITICAL" },
};

const char *
ash_log_level_name (enum ash_log_level level)
{
  for (size_t i = 0; i < ARRAY_SIZE (level_names); i++)
    if (level_names[i].level == level)
      return level_names[i].name;
  return "INFO";
}

int
ash_log_level_parse (const char *s, enum ash_log_level *ret)
{
  for (size_t i = 0; i < ARRAY_SIZE (level_names); i++)
    if (strcasecmp (s, level_names[i].name) == 0)
      {
        *ret = level_names[i].level;
        return 0;
      }
  if (strcasecmp (s, "WARN") == 0)
    {
      *ret = ASH_LOG_WARNING;
      return 0;
    }
  return -EINVAL;
}

void
ash_log_setup (enum ash_log_level level, bool quiet, int color)
{
  (void) color;
  pthread_mutex_lock (&log_lock);
  term_level = level;
  term_quiet = quiet;
  pthread_mutex_unlock (&log_lock);
}

void
ash_log_attach (int human_fd, int json_fd)
{
  pthread_mutex_lock (&log_lock);
  if (log_fd >= 0)
    ash_close (log_fd);
  if (jsonl_fd >= 0)
    ash_close (jsonl_fd);
  log_fd = human_fd;
  jsonl_fd = json_fd;
  pthread_mutex_unlock (&log_lock);
}

void
ash_log_close (void)
{
  ash_log_attach (-1, -1);
}

static void
log_emit (enum ash_log_level level, bool always, const char *msg)
{
  const char *name = ash_log_level_name (level);
  struct timeval tv;
  struct tm tm;
  char stamp[64];

  gettimeofday (&tv, NULL);
  gmtime_r (&tv.tv_sec, &tm);
  strftime (stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);

  /* The terminal and ash.log get the message with its control
     characters shown as text, so that a scanner's stderr or a file name
     cannot move the cursor, set the title or the clipboard, or start a
     line of its own; ash.log.jsonl has JSON's own escapes.  */
  _cleanup_free_ char *shown = ash_escape_control (msg);
  pthread_mutex_lock (&log_lock);
  bool show
    = always || (term_quiet ? level >= ASH_LOG_ERROR : level >= term_level);
  if (show)
    {
      fprintf (stderr, "%-8s %s\n", name, shown);
      fflush (stderr);
    }
  if (log_fd >= 0)
    {
      _cleanup_free_ char *line
        = xasprintf ("%s.%03ldZ %-8s %s\n", stamp, (long) tv.tv_usec / 1000,
                     name, shown);
      (void) ash_write_all (log_fd, line, strlen (line));
    }
  if (jsonl_fd >= 0)
    {
      _cleanup_free_ char *ts
        = xasprintf ("%s.%03ldZ", stamp, (long) tv.tv_usec / 1000);
      json_t *o = json_pack ("{s:s, s:s, s:s}", "time", ts, "level", name,
                             "message", msg);
      if (o)
        {
          char *s = json_dumps (o, JSON_COMPACT);
          if (s)
            {
              /* One write per line: the line and its end together.  */
              _cleanup_free_ char *line = xasprintf ("%s\n", s);
              (void) ash_write_all (jsonl_fd, line, strlen (line));
              free (s);
            }
          json_decref (o);
        }
    }
  pthread_mutex_unlock (&log_lock);
}

void
ash_log (enum ash_log_level level, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *msg = xvasprintf (fmt, ap);
  va_end (ap);
  log_emit (level, false, msg);
}

void
ash_log_always (enum ash_log_level level, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *msg = xvasprintf (fmt, ap);
  va_end (ap);
  log_emit (level, true, msg);
}
