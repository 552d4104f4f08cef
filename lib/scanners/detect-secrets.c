/* SPDX-License-Identifier: Apache-2.0 */
/* detect-secrets.c -- the detect-secrets adapter.

   detect-secrets runs as its own process, its command-line tool, never
   inside ash: "detect-secrets scan --all-files [--baseline FILE]
   [--exclude-files REGEX]... [--no-verify] ." from the source directory.

   Its settings (plugins_used, filters_used) come from the scan_settings
   option, else from a baseline: the baseline_file option, else
   .ash/.secrets.baseline or .secrets.baseline in the source directory.  A
   baseline is read by ASH through the rules of detect-secrets-baseline.c
   (whether it may be read at all under a sandbox; the verification filter
   removed from a baseline in the tree, from settings a config that may not
   grant wrote, and offline from every source).  ASH writes the settings it
   kept, with the audit labels of the baseline's results, as
   RESULTS/detect-secrets.baseline.json and passes that with --baseline:
   detect-secrets reads its settings from it and writes its findings into
   it.  With no settings at all detect-secrets uses every plugin and
   prints its report on stdout (RESULTS/detect-secrets.stdout.log).  A
   secret the baseline audited keeps its label (is_secret) in the SARIF
   result's properties, and is reported either way, as upstream ASH
   does.  Either
   report holds a hash of each secret, never its value; the SARIF ash
   makes holds neither.

   detect-secrets verifies candidates over the network only when its
   settings list the verification filter and it has a network, which it
   gets only when sandbox.network_scanners names it; without one ash
   passes --no-verify, so every candidate is reported.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/detect-secrets-baseline.h"
#include "scanners/scanner.h"

#define DS_BASELINE "detect-secrets.baseline.json"
#define DS_STDOUT "detect-secrets.stdout.log"
/* Written beside the baseline when ash passes one, so that a report
   detect-secrets did not write is named as the baseline.  */
#define DS_USES_BASELINE "detect-secrets.uses-baseline"

static const struct ash_option_spec ds_options[] = {
  { "baseline_file", ASH_OPTION_STRING, NULL },
  { "scan_settings", ASH_OPTION_STRING, NULL }, /* checked below: a mapping */
  { NULL, 0, NULL },
};

static int
ds_check_options (const json_t *options, struct ash_error *err)
{
  json_t *copy
    = json_is_object (options) ? json_copy ((json_t *) options) : NULL;
  json_t *ss = json_object_get (copy, "scan_settings");
  int r;
  if (ss && !json_is_null (ss))
    {
      if (!json_is_object (ss))
        {
          json_decref (copy);
          return ash_error_set (err, -EINVAL,
                                _ ("scanners.detect-secrets.options."
                                   "scan_settings must be a mapping (the "
                                   "settings of a detect-secrets baseline: "
                                   "plugins_used, filters_used)"));
        }
      const char *k;
      json_t *v;
      json_object_foreach (ss, k, v)
        if (!streq (k, "plugins_used") && !streq (k, "filters_used")
            && !streq (k, "version") && !streq (k, "generated_at")
            && !streq (k, "results"))
          {
            json_decref (copy);
            return ash_error_set (err, -EINVAL,
                                  _ ("scanners.detect-secrets.options."
                                     "scan_settings.%s: ash does not support "
                                     "this setting (it supports plugins_used, "
                                     "filters_used, version, generated_at, "
                                     "results)"),
                                  k);
          }
      if ((json_object_get (ss, "plugins_used")
           && !json_is_array (json_object_get (ss, "plugins_used")))
          || (json_object_get (ss, "filters_used")
              && !json_is_array (json_object_get (ss, "filters_used"))))
        {
          json_decref (copy);
          return ash_error_set (err, -EINVAL,
                                _ ("scanners.detect-secrets.options."
                                   "scan_settings: plugins_used and "
                                   "filters_used must be lists"));
        }
      json_object_del (copy, "scan_settings");
    }
  r = ash_adapter_check_options ("detect-secrets", copy ? copy : options,
                                 ds_options, err);
  json_decref (copy);
  return r;
}

/* The first baseline that exists: the option's, else the conventional
   names in the source directory.  *RET_PATH is NULL when there is none;
   *RET_KEY is the option key when the option named it.  */
