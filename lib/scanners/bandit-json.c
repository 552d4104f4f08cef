/* SPDX-License-Identifier: Apache-2.0 */
/* bandit-json.c -- bandit's command line and its JSON report mapped to
   SARIF 2.1.0 (the pieces of the bandit adapter that start nothing).  */

#include <config.h>

#include <errno.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "scan/sarif.h"
#include "scanners/scanner.h"

/* bandit's own default --exclude list, which an explicit --exclude
   replaces, so ash passes it along with its own.  */
static const char bandit_default_excludes[]
  = ".svn,CVS,.bzr,.hg,.git,__pycache__,.tox,.eggs,*.egg";

int
ash_bandit_argv (const char *tool, const json_t *options,
                 char *const *excluded_paths, const char *format,
                 const char *out, const char *target, struct ash_strvec *argv,
                 struct ash_error *err)
{
  json_t *v;
  struct ash_buf excl = ASH_BUF_INIT;

  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "-r");
  ash_strvec_push (argv, "-f");
  ash_strvec_push (argv, format);
  ash_strvec_push (argv, "-o");
  ash_strvec_push (argv, out);

  v = json_object_get (options, "confidence_level");
  if (v && !json_is_null (v))
    {
      const char *c = json_string_value (v);
      if (c == NULL)
        return ash_error_set (err, -EINVAL,
                              _ ("bandit: option confidence_level must be "
                                 "one of all, low, medium, high"));
      if (strcasecmp (c, "low") == 0)
        ash_strvec_push (argv, "-i");
      else if (strcasecmp (c, "medium") == 0)
        ash_strvec_push (argv, "-ii");
      else if (strcasecmp (c, "high") == 0)
        ash_strvec_push (argv, "-iii");
      else if (strcasecmp (c, "all") != 0)
        return ash_error_set (err, -EINVAL,
                              _ ("bandit: option confidence_level must be "
                                 "one of all, low, medium, high, not '%s'"),
                              c);
    }

  if (json_is_true (json_object_get (options, "ignore_nosec")))
    ash_strvec_push (argv, "--ignore-nosec");

  /* skips and tests: bandit's -s and -t, lists of test ids (B101) or
     names.  */
  static const struct
  {
    const char *key, *flag;
  } lists[] = { { "skips", "-s" }, { "tests", "-t" } };
  for (size_t k = 0; k < ARRAY_SIZE (lists); k++)
    {
      v = json_object_get (options, lists[k].key);
      if (!json_is_array (v) || json_array_size (v) == 0)
        continue;
      struct ash_buf ids = ASH_BUF_INIT;
      size_t i;
      json_t *e;
      json_array_foreach (v, i, e)
        {
          const char *id = json_string_value (e);
          bool good = id && *id;
          for (const char *c = id; good && *c; c++)
            good = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')
                   || (*c >= '0' && *c <= '9') || *c == '_';
          if (!good)
            {
              ash_buf_release (&ids);
              return ash_error_set (err, -EINVAL,
                                    _ ("bandit: scanners.bandit.options.%s "
                                       "must list test ids such as B101"),
                                    lists[k].key);
            }
          ash_buf_addf (&ids, "%s%s", i ? "," : "", id);
        }
      ash_strvec_push (argv, lists[k].flag);
      ash_strvec_push_nodup (argv, ash_buf_detach (&ids));
    }

  const char *cfg
    = json_string_value (json_object_get (options, "config_file"));
  if (cfg && *cfg)
    {
      ash_strvec_push (argv, "-c");
      if (cfg[0] == '/')
        ash_strvec_push (argv, cfg);
      else
        ash_strvec_push_nodup (argv, ash_path_join (target, cfg));
    }

  ash_buf_addstr (&excl, bandit_default_excludes);
  v = json_object_get (options, "excluded_paths");
  if (json_is_array (v))
    {
      size_t i;
      json_t *p;
      json_array_foreach (v, i, p)
        {
          /* A path, or upstream's mapping of path and reason.  */
          const char *e = json_string_value (
            json_is_object (p) ? json_object_get (p, "path") : p);
          if (e && *e)
            {
              ash_buf_addch (&excl, ',');
              ash_buf_addstr (&excl, e);
            }
        }
    }
  /* bandit matches an exclusion as a substring of the path it walks, so
     an absolute path names exactly this entry: a relative one is given
     TARGET and a slash in front.  */
  size_t ltarget = strlen (target);
  bool slash = ltarget && target[ltarget - 1] != '/';
  for (size_t i = 0; excluded_paths && excluded_paths[i]; i++)
    {
      ash_buf_addch (&excl, ',');
      if (excluded_paths[i][0] != '/' && ltarget)
        {
          ash_buf_add (&excl, target, ltarget);
          if (slash)
            ash_buf_addch (&excl, '/');
        }
      ash_buf_addstr (&excl, excluded_paths[i]);
    }
  ash_strvec_push (argv, "--exclude");
  ash_strvec_push_nodup (argv, ash_buf_detach (&excl));
  ash_strvec_push (argv, target);
  return 0;
}

