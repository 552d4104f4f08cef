/* SPDX-License-Identifier: Apache-2.0 */
/* unused-suppressions.c -- ash.unused-suppressions.json: the entries of
   global_settings.suppressions that suppressed no finding, as upstream's
   unused-suppressions reporter (JSON, or Markdown with
   reporters.unused-suppressions.options.output_format: markdown).  An
   entry is identified as upstream: "PATH|RULE|START|END", "*" for what it
   leaves open; used_suppressions lists those that applied.  */

#include <config.h>

#include "base/buf.h"
#include "base/util.h"
#include "report/reports.h"

char *
ash_report_suppression_id (const json_t *entry)
{
  const char *path = json_string_value (json_object_get (entry, "path"));
  const char *rule = json_string_value (json_object_get (entry, "rule_id"));
  json_t *ls = json_object_get (entry, "line_start");
  json_t *le = json_object_get (entry, "line_end");
  if (!json_is_integer (le))
    le = ls;
  char start[32] = "*", end[32] = "*";
  if (json_is_integer (ls))
    snprintf (start, sizeof start, "%lld",
              (long long) json_integer_value (ls));
  if (json_is_integer (le))
    snprintf (end, sizeof end, "%lld", (long long) json_integer_value (le));
  return xasprintf ("%s|%s|%s|%s", path ? path : "", rule ? rule : "*", start,
                    end);
}

static bool
used (const json_t *ids, const char *id)
{
  size_t i;
  json_t *x;
  json_array_foreach (ids, i, x)
    if (json_is_string (x) && streq (json_string_value (x), id))
      return true;
  return false;
}

static void
md_field (struct ash_buf *b, const char *label, const json_t *v)
{
  ash_buf_addf (b, "- **%s**: ", label);
  if (json_is_string (v))
    ash_report_md_escape (b, json_string_value (v));
  else if (json_is_integer (v))
    ash_buf_addf (b, "%lld", (long long) json_integer_value (v));
  else
    ash_buf_addstr (b, "any");
  ash_buf_addch (b, '\n');
}

static char *
markdown (const json_t *doc)
{
  struct ash_buf b = ASH_BUF_INIT;
  const json_t *sum = json_object_get (doc, "summary");
  ash_buf_addf (&b,
                "# Unused Suppressions Report\n\n## Summary\n\n"
                "- **Total Suppressions**: %lld\n"
                "- **Used Suppressions**: %lld\n"
                "- **Unused Suppressions**: %lld\n\n",
                (long long) json_integer_value (
                  json_object_get (sum, "total_suppressions")),
                (long long) json_integer_value (
                  json_object_get (sum, "used_suppressions")),
                (long long) json_integer_value (
                  json_object_get (sum, "unused_suppressions")));
  size_t i;
  json_t *e;
  json_array_foreach (json_object_get (doc, "unused_suppressions"), i, e)
    {
      ash_buf_addf (&b, "### %zu. ", i + 1);
      ash_report_md_escape (&b,
                            json_string_value (json_object_get (e, "path")));
      ash_buf_addstr (&b, "\n\n");
      md_field (&b, "Rule ID", json_object_get (e, "rule_id"));
      md_field (&b, "Line start", json_object_get (e, "line_start"));
      md_field (&b, "Line end", json_object_get (e, "line_end"));
      md_field (&b, "Reason", json_object_get (e, "reason"));
      md_field (&b, "Expiration", json_object_get (e, "expiration"));
      ash_buf_addch (&b, '\n');
    }
  if (json_array_size (json_object_get (doc, "unused_suppressions")) == 0)
    ash_buf_addstr (&b, "Every configured suppression applied to a "
                        "finding.\n");
  return ash_buf_detach (&b);
}

char *
ash_report_unused_suppressions (const json_t *agg, const json_t *options)
{
  const json_t *all
    = json_object_get (json_object_get (json_object_get (agg, "ash_config"),
                                        "global_settings"),
                       "suppressions");
  const json_t *ids = json_object_get (agg, "used_suppressions");
  json_t *unused = json_array ();
  size_t i, total = 0;
  json_t *e;
  json_array_foreach (all, i, e)
    {
      if (!json_is_object (e))
        continue;
      total++;
      _cleanup_free_ char *id = ash_report_suppression_id (e);
      if (used (ids, id))
        continue;
      json_t *o = json_object ();
      static const char *const keys[] = {
        "path", "rule_id", "line_start", "line_end", "reason", "expiration"
      };
      for (size_t k = 0; k < ARRAY_SIZE (keys); k++)
        {
          json_t *v = json_object_get (e, keys[k]);
          json_object_set (o, keys[k], v ? v : json_null ());
        }
      json_array_append_new (unused, o);
    }
  json_t *doc
    = json_pack ("{s:{s:I, s:I, s:I}, s:o}", "summary", "total_suppressions",
                 (json_int_t) total, "used_suppressions",
                 (json_int_t) json_array_size (ids), "unused_suppressions",
                 (json_int_t) json_array_size (unused), "unused_suppressions",
                 unused);
  if (doc == NULL)
    ash_oom ();
  const char *fmt
    = json_string_value (json_object_get (options, "output_format"));
  if (fmt && streq (fmt, "markdown"))
    {
      char *r = markdown (doc);
      json_decref (doc);
      return r;
    }
  return ash_report_dump_json (doc, true);
}
