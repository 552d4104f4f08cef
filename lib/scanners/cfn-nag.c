/* SPDX-License-Identifier: Apache-2.0 */
/* cfn-nag.c -- the cfn-nag adapter.

   "cfn_nag_scan --output-format json --print-suppression --ignore-fatal
   [--rule-directory RUN] [--profile-path RUN/P] [--deny-list-path RUN/D]
   --input-path SOURCE --template-pattern '^(T1|T2|...)$'": cfn_nag_scan
   walks SOURCE and keeps the files whose path the pattern matches, so the
   pattern names exactly the CloudFormation templates of the scan set (the
   discovery upstream ASH applies: .json, .yaml or .yml with a Resources
   mapping), each an absolute path with the regex's special characters
   escaped.  cfn-nag has no SARIF output: its JSON report (a list of
   {filename, file_results: {violations}} on standard output, which ASH
   keeps as cfn-nag.stdout.log) is mapped here.  FAIL violations are HIGH,
   WARN violations MEDIUM.  cfn_nag_scan exits with the number of
   failures (--ignore-fatal keeps a template it cannot parse from
   stopping the others), so any exit status with a JSON report is a
   completed scan.

   Upstream ASH's cfn-nag takes no options; ash adds three of
   cfn_nag_scan's own, for the operator's rules: rule_directory (custom
   rules, the *Rule.rb files of a directory: Ruby code cfn_nag loads),
   profile_path (the rule ids to run) and deny_list_path (rules not to
   run).  Each file is judged by the option-file rule (one a config the
   scanned repository could have written names is left out with a
   warning, so a repository can neither run its own Ruby nor turn rules
   off) and copied into the run's own directory, which cfn_nag reads: no
   mount is needed, under any sandbox.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define CFN_NAG_OUT "cfn-nag.stdout.log"
#define CFN_NAG_URI "https://github.com/stelligent/cfn_nag"

/* Cap on a rule, profile or deny-list file copied for cfn_nag.  */
#define CFN_NAG_FILE_MAX (4u << 20)

static const char *const cfn_nag_options[] = {
  "rule_directory",
  "profile_path",
  "deny_list_path",
  NULL,
};

int
ash_cfn_nag_argv (const char *tool, const json_t *options,
                  const char *rule_dir, const char *profile,
                  const char *deny_list, const char *target,
                  char *const *templates, struct ash_strvec *argv,
                  struct ash_error *err)
{
  struct ash_buf re = ASH_BUF_INIT;
  int r = ash_iac_check_options ("cfn-nag", options, cfn_nag_options, err);
  const char *v;
  for (size_t i = 0; r == 0 && cfn_nag_options[i]; i++)
    r = ash_adapter_get_string ("cfn-nag", options, cfn_nag_options[i], false,
                                &v, err);
  if (r < 0)
    return r;

  ash_buf_addstr (&re, "^(");
  for (size_t i = 0; templates && templates[i]; i++)
    {
      _cleanup_free_ char *abs = ash_path_join (target, templates[i]);
      if (strpbrk (abs, "\n\r"))
        {
          ash_buf_release (&re);
          return ash_error_set (err, -EINVAL,
                                _ ("cfn-nag cannot be given %s: its path "
                                   "holds a line break"),
                                templates[i]);
        }
      if (i > 0)
        ash_buf_addch (&re, '|');
      for (const char *c = abs; *c; c++)
        {
          if (strchr ("\\.^$|?*+()[]{}/-", *c) && *c != '/')
            ash_buf_addch (&re, '\\');
          ash_buf_addch (&re, *c);
        }
    }
  ash_buf_addstr (&re, ")$");

  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "--output-format");
  ash_strvec_push (argv, "json");
  ash_strvec_push (argv, "--print-suppression");
  ash_strvec_push (argv, "--ignore-fatal");
  if (rule_dir)
    {
      ash_strvec_push (argv, "--rule-directory");
      ash_strvec_push (argv, rule_dir);
    }
  if (profile)
    {
      ash_strvec_push (argv, "--profile-path");
      ash_strvec_push (argv, profile);
    }
  if (deny_list)
    {
      ash_strvec_push (argv, "--deny-list-path");
      ash_strvec_push (argv, deny_list);
    }
  ash_strvec_push (argv, "--input-path");
  ash_strvec_push (argv, target);
  ash_strvec_push (argv, "--template-pattern");
  ash_strvec_push_nodup (argv, ash_buf_detach (&re));
  return 0;
}

