/* SPDX-License-Identifier: Apache-2.0 */
/* job.c -- one scanner's part of a scan: its checks, its sandbox, its
   run, and the reading of its output.

   The sandbox seams.  When the sandbox mode is not off, every scanner gets
   a scope before anything of its runs: sandbox_decide() selects the
   backend (probed once per process, cached by ash_backend_select()),
   computes the scanner's policy from its requirements and the settings
   (ash_policy_input_fill(), shared with `ash sandbox explain`, then
   ash_policy_compute()), and builds a sandboxing scope, or leaves the
   scanner MISSING (no usable backend: "scanner sandbox unavailable: ...")
   or ERROR (the policy refuses: "NAME cannot be sandboxed as requested:
   ...").  The scope goes to the probes of the check phase and to the scan
   itself; ash_sandbox_run() hands it to the backend's wrap().  After each
   sandboxed spawn, and again after the scan, the results directories are
   swept.  Nothing falls back to running unsandboxed.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "proc/cgroup.h"
#include "proc/toolfind.h"
#include "sandbox/policy-input.h"
#include "scanners/adapter.h"
#include "scan/changed.h"
#include "scan/job.h"
#include "scan/suppress.h"
#include "scan/packed.h"
#include "scan/plugins.h"
#include "scan/rundir.h"

extern char **environ;

#define DEFAULT_SCAN_TIMEOUT 1800

/* Remove J's run directory, with a warning when that fails.  */
static void
remove_run_config_dir (struct job *j)
{
  struct ash_error err = ASH_ERROR_INIT;
  if (ash_rundir_remove (&j->run_config_dir, &err) < 0)
    ash_warning ("%s", err.message);
  ash_error_release (&err);
}

/* Config helpers.  */

static const json_t *
scanner_options (const struct ash_config *c, const char *name)
{
  _cleanup_free_ char *k = xasprintf ("scanners.%s.options", name);
  const json_t *o = ash_config_get (c, k);
  return json_is_object (o) ? o : NULL;
}

static bool
scanner_enabled (const struct ash_config *c, const char *name)
{
  _cleanup_free_ char *k = xasprintf ("scanners.%s.enabled", name);
  return ash_config_get_bool (c, k, true);
}

static unsigned
scan_timeout (const json_t *options)
{
  json_t *t = json_object_get (options, "scan_timeout");
  if (json_is_integer (t) && json_integer_value (t) > 0)
    return (unsigned) json_integer_value (t);
  if (json_is_real (t) && json_real_value (t) >= 1)
    return (unsigned) json_real_value (t);
  return DEFAULT_SCAN_TIMEOUT;
}
static const char *
signal_name (int sig)
{
  switch (sig)
    {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGBUS:
      return "SIGBUS";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGSYS:
      return "SIGSYS";
    case SIGHUP:
      return "SIGHUP";
    case SIGXFSZ:
      return "SIGXFSZ";
    default:
      return "a signal";
    }
}

/* Does the SARIF log DOC hold a result in any run?  */
static bool
has_results (const json_t *doc)
{
  size_t i;
  json_t *run;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    if (json_array_size (json_object_get (run, "results")) > 0)
      return true;
  return false;
}

/* What a scanner's results go through one at a time while its SARIF
   log is parsed (ash_sarif_parse_file_sink), so that the log is never a
   tree of all of them: the steps ash_job_run applies to a whole log
   (tag, the converted files' mapping, the suppressions, the ignored
   files and --changed-files-only), then the result kept as its text
   (packed.h) in the store of its run.  The steps run on a log of the
   one result, ONE, so that each is the function a whole log gets.  */
struct job_sink
{
  struct scan *sc;
  struct job *j;
  json_t *name;        /* the scanner's name, shared by its results */
  json_t *one;         /* {"runs": [{"results": [RESULT]}]} */
  json_t *one_results; /* its array */
  struct ash_suppress_session *sups;
  struct ash_packed_runs stores;
  bool used;   /* the parse went through the sink */
  bool any;    /* a result was given */
  bool no_set; /* the scan set could not be built */
  struct ash_error set_err;
  size_t dropped; /* in ignored files */
};

static void
job_sink_clear (struct job_sink *k)
{
  ash_packed_runs_clear (&k->stores);
  ash_suppress_end (k->sups, false);
  k->sups = NULL;
  k->any = k->no_set = false;
  k->dropped = 0;
  ash_error_release (&k->set_err);
}

static void
job_sink_reset (void *arg)
{
  struct job_sink *k = arg;
  job_sink_clear (k);
  k->used = true;
  if (!k->sc->opts->ignore_suppressions)
    k->sups = ash_suppress_begin (&k->sc->sups, k->sc->source_dir, 64 << 20);
}

static void
job_sink_result (json_t *res, size_t run, void *arg)
{
  struct job_sink *k = arg;
  struct scan *sc = k->sc;
  json_array_append_new (k->one_results, res);
  ash_sarif_tag_result (res, k->name);
  if (k->j->converted)
    ash_converters_map_sarif (k->one, sc->conv.map, sc->conv.workfd);
  if (k->sups)
    ash_suppress_result (k->sups, res);
  if (!k->any)
    {
      /* As for a whole log: the scan set is built once there is a
         finding to drop or keep.  */
      k->any = true;
      k->no_set = ash_scan_scanset_ensure (sc, &k->set_err) < 0;
    }
  if (!k->no_set && sc->ignored_files.nr)
    k->dropped += ash_paths_drop_doc (k->one, &sc->ignored_files);
  if (sc->have_changed)
    ash_changed_filter_doc (k->one, &sc->changed);
  if (json_array_size (k->one_results) == 1)
    ash_packed_runs_add (&k->stores, run, res);
  json_array_clear (k->one_results);
}

static void
job_sink_init (struct job_sink *k, struct scan *sc, struct job *j)
{
  memset (k, 0, sizeof *k);
  k->sc = sc;
  k->j = j;
  k->name = json_string (j->scanner->name);
  k->one_results = json_array ();
  k->one = json_pack ("{s:[{s:O}]}", "runs", "results", k->one_results);
  k->set_err = (struct ash_error) ASH_ERROR_INIT;
}