static int
find_baseline (const struct ash_scan_job *job, char **ret_path,
               const char **ret_key, struct ash_error *err)
{
  const char *v = ash_adapter_opt_string (job->options, "baseline_file");
  *ret_path = NULL;
  *ret_key = NULL;
  if (v)
    {
      _cleanup_free_ char *joined
        = v[0] == '/' ? xstrdup (v) : ash_path_join (job->target, v);
      struct stat st;
      if (stat (joined, &st) < 0 || !S_ISREG (st.st_mode))
        return ash_error_set (err, -ENOENT,
                              _ ("scanners.detect-secrets.options."
                                 "baseline_file is '%s', which is not a "
                                 "file; fix the path or unset the option"),
                              v);
      *ret_path = ash_path_normalize (joined);
      *ret_key = "scanners.detect-secrets.options.baseline_file";
      return 0;
    }
  static const char *const names[]
    = { ".ash/.secrets.baseline", ".secrets.baseline" };
  for (size_t i = 0; i < ARRAY_SIZE (names); i++)
    {
      _cleanup_free_ char *p = ash_path_join (job->target, names[i]);
      struct stat st;
      if (lstat (p, &st) == 0)
        {
          *ret_path = TAKE_PTR (p);
          return 0;
        }
    }
  return 0;
}

/* The results of a baseline as detect-secrets needs them to carry its
   audit labels over (new reference): for each file, the entries that are
   objects, with only their type, filename, hashed_secret, line_number,
   is_secret and is_verified, each of the type detect-secrets writes.  */
static json_t *
audited_results (const json_t *results)
{
  static const struct
  {
    const char *key;
    json_type type;
  } fields[] = {
    { "type", JSON_STRING },          { "filename", JSON_STRING },
    { "hashed_secret", JSON_STRING }, { "line_number", JSON_INTEGER },
    { "is_secret", JSON_TRUE },       { "is_verified", JSON_TRUE },
  };
  json_t *out = json_object ();
  const char *file;
  json_t *list;
  if (!json_is_object (results))
    return out;
  json_object_foreach ((json_t *) results, file, list)
    {
      size_t i;
      json_t *x;
      json_t *kept = json_array ();
      if (!json_is_array (list))
        {
          json_decref (kept);
          continue;
        }
      json_array_foreach (list, i, x)
        {
          if (!json_is_object (x))
            continue;
          json_t *e = json_object ();
          for (size_t k = 0; k < ARRAY_SIZE (fields); k++)
            {
              json_t *v = json_object_get (x, fields[k].key);
              bool fits = fields[k].type == JSON_TRUE
                            ? json_is_boolean (v)
                            : v && json_typeof (v) == fields[k].type;
              if (fits)
                json_object_set (e, fields[k].key, v);
            }
          json_array_append_new (kept, e);
        }
      json_object_set_new (out, file, kept);
    }
  return out;
}

/* The settings to pass (new reference), or NULL for detect-secrets'
   defaults.  */
static int
ds_settings (const struct ash_scan_job *job, json_t **ret,
             struct ash_error *err)
{
  struct ash_strvec warnings = ASH_STRVEC_INIT;
  json_t *settings = NULL;
  int r = 0;

