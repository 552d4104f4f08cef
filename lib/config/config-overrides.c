/* SPDX-License-Identifier: Apache-2.0 */
/* config-overrides.c -- --config-overrides 'a.b=v' and 'a.b+=[..]'.  */

#include <config.h>

#include "config/config-overrides.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/util.h"

static char *
strip (const char *s, size_t n)
{
  while (n > 0 && isspace ((unsigned char) *s))
    s++, n--;
  while (n > 0 && isspace ((unsigned char) s[n - 1]))
    n--;
  return xstrndup (s, n);
}

json_t *
ash_config_override_value (const char *text)
{
  json_t *v = json_loads (text, JSON_DECODE_ANY, NULL);
  if (v)
    return v;

  size_t len = strlen (text);
  if (len >= 2 && text[0] == '[' && text[len - 1] == ']')
    {
      json_t *arr = json_array ();
      const char *p = text + 1, *end = text + len - 1;
      while (p <= end)
        {
          const char *comma = memchr (p, ',', end - p);
          const char *stop = comma ? comma : end;
          _cleanup_free_ char *item = strip (p, stop - p);
          size_t n = strlen (item);
          if (n >= 2
              && ((item[0] == '"' && item[n - 1] == '"')
                  || (item[0] == '\'' && item[n - 1] == '\'')))
            {
              item[n - 1] = '\0';
              memmove (item, item + 1, n - 1);
            }
          if (*item)
            json_array_append_new (arr, json_string (item));
          p = stop + 1;
        }
      return arr;
    }
  if (strcasecmp (text, "true") == 0)
    return json_true ();
  if (strcasecmp (text, "false") == 0)
    return json_false ();
  if (strcasecmp (text, "null") == 0)
    return json_null ();
  if (*text)
    {
      char *end;
      errno = 0;
      long long i = strtoll (text, &end, 10);
      if (errno == 0 && *end == '\0' && !isspace ((unsigned char) *text))
        return json_integer (i);
      errno = 0;
      double d = strtod (text, &end);
      if (errno == 0 && *end == '\0' && !isspace ((unsigned char) *text)
          && d == d && d - d == 0)
        return json_real (d);
    }
  v = json_string (text);
  return v ? v : json_stringn_nocheck (text, len);
}

int
ash_config_override_parse (const char *text, char **ret_path, bool *ret_append,
                           json_t **ret_value, struct ash_error *err)
{
  /* Keys and values go into jansson trees, which hold UTF-8 only (a key
     that is not would not be set, and the value meant for it freed).  */
  json_t *utf8 = json_string (text);
  if (utf8 == NULL)
    return ash_error_set (err, -EINVAL,
                          _ ("invalid configuration override: the text is "
                             "not valid UTF-8"));
  json_decref (utf8);
  const char *eq = strchr (text, '=');
  if (!eq)
    return ash_error_set (err, -EINVAL,
                          _ ("invalid configuration override '%s': expected "
                             "KEY=VALUE or KEY+=VALUE"),
                          text);
  bool append = eq > text && eq[-1] == '+';
  _cleanup_free_ char *path = strip (text, (size_t) (eq - text) - append);
  if (*path == '\0')
    return ash_error_set (err, -EINVAL,
                          _ ("invalid configuration override '%s': the key "
                             "is empty"),
                          text);
  for (const char *p = path; *p; p++)
    if (isspace ((unsigned char) *p) || *p == '[' || *p == ']')
      return ash_error_set (err, -EINVAL,
                            _ ("invalid configuration override '%s': '%s' is "
                               "not a dotted key path"),
                            text, path);
  if (path[0] == '.' || path[strlen (path) - 1] == '.' || strstr (path, ".."))
    return ash_error_set (err, -EINVAL,
                          _ ("invalid configuration override '%s': the key "
                             "'%s' has an empty component"),
                          text, path);
  _cleanup_free_ char *value_text = strip (eq + 1, strlen (eq + 1));
  *ret_value = ash_config_override_value (value_text);
  *ret_path = TAKE_PTR (path);
  *ret_append = append;
  return 0;
}

/* Record ORIGIN for every leaf of VALUE placed at the path in KPATH,
   which is left as it was.  */
static void
origins_record (json_t *origins, struct ash_buf *kpath, const json_t *value,
                json_t *origin)
{
  const char *k;
  json_t *x;

  if (json_is_object (value) && json_object_size (value) > 0)
    {
      size_t len = kpath->len;
      json_object_foreach ((json_t *) value, k, x)
        {
          ash_buf_addch (kpath, '.');
          ash_buf_addstr (kpath, k);
          origins_record (origins, kpath, x, origin);
          kpath->len = len;
          kpath->buf[len] = '\0';
        }
    }
  else
    json_object_set (origins, kpath->buf, origin);
}

void
ash_config_origins_set (json_t *origins, const char *kpath,
                        const json_t *value, json_t *origin)
{
  if (origins == NULL)
    return;
  /* Forget KPATH and everything below it, once for the whole subtree:
     what is recorded below is all under KPATH.  */
  size_t n = strlen (kpath);
  const char *k;
  json_t *x;
  void *tmp;
  json_object_foreach_safe (origins, tmp, k, x)
    if (strneq (k, kpath, n) && (k[n] == '\0' || k[n] == '.'))
      json_object_del (origins, k);
  _cleanup_buf_ struct ash_buf path = ASH_BUF_INIT;
  ash_buf_addstr (&path, kpath);
  origins_record (origins, &path, value, origin);
}

int
ash_config_override_apply (json_t *root, const char *text, json_t *origins,
                           struct ash_error *err)
{
  _cleanup_free_ char *path = NULL;
  bool append;
  json_t *value = NULL;
  int r = ash_config_override_parse (text, &path, &append, &value, err);
  if (r < 0)
    return r;

  json_t *node = root;
  char *save = NULL;
  _cleanup_free_ char *walk = xstrdup (path);
  char *comp = strtok_r (walk, ".", &save);
  _cleanup_free_ char *sofar = NULL;
  for (;;)
    {
      char *next = strtok_r (NULL, ".", &save);
      char *np = sofar ? xasprintf ("%s.%s", sofar, comp) : xstrdup (comp);
      free (sofar);
      sofar = np;
      if (next == NULL)
        break;
      json_t *child = json_object_get (node, comp);
      if (child == NULL)
        {
          child = json_object ();
          json_object_set_new (node, comp, child);
        }
      else if (!json_is_object (child))
        {
          json_decref (value);
          return ash_error_set (err, -EINVAL,
                                _ ("invalid configuration override '%s': "
                                   "'%s' is not a mapping"),
                                text, sofar);
        }
      node = child;
      comp = next;
    }

  json_t *origin = json_string (text);
  if (append)
    {
      json_t *cur = json_object_get (node, comp);
      if (cur == NULL)
        {
          cur = json_array ();
          json_object_set_new (node, comp, cur);
        }
      else if (!json_is_array (cur))
        {
          json_decref (value);
          json_decref (origin);
          return ash_error_set (err, -EINVAL,
                                _ ("invalid configuration override '%s': "
                                   "cannot append to '%s', which is not a "
                                   "list"),
                                text, path);
        }
      if (json_is_array (value))
        json_array_extend (cur, value);
      else
        json_array_append (cur, value);
      json_decref (value);
      ash_config_origins_set (origins, path, cur, origin);
    }
  else
    {
      json_object_set_new (node, comp, value);
      ash_config_origins_set (origins, path, value, origin);
    }
  json_decref (origin);
  return 0;
}
