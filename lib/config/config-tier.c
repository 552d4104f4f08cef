/* SPDX-License-Identifier: Apache-2.0 */
/* config-tier.c -- which files may grant sandbox access.

   See "Who may grant" in ash-sandbox(7).  A file is judged by every
   spelling that leads to it: the name it was found under, each symlink met
   while resolving that name (one component at a time, as the kernel
   would), and the file it finally resolves to.  If any of them lies in a
   git checkout or in the scanned directory, the file may not grant.  */

#include <config.h>

#include "config/config-tier.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/util.h"

/* As many links as the kernel follows before ELOOP.  */
#define TIER_MAX_LINKS 40

void
ash_tier_verdict_release (struct ash_tier_verdict *v)
{
  free (v->reason);
  free (v->checkout);
  free (v->link);
  free (v->resolved);
  *v = (struct ash_tier_verdict){ 0 };
}

static char *
path_dirname (const char *path)
{
  const char *slash = strrchr (path, '/');
  if (!slash)
    return xstrdup (".");
  if (slash == path)
    return xstrdup ("/");
  return xstrndup (path, (size_t) (slash - path));
}

/* The nearest directory at or above PATH that holds a .git entry (a
   directory, or the file a submodule or linked worktree has; any kind of
   entry counts), or NULL.  */
static char *
find_checkout (const char *path)
{
  _cleanup_free_ char *d = ash_path_normalize (path);
  for (;;)
    {
      _cleanup_free_ char *git = ash_path_join (d, ".git");
      struct stat st;
      if (lstat (git, &st) == 0)
        return TAKE_PTR (d);
      if (streq (d, "/"))
        return NULL;
      char *up = path_dirname (d);
      free (d);
      d = up;
    }
}

/* Resolve ABS one component at a time, pushing onto LINKS the location of
   every symlink met (in a directory that is itself already resolved).  A
   component that does not exist ends the walk: the rest is appended
   lexically.  */
static int
walk_resolve (const char *abs, struct ash_strvec *links, char **ret_resolved,
              struct ash_error *err)
{
  _cleanup_free_ char *rest = xstrdup (abs);
  _cleanup_free_ char *cur = xstrdup ("/");
  int nlinks = 0;
  const char *p = rest;

  for (;;)
    {
      while (*p == '/')
        p++;
      if (!*p)
        break;
      const char *end = strchrnul (p, '/');
      _cleanup_free_ char *comp = xstrndup (p, (size_t) (end - p));
      p = end;
      if (streq (comp, "."))
        continue;
      if (streq (comp, ".."))
        {
          char *up = path_dirname (cur);
          free (cur);
          cur = up;
          continue;
        }
      _cleanup_free_ char *next = ash_path_join (cur, comp);
      struct stat st;
      if (lstat (next, &st) < 0)
        {
          if (errno == ENOENT || errno == ENOTDIR)
            {
              _cleanup_free_ char *tail = ash_path_join (next, p);
              *ret_resolved = ash_path_normalize (tail);
              return 0;
            }
          return ash_error_set (err, -errno, _ ("cannot examine %s: %s"), next,
                                strerror (errno));
        }
      if (!S_ISLNK (st.st_mode))
        {
          free (cur);
          cur = TAKE_PTR (next);
          continue;
        }
      if (++nlinks > TIER_MAX_LINKS)
        return ash_error_set (err, -ELOOP,
                              _ ("cannot resolve %s: too many links"), abs);
      char target[PATH_MAX];
      ssize_t n = readlink (next, target, sizeof target - 1);
      if (n < 0)
        return ash_error_set (err, -errno, _ ("cannot read the link %s: %s"),
                              next, strerror (errno));
      target[n] = '\0';
      ash_strvec_push (links, next);
      char *newrest = xasprintf ("%s/%s", target, p);
      free (rest);
      rest = newrest;
      p = rest;
      if (target[0] == '/')
        {
          free (cur);
          cur = xstrdup ("/");
        }
    }
  *ret_resolved = TAKE_PTR (cur);
  return 0;
}

/* The spelling of the scanned directory that PATH lies in, or NULL.  Each
   spelling counts as written and as it resolves, so that a context that
   knows only one spelling still catches the others.  */
