/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for tree.c: the non-following writers, the results-directory
   checks and the sweep, on real temporary trees, through the openat2 path
   and through the portable walker.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/tree.h"
#include "tap.h"

static char *base;    /* the temporary directory of one round */
static char *src;     /* BASE/src: the source directory */
static char *out;     /* BASE/src/.ash/ash_output */
static char *outside; /* BASE/outside: nothing may ever appear here */
static const char *mode_name;

static void
xsystemf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *cmd = xvasprintf (fmt, ap);
  va_end (ap);
  if (system (cmd) != 0)
    {
      printf ("Bail out! %s failed\n", cmd);
      exit (99);
    }
  free (cmd);
}

static char *
pathf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *p = xvasprintf (fmt, ap);
  va_end (ap);
  return p;
}

static size_t
count_entries (const char *dir)
{
  DIR *d = opendir (dir);
  size_t n = 0;
  if (!d)
    return (size_t) -1;
  struct dirent *de;
  while ((de = readdir (d)))
    if (!streq (de->d_name, ".") && !streq (de->d_name, ".."))
      n++;
  closedir (d);
  return n;
}

static char *
slurp (const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    return NULL;
  char buf[4096];
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  return xstrdup (buf);
}

static bool
is_link (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0 && S_ISLNK (st.st_mode);
}

static void
setup (void)
{
  char tmpl[] = "/tmp/ash-test-tree.XXXXXX";
  if (!mkdtemp (tmpl))
    {
      printf ("Bail out! mkdtemp failed\n");
      exit (99);
    }
  base = xstrdup (tmpl);
  src = pathf ("%s/src", base);
  out = pathf ("%s/.ash/ash_output", src);
  outside = pathf ("%s/outside", base);
  xsystemf ("mkdir -p '%s' '%s' '%s/keep' && printf precious > "
            "'%s/keep/target'",
            out, outside, base, base);
  /* The target file lives in its own directory, so that a write next to
     it would show up as a new entry in OUTSIDE or KEEP.  */
  xsystemf ("touch -d '2001-01-01 00:00:00' '%s/keep/target'", base);
}

static void
teardown (void)
{
  xsystemf ("rm -rf '%s'", base);
  free (base);
  free (src);
  free (out);
  free (outside);
}

/* The target is untouched: same content, same mtime, nothing new next to
   it, nothing in OUTSIDE.  */
static void
check_untouched (const char *what)
{
  _cleanup_free_ char *t = pathf ("%s/keep/target", base);
  _cleanup_free_ char *keep = pathf ("%s/keep", base);
  _cleanup_free_ char *c = slurp (t);
  struct stat st;
  tap_is_str (c, "precious", "%s %s: the link target keeps its content",
              mode_name, what);
  tap_ok (stat (t, &st) == 0 && st.st_mtime == 978307200,
          "%s %s: the link target keeps its mtime", mode_name, what);
  tap_is_int (count_entries (keep), 1, "%s %s: nothing new beside the target",
              mode_name, what);
  tap_is_int (count_entries (outside), 0,
              "%s %s: nothing written in the outside directory", mode_name,
              what);
}

static void
open_out (struct ash_outdir *od)
{
  struct ash_error e = ASH_ERROR_INIT;
  int r = ash_outdir_open (out, src, od, &e);
  if (r < 0)
    {
      printf ("Bail out! ash_outdir_open: %s\n", e.message);
      exit (99);
    }
  ash_error_release (&e);
}

