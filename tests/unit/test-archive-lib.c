/* SPDX-License-Identifier: Apache-2.0 */
/* test-archive-lib.c -- libarchive loaded with dlopen by the archive
   converter (converters/archive-lib.c, compiled here with its test hook,
   which names the library to load).

   Each case runs in a child of its own, since a process loads the library
   once: the real SONAME is not mapped before the first archive and is
   after it, and both archives are extracted; a library that is not there,
   and one that lacks libarchive's functions, fail the converter (FAILED,
   the scan incomplete) with every archive listed and the message naming
   the library and saying what dlerror() says, nothing extracted.  */

#include <config.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#include "base/util.h"
#include "converters/phase.h"

#if !ASH_LAZY_LIBARCHIVE

int
main (void)
{
  tap_skip_all ("libarchive is linked into ash in this build "
                "(--disable-lazy-libarchive, or not Linux): nothing is "
                "loaded with dlopen");
}

#else

static const char *test_soname;

const char *ash_archive_lib_test_soname (void);

const char *
ash_archive_lib_test_soname (void)
{
  return test_soname;
}

/* The child's checks, sent to the parent as "1NAME" or "0NAME" lines, which
   prints them as TAP.  */
static int report_fd = -1;

__attribute__ ((format (printf, 2, 3))) static bool
check (bool cond, const char *fmt, ...)
{
  va_list ap;
  _cleanup_free_ char *m = NULL;
  va_start (ap, fmt);
  if (vasprintf (&m, fmt, ap) < 0)
    _exit (99);
  va_end (ap);
  for (char *p = m; *p; p++)
    if (*p == '\n')
      *p = ' ';
  dprintf (report_fd, "%c%s\n", cond ? '1' : '0', m);
  return cond;
}

static void
run_case (const char *name, void (*fn) (void))
{
  int p[2];
  if (pipe (p) < 0)
    {
      perror ("pipe");
      exit (99);
    }
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      exit (99);
    }
  if (pid == 0)
    {
      close (p[0]);
      report_fd = p[1];
      fn ();
      _exit (0);
    }
  close (p[1]);
  FILE *f = fdopen (p[0], "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while (f && (n = getline (&line, &cap, f)) > 0)
    {
      if (line[n - 1] == '\n')
        line[n - 1] = '\0';
      tap_ok (line[0] == '1', "%s: %s", name, line + 1);
    }
  free (line);
  if (f)
    fclose (f);
  int st;
  tap_ok (waitpid (pid, &st, 0) == pid && WIFEXITED (st)
            && WEXITSTATUS (st) == 0,
          "%s: the case ran to its end", name);
}

/* V in octal, zero-padded, in the WIDTH bytes at DST (the last a NUL), as
   a tar header field.  */
static void
octal (unsigned char *dst, size_t width, unsigned long v)
{
  dst[width - 1] = '\0';
  for (size_t i = width - 1; i > 0; i--, v >>= 3)
    dst[i - 1] = (unsigned char) ('0' + (v & 7));
}

/* A ustar archive holding MEMBER with DATA, at DIRFD/NAME.  */
static void
write_tar (int dirfd, const char *name, const char *member, const char *data)
{
  unsigned char b[512 * 4];
  size_t len = strlen (data);
  memset (b, 0, sizeof b);
  memcpy (b, member, strlen (member));
  octal (b + 100, 8, 0644);
  octal (b + 108, 8, 0);
  octal (b + 116, 8, 0);
  octal (b + 124, 12, len);
  octal (b + 136, 12, 0);
  b[156] = '0';
  memcpy (b + 257, "ustar", 6);
  memcpy (b + 263, "00", 2);
  memset (b + 148, ' ', 8);
  unsigned long sum = 0;
  for (size_t i = 0; i < 512; i++)
    sum += b[i];
  octal (b + 148, 7, sum);
  memcpy (b + 512, data, len);
  int fd = openat (dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 || write (fd, b, sizeof b) != (ssize_t) sizeof b || close (fd))
    {
      perror (name);
      _exit (99);
    }
}

/* Whether a file whose name starts with NAME is mapped in this process.  */
static bool
mapped (const char *name)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  if (f == NULL)
    {
      check (false, "cannot read /proc/self/maps");
      return false;
    }
  _cleanup_free_ char *want = xasprintf ("/%s", name);
  char *line = NULL;
  size_t cap = 0;
  bool found = false;
  while (!found && getline (&line, &cap, f) > 0)
    found = strstr (line, want) != NULL;
  free (line);
  fclose (f);
  return found;
}

/* A scan's convert phase, over a source directory holding a.tar and
   b.tar.  */
struct run
{
  char dir[64];
  int srcfd;
  int outfd;
  struct ash_convert_phase ph;
};

