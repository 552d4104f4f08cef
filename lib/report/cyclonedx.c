/* SPDX-License-Identifier: Apache-2.0 */
/* cyclonedx.c -- ash.cdx.json: a CycloneDX 1.6 document holding syft's
   SBOM (its components and dependencies, when syft ran) and every finding
   as a vulnerability, as upstream's cyclonedx reporter writes.

   syft's SBOM is scanner output: its bom-refs are renamed into their own
   namespace (SBOM_REF_PREFIX, which ash's "ash-finding-N" refs never
   start with), the dependency graph renamed with them, so that no ref of
   the SBOM can name one of ash's vulnerabilities or clash with it.  */

#include <config.h>

#include "base/util.h"
#include "report/json-out.h"
#include "report/reports.h"
#include "scan/sarif.h"

#define SBOM_REF_PREFIX "sbom:"

/* A copy of the string REF in the SBOM's namespace, or a new reference to
   REF itself when it is not a string (the schema judges that).  */
static json_t *
sbom_ref (json_t *ref)
{
  if (!json_is_string (ref))
    return json_incref (ref);
  /* The whole string, a NUL in it included.  */
  size_t plen = strlen (SBOM_REF_PREFIX), len = json_string_length (ref);
  _cleanup_free_ char *s = xmalloc (plen + len + 1);
  memcpy (s, SBOM_REF_PREFIX, plen);
  memcpy (s + plen, json_string_value (ref), len + 1);
  json_t *v = json_stringn (s, plen + len);
  if (v == NULL)
    ash_oom ();
  return v;
}

/* Every "bom-ref" of the component C and of the components nested in it,
   in place.  */
static void
rename_component_refs (json_t *c)
{
  if (!json_is_object (c))
    return;
  json_t *ref = json_object_get (c, "bom-ref");
  if (ref)
    json_object_set_new (c, "bom-ref", sbom_ref (ref));
  size_t i;
  json_t *sub;
  json_array_foreach (json_object_get (c, "components"), i, sub)
    rename_component_refs (sub);
}

/* The refs of a dependency graph, in place.  */
static void
rename_dependency_refs (json_t *deps)
{
  static const char *const lists[] = { "dependsOn", "provides" };
  size_t i, j;
  json_t *d, *r;
  json_array_foreach (deps, i, d)
    {
      if (!json_is_object (d))
        continue;
      json_t *ref = json_object_get (d, "ref");
      if (ref)
        json_object_set_new (d, "ref", sbom_ref (ref));
      for (size_t k = 0; k < ARRAY_SIZE (lists); k++)
        json_array_foreach (json_object_get (d, lists[k]), j, r)
          json_array_set_new (json_object_get (d, lists[k]), j, sbom_ref (r));
    }
}

/* One finding RES (what the reports read of it: FI), the Nth, as a
   CycloneDX vulnerability at DEPTH of O,
   written member by member (the text json_dumps gives the same
   object).  */
static void
vulnerability_write (const struct ash_report_finding *fi, size_t n,
                     struct ash_out *o, int depth)
{
  int start = fi->start, end = fi->end;
  const char *path = fi->path;
  const char *rule = fi->rule;
  const char *scanner = fi->scanner;
  char ref[64];
  snprintf (ref, sizeof ref, "ash-finding-%zu", n);
  struct ash_out_obj v, src, rating, prop, a;

