/* SPDX-License-Identifier: Apache-2.0 */
/* json-out.h -- JSON text written as it is produced: to a buffer, or
   through a buffer to a file descriptor, so that a report as large as
   its findings is never held whole in memory.

   The text is the one json_dumps (V, JSON_INDENT (2) | JSON_ENSURE_ASCII)
   gives for the same value, byte for byte: members in their order, two
   spaces an indentation level, ": " between a key and its value, every
   character outside ASCII and every control character as a \u escape
   (upper-case hexadecimal, a surrogate pair outside the BMP), reals as
   jansson prints them.  A reader of the reports cannot tell which of the
   two wrote them.  */

#ifndef ASH_JSON_OUT_H
#define ASH_JSON_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/* The items of one array of a document made one at a time while the
   document is written, each freed once written, so that a report of
   many findings never holds them all: ARRAY is the (empty) array that
   stands for them in the document, NEXT gives the next item (a new
   reference) or NULL after the last, RELEASE (may be NULL) frees CTX.  */
struct ash_json_gen
{
  const json_t *array;
  json_t *(*next) (void *ctx);
  void (*release) (void *ctx);
  void *ctx;
};

/* Free what G holds (safe on a zeroed one).  */
void ash_json_gen_release (struct ash_json_gen *g);

struct ash_out
{
  struct ash_buf b;
  int fd;       /* -1: everything stays in B */
  int error;    /* the first write error (a negative errno), or 0 */
  bool compact; /* no space or line end between tokens, as
                   JSON_COMPACT */
  const struct ash_json_gen *gen; /* or NULL */
};

/* To memory; ash_buf_detach (&O->b) takes the text.  */
#define ASH_OUT_MEMORY_INIT                                                   \
  {                                                                           \
    ASH_BUF_INIT, -1, 0, false, NULL                                          \
  }

/* To FD (borrowed), through a buffer of 64 KiB.  */
void ash_out_init_fd (struct ash_out *o, int fd);
void ash_out_add (struct ash_out *o, const char *p, size_t n);
void ash_out_addstr (struct ash_out *o, const char *s);
/* Write what the buffer holds to the descriptor (nothing in memory
   mode).  */
void ash_out_flush (struct ash_out *o);

/* V as JSON text, as if it stood at nesting DEPTH of a larger document
   (its inner lines indented by 2 * (DEPTH + 1) spaces, its closing
   bracket by 2 * DEPTH).  Any value, scalars too.  */
void ash_out_json (struct ash_out *o, const json_t *v, int depth);
/* The LEN bytes of the UTF-8 string S as a JSON string.  */
void ash_out_json_string (struct ash_out *o, const char *s, size_t len);
/* A line end and 2 * DEPTH spaces.  */
void ash_out_indent (struct ash_out *o, int depth);

/* V as JSON text (indented as above when PRETTY, else compact: no
   space or line end between tokens) and a line end, newly allocated.  */
char *ash_json_text (const json_t *v, bool pretty);
/* The same for V, whose array GEN->array is made by GEN.  */
char *ash_json_text_gen (const json_t *v, bool pretty,
                         const struct ash_json_gen *gen);

#endif
