/* SPDX-License-Identifier: Apache-2.0 */
/* suppress.c -- config suppressions and inline ash-ignore comments.  */

#include <config.h>

#include "scan/suppress.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <strings.h>
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

/* Days from A to B, both YYYY-MM-DD (checked), in UTC.  */
static long
days_between (const char *a, const char *b)
{
  struct tm ta = { 0 }, tb = { 0 };
  if (sscanf (a, "%4d-%2d-%2d", &ta.tm_year, &ta.tm_mon, &ta.tm_mday) != 3
      || sscanf (b, "%4d-%2d-%2d", &tb.tm_year, &tb.tm_mon, &tb.tm_mday) != 3)
    return -1;
  ta.tm_year -= 1900, tb.tm_year -= 1900;
  ta.tm_mon -= 1, tb.tm_mon -= 1;
  return (long) ((timegm (&tb) - timegm (&ta)) / 86400);
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
                          _ ("global_settings.suppressions is not a list"));
  json_array_foreach ((json_t *) list, i, e)
    {
      const char *path = json_string_value (json_object_get (e, "path"));
      const char *rule = json_string_value (json_object_get (e, "rule_id"));
      const char *reason = json_string_value (json_object_get (e, "reason"));
      const char *exp = json_string_value (json_object_get (e, "expiration"));
      if (path == NULL || *path == '\0')
        return ash_error_set (err, -EINVAL,
                              _ ("global_settings.suppressions[%zu] has no "
                                 "path"),
                              i);
      if (exp && !is_date (exp))
        return ash_error_set (err, -EINVAL,
                              _ ("global_settings.suppressions[%zu]: "
                                 "expiration '%s' is not a date "
                                 "(YYYY-MM-DD)"),
                              i, exp);
      /* Upstream: a suppression no longer applies on its expiration
         date, and one that expires within 30 days is warned about.  */
      if (exp && today && strcmp (exp, today) <= 0)
        {
          if (warnings)
            ash_strvec_pushf (warnings,
                              _ ("suppression for %s%s%s expired on %s and "
                                 "does not apply"),
                              rule ? rule : "", rule ? " in " : "", path, exp);
          continue;
        }
      if (exp && today && warnings)
        {
          long days = days_between (today, exp);
          if (days >= 0 && days <= 30)
            ash_strvec_pushf (warnings,
                              _ ("suppression for %s%s%s expires on %s, in "
                                 "%ld days"),
                              rule ? rule : "", rule ? " in " : "", path, exp,
                              days);
        }
      ret->v = xreallocarray (ret->v, ret->n + 1, sizeof *ret->v);
      struct ash_suppression *s = &ret->v[ret->n++];
      s->rule_id = rule ? xstrdup (rule) : NULL;
      s->path = xstrdup (path);
      s->reason = reason ? xstrdup (reason) : NULL;
      s->expiration = exp ? xstrdup (exp) : NULL;
      s->line_start
        = (int) json_integer_value (json_object_get (e, "line_start"));
      s->line_end = (int) json_integer_value (json_object_get (e, "line_end"));
    }
  return 0;
}

/* fnmatch, without case, where each "**" and "/" of GLOB may also match
   no directory at all (tests/ ** / *.py matches tests/a.py), as upstream's
   recursive glob does.  DEPTH bounds the variants tried.  */
static bool
glob_matches (const char *glob, const char *path, int depth)
{
  if (fnmatch (glob, path, FNM_CASEFOLD) == 0)
    return true;
  if (depth >= 8)
    return false;
  for (const char *p = strstr (glob, "**/"); p; p = strstr (p + 1, "**/"))
    {
      _cleanup_free_ char *v
        = xasprintf ("%.*s%s", (int) (p - glob), glob, p + 3);
      if (glob_matches (v, path, depth + 1))
        return true;
    }
  return false;
}

