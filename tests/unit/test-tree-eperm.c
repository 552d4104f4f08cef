/* SPDX-License-Identifier: Apache-2.0 */
/* The writers below the output directory in a process whose seccomp
   filter answers openat2 with EPERM, as container runtimes do for a
   system call their profile does not know: the walker takes over, and
   links are still refused.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/tree.h"
#include "tap.h"

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

int
main (void)
{
#ifndef SYS_openat2
  tap_skip_all ("this system has no openat2 system call");
#else
  /* Without openat2 in the kernel there is nothing to take over from.  */
  errno = 0;
  long probe = syscall (SYS_openat2, AT_FDCWD, ".", NULL, (size_t) 0);
  if (probe < 0 && errno == ENOSYS)
    tap_skip_all ("the kernel has no openat2");

  int nr = seccomp_syscall_resolve_name ("openat2");
  if (nr == __NR_SCMP_ERROR)
    tap_skip_all ("libseccomp does not know openat2");
  scmp_filter_ctx f = seccomp_init (SCMP_ACT_ALLOW);
  if (!f || seccomp_rule_add (f, SCMP_ACT_ERRNO (EPERM), nr, 0) < 0
      || seccomp_load (f) < 0)
    tap_skip_all ("cannot load a seccomp filter here");
  seccomp_release (f);

  errno = 0;
  probe = syscall (SYS_openat2, AT_FDCWD, ".", NULL, (size_t) 0);
  tap_ok (probe < 0 && errno == EPERM, "openat2 now fails with EPERM");

  ash_tree_set_walker (false);
  tap_ok (ash_tree_using_walker (),
          "EPERM from openat2 counts as no openat2: the walker is used");

  char tmpl[] = "/tmp/ash-test-tree-eperm.XXXXXX";
  if (!mkdtemp (tmpl))
    {
      printf ("Bail out! mkdtemp failed\n");
      return 99;
    }
  _cleanup_free_ char *src = xasprintf ("%s/src", tmpl);
  _cleanup_free_ char *out = xasprintf ("%s/.ash/ash_output", src);
  _cleanup_free_ char *outside = xasprintf ("%s/outside", tmpl);
  xsystemf ("mkdir -p '%s/reports' '%s'", out, outside);
  xsystemf ("ln -s '%s' '%s/reports/sub'", outside, out);

  struct ash_outdir od = ASH_OUTDIR_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  int r = ash_outdir_open (out, src, &od, &e);
  tap_is_int (r, 0, "the output directory opens");
  r = ash_tree_write_file (od.fd, "reports/a.json", "{}", 2, 0644, &e);
  tap_is_int (r, 0, "a plain write succeeds");
  r = ash_tree_write_file (od.fd, "reports/sub/b.json", "{}", 2, 0644, &e);
  _cleanup_free_ char *want
    = xasprintf ("%s/reports/sub/b.json was not written: %s/reports/sub is "
                 "a symlink, and ASH does not write through a symlink below "
                 "its output directory",
                 out, out);
  tap_is_int (r, -ELOOP, "a write through a link is refused");
  tap_is_str (e.message, want, "with the exact message");
  _cleanup_free_ char *through = xasprintf ("%s/b.json", outside);
  struct stat st;
  tap_ok (lstat (through, &st) < 0, "nothing was written where it points");
  /* Control: the same path written without the writers goes through.  */
  _cleanup_free_ char *plain = xasprintf ("%s/reports/sub/b.json", out);
  FILE *fp = fopen (plain, "w");
  if (fp)
    fclose (fp);
  tap_ok (lstat (through, &st) == 0,
          "a plain write through the same path lands outside (control)");
  ash_error_release (&e);
  ash_outdir_release (&od);
  xsystemf ("rm -rf '%s'", tmpl);
  return tap_done ();
#endif
}