static void
job_sink_release (struct job_sink *k)
{
  k->j->sj.sink = NULL;
  job_sink_clear (k);
  json_decref (k->one);
  json_decref (k->one_results);
  json_decref (k->name);
}

/* After a parse through K that succeeded: each run's results, packed,
   given to DOC's runs (whose arrays the parse left empty), and the
   steps of a whole log that concern the runs.  */
static void
job_sink_finish (struct job_sink *k, json_t *doc)
{
  const char *name = k->j->scanner->name;
  ash_packed_runs_attach (&k->stores, json_object_get (doc, "runs"));
  ash_sarif_tag (doc, name);
  ash_suppress_end (k->sups, true);
  k->sups = NULL;
  if (k->dropped)
    ash_debug ("%s: %zu findings in ignored files dropped", name, k->dropped);
}

/* The last non-empty line of the scanner's stderr log, to add to a
   reason, or NULL.  */
static char *
stderr_tail (struct job *j)
{
  _cleanup_free_ char *rel = xasprintf ("%s.stderr.log", j->scanner->name);
  struct ash_buf b = ASH_BUF_INIT;
  char *ret = NULL;

  if (ash_tree_read_file (j->results_fd, rel, 1 << 20, &b, NULL) == 0)
    {
      while (b.len > 0
             && (b.buf[b.len - 1] == '\n' || b.buf[b.len - 1] == ' '
                 || b.buf[b.len - 1] == '\r'))
        b.buf[--b.len] = '\0';
      const char *nl = strrchr (b.buf, '\n');
      const char *line = nl ? nl + 1 : b.buf;
      if (*line)
        ret = xstrndup (line, 300);
    }
  ash_buf_release (&b);
  return ret;
}

void
ash_job_set_status (struct job *j, enum ash_scanner_status st, char *reason)
{
  free (j->result.reason);
  j->result.reason = reason;
  j->result.status = st;
  j->run = false;
}
/* The private caches of a sandboxed spawn (policy.private_caches, NAME=DIR
   below the results directory): made before the spawn, removed after.  */
static char *
private_cache_rel (const struct job *j, const char *kv)
{
  const char *eq = strchr (kv, '=');
  const char *dir = eq ? eq + 1 : kv;
  size_t n = strlen (j->results_abs);
  if (strncmp (dir, j->results_abs, n) != 0 || dir[n] != '/')
    return NULL;
  return xstrdup (dir + n + 1);
}

static int
private_caches_make (struct job *j, struct ash_error *err)
{
  for (size_t i = 0; i < j->policy.private_caches.nr; i++)
    {
      _cleanup_free_ char *rel
        = private_cache_rel (j, j->policy.private_caches.v[i]);
      if (rel == NULL)
        continue;
      int r = ash_tree_mkdirs (j->results_fd, rel, NULL, err);
      if (r < 0)
        return r;
    }
  return 0;
}

static void
private_caches_remove (struct job *j)
{
  for (size_t i = 0; i < j->policy.private_caches.nr; i++)
    {
      _cleanup_free_ char *rel
        = private_cache_rel (j, j->policy.private_caches.v[i]);
      struct ash_error err = ASH_ERROR_INIT;
      if (rel == NULL)
        continue;
      /* The whole first component (".cache"), which ASH made.  */
      char *slash = strchr (rel, '/');
      if (slash)
        *slash = '\0';
      if (ash_tree_remove_all (j->results_fd, rel, &err) < 0)
        ash_warning (_ ("cannot remove the private cache %s: %s"),
                     j->policy.private_caches.v[i], err.message);
      ash_error_release (&err);
    }
}
/* Refuse J the sandbox it needs, for WHY (taken).  Every reason a
   scanner's sandbox cannot be had arrives here the one way, as a struct
   ash_error whose kind decides the rest:

   ASH_KIND_SANDBOX_NONE         no backend exists on this platform
                                 (Windows): whatever mode was asked for,
                                 the scanner is MISSING;
   ASH_KIND_SANDBOX_UNAVAILABLE  under auto no backend works: MISSING; a
                                 backend the operator named is unavailable:
                                 ERROR (it never falls back); the scan
                                 records the mode and the refusal;
   ASH_KIND_SANDBOX_REFUSED      the scanner cannot be sandboxed as
                                 requested: ERROR, logged now while the
                                 tool is checked, and the scanner's probes
                                 get a scope that refuses with the same
                                 error, so that they fail rather than run
                                 unsandboxed.

   Returns false, for sandbox_decide() to return.  */
static bool
job_refuse (struct scan *sc, struct job *j, struct ash_error *why)
{
  enum ash_scanner_status st = ASH_STATUS_ERROR;

  if (why->kind == ASH_KIND_SANDBOX_NONE
      || (why->kind == ASH_KIND_SANDBOX_UNAVAILABLE
          && streq (sc->mode, "auto")))
    st = ASH_STATUS_MISSING;
  ash_error_move (&j->refusal, why);
  ash_job_set_status (j, st, xstrdup (j->refusal.message));
  if (j->refusal.kind == ASH_KIND_SANDBOX_UNAVAILABLE)
    j->result.sandbox = json_pack ("{s:s, s:n, s:s}", "mode", sc->mode,
                                   "backend", "refusal", j->result.reason);
  if (j->refusal.kind == ASH_KIND_SANDBOX_REFUSED)
    {
      ash_err ("%s", j->refusal.message);
      j->scope.kind = ASH_SCOPE_REFUSE;
      j->scope.refusal = &j->refusal;
    }
  return false;
}

/* The sandbox of one scanner: backend, policy, scope.  Returns false when
   the scanner may not run (its status and reason are set).  */
