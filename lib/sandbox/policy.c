/* SPDX-License-Identifier: Apache-2.0 */
/* policy.c -- from a scanner's requirements, the operator's grants,
   --offline and the host's facts to exactly what its sandbox allows.  */

#include <config.h>

#include "sandbox/policy.h"
#include "sandbox/scanner-reqs.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "proc/toolfind.h"
#include "sandbox/envfilter.h"
#include "sandbox/homescreen.h"

void
ash_policy_init (struct ash_policy *p)
{
  memset (p, 0, sizeof *p);
  ash_strvec_init (&p->env);
  ash_strvec_init (&p->adapter_env);
  ash_strvec_init (&p->private_caches);
  ash_strvec_init (&p->warnings);
  ash_strvec_init (&p->linked_home_dirs);
  ash_strvec_init (&p->backend_env);
  ash_strvec_init (&p->sandbox_exec_env);
  ash_strvec_init (&p->shown);
  ash_strvec_init (&p->readonly_mounts);
  ash_strvec_init (&p->masked);
}

static void
drops_free (struct ash_policy_drop *d, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      free (d[i].name);
      free (d[i].why);
    }
  free (d);
}

void
ash_policy_env (const struct ash_policy *p, struct ash_strvec *ret)
{
  ash_strvec_clear (ret);
  ash_strvec_pushv (ret, p->env.v);
  for (size_t i = 0; i < p->adapter_env.nr; i++)
    ash_strvec_setenv_kv (ret, p->adapter_env.v[i]);
}

void
ash_policy_release (struct ash_policy *p)
{
  free (p->scanner);
  for (size_t i = 0; i < p->n_paths; i++)
    {
      free (p->paths[i].path);
      free (p->paths[i].rule);
    }
  free (p->paths);
  free (p->results_dir);
  free (p->home);
  free (p->passwd_home);
  for (size_t i = 0; i < p->n_home_links; i++)
    {
      free (p->home_links[i].name);
      free (p->home_links[i].target);
    }
  free (p->home_links);
  ash_strvec_release (&p->env);
  ash_strvec_release (&p->adapter_env);
  drops_free (p->dropped, p->n_dropped);
  ash_strvec_release (&p->private_caches);
  ash_strvec_release (&p->warnings);
  ash_error_release (&p->refusal);
  drops_free (p->skipped, p->n_skipped);
  ash_strvec_release (&p->linked_home_dirs);
  ash_strvec_release (&p->backend_env);
  ash_strvec_release (&p->masked);
  ash_strvec_release (&p->sandbox_exec_env);
  free (p->unpack_dir_env);
  ash_policy_hidden_release (p);
  ash_strvec_release (&p->shown);
  ash_strvec_release (&p->readonly_mounts);
  free (p->mounts_error);
  free (p->run_config_dir);
  ash_policy_init (p);
}

const char *
ash_access_name (enum ash_access a)
{
  switch (a)
    {
    case ASH_ACCESS_READ:
      return "read";
    case ASH_ACCESS_WRITE:
      return "write";
    case ASH_ACCESS_CACHE:
      return "cache";
    case ASH_ACCESS_DATA:
      return "data";
    case ASH_ACCESS_HIDE:
      return "hide";
    }
  return "?";
}

/* How strong an access is, for a path added twice.  */
static int
access_rank (enum ash_access a)
{
  switch (a)
    {
    case ASH_ACCESS_WRITE:
      return 4;
    case ASH_ACCESS_CACHE:
      return 3;
    case ASH_ACCESS_READ:
      return 2;
    case ASH_ACCESS_DATA:
      return 1;
    case ASH_ACCESS_HIDE:
      return 0;
    }
  return 0;
}

const struct ash_policy_path *
ash_policy_find_path (const struct ash_policy *p, const char *path)
{
  for (size_t i = 0; i < p->n_paths; i++)
    if (streq (p->paths[i].path, path))
      return &p->paths[i];
  return NULL;
}

void
ash_policy_add_path (struct ash_policy *p, const char *path,
                     enum ash_access access, bool exec, const char *rule)
{
  _cleanup_free_ char *norm = ash_path_normalize (path);

