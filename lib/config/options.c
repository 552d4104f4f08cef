/* SPDX-License-Identifier: Apache-2.0 */
/* options.c -- the parsed options of `ash scan`.  */

#include <config.h>

#include "config/options.h"

#include <string.h>

void
ash_options_init (struct ash_options *o)
{
  memset (o, 0, sizeof *o);
  ash_strvec_init (&o->config_overrides);
  ash_strvec_init (&o->scanners);
  ash_strvec_init (&o->exclude_scanners);
  ash_strvec_init (&o->plugin_modules);
  ash_strvec_init (&o->output_formats);
  ash_strvec_init (&o->semgrep_rulesets);
  ash_strvec_init (&o->phases);
  o->show_summary = -1;
  o->mode = ASH_RUN_LOCAL;
  o->strategy = ASH_STRATEGY_PARALLEL;
  o->fail_on_findings = -1;
  o->progress = -1;
  o->color = -1;
}

void
ash_options_release (struct ash_options *o)
{
  free (o->source_dir);
  free (o->output_dir);
  free (o->config);
  free (o->env_config);
  ash_strvec_release (&o->config_overrides);
  ash_strvec_release (&o->scanners);
  ash_strvec_release (&o->exclude_scanners);
  ash_strvec_release (&o->plugin_modules);
  ash_strvec_release (&o->output_formats);
  free (o->sandbox);
  free (o->log_level);
  free (o->cli_json_input);
  free (o->bin_path);
  free (o->min_severity);
  free (o->base_ref);
  ash_strvec_release (&o->semgrep_rulesets);
  ash_strvec_release (&o->phases);
  ash_options_init (o);
}
