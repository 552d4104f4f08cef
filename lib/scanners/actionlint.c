/* SPDX-License-Identifier: Apache-2.0 */
/* actionlint.c -- the actionlint adapter.

   "actionlint -no-color -shellcheck=PROG -pyflakes=PROG -config-file CFG
   -format TEMPLATE -- WORKFLOW...", run in the source directory with the
   workflows of the scan set (.github/workflows/NAME.yml or .yaml at any
   depth) relative to it.  actionlint has no SARIF writer: the -format
   template makes it print {"version":..., "errors": [...]} on standard
   output (kept as actionlint.stdout.log), encoded by actionlint's own json
   function, and ASH maps that.

   shellcheck and pyflakes are off (an empty program name) unless the
   options name them: from a config the scanned repository may have
   written only the program's own name is accepted, looked up on PATH;
   the operator may name an absolute path.  A program inside the scanned
   tree is refused either way.  CFG is config_file under the option-file
   rule, else .github/actionlint.yaml or .yml of the source directory under
   the same rule, else an empty config ASH writes.  Exit 0 is clean, 1
   found problems; anything else, or 1 with nothing reported, is an
   error.  Severities follow upstream ASH's table by kind.  */

#include <config.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "config/config-tier.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define ACTIONLINT_OUT "actionlint.stdout.log"
#define ACTIONLINT_RC "ash-empty-actionlint.yaml"
#define ACTIONLINT_URI "https://github.com/rhysd/actionlint"
#define ACTIONLINT_FORMAT                                                     \
  "{\"version\":{{getVersion | json}},\"errors\":{{json .}}}"

static const char *const actionlint_options[] = {
  "config_file",  "shellcheck",      "pyflakes",
  "tool_version", "install_timeout", NULL,
};

static const char *const actionlint_config_names[] = {
  ".github/actionlint.yaml",
  ".github/actionlint.yml",
  NULL,
};

/* Look NAME up on PATH (absolute entries only); newly allocated.  */
static char *
which (const char *name)
{
  const char *path = getenv ("PATH");
  while (path && *path)
    {
      const char *c = strchr (path, ':');
      size_t n = c ? (size_t) (c - path) : strlen (path);
      if (n > 0 && path[0] == '/')
        {
          _cleanup_free_ char *dir = xstrndup (path, n);
          char *p = ash_path_join (dir, name);
          if (access (p, X_OK) == 0)
            return p;
          free (p);
        }
      path += n + (c ? 1 : 0);
    }
  return NULL;
}

/* The program for the shellcheck or pyflakes option KEY: "" when unset.  */
static int
integration (const struct ash_scan_job *job, const char *key, char **ret,
             struct ash_error *err)
{
  const char *v;
  int r
    = ash_adapter_get_string ("actionlint", job->options, key, false, &v, err);
  *ret = NULL;
  if (r < 0)
    return r;
  if (v == NULL)
    {
      *ret = xstrdup ("");
      return 0;
    }
  _cleanup_free_ char *dotted
    = xasprintf ("scanners.actionlint.options.%s", key);
  bool operator= true;
  if (job->config)
    {
      bool over = false;
      int idx = ash_config_origin_index (job->config, dotted, &over);
      if (!over && idx >= 0)
        {
          struct ash_tier_context ctx = { 0 };
          char *storage[3] = { NULL, NULL, NULL };
          _cleanup_free_ char *why = NULL;
          ash_tier_context_fill (&ctx, job->target, storage);
          ash_config_tier_judge_file (job->config, (size_t) idx, &ctx,
                                      &operator, & why);
          for (size_t i = 0; i < 3; i++)
            free (storage[i]);
        }
    }
  _cleanup_free_ char *prog = NULL;
  if (streq (v, key))
    prog = which (key);
  else if (!operator)
    return ash_error_set (err, -EPERM,
                          _ ("%s may only name %s when the scanned "
                             "repository's configuration sets it, not '%s'"),
                          dotted, key, v);
  else if (v[0] == '/')
    prog = xstrdup (v);
  else
    prog = which (v);
  if (prog == NULL || access (prog, X_OK) != 0)
    return ash_error_set (err, -ENOENT,
                          _ ("%s names %s, which is not an executable "
                             "program"),
                          dotted, v);
  _cleanup_free_ char *real = realpath (prog, NULL);
  _cleanup_free_ char *rtarget = realpath (job->target, NULL);
  if (ash_path_is_inside (prog, job->target)
      || (real && rtarget && ash_path_is_inside (real, rtarget)))
    return ash_error_set (err, -EPERM,
                          _ ("%s names %s, which is inside the scanned "
                             "tree"),
                          dotted, prog);
  *ret = TAKE_PTR (prog);
  return 0;
}

