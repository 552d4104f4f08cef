/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-config-json.c -- the JSON configuration loader
   (ash_config_parse_file on a ".json" file, with the YAML pass that
   finds the key positions).

   Properties: an accepted file is an object within the limits of
   ashconfig.h; re-emitted as JSON and as YAML it parses back to an equal
   tree; a rejected one sets no tree.  */

#include <config.h>

#include "fuzz.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ashconfig.h"

static size_t
count (const json_t *v, int depth, int *maxdepth)
{
  size_t n = 1;
  const char *k;
  json_t *c;
  size_t i;
  if (depth > *maxdepth)
    *maxdepth = depth;
  if (json_is_object (v))
    json_object_foreach ((json_t *) v, k, c)
      n += count (c, depth + 1, maxdepth);
  else if (json_is_array (v))
    json_array_foreach (v, i, c)
      n += count (c, depth + 1, maxdepth);
  return n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *dir = fuzz_tmpdir ();
  if (fuzz_write_file (dir, "config.json", data, size) < 0)
    abort ();
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/config.json", dir);

  json_t *tree = NULL, *positions = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_config_parse_file (path, &tree, &positions, &err);
  if (r < 0)
    {
      FUZZ_CHECK (err.message != NULL);
      ash_error_release (&err);
      return 0;
    }
  FUZZ_CHECK (json_is_object (tree));
  FUZZ_CHECK (json_is_object (positions));
  int depth = 0;
  FUZZ_CHECK (count (tree, 0, &depth) <= ASH_CONFIG_MAX_NODES);
  FUZZ_CHECK (depth <= ASH_CONFIG_MAX_DEPTH);

  char *json = ash_config_to_json (tree);
  FUZZ_CHECK (json != NULL);
  json_error_t jerr;
  json_t *again = json_loads (json, JSON_REJECT_DUPLICATES, &jerr);
  FUZZ_CHECK (again != NULL);
  FUZZ_CHECK (json_equal (tree, again));
  json_decref (again);
  free (json);

  char *yaml = ash_config_to_yaml (tree);
  FUZZ_CHECK (yaml != NULL);
  again = NULL;
  r = ash_config_parse_yaml (yaml, strlen (yaml), "re-emitted.yaml", &again,
                             NULL, &err);
  if (r < 0)
    fprintf (stderr, "the re-emitted YAML does not parse: %s\n%s\n",
             err.message, yaml);
  FUZZ_CHECK (r == 0);
  FUZZ_CHECK (json_equal (tree, again));
  json_decref (again);
  free (yaml);

  json_decref (tree);
  json_decref (positions);
  ash_error_release (&err);
  return 0;
}
