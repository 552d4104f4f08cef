/* SPDX-License-Identifier: Apache-2.0 */
/* ashconfig.c -- resolve the configuration: --config, ASH_CONFIG, discovery,
   extends, the built-in defaults and --config-overrides; remember where
   every file was found and where every value came from.  */

#include <config.h>

#include "config/ashconfig.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/util.h"
#include "config/config-overrides.h"
#include "config/config-schema.h"
#include "config/config-tier.h"

/* DESIGN section 5 lists the names "each in the source root then in
   .ash/".  We read that literally: every name in the source root first, in
   this order, then every name in .ash/, in the same order.  The first
   entry that exists is the configuration (a dangling link or a directory
   under one of these names is an error, not a reason to look further).  */
const char *const ash_config_discovery_names[] = {
  ".ashrc.yaml", ".ash.yml", ".ash.yaml", ".ash.json",
  "ash.yml",     "ash.yaml", "ash.json",  NULL,
};

/* An extends chain longer than this is surely a mistake.  */
#define EXTENDS_MAX 32

void
ash_config_init (struct ash_config *c)
{
  memset (c, 0, sizeof *c);
  ash_strvec_init (&c->overrides);
}

static void
file_release (struct ash_config_file *f)
{
  free (f->name);
  free (f->resolved);
  free (f->extends_entry);
  free (f->tier_reason);
  json_decref (f->tree);
  json_decref (f->positions);
  json_decref (f->env_uses);
}

void
ash_config_release (struct ash_config *c)
{
  for (size_t i = 0; i < c->n_files; i++)
    file_release (&c->files[i]);
  free (c->files);
  json_decref (c->root);
  json_decref (c->origins);
  ash_strvec_release (&c->overrides);
  ash_config_init (c);
}

static struct ash_config_file *
add_file (struct ash_config *c, enum ash_config_origin origin)
{
  c->files = xreallocarray (c->files, c->n_files + 1, sizeof *c->files);
  struct ash_config_file *f = &c->files[c->n_files++];
  memset (f, 0, sizeof *f);
  f->origin = origin;
  f->parent = -1;
  return f;
}

static char *
dir_of (const char *path)
{
  const char *slash = strrchr (path, '/');
  if (slash == NULL)
    return xstrdup (".");
  if (slash == path)
    return xstrdup ("/");
  return xstrndup (path, slash - path);
}

/* The trees a file the repository could have written lives in: the git
   checkout that holds it, or the scanned directory's spellings.  Empty
   when the file may grant (it may then extend any file).  */
static int
extends_roots (const struct ash_config_file *f,
               const struct ash_tier_context *ctx, struct ash_strvec *roots,
               struct ash_error *err)
{
  const char *names[2] = { f->name, f->resolved };
  for (size_t i = 0; i < ARRAY_SIZE (names); i++)
    {
      if (names[i] == NULL)
        continue;
      struct ash_tier_verdict v;
      int r = ash_config_tier_judge_full (names[i], ctx, &v, err);
      if (r < 0)
        return r;
      if (!v.may_grant)
        {
          if (v.checkout)
            ash_strvec_push (roots, v.checkout);
          if (v.in_scanned_tree || v.checkout == NULL)
            {
              const char *sp[3]
                = { ctx->source_dir, ctx->source_dir_resolved, ctx->pwd };
              for (size_t k = 0; k < ARRAY_SIZE (sp); k++)
                if (sp[k] && sp[k][0] == '/')
                  ash_strvec_push (roots, sp[k]);
            }
          ash_tier_verdict_release (&v);
          /* An empty list here would let it extend anything.  */
          if (roots->nr == 0)
            ash_strvec_push (roots, "/nonexistent/");
          return 0;
        }
      ash_tier_verdict_release (&v);
    }
  return 0;
}

/* Whether PATH lies inside one of ROOTS, by its spelling and by the file
   it resolves to (so that a link in the tree that leads out of it does
   not count as inside).  */
