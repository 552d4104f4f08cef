/* SPDX-License-Identifier: Apache-2.0 */
/* npm-audit.c -- the npm-audit adapter.

   Discovery follows upstream ASH: every package.json in the scan set
   whose directory holds a lockfile, looked for in the order yarn.lock,
   pnpm-lock.yaml, package-lock.json (so a directory with a yarn.lock is a
   yarn project whatever else it holds).  The lockfile must itself be in
   the scan set: an ignored lockfile, or one whose path leaves the tree,
   is not audited.

   Each lockfile is audited on its own, in the lockfile's directory (one
   spawn each, in the scanner's sandbox), by the package manager it
   belongs to, its report written to npm-audit.N.json in the results
   directory:
     package-lock.json  "npm audit --json" (auditReportVersion 2);
     pnpm-lock.yaml     "pnpm audit --json" (npm's v1 report: advisories);
     yarn.lock          "yarn --version" first (written to
                        npm-audit.N.version), then for yarn 1 "yarn audit
                        --json" (one JSON event a line: auditAdvisory,
                        auditSummary), for yarn 2 and later "yarn npm audit
                        --json --recursive" (yarn 2 and 3: npm's v1 report;
                        yarn 4: one {"value", "children"} line per advisory
                        and package, nothing when clean).
   The exit status of each audit is kept in npm-audit.N.status.  Every
   report maps to SARIF: one result per advisory and affected package
   (and, for the v1 reports, per installed version), located at the
   lockfile (at the line of the package's entry when the lockfile has
   one), and for npm one per package that is vulnerable only through
   others (npm-audit-transitive-PACKAGE).  A report that is not one of
   these shapes makes the scanner ERROR naming the lockfile.

   pnpm and yarn are looked for like every tool ash runs (ASH's bin
   directory, then PATH, never inside the scanned tree); a pnpm or yarn
   lockfile whose tool is not installed makes the scanner MISSING with the
   command that installs it (upstream skips that lockfile with a warning,
   which would report its dependencies as checked).  yarn is told to ignore
   a yarnPath or yarn-path the repository sets (YARN_IGNORE_PATH), so the
   yarn that runs is the installed one, never a script from the tree.

   npm, pnpm and yarn audit only against the package registry, so offline
   (--offline, or the option offline) a project with a lockfile makes the
   scanner MISSING with that reason.  The repository's .npmrc or
   .yarnrc.yml cannot send the audit elsewhere: the registry is given in
   the environment, which npm, pnpm and yarn rank above a project's
   settings.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "proc/toolfind.h"
#include "sandbox/backend.h"
#include "scanners/adapter.h"
#include "scanners/deps-common.h"
#include "scanners/scanner.h"

#define DEFAULT_REGISTRY "https://registry.npmjs.org/"
#define NPM_INFO_URI "https://docs.npmjs.com/cli/commands/npm-audit"
/* What installs pnpm and yarn: also what "ash dependencies install
   --scanners npm-audit" runs (into ASH's bin directory).  */
#define PM_INSTALL "npm install -g pnpm yarn"

enum pm
{
  PM_NPM,
  PM_PNPM,
  PM_YARN,
};

static const char *const npm_options[] = { "offline", NULL };

/* The lockfiles of JOB's scan set, relative to the target, in scan-set
   order.  */
