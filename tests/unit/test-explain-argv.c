/* SPDX-License-Identifier: Apache-2.0 */
/* test-explain-argv.c -- what `ash sandbox explain` records (the policy's
   JSON, ash_policy_to_json()) is what each Linux backend enforces, for
   every builtin scanner: every mount, rule, blacklist, whitelist and
   read-only mount in the argv bwrap, Landlock and firejail are given
   comes from the record or from the backend's own fixed frame (its
   private /tmp and home, /proc, /dev, the wrapper), and every path of the
   record reaches the argv.  Run with HOME equal to the passwd entry's
   home, and with another HOME.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/tree.h"
#include "sandbox/policy-input.h"
#include "scanners/scanner.h"
#include "tap.h"
#include "../../linux/backends.h"

#define HELPER "/usr/libexec/ash/ash-landlock-exec"

static char root[] = "/tmp/test-explain-argv-XXXXXX";
static char *mountinfo;

/* The record's paths of one access kind, as strings.  */
static bool
record_has_path (json_t *rec, const char *path, const char *access)
{
  size_t i;
  json_t *e;

  json_array_foreach (json_object_get (rec, "paths"), i, e)
    if (streq (json_string_value (json_object_get (e, "path")), path)
        && (!access
            || streq (json_string_value (json_object_get (e, "access")),
                      access)))
      return true;
  return false;
}

static bool
list_has (json_t *arr, const char *key, const char *s)
{
  size_t i;
  json_t *e;

  json_array_foreach (arr, i, e)
    {
      const char *v = key ? json_string_value (json_object_get (e, key))
                          : json_string_value (e);
      if (v && streq (v, s))
        return true;
    }
  return false;
}

static bool
in_argv (const struct ash_strvec *argv, const char *a, const char *b)
{
  for (size_t i = 0; i + 1 < argv->nr; i++)
    if (streq (argv->v[i], a) && (!b || streq (argv->v[i + 1], b)))
      return true;
  return false;
}

struct wrapped
{
  struct ash_cmd cmd;
  struct ash_wrap_state *state;
};

static int
wrap (const struct ash_backend *b, const char *tool,
      const struct ash_policy *policy, struct wrapped *w)
{
  struct ash_linux_probe probe;
  struct ash_error err = ASH_ERROR_INIT;
  int r;

  memset (&probe, 0, sizeof probe);
  probe.base.backend = b;
  probe.base.usable = true;
  probe.tool = (char *) tool;
  probe.helper = (char *) HELPER;
  ash_cmd_init (&w->cmd);
  ash_strvec_push (&w->cmd.argv, "/usr/bin/scanner-tool");
  w->state = NULL;
  r = b->wrap (&probe.base, policy, &w->cmd, &w->state, &err);
  if (r < 0)
    tap_diag ("%s: %s", b->name, err.message ? err.message : "?");
  ash_error_release (&err);
  return r;
}

static void
unwrap (const struct ash_backend *b, struct wrapped *w)
{
  if (b->cleanup)
    b->cleanup (w->state);
  ash_cmd_release (&w->cmd);
}

static const char *
access_of (const struct ash_policy *p, const char *path)
{
  const struct ash_policy_path *pp = ash_policy_find_path (p, path);
  return pp ? ash_access_name (pp->access) : NULL;
}

