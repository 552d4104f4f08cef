/* SPDX-License-Identifier: Apache-2.0 */
/* detect-secrets-baseline.h -- the detect-secrets settings ASH reads and
   passes on, after the tier rules.

   detect-secrets verifies candidate secrets with their issuers (over the
   network) when its settings list the verification filter in
   "filters_used".  Only the operator's own configuration may list it:
   ASH removes it from a baseline inside the scanned tree, from settings a
   config file that may not grant wrote, and from every source under
   --offline, with a warning that names the setting.  Under a sandbox ASH
   reads a baseline_file only inside the source tree, or inside one of the
   operator's sandbox.extra_read_paths entries when
   sandbox.read_path_scanners names detect-secrets.  */

#ifndef ASH_DETECT_SECRETS_BASELINE_H
#define ASH_DETECT_SECRETS_BASELINE_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/config-tier.h"
#include "config/sandbox-settings.h"

/* The filter detect-secrets verifies through, as "filters_used" names
   it.  */
#define ASH_DETECT_SECRETS_VERIFY_FILTER                                      \
  "detect_secrets.filters.common.is_ignored_due_to_verification_policies"

/* The scanner's own name.  */
#define ASH_DETECT_SECRETS_NAME "detect-secrets"

/* True when a "filters_used" entry (an object with "path", or a string)
   is a verification filter: the one above, or any filter whose path
   mentions verification.  */
bool ash_detect_secrets_is_verify_filter (const json_t *entry);

/* Remove every verification filter from SETTINGS["filters_used"] (and
   from SETTINGS["settings"]["filters_used"]), in place.  Returns how many
   were removed.  */
int ash_detect_secrets_strip_verification (json_t *settings);

/* Remove every plugin and filter that loads code of its own from
   SETTINGS (and SETTINGS["settings"]), in place: a plugins_used entry
   with a "path", a filters_used entry whose path is not one of
   detect-secrets' own modules (detect_secrets.*).  Appends each removed
   path to REMOVED (may be NULL).  Returns how many were removed.  */
int ash_detect_secrets_strip_custom_code (json_t *settings,
                                          struct ash_strvec *removed);

/* True when SETTINGS lists a verification filter.  */
bool ash_detect_secrets_verifies (const json_t *settings);

/* Whether ASH may read the baseline PATH.  Without a sandbox it always
   may.  Under one, PATH must resolve to a regular file inside the source
   directory, or inside an extra_read_paths entry of S when S's
   read_path_scanners names detect-secrets.  When it may not,
   RET_WARNING says so (newly allocated).  */
bool
ash_detect_secrets_baseline_readable (const char *path, const char *source_dir,
                                      const struct ash_sandbox_settings *s,
                                      char **ret_warning);

/* Read the baseline PATH that the option OPTION_KEY of config C names
   (NULL when the operator named it some other way), applying every rule
   above: whether it may be read at all, and whether its verification
   filter is kept (kept only when the scan is online, the baseline is not
   inside the scanned tree, and the option was set by the operator or the
   baseline may grant).  The custom plugins and filters (code detect-secrets
   would load) are removed on the same condition, offline or not.  When
   the filter is kept but detect-secrets gets no
   network (HAS_NETWORK false), a warning says that verification cannot
   happen.  *RET is NULL (and 0 returned) when the file is skipped.  */
int ash_detect_secrets_baseline_load (
  const char *path, const struct ash_config *c, const char *option_key,
  const struct ash_tier_context *ctx, const struct ash_sandbox_settings *s,
  bool offline, bool has_network, json_t **ret, struct ash_strvec *warnings,
  struct ash_error *err);

/* The detect-secrets options of config C (OPTIONS, a copy the caller
   owns and passes on): remove the verification filter when the scan is
   offline or when the file that set the options may not grant, and the
   custom plugins and filters when that file may not grant.  Adds the
   warning naming the setting.  Returns how many filters were removed.  */
int ash_detect_secrets_options_filter (const struct ash_config *c,
                                       const struct ash_tier_context *ctx,
                                       bool offline, json_t *options,
                                       struct ash_strvec *warnings);

#endif
