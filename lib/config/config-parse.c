/* SPDX-License-Identifier: Apache-2.0 */
/* config-parse.c -- YAML and JSON configuration files into a jansson tree.

   YAML is read with libyaml's event API, so that the line and column of
   every key (and of every list item) can be kept for error messages.  JSON
   files are parsed with jansson, and their key positions are then gathered
   from a second, YAML, pass over the same text (JSON is valid YAML for
   every document a configuration holds); when that pass fails, errors in
   the file name no position.  */

#include <config.h>

#include "config/ashconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "base/buf.h"
#include "base/util.h"

/* The limits (ASH_CONFIG_MAX_*) are in ashconfig.h, where the fuzz
   targets check them too.  */
#define CONFIG_MAX_SIZE ASH_CONFIG_MAX_SIZE
#define CONFIG_MAX_DEPTH ASH_CONFIG_MAX_DEPTH
#define CONFIG_MAX_NODES ASH_CONFIG_MAX_NODES
#define CONFIG_MAX_BYTES ASH_CONFIG_MAX_BYTES

struct yctx
{
  yaml_parser_t parser;
  const char *name;
  json_t *positions; /* may be NULL */
  json_t *anchors;
  struct ash_error *err;
  size_t nodes;     /* nodes built so far, alias copies included */
  size_t bytes;     /* bytes of scalar text built so far, likewise */
  unsigned flags;   /* ASH_CONFIG_PARSE_* */
  json_t *env_uses; /* [line, column] of each !ENV scalar */
};

/* Add the size of V (a node, or a whole copied tree) to Y's totals;
   false once a limit is passed.  The walk stops as soon as it is, so
   that its cost is bounded by the limits, not by the size of V.  DEPTH is
   the depth V sits at; *MAXDEPTH gets the deepest node seen.  */
static bool
count_nodes (struct yctx *y, const json_t *v, int depth, int *maxdepth)
{
  if (++y->nodes > CONFIG_MAX_NODES)
    return false;
  if (depth > *maxdepth)
    *maxdepth = depth;
  if (depth > CONFIG_MAX_DEPTH)
    return false;
  if (json_is_string (v))
    {
      y->bytes += json_string_length (v);
      return y->bytes <= CONFIG_MAX_BYTES;
    }
  if (json_is_object (v))
    {
      const char *k;
      json_t *c;
      json_object_foreach ((json_t *) v, k, c)
        {
          y->bytes += strlen (k);
          if (y->bytes > CONFIG_MAX_BYTES
              || !count_nodes (y, c, depth + 1, maxdepth))
            return false;
        }
    }
  else if (json_is_array (v))
    {
      size_t i;
      json_t *c;
      json_array_foreach ((json_t *) v, i, c)
        if (!count_nodes (y, c, depth + 1, maxdepth))
          return false;
    }
  return true;
}

static int
too_big (struct yctx *y, const yaml_event_t *ev)
{
  if (y->nodes > CONFIG_MAX_NODES)
    return ash_error_set_at (y->err, -E2BIG, y->name,
                             (int) ev->start_mark.line + 1,
                             (int) ev->start_mark.column + 1,
                             _ ("the configuration expands to more than %d "
                                "nodes (are aliases nested?)"),
                             CONFIG_MAX_NODES);
  if (y->bytes > CONFIG_MAX_BYTES)
    return ash_error_set_at (y->err, -E2BIG, y->name,
                             (int) ev->start_mark.line + 1,
                             (int) ev->start_mark.column + 1,
                             _ ("the configuration expands to more than %d "
                                "bytes of text (are aliases nested?)"),
                             CONFIG_MAX_BYTES);
  return ash_error_set_at (y->err, -E2BIG, y->name,
                           (int) ev->start_mark.line + 1,
                           (int) ev->start_mark.column + 1,
                           _ ("the configuration is nested too deeply"));
}