static void
find_lockfiles (const struct ash_scan_job *job, struct ash_strvec *ret)
{
  static const char *const locks[]
    = { "yarn.lock", "pnpm-lock.yaml", "package-lock.json" };
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
          _cleanup_free_ char *lock
            = xasprintf ("%.*s%s", (int) dirlen, f, locks[k]);
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

static enum pm
pm_of (const char *lock)
{
  const char *slash = strrchr (lock, '/');
  const char *base = slash ? slash + 1 : lock;
  return streq (base, "yarn.lock")        ? PM_YARN
         : streq (base, "pnpm-lock.yaml") ? PM_PNPM
                                          : PM_NPM;
}

static const char *
pm_name (enum pm pm)
{
  return pm == PM_YARN ? "yarn" : pm == PM_PNPM ? "pnpm" : "npm";
}

/* The program of PM (npm is the scanner's own tool, JOB->tool_path),
   newly allocated; -ENOENT when it is not installed.  */
static int
pm_tool (const struct ash_scan_job *job, enum pm pm, char **ret,
         struct ash_error *err)
{
  if (pm == PM_NPM)
    {
      *ret = xstrdup (job->tool_path);
      return 0;
    }
  struct ash_toolfind_opts tf = {
    .path_env = getenv ("PATH"),
    .bin_path = job->bin_path,
    .source_dir = job->target,
    .allow_in_tree_tools = false,
  };
  return ash_toolfind (pm_name (pm), &tf, ret, err);
}

static int
npm_offline (const struct ash_scan_job *job, bool *ret, struct ash_error *err)
{
  bool opt;
  int r = ash_adapter_get_bool (job->name, job->options, "offline", false,
                                &opt, err);
  *ret = job->offline || opt;
  return r;
}

/* scanners.npm-audit.options, checked before the scan and by `config
   validate`: every check npm_prepare and npm_build make of the options
   alone, in their order (the option names, then offline's type).  What
   depends on the scanned tree or on this machine stays at scan time:
   whether the scan set holds a lockfile that offline (the option's or
   --offline) cannot audit, and the package managers its lockfiles
   need.  */
static int
npm_check_options (const json_t *options, struct ash_error *err)
{
  bool off;
  int r = ash_deps_options_check ("npm-audit", options, npm_options, err);
  if (r == 0)
    r = ash_adapter_get_bool ("npm-audit", options, "offline", false, &off,
                              err);
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
                         _ (
                           "npm-audit cannot run offline: npm, pnpm and yarn "
                           "audit only against the package registry, and "
                           "the scan set holds %zu lockfile(s) (%s); leave it "
                           "out with --exclude-scanners npm-audit"),
                         locks.nr, locks.v[0]);
      err->kind = ASH_KIND_SCANNER_MISSING;
    }
  for (size_t i = 0; r == 0 && i < locks.nr; i++)
    {
      enum pm pm = pm_of (locks.v[i]);
      _cleanup_free_ char *tool = NULL;
      struct ash_error terr = ASH_ERROR_INIT;
      int t = pm_tool (job, pm, &tool, &terr);
      if (t < 0)
        {
          r = ash_error_set (err, -ENOENT,
                             _ ("%s is not installed (install it with: %s, "
                                "or ash dependencies install); %s needs it "
                                "(%s)"),
                             pm_name (pm), PM_INSTALL, locks.v[i],
                             terr.message);
          err->kind = ASH_KIND_SCANNER_MISSING;
        }
      ash_error_release (&terr);
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
  /* yarn 2 and later read the registry from YARN_NPM_REGISTRY_SERVER
     (above .yarnrc.yml), yarn 1 from YARN_REGISTRY (above .yarnrc).  */
  ash_strvec_setenv (&cmd->env, "YARN_NPM_REGISTRY_SERVER",
                     reg && *reg ? reg : DEFAULT_REGISTRY);
  ash_strvec_setenv (&cmd->env, "YARN_REGISTRY",
                     reg && *reg ? reg : DEFAULT_REGISTRY);
  /* Never a yarn the repository ships (yarnPath, yarn-path).  */
  ash_strvec_setenv (&cmd->env, "YARN_IGNORE_PATH", "1");
  /* Nor the plugins a .yarnrc.yml of the tree loads (JavaScript from the
     repository): yarn 2 and later look for an rc file of this name, which
     no file of the tree can have been given in advance.  */
  {
    unsigned char rnd[8];
    char hex[sizeof rnd * 2 + 1];
    if (getrandom (rnd, sizeof rnd, 0) != (ssize_t) sizeof rnd)
      return ash_error_set (err, -EIO, _ ("cannot read random bytes: %s"),
                            strerror (errno));
    for (size_t i = 0; i < sizeof rnd; i++)
      snprintf (hex + 2 * i, 3, "%02x", rnd[i]);
    _cleanup_free_ char *rc = xasprintf (".ash-no-yarnrc-%s.yml", hex);
    ash_strvec_setenv (&cmd->env, "YARN_RC_FILENAME", rc);
  }
  /* pnpm: no .pnpmfile.cjs hooks from the tree.  */
  ash_strvec_setenv (&cmd->env, "npm_config_ignore_pnpmfile", "true");
  ash_strvec_setenv (&cmd->env, "YARN_ENABLE_TELEMETRY", "0");
  ash_strvec_setenv (&cmd->env, "COREPACK_ENABLE_DOWNLOAD_PROMPT", "0");
  return 0;
}

