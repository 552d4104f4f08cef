/* SPDX-License-Identifier: Apache-2.0 */
/* orchestrator.c -- the phases of `ash scan`.

   prepare   open the output directory once, attach ash.log and
             ash.log.jsonl, decide the sandbox settings and the scanners
             to run, and build the scan set when one of them is handed
             the tree;
   convert   the converters (lib/converters/) write notebooks as scripts
             and archive members as files into OUTPUT/converted/; each
             scanner then also runs on that directory, read-only, and its
             findings there are reported at the notebook or archive;
   check     once per scanner, concurrently: find its tool, open its
             results directory, decide its sandbox (policy and scope) and
             run its probes inside that scope;
   scan      run the scanners (in parallel, at most --max-workers or the
             number of CPUs at once, or one by one), each through spawn.c
             with its own timeout, results directory and scope;
   aggregate read each native output into SARIF, apply suppressions,
             count, hand the aggregated results to the outputs (which
             write ash_aggregated_results.json and the reports), print the
             summary and decide the exit code.

   The work done for each scanner is in job.c, the worker pool in pool.c,
   the per-run config directories in rundir.c.  Writing the aggregated
   results and the reports belongs to the report layer, above this one:
   the caller hands it in as struct ash_scan_outputs.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "config/config-schema.h"
#include "fs/outdir.h"
#include "fs/tree.h"
#include "proc/toolfind.h"
#include "sandbox/policy-input.h"
#include "scan/changed.h"
#include "scan/packed.h"
#include "scan/suppress.h"
#include "scan/dbphase.h"
#include "converters/phase.h"
#include "scan/exit-codes.h"
#include "scan/job.h"
#include "scan/orchestrator.h"
#include "scan/pool.h"
#include "scan/sarif.h"

static unsigned
worker_count (const struct ash_options *o)
{
  if (o->strategy == ASH_STRATEGY_SEQUENTIAL)
    return 1;
  if (o->max_workers > 0)
    return (unsigned) o->max_workers;
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned) n : 1;
}
/* Signals: a thread waits for SIGINT and SIGTERM (blocked everywhere
   else), ends every running scanner, and lets the scan write what it has.
   SIGUSR2 tells it to stop.  */
struct signal_arg
{
  sigset_t set;
  atomic_int *interrupted;
};

static void *
signal_thread (void *arg)
{
  struct signal_arg *sa = arg;
  for (;;)
    {
      int sig;
      if (sigwait (&sa->set, &sig) != 0)
        continue;
      if (sig == SIGUSR2)
        return NULL;
      if (atomic_load (sa->interrupted) == 0)
        atomic_store (sa->interrupted, sig);
      ash_spawn_terminate_all ();
    }
}

static void
check_one (void *ctx, void *item)
{
  ash_job_check (ctx, item);
}

static void
run_one (void *ctx, void *item)
{
  ash_job_run (ctx, item);
}
/* Start what backend B can make ahead for the scanners to run (the socket
   filter, built on a thread of its own), as soon as B is known, so that
   it is ready by the first spawn instead of being started when the first
   scanner's policy is decided: the check phase calls prepare() again with
   each policy, which starts nothing already started.  Only the network
   setting of each policy matters here, and it is computed as the policy
   will compute it.  */
static void
prepare_early (struct scan *sc, const struct ash_backend *b,
               const struct ash_probe *probe)
{
  bool done[2] = { false, false };

  if (!b->prepare)
    return;
  for (size_t k = 0; k < sc->n_jobs; k++)
    {
      struct job *j = &sc->jobs[k];
      struct ash_requirements req;
      struct ash_policy_place place = { .source_dir = sc->source_dir };
      struct ash_policy_input in;
      struct ash_policy pol;

      if (!j->run)
        continue;
      ash_requirements_init (&req);
      ash_scanner_requirements (j->scanner, &req);
      ash_policy_input_fill (&in, j->scanner->name, &req, &sc->ss, &sc->host,
                             &place, sc->opts->offline, probe);
      ash_policy_init (&pol);
      pol.network = ash_policy_network (&in);
      if (!done[pol.network])
        b->prepare (probe, &pol);
      done[pol.network] = true;
      ash_policy_release (&pol);
      ash_requirements_release (&req);
    }
}

/* The modules of --ash-plugin-modules, then those of the configuration
   that its tier lets load (plugin-tier.c): a config the scanned repository
   could have written names only installed modules outside the tree, never
   the reserved ones.  */
static int
load_plugins (struct scan *sc, struct ash_strvec *warnings,
              struct ash_error *err)
{
  return ash_plugin_load_configured (sc->config, sc->opts, sc->source_dir,
                                     sc->host.helper_dir, &sc->plugins,
                                     warnings, err);
}
static void
scan_release (struct scan *sc)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    ash_job_release (&sc->jobs[i]);
  free (sc->jobs);
  for (size_t i = 0; i < sc->n_unknown; i++)
    free (sc->unknown[i]);
  free (sc->unknown);
  ash_strvec_release (&sc->unknown_names);
  ash_outdir_release (&sc->od);
  free (sc->source_dir);
  free (sc->scan_set_file);
  /* The scan set's paths, borrowed: the array alone.  */
  if (sc->ignored_files.v != ash_strvec_empty)
    free (sc->ignored_files.v);
  if (sc->have_scanset)
    ash_scanset_release (&sc->scanset);
  ash_sandbox_settings_release (&sc->ss);
  for (size_t i = 0; i < 3; i++)
    free (sc->tier_storage[i]);
  ash_suppressions_release (&sc->sups);
  ash_plugin_set_release (&sc->plugins);
  ash_convert_phase_release (&sc->conv);
  ash_strvec_release (&sc->changed);
  ash_dbphase_release (sc);
  /* The packed results, once nothing is left to write them.  */
  ash_packed_forget_all ();
  pthread_mutex_destroy (&sc->lock);
  pthread_mutex_destroy (&sc->scanset_lock);
}