static bool
inside_roots (const char *path, const struct ash_strvec *roots)
{
  /* A base that does not exist is judged by its name, and then reported
     missing.  */
  _cleanup_free_ char *real = realpath (path, NULL);
  bool by_name = false, by_file = real == NULL;
  for (size_t i = 0; i < roots->nr; i++)
    {
      _cleanup_free_ char *n = ash_path_normalize (roots->v[i]);
      _cleanup_free_ char *rr = realpath (n, NULL);
      if (ash_path_is_inside (path, n)
          || (rr && ash_path_is_inside (path, rr)))
        by_name = true;
      if (real
          && (ash_path_is_inside (real, n)
              || (rr && ash_path_is_inside (real, rr))))
        by_file = true;
    }
  return by_name && by_file;
}

/* Load the file NAME (absolute, lexical) as C->files[INDEX], check it
   against the schema, then follow its extends entry.  A file the
   repository could have written (CTX; see config-tier.h) may extend only
   files inside the same checkout or scanned directory.  */
static int
load_chain (struct ash_config *c, size_t index,
            const struct ash_tier_context *ctx, struct ash_error *err)
{
  struct ash_config_file *f = &c->files[index];
  int r;

  char *real = realpath (f->name, NULL);
  int real_errno = real ? 0 : errno;
  if (real == NULL && real_errno == ENOMEM)
    ash_oom ();
  f->resolved = real;

  if (f->origin == ASH_CONFIG_EXTENDS && f->resolved == NULL)
    {
      /* Report a missing base at the extends entry that names it.  */
      struct ash_config_file *parent = &c->files[f->parent];
      json_t *pos = json_object_get (parent->positions, "extends");
      return ash_error_set_at (
        err, -real_errno, parent->name,
        pos ? (int) json_integer_value (json_array_get (pos, 0)) : 0,
        pos ? (int) json_integer_value (json_array_get (pos, 1)) : 0,
        _ ("extends: cannot load the base configuration '%s' (%s): %s"),
        f->extends_entry, f->name, strerror (real_errno));
    }

  /* A file the repository could have written may not read ASH's
     environment (spec: "What each tier may set"): the tier is decided
     before the file is read, so that such a file is parsed without
     expanding !ENV, and nothing of the environment enters the tree.  */
  static const struct ash_tier_context no_ctx = { 0 };
  bool may = false;
  _cleanup_free_ char *why = NULL;
  ash_config_tier_judge_file (c, index, ctx ? ctx : &no_ctx, &may, &why);
  r = ash_config_parse_file_env (f->name, may ? 0 : ASH_CONFIG_PARSE_NO_ENV,
                                 &f->tree, &f->positions, &f->env_uses, err);
  if (r < 0)
    return r;
  if (!may)
    {
      r = ash_config_tier_refuse_env (f->name, f->env_uses, why, err);
      if (r < 0)
        return r;
    }
  r = ash_config_schema_check (f->tree, f->name, f->positions, err);
  if (r < 0)
    return r;

  json_t *ext = json_object_get (f->tree, "extends");
  if (ext == NULL)
    return 0;

  const char *entry = json_string_value (ext);
  json_t *pos = json_object_get (f->positions, "extends");
  int line = pos ? (int) json_integer_value (json_array_get (pos, 0)) : 0;
  int col = pos ? (int) json_integer_value (json_array_get (pos, 1)) : 0;
  if (*entry == '\0')
    return ash_error_set_at (err, -EINVAL, f->name, line, col,
                             _ ("extends: the path is empty"));

  /* Relative to the directory of the name the file was found under.  */
  _cleanup_free_ char *dir = dir_of (f->name);
  _cleanup_free_ char *joined
    = entry[0] == '/' ? xstrdup (entry) : ash_path_join (dir, entry);
  char *base = ash_path_normalize (joined);

  /* A cycle: the base resolves to a file already in this chain.  */
  char *base_real = realpath (base, NULL);
  if (base_real)
    {
      for (int i = (int) index; i >= 0; i = c->files[i].parent)
        {
          if (c->files[i].resolved && streq (c->files[i].resolved, base_real))
            {
              struct ash_buf b = ASH_BUF_INIT;
              /* Name the files in the order the extends entries lead.  */
              _cleanup_free_ int *chain = xcalloc (c->n_files, sizeof (int));
              size_t n = 0;
              for (int j = (int) index; j >= i; j = c->files[j].parent)
                {
                  chain[n++] = j;
                  if (j == i)
                    break;
                }
              for (size_t k = n; k-- > 0;)
                ash_buf_addf (&b, "%s -> ", c->files[chain[k]].name);
              ash_buf_addstr (&b, base);
              r = ash_error_set_at (err, -ELOOP, f->name, line, col,
                                    _ ("extends: cycle: %s"), b.buf);
              ash_buf_release (&b);
              free (base_real);
              free (base);
              return r;
            }
        }
      free (base_real);
    }
  if (c->n_files > EXTENDS_MAX)
    {
      free (base);
      return ash_error_set_at (err, -ELOOP, f->name, line, col,
                               _ ("extends: the chain is longer than %d "
                                  "files"),
                               EXTENDS_MAX);
    }

  /* A config the scanned repository could have written may not make ash
     read a file outside that repository (extends: /etc/shadow as root).  */
  if (ctx)
    {
      struct ash_strvec roots = ASH_STRVEC_INIT;
      r = extends_roots (f, ctx, &roots, err);
      if (r < 0)
        {
          ash_strvec_release (&roots);
          free (base);
          return r;
        }
      if (roots.nr > 0 && !inside_roots (base, &roots))
        {
          r = ash_error_set_at (err, -EACCES, f->name, line, col,
                                _ ("extends: refusing the base configuration "
                                   "%s: a config file inside a git checkout "
                                   "or the scanned tree may extend only files "
                                   "inside %s"),
                                base, roots.v[0]);
          ash_strvec_release (&roots);
          free (base);
          return r;
        }
      ash_strvec_release (&roots);
    }

  struct ash_config_file *b = add_file (c, ASH_CONFIG_EXTENDS);
  b->name = base;
  b->extends_entry = xstrdup (entry);
  b->parent = (int) index;
  return load_chain (c, c->n_files - 1, ctx, err);
}

