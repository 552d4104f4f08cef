/* SPDX-License-Identifier: Apache-2.0 */
/* cfn-lint.c -- the cfn-lint adapter.

   "cfn-lint --format sarif --output-file=RESULTS/cfn-lint.sarif
   --config-file=CFG [--regions R...] [--ignore-checks C...]
   [--include-checks C...] -- TEMPLATE...", run in the source directory
   with the templates of the scan set relative to it (glob characters
   escaped, since cfn-lint expands each file argument as a glob).  CFG is
   the operator's config_file when the option-file rule allows it, else
   an empty file ASH writes in the run's own directory: without
   --config-file cfn-lint reads a .cfnlintrc from the repository, which
   can load Python rules.  The exit status is a bitmask of the levels
   reported (2, 4, 8); an odd status or one above 14 is a failure, and so
   is rule E0003, cfn-lint's configuration error.  E rules are MEDIUM, W
   rules LOW, I rules INFO, as upstream ASH maps them.  */

#include <config.h>

#include <errno.h>
#include <regex.h>
#include <pthread.h>
#include <string.h>

#include "base/strvec.h"
#include "base/util.h"
#include "sandbox/probe-cache.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define CFN_LINT_SARIF "cfn-lint.sarif"
#define CFN_LINT_JSON "cfn-lint.json"
#define CFN_LINT_RC "ash-empty.cfnlintrc"

static const char *const cfn_lint_options[] = {
  "config_file",
  "regions",
  "ignore_checks",
  "include_checks",
  "tool_version",
  "install_timeout",
  NULL,
};

static bool
valid_region (const char *s)
{
  static const char pattern[] = "^(ALL_REGIONS|[a-z]{2}(-[a-z]+)+-[0-9]+)$";
  regex_t re;
  if (regcomp (&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
    return false;
  bool ok = regexec (&re, s, 0, NULL, 0) == 0;
  regfree (&re);
  return ok;
}

static bool
valid_check (const char *s)
{
  if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
    return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')
          || (*p >= '0' && *p <= '9')))
      return false;
  return true;
}

int
ash_cfn_lint_argv (const char *tool, const json_t *options, const char *format,
                   const char *config_file, const char *out,
                   char *const *templates, struct ash_strvec *argv,
                   struct ash_error *err)
{
  struct ash_strvec v = ASH_STRVEC_INIT;
  int r = ash_iac_check_options ("cfn-lint", options, cfn_lint_options, err);
  if (r == 0)
    r = ash_adapter_check_install_options ("cfn-lint", options, true, err);
  if (r < 0)
    return r;

  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "--format");
  ash_strvec_push (argv, format);
  ash_strvec_pushf (argv, "--output-file=%s", out);
  ash_strvec_pushf (argv, "--config-file=%s", config_file);

  static const struct
  {
    const char *key, *flag;
    bool (*valid) (const char *);
  } lists[] = {
    { "regions", "--regions", valid_region },
    { "ignore_checks", "--ignore-checks", valid_check },
    { "include_checks", "--include-checks", valid_check },
  };
  for (size_t i = 0; i < ARRAY_SIZE (lists); i++)
    {
      ash_strvec_clear (&v);
      r = ash_iac_opt_strings ("cfn-lint", options, lists[i].key,
                               lists[i].valid, &v, err);
      if (r < 0)
        break;
      if (v.nr == 0)
        continue;
      ash_strvec_push (argv, lists[i].flag);
      ash_strvec_pushv (argv, v.v);
    }
  ash_strvec_release (&v);
  if (r < 0)
    return r;
  ash_strvec_push (argv, "--");
  for (size_t i = 0; templates && templates[i]; i++)
    ash_strvec_push_nodup (argv, ash_iac_glob_escape (templates[i]));
  return 0;
}

/* Whether this cfn-lint writes SARIF: asked once per tool path.  */
static pthread_mutex_t sarif_lock = PTHREAD_MUTEX_INITIALIZER;
static char *sarif_tool;
static bool sarif_supported;

