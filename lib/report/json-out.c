/* SPDX-License-Identifier: Apache-2.0 */
/* json-out.c -- JSON text written as it is produced.  */

#include <config.h>

#include "report/json-out.h"

#include "scan/packed.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

#define OUT_CHUNK ASH_OUT_CHUNK

void
ash_json_gen_release (struct ash_json_gen *g)
{
  if (g->release)
    g->release (g->ctx);
  *g = (struct ash_json_gen){ 0 };
}

void
ash_out_init_fd (struct ash_out *o, int fd)
{
  *o = (struct ash_out) ASH_OUT_MEMORY_INIT;
  o->fd = fd;
  /* Allocated once: the buffer never grows past it.  */
  o->b.buf = xmalloc (OUT_CHUNK + 1);
  o->b.buf[0] = '\0';
  o->b.alloc = OUT_CHUNK + 1;
}

void
ash_out_flush (struct ash_out *o)
{
  if (o->fd < 0)
    return;
  if (o->b.len && o->error == 0
      && ash_write_all (o->fd, o->b.buf, o->b.len) < 0)
    o->error = errno ? -errno : -EIO;
  o->b.len = 0;
}

void
ash_out_add_slow (struct ash_out *o, const char *p, size_t n)
{
  if (o->b.len + n < o->b.alloc && (o->fd < 0 || o->b.len + n <= OUT_CHUNK))
    {
      memcpy (o->b.buf + o->b.len, p, n);
      o->b.len += n;
      o->b.buf[o->b.len] = '\0';
      return;
    }
  if (o->fd >= 0 && o->b.len + n > OUT_CHUNK)
    {
      ash_out_flush (o);
      if (n > OUT_CHUNK)
        {
          if (o->error == 0 && ash_write_all (o->fd, p, n) < 0)
            o->error = errno ? -errno : -EIO;
          return;
        }
    }
  if (ash_buf_add (&o->b, p, n) < 0)
    ash_oom ();
}

void
ash_out_addstr (struct ash_out *o, const char *s)
{
  ash_out_add (o, s, strlen (s));
}

void
ash_out_indent (struct ash_out *o, int depth)
{
  /* A line end and up to 32 levels of indentation in one piece.  */
  static const char nl[] = "\n"
                           "                                "
                           "                                ";
  if (o->compact)
    return;
  size_t n = (size_t) depth * 2;
  if (n <= sizeof nl - 2)
    {
      ash_out_add (o, nl, n + 1);
      return;
    }
  ash_out_add (o, nl, 1);
  while (n > 0)
    {
      size_t k = n < sizeof nl - 2 ? n : sizeof nl - 2;
      ash_out_add (o, nl + 1, k);
      n -= k;
    }
}

/* The code point of the UTF-8 sequence at P (at most N bytes) and its
   length in *RET_LEN; a byte that starts no valid sequence is taken
   alone, as its own value.  jansson holds valid UTF-8 only, so that case
   is for safety, not for output anyone compares.  */
static unsigned
utf8_next (const unsigned char *p, size_t n, size_t *ret_len)
{
  unsigned c = p[0];
  size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (len == 1 || len > n)
    {
      *ret_len = 1;
      return c;
    }
  unsigned cp = c & (0x3f >> (len - 1));
  for (size_t i = 1; i < len; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        {
          *ret_len = 1;
          return c;
        }
      cp = (cp << 6) | (p[i] & 0x3f);
    }
  *ret_len = len;
  return cp;
}

size_t
ash_format_int (char *buf, long long v)
{
  char tmp[24];
  size_t n = 0, k = 0;
  /* The magnitude as unsigned, so that LLONG_MIN has one too.  */
  unsigned long long u
    = v < 0 ? -(unsigned long long) v : (unsigned long long) v;
  do
    tmp[n++] = (char) ('0' + u % 10);
  while ((u /= 10) > 0);
  if (v < 0)
    buf[k++] = '-';
  while (n > 0)
    buf[k++] = tmp[--n];
  return k;
}

