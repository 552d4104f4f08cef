/* SPDX-License-Identifier: Apache-2.0 */
/* error.h -- errors returned to the caller, never printed by the library.

   Library functions return 0 or a negative errno and, when the caller passes
   a struct ash_error, fill it with what the user needs to know: a message,
   and where known the file, line and column it is about.  The command line
   layer decides what to print and how to exit.  */

#ifndef ASH_ERROR_H
#define ASH_ERROR_H

#include "base/util.h"

struct ash_error
{
  char *message;    /* owned; NULL when no error was recorded */
  char *path;       /* owned; file the error is about, or NULL */
  int line;         /* 1-based; 0 when unknown */
  int column;       /* 1-based; 0 when unknown */
  const char *kind; /* static class name ("OutputLinkRefused"), or NULL */
};

#define ASH_ERROR_INIT { NULL, NULL, 0, 0, NULL }

void ash_error_init (struct ash_error *e);
/* Safe on a zeroed error and on one already released.  */
void ash_error_release (struct ash_error *e);
#define _cleanup_error_ _cleanup_ (ash_error_release)
/* Record a message (replacing any earlier one) and return ERR, which should
   be a negative errno, so that "return ash_error_set (e, -EINVAL, ...)"
   reads naturally.  E may be NULL.  */
int ash_error_set (struct ash_error *e, int err, const char *fmt, ...)
  _printf_ (3, 4);
int ash_error_set_at (struct ash_error *e, int err, const char *path,
                      int line, int column, const char *fmt, ...)
  _printf_ (6, 7);
/* Prefix the current message with "PREFIX: ".  */
void ash_error_prefix (struct ash_error *e, const char *fmt, ...)
  _printf_ (2, 3);
/* Move the contents of SRC into DST (DST released first).  */
void ash_error_move (struct ash_error *dst, struct ash_error *src);
/* "path:line:column: message", or just the message.  Newly allocated.  */
char *ash_error_format (const struct ash_error *e);

#endif
