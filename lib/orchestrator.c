/* orchestrator.c -- the phases of `ash scan`.

   prepare   open the output directory once, attach ash.log and
             ash.log.jsonl, build the scan set, decide the sandbox settings
             and the scanners to run;
   check     once per scanner, concurrently: find its tool, open its
             results directory, decide its sandbox (policy and scope) and
             run its probes inside that scope;
   scan      run the scanners (in parallel, at most --max-workers or the
             number of CPUs at once, or one by one), each through spawn.c
             with its own timeout, results directory and scope;
   aggregate read each native output into SARIF, apply suppressions,
             count, write ash_aggregated_results.json and the reports,
             print the summary and decide the exit code.

   The sandbox seams.  When the sandbox mode is not off, every scanner gets
   a scope before anything of its runs: sandbox_decide() selects the
   backend (probed once per process, cached by ash_backend_select()),
   computes the scanner's policy from its requirements and the settings
   (ash_policy_compute()), and builds a sandboxing scope, or leaves the
   scanner MISSING (no usable backend: "scanner sandbox unavailable: ...")
   or ERROR (the policy refuses: "NAME cannot be sandboxed as requested:
   ...").  The scope goes to the probes of the check phase and to the scan
   itself; spawn.c hands it to the backend's wrap().  After each sandboxed
   spawn, and again after the scan, the results directories are swept.
   The enforced policy is recorded per scanner in the aggregated results.
   Nothing falls back to running unsandboxed.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "backend.h"
#include "buf.h"
#include "cli.h"
#include "commands.h"
#include "config-tier.h"
#include "config.h"
#include "log.h"
#include "plugin-tier.h"
#include "options.h"
#include "plugins.h"
#include "policy.h"
#include "progress.h"
#include "reports/reports.h"
#include "requirements.h"
#include "results.h"
#include "sandbox-settings.h"
#include "sarif.h"
#include "scanner-reqs.h"
#include "scanner.h"
#include "scanset.h"
#include "spawn.h"
#include "strvec.h"
#include "suppress.h"
#include "toolfind.h"
#include "tree.h"
#include "util.h"

extern char **environ;

#define DEFAULT_SCAN_TIMEOUT 1800

struct job
{
  const struct ash_scanner *scanner;
  struct ash_scanner_result result;
  bool run;                    /* still to run after the checks */
  const json_t *options;       /* scanners.NAME.options */
  unsigned timeout;
  char *results_rel;           /* scanners/NAME/source */
  char *results_abs;
  int results_fd;
  struct ash_strvec excluded;  /* exclusions for the scanner's own walk */
  struct ash_requirements req;
  bool sandboxed;
  bool policy_init;
  struct ash_policy policy;
  struct ash_scope scope;
  struct ash_scan_job sj;
  char *run_config_dir;        /* the run's 0700 config directory */
};

struct scan
{
  const struct ash_options *opts;
  const struct ash_config *config;
  const struct ash_backend *const *backends;
  const char *platform_note;
  struct ash_outdir od;
  char *source_dir;
  char *scan_set_file;
  struct ash_scanset scanset;
  bool have_scanset;
  struct ash_sandbox_settings ss;
  const char *mode;
  struct ash_host host;
  enum ash_severity threshold;
  struct ash_suppressions sups;
  struct ash_plugin_set plugins;
  struct job *jobs;
  size_t n_jobs;
  struct ash_progress *progress;
  pthread_mutex_t lock;
  struct ash_scanner **unknown; /* scanners --scanners names that do not
                                   exist */
  size_t n_unknown;
  struct ash_strvec unknown_names;
};

