/* SPDX-License-Identifier: Apache-2.0 */
/* test-tree-remove.c -- ash_tree_remove_all at any depth and through any
   mode ash's own user can change: a previous run's results that hold a
   directory 5,000 levels deep (far past PATH_MAX) or directories with
   mode 000 and 0500 are removed.  As root, the test runs as an
   unprivileged account (uid 65534), for which the modes really deny.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/tree.h"
#include "tap.h"

#define DEEP 5000

static char tmpl[] = "/tmp/ash-test-tree-remove.XXXXXX";

/* Make DEPTH nested directories "d" below DFD, with a file in each and
   the mode MODE on the deepest; fd-relative, since the path outgrows
   PATH_MAX.  */
static void
make_deep (int dfd, int depth, mode_t mode)
{
  int cur = fcntl (dfd, F_DUPFD_CLOEXEC, 3);
  for (int i = 0; i < depth; i++)
    {
      if (mkdirat (cur, "d", 0755) < 0)
        {
          printf ("Bail out! mkdirat at depth %d: %s\n", i, strerror (errno));
          exit (99);
        }
      int f = openat (cur, "f", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (f >= 0)
        close (f);
      int next = openat (cur, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      close (cur);
      cur = next;
      if (cur < 0)
        {
          printf ("Bail out! open at depth %d: %s\n", i, strerror (errno));
          exit (99);
        }
    }
  int f = openat (cur, "last", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (f >= 0)
    close (f);
  fchmod (cur, mode);
  close (cur);
}

static int
run (void)
{
  int dfd = open (tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    {
      printf ("Bail out! open %s: %s\n", tmpl, strerror (errno));
      return 99;
    }
  struct ash_error e = ASH_ERROR_INIT;

  /* Deep.  */
  mkdirat (dfd, "deep", 0755);
  int deep = openat (dfd, "deep", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  make_deep (deep, DEEP, 0755);
  close (deep);
  tap_ok (DEEP * 2 > PATH_MAX, "the tree is deeper than PATH_MAX (%d)",
          PATH_MAX);
  int r = ash_tree_remove_all (dfd, "deep", &e);
  tap_is_int (r, 0, "a directory %d levels deep is removed (%s)", DEEP,
              e.message ? e.message : "");
  struct stat st;
  tap_ok (fstatat (dfd, "deep", &st, AT_SYMLINK_NOFOLLOW) < 0
            && errno == ENOENT,
          "and nothing of it is left");

  /* Modes.  */
  mkdirat (dfd, "modes", 0755);
  int m = openat (dfd, "modes", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  mkdirat (m, "none", 0755);
  int none = openat (m, "none", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  make_deep (none, 3, 0);
  fchmod (none, 0);
  close (none);
  mkdirat (m, "ro", 0755);
  int ro = openat (m, "ro", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  make_deep (ro, 2, 0500);
  fchmod (ro, 0500);
  close (ro);
  mkdirat (m, "xonly", 0755);
  int xo = openat (m, "xonly", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  make_deep (xo, 1, 0100);
  fchmod (xo, 0100);
  close (xo);
  close (m);
  if (geteuid () != 0)
    tap_ok (faccessat (dfd, "modes/none", R_OK, 0) < 0,
            "control: the mode 000 directory cannot be read as it is");
  ash_error_release (&e);
  r = ash_tree_remove_all (dfd, "modes", &e);
  tap_is_int (r, 0,
              "directories with modes 000, 0500 and 0100 are removed "
              "(%s)",
              e.message ? e.message : "");
  tap_ok (fstatat (dfd, "modes", &st, AT_SYMLINK_NOFOLLOW) < 0
            && errno == ENOENT,
          "and nothing of them is left");

  /* Removing below a directory fd itself ("").  */
  mkdirat (dfd, "self", 0755);
  int self = openat (dfd, "self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  make_deep (self, 600, 0);
  ash_error_release (&e);
  r = ash_tree_remove_all (self, "", &e);
  tap_is_int (r, 0, "\"\" removes everything below the fd (%s)",
              e.message ? e.message : "");
  tap_ok (fstatat (self, "d", &st, AT_SYMLINK_NOFOLLOW) < 0,
          "and the fd's directory is empty");
  close (self);
  unlinkat (dfd, "self", AT_REMOVEDIR);
  ash_error_release (&e);

  /* Empty directories, removed without being entered: one of mode 000,
     empty ones beside and below a file, and a link to a directory
     outside, which goes as a link while what it names stays.  */
  mkdirat (dfd, "outside", 0755);
  mkdirat (dfd, "outside/kept", 0755);
  mkdirat (dfd, "empty", 0755);
  mkdirat (dfd, "empty/none", 0);
  mkdirat (dfd, "empty/a", 0755);
  mkdirat (dfd, "empty/a/b", 0755);
  mkdirat (dfd, "empty/c", 0755);
  {
    int f = openat (dfd, "empty/c/f", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (f >= 0)
      close (f);
  }
  mkdirat (dfd, "empty/c/d", 0755);
  symlinkat ("../../outside", dfd, "empty/c/link");
  r = ash_tree_remove_all (dfd, "empty", &e);
  tap_is_int (r, 0, "empty directories (one of mode 000) are removed (%s)",
              e.message ? e.message : "");
  tap_ok (fstatat (dfd, "empty", &st, AT_SYMLINK_NOFOLLOW) < 0
            && errno == ENOENT,
          "and nothing of them is left");
  tap_ok (fstatat (dfd, "outside/kept", &st, AT_SYMLINK_NOFOLLOW) == 0
            && S_ISDIR (st.st_mode),
          "a link among them is removed, not followed");
  ash_error_release (&e);
  mkdirat (dfd, "alone", 0);
  r = ash_tree_remove_all (dfd, "alone", &e);
  tap_is_int (r, 0, "an empty directory of mode 000 alone is removed (%s)",
              e.message ? e.message : "");
  tap_ok (fstatat (dfd, "alone", &st, AT_SYMLINK_NOFOLLOW) < 0, "and is gone");
  ash_error_release (&e);
  symlinkat ("outside", dfd, "tolink");
  r = ash_tree_remove_all (dfd, "tolink", &e);
  tap_is_int (r, 0, "a link to a directory is removed (%s)",
              e.message ? e.message : "");
  tap_ok (fstatat (dfd, "tolink", &st, AT_SYMLINK_NOFOLLOW) < 0
            && fstatat (dfd, "outside/kept", &st, AT_SYMLINK_NOFOLLOW) == 0,
          "as a link: the directory it names stays");
  ash_error_release (&e);
  unlinkat (dfd, "outside/kept", AT_REMOVEDIR);
  unlinkat (dfd, "outside", AT_REMOVEDIR);
  close (dfd);
  rmdir (tmpl);
  return tap_done ();
}

int
main (void)
{
  if (!mkdtemp (tmpl))
    {
      perror ("mkdtemp");
      return 99;
    }
  if (geteuid () != 0)
    return run ();
  /* As root, modes deny nothing: run as uid 65534 instead.  */
  if (chown (tmpl, 65534, 65534) < 0)
    {
      perror ("chown");
      return 99;
    }
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (setgroups (0, NULL) < 0 || setgid (65534) < 0 || setuid (65534) < 0)
        {
          printf ("Bail out! cannot drop to uid 65534: %s\n",
                  strerror (errno));
          _exit (99);
        }
      _exit (run ());
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) < 0)
    return 99;
  char *cmd = xasprintf ("rm -rf '%s'", tmpl);
  if (system (cmd) != 0)
    fprintf (stderr, "cannot remove %s\n", tmpl);
  free (cmd);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 99;
}