/* The bytes a JSON string holds as they are: printable ASCII but the
   quote and the backslash (DEL included, as json_dumps leaves it).  */
static const bool plain[256] = {
  [0x20 ... 0x21] = true,
  [0x23 ... 0x5b] = true,
  [0x5d ... 0x7f] = true,
};

/* How many of the N bytes at P need no escape, from the first: eight
   at a time while none is a quote, a backslash, a control character or
   outside ASCII, then one at a time.  */
static size_t
plain_len (const unsigned char *p, size_t n)
{
  size_t i = 0;
  for (; n - i >= 8; i += 8)
    {
      uint64_t x;
      memcpy (&x, p + i, 8);
      if (ash_word_special (x, '"', '\\'))
        break;
    }
  while (i < n && plain[p[i]])
    i++;
  return i;
}

static bool
all_plain (const unsigned char *s, size_t len)
{
  return plain_len (s, len) == len;
}

void
ash_out_json_string (struct ash_out *o, const char *s, size_t len)
{
  const unsigned char *p = (const unsigned char *) s, *end = p + len;
  /* Most strings need no escape and fit the buffer: written at once,
     with their quotes.  */
  if (len + 2 < o->b.alloc - o->b.len
      && (o->fd < 0 || o->b.len + len + 2 <= ASH_OUT_CHUNK)
      && all_plain (p, len))
    {
      char *d = o->b.buf + o->b.len;
      d[0] = '"';
      memcpy (d + 1, s, len);
      d[len + 1] = '"';
      o->b.len += len + 2;
      o->b.buf[o->b.len] = '\0';
      return;
    }
  ash_out_add (o, "\"", 1);
  while (p < end)
    {
      const unsigned char *run = p;
      p += plain_len (p, (size_t) (end - p));
      if (p > run)
        ash_out_add (o, (const char *) run, (size_t) (p - run));
      if (p == end)
        break;
      char seq[16];
      size_t n = 2;
      switch (*p)
        {
        case '"':
          memcpy (seq, "\\\"", 2);
          break;
        case '\\':
          memcpy (seq, "\\\\", 2);
          break;
        case '\b':
          memcpy (seq, "\\b", 2);
          break;
        case '\f':
          memcpy (seq, "\\f", 2);
          break;
        case '\n':
          memcpy (seq, "\\n", 2);
          break;
        case '\r':
          memcpy (seq, "\\r", 2);
          break;
        case '\t':
          memcpy (seq, "\\t", 2);
          break;
        default:
          {
            size_t l;
            unsigned cp = utf8_next (p, (size_t) (end - p), &l);
            if (cp < 0x10000)
              n = (size_t) snprintf (seq, sizeof seq, "\\u%04X", cp);
            else
              {
                cp -= 0x10000;
                n = (size_t) snprintf (seq, sizeof seq, "\\u%04X\\u%04X",
                                       0xD800 | ((cp >> 10) & 0x3ff),
                                       0xDC00 | (cp & 0x3ff));
              }
            ash_out_add (o, seq, n);
            p += l;
            continue;
          }
        }
      ash_out_add (o, seq, n);
      p++;
    }
  ash_out_add (o, "\"", 1);
}

void
ash_out_packed (struct ash_out *o, const char *t, size_t n, int depth)
{
  if (o->compact)
    {
      ash_out_add (o, t, n);
      return;
    }
  /* The compact text again with the line ends, the indentation and the
     space after a colon that JSON_INDENT (2) writes: only between
     tokens, never inside a string, and an empty array or object stays
     "[]" or "{}".  */
  size_t i = 0, from = 0;
  int d = depth;
  while (i < n)
    switch (t[i])
      {
      case '"':
        for (i++; i < n && t[i] != '"'; i++)
          if (t[i] == '\\')
            i++;
        i++;
        break;
      case '{':
      case '[':
        if (i + 1 < n && (t[i + 1] == '}' || t[i + 1] == ']'))
          {
            i += 2;
            break;
          }
        ash_out_add (o, t + from, i + 1 - from);
        ash_out_indent (o, ++d);
        from = ++i;
        break;
      case '}':
      case ']':
        ash_out_add (o, t + from, i - from);
        ash_out_indent (o, --d);
        from = i++;
        break;
      case ',':
        ash_out_add (o, t + from, i + 1 - from);
        ash_out_indent (o, d);
        from = ++i;
        break;
      case ':':
        ash_out_add (o, t + from, i + 1 - from);
        ash_out_add (o, " ", 1);
        from = ++i;
        break;
      default:
        i++;
      }
  ash_out_add (o, t + from, n - from);
}