static const char *
scanned_dir_of (const char *path, const struct ash_tier_context *ctx)
{
  const char *spellings[3]
    = { ctx->source_dir, ctx->source_dir_resolved, ctx->pwd };
  struct stat sst[3];
  bool have[3] = { false, false, false };
  for (size_t i = 0; i < ARRAY_SIZE (spellings); i++)
    if (spellings[i] && spellings[i][0] == '/')
      {
        _cleanup_free_ char *s = ash_path_normalize (spellings[i]);
        if (ash_path_is_inside (path, s))
          return spellings[i];
        _cleanup_free_ char *r = realpath (s, NULL);
        if (r && ash_path_is_inside (path, r))
          return spellings[i];
        have[i] = stat (s, &sst[i]) == 0 && S_ISDIR (sst[i].st_mode);
      }

  /* By identity: a directory at or above PATH that is the scanned
     directory under a spelling no link explains (a bind mount of it, or
     another case on a file system that ignores case).  A link on the way
     is left to the caller, which names it.  */
  _cleanup_free_ char *d = ash_path_normalize (path);
  for (;;)
    {
      struct stat st;
      if (lstat (d, &st) == 0 && S_ISDIR (st.st_mode))
        for (size_t i = 0; i < ARRAY_SIZE (spellings); i++)
          if (have[i] && st.st_dev == sst[i].st_dev
              && st.st_ino == sst[i].st_ino)
            return spellings[i];
      if (streq (d, "/") || !strchr (d, '/'))
        return NULL;
      char *up = path_dirname (d);
      free (d);
      d = up;
    }
}

/* The reason NAME (absolute as ABS, reached through LINKS, resolving to
   RESOLVED) may not grant, into V: by the name, by each link, by the file
   it resolves to, the first that is inside a git checkout or the scanned
   tree; V is left alone when none is.  */
static void
judge_steps (const char *abs, const struct ash_strvec *links,
             const char *resolved, const struct ash_tier_context *ctx,
             struct ash_tier_verdict *v)
{
  /* By the name it was found under.  */
  char *co = find_checkout (abs);
  if (co)
    {
      v->reason = xasprintf (_ ("%s is inside the git checkout %s"), abs, co);
      v->checkout = co;
      return;
    }
  const char *sd = scanned_dir_of (abs, ctx);
  if (sd)
    {
      v->reason
        = xasprintf (_ ("%s is inside the scanned directory %s"), abs, sd);
      v->in_scanned_tree = true;
      return;
    }

  /* By every link met on the way: the link's directory is already
     resolved, so this also covers each intermediate path.  */
  for (size_t i = 0; i < links->nr; i++)
    {
      const char *l = links->v[i];
      _cleanup_free_ char *ldir = path_dirname (l);
      co = find_checkout (ldir);
      if (co)
        {
          v->reason = xasprintf (_ ("%s leads through the link %s, inside the "
                                    "git checkout %s"),
                                 abs, l, co);
          v->checkout = co;
          v->link = xstrdup (l);
          return;
        }
      sd = scanned_dir_of (l, ctx);
      if (sd)
        {
          v->reason = xasprintf (_ ("%s leads through the link %s, inside the "
                                    "scanned directory %s"),
                                 abs, l, sd);
          v->link = xstrdup (l);
          v->in_scanned_tree = true;
          return;
        }
    }

  /* By the file it resolves to.  */
  co = find_checkout (resolved);
  if (co)
    {
      v->reason
        = xasprintf (_ ("%s resolves to %s, inside the git checkout %s"), abs,
                     resolved, co);
      v->checkout = co;
      return;
    }
  sd = scanned_dir_of (resolved, ctx);
  if (sd)
    {
      v->reason = xasprintf (_ ("%s resolves to %s, inside the scanned "
                                "directory %s"),
                             abs, resolved, sd);
      v->in_scanned_tree = true;
      return;
    }
}

int
ash_config_tier_judge_full (const char *name,
                            const struct ash_tier_context *ctx,
                            struct ash_tier_verdict *ret,
                            struct ash_error *err)
{
  _cleanup_free_ char *abs = ash_path_absolute (name);
  _cleanup_strvec_ struct ash_strvec links = ASH_STRVEC_INIT;
  _cleanup_free_ char *resolved = NULL;
  struct ash_tier_verdict v = { 0 };
  int r;

