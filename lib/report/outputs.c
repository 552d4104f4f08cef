/* SPDX-License-Identifier: Apache-2.0 */
/* outputs.c -- what a scan leaves in its output directory:
   ash_aggregated_results.json and the enabled reports under reports/.  */

#include <config.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "config/ashconfig.h"
#include "config/config-schema.h"
#include "config/options.h"
#include "fs/tree.h"
#include "report/json-out.h"
#include "report/reports.h"
#include "scan/pool.h"
#include "scan/sarif.h"
#include "scan/suppress.h"
#include "scanners/scanner.h"

/* With --output-formats, the reporters it names (even one the
   configuration leaves off, such as yaml and spdx by default: a report
   asked for by name is written); otherwise every reporter whose
   reporters.NAME.enabled is not false.  */
static bool
reporter_enabled (const struct ash_options *opts,
                  const struct ash_config *config, const char *name)
{
  if (opts->output_formats.nr > 0)
    return ash_strvec_contains (&opts->output_formats, name);
  _cleanup_free_ char *k = xasprintf ("reporters.%s.enabled", name);
  return ash_config_get_bool (config, k, true);
}

/* syft's CycloneDX SBOM below the output directory DIRFD (new reference),
   or NULL when syft did not run to the end or its file is not a
   CycloneDX document.  The path is ash's own, never one read from the
   results, which a scanner's SARIF could name.  */
static json_t *
read_sbom (int dirfd, const json_t *agg)
{
  const char *st = json_string_value (
    json_object_get (json_object_get (json_object_get (agg, "scanner_results"),
                                      "syft"),
                     "status"));
  if (st == NULL || !(streq (st, "PASSED") || streq (st, "FAILED")))
    return NULL;
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  json_t *doc = NULL;
  if (ash_tree_read_file (dirfd, "scanners/syft/source/" ASH_SYFT_SBOM_FILE,
                          ASH_TREE_READ_MAX, &b, &e)
      == 0)
    doc = json_loadb (b.buf, b.len, 0, NULL);
  else
    ash_warning (_ ("the SBOM of syft is not in the reports: %s"), e.message);
  ash_error_release (&e);
  ash_buf_release (&b);
  const char *fmt = json_string_value (json_object_get (doc, "bomFormat"));
  if (doc
      && (!json_is_object (doc) || fmt == NULL || !streq (fmt, "CycloneDX")))
    {
      json_decref (doc);
      doc = NULL;
    }
  return doc;
}

/* upstream's used_suppressions: the identifier of every
   global_settings.suppressions entry that suppressed a finding.  */
static json_t *
used_suppressions (const json_t *agg, const json_t *list)
{
  json_t *ids = json_array ();
  struct ash_suppressions s;
  struct ash_strvec warnings = ASH_STRVEC_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  char today[11];
  ash_suppressions_init (&s);
  ash_suppress_today (today);
  if (list && ash_suppressions_load (list, today, &s, &warnings, &e) == 0)
    {
      size_t k;
      struct ash_report_walk w;
      struct ash_report_finding fi;
      ash_report_walk_init (&w, agg, NULL);
      while (ash_report_walk_next_finding (&w, false, &fi))
        {
          const char *kind = fi.suppression_kind;
          if (kind == NULL || !streq (kind, "external"))
            continue;
          const struct ash_suppression *m
            = ash_suppressions_match (&s, fi.rule, fi.path, fi.start);
          if (m == NULL)
            continue;
          json_t *entry = json_pack ("{s:s}", "path", m->path);
          if (m->rule_id)
            json_object_set_new (entry, "rule_id", json_string (m->rule_id));
          if (m->line_start)
            json_object_set_new (entry, "line_start",
                                 json_integer (m->line_start));
          if (m->line_end)
            json_object_set_new (entry, "line_end",
                                 json_integer (m->line_end));
          _cleanup_free_ char *id = ash_report_suppression_id (entry);
          json_decref (entry);
          bool seen = false;
          json_t *x;
          json_array_foreach (ids, k, x)
            seen |= streq (json_string_value (x), id);
          if (!seen)
            json_array_append_new (ids, json_string (id));
        }
    }
  ash_error_release (&e);
  ash_strvec_release (&warnings);
  ash_suppressions_release (&s);
  return ids;
}

