/* SPDX-License-Identifier: Apache-2.0 */
/* toolfind.c -- finding the programs ASH runs.  */

#include <config.h>

#include "proc/toolfind.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/ash"
#endif

static bool
is_executable_file (const char *path)
{
  struct stat st;
  if (stat (path, &st) < 0 || !S_ISREG (st.st_mode))
    return false;
  return access (path, X_OK) == 0;
}

/* realpath() into a newly allocated string, or NULL.  */
static char *
resolve (const char *path)
{
  return realpath (path, NULL);
}

/* Is CANDIDATE, found in DIR, inside the scanned tree?  SOURCE is the tree
   as given (normalised), SOURCE_REAL the tree resolved (or NULL).  */
static bool
in_tree (const char *candidate, const char *dir, const char *source,
         const char *source_real)
{
  if (ash_path_is_inside (candidate, source))
    return true;
  if (!source_real)
    return false;
  if (ash_path_is_inside (candidate, source_real))
    return true;
  _cleanup_free_ char *real = resolve (candidate);
  if (real && ash_path_is_inside (real, source_real))
    return true;
  _cleanup_free_ char *real_dir = dir ? resolve (dir) : NULL;
  if (real_dir && ash_path_is_inside (real_dir, source_real))
    return true;
  return false;
}

struct search
{
  const char *name;
  const char *source;      /* normalised, or NULL */
  const char *source_real; /* resolved, or NULL */
  bool allow_in_tree;
  char *found;        /* first acceptable candidate */
  char *in_tree_only; /* first candidate refused for being in the tree */
};

/* Consider DIR/NAME (or NAME itself when DIR is NULL).  True when the
   search is over.  */
static bool
consider (struct search *s, const char *dir)
{
  _cleanup_free_ char *joined = dir ? ash_path_join (dir, s->name) : NULL;
  _cleanup_free_ char *candidate
    = ash_path_normalize (joined ? joined : s->name);
  if (!is_executable_file (candidate))
    return false;
  if (s->source && !s->allow_in_tree
      && in_tree (candidate, dir, s->source, s->source_real))
    {
      if (!s->in_tree_only)
        s->in_tree_only = TAKE_PTR (candidate);
      return false;
    }
  s->found = TAKE_PTR (candidate);
  return true;
}

/* Consider NAME in every absolute entry of the ':' list LIST.  */
static bool
consider_list (struct search *s, const char *list)
{
  if (!list)
    return false;
  const char *p = list;
  for (;;)
    {
      const char *colon = strchr (p, ':');
      size_t len = colon ? (size_t) (colon - p) : strlen (p);
      /* An empty or relative entry would mean the working directory.  */
      if (len > 0 && p[0] == '/')
        {
          _cleanup_free_ char *dir = xstrndup (p, len);
          if (consider (s, dir))
            return true;
        }
      if (!colon)
        return false;
      p = colon + 1;
    }
}

int
ash_toolfind (const char *name, const struct ash_toolfind_opts *o,
              char **ret_path, struct ash_error *err)
{
  if (!name || !*name || (name[0] != '/' && strchr (name, '/')))
    return ash_error_set (err, -EINVAL,
                          _ ("cannot look up tool '%s': not a plain name or "
                             "an absolute path"),
                          name ? name : "");

  _cleanup_free_ char *source = NULL, *source_real = NULL;
  if (o->source_dir && *o->source_dir)
    {
      _cleanup_free_ char *abs = ash_path_absolute (o->source_dir);
      source = ash_path_normalize (abs);
      source_real = resolve (source);
    }

  struct search s = {
    .name = name,
    .source = source,
    .source_real = source_real,
    .allow_in_tree = o->allow_in_tree_tools,
  };
  if (name[0] == '/')
    consider (&s, NULL);
  else if (!consider_list (&s, o->bin_path))
    consider_list (&s, o->path_env);

  if (s.found)
    {
      free (s.in_tree_only);
      *ret_path = s.found;
      return 0;
    }
  if (s.in_tree_only)
    {
      _cleanup_free_ char *where = s.in_tree_only;
      return ash_error_set (
        err, -EPERM,
        _ ("%s was found only inside the scanned directory (%s); ASH does "
           "not run tools from the tree it scans unless "
           "--allow-in-tree-tools is given"),
        name, where);
    }
  if (name[0] == '/')
    return ash_error_set (err, -ENOENT, _ ("%s is not an executable file"),
                          name);
  return ash_error_set (err, -ENOENT,
                        _ ("%s was not found on PATH or in ASH's bin "
                           "directory"),
                        name);
}

char *
ash_helper_path (const char *helper_dir_hint, const char *name)
{
  if (helper_dir_hint && *helper_dir_hint)
    {
      _cleanup_free_ char *p = ash_path_join (helper_dir_hint, name);
      if (is_executable_file (p))
        return TAKE_PTR (p);
    }
  _cleanup_free_ char *p = ash_path_join (PKGLIBEXECDIR, name);
  if (is_executable_file (p))
    return TAKE_PTR (p);
  return NULL;
}

char *
ash_helper_file (const char *name)
{
  _cleanup_free_ char *exe = realpath ("/proc/self/exe", NULL);
  if (exe)
    {
      char *dir = dirname (exe);
      char *p = ash_helper_path (dir, name);
      if (p)
        return p;
      _cleanup_free_ char *data = ash_path_join (dir, "../data");
      _cleanup_free_ char *norm = ash_path_normalize (data);
      p = ash_helper_path (norm, name);
      if (p)
        return p;
    }
  return ash_helper_path (NULL, name);
}
