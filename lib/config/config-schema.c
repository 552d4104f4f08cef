/* SPDX-License-Identifier: Apache-2.0 */
/* config-schema.c -- the keys and value types a configuration may hold.

   The schema is that of upstream ASH v3 (DESIGN section 5) plus the
   sandbox section of the spec.  Every unknown key, wrong type and bad
   value is an error naming the key path; nothing is dropped.  */

#include <config.h>

#include "config/config-schema.h"

#include <stdbool.h>

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "config/reporter-names.h"

const char *const ash_sandbox_modes[] = {
  "off", "auto", "bwrap", "firejail", "landlock", "sandbox-exec", NULL,
};

const char *const ash_severity_thresholds[] = {
  "ALL", "LOW", "MEDIUM", "HIGH", "CRITICAL", NULL,
};

bool
ash_config_extension_valid (const char *e)
{
  /* A file name below reports/: no directory, no hidden file, nothing a
     shell or a report would have to quote.  */
  if (e == NULL || *e == '\0' || *e == '.' || strlen (e) > 64
      || strstr (e, "..") != NULL)
    return false;
  for (; *e; e++)
    if (!((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z')
          || (*e >= '0' && *e <= '9') || *e == '-' || *e == '_' || *e == '.'))
      return false;
  return true;
}

struct sctx
{
  const char *file;
  const json_t *positions;
  struct ash_error *err;
};

const char *
ash_config_type_name (const json_t *v)
{
  switch (json_typeof (v))
    {
    case JSON_OBJECT:
      return _ ("a mapping");
    case JSON_ARRAY:
      return _ ("a list");
    case JSON_STRING:
      return _ ("a string");
    case JSON_INTEGER:
      return _ ("an integer");
    case JSON_REAL:
      return _ ("a number");
    case JSON_TRUE:
    case JSON_FALSE:
      return _ ("a boolean");
    case JSON_NULL:
    default:
      return _ ("null");
    }
}

/* Record an error about KPATH, at the position of KPATH or, failing that,
   of its nearest ancestor that has one.  */
static int fail (struct sctx *s, const char *kpath, const char *fmt, ...)
  _printf_ (3, 4);

static int
fail (struct sctx *s, const char *kpath, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *m = xvasprintf (fmt, ap);
  va_end (ap);
  int line = 0, column = 0;
  if (s->positions)
    {
      _cleanup_free_ char *p = xstrdup (kpath);
      for (;;)
        {
          json_t *pos = json_object_get (s->positions, p);
          if (pos)
            {
              line = (int) json_integer_value (json_array_get (pos, 0));
              column = (int) json_integer_value (json_array_get (pos, 1));
              break;
            }
          char *cut = strrchr (p, '.');
          char *br = strrchr (p, '[');
          if (br && (!cut || br > cut))
            cut = br;
          if (!cut)
            break;
          *cut = '\0';
        }
    }
  return ash_error_set_at (s->err, -EINVAL, s->file, line, column, "%s", m);
}

static char *
child_path (const char *kpath, const char *key)
{
  return *kpath ? xasprintf ("%s.%s", kpath, key) : xstrdup (key);
}

static int
want_type (struct sctx *s, const char *kpath, const json_t *v, bool ok,
           const char *what)
{
  if (ok)
    return 0;
  return fail (s, kpath, _ ("'%s' must be %s, not %s"), kpath, what,
               ash_config_type_name (v));
}

static int
want_bool (struct sctx *s, const char *kpath, const json_t *v)
{
  return want_type (s, kpath, v, json_is_boolean (v), _ ("a boolean"));
}

static int
want_string (struct sctx *s, const char *kpath, const json_t *v)
{
  return want_type (s, kpath, v, json_is_string (v), _ ("a string"));
}

static int
want_object (struct sctx *s, const char *kpath, const json_t *v)
{
  return want_type (s, kpath, v, json_is_object (v), _ ("a mapping"));
}

static int
want_string_list (struct sctx *s, const char *kpath, const json_t *v)
{
  int r = want_type (s, kpath, v, json_is_array (v), _ ("a list of strings"));
  if (r < 0)
    return r;
  size_t i;
  json_t *e;
  json_array_foreach (v, i, e)
    if (!json_is_string (e))
      {
        _cleanup_free_ char *p = xasprintf ("%s[%zu]", kpath, i);
        return fail (s, p, _ ("'%s' must be a string, not %s"), p,
                     ash_config_type_name (e));
      }
  return 0;
}

static int
want_enum (struct sctx *s, const char *kpath, const json_t *v,
           const char *const *values)
{
  int r = want_string (s, kpath, v);
  if (r < 0)
    return r;
  for (size_t i = 0; values[i]; i++)
    if (streq (json_string_value (v), values[i]))
      return 0;
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; values[i]; i++)
    ash_buf_addf (&b, "%s%s", i ? ", " : "", values[i]);
  /* The value is not quoted: no message quotes the content of a file,
     which may not be a configuration at all.  */
  r = fail (s, kpath, _ ("'%s' must be one of %s"), kpath, b.buf);
  ash_buf_release (&b);
  return r;
}