  r = walk_resolve (abs, &links, &resolved, err);
  if (r < 0)
    return r;

  judge_steps (abs, &links, resolved, ctx, &v);
  v.may_grant = v.reason == NULL;
  v.resolved = TAKE_PTR (resolved);
  *ret = v;
  return 0;
}

int
ash_config_tier_judge (const char *name, const struct ash_tier_context *ctx,
                       bool *ret_may_grant, char **ret_reason,
                       struct ash_error *err)
{
  struct ash_tier_verdict v;
  int r = ash_config_tier_judge_full (name, ctx, &v, err);
  if (r < 0)
    return r;
  *ret_may_grant = v.may_grant;
  if (ret_reason)
    *ret_reason = TAKE_PTR (v.reason);
  ash_tier_verdict_release (&v);
  return 0;
}

void
ash_tier_context_fill (struct ash_tier_context *ctx, const char *source_dir,
                       char *storage[3])
{
  storage[0] = ash_path_absolute (source_dir);
  storage[1] = realpath (storage[0], NULL);
  storage[2] = NULL;

  /* The shell's working directory keeps the name it was reached under
     ($PWD), which getcwd() has resolved away.  When the scanned directory
     is at or below the working directory, spell it through $PWD too.  */
  const char *pwd = getenv ("PWD");
  _cleanup_free_ char *cwd = getcwd (NULL, 0);
  if (pwd && pwd[0] == '/' && cwd)
    {
      _cleanup_free_ char *pwd_real = realpath (pwd, NULL);
      _cleanup_free_ char *cwd_real = realpath (cwd, NULL);
      if (pwd_real && cwd_real && streq (pwd_real, cwd_real)
          && ash_path_is_inside (storage[0], cwd))
        {
          const char *rel = storage[0] + strlen (cwd);
          if (streq (cwd, "/"))
            rel = storage[0];
          _cleanup_free_ char *j = xasprintf ("%s/%s", pwd, rel);
          storage[2] = ash_path_normalize (j);
        }
    }
  ctx->source_dir = storage[0];
  ctx->source_dir_resolved = storage[1];
  ctx->pwd = storage[2];
}

/* Judge one spelling of a file and note the first reason it may not
   grant.  */
static void
judge_into (const char *path, const struct ash_tier_context *ctx,
            bool *may_grant, char **reason)
{
  struct ash_error e = ASH_ERROR_INIT;
  bool ok = false;
  char *why = NULL;

  if (!path || !*path)
    return;
  if (ash_config_tier_judge (path, ctx, &ok, &why, &e) < 0)
    {
      ok = false;
      why = xasprintf (_ ("cannot decide the tier of %s: %s"), path,
                       e.message ? e.message : "");
    }
  ash_error_release (&e);
  if (!ok && *may_grant)
    {
      *may_grant = false;
      *reason = TAKE_PTR (why);
    }
  free (why);
}

void
ash_config_tier_judge_file (const struct ash_config *c, size_t i,
                            const struct ash_tier_context *ctx,
                            bool *ret_may_grant, char **ret_reason)
{
  const struct ash_config_file *f = &c->files[i];
  bool may = true;
  char *reason = NULL;

  if (f->origin == ASH_CONFIG_DEFAULTS || f->origin == ASH_CONFIG_OVERRIDE)
    {
      *ret_may_grant = true;
      *ret_reason = NULL;
      return;
    }
  judge_into (f->name, ctx, &may, &reason);
  judge_into (f->resolved, ctx, &may, &reason);
  if (f->origin == ASH_CONFIG_EXTENDS && f->extends_entry && *f->extends_entry)
    {
      if (f->extends_entry[0] == '/')
        judge_into (f->extends_entry, ctx, &may, &reason);
      else if (f->parent >= 0 && (size_t) f->parent < c->n_files)
        {
          /* A relative entry is taken against the naming file's
             directory, by both of its spellings.  */
          const struct ash_config_file *p = &c->files[f->parent];
          const char *bases[2] = { p->name, p->resolved };
          for (size_t b = 0; b < 2; b++)
            if (bases[b])
              {
                _cleanup_free_ char *dir = path_dirname (bases[b]);
                _cleanup_free_ char *j = ash_path_join (dir, f->extends_entry);
                judge_into (j, ctx, &may, &reason);
              }
        }
    }
  if (may && !f->name && !f->resolved)
    {
      /* A file of unknown place could have been written by anyone.  */
      may = false;
      reason = xstrdup (_ ("the file's location is unknown"));
    }
  *ret_may_grant = may;
  *ret_reason = reason;
}

