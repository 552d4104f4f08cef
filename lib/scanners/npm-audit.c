/* SPDX-License-Identifier: Apache-2.0 */
/* npm-audit.c -- the npm-audit adapter.

   Discovery follows upstream ASH: every package.json in the scan set
   whose directory holds a lockfile, looked for in the order yarn.lock,
   pnpm-lock.yaml, package-lock.json (so a directory with a yarn.lock is a
   yarn project whatever else it holds).  The lockfile must itself be in
   the scan set: an ignored lockfile, or one whose path leaves the tree,
   is not audited.

   Each npm lockfile is audited on its own, "npm audit --json" run in the
   lockfile's directory (one spawn each, in the scanner's sandbox), its
   report (auditReportVersion 2) written to npm-audit.N.json in the
   results directory and mapped to SARIF: one result per advisory and
   affected package, located at the lockfile (at the line of the
   package's entry when the lockfile has one), and one per package that
   is vulnerable only through others (npm-audit-transitive-PACKAGE).
   pnpm and yarn lockfiles are refused with an error naming them: ash
   does not read those audit formats yet.

   npm, pnpm and yarn audit only against the package registry, so offline
   (--offline, or the option offline) a project with a lockfile makes the
   scanner MISSING with that reason.  The repository's .npmrc cannot send
   the audit elsewhere: the registry is given in the environment, which
   npm ranks above a project's .npmrc.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "sandbox/backend.h"
#include "scanners/deps-common.h"
#include "scanners/scanner.h"

#define DEFAULT_REGISTRY "https://registry.npmjs.org/"
#define NPM_INFO_URI "https://docs.npmjs.com/cli/commands/npm-audit"

static const char *const npm_options[] = { "offline", NULL };

/* The lockfiles of JOB's scan set, relative to the target, in scan-set
   order.  */
static void
find_lockfiles (const struct ash_scan_job *job, struct ash_strvec *ret)
{
  static const char *const locks[] = { "yarn.lock", "pnpm-lock.yaml",
                                       "package-lock.json" };
  char *const *files = job->scan_set_files;

  for (size_t i = 0; files && files[i]; i++)
    {
      const char *f = files[i];
      const char *slash = strrchr (f, '/');
      const char *base = slash ? slash + 1 : f;
      if (!streq (base, "package.json"))
        continue;
      size_t dirlen = slash ? (size_t) (slash - f + 1) : 0;
      for (size_t k = 0; k < ARRAY_SIZE (locks); k++)
        {
          _cleanup_free_ char *lock = xasprintf ("%.*s%s", (int) dirlen, f,
                                                 locks[k]);
          bool in_set = false;
          for (size_t m = 0; files[m] && !in_set; m++)
            in_set = streq (files[m], lock);
          if (in_set)
            {
              ash_strvec_push (ret, lock);
              break;
            }
        }
    }
}

static bool
is_npm_lock (const char *lock)
{
  const char *slash = strrchr (lock, '/');
  return streq (slash ? slash + 1 : lock, "package-lock.json");
}

static int
npm_offline (const struct ash_scan_job *job, bool *ret, struct ash_error *err)
{
  bool opt;
  int r = ash_deps_option_bool (job->name, job->options, "offline", false,
                                &opt, err);
  *ret = job->offline || opt;
  return r;
}

static int
npm_prepare (const struct ash_scanner *s _unused_,
             const struct ash_scan_job *job, struct ash_error *err)
{
  struct ash_strvec locks = ASH_STRVEC_INIT;
  bool offline = false;
  int r = ash_deps_options_check (job->name, job->options, npm_options, err);
  if (r == 0)
    r = npm_offline (job, &offline, err);
  if (r < 0)
    return r;
  find_lockfiles (job, &locks);
  if (offline && locks.nr > 0)
    {
      r = ash_error_set (err, -ENETUNREACH,
                         _("npm-audit cannot run offline: npm, pnpm and yarn "
                           "audit only against the package registry, and "
                           "the scan set holds %zu lockfile(s) (%s); leave it "
                           "out with --exclude-scanners npm-audit"),
                         locks.nr, locks.v[0]);
      err->kind = ASH_KIND_SCANNER_MISSING;
    }
  ash_strvec_release (&locks);
  return r;
}