static void
test_plain_write (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  tap_is_str (od.path, out, "%s: the output directory is named as given",
              mode_name);
  int r
    = ash_tree_write_file (od.fd, "reports/ash.sarif", "{}\n", 3, 0644, &e);
  tap_is_int (r, 0, "%s: a plain write succeeds", mode_name);
  _cleanup_free_ char *p = pathf ("%s/reports/ash.sarif", out);
  _cleanup_free_ char *c = slurp (p);
  tap_is_str (c, "{}\n", "%s: the content is there", mode_name);
  r = ash_tree_write_file (od.fd, "reports/ash.sarif", "[]\n", 3, 0644, &e);
  free (c);
  c = slurp (p);
  tap_ok (r == 0 && streq (c, "[]\n"), "%s: a second write replaces it",
          mode_name);
  _cleanup_free_ char *rd = pathf ("%s/reports", out);
  tap_is_int (count_entries (rd), 1, "%s: no temporary file is left",
              mode_name);

  struct ash_buf b = ASH_BUF_INIT;
  r = ash_tree_read_file (od.fd, "reports/ash.sarif", ASH_TREE_READ_MAX, &b,
                          &e);
  tap_ok (r == 0 && streq (b.buf, "[]\n"), "%s: read back", mode_name);
  r = ash_tree_read_file (od.fd, "reports/ash.sarif", 2, &b, &e);
  tap_is_int (r, -EFBIG, "%s: a file over the cap is refused", mode_name);
  tap_is_int (e.kind, ASH_KIND_OUTPUT_READ, "%s: cap kind", mode_name);
  ash_buf_release (&b);

  r = ash_tree_write_file (od.fd, "../escape", "x", 1, 0644, &e);
  tap_is_int (r, -EINVAL, "%s: .. is refused", mode_name);
  r = ash_tree_write_file (od.fd, "/etc/escape", "x", 1, 0644, &e);
  tap_is_int (r, -EINVAL, "%s: an absolute path is refused", mode_name);

  int fd = -1;
  r = ash_tree_open_stream (od.fd, "ash.log", false, &fd, &e);
  tap_is_int (r, 0, "%s: a stream opens", mode_name);
  if (fd >= 0)
    {
      (void) !write (fd, "one\n", 4);
      close (fd);
    }
  r = ash_tree_open_stream (od.fd, "ash.log", false, &fd, &e);
  if (r == 0)
    {
      (void) !write (fd, "two\n", 4);
      close (fd);
    }
  free (p);
  p = pathf ("%s/ash.log", out);
  free (c);
  c = slurp (p);
  tap_is_str (c, "one\ntwo\n", "%s: a stream without truncation appends",
              mode_name);
  r = ash_tree_open_stream (od.fd, "ash.log", true, &fd, &e);
  if (r == 0)
    {
      (void) !write (fd, "three\n", 6);
      close (fd);
    }
  free (c);
  c = slurp (p);
  tap_is_str (c, "three\n", "%s: a truncating stream starts afresh",
              mode_name);
  ash_error_release (&e);
  ash_outdir_release (&od);
}

static void
test_link_at_report (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  xsystemf ("mkdir -p '%s/reports' && ln -s '%s/keep/target' "
            "'%s/reports/ash.sarif'",
            out, base, out);
  int r
    = ash_tree_write_file (od.fd, "reports/ash.sarif", "EVIL", 4, 0644, &e);
  _cleanup_free_ char *want
    = pathf ("%s/reports/ash.sarif was not written: %s/reports/ash.sarif is "
             "a symlink, and ASH does not write through a symlink below its "
             "output directory",
             out, out);
  tap_is_int (r, -ELOOP, "%s link at a report: refused", mode_name);
  tap_is_str (e.message, want, "%s link at a report: exact message",
              mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "OutputLinkRefused",
              "%s link at a report: kind", mode_name);
  _cleanup_free_ char *l = pathf ("%s/reports/ash.sarif", out);
  tap_ok (is_link (l), "%s link at a report: the link stays", mode_name);
  check_untouched ("link at a report");

  int fd = -1;
  r = ash_tree_open_stream (od.fd, "reports/ash.sarif", false, &fd, &e);
  tap_ok (r == -ELOOP && fd == -1
            && streq (ash_error_kind_name (e.kind), "OutputLinkRefused"),
          "%s link at a report: a stream is refused too", mode_name);
  r = ash_tree_open_stream (od.fd, "reports/ash.sarif", true, &fd, &e);
  tap_ok (r == -ELOOP && is_link (l),
          "%s link at a report: a truncating stream leaves the link",
          mode_name);
  check_untouched ("link at a stream");

  /* Negative control: an ordinary open of the same path goes through the
     link, so the refusals above are real.  */
  {
    FILE *f = fopen (l, "w");
    if (f)
      {
        fputs ("through", f);
        fclose (f);
      }
    _cleanup_free_ char *t = pathf ("%s/keep/target", base);
    _cleanup_free_ char *c = slurp (t);
    tap_is_str (c, "through",
                "%s link at a report: a plain fopen writes through it",
                mode_name);
  }
  ash_error_release (&e);
  ash_outdir_release (&od);
}