static void
record_pos (struct yctx *y, const char *kpath, const yaml_mark_t *mark)
{
  if (y->positions == NULL || kpath == NULL || *kpath == '\0')
    return;
  json_object_set_new (y->positions, kpath,
                       json_pack ("[ii]", (int) mark->line + 1,
                                  (int) mark->column + 1));
}

/* Messages name keys (never values): a key must be short printable
   text.  */
#define KEY_MAX 128

static bool
printable_key (const char *k)
{
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) k; *p; p++, n++)
    if (*p < 0x20 || *p == 0x7f || n >= KEY_MAX)
      return false;
  return n > 0;
}

/* True when every key of every mapping in V passes printable_key, as the
   YAML reader requires of the keys it reads (a .json file is held to the
   same rule, so that what one format can hold the other can too).  The
   tree has passed count_nodes, so the recursion is bounded.  */
static bool
keys_printable (const json_t *v)
{
  const char *k;
  json_t *c;
  size_t i;
  if (json_is_object (v))
    {
      json_object_foreach ((json_t *) v, k, c)
        if (!printable_key (k) || !keys_printable (c))
          return false;
    }
  else if (json_is_array (v))
    json_array_foreach (v, i, c)
      if (!keys_printable (c))
        return false;
  return true;
}

/* A name that may be quoted in a message: letters, digits, '_', '-', '.',
   '!' and ':', at most 64 of them.  */
static bool
printable_name (const char *s)
{
  size_t n = strspn (s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        "0123456789_-.!:");
  return n > 0 && s[n] == '\0' && n <= 64;
}

static int
next_event (struct yctx *y, yaml_event_t *ev)
{
  if (!yaml_parser_parse (&y->parser, ev))
    {
      const yaml_mark_t *m = &y->parser.problem_mark;
      const char *problem
        = y->parser.problem ? y->parser.problem : "unknown problem";
      if (y->parser.context)
        return ash_error_set_at (y->err, -EINVAL, y->name, (int) m->line + 1,
                                 (int) m->column + 1,
                                 _ ("YAML syntax error: %s (%s)"), problem,
                                 y->parser.context);
      return ash_error_set_at (y->err, -EINVAL, y->name, (int) m->line + 1,
                               (int) m->column + 1,
                               _ ("YAML syntax error: %s"), problem);
    }
  return 0;
}

static int at (struct yctx *y, const yaml_event_t *ev, const char *fmt, ...)
  _printf_ (3, 4);

static int
at (struct yctx *y, const yaml_event_t *ev, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *m = xvasprintf (fmt, ap);
  va_end (ap);
  return ash_error_set_at (y->err, -EINVAL, y->name,
                           (int) ev->start_mark.line + 1,
                           (int) ev->start_mark.column + 1, "%s", m);
}

static bool
all_digits (const char *s, const char *digits)
{
  if (*s == '\0')
    return false;
  for (; *s; s++)
    if (!strchr (digits, *s) && *s != '_')
      return false;
  return true;
}

/* Resolve a plain (untagged, unquoted) scalar by the YAML 1.2 core
   schema: null, true/false, integers, floats, else a string.  Unlike YAML
   1.1, "off", "no", "on" and "yes" stay strings, so that "mode: off" means
   the sandbox mode "off" and not a boolean.  */
