/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for toolfind.c: where ASH looks for the programs it runs.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "base/util.h"
#include "proc/toolfind.h"
#include "tap.h"

static char *tmp;

static char *
at (const char *rel)
{
  return ash_path_join (tmp, rel);
}

static void
mkdirs (const char *rel)
{
  _cleanup_free_ char *p = at (rel);
  char *s = p + strlen (tmp) + 1;
  for (;;)
    {
      char *slash = strchr (s, '/');
      if (slash)
        *slash = '\0';
      mkdir (p, 0755);
      if (!slash)
        break;
      *slash = '/';
      s = slash + 1;
    }
}

static void
make_file (const char *rel, mode_t mode)
{
  _cleanup_free_ char *p = at (rel);
  FILE *f = fopen (p, "w");
  if (!f)
    {
      printf ("Bail out! cannot create %s\n", p);
      exit (99);
    }
  fputs ("#!/bin/sh\nexit 0\n", f);
  fclose (f);
  chmod (p, mode);
}

static void
make_link (const char *target, const char *rel)
{
  _cleanup_free_ char *p = at (rel);
  if (symlink (target, p) < 0)
    {
      printf ("Bail out! cannot link %s\n", p);
      exit (99);
    }
}

/* Look NAME up; return the error code and the path (relative to TMP when
   below it) or message in *OUT.  */
static int
find (const char *name, const char *path_env, const char *bin_path,
      const char *source_dir, bool allow, char **out)
{
  struct ash_toolfind_opts o = { path_env, bin_path, source_dir, allow };
  struct ash_error err = ASH_ERROR_INIT;
  char *found = NULL;
  int r = ash_toolfind (name, &o, &found, &err);
  if (r == 0)
    {
      size_t n = strlen (tmp);
      if (strneq (found, tmp, n) && found[n] == '/')
        *out = xstrdup (found + n + 1);
      else
        *out = xstrdup (found);
      free (found);
    }
  else
    *out = xstrdup (err.message ? err.message : "(no message)");
  ash_error_release (&err);
  return r;
}