/* The signal that interrupted the scan, or 0.  */
static atomic_int interrupted;

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
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGPIPE: return "SIGPIPE";
    case SIGSYS: return "SIGSYS";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
    }
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
      while (b.len > 0 && (b.buf[b.len - 1] == '\n' || b.buf[b.len - 1] == ' '
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

static void
set_status (struct job *j, enum ash_scanner_status st, char *reason)
{
  free (j->result.reason);
  j->result.reason = reason;
  j->result.status = st;
  j->run = false;
}

/* The system temporary directory for the per-run config directories:
   $TMPDIR when it is absolute, outside the scanned tree and the output
   directory, and no other account can change it (owned by us or root,
   and not writable by others unless sticky); else /tmp.  */
static const char *
run_config_base (const struct scan *sc)
{
  const char *t = getenv ("TMPDIR");
  struct stat st;

  if (t == NULL || t[0] != '/'
      || ash_path_is_inside (t, sc->source_dir)
      || ash_path_is_inside (t, sc->od.path)
      || stat (t, &st) < 0 || !S_ISDIR (st.st_mode)
      || (st.st_uid != getuid () && st.st_uid != 0)
      || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
    return "/tmp";
  return t;
}

static int
make_run_config_dir (struct scan *sc, struct job *j, struct ash_error *err)
{
  _cleanup_free_ char *tmpl = xasprintf ("%s/ash-%s-XXXXXX",
                                         run_config_base (sc),
                                         j->scanner->name);
  if (mkdtemp (tmpl) == NULL)
    return ash_error_set (err, -errno,
                          _("cannot create the config directory of %s "
                            "in %s: %s"),
                          j->scanner->name, run_config_base (sc),
                          strerror (errno));
  /* mkdtemp makes it 0700 already; say so whatever the umask.  */
  chmod (tmpl, 0700);
  j->run_config_dir = TAKE_PTR (tmpl);
  return 0;
}

static void
remove_run_config_dir (struct job *j)
{
  if (j->run_config_dir == NULL)
    return;
  _cleanup_free_ char *dir = xstrdup (j->run_config_dir);
  char *slash = strrchr (dir, '/');
  struct ash_error err = ASH_ERROR_INIT;
  *slash = '\0';
  _cleanup_close_ int fd = open (*dir ? dir : "/",
                                 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || ash_tree_remove_all (fd, slash + 1, &err) < 0)
    ash_warning (_("cannot remove %s: %s"), j->run_config_dir,
                 fd < 0 ? strerror (errno) : err.message);
  ash_error_release (&err);
  free (j->run_config_dir);
  j->run_config_dir = NULL;
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
        ash_warning (_("cannot remove the private cache %s: %s"),
                     j->policy.private_caches.v[i], err.message);
      ash_error_release (&err);
    }
}

/* The sandbox of one scanner: backend, policy, scope.  Returns false when
   the scanner may not run (its status and reason are set).  */
static bool
sandbox_decide (struct scan *sc, struct job *j)
{
  const struct ash_probe *probe = NULL;
  char *why = NULL;
  const struct ash_backend *b;
  struct ash_error err = ASH_ERROR_INIT;

  if (sc->platform_note)
    {
      set_status (j, streq (sc->mode, "auto") ? ASH_STATUS_MISSING
                                              : ASH_STATUS_ERROR,
                  xasprintf (_("scanner sandbox unavailable: %s"),
                             sc->platform_note));
      return false;
    }
  b = ash_backend_select (sc->mode, sc->backends, &sc->host, &probe, &why);
  if (b == NULL)
    {
      /* Under auto, no backend works: MISSING.  A backend the operator
         named that is unavailable is an ERROR (it never falls back).  */
      set_status (j, streq (sc->mode, "auto") ? ASH_STATUS_MISSING
                                              : ASH_STATUS_ERROR,
                  xasprintf (_("scanner sandbox unavailable: %s"),
                             why ? why : _("no backend")));
      j->result.sandbox = json_pack ("{s:s, s:n, s:s}", "mode", sc->mode,
                                     "backend", "refusal", j->result.reason);
      free (why);
      return false;
    }

  struct ash_policy_input in = {
    .scanner = j->scanner->name,
    .req = &j->req,
    .source_dir = sc->source_dir,
    .output_dir = sc->od.path,
    .results_dir = j->results_abs,
    .tool_path = j->result.tool_path,
    .offline = sc->opts->offline,
    .network_scanners = sc->ss.network_scanners_set
                          ? sc->ss.network_scanners.v
                          : NULL,
    .network_restrict = sc->ss.network_restrict_set
                          ? sc->ss.network_restrict.v
                          : NULL,
    .extra_read_paths = sc->ss.extra_read_paths.v,
    .read_path_scanners = sc->ss.read_path_scanners.v,
    .env_scanners = sc->ss.env_scanners.v,
    .environ = environ,
    .home = sc->host.home,
    .passwd_home = sc->host.passwd_home,
    .bin_path = sc->host.bin_path,
    .cache_overlay = probe->overlay,
    .run_config_dir = j->run_config_dir,
  };
  ash_policy_init (&j->policy);
  j->policy_init = true;
  if (ash_policy_compute (&in, &j->policy, &err) < 0)
    {
      set_status (j, ASH_STATUS_ERROR,
                  xasprintf (_("%s cannot be sandboxed as requested: %s"),
                             j->scanner->name, err.message));
      ash_err ("%s", j->result.reason);
      j->scope.kind = ASH_SCOPE_REFUSE;
      j->scope.reason = j->result.reason;
      ash_error_release (&err);
      return false;
    }
  for (size_t i = 0; i < j->policy.warnings.nr; i++)
    ash_warning ("%s: %s", j->scanner->name, j->policy.warnings.v[i]);

  json_t *rec = ash_policy_to_json (&j->policy);
  if (rec == NULL)
    rec = json_object ();
  json_object_set_new (rec, "mode", json_string (sc->mode));
  json_object_set_new (rec, "backend", json_string (b->name));
  j->result.sandbox = rec;

  if (j->policy.refusal)
    {
      /* The refusal already reads "NAME cannot be sandboxed as requested:
         ...".  It is logged now, while the tool is checked, and the
         scanner's probes get a refusing scope: they fail rather than run
         unsandboxed.  */
      ash_err ("%s", j->policy.refusal);
      set_status (j, ASH_STATUS_ERROR, xstrdup (j->policy.refusal));
      j->scope.kind = ASH_SCOPE_REFUSE;
      j->scope.reason = j->policy.refusal;
      return false;
    }
  j->scope.kind = ASH_SCOPE_SANDBOX;
  j->scope.backend = b;
  j->scope.probe = probe;
  j->scope.policy = &j->policy;
  j->sandboxed = true;
  return true;
}

/* The check phase of one scanner.  */
static void
check_job (struct scan *sc, struct job *j)
{
  const struct ash_scanner *s = j->scanner;
  struct ash_error err = ASH_ERROR_INIT;
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
      set_status (j, ASH_STATUS_MISSING,
                  xasprintf (_("%s is not installed (install it with: %s, "
                               "or ash dependencies install)"),
                             s->tool, s->install_hint));
      goto out;
    }
  if (r < 0)
    {
      set_status (j, ASH_STATUS_MISSING, xstrdup (err.message));
      goto out;
    }
  j->result.tool_path = tool;
  j->result.dependencies_satisfied = true;

  if (s->build == NULL)
    {
      set_status (j, ASH_STATUS_MISSING,
                  xasprintf (_("ash has no adapter for %s yet; its findings "
                               "would not be read (%s is installed at %s)"),
                             s->name, s->tool, tool));
      goto out;
    }

  j->results_rel = xasprintf ("scanners/%s/source", s->name);
  j->results_abs = xasprintf ("%s/%s", sc->od.path, j->results_rel);
  r = ash_tree_results_dir_open (sc->od.fd, j->results_rel, &j->results_fd,
                                 &err);
  if (r < 0)
    {
      bool link = err.kind && streq (err.kind, ASH_KIND_RESULTS_DIR_LINK);
      set_status (j, link ? ASH_STATUS_MISSING : ASH_STATUS_ERROR,
                  xstrdup (err.message));
      goto out;
    }
  r = ash_tree_check_clean (j->results_fd, ".", &err);
  if (r < 0)
    {
      set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      goto out;
    }

  if (s->req)
    ash_requirements_copy (&j->req, s->req);
  else
    ash_builtin_requirements (s->name, &j->req);

  if (sc->have_scanset)
    {
      struct ash_strvec args = ASH_STRVEC_INIT;
      r = ash_scanset_exclusion_args (&sc->scanset, s->name, &args, &err);
      if (r < 0)
        {
          ash_strvec_release (&args);
          set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
          goto out;
        }
      /* The exclusion values, without the option names, for adapters that
         build their own option (bandit joins them into one --exclude).  */
      for (size_t i = 0; i + 1 < args.nr; i += 2)
        {
          const char *v = args.v[i + 1];
          while (*v)
            {
              const char *c = strchr (v, ',');
              size_t n = c ? (size_t) (c - v) : strlen (v);
              if (n > 0)
                ash_strvec_push_nodup (&j->excluded, xstrndup (v, n));
              v += n + (c ? 1 : 0);
            }
        }
      ash_strvec_release (&args);
    }
  /* Scanners that walk the tree themselves must not read ASH's output
     when it lies inside the tree.  */
  if (ash_path_is_inside (sc->od.path, sc->source_dir)
      && !streq (sc->od.path, sc->source_dir))
    ash_strvec_push (&j->excluded, sc->od.path);

  /* The per-run config directory: the files ASH writes for the tool
     (bandit's empty --ini), outside the scanned tree, mode 0700, removed
     when the run ends.  */
  r = make_run_config_dir (sc, j, &err);
  if (r < 0)
    {
      set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      goto out;
    }

  if (!streq (sc->mode, "off") && !sandbox_decide (sc, j))
    {
      if (j->scope.kind == ASH_SCOPE_REFUSE && s->prepare)
        {
          /* The probes still run through their scope, which refuses:
             nothing of this scanner runs unsandboxed.  */
          struct ash_scan_job pj = {
            .name = s->name,
            .target = sc->source_dir,
            .results_dir = j->results_abs,
            .results_fd = j->results_fd,
            .tool_path = j->result.tool_path,
            .options = j->options,
            .run_config_dir = j->run_config_dir,
            .scope = &j->scope,
            .max_output = ASH_TREE_READ_MAX,
          };
          struct ash_error perr = ASH_ERROR_INIT;
          s->prepare (s, &pj, &perr);
          ash_error_release (&perr);
        }
      goto out;
    }

  j->sj = (struct ash_scan_job){
    .name = s->name,
    .target = sc->source_dir,
    .results_dir = j->results_abs,
    .results_fd = j->results_fd,
    .scan_set_file = sc->scan_set_file,
    .tool_path = j->result.tool_path,
    .options = j->options,
    .excluded_paths = j->excluded.v,
    .run_config_dir = j->run_config_dir,
    .scope = j->sandboxed ? &j->scope : NULL,
    .max_output = ASH_TREE_READ_MAX,
  };
  if (s->prepare && s->prepare (s, &j->sj, &err) < 0)
    {
      set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      goto out;
    }

out:
  if (j->result.status == ASH_STATUS_MISSING
      || j->result.status == ASH_STATUS_ERROR)
    ash_err (_("%s not run: %s"), s->name, j->result.reason);
  ash_error_release (&err);
}

static void
sweep (struct scan *sc _unused_, int dirfd, const char *rel)
{
  struct ash_strvec removed = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  if (ash_tree_sweep (dirfd, rel, &removed, &err) < 0)
    ash_warning (_("could not sweep %s: %s"), rel, err.message);
  for (size_t i = 0; i < removed.nr; i++)
    ash_warning (_("removed %s, which a scanner left in its results "
                   "directory"),
                 removed.v[i]);
  ash_strvec_release (&removed);
  ash_error_release (&err);
}

static void
build_env (struct scan *sc _unused_, struct job *j, struct ash_cmd *cmd)
{
  if (j->sandboxed)
    {
      ash_strvec_pushv (&cmd->env, j->policy.env.v);
      return;
    }
  /* Unsandboxed, a scanner gets ASH's environment, copied explicitly.  */
  ash_strvec_pushv (&cmd->env, environ);
}

/* A sandbox wrapper (bwrap's init, the Landlock wrapper) reports a
   scanner killed by a signal as its own exit status 128 + N.  Only the
   signals that mean a crash are read that way.  */
static int
crash_signal (const struct job *j, const struct ash_cmd_result *res)
{
  static const int crashes[] = { SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE,
                                 SIGSYS, SIGKILL };
  if (!j->sandboxed || res->status <= 128)
    return 0;
  for (size_t i = 0; i < ARRAY_SIZE (crashes); i++)
    if (res->status == 128 + crashes[i])
      return crashes[i];
  return 0;
}

/* The scan phase of one scanner.  */
static void
run_job (struct scan *sc, struct job *j)
{
  const struct ash_scanner *s = j->scanner;
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_close_ int outfd = -1, errfd = -1;
  _cleanup_free_ char *out_rel = xasprintf ("%s.stdout.log", s->name);
  _cleanup_free_ char *err_rel = xasprintf ("%s.stderr.log", s->name);
  json_t *doc = NULL;
  int r;

  if (atomic_load (&interrupted))
    {
      set_status (j, ASH_STATUS_ERROR, xstrdup (_("interrupted")));
      return;
    }
  ash_cmd_init (&cmd);
  memset (&res, 0, sizeof res);
  ash_progress_begin (sc->progress, s->name);
  double t0 = ash_now ();

  r = ash_tree_open_stream (j->results_fd, out_rel, true, &outfd, &err);
  if (r == 0)
    r = ash_tree_open_stream (j->results_fd, err_rel, true, &errfd, &err);
  if (r < 0)
    {
      set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      goto done;
    }
  r = s->build (s, &j->sj, &cmd, &err);
  if (r < 0)
    {
      set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
      goto done;
    }
  build_env (sc, j, &cmd);
  cmd.cwd = xstrdup (sc->source_dir);
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = ASH_STDIO_FD;
  cmd.stdout_fd = outfd;
  cmd.stderr_mode = ASH_STDIO_FD;
  cmd.stderr_fd = errfd;
  cmd.timeout_sec = j->timeout;
  cmd.scope = j->sandboxed ? &j->scope : NULL;
  ash_debug ("%s: running %s", s->name, cmd.argv.v[0]);

  if (j->sandboxed)
    {
      r = private_caches_make (j, &err);
      if (r < 0)
        {
          set_status (j, ASH_STATUS_ERROR, xstrdup (err.message));
          goto done;
        }
    }
  r = ash_cmd_run (&cmd, &res, &err);
  if (j->sandboxed)
    {
      private_caches_remove (j);
      sweep (sc, j->results_fd, ".");
    }
  j->result.exit_code = r == 0 ? res.status : -1;
  if (r < 0)
    set_status (j, ASH_STATUS_ERROR,
                xasprintf (_("%s could not be started: %s"), s->name,
                           err.message));
  else if (res.interrupted || atomic_load (&interrupted))
    set_status (j, ASH_STATUS_ERROR, xstrdup (_("interrupted")));
  else if (res.timed_out)
    set_status (j, ASH_STATUS_ERROR,
                xasprintf (_("timed out after %u s"), j->timeout));
  else if (res.term_signal || crash_signal (j, &res))
    {
      _cleanup_free_ char *tail = stderr_tail (j);
      int sig = res.term_signal ? res.term_signal : crash_signal (j, &res);
      set_status (j, ASH_STATUS_ERROR,
                  xasprintf (_("%s crashed: killed by signal %d (%s)%s%s"),
                             s->tool, sig, signal_name (sig),
                             tail ? ": " : "", tail ? tail : ""));
    }
  else if (s->parse (s, &j->sj, &res, &doc, &err) < 0)
    {
      _cleanup_free_ char *tail = res.status != 0 ? stderr_tail (j) : NULL;
      set_status (j, ASH_STATUS_ERROR,
                  xasprintf ("%s%s%s", err.message, tail ? ": " : "",
                             tail ? tail : ""));
    }
  else
    {
      ash_sarif_tag (doc, s->name);
      ash_suppress_doc (doc, &sc->sups, sc->source_dir, 64 << 20);
      j->result.sarif = doc;
      ash_scanner_result_count (&j->result, sc->threshold);
    }

done:
  remove_run_config_dir (j);
  j->result.duration = r == 0 && res.duration > 0 ? res.duration
                                                  : ash_now () - t0;
  ash_progress_pause (sc->progress);
  if (j->result.status == ASH_STATUS_ERROR)
    ash_err (_("%s: %s"), s->name, j->result.reason);
  else
    ash_info (_("%s: %s, %u findings (%u actionable, %u suppressed) in "
                "%.1fs"),
              s->name, ash_scanner_status_name (j->result.status),
              j->result.finding_count, j->result.actionable_count,
              j->result.suppressed_count, j->result.duration);
  ash_progress_resume (sc->progress);
  ash_progress_end (sc->progress, s->name,
                    ash_scanner_status_name (j->result.status),
                    j->result.duration);
  ash_cmd_release (&cmd);
  ash_error_release (&err);
}

/* A small pool: N threads take the next job until none is left.  */
struct pool
{
  struct scan *sc;
  struct job **jobs;
  size_t n;
  size_t next;
  pthread_mutex_t lock;
  void (*fn) (struct scan *, struct job *);
};

static void *
pool_worker (void *arg)
{
  struct pool *p = arg;
  for (;;)
    {
      pthread_mutex_lock (&p->lock);
      size_t i = p->next < p->n ? p->next++ : p->n;
      pthread_mutex_unlock (&p->lock);
      if (i >= p->n)
        return NULL;
      p->fn (p->sc, p->jobs[i]);
    }
}

static void
pool_run (struct scan *sc, struct job **jobs, size_t n, unsigned workers,
          void (*fn) (struct scan *, struct job *))
{
  struct pool p = { .sc = sc, .jobs = jobs, .n = n, .fn = fn };
  pthread_t *threads;
  size_t started = 0;

  if (n == 0)
    return;
  if (workers == 0)
    workers = 1;
  if (workers > n)
    workers = (unsigned) n;
  pthread_mutex_init (&p.lock, NULL);
  threads = xcalloc (workers, sizeof *threads);
  for (unsigned i = 0; i < workers; i++)
    if (pthread_create (&threads[i], NULL, pool_worker, &p) == 0)
      started++;
  if (started == 0)
    pool_worker (&p);
  for (size_t i = 0; i < started; i++)
    pthread_join (threads[i], NULL);
  free (threads);
  pthread_mutex_destroy (&p.lock);
}

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
static void *
signal_thread (void *arg)
{
  sigset_t *set = arg;
  for (;;)
    {
      int sig;
      if (sigwait (set, &sig) != 0)
        continue;
      if (sig == SIGUSR2)
        return NULL;
      if (atomic_load (&interrupted) == 0)
        atomic_store (&interrupted, sig);
      ash_spawn_terminate_all ();
    }
}

/* Resolve the scanners: builtins in registry order, then plugin scanners.
   --scanners narrows, --exclude-scanners wins (SKIPPED, excluded), the
   precommit mode selects upstream's fast set.  */
static void
add_job (struct scan *sc, const struct ash_scanner *s)
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
  ash_requirements_init (&j->req);
  j->options = scanner_options (sc->config, s->name);
  j->timeout = scan_timeout (j->options);
  j->run = true;
  j->result.status = ASH_STATUS_PASSED;

  if (ash_strvec_contains (&o->exclude_scanners, s->name))
    {
      j->result.excluded = true;
      set_status (j, ASH_STATUS_SKIPPED,
                  xstrdup (_("excluded with --exclude-scanners")));
    }
  else if (o->scanners.nr > 0 && !ash_strvec_contains (&o->scanners, s->name))
    set_status (j, ASH_STATUS_SKIPPED, xstrdup (_("not named in --scanners")));
  else if (o->mode == ASH_RUN_PRECOMMIT && o->scanners.nr == 0
           && !ash_strv_contains ((char *const *) ash_precommit_scanners,
                                  s->name))
    set_status (j, ASH_STATUS_SKIPPED,
                xstrdup (_("not one of the precommit mode's scanners")));
  else if (!scanner_enabled (sc->config, s->name))
    set_status (j, ASH_STATUS_SKIPPED,
                xstrdup (_("disabled in the configuration")));
}

