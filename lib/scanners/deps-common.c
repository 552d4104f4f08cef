/* SPDX-License-Identifier: Apache-2.0 */
/* deps-common.c -- what the dependency and SBOM adapters share.  */

#include <config.h>

#include "scanners/deps-common.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/version.h"
#include "config/ashconfig.h"
#include "config/config-tier.h"
#include "sandbox/backend.h"
#include "scanners/adapter.h"

int
ash_deps_options_check (const char *name, const json_t *options,
                        const char *const *allowed, struct ash_error *err)
{
  /* severity_threshold, like scan_timeout, is read by the scan itself
     (the configuration's schema checks its value, and it sets the
     threshold of the scanner's findings): every scanner takes it, and
     those that also hand it to their tool (grype, trivy-repo) list it.  */
  if (options && !json_is_null (options) && !json_is_object (options))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options must be a mapping"), name);
  size_t n = 0;
  bool listed = false;
  for (; allowed[n]; n++)
    listed = listed || streq (allowed[n], "severity_threshold");
  const char **all = xcalloc (n + 2, sizeof *all);
  memcpy (all, allowed, n * sizeof *all);
  if (!listed)
    all[n] = "severity_threshold";
  const char *k = ash_adapter_unknown_option (options, all);
  if (k == NULL)
    {
      free (all);
      return 0;
    }
  struct ash_buf known = ASH_BUF_INIT;
  for (size_t i = 0; all[i]; i++)
    ash_buf_addf (&known, "%s, ", all[i]);
  free (all);
  ash_buf_addstr (&known, "scan_timeout");
  int r = ash_error_set (err, -EINVAL,
                         _ ("scanners.%s.options: unknown option '%s' "
                            "(known: %s)"),
                         name, k, known.buf);
  ash_buf_release (&known);
  return r;
}

int
ash_deps_option_file (const struct ash_scan_job *job, const char *key,
                      const char *value, char **ret_path, char **ret_why,
                      struct ash_error *err)
{
  _cleanup_free_ char *path
    = value[0] == '/' ? xstrdup (value) : ash_path_join (job->target, value);
  char *reason = NULL;
  int r;

  *ret_path = NULL;
  *ret_why = NULL;
  /* The one option-file rule (scanners/option-file.c).  */
  r = ash_scan_job_option_file (job, key, path, &reason, err);
  if (r < 0)
    return r;
  if (r == 0)
    {
      *ret_why = xasprintf ("%s: %s", job->name, reason);
      free (reason);
      return 0;
    }
  *ret_path = ash_path_normalize (path);
  return 0;
}

enum ash_severity
ash_deps_severity (const char *w)
{
  if (w == NULL)
    return ASH_SEVERITY_MEDIUM;
  if (strcasecmp (w, "critical") == 0)
    return ASH_SEVERITY_CRITICAL;
  if (strcasecmp (w, "high") == 0 || strcasecmp (w, "error") == 0)
    return ASH_SEVERITY_HIGH;
  if (strcasecmp (w, "moderate") == 0 || strcasecmp (w, "medium") == 0
      || strcasecmp (w, "warning") == 0)
    return ASH_SEVERITY_MEDIUM;
  if (strcasecmp (w, "low") == 0 || strcasecmp (w, "note") == 0)
    return ASH_SEVERITY_LOW;
  return ASH_SEVERITY_INFO;
}

/* The upper-case name ASH's counters read from properties.severity.  */
static const char *
sev_upper (enum ash_severity s)
{
  static const char *const names[]
    = { "INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL" };
  return names[s];
}

static json_t *
run_rules (json_t *run)
{
  json_t *tool = json_object_get (run, "tool");
  json_t *driver = json_object_get (tool, "driver");
  json_t *rules = json_object_get (driver, "rules");
  if (!json_is_array (rules))
    {
      rules = json_array ();
      json_object_set_new (driver, "rules", rules);
    }
  return rules;
}