static bool
sandbox_decide (struct scan *sc, struct job *j)
{
  const struct ash_probe *probe = NULL;
  const struct ash_backend *b;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;

  b = ash_backend_select (sc->mode, sc->backends, &sc->host, &probe, &err);
  if (b == NULL)
    {
      if (!err.message)
        ash_error_set (&err, -EPERM, "%s", _ ("no backend"));
      if (err.kind != ASH_KIND_SANDBOX_NONE)
        err.kind = ASH_KIND_SANDBOX_UNAVAILABLE;
      ash_error_prefix (&err, _ ("scanner sandbox unavailable"));
      return job_refuse (sc, j, &err);
    }

  struct ash_policy_place place = {
    .source_dir = sc->source_dir,
    .output_dir = sc->od.path,
    .results_dir = j->results_abs,
    .run_config_dir = j->run_config_dir,
    .tool_path = j->result.tool_path,
  };
  struct ash_policy_input in;
  ash_policy_input_fill (&in, j->scanner->name, &j->req, &sc->ss, &sc->host,
                         &place, sc->opts->offline, probe);
  in.converted_dir = sc->conv.work_abs;
  ash_policy_init (&j->policy);
  j->policy_init = true;
  if (ash_policy_compute (&in, &j->policy, &err) < 0)
    {
      ash_error_prefix (&err, _ ("%s cannot be sandboxed as requested"),
                        j->scanner->name);
      err.kind = ASH_KIND_SANDBOX_REFUSED;
      return job_refuse (sc, j, &err);
    }
  for (size_t i = 0; i < j->policy.warnings.nr; i++)
    ash_warning ("%s: %s", j->scanner->name, j->policy.warnings.v[i]);
  /* A plugin scanner handed the directory is not told which files the
     scan set leaves out: its sandbox masks the FIFOs, sockets and devices
     of the tree, which could block it (a FIFO named fifo.py) or worse.
     Builtin scanners are given exclusion options instead.  */
  if (!j->converted && sc->have_scanset
      && ash_plugin_walks_target (j->scanner))
    for (size_t i = 0; i < sc->scanset.specials.nr; i++)
      ash_strvec_pushf (&j->policy.masked, "%s/%s", sc->source_dir,
                        sc->scanset.specials.v[i]);

  j->record_mode = sc->mode;
  j->record_backend = b->name;
  j->record_pending = true;

  /* The refusal already reads "NAME cannot be sandboxed as requested:
     ...", and the record says which policy was refused.  */
  if (ash_policy_refused (&j->policy, &err) < 0)
    {
      ash_job_sandbox_record (j);
      return job_refuse (sc, j, &err);
    }
  /* What the backend can make ahead for this policy (the socket filter)
     is made meanwhile, off this thread.  */
  if (b->prepare)
    b->prepare (probe, &j->policy);
  j->scope.kind = ASH_SCOPE_SANDBOX;
  j->scope.backend = b;
  j->scope.probe = probe;
  j->scope.policy = &j->policy;
  j->sandboxed = true;
  return true;
}

void
ash_job_sandbox_record (struct job *j)
{
  json_t *rec;

  if (!j->record_pending)
    return;
  j->record_pending = false;
  /* The policy as it was decided, which is what `ash sandbox explain`
     prints, and beside it the names of the adapter's own settings that
     the scanner's command got over that environment (none when no
     command was built).  */
  rec = ash_policy_to_json (&j->policy);
  if (rec == NULL)
    rec = json_object ();
  json_object_set_new (rec, "adapter_env",
                       ash_policy_env_names (&j->policy.adapter_env));
  json_object_set_new (rec, "mode", json_string (j->record_mode));
  json_object_set_new (rec, "backend", json_string (j->record_backend));
  j->result.sandbox = rec;
}

static void
record_while_running (void *arg)
{
  ash_job_sandbox_record (arg);
}

/* The scope J's probes run in: J's sandbox, with a fresh results
   directory of their own (scanners/NAME/probe, or probe-converted) as the
   one writable place,
   so that a probe can leave nothing in the real one.  RET_FD gets that
   directory.  */
static int
probe_scope_open (struct scan *sc, struct job *j, int *ret_fd,
                  struct ash_error *err)
{
  /* The job on the converted files has a probe directory of its own:
     both jobs of a scanner are checked at the same time.  */
  j->probe_rel = xasprintf ("scanners/%s/%s", j->scanner->name,
                            j->converted ? "probe-converted" : "probe");
  j->probe_abs = xasprintf ("%s/%s", sc->od.path, j->probe_rel);
  int r = ash_tree_remove_all (sc->od.fd, j->probe_rel, err);
  if (r == 0)
    r = ash_tree_results_dir_open (sc->od.fd, j->probe_rel, ret_fd, err);
  if (r < 0)
    return r;
  struct ash_policy_place place = {
    .source_dir = sc->source_dir,
    .output_dir = sc->od.path,
    .results_dir = j->probe_abs,
    .run_config_dir = j->run_config_dir,
    .tool_path = j->result.tool_path,
  };
  struct ash_policy_input in;
  ash_policy_input_fill (&in, j->scanner->name, &j->req, &sc->ss, &sc->host,
                         &place, sc->opts->offline, j->scope.probe);
  ash_policy_init (&j->probe_policy);
  j->probe_policy_init = true;
  r = ash_policy_compute (&in, &j->probe_policy, err);
  if (r < 0)
    return r;
  if (j->probe_policy.refusal.message)
    return ash_policy_refused (&j->probe_policy, err);
  j->probe_scope = j->scope;
  j->probe_scope.policy = &j->probe_policy;
  return 0;
}

/* S's probes: the version its configuration asks for, then its own
   (prepare).  */
static int
probes (const struct ash_scanner *s, const struct ash_scan_job *job,
        struct ash_error *err)
{
  int r = ash_adapter_check_tool_version (s, job, err);
  if (r < 0 || s->prepare == NULL)
    return r;
  return s->prepare (s, job, err);
}

/* Run S's probes for J: sandboxed, in the throwaway results directory,
   which is removed after them.  */