/* An unknown key is not quoted: the file may not be a configuration at
   all (an extends or --config naming /etc/shadow), and its keys are then
   its content.  The message names the section the key is in; the line and
   column name the key.  */
static int
unknown_key (struct sctx *s, const char *kpath)
{
  _cleanup_free_ char *parent = xstrdup (kpath);
  char *dot = strrchr (parent, '.');
  char *br = strrchr (parent, '[');
  if (br && (!dot || br > dot))
    dot = br;
  if (dot == NULL)
    return fail (s, kpath, _ ("unknown top-level key"));
  *dot = '\0';
  return fail (s, kpath, _ ("unknown key in '%s'"), parent);
}

/* Checks the value X of key K, whose path is KPATH, in a mapping; DATA is
   what the caller of check_mapping passed.  */
typedef int (*key_check_fn) (struct sctx *s, const char *kpath, const char *k,
                             const json_t *x, const void *data);

/* Require V, at KPATH, to be a mapping and pass each of its keys to
   CHECK, stopping at the first error.  */
static int
check_mapping (struct sctx *s, const char *kpath, const json_t *v,
               key_check_fn check, const void *data)
{
  int r = want_object (s, kpath, v);
  if (r < 0)
    return r;
  const char *k;
  json_t *x;
  json_object_foreach ((json_t *) v, k, x)
    {
      _cleanup_free_ char *p = child_path (kpath, k);
      r = check (s, p, k, x, data);
      if (r < 0)
        return r;
    }
  return 0;
}

/* DATA points to a bool: whether the item is a suppression.  */
static int
check_item_key (struct sctx *s, const char *p, const char *k, const json_t *x,
                const void *data)
{
  bool suppression = *(const bool *) data;
  if (streq (k, "path") || streq (k, "reason") || streq (k, "expiration")
      || (suppression && streq (k, "rule_id")))
    return want_string (s, p, x);
  if (suppression && (streq (k, "line_start") || streq (k, "line_end")))
    {
      int r = want_type (s, p, x, json_is_integer (x) || json_is_null (x),
                         _ ("an integer"));
      if (r == 0 && json_is_integer (x) && json_integer_value (x) < 1)
        r = fail (s, p, _ ("'%s' must be a line number (1 or more)"), p);
      return r;
    }
  return unknown_key (s, p);
}

static int
check_item (struct sctx *s, const char *kpath, const json_t *v,
            bool suppression)
{
  int r = check_mapping (s, kpath, v, check_item_key, &suppression);
  if (r < 0)
    return r;
  static const char *const required[] = { "path", "reason" };
  for (size_t i = 0; i < ARRAY_SIZE (required); i++)
    if (!json_object_get (v, required[i]))
      return fail (s, kpath, _ ("'%s' lacks the required key '%s'"), kpath,
                   required[i]);
  return 0;
}

static int
check_item_list (struct sctx *s, const char *kpath, const json_t *v,
                 bool suppression)
{
  int r = want_type (s, kpath, v, json_is_array (v), _ ("a list"));
  if (r < 0)
    return r;
  size_t i;
  json_t *e;
  json_array_foreach (v, i, e)
    {
      _cleanup_free_ char *p = xasprintf ("%s[%zu]", kpath, i);
      r = check_item (s, p, e, suppression);
      if (r < 0)
        return r;
    }
  return 0;
}

/* Keys of upstream's schema for what ash does not have (the container
   image build, workspace mode, the MCP server): a mapping, or null,
   accepted without looking inside; ash_config_misplaced() warns that it
   has no effect.  None of them could loosen the sandbox, so accepting
   them takes no protection away.  */
