/* SPDX-License-Identifier: Apache-2.0 */
/* cfn-guard.c -- the cfn-guard adapter.

   "cfn-guard validate --output-format sarif --show-summary none
   --structured --rules RULES... --data TEMPLATE...", run in the source
   directory with the CloudFormation templates of the scan set relative to
   it; the SARIF on standard output is kept as cfn-guard.stdout.log.

   The rule sets (rule_sets, by default wa-Security-Pillar) are files
   NAME.guard of the rules bundle: $ASH_CFN_GUARD_RULES_DIR when set, else
   share/cfn-guard-rules beside ASH's bin directory.  Without a bundle the
   scanner is MISSING, saying where it looked.  The operator's own rules
   (rules_paths: .guard or .ruleset files, or directories of them) are
   copied into the run's own directory and cfn-guard reads the copies: the
   files are never mounted, and a path the option-file rule refuses (one
   the scanned repository named) is left out with a warning.  Exit 0 is
   clean and 19 found violations; every violation is HIGH, as upstream ASH
   reports it.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define CFN_GUARD_OUT "cfn-guard.stdout.log"
#define CFN_GUARD_URI                                                         \
  "https://github.com/aws-cloudformation/cloudformation-guard"
#define CFN_GUARD_DEFAULT_SET "wa-Security-Pillar"
#define CFN_GUARD_RULES_MAX (4u << 20)

static const char *const cfn_guard_options[] = {
  "rule_sets", "rules_paths", "tool_version", "install_timeout", NULL,
};

static bool
valid_set_name (const char *s)
{
  regex_t re;
  if (regcomp (&re, "^[A-Za-z0-9][A-Za-z0-9._-]*$", REG_EXTENDED | REG_NOSUB)
      != 0)
    return false;
  bool ok = regexec (&re, s, 0, NULL, 0) == 0 && strstr (s, "..") == NULL;
  regfree (&re);
  return ok;
}

/* The rules bundle directory (newly allocated), or NULL.  */
static char *
bundle_dir (const struct ash_scan_job *job, char **ret_where)
{
  const char *env = getenv ("ASH_CFN_GUARD_RULES_DIR");
  char *dir;
  if (env && *env)
    dir = xstrdup (env);
  else if (job->bin_path)
    dir = xasprintf ("%s/../share/cfn-guard-rules", job->bin_path);
  else
    dir = NULL;
  if (ret_where)
    *ret_where = dir ? xstrdup (dir)
                     : xstrdup ("share/cfn-guard-rules beside ASH's bin "
                                "directory");
  struct stat st;
  if (dir && (stat (dir, &st) < 0 || !S_ISDIR (st.st_mode)))
    {
      free (dir);
      dir = NULL;
    }
  return dir;
}

static int rule_sets (const json_t *options, struct ash_strvec *sets,
                      struct ash_error *err);

/* The rules bundle is needed only for the rule sets: with rule_sets
   empty, cfn-guard runs on the operator's own rules_paths alone (and has
   no rules at all when those name none, which build says).  A bad
   rule_sets is the error build would give.  */
static int
cfn_guard_prepare (const struct ash_scanner *s _unused_,
                   const struct ash_scan_job *job, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec sets = ASH_STRVEC_INIT;
  int r = rule_sets (job->options, &sets, err);
  if (r < 0 || sets.nr == 0)
    return r;
  _cleanup_free_ char *where = NULL;
  _cleanup_free_ char *dir = bundle_dir (job, &where);
  if (dir == NULL)
    {
      r = ash_error_set (err, -ENOENT,
                         _ ("cfn-guard's rules bundle is not installed: %s "
                            "does not exist (set ASH_CFN_GUARD_RULES_DIR, or "
                            "install the AWS Guard Rules Registry there)"),
                         where);
      err->kind = ASH_KIND_SCANNER_MISSING;
      return r;
    }
  return 0;
}

/* The rule sets of OPTIONS into SETS (the default when rule_sets is
   unset), after the checks of the options ash_cfn_guard_argv makes: the
   option names, tool_version and install_timeout, rule_sets.  */
static int
rule_sets (const json_t *options, struct ash_strvec *sets,
           struct ash_error *err)
{
  int r = ash_iac_check_options ("cfn-guard", options, cfn_guard_options, err);
  if (r == 0)
    r = ash_adapter_check_install_options ("cfn-guard", options, true, err);
  if (r == 0)
    r = ash_iac_opt_strings ("cfn-guard", options, "rule_sets", valid_set_name,
                             sets, err);
  if (r < 0)
    return r;
  json_t *v = json_object_get (options, "rule_sets");
  if (v == NULL || json_is_null (v))
    ash_strvec_push (sets, CFN_GUARD_DEFAULT_SET);
  return 0;
}