static void
test_link_above_report (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  xsystemf ("ln -s '%s' '%s/reports'", outside, out);
  int r = ash_tree_write_file (od.fd, "reports/html/ash.html", "EVIL", 4, 0644,
                               &e);
  _cleanup_free_ char *want
    = pathf ("%s/reports/html/ash.html was not written: %s/reports is a "
             "symlink, and ASH does not write through a symlink below its "
             "output directory",
             out, out);
  tap_is_int (r, -ELOOP, "%s link above a report: refused", mode_name);
  tap_is_str (e.message, want, "%s link above a report: exact message",
              mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "OutputLinkRefused",
              "%s link above a report: kind", mode_name);
  _cleanup_free_ char *l = pathf ("%s/reports", out);
  tap_ok (is_link (l), "%s link above a report: the link stays", mode_name);
  check_untouched ("link above a report");
  {
    /* Negative control: a plain mkdir + fopen lands outside.  */
    _cleanup_free_ char *d = pathf ("%s/reports/html", out);
    _cleanup_free_ char *f = pathf ("%s/reports/html/ash.html", out);
    FILE *fp = (mkdir (d, 0755) == 0) ? fopen (f, "w") : NULL;
    if (fp)
      fclose (fp);
    tap_is_int (count_entries (outside), 1,
                "%s link above a report: a plain write lands outside",
                mode_name);
    xsystemf ("rm -rf '%s/html'", outside);
  }

  /* Two levels down, the link in the middle.  */
  xsystemf ("rm '%s/reports' && mkdir -p '%s/reports' && ln -s '%s' "
            "'%s/reports/html'",
            out, out, outside, out);
  r = ash_tree_write_file (od.fd, "reports/html/sub/ash.html", "EVIL", 4, 0644,
                           &e);
  free (want);
  want = pathf ("%s/reports/html/sub/ash.html was not written: "
                "%s/reports/html is a symlink, and ASH does not write "
                "through a symlink below its output directory",
                out, out);
  tap_is_str (e.message, want, "%s link in the middle: exact message",
              mode_name);
  check_untouched ("link in the middle");
  r = ash_tree_mkdirs (od.fd, "reports/html/sub", NULL, &e);
  tap_ok (r == -ELOOP
            && streq (ash_error_kind_name (e.kind), "OutputLinkRefused"),
          "%s link in the middle: mkdirs refused", mode_name);
  check_untouched ("mkdirs through a link");
  struct ash_buf b = ASH_BUF_INIT;
  xsystemf ("printf secret > '%s/s'", outside);
  r = ash_tree_read_file (od.fd, "reports/html/s", 100, &b, &e);
  tap_ok (r == -ELOOP && b.len == 0,
          "%s link in the middle: a read through it is refused", mode_name);
  xsystemf ("rm '%s/s'", outside);
  ash_buf_release (&b);
  ash_error_release (&e);
  ash_outdir_release (&od);
}

static void
test_hard_link (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  xsystemf ("mkdir -p '%s/reports' && ln '%s/keep/target' "
            "'%s/reports/ash.sarif'",
            out, base, out);
  int r
    = ash_tree_write_file (od.fd, "reports/ash.sarif", "EVIL", 4, 0644, &e);
  _cleanup_free_ char *want
    = pathf ("%s/reports/ash.sarif was not written: 2 names refer to it", out);
  tap_is_int (r, -EMLINK, "%s hard link: refused", mode_name);
  tap_is_str (e.message, want, "%s hard link: exact message", mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "OutputHardLinkRefused",
              "%s hard link: kind", mode_name);
  int fd = -1;
  r = ash_tree_open_stream (od.fd, "reports/ash.sarif", true, &fd, &e);
  tap_ok (r == -EMLINK
            && streq (ash_error_kind_name (e.kind), "OutputHardLinkRefused"),
          "%s hard link: a stream is refused", mode_name);
  /* The hard link still counts two names: it was neither replaced nor
     removed.  */
  _cleanup_free_ char *t = pathf ("%s/keep/target", base);
  struct stat st;
  tap_ok (stat (t, &st) == 0 && st.st_nlink == 2,
          "%s hard link: both names stay", mode_name);
  check_untouched ("hard link");
  ash_error_release (&e);
  ash_outdir_release (&od);
}

