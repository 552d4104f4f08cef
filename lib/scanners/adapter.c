/* SPDX-License-Identifier: Apache-2.0 */
/* adapter.c -- the pieces every scanner adapter shares.  */

#include <config.h>

#include "scanners/adapter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/util.h"
#include "base/version.h"
#include "fs/tree.h"
#include "sandbox/backend.h"
#include "sandbox/policy.h"
#include "sandbox/probe-cache.h"

/* Options.  */

static const char *
type_name (enum ash_option_type t)
{
  switch (t)
    {
    case ASH_OPTION_STRING:
      return _ ("a string");
    case ASH_OPTION_BOOL:
      return _ ("true or false");
    case ASH_OPTION_INT:
      return _ ("a positive integer");
    case ASH_OPTION_STRLIST:
      return _ ("a list of strings");
    }
  return "?";
}

static bool
in_choices (const char *v, const char *const *choices)
{
  if (choices == NULL)
    return true;
  for (size_t i = 0; choices[i]; i++)
    if (strcasecmp (v, choices[i]) == 0)
      return true;
  return false;
}

static char *
choices_text (const char *const *choices)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; choices[i]; i++)
    ash_buf_addf (&b, "%s%s", i ? ", " : "", choices[i]);
  return ash_buf_detach (&b);
}

static int
check_value (const char *scanner, const struct ash_option_spec *o,
             const json_t *v, struct ash_error *err)
{
  bool ok;
  switch (o->type)
    {
    case ASH_OPTION_STRING:
      ok = json_is_string (v);
      break;
    case ASH_OPTION_BOOL:
      ok = json_is_boolean (v);
      break;
    case ASH_OPTION_INT:
      ok = json_is_integer (v) && json_integer_value (v) > 0;
      break;
    case ASH_OPTION_STRLIST:
      ok = json_is_array (v);
      for (size_t i = 0; ok && i < json_array_size (v); i++)
        ok = json_is_string (json_array_get (v, i));
      break;
    default:
      ok = false;
    }
  if (!ok)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s must be %s"), scanner,
                          o->name, type_name (o->type));
  if (o->choices == NULL)
    return 0;
  for (size_t i = 0; i < (json_is_array (v) ? json_array_size (v) : 1); i++)
    {
      const char *s
        = json_string_value (json_is_array (v) ? json_array_get (v, i) : v);
      if (s && !in_choices (s, o->choices))
        {
          _cleanup_free_ char *c = choices_text (o->choices);
          return ash_error_set (err, -EINVAL,
                                _ ("scanners.%s.options.%s: '%s' is not one "
                                   "of %s"),
                                scanner, o->name, s, c);
        }
    }
  return 0;
}

int
ash_adapter_check_options (const char *scanner, const json_t *options,
                           const struct ash_option_spec *spec,
                           struct ash_error *err)
{
  const char *key;
  json_t *v;

  if (options == NULL || json_is_null (options))
    return 0;
  if (!json_is_object (options))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options must be a mapping"),
                          scanner);
  json_object_foreach ((json_t *) options, key, v)
    {
      const struct ash_option_spec *o = NULL;
      /* Read by the scan itself (the schema checked their values).  */
      if (streq (key, "scan_timeout") || streq (key, "severity_threshold"))
        continue;
      /* Checked below, for every scanner alike.  */
      if (streq (key, "tool_version") || streq (key, "install_timeout"))
        continue;
      for (size_t i = 0; spec[i].name; i++)
        if (streq (spec[i].name, key))
          o = &spec[i];
      if (o == NULL)
        {
          struct ash_buf b = ASH_BUF_INIT;
          for (size_t i = 0; spec[i].name; i++)
            ash_buf_addf (&b, "%s, ", spec[i].name);
          ash_buf_addstr (&b, "scan_timeout, severity_threshold, "
                              "tool_version, install_timeout");
          int r = ash_error_set (err, -EINVAL,
                                 _ ("scanners.%s.options.%s: ash does not "
                                    "support this option of %s (it supports "
                                    "%s)"),
                                 scanner, key, scanner, b.buf);
          ash_buf_release (&b);
          return r;
        }
      if (json_is_null (v))
        continue;
      int r = check_value (scanner, o, v, err);
      if (r < 0)
        return r;
    }
  return ash_adapter_check_install_options (scanner, options, true, err);
}

