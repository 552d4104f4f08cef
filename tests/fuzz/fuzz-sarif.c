/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-sarif.c -- SARIF ingestion: a scanner's SARIF log as ash reads it
   (ash_sarif_parse), normalises it (ash_adapter_sarif_normalize), tags
   it, applies suppressions and merges it into the aggregated log.

   Properties: a log ash_sarif_parse accepts has the shape it promises;
   after normalisation the log validates structurally as a SARIF 2.1.0 log
   that ash writes (every result with a message, a level and
   properties.severity, every ruleId with its rule, no location outside
   the source directory left absolute); the merged log does too.  */

#include <config.h>

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/sarif.h"
#include "scan/suppress.h"
#include "scanners/adapter.h"

static void
check_locations (const json_t *doc, const char *srcdir)
{
  size_t i, j;
  json_t *run, *res;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      {
        int start = 0, end = 0;
        const char *path = ash_sarif_result_location (res, &start, &end);
        if (path)
          {
            FUZZ_CHECK (strncmp (path, "file://", 7) != 0);
            FUZZ_CHECK (strncmp (path, srcdir, strlen (srcdir)) != 0);
          }
        (void) ash_sarif_result_rule (res);
        enum ash_severity s = ash_sarif_result_severity (res);
        FUZZ_CHECK ((int) s >= 0 && (int) s < ASH_SEVERITY_COUNT);
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  json_t *doc = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_sarif_parse ((const char *) data, size, &doc, &err);
  if (r < 0)
    {
      FUZZ_CHECK (doc == NULL);
      FUZZ_CHECK (err.message != NULL);
      ash_error_release (&err);
      return 0;
    }
  FUZZ_CHECK (json_is_object (doc));
  FUZZ_CHECK (json_is_array (json_object_get (doc, "runs")));

  const char *tmp = fuzz_tmpdir ();
  char srcdir[4096];
  snprintf (srcdir, sizeof srcdir, "%s/src", tmp);
  static bool made;
  if (!made)
    {
      if (fuzz_write_file (srcdir, "a.py", "x = 1  # ash-ignore\n", 20) < 0)
        abort ();
      made = true;
    }
  struct ash_sarif_norm norm = {
    .driver_name = "fuzz-scanner",
    .version = NULL,
    .info_uri = "https://example.invalid/",
    .source_dir = srcdir,
    .redact_snippets = (size & 1) != 0,
  };
  r = ash_adapter_sarif_normalize (doc, &norm, &err);
  if (r < 0)
    {
      FUZZ_CHECK (err.message != NULL);
      ash_error_release (&err);
      json_decref (doc);
      return 0;
    }
  fuzz_check_sarif (doc, true);
  check_locations (doc, srcdir);

  ash_sarif_tag (doc, "fuzz-scanner");
  ash_suppress_doc (doc, NULL, srcdir, 1 << 20);
  json_t *merged = ash_sarif_doc_new ();
  ash_sarif_merge (merged, doc);
  ash_sarif_merge (merged, doc);
  fuzz_check_sarif (merged, true);
  FUZZ_CHECK (json_array_size (json_object_get (merged, "runs"))
              == 2 * json_array_size (json_object_get (doc, "runs")));

  json_decref (merged);
  json_decref (doc);
  ash_error_release (&err);
  return 0;
}