/* Run TOOL ARGS... (TMPL's environment, stdio and limits) in DIR, its
   standard output into OUT below the results directory.  */
static int
run_one (const struct ash_scan_job *job, const struct ash_cmd *tmpl,
         const char *tool, const char *const *args, const char *dir,
         const char *out, struct ash_cmd_result *one, struct ash_error *err)
{
  struct ash_cmd cmd;
  _cleanup_close_ int fd = -1;
  int r = ash_tree_open_stream (job->results_fd, out, true, &fd, err);
  if (r < 0)
    return r;
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, tool);
  for (const char *const *a = args; *a; a++)
    ash_strvec_push (&cmd.argv, *a);
  ash_strvec_pushv (&cmd.env, tmpl->env.v);
  cmd.cwd = xstrdup (dir);
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = ASH_STDIO_FD;
  cmd.stdout_fd = fd;
  cmd.stderr_mode = tmpl->stderr_mode;
  cmd.stderr_fd = tmpl->stderr_fd;
  cmd.timeout_sec = tmpl->timeout_sec;
  cmd.scope = tmpl->scope;
  memset (one, 0, sizeof *one);
  r = ash_sandbox_run (&cmd, one, err);
  ash_cmd_release (&cmd);
  return r;
}

/* The major version in the output of "yarn --version" (its last line
   that is not blank), or -1.  */