void
ash_out_json (struct ash_out *o, const json_t *v, int depth)
{
  char num[64];
  switch (json_typeof (v))
    {
    case JSON_NULL:
      ash_out_add (o, "null", 4);
      return;
    case JSON_TRUE:
      ash_out_add (o, "true", 4);
      return;
    case JSON_FALSE:
      ash_out_add (o, "false", 5);
      return;
    case JSON_INTEGER:
      {
        size_t n = ash_format_int (num, (long long) json_integer_value (v));
        ash_out_add (o, num, n);
        return;
      }
    case JSON_REAL:
      {
        /* Rare (durations, scores): jansson's own text, its precision
           and its handling of the locale's decimal point.  */
        char *t = json_dumps (v, JSON_ENCODE_ANY);
        if (t == NULL)
          ash_oom ();
        ash_out_addstr (o, t);
        free (t);
        return;
      }
    case JSON_STRING:
      ash_out_json_string (o, json_string_value (v), json_string_length (v));
      return;
    case JSON_ARRAY:
      if (o->gen && v == o->gen->array && o->gen->write)
        {
          /* "[" then "]" is the empty array's "[]"; each item the
             generator writes starts with its separator and line.  */
          ash_out_add (o, "[", 1);
          bool any = false;
          while (o->gen->write (o->gen->ctx, o, depth + 1, !any))
            any = true;
          if (any)
            ash_out_indent (o, depth);
          ash_out_add (o, "]", 1);
          return;
        }
      if (o->gen && v == o->gen->array)
        {
          json_t *item = o->gen->next (o->gen->ctx);
          if (item == NULL)
            {
              ash_out_add (o, "[]", 2);
              return;
            }
          ash_out_add (o, "[", 1);
          for (bool first = true; item; first = false)
            {
              if (!first)
                ash_out_add (o, ",", 1);
              ash_out_indent (o, depth + 1);
              ash_out_json (o, item, depth + 1);
              json_decref (item);
              item = o->gen->next (o->gen->ctx);
            }
          ash_out_indent (o, depth);
          ash_out_add (o, "]", 1);
          return;
        }
      else
        {
          /* A run's results kept as text (scan/packed.h) come first.  */
          const struct ash_packed *p = ash_packed_of (v);
          size_t np = ash_packed_count (p);
          size_t n = json_array_size (v);
          if (n + np == 0)
            {
              ash_out_add (o, "[]", 2);
              return;
            }
          ash_out_add (o, "[", 1);
          for (size_t i = 0; i < np + n; i++)
            {
              if (i)
                ash_out_add (o, ",", 1);
              ash_out_indent (o, depth + 1);
              if (i < np)
                {
                  size_t len;
                  const char *t = ash_packed_text (p, i, &len);
                  ash_out_packed (o, t, len, depth + 1);
                }
              else
                ash_out_json (o, json_array_get (v, i - np), depth + 1);
            }
          ash_out_indent (o, depth);
          ash_out_add (o, "]", 1);
          return;
        }
    case JSON_OBJECT:
      {
        void *it = json_object_iter ((json_t *) v);
        if (it == NULL)
          {
            ash_out_add (o, "{}", 2);
            return;
          }
        ash_out_add (o, "{", 1);
        for (bool first = true; it;
             it = json_object_iter_next ((json_t *) v, it), first = false)
          {
            if (!first)
              ash_out_add (o, ",", 1);
            ash_out_indent (o, depth + 1);
            const char *key = json_object_iter_key (it);
#if JANSSON_VERSION_HEX >= 0x020e00
            /* A key may hold a NUL since jansson 2.14.  */
            ash_out_json_string (o, key, json_object_iter_key_len (it));
#else
            ash_out_json_string (o, key, strlen (key));
#endif
            ash_out_add (o, ": ", o->compact ? 1 : 2);
            ash_out_json (o, json_object_iter_value (it), depth + 1);
          }
        ash_out_indent (o, depth);
        ash_out_add (o, "}", 1);
        return;
      }
    }
}