  for (size_t i = 0; i < p->n_paths; i++)
    {
      struct ash_policy_path *pp = &p->paths[i];
      if (!streq (pp->path, norm))
        continue;
      if (access_rank (access) > access_rank (pp->access))
        {
          pp->access = access;
          pp->exec = exec;
        }
      else if (access == pp->access)
        pp->exec = pp->exec || exec;
      /* Keep every reason, once each.  */
      if (!strstr (pp->rule, rule))
        {
          char *r = xasprintf ("%s; %s", pp->rule, rule);
          free (pp->rule);
          pp->rule = r;
        }
      return;
    }
  p->paths = xreallocarray (p->paths, p->n_paths + 1, sizeof *p->paths);
  p->paths[p->n_paths++] = (struct ash_policy_path){
    .path = TAKE_PTR (norm),
    .access = access,
    .exec = exec,
    .rule = xstrdup (rule),
  };
}

/* Only this grows the lists: it makes room for twice as many each time
   the count reaches a power of two, rather than copying the list once per
   variable of the environment.  */
static void
push_drop (struct ash_policy_drop **v, size_t *n, const char *name,
           const char *why)
{
  if ((*n & (*n - 1)) == 0)
    *v = xreallocarray (*v, *n ? 2 * *n : 1, sizeof **v);
  (*v)[(*n)++] = (struct ash_policy_drop){ xstrdup (name), xstrdup (why) };
}

void
ash_policy_add_drop (struct ash_policy *p, const char *name, const char *why)
{
  push_drop (&p->dropped, &p->n_dropped, name, why);
}

void
ash_policy_add_skipped (struct ash_policy *p, const char *path,
                        const char *why)
{
  push_drop (&p->skipped, &p->n_skipped, path, why);
}

void
ash_policy_refuse (struct ash_policy *p, const char *reason)
{
  if (p->refusal.message)
    return;
  ash_error_set (&p->refusal, -EPERM,
                 _ ("%s cannot be sandboxed as requested: %s"), p->scanner,
                 reason);
  p->refusal.kind = ASH_KIND_SANDBOX_REFUSED;
}

int
ash_policy_refused (const struct ash_policy *p, struct ash_error *err)
{
  if (!p->refusal.message)
    return 0;
  return ash_error_copy (err, -EPERM, &p->refusal);
}

static const char *
env_get (char *const *environ, const char *name)
{
  size_t n = strlen (name);
  if (!environ)
    return NULL;
  for (char *const *e = environ; *e; e++)
    if (strneq (*e, name, n) && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}

static char *
dir_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  if (!slash)
    return xstrdup (".");
  if (slash == path)
    return xstrdup ("/");
  return xstrndup (path, slash - path);
}

static char *
real_or_normal (const char *path)
{
  char *r = ash_homescreen_realpath (path);
  return r ? r : ash_path_normalize (path);
}

/* Everything compute needs while it works.  */
struct ctx
{
  const struct ash_policy_input *in;
  struct ash_policy *p;
  struct ash_homescreen hs;
  char *source;            /* real */
  char *output;            /* real */
  struct ash_strvec extra; /* real extra_read_paths */
};

static bool
in_list (char *const *list, const char *name)
{
  return list && ash_strv_contains (list, name);
}

static bool
in_tree (const struct ctx *c, const char *real)
{
  return ash_path_is_inside (real, c->source)
         || ash_path_is_inside (real, c->output);
}

/* Expand "~" against HOME, "{bin}" against ASH's bin directory and
   "{helper:NAME}" to the helper file NAME of ash's own as ash finds it.
   NULL when the base is unknown or the helper is not found.  */
static char *
expand (const struct ctx *c, const char *path)
{
  const char *base = NULL, *rest = NULL;

  if (ash_str_has_prefix (path, "{helper:"))
    {
      const char *name = path + strlen ("{helper:");
      size_t n = strlen (name);
      if (n < 2 || name[n - 1] != '}' || memchr (name, '/', n))
        return NULL;
      _cleanup_free_ char *file = xstrndup (name, n - 1);
      return ash_helper_file (file);
    }
  if (streq (path, "~") || ash_str_has_prefix (path, "~/"))
    base = c->in->home, rest = path + 1;
  else if (ash_str_has_prefix (path, "{bin}"))
    base = c->in->bin_path, rest = path + 5;
  else
    return path[0] == '/' ? ash_path_normalize (path) : NULL;
  if (!base || base[0] != '/')
    return NULL;
  while (*rest == '/')
    rest++;
  _cleanup_free_ char *j = ash_path_join (base, rest);
  return ash_path_normalize (j);
}