static int
npm_build (const struct ash_scanner *s _unused_,
           const struct ash_scan_job *job, struct ash_cmd *cmd,
           struct ash_error *err)
{
  int r = ash_deps_options_check (job->name, job->options, npm_options, err);
  if (r < 0)
    return r;
  ash_strvec_push (&cmd->argv, job->tool_path);
  ash_strvec_push (&cmd->argv, "audit");
  ash_strvec_push (&cmd->argv, "--json");
  /* The registry from ASH's own environment, else npm's default: never
     the one a .npmrc in the scanned tree names.  */
  const char *reg = getenv ("npm_config_registry");
  if (reg == NULL || *reg == '\0')
    reg = getenv ("NPM_CONFIG_REGISTRY");
  ash_strvec_setenv (&cmd->env, "npm_config_registry",
                     reg && *reg ? reg : DEFAULT_REGISTRY);
  ash_strvec_setenv (&cmd->env, "NPM_CONFIG_REGISTRY",
                     reg && *reg ? reg : DEFAULT_REGISTRY);
  ash_strvec_setenv (&cmd->env, "npm_config_update_notifier", "false");
  ash_strvec_setenv (&cmd->env, "npm_config_fund", "false");
  return 0;
}

static int
npm_run (const struct ash_scanner *s _unused_, const struct ash_scan_job *job,
         struct ash_cmd *tmpl, struct ash_cmd_result *res,
         struct ash_error *err)
{
  struct ash_strvec locks = ASH_STRVEC_INIT;
  int r = 0;

  memset (res, 0, sizeof *res);
  find_lockfiles (job, &locks);
  for (size_t i = 0; r == 0 && i < locks.nr; i++)
    {
      if (!is_npm_lock (locks.v[i]))
        continue;
      struct ash_cmd cmd;
      struct ash_cmd_result one;
      _cleanup_free_ char *out = xasprintf ("npm-audit.%zu.json", i);
      _cleanup_close_ int fd = -1;
      r = ash_tree_open_stream (job->results_fd, out, true, &fd, err);
      if (r < 0)
        break;
      ash_cmd_init (&cmd);
      ash_strvec_pushv (&cmd.argv, tmpl->argv.v);
      ash_strvec_pushv (&cmd.env, tmpl->env.v);
      _cleanup_free_ char *dir = ash_path_join (job->target, locks.v[i]);
      char *slash = strrchr (dir, '/');
      *slash = '\0';
      cmd.cwd = xstrdup (dir);
      cmd.stdin_mode = ASH_STDIO_NULL;
      cmd.stdout_mode = ASH_STDIO_FD;
      cmd.stdout_fd = fd;
      cmd.stderr_mode = tmpl->stderr_mode;
      cmd.stderr_fd = tmpl->stderr_fd;
      cmd.timeout_sec = tmpl->timeout_sec;
      cmd.scope = tmpl->scope;
      memset (&one, 0, sizeof one);
      r = ash_sandbox_run (&cmd, &one, err);
      ash_cmd_release (&cmd);
      if (r < 0)
        break;
      /* The first audit that did not end normally decides; otherwise the
         highest exit status.  */
      if (one.timed_out || one.interrupted || one.term_signal)
        {
          *res = one;
          break;
        }
      if (one.status > res->status)
        res->status = one.status;
      res->duration += one.duration;
    }
  ash_strvec_release (&locks);
  return r;
}

/* The line of LOCK (a package-lock.json below TARGET) where the entry of
   NODE ("node_modules/a/node_modules/b") starts, or 1.  */
static int
lock_line (const struct ash_scan_job *job, const char *lock, const char *node,
           struct ash_buf *cache, char **cached_lock)
{
  if (*cached_lock == NULL || !streq (*cached_lock, lock))
    {
      free (*cached_lock);
      *cached_lock = xstrdup (lock);
      ash_buf_reset (cache);
      _cleanup_close_ int dfd = open (job->target, O_RDONLY | O_DIRECTORY
                                                     | O_CLOEXEC);
      if (dfd < 0
          || ash_tree_read_file (dfd, lock, job->max_output, cache, NULL) < 0)
        ash_buf_reset (cache);
    }
  if (cache->len == 0 || node == NULL)
    return 1;
  _cleanup_free_ char *key = xasprintf ("\"%s\":", node);
  const char *p = strstr (cache->buf, key);
  if (p == NULL)
    return 1;
  int line = 1;
  for (const char *q = cache->buf; q < p; q++)
    line += *q == '\n';
  return line;
}

static const char *
str (const json_t *o, const char *k)
{
  return json_string_value (json_object_get (o, k));
}

