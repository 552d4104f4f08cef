/* SPDX-License-Identifier: Apache-2.0 */
/* checkov.c -- the checkov adapter.

   "checkov --output sarif --output json [--output FORMAT...]
   --output-file-path RESULTS --directory SOURCE [--config-file CFG]
   [--skip-download] --framework F... [--skip-framework F...]
   --skip-path P...", run from the run's own directory outside the tree,
   so that checkov's own discovery of a .checkov.yaml in its working
   directory never reads the repository's.  CFG is the config_file option,
   else the first of .checkov.yaml, .ash/.checkov.yaml, .checkov.yml,
   .ash/.checkov.yml in the source directory (upstream's discovery); both
   are configuration from the repository, so the option-file rule decides
   whether it is used.  --skip-path gets upstream's default paths (.venv/,
   venv/, node_modules/), the skip_path option and every link that leaves
   the tree.  checkov exits 1 when a check failed: a successful scan.

   checkov writes results_sarif.sarif and results_json.json; the SARIF is
   read when present, else the JSON (one report, or a list of one report
   per framework, as older releases wrote it).  A failed check's own
   severity is used when checkov has one; without one (checkov's open
   checks carry none) it is HIGH, the severity of the SARIF "error" level
   checkov gives every failed check.  */

#include <config.h>

#include <errno.h>
#include <regex.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/scanset.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define CHECKOV_SARIF "results_sarif.sarif"
#define CHECKOV_JSON "results_json.json"
#define CHECKOV_URI "https://www.checkov.io/"

static const char *const checkov_options[] = {
  "config_file",  "skip_path",       "additional_formats",
  "offline",      "frameworks",      "skip_frameworks",
  "tool_version", "install_timeout", NULL,
};

static const char *const checkov_frameworks[] = {
  "all",
  "ansible",
  "argo_workflows",
  "arm",
  "azure_pipelines",
  "bicep",
  "bitbucket_pipelines",
  "cdk",
  "circleci_pipelines",
  "cloudformation",
  "dockerfile",
  "github_configuration",
  "github_actions",
  "gitlab_configuration",
  "gitlab_ci",
  "bitbucket_configuration",
  "helm",
  "json",
  "yaml",
  "kubernetes",
  "kustomize",
  "openapi",
  "sca_package",
  "sca_image",
  "secrets",
  "serverless",
  "terraform",
  "terraform_json",
  "terraform_plan",
  "sast",
  "sast_python",
  "sast_java",
  "sast_javascript",
  "sast_typescript",
  "sast_golang",
  "3d_policy",
  NULL,
};

static const char *const checkov_formats[] = {
  "cli",
  "csv",
  "cyclonedx",
  "cyclonedx_json",
  "json",
  "junitxml",
  "github_failed_only",
  "gitlab_sast",
  "sarif",
  "spdx",
  NULL,
};

/* Upstream ASH's KNOWN_IGNORE_PATHS.  */
static const char *const checkov_known_ignore[] = {
  ".venv/",
  "venv/",
  "node_modules/",
  NULL,
};

static const char *const checkov_config_names[] = {
  ".checkov.yaml",
  ".ash/.checkov.yaml",
  ".checkov.yml",
  ".ash/.checkov.yml",
  NULL,
};

static bool
in_list (const char *const *list, const char *s)
{
  for (size_t i = 0; list[i]; i++)
    if (streq (list[i], s))
      return true;
  return false;
}

static bool
valid_framework (const char *s)
{
  return in_list (checkov_frameworks, s);
}

static bool
valid_format (const char *s)
{
  return in_list (checkov_formats, s);
}

/* A skip_path entry, a string or {path, reason} as upstream's
   IgnorePathWithReason: a regular expression checkov can compile (it
   joins them into one), on one line.  */
static bool
checkov_regex (const char *p, const void *arg _unused_)
{
  regex_t re;
  if (strchr (p, '\n') || regcomp (&re, p, REG_EXTENDED | REG_NOSUB) != 0)
    return false;
  regfree (&re);
  return true;
}

static int
skip_paths (const json_t *options, struct ash_strvec *ret,
            struct ash_error *err)
{
  struct ash_opt_list l
    = { .with_reason = true, .non_empty = true, .valid = checkov_regex };

  if (ash_adapter_opt_list (options, "skip_path", &l, ret) == 0)
    return 0;
  if (l.fault == ASH_OPT_LIST_NOT_LIST)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.checkov.options.skip_path must be a "
                             "list"));
  if (l.fault == ASH_OPT_LIST_BAD_ITEM)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.checkov.options.skip_path: item "
                             "%zu has no path"),
                          l.index);
  return ash_error_set (err, -EINVAL,
                        _ ("scanners.checkov.options.skip_path: '%s' is "
                           "not a regular expression checkov can use"),
                        l.item);
}

