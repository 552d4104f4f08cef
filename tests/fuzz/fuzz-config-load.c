/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-config-load.c -- the whole configuration resolution
   (ash_config_load): a file found in the source directory, its extends
   chain, the schema check and --config-overrides.

   The input is split at FUZZ_SEPARATOR lines into the discovered
   .ash/.ashrc.yaml, two files it may extend (base.yaml and base.json next
   to it) and the overrides (one a line).  Properties: a loaded
   configuration has the defaults as FILES[0], a merged object without
   "extends", parents that point to earlier files, origins that name a
   file or an override; re-emitted as YAML it parses back equal; a failed
   load says why.  */

#include <config.h>

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ashconfig.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *p[4];
  size_t len[4];
  size_t n = fuzz_split (data, size, 4, p, len);

  const char *tmp = fuzz_tmpdir ();
  char src[4096];
  snprintf (src, sizeof src, "%s/src", tmp);
  fuzz_empty_dir (tmp);
  static const char *const names[]
    = { "src/.ash/.ashrc.yaml", "src/.ash/base.yaml", "src/.ash/base.json" };
  for (size_t i = 0; i < 3; i++)
    if (i < n && fuzz_write_file (tmp, names[i], p[i], len[i]) < 0)
      abort ();
  if (fuzz_write_file (tmp, "src/.keep", "", 0) < 0)
    abort ();

  /* Overrides: one a line.  */
  char *otext = n > 3 ? fuzz_text (p[3], len[3]) : NULL;
  char **ov = calloc (otext ? len[3] + 2 : 1, sizeof *ov);
  size_t nov = 0;
  if (otext)
    {
      char *save = NULL;
      for (char *l = strtok_r (otext, "\n", &save); l;
           l = strtok_r (NULL, "\n", &save))
        ov[nov++] = l;
    }
  ov[nov] = NULL;

  struct ash_config_request req = { .source_dir = src, .overrides = ov };
  struct ash_config c;
  struct ash_error err = ASH_ERROR_INIT;
  ash_config_init (&c);
  int r = ash_config_load (&req, &c, &err);
  if (r < 0)
    FUZZ_CHECK (err.message != NULL);
  else
    {
      FUZZ_CHECK (c.n_files >= 1);
      FUZZ_CHECK (c.files[0].origin == ASH_CONFIG_DEFAULTS);
      for (size_t i = 1; i < c.n_files; i++)
        FUZZ_CHECK (c.files[i].parent < (int) i);
      FUZZ_CHECK (json_is_object (c.root));
      FUZZ_CHECK (json_object_get (c.root, "extends") == NULL);
      const char *k;
      json_t *o;
      json_object_foreach (c.origins, k, o)
        FUZZ_CHECK ((json_is_integer (o) && json_integer_value (o) >= 0
                     && (size_t) json_integer_value (o) < c.n_files)
                    || json_is_string (o));
      char *yaml = ash_config_to_yaml (c.root);
      json_t *again = NULL;
      struct ash_error e2 = ASH_ERROR_INIT;
      FUZZ_CHECK (
        ash_config_parse_yaml (yaml, strlen (yaml), "again", &again, NULL, &e2)
        == 0);
      FUZZ_CHECK (json_equal (c.root, again));
      json_decref (again);
      free (yaml);
      ash_error_release (&e2);
      fuzz_check_json_roundtrip (c.root);
    }
  ash_config_release (&c);
  ash_error_release (&err);
  free (ov);
  free (otext);
  return 0;
}
