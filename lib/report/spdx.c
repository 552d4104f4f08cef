/* SPDX-License-Identifier: Apache-2.0 */
/* spdx.c -- ash.spdx.json: syft's packages as an SPDX 2.3 JSON document.
   (Upstream's spdx reporter, off by default there too, writes a YAML dump
   of its model instead of SPDX; ash writes the document its name
   promises.)  Without an SBOM the document lists no package.  */

#include <config.h>

#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "report/reports.h"

/* An SPDX identifier may hold only letters, digits, "." and "-".  */
static char *
spdx_id (size_t n)
{
  return xasprintf ("SPDXRef-Package-%zu", n);
}

static json_t *
package (const json_t *comp, size_t n)
{
  const char *name = json_string_value (json_object_get (comp, "name"));
  const char *version = json_string_value (json_object_get (comp, "version"));
  const char *purl = json_string_value (json_object_get (comp, "purl"));
  _cleanup_free_ char *id = spdx_id (n);
  json_t *p
    = json_pack ("{s:s, s:s, s:s, s:b, s:s, s:s, s:s}", "SPDXID", id, "name",
                 name && *name ? name : "unknown", "downloadLocation",
                 "NOASSERTION", "filesAnalyzed", false, "licenseConcluded",
                 "NOASSERTION", "licenseDeclared", "NOASSERTION",
                 "copyrightText", "NOASSERTION");
  if (p == NULL)
    ash_oom ();
  if (version && *version)
    json_object_set_new (p, "versionInfo", json_string (version));
  if (purl && strncmp (purl, "pkg:", 4) == 0)
    json_object_set_new (p, "externalRefs",
                         json_pack ("[{s:s, s:s, s:s}]", "referenceCategory",
                                    "PACKAGE-MANAGER", "referenceType", "purl",
                                    "referenceLocator", purl));
  return p;
}

char *
ash_report_spdx (const json_t *agg)
{
  const json_t *sbom = json_object_get (agg, "cyclonedx");
  const char *project = json_string_value (
    json_object_get (json_object_get (agg, "metadata"), "project_name"));
  _cleanup_free_ char *uuid = ash_report_uuid (agg, "spdx");
  _cleanup_free_ char *ns = xasprintf ("urn:uuid:%s", uuid);
  json_t *packages = json_array ();
  json_t *rels = json_array ();
  size_t i, n = 0;
  json_t *c;
  json_array_foreach (json_object_get (sbom, "components"), i, c)
    {
      if (!json_is_object (c))
        continue;
      json_array_append_new (packages, package (c, ++n));
      _cleanup_free_ char *id = spdx_id (n);
      json_array_append_new (rels,
                             json_pack ("{s:s, s:s, s:s}", "spdxElementId",
                                        "SPDXRef-DOCUMENT", "relationshipType",
                                        "DESCRIBES", "relatedSpdxElement",
                                        id));
    }
  _cleanup_free_ char *creator = xasprintf ("Tool: ash-%s", PACKAGE_VERSION);
  json_t *doc
    = json_pack ("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:[s]}, s:o, s:o}",
                 "spdxVersion", "SPDX-2.3", "dataLicense", "CC0-1.0", "SPDXID",
                 "SPDXRef-DOCUMENT", "name",
                 project && *project ? project : "ash-scan",
                 "documentNamespace", ns, "creationInfo", "created",
                 ash_report_generated_at (agg), "creators", creator,
                 "packages", packages, "relationships", rels);
  if (doc == NULL)
    ash_oom ();
  return ash_report_dump_json (doc, true);
}