static int
run_prepare (struct scan *sc, struct job *j, struct ash_error *err)
{
  const struct ash_scanner *s = j->scanner;
  if (!j->sandboxed)
    return probes (s, &j->sj, err);
  _cleanup_close_ int pfd = -1;
  int r = probe_scope_open (sc, j, &pfd, err);
  if (r < 0)
    {
      ash_error_prefix (err, _ ("cannot set up the sandbox of %s's probes"),
                        s->name);
      return r;
    }
  struct ash_scan_job pj = j->sj;
  pj.results_dir = j->probe_abs;
  pj.results_fd = pfd;
  pj.scope = &j->probe_scope;
  r = probes (s, &pj, err);
  struct ash_error rerr = ASH_ERROR_INIT;
  if (ash_tree_remove_all (sc->od.fd, j->probe_rel, &rerr) < 0)
    ash_warning (_ ("could not remove %s: %s"), j->probe_abs,
                 rerr.message ? rerr.message : "");
  ash_error_release (&rerr);
  return r;
}

static unsigned long long
limit_of (const struct scan *sc, const char *key)
{
  const json_t *v = ash_config_get (sc->config, key);
  return json_is_integer (v) && json_integer_value (v) > 0
           ? (unsigned long long) json_integer_value (v)
           : 0;
}

size_t
ash_job_document_max (const struct scan *sc)
{
  unsigned long long m = limit_of (sc, "global_settings.max_scanner_document");
  return m > SIZE_MAX ? SIZE_MAX : (size_t) m;
}

/* The steps of the check phase: each sets J's status when the scanner
   cannot run, and the first that does ends the phase.  */
static void
check_steps (struct scan *sc, struct job *j)
{
  const struct ash_scanner *s = j->scanner;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  char *tool = NULL;
  int r;

  struct ash_toolfind_opts tf = {
    .path_env = sc->host.path_env,
    .bin_path = sc->host.bin_path,
    .source_dir = sc->source_dir,
    .allow_in_tree_tools = sc->host.allow_in_tree_tools,
  };
  r = ash_toolfind (s->tool, &tf, &tool, &err);
  if (r == -ENOENT)
    {
      ash_job_set_status (
        j, ASH_STATUS_MISSING,
        xasprintf (_ ("%s is not installed (install it with: %s, "
                      "or ash dependencies install)"),
                   s->tool, s->install_hint));
      return;
    }
  if (r < 0)
    {
      ash_job_set_status (j, ASH_STATUS_MISSING, xstrdup (err.message));
      return;
    }
  j->result.tool_path = tool;
  j->result.dependencies_satisfied = true;

  if (s->build == NULL)
    {
      ash_job_set_status (
        j, ASH_STATUS_MISSING,
        xasprintf (_ ("ash has no adapter for %s yet; its findings "
                      "would not be read (%s is installed at %s)"),
                   s->name, s->tool, tool));
      return;
    }

  j->results_rel = xasprintf ("scanners/%s/%s", s->name,
                              j->converted ? "converted" : "source");
  j->results_abs = xasprintf ("%s/%s", sc->od.path, j->results_rel);
  r = ash_tree_results_dir_open (sc->od.fd, j->results_rel, &j->results_fd,
                                 &err);
  if (r < 0)
    {
      bool link = err.kind == ASH_KIND_RESULTS_DIR_LINK;
      ash_job_set_status (j, link ? ASH_STATUS_MISSING : ASH_STATUS_ERROR,
                          xstrdup (err.message));
      return;
    }
  r = ash_tree_check_clean (j->results_fd, ".", &err);
  if (r < 0)
    {
      ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      return;
    }

  ash_scanner_requirements (s, &j->req);

  if (sc->have_scanset && !j->converted)
    {
      _cleanup_strvec_ struct ash_strvec args = ASH_STRVEC_INIT;
      r = ash_scanset_exclusion_args (&sc->scanset, s->name, &args, &err);
      if (r < 0)
        {
          ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
          return;
        }
      /* The exclusion values, without the option names, for adapters that
         build their own option (bandit joins them into one --exclude):
         the values split where they stand, kept by the job.  */
      for (size_t i = 0; i + 1 < args.nr; i += 2)
        for (char *v = args.v[i + 1];;)
          {
            char *c = strchr (v, ',');
            if (c)
              *c = '\0';
            if (*v)
              ash_strvec_push_nodup (&j->excluded, v);
            if (!c)
              break;
            v = c + 1;
          }
      j->excluded_text = args;
      ash_strvec_init (&args);
    }
  /* Scanners that walk the tree themselves must not read ASH's output
     when it lies inside the tree.  */
  if (!j->converted && ash_path_is_inside (sc->od.path, sc->source_dir)
      && !streq (sc->od.path, sc->source_dir))
    {
      ash_strvec_push (&j->excluded_text, sc->od.path);
      ash_strvec_push_nodup (&j->excluded,
                             j->excluded_text.v[j->excluded_text.nr - 1]);
    }

  /* The per-run config directory: the files ASH writes for the tool
     (bandit's empty --ini), outside the scanned tree, mode 0700, removed
     when the run ends.  */
  r = ash_rundir_make (ash_rundir_base (sc->source_dir, sc->od.path),
                       j->scanner->name, &j->run_config_dir, &err);
  if (r < 0)
    {
      ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      return;
    }

  if (!streq (sc->mode, "off") && !sandbox_decide (sc, j))
    {
      if (j->scope.kind == ASH_SCOPE_REFUSE && s->prepare)
        {
          /* The probes still run through their scope, which refuses:
             nothing of this scanner runs unsandboxed.  */
          struct ash_scan_job pj = {
            .name = s->name,
            .target = j->converted ? sc->conv.work_abs : sc->source_dir,
            .results_dir = j->results_abs,
            .results_fd = j->results_fd,
            .tool_path = j->result.tool_path,
            .options = j->options,
            .run_config_dir = j->run_config_dir,
            .config = sc->config,
            .scope = &j->scope,
            .max_output = ash_job_document_max (sc),
          };
          _cleanup_error_ struct ash_error perr = ASH_ERROR_INIT;
          s->prepare (s, &pj, &perr);
        }
      return;
    }

  j->sj = (struct ash_scan_job){
    .name = s->name,
    .target = j->converted ? sc->conv.work_abs : sc->source_dir,
    .results_dir = j->results_abs,
    .results_fd = j->results_fd,
    .scan_set_file = j->converted ? sc->conv.list_file : sc->scan_set_file,
    .tool_path = j->result.tool_path,
    .options = j->options,
    .excluded_paths = j->excluded.v,
    .run_config_dir = j->run_config_dir,
    .config = sc->config,
    .bin_path = sc->host.bin_path,
    .scope = j->sandboxed ? &j->scope : NULL,
    .max_output = ash_job_document_max (sc),
    .tier = &sc->tier,
    .settings = &sc->ss,
    .scanset = sc->have_scanset ? &sc->scanset : NULL,
    .sandboxed = j->sandboxed,
    .offline = sc->opts->offline,
    .rulesets
    = sc->opts->semgrep_rulesets.nr ? sc->opts->semgrep_rulesets.v : NULL,
    .network = j->sandboxed ? j->policy.network : !sc->opts->offline,
    .scan_set_files = sc->have_scanset ? sc->scanset.files.v : NULL,
  };
  json_t *it = json_object_get (j->options, "install_timeout");
  if (it && !json_is_null (it))
    ash_warning (_ ("scanners.%s.options.install_timeout has no effect on a "
                    "scan: ash installs no tool while it scans (ash "
                    "dependencies install does, before)"),
                 s->name);
  bool version_wanted
    = s->checks_tool_version
      && json_is_string (json_object_get (j->options, "tool_version"));
  if ((s->prepare || version_wanted) && run_prepare (sc, j, &err) < 0)
    ash_job_set_status (j,
                        err.kind == ASH_KIND_SCANNER_MISSING
                          ? ASH_STATUS_MISSING
                          : ASH_STATUS_ERROR,
                        xstrdup (err.message));
}