static void warn (struct ctx *c, const char *fmt, ...) _printf_ (2, 3);

static void
warn (struct ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = xvasprintf (fmt, ap);
  va_end (ap);
  if (!ash_strvec_contains (&c->p->warnings, s))
    ash_strvec_push (&c->p->warnings, s);
  free (s);
}

static void
add_data (struct ctx *c)
{
  const struct ash_policy_input *in = c->in;
  enum ash_access data
    = in->req->staged_input_only ? ASH_ACCESS_HIDE : ASH_ACCESS_DATA;

  ash_policy_add_path (c->p, c->source, data, false, _ ("source directory"));
  if (in->converted_dir)
    {
      _cleanup_free_ char *conv = real_or_normal (in->converted_dir);
      ash_policy_add_path (c->p, conv, data, false,
                           _ ("converted files directory"));
    }
  /* Only the scanner's own results directory is shown of the output
     directory: the rest of it (other scanners' results, ash.log, and
     whatever else an operator's --output-dir holds, a home directory
     included) is hidden, also where a mounted path such as the source tree
     holds it.  */
  ash_policy_add_path (c->p, c->output, ASH_ACCESS_HIDE, false,
                       _ ("output directory (hidden: only the results "
                          "directory is shown)"));
  ash_policy_add_path (c->p, c->p->results_dir, ASH_ACCESS_WRITE, false,
                       _ ("results directory"));
  const char *system_rule = _ ("system directory");
  for (size_t i = 0; i < c->hs.system_dirs.nr; i++)
    ash_policy_add_path (c->p, c->hs.system_dirs.v[i], ASH_ACCESS_READ, true,
                         system_rule);
  if (in->run_config_dir)
    {
      char *d = real_or_normal (in->run_config_dir);
      ash_policy_add_path (c->p, d, ASH_ACCESS_READ, false,
                           _ ("scanner run's config directory"));
      free (c->p->run_config_dir);
      c->p->run_config_dir = d;
    }
}

static void
add_path_entries (struct ctx *c)
{
  const char *path = env_get (c->in->environ, "PATH");
  if (!path)
    return;
  _cleanup_free_ char *copy = xstrdup (path);
  char *save = NULL;
  for (char *e = strtok_r (copy, ":", &save); e;
       e = strtok_r (NULL, ":", &save))
    {
      if (e[0] != '/')
        {
          ash_policy_add_skipped (c->p, e,
                                  _ ("a relative PATH entry is never a tool "
                                     "directory"));
          continue;
        }
      _cleanup_free_ char *real = ash_homescreen_realpath (e);
      if (real && ash_path_is_inside (real, c->output))
        {
          ash_policy_add_skipped (c->p, e,
                                  _ ("a PATH entry inside the output "
                                     "directory is not mounted"));
          continue;
        }
      if (real && in_tree (c, real))
        {
          if (!c->in->req->staged_input_only)
            ash_policy_add_path (c->p, real, ASH_ACCESS_DATA, false,
                                 _ ("PATH entry inside the scanned tree or "
                                    "output directory (data only)"));
          continue;
        }
      _cleanup_free_ char *mount = NULL, *why = NULL;
      if (ash_homescreen_bin_dir (&c->hs, e, &mount, &why) == ASH_SCREEN_MOUNT)
        ash_policy_add_path (c->p, mount, ASH_ACCESS_READ, true,
                             _ ("PATH entry"));
      else
        ash_policy_add_skipped (c->p, e, why ? why : _ ("not mounted"));
    }
}

