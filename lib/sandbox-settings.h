/* sandbox-settings.h -- the sandbox settings of a scan, after the tier
   rules: the mode as a floor, grants only from files that may grant.  */

#ifndef ASH_SANDBOX_SETTINGS_H
#define ASH_SANDBOX_SETTINGS_H

#include <stdbool.h>

#include "config.h"
#include "error.h"
#include "options.h"
#include "strvec.h"

struct ash_sandbox_settings
{
  char *mode;                      /* "off", "auto", "bwrap", ... */
  bool network_scanners_set;       /* from a file that may grant, or an
                                      override */
  struct ash_strvec network_scanners;
  bool network_restrict_set;       /* an in-tree list that only removes */
  struct ash_strvec network_restrict;
  struct ash_strvec extra_read_paths;
  struct ash_strvec read_path_scanners;
  struct ash_strvec env_scanners;
  struct ash_strvec warnings;      /* to log, exactly as the spec words them */
};

void ash_sandbox_settings_init (struct ash_sandbox_settings *s);
void ash_sandbox_settings_release (struct ash_sandbox_settings *s);

/* Decide the sandbox settings from the options (--sandbox) and the resolved
   configuration.  */
int ash_sandbox_settings_resolve (const struct ash_options *opts,
                                  const struct ash_config *config,
                                  struct ash_sandbox_settings *ret,
                                  struct ash_error *err);

#endif