const char *
ash_adapter_opt_string (const json_t *options, const char *key)
{
  const char *s = json_string_value (json_object_get (options, key));
  return s && *s ? s : NULL;
}

bool
ash_adapter_opt_bool (const json_t *options, const char *key, bool def)
{
  json_t *v = json_object_get (options, key);
  return json_is_boolean (v) ? json_is_true (v) : def;
}

long long
ash_adapter_opt_int (const json_t *options, const char *key)
{
  json_t *v = json_object_get (options, key);
  return json_is_integer (v) ? json_integer_value (v) : 0;
}

void
ash_adapter_opt_strlist (const json_t *options, const char *key,
                         struct ash_strvec *ret)
{
  json_t *v = json_object_get (options, key);
  size_t i;
  json_t *x;
  if (!json_is_array (v))
    return;
  json_array_foreach (v, i, x)
    if (json_is_string (x))
      ash_strvec_push (ret, json_string_value (x));
}

bool
ash_adapter_opt_set (const json_t *options, const char *key)
{
  json_t *v = json_object_get (options, key);
  return v != NULL && !json_is_null (v);
}

int
ash_adapter_opt_list (const json_t *options, const char *key,
                      struct ash_opt_list *l, struct ash_strvec *ret)
{
  json_t *v = json_object_get (options, key);
  struct ash_strvec got = ASH_STRVEC_INIT;
  size_t i;
  json_t *item;

  l->fault = 0;
  l->index = 0;
  l->item = NULL;
  if (v == NULL || json_is_null (v))
    return 0;
  if (!json_is_array (v))
    {
      l->fault = ASH_OPT_LIST_NOT_LIST;
      return -EINVAL;
    }
  json_array_foreach (v, i, item)
    {
      const char *s
        = json_string_value (l->with_reason && json_is_object (item)
                               ? json_object_get (item, "path")
                               : item);
      l->index = i;
      l->item = s;
      if (s == NULL || (l->non_empty && *s == '\0'))
        l->fault = ASH_OPT_LIST_BAD_ITEM;
      else if (l->valid && !l->valid (s, l->arg))
        l->fault = ASH_OPT_LIST_REFUSED;
      if (l->fault)
        {
          ash_strvec_release (&got);
          return -EINVAL;
        }
      ash_strvec_push (&got, s);
    }
  if (ret)
    ash_strvec_pushv (ret, got.v);
  ash_strvec_release (&got);
  return 0;
}

const char *
ash_adapter_unknown_option (const json_t *options, const char *const *allowed)
{
  const char *key;
  json_t *v;

  if (!json_is_object (options))
    return NULL;
  json_object_foreach ((json_t *) options, key, v)
    {
      bool ok = streq (key, "scan_timeout");
      for (size_t i = 0; !ok && allowed[i]; i++)
        ok = streq (allowed[i], key);
      if (!ok)
        return key;
    }
  return NULL;
}

int
ash_adapter_get_bool (const char *scanner, const json_t *options,
                      const char *key, bool def, bool *ret,
                      struct ash_error *err)
{
  json_t *v = json_object_get (options, key);
  *ret = def;
  if (v == NULL || json_is_null (v))
    return 0;
  if (!json_is_boolean (v))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s must be true or false"),
                          scanner, key);
  *ret = json_is_true (v);
  return 0;
}

int
ash_adapter_get_string (const char *scanner, const json_t *options,
                        const char *key, bool non_empty, const char **ret,
                        struct ash_error *err)
{
  json_t *v = json_object_get (options, key);
  *ret = NULL;
  if (v == NULL || json_is_null (v))
    return 0;
  if (non_empty && (!json_is_string (v) || *json_string_value (v) == '\0'))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s must be a non-empty "
                             "string"),
                          scanner, key);
  if (!json_is_string (v))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s must be a string"),
                          scanner, key);
  if (*json_string_value (v))
    *ret = json_string_value (v);
  return 0;
}

int
ash_adapter_check_install_options (const char *scanner, const json_t *options,
                                   bool version_checked, struct ash_error *err)
{
  json_t *v = json_object_get (options, "tool_version");
  if (v && !json_is_null (v))
    {
      _cleanup_free_ char *key
        = xasprintf ("scanners.%s.options.tool_version", scanner);
      if (!version_checked)
        return ash_error_set (err, -ENOTSUP,
                              _ ("%s is not supported: ash does not check "
                                 "the version of %s's modules"),
                              key, scanner);
      if (!json_is_string (v))
        return ash_error_set (err, -EINVAL,
                              _ ("%s must be a string such as "
                                 "\">=1.7.0,<2.0.0\""),
                              key);
      int r = ash_version_spec_check (json_string_value (v), key, err);
      if (r < 0)
        return r;
    }
  v = json_object_get (options, "install_timeout");
  if (v && !json_is_null (v)
      && !(json_is_integer (v) && json_integer_value (v) > 0
           && json_integer_value (v) <= 86400))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.install_timeout must be a "
                             "number of seconds from 1 to 86400"),
                          scanner);
  return 0;
}