/* The first absolute PATH entry outside the tree holding NAME.  */
static char *
path_lookup (struct ctx *c, const char *name)
{
  const char *path = env_get (c->in->environ, "PATH");
  if (!path)
    return NULL;
  _cleanup_free_ char *copy = xstrdup (path);
  char *save = NULL;
  for (char *e = strtok_r (copy, ":", &save); e;
       e = strtok_r (NULL, ":", &save))
    {
      if (e[0] != '/')
        continue;
      _cleanup_free_ char *f = ash_path_join (e, name);
      _cleanup_free_ char *real = ash_homescreen_realpath (f);
      struct stat st;
      if (real && !in_tree (c, real) && stat (real, &st) == 0
          && S_ISREG (st.st_mode) && (st.st_mode & 0111))
        return TAKE_PTR (f);
    }
  return NULL;
}

/* The interpreter a script's "#!" line names, or NULL.  */
static char *
shebang_interpreter (struct ctx *c, const char *file, char **ret_unfound)
{
  _cleanup_fclose_ FILE *f = fopen (file, "re");
  char line[512];

  *ret_unfound = NULL;
  if (!f || !fgets (line, sizeof line, f) || !strneq (line, "#!", 2))
    return NULL;
  line[strcspn (line, "\r\n")] = '\0';
  char *save = NULL;
  char *interp = strtok_r (line + 2, " \t", &save);
  if (!interp)
    return NULL;
  const char *b = strrchr (interp, '/');
  if (!b || !streq (b + 1, "env"))
    return xstrdup (interp);
  /* "#!/usr/bin/env [-S] NAME ...": found on PATH.  */
  for (char *a = strtok_r (NULL, " \t", &save); a;
       a = strtok_r (NULL, " \t", &save))
    {
      if (a[0] == '-' || strchr (a, '='))
        continue;
      char *found = a[0] == '/' ? xstrdup (a) : path_lookup (c, a);
      if (!found)
        *ret_unfound = xstrdup (a);
      return found;
    }
  return NULL;
}

static void
add_tool (struct ctx *c)
{
  const char *tool = c->in->tool_path;
  if (!tool || tool[0] != '/')
    return;
  _cleanup_free_ char *real = ash_homescreen_realpath (tool);
  if (!real)
    {
      ash_policy_add_skipped (c->p, tool,
                              _ ("the scanner's tool does not "
                                 "exist"));
      return;
    }
  _cleanup_free_ char *spelled_dir = dir_name (tool);
  _cleanup_free_ char *real_dir = dir_name (real);
  const char *dirs[] = { spelled_dir, real_dir };

  for (size_t i = 0; i < ARRAY_SIZE (dirs); i++)
    {
      _cleanup_free_ char *d = ash_homescreen_realpath (dirs[i]);
      if (d && in_tree (c, d))
        {
          /* Allowed in-tree tools run from where they are.  */
          ash_policy_add_path (c->p, d, ASH_ACCESS_READ, true,
                               _ ("directory of the scanner's tool"));
          continue;
        }
      _cleanup_free_ char *mount = NULL, *why = NULL;
      if (ash_homescreen_bin_dir (&c->hs, dirs[i], &mount, &why)
          != ASH_SCREEN_MOUNT)
        {
          _cleanup_free_ char *r
            = xasprintf (_ ("its tool %s cannot be mounted: %s"), tool,
                         why ? why : dirs[i]);
          ash_policy_refuse (c->p, r);
          return;
        }
      ash_policy_add_path (c->p, mount, ASH_ACCESS_READ, true,
                           _ ("directory of the scanner's tool"));
      if (ash_homescreen_is_bin_name (mount))
        {
          _cleanup_free_ char *prefix = dir_name (mount);
          _cleanup_free_ char *pm = NULL, *pwhy = NULL;
          if (ash_homescreen_prefix (&c->hs, prefix, &pm, &pwhy)
              == ASH_SCREEN_MOUNT)
            ash_policy_add_path (c->p, pm, ASH_ACCESS_READ, true,
                                 _ ("install prefix of the scanner's tool"));
          else
            ash_policy_add_skipped (c->p, prefix,
                                    pwhy ? pwhy : _ ("not mounted"));
        }
    }

  _cleanup_free_ char *unfound = NULL;
  _cleanup_free_ char *interp = shebang_interpreter (c, real, &unfound);
  if (unfound)
    warn (c, _ ("%s: the interpreter %s named by %s is not on PATH"),
          c->p->scanner, unfound, tool);
  if (!interp)
    return;
  struct ash_strvec mounts = ASH_STRVEC_INIT, rules = ASH_STRVEC_INIT;
  _cleanup_free_ char *why = NULL;
  if (ash_homescreen_interpreter (&c->hs, interp, &mounts, &rules, &why)
      == ASH_SCREEN_MOUNT)
    for (size_t i = 0; i < mounts.nr; i++)
      {
        _cleanup_free_ char *rule = xasprintf ("%s %s", rules.v[i], interp);
        ash_policy_add_path (c->p, mounts.v[i], ASH_ACCESS_READ, true, rule);
      }
  else
    ash_policy_refuse (c->p, why);
  ash_strvec_release (&mounts);
  ash_strvec_release (&rules);
}