int
ash_actionlint_argv (const char *tool, const json_t *options,
                     const char *config_file, const char *shellcheck,
                     const char *pyflakes, char *const *workflows,
                     struct ash_strvec *argv, struct ash_error *err)
{
  int r
    = ash_iac_check_options ("actionlint", options, actionlint_options, err);
  if (r == 0)
    r = ash_adapter_check_install_options ("actionlint", options, true, err);
  if (r < 0)
    return r;
  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "-no-color");
  ash_strvec_pushf (argv, "-shellcheck=%s", shellcheck ? shellcheck : "");
  ash_strvec_pushf (argv, "-pyflakes=%s", pyflakes ? pyflakes : "");
  ash_strvec_push (argv, "-config-file");
  ash_strvec_push (argv, config_file);
  ash_strvec_push (argv, "-format");
  ash_strvec_push (argv, ACTIONLINT_FORMAT);
  ash_strvec_push (argv, "--");
  for (size_t i = 0; workflows && workflows[i]; i++)
    ash_strvec_push (argv, workflows[i]);
  return 0;
}

/* scanners.actionlint.options, checked before the scan and by `config
   validate`: every check actionlint_build makes of the options alone, in
   its order (the option names, the types of shellcheck, pyflakes and
   config_file, then the command line's options through
   ash_actionlint_argv itself, with placeholder paths).  What depends on
   where a value came from, on this machine or on the scanned tree stays
   at scan time: that a configuration the scanned repository may have
   written names only the program itself, that the program is an
   executable outside the tree, and the file config_file names (it must
   exist, and the option-file rule judges it).  */
static int
actionlint_check_options (const json_t *options, struct ash_error *err)
{
  static const char *const strings[]
    = { "shellcheck", "pyflakes", "config_file", NULL };
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  int r = ash_iac_check_options_strings ("actionlint", options,
                                         actionlint_options, strings, err);
  if (r == 0)
    r = ash_actionlint_argv ("actionlint", options, "/dev/null", NULL, NULL,
                             NULL, &argv, err);
  return r;
}

static int
actionlint_config (const struct ash_scan_job *job, char **ret,
                   struct ash_error *err)
{
  const char *opt;
  int r = ash_adapter_get_string ("actionlint", job->options, "config_file",
                                  false, &opt, err);
  *ret = NULL;
  if (r < 0)
    return r;
  if (opt)
    r = ash_iac_option_file ("actionlint", job, "config_file", ret, err);
  else
    for (size_t i = 0; actionlint_config_names[i]; i++)
      {
        _cleanup_free_ char *p
          = ash_path_join (job->target, actionlint_config_names[i]);
        if (access (p, F_OK) != 0)
          continue;
        json_t *o
          = json_pack ("{s:s}", "config_file", actionlint_config_names[i]);
        struct ash_scan_job j = *job;
        j.options = o;
        r = ash_iac_option_file ("actionlint", &j, "config_file", ret, err);
        json_decref (o);
        break;
      }
  if (r == 0 && *ret == NULL)
    r = ash_adapter_write_run_data (job, ACTIONLINT_RC, "{}\n", 3, true, ret,
                                    err);
  return r;
}

static int
actionlint_build (const struct ash_scanner *s _unused_,
                  const struct ash_scan_job *job, struct ash_cmd *cmd,
                  struct ash_error *err)
{
  struct ash_strvec all = ASH_STRVEC_INIT, wf = ASH_STRVEC_INIT;
  _cleanup_free_ char *cfg = NULL, *sc = NULL, *pf = NULL;
  int r = ash_iac_check_options ("actionlint", job->options,
                                 actionlint_options, err);
  if (r == 0)
    r = integration (job, "shellcheck", &sc, err);
  if (r == 0)
    r = integration (job, "pyflakes", &pf, err);
  if (r == 0)
    r = actionlint_config (job, &cfg, err);
  if (r == 0)
    r = ash_iac_scan_set (job, &all, err);
  for (size_t i = 0; r == 0 && i < all.nr; i++)
    if (ash_iac_is_workflow (all.v[i]))
      ash_strvec_push (&wf, all.v[i]);
  if (r == 0)
    r = ash_actionlint_argv (job->tool_path, job->options, cfg, sc, pf, wf.v,
                             &cmd->argv, err);
  if (r == 0 && wf.nr == 0)
    {
      r = ash_iac_mark_no_input (job, err);
      ash_strvec_clear (&cmd->argv);
      ash_strvec_push (&cmd->argv, job->tool_path);
      ash_strvec_push (&cmd->argv, "-version");
    }
  if (r == 0)
    cmd->cwd = xstrdup (job->target);
  ash_strvec_release (&all);
  ash_strvec_release (&wf);
  return r;
}