  *ret = NULL;
  json_t *ss = json_object_get (job->options, "scan_settings");
  if (json_is_object (ss))
    {
      settings = json_deep_copy (ss);
      if (job->config)
        {
          json_t *opts = json_pack ("{s:O}", "settings", settings);
          json_decref (settings);
          ash_detect_secrets_options_filter (job->config, job->tier,
                                             job->offline, opts, &warnings);
          /* The filter looks in options.settings too.  */
          settings = json_incref (json_object_get (opts, "settings"));
          json_decref (opts);
          if (ash_detect_secrets_verifies (settings) && !job->network)
            ash_strvec_push_nodup (
              &warnings,
              xasprintf (_ ("The detect-secrets settings in %s list the "
                            "verification filter (filters_used: %s), but "
                            "detect-secrets has no network: every candidate "
                            "counts as unverified, and candidates that "
                            "verification would have dropped are reported. "
                            "Name detect-secrets in sandbox.network_scanners "
                            "to verify"),
                         "scanners.detect-secrets.options.scan_settings",
                         ASH_DETECT_SECRETS_VERIFY_FILTER));
        }
      else if (job->offline)
        ash_detect_secrets_strip_verification (settings);
    }
  else
    {
      _cleanup_free_ char *path = NULL;
      const char *key = NULL;
      r = find_baseline (job, &path, &key, err);
      if (r == 0 && path)
        r = ash_detect_secrets_baseline_load (path, job->config, key,
                                              job->tier, job->settings,
                                              job->offline, job->network,
                                              &settings, &warnings, err);
    }
  for (size_t i = 0; i < warnings.nr; i++)
    ash_warning ("detect-secrets: %s", warnings.v[i]);
  ash_strvec_release (&warnings);
  if (r < 0)
    {
      json_decref (settings);
      return r;
    }
  if (settings)
    {
      /* detect-secrets keeps the audit labels (is_secret) of the
         baseline's results for the secrets it finds again and drops the
         rest; only those fields are passed on.  */
      json_object_set_new (settings, "results",
                           audited_results (
                             json_object_get (settings, "results")));
      if (!json_object_get (settings, "version"))
        json_object_set_new (settings, "version", json_string ("1.5.0"));
      if (!json_is_array (json_object_get (settings, "plugins_used"))
          || json_array_size (json_object_get (settings, "plugins_used")) == 0)
        {
          /* No plugin listed would scan with none: use the defaults.  */
          json_decref (settings);
          settings = NULL;
        }
    }
  *ret = settings;
  return 0;
}

static int
ds_build (const struct ash_scanner *s _unused_, const struct ash_scan_job *job,
          struct ash_cmd *cmd, struct ash_error *err)
{
  _cleanup_json_ json_t *settings = NULL;
  _cleanup_strvec_ struct ash_strvec excluded = ASH_STRVEC_INIT;
  int r;

  r = ds_check_options (job->options, err);
  if (r == 0)
    {
      r = ds_settings (job, &settings, err);
      if (r < 0 && err && err->path)
        {
          /* The reason the scanner is ERROR names the baseline.  */
          _cleanup_free_ char *m = ash_error_format (err);
          ash_error_release (err);
          ash_error_set (err, r, "%s", m);
        }
    }
  if (r == 0)
    r = ash_adapter_excluded_paths (job, &excluded, err);
  if (r < 0)
    return r;

  ash_strvec_push (&cmd->argv, job->tool_path);
  ash_strvec_push (&cmd->argv, "scan");
  ash_strvec_push (&cmd->argv, "--all-files");
  if (settings)
    {
      _cleanup_free_ char *text
        = json_dumps (settings, JSON_INDENT (2) | JSON_SORT_KEYS);
      if (text == NULL)
        ash_oom ();
      r = ash_tree_write_file (job->results_fd, DS_BASELINE, text,
                               strlen (text), 0644, err);
      if (r == 0)
        r = ash_tree_write_file (job->results_fd, DS_USES_BASELINE, "", 0,
                                 0644, err);
      if (r < 0)
        return r;
      ash_strvec_push (&cmd->argv, "--baseline");
      ash_strvec_push_nodup (&cmd->argv,
                             ash_path_join (job->results_dir, DS_BASELINE));
    }
  for (size_t i = 0; i < excluded.nr; i++)
    {
      _cleanup_free_ char *re = ash_adapter_regex_escape (excluded.v[i]);
      ash_strvec_push (&cmd->argv, "--exclude-files");
      ash_strvec_pushf (&cmd->argv, "^(\\./)?%s(/|$)", re);
    }
  if (!job->network)
    ash_strvec_push (&cmd->argv, "--no-verify");
  ash_strvec_push (&cmd->argv, ".");
  return 0;
}

