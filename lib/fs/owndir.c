/* SPDX-License-Identifier: Apache-2.0 */
/* owndir.c -- ASH's own directory in a temporary directory (owndir.h).  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/util.h"
#include "fs/owndir.h"

/* The directories ash_own_tmp_dir() settled on, one per base.  */
struct user_dir
{
  char *base;
  char *dir;
};
static pthread_mutex_t user_dir_lock = PTHREAD_MUTEX_INITIALIZER;
static struct user_dir *user_dirs;
static size_t n_user_dirs;

/* BASE/ash-UID, made or found as ash_own_tmp_dir() says, or BASE
   itself (newly allocated either way).  */
static char *
user_dir_find (const char *base)
{
#ifdef _WIN32
  /* No owner or mode to check (the C library's stat() gives neither),
     and the temporary directory is the user's own already.  */
  return xstrdup (base);
#else
  const uid_t uid = geteuid ();
  /* As root the scanner runs as its own account, which must reach the
     directories made for it here (it cannot list them).  */
  const mode_t want = uid == 0 ? 0711 : 0700;
  char *dir
    = xasprintf ("%s/ash-%ld", streq (base, "/") ? "" : base, (long) uid);
  _cleanup_close_ int fd = -1;
  struct stat st;

  if (mkdir (dir, want) < 0 && errno != EEXIST)
    goto flat; /* BASE cannot be written: the caller's mkdtemp() says so */
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) < 0 || !S_ISDIR (st.st_mode)
      || st.st_uid != uid || (st.st_mode & (S_IWGRP | S_IWOTH)))
    {
      ash_warning (_ ("%s is not a directory of this account's own that no "
                      "other account can write; ASH makes its temporary "
                      "directories directly in %s"),
                   dir, base);
      goto flat;
    }
  /* mkdir() applied the umask; an older one may have another mode.  */
  if ((st.st_mode & 07777) != want && fchmod (fd, want) < 0)
    goto flat;
  return dir;
flat:
  free (dir);
  return xstrdup (base);
#endif
}

const char *
ash_own_tmp_dir (const char *base)
{
  const char *dir = NULL;

  pthread_mutex_lock (&user_dir_lock);
  for (size_t i = 0; !dir && i < n_user_dirs; i++)
    if (streq (user_dirs[i].base, base))
      dir = user_dirs[i].dir;
  if (!dir)
    {
      user_dirs
        = xreallocarray (user_dirs, n_user_dirs + 1, sizeof *user_dirs);
      user_dirs[n_user_dirs].base = xstrdup (base);
      dir = user_dirs[n_user_dirs].dir = user_dir_find (base);
      n_user_dirs++;
    }
  pthread_mutex_unlock (&user_dir_lock);
  return dir;
}