static void
test_fifo (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  xsystemf ("mkdir -p '%s/reports' && mkfifo '%s/reports/ash.sarif'", out,
            out);
  /* A hang here is a failure: the alarm ends the test.  */
  alarm (20);
  int r = ash_tree_write_file (od.fd, "reports/ash.sarif", "x", 1, 0644, &e);
  tap_is_int (r, -EPERM, "%s FIFO at a report: write refused", mode_name);
  int fd = -1;
  r = ash_tree_open_stream (od.fd, "reports/ash.sarif", false, &fd, &e);
  tap_is_int (r, -EPERM, "%s FIFO at a report: stream refused", mode_name);
  struct ash_buf b = ASH_BUF_INIT;
  r = ash_tree_read_file (od.fd, "reports/ash.sarif", 100, &b, &e);
  tap_is_int (r, -EPERM, "%s FIFO at a report: read refused", mode_name);
  alarm (0);
  _cleanup_free_ char *p = pathf ("%s/reports/ash.sarif", out);
  struct stat st;
  tap_ok (lstat (p, &st) == 0 && S_ISFIFO (st.st_mode),
          "%s FIFO at a report: the FIFO stays", mode_name);
  ash_error_release (&e);
  ash_outdir_release (&od);
}

static void
test_outdir_open (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;

  /* ash.log is a link.  */
  xsystemf ("ln -s '%s/keep/target' '%s/ash.log'", base, out);
  int r = ash_outdir_open (out, src, &od, &e);
  _cleanup_free_ char *want
    = pathf ("%s/ash.log is a symlink, and ASH writes it itself; remove the "
             "link, or pass --output-dir with a directory that is not a "
             "link",
             out);
  tap_is_int (r, -ELOOP, "%s link at ash.log: refused", mode_name);
  tap_is_str (e.message, want, "%s link at ash.log: message", mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "OutputDirLinkRefused",
              "%s link at ash.log: kind", mode_name);
  tap_ok (od.fd == -1, "%s link at ash.log: no fd", mode_name);
  check_untouched ("link at ash.log");
  xsystemf ("rm '%s/ash.log'", out);

  static const char *const fixed[]
    = { "analysis", "reports", "scanners", "converted" };
  for (size_t i = 0; i < ARRAY_SIZE (fixed); i++)
    {
      xsystemf ("ln -s '%s' '%s/%s'", outside, out, fixed[i]);
      r = ash_outdir_open (out, src, &od, &e);
      tap_ok (r == -ELOOP
                && streq (ash_error_kind_name (e.kind), "OutputDirLinkRefused")
                && strstr (e.message, fixed[i]),
              "%s link at %s/: refused, naming it", mode_name, fixed[i]);
      xsystemf ("rm '%s/%s'", out, fixed[i]);
    }

  /* The output directory itself is a link.  */
  _cleanup_free_ char *lout = pathf ("%s/linked-out", src);
  xsystemf ("ln -s '%s' '%s'", outside, lout);
  r = ash_outdir_open (lout, src, &od, &e);
  free (want);
  want = pathf ("the output directory %s is a symlink; pass --output-dir "
                "with a directory that is not a link",
                lout);
  tap_is_int (r, -ELOOP, "%s linked output directory: refused", mode_name);
  tap_is_str (e.message, want, "%s linked output directory: message",
              mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "OutputDirLinkRefused",
              "%s linked output directory: kind", mode_name);
  /* Spelled with a trailing slash and a dot.  */
  _cleanup_free_ char *lout2 = pathf ("%s/./linked-out/", src);
  r = ash_outdir_open (lout2, src, &od, &e);
  tap_is_int (r, -ELOOP, "%s linked output directory, other spelling",
              mode_name);
  /* A link outside the source tree is still refused as the output
     directory itself.  */
  _cleanup_free_ char *lout3 = pathf ("%s/linked-out-2", base);
  xsystemf ("ln -s '%s' '%s'", outside, lout3);
  r = ash_outdir_open (lout3, src, &od, &e);
  tap_is_int (r, -ELOOP, "%s linked output directory outside the tree",
              mode_name);
  xsystemf ("rm '%s'", lout3);

  /* Reached through a link below the source directory.  */
  xsystemf ("ln -s '%s' '%s/build'", outside, src);
  _cleanup_free_ char *bout = pathf ("%s/build/ash", src);
  r = ash_outdir_open (bout, src, &od, &e);
  free (want);
  want = pathf ("the output directory %s is reached through %s/build, a "
                "symlink below the source directory; pass --output-dir "
                "with a directory that is not a link",
                bout, src);
  tap_is_int (r, -ELOOP, "%s output through a link: refused", mode_name);
  tap_is_str (e.message, want, "%s output through a link: message", mode_name);
  check_untouched ("output directory through a link");
  /* The same, spelled through a link above the source directory and with
     "..".  */
  _cleanup_free_ char *alias = pathf ("%s/alias", base);
  xsystemf ("ln -s '%s' '%s'", src, alias);
  _cleanup_free_ char *bout2 = pathf ("%s/x/../build/ash", alias);
  xsystemf ("mkdir -p '%s/x'", src);
  r = ash_outdir_open (bout2, src, &od, &e);
  tap_ok (r == -ELOOP && strstr (e.message, "/build, a symlink below"),
          "%s output through a link, spelled through an alias: refused",
          mode_name);
  check_untouched ("output directory through an alias");
  /* Inside by its path (build/../..): "build" is a link, so the kernel
     would resolve it elsewhere.  */
  _cleanup_free_ char *bout3 = pathf ("%s/build/../out3", src);
  r = ash_outdir_open (bout3, src, &od, &e);
  tap_is_int (r, -ELOOP, "%s output spelled through a link and ..: refused",
              mode_name);
  check_untouched ("output directory through a link and ..");

  /* Negative control: a plain output directory outside the tree, reached
     through a link above it, is accepted (links above it are the
     operator's own), and one inside the tree through the alias too.  */
  _cleanup_free_ char *ok1 = pathf ("%s/alias/.ash/new-out", base);
  r = ash_outdir_open (ok1, src, &od, &e);
  tap_ok (r == 0 && od.fd >= 0,
          "%s output directory through an alias of "
          "the source directory: accepted",
          mode_name);
  ash_outdir_release (&od);
  _cleanup_free_ char *ok2 = pathf ("%s/other/out", base);
  xsystemf ("mkdir -p '%s/real-other' && ln -s '%s/real-other' "
            "'%s/other'",
            base, base, base);
  r = ash_outdir_open (ok2, src, &od, &e);
  tap_ok (r == 0 && od.fd >= 0,
          "%s output directory below a link outside the tree: accepted",
          mode_name);
  _cleanup_free_ char *made = pathf ("%s/real-other/out", base);
  struct stat st;
  tap_ok (lstat (made, &st) == 0 && S_ISDIR (st.st_mode),
          "%s output directory outside the tree: created", mode_name);
  ash_outdir_release (&od);
  xsystemf ("rm -rf '%s/build' '%s' '%s/other' '%s/real-other' '%s/x' "
            "'%s'",
            src, alias, base, base, src, lout);
  ash_error_release (&e);
}

