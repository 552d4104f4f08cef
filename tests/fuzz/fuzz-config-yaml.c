/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-config-yaml.c -- the YAML configuration loader
   (ash_config_parse_yaml: anchors, aliases, merge keys, !ENV).

   Properties: a document the loader accepts is a mapping within the
   limits of ashconfig.h (nodes, depth, bytes); re-emitted as YAML
   (ash_config_to_yaml) it parses back to an equal tree, and so does its
   JSON form (ash_config_to_json) read by jansson; every
   recorded key position is a [line, column] pair inside the input.  Once
   per process: documents just past each limit (an alias bomb, a deep
   nesting, a long string built by aliases) are refused with -E2BIG.  */

#include <config.h>

#include "fuzz.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "config/ashconfig.h"

static void
measure (const json_t *v, int depth, size_t *nodes, size_t *bytes,
         int *maxdepth)
{
  ++*nodes;
  if (depth > *maxdepth)
    *maxdepth = depth;
  const char *k;
  json_t *c;
  size_t i;
  if (json_is_string (v))
    *bytes += json_string_length (v);
  else if (json_is_object (v))
    json_object_foreach ((json_t *) v, k, c)
      {
        *bytes += strlen (k);
        measure (c, depth + 1, nodes, bytes, maxdepth);
      }
  else if (json_is_array (v))
    json_array_foreach (v, i, c)
      measure (c, depth + 1, nodes, bytes, maxdepth);
}

static void
expect_too_big (const char *text)
{
  json_t *tree = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_config_parse_yaml (text, strlen (text), "limit.yaml", &tree,
                                 NULL, &err);
  if (r != -E2BIG)
    fprintf (stderr, "a document past a limit: %d (%s)\n", r,
             err.message ? err.message : "accepted");
  FUZZ_CHECK (r == -E2BIG);
  FUZZ_CHECK (tree == NULL);
  FUZZ_CHECK (err.message != NULL);
  ash_error_release (&err);
}

/* Documents just past each documented limit are refused.  */
static void
check_limits (void)
{
  struct ash_buf b = ASH_BUF_INIT;

  /* Nodes: each level doubles the one below; 2^18 > ASH_CONFIG_MAX_NODES
     leaves (a classic alias bomb, made large enough here).  */
  ash_buf_addstr (&b, "a0: &a0 [x, x]\n");
  int levels = 1;
  while ((1L << levels) <= ASH_CONFIG_MAX_NODES)
    {
      ash_buf_addf (&b, "a%d: &a%d [*a%d, *a%d]\n", levels, levels, levels - 1,
                    levels - 1);
      levels++;
    }
  /* ... and nested much further, so that no expansion can be finished.  */
  for (int i = levels; i < levels + 40; i++)
    ash_buf_addf (&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d]\n", i, i, i - 1,
                  i - 1, i - 1, i - 1);
  expect_too_big (b.buf);
  ash_buf_release (&b);

  /* Depth: one more level than allowed.  */
  b = (struct ash_buf) ASH_BUF_INIT;
  ash_buf_addstr (&b, "k: ");
  for (int i = 0; i <= ASH_CONFIG_MAX_DEPTH + 1; i++)
    ash_buf_addstr (&b, "[");
  for (int i = 0; i <= ASH_CONFIG_MAX_DEPTH + 1; i++)
    ash_buf_addstr (&b, "]");
  ash_buf_addstr (&b, "\n");
  expect_too_big (b.buf);
  ash_buf_release (&b);

  /* Bytes: a 1 MiB string copied by aliases past ASH_CONFIG_MAX_BYTES,
     with few nodes.  */
  b = (struct ash_buf) ASH_BUF_INIT;
  ash_buf_addstr (&b, "s: &s ");
  char *mib = malloc (1024 * 1024 + 1);
  if (mib == NULL)
    abort ();
  memset (mib, 'x', 1024 * 1024);
  mib[1024 * 1024] = '\0';
  ash_buf_addstr (&b, mib);
  free (mib);
  ash_buf_addstr (&b, "\nl: [");
  for (long i = 0; i <= ASH_CONFIG_MAX_BYTES / (1024 * 1024); i++)
    ash_buf_addstr (&b, "*s, ");
  ash_buf_addstr (&b, "*s]\n");
  expect_too_big (b.buf);
  ash_buf_release (&b);
}

static void
reparse_equal (const json_t *tree, const char *text, const char *what)
{
  json_t *again = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r
    = ash_config_parse_yaml (text, strlen (text), what, &again, NULL, &err);
  if (r < 0)
    fprintf (stderr, "%s does not parse back: %s\n--\n%s--\n", what,
             err.message, text);
  FUZZ_CHECK (r == 0);
  if (!json_equal (tree, again))
    {
      char *a = json_dumps (tree, JSON_ENCODE_ANY | JSON_SORT_KEYS);
      char *b = json_dumps (again, JSON_ENCODE_ANY | JSON_SORT_KEYS);
      fprintf (stderr, "%s parses back differently:\n%s\n%s\n--\n%s--\n", what,
               a, b, text);
      free (a);
      free (b);
    }
  FUZZ_CHECK (json_equal (tree, again));
  json_decref (again);
  ash_error_release (&err);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static bool limits_checked;
  if (!limits_checked)
    {
      limits_checked = true;
      check_limits ();
    }

  json_t *tree = NULL, *positions = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_config_parse_yaml ((const char *) data, size, "fuzz.yaml", &tree,
                                 &positions, &err);
  if (r < 0)
    {
      FUZZ_CHECK (tree == NULL);
      FUZZ_CHECK (err.message != NULL);
      ash_error_release (&err);
      return 0;
    }
  FUZZ_CHECK (json_is_object (tree));
  FUZZ_CHECK (json_is_object (positions));

  size_t nodes = 0, bytes = 0;
  int depth = 0;
  measure (tree, 0, &nodes, &bytes, &depth);
  FUZZ_CHECK (nodes <= ASH_CONFIG_MAX_NODES);
  FUZZ_CHECK (bytes <= ASH_CONFIG_MAX_BYTES);
  FUZZ_CHECK (depth <= ASH_CONFIG_MAX_DEPTH);

  const char *k;
  json_t *pos;
  json_object_foreach (positions, k, pos)
    {
      FUZZ_CHECK (json_is_array (pos) && json_array_size (pos) == 2);
      json_int_t line = json_integer_value (json_array_get (pos, 0));
      json_int_t col = json_integer_value (json_array_get (pos, 1));
      FUZZ_CHECK (line >= 1 && (size_t) line <= size + 1);
      FUZZ_CHECK (col >= 1 && (size_t) col <= size + 1);
    }

  char *yaml = ash_config_to_yaml (tree);
  FUZZ_CHECK (yaml != NULL);
  reparse_equal (tree, yaml, "the re-emitted YAML");
  free (yaml);
  /* The JSON form is read back as a .json configuration is, by jansson
     (it may hold characters YAML does not allow unescaped, such as DEL).  */
  char *json = ash_config_to_json (tree);
  FUZZ_CHECK (json != NULL);
  json_t *back = json_loads (json, JSON_REJECT_DUPLICATES, NULL);
  FUZZ_CHECK (back != NULL);
  FUZZ_CHECK (json_equal (tree, back));
  json_decref (back);
  free (json);
  fuzz_check_json_roundtrip (tree);

  json_decref (tree);
  json_decref (positions);
  ash_error_release (&err);
  return 0;
}
