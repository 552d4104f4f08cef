/* SPDX-License-Identifier: Apache-2.0 */
/* dbphase.c -- updating and checking grype's and trivy's databases.  */

#include <config.h>

#include "scan/dbphase.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "sandbox/scanner-reqs.h"
#include "scan/job.h"
#include "scan/rundir.h"

extern char **environ;

#define LOCK_NAME ".ash-db.lock"
#define DEFAULT_LOCK_WAIT 600
#define UPDATE_TIMEOUT 1800
#define DEFAULT_BOUND_SEC (120 * 3600)

/* The database tools, in the order of struct scan's db_lock_fds.  */
static const char *const db_tools[] = { "grype", "trivy" };

/* The database tool of scanner NAME ("grype", "trivy"), or NULL.  */
static const char *
db_tool (const char *name)
{
  if (streq (name, "grype"))
    return "grype";
  if (streq (name, "trivy") || streq (name, "trivy-repo"))
    return "trivy";
  return NULL;
}

static char *
cache_dir_of (const char *name)
{
  return ash_scanner_db_cache_dir (name, environ, getenv ("HOME"), NULL);
}

/* One line, printable: what a tool printed may reach a terminal.  */
static char *
printable_tail (const struct ash_buf *b)
{
  size_t end = b->len;
  while (end > 0 && isspace ((unsigned char) b->buf[end - 1]))
    end--;
  size_t start = end;
  while (start > 0 && b->buf[start - 1] != '\n')
    start--;
  if (end - start > 300)
    start = end - 300;
  char *s = xstrndup (b->buf + start, end - start);
  for (char *p = s; *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = '?';
  return s;
}

/* The environment of ASH's own database spawns: what a tool needs to
   reach its server, and the tool's own variables from ASH's environment
   (never from the tree), then CACHE.  */
static void
db_env (const char *tool, const char *cache, struct ash_strvec *env)
{
  static const char *const keep[] = {
    "PATH",       "HOME",          "LANG",         "LC_ALL",     "TZ",
    "http_proxy", "https_proxy",   "no_proxy",     "HTTP_PROXY", "HTTPS_PROXY",
    "NO_PROXY",   "SSL_CERT_FILE", "SSL_CERT_DIR",
  };
  for (size_t i = 0; i < ARRAY_SIZE (keep); i++)
    {
      const char *v = getenv (keep[i]);
      if (v)
        ash_strvec_setenv (env, keep[i], v);
    }
  const char *prefix = streq (tool, "grype") ? "GRYPE_" : "TRIVY_";
  for (char **e = environ; e && *e; e++)
    if (ash_str_has_prefix (*e, prefix))
      ash_strvec_push (env, *e);
  if (streq (tool, "grype"))
    {
      ash_strvec_setenv (env, "GRYPE_DB_CACHE_DIR", cache);
      ash_strvec_setenv (env, "GRYPE_CHECK_FOR_APP_UPDATE", "false");
    }
  else
    ash_strvec_setenv (env, "TRIVY_CACHE_DIR", cache);
}

/* Make DIR and its parents (0755; a cache the tool itself would make).  */
static int
mkdirs (const char *dir)
{
  _cleanup_free_ char *p = xstrdup (dir);
  for (char *s = p + 1; *s; s++)
    if (*s == '/')
      {
        *s = '\0';
        if (mkdir (p, 0755) < 0 && errno != EEXIST)
          return -errno;
        *s = '/';
      }
  if (mkdir (p, 0755) < 0 && errno != EEXIST)
    return -errno;
  return 0;
}

/* Take the lock in CACHE, exclusive (an update) or, with SHARED, shared
   (a scan reading the database), waiting at most ASH_DB_LOCK_TIMEOUT
   seconds.  The fd, or a negative errno with ERR filled: -ETIMEDOUT when
   the wait timed out.  */
static int
lock_cache (const char *cache, bool shared, struct ash_error *err)
{
  _cleanup_free_ char *path = ash_path_join (cache, LOCK_NAME);
  const char *w = getenv ("ASH_DB_LOCK_TIMEOUT");
  long wait = DEFAULT_LOCK_WAIT;
  if (w && *w)
    {
      char *end;
      long v = strtol (w, &end, 10);
      if (*end == '\0' && v >= 0)
        wait = v;
    }
  int fd = open (path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return ash_error_set (err, -errno, _ ("cannot open the lock %s: %s"), path,
                          strerror (errno));
  double deadline = ash_now () + (double) wait;
  for (;;)
    {
      if (flock (fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0)
        return fd;
      if (errno != EWOULDBLOCK && errno != EINTR)
        {
          int e = errno;
          close (fd);
          return ash_error_set (err, -e, _ ("cannot lock %s: %s"), path,
                                strerror (e));
        }
      if (ash_now () >= deadline)
        {
          close (fd);
          return ash_error_set (err, -ETIMEDOUT,
                                _ (
                                  "another scan held the database lock %s "
                                  "for more than %ld s (ASH_DB_LOCK_TIMEOUT); "
                                  "try again when it has finished"),
                                path, wait);
        }
      struct timespec ts = { 0, 100 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
}

/* Run ARGV (tool's own command) from a private directory with the
   database environment; its output is captured.  */
static int
db_spawn (const char *tool, const char *cache, char *const *argv,
          const char *dir, unsigned timeout, struct ash_cmd *cmd,
          struct ash_cmd_result *res, struct ash_error *err)
{
  ash_strvec_pushv (&cmd->argv, argv);
  db_env (tool, cache, &cmd->env);
  cmd->cwd = xstrdup (dir);
  cmd->stdin_mode = ASH_STDIO_NULL;
  cmd->stdout_mode = ASH_STDIO_CAPTURE;
  cmd->stderr_mode = ASH_STDIO_CAPTURE;
  cmd->out.max = 4 << 20;
  cmd->err.max = 1 << 20;
  cmd->timeout_sec = timeout;
  cmd->scope = NULL;
  return ash_cmd_run (cmd, res, err);
}

static int
write_empty_config (const char *dir, const char *name, char **ret)
{
  _cleanup_free_ char *path = ash_path_join (dir, name);
  _cleanup_close_ int fd
    = open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return -errno;
  *ret = TAKE_PTR (path);
  return 0;
}

/* Whether a trivy scanner of SC still to run scans for misconfigurations
   (its option scanners, by default all four kinds, names misconfig), and
   so needs trivy's checks bundle.  */
static bool
wants_checks (const struct scan *sc)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    {
      const struct job *j = &sc->jobs[i];
      const char *t = db_tool (j->scanner->name);
      if (!j->run || t == NULL || !streq (t, "trivy"))
        continue;
      const json_t *list = json_object_get (j->options, "scanners");
      if (!json_is_array (list))
        return true;
      size_t k;
      const json_t *e;
      json_array_foreach (list, k, e)
        if (json_is_string (e) && streq (json_string_value (e), "misconfig"))
          return true;
    }
  return false;
}

/* Remove the run directory *DIR (a cleanup function), with a warning
   when it cannot be removed.  */
static void
rundir_removep (char **dir)
{
  _cleanup_error_ struct ash_error rerr = ASH_ERROR_INIT;
  if (ash_rundir_remove (dir, &rerr) < 0)
    ash_warning ("%s", rerr.message);
}

/* Update TOOL's database in CACHE with the program TOOL_PATH (for trivy,
   and its checks bundle when a scan needs it).  0, or a negative errno
   with ERR saying why.  */
static int
update_one (struct scan *sc, const char *tool, const char *tool_path,
            const char *cache, struct ash_error *err)
{
  _cleanup_ (rundir_removep) char *dir = NULL;
  _cleanup_free_ char *config = NULL;
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  _cleanup_cmd_ struct ash_cmd cmd;
  struct ash_cmd_result res = { 0 };
  _cleanup_close_ int lockfd = -1;
  int r;

  ash_cmd_init (&cmd);

  r = mkdirs (cache);
  if (r < 0)
    return ash_error_set (err, r, _ ("cannot make the database cache %s: %s"),
                          cache, strerror (-r));
  r = ash_rundir_make (ash_rundir_base (sc->source_dir, sc->od.path),
                       streq (tool, "grype") ? "grype-db" : "trivy-db", &dir,
                       err);
  if (r < 0)
    return r;
  r = write_empty_config (dir,
                          streq (tool, "grype") ? "grype.yaml" : "trivy.yaml",
                          &config);
  if (r < 0)
    return ash_error_set (err, r,
                          _ ("cannot write an empty %s config in %s: %s"),
                          tool, dir, strerror (-r));
  ash_strvec_push (&argv, tool_path);
  if (streq (tool, "grype"))
    {
      ash_strvec_push (&argv, "db");
      ash_strvec_push (&argv, "update");
      ash_strvec_push (&argv, "--config");
      ash_strvec_push (&argv, config);
    }
  else
    {
      ash_strvec_push (&argv, "image");
      ash_strvec_push (&argv, "--download-db-only");
      ash_strvec_push (&argv, "--no-progress");
      ash_strvec_push (&argv, "--cache-dir");
      ash_strvec_push (&argv, cache);
      ash_strvec_push (&argv, "--config");
      ash_strvec_push (&argv, config);
    }

  lockfd = lock_cache (cache, false, err);
  if (lockfd < 0)
    return lockfd;
  ash_info (_ ("updating the %s database in %s"), tool, cache);
  r = db_spawn (tool, cache, argv.v, dir, UPDATE_TIMEOUT, &cmd, &res, err);
  if (r == 0 && res.status == 0 && !res.timed_out && !res.interrupted
      && !streq (tool, "grype") && wants_checks (sc))
    {
      /* trivy has no command that only fetches the misconfiguration
         checks bundle: a misconfiguration scan of an empty directory of
         the private run directory fetches it into the cache, under the
         same lock, with the same empty config.  */
      _cleanup_free_ char *empty = ash_path_join (dir, "empty");
      _cleanup_free_ char *ignore = NULL;
      if (mkdir (empty, 0700) < 0)
        r = ash_error_set (err, -errno, _ ("cannot make %s: %s"), empty,
                           strerror (errno));
      else if ((r = write_empty_config (dir, "trivyignore", &ignore)) < 0)
        ash_error_set (err, r, _ ("cannot write an empty %s in %s: %s"),
                       "trivyignore", dir, strerror (-r));
      else
        {
          ash_strvec_clear (&argv);
          ash_strvec_push (&argv, tool_path);
          ash_strvec_push (&argv, "config");
          ash_strvec_push (&argv, "--no-progress");
          ash_strvec_push (&argv, "--quiet");
          ash_strvec_push (&argv, "--cache-dir");
          ash_strvec_push (&argv, cache);
          ash_strvec_push (&argv, "--config");
          ash_strvec_push (&argv, config);
          ash_strvec_push (&argv, "--ignorefile");
          ash_strvec_push (&argv, ignore);
          ash_strvec_push (&argv, empty);
          ash_info (_ ("updating trivy's checks bundle in %s"), cache);
          ash_cmd_release (&cmd);
          ash_cmd_init (&cmd);
          memset (&res, 0, sizeof res);
          r = db_spawn (tool, cache, argv.v, dir, UPDATE_TIMEOUT, &cmd, &res,
                        err);
        }
    }
  ash_close (TAKE_FD (lockfd));
  if (r == 0 && (res.status != 0 || res.timed_out || res.interrupted))
    {
      _cleanup_free_ char *tail
        = printable_tail (cmd.err.len ? &cmd.err : &cmd.out);
      r = ash_error_set (err, -EIO,
                         res.timed_out
                           ? _ ("the %s database update timed out (%s)%s%s")
                           : _ ("the %s database update failed (%s)%s%s"),
                         tool, argv.v[1] ? argv.v[1] : "", *tail ? ": " : "",
                         tail);
    }
  return r;
}

/* Set every job of SC that reads TOOL's database to ERROR with REASON.  */
static void
fail_tool (struct scan *sc, const char *tool, const char *reason)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    {
      struct job *j = &sc->jobs[i];
      const char *t = db_tool (j->scanner->name);
      if (j->run && t && streq (t, tool))
        {
          ash_job_set_status (j, ASH_STATUS_ERROR, xstrdup (reason));
          ash_err (_ ("%s not run: %s"), j->scanner->name, reason);
        }
    }
}

/* The first job of SC still to run that reads TOOL's database, or
   NULL.  */
static struct job *
first_to_run (struct scan *sc, const char *tool)
{
  for (size_t i = 0; i < sc->n_jobs; i++)
    {
      const char *dt = db_tool (sc->jobs[i].scanner->name);
      if (sc->jobs[i].run && dt && streq (dt, tool))
        return &sc->jobs[i];
    }
  return NULL;
}

void
ash_dbphase_update (struct scan *sc)
{
  /* Every update first, then every shared lock: when two tools share one
     cache directory, the second update must not wait on this scan's own
     shared lock.  */
  for (int pass = 0; pass < 2; pass++)
    for (size_t t = 0; t < ARRAY_SIZE (db_tools); t++)
      {
        struct job *first = first_to_run (sc, db_tools[t]);
        if (first == NULL || atomic_load (&sc->interrupted))
          continue;
        _cleanup_free_ char *cache = cache_dir_of (first->scanner->name);
        struct ash_error err = ASH_ERROR_INIT;
        if (cache == NULL)
          {
            /* Offline, nothing is updated or locked: the age check has no
               cache to read either.  */
            if (pass == 0 && !sc->opts->offline)
              fail_tool (sc, db_tools[t], ash_db_cache_unknown (db_tools[t]));
            continue;
          }
        if (pass == 0)
          {
            if (!sc->opts->offline
                && update_one (sc, db_tools[t], first->result.tool_path, cache,
                               &err)
                     < 0)
              fail_tool (sc, db_tools[t], err.message);
            ash_error_release (&err);
            continue;
          }
        /* The scanners read the database under a shared lock, taken now
           and kept until ash_dbphase_check() has read the database's age:
           an update of another scan waits for them, and they for it.  A
           cache this user cannot write the lock into (one of someone
           else's, read offline) is read without it: only scans that can
           update it take the lock.  */
        int fd = lock_cache (cache, true, &err);
        if (fd == -ETIMEDOUT)
          fail_tool (sc, db_tools[t], err.message);
        else if (fd < 0)
          ash_debug ("%s", err.message);
        else
          sc->db_lock_fds[t] = fd;
        ash_error_release (&err);
      }
}

void
ash_dbphase_release (struct scan *sc)
{
  for (size_t t = 0; t < ARRAY_SIZE (sc->db_lock_fds); t++)
    if (sc->db_lock_fds[t] >= 0)
      {
        ash_close (sc->db_lock_fds[t]);
        sc->db_lock_fds[t] = -1;
      }
}

/* Seconds since the epoch of an RFC 3339 time ("2025-04-01T04:08:17Z",
   fractions and a Z or +00:00 suffix), or -1.  */
static long long
parse_time (const char *s)
{
  struct tm tm;
  memset (&tm, 0, sizeof tm);
  if (s == NULL)
    return -1;
  const char *end = strptime (s, "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == NULL)
    return -1;
  return (long long) timegm (&tm);
}

/* A Go duration ("120h", "5h30m", "90s") or a count of nanoseconds, in
   seconds; -1 when it is neither.  */
static long long
parse_duration (const char *s)
{
  long long total = 0;
  bool any = false;
  char *end;
  if (s == NULL || *s == '\0')
    return -1;
  long long ns = strtoll (s, &end, 10);
  if (*end == '\0')
    return ns / 1000000000LL;
  while (*s)
    {
      double v = strtod (s, &end);
      if (end == s)
        return -1;
      s = end;
      if (*s == 'h')
        total += (long long) (v * 3600);
      else if (*s == 'm' && s[1] != 's')
        total += (long long) (v * 60);
      else if (*s == 's')
        total += (long long) v;
      else if (*s == 'm' && s[1] == 's')
        s++;
      else
        return -1;
      s++;
      any = true;
    }
  return any ? total : -1;
}

static char *
format_age (long long sec)
{
  if (sec >= 2 * 86400)
    return xasprintf (_ ("%lld days"), sec / 86400);
  if (sec >= 3600)
    return xasprintf (_ ("%lld hours"), sec / 3600);
  return xasprintf (_ ("%lld minutes"), sec / 60);
}

/* When TOOL's database in CACHE was built (seconds since the epoch), or a
   negative errno with ERR saying why not.  */
static int
db_built (struct scan *sc, const char *tool, const char *tool_path,
          const char *cache, long long *ret, struct ash_error *err)
{
  if (streq (tool, "trivy"))
    {
      _cleanup_free_ char *meta = xasprintf ("%s/db/metadata.json", cache);
      json_error_t je;
      json_t *m = json_load_file (meta, JSON_DECODE_ANY, &je);
      if (m == NULL)
        return ash_error_set (err, -ENOENT,
                              _ ("there is no trivy database in %s (%s: %s)"),
                              cache, meta, je.text);
      long long t
        = parse_time (json_string_value (json_object_get (m, "UpdatedAt")));
      json_decref (m);
      if (t < 0)
        return ash_error_set (err, -EINVAL, _ ("%s has no UpdatedAt time"),
                              meta);
      *ret = t;
      return 0;
    }

  _cleanup_free_ char *dir = NULL, *config = NULL;
  int r = ash_rundir_make (ash_rundir_base (sc->source_dir, sc->od.path),
                           "grype-db", &dir, err);
  if (r < 0)
    return r;
  r = write_empty_config (dir, "grype.yaml", &config);
  if (r == 0)
    {
      char *argv[] = { (char *) tool_path,
                       (char *) "db",
                       (char *) "status",
                       (char *) "-o",
                       (char *) "json",
                       (char *) "--config",
                       config,
                       NULL };
      struct ash_cmd cmd;
      struct ash_cmd_result res;
      ash_cmd_init (&cmd);
      memset (&res, 0, sizeof res);
      r = db_spawn (tool, cache, argv, dir, 120, &cmd, &res, err);
      if (r == 0)
        {
          json_error_t je;
          json_t *st = json_loadb (cmd.out.buf, cmd.out.len, 0, &je);
          long long t
            = parse_time (json_string_value (json_object_get (st, "built")));
          if (t < 0)
            {
              _cleanup_free_ char *tail
                = printable_tail (cmd.err.len ? &cmd.err : &cmd.out);
              r = ash_error_set (err, -ENOENT,
                                 _ ("there is no usable grype database in "
                                    "%s (grype db status: %s)"),
                                 cache, *tail ? tail : _ ("no build time"));
            }
          else
            *ret = t;
          json_decref (st);
        }
      ash_cmd_release (&cmd);
    }
  else
    ash_error_set (err, r, _ ("cannot write an empty grype config in %s: %s"),
                   dir, strerror (-r));
  struct ash_error rerr = ASH_ERROR_INIT;
  if (ash_rundir_remove (&dir, &rerr) < 0)
    ash_warning ("%s", rerr.message);
  ash_error_release (&rerr);
  return r;
}

void
ash_dbphase_check (struct scan *sc)
{
  /* Read under the shared lock ash_dbphase_update() took (or, for a cache
     this user cannot write the lock into, without it), then let an update
     of another scan go ahead.  */
  for (size_t t = 0; t < ARRAY_SIZE (db_tools); t++)
    {
      struct job *first = NULL;
      for (size_t i = 0; i < sc->n_jobs && !first; i++)
        {
          struct job *j = &sc->jobs[i];
          const char *dt = db_tool (j->scanner->name);
          if (dt && streq (dt, db_tools[t]) && j->result.tool_path
              && (j->result.status == ASH_STATUS_PASSED
                  || j->result.status == ASH_STATUS_FAILED)
              && j->result.sarif)
            first = j;
        }
      if (first == NULL)
        continue;
      _cleanup_free_ char *cache = cache_dir_of (first->scanner->name);
      if (cache == NULL)
        continue;
      long long bound = DEFAULT_BOUND_SEC;
      const char *bound_name = "120h";
      if (t == 0)
        {
          const char *b = getenv ("GRYPE_DB_MAX_ALLOWED_BUILT_AGE");
          long long v = parse_duration (b);
          if (v > 0)
            bound = v, bound_name = b;
        }
      struct ash_error err = ASH_ERROR_INIT;
      long long built = 0;
      char *reason = NULL;
      if (db_built (sc, db_tools[t], first->result.tool_path, cache, &built,
                    &err)
          < 0)
        reason = xasprintf (_ ("%s; update it with '%s' from a trusted "
                               "environment, or scan online"),
                            err.message,
                            t == 0 ? "grype db update"
                                   : "trivy image --download-db-only");
      else
        {
          long long age = (long long) time (NULL) - built;
          if (age > bound)
            {
              char when[32];
              time_t bt = (time_t) built;
              struct tm tm;
              gmtime_r (&bt, &tm);
              strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
              _cleanup_free_ char *a = format_age (age);
              _cleanup_free_ char *bd = format_age (bound);
              reason = xasprintf (
                _ ("the %s database in %s was built %s ago (%s), past its "
                   "bound of %s (%s%s); update it with '%s' from a trusted "
                   "environment, or scan online"),
                db_tools[t], cache, a, when, bd,
                t == 0 ? "max-allowed-built-age " : "", bound_name,
                t == 0 ? "grype db update" : "trivy image --download-db-only");
            }
        }
      ash_error_release (&err);
      if (reason == NULL)
        continue;
      for (size_t i = 0; i < sc->n_jobs; i++)
        {
          struct job *j = &sc->jobs[i];
          const char *dt = db_tool (j->scanner->name);
          if (!dt || !streq (dt, db_tools[t])
              || !(j->result.status == ASH_STATUS_PASSED
                   || j->result.status == ASH_STATUS_FAILED))
            continue;
          free (j->result.reason);
          j->result.reason = xstrdup (reason);
          j->result.status = ASH_STATUS_ERROR;
          ash_err (_ ("%s: %s"), j->scanner->name, reason);
        }
      free (reason);
    }
  ash_dbphase_release (sc);
}