/* Merge SRC over DST (objects recursively; anything else: SRC wins), and
   record ORIGIN for every leaf SRC sets.  */
static void
merge_over (json_t *dst, const json_t *src, const char *kpath, json_t *origins,
            json_t *origin)
{
  const char *k;
  json_t *v;
  json_object_foreach ((json_t *) src, k, v)
    {
      if (*kpath == '\0' && streq (k, "extends"))
        continue;
      _cleanup_free_ char *child
        = *kpath ? xasprintf ("%s.%s", kpath, k) : xstrdup (k);
      json_t *cur = json_object_get (dst, k);
      if (json_is_object (cur) && json_is_object (v)
          && json_object_size (v) > 0)
        merge_over (cur, v, child, origins, origin);
      else if (json_is_object (cur) && json_is_object (v))
        {
          /* An empty mapping adds nothing; keep what lies below.  */
          if (json_object_size (cur) == 0)
            ash_config_origins_set (origins, child, cur, origin);
        }
      else
        {
          json_t *copy = json_deep_copy (v);
          json_object_set_new (dst, k, copy);
          ash_config_origins_set (origins, child, copy, origin);
        }
    }
}

static int
find_config (const char *source_dir, char **ret)
{
  static const char *const dirs[] = { "", ".ash" };
  for (size_t d = 0; d < ARRAY_SIZE (dirs); d++)
    for (size_t i = 0; ash_config_discovery_names[i]; i++)
      {
        _cleanup_free_ char *dir = *dirs[d]
                                     ? ash_path_join (source_dir, dirs[d])
                                     : xstrdup (source_dir);
        char *p = ash_path_join (dir, ash_config_discovery_names[i]);
        struct stat st;
        if (lstat (p, &st) == 0)
          {
            *ret = p;
            return 1;
          }
        free (p);
      }
  *ret = NULL;
  return 0;
}

int
ash_config_load (const struct ash_config_request *req, struct ash_config *ret,
                 struct ash_error *err)
{
  _cleanup_config_ struct ash_config c;
  int r;

  ash_config_init (&c);
  c.origins = json_object ();

  /* files[0]: the built-in defaults, from their JSON form: parsing the
     YAML took a sixth of a one-scanner scan's instructions.  No position
     in them is ever asked for (they set no extends, and a schema error
     in them fails test-config).  The YAML when the JSON does not load.  */
  struct ash_config_file *d = add_file (&c, ASH_CONFIG_DEFAULTS);
  d->tree = json_loads (ash_default_config_json, JSON_REJECT_DUPLICATES, NULL);
  if (json_is_object (d->tree))
    d->positions = json_object ();
  else
    {
      json_decref (d->tree);
      d->tree = NULL;
      r = ash_config_parse_yaml (ash_default_config_yaml,
                                 strlen (ash_default_config_yaml),
                                 "(built-in defaults)", &d->tree,
                                 &d->positions, err);
      if (r < 0)
        return r;
    }