json_t *
ash_config_resolve_plain (const char *s)
{
  static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
  static const char *const trues[] = { "true", "True", "TRUE" };
  static const char *const falses[] = { "false", "False", "FALSE" };
  for (size_t i = 0; i < ARRAY_SIZE (nulls); i++)
    if (streq (s, nulls[i]))
      return json_null ();
  for (size_t i = 0; i < ARRAY_SIZE (trues); i++)
    if (streq (s, trues[i]))
      return json_true ();
  for (size_t i = 0; i < ARRAY_SIZE (falses); i++)
    if (streq (s, falses[i]))
      return json_false ();

  const char *p = s;
  if (*p == '+' || *p == '-')
    p++;
  int base = 0;
  const char *digits = NULL;
  if (ash_str_has_prefix (p, "0x"))
    base = 16, digits = "0123456789abcdefABCDEF", p += 2;
  else if (ash_str_has_prefix (p, "0o"))
    base = 8, digits = "01234567", p += 2;
  else
    base = 10, digits = "0123456789";
  if (all_digits (p, digits) && strchr (s, '_') == NULL)
    {
      errno = 0;
      char *end;
      long long v = strtoll (p, &end, base);
      if (errno == 0 && *end == '\0')
        return json_integer (s[0] == '-' ? -v : v);
    }

  /* Floats: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?  */
  p = s;
  if (*p == '+' || *p == '-')
    p++;
  if (streq (p, ".inf") || streq (p, ".Inf") || streq (p, ".INF")
      || streq (p, ".nan") || streq (p, ".NaN") || streq (p, ".NAN"))
    return json_string (s); /* JSON has no infinity or NaN */
  const char *q = p;
  size_t int_digits = 0, frac_digits = 0;
  while (*q >= '0' && *q <= '9')
    q++, int_digits++;
  bool dot = false;
  if (*q == '.')
    {
      dot = true;
      q++;
      while (*q >= '0' && *q <= '9')
        q++, frac_digits++;
    }
  bool expo = false;
  if ((int_digits || frac_digits) && (*q == 'e' || *q == 'E'))
    {
      const char *e = q + 1;
      if (*e == '+' || *e == '-')
        e++;
      if (*e >= '0' && *e <= '9')
        {
          while (*e >= '0' && *e <= '9')
            e++;
          q = e;
          expo = true;
        }
    }
  if (*q == '\0' && (int_digits || frac_digits) && (dot || expo))
    return json_real (strtod (s, NULL));
  return json_string (s);
}

/* Expand ${VAR} and ${VAR:default} in S.  */
static int
env_expand (struct yctx *y, const yaml_event_t *ev, const char *s, char **ret)
{
  struct ash_buf b = ASH_BUF_INIT;
  const char *p = s;
  while (*p)
    {
      if (p[0] == '$' && p[1] == '{')
        {
          const char *close = strchr (p + 2, '}');
          if (!close)
            {
              ash_buf_release (&b);
              return at (y, ev, _ ("!ENV: unterminated '${'"));
            }
          _cleanup_free_ char *inner = xstrndup (p + 2, close - (p + 2));
          char *colon = strchr (inner, ':');
          const char *dflt = NULL;
          if (colon)
            {
              *colon = '\0';
              dflt = colon + 1;
            }
          if (*inner == '\0')
            {
              ash_buf_release (&b);
              return at (y, ev, _ ("!ENV: empty variable name"));
            }
          const char *v = getenv (inner);
          if (v == NULL)
            v = dflt;
          if (v == NULL)
            {
              ash_buf_release (&b);
              if (printable_name (inner))
                return at (y, ev,
                           _ ("!ENV: environment variable '%s' is not set "
                              "and has no default"),
                           inner);
              return at (y, ev,
                         _ ("!ENV: an environment variable is not set and "
                            "has no default"));
            }
          ash_buf_addstr (&b, v);
          p = close + 1;
        }
      else
        ash_buf_addch (&b, *p++);
    }
  *ret = ash_buf_detach (&b);
  return 0;
}