static bool
path_matches (const char *glob, const char *path)
{
  while (glob[0] == '.' && glob[1] == '/')
    glob += 2;
  if (glob_matches (glob, path, 0))
    return true;
  /* A directory named without a glob covers what is below it.  */
  size_t n = strlen (glob);
  while (n > 0 && glob[n - 1] == '/')
    n--;
  return n > 0 && strncasecmp (glob, path, n) == 0 && path[n] == '/';
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
      if (e->rule_id
          && (rule == NULL || fnmatch (e->rule_id, rule, FNM_CASEFOLD) != 0))
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

/* Whether RULE (may be NULL: nothing matches) is matched by the rule id
   ID of a suppression: a glob, compared without case as upstream does.  */
static bool
rule_matches (const char *id, size_t idlen, const char *rule)
{
  if (rule == NULL || idlen == 0 || idlen > 512)
    return false;
  _cleanup_free_ char *pat = xstrndup (id, idlen);
  return fnmatch (pat, rule, FNM_CASEFOLD) == 0;
}

/* Whether LINE (LEN bytes) holds upstream's directive for RULE: "#" or
   "//", then "ash-ignore:" (NEXT_LINE false) or "ash-ignore-next-line:"
   (NEXT_LINE true), the marker in any case, then the rule id (and an
   optional reason).  */
static bool
has_directive (const char *line, size_t len, bool next_line, const char *rule)
{
  static const char marker[] = "ash-ignore";
  static const char next[] = "-next-line";
  const size_t ml = sizeof marker - 1, nl = sizeof next - 1;

  for (size_t i = 0; i + ml <= len; i++)
    {
      if (strncasecmp (line + i, marker, ml) != 0)
        continue;
      /* A comment opens right before it.  */
      size_t k = i;
      while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t'))
        k--;
      bool comment = (k >= 1 && line[k - 1] == '#')
                     || (k >= 2 && line[k - 1] == '/' && line[k - 2] == '/');
      size_t p = i + ml;
      bool is_next = p + nl <= len && strncasecmp (line + p, next, nl) == 0;
      if (is_next)
        p += nl;
      if (!comment || is_next != next_line || p >= len || line[p] != ':')
        continue;
      p++;
      while (p < len && (line[p] == ' ' || line[p] == '\t'))
        p++;
      size_t q = p;
      while (q < len && line[q] != ' ' && line[q] != '\t' && line[q] != '\r')
        q++;
      if (rule_matches (line + p, q - p, rule))
        return true;
    }
  return false;
}

bool
ash_suppress_inline_text (const char *text, int line, const char *rule)
{
  size_t len;
  const char *l;

  if (line < 1)
    return false;
  l = line_at (text, line, &len);
  if (l && has_directive (l, len, false, rule))
    return true;
  if (line > 1)
    {
      l = line_at (text, line - 1, &len);
      if (l && has_directive (l, len, true, rule))
        return true;
    }
  return false;
}

/* Read a source file for the inline check through the fd-relative,
   non-following reader: beneath the scanned directory SRCFD, no link at
   any component (a link in the tree, or one swapped in while ash reads,
   would make ash read a file outside it and a scanner could use the
   suppressions as an oracle on its content), regular files only, at most
   MAX bytes.  NULL when it may not or cannot be read, with the debug line
   that says why added to NOTES (logged together once the document is
   done: a SARIF can name thousands of files the tree lacks).  */
static char *
read_source (int srcfd, const char *rel, size_t max, struct ash_strvec *notes)
{
  if (srcfd < 0 || rel[0] == '/')
    return NULL;
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_tree_read_file (srcfd, rel, max, &b, &err);
  if (r < 0)
    {
      ash_strvec_push_nodup (
        notes, xasprintf ("no inline suppression check of %s: %s", rel,
                          err.message ? err.message : strerror (-r)));
      ash_error_release (&err);
      ash_buf_release (&b);
      return NULL;
    }
  return ash_buf_detach (&b);
}

/* One source file, indexed once: the offset of each line (from 1), so
   that each finding costs a look at two lines however many a file has
   (a finding in the last line of a large file no longer rescans it from
   its first byte).  */
struct marks
{
  bool readable; /* read, and valid UTF-8 */
  char *text;
  size_t *off; /* OFF[L] is where line L starts; OFF[0] unused */
  size_t nlines;
};

static void
marks_index (struct marks *m, char *text)
{
  size_t len = strlen (text), cap = 64;

  m->text = text;
  m->off = xcalloc (cap, sizeof *m->off);
  m->nlines = 0;
  for (size_t p = 0; p < len;)
    {
      const char *nl = memchr (text + p, '\n', len - p);
      if (++m->nlines >= cap)
        {
          cap *= 2;
          m->off = xreallocarray (m->off, cap, sizeof *m->off);
        }
      m->off[m->nlines] = p;
      if (!nl)
        break;
      p = (size_t) (nl - text) + 1;
    }
}

static const char *
marks_line (const struct marks *m, int line, size_t *ret_len)
{
  if (line < 1 || (size_t) line > m->nlines)
    return NULL;
  const char *l = m->text + m->off[line];
  const char *nl = strchr (l, '\n');
  *ret_len = nl ? (size_t) (nl - l) : strlen (l);
  return l;
}

/* The same answer as ash_suppress_inline_text() on the indexed text.  */
static bool
marks_suppress (const struct marks *m, int line, const char *rule)
{
  size_t len;
  const char *l = marks_line (m, line, &len);

  if (l && has_directive (l, len, false, rule))
    return true;
  l = line > 1 ? marks_line (m, line - 1, &len) : NULL;
  return l && has_directive (l, len, true, rule);
}

static void
marks_release (struct marks *m)
{
  free (m->text);
  free (m->off);
}

struct ash_suppress_session
{
  const struct ash_suppressions *s;
  const char *source_dir;
  size_t max_file;
  json_t *cache; /* path -> index in FILES */
  struct marks *files;
  size_t nfiles, afiles;
  int srcfd;
  struct ash_strvec notes;
};

struct ash_suppress_session *
ash_suppress_begin (const struct ash_suppressions *s, const char *source_dir,
                    size_t max_file)
{
  struct ash_suppress_session *ss = xcalloc (1, sizeof *ss);
  ss->s = s;
  ss->source_dir = source_dir;
  ss->max_file = max_file;
  ss->cache = json_object ();
  ss->srcfd
    = source_dir ? open (source_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  ash_strvec_init (&ss->notes);
  return ss;
}

bool
ash_suppress_result (struct ash_suppress_session *ss, json_t *res)
{
  int start, end;
  const char *path, *rule;
  json_t *sup = NULL;
  const struct ash_suppressions *s = ss->s;

  if (ash_sarif_result_is_suppressed (res))
    return false;
  path = ash_sarif_result_location (res, &start, &end);
  rule = ash_sarif_result_rule (res);
  const struct ash_suppression *e
    = s ? ash_suppressions_match (s, rule, path, start) : NULL;
  if (e)
    sup = json_pack ("{s:s, s:s}", "kind", "external", "justification",
                     e->reason ? e->reason
                               : "suppressed by the ASH configuration");
  else if (ss->source_dir && path && start > 0)
    {
      json_t *t = json_object_get (ss->cache, path);
      struct marks *m;
      if (t == NULL)
        {
          if (ss->nfiles == ss->afiles)
            {
              ss->afiles = ss->afiles ? ss->afiles * 2 : 16;
              ss->files
                = xreallocarray (ss->files, ss->afiles, sizeof *ss->files);
            }
          m = &ss->files[ss->nfiles];
          memset (m, 0, sizeof *m);
          char *text = read_source (ss->srcfd, path, ss->max_file, &ss->notes);
          /* Not UTF-8: no inline check.  */
          json_t *valid = text ? json_string (text) : NULL;
          if (valid)
            {
              m->readable = true;
              marks_index (m, text);
              text = NULL;
            }
          json_decref (valid);
          free (text);
          json_object_set_new (ss->cache, path,
                               json_integer ((json_int_t) ss->nfiles));
          ss->nfiles++;
        }
      else
        m = &ss->files[json_integer_value (t)];
      if (m->readable && marks_suppress (m, start, rule))
        sup = json_pack ("{s:s, s:s}", "kind", "inSource", "justification",
                         "ash-ignore comment");
    }
  if (sup == NULL)
    return false;
  json_t *list = json_object_get (res, "suppressions");
  if (!json_is_array (list))
    {
      list = json_array ();
      json_object_set_new (res, "suppressions", list);
    }
  json_array_append_new (list, sup);
  return true;
}

void
ash_suppress_end (struct ash_suppress_session *ss, bool log)
{
  if (ss == NULL)
    return;
  for (size_t k = 0; k < ss->nfiles; k++)
    marks_release (&ss->files[k]);
  free (ss->files);
  json_decref (ss->cache);
  if (ss->srcfd >= 0)
    close (ss->srcfd);
  if (log)
    ash_log_many (ASH_LOG_DEBUG, ss->notes.v, ss->notes.nr);
  ash_strvec_release (&ss->notes);
  free (ss);
}

size_t
ash_suppress_doc (json_t *doc, const struct ash_suppressions *s,
                  const char *source_dir, size_t max_file)
{
  size_t i, j, n = 0;
  json_t *run, *res;
  struct ash_suppress_session *ss
    = ash_suppress_begin (s, source_dir, max_file);

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      n += ash_suppress_result (ss, res);
  ash_suppress_end (ss, true);
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