/* A path of the scan set's exclusions as one of checkov's --skip-path
   regular expressions (ash_scanset_checkov_regex).  An absolute path (the
   output directory inside the tree) is made relative to TARGET first; one
   outside it is left out (*RET NULL).  A path holding a control character
   cannot be written: an error naming it.  */
static int
excluded_regex (const char *target, const char *p, char **ret,
                struct ash_error *err)
{
  *ret = NULL;
  if (p[0] == '/')
    {
      size_t n = strlen (target);
      if (!(strneq (p, target, n) && p[n] == '/'))
        return 0;
      p += n + 1;
    }
  *ret = ash_scanset_checkov_regex (p);
  if (*ret == NULL)
    {
      /* Quoted: the path's control characters stay out of the message.  */
      _cleanup_free_ char *q = ash_scanset_quote_path (p);
      return ash_error_set (err, -EINVAL,
                            _ ("checkov's --skip-path cannot name '%s': its "
                               "path holds a line break or another control "
                               "character"),
                            q);
    }
  return 0;
}

int
ash_checkov_argv (const char *tool, const json_t *options,
                  const char *config_file, const char *results_dir,
                  const char *target, char *const *excluded_paths,
                  struct ash_strvec *argv, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec formats = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec fw = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec skipfw = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec skip = ASH_STRVEC_INIT;
  bool offline = false, have_formats;
  int r;

  r = ash_iac_check_options ("checkov", options, checkov_options, err);
  if (r == 0)
    r = ash_adapter_check_install_options ("checkov", options, true, err);
  if (r == 0)
    r = ash_iac_opt_strings ("checkov", options, "additional_formats",
                             valid_format, &formats, err);
  have_formats
    = json_object_get (options, "additional_formats") != NULL
      && !json_is_null (json_object_get (options, "additional_formats"));
  if (r == 0)
    r = ash_iac_opt_strings ("checkov", options, "frameworks", valid_framework,
                             &fw, err);
  if (r == 0)
    r = ash_iac_opt_strings ("checkov", options, "skip_frameworks",
                             valid_framework, &skipfw, err);
  if (r == 0)
    r = ash_adapter_get_bool ("checkov", options, "offline", false, &offline,
                              err);
  if (r == 0)
    r = skip_paths (options, &skip, err);
  if (r < 0)
    return r;

  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "--output");
  ash_strvec_push (argv, "sarif");
  ash_strvec_push (argv, "--output");
  ash_strvec_push (argv, "json");
  /* upstream's default additional format */
  if (!have_formats)
    ash_strvec_push (&formats, "cyclonedx_json");
  for (size_t i = 0; i < formats.nr; i++)
    if (!streq (formats.v[i], "sarif") && !streq (formats.v[i], "json"))
      {
        ash_strvec_push (argv, "--output");
        ash_strvec_push (argv, formats.v[i]);
      }
  ash_strvec_push (argv, "--output-file-path");
  ash_strvec_push (argv, results_dir);
  ash_strvec_push (argv, "--directory");
  ash_strvec_push (argv, target);
  if (config_file)
    {
      ash_strvec_push (argv, "--config-file");
      ash_strvec_push (argv, config_file);
    }
  if (offline)
    ash_strvec_push (argv, "--skip-download");
  if (fw.nr == 0)
    ash_strvec_push (&fw, "all");
  for (size_t i = 0; i < fw.nr; i++)
    {
      ash_strvec_push (argv, "--framework");
      ash_strvec_push (argv, fw.v[i]);
    }
  for (size_t i = 0; i < skipfw.nr; i++)
    {
      ash_strvec_push (argv, "--skip-framework");
      ash_strvec_push (argv, skipfw.v[i]);
    }
  for (size_t i = 0; checkov_known_ignore[i]; i++)
    {
      ash_strvec_push (argv, "--skip-path");
      ash_strvec_push (argv, checkov_known_ignore[i]);
    }
  for (size_t i = 0; i < skip.nr; i++)
    {
      ash_strvec_push (argv, "--skip-path");
      ash_strvec_push (argv, skip.v[i]);
    }
  for (size_t i = 0; excluded_paths && excluded_paths[i]; i++)
    {
      char *re = NULL;
      r = excluded_regex (target, excluded_paths[i], &re, err);
      if (r < 0)
        return r;
      if (re)
        {
          ash_strvec_push (argv, "--skip-path");
          ash_strvec_push_nodup (argv, re);
        }
    }
  return 0;
}