/* Rule id of one advisory: the last part of its URL (GHSA-...), else
   npm-PACKAGE.  */
static char *
advisory_id (const char *pkg, const json_t *via)
{
  const char *url = str (via, "url");
  if (url && *url)
    {
      const char *slash = strrchr (url, '/');
      if (slash && slash[1])
        return xstrdup (slash + 1);
    }
  return xasprintf ("npm-%s", pkg);
}

/* Add the findings of one npm audit report DOC for LOCK to RUN.  */
static int
add_report (const struct ash_scan_job *job, json_t *run, const char *lock,
            const json_t *doc, struct ash_buf *cache, char **cached_lock,
            struct ash_error *err)
{
  json_t *vulns = json_object_get (doc, "vulnerabilities");
  const char *pkg;
  json_t *v;

  if (!json_is_object (vulns))
    {
      const json_t *e = json_object_get (doc, "error");
      const char *msg = str (doc, "message");
      return ash_error_set (err, -EIO,
                            _("npm audit of %s reported no audit (%s%s%s%s%s)"),
                            lock, msg ? msg : "",
                            msg && e ? "; " : "",
                            str (e, "code") ? str (e, "code") : "",
                            str (e, "summary") ? ": " : "",
                            str (e, "summary") ? str (e, "summary")
                                               : (e || msg ? ""
                                                           : _("no "
                                                               "\"vulnerabilities\" "
                                                               "key")));
    }
  json_object_foreach (vulns, pkg, v)
    {
      const char *psev = str (v, "severity");
      const char *range = str (v, "range") ? str (v, "range") : "*";
      json_t *via = json_object_get (v, "via");
      json_t *nodes = json_object_get (v, "nodes");
      const char *node = json_string_value (json_array_get (nodes, 0));
      int line = lock_line (job, lock, node, cache, cached_lock);
      bool direct = false;
      size_t i;
      json_t *x;

      json_array_foreach (via, i, x)
        {
          if (!json_is_object (x))
            continue;
          direct = true;
          _cleanup_free_ char *id = advisory_id (pkg, x);
          const char *title = str (x, "title") ? str (x, "title") : id;
          const char *asev = str (x, "severity") ? str (x, "severity") : psev;
          enum ash_severity sev = ash_deps_severity (asev);
          json_t *score = json_object_get (json_object_get (x, "cvss"),
                                           "score");
          _cleanup_free_ char *sc = NULL;
          if (json_is_number (score) && json_number_value (score) > 0)
            sc = xasprintf ("%.1f", json_number_value (score));
          _cleanup_free_ char *help = xasprintf (
            _("Vulnerability in %s (%s): %s"), pkg, range, title);
          size_t ri = ash_deps_rule (run, id, title, help, str (x, "url"),
                                     sev, sc);
          _cleanup_free_ char *msg = xasprintf (
            _("%s in %s %s. %s"), title, pkg, str (x, "range") ?: range,
            str (x, "url") ? str (x, "url") : "");
          json_t *res = ash_deps_result (run, id, ri, sev, msg, lock, line);
          json_t *props = json_object_get (res, "properties");
          json_object_set_new (props, "package_name", json_string (pkg));
          json_object_set_new (props, "vulnerable_versions",
                               json_string (range));
          json_object_set (props, "nodes", nodes ? nodes : json_null ());
          json_object_set (props, "fix_available",
                           json_object_get (v, "fixAvailable")
                             ?: json_false ());
        }
      if (!direct && json_array_size (via) > 0)
        {
          struct ash_buf refs = ASH_BUF_INIT;
          json_array_foreach (via, i, x)
            if (json_is_string (x))
              ash_buf_addf (&refs, "%s%s", refs.len ? ", " : "",
                            json_string_value (x));
          _cleanup_free_ char *id = xasprintf ("npm-audit-transitive-%s", pkg);
          _cleanup_free_ char *title = xasprintf (
            _("Transitive vulnerability in %s (via %s)"), pkg, refs.buf);
          enum ash_severity sev = ash_deps_severity (psev);
          size_t ri = ash_deps_rule (run, id, title, NULL, NULL, sev, NULL);
          _cleanup_free_ char *msg = xasprintf ("%s %s", title, range);
          json_t *res = ash_deps_result (run, id, ri, sev, msg, lock, line);
          json_t *props = json_object_get (res, "properties");
          json_object_set_new (props, "package_name", json_string (pkg));
          json_object_set_new (props, "vulnerable_versions",
                               json_string (range));
          ash_buf_release (&refs);
        }
    }
  return 0;
}