static int
cfn_lint_prepare (const struct ash_scanner *s _unused_,
                  const struct ash_scan_job *job,
                  struct ash_error *err _unused_)
{
  pthread_mutex_lock (&sarif_lock);
  _cleanup_free_ char *cached = NULL;
  if ((sarif_tool == NULL || !streq (sarif_tool, job->tool_path))
      && (cached = ash_tool_cache_load ("cfn-lint", job->tool_path, "sarif"))
      && (streq (cached, "yes") || streq (cached, "no")))
    {
      free (sarif_tool);
      sarif_tool = xstrdup (job->tool_path);
      sarif_supported = streq (cached, "yes");
    }
  if (sarif_tool == NULL || !streq (sarif_tool, job->tool_path))
    {
      char *argv[] = { (char *) job->tool_path,
                       (char *) "--format",
                       (char *) "sarif",
                       (char *) "--config-file=/dev/null",
                       (char *) "--",
                       (char *) "/dev/null",
                       NULL };
      _cleanup_free_ char *out = NULL;
      struct ash_cmd_result res;
      struct ash_error perr = ASH_ERROR_INIT;
      int status
        = ash_adapter_probe_run (job, argv, 120, &out, &res, &perr) == 0
            ? res.status
            : -1;
      ash_error_release (&perr);
      free (sarif_tool);
      sarif_tool = xstrdup (job->tool_path);
      sarif_supported = out && strstr (out, "\"version\"") != NULL
                        && strstr (out, "\"runs\"") != NULL;
      /* Only an answer from a tool that ran: status -1 is a probe that
         could not start.  */
      if (status >= 0)
        ash_tool_cache_store ("cfn-lint", job->tool_path, "sarif",
                              sarif_supported ? "yes" : "no");
    }
  pthread_mutex_unlock (&sarif_lock);
  return 0;
}

static bool
use_sarif (const struct ash_scan_job *job)
{
  pthread_mutex_lock (&sarif_lock);
  bool r = sarif_tool && streq (sarif_tool, job->tool_path) && sarif_supported;
  pthread_mutex_unlock (&sarif_lock);
  return r;
}

/* scanners.cfn-lint.options, checked before the scan and by `config
   validate`: every check cfn_lint_build makes of the options alone, in its
   order (the option names, config_file's type, then the command line's
   options through ash_cfn_lint_argv itself, with placeholder paths).  The
   file config_file names is judged at scan time: it must exist, and the
   option-file rule weighs it against the scanned tree.  */
static int
cfn_lint_check_options (const json_t *options, struct ash_error *err)
{
  static const char *const files[] = { "config_file", NULL };
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  int r = ash_iac_check_options_strings ("cfn-lint", options, cfn_lint_options,
                                         files, err);
  if (r == 0)
    r = ash_cfn_lint_argv ("cfn-lint", options, "json", "/dev/null",
                           "/dev/null", NULL, &argv, err);
  return r;
}

static int
cfn_lint_build (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job, struct ash_cmd *cmd,
                struct ash_error *err)
{
  struct ash_strvec templates = ASH_STRVEC_INIT;
  _cleanup_free_ char *cfg = NULL;
  bool sarif = use_sarif (job);
  _cleanup_free_ char *out
    = ash_path_join (job->results_dir, sarif ? CFN_LINT_SARIF : CFN_LINT_JSON);
  const char *format = sarif ? "sarif" : "json";
  int r;

  r = ash_iac_check_options ("cfn-lint", job->options, cfn_lint_options, err);
  if (r == 0)
    r = ash_iac_option_file ("cfn-lint", job, "config_file", &cfg, err);
  if (r == 0 && cfg == NULL)
    r = ash_adapter_write_run_data (job, CFN_LINT_RC, "{}\n", 3, true, &cfg,
                                    err);
  if (r == 0)
    r = ash_iac_cfn_templates (job, &templates, err);
  if (r == 0 && templates.nr == 0)
    {
      r = ash_iac_mark_no_input (job, err);
      if (r == 0)
        r = ash_cfn_lint_argv (job->tool_path, job->options, format, cfg, out,
                               NULL, &cmd->argv, err);
      if (r == 0)
        {
          ash_strvec_clear (&cmd->argv);
          ash_strvec_push (&cmd->argv, job->tool_path);
          ash_strvec_push (&cmd->argv, "--version");
        }
    }
  else if (r == 0)
    r = ash_cfn_lint_argv (job->tool_path, job->options, format, cfg, out,
                           templates.v, &cmd->argv, err);
  ash_strvec_release (&templates);
  if (r == 0)
    cmd->cwd = xstrdup (job->target);
  return r;
}

static enum ash_severity
cfn_lint_severity (const json_t *result, const json_t *rule _unused_)
{
  const char *id = json_string_value (json_object_get (result, "ruleId"));
  if (id && (id[0] == 'W' || id[0] == 'w'))
    return ASH_SEVERITY_LOW;
  if (id && (id[0] == 'I' || id[0] == 'i'))
    return ASH_SEVERITY_INFO;
  return ASH_SEVERITY_MEDIUM;
}