/* The check phase of one scanner.  */
void
ash_job_check (struct scan *sc, struct job *j)
{
  /* On a platform with no sandbox at all, that is the reason a sandboxed
     scanner cannot run, ahead of whether its tool is installed.  */
  if (sc->platform_note && !streq (sc->mode, "off"))
    {
      sandbox_decide (sc, j);
      return;
    }

  check_steps (sc, j);
  if (j->result.status == ASH_STATUS_MISSING
      || j->result.status == ASH_STATUS_ERROR)
    ash_err (_ ("%s not run: %s"), j->scanner->name, j->result.reason);
}
void
ash_job_sweep (struct scan *sc _unused_, int dirfd, const char *rel)
{
  struct ash_strvec removed = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  if (ash_tree_sweep (dirfd, rel, &removed, &err) < 0)
    ash_warning (_ ("could not sweep %s: %s"), rel, err.message);
  for (size_t i = 0; i < removed.nr; i++)
    ash_warning (_ ("removed %s, which a scanner left in its results "
                    "directory"),
                 removed.v[i]);
  ash_strvec_release (&removed);
  ash_error_release (&err);
}

/* Add the entries of V to ENV, except those whose name the adapter set
   itself (GRYPE_DB_AUTO_UPDATE=false), which win.  */
static void
env_add_missing (struct ash_strvec *env, size_t n_own, char *const *v)
{
  for (; v && *v; v++)
    {
      const char *eq = strchr (*v, '=');
      size_t n = eq ? (size_t) (eq - *v) : strlen (*v);
      bool own = false;
      for (size_t i = 0; i < n_own && !own; i++)
        own = strneq (env->v[i], *v, n) && env->v[i][n] == '=';
      if (!own)
        ash_strvec_push (env, *v);
    }
}

static void
build_env (struct scan *sc _unused_, struct job *j, struct ash_cmd *cmd)
{
  size_t n_own = cmd->env.nr;
  if (j->sandboxed)
    {
      /* The backends build the sandbox's environment from the policy,
         the adapter's own settings (constants of ASH's choosing, never
         values from the tree) set over its environment as decided.  */
      for (size_t i = 0; i < n_own; i++)
        ash_strvec_setenv_kv (&j->policy.adapter_env, cmd->env.v[i]);
      env_add_missing (&cmd->env, n_own, j->policy.env.v);
      return;
    }
  /* Unsandboxed, a scanner gets ASH's environment, copied explicitly.  */
  env_add_missing (&cmd->env, n_own, environ);
}

/* A sandbox wrapper (bwrap's init, the Landlock wrapper) reports a
   scanner killed by a signal as its own exit status 128 + N.  Only the
   signals that mean a crash are read that way.  */
static int
crash_signal (const struct job *j, const struct ash_cmd_result *res)
{
  static const int crashes[]
    = { SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGKILL, SIGXFSZ };
  if (!j->sandboxed || res->status <= 128)
    return 0;
  for (size_t i = 0; i < ARRAY_SIZE (crashes); i++)
    if (res->status == 128 + crashes[i])
      return crashes[i];
  return 0;
}

/* The resource limits of one scanner (global_settings.max_scanner_*),
   and a line in the log that says how each is enforced.  Processes and
   memory are bounded by a control group of the scanner's own where ASH
   can make one (proc/cgroup.h): pids.max and memory.max hold for every
   process the scanner starts, root's included, and memory.max does not
   break runtimes that reserve address space (Node.js) as RLIMIT_AS does.
   Elsewhere RLIMIT_NPROC and RLIMIT_AS.  */