/* The file option KEY names, judged by the option-file rule and copied
   into the run's directory as NAME (*RET NULL when unset or refused).  */
static int
own_file (const struct ash_scan_job *job, const char *key, const char *name,
          char **ret, struct ash_error *err)
{
  _cleanup_free_ char *f = NULL;
  *ret = NULL;
  int r = ash_iac_option_file ("cfn-nag", job, key, &f, err);
  if (r == 0 && f)
    r = ash_iac_copy_to_run (job, f, name, CFN_NAG_FILE_MAX, ret, err);
  return r;
}

/* The *Rule.rb files of the rule_directory option, each judged by the
   option-file rule and copied into the run's directory (which becomes
   the --rule-directory; its other files do not end in Rule.rb).  *RET is
   that directory, or NULL when the option is unset or no file was
   copied.  */
static int
own_rules (const struct ash_scan_job *job, char **ret, struct ash_error *err)
{
  const char *dir;
  size_t copied = 0;
  *ret = NULL;
  int r = ash_adapter_get_string ("cfn-nag", job->options, "rule_directory",
                                  false, &dir, err);
  if (r < 0 || dir == NULL)
    return r;
  _cleanup_free_ char *p
    = dir[0] == '/' ? xstrdup (dir) : ash_path_join (job->target, dir);
  struct stat st;
  if (stat (p, &st) < 0 || !S_ISDIR (st.st_mode))
    return ash_error_set (err, -ENOTDIR,
                          _ ("scanners.cfn-nag.options.rule_directory names "
                             "%s, which is not a directory"),
                          p);
  struct ash_strvec names = ASH_STRVEC_INIT;
  DIR *d = opendir (p);
  struct dirent *de;
  while (d && (de = readdir (d)))
    if (ash_str_has_suffix (de->d_name, "Rule.rb"))
      ash_strvec_push (&names, de->d_name);
  if (d)
    closedir (d);
  ash_strvec_sort (&names);
  for (size_t i = 0; r == 0 && i < names.nr; i++)
    {
      _cleanup_free_ char *rel = xasprintf ("%s/%s", dir, names.v[i]);
      json_t *o = json_pack ("{s:s}", "rule_directory", rel);
      struct ash_scan_job j = *job;
      j.options = o;
      _cleanup_free_ char *copy = NULL;
      r = own_file (&j, "rule_directory", names.v[i], &copy, err);
      if (r == 0 && copy)
        copied++;
      json_decref (o);
    }
  ash_strvec_release (&names);
  if (r == 0 && copied > 0)
    *ret = xstrdup (job->run_config_dir);
  return r;
}

/* scanners.cfn-nag.options, checked before the scan and by `config
   validate`: the option names and that each is a string, through
   ash_cfn_nag_argv itself (with placeholder paths and no template), which
   makes every check cfn_nag_build makes of the options alone.  What the
   options name is judged at scan time, against the scanned tree: the
   directory and files must exist, and the option-file rule weighs each
   one.  */
static int
cfn_nag_check_options (const json_t *options, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  return ash_cfn_nag_argv ("cfn_nag_scan", options, NULL, NULL, NULL, "/",
                           NULL, &argv, err);
}

static int
cfn_nag_build (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job, struct ash_cmd *cmd,
               struct ash_error *err)
{
  struct ash_strvec templates = ASH_STRVEC_INIT;
  _cleanup_free_ char *rules = NULL, *profile = NULL, *deny = NULL;
  int r
    = ash_iac_check_options ("cfn-nag", job->options, cfn_nag_options, err);
  if (r == 0)
    r = ash_iac_cfn_templates (job, &templates, err);
  if (r == 0 && templates.nr == 0)
    {
      r = ash_iac_mark_no_input (job, err);
      ash_strvec_push (&cmd->argv, job->tool_path);
      ash_strvec_push (&cmd->argv, "--version");
      ash_strvec_release (&templates);
      return r;
    }
  if (r == 0)
    r = own_rules (job, &rules, err);
  if (r == 0)
    r = own_file (job, "profile_path", "cfn-nag-profile", &profile, err);
  if (r == 0)
    r = own_file (job, "deny_list_path", "cfn-nag-deny-list", &deny, err);
  if (r == 0)
    r = ash_cfn_nag_argv (job->tool_path, job->options, rules, profile, deny,
                          job->target, templates.v, &cmd->argv, err);
  ash_strvec_release (&templates);
  return r;
}

