/* SPDX-License-Identifier: Apache-2.0 */
/* outdir.c -- where the output directory may be, and what ash may clear
   in it.  */

#include <config.h>

#include "fs/outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"

#define DEFAULT_REL ".ash/ash_output"

/* PATH resolved as far as it exists, the rest appended (newly
   allocated).  */
static char *
real_prefix (const char *path)
{
  _cleanup_free_ char *p = ash_path_normalize (path);
  _cleanup_free_ char *head = xstrdup (p);
  for (;;)
    {
      char *r = realpath (head, NULL);
      if (r)
        {
          const char *rest = p + strlen (head);
          char *out = *rest
                        ? ash_path_join (r, rest[0] == '/' ? rest + 1 : rest)
                        : xstrdup (r);
          free (r);
          char *n = ash_path_normalize (out);
          free (out);
          return n;
        }
      char *slash = strrchr (head, '/');
      if (slash == NULL || slash == head)
        return xstrdup (p);
      *slash = '\0';
    }
}

static bool
same_dir (const char *a, const char *b)
{
  if (a == NULL || b == NULL || *b == '\0')
    return false;
  _cleanup_free_ char *na = ash_path_normalize (a);
  _cleanup_free_ char *nb = ash_path_normalize (b);
  if (streq (na, nb))
    return true;
  _cleanup_free_ char *ra = realpath (na, NULL);
  _cleanup_free_ char *rb = realpath (nb, NULL);
  return ra && rb && streq (ra, rb);
}

/* DIR and its real path REAL as is_or_holds() compares them with each
   home: normalised and resolved once, not once per home.  */
struct dir_forms
{
  const char *dir, *real;
  char *n[2]; /* DIR and REAL normalised (NULL for a NULL one) */
  char *r[2]; /* and their real paths, or NULL */
};

static void
dir_forms_init (struct dir_forms *f, const char *dir, const char *real)
{
  const char *in[2] = { dir, real };
  f->dir = dir;
  f->real = real;
  for (int i = 0; i < 2; i++)
    {
      f->n[i] = in[i] ? ash_path_normalize (in[i]) : NULL;
      f->r[i] = f->n[i] ? realpath (f->n[i], NULL) : NULL;
    }
}

static void
dir_forms_release (struct dir_forms *f)
{
  for (int i = 0; i < 2; i++)
    {
      free (f->n[i]);
      free (f->r[i]);
    }
}

/* Whether F's directory (or its real path) is HOME or holds it: the same
   directory by name or once resolved, or HOME (by name or resolved) lies
   below either.  */
static bool
is_or_holds (const struct dir_forms *f, const char *home)
{
  _cleanup_free_ char *h = ash_path_normalize (home);
  for (int i = 0; i < 2; i++)
    if (f->n[i] && streq (f->n[i], h))
      return true;
  _cleanup_free_ char *rh = realpath (h, NULL);
  for (int i = 0; i < 2; i++)
    if (rh && f->r[i] && streq (f->r[i], rh))
      return true;
  return ash_path_is_inside (h, f->dir) || ash_path_is_inside (h, f->real)
         || (rh
             && (ash_path_is_inside (rh, f->dir)
                 || ash_path_is_inside (rh, f->real)));
}

/* A home directory that DIR is or holds, by HOME, ash's passwd entry, or
   any passwd entry.  */
static const char *
home_of (const char *dir, const char *real)
{
  static char found[4096];
  const char *home = getenv ("HOME");
  struct dir_forms f;
  const char *hit = NULL;
  dir_forms_init (&f, dir, real);
  if (home && home[0] == '/' && !streq (home, "/") && is_or_holds (&f, home))
    hit = home;
  struct passwd *pw;
  if (!hit)
    {
      setpwent ();
      while ((pw = getpwent ()) != NULL)
        if (pw->pw_dir && pw->pw_dir[0] == '/' && !streq (pw->pw_dir, "/")
            && is_or_holds (&f, pw->pw_dir))
          {
            snprintf (found, sizeof found, "%s", pw->pw_dir);
            hit = found;
            break;
          }
      endpwent ();
    }
  dir_forms_release (&f);
  return hit;
}

static int refuse (struct ash_error *err, const char *fmt, ...)
  _printf_ (2, 3);

static int
refuse (struct ash_error *err, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *m = xvasprintf (fmt, ap);
  va_end (ap);
  ash_error_set (err, -EPERM, "%s", m);
  if (err)
    err->kind = ASH_KIND_OUTPUT_DIR_REFUSED;
  return -EPERM;
}