/* The modules of --ash-plugin-modules, then those of the configuration
   that its tier lets load (plugin-tier.c): a config the scanned repository
   could have written names only installed modules outside the tree, never
   the reserved ones.  */
static int
load_plugins (struct scan *sc, struct ash_error *err)
{
  struct ash_strvec warnings = ASH_STRVEC_INIT;
  int r = ash_plugin_load_configured (sc->config, sc->opts, sc->source_dir,
                                      sc->host.helper_dir, &sc->plugins,
                                      &warnings, err);
  for (size_t i = 0; i < warnings.nr; i++)
    ash_warning ("%s", warnings.v[i]);
  ash_strvec_release (&warnings);
  return r;
}

static void
job_release (struct job *j)
{
  remove_run_config_dir (j);
  ash_scanner_result_release (&j->result);
  free (j->results_rel);
  free (j->results_abs);
  if (j->results_fd >= 0)
    ash_close (j->results_fd);
  ash_strvec_release (&j->excluded);
  ash_requirements_release (&j->req);
  if (j->policy_init)
    ash_policy_release (&j->policy);
}

static void
scan_release (struct scan *sc)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    job_release (&sc->jobs[i]);
  free (sc->jobs);
  for (size_t i = 0; i < sc->n_unknown; i++)
    free (sc->unknown[i]);
  free (sc->unknown);
  ash_strvec_release (&sc->unknown_names);
  ash_outdir_release (&sc->od);
  free (sc->source_dir);
  free (sc->scan_set_file);
  if (sc->have_scanset)
    ash_scanset_release (&sc->scanset);
  ash_sandbox_settings_release (&sc->ss);
  ash_suppressions_release (&sc->sups);
  ash_plugin_set_release (&sc->plugins);
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
build_scanset (struct scan *sc, struct ash_error *err)
{
  _cleanup_close_ int srcfd = open (sc->source_dir,
                                    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const json_t *ign = ash_config_get (sc->config,
                                      "global_settings.ignore_paths");
  struct ash_ignore_path *ip = NULL;
  size_t n = 0, i;
  json_t *e;
  int r;

  if (srcfd < 0)
    return ash_error_set (err, -errno, _("cannot open %s: %s"),
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
  struct ash_scanset_opts so = {
    .output_dir = sc->od.path, .ignore_paths = ip, .n_ignore_paths = n,
  };
  struct ash_scanset init = ASH_SCANSET_INIT;
  sc->scanset = init;
  r = ash_scanset_build (srcfd, sc->source_dir, &so, &sc->scanset, err);
  free (ip);
  if (r < 0)
    return r;
  sc->have_scanset = true;
  for (i = 0; i < sc->scanset.warnings.nr; i++)
    ash_warning ("%s", sc->scanset.warnings.v[i]);
  r = ash_scanset_write_reports (&sc->scanset, sc->od.fd, err);
  if (r < 0)
    return r;
  sc->scan_set_file = xasprintf ("%s/ash-scan-set-files-list.txt",
                                 sc->od.path);
  return 0;
}

static bool
reporter_enabled (const struct scan *sc, const char *name)
{
  static const char *const required[] = { "sarif", "markdown", "text",
                                          "flat-json" };
  for (size_t i = 0; i < ARRAY_SIZE (required); i++)
    if (streq (required[i], name))
      return true;
  _cleanup_free_ char *k = xasprintf ("reporters.%s.enabled", name);
  if (!ash_config_get_bool (sc->config, k, true))
    return false;
  if (sc->opts->output_formats.nr > 0)
    return ash_strvec_contains (&sc->opts->output_formats, name);
  return true;
}

static int
write_outputs (struct scan *sc, const json_t *agg, struct ash_error *err)
{
  char *text = json_dumps (agg, JSON_INDENT (2) | JSON_ENSURE_ASCII);
  int r, ret = 0;

  if (text == NULL)
    ash_oom ();
  r = ash_tree_write_file (sc->od.fd, "ash_aggregated_results.json", text,
                           strlen (text), 0644, err);
  free (text);
  if (r < 0)
    return r;
  for (size_t i = 0; ash_report_formats[i].name; i++)
    {
      const struct ash_report_format *f = &ash_report_formats[i];
      if (!reporter_enabled (sc, f->name))
        continue;
      _cleanup_free_ char *rel = xasprintf ("reports/%s", f->file);
      _cleanup_free_ char *body = f->render (agg);
      struct ash_error e = ASH_ERROR_INIT;
      r = ash_tree_write_file (sc->od.fd, rel, body, strlen (body), 0644, &e);
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
  return ret;
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

int
ash_scan (const struct ash_options *opts, const struct ash_config *config,
          const struct ash_backend *const *backends,
          const char *platform_note)
{
  struct scan sc;
  struct ash_error err = ASH_ERROR_INIT;
  int r, code = ASH_EXIT_INCOMPLETE;
  sigset_t sigs, oldsigs;
  pthread_t sigthread;
  bool sigthread_started = false, masked = false;
  _cleanup_free_ char *generated_at = iso_now ();
  _cleanup_free_ char *out_default = NULL;

  memset (&sc, 0, sizeof sc);
  sc.opts = opts;
  sc.config = config;
  sc.backends = backends;
  sc.platform_note = platform_note;
  sc.od = (struct ash_outdir) ASH_OUTDIR_INIT;
  ash_strvec_init (&sc.unknown_names);
  ash_sandbox_settings_init (&sc.ss);
  ash_suppressions_init (&sc.sups);
  ash_plugin_set_init (&sc.plugins);
  pthread_mutex_init (&sc.lock, NULL);
  atomic_store (&interrupted, 0);

  {
    _cleanup_free_ char *cwd = getcwd (NULL, 0);
    const char *src = opts->source_dir ? opts->source_dir : cwd;
    if (src == NULL)
      {
        ash_err (_("cannot find the working directory: %s"),
                 strerror (errno));
        goto out;
      }
    sc.source_dir = ash_path_absolute (src);
  }
  const char *output_dir = opts->output_dir;
  if (output_dir == NULL)
    output_dir = out_default = ash_path_join (sc.source_dir,
                                              ".ash/ash_output");

  /* The output directory, opened once; a link there is a refusal that
     stops the scan before anything is written (exit 3).  */
  r = ash_outdir_open (output_dir, sc.source_dir, &sc.od, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      code = err.kind && streq (err.kind, ASH_KIND_OUTPUT_DIR_LINK)
               ? ASH_EXIT_CONFIG
               : ASH_EXIT_INCOMPLETE;
      goto out;
    }
  /* Results of an earlier scan must not be mistaken for this one's.  */
  static const char *const stale[] = { "scanners", "reports",
                                       "ash_aggregated_results.json" };
  for (size_t i = 0; i < ARRAY_SIZE (stale); i++)
    if (ash_tree_remove_all (sc.od.fd, stale[i], &err) < 0)
      {
        _cleanup_free_ char *m = ash_error_format (&err);
        ash_err ("%s", m);
        code = err.kind && (streq (err.kind, ASH_KIND_OUTPUT_LINK)
                            || streq (err.kind, ASH_KIND_OUTPUT_DIR_LINK))
                 ? ASH_EXIT_CONFIG
                 : ASH_EXIT_INCOMPLETE;
        goto out;
      }
  r = attach_logs (&sc, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      code = ASH_EXIT_CONFIG;
      goto out;
    }
  ash_info (_("scanning %s into %s"), sc.source_dir, sc.od.path);

  /* Settings.  */
  {
    const char *t = ash_config_get_string (config,
                                           "global_settings.severity_threshold");
    sc.threshold = ASH_SEVERITY_MEDIUM;
    if (t && ash_severity_parse (t, &sc.threshold) < 0)
      ash_warning (_("unknown severity_threshold '%s'; using MEDIUM"), t);
  }
  {
    char today[11];
    struct ash_strvec warnings = ASH_STRVEC_INIT;
    ash_suppress_today (today);
    r = ash_suppressions_load (ash_config_get (config,
                                               "global_settings.suppressions"),
                               today, &sc.sups, &warnings, &err);
    for (size_t i = 0; i < warnings.nr; i++)
      ash_warning ("%s", warnings.v[i]);
    ash_strvec_release (&warnings);
    if (r < 0)
      {
        ash_err ("%s", err.message);
        code = ASH_EXIT_CONFIG;
        goto out;
      }
  }
  r = ash_sandbox_settings_resolve (opts, config, &sc.ss, &err);
  if (r < 0)
    {
      ash_err ("%s", err.message);
      code = ASH_EXIT_CONFIG;
      goto out;
    }
  for (size_t i = 0; i < sc.ss.warnings.nr; i++)
    ash_warning ("%s", sc.ss.warnings.v[i]);
  sc.mode = sc.ss.mode ? sc.ss.mode : "off";
  ash_host_init (&sc.host, opts);
  if (opts->allow_in_tree_tools)
    sc.host.allow_in_tree_tools = true;

  r = load_plugins (&sc, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err ("%s", m);
      code = ASH_EXIT_CONFIG;
      goto out;
    }

  r = build_scanset (&sc, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      ash_err (_("cannot build the scan set: %s"), m);
      code = ASH_EXIT_INCOMPLETE;
      goto out;
    }

  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    add_job (&sc, ash_builtin_scanners[i]);
  for (size_t i = 0; i < sc.plugins.n; i++)
    add_job (&sc, &sc.plugins.v[i]->scanner);
  /* A scanner asked for by name that does not exist is not silently
     dropped: it is a MISSING row, so the scan is incomplete.  */
  size_t n_known = sc.n_jobs;
  for (size_t i = 0; i < opts->scanners.nr; i++)
    {
      bool known = false;
      for (size_t k = 0; k < n_known; k++)
        known |= streq (sc.jobs[k].scanner->name, opts->scanners.v[i]);
      if (known)
        continue;
      struct ash_scanner *u = xzalloc (sizeof *u);
      u->name = ash_strvec_push (&sc.unknown_names, opts->scanners.v[i]);
      u->tool = u->name;
      u->install_hint = "";
      sc.unknown = xreallocarray (sc.unknown, sc.n_unknown + 1,
                                  sizeof *sc.unknown);
      sc.unknown[sc.n_unknown++] = u;
      add_job (&sc, u);
      struct job *j = &sc.jobs[sc.n_jobs - 1];
      set_status (j, ASH_STATUS_MISSING,
                  xasprintf (_("--scanners names '%s', which is neither a "
                               "builtin scanner nor one a loaded plugin "
                               "module defines"),
                             u->name));
      ash_err (_("%s not run: %s"), u->name, j->result.reason);
    }

  if (!streq (sc.mode, "off"))
    {
      /* Grants follow a scanner's own name: a section that renames its
         scanner leaves that scanner MISSING under a sandbox.  */
      struct ash_strvec names = ASH_STRVEC_INIT, reasons = ASH_STRVEC_INIT;
      ash_config_renamed_scanners (config, &names, &reasons);
      for (size_t i = 0; i < names.nr; i++)
        for (size_t k = 0; k < sc.n_jobs; k++)
          {
            struct job *j = &sc.jobs[k];
            if (!j->run || !streq (j->scanner->name, names.v[i]))
              continue;
            set_status (j, ASH_STATUS_MISSING, xstrdup (reasons.v[i]));
            ash_err (_("%s not run: %s"), j->scanner->name, j->result.reason);
          }
      ash_strvec_release (&names);
      ash_strvec_release (&reasons);

      /* What the backend's probe had to say (no cache overlays, the
         Landlock ABI and what it lacks), once.  */
      bool any = false;
      for (size_t k = 0; k < sc.n_jobs; k++)
        any |= sc.jobs[k].run;
      if (any && !sc.platform_note)
        {
          const struct ash_probe *probe = NULL;
          char *why = NULL;
          const struct ash_backend *b
            = ash_backend_select (sc.mode, backends, &sc.host, &probe, &why);
          if (b && probe && probe->notes)
            ash_info (_("sandbox %s: %s"), b->name, probe->notes);
          free (why);
        }
    }

  /* From here on an interrupt ends the running scanners and the scan
     still writes what it gathered.  */
  sigemptyset (&sigs);
  sigaddset (&sigs, SIGINT);
  sigaddset (&sigs, SIGTERM);
  sigaddset (&sigs, SIGUSR2);
  pthread_sigmask (SIG_BLOCK, &sigs, &oldsigs);
  masked = true;
  sigthread_started = pthread_create (&sigthread, NULL, signal_thread, &sigs)
                      == 0;

  sc.progress = ash_progress_start (ash_progress_choose (opts->progress,
                                                         opts->progress_ci
                                                           || getenv ("CI"),
                                                         opts->quiet, stderr),
                                    stderr);

  struct job **todo = xcalloc (sc.n_jobs + 1, sizeof *todo);
  size_t n_todo = 0;
  for (size_t i = 0; i < sc.n_jobs; i++)
    if (sc.jobs[i].run)
      todo[n_todo++] = &sc.jobs[i];
  unsigned workers = worker_count (opts);
  /* Dependency checks, once per scanner, concurrently.  */
  pool_run (&sc, todo, n_todo, n_todo > 0 ? (unsigned) n_todo : 1, check_job);
  size_t n_run = 0;
  for (size_t i = 0; i < n_todo; i++)
    if (todo[i]->run)
      todo[n_run++] = todo[i];
  pool_run (&sc, todo, n_run, workers, run_job);
  free (todo);

  ash_progress_stop (sc.progress);
  sc.progress = NULL;

  int sig = atomic_load (&interrupted);
  for (size_t i = 0; i < sc.n_jobs; i++)
    if (sc.jobs[i].run && sig)
      set_status (&sc.jobs[i], ASH_STATUS_ERROR, xstrdup (_("interrupted")));
  /* The second sweep: whatever a scanner left behind that a later write
     could follow.  */
  for (size_t i = 0; i < sc.n_jobs; i++)
    if (sc.jobs[i].sandboxed)
      {
        sweep (&sc, sc.od.fd, "scanners");
        break;
      }

  /* Aggregate.  */
  {
    struct ash_scanner_result **rs = xcalloc (sc.n_jobs + 1, sizeof *rs);
    for (size_t i = 0; i < sc.n_jobs; i++)
      rs[i] = &sc.jobs[i].result;
    const char *project = ash_config_get_string (config, "project_name");
    struct ash_scan_summary sum = {
      .project_name = project ? project : "",
      .source_dir = sc.source_dir,
      .output_dir = sc.od.path,
      .generated_at = generated_at,
      .sandbox_mode = sc.mode,
      .threshold = sc.threshold,
      .fail_on_findings = opts->fail_on_findings >= 0
                            ? opts->fail_on_findings > 0
                            : ash_config_get_bool (config, "fail_on_findings",
                                                   true),
      .fail_on_incomplete = ash_config_get_bool (
        config, "fail_on_incomplete_scanners", true),
      .interrupted = sig != 0,
    };
    json_t *agg = ash_results_aggregate (&sum, rs, sc.n_jobs);
    code = ash_results_exit_code (rs, sc.n_jobs, sum.fail_on_findings,
                                  sum.fail_on_incomplete);
    free (rs);
    r = write_outputs (&sc, agg, &err);
    if (r < 0)
      {
        _cleanup_free_ char *m = ash_error_format (&err);
        ash_err (_("cannot write the results: %s"), m);
        code = err.kind && (streq (err.kind, ASH_KIND_OUTPUT_LINK)
                            || streq (err.kind, ASH_KIND_OUTPUT_HARD_LINK))
                 ? ASH_EXIT_CONFIG
                 : ASH_EXIT_INCOMPLETE;
      }
    if (!opts->quiet)
      {
        _cleanup_free_ char *reports = xasprintf ("%s/reports", sc.od.path);
        _cleanup_free_ char *table = ash_report_summary_table (agg, reports);
        fputs ("\n", stdout);
        fputs (table, stdout);
        fflush (stdout);
      }
    json_decref (agg);
  }
  if (sig)
    {
      ash_err (_("the scan was interrupted"));
      code = 128 + sig;
    }
  ash_info (_("ash scan finished with exit code %d"), code);

out:
  if (sigthread_started)
    {
      pthread_kill (sigthread, SIGUSR2);
      pthread_join (sigthread, NULL);
    }
  if (masked)
    pthread_sigmask (SIG_SETMASK, &oldsigs, NULL);
  ash_progress_stop (sc.progress);
  scan_release (&sc);
  pthread_mutex_destroy (&sc.lock);
  ash_error_release (&err);
  ash_log_close ();
  return code;
}