size_t
ash_deps_rule (json_t *run, const char *id, const char *short_text,
               const char *help, const char *help_uri, enum ash_severity sev,
               const char *score)
{
  json_t *rules = run_rules (run);
  size_t i;
  json_t *r;

  json_array_foreach (rules, i, r)
    if (streq (json_string_value (json_object_get (r, "id")) ?: "", id))
      return i;
  const char *text = short_text && *short_text ? short_text : id;
  const char *h = help && *help ? help : text;
  r = json_pack ("{s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:[s]}}", "id",
                 id, "shortDescription", "text", text, "fullDescription",
                 "text", h, "help", "text", h, "defaultConfiguration", "level",
                 ash_severity_sarif_level (sev), "properties", "tags",
                 "security");
  if (help_uri && *help_uri)
    json_object_set_new (r, "helpUri", json_string (help_uri));
  json_object_set_new (json_object_get (r, "properties"), "security-severity",
                       json_string (
                         score && *score ? score : ash_severity_score (sev)));
  json_array_append_new (rules, r);
  return json_array_size (rules) - 1;
}

json_t *
ash_deps_result (json_t *run, const char *id, size_t rule_index,
                 enum ash_severity sev, const char *message, const char *uri,
                 int line)
{
  json_t *results = json_object_get (run, "results");
  json_t *res = json_pack (
    "{s:s, s:I, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i}}}], s:{s:s}}", "ruleId",
    id, "ruleIndex", (json_int_t) rule_index, "level",
    ash_severity_sarif_level (sev), "message", "text", message, "locations",
    "physicalLocation", "artifactLocation", "uri", uri, "region", "startLine",
    line > 0 ? line : 1, "properties", "severity", sev_upper (sev));
  json_array_append_new (results, res);
  return res;
}

/* URI made relative to SOURCE_DIR (newly allocated).  */
static char *
relative_uri (const char *uri, const char *source_dir)
{
  if (ash_str_has_prefix (uri, "file://"))
    uri += 7;
  if (uri[0] != '/')
    return xstrdup (uri);
  size_t n = strlen (source_dir);
  if (strneq (uri, source_dir, n) && uri[n] == '/')
    return xstrdup (uri + n + 1);
  if (streq (uri, source_dir))
    return xstrdup (".");
  /* Tools that scanned a container path (/src/...) or another copy: keep
     the path below its root, never a host path.  */
  while (*uri == '/')
    uri++;
  return xstrdup (*uri ? uri : ".");
}

/* OBJ[KEY] = S, which is freed.  */
static void
set_taken (json_t *obj, const char *key, char *s)
{
  json_object_set_new (obj, key, json_string (s));
  free (s);
}

static void
normalise_location (json_t *loc, const char *source_dir)
{
  json_t *al = json_object_get (json_object_get (loc, "physicalLocation"),
                                "artifactLocation");
  const char *uri = json_string_value (json_object_get (al, "uri"));
  if (uri == NULL)
    return;
  json_object_del (al, "uriBaseId");
  set_taken (al, "uri", relative_uri (uri, source_dir));
}