static void
convert (struct run *r)
{
  snprintf (r->dir, sizeof r->dir, "/tmp/ash-test-archive-lib.XXXXXX");
  if (!mkdtemp (r->dir))
    {
      perror ("mkdtemp");
      _exit (99);
    }
  int dfd = open (r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0 || mkdirat (dfd, "src", 0755) < 0
      || mkdirat (dfd, "out", 0755) < 0)
    _exit (99);
  r->srcfd = openat (dfd, "src", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  r->outfd = openat (dfd, "out", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  close (dfd);
  if (r->srcfd < 0 || r->outfd < 0)
    _exit (99);
  write_tar (r->srcfd, "a.tar", "hello.txt", "hello\n");
  write_tar (r->srcfd, "b.tar", "world.txt", "world\n");

  _cleanup_strvec_ struct ash_strvec files = ASH_STRVEC_INIT;
  ash_strvec_push (&files, "a.tar");
  ash_strvec_push (&files, "b.tar");
  _cleanup_free_ char *src = xasprintf ("%s/src", r->dir);
  _cleanup_free_ char *out = xasprintf ("%s/out", r->dir);
  struct ash_convert_input in = {
    .config = NULL,
    .files = &files,
    .srcfd = r->srcfd,
    .source_dir = src,
    .outfd = r->outfd,
    .output_dir = out,
    .mode = "off",
    .workers = 1,
  };
  struct ash_error err = ASH_ERROR_INIT;
  ash_convert_phase_init (&r->ph);
  int rc = ash_convert_phase_run (&in, &r->ph, &err);
  check (rc == 0, "the convert phase runs (%s)",
         err.message ? err.message : "no error");
  ash_error_release (&err);
}

static void
finish (struct run *r)
{
  ash_convert_phase_release (&r->ph);
  close (r->srcfd);
  close (r->outfd);
  _cleanup_free_ char *cmd = xasprintf ("rm -rf '%s'", r->dir);
  if (system (cmd) != 0)
    fprintf (stderr, "cannot remove %s\n", r->dir);
}

static const char *
reason (const struct ash_converter_result *res, size_t i)
{
  const char *s = json_string_value (
    json_object_get (json_array_get (res->failed_inputs, i), "reason"));
  return s ? s : "(none)";
}

/* The library cannot be loaded, or lacks a function: WANT is what
   dlerror() says, every archive is failed with it.  */
static void
check_failed (struct run *r, const char *want)
{
  const struct ash_converter_result *res = &r->ph.archive;
  check (res->status == ASH_CONVERTER_FAILED,
         "the archive converter is FAILED (it is %s)",
         ash_converter_status_name (res->status));
  check (ash_convert_phase_incomplete (&r->ph), "the scan is incomplete");
  json_t *row = ash_convert_phase_json (&r->ph);
  check (strcmp (json_string_value (json_object_get (
                   json_object_get (row, "archive"), "status")),
                 "FAILED")
           == 0,
         "converter_results says FAILED");
  json_decref (row);
  check (json_array_size (res->failed_inputs) == 2,
         "both archives are listed as failed (%zu)",
         json_array_size (res->failed_inputs));
  _cleanup_free_ char *wa
    = xasprintf ("a.tar: cannot load libarchive (%s): %s", test_soname, want);
  _cleanup_free_ char *wb
    = xasprintf ("b.tar: cannot load libarchive (%s): %s", test_soname, want);
  check (strcmp (reason (res, 0), wa) == 0, "a.tar: '%s' (want '%s')",
         reason (res, 0), wa);
  check (strcmp (reason (res, 1), wb) == 0,
         "b.tar, after the failure is cached: '%s' (want '%s')",
         reason (res, 1), wb);
  check (json_array_size (res->converted) == 0, "nothing is converted");
  struct stat st;
  check (fstatat (r->outfd, "converted/archive/a.tar", &st,
                  AT_SYMLINK_NOFOLLOW)
           < 0,
         "nothing is extracted");
}

static void
case_loads (void)
{
  struct run r;
  test_soname = ASH_LIBARCHIVE_SONAME;
  check (mapped ("libjansson"), "control: a library that is linked, "
                                "libjansson, is seen mapped");
  check (!mapped (test_soname), "%s is not mapped before the first archive",
         test_soname);
  convert (&r);
  check (mapped (test_soname), "%s is mapped after it", test_soname);
  const struct ash_converter_result *res = &r.ph.archive;
  check (res->status == ASH_CONVERTER_PASSED,
         "the archive converter PASSED (%s; %s)",
         ash_converter_status_name (res->status),
         json_array_size (res->failed_inputs) ? reason (res, 0) : "");
  check (json_array_size (res->converted) == 2, "both archives are extracted");
  char buf[16] = "";
  int fd = openat (r.outfd, "converted/archive/b.tar/world.txt",
                   O_RDONLY | O_CLOEXEC);
  check (fd >= 0 && read (fd, buf, sizeof buf - 1) == 6
           && strcmp (buf, "world\n") == 0,
         "the member holds what the archive does");
  if (fd >= 0)
    close (fd);
  check (!ash_convert_phase_incomplete (&r.ph), "the scan is complete");
  finish (&r);
}

static void
case_not_there (void)
{
  struct run r;
  test_soname = "libash-test-no-such-library.so.0";
  check (dlopen (test_soname, RTLD_NOW | RTLD_LOCAL) == NULL,
         "control: %s cannot be loaded", test_soname);
  _cleanup_free_ char *want = xstrdup (dlerror ());
  convert (&r);
  check_failed (&r, want);
  finish (&r);
}

static void
case_no_functions (void)
{
  struct run r;
  /* A library that is surely there and is not libarchive: jansson, by
     the path it is mapped from.  */
  Dl_info info;
  if (!check (dladdr ((void *) json_object, &info) && info.dli_fname,
              "control: libjansson's path is found"))
    return;
  test_soname = info.dli_fname;
  void *h = dlopen (test_soname, RTLD_NOW | RTLD_LOCAL);
  check (h != NULL && dlsym (h, "archive_entry_filetype") == NULL,
         "control: %s has no archive_entry_filetype", test_soname);
  _cleanup_free_ char *want = xstrdup (dlerror ());
  check (strstr (want, "archive_entry_filetype") != NULL,
         "dlerror names the function: %s", want);
  convert (&r);
  check_failed (&r, want);
  finish (&r);
}

int
main (void)
{
  run_case ("the library", case_loads);
  run_case ("a library that is not there", case_not_there);
  run_case ("a library without libarchive's functions", case_no_functions);
  return tap_done ();
}

#endif