int
ash_adapter_check_tool_version (const struct ash_scanner *s,
                                const struct ash_scan_job *job,
                                struct ash_error *err)
{
  const char *want
    = json_string_value (json_object_get (job->options, "tool_version"));
  if (want == NULL)
    return 0;
  if (!s->checks_tool_version)
    return 0;
  _cleanup_free_ char *key
    = xasprintf ("scanners.%s.options.tool_version", s->name);
  int r = ash_version_spec_check (want, key, err);
  if (r < 0)
    return r;
  _cleanup_free_ char *version
    = ash_tool_cache_load (s->name, job->tool_path, "tool-version");
  if (version == NULL)
    {
      _cleanup_free_ char *out = NULL;
      char *argv[]
        = { (char *) job->tool_path,
            (char *) (s->version_arg ? s->version_arg : "--version"), NULL };
      r = ash_adapter_probe (job, argv, &out, err);
      if (r < 0)
        {
          ash_error_prefix (err,
                            _ ("cannot ask %s for its version to check "
                               "%s"),
                            s->tool, key);
          err->kind = ASH_KIND_SCANNER_MISSING;
          return r;
        }
      version = ash_version_from_output (out);
      if (version == NULL)
        {
          ash_error_set (err, -ENOENT,
                         _ ("%s %s printed no version, so %s cannot be "
                            "checked"),
                         job->tool_path, argv[1], key);
          err->kind = ASH_KIND_SCANNER_MISSING;
          return -ENOENT;
        }
      ash_tool_cache_store (s->name, job->tool_path, "tool-version", version);
    }
  r = ash_version_spec_match (want, version, key, err);
  if (r < 0)
    return r;
  if (r == 0)
    {
      _cleanup_free_ char *v = ash_escape_control (version);
      _cleanup_free_ char *w = ash_escape_control (want);
      ash_error_set (err, -ENOENT,
                     _ ("%s %s at %s does not satisfy %s '%s' (install a "
                        "version that does with: ash dependencies install "
                        "--scanners %s, or %s)"),
                     s->tool, v, job->tool_path, key, w, s->name,
                     s->install_hint);
      err->kind = ASH_KIND_SCANNER_MISSING;
      return -ENOENT;
    }
  return 0;
}

/* The option-file rule.  */

int
ash_adapter_option_file (const struct ash_scan_job *job, const char *key,
                         const char *value, char **ret_path,
                         struct ash_error *err)
{
  return ash_adapter_option_path (job, key, value, false, ret_path, err);
}

int
ash_adapter_option_path (const struct ash_scan_job *job, const char *key,
                         const char *value, bool allow_dir, char **ret_path,
                         struct ash_error *err)
{
  _cleanup_free_ char *dotted
    = xasprintf ("scanners.%s.options.%s", job->name, key);
  _cleanup_free_ char *joined
    = value[0] == '/' ? xstrdup (value) : ash_path_join (job->target, value);
  _cleanup_free_ char *path = ash_path_normalize (joined);
  _cleanup_free_ char *real = realpath (path, NULL);
  struct stat st;

  if (real == NULL || stat (real, &st) < 0)
    return ash_error_set (err, -ENOENT,
                          _ ("%s is '%s', which does not exist; fix the path "
                             "or unset the option"),
                          dotted, value);
  if (!S_ISREG (st.st_mode) && !(allow_dir && S_ISDIR (st.st_mode)))
    return ash_error_set (err, -EINVAL,
                          allow_dir ? _ ("%s is '%s', which is not a regular "
                                         "file or a directory")
                                    : _ ("%s is '%s', which is not a regular "
                                         "file"),
                          dotted, value);

