/* SPDX-License-Identifier: Apache-2.0 */
/* policy-input.c -- what a scanner's policy is computed from.  */

#include <config.h>

#include <string.h>

#include "sandbox/policy-input.h"

extern char **environ;

void
ash_policy_input_fill (struct ash_policy_input *in, const char *scanner,
                       const struct ash_requirements *req,
                       const struct ash_sandbox_settings *ss,
                       const struct ash_host *host,
                       const struct ash_policy_place *place, bool offline,
                       const struct ash_probe *probe)
{
  memset (in, 0, sizeof *in);
  in->scanner = scanner;
  in->req = req;
  in->source_dir = place->source_dir;
  in->output_dir = place->output_dir;
  in->results_dir = place->results_dir;
  in->run_config_dir = place->run_config_dir;
  in->tool_path = place->tool_path;
  in->offline = offline;
  in->network_scanners = ash_sandbox_settings_network_scanners (ss);
  in->network_restrict = ash_sandbox_settings_network_restrict (ss);
  in->extra_read_paths = ss->extra_read_paths.v;
  in->read_path_scanners = ss->read_path_scanners.v;
  in->env_scanners = ss->env_scanners.v;
  in->env_allow = ss->env_allow.v;
  in->environ = environ;
  in->home = host->home;
  in->passwd_home = host->passwd_home;
  in->bin_path = host->bin_path;
  in->cache_overlay = probe ? ash_probe_cache_overlay (probe) : false;
  in->no_mounts = !ash_probe_lists_mounts (probe);
}