static void
set_limits (struct scan *sc, struct job *j, struct ash_cmd *cmd,
            struct ash_cgroup *cg)
{
  struct ash_cmd_limits *l = &cmd->limits;
  unsigned long long nproc
    = limit_of (sc, "global_settings.max_scanner_processes");
  unsigned long long mem = limit_of (sc, "global_settings.max_scanner_memory");
  _cleanup_free_ char *why = NULL;
  _cleanup_free_ char *group
    = xasprintf ("%s-%s", j->scanner->name,
                 j->converted ? "converted" : "source");
  l->nproc = nproc;
  l->as = mem;
  l->fsize = limit_of (sc, "global_settings.max_scanner_output");
  if ((nproc || mem) && ash_cgroup_make (group, nproc, mem, cg, &why) == 0)
    {
      for (size_t i = 0; i < ARRAY_SIZE (cg->procs_fd); i++)
        if (cg->procs_fd[i] >= 0)
          l->cgroup_procs_fd[l->n_cgroup_procs_fds++] = cg->procs_fd[i];
      if (cg->pids)
        l->nproc = 0;
      if (cg->memory)
        l->as = 0;
    }
  const char *backend
    = j->sandboxed && j->scope.backend ? j->scope.backend->name : NULL;
  _cleanup_free_ char *how
    = nproc == 0 ? xstrdup (_ ("no process limit"))
      : cg->pids ? xstrdup (_ ("a pids cgroup"))
      : geteuid () == 0
        ? xasprintf (_ ("RLIMIT_NPROC, which the kernel does not enforce for "
                        "root, and no pids cgroup: %s"),
                     why ? why : _ ("none could be made"))
      : backend && streq (backend, "bwrap")
        ? xstrdup (_ ("RLIMIT_NPROC, counted in the scanner's own user "
                      "namespace"))
        : xstrdup (_ ("RLIMIT_NPROC, counted over every process of ash's "
                      "account"));
  const char *mem_how = mem == 0     ? _ ("no memory limit")
                        : cg->memory ? _ ("a memory cgroup")
                                     : _ ("RLIMIT_AS");
  ash_info (_ ("%s: at most %llu processes (%s), %llu bytes of memory (%s), "
               "%llu bytes per file written (RLIMIT_FSIZE)"),
            j->scanner->name, nproc, how, mem, mem_how, l->fsize);
}

/* Why a scanner that ended abnormally may have: the limit it ran into,
   as a clause to add to the reason, or "".  */
static const char *
limit_hint (const struct ash_cmd *cmd, int sig)
{
  if (sig == SIGXFSZ && cmd->limits.fsize)
    return _ (" (it wrote a file larger than global_settings."
              "max_scanner_output)");
  if ((sig == SIGSEGV || sig == SIGABRT || sig == SIGKILL || sig == SIGBUS)
      && cmd->limits.as)
    return _ (" (its memory is limited by global_settings."
              "max_scanner_memory)");
  return "";
}

/* The disk a scanner's results directory takes, counted without
   following a link, at any depth.  */
static _Thread_local unsigned long long du_total;

static int
du_add (const char *path _unused_, const struct stat *st, int flag _unused_,
        struct FTW *ftw _unused_)
{
  du_total += (unsigned long long) st->st_blocks * 512;
  return 0;
}

static unsigned long long
results_size (const struct job *j)
{
  du_total = 0;
  (void) nftw (j->results_abs, du_add, 16, FTW_PHYS | FTW_MOUNT);
  return du_total;
}

/* Remove everything in the results directory (the directory stays).  */
static void
results_clear (struct job *j)
{
  int fd = fcntl (j->results_fd, F_DUPFD_CLOEXEC, 3);
  DIR *d = fd < 0 ? NULL : fdopendir (fd);
  struct dirent *de;

  if (d == NULL)
    {
      if (fd >= 0)
        close (fd);
      return;
    }
  while ((de = readdir (d)) != NULL)
    {
      struct ash_error e = ASH_ERROR_INIT;

      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      (void) ash_tree_remove_all (j->results_fd, de->d_name, &e);
      ash_error_release (&e);
    }
  closedir (d);
}

/* Below this much free space the output directory's file system counts
   as full.  */
#define DISK_FULL_BYTES (1ULL << 20)

/* A scanner whose results directory holds more than max_scanner_results
   bytes in all, or that filled the output directory's file system
   (which is then full, and its results take a megabyte or more), is
   ERROR with the reason, and its results are removed, so that the other
   scanners' results, the aggregated results and the reports can still be
   written.  0, or a reason (newly allocated).  */
static char *
check_disk (struct scan *sc, struct job *j)
{
  unsigned long long cap
    = limit_of (sc, "global_settings.max_scanner_results");
  unsigned long long size = results_size (j);
  struct statvfs vfs;
  char *why = NULL;

  if (cap && size > cap)
    why = xasprintf (_ ("%s wrote %llu bytes into its results directory, "
                        "more than global_settings.max_scanner_results "
                        "(%llu); its results were removed"),
                     j->scanner->tool, size, cap);
  else if (fstatvfs (j->results_fd, &vfs) == 0
           && (unsigned long long) vfs.f_bavail * vfs.f_frsize
                < DISK_FULL_BYTES
           && size >= DISK_FULL_BYTES)
    why = xasprintf (_ ("%s filled the file system of the output directory "
                        "(%llu bytes in its results directory); its results "
                        "were removed so that the other results and the "
                        "reports can be written"),
                     j->scanner->tool, size);
  if (why)
    results_clear (j);
  return why;
}

/* Run J's scanner through CMD (in the control group CG) and read its
   output into J's result, setting its status.  Returns the spawn's
   result, RES: 0 when the scanner ran, whatever its status, else a
   negative errno.  */
static int
run_steps (struct scan *sc, struct job *j, struct ash_cmd *cmd,
           struct ash_cgroup *cg, struct ash_cmd_result *res)
{
  const struct ash_scanner *s = j->scanner;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_close_ int outfd = -1, errfd = -1;
  _cleanup_free_ char *out_rel = xasprintf ("%s.stdout.log", s->name);
  _cleanup_free_ char *err_rel = xasprintf ("%s.stderr.log", s->name);
  _cleanup_free_ char *disk = NULL;
  json_t *doc = NULL;
  int r;
  /* A log read as it is parsed gives its results one at a time.  */
  _cleanup_ (job_sink_release) struct job_sink sink;
  job_sink_init (&sink, sc, j);
  const struct ash_sarif_sink sink_if
    = { job_sink_result, job_sink_reset, &sink };
  j->sj.sink = &sink_if;