  if (job->config)
    {
      /* A config the repository could have written may name a file in
         its own tree only: never one elsewhere on the host.  */
      bool over = false;
      int idx = ash_config_origin_index (job->config, dotted, &over);
      if (!over && idx >= 0)
        {
          bool may = true;
          _cleanup_free_ char *why = NULL;
          ash_config_tier_judge_file (job->config, (size_t) idx, job->tier,
                                      &may, &why);
          _cleanup_free_ char *src = realpath (job->target, NULL);
          if (!may && !(src && ash_path_is_inside (real, src)))
            return ash_error_set (err, -EPERM,
                                  _ ("%s is '%s', set by a config the scanned "
                                     "repository could have written (%s), "
                                     "and it is outside the scanned tree; set "
                                     "it with --config-overrides or a config "
                                     "file outside every git checkout"),
                                  dotted, value,
                                  why ? why : _ ("it cannot be judged"));
        }
      bool trusted = true;
      _cleanup_free_ char *reason = NULL;
      struct ash_error terr = ASH_ERROR_INIT;
      int r
        = ash_config_option_file_trusted (job->config, dotted, path, job->tier,
                                          &trusted, &reason, &terr);
      ash_error_release (&terr);
      if (r < 0 || !trusted)
        return ash_error_set (err, -EPERM,
                              _ ("%s is '%s', set by a config the scanned "
                                 "repository could have written, and that "
                                 "file is not the operator's (%s); set it "
                                 "with --config-overrides or a config file "
                                 "outside every git checkout, or tune "
                                 "findings with ASH suppressions"),
                              dotted, value,
                              reason ? reason : _ ("it cannot be judged"));
    }

  if (job->sandboxed)
    {
      _cleanup_free_ char *src = realpath (job->target, NULL);
      bool inside = src && ash_path_is_inside (real, src);
      for (size_t i = 0;
           !inside && job->settings && i < job->settings->extra_read_paths.nr;
           i++)
        {
          _cleanup_free_ char *e
            = realpath (job->settings->extra_read_paths.v[i], NULL);
          if (e && ash_path_is_inside (real, e))
            inside = true;
        }
      if (!inside)
        return ash_error_set (err, -EACCES,
                              _ ("%s is '%s', which is outside the source "
                                 "tree, so the sandbox does not mount it; "
                                 "put its directory in "
                                 "sandbox.extra_read_paths (from a config "
                                 "outside every git checkout)"),
                              dotted, value);
    }
  *ret_path = TAKE_PTR (real);
  return 0;
}

/* Exclusions.  */

/* "<path>: <origin>" (or a quoted path) -> the path, or NULL when it is
   quoted (it holds a control character or starts with a quote).  */
static char *
ignored_path (const char *line)
{
  if (line[0] == '"')
    return NULL;
  const char *sep = strstr (line, ": ");
  char *p = sep ? xstrndup (line, (size_t) (sep - line)) : xstrdup (line);
  size_t n = strlen (p);
  while (n > 1 && p[n - 1] == '/')
    p[--n] = '\0';
  return p;
}

static bool
has_control (const char *s)
{
  for (; *s; s++)
    if ((unsigned char) *s < 0x20 || *s == 0x7f)
      return true;
  return false;
}

static int
not_excludable (struct ash_error *err, const char *scanner, const char *why)
{
  int r = ash_error_set (err, -EINVAL,
                         _ ("%s was not run on the source directory: %s"),
                         scanner, why);
  if (err)
    err->kind = ASH_KIND_LINK_NOT_EXCLUDABLE;
  return r;
}

int
ash_adapter_excluded_paths (const struct ash_scan_job *job,
                            struct ash_strvec *ret, struct ash_error *err)
{
  const struct ash_scanset *s = job->scanset;

  for (size_t i = 0; s && i < s->leaving.nr; i++)
    {
      if (has_control (s->leaving.v[i]))
        {
          _cleanup_free_ char *shown = ash_escape_control (s->leaving.v[i]);
          _cleanup_free_ char *why = xasprintf (
            _ ("the link '%s' leaves the scanned tree, and its path holds a "
               "line break or another control character, which the tool's "
               "exclusion syntax cannot name"),
            shown);
          return not_excludable (err, job->name, why);
        }
      if (!ash_strvec_contains (ret, s->leaving.v[i]))
        ash_strvec_push (ret, s->leaving.v[i]);
    }
  for (size_t i = 0; s && i < s->ignored.nr; i++)
    {
      _cleanup_free_ char *p = ignored_path (s->ignored.v[i]);
      if (p == NULL)
        return not_excludable (err, job->name,
                               _ ("an ignored path holds a line break or "
                                  "another control character, which the "
                                  "tool's exclusion syntax cannot name"));
      if (!ash_strvec_contains (ret, p))
        ash_strvec_push (ret, p);
    }
  for (size_t i = 0; job->excluded_paths && job->excluded_paths[i]; i++)
    {
      const char *e = job->excluded_paths[i];
      if (e[0] == '/')
        {
          if (!ash_path_is_inside (e, job->target) || streq (e, job->target))
            continue;
          e += strlen (job->target);
          while (*e == '/')
            e++;
        }
      if (*e && !ash_strvec_contains (ret, e))
        ash_strvec_push (ret, e);
    }
  return 0;
}