/* scanners.checkov.options, checked before the scan and by `config
   validate`: every check checkov_build makes of the options alone, in its
   order (the option names, config_file's type, then the command line's
   options through ash_checkov_argv itself, with placeholder paths).  What
   depends on the scanned tree stays at scan time: the file config_file
   names (it must exist, and the option-file rule judges it) and the scan
   set's exclusions.  */
static int
checkov_check_options (const json_t *options, struct ash_error *err)
{
  static const char *const files[] = { "config_file", NULL };
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  int r = ash_iac_check_options_strings ("checkov", options, checkov_options,
                                         files, err);
  if (r == 0)
    r = ash_checkov_argv ("checkov", options, NULL, "/", "/", NULL, &argv,
                          err);
  return r;
}

/* The config file: the option's, else one discovered in the tree, each
   only when the option-file rule allows it.  */
static int
checkov_config (const struct ash_scan_job *job, char **ret,
                struct ash_error *err)
{
  const char *opt;
  int r = ash_adapter_get_string ("checkov", job->options, "config_file",
                                  false, &opt, err);
  if (r < 0)
    return r;
  if (opt)
    return ash_iac_option_file ("checkov", job, "config_file", ret, err);
  for (size_t i = 0; checkov_config_names[i]; i++)
    {
      _cleanup_free_ char *path
        = ash_path_join (job->target, checkov_config_names[i]);
      if (access (path, F_OK) != 0)
        continue;
      /* Judged as a file the option would name, set by no one: the tier
         rule alone decides.  */
      json_t *o = json_pack ("{s:s}", "config_file", checkov_config_names[i]);
      struct ash_scan_job j = *job;
      j.options = o;
      r = ash_iac_option_file ("checkov", &j, "config_file", ret, err);
      json_decref (o);
      return r;
    }
  *ret = NULL;
  return 0;
}

static int
checkov_build (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job, struct ash_cmd *cmd,
               struct ash_error *err)
{
  _cleanup_free_ char *cfg = NULL;
  struct ash_strvec abs = ASH_STRVEC_INIT, skip = ASH_STRVEC_INIT;
  int r
    = ash_iac_check_options ("checkov", job->options, checkov_options, err);
  if (r == 0)
    r = checkov_config (job, &cfg, err);
  /* The scan set's exclusions, unescaped: the links that leave the tree,
     the ignored paths and the output directory.  The relative values of
     JOB->excluded_paths are the same links already written for checkov;
     only the absolute ones (the output directory) are taken from it.  */
  for (size_t i = 0; job->excluded_paths && job->excluded_paths[i]; i++)
    if (job->excluded_paths[i][0] == '/')
      ash_strvec_push (&abs, job->excluded_paths[i]);
  struct ash_scan_job j = *job;
  j.excluded_paths = abs.v;
  if (r == 0)
    r = ash_adapter_excluded_paths (&j, &skip, err);
  if (r == 0)
    r = ash_checkov_argv (job->tool_path, job->options, cfg, job->results_dir,
                          job->target, skip.v, &cmd->argv, err);
  ash_strvec_release (&abs);
  ash_strvec_release (&skip);
  if (r == 0 && job->run_config_dir)
    cmd->cwd = xstrdup (job->run_config_dir);
  return r;
}

static enum ash_severity
severity_of (const char *s, enum ash_severity def)
{
  enum ash_severity sev;
  if (s && ash_severity_parse (s, &sev) == 0)
    return sev;
  return def;
}

static void
add_report (json_t *run, const json_t *report, const char *source_dir)
{
  json_t *failed
    = json_object_get (json_object_get (report, "results"), "failed_checks");
  size_t i;
  json_t *c;
  json_array_foreach (failed, i, c)
    {
      const char *id = json_string_value (json_object_get (c, "check_id"));
      const char *name = json_string_value (json_object_get (c, "check_name"));
      const char *file = json_string_value (json_object_get (c, "file_path"));
      const char *abs
        = json_string_value (json_object_get (c, "file_abs_path"));
      const char *res = json_string_value (json_object_get (c, "resource"));
      json_t *range = json_object_get (c, "file_line_range");
      if (id == NULL || (file == NULL && abs == NULL))
        continue;
      /* file_path is relative to --directory with a leading slash,
         except in frameworks that report the absolute path there.  */
      const char *uri = file;
      size_t n = strlen (source_dir);
      if (abs && strneq (abs, source_dir, n) && abs[n] == '/')
        uri = abs;
      else if (file && file[0] == '/' && abs && !streq (file, abs))
        uri = file + 1;
      /* Only an absolute path outside the source directory: it is made
         relative (or reduced) like any other.  */
      if (uri == NULL)
        uri = abs;
      ash_iac_run_rule (run, id, name, name,
                        json_string_value (json_object_get (c, "guideline")));
      _cleanup_free_ char *msg = xasprintf ("%s%s%s", name ? name : id,
                                            res ? ": " : "", res ? res : "");
      ash_iac_run_result (
        run, id, msg, uri, source_dir,
        (long) json_integer_value (json_array_get (range, 0)),
        (long) json_integer_value (json_array_get (range, 1)),
        severity_of (json_string_value (json_object_get (c, "severity")),
                     ASH_SEVERITY_HIGH));
    }
}

