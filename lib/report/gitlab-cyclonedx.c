/* SPDX-License-Identifier: Apache-2.0 */
/* gitlab-cyclonedx.c -- ash.gl-dependency-scanning-report.cdx.json:
   syft's SBOM with the properties of GitLab's CycloneDX taxonomy
   (gitlab:meta:schema_version, gitlab:dependency_scanning:*) that GitLab's
   dependency list requires, as upstream's gitlab-cyclonedx reporter.  No
   file without an SBOM that lists components, as upstream.  */

#include <config.h>

#include <string.h>

#include "base/util.h"
#include "report/reports.h"

/* syft's package types and purl types, as GitLab names the package
   manager and the language.  */
static const struct
{
  const char *syft, *purl, *manager, *language;
} kinds[] = {
  { "npm", "npm", "npm", "JavaScript" },
  { "python", "pypi", "pip", "Python" },
  { "gem", "gem", "bundler", "Ruby" },
  { "go-module", "golang", "go", "Go" },
  { "java-archive", "maven", "maven", "Java" },
  { "gradle", NULL, "gradle", "Java" },
  { "rust-crate", "cargo", "cargo", "Rust" },
  { "php-composer", "composer", "composer", "PHP" },
  { "dotnet", "nuget", "nuget", "C#" },
  { "dart-pub", "pub", "pub", "Dart" },
  { "cocoapods", "cocoapods", "cocoapods", "Swift" },
  { "hex", "hex", "mix", "Elixir" },
  { "hackage", "hackage", "cabal", "Haskell" },
  { "apk", "apk", "apk", NULL },
  { "deb", "deb", "apt", NULL },
  { "rpm", "rpm", "yum", NULL },
};

static const char *
property (const json_t *comp, const char *name)
{
  size_t i;
  json_t *p;
  json_array_foreach (json_object_get (comp, "properties"), i, p)
    {
      const char *n = json_string_value (json_object_get (p, "name"));
      if (n && streq (n, name))
        return json_string_value (json_object_get (p, "value"));
    }
  return NULL;
}

static int
kind_of (const json_t *comp)
{
  const char *t = property (comp, "syft:package:type");
  const char *purl = json_string_value (json_object_get (comp, "purl"));
  for (size_t k = 0; k < ARRAY_SIZE (kinds); k++)
    {
      if (t && streq (t, kinds[k].syft))
        return (int) k;
      if (purl && kinds[k].purl && strncmp (purl, "pkg:", 4) == 0
          && strncmp (purl + 4, kinds[k].purl, strlen (kinds[k].purl)) == 0
          && purl[4 + strlen (kinds[k].purl)] == '/')
        return (int) k;
    }
  return -1;
}

static void
add_prop (json_t *props, const char *name, const char *value)
{
  json_array_append_new (props, json_pack ("{s:s, s:s}", "name", name, "value",
                                           value));
}

char *
ash_report_gitlab_cyclonedx (const json_t *agg, const json_t *options)
{
  const json_t *sbom = json_object_get (agg, "cyclonedx");
  json_t *comps = json_object_get (sbom, "components");
  if (!json_is_object (sbom) || json_array_size (comps) == 0)
    return NULL;
  const char *category
    = json_string_value (json_object_get (options, "category"));
  const char *pm_over = json_string_value (
    json_object_get (options, "package_manager_override"));
  const char *lang_over
    = json_string_value (json_object_get (options, "language_override"));
  const char *file_over = json_string_value (
    json_object_get (options, "input_file_path_override"));

  json_t *doc = json_deep_copy (sbom);
  if (doc == NULL)
    ash_oom ();
  json_t *meta = json_object_get (doc, "metadata");
  if (!json_is_object (meta))
    json_object_set_new (doc, "metadata", meta = json_object ());
  json_t *mprops = json_object_get (meta, "properties");
  if (!json_is_array (mprops))
    json_object_set_new (meta, "properties", mprops = json_array ());
  add_prop (mprops, "gitlab:meta:schema_version", "1");

  size_t i;
  json_t *c;
  json_array_foreach (json_object_get (doc, "components"), i, c)
    {
      if (!json_is_object (c))
        continue;
      json_t *props = json_object_get (c, "properties");
      if (!json_is_array (props))
        json_object_set_new (c, "properties", props = json_array ());
      int k = kind_of (c);
      const char *pm = pm_over ? pm_over : k >= 0 ? kinds[k].manager : NULL;
      const char *lang = lang_over ? lang_over
                         : k >= 0  ? kinds[k].language
                                   : NULL;
      const char *file
        = file_over ? file_over : property (c, "syft:location:0:path");
      /* syft names files from the scanned root: "/requirements.txt".  */
      while (file && *file == '/')
        file++;
      add_prop (props, "gitlab:dependency_scanning:category",
                category ? category : "production");
      if (pm)
        add_prop (props, "gitlab:dependency_scanning:package_manager:name",
                  pm);
      if (lang)
        add_prop (props, "gitlab:dependency_scanning:language:name", lang);
      if (file && *file)
        add_prop (props, "gitlab:dependency_scanning:input_file:path", file);
    }
  return ash_report_dump_json (doc, true);
}
