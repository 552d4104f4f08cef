/* sandbox-explain.c -- `ash sandbox explain SCANNER`: the policy a scanner
   would run under, as JSON on stdout.  */

#include <config.h>

#include <errno.h>
#include <pwd.h>
#include <stdio.h>

#include "commands.h"
#include "log.h"
#include "policy.h"
#include "sandbox-settings.h"
#include "scanner-reqs.h"
#include "toolfind.h"

extern char **environ;

/* The program each scanner ASH ships runs.  */
static const struct
{
  const char *scanner, *tool;
} tools[] = {
  { "bandit", "bandit" },
  { "checkov", "checkov" },
  { "semgrep", "semgrep" },
  { "opengrep", "opengrep" },
  { "grype", "grype" },
  { "syft", "syft" },
  { "trivy", "trivy" },
  { "trivy-repo", "trivy" },
  { "npm-audit", "npm" },
  { "cfn-nag", "cfn_nag_scan" },
  { "detect-secrets", "detect-secrets" },
  { "cdk-nag", "cdk" },
  { "actionlint", "actionlint" },
  { "cfn-lint", "cfn-lint" },
  { "cfn-guard", "cfn-guard" },
  { "gitleaks", "gitleaks" },
  { "zizmor", "zizmor" },
  { "snyk-code", "snyk" },
  { "ferret-scan", "ferret-scan" },
  { "jupyter", "jupyter-nbconvert" },
};

static const char *
tool_of (const char *scanner)
{
  for (size_t i = 0; i < ARRAY_SIZE (tools); i++)
    if (streq (tools[i].scanner, scanner))
      return tools[i].tool;
  return NULL;
}

int
ash_sandbox_explain_command (const struct ash_options *opts,
                             const struct ash_config *config,
                             const char *scanner,
                             const struct ash_backend *const *backends)
{
  struct ash_requirements req;
  struct ash_sandbox_settings settings;
  struct ash_error err = ASH_ERROR_INIT;
  struct ash_policy policy;
  _cleanup_free_ char *source = NULL, *output = NULL, *results = NULL;
  _cleanup_free_ char *converted = NULL, *tool_path = NULL;
  int r;

  (void) backends;
  if (!scanner || !*scanner)
    {
      ash_err (_("ash sandbox explain needs a scanner name"));
      return 5;
    }

  if (ash_builtin_requirements (scanner, &req) == -ENOENT)
    ash_warning (_("%s is not a scanner ASH ships: showing the strictest "
                   "default policy"),
                 scanner);

  r = ash_sandbox_settings_resolve (opts, config, &settings, &err);
  if (r < 0)
    {
      ash_err ("%s", err.message ? err.message : strerror (-r));
      ash_error_release (&err);
      ash_requirements_release (&req);
      return 3;
    }
  ash_sandbox_settings_log_warnings (&settings);

  source = opts->source_dir ? ash_path_absolute (opts->source_dir)
                            : ash_path_absolute (".");
  if (opts->output_dir)
    output = ash_path_absolute (opts->output_dir);
  else
    {
      _cleanup_free_ char *o = ash_path_join (source, ".ash/ash_output");
      output = ash_path_normalize (o);
    }
  {
    _cleanup_free_ char *sub = xasprintf ("scanners/%s/source", scanner);
    results = ash_path_join (output, sub);
    converted = ash_path_join (output, "converted");
  }

  const char *tool = tool_of (scanner);
  if (tool)
    {
      struct ash_toolfind_opts tf = {
        .path_env = getenv ("PATH"),
        .bin_path = opts->bin_path,
        .source_dir = source,
        .allow_in_tree_tools = opts->allow_in_tree_tools,
      };
      if (ash_toolfind (tool, &tf, &tool_path, &err) < 0)
        {
          ash_warning ("%s", err.message);
          ash_error_release (&err);
        }
    }

  const char *home = getenv ("HOME");
  struct passwd *pw = getpwuid (getuid ());
  struct ash_policy_input in = {
    .scanner = scanner,
    .req = &req,
    .source_dir = source,
    .output_dir = output,
    .results_dir = results,
    .converted_dir = converted,
    .run_config_dir = NULL,
    .tool_path = tool_path,
    .offline = opts->offline,
    .network_scanners = ash_sandbox_settings_network_scanners (&settings),
    .network_restrict = ash_sandbox_settings_network_restrict (&settings),
    .extra_read_paths = settings.extra_read_paths.v,
    .read_path_scanners = settings.read_path_scanners.v,
    .env_scanners = settings.env_scanners.v,
    .option_read_paths = NULL,
    .environ = environ,
    .home = home,
    .passwd_home = pw ? pw->pw_dir : NULL,
    .bin_path = opts->bin_path,
    /* The read-only fallback: what every backend but bwrap with overlays
       enforces.  */
    .cache_overlay = false,
  };

  r = ash_policy_compute (&in, &policy, &err);
  if (r < 0)
    {
      ash_err ("%s", err.message ? err.message : strerror (-r));
      ash_error_release (&err);
      ash_sandbox_settings_release (&settings);
      ash_requirements_release (&req);
      return 1;
    }

  json_t *j = ash_policy_to_json (&policy);
  json_object_set_new (j, "tool", tool_path ? json_string (tool_path)
                                            : json_null ());
  json_object_set_new (j, "mode", json_string (settings.mode ? settings.mode
                                                             : "off"));
  json_object_set_new (j, "requirements", ash_requirements_to_json (&req));
  char *text = json_dumps (j, JSON_INDENT (2));
  json_decref (j);
  if (text)
    {
      fputs (text, stdout);
      fputc ('\n', stdout);
      free (text);
    }
  for (size_t i = 0; i < policy.warnings.nr; i++)
    ash_warning ("%s", policy.warnings.v[i]);
  if (policy.refusal)
    ash_err ("%s", policy.refusal);

  ash_policy_release (&policy);
  ash_sandbox_settings_release (&settings);
  ash_requirements_release (&req);
  return fflush (stdout) == 0 ? 0 : 1;
}