int
ash_checkov_json_to_sarif (const json_t *report, const char *source_dir,
                           json_t **ret_doc, struct ash_error *err)
{
  const char *version = NULL;
  size_t i;
  json_t *r;

  if (json_is_object (report))
    {
      if (!json_is_object (json_object_get (report, "results"))
          && !json_is_object (json_object_get (report, "summary")))
        return ash_error_set (err, -EINVAL,
                              _ ("%s is not a checkov report: no \"results\""),
                              CHECKOV_JSON);
    }
  else if (!json_is_array (report))
    return ash_error_set (err, -EINVAL, _ ("%s is not a checkov report"),
                          CHECKOV_JSON);
  json_t *doc = ash_sarif_doc_new ();
  json_t *list = json_is_array (report) ? json_incref ((json_t *) report)
                                        : json_pack ("[O]", report);
  json_array_foreach (list, i, r)
    if (version == NULL)
      version = json_string_value (
        json_object_get (json_object_get (r, "summary"), "checkov_version"));
  json_t *run = ash_iac_run_new ("checkov", version, CHECKOV_URI);
  json_array_foreach (list, i, r)
    {
      if (!json_is_object (r))
        {
          json_decref (run);
          json_decref (list);
          json_decref (doc);
          return ash_error_set (err, -EINVAL,
                                _ ("%s: item %zu is not a checkov report"),
                                CHECKOV_JSON, i);
        }
      add_report (run, r, source_dir);
    }
  json_decref (list);
  json_array_append_new (json_object_get (doc, "runs"), run);
  *ret_doc = doc;
  return 0;
}

static enum ash_severity
checkov_sarif_severity (const json_t *result, const json_t *rule _unused_)
{
  const char *s = json_string_value (
    json_object_get (json_object_get (result, "properties"), "severity"));
  return severity_of (s, ASH_SEVERITY_HIGH);
}

/* checkov's SARIF percent-encodes the file names of its locations; ash
   reports the file name, as checkov's JSON has it.  */
static void
unescape_uris (json_t *doc)
{
  size_t i, j, k;
  json_t *run, *res, *loc;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      json_array_foreach (json_object_get (res, "locations"), k, loc)
        {
          json_t *al
            = json_object_get (json_object_get (loc, "physicalLocation"),
                               "artifactLocation");
          const char *uri = json_string_value (json_object_get (al, "uri"));
          if (uri == NULL || strchr (uri, '%') == NULL)
            continue;
          _cleanup_free_ char *name = ash_iac_uri_unescape (uri);
          /* Bytes that are not UTF-8 keep their encoding.  */
          json_t *v = json_string (name);
          if (v)
            json_object_set_new (al, "uri", v);
        }
}

static int
checkov_parse (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job,
               const struct ash_cmd_result *res, json_t **ret_doc,
               struct ash_error *err)
{
  json_t *doc = NULL, *report = NULL;
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  int r;

  if (res->status != 0 && res->status != 1)
    return ash_error_set (err, -EIO, _ ("checkov exited with status %d"),
                          res->status);
  r = ash_iac_read_output ("checkov", job, CHECKOV_SARIF, &b, &e);
  ash_buf_release (&b);
  if (r != -ENOENT)
    {
      ash_error_release (&e);
      r = ash_iac_read_sarif ("checkov", job, CHECKOV_SARIF, &doc, err);
      if (r < 0)
        return r;
      unescape_uris (doc);
      ash_iac_sarif_normalise (doc, "checkov", NULL, CHECKOV_URI, job->target,
                               checkov_sarif_severity);
      *ret_doc = doc;
      return 0;
    }
  ash_error_release (&e);
  r = ash_iac_read_json ("checkov", job, CHECKOV_JSON, &report, err);
  if (r < 0)
    return r;
  r = ash_checkov_json_to_sarif (report, job->target, &doc, err);
  json_decref (report);
  if (r < 0)
    return r;
  ash_iac_sarif_normalise (doc, "checkov", NULL, CHECKOV_URI, job->target,
                           NULL);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_checkov = {
  .name = "checkov",
  .tool = "checkov",
  .checks_tool_version = true,
  .install_hint = "uv tool install checkov",
  .description = "infrastructure-as-code misconfiguration scanner",
  .build = checkov_build,
  .parse = checkov_parse,
  .check_options = checkov_check_options,
};
