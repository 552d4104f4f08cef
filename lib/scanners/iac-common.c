/* SPDX-License-Identifier: Apache-2.0 */
/* iac-common.c -- what the infrastructure-as-code and workflow adapters
   share (see iac-common.h).  */

#include <config.h>

#include "scan/sarif.h"
#include "scanners/iac-common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "base/log.h"
#include "base/util.h"
#include "config/config-tier.h"
#include "fs/tree.h"
#include "sandbox/backend.h"
#include "scanners/adapter.h"

/* A template is read whole to be classified: the cap keeps a hostile
   repository from making ASH read a huge file into memory.  */
#define IAC_TEMPLATE_MAX (64u << 20)

int
ash_iac_check_options (const char *scanner, const json_t *options,
                       const char *const *allowed, struct ash_error *err)
{
  if (options == NULL || json_is_null (options))
    return 0;
  if (!json_is_object (options))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options must be a mapping"),
                          scanner);
  /* severity_threshold, like scan_timeout, is read by the scan itself
     (the configuration's schema checks its value, and it sets the
     threshold of the scanner's findings): every scanner takes it.  */
  size_t n = 0;
  while (allowed[n])
    n++;
  const char **all = xcalloc (n + 2, sizeof *all);
  memcpy (all, allowed, n * sizeof *all);
  all[n] = "severity_threshold";
  const char *key = ash_adapter_unknown_option (options, all);
  free (all);
  if (key)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s is not an option of "
                             "%s"),
                          scanner, key, scanner);
  return 0;
}

int
ash_iac_check_options_strings (const char *scanner, const json_t *options,
                               const char *const *allowed,
                               const char *const *strings,
                               struct ash_error *err)
{
  const char *v;
  int r = ash_iac_check_options (scanner, options, allowed, err);
  for (size_t i = 0; r == 0 && strings[i]; i++)
    r = ash_adapter_get_string (scanner, options, strings[i], false, &v, err);
  return r;
}

/* ash_iac_opt_strings's VALID, as ash_adapter_opt_list's.  */
struct valid_fn
{
  bool (*fn) (const char *);
};

static bool
call_valid (const char *s, const void *arg)
{
  const struct valid_fn *v = arg;
  return v->fn (s);
}

int
ash_iac_opt_strings (const char *scanner, const json_t *options,
                     const char *key, bool (*valid) (const char *),
                     struct ash_strvec *ret, struct ash_error *err)
{
  struct valid_fn fn = { valid };
  struct ash_opt_list l
    = { .non_empty = true, .valid = valid ? call_valid : NULL, .arg = &fn };

  if (ash_adapter_opt_list (options, key, &l, ret) == 0)
    return 0;
  if (l.fault == ASH_OPT_LIST_NOT_LIST)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s must be a list of "
                             "strings"),
                          scanner, key);
  if (l.fault == ASH_OPT_LIST_BAD_ITEM)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.%s must be a list of "
                             "non-empty strings"),
                          scanner, key);
  return ash_error_set (err, -EINVAL,
                        _ ("scanners.%s.options.%s: '%s' is not a value %s "
                           "accepts"),
                        scanner, key, l.item, scanner);
}

int
ash_iac_option_file (const char *scanner, const struct ash_scan_job *job,
                     const char *key, char **ret_path, struct ash_error *err)
{
  const char *val;
  int r;

  *ret_path = NULL;
  r = ash_adapter_get_string (scanner, job->options, key, false, &val, err);
  if (r < 0 || val == NULL)
    return r;
  _cleanup_free_ char *path = val[0] == '/' ? ash_path_normalize (val)
                                            : ash_path_join (job->target, val);
  _cleanup_free_ char *dotted
    = xasprintf ("scanners.%s.options.%s", scanner, key);
  _cleanup_free_ char *reason = NULL;
  /* The one option-file rule (scanners/option-file.c), judged under the
     scanner's own name.  */
  struct ash_scan_job j = *job;
  j.name = scanner;
  r = ash_scan_job_option_file (&j, key, path, &reason, err);
  if (r < 0)
    return r;
  if (r == 0)
    {
      ash_warning ("%s: %s", scanner, reason);
      return 0;
    }
  struct stat st;
  if (stat (path, &st) < 0 || !S_ISREG (st.st_mode))
    return ash_error_set (err, -ENOENT,
                          _ ("%s names %s, which is not a regular file"),
                          dotted, path);
  *ret_path = TAKE_PTR (path);
  return 0;
}