  ash_out_obj_begin (&v, o, depth);
  ash_out_obj_str (&v, "bom-ref", ref);
  ash_out_obj_str (&v, "id", rule ? rule : "unknown");
  ash_out_obj_key (&v, "source");
  ash_out_obj_begin (&src, o, depth + 1);
  ash_out_obj_str (&src, "name", *scanner ? scanner : "ash");
  ash_out_obj_end (&src);
  ash_out_obj_key (&v, "ratings");
  ash_out_add (o, "[", 1);
  ash_out_item_start (o, depth + 2, true);
  ash_out_obj_begin (&rating, o, depth + 2);
  ash_out_obj_str (&rating, "severity",
                   ash_severity_name ((enum ash_severity) fi->severity));
  ash_out_obj_str (&rating, "method", "other");
  ash_out_obj_end (&rating);
  ash_out_indent (o, depth + 1);
  ash_out_add (o, "]", 1);
  ash_out_obj_str (&v, "description", fi->message);
  ash_out_obj_key (&v, "properties");
  ash_out_add (o, "[", 1);
  if (path)
    {
      ash_out_item_start (o, depth + 2, true);
      ash_out_obj_begin (&prop, o, depth + 2);
      ash_out_obj_str (&prop, "name", "ash:file_path");
      ash_out_obj_str (&prop, "value", path);
      ash_out_obj_end (&prop);
    }
  if (start > 0)
    {
      char lines[64];
      snprintf (lines, sizeof lines, "%d-%d", start, end);
      ash_out_item_start (o, depth + 2, path == NULL);
      ash_out_obj_begin (&prop, o, depth + 2);
      ash_out_obj_str (&prop, "name", "ash:lines");
      ash_out_obj_str (&prop, "value", lines);
      ash_out_obj_end (&prop);
    }
  /* "[" then "]" is the empty array's "[]", as ash_out_json writes it.  */
  if (path || start > 0)
    ash_out_indent (o, depth + 1);
  ash_out_add (o, "]", 1);
  if (fi->suppressed)
    {
      const char *why = fi->suppression_reason;
      ash_out_obj_key (&v, "analysis");
      ash_out_obj_begin (&a, o, depth + 1);
      ash_out_obj_str (&a, "state", "not_affected");
      ash_out_obj_str (&a, "justification", "protected_by_mitigating_control");
      if (why)
        ash_out_obj_str (&a, "detail", why);
      ash_out_obj_end (&a);
    }
  ash_out_obj_end (&v);
}

struct cdx_walk
{
  struct ash_report_walk w;
  size_t n;
};

static bool
cdx_write (void *ctx, struct ash_out *o, int depth, bool first)
{
  struct cdx_walk *cw = ctx;
  struct ash_report_finding fi;
  if (!ash_report_walk_next_finding (&cw->w, false, &fi))
    return false;
  ash_out_item_start (o, depth, first);
  vulnerability_write (&fi, ++cw->n, o, depth);
  return true;
}

json_t *
ash_report_cyclonedx_doc (const json_t *agg, struct ash_json_gen *ret_gen)
{
  const json_t *sbom = json_object_get (agg, "cyclonedx");
  _cleanup_free_ char *uuid = ash_report_uuid (agg, "cyclonedx");
  _cleanup_free_ char *serial = xasprintf ("urn:uuid:%s", uuid);
  json_t *bom
    = json_pack ("{s:s, s:s, s:s, s:i, s:{s:s, s:{s:[{s:s, s:s, s:s}]}}}",
                 "bomFormat", "CycloneDX", "specVersion", "1.6",
                 "serialNumber", serial, "version", 1, "metadata", "timestamp",
                 ash_report_generated_at (agg), "tools", "components", "type",
                 "application", "name", "ash", "version", PACKAGE_VERSION);
  if (bom == NULL)
    ash_oom ();
  /* syft's subject (the scanned directory) and what it found, its refs
     in their namespace.  */
  json_t *subject
    = json_object_get (json_object_get (sbom, "metadata"), "component");
  if (json_is_object (subject))
    {
      json_t *c = json_deep_copy (subject);
      if (c == NULL)
        ash_oom ();
      rename_component_refs (c);
      json_object_set_new (json_object_get (bom, "metadata"), "component", c);
    }
  json_t *comps = json_is_array (json_object_get (sbom, "components"))
                    ? json_deep_copy (json_object_get (sbom, "components"))
                    : json_array ();
  if (comps == NULL)
    ash_oom ();
  size_t k;
  json_t *c;
  json_array_foreach (comps, k, c)
    rename_component_refs (c);
  json_object_set_new (bom, "components", comps);
  json_t *deps = json_object_get (sbom, "dependencies");
  if (json_is_array (deps))
    {
      json_t *d = json_deep_copy (deps);
      if (d == NULL)
        ash_oom ();
      rename_dependency_refs (d);
      json_object_set_new (bom, "dependencies", d);
    }

  struct cdx_walk *cw = xcalloc (1, sizeof *cw);
  ash_report_walk_init (&cw->w, agg, NULL);
  json_t *vulns = json_array ();
  *ret_gen = (struct ash_json_gen){
    .array = vulns, .release = free, .ctx = cw, .write = cdx_write
  };
  json_object_set_new (bom, "vulnerabilities", vulns);
  return bom;
}

char *
ash_report_cyclonedx (const json_t *agg)
{
  struct ash_json_gen g;
  json_t *doc = ash_report_cyclonedx_doc (agg, &g);
  return ash_report_dump_json_gen (doc, &g);
}