static int
no_rules (struct ash_error *err)
{
  return ash_error_set (err, -EINVAL,
                        _ ("cfn-guard has no rules: rule_sets is empty and "
                           "rules_paths names none"));
}

int
ash_cfn_guard_argv (const char *tool, const json_t *options,
                    const char *bundle, char *const *own_rules,
                    char *const *templates, struct ash_strvec *argv,
                    struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec sets = ASH_STRVEC_INIT;
  int r = rule_sets (options, &sets, err);
  if (r < 0)
    return r;

  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "validate");
  ash_strvec_push (argv, "--output-format");
  ash_strvec_push (argv, "sarif");
  ash_strvec_push (argv, "--show-summary");
  ash_strvec_push (argv, "none");
  ash_strvec_push (argv, "--structured");
  for (size_t i = 0; i < sets.nr; i++)
    {
      _cleanup_free_ char *f = xasprintf ("%s/%s.guard", bundle, sets.v[i]);
      if (access (f, R_OK) != 0)
        return ash_error_set (err, -ENOENT,
                              _ ("scanners.cfn-guard.options.rule_sets: %s is "
                                 "not in the rules bundle (%s)"),
                              sets.v[i], f);
      ash_strvec_push (argv, "--rules");
      ash_strvec_push (argv, f);
    }
  for (size_t i = 0; own_rules && own_rules[i]; i++)
    {
      ash_strvec_push (argv, "--rules");
      ash_strvec_push (argv, own_rules[i]);
    }
  if (sets.nr == 0 && (own_rules == NULL || own_rules[0] == NULL))
    return no_rules (err);
  for (size_t i = 0; templates && templates[i]; i++)
    {
      ash_strvec_push (argv, "--data");
      ash_strvec_push (argv, templates[i]);
    }
  return 0;
}

/* Copy the rules file PATH into the run's directory as N.guard.  */
static int
copy_rules (const struct ash_scan_job *job, const char *path, size_t n,
            struct ash_strvec *ret, struct ash_error *err)
{
  _cleanup_free_ char *name = xasprintf ("rules-%zu.guard", n);
  char *copy = NULL;
  int r
    = ash_iac_copy_to_run (job, path, name, CFN_GUARD_RULES_MAX, &copy, err);
  if (r == 0)
    ash_strvec_push_nodup (ret, copy);
  return r;
}

static int
own_rules (const struct ash_scan_job *job, struct ash_strvec *ret,
           struct ash_error *err)
{
  struct ash_strvec paths = ASH_STRVEC_INIT;
  int r = ash_iac_opt_strings ("cfn-guard", job->options, "rules_paths", NULL,
                               &paths, err);
  for (size_t i = 0; r == 0 && i < paths.nr; i++)
    {
      json_t *o = json_pack ("{s:s}", "rules_paths", paths.v[i]);
      struct ash_scan_job j = *job;
      _cleanup_free_ char *p = paths.v[i][0] == '/'
                                 ? xstrdup (paths.v[i])
                                 : ash_path_join (job->target, paths.v[i]);
      struct stat st;
      if (stat (p, &st) == 0 && S_ISDIR (st.st_mode))
        {
          /* A directory: its .guard and .ruleset files, judged one by
             one.  */
          DIR *d = opendir (p);
          struct dirent *de;
          struct ash_strvec names = ASH_STRVEC_INIT;
          while (d && (de = readdir (d)))
            if (ash_str_has_suffix (de->d_name, ".guard")
                || ash_str_has_suffix (de->d_name, ".ruleset"))
              ash_strvec_pushf (&names, "%s/%s", paths.v[i], de->d_name);
          if (d)
            closedir (d);
          ash_strvec_sort (&names);
          for (size_t k = 0; r == 0 && k < names.nr; k++)
            {
              json_t *o2 = json_pack ("{s:s}", "rules_paths", names.v[k]);
              j.options = o2;
              _cleanup_free_ char *f = NULL;
              r = ash_iac_option_file ("cfn-guard", &j, "rules_paths", &f,
                                       err);
              if (r == 0 && f)
                r = copy_rules (job, f, ret->nr, ret, err);
              json_decref (o2);
            }
          ash_strvec_release (&names);
        }
      else
        {
          j.options = o;
          _cleanup_free_ char *f = NULL;
          r = ash_iac_option_file ("cfn-guard", &j, "rules_paths", &f, err);
          if (r == 0 && f)
            r = copy_rules (job, f, ret->nr, ret, err);
        }
      json_decref (o);
    }
  ash_strvec_release (&paths);
  return r;
}

