/* SPDX-License-Identifier: Apache-2.0 */
/* probe-entry.c -- the probe cache's entries read without a JSON parser.

   Only the one spelling jansson's compact dump gives is read here; every
   other text goes back to the caller, which hands it to jansson.  So the
   reader needs no error paths of its own: a document it cannot read in
   full, byte by byte as the form says, is simply not its to read.  */

#include <config.h>

#include "sandbox/probe-entry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* Append S as json_dumps writes a string (ash_escape_json_add writes
   valid UTF-8 so): -EINVAL when S is not valid UTF-8, which jansson
   would not take.  */
static int
add_string (struct ash_buf *b, const char *s)
{
  if (!ash_utf8_valid (s))
    return -EINVAL;
  ash_escape_json_add (b, s);
  return 0;
}

int
ash_probe_entry_key_text (const char *version, long long uid,
                          const char *kernel, const char *backend,
                          const char *identity, struct ash_buf *ret)
{
  ash_buf_addstr (ret, "{\"ash\":");
  if (add_string (ret, version) < 0)
    return -EINVAL;
  ash_buf_addf (ret, ",\"uid\":%lld,\"kernel\":", uid);
  if (add_string (ret, kernel) < 0)
    return -EINVAL;
  ash_buf_addstr (ret, ",\"backend\":");
  if (add_string (ret, backend) < 0)
    return -EINVAL;
  ash_buf_addstr (ret, ",\"identity\":");
  if (add_string (ret, identity) < 0)
    return -EINVAL;
  ash_buf_addch (ret, '}');
  return 0;
}

/* The cursor of a read: the text left is P up to END.  */
struct cursor
{
  const char *p, *end;
};

static bool
take (struct cursor *c, char ch)
{
  if (c->p < c->end && *c->p == ch)
    {
      c->p++;
      return true;
    }
  return false;
}

static bool
take_word (struct cursor *c, const char *w)
{
  size_t n = strlen (w);

  if ((size_t) (c->end - c->p) < n || memcmp (c->p, w, n) != 0)
    return false;
  c->p += n;
  return true;
}

/* A string at C (its opening '"' next) into RET, its length in RET->len.
   Only raw characters from U+0020 up, the two-character escapes and
   \u0001 to \u007F are read; false for anything else.  The bytes are not
   checked for UTF-8 here: json_stringn() does that.  */
static bool
read_string (struct cursor *c, struct ash_buf *ret)
{
  ash_buf_reset (ret);
  if (!take (c, '"'))
    return false;
  for (;;)
    {
      const char *start = c->p;

      while (c->p < c->end && (unsigned char) *c->p >= 0x20 && *c->p != '"'
             && *c->p != '\\')
        c->p++;
      ash_buf_add (ret, start, (size_t) (c->p - start));
      if (c->p >= c->end || (unsigned char) *c->p < 0x20)
        return false;
      if (take (c, '"'))
        return true;
      c->p++; /* the backslash */
      if (c->p >= c->end)
        return false;
      char e = *c->p++;
      switch (e)
        {
        case '"':
        case '\\':
        case '/':
          ash_buf_addch (ret, e);
          break;
        case 'b':
          ash_buf_addch (ret, '\b');
          break;
        case 'f':
          ash_buf_addch (ret, '\f');
          break;
        case 'n':
          ash_buf_addch (ret, '\n');
          break;
        case 'r':
          ash_buf_addch (ret, '\r');
          break;
        case 't':
          ash_buf_addch (ret, '\t');
          break;
        case 'u':
          {
            int v = 0;

            if (c->end - c->p < 4)
              return false;
            for (int i = 0; i < 4; i++)
              {
                int d = ash_hex_digit ((unsigned char) c->p[i]);
                if (d < 0)
                  return false;
                v = v * 16 + d;
              }
            if (v < 1 || v > 0x7f)
              return false;
            ash_buf_addch (ret, (char) v);
            c->p += 4;
          }
          break;
        default:
          return false;
        }
    }
}

/* A value of the probe object at C: a string, a small integer, true,
   false or null.  NULL for anything else.  */
static json_t *
read_value (struct cursor *c, struct ash_buf *tmp)
{
  if (c->p >= c->end)
    return NULL;
  if (*c->p == '"')
    return read_string (c, tmp) ? json_stringn (tmp->buf, tmp->len) : NULL;
  if (take_word (c, "true"))
    return json_true ();
  if (take_word (c, "false"))
    return json_false ();
  if (take_word (c, "null"))
    return json_null ();

  /* -?(0|[1-9][0-9]*), at most 18 digits (no overflow), and then the end
     of the value: a fraction or an exponent is jansson's to read.  */
  const char *start = c->p;
  bool neg = take (c, '-');
  const char *digits = c->p;
  long long v = 0;

  while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && c->p - digits < 19)
    v = v * 10 + (*c->p++ - '0');
  size_t nd = (size_t) (c->p - digits);
  if (nd == 0 || nd > 18 || (nd > 1 && digits[0] == '0') || c->p >= c->end
      || (*c->p != ',' && *c->p != '}'))
    {
      c->p = start;
      return NULL;
    }
  return json_integer (neg ? -v : v);
}

/* The object of flat members at C.  NULL for anything else, a duplicate
   name included (jansson refuses those in the cache).  */
static json_t *
read_flat_object (struct cursor *c)
{
  _cleanup_buf_ struct ash_buf name = ASH_BUF_INIT;
  _cleanup_buf_ struct ash_buf tmp = ASH_BUF_INIT;
  json_t *o;

  if (!take (c, '{'))
    return NULL;
  o = json_object ();
  if (!o)
    return NULL;
  if (take (c, '}'))
    return o;
  do
    {
      json_t *v;

      /* A name with a NUL in it is refused by jansson;
         json_object_set_new checks the UTF-8.  */
      if (!read_string (c, &name) || memchr (name.buf, '\0', name.len)
          || !take (c, ':') || !(v = read_value (c, &tmp)))
        goto fail;
      if (json_object_get (o, name.buf))
        {
          json_decref (v);
          goto fail;
        }
      /* It takes V, also when it fails.  */
      if (json_object_set_new (o, name.buf, v) < 0)
        goto fail;
    }
  while (take (c, ','));
  if (take (c, '}'))
    return o;
fail:
  json_decref (o);
  return NULL;
}

int
ash_probe_entry_read (const char *text, size_t len, const char *key_text,
                      json_t **ret_probe)
{
  struct cursor c = { text, text + len };
  json_t *probe;

  *ret_probe = NULL;
  if (!take_word (&c, "{\"key\":") || !take_word (&c, key_text)
      || !take_word (&c, ",\"probe\":"))
    return -EAGAIN;
  probe = read_flat_object (&c);
  if (!probe)
    return -EAGAIN;
  if (!take (&c, '}') || c.p != c.end)
    {
      json_decref (probe);
      return -EAGAIN;
    }
  *ret_probe = probe;
  return 0;
}