static int
yarn_major (const char *text)
{
  const char *last = NULL;
  for (const char *p = text; p && *p;)
    {
      const char *nl = strchr (p, '\n');
      const char *q = p;
      while (*q == ' ' || *q == '\t' || *q == '\r')
        q++;
      if (*q && *q != '\n')
        last = q;
      p = nl ? nl + 1 : NULL;
    }
  if (last == NULL)
    return -1;
  if (*last == 'v')
    last++;
  if (*last < '0' || *last > '9')
    return -1;
  long m = 0;
  while (*last >= '0' && *last <= '9' && m < 100000)
    m = m * 10 + (*last++ - '0');
  return *last == '.' ? (int) m : -1;
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
      enum pm pm = pm_of (locks.v[i]);
      struct ash_cmd_result one;
      _cleanup_free_ char *out = xasprintf ("npm-audit.%zu.json", i);
      _cleanup_free_ char *tool = NULL;
      _cleanup_free_ char *dir = ash_path_join (job->target, locks.v[i]);
      char *slash = strrchr (dir, '/');
      *slash = '\0';
      r = pm_tool (job, pm, &tool, err);
      if (r < 0)
        break;
      static const char *const npm_args[] = { "audit", "--json", NULL };
      static const char *const yarn1_args[] = { "audit", "--json", NULL };
      static const char *const berry_args[]
        = { "npm", "audit", "--json", "--recursive", NULL };
      static const char *const version_args[] = { "--version", NULL };
      const char *const *args = npm_args;
      if (pm == PM_YARN)
        {
          /* Which yarn runs depends on the project (corepack), so ask it
             from there.  */
          _cleanup_free_ char *vout = xasprintf ("npm-audit.%zu.version", i);
          struct ash_buf v = ASH_BUF_INIT;
          r = run_one (job, tmpl, tool, version_args, dir, vout, &one, err);
          if (r < 0)
            break;
          if (one.timed_out || one.interrupted || one.term_signal)
            {
              *res = one;
              break;
            }
          if (ash_tree_read_file (job->results_fd, vout, 4096, &v, NULL) == 0
              && yarn_major (v.buf) >= 2)
            args = berry_args;
          else
            args = yarn1_args;
          ash_buf_release (&v);
        }
      r = run_one (job, tmpl, tool, args, dir, out, &one, err);
      if (r < 0)
        break;
      {
        _cleanup_free_ char *sout = xasprintf ("npm-audit.%zu.status", i);
        _cleanup_free_ char *st = xasprintf ("%d\n", one.status);
        r = ash_tree_write_file (job->results_fd, sout, st, strlen (st), 0644,
                                 err);
        if (r < 0)
          break;
      }
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
      _cleanup_close_ int dfd
        = open (job->target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
      return ash_error_set (
        err, -EIO, _ ("npm audit of %s reported no audit (%s%s%s%s%s)"), lock,
        msg ? msg : "", msg && e ? "; " : "",
        str (e, "code") ? str (e, "code") : "", str (e, "summary") ? ": " : "",
        str (e, "summary") ? str (e, "summary")
                           : (e || msg ? ""
                                       : _ ("no "
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
          json_t *score
            = json_object_get (json_object_get (x, "cvss"), "score");
          _cleanup_free_ char *sc = NULL;
          if (json_is_number (score) && json_number_value (score) > 0)
            sc = xasprintf ("%.1f", json_number_value (score));
          _cleanup_free_ char *help
            = xasprintf (_ ("Vulnerability in %s (%s): %s"), pkg, range,
                         title);
          size_t ri
            = ash_deps_rule (run, id, title, help, str (x, "url"), sev, sc);
          _cleanup_free_ char *msg
            = xasprintf (_ ("%s in %s %s. %s"), title, pkg,
                         str (x, "range") ?: range,
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
          _cleanup_free_ char *title
            = xasprintf (_ ("Transitive vulnerability in %s (via %s)"), pkg,
                         refs.buf);
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

/* The line of LOCK (a pnpm-lock.yaml or yarn.lock, its text in CACHE)
   where an entry of PKG at VERSION (any version when NULL) starts: a line
   that, past blanks, quotes and a slash, reads "PKG@VERSION" (pnpm 5 and
   6 write "/PKG/VERSION:"), else the first entry of PKG, else 1.  */
static int
entry_line (const struct ash_buf *cache, const char *pkg, const char *version)
{
  int line = 1, any = 0;
  size_t plen = strlen (pkg);
  if (cache->len == 0)
    return 1;
  for (const char *p = cache->buf; p && *p; line++)
    {
      const char *nl = strchr (p, '\n');
      const char *q = p;
      while (*q == ' ' || *q == '"' || *q == '\'' || *q == '/')
        q++;
      if (strncmp (q, pkg, plen) == 0 && (q[plen] == '@' || q[plen] == '/'))
        {
          const char *v = q + plen + 1;
          if (!any)
            any = line;
          if (version && strncmp (v, version, strlen (version)) == 0)
            {
              char c = v[strlen (version)];
              if (c == ':' || c == '"' || c == '(' || c == '_' || c == '\''
                  || c == '\n' || c == '\0')
                return line;
            }
          else if (version == NULL)
            return line;
        }
      p = nl ? nl + 1 : NULL;
    }
  return any ? any : 1;
}

/* One result for an advisory of npm's v1 shape (pnpm, yarn 1 to 3) or a
   yarn 4 line, normalised to: package PKG, installed VERSION (or NULL),
   advisory ID (may be NULL), TITLE, URL, SEVERITY word, CVSS score (<= 0:
   none), VULNERABLE and PATCHED ranges (PATCHED may be NULL), PATHS (the
   dependency paths or dependents, may be NULL).  SEEN keeps one result
   per advisory, package and version.  */
static void
add_advisory (json_t *run, json_t *seen, const char *lock,
              const struct ash_buf *lock_text, const char *pkg,
              const char *version, const json_t *id, const char *title,
              const char *url, const char *severity, double score,
              const char *vulnerable, const char *patched, const json_t *paths)
{
  _cleanup_free_ char *rid = NULL;
  if (url && *url && strrchr (url, '/') && strrchr (url, '/')[1])
    rid = xstrdup (strrchr (url, '/') + 1);
  else if (json_is_integer (id))
    rid = xasprintf ("npm-%s-%" JSON_INTEGER_FORMAT, pkg,
                     json_integer_value (id));
  else if (json_is_string (id) && *json_string_value (id))
    rid = xasprintf ("npm-%s-%s", pkg, json_string_value (id));
  else
    rid = xasprintf ("npm-%s", pkg);
  _cleanup_free_ char *key
    = xasprintf ("%s|%s|%s|%s", lock, rid, pkg, version ? version : "");
  json_t *prev = json_object_get (seen, key);
  if (prev)
    {
      /* yarn 1 repeats an advisory once per path that reaches it.  */
      json_t *have
        = json_object_get (json_object_get (prev, "properties"), "paths");
      size_t i;
      json_t *x;
      json_array_foreach (paths, i, x)
        if (json_is_string (x) && json_is_array (have))
          {
            bool dup = false;
            size_t k;
            json_t *y;
            json_array_foreach (have, k, y)
              dup |= json_equal (x, y);
            if (!dup)
              json_array_append (have, x);
          }
      return;
    }
  if (title == NULL || *title == '\0')
    title = rid;
  if (vulnerable == NULL || *vulnerable == '\0')
    vulnerable = "*";
  enum ash_severity sev = ash_deps_severity (severity ? severity : "moderate");
  _cleanup_free_ char *sc = score > 0 ? xasprintf ("%.1f", score) : NULL;
  _cleanup_free_ char *help
    = xasprintf (_ ("Vulnerability in %s (%s): %s"), pkg, vulnerable, title);
  size_t ri
    = ash_deps_rule (run, rid, title, help, url && *url ? url : NULL, sev, sc);
  _cleanup_free_ char *msg = xasprintf (_ ("%s in %s %s. %s"), title, pkg,
                                        vulnerable, url ? url : "");
  json_t *res = ash_deps_result (run, rid, ri, sev, msg, lock,
                                 entry_line (lock_text, pkg, version));
  json_t *props = json_object_get (res, "properties");
  json_object_set_new (props, "package_name", json_string (pkg));
  if (version)
    json_object_set_new (props, "installed_version", json_string (version));
  json_object_set_new (props, "vulnerable_versions", json_string (vulnerable));
  if (patched)
    {
      json_object_set_new (props, "patched_versions", json_string (patched));
      json_object_set_new (props, "fix_available",
                           json_boolean (*patched
                                         && !streq (patched, "<0.0.0")));
    }
  json_t *arr = json_array ();
  size_t i;
  json_t *x;
  json_array_foreach (paths, i, x)
    if (json_is_string (x))
      json_array_append (arr, x);
  json_object_set_new (props, "paths", arr);
  json_object_set (seen, key, res);
}

/* An advisory of npm's v1 report (pnpm audit, yarn 1's auditAdvisory,
   yarn 2 and 3): one result per installed version it lists.  */
static void
add_v1_advisory (json_t *run, json_t *seen, const char *lock,
                 const struct ash_buf *lock_text, const json_t *adv)
{
  const char *pkg = str (adv, "module_name");
  if (pkg == NULL || *pkg == '\0')
    return;
  json_t *score = json_object_get (json_object_get (adv, "cvss"), "score");
  double sc = json_is_number (score) ? json_number_value (score) : 0;
  json_t *findings = json_object_get (adv, "findings");
  size_t i, n = 0;
  json_t *f;
  json_array_foreach (findings, i, f)
    {
      const char *ver = str (f, "version");
      if (ver == NULL || *ver == '\0')
        continue;
      n++;
      add_advisory (run, seen, lock, lock_text, pkg, ver,
                    json_object_get (adv, "id"), str (adv, "title"),
                    str (adv, "url"), str (adv, "severity"), sc,
                    str (adv, "vulnerable_versions"),
                    str (adv, "patched_versions"),
                    json_object_get (f, "paths"));
    }
  if (n == 0)
    add_advisory (run, seen, lock, lock_text, pkg, NULL,
                  json_object_get (adv, "id"), str (adv, "title"),
                  str (adv, "url"), str (adv, "severity"), sc,
                  str (adv, "vulnerable_versions"),
                  str (adv, "patched_versions"), NULL);
}

/* "npm-audit.N.json (message; code: summary)" for a report that carries
   an error and no audit.  */
static int
report_error (const char *tool, const char *lock, const char *out,
              const json_t *doc, int status, struct ash_error *err)
{
  const json_t *e = json_object_get (doc, "error");
  const char *msg = str (doc, "message");
  const char *code = str (e, "code");
  const char *summary = str (e, "summary");
  if (json_is_string (e))
    summary = json_string_value (e);
  /* pnpm: {"error": {"code": ..., "message": ...}}.  */
  if (summary == NULL)
    summary = str (e, "message");
  return ash_error_set (err, -EIO,
                        _ ("%s audit of %s reported no audit in %s (exit "
                           "status %d%s%s%s%s%s%s)"),
                        tool, lock, out, status,
                        msg || code || summary ? ": " : "", msg ? msg : "",
                        msg && (code || summary) ? "; " : "", code ? code : "",
                        code && summary ? ": " : "", summary ? summary : "");
}

/* One lockfile's report (TEXT, LEN: what the audit wrote to OUT; STATUS
   its exit status; VERSION what "yarn --version" printed, for yarn) into
   RUN.  */
/* The refusal of TOOL's report OUT of LOCK (or of one of its lines,
   LEN bytes) whose parse went over the memory budget.  */
static int
report_over_budget (struct ash_error *err, const char *tool, const char *out,
                    const char *lock, size_t len)
{
  _cleanup_free_ char *what
    = xasprintf (_ ("%s audit's report %s of %s"), tool, out, lock);
  return ash_json_over_budget (err, what, len);
}

static int
add_lock (const struct ash_scan_job *job, json_t *run, json_t *seen,
          const char *lock, enum pm pm, const char *out, const char *text,
          size_t len, int status, const char *version, struct ash_buf *cache,
          char **cached_lock, struct ash_error *err)
{
  const char *tool = pm_name (pm);
  json_error_t je;
  int r = 0;

  if (pm == PM_NPM)
    {
      if (len == 0)
        return ash_error_set (err, -EINVAL,
                              _ ("npm audit of %s wrote an empty report (%s, "
                                 "exit status %d)"),
                              lock, out, status);
      bool over;
      json_t *one = ash_json_loadb_budgeted (text, len, &je, &over);
      if (over)
        return report_over_budget (err, tool, out, lock, len);
      if (one == NULL || !json_is_object (one))
        r = ash_error_set (err, -EINVAL,
                           _ ("npm audit of %s: its report %s is not a JSON "
                              "object (line %d: %s)"),
                           lock, out, one ? 1 : je.line,
                           one ? _ ("not an object") : je.text);
      else
        r = add_report (job, run, lock, one, cache, cached_lock, err);
      json_decref (one);
      return r;
    }

  /* pnpm and yarn: the lockfile's text, for the lines of its entries.  */
  struct ash_buf lock_text = ASH_BUF_INIT;
  {
    _cleanup_close_ int dfd
      = open (job->target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0
        || ash_tree_read_file (dfd, lock, job->max_output, &lock_text, NULL)
             < 0)
      ash_buf_reset (&lock_text);
  }
  int major = pm == PM_YARN ? yarn_major (version) : 0;

  if (pm == PM_YARN && major < 0)
    r = ash_error_set (err, -EINVAL,
                       _ ("yarn audit of %s: cannot tell which yarn runs "
                          "there (\"yarn --version\" printed no version; see "
                          "%s)"),
                       lock, out);
  else if (pm == PM_PNPM || major >= 2)
    {
      /* One JSON document: npm's v1 report (pnpm, yarn 2 and 3), or, for
         yarn 4, one JSON object a line.  */
      bool over = false;
      json_t *doc
        = len ? ash_json_loadb_budgeted (text, len, &je, &over) : NULL;
      if (over)
        r = report_over_budget (err, tool, out, lock, len);
      else if (json_is_object (doc)
               && json_is_object (json_object_get (doc, "advisories")))
        {
          const char *k;
          json_t *adv;
          json_object_foreach (json_object_get (doc, "advisories"), k, adv)
            if (json_is_object (adv))
              add_v1_advisory (run, seen, lock, &lock_text, adv);
        }
      else if (json_is_object (doc) && json_object_get (doc, "error"))
        r = report_error (tool, lock, out, doc, status, err);
      else if (pm == PM_PNPM)
        r = ash_error_set (err, -EINVAL,
                           len == 0 ? _ ("pnpm audit of %s wrote an empty "
                                         "report (%s, exit status %d)")
                                    : _ ("pnpm audit of %s: its report %s "
                                         "is not npm's audit report (exit "
                                         "status %d)"),
                           lock, out, status);
      else
        {
          /* yarn 4: nothing at all when clean (exit 0).  */
          size_t lines = 0, bad = 0;
          const char *p = text, *end = text + len;
          while (p < end)
            {
              const char *nl = memchr (p, '\n', (size_t) (end - p));
              size_t l = nl ? (size_t) (nl - p) : (size_t) (end - p);
              json_t *o = NULL;
              bool blank = true;
              for (size_t q = 0; q < l; q++)
                blank &= p[q] == ' ' || p[q] == '\t' || p[q] == '\r';
              bool over = false;
              if (!blank)
                o = ash_json_loadb_budgeted (p, l, &je, &over);
              if (over)
                {
                  r = report_over_budget (err, tool, out, lock, l);
                  break;
                }
              if (!blank && !json_is_object (json_object_get (o, "children")))
                bad++;
              else if (o)
                {
                  json_t *c = json_object_get (o, "children");
                  const char *id = str (c, "ID");
                  const char *pkg = str (o, "value");
                  lines++;
                  size_t idl = id ? strlen (id) : 0;
                  /* Deprecation notices are not vulnerabilities.  */
                  if (pkg && *pkg
                      && !(idl >= 13
                           && streq (id + idl - 13, "(deprecation)")))
                    {
                      json_t *tv = json_object_get (c, "Tree Versions");
                      json_t *deps = json_object_get (c, "Dependents");
                      size_t i;
                      json_t *v;
                      bool any = false;
                      json_array_foreach (tv, i, v)
                        if (json_is_string (v))
                          {
                            any = true;
                            add_advisory (run, seen, lock, &lock_text, pkg,
                                          json_string_value (v),
                                          json_object_get (c, "ID"),
                                          str (c, "Issue"), str (c, "URL"),
                                          str (c, "Severity"), 0,
                                          str (c, "Vulnerable Versions"), NULL,
                                          deps);
                          }
                      if (!any)
                        add_advisory (run, seen, lock, &lock_text, pkg, NULL,
                                      json_object_get (c, "ID"),
                                      str (c, "Issue"), str (c, "URL"),
                                      str (c, "Severity"), 0,
                                      str (c, "Vulnerable Versions"), NULL,
                                      deps);
                    }
                }
              json_decref (o);
              p = nl ? nl + 1 : end;
            }
          if (r == 0 && (bad > 0 || (lines == 0 && status != 0)))
            r = ash_error_set (err, -EINVAL,
                               _ ("yarn audit of %s wrote no audit report "
                                  "(%s, exit status %d%s)"),
                               lock, out, status,
                               bad ? _ (", lines that are not yarn's audit "
                                        "format")
                                   : "");
        }
      json_decref (doc);
    }
  else
    {
      /* yarn 1: one JSON event a line; an auditSummary ends every
         report, clean or not.  Its exit status is a mask of the
         severities found.  */
      bool summary = false;
      size_t bad = 0;
      const char *errmsg = NULL;
      json_t *errev = NULL;
      const char *p = text, *end = text + len;
      while (p < end)
        {
          const char *nl = memchr (p, '\n', (size_t) (end - p));
          size_t l = nl ? (size_t) (nl - p) : (size_t) (end - p);
          bool over = false;
          json_t *o = l ? ash_json_loadb_budgeted (p, l, &je, &over) : NULL;
          if (over)
            {
              r = report_over_budget (err, tool, out, lock, l);
              break;
            }
          const char *type = str (o, "type");
          json_t *data = json_object_get (o, "data");
          if (l && !json_is_object (o))
            bad++;
          else if (type && streq (type, "auditAdvisory"))
            {
              json_t *adv = json_object_get (data, "advisory");
              if (json_is_object (adv))
                add_v1_advisory (run, seen, lock, &lock_text, adv);
            }
          else if (type && streq (type, "auditSummary"))
            summary = true;
          else if (type && streq (type, "error") && errev == NULL)
            {
              errev = json_incref (o);
              errmsg = json_string_value (data);
            }
          json_decref (o);
          p = nl ? nl + 1 : end;
        }
      if (r == 0 && !summary)
        r = ash_error_set (err, -EIO,
                           _ ("yarn audit of %s wrote no audit report (%s, "
                              "exit status %d%s%s%s)"),
                           lock, out, status, errmsg ? ": " : "",
                           errmsg ? errmsg : "",
                           bad ? _ (", lines that are not yarn's events")
                               : "");
      json_decref (errev);
    }
  ash_buf_release (&lock_text);
  return r;
}

int
ash_npm_audit_to_sarif (const struct ash_scan_job *job, char *const *locks,
                        char *const *texts, const size_t *lens,
                        const char *version, json_t **ret_doc,
                        struct ash_error *err)
{
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("npm-audit", version, NPM_INFO_URI);
  json_t *seen = json_object ();
  struct ash_buf cache = ASH_BUF_INIT;
  char *cached_lock = NULL;
  int r = 0;

  json_array_append_new (json_object_get (doc, "runs"), run);
  for (size_t i = 0; r == 0 && locks[i]; i++)
    {
      enum pm pm = pm_of (locks[i]);
      r = add_lock (job, run, seen, locks[i], pm, locks[i], texts[i], lens[i],
                    1, pm == PM_YARN ? version : NULL, &cache, &cached_lock,
                    err);
    }
  json_decref (seen);
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
           const struct ash_scan_job *job,
           const struct ash_cmd_result *res _unused_, json_t **ret_doc,
           struct ash_error *err)
{
  struct ash_strvec locks = ASH_STRVEC_INIT;
  _cleanup_free_ char *version
    = ash_deps_tool_version (job->tool_path, NULL, job->scope);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("npm-audit", version, NPM_INFO_URI);
  json_t *seen = json_object ();
  struct ash_buf cache = ASH_BUF_INIT;
  char *cached_lock = NULL;
  int r = 0;

  json_array_append_new (json_object_get (doc, "runs"), run);
  find_lockfiles (job, &locks);
  for (size_t i = 0; r == 0 && i < locks.nr; i++)
    {
      enum pm pm = pm_of (locks.v[i]);
      _cleanup_free_ char *out = xasprintf ("npm-audit.%zu.json", i);
      _cleanup_free_ char *sout = xasprintf ("npm-audit.%zu.status", i);
      _cleanup_free_ char *vout = xasprintf ("npm-audit.%zu.version", i);
      struct ash_buf text = ASH_BUF_INIT, st = ASH_BUF_INIT,
                     ver = ASH_BUF_INIT;
      r = ash_tree_read_file (job->results_fd, out, job->max_output, &text,
                              err);
      if (r == -ENOENT)
        r = ash_error_set (err, r, _ ("%s audit of %s wrote no report (%s)"),
                           pm_name (pm), locks.v[i], out);
      int status = 0;
      if (r == 0
          && ash_tree_read_file (job->results_fd, sout, 64, &st, NULL) == 0
          && st.len)
        status = atoi (st.buf);
      if (r == 0 && pm == PM_YARN)
        (void) ash_tree_read_file (job->results_fd, vout, 4096, &ver, NULL);
      if (r == 0)
        r = add_lock (job, run, seen, locks.v[i], pm, out,
                      text.buf ? text.buf : "", text.len, status,
                      ver.buf ? ver.buf : "", &cache, &cached_lock, err);
      ash_buf_release (&text);
      ash_buf_release (&st);
      ash_buf_release (&ver);
    }
  json_decref (seen);
  ash_buf_release (&cache);
  free (cached_lock);
  ash_strvec_release (&locks);
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }
  ash_deps_sarif_normalise (doc, "npm-audit", version, job->target);
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_npm_audit = {
  .name = "npm-audit",
  .tool = "npm",
  .install_hint
  = "apt-get install npm; for pnpm and yarn lockfiles: " PM_INSTALL,
  .description = "npm, pnpm and yarn dependency audit",
  .build = npm_build,
  .parse = npm_parse,
  .prepare = npm_prepare,
  .run = npm_run,
  .check_options = npm_check_options,
};