/* Output.  */

int
ash_adapter_read_output (const struct ash_scan_job *job, const char *name,
                         struct ash_buf *ret, struct ash_error *err)
{
  struct ash_error rerr = ASH_ERROR_INIT;
  int r
    = ash_tree_read_file (job->results_fd, name, job->max_output, ret, &rerr);
  _cleanup_free_ char *path = ash_path_join (job->results_dir, name);
  if (r == -ENOENT)
    r = ash_error_set (err, r, _ ("%s wrote no output (%s is missing)"),
                       job->name, path);
  else if (r < 0)
    r = ash_error_set (err, r, _ ("%s: cannot read its output %s: %s"),
                       job->name, path,
                       rerr.message ? rerr.message : strerror (-r));
  else if (ret->len == 0)
    r = ash_error_set (err, -ENODATA, _ ("%s: its output %s is empty"),
                       job->name, path);
  ash_error_release (&rerr);
  return r;
}

int
ash_adapter_read_sarif (const struct ash_scan_job *job, const char *name,
                        json_t **ret_doc, struct ash_error *err)
{
  /* Parsed as it is read (ash_sarif_parse_file), with the errors of
     ash_adapter_read_output for a file that cannot be read or is
     empty.  */
  struct ash_error perr = ASH_ERROR_INIT;
  size_t len;
  bool unread;
  int r = ash_sarif_parse_file (job->results_fd, name, job->max_output,
                                ret_doc, &len, &unread, &perr);
  _cleanup_free_ char *path = ash_path_join (job->results_dir, name);
  if (r == -ENOENT && unread)
    r = ash_error_set (err, r, _ ("%s wrote no output (%s is missing)"),
                       job->name, path);
  else if (r < 0 && unread)
    r = ash_error_set (err, r, _ ("%s: cannot read its output %s: %s"),
                       job->name, path,
                       perr.message ? perr.message : strerror (-r));
  else if (r < 0 && len == 0)
    r = ash_error_set (err, -ENODATA, _ ("%s: its output %s is empty"),
                       job->name, path);
  else if (r < 0)
    ash_error_set (err, r, _ ("%s: its output %s is unusable: %s"), job->name,
                   path, perr.message);
  ash_error_release (&perr);
  return r;
}

/* SARIF normalisation.  */

enum ash_severity
ash_adapter_score_severity (double score)
{
  if (score >= 9.0)
    return ASH_SEVERITY_CRITICAL;
  if (score >= 7.0)
    return ASH_SEVERITY_HIGH;
  if (score >= 4.0)
    return ASH_SEVERITY_MEDIUM;
  if (score > 0.0)
    return ASH_SEVERITY_LOW;
  return ASH_SEVERITY_INFO;
}

static bool
rule_score (const json_t *rule, double *ret)
{
  json_t *v = json_object_get (json_object_get (rule, "properties"),
                               "security-severity");
  if (json_is_number (v))
    {
      *ret = json_number_value (v);
      return true;
    }
  if (json_is_string (v))
    {
      char *end;
      double d = strtod (json_string_value (v), &end);
      if (end != json_string_value (v))
        {
          *ret = d;
          return true;
        }
    }
  return false;
}

static enum ash_severity
default_severity (const json_t *result, const json_t *rule)
{
  double score;
  if (rule && rule_score (rule, &score))
    return ash_adapter_score_severity (score);
  const char *level = json_string_value (json_object_get (result, "level"));
  if (level == NULL && rule)
    level = json_string_value (
      json_object_get (json_object_get (rule, "defaultConfiguration"),
                       "level"));
  if (level && streq (level, "error"))
    return ASH_SEVERITY_HIGH;
  if (level && streq (level, "note"))
    return ASH_SEVERITY_LOW;
  if (level && streq (level, "none"))
    return ASH_SEVERITY_INFO;
  return ASH_SEVERITY_MEDIUM;
}