int
ash_iac_scan_set (const struct ash_scan_job *job, struct ash_strvec *ret,
                  struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  size_t n = strlen (job->target);

  if (job->scan_set_file == NULL)
    return 0;
  _cleanup_close_ int fd
    = open (job->scan_set_file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || ash_buf_read_fd (&b, fd) < 0)
    {
      int e = errno;
      ash_buf_release (&b);
      return ash_error_set (err, -e, _ ("cannot read the scan set %s: %s"),
                            job->scan_set_file, strerror (e));
    }
  char *p = b.buf;
  while (p && *p)
    {
      char *nl = strchr (p, '\n');
      if (nl)
        *nl = '\0';
      /* Quoted names hold control characters: no tool is given them.  */
      if (*p == '/' && strneq (p, job->target, n) && p[n] == '/')
        ash_strvec_push (ret, p + n + 1);
      p = nl ? nl + 1 : NULL;
    }
  ash_buf_release (&b);
  return 0;
}

static bool
has_template_suffix (const char *rel)
{
  return ash_str_has_suffix (rel, ".json") || ash_str_has_suffix (rel, ".yaml")
         || ash_str_has_suffix (rel, ".yml");
}

/* Whether the YAML (or JSON) stream TEXT has a top-level mapping with a
   "Resources" key whose value is a mapping, and its first document
   parses to the end: a file that is not valid YAML is not a template (as
   upstream ASH, which loads the whole template to decide), and is given
   to no tool.  */
static bool
yaml_has_resources (const char *text, size_t len)
{
  yaml_parser_t parser;
  yaml_event_t ev;
  int depth = 0;
  bool key_pos = true, found = false, want_value = false, done = false;

  if (!yaml_parser_initialize (&parser))
    return false;
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  while (!done)
    {
      if (!yaml_parser_parse (&parser, &ev))
        {
          found = false;
          break;
        }
      switch (ev.type)
        {
        case YAML_STREAM_END_EVENT:
        case YAML_DOCUMENT_END_EVENT:
          done = true;
          break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
          if (depth == 1 && want_value && ev.type == YAML_MAPPING_START_EVENT)
            found = true;
          if (depth == 1)
            key_pos = true, want_value = false;
          depth++;
          break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
          depth--;
          if (depth == 0)
            done = true;
          break;
        case YAML_SCALAR_EVENT:
        case YAML_ALIAS_EVENT:
          if (depth == 1)
            {
              if (key_pos)
                want_value = ev.type == YAML_SCALAR_EVENT
                             && streq ((const char *) ev.data.scalar.value,
                                       "Resources");
              else
                want_value = false;
              key_pos = !key_pos;
            }
          break;
        default:
          break;
        }
      yaml_event_delete (&ev);
    }
  yaml_parser_delete (&parser);
  return found;
}

bool
ash_iac_is_cfn_template (const struct ash_scan_job *job, const char *rel)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  bool r = false;

  if (!has_template_suffix (rel))
    return false;
  _cleanup_close_ int src
    = open (job->target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (src >= 0 && ash_tree_read_file (src, rel, IAC_TEMPLATE_MAX, &b, &e) == 0)
    {
      if (ash_str_has_suffix (rel, ".json"))
        {
          json_t *doc = json_loadb (b.buf, b.len, 0, NULL);
          r = json_is_object (json_object_get (doc, "Resources"));
          json_decref (doc);
        }
      else
        r = yaml_has_resources (b.buf, b.len);
    }
  ash_buf_release (&b);
  ash_error_release (&e);
  return r;
}

int
ash_iac_cfn_templates (const struct ash_scan_job *job, struct ash_strvec *ret,
                       struct ash_error *err)
{
  struct ash_strvec all = ASH_STRVEC_INIT;
  int r = ash_iac_scan_set (job, &all, err);
  for (size_t i = 0; r == 0 && i < all.nr; i++)
    if (ash_iac_is_cfn_template (job, all.v[i]))
      ash_strvec_push (ret, all.v[i]);
  ash_strvec_release (&all);
  return r;
}

bool
ash_iac_is_workflow (const char *rel)
{
  const char *p = strstr (rel, ".github/workflows/");
  if (p == NULL || (p != rel && p[-1] != '/'))
    return false;
  p += strlen (".github/workflows/");
  return strchr (p, '/') == NULL
         && (ash_str_has_suffix (p, ".yml")
             || ash_str_has_suffix (p, ".yaml"));
}