static void
test_results_dir (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  int fd = -1;
  int r = ash_tree_results_dir_open (od.fd, "scanners/bandit/source", &fd, &e);
  tap_ok (r == 0 && fd >= 0, "%s results directory: created", mode_name);
  if (fd >= 0)
    close (fd);
  fd = -1;

  xsystemf ("ln -s '%s' '%s/scanners/grype'", outside, out);
  r = ash_tree_results_dir_open (od.fd, "scanners/grype/source", &fd, &e);
  _cleanup_free_ char *want
    = pathf ("the results directory path %s/scanners/grype is a symlink, so "
             "ASH will not let a scanner write there; remove the link under "
             "the output directory, or pass another --output-dir",
             out);
  tap_is_int (r, -ELOOP, "%s linked results directory: refused", mode_name);
  tap_is_str (e.message, want, "%s linked results directory: message",
              mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "ResultsDirLinkRefused",
              "%s linked results directory: kind", mode_name);
  check_untouched ("linked results directory");
  xsystemf ("mkdir -p '%s/scanners/syft' && ln -s '%s' "
            "'%s/scanners/syft/source'",
            out, outside, out);
  r = ash_tree_results_dir_open (od.fd, "scanners/syft/source", &fd, &e);
  tap_ok (r == -ELOOP
            && strstr (e.message, "scanners/syft/source is a "
                                  "symlink, so ASH"),
          "%s results directory itself a link: refused", mode_name);
  check_untouched ("results directory itself a link");

  /* check_clean: before the scanner.  */
  r = ash_tree_check_clean (od.fd, "scanners/bandit/source", &e);
  tap_is_int (r, 0, "%s clean results directory: accepted", mode_name);
  r = ash_tree_check_clean (od.fd, "scanners/nothing/source", &e);
  tap_is_int (r, 0, "%s missing results directory: clean", mode_name);
  xsystemf ("mkdir -p '%s/scanners/bandit/source/deep' && ln -s "
            "'%s/keep/target' '%s/scanners/bandit/source/deep/out.json'",
            out, base, out);
  r = ash_tree_check_clean (od.fd, "scanners/bandit/source", &e);
  free (want);
  want = pathf ("the results directory %s/scanners/bandit/source already "
                "holds a symlink, %s/scanners/bandit/source/deep/out.json, "
                "before the scanner starts; remove it, or pass another "
                "--output-dir",
                out, out);
  tap_is_int (r, -ELOOP, "%s link in a results directory: unclean", mode_name);
  tap_is_str (e.message, want, "%s link in a results directory: message",
              mode_name);
  tap_is_str (ash_error_kind_name (e.kind), "ResultsDirNotClean",
              "%s link in a results directory: kind", mode_name);
  xsystemf ("rm '%s/scanners/bandit/source/deep/out.json' && ln "
            "'%s/keep/target' '%s/scanners/bandit/source/out.json'",
            out, base, out);
  r = ash_tree_check_clean (od.fd, "scanners/bandit/source", &e);
  tap_is_int (r, -EMLINK, "%s hard link in a results directory: unclean",
              mode_name);
  tap_ok (e.message && strstr (e.message, "a file that 2 names refer to"),
          "%s hard link in a results directory: message", mode_name);
  xsystemf ("rm '%s/scanners/bandit/source/out.json'", out);
  r = ash_tree_check_clean (od.fd, "scanners/grype/source", &e);
  tap_ok (r == -ELOOP
            && streq (ash_error_kind_name (e.kind), "ResultsDirLinkRefused"),
          "%s check of a results directory reached through a link: "
          "refused",
          mode_name);

  /* The sweep: after the scanner.  */
  xsystemf ("cd '%s/scanners/bandit/source' && ln -s '%s/keep/target' l1 "
            "&& ln -s '%s' deep/l2 && mkfifo deep/fifo && ln -s dangling "
            "l3 && printf ok > deep/keep.sarif",
            out, base, outside);
  {
    /* A socket, as a scanner could leave one.  */
    _cleanup_free_ char *sp = pathf ("%s/scanners/bandit/source/sock", out);
    int s = socket (AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (s >= 0 && strlen (sp) < sizeof sa.sun_path)
      {
        strcpy (sa.sun_path, sp);
        (void) !bind (s, (struct sockaddr *) &sa, sizeof sa);
      }
    if (s >= 0)
      close (s);
  }
  struct ash_strvec removed = ASH_STRVEC_INIT;
  r = ash_tree_sweep (od.fd, "scanners/bandit/source", &removed, &e);
  tap_is_int (r, 0, "%s sweep: succeeds", mode_name);
  ash_strvec_sort (&removed);
  struct ash_buf got = ASH_BUF_INIT;
  for (size_t i = 0; i < removed.nr; i++)
    ash_buf_addf (&got, "%s\n",
                  removed.v[i] + strlen (out) + strlen ("/scanners/"));
  tap_is_str (got.buf,
              "bandit/source/deep/fifo\nbandit/source/deep/l2\n"
              "bandit/source/l1\nbandit/source/l3\nbandit/source/sock\n",
              "%s sweep: reports what it removed", mode_name);
  ash_buf_release (&got);
  ash_strvec_release (&removed);
  _cleanup_free_ char *rd = pathf ("%s/scanners/bandit/source", out);
  _cleanup_free_ char *rdd = pathf ("%s/scanners/bandit/source/deep", out);
  tap_is_int (count_entries (rd), 1, "%s sweep: only the directory stays",
              mode_name);
  tap_is_int (count_entries (rdd), 1, "%s sweep: the regular file stays",
              mode_name);
  check_untouched ("sweep");
  r = ash_tree_check_clean (od.fd, "scanners/bandit/source", &e);
  tap_is_int (r, 0, "%s after the sweep the directory is clean", mode_name);
  r = ash_tree_sweep (od.fd, "scanners/grype", NULL, &e);
  tap_is_int (r, 0, "%s sweep of a linked results directory", mode_name);
  _cleanup_free_ char *g = pathf ("%s/scanners/grype", out);
  tap_ok (!is_link (g) && count_entries (outside) == 0,
          "%s sweep removes the linked results directory, not its target",
          mode_name);

  /* remove_all never follows links.  */
  xsystemf ("mkdir -p '%s/scanners/x/d' && ln -s '%s' '%s/scanners/x/d/l' "
            "&& ln -s '%s/keep' '%s/scanners/x/k'",
            out, outside, out, base, out);
  xsystemf ("touch '%s/canary'", outside);
  r = ash_tree_remove_all (od.fd, "scanners/x", &e);
  _cleanup_free_ char *x = pathf ("%s/scanners/x", out);
  struct stat st;
  tap_ok (r == 0 && lstat (x, &st) < 0, "%s remove_all removes the directory",
          mode_name);
  tap_is_int (count_entries (outside), 1,
              "%s remove_all leaves what links point at", mode_name);
  xsystemf ("rm '%s/canary'", outside);
  check_untouched ("remove_all");
  ash_error_release (&e);
  ash_outdir_release (&od);
}

/* The race: a thread swaps the results directory between the real
   directory and a symlink to OUTSIDE while writes happen.  It counts the
   exchanges that took place, so that the test can tell a race that ran
   from one whose swapper never got to swap (and then proves nothing).  */

static atomic_int race_stop;
static atomic_int race_swaps;
static atomic_int race_broken; /* the swapper could not swap: it stopped */
static int race_parent_fd = -1;

static void *
race_swapper (void *arg)
{
  (void) arg;
#ifdef RENAME_EXCHANGE
  while (!atomic_load (&race_stop))
    if (renameat2 (race_parent_fd, "source", race_parent_fd, "source.l",
                   RENAME_EXCHANGE)
        == 0)
      atomic_fetch_add (&race_swaps, 1);
    else if (errno != EBUSY)
      {
        atomic_store (&race_broken, errno);
        break;
      }
#endif
  return NULL;
}

static void
test_race (void)
{
#ifndef RENAME_EXCHANGE
  tap_ok (true, "# SKIP %s race: no renameat2 exchange", mode_name);
  return;
#else
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  xsystemf ("mkdir -p '%s/scanners/r/source/sub' && ln -s '%s' "
            "'%s/scanners/r/source.l'",
            out, outside, out);
  _cleanup_free_ char *parent = pathf ("%s/scanners/r", out);
  race_parent_fd = open (parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  pthread_t t;
  atomic_store (&race_stop, 0);
  atomic_store (&race_swaps, 0);
  atomic_store (&race_broken, 0);
  pthread_create (&t, NULL, race_swapper, NULL);
  /* The writes start once the swapper is swapping, and go on until it
     has swapped again during them (at least 2000 writes): waiting for
     those events, not for a time.  */
  while (atomic_load (&race_swaps) == 0 && !atomic_load (&race_broken))
    sched_yield ();
  int swaps_before = atomic_load (&race_swaps);
  int ok = 0, refused = 0, other = 0;
  for (int i = 0; i < 2000
                  || (atomic_load (&race_swaps) - swaps_before < 2
                      && !atomic_load (&race_broken));
       i++)
    {
      const char *rel = (i % 2) ? "scanners/r/source/sub/f.txt"
                                : "scanners/r/source/top.txt";
      int r = ash_tree_write_file (od.fd, rel, "data", 4, 0644, &e);
      if (r == 0)
        ok++;
      else if (r == -ELOOP
               && streq (ash_error_kind_name (e.kind), "OutputLinkRefused"))
        refused++;
      else
        {
          if (other++ < 3)
            tap_diag ("%d %s", r, e.message);
        }
      int fd = -1;
      r = ash_tree_open_stream (od.fd, "scanners/r/source/sub/log", false, &fd,
                                &e);
      if (r == 0)
        {
          (void) !write (fd, "x", 1);
          close (fd);
        }
    }
  int swaps_during = atomic_load (&race_swaps) - swaps_before;
  atomic_store (&race_stop, 1);
  pthread_join (t, NULL);
  tap_diag ("%s race: %d written, %d refused, %d other", mode_name, ok,
            refused, other);
  if (!tap_ok (swaps_during >= 2,
               "%s race: the race ran (%d swaps during the writes)", mode_name,
               swaps_during))
    tap_diag ("the swapper stopped: %s",
              strerror (atomic_load (&race_broken)));
  tap_is_int (count_entries (outside), 0,
              "%s race: nothing ever appeared outside", mode_name);
  tap_is_int (other, 0, "%s race: every failure was a link refusal",
              mode_name);
  check_untouched ("race");
  close (race_parent_fd);
  ash_error_release (&e);
  ash_outdir_release (&od);
#endif
}

static void
test_file_api (void)
{
  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  open_out (&od);
  struct ash_tree_file f = ASH_TREE_FILE_INIT;
  int r = ash_tree_file_create (od.fd, "converted/a/b.py", 0600, &f, &e);
  tap_ok (r == 0 && f.fd >= 0, "%s file API: created", mode_name);
  (void) !write (f.fd, "abc", 3);
  r = ash_tree_file_commit (&f, &e);
  _cleanup_free_ char *p = pathf ("%s/converted/a/b.py", out);
  _cleanup_free_ char *c = slurp (p);
  tap_ok (r == 0 && c && streq (c, "abc"), "%s file API: committed",
          mode_name);
  _cleanup_free_ char *d = pathf ("%s/converted/a", out);
  tap_is_int (count_entries (d), 1, "%s file API: no temporary left",
              mode_name);

  /* A link planted at the name while the file is being written.  */
  r = ash_tree_file_create (od.fd, "converted/a/c.py", 0600, &f, &e);
  (void) !write (f.fd, "EVIL", 4);
  xsystemf ("ln -s '%s/keep/target' '%s/converted/a/c.py'", base, out);
  r = ash_tree_file_commit (&f, &e);
  _cleanup_free_ char *l = pathf ("%s/converted/a/c.py", out);
  tap_ok (r == -ELOOP
            && streq (ash_error_kind_name (e.kind), "OutputLinkRefused")
            && is_link (l),
          "%s file API: a link planted meanwhile is refused and stays",
          mode_name);
  tap_is_int (count_entries (d), 2,
              "%s file API: the temporary is removed on refusal", mode_name);
  check_untouched ("file API link");

  /* A hard link planted meanwhile.  */
  r = ash_tree_file_create (od.fd, "converted/a/h.py", 0600, &f, &e);
  xsystemf ("ln '%s/keep/target' '%s/converted/a/h.py'", base, out);
  r = ash_tree_file_commit (&f, &e);
  tap_ok (r == -EMLINK
            && streq (ash_error_kind_name (e.kind), "OutputHardLinkRefused"),
          "%s file API: a hard link planted meanwhile is refused", mode_name);
  check_untouched ("file API hard link");

  r = ash_tree_file_create (od.fd, "converted/a/x.py", 0600, &f, &e);
  ash_tree_file_abort (&f);
  tap_is_int (count_entries (d), 3, "%s file API: abort leaves nothing",
              mode_name);
  ash_error_release (&e);
  ash_outdir_release (&od);
}

static void
round_ (bool walker)
{
  ash_tree_set_walker (walker);
  mode_name = ash_tree_using_walker () ? "walker" : "openat2";
  void (*tests[]) (void)
    = { test_plain_write,       test_file_api,    test_link_at_report,
        test_link_above_report, test_hard_link,   test_fifo,
        test_outdir_open,       test_results_dir, test_race };
  for (size_t i = 0; i < ARRAY_SIZE (tests); i++)
    {
      setup ();
      tests[i]();
      teardown ();
    }
}

int
main (void)
{
  /* The environment variable forces the walker when nothing else has
     decided yet.  */
  setenv ("ASH_TREE_FORCE_WALKER", "1", 1);
  tap_ok (ash_tree_using_walker (),
          "ASH_TREE_FORCE_WALKER=1 forces the walker");
  /* Without openat2 both rounds use the walker; say so.  */
  ash_tree_set_walker (false);
  if (ash_tree_using_walker ())
    tap_diag ("openat2 is not available here: both rounds use the walker");
  round_ (false);
  round_ (true);
  tap_ok (ash_tree_using_walker (), "the walker can be forced");
  return tap_done ();
}