/* URI of an artifact location, relative to SOURCE_DIR (or its real
   path).  Sets *OUTSIDE when it names a path outside it.  */
static void
relativize (json_t *artloc, const char *source_dir, const char *real_source,
            bool *outside)
{
  const char *uri = json_string_value (json_object_get (artloc, "uri"));
  if (uri == NULL)
    return;
  _cleanup_free_ char *u = NULL;
  if (strncmp (uri, "file://", 7) == 0)
    u = xstrdup (uri + 7);
  else
    u = xstrdup (uri);
  json_object_del (artloc, "uriBaseId");
  if (u[0] != '/')
    {
      char *p = u;
      while (p[0] == '.' && p[1] == '/')
        p += 2;
      _cleanup_free_ char *n = ash_path_normalize (p);
      if (strncmp (n, "../", 3) == 0 || streq (n, ".."))
        {
          const char *base = strrchr (n, '/');
          json_object_set_new (artloc, "uri",
                               json_string (base ? base + 1 : n));
          *outside = true;
        }
      else
        json_object_set_new (artloc, "uri", json_string (n));
      return;
    }
  _cleanup_free_ char *n = ash_path_normalize (u);
  const char *roots[] = { source_dir, real_source };
  for (size_t i = 0; i < 2; i++)
    if (roots[i] && ash_path_is_inside (n, roots[i]) && !streq (n, roots[i]))
      {
        const char *rel = n + strlen (roots[i]);
        while (*rel == '/')
          rel++;
        json_object_set_new (artloc, "uri", json_string (rel));
        return;
      }
  const char *base = strrchr (n, '/');
  json_object_set_new (artloc, "uri", json_string (base ? base + 1 : n));
  *outside = true;
}

static void
redact_region (json_t *region)
{
  json_t *snip = json_object_get (region, "snippet");
  if (json_is_object (snip))
    {
      json_object_clear (snip);
      json_object_set_new (snip, "text", json_string ("REDACTED"));
    }
}

static void
fix_location (json_t *loc, const struct ash_sarif_norm *n,
              const char *real_source, bool *outside)
{
  json_t *phys = json_object_get (loc, "physicalLocation");
  relativize (json_object_get (phys, "artifactLocation"), n->source_dir,
              real_source, outside);
  if (n->redact_snippets)
    {
      redact_region (json_object_get (phys, "region"));
      redact_region (json_object_get (phys, "contextRegion"));
    }
}

static json_t *
text_of (const json_t *m)
{
  const char *t = json_string_value (json_object_get (m, "text"));
  return t && *t ? json_string (t) : NULL;
}

static void
fix_rule (json_t *rule)
{
  json_t *help = json_object_get (rule, "help");
  if (!json_is_object (help)
      || !json_is_string (json_object_get (help, "text")))
    {
      json_t *t = text_of (json_object_get (rule, "fullDescription"));
      if (t == NULL)
        t = text_of (json_object_get (rule, "shortDescription"));
      if (t == NULL)
        {
          const char *name
            = json_string_value (json_object_get (rule, "name"));
          if (name && *name)
            t = json_string (name);
        }
      if (t == NULL)
        t = json_string (json_string_value (json_object_get (rule, "id")));
      if (json_is_object (help))
        json_object_set_new (help, "text", t);
      else
        json_object_set_new (rule, "help", json_pack ("{s:o}", "text", t));
    }
}

