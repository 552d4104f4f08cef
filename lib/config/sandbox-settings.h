/* SPDX-License-Identifier: Apache-2.0 */
/* sandbox-settings.h -- the sandbox settings of a scan, after the tier
   rules: the mode as a floor, grants only from files that may grant.

   Grants (network_scanners, extra_read_paths, read_path_scanners,
   env_scanners, env_allow) come from the merged configuration when every file
   it was built from may grant.  When any file may not, they come from the
   defaults, then ASH_CONFIG's file, then the --config file (each by what its
   own file writes, never by what it inherits through extends), then the
   --config-overrides in order; what the other files set is dropped with the
   spec's warning, once per file.  A network_scanners list in a file that may
   not grant still takes network away (network_restrict).  When --config
   shadowed ASH_CONFIG (so ASH_CONFIG's file is not among the configuration's
   files) and some file may not grant, ASH_CONFIG's file is read here, its own
   values only: it grants when it may, and its mode counts as the operator's; a
   file it names that cannot be loaded fails the resolution.

   The mode is a floor: --sandbox decides, else the last sandbox.mode
   override, else a mode other than off from the operator's files (the
   --config file and ASH_CONFIG's file whatever their tier, and any file
   that may grant), else the mode of the files the repository could have
   written, else the operator's "off", else the defaults.  */

#ifndef ASH_SANDBOX_SETTINGS_H
#define ASH_SANDBOX_SETTINGS_H

#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/config-tier.h"
#include "config/options.h"

struct ash_sandbox_settings
{
  char *mode;                /* "off", "auto", "bwrap", ... */
  char *mode_source;         /* what decided it: "--sandbox",
                                "--config-overrides", a file name,
                                "defaults" */
  bool network_scanners_set; /* from a file that may grant, or an
                                override */
  struct ash_strvec network_scanners;
  bool network_restrict_set; /* an in-tree list that only removes */
  struct ash_strvec network_restrict;
  struct ash_strvec extra_read_paths;
  struct ash_strvec read_path_scanners;
  struct ash_strvec env_scanners;
  struct ash_strvec env_allow; /* variables passed through the
                                  credential screening */
  bool any_untrusted;          /* a file the config was built from may
                                  not grant */
  struct ash_strvec warnings;  /* to log, exactly as the spec words them
                                  (without the "WARNING  " prefix) */
};

void ash_sandbox_settings_init (struct ash_sandbox_settings *s);
void ash_sandbox_settings_release (struct ash_sandbox_settings *s);

/* Decide the sandbox settings from the options (--sandbox,
   --config-overrides, source_dir for the scanned directory's spellings)
   and the resolved configuration.  The tiers of CONFIG's files are judged
   here (CONFIG's may_grant fields are not relied on).  */
int ash_sandbox_settings_resolve (const struct ash_options *opts,
                                  const struct ash_config *config,
                                  struct ash_sandbox_settings *ret,
                                  struct ash_error *err);

/* The same with the scanned directory's spellings given.  */
int ash_sandbox_settings_resolve_ctx (const struct ash_options *opts,
                                      const struct ash_config *config,
                                      const struct ash_tier_context *ctx,
                                      struct ash_sandbox_settings *ret,
                                      struct ash_error *err);

/* True when the mode asks for a sandbox (anything but "off").  */
bool ash_sandbox_settings_on (const struct ash_sandbox_settings *s);

/* For struct ash_policy_input: the vector, or NULL when unset.  */
char *const *
ash_sandbox_settings_network_scanners (const struct ash_sandbox_settings *s);
char *const *
ash_sandbox_settings_network_restrict (const struct ash_sandbox_settings *s);

/* Log every warning at WARNING level ("WARNING  Ignoring ...").  */
void ash_sandbox_settings_log_warnings (const struct ash_sandbox_settings *s);

/* Parse one --config-overrides entry, "a.b=VALUE" or "a.b+=VALUE", VALUE
   being YAML (a flow list, a scalar, a flow mapping), to recompute the
   four grants and the mode without the values of files that may not
   grant.  RET_KEY is newly allocated, RET_VALUE a new reference,
   RET_APPEND true for "+=".  */
int ash_sandbox_settings_override_parse (const char *text, char **ret_key,
                                         json_t **ret_value, bool *ret_append,
                                         struct ash_error *err);

/* Scanners whose config section renames them: a section scanners.X whose
   name: differs from X.  RET_NAMES gets each X (the scanner's own name,
   which grants follow), RET_REASONS the MISSING reason
   "<name>: the config names this scanner '<name>', but its own name is
   '<X>'", in the same order.  Returns how many.  */
int ash_config_renamed_scanners (const struct ash_config *c,
                                 struct ash_strvec *ret_names,
                                 struct ash_strvec *ret_reasons);

#endif
