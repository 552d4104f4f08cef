/* SPDX-License-Identifier: Apache-2.0 */
/* inspect-command.c -- `ash inspect sarif-fields`: which fields of a SARIF
   result each scanner writes and whether the aggregated report keeps
   them, as upstream's command of that name: the field paths of every
   result of OUTPUT/reports/ *.sarif and OUTPUT/scanners/ ** / *.sarif
   (runs[].results[].FIELD, arrays as [], "properties" not expanded),
   written to OUTPUT/inspect/sarif_fields.json and sarif_fields.csv, and a
   summary on stdout.  The SARIF files below scanners/ are scanner output:
   read without following a link, capped in size and depth, and every
   name printed with its control characters shown as text.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/log.h"
#include "base/util.h"
#include "cli/commands.h"
#include "fs/tree.h"
#include "report/reports.h"
#include "scan/exit-codes.h"
#include "scan/sarif.h"

#define MAX_DEPTH 8
#define MAX_SARIF ((size_t) 256 << 20)

/* FIELDS: {path: {scanner: true}}.  */
static void
flatten (const json_t *v, const char *prefix, const char *scanner,
         json_t *fields)
{
  if (json_is_object (v))
    {
      const char *k;
      json_t *x;
      json_object_foreach ((json_t *) v, k, x)
        {
          _cleanup_free_ char *p = xasprintf ("%s.%s", prefix, k);
          if (streq (k, "properties")
              || !(json_is_object (x) || json_is_array (x)))
            {
              json_t *s = json_object_get (fields, p);
              if (s == NULL)
                json_object_set_new (fields, p, s = json_object ());
              json_object_set_new (s, scanner, json_true ());
            }
          else
            flatten (x, p, scanner, fields);
        }
    }
  else if (json_is_array (v) && json_array_size (v) > 0)
    {
      /* The first item stands for the others, as upstream counts.  */
      size_t n = strlen (prefix);
      _cleanup_free_ char *p = n >= 2 && streq (prefix + n - 2, "[]")
                                 ? xstrdup (prefix)
                                 : xasprintf ("%s[]", prefix);
      flatten (json_array_get (v, 0), p, scanner, fields);
    }
}

/* Read the SARIF file NAME below DIRFD and add its results' fields under
   SCANNER.  A file that is not JSON is skipped with a warning.  */
static void
add_file (int dirfd, const char *name, const char *shown, const char *scanner,
          json_t *fields, size_t *nfiles)
{
  _cleanup_buf_ struct ash_buf text = ASH_BUF_INIT;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  if (ash_tree_read_file (dirfd, name, MAX_SARIF, &text, &err) < 0)
    {
      _cleanup_free_ char *m = ash_escape_control (shown);
      ash_warning (_ ("%s: not read: %s"), m, err.message);
      return;
    }
  json_error_t je;
  bool over;
  _cleanup_json_ json_t *doc
    = ash_json_loadb_budgeted (text.buf, text.len, &je, &over);
  if (doc == NULL)
    {
      _cleanup_free_ char *m = ash_escape_control (shown);
      if (over)
        ash_warning (_ ("%s: too large once parsed, left out"), m);
      else
        ash_warning (_ ("%s: not JSON, left out"), m);
      return;
    }
  (*nfiles)++;
  size_t i, j;
  json_t *run, *res;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      flatten (res, "runs[].results[]", scanner, fields);
}

static bool
is_sarif (const char *name)
{
  size_t n = strlen (name);
  return n > 6 && streq (name + n - 6, ".sarif");
}

/* Every *.sarif below the directory FD (owned: closed here), as SCANNER,
   never following a link.  */
