/* SPDX-License-Identifier: Apache-2.0 */
/* cyclonedx.c -- ash.cdx.json: a CycloneDX 1.6 document holding syft's
   SBOM (its components and dependencies, when syft ran) and every finding
   as a vulnerability, as upstream's cyclonedx reporter writes.  */

#include <config.h>

#include "base/util.h"
#include "report/reports.h"
#include "scan/sarif.h"

/* One finding as a CycloneDX vulnerability.  */
static json_t *
vulnerability (const json_t *res, size_t n)
{
  int start, end;
  const char *path = ash_sarif_result_location (res, &start, &end);
  const char *rule = ash_sarif_result_rule (res);
  const char *scanner = ash_report_result_scanner (res);
  char ref[64];
  snprintf (ref, sizeof ref, "ash-finding-%zu", n);
  json_t *props = json_array ();
  if (path)
    json_array_append_new (props, json_pack ("{s:s, s:s}", "name",
                                             "ash:file_path", "value", path));
  if (start > 0)
    {
      char lines[64];
      snprintf (lines, sizeof lines, "%d-%d", start, end);
      json_array_append_new (props, json_pack ("{s:s, s:s}", "name",
                                               "ash:lines", "value", lines));
    }
  json_t *v
    = json_pack ("{s:s, s:s, s:{s:s}, s:[{s:s, s:s}], s:s, s:o}", "bom-ref",
                 ref, "id", rule ? rule : "unknown", "source", "name",
                 *scanner ? scanner : "ash", "ratings", "severity",
                 ash_severity_name (ash_sarif_result_severity (res)), "method",
                 "other", "description", ash_report_result_message (res),
                 "properties", props);
  if (v == NULL)
    ash_oom ();
  if (ash_sarif_result_is_suppressed (res))
    {
      const char *why = ash_report_result_suppression_reason (res);
      json_t *a
        = json_pack ("{s:s, s:s}", "state", "not_affected", "justification",
                     "protected_by_mitigating_control");
      if (why)
        json_object_set_new (a, "detail", json_string (why));
      json_object_set_new (v, "analysis", a);
    }
  return v;
}

char *
ash_report_cyclonedx (const json_t *agg)
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
  /* syft's subject (the scanned directory) and what it found.  */
  json_t *subject
    = json_object_get (json_object_get (sbom, "metadata"), "component");
  if (json_is_object (subject))
    json_object_set (json_object_get (bom, "metadata"), "component", subject);
  json_t *comps = json_object_get (sbom, "components");
  json_object_set_new (bom, "components",
                       json_is_array (comps) ? json_incref (comps)
                                             : json_array ());
  json_t *deps = json_object_get (sbom, "dependencies");
  if (json_is_array (deps))
    json_object_set (bom, "dependencies", deps);

  json_t *vulns = json_array ();
  size_t i, j, n = 0;
  json_t *run, *res;
  json_array_foreach (json_object_get (json_object_get (agg, "sarif"), "runs"),
                      i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      json_array_append_new (vulns, vulnerability (res, ++n));
  json_object_set_new (bom, "vulnerabilities", vulns);
  return ash_report_dump_json (bom, true);
}