/* The enforced sandbox record SB as the results keep it: the names of
   the operator's environment variables the scanner was not given
   ("dropped") and the PATH entries it was not shown ("skipped") are
   counted, not listed, since the results are often published; `ash
   sandbox explain` lists them on the operator's terminal.  */
static void
redact_sandbox (json_t *sb)
{
  static const char *const keys[] = { "dropped", "skipped" };
  if (!json_is_object (sb))
    return;
  for (size_t i = 0; i < ARRAY_SIZE (keys); i++)
    {
      json_t *v = json_object_get (sb, keys[i]);
      if (!json_is_array (v))
        continue;
      _cleanup_free_ char *k = xasprintf ("%s_count", keys[i]);
      json_object_set_new (sb, k,
                           json_integer ((json_int_t) json_array_size (v)));
      json_object_del (sb, keys[i]);
    }
}

/* The aggregated document as upstream's readers expect it (new
   reference, sharing AGG's "sarif"): per scanner upstream's
   actionable_finding_count and suppressed_finding_count beside ash's
   names, the sandbox records without the operator's environment names,
   metadata.summary_stats.severity_counts, and the top-level
   ash_config, used_suppressions, validation_checkpoints and cyclonedx
   (syft's SBOM, or null).  ash's own fields stay: upstream's model
   ignores fields it does not know.  */
/* A copy of the object V (NULL for anything else) whose members are V's
   own, shared: what the view changes is a member's value, never inside
   one.  */
static json_t *
shallow (const json_t *v)
{
  if (!json_is_object (v))
    return NULL;
  json_t *c = json_copy ((json_t *) v);
  if (c == NULL)
    ash_oom ();
  return c;
}

/* The results RS (scanner_results or converter_results), each a shallow
   copy with its sandbox record redacted in a copy of its own (RS is
   left as it is).  */
static json_t *
view_results (const json_t *rs)
{
  json_t *out = shallow (rs);
  const char *name;
  json_t *r;
  json_object_foreach (out, name, r)
    {
      json_t *c = shallow (r);
      if (c == NULL)
        continue;
      json_t *sb = shallow (json_object_get (c, "sandbox"));
      if (sb)
        {
          redact_sandbox (sb);
          json_object_set_new (c, "sandbox", sb);
        }
      json_object_set_new (out, name, c);
    }
  return out;
}

static json_t *
upstream_view (int dirfd, const json_t *agg, const struct ash_config *config)
{
  json_t *view = json_copy ((json_t *) agg);
  if (view == NULL)
    ash_oom ();
  json_t *sr = view_results (json_object_get (agg, "scanner_results"));
  const char *name;
  json_t *r;
  json_object_foreach (sr, name, r)
    {
      json_t *a = json_object_get (r, "actionable_count");
      json_t *sup = json_object_get (r, "suppressed_count");
      if (a && !json_object_get (r, "actionable_finding_count"))
        json_object_set (r, "actionable_finding_count", a);
      if (sup && !json_object_get (r, "suppressed_finding_count"))
        json_object_set (r, "suppressed_finding_count", sup);
    }
  if (sr)
    json_object_set_new (view, "scanner_results", sr);
  json_t *cr = view_results (json_object_get (agg, "converter_results"));
  if (cr)
    json_object_set_new (view, "converter_results", cr);

  json_t *meta = shallow (json_object_get (agg, "metadata"));
  json_t *stats = shallow (json_object_get (meta, "summary_stats"));
  if (stats)
    json_object_set_new (meta, "summary_stats", stats);
  if (json_is_object (stats) && !json_object_get (stats, "severity_counts"))
    {
      static const char *const keys[]
        = { "critical", "high", "medium", "low", "info", "suppressed" };
      json_t *c = json_object ();
      for (size_t i = 0; i < ARRAY_SIZE (keys); i++)
        {
          json_t *v = json_object_get (stats, keys[i]);
          json_object_set_new (c, keys[i],
                               v ? json_incref (v) : json_integer (0));
        }
      json_object_set_new (stats, "severity_counts", c);
    }
  if (meta)
    json_object_set_new (view, "metadata", meta);

  /* The configuration as it is: nothing changes it while the reports
     are written.  */
  json_t *conf
    = config && config->root ? json_incref (config->root) : json_object ();
  json_object_set_new (view, "ash_config", conf);
  json_object_set_new (
    view, "used_suppressions",
    used_suppressions (
      agg, json_object_get (json_object_get (conf, "global_settings"),
                            "suppressions")));
  if (!json_object_get (view, "validation_checkpoints"))
    json_object_set_new (view, "validation_checkpoints", json_array ());
  json_t *sbom = read_sbom (dirfd, agg);
  json_object_set_new (view, "cyclonedx", sbom ? sbom : json_null ());
  return view;
}