bool
ash_iac_is_action (const char *rel)
{
  const char *base = strrchr (rel, '/');
  base = base ? base + 1 : rel;
  return streq (base, "action.yml") || streq (base, "action.yaml");
}

char *
ash_iac_glob_escape (const char *path)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (const char *p = path; *p; p++)
    if (*p == '*' || *p == '?' || *p == '[')
      ash_buf_addf (&b, "[%c]", *p);
    else
      ash_buf_addch (&b, *p);
  if (b.buf == NULL)
    return xstrdup ("");
  return ash_buf_detach (&b);
}

int
ash_iac_read_output (const char *scanner, const struct ash_scan_job *job,
                     const char *name, struct ash_buf *ret,
                     struct ash_error *err)
{
  /* adapter.c reads it; the reasons here name the file as this family's
     adapters always have.  */
  struct ash_error e = ASH_ERROR_INIT;
  int r = ash_adapter_read_output (job, name, ret, &e);
  if (r == -ENOENT)
    r = ash_error_set (err, r, _ ("%s: no such file (%s wrote no report)"),
                       name, scanner);
  else if (r == -EFBIG)
    r = ash_error_set (err, r, _ ("%s is larger than %zu bytes"), name,
                       job->max_output);
  else if (r == -ENODATA)
    r = ash_error_set (err, -EINVAL, _ ("%s is empty"), name);
  else if (r < 0)
    r = ash_error_set (err, r, "%s", e.message);
  ash_error_release (&e);
  return r;
}

int
ash_iac_read_json (const char *scanner, const struct ash_scan_job *job,
                   const char *name, json_t **ret, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  int r = ash_iac_read_output (scanner, job, name, &b, err);
  if (r < 0)
    {
      ash_buf_release (&b);
      return r;
    }
  r = ash_json_parse_output (name, b.buf, b.len, ret, err);
  ash_buf_release (&b);
  return r;
}

int
ash_iac_read_sarif (const char *scanner, const struct ash_scan_job *job,
                    const char *name, json_t **ret, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  int r = ash_iac_read_output (scanner, job, name, &b, err);
  if (r == 0)
    {
      r = ash_sarif_parse (b.buf, b.len, ret, &e);
      if (r < 0)
        {
          _cleanup_free_ char *why = ash_iac_printable (e.message);
          ash_error_set (err, r, "%s: %s", name, why);
        }
    }
  ash_buf_release (&b);
  ash_error_release (&e);
  return r;
}

static const char *
upper_name (enum ash_severity sev)
{
  static const char *const names[]
    = { "INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL" };
  return names[sev];
}

char *
ash_iac_relative_uri (const char *uri, const char *source_dir)
{
  if (strneq (uri, "file://", 7))
    uri += 7;
  /* ".." resolved first: "SOURCE/../x" and "../x" are outside.  */
  _cleanup_free_ char *norm = ash_path_normalize (uri);
  uri = norm;
  if (streq (uri, "..") || strneq (uri, "../", 3))
    {
      const char *base = strrchr (uri, '/');
      return xstrdup (base && base[1] ? base + 1 : ".");
    }
  if (uri[0] == '/')
    {
      _cleanup_free_ char *real
        = source_dir ? realpath (source_dir, NULL) : NULL;
      const char *dirs[2] = { source_dir, real };
      for (size_t i = 0; i < 2; i++)
        {
          if (dirs[i] == NULL)
            continue;
          size_t n = strlen (dirs[i]);
          while (n > 1 && dirs[i][n - 1] == '/')
            n--;
          if (strneq (uri, dirs[i], n) && uri[n] == '/')
            return xstrdup (uri + n + 1);
        }
      /* No host path reaches the report.  */
      const char *base = strrchr (uri, '/');
      return xstrdup (base[1] ? base + 1 : ".");
    }
  while (uri[0] == '.' && uri[1] == '/')
    uri += 2;
  return xstrdup (uri);
}

char *
ash_iac_uri_unescape (const char *uri)
{
  char *out = xmalloc (strlen (uri) + 1);
  char *o = out;
  for (const char *p = uri; *p; p++)
    {
      int hi = p[0] == '%' ? ash_hex_digit (p[1]) : -1;
      int lo = hi >= 0 ? ash_hex_digit (p[2]) : -1;
      int c = hi * 16 + lo;
      if (lo < 0 || c < 0x20 || c == 0x7f || c == '/')
        {
          *o++ = *p;
          continue;
        }
      *o++ = (char) c;
      p += 2;
    }
  *o = '\0';
  return out;
}

