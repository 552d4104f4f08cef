/* SPDX-License-Identifier: Apache-2.0 */
/* chown.c -- hand a directory ASH made over to another user.  */

#include <config.h>

#include "fs/chown.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/tree.h"

/* Deeper than any directory ASH makes for a scanner.  */
#define MAX_DEPTH 64

static int
chown_below (int dfd, uid_t uid, gid_t gid, unsigned depth)
{
  int lfd;
  DIR *d;
  struct dirent *de;
  int r = 0;

  if (fchown (dfd, uid, gid) < 0)
    return -errno;
  if (depth >= MAX_DEPTH)
    return -ELOOP;
  lfd = openat (dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lfd < 0)
    return -errno;
  d = fdopendir (lfd);
  if (!d)
    {
      int e = errno;
      ash_close (lfd);
      return -e;
    }
  while (r == 0 && (de = readdir (d)) != NULL)
    {
      struct stat st;

      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        {
          if (errno != ENOENT)
            r = -errno;
          continue;
        }
      if (S_ISLNK (st.st_mode))
        continue;
      if (S_ISDIR (st.st_mode))
        {
          int cfd = openat (dirfd (d), de->d_name,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (cfd < 0)
            r = -errno;
          else
            {
              r = chown_below (cfd, uid, gid, depth + 1);
              ash_close (cfd);
            }
        }
      else if (fchownat (dirfd (d), de->d_name, uid, gid, AT_SYMLINK_NOFOLLOW)
                 < 0
               && errno != ENOENT)
        r = -errno;
    }
  closedir (d);
  return r;
}

int
ash_tree_chown_fd (int dirfd, uid_t uid, gid_t gid)
{
  _cleanup_close_ int fd
    = openat (dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0)
    return -errno;
  return chown_below (fd, uid, gid, 0);
}

int
ash_tree_chown_all (const char *path, uid_t uid, gid_t gid,
                    struct ash_error *err)
{
  _cleanup_close_ int root = -1;
  _cleanup_close_ int fd = -1;
  int r;

  if (path[0] != '/')
    return ash_error_set (err, -EINVAL, _ ("%s is not an absolute path"),
                          path);
  root = open ("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0)
    return ash_error_set (err, -errno, _ ("cannot open /: %s"),
                          strerror (errno));
  if (path[1] == '\0')
    return ash_error_set (err, -EINVAL, _ ("refusing to give / away"));
  r = ash_tree_open_dir (root, path + 1, &fd, err);
  if (r < 0)
    return r;
  r = chown_below (fd, uid, gid, 0);
  if (r < 0)
    return ash_error_set (err, r, _ ("cannot give %s to uid %ld: %s"), path,
                          (long) uid, strerror (-r));
  return 0;
}
