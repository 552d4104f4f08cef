/* SPDX-License-Identifier: Apache-2.0 */
/* suppress.c -- config suppressions and inline ash-ignore comments.  */

#include <config.h>

#include "scan/suppress.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "fs/tree.h"
#include "scan/sarif.h"

void
ash_suppressions_init (struct ash_suppressions *s)
{
  s->v = NULL;
  s->n = 0;
}

void
ash_suppressions_release (struct ash_suppressions *s)
{
  for (size_t i = 0; i < s->n; i++)
    {
      free (s->v[i].rule_id);
      free (s->v[i].path);
      free (s->v[i].reason);
      free (s->v[i].expiration);
    }
  free (s->v);
  ash_suppressions_init (s);
}

static bool
is_date (const char *s)
{
  static const char shape[] = "dddd-dd-dd";
  if (strlen (s) != sizeof shape - 1)
    return false;
  for (size_t i = 0; shape[i]; i++)
    if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != '-')
      return false;
  return true;
}

int
ash_suppressions_load (const json_t *list, const char *today,
                       struct ash_suppressions *ret,
                       struct ash_strvec *warnings, struct ash_error *err)
{
  size_t i;
  json_t *e;

  if (list == NULL || json_is_null (list))
    return 0;
  if (!json_is_array (list))
    return ash_error_set (err, -EINVAL,
                          _("global_settings.suppressions is not a list"));
  json_array_foreach ((json_t *) list, i, e)
    {
      const char *path = json_string_value (json_object_get (e, "path"));
      const char *rule = json_string_value (json_object_get (e, "rule_id"));
      const char *reason = json_string_value (json_object_get (e, "reason"));
      const char *exp = json_string_value (json_object_get (e,
                                                            "expiration"));
      if (path == NULL || *path == '\0')
        return ash_error_set (err, -EINVAL,
                              _("global_settings.suppressions[%zu] has no "
                                "path"),
                              i);
      if (exp && !is_date (exp))
        return ash_error_set (err, -EINVAL,
                              _("global_settings.suppressions[%zu]: "
                                "expiration '%s' is not a date "
                                "(YYYY-MM-DD)"),
                              i, exp);
      if (exp && today && strcmp (exp, today) < 0)
        {
          if (warnings)
            ash_strvec_pushf (warnings,
                              _("suppression for %s%s%s expired on %s and "
                                "does not apply"),
                              rule ? rule : "", rule ? " in " : "", path,
                              exp);
          continue;
        }
      ret->v = xreallocarray (ret->v, ret->n + 1, sizeof *ret->v);
      struct ash_suppression *s = &ret->v[ret->n++];
      s->rule_id = rule ? xstrdup (rule) : NULL;
      s->path = xstrdup (path);
      s->reason = reason ? xstrdup (reason) : NULL;
      s->expiration = exp ? xstrdup (exp) : NULL;
      s->line_start = (int) json_integer_value (json_object_get (e,
                                                                 "line_start"));
      s->line_end = (int) json_integer_value (json_object_get (e,
                                                               "line_end"));
    }
  return 0;
}

static bool
path_matches (const char *glob, const char *path)
{
  while (glob[0] == '.' && glob[1] == '/')
    glob += 2;
  if (fnmatch (glob, path, 0) == 0)
    return true;
  /* A directory named without a glob covers what is below it.  */
  size_t n = strlen (glob);
  while (n > 0 && glob[n - 1] == '/')
    n--;
  return n > 0 && strncmp (glob, path, n) == 0 && path[n] == '/';
}

const struct ash_suppression *
ash_suppressions_match (const struct ash_suppressions *s, const char *rule,
                        const char *path, int line)
{
  if (path == NULL)
    return NULL;
  while (path[0] == '.' && path[1] == '/')
    path += 2;
  for (size_t i = 0; i < s->n; i++)
    {
      const struct ash_suppression *e = &s->v[i];
      if (e->rule_id && (rule == NULL || fnmatch (e->rule_id, rule, 0) != 0))
        continue;
      if (!path_matches (e->path, path))
        continue;
      if (e->line_start > 0 && line < e->line_start)
        continue;
      if (e->line_end > 0 && line > e->line_end)
        continue;
      if ((e->line_start > 0 || e->line_end > 0) && line <= 0)
        continue;
      return e;
    }
  return NULL;
}

static const char *
line_at (const char *text, int line, size_t *ret_len)
{
  const char *p = text;
  for (int i = 1; i < line && p; i++)
    {
      p = strchr (p, '\n');
      if (p)
        p++;
    }
  if (p == NULL || *p == '\0')
    return NULL;
  const char *nl = strchr (p, '\n');
  *ret_len = nl ? (size_t) (nl - p) : strlen (p);
  return p;
}

static bool
has_marker (const char *line, size_t len, bool next_line)
{
  static const char marker[] = "ash-ignore";
  static const char next[] = "-next-line";
  const size_t ml = sizeof marker - 1, nl = sizeof next - 1;

  for (size_t i = 0; i + ml <= len; i++)
    if (memcmp (line + i, marker, ml) == 0)
      {
        bool is_next = i + ml + nl <= len
                       && memcmp (line + i + ml, next, nl) == 0;
        if (is_next == next_line)
          return true;
      }
  return false;
}