/* A new file of the output directory and the text written to it.  */
struct out
{
  struct ash_tree_file f;
  struct ash_out o;
};

static int
out_create (int dirfd, const char *rel, struct out *o, struct ash_error *err)
{
  o->f = (struct ash_tree_file) ASH_TREE_FILE_INIT;
  int r = ash_tree_file_create (dirfd, rel, 0644, &o->f, err);
  if (r < 0)
    return r;
  ash_out_init_fd (&o->o, o->f.fd);
  return 0;
}

static int
out_finish (struct out *o, struct ash_error *err)
{
  ash_out_flush (&o->o);
  ash_buf_release (&o->o.b);
  if (o->o.error)
    {
      int e = o->o.error;
      _cleanup_free_ char *path = xstrdup (o->f.path ? o->f.path : "");
      ash_tree_file_abort (&o->f);
      return ash_error_set (err, e, _ ("cannot write %s: %s"), path,
                            strerror (-e));
    }
  return ash_tree_file_commit (&o->f, err);
}

/* ash_aggregated_results.json: the aggregated document as
   json_dumps (AGG, JSON_INDENT (2) | JSON_ENSURE_ASCII) writes it,
   written member by member as it is produced.  */
static int
write_aggregated (int dirfd, const json_t *agg, struct ash_error *err)
{
  struct out o;
  int r = out_create (dirfd, "ash_aggregated_results.json", &o, err);
  if (r < 0)
    return r;
  ash_out_json (&o.o, agg, 0);
  return out_finish (&o, err);
}

/* A report whose text is JSON: DOC (stolen), its array made by GEN
   (may be NULL; released), written to REL as it is produced, and a line
   end.  */
static int
write_json_report (int dirfd, const char *rel, json_t *doc,
                   struct ash_json_gen *gen, struct ash_error *err)
{
  struct out o;
  int r = out_create (dirfd, rel, &o, err);
  if (r == 0)
    {
      o.o.gen = gen;
      ash_out_json (&o.o, doc, 0);
      ash_out_add (&o.o, "\n", 1);
      r = out_finish (&o, err);
    }
  json_decref (doc);
  if (gen)
    ash_json_gen_release (gen);
  return r;
}

char *
ash_report_render (const json_t *agg, const struct ash_report_format *f,
                   const struct ash_config *config)
{
  /* reporters.NAME.options: the markdown and text options, or what the
     renderer reads itself.  */
  _cleanup_free_ char *ok = xasprintf ("reporters.%s.options", f->name);
  const json_t *options = ash_config_get (config, ok);
  struct ash_summary_opts so;
  ash_summary_opts_read (options, &so);
  return streq (f->name, "markdown") ? ash_report_markdown_opts (agg, &so)
         : streq (f->name, "text")   ? ash_report_text_opts (agg, &so)
         : f->render_opts            ? f->render_opts (agg, options)
                                     : f->render (agg);
}

/* One report to write, and how it went.  */
struct report_job
{
  const struct ash_report_format *f;
  char *rel;
  const json_t *options; /* reporters.NAME.options */
  int r;
  struct ash_error e;
};

struct report_ctx
{
  int dirfd;
  const json_t *agg, *sarif;
  const struct ash_config *config;
};

