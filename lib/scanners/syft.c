/* SPDX-License-Identifier: Apache-2.0 */
/* syft.c -- the syft adapter: an SBOM, not findings.

   "syft dir:TARGET --base-path TARGET --config CONFIG
   -o cyclonedx-json=RESULTS/syft.cdx.json -o syft-json=RESULTS/syft.json
   [-o FORMAT=RESULTS/syft.cdx.json.FORMAT.EXT]... [--exclude ./PATH]...",
   with SYFT_CHECK_FOR_APP_UPDATE=false (syft needs no network) and, in a
   sandbox, a private empty cache (SYFT_CACHE_DIR, the policy's cache_env).
   CONFIG is the operator's config_file when the tier rule lets it apply,
   else an empty file of ash's own, so a .syft.yaml in the tree changes
   nothing.

   The CycloneDX SBOM (and each additional output) is kept under the
   scanner's results directory, where the cyclonedx, spdx and
   gitlab-cyclonedx reports read it (lib/report/outputs.c).  syft reports
   no findings: the SARIF run it contributes has no results, and its
   properties name the SBOM and count its components.  An SBOM that
   is missing, empty or not CycloneDX JSON makes syft ERROR.  */

#include <config.h>

#include <errno.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "fs/tree.h"
#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/deps-common.h"
#include "scanners/scanner.h"

#define SYFT_CDX ASH_SYFT_SBOM_FILE
#define SYFT_JSON "syft.json"
#define SYFT_CONFIG "syft.yaml"

static const char *const syft_options[]
  = { "config_file", "exclude", "additional_outputs", "offline", NULL };
static const char *const syft_formats[] = {
  "cyclonedx-json", "cyclonedx-xml",  "github-json",
  "spdx-json",      "spdx-tag-value", "syft-json",
  "syft-table",     "syft-text",      NULL,
};

static int
add_exclude (struct ash_strvec *argv, const char *p, struct ash_error *err)
{
  if (strchr (p, '\n'))
    return ash_error_set (err, -EINVAL,
                          _ ("syft's --exclude cannot name '%s': it holds a "
                             "line break"),
                          p);
  while (p[0] == '.' && p[1] == '/')
    p += 2;
  ash_strvec_pushf (argv, "--exclude=./%s", p);
  return 0;
}

int
ash_syft_argv (const struct ash_scan_job *job, const char *config,
               struct ash_strvec *argv, struct ash_error *err)
{
  int r = ash_deps_options_check (job->name, job->options, syft_options, err);
  bool off;
  if (r == 0)
    r = ash_adapter_get_bool (job->name, job->options, "offline", false, &off,
                              err);
  if (r < 0)
    return r;
  ash_strvec_push (argv, job->tool_path);
  ash_strvec_pushf (argv, "dir:%s", job->target);
  ash_strvec_push (argv, "--base-path");
  ash_strvec_push (argv, job->target);
  ash_strvec_push (argv, "--config");
  ash_strvec_push (argv, config);
  ash_strvec_push (argv, "-o");
  ash_strvec_pushf (argv, "cyclonedx-json=%s/%s", job->results_dir, SYFT_CDX);
  ash_strvec_push (argv, "-o");
  ash_strvec_pushf (argv, "syft-json=%s/%s", job->results_dir, SYFT_JSON);

  json_t *outs = json_object_get (job->options, "additional_outputs");
  size_t i;
  json_t *o;
  if (outs && !json_is_array (outs))
    return ash_error_set (err, -EINVAL,
                          _ (
                            "scanners.syft.options.additional_outputs must be "
                            "a list"));
  if (outs == NULL)
    {
      ash_strvec_push (argv, "-o");
      ash_strvec_pushf (argv, "syft-table=%s/%s.syft-table.txt",
                        job->results_dir, SYFT_CDX);
    }
  json_array_foreach (outs, i, o)
    {
      const char *f = json_string_value (o);
      if (f == NULL || !ash_strv_contains ((char *const *) syft_formats, f))
        return ash_error_set (err, -EINVAL,
                              _ ("scanners.syft.options.additional_outputs: "
                                 "unknown format '%s'"),
                              f ? f : "?");
      const char *ext = strstr (f, "json")  ? "json"
                        : strstr (f, "xml") ? "xml"
                                            : "txt";
      ash_strvec_push (argv, "-o");
      ash_strvec_pushf (argv, "%s=%s/%s.%s.%s", f, job->results_dir, SYFT_CDX,
                        f, ext);
    }

  json_t *ex = json_object_get (job->options, "exclude");
  if (ex && !json_is_array (ex))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.syft.options.exclude must be a list"));
  json_array_foreach (ex, i, o)
    {
      const char *p = json_is_string (o)
                        ? json_string_value (o)
                        : json_string_value (json_object_get (o, "path"));
      if (p == NULL || *p == '\0')
        return ash_error_set (err, -EINVAL,
                              _ ("scanners.syft.options.exclude[%zu] has no "
                                 "path"),
                              i);
      r = add_exclude (argv, p, err);
      if (r < 0)
        return r;
    }
  for (char *const *e = job->excluded_paths; e && *e; e++)
    {
      const char *p = *e;
      if (p[0] == '/')
        {
          size_t n = strlen (job->target);
          if (strneq (p, job->target, n) && p[n] == '/')
            ash_strvec_pushf (argv, "--exclude=./%s/**", p + n + 1);
          continue;
        }
      ash_strvec_pushf (argv, "--exclude=%s", p);
    }
  struct ash_strvec ign = ASH_STRVEC_INIT;
  ash_deps_ignore_paths (job, &ign);
  for (size_t k = 0; r == 0 && k < ign.nr; k++)
    r = add_exclude (argv, ign.v[k], err);
  ash_strvec_release (&ign);
  return r;
}

