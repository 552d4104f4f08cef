/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-common.c -- helpers of the fuzz targets (fuzz.h).  */

#include <config.h>

#include "fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
fuzz_fail (const char *file, int line, const char *what)
{
  fprintf (stderr, "%s:%d: property does not hold: %s\n", file, line, what);
  fflush (stderr);
  abort ();
}

char *
fuzz_text (const uint8_t *data, size_t size)
{
  char *s = malloc (size + 1);
  if (s == NULL)
    abort ();
  if (size)
    memcpy (s, data, size);
  s[size] = '\0';
  return s;
}

static char tmpdir[PATH_MAX];

static int
rm_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void) st;
  (void) flag;
  if (ftw->level > 0)
    remove (path);
  return 0;
}

void
fuzz_empty_dir (const char *dir)
{
  /* Directories below may have lost their write or search bit.  */
  nftw (dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
remove_tmpdir (void)
{
  if (tmpdir[0])
    {
      fuzz_empty_dir (tmpdir);
      rmdir (tmpdir);
    }
}

const char *
fuzz_tmpdir (void)
{
  if (tmpdir[0] == '\0')
    {
      const char *t = getenv ("TMPDIR");
      snprintf (tmpdir, sizeof tmpdir, "%s/ash-fuzz-XXXXXX",
                t && *t ? t : "/tmp");
      if (mkdtemp (tmpdir) == NULL)
        {
          perror ("mkdtemp");
          abort ();
        }
      /* The path as the library will see it (no link on the way).  */
      char *real = realpath (tmpdir, NULL);
      if (real == NULL)
        abort ();
      snprintf (tmpdir, sizeof tmpdir, "%s", real);
      free (real);
      atexit (remove_tmpdir);
    }
  return tmpdir;
}

int
fuzz_write_file (const char *dir, const char *name, const void *p, size_t len)
{
  char path[PATH_MAX];
  if (snprintf (path, sizeof path, "%s/%s", dir, name) >= (int) sizeof path)
    return -ENAMETOOLONG;
  for (char *s = path + 1; (s = strchr (s, '/')); s++)
    {
      *s = '\0';
      if (mkdir (path, 0700) < 0 && errno != EEXIST)
        return -errno;
      *s = '/';
    }
  int fd
    = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return -errno;
  const char *b = p;
  while (len > 0)
    {
      ssize_t n = write (fd, b, len);
      if (n < 0)
        {
          int e = errno;
          close (fd);
          return -e;
        }
      b += n;
      len -= (size_t) n;
    }
  close (fd);
  return 0;
}

size_t
fuzz_split (const uint8_t *data, size_t size, size_t max,
            const uint8_t **ret_p, size_t *ret_len)
{
  const size_t sl = sizeof FUZZ_SEPARATOR - 1;
  size_t n = 0;
  while (n + 1 < max)
    {
      const uint8_t *hit
        = size >= sl ? memmem (data, size, FUZZ_SEPARATOR, sl) : NULL;
      if (hit == NULL)
        break;
      ret_p[n] = data;
      ret_len[n] = (size_t) (hit - data);
      n++;
      size -= (size_t) (hit - data) + sl;
      data = hit + sl;
    }
  ret_p[n] = data;
  ret_len[n] = size;
  return n + 1;
}

static bool
is_string_or_absent (const json_t *o, const char *key)
{
  const json_t *v = json_object_get (o, key);
  return v == NULL || json_is_string (v);
}

static bool
one_of (const char *s, const char *const *list)
{
  for (size_t i = 0; list[i]; i++)
    if (strcmp (s, list[i]) == 0)
      return true;
  return false;
}

static void
check_message (const json_t *m)
{
  /* message: an object with text or id (a string).  */
  FUZZ_CHECK (json_is_object (m));
  FUZZ_CHECK (json_is_string (json_object_get (m, "text"))
              || json_is_string (json_object_get (m, "id")));
  FUZZ_CHECK (is_string_or_absent (m, "text"));
}

static void
check_location (const json_t *loc)
{
  FUZZ_CHECK (json_is_object (loc));
  const json_t *pl = json_object_get (loc, "physicalLocation");
  if (pl == NULL)
    return;
  FUZZ_CHECK (json_is_object (pl));
  const json_t *al = json_object_get (pl, "artifactLocation");
  if (al)
    {
      FUZZ_CHECK (json_is_object (al));
      FUZZ_CHECK (is_string_or_absent (al, "uri"));
    }
  const json_t *reg = json_object_get (pl, "region");
  if (reg)
    {
      FUZZ_CHECK (json_is_object (reg));
      static const char *const ints[]
        = { "startLine", "endLine", "startColumn", "endColumn", NULL };
      for (size_t i = 0; ints[i]; i++)
        {
          const json_t *v = json_object_get (reg, ints[i]);
          FUZZ_CHECK (v == NULL || json_is_integer (v));
        }
    }
}

void
fuzz_check_sarif (const json_t *doc, bool ash_wrote)
{
  static const char *const levels[]
    = { "none", "note", "warning", "error", NULL };
  static const char *const severities[]
    = { "CRITICAL", "HIGH", "MEDIUM", "LOW", "INFO", NULL };
  static const char *const sup_kinds[] = { "inSource", "external", NULL };

  FUZZ_CHECK (json_is_object (doc));
  const json_t *version = json_object_get (doc, "version");
  FUZZ_CHECK (json_is_string (version));
  FUZZ_CHECK (strcmp (json_string_value (version), "2.1.0") == 0);
  const json_t *runs = json_object_get (doc, "runs");
  FUZZ_CHECK (json_is_array (runs));
  size_t i;
  const json_t *run;
  json_array_foreach (runs, i, run)
    {
      FUZZ_CHECK (json_is_object (run));
      const json_t *tool = json_object_get (run, "tool");
      FUZZ_CHECK (json_is_object (tool));
      const json_t *driver = json_object_get (tool, "driver");
      FUZZ_CHECK (json_is_object (driver));
      FUZZ_CHECK (json_is_string (json_object_get (driver, "name")));
      FUZZ_CHECK (is_string_or_absent (driver, "version"));
      const json_t *rules = json_object_get (driver, "rules");
      FUZZ_CHECK (rules == NULL || json_is_array (rules));
      size_t j;
      const json_t *rule;
      json_array_foreach (rules, j, rule)
        {
          FUZZ_CHECK (json_is_object (rule));
          FUZZ_CHECK (json_is_string (json_object_get (rule, "id")));
        }
      const json_t *results = json_object_get (run, "results");
      FUZZ_CHECK (results == NULL || json_is_array (results));
      const json_t *res;
      json_array_foreach (results, j, res)
        {
          FUZZ_CHECK (json_is_object (res));
          check_message (json_object_get (res, "message"));
          FUZZ_CHECK (is_string_or_absent (res, "ruleId"));
          const json_t *level = json_object_get (res, "level");
          FUZZ_CHECK (level == NULL
                      || (json_is_string (level)
                          && one_of (json_string_value (level), levels)));
          const json_t *locs = json_object_get (res, "locations");
          FUZZ_CHECK (locs == NULL || json_is_array (locs));
          size_t k;
          const json_t *loc;
          json_array_foreach (locs, k, loc)
            check_location (loc);
          const json_t *sups = json_object_get (res, "suppressions");
          FUZZ_CHECK (sups == NULL || json_is_array (sups));
          const json_t *sup;
          json_array_foreach (sups, k, sup)
            {
              FUZZ_CHECK (json_is_object (sup));
              const json_t *kind = json_object_get (sup, "kind");
              FUZZ_CHECK (json_is_string (kind)
                          && one_of (json_string_value (kind), sup_kinds));
            }
          if (!ash_wrote)
            continue;
          const json_t *props = json_object_get (res, "properties");
          FUZZ_CHECK (json_is_object (props));
          const json_t *sev = json_object_get (props, "severity");
          FUZZ_CHECK (json_is_string (sev)
                      && one_of (json_string_value (sev), severities));
          FUZZ_CHECK (level != NULL);
          const json_t *rid = json_object_get (res, "ruleId");
          if (json_is_string (rid))
            {
              bool found = false;
              json_array_foreach (rules, k, rule)
                if (strcmp (json_string_value (json_object_get (rule, "id")),
                            json_string_value (rid))
                    == 0)
                  found = true;
              FUZZ_CHECK (found);
            }
        }
    }
  fuzz_check_json_roundtrip (doc);
}

void
fuzz_check_json_roundtrip (const json_t *v)
{
  char *text = json_dumps (v, JSON_ENCODE_ANY | JSON_COMPACT);
  FUZZ_CHECK (text != NULL);
  json_error_t jerr;
  json_t *back = json_loads (text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
  FUZZ_CHECK (back != NULL);
  FUZZ_CHECK (json_equal (v, back));
  json_decref (back);
  free (text);
}
