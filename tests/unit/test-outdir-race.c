/* SPDX-License-Identifier: Apache-2.0 */
/* test-outdir-race.c -- the output directory is opened without following
   a link: while it is swapped again and again between a real directory
   and a link to another one (what a user who can write the directory
   above could do to ash), ash_outdir_open either opens the real one or
   refuses, and nothing ash then writes lands where the link points (a
   directory others may write, which ash refuses when it sees the link).  The
   control writes the same files by name and does land there.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/tree.h"
#include "tap.h"

static size_t
entries (const char *dir)
{
  DIR *d = opendir (dir);
  size_t n = 0;
  struct dirent *e;
  if (d == NULL)
    return 0;
  while ((e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
      n++;
  closedir (d);
  return n;
}

int
main (void)
{
  char base[] = "/tmp/ash-test-outdir-race.XXXXXX";
  if (mkdtemp (base) == NULL)
    {
      printf ("Bail out! mkdtemp\n");
      return 99;
    }
  chmod (base, 0755);
  _cleanup_free_ char *src = xasprintf ("%s/src", base);
  _cleanup_free_ char *x = xasprintf ("%s/out", base);
  _cleanup_free_ char *alt = xasprintf ("%s/alt", base);
  _cleanup_free_ char *target = xasprintf ("%s/target", base);
  mkdir (src, 0755);
  mkdir (x, 0755);
  /* The link leads into a directory others may write, which ash refuses
     as a place for its output: whatever ash creates there got there
     through the link after ash had resolved the path.  */
  mkdir (target, 0777);
  chmod (target, 0777);
  if (symlink (target, alt) < 0)
    {
      printf ("Bail out! symlink\n");
      return 99;
    }

  pid_t pid = fork ();
  if (pid == 0)
    {
      for (;;)
        if (renameat2 (AT_FDCWD, x, AT_FDCWD, alt, RENAME_EXCHANGE) < 0)
          _exit (errno == EINVAL || errno == ENOSYS ? 77 : 1);
    }

  size_t opened = 0, refused = 0, control = 0, rounds = 0;
  while ((rounds < 1000 || control == 0) && rounds < 100000)
    {
      rounds++;
      struct ash_outdir od = ASH_OUTDIR_INIT;
      struct ash_error err = ASH_ERROR_INIT;
      /* A directory still to be made below the swapped one: ash opens
         what exists and creates the rest.  */
      _cleanup_free_ char *out = xasprintf ("%s/sub-%zu", x, rounds);
      if (ash_outdir_open (out, src, &od, &err) == 0)
        {
          opened++;
          _cleanup_free_ char *name = xasprintf ("ash-%zu", rounds);
          ash_tree_write_file (od.fd, name, "x", 1, 0644, &err);
        }
      else
        refused++;
      ash_outdir_release (&od);
      ash_error_release (&err);
      /* Control: the same by name, as a plain open does.  */
      _cleanup_free_ char *ctl = xasprintf ("%s/ctl-%zu", x, rounds);
      int fd = open (ctl, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd >= 0)
        {
          close (fd);
          _cleanup_free_ char *there
            = xasprintf ("%s/ctl-%zu", target, rounds);
          struct stat cst;
          if (stat (there, &cst) == 0)
            control++;
        }
    }
  kill (pid, SIGKILL);
  int st;
  waitpid (pid, &st, 0);
  if (WIFEXITED (st) && WEXITSTATUS (st) == 77)
    tap_skip_all ("this kernel cannot exchange names atomically");

  tap_ok (control > 0,
          "control: a write by name went through the link (%zu of %zu "
          "rounds)",
          control, rounds);
  tap_ok (opened > 0, "ash_outdir_open opened the real directory (%zu times)",
          opened);
  tap_diag ("%zu refused", refused);
  /* The target holds only the control's files.  */
  size_t n = entries (target);
  tap_is_int ((long long) n, (long long) control,
              "nothing of ash's was created where the link points");

  pid = fork ();
  if (pid == 0)
    {
      execlp ("rm", "rm", "-rf", base, (char *) NULL);
      _exit (127);
    }
  waitpid (pid, &st, 0);
  return tap_done ();
}
