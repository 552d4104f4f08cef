/* SPDX-License-Identifier: Apache-2.0 */
/* test-suppress-links.c -- ash's inline-suppression check reads source
   files beneath the scanned tree only: never through a link at any
   component, neither a link committed in the tree nor one swapped in while
   ash reads.  Otherwise a scanner's finding at "lnk/x.py" would make ash
   read a file outside the tree, and the suppression would tell the scanner
   whether that file has "ash-ignore" on a line: an oracle on its
   content.  */

#include <config.h>

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
#include "scan/sarif.h"
#include "scan/suppress.h"
#include "tap.h"

static json_t *
result (const char *path, int line)
{
  return json_pack ("{s:s, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i}}}]}",
                    "ruleId", "E1", "level", "error", "message", "text", "m",
                    "locations", "physicalLocation", "artifactLocation", "uri",
                    path, "region", "startLine", line);
}

/* Whether the check suppresses a finding at PATH:LINE below DIR.  */
static bool
suppressed (const char *dir, const char *path, int line)
{
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("t", NULL, NULL);
  json_array_append_new (json_object_get (run, "results"),
                         result (path, line));
  json_array_append_new (json_object_get (doc, "runs"), run);
  size_t n = ash_suppress_doc (doc, NULL, dir, 1 << 20);
  json_decref (doc);
  return n > 0;
}

static void
write_file (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  if (f == NULL)
    {
      printf ("Bail out! cannot write %s\n", path);
      exit (99);
    }
  fputs (text, f);
  fclose (f);
}

int
main (void)
{
  char base[] = "/tmp/ash-test-suppress-links.XXXXXX";
  if (mkdtemp (base) == NULL)
    {
      printf ("Bail out! mkdtemp\n");
      return 99;
    }
  _cleanup_free_ char *tree = xasprintf ("%s/tree", base);
  _cleanup_free_ char *outside = xasprintf ("%s/outside", base);
  mkdir (tree, 0755);
  mkdir (outside, 0755);
  _cleanup_free_ char *secret = xasprintf ("%s/x.py", outside);
  write_file (secret, "key = 1  # ash-ignore: E1\n");

  /* Control: a file in the tree with the comment is suppressed.  */
  _cleanup_free_ char *direct = xasprintf ("%s/direct.py", tree);
  write_file (direct, "y = eval(s)  # ash-ignore: E1\n");
  tap_ok (suppressed (tree, "direct.py", 1),
          "control: ash-ignore in a file of the tree suppresses");

  /* A link to the outside file, and a directory link to its directory.  */
  _cleanup_free_ char *flink = xasprintf ("%s/flink.py", tree);
  _cleanup_free_ char *dlink = xasprintf ("%s/lnk", tree);
  tap_ok (symlink (secret, flink) == 0 && symlink (outside, dlink) == 0,
          "links planted");
  tap_ok (!suppressed (tree, "flink.py", 1),
          "a file link leading out of the tree is not read");
  tap_ok (!suppressed (tree, "lnk/x.py", 1),
          "a directory link leading out of the tree is not read");
  tap_ok (!suppressed (tree, "../outside/x.py", 1),
          "a path climbing out of the tree is not read");
  tap_ok (!suppressed (tree, secret, 1), "an absolute path is not read");

  /* The race: "d" is swapped, again and again, between a directory of the
     tree whose x.py has no comment and a link to the outside directory.  */
  _cleanup_free_ char *d = xasprintf ("%s/d", tree);
  _cleanup_free_ char *alt = xasprintf ("%s/alt", tree);
  _cleanup_free_ char *dx = xasprintf ("%s/d/x.py", tree);
  mkdir (d, 0755);
  write_file (dx, "key = 1\n");
  if (symlink (outside, alt) < 0)
    {
      printf ("Bail out! symlink\n");
      return 99;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      for (;;)
        if (renameat2 (AT_FDCWD, d, AT_FDCWD, alt, RENAME_EXCHANGE) < 0)
          _exit (errno == EINVAL || errno == ENOSYS ? 77 : 1);
    }
  /* Until a plain open by name has read the outside file through the
     swapped link at least once (the race is live), and at least 2000
     rounds.  */
  size_t rounds = 0, seen_outside = 0, leaked = 0;
  while ((rounds < 2000 || seen_outside == 0) && rounds < 200000)
    {
      rounds++;
      if (suppressed (tree, "d/x.py", 1))
        leaked++;
      char buf[64] = "";
      int fd = open (dx, O_RDONLY);
      if (fd >= 0)
        {
          ssize_t n = read (fd, buf, sizeof buf - 1);
          if (n > 0 && strstr (buf, "ash-ignore"))
            seen_outside++;
          close (fd);
        }
    }
  kill (pid, SIGKILL);
  int st;
  waitpid (pid, &st, 0);
  if (WIFEXITED (st) && WEXITSTATUS (st) == 77)
    tap_diag ("skipped the race: this kernel cannot exchange names "
              "atomically");
  else
    {
      tap_ok (seen_outside > 0,
              "control: a read by name went through the swapped link "
              "(%zu of %zu rounds)",
              seen_outside, rounds);
      tap_is_int ((int) leaked, 0,
                  "the check never read through the swapped link");
    }

  /* Clean up.  */
  unlink (dx);
  rmdir (d);
  unlink (d);
  unlink (alt);
  rmdir (alt);
  char *dxa = xasprintf ("%s/alt/x.py", tree);
  unlink (dxa);
  rmdir (alt);
  free (dxa);
  unlink (direct);
  unlink (flink);
  unlink (dlink);
  unlink (secret);
  rmdir (outside);
  rmdir (tree);
  rmdir (base);
  return tap_done ();
}