int
ash_cfn_nag_json_to_sarif (const json_t *report, const char *source_dir,
                           json_t **ret_doc, struct ash_error *err)
{
  size_t i, j;
  json_t *file, *v;

  if (!json_is_array (report))
    return ash_error_set (err, -EINVAL,
                          _ ("%s is not a cfn_nag report (a list of files)"),
                          CFN_NAG_OUT);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_iac_run_new ("cfn-nag", NULL, CFN_NAG_URI);
  json_array_foreach (report, i, file)
    {
      const char *name
        = json_string_value (json_object_get (file, "filename"));
      json_t *viol = json_object_get (json_object_get (file, "file_results"),
                                      "violations");
      if (name == NULL || !json_is_array (viol))
        {
          json_decref (run);
          json_decref (doc);
          return ash_error_set (err, -EINVAL,
                                _ ("%s: entry %zu is not a cfn_nag file "
                                   "result"),
                                CFN_NAG_OUT, i);
        }
      json_array_foreach (viol, j, v)
        {
          const char *id = json_string_value (json_object_get (v, "id"));
          const char *rname = json_string_value (json_object_get (v, "name"));
          const char *msg = json_string_value (json_object_get (v, "message"));
          const char *type = json_string_value (json_object_get (v, "type"));
          json_t *lines = json_object_get (v, "line_numbers");
          json_t *ids = json_object_get (v, "logical_resource_ids");
          if (id == NULL)
            continue;
          enum ash_severity sev = type && streq (type, "FAIL")
                                    ? ASH_SEVERITY_HIGH
                                    : ASH_SEVERITY_MEDIUM;
          ash_iac_run_rule (run, id, rname, msg, NULL);
          size_t n = json_array_size (lines);
          if (n == 0)
            n = 1;
          /* One result per resource the violation names.  */
          for (size_t k = 0; k < n; k++)
            {
              const char *res = json_string_value (json_array_get (ids, k));
              _cleanup_free_ char *m
                = xasprintf ("%s%s%s", msg ? msg : id, res ? ": " : "",
                             res ? res : "");
              long line
                = (long) json_integer_value (json_array_get (lines, k));
              ash_iac_run_result (run, id, m, name, source_dir, line, line,
                                  sev);
            }
        }
    }
  json_array_append_new (json_object_get (doc, "runs"), run);
  *ret_doc = doc;
  return 0;
}

static int
cfn_nag_parse (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job,
               const struct ash_cmd_result *res, json_t **ret_doc,
               struct ash_error *err)
{
  json_t *report = NULL, *doc = NULL;
  int r;

  if (ash_iac_no_input (job))
    {
      if (res->status != 0)
        return ash_error_set (err, -EIO,
                              _ ("cfn_nag_scan exited with status %d"),
                              res->status);
      doc = ash_sarif_doc_new ();
      json_array_append_new (json_object_get (doc, "runs"),
                             ash_iac_run_new ("cfn-nag", NULL, CFN_NAG_URI));
      *ret_doc = doc;
      return 0;
    }
  if (res->status < 0)
    return ash_error_set (err, -EIO, _ ("cfn_nag_scan exited with status %d"),
                          res->status);
  r = ash_iac_read_json ("cfn-nag", job, CFN_NAG_OUT, &report, err);
  if (r < 0)
    return r;
  r = ash_cfn_nag_json_to_sarif (report, job->target, &doc, err);
  json_decref (report);
  if (r < 0)
    return r;
  ash_iac_sarif_normalise (doc, "cfn-nag", NULL, CFN_NAG_URI, job->target,
                           NULL);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_cfn_nag = {
  .name = "cfn-nag",
  .tool = "cfn_nag_scan",
  .install_hint = "apt-get install ruby && gem install cfn-nag",
  .description = "CloudFormation template linter for insecure patterns",
  .build = cfn_nag_build,
  .parse = cfn_nag_parse,
  .check_options = cfn_nag_check_options,
};