static int
upstream_only (struct sctx *s, const char *p, const json_t *x)
{
  if (json_is_null (x))
    return 0;
  return want_object (s, p, x);
}

static int
check_global_settings_key (struct sctx *s, const char *p, const char *k,
                           const json_t *x, const void *data)
{
  (void) data;
  if (streq (k, "severity_threshold"))
    return want_enum (s, p, x, ash_severity_thresholds);
  if (streq (k, "ignore_paths"))
    return check_item_list (s, p, x, false);
  if (streq (k, "suppressions"))
    return check_item_list (s, p, x, true);
  if (streq (k, "mcp"))
    return upstream_only (s, p, x);
  if (streq (k, "max_file_size") || streq (k, "max_scanner_processes")
      || streq (k, "max_scanner_memory") || streq (k, "max_scanner_output")
      || streq (k, "max_scanner_results") || streq (k, "max_scanner_document"))
    {
      int r = want_type (s, p, x, json_is_integer (x), _ ("an integer"));
      if (r == 0 && json_integer_value (x) < 0)
        r = fail (s, p, _ ("'%s' must be 0 (no limit) or more"), p);
      return r;
    }
  return unknown_key (s, p);
}

static int
check_global_settings (struct sctx *s, const char *kpath, const json_t *v)
{
  return check_mapping (s, kpath, v, check_global_settings_key, NULL);
}

static bool
valid_component_name (const char *n)
{
  if (*n == '\0')
    return false;
  for (; *n; n++)
    if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z')
          || (*n >= '0' && *n <= '9') || *n == '-' || *n == '_'))
      return false;
  return true;
}

/* A severity_threshold: one of ash_severity_thresholds, or null (unset),
   as upstream's scanner options have it.  */
static int
check_threshold (struct sctx *s, const char *p, const json_t *x)
{
  if (json_is_null (x))
    return 0;
  return want_enum (s, p, x, ash_severity_thresholds);
}

/* One key of a component's section: enabled, name, options; a scanner's
   severity_threshold (upstream accepts it there and ignores it: ash
   warns, ash_config_misplaced); a reporter's extension.  DATA points to a
   bool: whether the section is a scanner's.  */
static int
check_component_key (struct sctx *s, const char *q, const char *k,
                     const json_t *x, const void *data)
{
  bool scanner = data && *(const bool *) data;
  if (streq (k, "enabled"))
    return want_bool (s, q, x);
  if (streq (k, "name"))
    return want_string (s, q, x);
  if (scanner && streq (k, "severity_threshold"))
    return check_threshold (s, q, x);
  if (!scanner && streq (k, "extension"))
    {
      int r = want_string (s, q, x);
      if (r == 0 && !ash_config_extension_valid (json_string_value (x)))
        r = fail (s, q,
                  _ ("'%s' must be a file name extension such as "
                     "summary.md: letters, digits, '-', '_' and '.', "
                     "not starting with '.'"),
                  q);
      return r;
    }
  if (streq (k, "options"))
    {
      int r = want_object (s, q, x);
      json_t *t = r == 0 ? json_object_get (x, "scan_timeout") : NULL;
      if (t)
        {
          _cleanup_free_ char *tp = child_path (q, "scan_timeout");
          if (!json_is_integer (t) || json_integer_value (t) <= 0)
            r = fail (s, tp, _ ("'%s' must be a positive integer (seconds)"),
                      tp);
        }
      t = r == 0 && scanner ? json_object_get (x, "severity_threshold") : NULL;
      if (t)
        {
          _cleanup_free_ char *tp = child_path (q, "severity_threshold");
          r = check_threshold (s, tp, t);
        }
      return r;
    }
  return unknown_key (s, q);
}

/* reporters.markdown.options and reporters.text.options: upstream's
   keys, each honoured (report/text.c).  DATA is the reporter's name.  */
static int
check_summary_option (struct sctx *s, const char *p, const char *k,
                      const json_t *x, const void *data)
{
  bool markdown = streq ((const char *) data, "markdown");
  if (streq (k, "include_summary") || streq (k, "include_detailed_findings")
      || streq (k, "include_findings_table")
      || (markdown
          && (streq (k, "use_collapsible_details") || streq (k, "compact"))))
    return want_bool (s, p, x);
  if (streq (k, "max_detailed_findings") || streq (k, "top_hotspots_limit"))
    {
      if (!json_is_integer (x) || json_integer_value (x) < 0)
        return fail (s, p, _ ("'%s' must be an integer of 0 or more"), p);
      return 0;
    }
  return unknown_key (s, p);
}