/* cfn-lint's JSON matches to SARIF.  */
int
ash_cfn_lint_json_to_sarif (const json_t *matches, const char *source_dir,
                            json_t **ret_doc, struct ash_error *err)
{
  size_t i;
  json_t *m;

  if (!json_is_array (matches))
    return ash_error_set (err, -EINVAL,
                          _ ("%s is not a list of cfn-lint matches"),
                          CFN_LINT_JSON);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_iac_run_new ("cfn-lint", NULL,
                                 "https://github.com/aws-cloudformation/"
                                 "cfn-lint");
  json_array_foreach (matches, i, m)
    {
      json_t *rule = json_object_get (m, "Rule");
      const char *id = json_string_value (json_object_get (rule, "Id"));
      const char *file = json_string_value (json_object_get (m, "Filename"));
      if (id == NULL || file == NULL)
        {
          json_decref (doc);
          json_decref (run);
          return ash_error_set (err, -EINVAL,
                                _ ("%s: match %zu has no rule id or file"),
                                CFN_LINT_JSON, i);
        }
      json_t *loc = json_object_get (m, "Location");
      long start = (long) json_integer_value (
        json_object_get (json_object_get (loc, "Start"), "LineNumber"));
      long end = (long) json_integer_value (
        json_object_get (json_object_get (loc, "End"), "LineNumber"));
      ash_iac_run_rule (
        run, id,
        json_string_value (json_object_get (rule, "ShortDescription")),
        json_string_value (json_object_get (rule, "Description")),
        json_string_value (json_object_get (rule, "Source")));
      json_t *fake = json_pack ("{s:s}", "ruleId", id);
      enum ash_severity sev = cfn_lint_severity (fake, NULL);
      json_decref (fake);
      ash_iac_run_result (run, id,
                          json_string_value (json_object_get (m, "Message")),
                          file, source_dir, start, end, sev);
    }
  json_array_append_new (json_object_get (doc, "runs"), run);
  *ret_doc = doc;
  return 0;
}

static int
cfn_lint_parse (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job,
                const struct ash_cmd_result *res, json_t **ret_doc,
                struct ash_error *err)
{
  json_t *doc = NULL;
  size_t i, j;
  json_t *run, *result;

  if (res->status < 0 || res->status > 14 || res->status % 2 == 1)
    return ash_error_set (err, -EIO, _ ("cfn-lint exited with status %d"),
                          res->status);
  if (ash_iac_no_input (job))
    {
      doc = ash_sarif_doc_new ();
      json_array_append_new (json_object_get (doc, "runs"),
                             ash_iac_run_new ("cfn-lint", NULL,
                                              "https://github.com/"
                                              "aws-cloudformation/cfn-lint"));
      *ret_doc = doc;
      return 0;
    }
  int r;
  if (use_sarif (job))
    r = ash_iac_read_sarif ("cfn-lint", job, CFN_LINT_SARIF, &doc, err);
  else
    {
      json_t *matches = NULL;
      r = ash_iac_read_json ("cfn-lint", job, CFN_LINT_JSON, &matches, err);
      if (r == 0)
        r = ash_cfn_lint_json_to_sarif (matches, job->target, &doc, err);
      json_decref (matches);
    }
  if (r < 0)
    return r;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, result)
      {
        const char *id
          = json_string_value (json_object_get (result, "ruleId"));
        if (id && streq (id, "E0003"))
          {
            const char *m = json_string_value (
              json_object_get (json_object_get (result, "message"), "text"));
            _cleanup_free_ char *pm = ash_iac_printable (m ? m : id);
            r = ash_error_set (err, -EINVAL,
                               _ ("cfn-lint reported a configuration error: "
                                  "%s"),
                               pm);
            json_decref (doc);
            return r;
          }
      }
  ash_iac_sarif_normalise (doc, "cfn-lint", NULL,
                           "https://github.com/aws-cloudformation/cfn-lint",
                           job->target, cfn_lint_severity);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_cfn_lint = {
  .name = "cfn-lint",
  .tool = "cfn-lint",
  .checks_tool_version = true,
  .install_hint = "uv tool install cfn-lint",
  .description = "CloudFormation linter",
  .build = cfn_lint_build,
  .parse = cfn_lint_parse,
  .prepare = cfn_lint_prepare,
  .check_options = cfn_lint_check_options,
};
