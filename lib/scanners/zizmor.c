/* SPDX-License-Identifier: Apache-2.0 */
/* zizmor.c -- the zizmor adapter.

   "zizmor --format sarif --no-exit-codes --offline --persona P
   [--config CFG | --no-config] -- INPUT...", run in the source directory
   with the workflows (.github/workflows/NAME.yml or .yaml) and composite
   actions (action.yml, action.yaml) of the scan set relative to it; the
   SARIF on standard output is kept as zizmor.stdout.log.  CFG is
   config_file under the option-file rule; without it zizmor would read
   the repository's zizmor.yml or .github/zizmor.yml itself, so such a
   file is judged by the same rule and, when refused, --no-config keeps
   zizmor from reading it.  zizmor's online audits would need a network
   and a GitHub token, which ash does not give a scanner: zizmor always
   runs with --offline, and online_audits: true is refused.  Exit 0 (and 3,
   "no auditable inputs") is a completed run; findings never change it,
   because of --no-exit-codes.  */

#include <config.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/strvec.h"
#include "base/util.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define ZIZMOR_OUT "zizmor.stdout.log"
#define ZIZMOR_URI "https://docs.zizmor.sh/"

static const char *const zizmor_options[] = {
  "config_file",  "persona",         "online_audits",
  "tool_version", "install_timeout", NULL,
};

static const char *const zizmor_config_names[] = {
  "zizmor.yml",
  ".github/zizmor.yml",
  NULL,
};

int
ash_zizmor_argv (const char *tool, const json_t *options,
                 const char *config_file, bool no_config, char *const *inputs,
                 struct ash_strvec *argv, struct ash_error *err)
{
  const char *persona;
  bool online = false;
  int r = ash_iac_check_options ("zizmor", options, zizmor_options, err);
  if (r == 0)
    r = ash_adapter_check_install_options ("zizmor", options, true, err);
  if (r == 0)
    r = ash_adapter_get_string ("zizmor", options, "persona", false, &persona,
                                err);
  if (r == 0)
    r = ash_adapter_get_bool ("zizmor", options, "online_audits", false,
                              &online, err);
  if (r < 0)
    return r;
  if (online)
    return ash_error_set (err, -ENOTSUP,
                          _ ("scanners.zizmor.options.online_audits is not "
                             "supported: ash gives zizmor neither a network "
                             "nor a GitHub token"));
  if (persona == NULL)
    persona = "regular";
  if (!streq (persona, "regular") && !streq (persona, "pedantic")
      && !streq (persona, "auditor"))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.zizmor.options.persona must be one of "
                             "regular, pedantic, auditor, not '%s'"),
                          persona);
  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "--format");
  ash_strvec_push (argv, "sarif");
  ash_strvec_push (argv, "--no-exit-codes");
  ash_strvec_push (argv, "--offline");
  ash_strvec_pushf (argv, "--persona=%s", persona);
  if (config_file)
    ash_strvec_pushf (argv, "--config=%s", config_file);
  else if (no_config)
    ash_strvec_push (argv, "--no-config");
  ash_strvec_push (argv, "--");
  for (size_t i = 0; inputs && inputs[i]; i++)
    ash_strvec_push (argv, inputs[i]);
  return 0;
}

/* scanners.zizmor.options, checked before the scan and by `config
   validate`: every check zizmor_build makes of the options alone, in its
   order (the option names, config_file's type, then the command line's
   options through ash_zizmor_argv itself, with no input).  The file
   config_file names is judged at scan time: it must exist, and the
   option-file rule weighs it against the scanned tree.  */
static int
zizmor_check_options (const json_t *options, struct ash_error *err)
{
  static const char *const files[] = { "config_file", NULL };
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  int r = ash_iac_check_options_strings ("zizmor", options, zizmor_options,
                                         files, err);
  if (r == 0)
    r = ash_zizmor_argv ("zizmor", options, NULL, false, NULL, &argv, err);
  return r;
}

static int
zizmor_build (const struct ash_scanner *s _unused_,
              const struct ash_scan_job *job, struct ash_cmd *cmd,
              struct ash_error *err)
{
  struct ash_strvec all = ASH_STRVEC_INIT, in = ASH_STRVEC_INIT;
  _cleanup_free_ char *cfg = NULL;
  const char *opt;
  bool no_config = false;
  int r = ash_iac_check_options ("zizmor", job->options, zizmor_options, err);
  if (r == 0)
    r = ash_adapter_get_string ("zizmor", job->options, "config_file", false,
                                &opt, err);
  if (r == 0 && opt)
    {
      r = ash_iac_option_file ("zizmor", job, "config_file", &cfg, err);
      no_config = cfg == NULL;
    }
  else if (r == 0)
    for (size_t i = 0; zizmor_config_names[i]; i++)
      {
        _cleanup_free_ char *p
          = ash_path_join (job->target, zizmor_config_names[i]);
        if (access (p, F_OK) != 0)
          continue;
        json_t *o = json_pack ("{s:s}", "config_file", zizmor_config_names[i]);
        struct ash_scan_job j = *job;
        j.options = o;
        r = ash_iac_option_file ("zizmor", &j, "config_file", &cfg, err);
        json_decref (o);
        no_config = cfg == NULL;
        break;
      }
  if (r == 0)
    r = ash_iac_scan_set (job, &all, err);
  for (size_t i = 0; r == 0 && i < all.nr; i++)
    if (ash_iac_is_workflow (all.v[i]) || ash_iac_is_action (all.v[i]))
      ash_strvec_push (&in, all.v[i]);
  if (r == 0)
    r = ash_zizmor_argv (job->tool_path, job->options, cfg, no_config, in.v,
                         &cmd->argv, err);
  if (r == 0 && in.nr == 0)
    {
      r = ash_iac_mark_no_input (job, err);
      ash_strvec_clear (&cmd->argv);
      ash_strvec_push (&cmd->argv, job->tool_path);
      ash_strvec_push (&cmd->argv, "--version");
    }
  if (r == 0)
    cmd->cwd = xstrdup (job->target);
  ash_strvec_release (&all);
  ash_strvec_release (&in);
  return r;
}

static int
zizmor_parse (const struct ash_scanner *s _unused_,
              const struct ash_scan_job *job, const struct ash_cmd_result *res,
              json_t **ret_doc, struct ash_error *err)
{
  json_t *doc = NULL;
  if (res->status != 0 && res->status != 3)
    return ash_error_set (err, -EIO, _ ("zizmor exited with status %d"),
                          res->status);
  if (ash_iac_no_input (job))
    {
      doc = ash_sarif_doc_new ();
      json_array_append_new (json_object_get (doc, "runs"),
                             ash_iac_run_new ("zizmor", NULL, ZIZMOR_URI));
      *ret_doc = doc;
      return 0;
    }
  int r = ash_iac_read_sarif ("zizmor", job, ZIZMOR_OUT, &doc, err);
  if (r < 0)
    return r;
  ash_iac_sarif_normalise (doc, "zizmor", NULL, ZIZMOR_URI, job->target, NULL);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_zizmor = {
  .name = "zizmor",
  .tool = "zizmor",
  .checks_tool_version = true,
  .install_hint = "uv tool install zizmor",
  .description = "GitHub Actions security analysis",
  .build = zizmor_build,
  .parse = zizmor_parse,
  .check_options = zizmor_check_options,
};