/* The edit distance of A and B (at most 64 characters each are looked
   at), for "did you mean".  */
static size_t
edit_distance (const char *a, const char *b)
{
  size_t la = strnlen (a, 64), lb = strnlen (b, 64);
  size_t prev[65], cur[65];
  for (size_t j = 0; j <= lb; j++)
    prev[j] = j;
  for (size_t i = 1; i <= la; i++)
    {
      cur[0] = i;
      for (size_t j = 1; j <= lb; j++)
        {
          size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
          size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
          cur[j]
            = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
      memcpy (prev, cur, (lb + 1) * sizeof *prev);
    }
  return prev[lb];
}

/* The closest of NAMES (N of them, or NULL-terminated when N is
   SIZE_MAX) to NAME, and its distance.  */
static const char *
closest (const char *const *names, size_t n, const char *name, size_t *ret_d)
{
  const char *best = NULL;
  size_t bd = (size_t) -1;
  for (size_t k = 0; k < n && names[k]; k++)
    {
      size_t d = edit_distance (name, names[k]);
      if (d < bd)
        bd = d, best = names[k];
    }
  *ret_d = bd;
  return best;
}

static char *
hint_for (const char *best, size_t bd, const char *name)
{
  if (best == NULL || bd > 3 || bd * 2 > strlen (name))
    return xstrdup ("");
  return xasprintf (_ ("; did you mean '%s'?"), best);
}

/* A name in --exclude-scanners that names no scanner (builtin or of a
   loaded plugin module) would let the scanner meant run: an error, with
   the closest name.  -EINVAL after saying so, or 0.  */
static int
check_excluded (const struct scan *sc)
{
  const struct ash_options *opts = sc->opts;
  size_t n = 0;
  for (; ash_builtin_scanners[n]; n++)
    ;
  const char **names
    = xreallocarray (NULL, n + sc->plugins.n + 1, sizeof *names);
  for (size_t i = 0; i < n; i++)
    names[i] = ash_builtin_scanners[i]->name;
  for (size_t i = 0; i < sc->plugins.n; i++)
    names[n + i] = sc->plugins.v[i]->scanner.name;
  n += sc->plugins.n;
  int r = 0;
  for (size_t i = 0; i < opts->exclude_scanners.nr && r == 0; i++)
    {
      const char *x = opts->exclude_scanners.v[i];
      size_t d;
      const char *best = closest (names, n, x, &d);
      if (d == 0)
        continue;
      _cleanup_free_ char *hint = hint_for (best, d, x);
      ash_err (_ ("--exclude-scanners names '%s', which is neither a builtin "
                  "scanner nor one a loaded plugin module defines%s"),
               x, hint);
      r = -EINVAL;
    }
  free (names);
  return r;
}

/* "; did you mean 'X'?" for the known scanner closest to NAME, or "".  */
static char *
did_you_mean (const struct scan *sc, size_t n_known, const char *name)
{
  const char *best = NULL;
  size_t bd = (size_t) -1;
  for (size_t k = 0; k < n_known; k++)
    {
      size_t d = edit_distance (name, sc->jobs[k].scanner->name);
      if (d < bd)
        bd = d, best = sc->jobs[k].scanner->name;
    }
  return hint_for (best, bd, name);
}

/* --changed-files-only: the files changed from the base revision, or a
   warning and every finding kept, as upstream does when git cannot
   tell.  */
static void
find_changed (struct scan *sc)
{
  struct ash_toolfind_opts to = {
    .path_env = getenv ("PATH"),
    .bin_path = sc->host.bin_path,
    .source_dir = sc->source_dir,
    .allow_in_tree_tools = false,
  };
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *git = NULL;
  int r = ash_toolfind ("git", &to, &git, &err);
  if (r == 0)
    r = ash_changed_files (git, sc->source_dir, sc->opts->base_ref,
                           &sc->changed, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_warning (_ ("--changed-files-only: %s; reporting the findings in "
                      "every file"),
                   m);
    }
  else
    {
      sc->have_changed = true;
      ash_info (_ ("--changed-files-only: %zu changed files"), sc->changed.nr);
    }
  ash_error_release (&err);
}

/* The convert phase: converters over the scan set, then, when they wrote
   anything, one more job per scanner to run on the converted files.  */
static void
convert (struct scan *sc)
{
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_close_ int srcfd
    = open (sc->source_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct ash_strvec none = ASH_STRVEC_INIT;
  struct ash_convert_input in = {
    .config = sc->config,
    .files = sc->have_scanset ? &sc->scanset.files : &none,
    .no_scanset = !sc->have_scanset,
    .srcfd = srcfd,
    .source_dir = sc->source_dir,
    .outfd = sc->od.fd,
    .output_dir = sc->od.path,
    .mode = sc->mode,
    .backends = sc->backends,
    .host = &sc->host,
    .ss = &sc->ss,
    .offline = sc->opts->offline,
    .workers = worker_count (sc->opts),
  };
  if (srcfd < 0 || ash_convert_phase_run (&in, &sc->conv, &err) < 0)
    {
      _cleanup_free_ char *m
        = srcfd < 0 ? xstrdup (strerror (errno)) : ash_error_format (&err);
      ash_err (_ ("the convert phase failed: %s"), m);
      sc->conv_failed = true;
    }
  ash_error_release (&err);
  if (sc->conv.n_converted == 0)
    return;
  size_t n = sc->n_jobs;
  for (size_t i = 0; i < n; i++)
    if (sc->jobs[i].run && !sc->jobs[i].converted)
      ash_job_add_converted (sc, i);
}

/* Fold each converted-files job into its scanner's row: its findings
   (already at the originals) join the scanner's, and its failure is the
   scanner's.  */
static void
merge_converted (struct scan *sc)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    {
      struct job *c = &sc->jobs[i];
      if (!c->converted)
        continue;
      struct ash_scanner_result *pr = &sc->jobs[c->parent].result;
      struct ash_scanner_result *cr = &c->result;
      bool parent_ok
        = pr->status == ASH_STATUS_PASSED || pr->status == ASH_STATUS_FAILED;
      if (cr->status == ASH_STATUS_ERROR || cr->status == ASH_STATUS_MISSING)
        {
          if (parent_ok)
            {
              free (pr->reason);
              pr->reason = xasprintf (_ ("on the converted files: %s"),
                                      cr->reason ? cr->reason : "");
              pr->status = cr->status;
            }
          continue;
        }
      if (cr->sarif && pr->sarif && parent_ok)
        {
          ash_sarif_merge (pr->sarif, cr->sarif);
          ash_scanner_result_count (pr,
                                    ash_job_threshold (sc,
                                                       &sc->jobs[c->parent]));
        }
      pr->duration += cr->duration;
    }
}

static int
attach_logs (struct scan *sc, struct ash_error *err)
{
  int hfd = -1, jfd = -1;
  int r = ash_tree_open_stream (sc->od.fd, "ash.log", true, &hfd, err);
  if (r == 0)
    r = ash_tree_open_stream (sc->od.fd, "ash.log.jsonl", true, &jfd, err);
  if (r < 0)
    {
      if (hfd >= 0)
        ash_close (hfd);
      return r;
    }
  ash_log_attach (hfd, jfd);
  return 0;
}

static int
build_scanset_1 (struct scan *sc, struct ash_error *err)
{
  _cleanup_close_ int srcfd
    = open (sc->source_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const json_t *ign
    = ash_config_get (sc->config, "global_settings.ignore_paths");
  struct ash_ignore_path *ip = NULL;
  size_t n = 0, i;
  json_t *e;
  int r;

  if (srcfd < 0)
    return ash_error_set (err, -errno, _ ("cannot open %s: %s"),
                          sc->source_dir, strerror (errno));
  json_array_foreach ((json_t *) ign, i, e)
    {
      const char *p = json_is_string (e)
                        ? json_string_value (e)
                        : json_string_value (json_object_get (e, "path"));
      if (p == NULL)
        continue;
      ip = xreallocarray (ip, n + 1, sizeof *ip);
      ip[n].path = p;
      ip[n].reason = json_string_value (json_object_get (e, "reason"));
      n++;
    }
  const json_t *mfs
    = ash_config_get (sc->config, "global_settings.max_file_size");
  struct ash_scanset_opts so = {
    .output_dir = sc->od.path,
    .ignore_paths = ip,
    .n_ignore_paths = n,
    .max_file_size = json_is_integer (mfs)
                       ? (unsigned long long) json_integer_value (mfs)
                       : 0,
  };
  struct ash_scanset init = ASH_SCANSET_INIT;
  sc->scanset = init;
  r = ash_scanset_build (srcfd, sc->source_dir, &so, &sc->scanset, err);
  free (ip);
  if (r < 0)
    return r;
  sc->have_scanset = true;
  ash_log_many (ASH_LOG_WARNING, sc->scanset.warnings.v,
                sc->scanset.warnings.nr);
  r = ash_scanset_write_reports (&sc->scanset, sc->od.fd, err);
  if (r < 0)
    return r;
  sc->scan_set_file
    = xasprintf ("%s/ash-scan-set-files-list.txt", sc->od.path);
  /* What was walked and left out: findings there do not count.  The
     paths are the scan set's, which lives as long as SC (the list's own
     array is freed alone), and come mostly sorted.  */
  size_t nu = sc->scanset.unlisted.nr;
  sc->ignored_files.v
    = xreallocarray (NULL, nu + 1, sizeof *sc->ignored_files.v);
  memcpy (sc->ignored_files.v, sc->scanset.unlisted.v,
          nu * sizeof *sc->ignored_files.v);
  sc->ignored_files.v[nu] = NULL;
  sc->ignored_files.nr = sc->ignored_files.alloc = nu;
  ash_strvec_sort (&sc->ignored_files);
  return 0;
}

int
ash_scan_scanset_ensure (struct scan *sc, struct ash_error *err)
{
  int r = 0;
  pthread_mutex_lock (&sc->scanset_lock);
  if (!sc->have_scanset)
    {
      if (sc->scanset_failed)
        r = ash_error_set (err, -EIO, "%s", _ ("it failed before"));
      else if ((r = build_scanset_1 (sc, err)) < 0)
        sc->scanset_failed = true;
    }
  pthread_mutex_unlock (&sc->scanset_lock);
  return r;
}

/* Does this scan need the scan set before its scanners run?  Only when a
   scanner that is to run is handed the tree: every builtin scanner (it
   walks the directory with exclusions built from the scan set, or reads
   the scan-set list), and a plugin scanner given {target} or {scan_set}.
   The converters read it too, but what they write is only scanned by
   those.  A plugin scanner given neither that reports findings gets it
   afterwards (ash_scan_scanset_ensure), so that its findings in ignored
   files are dropped all the same.  */
static bool
scanset_needed (const struct scan *sc)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    if (sc->jobs[i].run && ash_plugin_reads_tree (sc->jobs[i].scanner))
      return true;
  return false;
}
static char *
iso_now (void)
{
  char buf[32];
  time_t t = time (NULL);
  struct tm tm;
  gmtime_r (&t, &tm);
  strftime (buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return xstrdup (buf);
}

/* external_reports_to_include: SARIF logs other tools wrote, read from
   below the scanned directory (a path outside it is refused: a
   repository's configuration must not copy a file of the host into the
   reports), merged as the results of one row, external-reports, with the
   suppressions and the threshold applied like a scanner's.  A report that
   cannot be read or is not SARIF makes the row ERROR naming it.  */
static bool
external_reports (struct scan *sc, struct ash_scanner_result *ext)
{
  const json_t *list
    = ash_config_get (sc->config, "external_reports_to_include");
  if (json_array_size (list) == 0)
    return false;
  ash_scanner_result_init (ext, "external-reports");
  ext->status = ASH_STATUS_PASSED;
  ext->dependencies_satisfied = true;
  ext->sarif = ash_sarif_doc_new ();
  _cleanup_close_ int srcfd
    = open (sc->source_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct ash_buf why = ASH_BUF_INIT;
  size_t i;
  json_t *e;
  double t0 = ash_now ();
  json_array_foreach ((json_t *) list, i, e)
    {
      const char *path = json_string_value (e);
      _cleanup_free_ char *rel = NULL;
      if (path == NULL)
        continue;
      if (path[0] == '/')
        {
          _cleanup_free_ char *n = ash_path_normalize (path);
          size_t l = strlen (sc->source_dir);
          if (strncmp (n, sc->source_dir, l) == 0 && n[l] == '/')
            rel = xstrdup (n + l + 1);
        }
      else
        rel = ash_path_normalize (path);
      if (rel == NULL || rel[0] == '/' || streq (rel, "..")
          || ash_str_has_prefix (rel, "../"))
        {
          ash_buf_addf (&why, "%s%s: %s", why.len ? "; " : "", path,
                        _ ("outside the scanned directory"));
          continue;
        }
      struct ash_buf text = ASH_BUF_INIT;
      struct ash_error err = ASH_ERROR_INIT;
      json_t *doc = NULL;
      if (ash_tree_read_file (srcfd, rel, ash_job_document_max (sc), &text,
                              &err)
            < 0
          || ash_sarif_parse (text.buf, text.len, &doc, &err) < 0)
        ash_buf_addf (&why, "%s%s: %s", why.len ? "; " : "", path,
                      err.message);
      else
        {
          ash_sarif_tag (doc, "external-reports");
          if (!sc->opts->ignore_suppressions)
            ash_suppress_doc (doc, &sc->sups, sc->source_dir, 64 << 20);
          if (sc->have_changed)
            ash_changed_filter_doc (doc, &sc->changed);
          ash_sarif_merge (ext->sarif, doc);
          json_decref (doc);
        }
      ash_buf_release (&text);
      ash_error_release (&err);
    }
  ash_scanner_result_count (ext, sc->threshold);
  ash_sarif_pack (ext->sarif);
  ext->duration = ash_now () - t0;
  if (why.len)
    {
      ext->status = ASH_STATUS_ERROR;
      ext->reason = xasprintf (_ ("external_reports_to_include: %s"), why.buf);
      ash_err ("%s", ext->reason);
    }
  ash_buf_release (&why);
  return true;
}

/* --use-existing (or --phases report): no scanner runs; the reports are
   written again from the output directory's ash_aggregated_results.json
   and the exit code is the one that scan recorded.  */
static int
rerender (const struct ash_options *opts, const struct ash_config *config,
          const struct ash_scan_outputs *outputs)
{
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_outdir_ struct ash_outdir od = ASH_OUTDIR_INIT;
  _cleanup_free_ char *src = ash_path_absolute (opts->source_dir);
  _cleanup_free_ char *placed = NULL, *warning = NULL;
  _cleanup_json_ json_t *agg = NULL;

  if (ash_outdir_place (opts->output_dir, src, &placed, &warning, &err) < 0
      || ash_outdir_open (placed, src, &od, &err) < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      return ASH_EXIT_CONFIG;
    }
  if (warning)
    ash_warning ("%s", warning);
  /* Read a chunk at a time, its results packed as they are parsed: the
     document is never its text and a tree of all its results.  */
  json_error_t je;
  int r = ash_json_load_file_packed (od.fd, "ash_aggregated_results.json",
                                     (size_t) 1 << 30, JSON_REJECT_DUPLICATES,
                                     "sarif", &agg, &je, &err);
  if (r < 0 && r != -EINVAL)
    {
      ash_err (_ ("--use-existing: no results of an earlier scan to report: "
                  "%s"),
               err.message);
      return ASH_EXIT_INCOMPLETE;
    }
  if (!json_is_object (agg)
      || !json_is_object (json_object_get (agg, "metadata"))
      || !json_is_object (json_object_get (agg, "scanner_results")))
    {
      ash_err (_ ("--use-existing: %s/ash_aggregated_results.json is not "
                  "ash's aggregated results%s%s"),
               od.path, agg ? "" : ": ", agg ? "" : je.text);
      return ASH_EXIT_INCOMPLETE;
    }
  ash_info (_ ("writing the reports of %s/ash_aggregated_results.json"),
            od.path);
  if (outputs->write (od.fd, agg, opts, config, &err) < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err (_ ("cannot write the results: %s"), m);
      return ASH_EXIT_INCOMPLETE;
    }
  json_t *ec
    = json_object_get (json_object_get (agg, "metadata"), "exit_code");
  int code = json_is_integer (ec) && json_integer_value (ec) >= 0
                 && json_integer_value (ec) <= 2
               ? (int) json_integer_value (ec)
               : ASH_EXIT_OK;
  if (!opts->quiet && opts->show_summary != 0)
    {
      _cleanup_free_ char *reports = xasprintf ("%s/reports", od.path);
      _cleanup_free_ char *table = outputs->summary (agg, reports);
      fputs ("\n", stdout);
      fputs (table, stdout);
      fflush (stdout);
    }
  return code;
}

/* The prepare phase: 0 when the scan goes on, else the exit code that
   ends it.  */
static int
scan_prepare (struct scan *sc)
{
  const struct ash_options *opts = sc->opts;
  const struct ash_config *config = sc->config;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *out_default = NULL;
  _cleanup_free_ char *placed_warning = NULL;
  _cleanup_free_ char *default_out = NULL;
  _cleanup_strvec_ struct ash_strvec plugin_warnings = ASH_STRVEC_INIT;
  int r;

  {
    _cleanup_free_ char *cwd = getcwd (NULL, 0);
    const char *src = opts->source_dir ? opts->source_dir : cwd;
    if (src == NULL)
      {
        ash_err (_ ("cannot find the working directory: %s"),
                 strerror (errno));
        return ASH_EXIT_INCOMPLETE;
      }
    sc->source_dir = ash_path_absolute (src);
    ash_tier_context_fill (&sc->tier, sc->source_dir, sc->tier_storage);
  }
  ash_host_init (&sc->host, opts);
  if (opts->allow_in_tree_tools)
    sc->host.allow_in_tree_tools = true;
  /* The plugin modules are loaded, and --exclude-scanners checked against
     every scanner they and the builtins define, before the output
     directory is touched: a mistake on the command line must not cost the
     last scan's results.  Their warnings are shown once the log is
     open.  */
  r = load_plugins (sc, &plugin_warnings, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      return ASH_EXIT_CONFIG;
    }
  if (check_excluded (sc) < 0)
    return ASH_EXIT_USAGE;
  /* Where the output may go: never /, a home, an ancestor of the tree or
     a directory inside it but the upstream default; the source directory
     itself is redirected to the default.  */
  r = ash_outdir_place (opts->output_dir, sc->source_dir, &out_default,
                        &placed_warning, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      return ASH_EXIT_CONFIG;
    }
  if (placed_warning)
    ash_warning ("%s", placed_warning);
  const char *output_dir = out_default;
  default_out = ash_path_join (sc->source_dir, ".ash/ash_output");

  /* The output directory, opened once; a link there is a refusal that
     stops the scan before anything is written (exit 3).  */
  r = ash_outdir_open (output_dir, sc->source_dir, &sc->od, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      return (err.kind == ASH_KIND_OUTPUT_DIR_LINK
              || err.kind == ASH_KIND_OUTPUT_DIR_UNSAFE)
               ? ASH_EXIT_CONFIG
               : ASH_EXIT_INCOMPLETE;
    }
  /* Results of an earlier scan must not be mistaken for this one's; ash
     removes only what a run of its own wrote (the manifest), and refuses
     a directory it did not create that holds these names.  */
  static const char *const stale[]
    = { "scanners", "reports", "ash_aggregated_results.json", NULL };
  {
    _cleanup_free_ char *nd = ash_path_normalize (default_out);
    if (ash_outdir_claim (&sc->od, streq (sc->od.path, nd), stale, &err) < 0)
      {
        _cleanup_free_ char *m = ash_error_format (&err);
        ash_err ("%s", m);
        return (err.kind == ASH_KIND_OUTPUT_LINK
                || err.kind == ASH_KIND_OUTPUT_DIR_LINK
                || err.kind == ASH_KIND_OUTPUT_DIR_REFUSED)
                 ? ASH_EXIT_CONFIG
                 : ASH_EXIT_INCOMPLETE;
      }
  }
  r = attach_logs (sc, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      return ASH_EXIT_CONFIG;
    }
  ash_info (_ ("scanning %s into %s"), sc->source_dir, sc->od.path);

  /* Settings.  */
  {
    const char *t
      = ash_config_get_string (config, "global_settings.severity_threshold");
    sc->threshold = ASH_SEVERITY_MEDIUM;
    if (opts->min_severity)
      t = opts->min_severity;
    if (t && ash_severity_parse (t, &sc->threshold) < 0)
      ash_warning (_ ("unknown severity_threshold '%s'; using MEDIUM"), t);
  }
  {
    char today[11];
    _cleanup_strvec_ struct ash_strvec warnings = ASH_STRVEC_INIT;
    ash_suppress_today (today);
    r = ash_suppressions_load (ash_config_get (config,
                                               "global_settings.suppressions"),
                               today, &sc->sups, &warnings, &err);
    for (size_t i = 0; i < warnings.nr; i++)
      ash_warning ("%s", warnings.v[i]);
    if (r < 0)
      {
        ash_err ("%s", err.message);
        return ASH_EXIT_CONFIG;
      }
  }
  {
    _cleanup_strvec_ struct ash_strvec w = ASH_STRVEC_INIT;
    ash_config_misplaced (config->root, &w);
    for (size_t i = 0; i < w.nr; i++)
      ash_warning ("%s", w.v[i]);
  }
  r = ash_sandbox_settings_resolve (opts, config, &sc->ss, &err);
  if (r < 0)
    {
      ash_err ("%s", err.message);
      return ASH_EXIT_CONFIG;
    }
  for (size_t i = 0; i < sc->ss.warnings.nr; i++)
    ash_warning ("%s", sc->ss.warnings.v[i]);
  /* The options of each builtin scanner that checks its own: an option
     ash does not support is a configuration error naming it.  */
  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    {
      const struct ash_scanner *bs = ash_builtin_scanners[i];
      _cleanup_free_ char *k = xasprintf ("scanners.%s.options", bs->name);
      if (bs->check_options
          && bs->check_options (ash_config_get (config, k), &err) < 0)
        {
          ash_err ("%s", err.message);
          return ASH_EXIT_CONFIG;
        }
    }
  /* And those of each plugin scanner a builtin adapter serves
     (trivy-repo).  */
  for (size_t i = 0; i < sc->plugins.n; i++)
    {
      const struct ash_scanner *ps = &sc->plugins.v[i]->scanner;
      _cleanup_free_ char *k = xasprintf ("scanners.%s.options", ps->name);
      if (ps->check_options
          && ps->check_options (ash_config_get (config, k), &err) < 0)
        {
          ash_err ("%s", err.message);
          return ASH_EXIT_CONFIG;
        }
    }
  sc->mode = sc->ss.mode ? sc->ss.mode : "off";
  for (size_t i = 0; i < plugin_warnings.nr; i++)
    ash_warning ("%s", plugin_warnings.v[i]);

  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    ash_job_add (sc, ash_builtin_scanners[i]);
  for (size_t i = 0; i < sc->plugins.n; i++)
    ash_job_add (sc, &sc->plugins.v[i]->scanner);
  /* The scan set, with its warnings (links that leave the tree, special
     and large files), when a scanner that runs is handed the tree;
     otherwise the lists an earlier scan wrote are removed, so that they
     are not taken for this one's.  */
  if (scanset_needed (sc))
    r = ash_scan_scanset_ensure (sc, &err);
  else
    {
      ash_info ("%s", _ ("the scan set is not built: no scanner of this "
                         "scan is handed the source directory"));
      r = ash_tree_remove_all (sc->od.fd, "ash-scan-set-files-list.txt", &err);
      if (r == 0)
        r = ash_tree_remove_all (sc->od.fd, "ash-ignore-report.txt", &err);
    }
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err (_ ("cannot build the scan set: %s"), m);
      return ASH_EXIT_INCOMPLETE;
    }
  /* A scanner asked for by name that does not exist is not silently
     dropped: it is a MISSING row, so the scan is incomplete.  */
  size_t n_known = sc->n_jobs;
  for (size_t i = 0; i < opts->scanners.nr; i++)
    {
      bool known = false;
      for (size_t k = 0; k < n_known; k++)
        known |= streq (sc->jobs[k].scanner->name, opts->scanners.v[i]);
      if (known)
        continue;
      struct ash_scanner *u = xzalloc (sizeof *u);
      u->name = ash_strvec_push (&sc->unknown_names, opts->scanners.v[i]);
      u->tool = u->name;
      u->install_hint = "";
      sc->unknown
        = xreallocarray (sc->unknown, sc->n_unknown + 1, sizeof *sc->unknown);
      sc->unknown[sc->n_unknown++] = u;
      ash_job_add (sc, u);
      struct job *j = &sc->jobs[sc->n_jobs - 1];
      ash_job_set_status (
        j, ASH_STATUS_MISSING,
        xasprintf (_ ("--scanners names '%s', which is neither a "
                      "builtin scanner nor one a loaded plugin "
                      "module defines"),
                   u->name));
      _cleanup_free_ char *hint = did_you_mean (sc, n_known, u->name);
      if (*hint)
        ash_err (_ ("%s not run: %s%s"), u->name, j->result.reason, hint);
      else
        ash_err (_ ("%s not run: %s"), u->name, j->result.reason);
    }
  if (opts->changed_files_only)
    find_changed (sc);

  if (!streq (sc->mode, "off"))
    {
      /* Grants follow a scanner's own name: a section that renames its
         scanner leaves that scanner MISSING under a sandbox.  */
      _cleanup_strvec_ struct ash_strvec names = ASH_STRVEC_INIT;
      _cleanup_strvec_ struct ash_strvec reasons = ASH_STRVEC_INIT;
      ash_config_renamed_scanners (config, &names, &reasons);
      for (size_t i = 0; i < names.nr; i++)
        for (size_t k = 0; k < sc->n_jobs; k++)
          {
            struct job *j = &sc->jobs[k];
            if (!j->run || !streq (j->scanner->name, names.v[i]))
              continue;
            ash_job_set_status (j, ASH_STATUS_MISSING, xstrdup (reasons.v[i]));
            ash_err (_ ("%s not run: %s"), j->scanner->name, j->result.reason);
          }

      /* What the backend's probe had to say (no cache overlays, the
         Landlock ABI and what it lacks), once.  */
      bool any = false;
      for (size_t k = 0; k < sc->n_jobs; k++)
        any |= sc->jobs[k].run;
      if (any && !sc->platform_note)
        {
          const struct ash_probe *probe = NULL;
          const struct ash_backend *b
            = ash_backend_select (sc->mode, sc->backends, &sc->host, &probe,
                                  NULL);
          if (b && probe && ash_probe_notes (probe))
            ash_info (_ ("sandbox %s: %s"), b->name, ash_probe_notes (probe));
          if (b && probe && ash_probe_usable (probe))
            prepare_early (sc, b, probe);
        }
    }
  return 0;
}

/* The phases after prepare, to the exit code.  */
static int
scan_execute (struct scan *sc, const struct ash_scan_outputs *outputs,
              const char *generated_at)
{
  const struct ash_options *opts = sc->opts;
  const struct ash_config *config = sc->config;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  struct signal_arg sa;
  sigset_t oldsigs;
  pthread_t sigthread;
  bool sigthread_started;
  struct ash_scanner_result ext;
  bool have_ext;
  int r, code;

  /* From here on an interrupt ends the running scanners and the scan
     still writes what it gathered.  */
  sigemptyset (&sa.set);
  sigaddset (&sa.set, SIGINT);
  sigaddset (&sa.set, SIGTERM);
  sigaddset (&sa.set, SIGUSR2);
  sa.interrupted = &sc->interrupted;
  pthread_sigmask (SIG_BLOCK, &sa.set, &oldsigs);
  sigthread_started
    = pthread_create (&sigthread, NULL, signal_thread, &sa) == 0;

  sc->progress = ash_progress_start (ash_progress_choose (opts->progress,
                                                          opts->progress_ci
                                                            || getenv ("CI"),
                                                          opts->quiet, stderr),
                                     stderr);

  if (!opts->skip_convert)
    convert (sc);

  struct job **todo = xcalloc (sc->n_jobs + 1, sizeof *todo);
  size_t n_todo = 0;
  for (size_t i = 0; i < sc->n_jobs; i++)
    if (sc->jobs[i].run)
      todo[n_todo++] = &sc->jobs[i];
  unsigned workers = worker_count (opts);
  /* Dependency checks, once per scanner, concurrently.  */
  ash_pool_run ((void *const *) todo, n_todo,
                n_todo > 0 ? (unsigned) n_todo : 1, check_one, sc);
  /* grype's and trivy's databases, outside the sandbox (dbphase.c).  */
  ash_dbphase_update (sc);
  size_t n_run = 0;
  for (size_t i = 0; i < n_todo; i++)
    if (todo[i]->run)
      todo[n_run++] = todo[i];
  ash_pool_run ((void *const *) todo, n_run, workers, run_one, sc);
  free (todo);
  ash_dbphase_check (sc);

  ash_progress_stop (sc->progress);
  sc->progress = NULL;

  int sig = atomic_load (&sc->interrupted);
  for (size_t i = 0; i < sc->n_jobs; i++)
    if (sc->jobs[i].run && sig)
      ash_job_set_status (&sc->jobs[i], ASH_STATUS_ERROR,
                          xstrdup (_ ("interrupted")));
  /* The second sweep: whatever a scanner left behind that a later write
     could follow.  */
  for (size_t i = 0; i < sc->n_jobs; i++)
    if (sc->jobs[i].sandboxed)
      {
        ash_job_sweep (sc, sc->od.fd, "scanners");
        break;
      }

  /* Aggregate.  */
  for (size_t i = 0; i < sc->n_jobs; i++)
    ash_job_sandbox_record (&sc->jobs[i]);
  merge_converted (sc);
  have_ext = !sig && external_reports (sc, &ext);
  {
    struct ash_scanner_result **rs = xcalloc (sc->n_jobs + 2, sizeof *rs);
    size_t n_rs = 0;
    for (size_t i = 0; i < sc->n_jobs; i++)
      if (!sc->jobs[i].converted)
        rs[n_rs++] = &sc->jobs[i].result;
    if (have_ext)
      rs[n_rs++] = &ext;
    json_t *conv_results = ash_convert_phase_json (&sc->conv);
    const char *project = ash_config_get_string (config, "project_name");
    _cleanup_free_ char *ended_at = iso_now ();
    struct ash_scan_summary sum = {
      .project_name = project ? project : "",
      .source_dir = sc->source_dir,
      .output_dir = sc->od.path,
      .generated_at = generated_at,
      .ended_at = ended_at,
      .sandbox_mode = sc->mode,
      .threshold = sc->threshold,
      .fail_on_findings
      = opts->fail_on_findings >= 0
          ? opts->fail_on_findings > 0
          : ash_config_get_bool (config, "fail_on_findings", true),
      .fail_on_incomplete
      = ash_config_get_bool (config, "fail_on_incomplete_scanners", true),
      .interrupted = sig != 0,
      .converter_results = conv_results,
      .converters_incomplete
      = sc->conv_failed || ash_convert_phase_incomplete (&sc->conv),
    };
    json_t *agg = ash_results_aggregate (&sum, rs, n_rs);
    code = ash_results_exit_code (rs, n_rs, sum.fail_on_findings,
                                  sum.fail_on_incomplete);
    if (sum.converters_incomplete && sum.fail_on_incomplete)
      code = ASH_EXIT_INCOMPLETE;
    json_decref (conv_results);
    free (rs);
    r = outputs->write (sc->od.fd, agg, opts, config, &err);
    if (r < 0)
      {
        _cleanup_free_ char *m = ash_error_format (&err);
        ash_err (_ ("cannot write the results: %s"), m);
        code = (err.kind == ASH_KIND_OUTPUT_LINK
                || err.kind == ASH_KIND_OUTPUT_HARD_LINK)
                 ? ASH_EXIT_CONFIG
                 : ASH_EXIT_INCOMPLETE;
      }
    if (opts->cleanup)
      {
        struct ash_error ce = ASH_ERROR_INIT;
        if (ash_tree_remove_all (sc->od.fd, "converted", &ce) < 0)
          ash_warning (_ ("--cleanup: cannot remove %s/converted: %s"),
                       sc->od.path, ce.message);
        ash_error_release (&ce);
      }
    if (!opts->quiet && opts->show_summary != 0)
      {
        _cleanup_free_ char *reports = xasprintf ("%s/reports", sc->od.path);
        _cleanup_free_ char *table = outputs->summary (agg, reports);
        fputs ("\n", stdout);
        fputs (table, stdout);
        fflush (stdout);
      }
    json_decref (agg);
  }
  if (sig)
    {
      ash_err (_ ("the scan was interrupted"));
      code = 128 + sig;
    }
  /* The scanners' private directories, removed in the background while
     the results were written, are gone before the scan is said to be
     over.  */
  for (size_t i = 0; sc->backends && sc->backends[i]; i++)
    if (sc->backends[i]->finish)
      sc->backends[i]->finish ();
  ash_info (_ ("ash scan finished with exit code %d"), code);

  if (sigthread_started)
    {
      pthread_kill (sigthread, SIGUSR2);
      pthread_join (sigthread, NULL);
    }
  pthread_sigmask (SIG_SETMASK, &oldsigs, NULL);
  ash_progress_stop (sc->progress);
  sc->progress = NULL;
  if (have_ext)
    ash_scanner_result_release (&ext);
  return code;
}

/* The whole scan but for --use-existing; the log stays open for the
   caller to close.  */
static int
scan_all (const struct ash_options *opts, const struct ash_config *config,
          const struct ash_backend *const *backends,
          const struct ash_scan_outputs *outputs)
{
  _cleanup_free_ char *generated_at = iso_now ();
  _cleanup_ (scan_release) struct scan sc;

  memset (&sc, 0, sizeof sc);
  sc.db_lock_fds[0] = sc.db_lock_fds[1] = -1;
  sc.opts = opts;
  sc.config = config;
  sc.backends = backends;
  sc.platform_note = ash_backend_none_reason (backends);
  sc.od = (struct ash_outdir) ASH_OUTDIR_INIT;
  ash_strvec_init (&sc.unknown_names);
  ash_sandbox_settings_init (&sc.ss);
  ash_suppressions_init (&sc.sups);
  ash_plugin_set_init (&sc.plugins);
  ash_convert_phase_init (&sc.conv);
  pthread_mutex_init (&sc.lock, NULL);
  pthread_mutex_init (&sc.scanset_lock, NULL);
  atomic_store (&sc.interrupted, 0);

  int code = scan_prepare (&sc);
  if (code)
    return code;
  return scan_execute (&sc, outputs, generated_at);
}

int
ash_scan_run (const struct ash_options *opts, const struct ash_config *config,
              const struct ash_backend *const *backends,
              const struct ash_scan_outputs *outputs)
{
  int code = opts->use_existing ? rerender (opts, config, outputs)
                                : scan_all (opts, config, backends, outputs);
  /* The results the reports were written from, kept as text.  */
  ash_packed_forget_all ();
  ash_log_close ();
  return code;
}