  r = ash_tree_open_stream (j->results_fd, out_rel, true, &outfd, &err);
  if (r == 0)
    r = ash_tree_open_stream (j->results_fd, err_rel, true, &errfd, &err);
  if (r < 0)
    {
      ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      return r;
    }
  r = s->build (s, &j->sj, cmd, &err);
  if (r < 0)
    {
      ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      return r;
    }
  build_env (sc, j, cmd);
  /* An adapter may run its tool from a directory of its own (trivy-repo,
     from its run directory outside the tree).  */
  if (cmd->cwd == NULL)
    cmd->cwd = xstrdup (sc->source_dir);
  cmd->stdin_mode = ASH_STDIO_NULL;
  cmd->stdout_mode = ASH_STDIO_FD;
  cmd->stdout_fd = outfd;
  cmd->stderr_mode = ASH_STDIO_FD;
  cmd->stderr_fd = errfd;
  cmd->timeout_sec = j->timeout;
  cmd->scope = j->sandboxed ? &j->scope : NULL;
  /* The policy's record is made while the scanner runs.  */
  if (j->record_pending)
    {
      cmd->while_running = record_while_running;
      cmd->while_running_arg = j;
    }
  set_limits (sc, j, cmd, cg);
  ash_debug ("%s: running %s", s->name, cmd->argv.v[0]);

  if (j->sandboxed)
    {
      r = private_caches_make (j, &err);
      if (r < 0)
        {
          ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
          return r;
        }
    }
  r = s->run ? s->run (s, &j->sj, cmd, res, &err)
             : ash_sandbox_run (cmd, res, &err);
  /* Whatever the scanner left running in its group ends before anything
     it wrote is looked at.  Under bwrap the init of the sandbox is often
     still leaving its namespaces when bwrap has exited.  */
  ash_cgroup_end (cg);
  if (j->sandboxed)
    {
      private_caches_remove (j);
      ash_job_sweep (sc, j->results_fd, ".");
    }
  j->result.exit_code = r == 0 ? res->status : -1;
  /* A scanner ended by a signal (SIGXFSZ at max_scanner_output) is
     reported for that.  */
  disk = r == 0 && !res->term_signal && !crash_signal (j, res)
           ? check_disk (sc, j)
           : NULL;
  if (r < 0)
    ash_job_set_status (j, ASH_STATUS_ERROR,
                        xasprintf (_ ("%s could not be started: %s"), s->name,
                                   err.message));
  else if (res->interrupted || atomic_load (&sc->interrupted))
    ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (_ ("interrupted")));
  else if (res->timed_out)
    ash_job_set_status (j, ASH_STATUS_ERROR,
                        xasprintf (_ ("timed out after %u s"), j->timeout));
  else if (disk)
    ash_job_set_status (j, ASH_STATUS_ERROR, TAKE_PTR (disk));
  else if (ash_cgroup_memory_exceeded (cg))
    ash_job_set_status (
      j, ASH_STATUS_ERROR,
      xasprintf (_ ("%s went over its memory limit of %llu bytes "
                    "(global_settings.max_scanner_memory), and the "
                    "kernel ended it"),
                 s->tool,
                 limit_of (sc, "global_settings."
                               "max_scanner_memory")));
  else if (res->term_signal || crash_signal (j, res))
    {
      _cleanup_free_ char *tail = stderr_tail (j);
      int sig = res->term_signal ? res->term_signal : crash_signal (j, res);
      ash_job_set_status (
        j, ASH_STATUS_ERROR,
        xasprintf (_ ("%s crashed: killed by signal %d (%s)%s%s%s"), s->tool,
                   sig, signal_name (sig), limit_hint (cmd, sig),
                   tail ? ": " : "", tail ? tail : ""));
    }
  else if ((r = s->parse (s, &j->sj, res, &doc, &err)) < 0)
    {
      /* A scanner that runs its tool more than once (s->run) shares one
         stderr log between the runs: its last line may be another run's,
         so the parse error, which names the run, stands alone.  */
      _cleanup_free_ char *tail
        = res->status != 0 && s->run == NULL ? stderr_tail (j) : NULL;
      /* An output over the cap on its size (or on the memory its parse
         takes) is named with the setting that decides it.  */
      const char *cap = r == -EFBIG && j->sj.max_output
                          ? _ (" (global_settings.max_scanner_document)")
                          : "";
      r = 0;
      ash_job_set_status (j, ASH_STATUS_ERROR,
                          xasprintf ("%s%s%s%s", err.message, cap,
                                     tail ? ": " : "", tail ? tail : ""));
    }
  else
    {
      _cleanup_error_ struct ash_error serr = ASH_ERROR_INIT;
      bool no_set = false;
      if (sink.used)
        {
          /* The results came through the sink, which did to each what
             follows for a whole log.  */
          job_sink_finish (&sink, doc);
          no_set = sink.no_set;
          if (no_set)
            ash_error_set (&serr, -EIO, "%s", sink.set_err.message);
        }
      else
        {
          ash_sarif_tag (doc, s->name);
          /* Findings in converted files are reported at their
             originals.  */
          if (j->converted)
            ash_converters_map_sarif (doc, sc->conv.map, sc->conv.workfd);
          if (!sc->opts->ignore_suppressions)
            ash_suppress_doc (doc, &sc->sups, sc->source_dir, 64 << 20);
          /* A scanner that walks the directory itself does not read the
             ignore files or global_settings.ignore_paths: its findings
             in files the scan set leaves out are dropped here.  A
             scanner the tree was not handed may still report findings
             in it: the scan set is built now, once, to tell which are
             ignored (at once when it is built already).  */
          no_set
            = has_results (doc) && ash_scan_scanset_ensure (sc, &serr) < 0;
          if (!no_set && sc->ignored_files.nr)
            {
              size_t d = ash_paths_drop_doc (doc, &sc->ignored_files);
              if (d)
                ash_debug ("%s: %zu findings in ignored files dropped",
                           s->name, d);
            }
          if (sc->have_changed)
            ash_changed_filter_doc (doc, &sc->changed);
        }
      j->result.sarif = doc;
      ash_scanner_result_count (&j->result, ash_job_threshold (sc, j));
      /* Nothing changes the results from here on: each is kept as its
         text (packed.h), not as a tree.  */
      ash_sarif_pack (doc);
      if (no_set)
        ash_job_set_status (
          j, ASH_STATUS_ERROR,
          xasprintf (_ ("cannot build the scan set to drop the findings in "
                        "ignored files: %s"),
                     serr.message));
    }
  return r;
}