static int
scalar_value (struct yctx *y, const yaml_event_t *ev, json_t **ret)
{
  const char *v = (const char *) ev->data.scalar.value;
  const char *tag = (const char *) ev->data.scalar.tag;
  if (tag == NULL || streq (tag, "!"))
    {
      if (ev->data.scalar.plain_implicit && tag == NULL)
        *ret = ash_config_resolve_plain (v);
      else
        *ret = json_string (v);
    }
  else if (streq (tag, "!ENV"))
    {
      json_array_append_new (y->env_uses,
                             json_pack ("[ii]", (int) ev->start_mark.line + 1,
                                        (int) ev->start_mark.column + 1));
      if (y->flags & ASH_CONFIG_PARSE_NO_ENV)
        {
          /* The environment is not read: the caller refuses the file.  */
          *ret = json_null ();
          return 0;
        }
      _cleanup_free_ char *x = NULL;
      int r = env_expand (y, ev, v, &x);
      if (r < 0)
        return r;
      *ret = ash_config_resolve_plain (x);
    }
  else if (streq (tag, YAML_STR_TAG))
    *ret = json_string (v);
  else if (streq (tag, YAML_NULL_TAG) || streq (tag, YAML_BOOL_TAG)
           || streq (tag, YAML_INT_TAG) || streq (tag, YAML_FLOAT_TAG))
    {
      json_t *j = ash_config_resolve_plain (v);
      bool okay = (streq (tag, YAML_NULL_TAG) && json_is_null (j))
                  || (streq (tag, YAML_BOOL_TAG) && json_is_boolean (j))
                  || (streq (tag, YAML_INT_TAG) && json_is_integer (j))
                  || (streq (tag, YAML_FLOAT_TAG) && json_is_number (j));
      if (!okay)
        {
          json_decref (j);
          return at (y, ev, _ ("the value is not a valid %s"), tag);
        }
      *ret = j;
    }
  else
    {
      if (printable_name (tag))
        return at (y, ev, _ ("unsupported YAML tag '%s'"), tag);
      return at (y, ev, _ ("unsupported YAML tag"));
    }
  if (*ret == NULL)
    return at (y, ev, _ ("the value is not valid UTF-8 text"));
  return 0;
}

static int parse_node (struct yctx *y, yaml_event_t *ev, const char *kpath,
                       int depth, json_t **ret);

/* Parse one key and its value into OBJ.  *RET_END is set at the end of
   the mapping.  */
static int
parse_pair (struct yctx *y, json_t *obj, json_t *merged, const char *kpath,
            int depth, bool *ret_end)
{
  yaml_event_t kev;
  int r = next_event (y, &kev);
  if (r < 0)
    return r;
  if (kev.type == YAML_MAPPING_END_EVENT)
    {
      yaml_event_delete (&kev);
      *ret_end = true;
      return 0;
    }
  if (kev.type != YAML_SCALAR_EVENT)
    {
      r = at (y, &kev, _ ("a mapping key must be a plain string"));
      yaml_event_delete (&kev);
      return r;
    }
  if (!printable_key ((const char *) kev.data.scalar.value))
    {
      /* Keys are named in messages; the file may not be a configuration
         at all, so one that is not short printable text is not quoted.  */
      r = at (y, &kev,
              _ ("a mapping key must be printable text of at most "
                 "%d bytes"),
              KEY_MAX);
      yaml_event_delete (&kev);
      return r;
    }
  _cleanup_free_ char *key = xstrdup ((const char *) kev.data.scalar.value);
  _cleanup_free_ char *child
    = *kpath ? xasprintf ("%s.%s", kpath, key) : xstrdup (key);
  yaml_mark_t kmark = kev.start_mark;
  bool merge_key = streq (key, "<<") && kev.data.scalar.plain_implicit;
  if (!merge_key && json_object_get (obj, key) != NULL
      && json_object_get (merged, key) == NULL)
    {
      r = at (y, &kev, _ ("duplicate key '%s'"), child);
      yaml_event_delete (&kev);
      return r;
    }
  yaml_event_delete (&kev);
  if (!merge_key)
    record_pos (y, child, &kmark);

  yaml_event_t vev;
  r = next_event (y, &vev);
  if (r < 0)
    return r;
  json_t *val = NULL;
  yaml_mark_t vmark = vev.start_mark;
  r = parse_node (y, &vev, merge_key ? kpath : child, depth + 1, &val);
  if (r < 0)
    return r;
  if (!merge_key)
    {
      /* A key of the mapping's own beats one merged in with "<<".  */
      json_object_del (merged, key);
      json_object_set_new (obj, key, val);
      return 0;
    }
  /* "<<: *base" merges the keys the mapping does not have.  */
  if (!json_is_object (val))
    {
      json_decref (val);
      return ash_error_set_at (y->err, -EINVAL, y->name, (int) vmark.line + 1,
                               (int) vmark.column + 1,
                               _ ("'<<' needs a mapping to merge"));
    }
  const char *k;
  json_t *v;
  json_object_foreach (val, k, v)
    if (json_object_get (obj, k) == NULL)
      {
        json_object_set (obj, k, v);
        json_object_set (merged, k, json_true ());
      }
  json_decref (val);
  return 0;
}