/* "3 import pickle\n4 import os\n" -> the text of the lines START..END.  */
static char *
snippet_of (const char *code, int start, int end)
{
  struct ash_buf b = ASH_BUF_INIT;
  const char *p = code;

  while (p && *p)
    {
      const char *nl = strchr (p, '\n');
      size_t len = nl ? (size_t) (nl - p) : strlen (p);
      char *rest;
      long n = strtol (p, &rest, 10);
      if (rest != p && n >= start && n <= end)
        {
          if (*rest == ' ')
            rest++;
          if (rest < p + len)
            ash_buf_add (&b, rest, (size_t) (p + len - rest));
          ash_buf_addch (&b, '\n');
        }
      p = nl ? nl + 1 : NULL;
    }
  if (b.len == 0)
    {
      ash_buf_release (&b);
      return NULL;
    }
  return ash_buf_detach (&b);
}

static char *
relative_uri (const char *filename, const char *source_dir)
{
  if (source_dir && filename[0] == '/')
    {
      size_t n = strlen (source_dir);
      while (n > 1 && source_dir[n - 1] == '/')
        n--;
      if (strncmp (filename, source_dir, n) == 0 && filename[n] == '/')
        return xstrdup (filename + n + 1);
    }
  while (filename[0] == '.' && filename[1] == '/')
    filename += 2;
  return xstrdup (filename);
}

static const char *
level_of (const char *severity)
{
  if (severity && strcasecmp (severity, "high") == 0)
    return "error";
  if (severity && strcasecmp (severity, "medium") == 0)
    return "warning";
  return "note";
}

int
ash_bandit_json_to_sarif (const char *text, size_t len, const char *source_dir,
                          json_t **ret_doc, struct ash_error *err)
{
  json_t *report = NULL;
  size_t i;
  json_t *item;
  int pr
    = ash_json_parse_output (_ ("bandit's report"), text, len, &report, err);

  if (pr < 0)
    return pr;
  json_t *results = json_object_get (report, "results");
  if (!json_is_object (report) || !json_is_array (results))
    {
      json_decref (report);
      return ash_error_set (err, -EINVAL,
                            _ ("bandit's report has no \"results\" list"));
    }

  json_t *doc = ash_sarif_doc_new ();
  json_t *run
    = ash_sarif_run_new ("bandit", NULL, "https://github.com/PyCQA/bandit");
  json_t *driver = json_object_get (json_object_get (run, "tool"), "driver");
  json_t *rules = json_object_get (driver, "rules");
  json_t *out = json_object_get (run, "results");
  json_t *rule_index = json_object ();

  json_array_foreach (results, i, item)
    {
      const char *test_id
        = json_string_value (json_object_get (item, "test_id"));
      const char *test_name
        = json_string_value (json_object_get (item, "test_name"));
      const char *text_
        = json_string_value (json_object_get (item, "issue_text"));
      const char *filename
        = json_string_value (json_object_get (item, "filename"));
      const char *sev
        = json_string_value (json_object_get (item, "issue_severity"));
      const char *conf
        = json_string_value (json_object_get (item, "issue_confidence"));
      const char *more
        = json_string_value (json_object_get (item, "more_info"));
      const char *code = json_string_value (json_object_get (item, "code"));
      json_int_t line
        = json_integer_value (json_object_get (item, "line_number"));
      json_t *range = json_object_get (item, "line_range");
      json_int_t end = line;

      if (test_id == NULL || filename == NULL)
        continue;
      if (json_is_array (range) && json_array_size (range) > 0)
        {
          json_int_t last = json_integer_value (
            json_array_get (range, json_array_size (range) - 1));
          if (last > end)
            end = last;
        }
      if (line < 1)
        line = end = 1;

      json_t *idx = json_object_get (rule_index, test_id);
      if (idx == NULL)
        {
          json_t *rule = json_pack ("{s:s}", "id", test_id);
          if (test_name)
            {
              json_object_set_new (rule, "name", json_string (test_name));
              json_object_set_new (rule, "shortDescription",
                                   json_pack ("{s:s}", "text", test_name));
            }
          if (more)
            json_object_set_new (rule, "helpUri", json_string (more));
          idx = json_integer ((json_int_t) json_array_size (rules));
          json_object_set_new (rule_index, test_id, idx);
          json_array_append_new (rules, rule);
        }

      _cleanup_free_ char *uri = relative_uri (filename, source_dir);
      json_t *region
        = json_pack ("{s:I, s:I}", "startLine", line, "endLine", end);
      json_t *col = json_object_get (item, "col_offset");
      if (json_is_integer (col) && json_integer_value (col) >= 0)
        json_object_set_new (region, "startColumn",
                             json_integer (json_integer_value (col) + 1));
      _cleanup_free_ char *snip
        = code ? snippet_of (code, (int) line, (int) end) : NULL;
      if (snip)
        json_object_set_new (region, "snippet",
                             json_pack ("{s:s}", "text", snip));

      json_t *props = json_object ();
      if (sev)
        json_object_set_new (props, "issue_severity", json_string (sev));
      if (conf)
        json_object_set_new (props, "issue_confidence", json_string (conf));
      if (test_name)
        json_object_set_new (props, "test_name", json_string (test_name));

      json_t *res
        = json_pack ("{s:s, s:O, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:o}}], s:o}",
                     "ruleId", test_id, "ruleIndex", idx, "level",
                     level_of (sev), "message", "text",
                     text_ ? text_ : test_id, "locations", "physicalLocation",
                     "artifactLocation", "uri", uri, "region", region,
                     "properties", props);
      if (res == NULL)
        ash_oom ();
      json_array_append_new (out, res);
    }

  json_decref (rule_index);
  json_array_append_new (json_object_get (doc, "runs"), run);
  json_decref (report);
  *ret_doc = doc;
  return 0;
}