static void
report_job_run (const struct report_ctx *c, struct report_job *j)
{
  const struct ash_report_format *f = j->f;
  int r;
  if (f->render == ash_report_sarif && c->sarif)
    r = write_json_report (c->dirfd, j->rel, json_incref ((json_t *) c->sarif),
                           NULL, &j->e);
  else if (f->build)
    {
      struct ash_json_gen g = { 0 };
      json_t *doc = f->build (c->agg, j->options, &g);
      r = write_json_report (c->dirfd, j->rel, doc, &g, &j->e);
    }
  else if (f->write)
    {
      struct out o;
      r = out_create (c->dirfd, j->rel, &o, &j->e);
      if (r == 0)
        {
          f->write (c->agg, j->options, &o.o);
          r = out_finish (&o, &j->e);
        }
    }
  else
    {
      _cleanup_free_ char *body = ash_report_render (c->agg, f, c->config);
      if (body == NULL)
        {
          ash_info (_ ("report %s: nothing to report, no %s written"), f->name,
                    j->rel);
          r = 0;
        }
      else
        r = ash_tree_write_file (c->dirfd, j->rel, body, strlen (body), 0644,
                                 &j->e);
    }
  j->r = r;
}

/* Whether the report F may be written on a thread of its own beside the
   others: it reads the aggregated document and the findings list, both
   left as they are, and writes its own file.  The summaries share the
   text module's string pool, and a report rendered whole may log; they
   are written one after the other on one thread.  */
static bool
report_parallel (const struct ash_report_format *f)
{
  if (f->render == ash_report_markdown || f->render == ash_report_text)
    return false;
  return f->render == ash_report_sarif || f->build || f->write;
}

/* One item of the pool: ash_aggregated_results.json, the reports that
   are not written side by side (in their order), or one report.  */
struct report_item
{
  enum
  {
    ITEM_AGGREGATED,
    ITEM_SERIAL,
    ITEM_REPORT
  } kind;
  const struct report_ctx *c;
  struct report_job *job; /* ITEM_REPORT: it; ITEM_SERIAL: the first of N */
  size_t n;
  int *agg_r; /* ITEM_AGGREGATED: how it went */
  struct ash_error *agg_e;
};

/* The reports that take longest on many findings, longest first (as
   measured on a 100 MiB SARIF), so that the pool does not end on one of
   them alone; the rest follow in their order.  */
static const char *const longest_first[]
  = { "ocsf",      "gitlab-sast", "flat-json", "csv", "github-ghas",
      "cyclonedx", "junitxml",    "sarif",     "html" };

static size_t
report_rank (const struct ash_report_format *f)
{
  for (size_t i = 0; i < sizeof longest_first / sizeof *longest_first; i++)
    if (streq (f->name, longest_first[i]))
      return i;
  return sizeof longest_first / sizeof *longest_first;
}

static void
report_item_run (void *ctx, void *item)
{
  (void) ctx;
  struct report_item *it = item;
  switch (it->kind)
    {
    case ITEM_AGGREGATED:
      *it->agg_r = write_aggregated (it->c->dirfd, it->c->agg, it->agg_e);
      break;
    case ITEM_REPORT:
      report_job_run (it->c, it->job);
      break;
    case ITEM_SERIAL:
      for (size_t i = 0; i < it->n; i++)
        if (!report_parallel (it->job[i].f))
          report_job_run (it->c, &it->job[i]);
      break;
    }
}

static unsigned report_workers; /* 0: one per processor, at most 4 */

void
ash_report_outputs_set_workers (unsigned n)
{
  report_workers = n;
}

static unsigned
workers_for (size_t items)
{
  unsigned w = report_workers;
  if (w == 0)
    {
      long cpus = sysconf (_SC_NPROCESSORS_ONLN);
      w = cpus < 1 ? 1 : cpus > 4 ? 4 : (unsigned) cpus;
    }
  return items < w ? (unsigned) items : w;
}

int
ash_report_outputs_write (int dirfd, const json_t *agg,
                          const struct ash_options *opts,
                          const struct ash_config *config,
                          struct ash_error *err)
{
  /* Every JSON file is written as it is produced, never held whole as
     text.  */
  int r, ret = 0;