static int
parse_mapping (struct yctx *y, const char *kpath, int depth, json_t **ret)
{
  json_t *obj = json_object ();
  json_t *merged = json_object ();
  bool end = false;
  while (!end)
    {
      int r = parse_pair (y, obj, merged, kpath, depth, &end);
      if (r < 0)
        {
          json_decref (obj);
          json_decref (merged);
          return r;
        }
    }
  json_decref (merged);
  *ret = obj;
  return 0;
}

static int
parse_sequence (struct yctx *y, const char *kpath, int depth, json_t **ret)
{
  json_t *arr = json_array ();
  for (size_t i = 0;; i++)
    {
      yaml_event_t ev;
      int r = next_event (y, &ev);
      if (r < 0)
        {
          json_decref (arr);
          return r;
        }
      if (ev.type == YAML_SEQUENCE_END_EVENT)
        {
          yaml_event_delete (&ev);
          break;
        }
      _cleanup_free_ char *child = xasprintf ("%s[%zu]", kpath, i);
      record_pos (y, child, &ev.start_mark);
      json_t *val = NULL;
      r = parse_node (y, &ev, child, depth + 1, &val);
      if (r < 0)
        {
          json_decref (arr);
          return r;
        }
      json_array_append_new (arr, val);
    }
  *ret = arr;
  return 0;
}

/* Parse the node that starts with EV (which this function deletes).  */
static int
parse_node (struct yctx *y, yaml_event_t *ev, const char *kpath, int depth,
            json_t **ret)
{
  int r = 0;
  json_t *val = NULL;
  const char *anchor = NULL;

  if (depth > CONFIG_MAX_DEPTH)
    {
      r = too_big (y, ev);
      yaml_event_delete (ev);
      return r;
    }
  switch (ev->type)
    {
    case YAML_SCALAR_EVENT:
      anchor = (const char *) ev->data.scalar.anchor;
      r = scalar_value (y, ev, &val);
      if (r == 0)
        {
          int d = 0;
          if (!count_nodes (y, val, depth, &d))
            r = too_big (y, ev);
        }
      break;
    case YAML_ALIAS_EVENT:
      {
        json_t *a
          = json_object_get (y->anchors, (const char *) ev->data.alias.anchor);
        if (a == NULL)
          r = at (y, ev, _ ("unknown alias"));
        else
          {
            /* Count the copy before making it.  */
            int d = 0;
            if (!count_nodes (y, a, depth, &d))
              r = too_big (y, ev);
            else
              val = json_deep_copy (a);
          }
      }
      break;
    case YAML_MAPPING_START_EVENT:
      anchor = (const char *) ev->data.mapping_start.anchor;
      if (++y->nodes > CONFIG_MAX_NODES)
        r = too_big (y, ev);
      else
        r = parse_mapping (y, kpath, depth, &val);
      break;
    case YAML_SEQUENCE_START_EVENT:
      anchor = (const char *) ev->data.sequence_start.anchor;
      if (++y->nodes > CONFIG_MAX_NODES)
        r = too_big (y, ev);
      else
        r = parse_sequence (y, kpath, depth, &val);
      break;
    default:
      r = at (y, ev, _ ("unexpected YAML event"));
      break;
    }
  if (r == 0 && anchor)
    json_object_set (y->anchors, anchor, val);
  yaml_event_delete (ev);
  if (r < 0)
    return r;
  *ret = val;
  return 0;
}