int
ash_config_tier_judge_all (struct ash_config *c,
                           const struct ash_tier_context *ctx,
                           struct ash_error *err)
{
  (void) err;
  for (size_t i = 0; i < c->n_files; i++)
    {
      struct ash_config_file *f = &c->files[i];
      free (f->tier_reason);
      ash_config_tier_judge_file (c, i, ctx, &f->may_grant, &f->tier_reason);
    }
  return 0;
}

int
ash_config_tier_refuse_env (const char *file, const json_t *env_uses,
                            const char *why, struct ash_error *err)
{
  size_t n = json_array_size (env_uses);
  if (n == 0)
    return 0;
  json_t *first = json_array_get (env_uses, 0);
  int line = (int) json_integer_value (json_array_get (first, 0));
  int column = (int) json_integer_value (json_array_get (first, 1));
  return ash_error_set_at (
    err, -EACCES, file, line, column,
    ngettext ("!ENV is refused (%zu use in this file): %s, so the "
              "scanned repository could have written this file, and "
              "such a file may not read ASH's environment. Set the value "
              "in a configuration file outside every git checkout and "
              "outside the scanned directory (given with --config or "
              "ASH_CONFIG), or pass it with --config-overrides KEY=VALUE",
              "!ENV is refused (%zu uses in this file): %s, so the "
              "scanned repository could have written this file, and "
              "such a file may not read ASH's environment. Set the value "
              "in a configuration file outside every git checkout and "
              "outside the scanned directory (given with --config or "
              "ASH_CONFIG), or pass it with --config-overrides KEY=VALUE",
              n),
    n, why ? why : _ ("the file's location is unknown"));
}

bool
ash_config_tier_any_untrusted (const struct ash_config *c)
{
  for (size_t i = 0; i < c->n_files; i++)
    if (!c->files[i].may_grant)
      return true;
  return false;
}

const char *
ash_config_origin_name (enum ash_config_origin o)
{
  switch (o)
    {
    case ASH_CONFIG_DEFAULTS:
      return "defaults";
    case ASH_CONFIG_CLI:
      return "--config";
    case ASH_CONFIG_ENV:
      return "ASH_CONFIG";
    case ASH_CONFIG_DISCOVERED:
      return "discovered";
    case ASH_CONFIG_EXTENDS:
      return "extends";
    case ASH_CONFIG_OVERRIDE:
      return "--config-overrides";
    }
  return "unknown";
}

static json_t *
json_string_or_null (const char *s)
{
  return s ? json_string (s) : json_null ();
}

json_t *
ash_config_tiers_to_json (const struct ash_config *c)
{
  json_t *files = json_array ();
  for (size_t i = 0; i < c->n_files; i++)
    {
      const struct ash_config_file *f = &c->files[i];
      json_t *o = json_object ();
      json_object_set_new (o, "index", json_integer ((json_int_t) i));
      json_object_set_new (o, "origin",
                           json_string (ash_config_origin_name (f->origin)));
      json_object_set_new (o, "name", json_string_or_null (f->name));
      json_object_set_new (o, "resolved", json_string_or_null (f->resolved));
      json_object_set_new (o, "extends_entry",
                           json_string_or_null (f->extends_entry));
      json_object_set_new (o, "parent", json_integer (f->parent));
      json_object_set_new (o, "may_grant", json_boolean (f->may_grant));
      json_object_set_new (o, "tier",
                           json_string (f->may_grant ? "operator"
                                                     : "repository"));
      json_object_set_new (o, "reason", json_string_or_null (f->tier_reason));
      /* Where the file uses !ENV (only an operator file can: a load that
         meets one elsewhere is refused).  */
      json_object_set_new (o, "env_tags",
                           f->env_uses ? json_deep_copy (f->env_uses)
                                       : json_array ());
      json_array_append_new (files, o);
    }
  json_t *root = json_object ();
  json_object_set_new (root, "files", files);
  json_object_set_new (root, "any_untrusted",
                       json_boolean (ash_config_tier_any_untrusted (c)));
  return root;
}

