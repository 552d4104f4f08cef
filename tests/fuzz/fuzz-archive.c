/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-archive.c -- the archive converter (ash_archive_convert: zip and
   tar, gzip, bzip2 and xz, nested archives) on a hostile archive.

   The input is the archive src/in.tar (libarchive recognises the format
   and the filter by content).  Properties: nothing appears outside the
   work directory; below it there are only directories and regular files
   (no link, device, FIFO or socket); the files written stay within the
   caps given (total size, entry count); every converted entry exists
   below archive/in.tar/; an archive listed as failed leaves nothing
   behind.  */

#include <config.h>

#include "fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "converters/converter.h"

struct walk
{
  unsigned long long bytes;
  unsigned long long files;
};

static void
walk (int dirfd, struct walk *w, int depth)
{
  FUZZ_CHECK (depth < 256);
  DIR *d = fdopendir (dirfd);
  FUZZ_CHECK (d != NULL);
  struct dirent *e;
  while ((e = readdir (d)))
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      struct stat st;
      FUZZ_CHECK (fstatat (dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0);
      FUZZ_CHECK (S_ISDIR (st.st_mode) || S_ISREG (st.st_mode));
      if (S_ISREG (st.st_mode))
        {
          w->files++;
          w->bytes += (unsigned long long) st.st_size;
          continue;
        }
      int sub = openat (dirfd, e->d_name,
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0)
        {
          /* An extracted directory without search permission: make it
             searchable to look inside.  */
          FUZZ_CHECK (fchmodat (dirfd, e->d_name, 0700, 0) == 0);
          sub = openat (dirfd, e->d_name,
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
      FUZZ_CHECK (sub >= 0);
      walk (sub, w, depth + 1);
    }
  closedir (d);
}

static size_t
count_entries (const char *dir)
{
  DIR *d = opendir (dir);
  FUZZ_CHECK (d != NULL);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      n++;
  closedir (d);
  return n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *tmp = fuzz_tmpdir ();
  fuzz_empty_dir (tmp);
  if (fuzz_write_file (tmp, "src/in.tar", data, size) < 0
      || fuzz_write_file (tmp, "work/.keep", "", 0) < 0)
    abort ();
  char src[4096], work[4096];
  snprintf (src, sizeof src, "%s/src", tmp);
  snprintf (work, sizeof work, "%s/work", tmp);
  int srcfd = open (src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int workfd = open (work, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  FUZZ_CHECK (srcfd >= 0 && workfd >= 0);

  struct ash_archive_limits lim = {
    .max_total_size = 1 << 20,
    .max_entries = 200,
    .max_depth = 2,
    .max_ratio = ASH_ARCHIVE_DEFAULT_MAX_RATIO,
  };
  struct ash_converter_result res;
  ash_converter_result_init (&res, "archive");
  ash_archive_convert (srcfd, "in.tar", workfd, &lim, &res);

  /* Nothing outside the work directory.  */
  FUZZ_CHECK (count_entries (tmp) == 2);
  FUZZ_CHECK (count_entries (src) == 1);

  struct walk w = { 0, 0 };
  walk (dup (workfd), &w, 0);
  FUZZ_CHECK (w.bytes <= lim.max_total_size);
  FUZZ_CHECK (w.files <= lim.max_entries + 1); /* .keep */

  size_t i;
  json_t *c;
  json_array_foreach (res.converted, i, c)
    {
      const char *path = json_string_value (json_object_get (c, "path"));
      FUZZ_CHECK (path != NULL);
      FUZZ_CHECK (strncmp (path, "archive/in.tar/", 15) == 0);
      FUZZ_CHECK (strstr (path, "/../") == NULL);
      struct stat st;
      int sr = fstatat (workfd, path, &st, AT_SYMLINK_NOFOLLOW);
      if (sr != 0)
        fprintf (stderr, "converted %s is not in the work directory\n", path);
      FUZZ_CHECK (sr == 0);
      FUZZ_CHECK (S_ISREG (st.st_mode));
    }
  if (json_array_size (res.failed_inputs) > 0)
    FUZZ_CHECK (w.files == 1);
  json_t *row = ash_converter_result_to_json (&res);
  FUZZ_CHECK (row != NULL);
  fuzz_check_json_roundtrip (row);
  json_decref (row);

  ash_converter_result_release (&res);
  close (srcfd);
  close (workfd);
  return 0;
}