int
ash_config_parse_yaml (const char *text, size_t len, const char *name,
                       json_t **ret_tree, json_t **ret_positions,
                       struct ash_error *err)
{
  return ash_config_parse_yaml_env (text, len, name, 0, ret_tree,
                                    ret_positions, NULL, err);
}

/* The contents of Y; safe on a zeroed context.  */
static void
yctx_release (struct yctx *y)
{
  json_decref (y->positions);
  json_decref (y->env_uses);
  json_decref (y->anchors);
  yaml_parser_delete (&y->parser);
}

/* The document of Y's stream into *RET, a mapping (an empty stream and a
   null document are empty mappings).  */
static int
parse_stream (struct yctx *y, json_t **ret)
{
  _cleanup_json_ json_t *tree = NULL;
  yaml_event_t ev;
  int r;

  r = next_event (y, &ev); /* STREAM-START */
  if (r < 0)
    return r;
  yaml_event_delete (&ev);
  r = next_event (y, &ev);
  if (r < 0)
    return r;
  if (ev.type == YAML_STREAM_END_EVENT)
    {
      /* An empty file is an empty configuration.  */
      yaml_event_delete (&ev);
      *ret = json_object ();
      return 0;
    }
  yaml_event_delete (&ev); /* DOCUMENT-START */
  r = next_event (y, &ev);
  if (r < 0)
    return r;
  yaml_mark_t mark = ev.start_mark;
  r = parse_node (y, &ev, "", 0, &tree);
  if (r < 0)
    return r;
  if (json_is_null (tree))
    {
      json_decref (tree);
      tree = json_object ();
    }
  else if (!json_is_object (tree))
    return ash_error_set_at (y->err, -EINVAL, y->name, (int) mark.line + 1,
                             (int) mark.column + 1,
                             _ ("the configuration must be a mapping"));
  r = next_event (y, &ev); /* DOCUMENT-END */
  if (r < 0)
    return r;
  yaml_event_delete (&ev);
  r = next_event (y, &ev);
  if (r < 0)
    return r;
  if (ev.type != YAML_STREAM_END_EVENT)
    {
      r = at (y, &ev, _ ("a configuration file holds one YAML document"));
      yaml_event_delete (&ev);
      return r;
    }
  yaml_event_delete (&ev);
  *ret = TAKE_PTR (tree);
  return 0;
}

int
ash_config_parse_yaml_env (const char *text, size_t len, const char *name,
                           unsigned flags, json_t **ret_tree,
                           json_t **ret_positions, json_t **ret_env_uses,
                           struct ash_error *err)
{
  _cleanup_ (yctx_release) struct yctx y
    = { .name = name, .err = err, .flags = flags };
  json_t *tree = NULL;

  if (!yaml_parser_initialize (&y.parser))
    ash_oom ();
  yaml_parser_set_input_string (&y.parser, (const unsigned char *) text, len);
  y.positions = ret_positions ? json_object () : NULL;
  y.anchors = json_object ();
  y.env_uses = json_array ();

  int r = parse_stream (&y, &tree);
  if (r < 0)
    return r;
  *ret_tree = tree;
  if (ret_positions)
    *ret_positions = TAKE_PTR (y.positions);
  if (ret_env_uses)
    *ret_env_uses = TAKE_PTR (y.env_uses);
  return 0;
}

