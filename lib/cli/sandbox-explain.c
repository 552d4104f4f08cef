/* SPDX-License-Identifier: Apache-2.0 */
/* sandbox-explain.c -- `ash sandbox explain SCANNER`: the policy a scanner
   would run under, as JSON on stdout.

   It decides the policy the way `ash scan` does (lib/scan/job.c), through
   the same ash_policy_input_fill (): the same sandbox settings, the plugin
   modules the scan would load (ash_plugin_load_configured), the scanner's
   declared requirements, its tool found with the same host facts, and the
   backend --sandbox (or the config's sandbox.mode) selects, whose probe says
   whether caches get a throwaway overlay.  The object printed is the record
   the scan stores under "sandbox" for the scanner in
   ash_aggregated_results.json (the policy with "mode" and "backend"), followed
   by what only explain shows: "backend_reason", "run_config_dir", "tool" and
   "requirements".  */

#include <config.h>

#include <errno.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/log.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "config/sandbox-settings.h"
#include "proc/toolfind.h"
#include "sandbox/backend.h"
#include "sandbox/policy-input.h"
#include "sandbox/policy.h"
#include "sandbox/scanner-reqs.h"
#include "scan/plugins.h"
#include "scanners/scanner.h"

/* The jupyter converter is sandboxed like a scanner and has its own
   requirements, though it is not in the scanner registry.  */
#define CONVERTER_NAME "jupyter"
#define CONVERTER_TOOL "jupyter-nbconvert"

static const struct ash_scanner *
find_scanner (const char *name, const struct ash_plugin_set *plugins)
{
  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    if (streq (ash_builtin_scanners[i]->name, name))
      return ash_builtin_scanners[i];
  for (size_t i = 0; i < plugins->n; i++)
    if (streq (plugins->v[i]->scanner.name, name))
      return &plugins->v[i]->scanner;
  return NULL;
}

/* "a, b, c": every name explain accepts.  */
static char *
known_names (const struct ash_plugin_set *plugins)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    ash_buf_addf (&b, "%s%s", b.len ? ", " : "",
                  ash_builtin_scanners[i]->name);
  for (size_t i = 0; i < plugins->n; i++)
    ash_buf_addf (&b, ", %s", plugins->v[i]->scanner.name);
  ash_buf_addf (&b, ", %s", CONVERTER_NAME);
  return ash_buf_detach (&b);
}