static void
relativise_locations (json_t *locations, const char *source_dir)
{
  size_t i;
  json_t *loc;
  json_array_foreach (locations, i, loc)
    {
      json_t *al = json_object_get (json_object_get (loc, "physicalLocation"),
                                    "artifactLocation");
      const char *uri = json_string_value (json_object_get (al, "uri"));
      if (uri)
        {
          char *rel = ash_iac_relative_uri (uri, source_dir);
          json_object_set_new (al, "uri", json_string (rel));
          json_object_del (al, "uriBaseId");
          free (rel);
        }
    }
}

void
ash_iac_sarif_normalise (json_t *doc, const char *driver, const char *version,
                         const char *info_uri, const char *source_dir,
                         ash_iac_severity_fn severity)
{
  size_t i, j, k;
  json_t *run, *res, *rule;

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    {
      json_t *tool = json_object_get (run, "tool");
      json_t *drv = json_object_get (tool, "driver");
      if (!json_is_object (drv))
        {
          drv = json_object ();
          if (!json_is_object (tool))
            {
              tool = json_object ();
              json_object_set_new (run, "tool", tool);
            }
          json_object_set_new (tool, "driver", drv);
        }
      json_object_set_new (drv, "name", json_string (driver));
      if (version)
        json_object_set_new (drv, "version", json_string (version));
      if (info_uri)
        json_object_set_new (drv, "informationUri", json_string (info_uri));
      json_t *rules = json_object_get (drv, "rules");
      if (!json_is_array (rules))
        {
          rules = json_array ();
          json_object_set_new (drv, "rules", rules);
        }
      /* Absolute paths of the host: original URI base ids and the
         invocation's working directory.  */
      json_object_del (run, "originalUriBaseIds");
      json_object_del (run, "invocations");
      json_object_del (run, "artifacts");

      json_t *worst = json_object ();
      json_array_foreach (json_object_get (run, "results"), j, res)
        {
          const char *rid
            = json_string_value (json_object_get (res, "ruleId"));
          json_t *r = NULL;
          json_array_foreach (rules, k, rule)
            if (rid
                && streq (rid, json_string_value (json_object_get (rule, "id"))
                                 ?: ""))
              {
                r = rule;
                break;
              }
          enum ash_severity sev
            = severity ? severity (res, r) : ash_sarif_result_severity (res);
          json_object_set_new (res, "level",
                               json_string (ash_severity_sarif_level (sev)));
          json_t *props = json_object_get (res, "properties");
          if (!json_is_object (props))
            {
              props = json_object ();
              json_object_set_new (res, "properties", props);
            }
          json_object_set_new (props, "issue_severity",
                               json_string (upper_name (sev)));
          if (!json_is_object (json_object_get (res, "message")))
            json_object_set_new (res, "message",
                                 json_pack ("{s:s}", "text", rid ? rid : ""));
          relativise_locations (json_object_get (res, "locations"),
                                source_dir);
          if (rid)
            {
              json_t *w = json_object_get (worst, rid);
              if (w == NULL || json_integer_value (w) < sev)
                json_object_set_new (worst, rid, json_integer (sev));
              if (r == NULL)
                ash_iac_run_rule (run, rid, NULL, NULL, NULL);
            }
        }
      json_array_foreach (rules, k, rule)
        {
          const char *id = json_string_value (json_object_get (rule, "id"));
          json_t *w = id ? json_object_get (worst, id) : NULL;
          enum ash_severity sev
            = w ? (enum ash_severity) json_integer_value (w)
                : ASH_SEVERITY_INFO;
          json_t *props = json_object_get (rule, "properties");
          if (!json_is_object (props))
            {
              props = json_object ();
              json_object_set_new (rule, "properties", props);
            }
          json_object_set_new (props, "security-severity",
                               json_string (ash_severity_score (sev)));
          if (!json_is_object (json_object_get (rule, "help")))
            {
              const char *text = NULL;
              json_t *d = json_object_get (rule, "fullDescription");
              if (!d)
                d = json_object_get (rule, "shortDescription");
              text = json_string_value (json_object_get (d, "text"));
              if (!text)
                text = json_string_value (json_object_get (rule, "name"));
              if (!text)
                text = id ? id : "";
              json_object_set_new (rule, "help",
                                   json_pack ("{s:s}", "text", text));
            }
        }
      json_decref (worst);
    }
}

