/* SPDX-License-Identifier: Apache-2.0 */
/* replay.c -- feed stored inputs to a fuzz target without libFuzzer.

   replay-NAME FILE...  runs the target over each FILE (a crash or a failed
   property aborts, as under the fuzzer).  Without arguments it is a TAP
   test for `make check`: every file of tests/fuzz/NAME/regress/ (the
   inputs that once crashed) and of the seed corpus tests/fuzz/NAME/ is
   run, one test line each.  FUZZ_NAME is the target's name, set when the
   program is built.  */

#include <config.h>

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_NAME
#error "FUZZ_NAME must name the target"
#endif

static int
run_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return -errno;
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc (cap);
  if (buf == NULL)
    abort ();
  size_t n;
  while ((n = fread (buf + len, 1, cap - len, f)) > 0)
    {
      len += n;
      if (len == cap)
        {
          cap *= 2;
          buf = realloc (buf, cap);
          if (buf == NULL)
            abort ();
        }
    }
  int bad = ferror (f);
  fclose (f);
  if (bad)
    {
      free (buf);
      return -EIO;
    }
  /* An exact-size copy, so that the sanitizers see a read past the end.  */
  uint8_t *exact = malloc (len ? len : 1);
  if (exact == NULL)
    abort ();
  memcpy (exact, buf, len);
  free (buf);
  LLVMFuzzerTestOneInput (exact, len);
  free (exact);
  return 0;
}

static int
cmp (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The regular files of DIR, sorted, pushed onto *V (count *N).  */
static void
list_dir (const char *dir, char ***v, size_t *n)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return;
  size_t first = *n;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      if (e->d_name[0] == '.')
        continue;
      char *p;
      if (asprintf (&p, "%s/%s", dir, e->d_name) < 0)
        abort ();
      struct stat st;
      if (stat (p, &st) < 0 || !S_ISREG (st.st_mode))
        {
          free (p);
          continue;
        }
      *v = realloc (*v, (*n + 1) * sizeof **v);
      if (*v == NULL)
        abort ();
      (*v)[(*n)++] = p;
    }
  closedir (d);
  qsort (*v + first, *n - first, sizeof **v, cmp);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    {
      for (int i = 1; i < argc; i++)
        {
          int r = run_file (argv[i]);
          if (r < 0)
            {
              fprintf (stderr, "%s: %s\n", argv[i], strerror (-r));
              return 1;
            }
          fprintf (stderr, "%s: ok\n", argv[i]);
        }
      return 0;
    }

  const char *srcdir = getenv ("top_srcdir");
  if (srcdir == NULL || *srcdir == '\0')
    srcdir = ".";
  char *base, *regress;
  if (asprintf (&base, "%s/tests/fuzz/%s", srcdir, FUZZ_NAME) < 0
      || asprintf (&regress, "%s/regress", base) < 0)
    abort ();
  char **files = NULL;
  size_t n = 0;
  list_dir (regress, &files, &n);
  list_dir (base, &files, &n);
  if (n == 0)
    {
      printf ("1..0 # SKIP no inputs in %s\n", base);
      return 77;
    }
  printf ("1..%zu\n", n);
  fflush (stdout);
  int failed = 0;
  for (size_t i = 0; i < n; i++)
    {
      const char *rel = files[i] + strlen (srcdir) + 1;
      int r = run_file (files[i]);
      if (r < 0)
        {
          printf ("not ok %zu - %s: %s\n", i + 1, rel, strerror (-r));
          failed = 1;
        }
      else
        printf ("ok %zu - %s\n", i + 1, rel);
      fflush (stdout);
      free (files[i]);
    }
  free (files);
  free (base);
  free (regress);
  return failed;
}
