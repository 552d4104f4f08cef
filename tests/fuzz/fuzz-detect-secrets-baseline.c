/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-detect-secrets-baseline.c -- a detect-secrets baseline inside the
   scanned tree (ash_detect_secrets_baseline_load).

   The input is the baseline src/.secrets.baseline; the scan is online
   with a network, the most permissive case.  Properties: a baseline
   inside the scanned tree never comes back listing a verification filter
   (detect-secrets would send candidate secrets to their issuers), however
   its filters are spelled; a refused one says why; what is loaded dumps
   and loads back equal.  */

#include <config.h>

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/strvec.h"
#include "config/config-tier.h"
#include "config/sandbox-settings.h"
#include "scanners/detect-secrets-baseline.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *tmp = fuzz_tmpdir ();
  char src[4096], path[4200];
  snprintf (src, sizeof src, "%s/src", tmp);
  snprintf (path, sizeof path, "%s/.secrets.baseline", src);
  if (fuzz_write_file (src, ".secrets.baseline", data, size) < 0)
    abort ();

  struct ash_tier_context ctx;
  char *storage[3] = { NULL, NULL, NULL };
  ash_tier_context_fill (&ctx, src, storage);
  struct ash_sandbox_settings ss;
  ash_sandbox_settings_init (&ss);
  json_t *baseline = NULL;
  struct ash_strvec warnings = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_detect_secrets_baseline_load (path, NULL, "baseline_file", &ctx,
                                            &ss, false, true, &baseline,
                                            &warnings, &err);
  if (r < 0)
    {
      FUZZ_CHECK (err.message != NULL);
      FUZZ_CHECK (baseline == NULL);
    }
  else if (baseline)
    {
      FUZZ_CHECK (!ash_detect_secrets_verifies (baseline));
      /* Nor a plugin or filter that loads code of its own.  */
      json_t *copy = json_deep_copy (baseline);
      FUZZ_CHECK (ash_detect_secrets_strip_custom_code (copy, NULL) == 0);
      json_decref (copy);
      fuzz_check_json_roundtrip (baseline);
    }
  json_decref (baseline);
  ash_sandbox_settings_release (&ss);
  ash_strvec_release (&warnings);
  ash_error_release (&err);
  for (int i = 0; i < 3; i++)
    free (storage[i]);
  return 0;
}