/* scanners.syft.options, checked before the scan and by `config
   validate`: every check syft_build makes of the options alone, in its
   order (config_file's type, then the option names, offline,
   additional_outputs and exclude through ash_syft_argv itself, with a
   placeholder job).  What depends on the scanned tree or the
   configuration stays at scan time: the file config_file names (the
   option-file rule judges it) and the ignore_paths syft's --exclude
   cannot name.  */
static int
syft_check_options (const json_t *options, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_scan_job job = ASH_DEPS_CHECK_JOB ("syft", options);
  const char *cf;
  int r
    = ash_adapter_get_string ("syft", options, "config_file", true, &cf, err);
  if (r == 0)
    r = ash_syft_argv (&job, "/dev/null", &argv, err);
  return r;
}

static int
syft_build (const struct ash_scanner *s _unused_,
            const struct ash_scan_job *job, struct ash_cmd *cmd,
            struct ash_error *err)
{
  const char *cf = NULL;
  _cleanup_free_ char *config = NULL, *why = NULL;
  int r = ash_adapter_get_string (job->name, job->options, "config_file", true,
                                  &cf, err);
  if (r == 0 && cf)
    r = ash_deps_option_file (job, "config_file", cf, &config, &why, err);
  if (r < 0)
    return r;
  if (why)
    ash_warning ("%s", why);
  if (config == NULL)
    {
      r = ash_adapter_write_run_file (
        job, SYFT_CONFIG, "# the empty syft config ash gives syft\n", &config,
        err);
      if (r < 0)
        return r;
    }
  r = ash_syft_argv (job, config, &cmd->argv, err);
  if (r < 0)
    return r;
  ash_strvec_setenv (&cmd->env, "SYFT_CHECK_FOR_APP_UPDATE", "false");
  return 0;
}

int
ash_syft_sbom_check (const char *text, size_t len, size_t *ret_components,
                     struct ash_error *err)
{
  json_t *doc = NULL;
  int pr = ash_json_parse_output (SYFT_CDX, text, len, &doc, err);
  if (pr < 0)
    return pr;
  const char *fmt = json_string_value (json_object_get (doc, "bomFormat"));
  json_t *comps = json_object_get (doc, "components");
  if (!json_is_object (doc) || fmt == NULL || !streq (fmt, "CycloneDX")
      || (comps && !json_is_array (comps)))
    {
      json_decref (doc);
      return ash_error_set (err, -EINVAL,
                            _ ("%s is not a CycloneDX SBOM (no bomFormat "
                               "CycloneDX)"),
                            SYFT_CDX);
    }
  *ret_components = json_array_size (comps);
  json_decref (doc);
  return 0;
}

static int
syft_parse (const struct ash_scanner *s _unused_,
            const struct ash_scan_job *job, const struct ash_cmd_result *res,
            json_t **ret_doc, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  size_t n = 0;
  int r;

  if (res->status != 0)
    return ash_error_set (err, -EIO, _ ("syft exited with status %d"),
                          res->status);
  r = ash_tree_read_file (job->results_fd, SYFT_CDX, job->max_output, &b, err);
  if (r == -ENOENT)
    return ash_error_set (err, r, _ ("syft wrote no SBOM (%s)"), SYFT_CDX);
  if (r < 0)
    return r;
  if (b.len == 0)
    r = ash_error_set (err, -EINVAL, _ ("syft wrote an empty SBOM (%s)"),
                       SYFT_CDX);
  else
    r = ash_syft_sbom_check (b.buf, b.len, &n, err);
  ash_buf_release (&b);
  if (r < 0)
    return r;

  _cleanup_free_ char *version
    = ash_deps_tool_version (job->tool_path, NULL, job->scope);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run
    = ash_sarif_run_new ("syft", version, "https://github.com/anchore/syft");
  _cleanup_free_ char *rel
    = xasprintf ("scanners/%s/source/%s", job->name, SYFT_CDX);
  json_object_set_new (run, "properties",
                       json_pack ("{s:s, s:s, s:I}", "sbom", rel,
                                  "sbom_format", "CycloneDX JSON",
                                  "sbom_components", (json_int_t) n));
  json_array_append_new (json_object_get (doc, "runs"), run);
  ash_info (_ ("syft: the CycloneDX SBOM (%zu components) is kept at %s; "
               "the cyclonedx, spdx and gitlab-cyclonedx reports carry it"),
            n, rel);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_syft = {
  .name = "syft",
  .tool = "syft",
  .install_hint = "a release binary from "
                  "https://github.com/anchore/syft/releases",
  .description = "software bill of materials generator",
  .build = syft_build,
  .parse = syft_parse,
  .check_options = syft_check_options,
};