/* The scan phase of one scanner.  */
void
ash_job_run (struct scan *sc, struct job *j)
{
  const struct ash_scanner *s = j->scanner;
  _cleanup_cmd_ struct ash_cmd cmd;
  struct ash_cmd_result res = { 0 };
  struct ash_cgroup cg = ASH_CGROUP_INIT;

  ash_cmd_init (&cmd);
  if (atomic_load (&sc->interrupted))
    {
      ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (_ ("interrupted")));
      return;
    }
  ash_progress_begin (sc->progress, s->name);
  double t0 = ash_now ();
  int r = run_steps (sc, j, &cmd, &cg, &res);

  /* Whatever the scanner left running in its group ends with it.  */
  ash_cgroup_remove (&cg);
  remove_run_config_dir (j);
  j->result.duration
    = r == 0 && res.duration > 0 ? res.duration : ash_now () - t0;
  ash_progress_pause (sc->progress);
  if (j->result.status == ASH_STATUS_ERROR)
    ash_err (_ ("%s: %s"), s->name, j->result.reason);
  else
    ash_info (_ ("%s: %s, %u findings (%u actionable, %u suppressed) in "
                 "%.1fs"),
              s->name, ash_scanner_status_name (j->result.status),
              j->result.finding_count, j->result.actionable_count,
              j->result.suppressed_count, j->result.duration);
  ash_progress_resume (sc->progress);
  ash_progress_end (sc->progress, s->name,
                    ash_scanner_status_name (j->result.status),
                    j->result.duration);
}
/* The threshold of J's findings: scanners.NAME.options.severity_threshold
   (upstream's per-scanner setting, which wins over the global one), else
   the scan's (--min-severity or global_settings.severity_threshold).  A
   --min-severity on the command line wins over both.  */
enum ash_severity
ash_job_threshold (const struct scan *sc, const struct job *j)
{
  enum ash_severity t;
  const char *v
    = json_string_value (json_object_get (j->options, "severity_threshold"));
  if (sc->opts->min_severity == NULL && v && ash_severity_parse (v, &t) == 0)
    return t;
  return sc->threshold;
}

/* Resolve the scanners: builtins in registry order, then plugin scanners.
   --scanners narrows, --exclude-scanners wins (SKIPPED, excluded), the
   precommit mode selects upstream's fast set.  */
void
ash_job_add (struct scan *sc, const struct ash_scanner *s)
{
  const struct ash_options *o = sc->opts;
  struct job *j;

  sc->jobs = xreallocarray (sc->jobs, sc->n_jobs + 1, sizeof *sc->jobs);
  j = &sc->jobs[sc->n_jobs++];
  memset (j, 0, sizeof *j);
  j->scanner = s;
  ash_scanner_result_init (&j->result, s->name);
  j->results_fd = -1;
  ash_strvec_init (&j->excluded);
  ash_strvec_init (&j->excluded_text);
  ash_requirements_init (&j->req);
  j->options = scanner_options (sc->config, s->name);
  j->timeout = scan_timeout (j->options);
  j->run = true;
  j->result.status = ASH_STATUS_PASSED;

  if (ash_strvec_contains (&o->exclude_scanners, s->name))
    {
      j->result.excluded = true;
      ash_job_set_status (j, ASH_STATUS_SKIPPED,
                          xstrdup (_ ("excluded with --exclude-scanners")));
    }
  else if (o->scanners.nr > 0 && !ash_strvec_contains (&o->scanners, s->name))
    ash_job_set_status (j, ASH_STATUS_SKIPPED,
                        xstrdup (_ ("not named in --scanners")));
  else if (o->mode == ASH_RUN_PRECOMMIT && o->scanners.nr == 0
           && !ash_strv_contains ((char *const *) ash_precommit_scanners,
                                  s->name))
    ash_job_set_status (j, ASH_STATUS_SKIPPED,
                        xstrdup (
                          _ ("not one of the precommit mode's scanners")));
  else if (o->python_only
           && !ash_strv_contains ((char *const *) ash_precommit_scanners,
                                  s->name))
    ash_job_set_status (j, ASH_STATUS_SKIPPED,
                        xstrdup (
                          _ ("not one of upstream's Python-based scanners "
                             "(--python-only)")));
  else if (!scanner_enabled (sc->config, s->name))
    ash_job_set_status (j, ASH_STATUS_SKIPPED,
                        xstrdup (_ ("disabled in the configuration")));
}
void
ash_job_add_converted (struct scan *sc, size_t parent)
{
  ash_job_add (sc, sc->jobs[parent].scanner);
  struct job *j = &sc->jobs[sc->n_jobs - 1];
  j->converted = true;
  j->parent = parent;
}

void
ash_job_release (struct job *j)
{
  ash_error_release (&j->refusal);
  remove_run_config_dir (j);
  ash_scanner_result_release (&j->result);
  free (j->results_rel);
  free (j->results_abs);
  if (j->results_fd >= 0)
    ash_close (j->results_fd);
  if (j->excluded.alloc)
    free (j->excluded.v);
  ash_strvec_release (&j->excluded_text);
  ash_requirements_release (&j->req);
  if (j->policy_init)
    ash_policy_release (&j->policy);
  if (j->probe_policy_init)
    ash_policy_release (&j->probe_policy);
  free (j->probe_rel);
  free (j->probe_abs);
}
