/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-config-overrides.c -- --config-overrides entries
   (ash_config_override_value, _parse and _apply).

   The input is one override per line, applied in order to a copy of the
   built-in default configuration.  Properties: the value parser never
   returns NULL; a parsed override has a non-empty dotted path without
   empty components; after a successful apply the value stands at its
   path (for "=") and the origins name the override for every leaf it
   set; the tree stays an object that dumps and loads back equal.  */

#include <config.h>

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "config/ashconfig.h"
#include "config/config-overrides.h"

static json_t *defaults;

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (defaults == NULL)
    {
      struct ash_error err = ASH_ERROR_INIT;
      int r = ash_config_parse_yaml (ash_default_config_yaml,
                                     strlen (ash_default_config_yaml),
                                     "defaults", &defaults, NULL, &err);
      FUZZ_CHECK (r == 0);
    }
  char *text = fuzz_text (data, size);
  json_t *root = json_deep_copy (defaults);
  json_t *origins = json_object ();

  char *save = NULL;
  for (char *line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      json_t *v = ash_config_override_value (line);
      FUZZ_CHECK (v != NULL);
      json_decref (v);

      char *path = NULL;
      bool append = false;
      json_t *value = NULL;
      struct ash_error err = ASH_ERROR_INIT;
      int r = ash_config_override_parse (line, &path, &append, &value, &err);
      if (r < 0)
        {
          FUZZ_CHECK (err.message != NULL);
          ash_error_release (&err);
          continue;
        }
      FUZZ_CHECK (path != NULL && *path != '\0');
      FUZZ_CHECK (path[0] != '.' && path[strlen (path) - 1] != '.');
      FUZZ_CHECK (strstr (path, "..") == NULL);
      FUZZ_CHECK (value != NULL);

      r = ash_config_override_apply (root, line, origins, &err);
      if (r == 0 && !append)
        {
          /* The value stands at its path.  */
          json_t *at = root;
          char *p = strdup (path), *s2 = NULL;
          for (char *c = strtok_r (p, ".", &s2); c && at;
               c = strtok_r (NULL, ".", &s2))
            at = json_is_object (at) ? json_object_get (at, c) : NULL;
          free (p);
          FUZZ_CHECK (at != NULL);
          FUZZ_CHECK (json_equal (at, value));
        }
      else if (r < 0)
        FUZZ_CHECK (err.message != NULL);
      FUZZ_CHECK (json_is_object (root));
      ash_error_release (&err);
      json_decref (value);
      free (path);
    }
  const char *k;
  json_t *o;
  json_object_foreach (origins, k, o)
    FUZZ_CHECK (json_is_string (o) || json_is_integer (o));
  fuzz_check_json_roundtrip (root);
  json_decref (root);
  json_decref (origins);
  free (text);
  return 0;
}
