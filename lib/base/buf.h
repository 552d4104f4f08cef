/* SPDX-License-Identifier: Apache-2.0 */
/* buf.h -- a growable string buffer.

   Invariants: BUF is never NULL (an empty buffer points at a static empty
   string until the first write), BUF[LEN] is always NUL, and the only way to
   take ownership of the bytes is ash_buf_detach().  A buffer may carry a
   maximum size (MAX, 0 for none): appends past it fail with -EFBIG and leave
   the buffer as it was, so untrusted input cannot grow memory without
   bound.  */

#ifndef ASH_BUF_H
#define ASH_BUF_H

#include "base/util.h"

struct ash_buf
{
  char *buf;
  size_t len;
  size_t alloc;
  size_t max; /* 0: unbounded */
};

extern char ash_buf_empty[];
#define ASH_BUF_INIT                                                          \
  {                                                                           \
    ash_buf_empty, 0, 0, 0                                                    \
  }

void ash_buf_init (struct ash_buf *b);
/* Safe on a zeroed buffer and on one already released.  */
void ash_buf_release (struct ash_buf *b);
#define _cleanup_buf_ _cleanup_ (ash_buf_release)
void ash_buf_reset (struct ash_buf *b);
/* Give the caller the string (never NULL); the buffer is reset.  */
char *ash_buf_detach (struct ash_buf *b);
/* Append LEN bytes at DATA, S, or C.  The common case, where there is
   room for them and the NUL (and the maximum allows them), is inline;
   ash_buf_add_grow() does the rest.  */
int ash_buf_add_grow (struct ash_buf *b, const void *data, size_t len);

static inline int
ash_buf_add (struct ash_buf *b, const void *data, size_t len)
{
  if (len < b->alloc - b->len && (b->max == 0 || b->len + len <= b->max))
    {
      memcpy (b->buf + b->len, data, len);
      b->len += len;
      b->buf[b->len] = '\0';
      return 0;
    }
  return ash_buf_add_grow (b, data, len);
}

static inline int
ash_buf_addstr (struct ash_buf *b, const char *s)
{
  return ash_buf_add (b, s, strlen (s));
}

static inline int
ash_buf_addch (struct ash_buf *b, char c)
{
  return ash_buf_add (b, &c, 1);
}
int ash_buf_addf (struct ash_buf *b, const char *fmt, ...) _printf_ (2, 3);
int ash_buf_vaddf (struct ash_buf *b, const char *fmt, va_list ap)
  _printf_ (2, 0);
/* Read all of FD (until EOF) into B.  */
int ash_buf_read_fd (struct ash_buf *b, int fd);

#endif