static void
add_bin_path (struct ctx *c)
{
  if (!c->in->bin_path)
    return;
  _cleanup_free_ char *mount = NULL, *why = NULL;
  switch (ash_homescreen_bin_path (&c->hs, c->in->bin_path, &mount, &why))
    {
    case ASH_SCREEN_MOUNT:
      ash_policy_add_path (c->p, mount, ASH_ACCESS_READ, true,
                           _ ("ASH's bin directory"));
      break;
    case ASH_SCREEN_REFUSE:
      ash_policy_refuse (c->p, why);
      break;
    default:
      break;
    }
}

/* uv's directory: the variable, else $XDG_*_HOME/uv/SUB, else ~/DFLT/SUB.  */
static char *
uv_dir (struct ctx *c, const char *var, const char *xdg, const char *dflt,
        const char *sub)
{
  const char *v = env_get (c->in->environ, var);
  if (v && *v)
    return v[0] == '/' ? ash_path_normalize (v) : NULL;
  const char *x = env_get (c->in->environ, xdg);
  if (x && x[0] == '/')
    return ash_path_join (x, sub);
  if (!c->in->home || c->in->home[0] != '/')
    return NULL;
  _cleanup_free_ char *d = ash_path_join (c->in->home, dflt);
  return ash_path_join (d, sub);
}

static void
add_uv (struct ctx *c)
{
  static const struct
  {
    const char *var, *xdg, *dflt, *sub, *rule;
    enum ash_access access;
    bool exec, cache_only;
  } dirs[] = {
    { "UV_TOOL_DIR", "XDG_DATA_HOME", ".local/share", "uv/tools",
      N_ ("uv tool directory"), ASH_ACCESS_READ, true, false },
    { "UV_PYTHON_INSTALL_DIR", "XDG_DATA_HOME", ".local/share", "uv/python",
      N_ ("uv Python directory"), ASH_ACCESS_READ, true, false },
    { "UV_CACHE_DIR", "XDG_CACHE_HOME", ".cache", "uv", N_ ("uv cache"),
      ASH_ACCESS_CACHE, false, true },
  };
  bool uv_cache = ash_strvec_contains (&c->in->req->cache_env, "UV_CACHE_DIR");

  for (size_t i = 0; i < ARRAY_SIZE (dirs); i++)
    {
      if (dirs[i].cache_only && !uv_cache)
        continue;
      _cleanup_free_ char *d
        = uv_dir (c, dirs[i].var, dirs[i].xdg, dirs[i].dflt, dirs[i].sub);
      if (!d)
        continue;
      _cleanup_free_ char *mount = NULL, *why = NULL;
      if (ash_homescreen_uv_dir (&c->hs, d, &mount, &why) == ASH_SCREEN_MOUNT)
        ash_policy_add_path (c->p, mount, dirs[i].access, dirs[i].exec,
                             _ (dirs[i].rule));
      else if (why)
        {
          warn (c, "%s: %s", c->p->scanner, why);
          ash_policy_add_skipped (c->p, d, why);
        }
    }
}

