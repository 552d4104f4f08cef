/* SPDX-License-Identifier: Apache-2.0 */
/* phase.c -- the convert phase: jupyter and archive over the scan set,
   into OUTPUT/converted/.

   Inputs come from the scan set, so ignore_paths leaves a notebook or an
   archive out on purpose, and a link that leaves the tree is never read.
   The archive converter runs first, in ASH's process; the jupyter
   converter's notebooks then run in parallel, within the scan's worker
   limit.  A notebook extracted from an archive is not converted: the
   jupyter converter's inputs are the scan set's notebooks only.  */

#include <config.h>

#include <errno.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "converters/phase.h"
#include "fs/scanset.h"
#include "fs/tree.h"
#include "proc/toolfind.h"

#define JUPYTER_TOOL "jupyter-nbconvert"
#define JUPYTER_DEFAULT_TIMEOUT 300

void
ash_convert_phase_init (struct ash_convert_phase *ph)
{
  memset (ph, 0, sizeof *ph);
  ash_converter_result_init (&ph->jupyter, "jupyter");
  ash_converter_result_init (&ph->archive, "archive");
  ph->map = json_object ();
  ph->workfd = -1;
}

void
ash_convert_phase_release (struct ash_convert_phase *ph)
{
  ash_converter_result_release (&ph->jupyter);
  ash_converter_result_release (&ph->archive);
  json_decref (ph->map);
  if (ph->workfd >= 0)
    ash_close (ph->workfd);
  free (ph->work_abs);
  free (ph->list_file);
  memset (ph, 0, sizeof *ph);
  ph->workfd = -1;
}

static bool
enabled (const struct ash_config *c, const char *name)
{
  _cleanup_free_ char *k = xasprintf ("converters.%s.enabled", name);
  return ash_config_get_bool (c, k, true);
}

static const json_t *
options (const struct ash_config *c, const char *name)
{
  _cleanup_free_ char *k = xasprintf ("converters.%s.options", name);
  const json_t *o = ash_config_get (c, k);
  return json_is_object (o) ? o : NULL;
}

static bool
is_notebook (const char *rel)
{
  size_t n = strlen (rel);
  return n > 6 && strcasecmp (rel + n - 6, ".ipynb") == 0;
}

static int
open_work (const struct ash_convert_input *in, struct ash_convert_phase *ph,
           struct ash_error *err)
{
  if (ph->workfd >= 0)
    return 0;
  int r = ash_tree_mkdirs (in->outfd, ASH_CONVERTED_DIR, &ph->workfd, err);
  if (r < 0)
    return r;
  ph->work_abs = xasprintf ("%s/%s", in->output_dir, ASH_CONVERTED_DIR);
  ash_tree_name_dir (ph->workfd, ph->work_abs);
  return 0;
}

static void
collect (struct ash_convert_phase *ph, struct ash_converter_result *r)
{
  size_t i;
  json_t *e;
  json_array_foreach (r->converted, i, e)
    {
      const char *p = json_string_value (json_object_get (e, "path"));
      json_t *m = json_deep_copy (e);
      json_object_del (m, "path");
      json_object_set_new (ph->map, p, m);
      ph->n_converted++;
    }
}

static void
run_jupyter (const struct ash_convert_input *in, struct ash_convert_phase *ph,
             struct ash_strvec *notebooks)
{
  struct ash_converter_result *r = &ph->jupyter;
  const json_t *o = options (in->config, "jupyter");
  json_t *t = json_object_get (o, "scan_timeout");
  unsigned timeout = json_is_integer (t) && json_integer_value (t) > 0
                       ? (unsigned) json_integer_value (t)
                       : JUPYTER_DEFAULT_TIMEOUT;
  _cleanup_free_ char *tool = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  double t0 = ash_now ();

  json_t *it = json_object_get (o, "install_timeout");
  if (it && !json_is_null (it))
    ash_warning (_ ("converters.jupyter.options.install_timeout has no "
                    "effect on a scan: ash installs no tool while it scans "
                    "(ash dependencies install does, before)"));

  struct ash_toolfind_opts tf = {
    .path_env = in->host->path_env,
    .bin_path = in->host->bin_path,
    .source_dir = in->source_dir,
    .allow_in_tree_tools = in->host->allow_in_tree_tools,
  };
  int fr = ash_toolfind (JUPYTER_TOOL, &tf, &tool, &err);
  if (fr < 0)
    {
      r->status = ASH_CONVERTER_MISSING;
      r->reason
        = fr == -ENOENT
            ? xasprintf (_ ("%s is not installed (install it with: %s, "
                            "or ash dependencies install)"),
                         JUPYTER_TOOL, "apt-get install jupyter-nbconvert")
            : xstrdup (err.message);
      ash_err (_ ("jupyter not run: %s"), r->reason);
      for (size_t i = 0; i < notebooks->nr; i++)
        ash_converter_fail (r, notebooks->v[i], r->reason);
      ash_error_release (&err);
      return;
    }
  struct ash_jupyter_ctx ctx = {
    .srcfd = in->srcfd,
    .source_dir = in->source_dir,
    .outfd = in->outfd,
    .output_dir = in->output_dir,
    .workfd = ph->workfd,
    .mode = in->mode,
    .backends = in->backends,
    .host = in->host,
    .ss = in->ss,
    .offline = in->offline,
    .workers = in->workers,
    .timeout = timeout,
    .tool_path = tool,
  };
  ash_jupyter_convert (&ctx, notebooks->v, notebooks->nr, r);
  r->status
    = json_array_size (r->refused_inputs) + json_array_size (r->failed_inputs)
          > 0
        ? ASH_CONVERTER_FAILED
        : ASH_CONVERTER_PASSED;
  r->duration = ash_now () - t0;
  ash_info (_ ("jupyter: %zu of %zu notebooks converted"),
            json_array_size (r->converted), notebooks->nr);
}