static int
read_config_text (const char *path, struct ash_buf *b, struct ash_error *err)
{
  _cleanup_close_ int fd
    = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return ash_error_set_at (err, -errno, path, 0, 0,
                             _ ("cannot open the configuration file: %s"),
                             strerror (errno));
  struct stat st;
  if (fstat (fd, &st) < 0)
    return ash_error_set_at (err, -errno, path, 0, 0,
                             _ ("cannot open the configuration file: %s"),
                             strerror (errno));
  if (!S_ISREG (st.st_mode))
    return ash_error_set_at (err, -EINVAL, path, 0, 0,
                             _ ("the configuration file is not a regular "
                                "file"));
  b->max = CONFIG_MAX_SIZE;
  int r = ash_buf_read_fd (b, fd);
  if (r == -EFBIG)
    return ash_error_set_at (err, r, path, 0, 0,
                             _ ("the configuration file is larger than %d "
                                "bytes"),
                             CONFIG_MAX_SIZE);
  if (r < 0)
    return ash_error_set_at (err, r, path, 0, 0,
                             _ ("cannot read the configuration file: %s"),
                             strerror (-r));
  if (strlen (b->buf) != b->len)
    return ash_error_set_at (err, -EINVAL, path, 0, 0,
                             _ ("the configuration file contains a NUL "
                                "byte"));
  return 0;
}

int
ash_config_parse_file (const char *path, json_t **ret_tree,
                       json_t **ret_positions, struct ash_error *err)
{
  return ash_config_parse_file_env (path, 0, ret_tree, ret_positions, NULL,
                                    err);
}

int
ash_config_parse_file_env (const char *path, unsigned flags, json_t **ret_tree,
                           json_t **ret_positions, json_t **ret_env_uses,
                           struct ash_error *err)
{
  _cleanup_buf_ struct ash_buf b = ASH_BUF_INIT;
  int r = read_config_text (path, &b, err);
  if (r < 0)
    return r;
  if (!ash_str_has_suffix (path, ".json"))
    return ash_config_parse_yaml_env (b.buf, b.len, path, flags, ret_tree,
                                      ret_positions, ret_env_uses, err);

  json_error_t jerr;
  _cleanup_json_ json_t *tree
    = json_loadb (b.buf, b.len, JSON_REJECT_DUPLICATES, &jerr);
  if (tree == NULL)
    {
      /* jansson quotes the text near the error ("invalid token near
         'xyz'"): keep only its description.  */
      char *near = strstr (jerr.text, " near ");
      if (near)
        *near = '\0';
      return ash_error_set_at (err, -EINVAL, path,
                               jerr.line > 0 ? jerr.line : 1,
                               jerr.column > 0 ? jerr.column : 1,
                               _ ("JSON syntax error: %s"), jerr.text);
    }
  if (!json_is_object (tree))
    return ash_error_set_at (err, -EINVAL, path, 1, 1,
                             _ ("the configuration must be a JSON object"));
  struct yctx count = { .name = path, .err = err };
  int maxdepth = 0;
  if (!count_nodes (&count, tree, 0, &maxdepth))
    return ash_error_set_at (err, -E2BIG, path, 1, 1,
                             count.nodes > CONFIG_MAX_NODES
                               ? _ ("the configuration has more than "
                                    "200000 nodes")
                             : count.bytes > CONFIG_MAX_BYTES
                               ? _ ("the configuration holds too much "
                                    "text")
                               : _ ("the configuration is nested too "
                                    "deeply"));
  if (!keys_printable (tree))
    return ash_error_set_at (err, -EINVAL, path, 1, 1,
                             _ ("a mapping key must be printable text of "
                                "at most %d bytes"),
                             KEY_MAX);
  if (ret_positions)
    {
      /* Positions from the YAML parser, which reads JSON too; none when
         it cannot.  */
      _cleanup_json_ json_t *ytree = NULL;
      _cleanup_error_ struct ash_error ignored = ASH_ERROR_INIT;
      json_t *positions = NULL;
      /* JSON has no tags: this pass never reads the environment.  */
      if (ash_config_parse_yaml_env (b.buf, b.len, path,
                                     ASH_CONFIG_PARSE_NO_ENV, &ytree,
                                     &positions, NULL, &ignored)
          < 0)
        positions = json_object ();
      *ret_positions = positions;
    }
  if (ret_env_uses)
    *ret_env_uses = json_array ();
  *ret_tree = TAKE_PTR (tree);
  return 0;
}