void
ash_deps_sarif_normalise (json_t *doc, const char *name, const char *version,
                          const char *source_dir)
{
  size_t i, k;
  json_t *run, *x;

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    {
      json_t *driver
        = json_object_get (json_object_get (run, "tool"), "driver");
      if (name)
        json_object_set_new (driver, "name", json_string (name));
      if (version && *version)
        json_object_set_new (driver, "version", json_string (version));
      json_t *rules = run_rules (run);
      json_array_foreach (rules, k, x)
        {
          if (!json_is_object (x))
            continue;
          json_t *props = json_object_get (x, "properties");
          if (!json_is_object (props))
            {
              props = json_object ();
              json_object_set_new (x, "properties", props);
            }
          const char *lvl = json_string_value (
            json_object_get (json_object_get (x, "defaultConfiguration"),
                             "level"));
          if (json_object_get (props, "security-severity") == NULL)
            {
              enum ash_severity sev = ash_deps_severity (lvl);
              json_object_set_new (props, "security-severity",
                                   json_string (ash_severity_score (sev)));
              /* The severity itself, for the results below: the score
                 ash gives INFO (1.0) reads as low.  */
              json_object_set_new (props, "ash-severity", json_integer (sev));
            }
          const char *sd = json_string_value (
            json_object_get (json_object_get (x, "shortDescription"), "text"));
          if (json_object_get (x, "help") == NULL)
            json_object_set_new (x, "help",
                                 json_pack ("{s:s}", "text",
                                            sd ? sd
                                               : json_string_value (
                                                   json_object_get (x, "id"))
                                                   ?: ""));
        }
      json_array_foreach (json_object_get (run, "results"), k, x)
        {
          size_t l;
          json_t *loc;
          if (!json_is_object (x))
            continue;
          json_array_foreach (json_object_get (x, "locations"), l, loc)
            normalise_location (loc, source_dir);
          json_t *props = json_object_get (x, "properties");
          if (!json_is_object (props))
            {
              props = json_object ();
              json_object_set_new (x, "properties", props);
            }
          if (json_object_get (props, "severity") == NULL)
            {
              /* The rule's security-severity decides, as for GitHub.  */
              const char *rid
                = json_string_value (json_object_get (x, "ruleId"));
              enum ash_severity sev = ash_sarif_result_severity (x);
              size_t m;
              json_t *rule;
              json_array_foreach (rules, m, rule)
                if (rid
                    && streq (json_string_value (json_object_get (rule, "id"))
                                ?: "",
                              rid))
                  {
                    json_t *rp = json_object_get (rule, "properties");
                    const char *sc = json_string_value (
                      json_object_get (rp, "security-severity"));
                    json_t *own = json_object_get (rp, "ash-severity");
                    if (json_is_integer (own))
                      sev = (enum ash_severity) json_integer_value (own);
                    else if (sc)
                      sev = ash_adapter_score_severity (strtod (sc, NULL));
                    break;
                  }
              json_object_set_new (props, "severity",
                                   json_string (sev_upper (sev)));
            }
        }
      json_array_foreach (rules, k, x)
        json_object_del (json_object_get (x, "properties"), "ash-severity");
      /* Invocation and artifact records can carry host paths too.  */
      json_object_del (run, "originalUriBaseIds");
      json_array_foreach (json_object_get (run, "artifacts"), k, x)
        {
          json_t *loc = json_object_get (x, "location");
          const char *uri = json_string_value (json_object_get (loc, "uri"));
          if (uri)
            set_taken (loc, "uri", relative_uri (uri, source_dir));
        }
      json_object_del (run, "invocations");
    }
}

char *
ash_deps_tool_version (const char *tool, const char *arg,
                       const struct ash_scope *scope)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;
  char *ret = NULL;

  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, tool);
  ash_strvec_push (&cmd.argv, arg ? arg : "--version");
  const char *path = getenv ("PATH");
  if (path)
    ash_strvec_setenv (&cmd.env, "PATH", path);
  ash_strvec_setenv (&cmd.env, "LC_ALL", "C.UTF-8");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  cmd.out.max = 1 << 16;
  cmd.timeout_sec = 60;
  cmd.scope = scope;
  if (ash_sandbox_run (&cmd, &res, &err) == 0 && res.status == 0)
    ret = ash_version_from_output (cmd.out.buf);
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  return ret;
}

void
ash_deps_ignore_paths (const struct ash_scan_job *job, struct ash_strvec *ret)
{
  size_t i;
  json_t *e;
  if (job->config == NULL)
    return;
  json_array_foreach (
    (json_t *) ash_config_get (job->config, "global_settings.ignore_paths"), i,
    e)
    {
      const char *p = json_is_string (e)
                        ? json_string_value (e)
                        : json_string_value (json_object_get (e, "path"));
      if (p && *p)
        ash_strvec_push (ret, p);
    }
}
