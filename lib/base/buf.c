/* SPDX-License-Identifier: Apache-2.0 */
/* buf.c -- a growable string buffer.  */

#include <config.h>

#include "base/buf.h"

#include <errno.h>
#include <stdio.h>

char ash_buf_empty[1];

void
ash_buf_init (struct ash_buf *b)
{
  *b = (struct ash_buf) ASH_BUF_INIT;
}

void
ash_buf_release (struct ash_buf *b)
{
  if (b->alloc)
    free (b->buf);
  size_t max = b->max;
  ash_buf_init (b);
  b->max = max;
}

void
ash_buf_reset (struct ash_buf *b)
{
  b->len = 0;
  if (b->alloc)
    b->buf[0] = '\0';
}

char *
ash_buf_detach (struct ash_buf *b)
{
  char *s = b->alloc ? b->buf : xstrdup ("");
  size_t max = b->max;
  ash_buf_init (b);
  b->max = max;
  return s;
}

static int
buf_grow (struct ash_buf *b, size_t extra)
{
  if (extra > SIZE_MAX - b->len - 1)
    return -EFBIG;
  size_t need = b->len + extra + 1;
  if (b->max && b->len + extra > b->max)
    return -EFBIG;
  if (need <= b->alloc)
    return 0;
  size_t n = b->alloc ? b->alloc : 64;
  while (n < need)
    n = n < SIZE_MAX / 2 ? n * 2 : need;
  if (b->alloc)
    b->buf = xrealloc (b->buf, n);
  else
    {
      b->buf = xmalloc (n);
      b->buf[0] = '\0';
    }
  b->alloc = n;
  return 0;
}

int
ash_buf_add_grow (struct ash_buf *b, const void *data, size_t len)
{
  int r = buf_grow (b, len);
  if (r < 0)
    return r;
  memcpy (b->buf + b->len, data, len);
  b->len += len;
  b->buf[b->len] = '\0';
  return 0;
}

int
ash_buf_vaddf (struct ash_buf *b, const char *fmt, va_list ap)
{
  /* Formatted in place when it fits (no string of its own), else again
     once the buffer has grown.  */
  va_list aq;
  size_t room = b->alloc - b->len;
  va_copy (aq, ap);
  int n = vsnprintf (b->alloc ? b->buf + b->len : NULL, b->alloc ? room : 0,
                     fmt, aq);
  va_end (aq);
  if (n < 0)
    return -EINVAL;
  if (b->alloc && (size_t) n < room && (b->max == 0 || b->len + n <= b->max))
    {
      b->len += (size_t) n;
      return 0;
    }
  if (b->alloc)
    b->buf[b->len] = '\0';
  int r = buf_grow (b, (size_t) n);
  if (r < 0)
    return r;
  vsnprintf (b->buf + b->len, (size_t) n + 1, fmt, ap);
  b->len += (size_t) n;
  return 0;
}

int
ash_buf_addf (struct ash_buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int r = ash_buf_vaddf (b, fmt, ap);
  va_end (ap);
  return r;
}

int
ash_buf_read_fd (struct ash_buf *b, int fd)
{
  char chunk[8192];
  for (;;)
    {
      ssize_t n = read (fd, chunk, sizeof chunk);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return -errno;
        }
      if (n == 0)
        return 0;
      int r = ash_buf_add (b, chunk, (size_t) n);
      if (r < 0)
        return r;
    }
}