  char *name = NULL;
  enum ash_config_origin origin = ASH_CONFIG_DISCOVERED;
  if (req->config_path && *req->config_path)
    {
      name = ash_path_absolute (req->config_path);
      origin = ASH_CONFIG_CLI;
    }
  else if (req->env_config && *req->env_config)
    {
      name = ash_path_absolute (req->env_config);
      origin = ASH_CONFIG_ENV;
    }
  else if (req->source_dir)
    find_config (req->source_dir, &name);

  if (name)
    {
      struct ash_config_file *f = add_file (&c, origin);
      f->name = ash_path_normalize (name);
      free (name);
      struct ash_tier_context ctx = { 0 };
      char *storage[3] = { NULL, NULL, NULL };
      if (req->source_dir)
        ash_tier_context_fill (&ctx, req->source_dir, storage);
      r = load_chain (&c, 1, &ctx, err);
      for (size_t k = 0; k < ARRAY_SIZE (storage); k++)
        free (storage[k]);
      if (r < 0)
        return r;
    }
  else
    c.from_defaults = true;

  /* Merge: defaults, the deepest base, ..., the file itself.  */
  c.root = json_object ();
  {
    json_t *o = json_integer (0);
    merge_over (c.root, c.files[0].tree, "", c.origins, o);
    json_decref (o);
  }
  for (size_t i = c.n_files; i-- > 1;)
    {
      json_t *o = json_integer ((json_int_t) i);
      merge_over (c.root, c.files[i].tree, "", c.origins, o);
      json_decref (o);
    }

  for (char *const *ov = req->overrides; ov && *ov; ov++)
    {
      r = ash_config_override_apply (c.root, *ov, c.origins, err);
      if (r < 0)
        return r;
      _cleanup_error_ struct ash_error serr = ASH_ERROR_INIT;
      r = ash_config_schema_check (c.root, NULL, NULL, &serr);
      if (r < 0)
        return ash_error_set (err, r,
                              _ ("invalid configuration override '%s': %s"),
                              *ov, serr.message);
      ash_strvec_push (&c.overrides, *ov);
    }

  *ret = c;
  ash_config_init (&c);
  return 0;
}

json_t *
ash_config_get (const struct ash_config *c, const char *dotted)
{
  if (c == NULL || c->root == NULL)
    return NULL;
  if (dotted == NULL || *dotted == '\0')
    return c->root;
  _cleanup_free_ char *copy = xstrdup (dotted);
  char *save = NULL;
  json_t *node = c->root;
  for (char *comp = strtok_r (copy, ".", &save); comp;
       comp = strtok_r (NULL, ".", &save))
    {
      if (!json_is_object (node))
        return NULL;
      node = json_object_get (node, comp);
      if (node == NULL)
        return NULL;
    }
  return node;
}

bool
ash_config_get_bool (const struct ash_config *c, const char *dotted, bool dflt)
{
  json_t *v = ash_config_get (c, dotted);
  return json_is_boolean (v) ? json_is_true (v) : dflt;
}

const char *
ash_config_get_string (const struct ash_config *c, const char *dotted)
{
  return json_string_value (ash_config_get (c, dotted));
}

int
ash_config_origin_of (const struct ash_config *c, const char *dotted,
                      const char **ret_override)
{
  if (c->origins == NULL)
    return -2;
  /* The value itself, or the nearest ancestor recorded as a leaf.  */
  _cleanup_free_ char *p = xstrdup (dotted);
  for (;;)
    {
      json_t *o = json_object_get (c->origins, p);
      if (json_is_integer (o))
        return (int) json_integer_value (o);
      if (json_is_string (o))
        {
          if (ret_override)
            *ret_override = json_string_value (o);
          return -1;
        }
      char *dot = strrchr (p, '.');
      if (!dot)
        return -2;
      *dot = '\0';
    }
}
