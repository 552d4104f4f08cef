/* SPDX-License-Identifier: Apache-2.0 */
/* outputs.c -- what a scan leaves in its output directory:
   ash_aggregated_results.json and the enabled reports under reports/.  */

#include <config.h>

#include <string.h>

#include "base/log.h"
#include "base/util.h"
#include "config/ashconfig.h"
#include "config/config-schema.h"
#include "config/options.h"
#include "fs/tree.h"
#include "report/reports.h"

static bool
reporter_enabled (const struct ash_options *opts,
                  const struct ash_config *config, const char *name)
{
  static const char *const required[] = { "sarif", "markdown", "text",
                                          "flat-json" };
  for (size_t i = 0; i < ARRAY_SIZE (required); i++)
    if (streq (required[i], name))
      return true;
  _cleanup_free_ char *k = xasprintf ("reporters.%s.enabled", name);
  if (!ash_config_get_bool (config, k, true))
    return false;
  if (opts->output_formats.nr > 0)
    return ash_strvec_contains (&opts->output_formats, name);
  return true;
}

int
ash_report_outputs_write (int dirfd, const json_t *agg,
                          const struct ash_options *opts,
                          const struct ash_config *config,
                          struct ash_error *err)
{
  char *text = json_dumps (agg, JSON_INDENT (2) | JSON_ENSURE_ASCII);
  int r, ret = 0;

  if (text == NULL)
    ash_oom ();
  r = ash_tree_write_file (dirfd, "ash_aggregated_results.json", text,
                           strlen (text), 0644, err);
  free (text);
  if (r < 0)
    return r;
  /* --phases without report: the aggregated results only.  */
  if (opts->skip_reports)
    return 0;
  struct ash_strvec written = ASH_STRVEC_INIT;
  for (size_t i = 0; ash_report_formats[i].name; i++)
    {
      const struct ash_report_format *f = &ash_report_formats[i];
      if (!reporter_enabled (opts, config, f->name))
        continue;
      /* reporters.NAME.extension names the file as upstream does:
         ash.EXTENSION (the schema allows only a plain suffix).  */
      _cleanup_free_ char *ek = xasprintf ("reporters.%s.extension",
                                           f->name);
      const char *ext = ash_config_get_string (config, ek);
      _cleanup_free_ char *rel
        = ext && ash_config_extension_valid (ext)
            ? xasprintf ("reports/ash.%s", ext)
            : xasprintf ("reports/%s", f->file);
      if (ash_strvec_contains (&written, rel))
        {
          ash_err (_("report %s: %s is the file of another report; not "
                     "written (change reporters.%s.extension)"),
                   f->name, rel, f->name);
          continue;
        }
      ash_strvec_push (&written, rel);
      /* reporters.markdown.options and reporters.text.options.  */
      _cleanup_free_ char *ok = xasprintf ("reporters.%s.options", f->name);
      struct ash_summary_opts so;
      ash_summary_opts_read (ash_config_get (config, ok), &so);
      _cleanup_free_ char *body
        = streq (f->name, "markdown") ? ash_report_markdown_opts (agg, &so)
          : streq (f->name, "text")   ? ash_report_text_opts (agg, &so)
                                      : f->render (agg);
      struct ash_error e = ASH_ERROR_INIT;
      r = ash_tree_write_file (dirfd, rel, body, strlen (body), 0644, &e);
      if (r < 0)
        {
          ash_err (_("report %s: %s"), f->file, e.message);
          if (ret == 0)
            {
              ret = r;
              ash_error_move (err, &e);
            }
        }
      ash_error_release (&e);
    }
  ash_strvec_release (&written);
  return ret;
}