/* One component: its NAME and its section SEC.  */
static int
check_component (struct sctx *s, const char *p, const char *name,
                 const json_t *sec, const void *data)
{
  if (!valid_component_name (name))
    {
      /* Not quoted, like an unknown key.  */
      _cleanup_free_ char *parent = xstrdup (p);
      char *dot = strrchr (parent, '.');
      if (dot)
        *dot = '\0';
      return fail (s, p,
                   _ ("a name in '%s' may hold only letters, digits, '-' "
                      "and '_'"),
                   parent);
    }
  bool scanner = data && *(const bool *) data;
  if (!scanner)
    {
      /* Every reporter name is either one ash writes or refused: a name
         that did nothing would look like a report being produced.  An
         upstream cloud reporter turned off (upstream's own .ash.yaml has
         "security-hub: {enabled: false}") asks for nothing and is
         accepted.  */
      const char *why = ash_reporter_unavailable (name);
      if (why && !json_is_false (json_object_get (sec, "enabled")))
        return fail (s, p,
                     _ ("reporter '%s' is not available in ash: %s, and ash "
                        "writes its reports only to the output directory; "
                        "remove it or set '%s.enabled' to false"),
                     name, why, p);
      if (!why && !ash_reporter_known (name))
        {
          _cleanup_free_ char *known = ash_reporter_names_joined ();
          return fail (s, p,
                       _ ("unknown reporter '%s': ash has the "
                          "reporters %s"),
                       name, known);
        }
    }
  int r = check_mapping (s, p, sec, check_component_key, data);
  if (r == 0 && !scanner && (streq (name, "markdown") || streq (name, "text")))
    {
      _cleanup_free_ char *q = child_path (p, "options");
      json_t *o = json_object_get (sec, "options");
      if (o && !json_is_null (o))
        r = check_mapping (s, q, o, check_summary_option, name);
    }
  return r;
}

/* scanners / reporters: NAME -> {enabled, options, name, ...}.  */
static int
check_components (struct sctx *s, const char *kpath, const json_t *v,
                  bool scanners)
{
  return check_mapping (s, kpath, v, check_component, &scanners);
}

/* converters.archive.options and converters.jupyter.options: DATA is the
   converter's name.  */
static int
check_converter_option (struct sctx *s, const char *p, const char *k,
                        const json_t *x, const void *data)
{
  const char *conv = data;
  bool archive = streq (conv, "archive");
  if ((!archive && streq (k, "scan_timeout"))
      || (archive
          && (streq (k, "max_total_size") || streq (k, "max_entries")
              || streq (k, "max_ratio"))))
    {
      if (!json_is_integer (x) || json_integer_value (x) <= 0)
        return fail (s, p, _ ("'%s' must be a positive integer"), p);
      return 0;
    }
  if (!archive && streq (k, "install_timeout"))
    {
      if (!json_is_null (x)
          && (!json_is_integer (x) || json_integer_value (x) <= 0
              || json_integer_value (x) > 86400))
        return fail (s, p,
                     _ ("'%s' must be a number of seconds from 1 to 86400"),
                     p);
      return 0;
    }
  if (!archive && streq (k, "tool_version"))
    {
      if (!json_is_null (x))
        return fail (s, p,
                     _ ("'%s' is not supported: ash does not check the "
                        "version of jupyter-nbconvert (leave it null)"),
                     p);
      return 0;
    }
  if (archive && streq (k, "max_depth"))
    {
      if (!json_is_integer (x) || json_integer_value (x) < 0)
        return fail (s, p, _ ("'%s' must be an integer of 0 or more"), p);
      return 0;
    }
  return unknown_key (s, p);
}

static int
check_converter_key (struct sctx *s, const char *q, const char *k,
                     const json_t *x, const void *data)
{
  if (streq (k, "enabled"))
    return want_bool (s, q, x);
  if (streq (k, "name"))
    {
      int r = want_string (s, q, x);
      if (r == 0 && !streq (json_string_value (x), (const char *) data))
        return fail (s, q, _ ("'%s': the converter's name is '%s'"), q,
                     (const char *) data);
      return r;
    }
  if (streq (k, "options"))
    return check_mapping (s, q, x, check_converter_option, data);
  return unknown_key (s, q);
}

