/* SPDX-License-Identifier: Apache-2.0 */
/* log.c -- ash.log, ash.log.jsonl and the terminal.  */

#include <config.h>

#include "base/log.h"

#include <errno.h>
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

/* TV as ash.log's time stamp, "2006-01-02T15:04:05.000Z", into STAMP.  */
static void
log_stamp (const struct timeval *tv, char stamp[static 64])
{
  struct tm tm;
  gmtime_r (&tv->tv_sec, &tm);
  size_t n = strftime (stamp, 64, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf (stamp + n, 64 - n, ".%03ldZ", (long) tv->tv_usec / 1000);
}

/* NAME and the spaces that pad it to eight columns, then a space: what
   "%-8s " gives.  */
static void
add_level (struct ash_buf *b, const char *name)
{
  size_t n = strlen (name);
  ash_buf_add (b, name, n);
  ash_buf_add (b, "         ", n < 8 ? 9 - n : 1);
}

/* What every line of a level logged at one time starts with: on the
   terminal, the level padded to eight columns and a space; in ash.log,
   the time stamp and a space before that; in ash.log.jsonl, the object
   up to the message's value (the time stamp and the level name need no
   escape).  */
struct log_heads
{
  struct ash_buf term, human, json;
};

static void
log_heads_make (struct log_heads *h, enum ash_log_level level,
                const struct timeval *tv)
{
  const char *name = ash_log_level_name (level);
  char stamp[64];
  log_stamp (tv, stamp);
  add_level (&h->term, name);
  ash_buf_addstr (&h->human, stamp);
  ash_buf_addch (&h->human, ' ');
  add_level (&h->human, name);
  ash_buf_addstr (&h->json, "{\"time\":\"");
  ash_buf_addstr (&h->json, stamp);
  ash_buf_addstr (&h->json, "\",\"level\":\"");
  ash_buf_addstr (&h->json, name);
  ash_buf_addstr (&h->json, "\",\"message\":");
}

static void
log_heads_release (struct log_heads *h)
{
  ash_buf_release (&h->term);
  ash_buf_release (&h->human);
  ash_buf_release (&h->json);
}

/* Whether the N bytes of MSG are printable ASCII other than the
   quotation mark and the backslash: what ash_escape_control() and a JSON
   string both copy as they are.  */
static bool
log_plain (const char *msg, size_t n)
{
  const unsigned char *p = (const unsigned char *) msg;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint64_t x;
      memcpy (&x, p + i, sizeof x);
      if (ash_word_special (x, '"', '\\') || ash_word_special (x, 0x7f, 0x7f))
        return false;
    }
  for (; i < n; i++)
    if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '"' || p[i] == '\\')
      return false;
  return true;
}

/* Append MSG, its lines starting with H, to TERM (when SHOW), to HUMAN
   (ash.log's line) and to JSON (ash.log.jsonl's), each when the
   destination is open; SHOWN is scratch space.  Called with LOG_LOCK
   held.  */
static void
log_format (const struct log_heads *h, bool show, const char *msg,
            struct ash_buf *shown, struct ash_buf *term, struct ash_buf *human,
            struct ash_buf *json)
{
  /* The terminal and ash.log get the message with its control
     characters shown as text, so that a scanner's stderr or a file name
     cannot move the cursor, set the title or the clipboard, or start a
     line of its own; ash.log.jsonl has JSON's own escapes.  */
  size_t n = strlen (msg);
  if (log_plain (msg, n))
    {
      /* Nothing either escape would change: the message as it is.  */
      if (show)
        {
          ash_buf_add (term, h->term.buf, h->term.len);
          ash_buf_add (term, msg, n);
          ash_buf_addch (term, '\n');
        }
      if (log_fd >= 0)
        {
          ash_buf_add (human, h->human.buf, h->human.len);
          ash_buf_add (human, msg, n);
          ash_buf_addch (human, '\n');
        }
      if (jsonl_fd >= 0)
        {
          ash_buf_add (json, h->json.buf, h->json.len);
          ash_buf_addch (json, '"');
          ash_buf_add (json, msg, n);
          ash_buf_add (json, "\"}\n", 3);
        }
      return;
    }
  if (show || log_fd >= 0)
    {
      ash_buf_reset (shown);
      ash_escape_control_add (shown, msg, false);
      ash_buf_addch (shown, '\n');
    }
  if (show)
    {
      ash_buf_add (term, h->term.buf, h->term.len);
      ash_buf_add (term, shown->buf, shown->len);
    }
  if (log_fd >= 0)
    {
      ash_buf_add (human, h->human.buf, h->human.len);
      ash_buf_add (human, shown->buf, shown->len);
    }
  if (jsonl_fd >= 0)
    {
      /* Each line and its end in the same write.  */
      ash_buf_add (json, h->json.buf, h->json.len);
      ash_escape_json_add (json, msg);
      ash_buf_add (json, "}\n", 2);
    }
}

/* Write what log_format gathered, and empty the buffers.  Called with
   LOG_LOCK held.  */
static void
log_flush (struct ash_buf *term, struct ash_buf *human, struct ash_buf *json)
{
  if (term->len)
    {
      fwrite (term->buf, 1, term->len, stderr);
      fflush (stderr);
    }
  if (human->len)
    (void) ash_write_all (log_fd, human->buf, human->len);
  if (json->len)
    (void) ash_write_all (jsonl_fd, json->buf, json->len);
  ash_buf_reset (term);
  ash_buf_reset (human);
  ash_buf_reset (json);
}

static bool
log_shown (enum ash_log_level level, bool always)
{
  return always || (term_quiet ? level >= ASH_LOG_ERROR : level >= term_level);
}

static void
log_many (enum ash_log_level level, bool always, char *const *msgs, size_t n)
{
  struct timeval tv;
  struct log_heads h = { ASH_BUF_INIT, ASH_BUF_INIT, ASH_BUF_INIT };
  struct ash_buf shown = ASH_BUF_INIT, term = ASH_BUF_INIT,
                 human = ASH_BUF_INIT, json = ASH_BUF_INIT;

  if (n == 0)
    return;
  gettimeofday (&tv, NULL);
  log_heads_make (&h, level, &tv);
  pthread_mutex_lock (&log_lock);
  bool show = log_shown (level, always);
  for (size_t i = 0; i < n; i++)
    {
      log_format (&h, show, msgs[i], &shown, &term, &human, &json);
      /* Written every 64 KiB or so: the memory stays bounded however
         many lines there are.  */
      if (term.len + human.len + json.len >= ((size_t) 64 << 10))
        log_flush (&term, &human, &json);
    }
  log_flush (&term, &human, &json);
  pthread_mutex_unlock (&log_lock);
  log_heads_release (&h);
  ash_buf_release (&shown);
  ash_buf_release (&term);
  ash_buf_release (&human);
  ash_buf_release (&json);
}

static void
log_emit (enum ash_log_level level, bool always, const char *msg)
{
  log_many (level, always, (char *const *) &msg, 1);
}

void
ash_log_many (enum ash_log_level level, char *const *msgs, size_t n)
{
  log_many (level, false, msgs, n);
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