  json_t *view = upstream_view (dirfd, agg, config);
  agg = view;
  const json_t *sarif = json_object_get (agg, "sarif");
  if (opts->skip_reports)
    {
      /* --phases without report: the aggregated results only.  */
      r = write_aggregated (dirfd, agg, err);
      json_decref (view);
      return r < 0 ? r : 0;
    }
  /* The reports to write: ash.sarif first, then the others in their
     order.  */
  struct report_job *jobs = NULL;
  size_t n = 0, alloc = 0;
  bool any_listing = false, any_serial = false;
  for (size_t pass = 0; pass < 2; pass++)
    for (size_t i = 0; ash_report_formats[i].name; i++)
      {
        const struct ash_report_format *f = &ash_report_formats[i];
        bool is_sarif = f->render == ash_report_sarif;
        if ((pass == 0) != is_sarif
            || !reporter_enabled (opts, config, f->name))
          continue;
        /* reporters.NAME.extension names the file as upstream does:
           ash.EXTENSION (the schema allows only a plain suffix).  */
        _cleanup_free_ char *ek
          = xasprintf ("reporters.%s.extension", f->name);
        const char *ext = ash_config_get_string (config, ek);
        char *rel = ext && ash_config_extension_valid (ext)
                      ? xasprintf ("reports/ash.%s", ext)
                      : xasprintf ("reports/%s", f->file);
        bool taken = false;
        for (size_t k = 0; k < n && !taken; k++)
          taken = streq (jobs[k].rel, rel);
        if (taken)
          {
            ash_err (_ ("report %s: %s is the file of another report; not "
                        "written (change reporters.%s.extension)"),
                     f->name, rel, f->name);
            free (rel);
            continue;
          }
        if (n == alloc)
          {
            alloc = alloc ? 2 * alloc : 16;
            jobs = xreallocarray (jobs, alloc, sizeof *jobs);
          }
        _cleanup_free_ char *ok = xasprintf ("reporters.%s.options", f->name);
        jobs[n] = (struct report_job){ f, rel, ash_config_get (config, ok), 0,
                                       ASH_ERROR_INIT };
        n++;
        any_listing = any_listing || pass == 1;
        any_serial = any_serial || !report_parallel (f);
      }

  /* The findings list is built once for every report that lists them;
     then the aggregated results and the reports are written side by
     side, each to its own file: the aggregated results and the serial
     reports (one after the other, as one item) first, then the others,
     longest first.  */
  if (any_listing)
    ash_report_findings_begin (agg);
  struct report_ctx c = { dirfd, agg, sarif, config };
  struct report_item *items = xcalloc (n + 2, sizeof *items);
  void **ptrs = xcalloc (n + 2, sizeof *ptrs);
  size_t ni = 0;
  int agg_r = 0;
  struct ash_error agg_e = ASH_ERROR_INIT;
  items[ni]
    = (struct report_item){ ITEM_AGGREGATED, &c, NULL, 0, &agg_r, &agg_e };
  ptrs[ni] = &items[ni];
  ni++;
  if (any_serial)
    {
      items[ni] = (struct report_item){ ITEM_SERIAL, &c, jobs, n, NULL, NULL };
      ptrs[ni] = &items[ni];
      ni++;
    }
  size_t nranks = sizeof longest_first / sizeof *longest_first;
  for (size_t rank = 0; rank <= nranks; rank++)
    for (size_t i = 0; i < n; i++)
      if (report_parallel (jobs[i].f) && report_rank (jobs[i].f) == rank)
        {
          items[ni]
            = (struct report_item){ ITEM_REPORT, &c, &jobs[i], 1, NULL, NULL };
          ptrs[ni] = &items[ni];
          ni++;
        }
  ash_pool_run (ptrs, ni, workers_for (ni), report_item_run, NULL);
  free (ptrs);
  free (items);
  if (any_listing)
    ash_report_findings_end ();

  /* What failed: the aggregated results first (told by the caller, as
     before), then the reports in their order.  */
  if (agg_r < 0)
    {
      ret = agg_r;
      ash_error_move (err, &agg_e);
    }
  ash_error_release (&agg_e);
  for (size_t i = 0; i < n; i++)
    {
      if (jobs[i].r < 0)
        {
          ash_err (_ ("report %s: %s"), jobs[i].f->file, jobs[i].e.message);
          if (ret == 0)
            {
              ret = jobs[i].r;
              ash_error_move (err, &jobs[i].e);
            }
        }
      ash_error_release (&jobs[i].e);
      free (jobs[i].rel);
    }
  free (jobs);
  json_decref (view);
  return ret;
}