int
main (void)
{
  char tmpl[] = "/tmp/ash-test-toolfind.XXXXXX";
  tmp = mkdtemp (tmpl);
  if (!tmp)
    return 99;

  mkdirs ("sys/bin");
  mkdirs ("other/bin");
  mkdirs ("ashbin");
  mkdirs ("src/bin");
  mkdirs ("noexec/bin");
  mkdirs ("dirs/tool");
  mkdirs ("rel");
  make_file ("sys/bin/tool", 0755);
  make_file ("other/bin/tool", 0755);
  make_file ("ashbin/tool", 0755);
  make_file ("ashbin/bintool", 0755);
  make_file ("src/bin/intool", 0755);
  make_file ("src/bin/tool", 0755);
  make_file ("noexec/bin/tool", 0644);
  make_file ("noexec/bin/onlyhere", 0644);
  make_file ("rel/reltool", 0755);
  make_file ("cwdtool", 0755);
  make_link ("src/bin", "link");
  make_link ("src", "srclink");
  make_link ("../../src/bin/intool", "other/bin/evil");

  _cleanup_free_ char *sys = at ("sys/bin");
  _cleanup_free_ char *other = at ("other/bin");
  _cleanup_free_ char *ashbin = at ("ashbin");
  _cleanup_free_ char *srcbin = at ("src/bin");
  _cleanup_free_ char *src = at ("src");
  _cleanup_free_ char *srclink = at ("srclink");
  _cleanup_free_ char *link = at ("link");
  _cleanup_free_ char *noexec = at ("noexec/bin");
  _cleanup_free_ char *dirs = at ("dirs");
  _cleanup_free_ char *rel = at ("rel");
  char *s;
  int r;

  /* The working directory holds "cwdtool" and "rel/reltool".  */
  if (chdir (tmp) < 0)
    return 99;

  r = find ("tool", sys, NULL, NULL, false, &s);
  tap_is_int (r, 0, "a tool on an absolute PATH entry is found");
  tap_is_str (s, "sys/bin/tool", "its absolute path is returned");
  free (s);

  _cleanup_free_ char *p1 = xasprintf ("%s:%s", other, sys);
  r = find ("tool", p1, NULL, NULL, false, &s);
  tap_is_str (s, "other/bin/tool", "PATH order is kept");
  free (s);

  _cleanup_free_ char *p2 = xasprintf ("%s:%s:%s", dirs, noexec, sys);
  r = find ("tool", p2, NULL, NULL, false, &s);
  tap_is_str (s, "sys/bin/tool",
              "directories and non-executable files are skipped");
  free (s);
  r = find ("onlyhere", noexec, NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "a non-executable file alone is not installed");
  tap_is_str (s, "onlyhere was not found on PATH or in ASH's bin directory",
              "the not-installed message");
  free (s);

  r = find ("reltool", "rel:/nonexistent", NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "a relative PATH entry is ignored");
  free (s);
  r = find ("cwdtool", ":/nonexistent", NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "an empty PATH entry (leading) is ignored");
  free (s);
  r = find ("cwdtool", "/nonexistent::/x", NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "an empty PATH entry (inner) is ignored");
  free (s);
  r = find ("cwdtool", "/nonexistent:.", NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "a '.' PATH entry is ignored");
  free (s);
  r = find ("reltool", rel, NULL, NULL, false, &s);
  tap_is_str (s, "rel/reltool",
              "control: the same directory, absolute, is "
              "searched");
  free (s);

  r = find ("bintool", "/nonexistent", ashbin, NULL, false, &s);
  tap_is_str (s, "ashbin/bintool", "ASH's bin directory is searched");
  free (s);
  r = find ("bintool", "/nonexistent", NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "control: not without it");
  free (s);
  r = find ("tool", sys, ashbin, NULL, false, &s);
  tap_is_str (s, "ashbin/tool", "ASH's bin directory comes first");
  free (s);

  r = find ("intool", srcbin, NULL, src, false, &s);
  tap_is_int (r, -EPERM, "a tool found only in the scanned tree is refused");
  _cleanup_free_ char *want = xasprintf (
    "intool was found only inside the scanned directory (%s/src/bin/"
    "intool); ASH does not run tools from the tree it scans unless "
    "--allow-in-tree-tools is given",
    tmp);
  tap_is_str (s, want, "the reason names the path");
  free (s);
  r = find ("intool", srcbin, NULL, src, true, &s);
  tap_is_str (s, "src/bin/intool", "allow_in_tree_tools lets it be used");
  free (s);
  r = find ("intool", srcbin, NULL, NULL, false, &s);
  tap_is_int (r, 0, "control: without a scanned directory it is found");
  free (s);

  _cleanup_free_ char *p3 = xasprintf ("%s:%s", srcbin, sys);
  r = find ("tool", p3, NULL, src, false, &s);
  tap_is_str (s, "sys/bin/tool",
              "an in-tree copy is passed over for one outside");
  free (s);

  r = find ("intool", link, NULL, src, false, &s);
  tap_is_int (r, -EPERM, "a PATH entry that links into the tree is inside");
  free (s);
  r = find ("intool", srcbin, NULL, srclink, false, &s);
  tap_is_int (r, -EPERM, "a scanned directory given through a link counts");
  free (s);
  r = find ("evil", other, NULL, src, false, &s);
  tap_is_int (r, -EPERM, "a tool that links into the tree is inside");
  free (s);
  r = find ("evil", other, NULL, NULL, false, &s);
  tap_is_str (s, "other/bin/evil",
              "control: the link is returned as found, not resolved");
  free (s);
  r = find ("tool", sys, srcbin, src, false, &s);
  tap_is_str (s, "sys/bin/tool",
              "a bin directory inside the tree follows the same rule");
  free (s);

  r = find ("/bin/sh", NULL, NULL, NULL, false, &s);
  tap_is_str (s, "/bin/sh", "an absolute name is checked and returned");
  free (s);
  _cleanup_free_ char *abs_in = at ("src/bin/intool");
  r = find (abs_in, NULL, NULL, src, false, &s);
  tap_is_int (r, -EPERM, "an absolute name inside the tree is refused");
  free (s);
  r = find ("bin/tool", sys, NULL, NULL, false, &s);
  tap_is_int (r, -EINVAL, "a relative path is not a tool name");
  free (s);
  r = find ("", sys, NULL, NULL, false, &s);
  tap_is_int (r, -EINVAL, "an empty name is refused");
  free (s);
  r = find ("tool", NULL, NULL, NULL, false, &s);
  tap_is_int (r, -ENOENT, "no PATH and no bin directory find nothing");
  free (s);

  /* Helpers.  */
  char *h = ash_helper_path (ashbin, "bintool");
  _cleanup_free_ char *want_h = at ("ashbin/bintool");
  tap_is_str (h, want_h, "a helper next to the binary is found");
  free (h);
  h = ash_helper_path (noexec, "onlyhere");
  _cleanup_free_ char *installed = ash_path_join (PKGLIBEXECDIR, "onlyhere");
  if (access (installed, X_OK) == 0)
    tap_ok (true, "# SKIP a helper of that name is installed");
  else
    tap_ok (h == NULL, "a non-executable helper is not used");
  free (h);

  if (chdir ("/") == 0)
    {
      /* Remove the scratch tree without starting a process.  */
      const char *files[]
        = { "sys/bin/tool", "other/bin/tool",  "other/bin/evil",
            "ashbin/tool",  "ashbin/bintool",  "src/bin/intool",
            "src/bin/tool", "noexec/bin/tool", "noexec/bin/onlyhere",
            "rel/reltool",  "cwdtool",         "link",
            "srclink" };
      const char *dirlist[]
        = { "sys/bin", "sys",       "other/bin", "other",
            "ashbin",  "src/bin",   "src",       "noexec/bin",
            "noexec",  "dirs/tool", "dirs",      "rel" };
      for (size_t i = 0; i < ARRAY_SIZE (files); i++)
        {
          _cleanup_free_ char *p = at (files[i]);
          unlink (p);
        }
      for (size_t i = 0; i < ARRAY_SIZE (dirlist); i++)
        {
          _cleanup_free_ char *p = at (dirlist[i]);
          rmdir (p);
        }
      rmdir (tmp);
    }
  return tap_done ();
}