/* A declared path: never /, a home or a directory holding one.  */
static void
add_declared (struct ctx *c, const char *path, enum ash_access access,
              const char *rule)
{
  _cleanup_free_ char *e = expand (c, path);
  if (!e)
    {
      ash_policy_add_skipped (c->p, path, _ ("cannot be expanded"));
      return;
    }
  _cleanup_free_ char *real = ash_homescreen_realpath (e);
  if (!real)
    {
      ash_policy_add_skipped (c->p, e, _ ("does not exist"));
      return;
    }
  if (ash_homescreen_holds_home (&c->hs, real))
    {
      warn (c,
            _ ("%s: not mounting %s: it is /, a home directory or a "
               "directory holding one"),
            c->p->scanner, e);
      ash_policy_add_skipped (c->p, e,
                              _ ("/, a home directory or a "
                                 "directory holding one"));
      return;
    }
  ash_policy_add_path (c->p, real, access, false, rule);
}

/* A path a scanner's options name, already granted: mounted only inside
   the source tree or an extra_read_paths entry, and only a regular file
   or directory.  */
static void
add_option_path (struct ctx *c, const char *path)
{
  _cleanup_free_ char *e = expand (c, path);
  _cleanup_free_ char *real = e ? ash_homescreen_realpath (e) : NULL;
  struct stat st;

  if (!real || stat (real, &st) < 0)
    {
      warn (c, _ ("%s: not mounting %s: it does not exist"), c->p->scanner,
            path);
      return;
    }
  if (!S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
    {
      warn (c,
            _ ("%s: not mounting %s: it is not a regular file or "
               "directory"),
            c->p->scanner, path);
      return;
    }
  bool inside = ash_path_is_inside (real, c->source);
  for (size_t i = 0; !inside && i < c->extra.nr; i++)
    inside = ash_path_is_inside (real, c->extra.v[i]);
  if (!inside)
    {
      warn (c,
            _ ("%s: not mounting %s: it is not inside the source "
               "directory or a sandbox.extra_read_paths entry"),
            c->p->scanner, path);
      return;
    }
  ash_policy_add_path (c->p, real, ASH_ACCESS_READ, false,
                       _ ("path the scanner's options name (granted by "
                          "sandbox.read_path_scanners)"));
}

static void
add_caches_and_reads (struct ctx *c)
{
  const struct ash_requirements *req = c->in->req;
  const char *name = c->p->scanner;
  bool granted = in_list (c->in->read_path_scanners, name);

  if (req->read_paths_require_grant)
    {
      for (size_t i = 0; i < req->cache_paths.nr; i++)
        {
          warn (c,
                _ ("%s: not mounting the cache path %s: a cache path a "
                   "scanner's options name is never mounted"),
                name, req->cache_paths.v[i]);
          ash_policy_add_skipped (c->p, req->cache_paths.v[i],
                                  _ ("cache path from the scanner's "
                                     "options"));
        }
      if (req->read_paths.nr)
        {
          if (!granted)
            warn (c,
                  _ ("%s: not mounting the read paths its options name: "
                     "sandbox.read_path_scanners does not name it"),
                  name);
          else
            for (size_t i = 0; i < req->read_paths.nr; i++)
              add_option_path (c, req->read_paths.v[i]);
        }
    }
  else
    {
      for (size_t i = 0; i < req->cache_paths.nr; i++)
        add_declared (c, req->cache_paths.v[i], ASH_ACCESS_CACHE,
                      _ ("declared cache"));
      /* The database cache grype or trivy reads on this host, which may
         lie elsewhere than its declared defaults.  */
      _cleanup_free_ char *db_rule = NULL;
      _cleanup_free_ char *db
        = ash_scanner_db_cache_dir (name, c->in->environ, c->in->home,
                                    &db_rule);
      if (db)
        {
          _cleanup_free_ char *real = ash_homescreen_realpath (db);
          const char *cover = NULL;
          for (size_t i = 0; real && !cover && i < c->p->n_paths; i++)
            if (c->p->paths[i].access == ASH_ACCESS_CACHE
                && ash_path_is_inside (real, c->p->paths[i].path))
              cover = c->p->paths[i].path;
          if (cover)
            {
              _cleanup_free_ char *why
                = xasprintf (_ ("%s, inside the declared cache %s"), db_rule,
                             cover);
              ash_policy_add_skipped (c->p, db, why);
            }
          else
            add_declared (c, db, ASH_ACCESS_CACHE, db_rule);
        }
      for (size_t i = 0; i < req->read_paths.nr; i++)
        add_declared (c, req->read_paths.v[i], ASH_ACCESS_READ,
                      _ ("declared read path"));
    }

  if (c->in->option_read_paths && *c->in->option_read_paths)
    {
      if (!granted)
        warn (c,
              _ ("%s: not mounting the read paths its options name: "
                 "sandbox.read_path_scanners does not name it"),
              name);
      else
        for (char *const *o = c->in->option_read_paths; *o; o++)
          add_option_path (c, *o);
    }

  if (c->in->extra_read_paths)
    for (char *const *x = c->in->extra_read_paths; *x; x++)
      {
        _cleanup_free_ char *real = ash_homescreen_realpath (*x);
        if (!real)
          {
            ash_policy_add_skipped (c->p, *x, _ ("does not exist"));
            continue;
          }
        if (ash_homescreen_holds_home (&c->hs, real))
          {
            warn (c,
                  _ ("not mounting sandbox.extra_read_paths entry %s: it "
                     "is /, a home directory or a directory holding one"),
                  *x);
            continue;
          }
        ash_policy_add_path (c->p, real, ASH_ACCESS_READ, false,
                             _ ("sandbox.extra_read_paths"));
      }

  for (size_t i = 0; i < req->read_path_env.nr; i++)
    {
      const char *var = req->read_path_env.v[i];
      const char *val = env_get (c->in->environ, var);
      _cleanup_free_ char *mount = NULL, *why = NULL;
      if (ash_homescreen_read_path_env (&c->hs, val, &mount, &why)
          == ASH_SCREEN_MOUNT)
        {
          _cleanup_free_ char *rule = xasprintf ("$%s", var);
          ash_policy_add_path (c->p, mount, ASH_ACCESS_READ, false, rule);
        }
      else if (why)
        warn (c, _ ("%s: not mounting %s: %s"), name, var, why);
    }
}

bool
ash_policy_network (const struct ash_policy_input *in)
{
  if (in->offline)
    return false;
  bool net = in->network_scanners
               ? ash_strv_contains (in->network_scanners, in->scanner)
               : in->req->network;
  if (in->network_restrict
      && !ash_strv_contains (in->network_restrict, in->scanner))
    net = false;
  return net;
}

static void
add_env (struct ctx *c)
{
  const struct ash_requirements *req = c->in->req;
  bool declared
    = !req->env_requires_grant || in_list (c->in->env_scanners, c->p->scanner);

  if (!declared && (req->env_prefixes.nr || req->env_names.nr))
    warn (c,
          _ ("%s: not passing the variables its options name: "
             "sandbox.env_scanners does not name it"),
          c->p->scanner);
  ash_env_filter_allow (c->in->environ, req, declared, c->in->env_allow, c->p);

  if (c->in->cache_overlay)
    return;
  for (size_t i = 0; i < req->cache_env.nr; i++)
    {
      const char *var = req->cache_env.v[i];
      _cleanup_free_ char *sub = xasprintf (".cache/%s", var);
      _cleanup_free_ char *dir = ash_path_join (c->p->results_dir, sub);
      ash_strvec_unsetenv (&c->p->env, var);
      ash_strvec_setenv (&c->p->env, var, dir);
      ash_strvec_pushf (&c->p->private_caches, "%s=%s", var, dir);
    }
}

/* Whether the link NAME to TARGET is reachable through a link already in
   P: one whose name is a directory above NAME and whose target is the
   same directory above TARGET (a tool's bin directory inside its granted
   install prefix).  No directory can be made beneath a link, so such a
   link is left out.  The paths are sorted, so an outer link comes
   first.  */
static bool
home_link_covered (const struct ash_policy *p, const char *name,
                   const char *target)
{
  for (size_t i = 0; i < p->n_home_links; i++)
    {
      const struct ash_policy_link *l = &p->home_links[i];
      size_t n = strlen (l->name), t = strlen (l->target);

      if (strncmp (name, l->name, n) == 0 && name[n] == '/'
          && strncmp (target, l->target, t) == 0 && target[t] == '/'
          && streq (name + n, target + t))
        return true;
    }
  return false;
}

/* Each granted path under the real HOME (or under a link at its top)
   appears in the private home as a link, for backends that cannot mount
   it there.  */
static void
add_home_links (struct ctx *c)
{
  if (c->hs.homes.nr == 0 || !c->in->home || c->in->home[0] != '/')
    return;
  const char *home = c->hs.homes.v[0];
  for (size_t i = 0; i < c->p->n_paths; i++)
    {
      const struct ash_policy_path *pp = &c->p->paths[i];
      if (pp->access == ASH_ACCESS_HIDE)
        continue;
      _cleanup_free_ char *virt = ash_homescreen_virtual (&c->hs, pp->path);
      if (!ash_path_is_inside (virt, home) || streq (virt, home))
        continue;
      const char *rel = virt + strlen (home);
      while (*rel == '/')
        rel++;
      if (home_link_covered (c->p, rel, pp->path))
        continue;
      c->p->home_links
        = xreallocarray (c->p->home_links, c->p->n_home_links + 1,
                         sizeof *c->p->home_links);
      c->p->home_links[c->p->n_home_links++]
        = (struct ash_policy_link){ xstrdup (rel), xstrdup (pp->path) };
    }
}

static int
path_cmp (const void *a, const void *b)
{
  const struct ash_policy_path *x = a, *y = b;
  return strcmp (x->path, y->path);
}

int
ash_policy_compute (const struct ash_policy_input *in, struct ash_policy *ret,
                    struct ash_error *err)
{
  struct ash_policy p;
  struct ctx c = { .in = in, .p = &p };

  if (!in || !in->scanner || !in->req || !in->source_dir || !in->output_dir
      || !in->results_dir || in->source_dir[0] != '/'
      || in->output_dir[0] != '/' || in->results_dir[0] != '/')
    return ash_error_set (err, -EINVAL,
                          _ ("a policy needs a scanner, its requirements and "
                             "absolute source, output and results "
                             "directories"));

  ash_policy_init (&p);
  ash_homescreen_memo (true);
  p.scanner = xstrdup (in->scanner);
  p.results_dir = real_or_normal (in->results_dir);
  p.home = in->home ? xstrdup (in->home) : NULL;
  p.passwd_home = in->passwd_home ? xstrdup (in->passwd_home) : NULL;
  ash_strvec_push (&p.backend_env, "HOME");
  ash_strvec_push (&p.backend_env, "TMPDIR");
  ash_strvec_pushv (&p.sandbox_exec_env, in->req->sandbox_exec_env.v);
  p.unpack_dir_env
    = in->req->unpack_dir_env ? xstrdup (in->req->unpack_dir_env) : NULL;
  p.system_trust_roots = in->req->system_trust_roots;
  p.staged_input_only = in->req->staged_input_only;

  ash_homescreen_init (&c.hs, in->root, in->home, in->passwd_home,
                       in->system_dirs);
  ash_strvec_pushv (&p.linked_home_dirs, c.hs.link_targets.v);
  c.source = real_or_normal (in->source_dir);
  c.output = real_or_normal (in->output_dir);
  ash_strvec_init (&c.extra);
  if (in->extra_read_paths)
    for (char *const *x = in->extra_read_paths; *x; x++)
      {
        /* An entry that is /, a home or a directory holding one is not
           mounted, so it contains nothing either: a path the options
           name inside it stays out.  */
        char *r = ash_homescreen_realpath (*x);
        if (r && !ash_homescreen_holds_home (&c.hs, r))
          ash_strvec_push_nodup (&c.extra, r);
        else
          free (r);
      }

  add_data (&c);
  add_path_entries (&c);
  add_bin_path (&c);
  add_tool (&c);
  add_uv (&c);
  add_caches_and_reads (&c);
  p.network = ash_policy_network (in);
  add_env (&c);

  qsort (p.paths, p.n_paths, sizeof *p.paths, path_cmp);
  add_home_links (&c);
  ash_policy_add_hiding (&p, in->environ, in->mountinfo, !in->no_mounts);

  ash_homescreen_release (&c.hs);
  ash_homescreen_memo (false);
  free (c.source);
  free (c.output);
  ash_strvec_release (&c.extra);
  *ret = p;
  return 0;
}