void
ash_out_item_start (struct ash_out *o, int depth, bool first)
{
  if (!first)
    ash_out_add (o, ",", 1);
  ash_out_indent (o, depth);
}

void
ash_out_obj_begin (struct ash_out_obj *w, struct ash_out *o, int depth)
{
  *w = (struct ash_out_obj){ o, depth, false };
  ash_out_add (o, "{", 1);
}

void
ash_out_obj_key (struct ash_out_obj *w, const char *key)
{
  struct ash_out *o = w->o;
  size_t klen = strlen (key);
  /* The separator, the line end and indentation, the key and its colon
     in one piece, when the key needs no escape and it all fits: what
     the appends below write.  */
  size_t indent = o->compact ? 0 : 2 * (size_t) (w->depth + 1);
  size_t need = (w->any ? 1 : 0) + (o->compact ? 0 : 1 + indent) + klen
                + (o->compact ? 3 : 4);
  if (w->depth >= 0 && need < o->b.alloc - o->b.len
      && (o->fd < 0 || o->b.len + need <= ASH_OUT_CHUNK)
      && all_plain ((const unsigned char *) key, klen))
    {
      char *d = o->b.buf + o->b.len;
      if (w->any)
        *d++ = ',';
      if (!o->compact)
        {
          *d++ = '\n';
          memset (d, ' ', indent);
          d += indent;
        }
      *d++ = '"';
      memcpy (d, key, klen);
      d += klen;
      *d++ = '"';
      *d++ = ':';
      if (!o->compact)
        *d++ = ' ';
      *d = '\0';
      o->b.len = (size_t) (d - o->b.buf);
      w->any = true;
      return;
    }
  ash_out_item_start (o, w->depth + 1, !w->any);
  w->any = true;
  ash_out_json_string (o, key, klen);
  ash_out_add (o, ": ", o->compact ? 1 : 2);
}

void
ash_out_obj_str (struct ash_out_obj *w, const char *key, const char *s)
{
  ash_out_obj_key (w, key);
  ash_out_json_string (w->o, s, strlen (s));
}

void
ash_out_obj_int (struct ash_out_obj *w, const char *key, long long v)
{
  char num[32];
  ash_out_obj_key (w, key);
  size_t n = ash_format_int (num, v);
  ash_out_add (w->o, num, n);
}

void
ash_out_obj_json (struct ash_out_obj *w, const char *key, const json_t *v)
{
  ash_out_obj_key (w, key);
  ash_out_json (w->o, v, w->depth + 1);
}

void
ash_out_obj_end (struct ash_out_obj *w)
{
  /* "{" then "}" is the empty object's "{}", as ash_out_json writes it.  */
  if (w->any)
    ash_out_indent (w->o, w->depth);
  ash_out_add (w->o, "}", 1);
}

char *
ash_json_text (const json_t *v, bool pretty)
{
  return ash_json_text_gen (v, pretty, NULL);
}

char *
ash_json_text_gen (const json_t *v, bool pretty,
                   const struct ash_json_gen *gen)
{
  struct ash_out o = ASH_OUT_MEMORY_INIT;
  o.compact = !pretty;
  o.gen = gen;
  ash_out_json (&o, v, 0);
  ash_out_add (&o, "\n", 1);
  return ash_buf_detach (&o.b);
}