static void
normalize_run (json_t *run, const struct ash_sarif_norm *n,
               const char *real_source)
{
  json_t *tool = json_object_get (run, "tool");
  if (!json_is_object (tool))
    {
      tool = json_object ();
      json_object_set_new (run, "tool", tool);
    }
  json_t *driver = json_object_get (tool, "driver");
  if (!json_is_object (driver))
    {
      driver = json_object ();
      json_object_set_new (tool, "driver", driver);
    }
  json_object_set_new (driver, "name", json_string (n->driver_name));
  if (n->version)
    {
      json_object_set_new (driver, "version", json_string (n->version));
      json_object_del (driver, "semanticVersion");
    }
  if (n->info_uri && !json_object_get (driver, "informationUri"))
    json_object_set_new (driver, "informationUri", json_string (n->info_uri));
  json_t *rules = json_object_get (driver, "rules");
  if (!json_is_array (rules))
    {
      rules = json_array ();
      json_object_set_new (driver, "rules", rules);
    }
  /* Runs carry the scanning host's paths here.  */
  json_object_del (run, "invocations");
  json_object_del (run, "originalUriBaseIds");
  json_t *arts = json_object_get (run, "artifacts");
  size_t i;
  json_t *x;
  bool dummy = false;
  json_array_foreach (arts, i, x)
    relativize (json_object_get (x, "location"), n->source_dir, real_source,
                &dummy);

  json_t *index = json_object ();
  json_array_foreach (rules, i, x)
    {
      const char *id = json_string_value (json_object_get (x, "id"));
      if (id)
        json_object_set_new (index, id, json_integer ((json_int_t) i));
    }

  json_t *results = json_object_get (run, "results");
  if (!json_is_array (results))
    {
      results = json_array ();
      json_object_set_new (run, "results", results);
    }
  json_t *worst = json_object ();
  json_array_foreach (results, i, x)
    {
      const char *id = json_string_value (json_object_get (x, "ruleId"));
      json_t *rule = NULL;
      if (id)
        {
          json_t *idx = json_object_get (index, id);
          if (idx == NULL)
            {
              idx = json_integer ((json_int_t) json_array_size (rules));
              json_object_set_new (index, id, idx);
              json_array_append_new (rules, json_pack ("{s:s}", "id", id));
            }
          rule = json_array_get (rules, (size_t) json_integer_value (idx));
          json_object_set (x, "ruleIndex", idx);
        }
      enum ash_severity sev
        = n->severity ? n->severity (x, rule) : default_severity (x, rule);
      json_object_set_new (x, "level",
                           json_string (ash_severity_sarif_level (sev)));
      json_t *props = json_object_get (x, "properties");
      if (!json_is_object (props))
        {
          props = json_object ();
          json_object_set_new (x, "properties", props);
        }
      _cleanup_free_ char *up = xstrdup (ash_severity_name (sev));
      for (char *p = up; *p; p++)
        *p = (char) (*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
      json_object_set_new (props, "severity", json_string (up));
      if (id)
        {
          json_t *w = json_object_get (worst, id);
          if (w == NULL || json_integer_value (w) < (json_int_t) sev)
            json_object_set_new (worst, id, json_integer (sev));
        }
      bool outside = false;
      size_t k;
      json_t *loc;
      json_array_foreach (json_object_get (x, "locations"), k, loc)
        fix_location (loc, n, real_source, &outside);
      json_array_foreach (json_object_get (x, "relatedLocations"), k, loc)
        fix_location (loc, n, real_source, &outside);
      if (outside)
        json_object_set_new (props, "location_outside_source", json_true ());
      if (n->redact_snippets)
        json_object_del (x, "fingerprints");
    }

  json_array_foreach (rules, i, x)
    {
      fix_rule (x);
      json_t *props = json_object_get (x, "properties");
      if (!json_is_object (props))
        {
          props = json_object ();
          json_object_set_new (x, "properties", props);
        }
      double score;
      if (!rule_score (x, &score))
        {
          const char *id = json_string_value (json_object_get (x, "id"));
          json_t *w = id ? json_object_get (worst, id) : NULL;
          enum ash_severity s = w ? (enum ash_severity) json_integer_value (w)
                                  : default_severity (json_null (), x);
          json_object_set_new (props, "security-severity",
                               json_string (ash_severity_score (s)));
        }
      else if (!json_is_string (json_object_get (props, "security-severity")))
        {
          _cleanup_free_ char *t = xasprintf ("%.1f", score);
          json_object_set_new (props, "security-severity", json_string (t));
        }
    }
  json_decref (worst);
  json_decref (index);
}

int
ash_adapter_sarif_normalize (json_t *doc, const struct ash_sarif_norm *n,
                             struct ash_error *err)
{
  json_t *runs = json_object_get (doc, "runs");
  size_t i;
  json_t *run;

  if (!json_is_array (runs))
    return ash_error_set (err, -EINVAL,
                          _ ("the output is not a SARIF 2.1.0 log: no runs"));
  _cleanup_free_ char *real
    = n->source_dir ? realpath (n->source_dir, NULL) : NULL;
  json_array_foreach (runs, i, run)
    if (json_is_object (run))
      normalize_run (run, n, real);
  return 0;
}

char *
ash_adapter_regex_escape (const char *s)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (; *s; s++)
    {
      char c = *s;
      /* Only ASCII punctuation: Go's regexp (gitleaks) refuses a
         backslash before anything else, a space included.  */
      if (c > 0x20 && c < 0x7f
          && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
               || (c >= '0' && c <= '9') || c == '/' || c == '_' || c == '-'))
        ash_buf_addch (&b, '\\');
      ash_buf_addch (&b, c);
    }
  if (b.buf == NULL)
    return xstrdup ("");
  return ash_buf_detach (&b);
}

