/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-ignore.c -- .gitignore and .ashignore files (ash_scanset_build).

   A fixed tree is made once; the input, split at FUZZ_SEPARATOR lines,
   becomes its root .gitignore, the .ashignore of sub/ and the .gitignore
   of sub/deep/.  Properties: the scan set is sorted and without
   duplicates, holds only paths that were walked and never a path inside
   .git; the global ignore_paths entry "keep/locked.txt" cannot be
   negated by any ignore file; every ignored line and every scan-set path
   is a single line.  */

#include <config.h>

#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs/scanset.h"

static const char *const tree_files[] = {
  "a.py",
  "b.txt",
  "README.md",
  ".hidden",
  "x y.py",
  "keep/locked.txt",
  "keep/open.txt",
  "sub/c.py",
  "sub/d.log",
  "sub/deep/e.py",
  "sub/deep/f.min.js",
  "sub/deep/[g].py",
  "sub/deep/h\\i.py",
  "node_modules/m/index.js",
  ".git/config",
  "star*name.txt",
  NULL,
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *tmp = fuzz_tmpdir ();
  char src[4096];
  snprintf (src, sizeof src, "%s/src", tmp);
  static bool made;
  if (!made)
    {
      for (size_t i = 0; tree_files[i]; i++)
        if (fuzz_write_file (src, tree_files[i], "x\n", 2) < 0)
          abort ();
      made = true;
    }
  const uint8_t *p[3];
  size_t len[3];
  size_t n = fuzz_split (data, size, 3, p, len);
  static const char *const ignore_files[]
    = { ".gitignore", "sub/.ashignore", "sub/deep/.gitignore" };
  for (size_t i = 0; i < 3; i++)
    if (fuzz_write_file (src, ignore_files[i], i < n ? p[i] : NULL,
                         i < n ? len[i] : 0)
        < 0)
      abort ();

  int fd = open (src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    abort ();
  struct ash_ignore_path ip = { "keep/locked.txt", "fuzz" };
  struct ash_scanset_opts opts = { .ignore_paths = &ip, .n_ignore_paths = 1 };
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_scanset_build (fd, src, &opts, &s, &err);
  close (fd);
  if (r < 0)
    FUZZ_CHECK (err.message != NULL);
  else
    {
      for (size_t i = 0; i < s.files.nr; i++)
        {
          const char *f = s.files.v[i];
          if (i > 0)
            FUZZ_CHECK (strcmp (s.files.v[i - 1], f) < 0);
          FUZZ_CHECK (strcmp (f, "keep/locked.txt") != 0);
          FUZZ_CHECK (strncmp (f, ".git/", 5) != 0);
          FUZZ_CHECK (strchr (f, '\n') == NULL);
          bool walked = false;
          for (size_t j = 0; j < s.all.nr && !walked; j++)
            walked = strcmp (s.all.v[j], f) == 0;
          FUZZ_CHECK (walked);
        }
      for (size_t i = 0; i < s.ignored.nr; i++)
        FUZZ_CHECK (strchr (s.ignored.v[i], '\n') == NULL);
      for (size_t i = 0; i < s.warnings.nr; i++)
        FUZZ_CHECK (strchr (s.warnings.v[i], '\n') == NULL);
    }
  ash_scanset_release (&s);
  ash_error_release (&err);
  return 0;
}
