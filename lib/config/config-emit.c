/* SPDX-License-Identifier: Apache-2.0 */
/* config-emit.c -- the resolved configuration as YAML or JSON text.  */

#include <config.h>

#include "config/ashconfig.h"

#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/util.h"

/* The code point at P (UTF-8) and its length in *RET_LEN; a byte that
   does not start a valid sequence is returned as itself, length 1.  */
static unsigned
code_point (const unsigned char *p, size_t *ret_len)
{
  unsigned c = p[0];
  size_t n = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (c >= 0xf8)
    n = 1;
  unsigned cp = n == 1 ? c : c & (0x7fu >> n);
  for (size_t i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        {
          *ret_len = 1;
          return c;
        }
      cp = (cp << 6) | (p[i] & 0x3fu);
    }
  *ret_len = n;
  return cp;
}

/* True when code point C may not appear as itself in a YAML scalar: it is
   not printable in YAML 1.1 (C0 controls, DEL, C1 controls, U+FFFE,
   U+FFFF, surrogates), or it is a character a reader takes for a line
   break or a byte-order mark (U+0085, U+2028, U+2029, U+FEFF).  Tab,
   line feed and carriage return are written escaped too.  */
static bool
needs_escape (unsigned c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
         || c == 0xfeff || c == 0xfffe || c == 0xffff
         || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff;
}

/* True when S can be written as a plain YAML scalar and reads back as the
   same string.  */
static bool
plain_ok (const char *s)
{
  if (*s == '\0' || strchr ("-?:,[]{}#&*!|>'\"%@` ", *s))
    return false;
  if (s[strlen (s) - 1] == ' ')
    return false;
  /* A plain "<<" key would read back as a merge, and "---" or "..." at
     the start of a line as the end of the document.  */
  if (streq (s, "<<") || strncmp (s, "---", 3) == 0
      || strncmp (s, "...", 3) == 0)
    return false;
  for (const char *p = s; *p; p++)
    {
      unsigned char c = (unsigned char) *p;
      size_t n;
      if (needs_escape (code_point ((const unsigned char *) p, &n)))
        return false;
      if ((c == ':' && (p[1] == ' ' || p[1] == '\0'))
          || (c == '#' && p > s && p[-1] == ' '))
        return false;
      if (strchr ("{}[],", c))
        return false;
    }
  /* Words YAML 1.1 readers take for booleans are quoted too.  */
  static const char *const yaml11[] = { "y", "n", "yes", "no", "on", "off" };
  for (size_t i = 0; i < ARRAY_SIZE (yaml11); i++)
    if (strcasecmp (s, yaml11[i]) == 0)
      return false;
  json_t *back = ash_config_resolve_plain (s);
  bool same = json_is_string (back) && streq (json_string_value (back), s);
  json_decref (back);
  return same;
}

static void
emit_string (struct ash_buf *b, const char *s)
{
  if (plain_ok (s))
    {
      ash_buf_addstr (b, s);
      return;
    }
  /* A double-quoted scalar, with YAML's escapes for what may not appear
     as itself.  */
  ash_buf_addch (b, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p;)
    {
      size_t n;
      unsigned c = code_point (p, &n);
      if (c == '"' || c == '\\')
        {
          ash_buf_addch (b, '\\');
          ash_buf_addch (b, (char) c);
        }
      else if (c == '\n')
        ash_buf_addstr (b, "\\n");
      else if (c == '\t')
        ash_buf_addstr (b, "\\t");
      else if ((n == 1 && c >= 0x80) || (c >= 0xd800 && c <= 0xdfff)
               || c > 0x10ffff)
        {
          /* Not UTF-8 (a value set from the command line can hold such
             bytes): each byte is written as the code point of the same
             number, so that the text stays valid.  */
          for (size_t i = 0; i < n; i++)
            ash_buf_addf (b, "\\x%02x", p[i]);
        }
      else if (needs_escape (c))
        ash_buf_addf (b, c <= 0xff ? "\\x%02x" : "\\u%04x", c);
      else
        ash_buf_add (b, p, n);
      p += n;
    }
  ash_buf_addch (b, '"');
}

static void
emit_scalar (struct ash_buf *b, const json_t *v)
{
  if (json_is_string (v))
    emit_string (b, json_string_value (v));
  else if (json_is_object (v))
    ash_buf_addstr (b, "{}");
  else if (json_is_array (v))
    ash_buf_addstr (b, "[]");
  else
    {
      char *t = json_dumps (v, JSON_ENCODE_ANY | JSON_REAL_PRECISION (17));
      ash_buf_addstr (b, t);
      free (t);
    }
}

static bool
is_block (const json_t *v)
{
  return (json_is_object (v) && json_object_size (v) > 0)
         || (json_is_array (v) && json_array_size (v) > 0);
}

static void emit_block (struct ash_buf *b, const json_t *v, int indent,
                        bool first_inline);

static void
pad (struct ash_buf *b, int n)
{
  for (int i = 0; i < n; i++)
    ash_buf_addch (b, ' ');
}

/* Emit the block collection V at INDENT.  When FIRST_INLINE, the first line
   continues a "- " already written.  */
static void
emit_block (struct ash_buf *b, const json_t *v, int indent, bool first_inline)
{
  bool first = true;
  if (json_is_object (v))
    {
      const char *k;
      json_t *x;
      json_object_foreach ((json_t *) v, k, x)
        {
          if (!(first && first_inline))
            pad (b, indent);
          first = false;
          emit_string (b, k);
          ash_buf_addch (b, ':');
          if (is_block (x))
            {
              ash_buf_addch (b, '\n');
              emit_block (b, x, json_is_array (x) ? indent : indent + 2,
                          false);
            }
          else
            {
              ash_buf_addch (b, ' ');
              emit_scalar (b, x);
              ash_buf_addch (b, '\n');
            }
        }
    }
  else
    {
      size_t i;
      json_t *x;
      json_array_foreach (v, i, x)
        {
          if (!(first && first_inline))
            pad (b, indent);
          first = false;
          ash_buf_addstr (b, "- ");
          if (is_block (x))
            emit_block (b, x, indent + 2, true);
          else
            {
              emit_scalar (b, x);
              ash_buf_addch (b, '\n');
            }
        }
    }
}

char *
ash_config_to_yaml (const json_t *value)
{
  struct ash_buf b = ASH_BUF_INIT;
  if (is_block (value))
    emit_block (&b, value, 0, false);
  else
    {
      emit_scalar (&b, value);
      ash_buf_addch (&b, '\n');
    }
  return ash_buf_detach (&b);
}

char *
ash_config_to_json (const json_t *value)
{
  char *t = json_dumps (value, JSON_INDENT (2) | JSON_ENCODE_ANY
                                 | JSON_REAL_PRECISION (17));
  if (t == NULL)
    ash_oom ();
  char *r = xasprintf ("%s\n", t);
  free (t);
  return r;
}