static void
run_archive (const struct ash_convert_input *in, struct ash_convert_phase *ph,
             struct ash_strvec *archives)
{
  struct ash_converter_result *r = &ph->archive;
  struct ash_archive_limits lim;
  const char *why = NULL;
  double t0 = ash_now ();

  if (!ash_archive_available (&why))
    {
      r->status = ASH_CONVERTER_MISSING;
      r->reason = xstrdup (why);
      ash_err (_ ("archive not run: %s"), r->reason);
      for (size_t i = 0; i < archives->nr; i++)
        ash_converter_fail (r, archives->v[i], r->reason);
      return;
    }
  ash_archive_limits_from_options (options (in->config, "archive"), &lim);
  for (size_t i = 0; i < archives->nr; i++)
    ash_archive_convert (in->srcfd, archives->v[i], ph->workfd, &lim, r);
  size_t k;
  json_t *e;
  json_array_foreach (r->refused_inputs, k, e)
    {
      _cleanup_free_ char *p = ash_converter_escape (
        json_string_value (json_object_get (e, "path")));
      ash_err (_ ("archive: %s refused: %s"), p,
               json_string_value (json_object_get (e, "reason")));
    }
  json_array_foreach (r->failed_inputs, k, e)
    ash_err (_ ("archive: %s"),
             json_string_value (json_object_get (e, "reason")));
  r->status
    = json_array_size (r->refused_inputs) + json_array_size (r->failed_inputs)
          > 0
        ? ASH_CONVERTER_FAILED
        : ASH_CONVERTER_PASSED;
  r->duration = ash_now () - t0;
}

static int
write_list (const struct ash_convert_input *in, struct ash_convert_phase *ph,
            struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  const char *k;
  json_t *v;
  json_object_foreach (ph->map, k, v)
    {
      _cleanup_free_ char *abs = xasprintf ("%s/%s", ph->work_abs, k);
      _cleanup_free_ char *q = ash_scanset_quote_path (abs);
      ash_buf_addf (&b, "%s\n", q);
    }
  int r = ash_tree_write_file (in->outfd, ASH_CONVERTED_LIST, b.buf, b.len,
                               0644, err);
  ash_buf_release (&b);
  if (r == 0)
    ph->list_file = xasprintf ("%s/%s", in->output_dir, ASH_CONVERTED_LIST);
  return r;
}

int
ash_convert_phase_run (const struct ash_convert_input *in,
                       struct ash_convert_phase *ph, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec notebooks = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec archives = ASH_STRVEC_INIT;
  bool jup = enabled (in->config, "jupyter");
  bool arc = enabled (in->config, "archive");
  int r;

  r = ash_tree_remove_all (in->outfd, ASH_CONVERTED_DIR, err);
  if (r == 0)
    r = ash_tree_remove_all (in->outfd, ASH_CONVERTED_LIST, err);
  if (r < 0)
    return r;

  for (size_t i = 0; i < in->files->nr; i++)
    {
      const char *f = in->files->v[i];
      if (jup && is_notebook (f))
        ash_strvec_push (&notebooks, f);
      else if (arc && ash_archive_name_matches (f))
        ash_strvec_push (&archives, f);
    }
  static const char no_set[]
    = N_ ("the scan set was not built: no scanner of this scan is handed "
          "the source directory");
  if (!jup)
    ph->jupyter.reason = xstrdup (_ ("disabled in the configuration"));
  else if (in->no_scanset)
    ph->jupyter.reason = xstrdup (_ (no_set));
  else if (notebooks.nr == 0)
    ph->jupyter.reason = xstrdup (_ ("no notebook in the scan set"));
  if (!arc)
    ph->archive.reason = xstrdup (_ ("disabled in the configuration"));
  else if (in->no_scanset)
    ph->archive.reason = xstrdup (_ (no_set));
  else if (archives.nr == 0)
    ph->archive.reason = xstrdup (_ ("no archive in the scan set"));

  if (notebooks.nr + archives.nr > 0)
    {
      r = open_work (in, ph, err);
      if (r < 0)
        return r;
    }
  if (archives.nr > 0)
    {
      run_archive (in, ph, &archives);
      collect (ph, &ph->archive);
    }
  if (notebooks.nr > 0)
    {
      run_jupyter (in, ph, &notebooks);
      collect (ph, &ph->jupyter);
    }
  if (ph->n_converted > 0)
    r = write_list (in, ph, err);
  return r;
}

json_t *
ash_convert_phase_json (const struct ash_convert_phase *ph)
{
  json_t *o = json_object ();
  json_object_set_new (o, "archive",
                       ash_converter_result_to_json (&ph->archive));
  json_object_set_new (o, "jupyter",
                       ash_converter_result_to_json (&ph->jupyter));
  return o;
}

bool
ash_convert_phase_incomplete (const struct ash_convert_phase *ph)
{
  return ash_converter_result_incomplete (&ph->jupyter)
         || ash_converter_result_incomplete (&ph->archive);
}