int
ash_adapter_write_run_data (const struct ash_scan_job *job, const char *name,
                            const void *body, size_t len, bool replace,
                            char **ret_path, struct ash_error *err)
{
  if (job->run_config_dir == NULL)
    return ash_error_set (err, -EINVAL,
                          _ ("%s has no run directory for its config files"),
                          job->name);
  _cleanup_free_ char *path = ash_path_join (job->run_config_dir, name);
  _cleanup_close_ int fd = open (path,
                                 O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC
                                   | (replace ? O_TRUNC : O_EXCL),
                                 0644);
  if (fd < 0 || ash_write_all (fd, body, len) < 0)
    return ash_error_set (err, -errno, _ ("cannot write %s: %s"), path,
                          strerror (errno));
  if (ret_path)
    *ret_path = TAKE_PTR (path);
  return 0;
}

int
ash_adapter_write_run_file (const struct ash_scan_job *job, const char *name,
                            const char *text, char **ret_path,
                            struct ash_error *err)
{
  return ash_adapter_write_run_data (job, name, text, strlen (text), false,
                                     ret_path, err);
}

extern char **environ;

int
ash_adapter_probe_run (const struct ash_scan_job *job, char *const *argv,
                       unsigned timeout_sec, char **ret_out,
                       struct ash_cmd_result *res, struct ash_error *err)
{
  struct ash_cmd cmd;

  *ret_out = NULL;
  ash_cmd_init (&cmd);
  ash_strvec_pushv (&cmd.argv, argv);
  const char *path = getenv ("PATH");
  if (path)
    ash_strvec_setenv (&cmd.env, "PATH", path);
  ash_strvec_setenv (&cmd.env, "LC_ALL", "C.UTF-8");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  cmd.out.max = 1 << 20;
  cmd.timeout_sec = timeout_sec;
  cmd.scope = job->scope;
  int r = ash_sandbox_run (&cmd, res, err);
  if (r == 0)
    *ret_out = xstrdup (cmd.out.buf ? cmd.out.buf : "");
  ash_cmd_release (&cmd);
  return r;
}

int
ash_adapter_probe (const struct ash_scan_job *job, char *const *argv,
                   char **ret_out, struct ash_error *err)
{
  struct ash_cmd_result res;
  char *out = NULL;
  int r = ash_adapter_probe_run (job, argv, 60, &out, &res, err);

  if (r == 0 && res.status != 0)
    {
      free (out);
      return ash_error_set (err, -EIO, _ ("%s %s exited with status %d"),
                            argv[0], argv[1] ? argv[1] : "", res.status);
    }
  if (r == 0)
    *ret_out = out;
  return r;
}

int
ash_adapter_run_tool (const struct ash_scan_job *job, char *const *argv,
                      struct ash_cmd_result *ret, struct ash_error *err)
{
  struct ash_cmd cmd;
  int r;

  ash_cmd_init (&cmd);
  ash_strvec_pushv (&cmd.argv, argv);
  if (job->scope && job->scope->kind == ASH_SCOPE_SANDBOX
      && job->scope->policy)
    ash_policy_env (job->scope->policy, &cmd.env);
  else
    ash_strvec_pushv (&cmd.env, environ);
  cmd.cwd = xstrdup (job->target);
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = ASH_STDIO_NULL;
  cmd.stderr_mode = ASH_STDIO_NULL;
  cmd.timeout_sec = 1800;
  cmd.scope = job->scope;
  memset (ret, 0, sizeof *ret);
  r = ash_sandbox_run (&cmd, ret, err);
  if (job->sandboxed)
    {
      struct ash_strvec removed = ASH_STRVEC_INIT;
      struct ash_error serr = ASH_ERROR_INIT;
      ash_tree_sweep (job->results_fd, ".", &removed, &serr);
      ash_strvec_release (&removed);
      ash_error_release (&serr);
    }
  ash_cmd_release (&cmd);
  return r;
}
