/* SPDX-License-Identifier: Apache-2.0 */
/* rundir.c -- the per-run config directory of a scanner.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/tree.h"
#include "scan/rundir.h"

const char *
ash_rundir_base (const char *source_dir, const char *output_dir)
{
  const char *t = getenv ("TMPDIR");
  struct stat st;

  if (t == NULL || t[0] != '/'
      || (source_dir && ash_path_is_inside (t, source_dir))
      || (output_dir && ash_path_is_inside (t, output_dir))
      || stat (t, &st) < 0 || !S_ISDIR (st.st_mode)
      || (st.st_uid != getuid () && st.st_uid != 0)
      || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
    return "/tmp";
  return t;
}

int
ash_rundir_make (const char *base, const char *scanner, char **ret_dir,
                 struct ash_error *err)
{
  _cleanup_free_ char *tmpl = xasprintf ("%s/ash-%s-XXXXXX", base, scanner);
  if (mkdtemp (tmpl) == NULL)
    return ash_error_set (err, -errno,
                          _("cannot create the config directory of %s "
                            "in %s: %s"),
                          scanner, base, strerror (errno));
  /* mkdtemp makes it 0700 already; say so whatever the umask.  */
  if (chmod (tmpl, 0700) < 0)
    {
      int e = errno;
      rmdir (tmpl);
      return ash_error_set (err, -e, _("cannot make %s private: %s"), tmpl,
                            strerror (e));
    }
  *ret_dir = TAKE_PTR (tmpl);
  return 0;
}

int
ash_rundir_remove (char **dir, struct ash_error *err)
{
  int r = 0;

  if (*dir == NULL)
    return 0;
  _cleanup_free_ char *parent = xstrdup (*dir);
  char *slash = strrchr (parent, '/');
  if (slash == NULL)
    r = ash_error_set (err, -EINVAL, _("cannot remove %s: not an absolute "
                                       "path"),
                       *dir);
  else
    {
      *slash = '\0';
      _cleanup_close_ int fd = open (*parent ? parent : "/",
                                     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        r = ash_error_set (err, -errno, _("cannot remove %s: %s"), *dir,
                           strerror (errno));
      else
        {
          struct ash_error e = ASH_ERROR_INIT;
          r = ash_tree_remove_all (fd, slash + 1, &e);
          if (r < 0)
            ash_error_set (err, r, _("cannot remove %s: %s"), *dir,
                           e.message ? e.message : strerror (-r));
          ash_error_release (&e);
        }
    }
  free (*dir);
  *dir = NULL;
  return r;
}