int
ash_npm_audit_to_sarif (const struct ash_scan_job *job,
                        char *const *locks, char *const *texts,
                        const size_t *lens, const char *version,
                        json_t **ret_doc, struct ash_error *err)
{
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("npm-audit", version, NPM_INFO_URI);
  struct ash_buf cache = ASH_BUF_INIT;
  char *cached_lock = NULL;
  int r = 0;

  json_array_append_new (json_object_get (doc, "runs"), run);
  for (size_t i = 0; r == 0 && locks[i]; i++)
    {
      json_error_t je;
      json_t *one = json_loadb (texts[i], lens[i], 0, &je);
      if (one == NULL || !json_is_object (one))
        r = ash_error_set (err, -EINVAL,
                           _("npm audit of %s: its report is not a JSON "
                             "object (line %d: %s)"),
                           locks[i], one ? 1 : je.line,
                           one ? _("not an object") : je.text);
      else
        r = add_report (job, run, locks[i], one, &cache, &cached_lock, err);
      json_decref (one);
    }
  ash_buf_release (&cache);
  free (cached_lock);
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }
  ash_deps_sarif_normalise (doc, "npm-audit", version, job->target);
  *ret_doc = doc;
  return 0;
}

static int
npm_parse (const struct ash_scanner *s _unused_,
           const struct ash_scan_job *job, const struct ash_cmd_result *res,
           json_t **ret_doc, struct ash_error *err)
{
  struct ash_strvec locks = ASH_STRVEC_INIT, npm_locks = ASH_STRVEC_INIT;
  struct ash_buf *bufs = NULL;
  char **texts = NULL;
  size_t *lens = NULL, n = 0;
  int r = 0;

  find_lockfiles (job, &locks);
  /* pnpm and yarn lockfiles: their dependencies were not checked.  */
  for (size_t i = 0; i < locks.nr; i++)
    if (!is_npm_lock (locks.v[i]))
      {
        r = ash_error_set (err, -ENOTSUP,
                           _("%s is a %s lockfile, whose audit ash cannot "
                             "read yet; its dependencies were not checked "
                             "(leave it out with ignore_paths)"),
                           locks.v[i],
                           strstr (locks.v[i], "pnpm") ? "pnpm" : "yarn");
        goto out;
      }
  bufs = xcalloc (locks.nr + 1, sizeof *bufs);
  texts = xcalloc (locks.nr + 1, sizeof *texts);
  lens = xcalloc (locks.nr + 1, sizeof *lens);
  for (size_t i = 0; i < locks.nr; i++)
    {
      _cleanup_free_ char *out = xasprintf ("npm-audit.%zu.json", i);
      bufs[n] = (struct ash_buf) ASH_BUF_INIT;
      r = ash_tree_read_file (job->results_fd, out, job->max_output, &bufs[n],
                              err);
      if (r == 0 && bufs[n].len == 0)
        r = ash_error_set (err, -EINVAL,
                           _("npm audit of %s wrote an empty report (%s, "
                             "exit status %d)"),
                           locks.v[i], out, res->status);
      else if (r == -ENOENT)
        r = ash_error_set (err, r, _("npm audit of %s wrote no report (%s)"),
                           locks.v[i], out);
      if (r < 0)
        {
          ash_buf_release (&bufs[n]);
          goto out;
        }
      texts[n] = bufs[n].buf;
      lens[n] = bufs[n].len;
      ash_strvec_push (&npm_locks, locks.v[i]);
      n++;
    }
  {
    _cleanup_free_ char *version = ash_deps_tool_version (job->tool_path,
                                                          NULL, job->scope);
    r = ash_npm_audit_to_sarif (job, npm_locks.v, texts, lens, version,
                                ret_doc, err);
  }
out:
  for (size_t i = 0; i < n; i++)
    ash_buf_release (&bufs[i]);
  free (bufs);
  free (texts);
  free (lens);
  ash_strvec_release (&locks);
  ash_strvec_release (&npm_locks);
  return r;
}

const struct ash_scanner ash_scanner_npm_audit = {
  .name = "npm-audit",
  .tool = "npm",
  .install_hint = "apt-get install npm",
  .description = "npm, pnpm and yarn dependency audit",
  .build = npm_build,
  .parse = npm_parse,
  .prepare = npm_prepare,
  .run = npm_run,
};