static void
walk (int fd, const char *shown, const char *scanner, int depth,
      json_t *fields, size_t *nfiles)
{
  DIR *d = fdopendir (fd);
  if (d == NULL)
    {
      close (fd);
      return;
    }
  struct dirent *e;
  while ((e = readdir (d)))
    {
      if (streq (e->d_name, ".") || streq (e->d_name, ".."))
        continue;
      struct stat st;
      if (fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        continue;
      _cleanup_free_ char *p = xasprintf ("%s/%s", shown, e->d_name);
      if (S_ISDIR (st.st_mode) && depth < MAX_DEPTH)
        {
          int sub = openat (dirfd (d), e->d_name,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub >= 0)
            walk (sub, p, scanner ? scanner : e->d_name, depth + 1, fields,
                  nfiles);
        }
      else if (S_ISREG (st.st_mode) && scanner && is_sarif (e->d_name))
        add_file (dirfd (d), e->d_name, p, scanner, fields, nfiles);
    }
  closedir (d);
}

static int
cmp_str (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static bool
has (const json_t *fields, const char *field, const char *scanner)
{
  return json_object_get (json_object_get (fields, field), scanner) != NULL;
}

int
ash_inspect_sarif_fields_command (const struct ash_options *opts)
{
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *placed = NULL;
  _cleanup_free_ char *jtext = NULL, *shown = NULL;
  _cleanup_free_ const char **keys = NULL;
  _cleanup_json_ json_t *fields = json_object ();
  _cleanup_json_ json_t *scanners = json_object ();
  size_t nfiles = 0;
  _cleanup_close_ int fd = -1;
  int sub;

  int code = ash_cli_open_results (opts, &placed, &fd);
  if (code)
    return code;
  /* The .sarif files of reports/, each under its name without .sarif ("ash"
     for the aggregated ash.sarif, as upstream), then scanners/NAME/...  */
  sub
    = openat (fd, "reports", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub >= 0)
    {
      DIR *d = fdopendir (sub);
      struct dirent *e;
      while (d && (e = readdir (d)))
        {
          struct stat st;
          if (!is_sarif (e->d_name)
              || fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0
              || !S_ISREG (st.st_mode))
            continue;
          _cleanup_free_ char *stem
            = xstrndup (e->d_name, strlen (e->d_name) - 6);
          _cleanup_free_ char *p = xasprintf ("reports/%s", e->d_name);
          add_file (dirfd (d), e->d_name, p, stem, fields, &nfiles);
        }
      if (d)
        closedir (d);
      else
        close (sub);
    }
  sub
    = openat (fd, "scanners", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub >= 0)
    walk (sub, "scanners", NULL, 0, fields, &nfiles);
  if (nfiles == 0)
    {
      return ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                             _ ("no SARIF files found in %s"), placed);
    }

  /* The files, in OUTPUT/inspect.  */
  const char *f;
  json_t *s;
  json_object_foreach (fields, f, s)
    {
      const char *name;
      json_t *t;
      json_object_foreach (s, name, t)
        json_object_set (scanners, name, json_true ());
    }
  jtext = json_dumps (fields, JSON_INDENT (2) | JSON_SORT_KEYS);
  if (jtext == NULL)
    ash_oom ();
  struct ash_buf csv = ASH_BUF_INIT;
  ash_buf_addstr (&csv, "field,scanners\r\n");
  keys = xcalloc (json_object_size (fields) + 1, sizeof *keys);
  size_t nk = 0;
  json_object_foreach (fields, f, s)
    keys[nk++] = f;
  qsort (keys, nk, sizeof *keys, cmp_str);
  for (size_t i = 0; i < nk; i++)
    {
      struct ash_buf cell = ASH_BUF_INIT;
      const char **names
        = xcalloc (json_object_size (json_object_get (fields, keys[i])) + 1,
                   sizeof *names);
      size_t nn = 0;
      const char *name;
      json_t *t;
      json_object_foreach (json_object_get (fields, keys[i]), name, t)
        names[nn++] = name;
      qsort (names, nn, sizeof *names, cmp_str);
      for (size_t j = 0; j < nn; j++)
        ash_buf_addf (&cell, "%s%s", j ? ", " : "", names[j]);
      free (names);
      ash_report_csv_field (&csv, keys[i]);
      ash_buf_addch (&csv, ',');
      ash_report_csv_field (&csv, cell.buf ? cell.buf : "");
      ash_buf_addstr (&csv, "\r\n");
      ash_buf_release (&cell);
    }
  int r = ash_tree_mkdirs (fd, "inspect", &sub, &err);
  if (r >= 0)
    {
      close (sub);
      r = ash_tree_write_file (fd, "inspect/sarif_fields.json", jtext,
                               strlen (jtext), 0644, &err);
    }
  if (r >= 0)
    r = ash_tree_write_file (fd, "inspect/sarif_fields.csv", csv.buf, csv.len,
                             0644, &err);
  ash_buf_release (&csv);
  if (r < 0)
    {
      return ash_cli_refuse (ASH_EXIT_INCOMPLETE, _ ("cannot write %s: %s"),
                             "inspect", err.message);
    }

  /* The summary.  */
  size_t nsc = json_object_size (scanners), in_all = 0, in_one = 0;
  for (size_t i = 0; i < nk; i++)
    {
      size_t c = json_object_size (json_object_get (fields, keys[i]));
      in_all += c == nsc;
      in_one += c == 1;
    }
  printf (_ ("SARIF field analysis of %zu files\n"), nfiles);
  printf ("  %-40s %zu\n", _ ("Total unique fields"), nk);
  printf ("  %-40s %zu\n", _ ("Total unique scanners"), nsc);
  printf ("  %-40s %zu\n", _ ("Fields used by all scanners"), in_all);
  printf ("  %-40s %zu\n", _ ("Fields used by only one scanner"), in_one);
  printf (_ ("\nPer scanner: fields, fields only it has, fields the "
             "aggregated ash.sarif lacks\n"));
  const char *name;
  json_t *t;
  json_object_foreach (scanners, name, t)
    {
      if (streq (name, "ash"))
        continue;
      size_t total = 0, unique = 0, missing = 0;
      for (size_t i = 0; i < nk; i++)
        {
          if (!has (fields, keys[i], name))
            continue;
          total++;
          unique += json_object_size (json_object_get (fields, keys[i])) == 1;
          missing += !has (fields, keys[i], "ash");
        }
      _cleanup_free_ char *m = ash_escape_control (name);
      printf ("  %-40s %6zu %6zu %6zu\n", m, total, unique, missing);
    }
  shown = ash_escape_control (placed);
  printf (_ ("\nWritten: %s/inspect/sarif_fields.json and "
             "sarif_fields.csv\n"),
          shown);
  return fflush (stdout) == 0 ? ASH_EXIT_OK : ASH_EXIT_INCOMPLETE;
}