int
ash_outdir_place (const char *path, const char *source_dir, char **ret_path,
                  char **ret_warning, struct ash_error *err)
{
  _cleanup_free_ char *src = ash_path_absolute (source_dir);
  _cleanup_free_ char *src_n = ash_path_normalize (src);
  _cleanup_free_ char *real_src = real_prefix (src_n);
  _cleanup_free_ char *dflt = ash_path_join (src_n, DEFAULT_REL);
  *ret_warning = NULL;
  *ret_path = NULL;

  if (path == NULL)
    {
      *ret_path = TAKE_PTR (dflt);
      return 0;
    }
  _cleanup_free_ char *abs = ash_path_absolute (path);
  _cleanup_free_ char *out = ash_path_normalize (abs);
  _cleanup_free_ char *real = real_prefix (out);

  if (streq (out, "/") || streq (real, "/"))
    return refuse (err,
                   _ ("refusing the output directory %s: ash does not "
                      "write its output into /; pass --output-dir with "
                      "a directory of its own"),
                   out);
  const char *home = home_of (out, real);
  if (home)
    return refuse (err,
                   _ ("refusing the output directory %s: it is or holds "
                      "the home directory %s, whose files ash would "
                      "clear or expose; pass --output-dir with a "
                      "directory of its own"),
                   out, home);
  if (same_dir (out, src_n) || streq (real, real_src))
    {
      *ret_warning = xasprintf (_ ("The output directory is the source "
                                   "directory %s; writing the output to %s "
                                   "instead, so that ash never clears files "
                                   "of the scanned tree"),
                                src_n, dflt);
      *ret_path = TAKE_PTR (dflt);
      return 0;
    }
  if ((ash_path_is_inside (src_n, out) && !streq (src_n, out))
      || (ash_path_is_inside (real_src, real) && !streq (real_src, real)))
    return refuse (err,
                   _ ("refusing the output directory %s: it holds the "
                      "source directory %s; pass --output-dir with a "
                      "directory outside it"),
                   out, src_n);
  bool inside
    = ash_path_is_inside (out, src_n) || ash_path_is_inside (real, real_src);
  if (inside)
    {
      _cleanup_free_ char *real_dflt = real_prefix (dflt);
      if (!streq (out, dflt) && !streq (real, real_dflt))
        return refuse (err,
                       _ ("refusing the output directory %s: it is "
                          "inside the scanned tree %s, where ash "
                          "writes only to %s; pass --output-dir with a "
                          "directory outside the tree"),
                       out, src_n, dflt);
    }
  *ret_path = TAKE_PTR (out);
  return 0;
}

static bool
listed (const char *const *names, const char *n)
{
  for (size_t i = 0; names && names[i]; i++)
    if (streq (names[i], n))
      return true;
  return false;
}

int
ash_outdir_claim (const struct ash_outdir *od, bool default_out,
                  const char *const *names, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error rerr = ASH_ERROR_INIT;
  struct ash_strvec ours = ASH_STRVEC_INIT;
  int r = ash_tree_read_file (od->fd, ASH_OUTDIR_MANIFEST, 1 << 20, &b, &rerr);
  bool have = r == 0;
  if (r < 0 && r != -ENOENT)
    {
      ash_buf_release (&b);
      ash_error_release (err);
      *err = rerr;
      return r;
    }
  ash_error_release (&rerr);
  if (have)
    {
      json_t *doc = json_loadb (b.buf, b.len, 0, NULL);
      json_t *list = json_object_get (doc, "entries");
      size_t i;
      json_t *e;
      json_array_foreach (list, i, e)
        if (json_is_string (e) && listed (names, json_string_value (e)))
          ash_strvec_push (&ours, json_string_value (e));
      json_decref (doc);
    }
  else if (od->created || default_out)
    {
      for (size_t i = 0; names[i]; i++)
        ash_strvec_push (&ours, names[i]);
    }
  else
    {
      /* Not ash's: clear nothing; refuse when an earlier run's names are
         there (the caller would otherwise have to delete them).  */
      for (size_t i = 0; names[i]; i++)
        {
          struct stat st;
          if (fstatat (od->fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
            {
              ash_buf_release (&b);
              ash_strvec_release (&ours);
              return refuse (err,
                             _ ("refusing to clear the output directory %s: "
                                "ash did not create it (it holds %s but no "
                                "%s); pass --output-dir with a new or empty "
                                "directory"),
                             od->path, names[i], ASH_OUTDIR_MANIFEST);
            }
        }
    }
  ash_buf_release (&b);

  for (size_t i = 0; i < ours.nr; i++)
    {
      r = ash_tree_remove_all (od->fd, ours.v[i], err);
      if (r < 0)
        {
          ash_strvec_release (&ours);
          return r;
        }
    }
  ash_strvec_release (&ours);

  json_t *doc
    = json_pack ("{s:s, s:[]}", "created_by", PACKAGE_NAME, "entries");
  json_t *arr = json_object_get (doc, "entries");
  for (size_t i = 0; names[i]; i++)
    json_array_append_new (arr, json_string (names[i]));
  char *text = json_dumps (doc, JSON_INDENT (2));
  json_decref (doc);
  r = ash_tree_write_file (od->fd, ASH_OUTDIR_MANIFEST, text, strlen (text),
                           0644, err);
  free (text);
  return r;
}
