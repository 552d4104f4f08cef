/* SPDX-License-Identifier: Apache-2.0 */
/* test-tree-errno.c -- ash_tree_remove_all reads the error of the call
   that failed, not of a later one.

   unlinkat is interposed (this program's definition wins over libc's for
   the calls lib/fs/tree.c makes): for the entry named by `vanish`, it
   removes the entry and then fails as a concurrent removal would look to
   the caller, with EPERM; for the entry named by `refuse`, it fails with
   EBUSY and leaves the entry.  An entry that was gone by the time ash
   looked at it again is not an error; a refusal keeps unlink's own
   error in the message.  */

#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "fs/tree.h"
#include "tap.h"

static const char *vanish, *refuse;

typedef int (*unlinkat_fn) (int, const char *, int);

int
unlinkat (int dirfd, const char *path, int flags)
{
  static unlinkat_fn real;
  if (real == NULL)
    real = (unlinkat_fn) dlsym (RTLD_NEXT, "unlinkat");
  if (vanish && streq (path, vanish))
    {
      (void) real (dirfd, path, flags);
      errno = EPERM;
      return -1;
    }
  if (refuse && streq (path, refuse))
    {
      errno = EBUSY;
      return -1;
    }
  return real (dirfd, path, flags);
}

static void
make_tree (int root)
{
  mkdirat (root, "t", 0755);
  mkdirat (root, "t/sub", 0755);
  static const char *const files[] = { "t/a", "t/victim", "t/sub/b" };
  for (size_t i = 0; i < ARRAY_SIZE (files); i++)
    {
      int fd = openat (root, files[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd >= 0)
        close (fd);
    }
}

int
main (void)
{
  char tmpl[] = "/tmp/ash-test-tree-errno.XXXXXX";
  if (mkdtemp (tmpl) == NULL)
    {
      printf ("Bail out! mkdtemp: %s\n", strerror (errno));
      return 99;
    }
  _cleanup_close_ int root = open (tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat st;

  /* Control: nothing interposed, the tree goes.  */
  make_tree (root);
  {
    _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
    tap_is_int (ash_tree_remove_all (root, "t", &err), 0,
                "control: the tree is removed (%s)",
                err.message ? err.message : "no error");
    tap_ok (fstatat (root, "t", &st, AT_SYMLINK_NOFOLLOW) < 0,
            "control: nothing of it is left");
  }

  /* An entry removed by someone else between ash's unlink and its second
     look: not an error.  */
  make_tree (root);
  vanish = "victim";
  {
    _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
    tap_is_int (ash_tree_remove_all (root, "t", &err), 0,
                "an entry gone meanwhile is not an error (%s)",
                err.message ? err.message : "no error");
    tap_ok (fstatat (root, "t", &st, AT_SYMLINK_NOFOLLOW) < 0,
            "and the rest of the tree is removed");
  }
  vanish = NULL;

  /* An entry whose unlink is refused: the error is unlink's.  */
  make_tree (root);
  refuse = "victim";
  {
    _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
    int r = ash_tree_remove_all (root, "t", &err);
    tap_is_int (r, -EBUSY, "a refused unlink fails with its own error");
    tap_ok (err.message && strstr (err.message, strerror (EBUSY)),
            "and the message says it: %s",
            err.message ? err.message : "no message");
  }
  refuse = NULL;
  {
    _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
    tap_is_int (ash_tree_remove_all (root, "t", &err), 0,
                "cleanup: the tree is removed");
  }
  rmdir (tmpl);
  return tap_done ();
}