static void
check_bwrap (const char *what, const struct ash_policy *p, json_t *rec)
{
  struct wrapped w;
  const struct ash_strvec *a = &w.cmd.argv;
  const char *home = ash_linux_policy_home (p);
  size_t bad = 0, seen = 0;

  if (wrap (&ash_backend_bwrap, "/usr/bin/bwrap", p, &w) < 0)
    {
      tap_ok (false, "bwrap %s: wrap", what);
      return;
    }
  for (size_t i = 1; i < a->nr && !streq (a->v[i], "--"); i++)
    {
      const char *o = a->v[i];
      const char *path = i + 1 < a->nr ? a->v[i + 1] : "";
      bool ok;

      if (streq (o, "--ro-bind-try") || streq (o, "--bind"))
        {
          seen++;
          ok = streq (path, HELPER) || ash_path_is_inside (path, "/proc")
               || (streq (o, "--bind")
                     ? record_has_path (rec, path, "write")
                         || streq (path, p->results_dir)
                     : record_has_path (rec, path, "read")
                         || record_has_path (rec, path, "data")
                         || record_has_path (rec, path, "cache"));
          i += 2;
        }
      else if (streq (o, "--tmpfs"))
        {
          seen++;
          ok = streq (path, "/tmp") || (home && streq (path, home))
               || record_has_path (rec, path, "hide");
          i += 1;
        }
      else if (streq (o, "--overlay-src") || streq (o, "--tmp-overlay"))
        {
          seen++;
          ok = record_has_path (rec, path, "cache");
          i += 1;
        }
      else
        continue;
      if (!ok)
        {
          bad++;
          tap_diag ("bwrap %s: %s %s is not in the record", what, o, path);
        }
    }
  tap_ok (bad == 0 && seen > 0,
          "bwrap %s: each of %zu mounts is in the "
          "record",
          what, seen);
  bad = 0;
  for (size_t i = 0; i < p->n_paths; i++)
    {
      const char *path = p->paths[i].path;
      if (streq (path, "/") || ash_path_is_inside (path, "/proc")
          || ash_path_is_inside (path, "/dev"))
        continue;
      struct stat st;
      /* A merged-/usr link (/bin) is made as the same link.  */
      bool link = lstat (path, &st) == 0 && S_ISLNK (st.st_mode)
                  && in_argv (a, "--symlink", NULL);
      if (!link && !in_argv (a, "--ro-bind-try", path)
          && !in_argv (a, "--bind", path) && !in_argv (a, "--tmpfs", path))
        {
          bad++;
          tap_diag ("bwrap %s: %s (%s) is not mounted", what, path,
                    access_of (p, path));
        }
    }
  tap_ok (bad == 0, "bwrap %s: each path of the record is mounted", what);
  unwrap (&ash_backend_bwrap, &w);
}

static void
check_landlock (const char *what, const struct ash_policy *p, json_t *rec)
{
  struct wrapped w;
  const struct ash_strvec *a = &w.cmd.argv;
  size_t bad = 0, seen = 0;

  if (wrap (&ash_backend_landlock, NULL, p, &w) < 0)
    {
      tap_ok (false, "landlock %s: wrap", what);
      return;
    }
  for (size_t i = 1; i + 1 < a->nr && !streq (a->v[i], "--"); i++)
    {
      const char *o = a->v[i], *path = a->v[i + 1];
      bool ok;

      if (streq (o, "--ro"))
        ok = record_has_path (rec, path, "read")
             || record_has_path (rec, path, "data")
             || record_has_path (rec, path, "cache");
      else if (streq (o, "--rw"))
        ok = record_has_path (rec, path, "write")
             || streq (path, p->results_dir);
      else
        continue;
      seen++;
      i++;
      if (!ok)
        {
          bad++;
          tap_diag ("landlock %s: %s %s is not in the record", what, o, path);
        }
    }
  tap_ok (bad == 0 && seen > 0,
          "landlock %s: each of %zu rules is in the "
          "record",
          what, seen);
  bad = 0;
  for (size_t i = 0; i < p->n_paths; i++)
    {
      const struct ash_policy_path *pp = &p->paths[i];
      bool ok
        = pp->access == ASH_ACCESS_HIDE
            ? !in_argv (a, "--ro", pp->path) && !in_argv (a, "--rw", pp->path)
            : in_argv (a, pp->access == ASH_ACCESS_WRITE ? "--rw" : "--ro",
                       pp->path);
      if (!ok)
        {
          bad++;
          tap_diag ("landlock %s: %s (%s) has no rule of its kind", what,
                    pp->path, ash_access_name (pp->access));
        }
    }
  tap_ok (bad == 0, "landlock %s: each path of the record has its rule", what);
  unwrap (&ash_backend_landlock, &w);
}