static int
check_converter (struct sctx *s, const char *p, const char *name,
                 const json_t *sec, const void *data)
{
  (void) data;
  if (!streq (name, "archive") && !streq (name, "jupyter"))
    return fail (s, p,
                 _ ("unknown converter '%s': ash has the converters archive "
                    "and jupyter"),
                 name);
  return check_mapping (s, p, sec, check_converter_key, name);
}

static int
check_sandbox_key (struct sctx *s, const char *p, const char *k,
                   const json_t *x, const void *data)
{
  (void) data;
  if (streq (k, "mode"))
    return want_enum (s, p, x, ash_sandbox_modes);
  if (streq (k, "network_scanners") || streq (k, "extra_read_paths")
      || streq (k, "read_path_scanners") || streq (k, "env_scanners")
      || streq (k, "env_allow"))
    return want_string_list (s, p, x);
  return unknown_key (s, p);
}

static int
check_sandbox (struct sctx *s, const char *kpath, const json_t *v)
{
  return check_mapping (s, kpath, v, check_sandbox_key, NULL);
}

int
ash_config_schema_check (const json_t *tree, const char *file,
                         const json_t *positions, struct ash_error *err)
{
  struct sctx s = { .file = file, .positions = positions, .err = err };
  const char *k;
  json_t *x;
  int r = 0;

  if (!json_is_object (tree))
    return ash_error_set_at (err, -EINVAL, file, 0, 0,
                             _ ("the configuration must be a mapping"));
  json_object_foreach ((json_t *) tree, k, x)
    {
      if (streq (k, "project_name") || streq (k, "extends"))
        r = want_string (&s, k, x);
      else if (streq (k, "fail_on_findings")
               || streq (k, "fail_on_incomplete_scanners"))
        r = want_bool (&s, k, x);
      else if (streq (k, "ash_plugin_modules")
               || streq (k, "external_reports_to_include"))
        r = want_string_list (&s, k, x);
      else if (streq (k, "ash_aws_plugins") || streq (k, "ash_snyk_plugins"))
        {
          if (!json_is_boolean (x))
            r = want_string_list (&s, k, x);
        }
      else if (streq (k, "global_settings"))
        r = check_global_settings (&s, k, x);
      else if (streq (k, "scanners"))
        r = check_components (&s, k, x, true);
      else if (streq (k, "converters"))
        r = check_mapping (&s, k, x, check_converter, NULL);
      else if (streq (k, "reporters"))
        r = check_components (&s, k, x, false);
      else if (streq (k, "sandbox"))
        r = check_sandbox (&s, k, x);
      else if (streq (k, "build") || streq (k, "workspace")
               || streq (k, "mcp-resource-management"))
        r = upstream_only (&s, k, x);
      else
        r = unknown_key (&s, k);
      if (r < 0)
        return r;
    }
  return 0;
}

void
ash_config_misplaced (const json_t *root, struct ash_strvec *warnings)
{
  static const struct
  {
    const char *key, *why;
  } upstream[] = {
    { "build", N_ ("ash builds no container image") },
    { "workspace", N_ ("ash scans the source directory as one project") },
    { "mcp-resource-management", N_ ("ash has no MCP server") },
  };
  for (size_t i = 0; i < ARRAY_SIZE (upstream); i++)
    {
      json_t *v = json_object_get (root, upstream[i].key);
      if (v && !json_is_null (v))
        ash_strvec_pushf (warnings,
                          _ ("'%s' has no effect in ash (%s); it is accepted "
                             "for upstream's configuration files"),
                          upstream[i].key, _ (upstream[i].why));
    }
  json_t *mcp
    = json_object_get (json_object_get (root, "global_settings"), "mcp");
  if (mcp && !json_is_null (mcp))
    ash_strvec_pushf (warnings,
                      _ ("'%s' has no effect in ash (%s); it is accepted for "
                         "upstream's configuration files"),
                      "global_settings.mcp", _ ("ash has no MCP server"));
  const char *name;
  json_t *sec;
  json_object_foreach (json_object_get (root, "scanners"), name, sec)
    if (json_is_object (sec)
        && json_object_get (sec, "severity_threshold") != NULL)
      ash_strvec_pushf (warnings,
                        _ ("scanners.%s.severity_threshold does nothing "
                           "there (upstream ignores it too); it belongs in "
                           "scanners.%s.options.severity_threshold"),
                        name, name);
}
