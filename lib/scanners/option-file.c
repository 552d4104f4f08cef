/* SPDX-License-Identifier: Apache-2.0 */
/* option-file.c -- the option-file rule for adapters: may a scanner be
   given the file one of its options names?  */

#include <config.h>

#include <errno.h>

#include "base/util.h"
#include "config/config-tier.h"
#include "scanners/scanner.h"

int
ash_scan_job_option_file (const struct ash_scan_job *job, const char *option,
                          const char *path, char **ret_reason,
                          struct ash_error *err)
{
  *ret_reason = NULL;
  if (path == NULL || *path == '\0')
    return 1;

  _cleanup_free_ char *key
    = xasprintf ("scanners.%s.options.%s", job->name, option);
  _cleanup_free_ char *abs = path[0] == '/' || job->target == NULL
                               ? ash_path_absolute (path)
                               : ash_path_join (job->target, path);

  struct ash_tier_context ctx = { 0 };
  char *storage[3] = { NULL, NULL, NULL };
  const struct ash_tier_context *tier = job->tier;
  if (tier == NULL)
    {
      if (job->target)
        ash_tier_context_fill (&ctx, job->target, storage);
      tier = &ctx;
    }

  bool trusted = false;
  char *why = NULL;
  int r;
  if (job->config)
    r = ash_config_option_file_trusted (job->config, key, abs, tier, &trusted,
                                        &why, err);
  else
    {
      /* No configuration to say who set the option: judge the file as
         if the repository had.  */
      r = ash_config_tier_judge (abs, tier, &trusted, &why, err);
    }
  for (size_t i = 0; i < ARRAY_SIZE (storage); i++)
    free (storage[i]);
  if (r < 0)
    {
      free (why);
      return r;
    }
  if (trusted)
    {
      free (why);
      return 1;
    }
  *ret_reason = xasprintf (_ ("not passing %s (%s) to the scanner: %s; a "
                              "tool config file named by a config the "
                              "scanned repository could have written must "
                              "lie outside every git checkout and the "
                              "scanned tree; set the option in a config "
                              "outside them, or with --config-overrides"),
                           key, abs,
                           why ? why
                               : _ ("the file that set it may not "
                                    "grant"));
  free (why);
  return 0;
}
