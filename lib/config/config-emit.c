/* SPDX-License-Identifier: Apache-2.0 */
/* config-emit.c -- the resolved configuration as YAML or JSON text.  */

#include <config.h>

#include "config/ashconfig.h"

#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/util.h"

/* True when S can be written as a plain YAML scalar and reads back as the
   same string.  */
static bool
plain_ok (const char *s)
{
  if (*s == '\0' || strchr ("-?:,[]{}#&*!|>'\"%@` ", *s))
    return false;
  if (s[strlen (s) - 1] == ' ')
    return false;
  for (const char *p = s; *p; p++)
    {
      unsigned char c = (unsigned char) *p;
      if (c < 0x20 || c == 0x7f)
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
  /* A JSON string is a valid YAML double-quoted scalar.  */
  json_t *j = json_string (s);
  char *t = json_dumps (j, JSON_ENCODE_ANY);
  ash_buf_addstr (b, t);
  free (t);
  json_decref (j);
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
