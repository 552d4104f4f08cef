/* SPDX-License-Identifier: Apache-2.0 */
/* plugin-command.c -- `ash plugin list`: the scanners (builtin and those
   of the plugin modules a scan would load), converters and reporters ash
   has, each with whether the configuration enables it and where it comes
   from, as upstream's `ash plugin list` lists its plugins.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/log.h"
#include "base/util.h"
#include "cli/commands.h"
#include "config/reporter-names.h"
#include "sandbox/backend.h"
#include "scan/exit-codes.h"
#include "scan/plugins.h"

static const char *const converter_names[] = { "archive", "jupyter", NULL };

/* One row: NAME, whether KIND.NAME.enabled is true in CONFIG (default
   true), and MODULE (where it comes from).  Names and paths from a module
   file or the configuration are shown with their control characters as
   text.  */
static void
row (const struct ash_config *config, const char *kind, const char *name,
     const char *module)
{
  _cleanup_free_ char *k = xasprintf ("%s.%s.enabled", kind, name);
  _cleanup_free_ char *n = ash_escape_control (name);
  _cleanup_free_ char *m = ash_escape_control (module);
  printf ("  %-24s %-8s %s\n", n,
          ash_config_get_bool (config, k, true) ? "True" : "False", m);
}

static void
heading (const char *title)
{
  printf ("%s\n  %-24s %-8s %s\n", title, "Name", "Enabled", "Module");
}

int
ash_plugin_list_command (const struct ash_options *opts,
                         const struct ash_config *config)
{
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_ (ash_plugin_set_release) struct ash_plugin_set plugins;
  _cleanup_strvec_ struct ash_strvec warnings = ASH_STRVEC_INIT;
  struct ash_host host;

  ash_plugin_set_init (&plugins);
  ash_host_init (&host, opts);
  _cleanup_free_ char *cwd = getcwd (NULL, 0);
  const char *src = opts->source_dir ? opts->source_dir : cwd;
  if (src == NULL)
    {
      return ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                             _ ("cannot find the working directory: %s"),
                             strerror (errno));
    }
  _cleanup_free_ char *source = ash_path_absolute (src);
  /* The plugin modules a scan would load, with the same tier rules.  */
  int r = ash_plugin_load_configured (config, opts, source, host.helper_dir,
                                      &plugins, &warnings, &err);
  for (size_t i = 0; i < warnings.nr; i++)
    ash_warning ("%s", warnings.v[i]);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      return ash_cli_refuse (ASH_EXIT_CONFIG, "%s", m);
    }

  heading (_ ("ASH Scanners"));
  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    row (config, "scanners", ash_builtin_scanners[i]->name, "builtin");
  for (size_t i = 0; i < plugins.n; i++)
    row (config, "scanners", plugins.v[i]->name, plugins.v[i]->module);
  heading (_ ("\nASH Converters"));
  for (size_t i = 0; converter_names[i]; i++)
    row (config, "converters", converter_names[i], "builtin");
  heading (_ ("\nASH Reporters"));
  for (size_t i = 0; ash_reporter_names[i]; i++)
    row (config, "reporters", ash_reporter_names[i], "builtin");
  return fflush (stdout) == 0 ? ASH_EXIT_OK : ASH_EXIT_INCOMPLETE;
}