char *
ash_config_tiers_to_text (const struct ash_config *c)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < c->n_files; i++)
    {
      const struct ash_config_file *f = &c->files[i];
      ash_buf_addf (&b, "%zu  %s  %s\n", i, ash_config_origin_name (f->origin),
                    f->name ? f->name : _ ("(built in)"));
      if (f->resolved && (!f->name || !streq (f->resolved, f->name)))
        ash_buf_addf (&b, _ ("    resolves to: %s\n"), f->resolved);
      if (f->extends_entry)
        ash_buf_addf (&b, _ ("    extends entry: %s (in file %d)\n"),
                      f->extends_entry, f->parent);
      if (f->may_grant)
        ash_buf_addf (&b, _ ("    tier: operator (may grant)\n"));
      else
        ash_buf_addf (&b, _ ("    tier: repository (may not grant): %s\n"),
                      f->tier_reason ? f->tier_reason : "");
      size_t n = json_array_size (f->env_uses);
      if (n > 0)
        {
          ash_buf_addstr (&b, f->may_grant
                                ? _ ("    reads the environment (!ENV) at:")
                                : _ ("    !ENV refused at:"));
          for (size_t k = 0; k < n; k++)
            {
              json_t *p = json_array_get (f->env_uses, k);
              ash_buf_addf (&b, " %d:%d",
                            (int) json_integer_value (json_array_get (p, 0)),
                            (int) json_integer_value (json_array_get (p, 1)));
            }
          ash_buf_addch (&b, '\n');
        }
    }
  return ash_buf_detach (&b);
}

int
ash_config_origin_index (const struct ash_config *c, const char *dotted,
                         bool *ret_override)
{
  if (ret_override)
    *ret_override = false;
  if (!c->origins || !json_is_object (c->origins))
    return -1;
  /* The key itself, else the nearest enclosing key (an override may set a
     whole section).  */
  _cleanup_free_ char *key = xstrdup (dotted);
  for (;;)
    {
      json_t *o = json_object_get (c->origins, key);
      if (json_is_integer (o))
        {
          json_int_t i = json_integer_value (o);
          if (i >= 0 && (size_t) i < c->n_files)
            return (int) i;
          return -1;
        }
      if (json_is_string (o))
        {
          if (ret_override)
            *ret_override = true;
          return -1;
        }
      char *dot = strrchr (key, '.');
      if (!dot)
        return -1;
      *dot = '\0';
    }
}

int
ash_config_option_file_trusted (const struct ash_config *c,
                                const char *option_key, const char *path,
                                const struct ash_tier_context *ctx,
                                bool *ret_trusted, char **ret_reason,
                                struct ash_error *err)
{
  bool over = false;
  int idx = ash_config_origin_index (c, option_key, &over);

  bool setter_may = false;
  if (idx >= 0)
    {
      _cleanup_free_ char *why_setter = NULL;
      ash_config_tier_judge_file (c, (size_t) idx, ctx, &setter_may,
                                  &why_setter);
    }
  if (over || setter_may)
    {
      *ret_trusted = true;
      if (ret_reason)
        *ret_reason = NULL;
      return 0;
    }
  bool may = false;
  _cleanup_free_ char *why = NULL;
  int r = ash_config_tier_judge (path, ctx, &may, &why, err);
  if (r < 0)
    return r;
  *ret_trusted = may;
  if (ret_reason)
    {
      if (may)
        *ret_reason = NULL;
      else if (idx >= 0 && c->files[idx].name)
        *ret_reason
          = xasprintf (_ ("%s names it, and %s"), c->files[idx].name, why);
      else
        *ret_reason = TAKE_PTR (why);
    }
  return 0;
}
