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
#include <string.h>

#include "base/buf.h"

/* The items of one array of a document made one at a time while the
   document is written, each freed once written, so that a report of
   many findings never holds them all: ARRAY is the (empty) array that
   stands for them in the document, NEXT gives the next item (a new
   reference) or NULL after the last, RELEASE (may be NULL) frees CTX.  */
struct ash_out;
struct ash_json_gen
{
  const json_t *array;
  json_t *(*next) (void *ctx);
  void (*release) (void *ctx);
  void *ctx;
  /* When not NULL, used instead of NEXT: write the next item to O as it
     stands at nesting DEPTH (first ash_out_item_start (O, DEPTH, FIRST),
     then what ash_out_json would write for it) and return true, or
     return false, having written nothing, after the last.  For a report
     whose items are written straight from the results, without a tree
     each.  */
  bool (*write) (void *ctx, struct ash_out *o, int depth, bool first);
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
/* What the buffer of a file holds before it is written.  */
#define ASH_OUT_CHUNK ((size_t) 1 << 16)

/* The buffer's slow path: flush, write through, or grow.  */
void ash_out_add_slow (struct ash_out *o, const char *p, size_t n);
/* Append N bytes at P.  Inline, for the common case of room in the
   buffer (which holds 64 KiB from the start when it goes to a file):
   the reports call it for every token.  */
static inline void
ash_out_add (struct ash_out *o, const char *p, size_t n)
{
  if (o->b.len + n < o->b.alloc
      && (o->fd < 0 || o->b.len + n <= ASH_OUT_CHUNK))
    {
      memcpy (o->b.buf + o->b.len, p, n);
      o->b.len += n;
      o->b.buf[o->b.len] = '\0';
      return;
    }
  ash_out_add_slow (o, p, n);
}
void ash_out_addstr (struct ash_out *o, const char *s);
/* Write what the buffer holds to the descriptor (nothing in memory
   mode).  */
void ash_out_flush (struct ash_out *o);

/* V as JSON text, as if it stood at nesting DEPTH of a larger document
   (its inner lines indented by 2 * (DEPTH + 1) spaces, its closing
   bracket by 2 * DEPTH).  Any value, scalars too.  */
void ash_out_json (struct ash_out *o, const json_t *v, int depth);
/* The N bytes at T, the compact text of one value (json_dumps with
   JSON_COMPACT | JSON_ENSURE_ASCII), as ash_out_json writes that value at
   DEPTH.  */
void ash_out_packed (struct ash_out *o, const char *t, size_t n, int depth);
/* The LEN bytes of the UTF-8 string S as a JSON string.  */
void ash_out_json_string (struct ash_out *o, const char *s, size_t len);
/* V in decimal into BUF (at least 21 bytes), as "%lld" prints it,
   without a terminating NUL; returns its length.  snprintf costs the
   reports more than the rest of an integer's writing.  */
size_t ash_format_int (char *buf, long long v);
/* A line end and 2 * DEPTH spaces.  */
void ash_out_indent (struct ash_out *o, int depth);
/* What stands before an item of an array or a member of an object at
   DEPTH: a comma unless it is the FIRST, a line end and indentation.  */
void ash_out_item_start (struct ash_out *o, int depth, bool first);

/* An object written member by member, with the text ash_out_json gives
   an object of the same members in the same order:

     struct ash_out_obj w;
     ash_out_obj_begin (&w, o, depth);
     ash_out_obj_str (&w, "name", "x");
     ash_out_obj_key (&w, "inner");    (then any value at w.depth + 1)
     ash_out_obj_end (&w);

   Keys and string values are C strings (UTF-8), written with
   ash_out_json_string.  */
struct ash_out_obj
{
  struct ash_out *o;
  int depth;
  bool any;
};
void ash_out_obj_begin (struct ash_out_obj *w, struct ash_out *o, int depth);
/* The separator, the line end and indentation, and "KEY": .  */
void ash_out_obj_key (struct ash_out_obj *w, const char *key);
void ash_out_obj_str (struct ash_out_obj *w, const char *key, const char *s);
void ash_out_obj_int (struct ash_out_obj *w, const char *key, long long v);
/* KEY and V (borrowed) as ash_out_json writes it.  */
void ash_out_obj_json (struct ash_out_obj *w, const char *key,
                       const json_t *v);
void ash_out_obj_end (struct ash_out_obj *w);

/* V as JSON text (indented as above when PRETTY, else compact: no
   space or line end between tokens) and a line end, newly allocated.  */
char *ash_json_text (const json_t *v, bool pretty);
/* The same for V, whose array GEN->array is made by GEN.  */
char *ash_json_text_gen (const json_t *v, bool pretty,
                         const struct ash_json_gen *gen);

#endif