json_t *
ash_iac_run_new (const char *driver, const char *version, const char *info_uri)
{
  return ash_sarif_run_new (driver, version, info_uri);
}

size_t
ash_iac_run_rule (json_t *run, const char *id, const char *name,
                  const char *help, const char *help_uri)
{
  json_t *rules = json_object_get (
    json_object_get (json_object_get (run, "tool"), "driver"), "rules");
  size_t i;
  json_t *rule;
  json_array_foreach (rules, i, rule)
    if (streq (json_string_value (json_object_get (rule, "id")) ?: "", id))
      return i;
  rule = json_pack ("{s:s}", "id", id);
  if (name)
    json_object_set_new (rule, "name", json_string (name));
  if (help)
    {
      json_object_set_new (rule, "shortDescription",
                           json_pack ("{s:s}", "text", help));
      json_object_set_new (rule, "help", json_pack ("{s:s}", "text", help));
    }
  if (help_uri)
    json_object_set_new (rule, "helpUri", json_string (help_uri));
  json_array_append_new (rules, rule);
  return json_array_size (rules) - 1;
}

void
ash_iac_run_result (json_t *run, const char *id, const char *message,
                    const char *uri, const char *source_dir, long start,
                    long end, enum ash_severity sev)
{
  _cleanup_free_ char *rel = ash_iac_relative_uri (uri, source_dir);
  json_t *phys = json_pack ("{s:{s:s}}", "artifactLocation", "uri", rel);
  if (start > 0)
    json_object_set_new (
      phys, "region",
      json_pack ("{s:I, s:I}", "startLine", (json_int_t) start, "endLine",
                 (json_int_t) (end >= start ? end : start)));
  json_t *res
    = json_pack ("{s:s, s:s, s:{s:s}, s:[{s:o}], s:{s:s}}", "ruleId", id,
                 "level", ash_severity_sarif_level (sev), "message", "text",
                 message ? message : id, "locations", "physicalLocation", phys,
                 "properties", "issue_severity", upper_name (sev));
  if (res == NULL)
    ash_oom ();
  json_array_append_new (json_object_get (run, "results"), res);
}

int
ash_iac_copy_to_run (const struct ash_scan_job *job, const char *path,
                     const char *name, size_t max, char **ret_path,
                     struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  _cleanup_close_ int fd
    = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) < 0)
    return ash_error_set (err, -errno, _ ("cannot read %s: %s"), path,
                          strerror (errno));
  if (!S_ISREG (st.st_mode) || (uintmax_t) st.st_size > (uintmax_t) max)
    return ash_error_set (err, -EINVAL,
                          _ ("%s is not a regular file of at most %zu bytes"),
                          path, max);
  if (ash_buf_read_fd (&b, fd) < 0)
    {
      int e = errno;
      ash_buf_release (&b);
      return ash_error_set (err, -e, _ ("cannot read %s: %s"), path,
                            strerror (e));
    }
  int r = ash_adapter_write_run_data (job, name, b.buf ? b.buf : "", b.len,
                                      true, ret_path, err);
  ash_buf_release (&b);
  return r;
}

#define NO_INPUT_MARK "ash-no-input"

int
ash_iac_mark_no_input (const struct ash_scan_job *job, struct ash_error *err)
{
  return ash_adapter_write_run_data (job, NO_INPUT_MARK, "", 0, true, NULL,
                                     err);
}

bool
ash_iac_no_input (const struct ash_scan_job *job)
{
  if (job->run_config_dir == NULL)
    return false;
  _cleanup_free_ char *path
    = ash_path_join (job->run_config_dir, NO_INPUT_MARK);
  return access (path, F_OK) == 0;
}

char *
ash_iac_printable (const char *text)
{
  struct ash_buf b = ASH_BUF_INIT;
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) text; *p; p++, n++)
    {
      if (n >= 300)
        {
          ash_buf_addstr (&b, "...");
          break;
        }
      if (*p < 0x20 || *p >= 0x7f || *p == '\\')
        ash_buf_addf (&b, "\\x%02x", *p);
      else
        ash_buf_addch (&b, (char) *p);
    }
  return b.buf ? ash_buf_detach (&b) : xstrdup ("");
}
