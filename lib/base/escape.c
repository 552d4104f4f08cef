/* SPDX-License-Identifier: Apache-2.0 */
/* escape.c -- control characters shown as text.  */

#include <config.h>

#include "base/escape.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at P (1 to 4) and its code
   point, or 0 when P does not start one.  Overlong forms and surrogates
   are not valid.  */
static size_t
utf8_seq (const unsigned char *p, unsigned *ret_cp)
{
  unsigned cp;
  size_t n;
  if (p[0] < 0x80)
    {
      *ret_cp = p[0];
      return 1;
    }
  if (p[0] >= 0xc2 && p[0] <= 0xdf)
    cp = p[0] & 0x1f, n = 2;
  else if (p[0] >= 0xe0 && p[0] <= 0xef)
    cp = p[0] & 0x0f, n = 3;
  else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    cp = p[0] & 0x07, n = 4;
  else
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))
      || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  *ret_cp = cp;
  return n;
}

static bool
shown_as_code (unsigned cp)
{
  return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e)
         || (cp >= 0x2066 && cp <= 0x2069);
}

/* Bytes that stand for themselves, outside a multi-byte sequence:
   printable ASCII in ash_escape_control's text (bit 1), and that but the
   quotation mark and the backslash in a JSON string (bit 2).  */
static const unsigned char plain[256] = {
  [0x20 ... 0x21] = 3, ['"'] = 1,           [0x23 ... 0x5b] = 3,
  ['\\'] = 1,          [0x5d ... 0x7e] = 3,
};

static inline bool
plain_ascii (unsigned char c)
{
  return plain[c] & 1;
}

static inline bool
plain_json (unsigned char c)
{
  return plain[c] & 2;
}

/* How many of the N bytes at P stand for themselves in ash_escape_control
   (JSON false) or in a JSON string (JSON true), from the first.  */
static size_t
plain_run (const unsigned char *p, size_t n, bool json)
{
  /* Control: 0x7f is the one byte to stop at past the ranges; JSON: the
     quotation mark and the backslash (a 0x7f passes in a word, since the
     byte-by-byte path writes it as it is too).  */
  unsigned char a = json ? '"' : 0x7f, b = json ? '\\' : 0x7f;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint64_t x;
      memcpy (&x, p + i, sizeof x);
      if (ash_word_special (x, a, b))
        break;
    }
  if (json)
    while (i < n && plain_json (p[i]))
      i++;
  else
    while (i < n && plain_ascii (p[i]))
      i++;
  return i;
}

bool
ash_utf8_valid (const char *s)
{
  unsigned cp;
  for (const unsigned char *p = (const unsigned char *) s; *p;)
    {
      size_t n = utf8_seq (p, &cp);
      if (n == 0)
        return false;
      p += n;
    }
  return true;
}

void
ash_escape_control_add (struct ash_buf *b, const char *s, bool keep_tabs)
{
  const unsigned char *p = (const unsigned char *) (s ? s : "");
  const unsigned char *end = p + strlen ((const char *) p);
  while (p < end)
    {
      /* A run of printable ASCII, the whole of most messages, copied at
         once.  */
      const unsigned char *run = p;
      p += plain_run (p, (size_t) (end - p), false);
      if (p != run)
        ash_buf_add (b, run, (size_t) (p - run));
      if (p == end)
        break;
      unsigned cp;
      size_t n = utf8_seq (p, &cp);
      if (n == 0)
        {
          ash_buf_addf (b, "\\x%02x", *p);
          p++;
          continue;
        }
      if (n == 1 && (cp < 0x20 || cp == 0x7f))
        {
          switch (cp)
            {
            case 0x1b:
              ash_buf_addstr (b, "\\e");
              break;
            case '\n':
              ash_buf_addstr (b, "\\n");
              break;
            case '\r':
              ash_buf_addstr (b, "\\r");
              break;
            case '\t':
              ash_buf_addstr (b, keep_tabs ? "\t" : "\\t");
              break;
            default:
              ash_buf_addf (b, "\\x%02x", cp);
            }
        }
      else if (shown_as_code (cp))
        ash_buf_addf (b, "\\u%04X", cp);
      else
        ash_buf_add (b, p, n);
      p += n;
    }
}

void
ash_escape_json_add (struct ash_buf *b, const char *s)
{
  static const char hex[] = "0123456789ABCDEF";
  const unsigned char *p = (const unsigned char *) (s ? s : "");
  const unsigned char *end = p + strlen ((const char *) p);
  ash_buf_addch (b, '"');
  while (p < end)
    {
      const unsigned char *run = p;
      p += plain_run (p, (size_t) (end - p), true);
      if (p != run)
        ash_buf_add (b, run, (size_t) (p - run));
      if (p == end)
        break;
      unsigned cp;
      size_t n = utf8_seq (p, &cp);
      if (n == 0)
        {
          /* Not UTF-8, which a JSON text cannot hold: shown as ash.log
             shows it.  */
          static const char lower[] = "0123456789abcdef";
          char e[5] = { '\\', '\\', 'x', lower[*p >> 4], lower[*p & 15] };
          ash_buf_add (b, e, sizeof e);
          p++;
          continue;
        }
      if (n > 1 || cp == 0x7f)
        ash_buf_add (b, p, n);
      else
        switch (cp)
          {
          case '"':
            ash_buf_addstr (b, "\\\"");
            break;
          case '\\':
            ash_buf_addstr (b, "\\\\");
            break;
          case '\b':
            ash_buf_addstr (b, "\\b");
            break;
          case '\f':
            ash_buf_addstr (b, "\\f");
            break;
          case '\n':
            ash_buf_addstr (b, "\\n");
            break;
          case '\r':
            ash_buf_addstr (b, "\\r");
            break;
          case '\t':
            ash_buf_addstr (b, "\\t");
            break;
          default:
            {
              char u[6] = { '\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15] };
              ash_buf_add (b, u, sizeof u);
            }
          }
      p += n;
    }
  ash_buf_addch (b, '"');
}

char *
ash_escape_control (const char *s)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_escape_control_add (&b, s, false);
  return ash_buf_detach (&b);
}

bool
ash_has_control (const char *s)
{
  _cleanup_free_ char *e = ash_escape_control (s);
  return !streq (e, s ? s : "");
}