bool
ash_suppress_inline_text (const char *text, int line)
{
  size_t len;
  const char *l;

  if (line < 1)
    return false;
  l = line_at (text, line, &len);
  if (l && has_marker (l, len, false))
    return true;
  if (line > 1)
    {
      l = line_at (text, line - 1, &len);
      if (l && has_marker (l, len, true))
        return true;
    }
  return false;
}

/* Read a source file for the inline check through the fd-relative,
   non-following reader: beneath the scanned directory SRCFD, no link at
   any component (a link in the tree, or one swapped in while ash reads,
   would make ash read a file outside it and a scanner could use the
   suppressions as an oracle on its content), regular files only, at most
   MAX bytes.  NULL when it may not or cannot be read.  */
static char *
read_source (int srcfd, const char *rel, size_t max)
{
  if (srcfd < 0 || rel[0] == '/')
    return NULL;
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_tree_read_file (srcfd, rel, max, &b, &err);
  if (r < 0)
    {
      ash_debug ("no inline suppression check of %s: %s", rel,
                 err.message ? err.message : strerror (-r));
      ash_error_release (&err);
      ash_buf_release (&b);
      return NULL;
    }
  return ash_buf_detach (&b);
}

/* The inline markers of one source file, found once: for each line (from
   1), bit 1 when it holds "ash-ignore" (that line is suppressed) and bit
   2 when it holds "ash-ignore-next-line" (the next one is), so that each
   finding costs one look-up however many a file has.  */
#define MARK_SAME 1
#define MARK_NEXT 2

struct marks
{
  bool readable;         /* read, and valid UTF-8 */
  unsigned char *line;   /* LINE[0] unused */
  size_t nlines;
};

static void
marks_index (struct marks *m, const char *text)
{
  size_t len = strlen (text), cap = 64;
  m->line = xcalloc (cap, 1);
  m->nlines = 0;
  for (const char *p = text; p < text + len;)
    {
      const char *nl = memchr (p, '\n', (size_t) (text + len - p));
      size_t l = nl ? (size_t) (nl - p) : (size_t) (text + len - p);
      if (++m->nlines >= cap)
        {
          m->line = xreallocarray (m->line, cap * 2, 1);
          memset (m->line + cap, 0, cap);
          cap *= 2;
        }
      m->line[m->nlines] = (has_marker (p, l, false) ? MARK_SAME : 0)
                           | (has_marker (p, l, true) ? MARK_NEXT : 0);
      if (!nl)
        break;
      p = nl + 1;
    }
}

/* The same answer as ash_suppress_inline_text() on the indexed text.  */
static bool
marks_suppress (const struct marks *m, int line)
{
  if (line < 1)
    return false;
  if ((size_t) line <= m->nlines && (m->line[line] & MARK_SAME))
    return true;
  return line > 1 && (size_t) line - 1 <= m->nlines
         && (m->line[line - 1] & MARK_NEXT);
}

size_t
ash_suppress_doc (json_t *doc, const struct ash_suppressions *s,
                  const char *source_dir, size_t max_file)
{
  size_t i, j, n = 0;
  json_t *run, *res;
  json_t *cache = json_object (); /* path -> index in FILES */
  struct marks *files = NULL;
  size_t nfiles = 0, afiles = 0;
  _cleanup_close_ int srcfd
      = source_dir ? open (source_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                   : -1;

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      {
        int start, end;
        const char *path, *rule;
        json_t *sup = NULL;

        if (ash_sarif_result_is_suppressed (res))
          continue;
        path = ash_sarif_result_location (res, &start, &end);
        rule = ash_sarif_result_rule (res);
        const struct ash_suppression *e
          = s ? ash_suppressions_match (s, rule, path, start) : NULL;
        if (e)
          sup = json_pack ("{s:s, s:s}", "kind", "external", "justification",
                           e->reason ? e->reason
                                     : "suppressed by the ASH configuration");
        else if (source_dir && path && start > 0)
          {
            json_t *t = json_object_get (cache, path);
            struct marks *m;
            if (t == NULL)
              {
                if (nfiles == afiles)
                  {
                    afiles = afiles ? afiles * 2 : 16;
                    files = xreallocarray (files, afiles, sizeof *files);
                  }
                m = &files[nfiles];
                memset (m, 0, sizeof *m);
                char *text = read_source (srcfd, path, max_file);
                /* Not UTF-8: no inline check.  */
                json_t *valid = text ? json_string (text) : NULL;
                if (valid)
                  {
                    m->readable = true;
                    marks_index (m, text);
                  }
                json_decref (valid);
                free (text);
                json_object_set_new (cache, path,
                                     json_integer ((json_int_t) nfiles));
                nfiles++;
              }
            else
              m = &files[json_integer_value (t)];
            if (m->readable && marks_suppress (m, start))
              sup = json_pack ("{s:s, s:s}", "kind", "inSource",
                               "justification", "ash-ignore comment");
          }
        if (sup)
          {
            json_t *list = json_object_get (res, "suppressions");
            if (!json_is_array (list))
              {
                list = json_array ();
                json_object_set_new (res, "suppressions", list);
              }
            json_array_append_new (list, sup);
            n++;
          }
      }
  for (size_t k = 0; k < nfiles; k++)
    free (files[k].line);
  free (files);
  json_decref (cache);
  return n;
}

void
ash_suppress_today (char buf[static 11])
{
  time_t t = time (NULL);
  struct tm tm;
  gmtime_r (&t, &tm);
  strftime (buf, 11, "%Y-%m-%d", &tm);
}