static enum ash_severity
actionlint_severity (const char *kind, const char *message)
{
  if (streq (kind, "expression") && message
      && strstr (message, "potentially untrusted"))
    return ASH_SEVERITY_HIGH;
  if (streq (kind, "credentials"))
    return ASH_SEVERITY_HIGH;
  if (streq (kind, "deprecated-commands") && message
      && (strstr (message, "\"set-env\"") || strstr (message, "\"add-path\"")))
    return ASH_SEVERITY_MEDIUM;
  if (streq (kind, "if-cond") || streq (kind, "permissions"))
    return ASH_SEVERITY_MEDIUM;
  return ASH_SEVERITY_LOW;
}

int
ash_actionlint_json_to_sarif (const json_t *payload, int status,
                              const char *source_dir, json_t **ret_doc,
                              struct ash_error *err)
{
  json_t *errors = json_object_get (payload, "errors");
  size_t i;
  json_t *e;

  if (!json_is_object (payload)
      || !(json_is_array (errors) || json_is_null (errors)))
    return ash_error_set (err, -EINVAL,
                          _ ("%s is not actionlint's report (an object with "
                             "an \"errors\" list)"),
                          ACTIONLINT_OUT);
  if (status == 1 && json_array_size (errors) == 0)
    return ash_error_set (err, -EINVAL,
                          _ ("actionlint exited 1, which means it found "
                             "problems, but %s reports none"),
                          ACTIONLINT_OUT);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_iac_run_new ("actionlint",
                                 json_string_value (
                                   json_object_get (payload, "version")),
                                 ACTIONLINT_URI);
  json_array_foreach (errors, i, e)
    {
      const char *kind = json_string_value (json_object_get (e, "kind"));
      const char *msg = json_string_value (json_object_get (e, "message"));
      const char *file = json_string_value (json_object_get (e, "filepath"));
      json_int_t line = json_integer_value (json_object_get (e, "line"));
      if (kind == NULL || msg == NULL || file == NULL || line < 1)
        {
          json_decref (run);
          json_decref (doc);
          return ash_error_set (err, -EINVAL,
                                _ ("%s: error %zu lacks kind, message, "
                                   "filepath or line"),
                                ACTIONLINT_OUT, i);
        }
      ash_iac_run_rule (run, kind, kind, kind,
                        "https://github.com/rhysd/actionlint/blob/main/docs/"
                        "checks.md");
      ash_iac_run_result (run, kind, msg, file, source_dir, (long) line,
                          (long) line, actionlint_severity (kind, msg));
    }
  json_array_append_new (json_object_get (doc, "runs"), run);
  *ret_doc = doc;
  return 0;
}

static int
actionlint_parse (const struct ash_scanner *s _unused_,
                  const struct ash_scan_job *job,
                  const struct ash_cmd_result *res, json_t **ret_doc,
                  struct ash_error *err)
{
  json_t *payload = NULL, *doc = NULL;
  int r;

  if (res->status != 0 && res->status != 1)
    return ash_error_set (err, -EIO, _ ("actionlint exited with status %d"),
                          res->status);
  if (ash_iac_no_input (job))
    {
      doc = ash_sarif_doc_new ();
      json_array_append_new (json_object_get (doc, "runs"),
                             ash_iac_run_new ("actionlint", NULL,
                                              ACTIONLINT_URI));
      *ret_doc = doc;
      return 0;
    }
  r = ash_iac_read_json ("actionlint", job, ACTIONLINT_OUT, &payload, err);
  if (r < 0)
    return r;
  r = ash_actionlint_json_to_sarif (payload, res->status, job->target, &doc,
                                    err);
  json_decref (payload);
  if (r < 0)
    return r;
  ash_iac_sarif_normalise (doc, "actionlint", NULL, ACTIONLINT_URI,
                           job->target, NULL);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_actionlint = {
  .name = "actionlint",
  .tool = "actionlint",
  .checks_tool_version = true,
  .version_arg = "-version",
  .install_hint
  = "go install github.com/rhysd/actionlint/cmd/actionlint@latest",
  .description = "GitHub Actions workflow linter",
  .build = actionlint_build,
  .parse = actionlint_parse,
  .check_options = actionlint_check_options,
};
