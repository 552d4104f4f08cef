/* SPDX-License-Identifier: Apache-2.0 */
/* test-config-tier-fixture.h -- real directory trees and hand-built
   configurations for the tier tests.

   Trees are built in a fresh directory under the system temporary
   directory, never in the build tree (which is itself a git checkout and
   would make every file "in a checkout").  */

#ifndef ASH_TEST_CONFIG_TIER_FIXTURE_H
#define ASH_TEST_CONFIG_TIER_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

#include "base/strvec.h"
#include "base/util.h"
#include "config/ashconfig.h"
#include "tap.h"

static char *fx_root;

static int
fx_rm_one (const char *path, const struct stat *st, int flag, struct FTW *f)
{
  (void) st;
  (void) flag;
  (void) f;
  return remove (path);
}

static void
fx_cleanup (void)
{
  if (fx_root)
    nftw (fx_root, fx_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free (fx_root);
  fx_root = NULL;
}

/* A new empty root; the real path, so that expectations are spelled
   the way realpath() spells them.  */
static const char *
fx_new_root (void)
{
  fx_cleanup ();
  const char *tmp = getenv ("TMPDIR");
  char *t = xasprintf ("%s/ash-tier-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp (t))
    {
      printf ("Bail out! mkdtemp: %s\n", strerror (errno));
      exit (99);
    }
  fx_root = realpath (t, NULL);
  free (t);
  /* A .git above the temporary directory would make everything a
     checkout; such a machine cannot run these tests.  */
  char *up = xstrdup (fx_root);
  for (char *s = strrchr (up, '/'); s; s = strrchr (up, '/'))
    {
      *s = '\0';
      char *g = xasprintf ("%s/.git", *up ? up : "");
      struct stat st;
      if (lstat (g, &st) == 0)
        tap_skip_all ("the temporary directory is inside a git checkout");
      free (g);
    }
  free (up);
  return fx_root;
}

/* fx_path ("a/b") -> ROOT/a/b (static rotating buffers).  */
static const char *
fx_path (const char *rel)
{
  static char *bufs[8];
  static int n;
  n = (n + 1) % 8;
  free (bufs[n]);
  bufs[n] = rel[0] == '/' ? xstrdup (rel) : xasprintf ("%s/%s", fx_root, rel);
  return bufs[n];
}

static void
fx_mkdirs (const char *abs)
{
  char *c = xstrdup (abs);
  for (char *s = strchr (c + 1, '/'); s; s = strchr (s + 1, '/'))
    {
      *s = '\0';
      mkdir (c, 0755);
      *s = '/';
    }
  mkdir (c, 0755);
  free (c);
}

static void
fx_parent (const char *abs)
{
  char *c = xstrdup (abs);
  char *s = strrchr (c, '/');
  if (s && s != c)
    {
      *s = '\0';
      fx_mkdirs (c);
    }
  free (c);
}

/* Tree operations, one string each:
     "d:REL"           a directory
     "f:REL"           an empty file (its parents made)
     "f:REL=TEXT"      a file holding TEXT
     "l:REL>TARGET"    a symlink (TARGET taken as is; "@" at its start
                       stands for the root)
     "g:REL"           REL/.git as a directory (a checkout)
     "G:REL"           REL/.git as a file (a submodule, linked worktree)  */
static void
fx_build (const char *const *ops)
{
  for (; *ops; ops++)
    {
      const char *op = *ops;
      char kind = op[0];
      const char *arg = op + 2;
      if (kind == 'd')
        fx_mkdirs (fx_path (arg));
      else if (kind == 'f')
        {
          const char *eq = strchr (arg, '=');
          char *rel = eq ? xstrndup (arg, (size_t) (eq - arg)) : xstrdup (arg);
          const char *p = fx_path (rel);
          fx_parent (p);
          FILE *f = fopen (p, "w");
          if (!f)
            {
              printf ("Bail out! cannot create %s\n", p);
              exit (99);
            }
          if (eq)
            fputs (eq + 1, f);
          fclose (f);
          free (rel);
        }
      else if (kind == 'l')
        {
          const char *gt = strchr (arg, '>');
          char *rel = xstrndup (arg, (size_t) (gt - arg));
          const char *target = gt + 1;
          char *t = target[0] == '@' ? xasprintf ("%s%s", fx_root, target + 1)
                                     : xstrdup (target);
          const char *p = fx_path (rel);
          fx_parent (p);
          if (symlink (t, p) < 0)
            {
              printf ("Bail out! symlink %s: %s\n", p, strerror (errno));
              exit (99);
            }
          free (t);
          free (rel);
        }
      else if (kind == 'g' || kind == 'G')
        {
          char *rel = xasprintf ("%s/.git", arg);
          const char *p = fx_path (rel);
          fx_parent (p);
          if (kind == 'g')
            fx_mkdirs (p);
          else
            {
              FILE *f = fopen (p, "w");
              if (f)
                {
                  fputs ("gitdir: ../.git/modules/sub\n", f);
                  fclose (f);
                }
            }
          free (rel);
        }
    }
}

/* A hand-built configuration: files in order from the weakest (the
   defaults) to the strongest (the top-level file), each with its own tree
   as JSON; the merged root folds them in that order.  */
struct fx_file
{
  enum ash_config_origin origin;
  const char *rel; /* relative to the root, or NULL (defaults) */
  int parent;
  const char *extends_entry;
  const char *json; /* its own tree */
};

static void
fx_origins_walk (json_t *origins, json_t *tree, const char *prefix, int idx)
{
  const char *k;
  json_t *v;
  json_object_foreach (tree, k, v)
    {
      char *key = prefix ? xasprintf ("%s.%s", prefix, k) : xstrdup (k);
      if (json_is_object (v))
        fx_origins_walk (origins, v, key, idx);
      else
        json_object_set_new (origins, key, json_integer (idx));
      free (key);
    }
}

static void
fx_config (struct ash_config *c, const struct fx_file *files, size_t n)
{
  memset (c, 0, sizeof *c);
  c->files = xcalloc (n, sizeof *c->files);
  c->n_files = n;
  c->root = json_object ();
  c->origins = json_object ();
  for (size_t i = 0; i < n; i++)
    {
      struct ash_config_file *f = &c->files[i];
      json_error_t je;
      f->origin = files[i].origin;
      f->parent = files[i].parent;
      if (files[i].rel)
        {
          f->name = xstrdup (fx_path (files[i].rel));
          f->resolved = realpath (f->name, NULL);
          if (!f->resolved)
            f->resolved = xstrdup (f->name);
        }
      f->extends_entry
        = files[i].extends_entry ? xstrdup (files[i].extends_entry) : NULL;
      f->tree = json_loads (files[i].json ? files[i].json : "{}", 0, &je);
      if (!f->tree)
        {
          printf ("Bail out! bad fixture JSON %s: %s\n", files[i].json,
                  je.text);
          exit (99);
        }
      /* A copy: the merge must not change the file's own tree.  */
      json_t *copy = json_deep_copy (f->tree);
      json_object_update_recursive (c->root, copy);
      json_decref (copy);
      fx_origins_walk (c->origins, f->tree, NULL, (int) i);
    }
}

static void
fx_config_release (struct ash_config *c)
{
  for (size_t i = 0; i < c->n_files; i++)
    {
      free (c->files[i].name);
      free (c->files[i].resolved);
      free (c->files[i].extends_entry);
      free (c->files[i].tier_reason);
      json_decref (c->files[i].tree);
    }
  free (c->files);
  json_decref (c->root);
  json_decref (c->origins);
  memset (c, 0, sizeof *c);
}

static char *
fx_join (const struct ash_strvec *sv)
{
  char *out = xstrdup ("");
  for (size_t i = 0; i < sv->nr; i++)
    {
      char *n = xasprintf ("%s%s%s", out, i ? "," : "", sv->v[i]);
      free (out);
      out = n;
    }
  return out;
}

#endif