int
ash_sandbox_explain_command (const struct ash_options *opts,
                             const struct ash_config *config,
                             const char *scanner,
                             const struct ash_backend *const *backends)
{
  _cleanup_ (ash_requirements_release) struct ash_requirements req;
  _cleanup_ (
    ash_sandbox_settings_release) struct ash_sandbox_settings settings;
  _cleanup_ (ash_plugin_set_release) struct ash_plugin_set plugins;
  struct ash_host host;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_policy_ struct ash_policy policy;
  _cleanup_strvec_ struct ash_strvec warnings = ASH_STRVEC_INIT;
  const struct ash_scanner *s = NULL;
  const struct ash_backend *backend = NULL;
  const struct ash_probe *probe = NULL;
  _cleanup_free_ char *source = NULL, *output = NULL, *results = NULL;
  _cleanup_free_ char *tool_path = NULL;
  _cleanup_error_ struct ash_error why = ASH_ERROR_INIT;
  const char *tool, *mode;
  int r;

  ash_requirements_init (&req);
  ash_sandbox_settings_init (&settings);
  ash_plugin_set_init (&plugins);
  ash_policy_init (&policy);

  if (!scanner || !*scanner)
    {
      ash_err (_ ("ash sandbox explain needs a scanner name"));
      return ASH_EXIT_USAGE;
    }

  r = ash_sandbox_settings_resolve (opts, config, &settings, &err);
  if (r < 0)
    {
      ash_err ("%s", err.message ? err.message : strerror (-r));
      return ASH_EXIT_CONFIG;
    }
  ash_sandbox_settings_log_warnings (&settings);
  mode = settings.mode ? settings.mode : "off";

  ash_host_init (&host, opts);
  if (opts->allow_in_tree_tools)
    host.allow_in_tree_tools = true;
  {
    _cleanup_free_ char *cwd = getcwd (NULL, 0);
    const char *src = opts->source_dir ? opts->source_dir : cwd;
    if (src == NULL)
      {
        ash_err (_ ("cannot find the working directory: %s"),
                 strerror (errno));
        return ASH_EXIT_INCOMPLETE;
      }
    source = ash_path_absolute (src);
  }
  if (opts->output_dir)
    output = ash_path_absolute (opts->output_dir);
  else
    {
      _cleanup_free_ char *o = ash_path_join (source, ".ash/ash_output");
      output = ash_path_normalize (o);
    }
  results = xasprintf ("%s/scanners/%s/source", output, scanner);

  /* The plugin modules the scan would load, so that a plugin scanner's
     declared requirements are the ones shown.  */
  r = ash_plugin_load_configured (config, opts, source, host.helper_dir,
                                  &plugins, &warnings, &err);
  for (size_t i = 0; i < warnings.nr; i++)
    ash_warning ("%s", warnings.v[i]);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      return ASH_EXIT_CONFIG;
    }

  s = find_scanner (scanner, &plugins);
  if (s)
    {
      tool = s->tool;
      ash_scanner_requirements (s, &req);
    }
  else if (streq (scanner, CONVERTER_NAME))
    {
      tool = CONVERTER_TOOL;
      ash_builtin_requirements (scanner, &req);
      /* nbconvert writes only below the converter's own directory (each
         spawn in a directory of its own there).  */
      free (results);
      results = xasprintf ("%s/converted/%s", output, scanner);
    }
  else
    {
      _cleanup_free_ char *names = known_names (&plugins);
      ash_err (_ ("unknown scanner '%s': it is neither a builtin scanner nor "
                  "one a loaded plugin module defines (known: %s)"),
               scanner, names);
      return ASH_EXIT_INCOMPLETE;
    }

  {
    struct ash_toolfind_opts tf = {
      .path_env = host.path_env,
      .bin_path = host.bin_path,
      .source_dir = source,
      .allow_in_tree_tools = host.allow_in_tree_tools,
    };
    if (ash_toolfind (tool, &tf, &tool_path, &err) < 0)
      {
        ash_warning ("%s", err.message);
        ash_error_release (&err);
      }
  }

  /* The backend that would enforce the policy, probed as the scan probes
     it.  */
  if (!streq (mode, "off"))
    {
      backend = ash_backend_select (mode, backends, &host, &probe, &why);
      if (backend == NULL)
        ash_warning (_ ("scanner sandbox unavailable: %s"),
                     why.message ? why.message : _ ("no backend"));
    }

  /* The scan makes a new run directory per run, with a random name:
     explain describes it under "run_config_dir" instead of inventing a
     path.  */
  struct ash_policy_place place = {
    .source_dir = source,
    .output_dir = output,
    .results_dir = results,
    .run_config_dir = NULL,
    .tool_path = tool_path,
  };
  struct ash_policy_input in;
  ash_policy_input_fill (&in, scanner, &req, &settings, &host, &place,
                         opts->offline, probe);

  r = ash_policy_compute (&in, &policy, &err);
  if (r < 0)
    {
      ash_err ("%s", err.message ? err.message : strerror (-r));
      return ASH_EXIT_INCOMPLETE;
    }

  json_t *j = ash_policy_to_json (&policy);
  if (j == NULL)
    j = json_object ();
  json_object_set_new (j, "mode", json_string (mode));
  json_object_set_new (j, "backend",
                       backend ? json_string (backend->name) : json_null ());
  if (backend)
    json_object_set_new (j, "backend_reason", json_null ());
  else if (streq (mode, "off"))
    json_object_set_new (j, "backend_reason",
                         json_string (_ ("the sandbox is off: the scanner "
                                         "would run unsandboxed, with this "
                                         "policy unenforced")));
  else
    {
      _cleanup_free_ char *m
        = xasprintf (_ ("scanner sandbox unavailable: "
                        "%s"),
                     why.message ? why.message : _ ("no backend"));
      json_object_set_new (j, "backend_reason", json_string (m));
    }
  {
    _cleanup_free_ char *d = xasprintf (
      _ ("made per run: a new directory ash-%s-XXXXXX (mode 0700) in "
         "$TMPDIR or /tmp, readable and not writable by the scanner, "
         "removed when the run ends"),
      scanner);
    json_object_set_new (j, "run_config_dir", json_string (d));
  }
  json_object_set_new (j, "tool",
                       tool_path ? json_string (tool_path) : json_null ());
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
  /* The refusal already reads "NAME cannot be sandboxed as requested:
     ...".  */
  if (policy.refusal.message)
    ash_err ("%s", policy.refusal.message);
  if (fflush (stdout) != 0)
    return ASH_EXIT_INCOMPLETE;
  return ASH_EXIT_OK;
}