/* The value the record's "$NAME" stands for, in ENVIRON.  */
static const char *
env_value (char *const *environ_, const char *dollar_name)
{
  size_t n = strlen (dollar_name + 1);
  for (char *const *e = environ_; *e; e++)
    if (strncmp (*e, dollar_name + 1, n) == 0 && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}

static void
check_firejail (const char *what, const struct ash_policy *p, json_t *rec,
                char *const *env)
{
  struct wrapped w;
  const struct ash_strvec *a = &w.cmd.argv;
  size_t bad = 0, seen = 0;
  json_t *hide = json_object_get (rec, "hide");
  json_t *show = json_object_get (rec, "show");
  json_t *ro = json_object_get (rec, "readonly_mounts");
  size_t i;
  json_t *e;

  if (wrap (&ash_backend_firejail, "/usr/bin/firejail", p, &w) < 0)
    {
      tap_ok (false, "firejail %s: wrap", what);
      return;
    }
  /* A HOME that is not the passwd entry's, in /tmp, is replaced by a
     private home of the scanner's own, which firejail is told to show and
     make writable: added by the backend, as the wrapper is.  */
  const char *priv_home = ash_strvec_getenv (&w.cmd.env, "HOME");
  if (!priv_home || !ash_str_has_prefix (priv_home, "/tmp/ash-firejail-"))
    priv_home = "";
  for (size_t k = 1; k < a->nr && !streq (a->v[k], HELPER); k++)
    {
      const char *o = a->v[k];
      const char *eq = strchr (o, '=');
      _cleanup_free_ char *opt = eq ? xstrndup (o, (size_t) (eq - o)) : NULL;
      const char *path = eq ? eq + 1 : NULL;
      bool ok;

      if (!opt || path[0] != '/' || streq (path, "/"))
        continue;
      if (streq (opt, "--blacklist"))
        {
          ok = list_has (hide, "path", path)
               || record_has_path (rec, path, "hide");
          json_array_foreach (hide, i, e)
            {
              const char *hp = json_string_value (json_object_get (e, "path"));
              if (hp[0] == '$' && env_value (env, hp)
                  && streq (env_value (env, hp), path))
                ok = true;
            }
        }
      else if (streq (opt, "--whitelist"))
        ok = list_has (show, NULL, path) || streq (path, HELPER)
             || streq (path, priv_home);
      else if (streq (opt, "--read-only"))
        ok = list_has (ro, NULL, path) || streq (path, HELPER)
             || (record_has_path (rec, path, NULL)
                 && !record_has_path (rec, path, "write")
                 && ash_policy_wants_shown (p, path));
      else if (streq (opt, "--read-write"))
        ok = record_has_path (rec, path, "write")
             || streq (path, p->results_dir) || streq (path, priv_home);
      else
        continue;
      seen++;
      if (!ok)
        {
          bad++;
          tap_diag ("firejail %s: %s is not in the record", what, o);
        }
    }
  tap_ok (bad == 0 && seen > 0,
          "firejail %s: each of %zu options is in "
          "the record",
          what, seen);

  bad = 0;
  json_array_foreach (hide, i, e)
    {
      const char *hp = json_string_value (json_object_get (e, "path"));
      const char *path = hp[0] == '$' ? env_value (env, hp) : hp;
      _cleanup_free_ char *opt
        = xasprintf ("--blacklist=%s", path ? path : "?");
      if (!ash_strvec_contains (a, opt))
        {
          bad++;
          tap_diag ("firejail %s: hide %s is not blacklisted", what, hp);
        }
    }
  json_array_foreach (show, i, e)
    {
      _cleanup_free_ char *opt
        = xasprintf ("--whitelist=%s", json_string_value (e));
      if (!ash_strvec_contains (a, opt))
        {
          bad++;
          tap_diag ("firejail %s: show %s is not whitelisted", what,
                    json_string_value (e));
        }
    }
  json_array_foreach (ro, i, e)
    {
      _cleanup_free_ char *opt
        = xasprintf ("--read-only=%s", json_string_value (e));
      if (!ash_strvec_contains (a, opt))
        {
          bad++;
          tap_diag ("firejail %s: mount %s is not read-only", what,
                    json_string_value (e));
        }
    }
  tap_ok (bad == 0,
          "firejail %s: everything the record hides, shows and "
          "makes read-only is in the argv",
          what);
  unwrap (&ash_backend_firejail, &w);
}

static void
make_dir (const char *rel)
{
  _cleanup_free_ char *d = ash_path_join (root, rel);
  if (mkdir (d, 0755) < 0 && errno != EEXIST)
    tap_diag ("cannot make %s: %s", d, strerror (errno));
}

static void
check_scanner (const struct ash_scanner *s, const char *home,
               const char *passwd_home)
{
  struct ash_requirements req;
  struct ash_policy p;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *src = ash_path_join (root, "src");
  _cleanup_free_ char *out = ash_path_join (root, "src/.ash/ash_output");
  _cleanup_free_ char *results
    = xasprintf ("%s/scanners/%s/source", out, s->name);
  _cleanup_free_ char *tool
    = xasprintf ("%s/.local/bin/%s", passwd_home, s->tool);
  _cleanup_free_ char *path_env
    = xasprintf ("PATH=%s/.local/bin:/usr/bin:/bin", passwd_home);
  _cleanup_free_ char *home_env = xasprintf ("HOME=%s", home);
  _cleanup_free_ char *uv = xasprintf ("UV_CACHE_DIR=%s/.cache/uv", home);
  char *env[] = { path_env,
                  home_env,
                  uv,
                  (char *) "LANG=C.UTF-8",
                  (char *) "SSH_AUTH_SOCK=/run/agent.sock",
                  NULL };
  _cleanup_free_ char *what
    = xasprintf ("%s (HOME %s)", s->name,
                 streq (home, passwd_home) ? "the passwd home" : "elsewhere");
  /* The results directory is there, as in a scan: the Landlock wrapper
     gets its rule from the directory opened, and grants nothing for a
     path that is not there.  */
  {
    _cleanup_free_ char *sd
      = xasprintf ("src/.ash/ash_output/scanners/%s", s->name);
    _cleanup_free_ char *rd = xasprintf ("%s/source", sd);
    make_dir ("src/.ash/ash_output/scanners");
    make_dir (sd);
    make_dir (rd);
  }
  ash_requirements_init (&req);
  ash_scanner_requirements (s, &req);
  struct ash_policy_input in = {
    .scanner = s->name,
    .req = &req,
    .source_dir = src,
    .output_dir = out,
    .results_dir = results,
    .tool_path = tool,
    .offline = false,
    .environ = env,
    .home = home,
    .passwd_home = passwd_home,
    .mountinfo = mountinfo,
  };
  if (ash_policy_compute (&in, &p, &err) < 0)
    {
      tap_ok (false, "%s: policy: %s", what, err.message);
      ash_error_release (&err);
      ash_requirements_release (&req);
      return;
    }
  if (p.refusal.message)
    tap_diag ("%s: %s", what, p.refusal.message);
  json_t *rec = ash_policy_to_json (&p);
  check_bwrap (what, &p, rec);
  check_landlock (what, &p, rec);
  check_firejail (what, &p, rec, env);
  json_decref (rec);
  ash_policy_release (&p);
  ash_requirements_release (&req);
}

/* The mount table is read only for the backend that names its mount
   points (firejail): the policy ash_policy_input_fill() sets up for a
   bwrap or Landlock probe neither lists them nor records them, and
   firejail refuses such a policy rather than run without its read-only
   mounts.  */
static void
check_mounts_listed (const char *home)
{
  const struct ash_scanner *s = ash_builtin_scanners[0];
  _cleanup_free_ char *src = ash_path_join (root, "src");
  _cleanup_free_ char *out = ash_path_join (root, "src/.ash/ash_output");
  _cleanup_free_ char *results = xasprintf ("%s/scanners/%s", out, s->name);
  const struct ash_backend *const backends[]
    = { &ash_backend_bwrap, &ash_backend_landlock, &ash_backend_firejail,
        NULL };
  char *env[] = { (char *) "PATH=/usr/bin:/bin", NULL };
  struct ash_sandbox_settings ss;
  struct ash_host host;
  struct ash_requirements req;

  tap_ok (ash_probe_lists_mounts (NULL),
          "mounts: listed where no probe says otherwise");
  ash_sandbox_settings_init (&ss);
  memset (&host, 0, sizeof host);
  host.home = home;
  host.passwd_home = home;
  ash_requirements_init (&req);
  ash_scanner_requirements (s, &req);
  for (size_t i = 0; backends[i]; i++)
    {
      const struct ash_backend *b = backends[i];
      bool names = b == &ash_backend_firejail;
      struct ash_linux_probe probe;
      struct ash_policy_place place = { .source_dir = src,
                                        .output_dir = out,
                                        .results_dir = results,
                                        .tool_path = "/usr/bin/x" };
      struct ash_policy_input in;
      struct ash_policy p;
      struct ash_error err = ASH_ERROR_INIT;

      memset (&probe, 0, sizeof probe);
      probe.base.backend = b;
      probe.base.usable = true;
      tap_is_int (ash_probe_lists_mounts (&probe.base), names,
                  "mounts: %s %s the host's mount points", b->name,
                  names ? "names" : "does not name");
      ash_policy_input_fill (&in, s->name, &req, &ss, &host, &place, false,
                             &probe.base);
      in.environ = env;
      in.mountinfo = mountinfo;
      ash_policy_init (&p);
      if (ash_policy_compute (&in, &p, &err) < 0)
        {
          tap_ok (false, "mounts: %s: policy: %s", b->name, err.message);
          ash_error_release (&err);
          continue;
        }
      json_t *rec = ash_policy_to_json (&p);
      tap_is_int (p.mounts_listed, names, "mounts: %s: table %s", b->name,
                  names ? "read" : "not read");
      tap_ok (names ? ash_strvec_contains (&p.readonly_mounts, "/srv/data")
                    : p.readonly_mounts.nr == 0,
              "mounts: %s: readonly_mounts %s", b->name,
              names ? "from the table" : "empty");
      tap_is_int (json_object_get (rec, "readonly_mounts") != NULL, names,
                  "mounts: %s: the record %s", b->name,
                  names ? "holds them" : "leaves them out");
      json_decref (rec);
      if (!names)
        {
          /* Negative control above: the same policy, listed, wraps.  */
          struct wrapped w;
          int r = wrap (&ash_backend_firejail, "/usr/bin/firejail", &p, &w);
          tap_ok (r < 0 && w.cmd.argv.nr == 1,
                  "mounts: firejail refuses the policy made for %s and runs "
                  "nothing",
                  b->name);
          unwrap (&ash_backend_firejail, &w);
        }
      else
        {
          struct wrapped w;
          tap_is_int (wrap (&ash_backend_firejail, "/usr/bin/firejail", &p,
                            &w),
                      0, "mounts: firejail wraps the policy made for it");
          unwrap (&ash_backend_firejail, &w);
        }
      ash_policy_release (&p);
    }
  ash_requirements_release (&req);
  ash_sandbox_settings_release (&ss);
}

int
main (void)
{
  const char *srcdir = getenv ("top_srcdir");
  _cleanup_free_ char *home = NULL, *other = NULL;

  mountinfo
    = xasprintf ("%s/tests/fixtures/mountinfo-sample", srcdir ? srcdir : ".");
  if (!mkdtemp (root))
    {
      printf ("Bail out! cannot make %s: %s\n", root, strerror (errno));
      return 99;
    }
  make_dir ("home");
  make_dir ("home/.local");
  make_dir ("home/.local/bin");
  make_dir ("home/.cache");
  make_dir ("home/.cache/uv");
  make_dir ("home/.semgrep");
  make_dir ("other");
  /* A link at the top of the home to a directory elsewhere (~/.data on
     another disk): hidden with the home.  */
  make_dir ("elsewhere");
  {
    _cleanup_free_ char *l = ash_path_join (root, "home/.data");
    if (symlink ("../elsewhere", l) < 0)
      tap_diag ("cannot make %s: %s", l, strerror (errno));
  }
  make_dir ("src");
  make_dir ("src/.ash");
  make_dir ("src/.ash/ash_output");
  home = ash_path_join (root, "home");
  other = ash_path_join (root, "other");

  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    {
      check_scanner (ash_builtin_scanners[i], home, home);
      check_scanner (ash_builtin_scanners[i], other, home);
    }
  check_mounts_listed (home);

  {
    struct ash_error e = ASH_ERROR_INIT;
    int tfd = open ("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tfd >= 0)
      {
        ash_tree_remove_all (tfd, root + strlen ("/tmp/"), &e);
        close (tfd);
      }
    ash_error_release (&e);
  }
  free (mountinfo);
  return tap_done ();
}