/* scanners.cfn-guard.options, checked before the scan and by `config
   validate`: every check cfn_guard_build makes of the options alone, in
   its order: the option names, rules_paths (a list of non-empty strings),
   then those of ash_cfn_guard_argv (tool_version, install_timeout,
   rule_sets), and no rules at all when rule_sets is empty and rules_paths
   names nothing.  What depends on this machine or the scanned tree stays
   at scan time: the rules bundle and whether it holds each rule set, and
   the files rules_paths names (they must exist, and the option-file rule
   judges each one; when it refuses them all, cfn-guard has no rules
   then).  */
static int
cfn_guard_check_options (const json_t *options, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec paths = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec sets = ASH_STRVEC_INIT;
  int r = ash_iac_check_options ("cfn-guard", options, cfn_guard_options, err);
  if (r == 0)
    r = ash_iac_opt_strings ("cfn-guard", options, "rules_paths", NULL, &paths,
                             err);
  if (r == 0)
    r = rule_sets (options, &sets, err);
  if (r == 0 && sets.nr == 0 && paths.nr == 0)
    r = no_rules (err);
  return r;
}

static int
cfn_guard_build (const struct ash_scanner *s _unused_,
                 const struct ash_scan_job *job, struct ash_cmd *cmd,
                 struct ash_error *err)
{
  struct ash_strvec rules = ASH_STRVEC_INIT, templates = ASH_STRVEC_INIT;
  _cleanup_free_ char *bundle = bundle_dir (job, NULL);
  int r = ash_iac_check_options ("cfn-guard", job->options, cfn_guard_options,
                                 err);
  if (r == 0 && bundle == NULL)
    r = cfn_guard_prepare (NULL, job, err);
  if (r == 0)
    r = own_rules (job, &rules, err);
  if (r == 0)
    r = ash_iac_cfn_templates (job, &templates, err);
  if (r == 0)
    r = ash_cfn_guard_argv (job->tool_path, job->options, bundle, rules.v,
                            templates.v, &cmd->argv, err);
  if (r == 0 && templates.nr == 0)
    {
      r = ash_iac_mark_no_input (job, err);
      ash_strvec_clear (&cmd->argv);
      ash_strvec_push (&cmd->argv, job->tool_path);
      ash_strvec_push (&cmd->argv, "--version");
    }
  if (r == 0)
    cmd->cwd = xstrdup (job->target);
  ash_strvec_release (&rules);
  ash_strvec_release (&templates);
  return r;
}

static enum ash_severity
cfn_guard_severity (const json_t *result _unused_, const json_t *rule _unused_)
{
  return ASH_SEVERITY_HIGH;
}

static int
cfn_guard_parse (const struct ash_scanner *s _unused_,
                 const struct ash_scan_job *job,
                 const struct ash_cmd_result *res, json_t **ret_doc,
                 struct ash_error *err)
{
  json_t *doc = NULL;
  if (res->status != 0 && res->status != 19)
    return ash_error_set (err, -EIO, _ ("cfn-guard exited with status %d"),
                          res->status);
  if (ash_iac_no_input (job))
    {
      doc = ash_sarif_doc_new ();
      json_array_append_new (json_object_get (doc, "runs"),
                             ash_iac_run_new ("cfn-guard", NULL,
                                              CFN_GUARD_URI));
      *ret_doc = doc;
      return 0;
    }
  int r = ash_iac_read_sarif ("cfn-guard", job, CFN_GUARD_OUT, &doc, err);
  if (r < 0)
    return r;
  ash_iac_sarif_normalise (doc, "cfn-guard", NULL, CFN_GUARD_URI, job->target,
                           cfn_guard_severity);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_cfn_guard = {
  .name = "cfn-guard",
  .tool = "cfn-guard",
  .checks_tool_version = true,
  .install_hint = "cargo install cfn-guard",
  .description = "CloudFormation Guard policy-as-code checks",
  .build = cfn_guard_build,
  .parse = cfn_guard_parse,
  .prepare = cfn_guard_prepare,
  .check_options = cfn_guard_check_options,
};
