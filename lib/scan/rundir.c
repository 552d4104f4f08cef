/* SPDX-License-Identifier: Apache-2.0 */
/* rundir.c -- the per-run config directory of a scanner.  */

#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/util.h"
#include "fs/owndir.h"
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

pid_t
ash_rundir_owner (const char *name)
{
  size_t n = strlen (name);
  const char *dash, *p;
  long pid = 0;

  /* ash-NAME-PID-XXXXXX, NAME not empty.  */
  if (!ash_str_has_prefix (name, "ash-") || n < 4 + 2 + 2 + 7)
    return 0;
  dash = name + n - 7;
  if (*dash != '-')
    return 0;
  for (p = dash; p > name + 4 && isdigit ((unsigned char) p[-1]); p--)
    ;
  if (p == dash || p[-1] != '-' || p - 1 <= name + 4 || *p == '0'
      || dash - p > 9)
    return 0;
  for (; p < dash; p++)
    pid = pid * 10 + (*p - '0');
  return (pid_t) pid;
}

int
ash_rundir_sweep (const char *base)
{
  _cleanup_close_ int fd = open (base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d;
  struct dirent *de;
  int removed = 0;

  if (fd < 0)
    return -errno;
  d = fdopendir (fcntl (fd, F_DUPFD_CLOEXEC, 3));
  if (d == NULL)
    return -errno;
  while ((de = readdir (d)) != NULL)
    {
      pid_t pid = ash_rundir_owner (de->d_name);
      struct stat st;
      struct ash_error e = ASH_ERROR_INIT;

      if (pid <= 0 || pid == getpid ())
        continue;
      /* Only a directory (never a link to one) of ASH's own account,
         whose ash is gone.  A pid that was reused keeps its directory
         until a later run.  */
      if (fstatat (fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISDIR (st.st_mode) || st.st_uid != geteuid ())
        continue;
      if (kill (pid, 0) == 0 || errno != ESRCH)
        continue;
      ash_info (_ ("removing %s/%s, left by a run of ash that was killed"),
                base, de->d_name);
      if (ash_tree_remove_all (fd, de->d_name, &e) < 0)
        ash_warning (_ ("cannot remove %s/%s: %s"), base, de->d_name,
                     e.message ? e.message : strerror (errno));
      else
        removed++;
      ash_error_release (&e);
    }
  closedir (d);
  return removed;
}

static pthread_mutex_t swept_lock = PTHREAD_MUTEX_INITIALIZER;
static char *swept_base;

/* Sweep BASE once per process (again if another base is used).  */
static void
sweep_once (const char *base)
{
  pthread_mutex_lock (&swept_lock);
  if (swept_base == NULL || !streq (swept_base, base))
    {
      free (swept_base);
      swept_base = xstrdup (base);
      (void) ash_rundir_sweep (base);
    }
  pthread_mutex_unlock (&swept_lock);
}

int
ash_rundir_make (const char *base, const char *scanner, char **ret_dir,
                 struct ash_error *err)
{
  const char *dir = ash_own_tmp_dir (base);

  sweep_once (dir);
  /* The pid in the name tells a later run whether the ash that made it is
     still alive (ash_rundir_sweep).  */
  _cleanup_free_ char *tmpl
    = xasprintf ("%s/ash-%s-%ld-XXXXXX", dir, scanner, (long) getpid ());
  if (mkdtemp (tmpl) == NULL)
    return ash_error_set (err, -errno,
                          _ ("cannot create the config directory of %s "
                             "in %s: %s"),
                          scanner, dir, strerror (errno));
  /* mkdtemp makes it 0700 already; say so whatever the umask.  */
  if (chmod (tmpl, 0700) < 0)
    {
      int e = errno;
      rmdir (tmpl);
      return ash_error_set (err, -e, _ ("cannot make %s private: %s"), tmpl,
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
    r = ash_error_set (err, -EINVAL,
                       _ ("cannot remove %s: not an absolute "
                          "path"),
                       *dir);
  else
    {
      *slash = '\0';
      _cleanup_close_ int fd
        = open (*parent ? parent : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        r = ash_error_set (err, -errno, _ ("cannot remove %s: %s"), *dir,
                           strerror (errno));
      else
        {
          struct ash_error e = ASH_ERROR_INIT;
          r = ash_tree_remove_all (fd, slash + 1, &e);
          if (r < 0)
            ash_error_set (err, r, _ ("cannot remove %s: %s"), *dir,
                           e.message ? e.message : strerror (-r));
          ash_error_release (&e);
        }
    }
  free (*dir);
  *dir = NULL;
  return r;
}