/* "AWS Access Key" -> "AWS-Access-Key".  */
static char *
rule_id_of (const char *type)
{
  char *id = xstrdup (type);
  for (char *p = id; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
          || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
      *p = '-';
  return id;
}

int
ash_detect_secrets_to_sarif (const char *text, size_t len,
                             const char *source_dir, json_t **ret_doc,
                             struct ash_error *err)
{
  json_t *report = NULL;
  int pr = ash_json_parse_output (_ ("the output"), text, len, &report, err);
  if (pr < 0)
    return pr;
  json_t *results = json_object_get (report, "results");
  if (!json_is_object (report) || !json_is_object (results))
    {
      json_decref (report);
      return ash_error_set (err, -EINVAL,
                            _ ("the output is not a detect-secrets report: "
                               "it has no \"results\" mapping"));
    }
  json_t *doc = ash_sarif_doc_new ();
  const char *version
    = json_string_value (json_object_get (report, "version"));
  json_t *run = ash_sarif_run_new ("detect-secrets", version,
                                   "https://github.com/Yelp/detect-secrets");
  json_t *out = json_object_get (run, "results");
  const char *file;
  json_t *list;
  (void) source_dir;
  json_object_foreach (results, file, list)
    {
      size_t i;
      json_t *x;
      json_array_foreach (list, i, x)
        {
          const char *type = json_string_value (json_object_get (x, "type"));
          json_int_t line
            = json_integer_value (json_object_get (x, "line_number"));
          const char *fname
            = json_string_value (json_object_get (x, "filename"));
          if (type == NULL)
            continue;
          if (fname == NULL)
            fname = file;
          if (line < 1)
            line = 1;
          _cleanup_free_ char *id = rule_id_of (type);
          _cleanup_free_ char *msg = xasprintf (
            _ ("a secret of type '%s' was found; its value is not reported"),
            type);
          json_t *props = json_pack ("{s:s, s:[s,s]}", "secret_type", type,
                                     "tags", "secret", "security");
          json_t *verified = json_object_get (x, "is_verified");
          if (json_is_boolean (verified))
            json_object_set (props, "is_verified", verified);
          /* An audit label is reported, never acted on: a baseline the
             repository wrote could otherwise mark its secrets false
             positives.  Accept one with an ASH suppression.  */
          json_t *audited = json_object_get (x, "is_secret");
          if (json_is_boolean (audited))
            json_object_set (props, "is_secret", audited);
          json_t *r = json_pack (
            "{s:s, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:I}}}], s:o}", "ruleId",
            id, "level", "error", "message", "text", msg, "locations",
            "physicalLocation", "artifactLocation", "uri", fname, "region",
            "startLine", line, "properties", props);
          if (r == NULL)
            ash_oom ();
          json_array_append_new (out, r);
        }
    }
  json_array_append_new (json_object_get (doc, "runs"), run);
  json_decref (report);
  *ret_doc = doc;
  return 0;
}

static enum ash_severity
ds_severity (const json_t *result _unused_, const json_t *rule _unused_)
{
  return ASH_SEVERITY_CRITICAL;
}

static int
ds_parse (const struct ash_scanner *s _unused_, const struct ash_scan_job *job,
          const struct ash_cmd_result *res, json_t **ret_doc,
          struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  json_t *doc = NULL;
  struct stat st;
  int r;

  if (res->status != 0 && res->status != 1)
    return ash_error_set (err, -EIO,
                          _ ("detect-secrets exited with status %d"),
                          res->status);
  /* With --baseline the report is that file, else stdout.  */
  const char *name
    = fstatat (job->results_fd, DS_USES_BASELINE, &st, AT_SYMLINK_NOFOLLOW)
            == 0
          || fstatat (job->results_fd, DS_BASELINE, &st, AT_SYMLINK_NOFOLLOW)
               == 0
        ? DS_BASELINE
        : DS_STDOUT;
  r = ash_adapter_read_output (job, name, &b, err);
  if (r == 0)
    {
      struct ash_error perr = ASH_ERROR_INIT;
      r = ash_detect_secrets_to_sarif (b.buf, b.len, job->target, &doc, &perr);
      if (r < 0)
        {
          _cleanup_free_ char *path = ash_path_join (job->results_dir, name);
          ash_error_set (err, r,
                         _ ("detect-secrets: its output %s is unusable: %s"),
                         path, perr.message);
        }
      ash_error_release (&perr);
    }
  ash_buf_release (&b);
  if (r < 0)
    return r;
  struct ash_sarif_norm n = {
    .driver_name = "detect-secrets",
    .info_uri = "https://github.com/Yelp/detect-secrets",
    .source_dir = job->target,
    .severity = ds_severity,
    .redact_snippets = true,
  };
  r = ash_adapter_sarif_normalize (doc, &n, err);
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_detect_secrets = {
  .name = "detect-secrets",
  .tool = "detect-secrets",
  .checks_tool_version = true,
  .install_hint = "uv tool install detect-secrets",
  .description = "secrets detection",
  .build = ds_build,
  .parse = ds_parse,
  .check_options = ds_check_options,
};
