/* SPDX-License-Identifier: Apache-2.0 */
/* flat.c -- the flat findings list the summaries use, and ash.flat.json
   and ash.csv in upstream's shape (its flat vulnerability fields).  */

#include <config.h>

#include <string.h>

#include "base/escape.h"
#include "base/buf.h"
#include "base/util.h"
#include "report/json-out.h"
#include "report/reports.h"
#include "scan/packed.h"
#include "scan/sarif.h"

static enum ash_severity
threshold_of (const json_t *agg)
{
  enum ash_severity t = ASH_SEVERITY_MEDIUM;
  const char *s = json_string_value (
    json_object_get (json_object_get (json_object_get (agg, "metadata"),
                                      "summary_stats"),
                     "severity_threshold"));
  if (s)
    ash_severity_parse (s, &t);
  return t;
}

/* The texts a list holds for the results of packed runs, which have no
   tree to point into: in blocks, so that each stays where it is.  */
struct text_block
{
  struct text_block *next;
  size_t used, size;
  char data[];
};

#define TEXT_BLOCK ((size_t) 256 << 10)

static const char *
pool_dup (struct text_block **pool, const char *s)
{
  if (s == NULL)
    return NULL;
  size_t n = strlen (s) + 1;
  struct text_block *b = *pool;
  if (b == NULL || b->size - b->used < n)
    {
      size_t size = n > TEXT_BLOCK ? n : TEXT_BLOCK;
      b = xmalloc (sizeof *b + size);
      b->next = *pool;
      b->used = 0;
      b->size = size;
      *pool = b;
    }
  char *p = memcpy (b->data + b->used, s, n);
  b->used += n;
  return p;
}

static void
pool_free (struct text_block *pool)
{
  for (struct text_block *next; pool; pool = next)
    {
      next = pool->next;
      free (pool);
    }
}

/* The list built for the document being reported on, between
   ash_report_findings_begin() and _end().  */
static const json_t *findings_agg;
static struct ash_report_flat *findings_v;
static size_t findings_n;
static struct text_block *findings_pool;

static struct ash_report_flat *
build_findings (const json_t *agg, size_t *ret_n, struct text_block **pool);

void
ash_report_findings_begin (const json_t *agg)
{
  ash_report_findings_end ();
  findings_v = build_findings (agg, &findings_n, &findings_pool);
  findings_agg = agg;
}

void
ash_report_findings_end (void)
{
  free (findings_v);
  pool_free (findings_pool);
  findings_pool = NULL;
  findings_v = NULL;
  findings_n = 0;
  findings_agg = NULL;
}

void
ash_report_flat_list_get (const json_t *agg, struct ash_report_flat_list *ret)
{
  if (agg == findings_agg && findings_agg)
    {
      *ret
        = (struct ash_report_flat_list){ findings_v, findings_n, NULL, NULL };
      return;
    }
  struct text_block *pool = NULL;
  struct ash_report_flat *v = build_findings (agg, &ret->n, &pool);
  ret->v = v;
  ret->owned = v;
  ret->strings = pool;
}

void
ash_report_flat_list_release (struct ash_report_flat_list *l)
{
  free (l->owned);
  pool_free (l->strings);
  *l = (struct ash_report_flat_list){ NULL, 0, NULL, NULL };
}

bool
ash_report_walk_next_finding (struct ash_report_walk *w, bool skip_suppressed,
                              struct ash_report_finding *ret)
{
  const json_t *res;
  do
    {
      res = ash_report_walk_result (w, NULL);
      if (res == NULL)
        return false;
      ash_report_walk_finding (w, res, ret);
    }
  while (skip_suppressed && ret->suppressed);
  return true;
}

void
ash_report_walk_finding (const struct ash_report_walk *w, const json_t *res,
                         struct ash_report_finding *ret)
{
  /* The walk goes over the results in the list's order; the result
     pointer checks it.  */
  size_t i = w->count - 1;
  if (w->count > 0 && w->agg == findings_agg && findings_agg && i < findings_n
      && findings_v[i].result == res)
    {
      const struct ash_report_flat *f = &findings_v[i];
      ret->path = f->path;
      ret->start = f->line_start;
      ret->end = f->line_end;
      ret->rule = f->rule;
      ret->scanner = f->scanner;
      ret->message = f->message;
      ret->severity = f->severity;
      ret->suppressed = f->suppressed;
      ret->suppression_kind = f->suppression_kind;
      ret->suppression_reason = f->suppression_reason;
      ret->snippet = f->snippet;
      ret->properties = f->properties;
      ret->tags = f->tags;
      ret->properties_text = f->properties_text;
      ret->tags_text = f->tags_text;
      return;
    }
  ash_report_finding_read (ash_report_walk_unpacked (w, res), ret);
}

static char *compact_text (const json_t *v);

/* Fill F from FI, the finding of RES.  */
static void
flat_fill (struct ash_report_flat *f, const json_t *res,
           const struct ash_report_finding *fi, enum ash_severity threshold)
{
  f->result = res;
  f->path = fi->path;
  f->rule = fi->rule;
  f->line_start = fi->start;
  f->line_end = fi->end;
  f->scanner = fi->scanner;
  f->rule_id = fi->rule ? fi->rule : "";
  f->file_path = fi->path ? fi->path : "";
  f->message = fi->message;
  f->severity = fi->severity;
  f->suppressed = fi->suppressed;
  f->actionable = !f->suppressed && f->severity >= (int) threshold;
  f->suppression_kind = fi->suppression_kind;
  f->suppression_reason = fi->suppression_reason;
  f->snippet = fi->snippet;
  f->properties = fi->properties;
  f->tags = fi->tags;
}

/* F's texts copied into POOL, for a result parsed again from a packed
   run and freed once read: its properties and tags as their compact
   text.  */
static void
flat_own (struct ash_report_flat *f, struct text_block **pool)
{
  f->result = ASH_REPORT_PACKED_RESULT;
  f->path = pool_dup (pool, f->path);
  f->rule = pool_dup (pool, f->rule);
  f->scanner = pool_dup (pool, f->scanner);
  f->rule_id = f->rule ? f->rule : "";
  f->file_path = f->path ? f->path : "";
  f->message = pool_dup (pool, f->message);
  f->suppression_kind = pool_dup (pool, f->suppression_kind);
  f->suppression_reason = pool_dup (pool, f->suppression_reason);
  f->snippet = pool_dup (pool, f->snippet);
  if (f->properties)
    {
      _cleanup_free_ char *t = compact_text (f->properties);
      f->properties_text = pool_dup (pool, t);
    }
  if (f->tags)
    {
      _cleanup_free_ char *t = compact_text (f->tags);
      f->tags_text = pool_dup (pool, t);
    }
  f->properties = f->tags = NULL;
}

static struct ash_report_flat *
build_findings (const json_t *agg, size_t *ret_n, struct text_block **pool)
{
  enum ash_severity threshold = threshold_of (agg);
  const json_t *runs
    = json_object_get (json_object_get (agg, "sarif"), "runs");
  size_t i, n = 0;
  json_t *run;

  json_array_foreach (runs, i, run)
    n += ash_sarif_results_count (run);
  /* One more, so that an empty list is not a NULL that reads as
     "none built".  */
  struct ash_report_flat *v = xcalloc (n + 1, sizeof *v);
  n = 0;
  json_array_foreach (runs, i, run)
    {
      const json_t *results = json_object_get (run, "results");
      const struct ash_packed *p = ash_packed_of (results);
      size_t np = ash_packed_count (p);
      for (size_t j = 0; j < np; j++)
        {
          /* A packed result, read again for this and let go.  */
          struct ash_report_flat *f = &v[n++];
          struct ash_report_finding fi;
          json_t *res = ash_packed_load (p, j);
          ash_report_finding_read (res, &fi);
          flat_fill (f, res, &fi, threshold);
          flat_own (f, pool);
          json_decref (res);
        }
      size_t k;
      json_t *res;
      json_array_foreach (results, k, res)
        {
          struct ash_report_finding fi;
          ash_report_finding_read (res, &fi);
          flat_fill (&v[n++], res, &fi, threshold);
        }
    }
  *ret_n = n;
  return v;
}

char *
ash_report_sarif (const json_t *agg)
{
  /* json_dumps (V, JSON_INDENT (2) | JSON_ENSURE_ASCII) and a line end,
     by the writer that knows packed runs.  */
  return ash_json_text (json_object_get (agg, "sarif"), true);
}

struct flat_walk
{
  struct ash_report_walk w;
  enum ash_severity threshold;
  const char *when;
};

/* A finding as upstream's flat vulnerability (its FlatVulnerability
   fields, in its order), then ash's message, suppressed and actionable:
   what ash.flat.json and ash.csv write of it.  A NULL string or a line
   of 0 is written as null (an empty CSV field).  */
struct flat_row
{
  char *id;
  const char *title;
  const char *description;
  const char *severity;
  const char *scanner;
  const char *rule_id;
  const char *file_path;
  int line_start, line_end;
  bool is_suppressed;
  const char *suppression_kind;
  const char *suppression_justification;
  const char *detected_at;
  const char *code_snippet;
  char *tags;
  char *properties;
  bool actionable;
};

/* V as json_dumps (V, JSON_COMPACT | JSON_ENSURE_ASCII) gives it, newly
   allocated: the writer of json-out.h in compact mode.  */
static char *
compact_text (const json_t *v)
{
  struct ash_out o = ASH_OUT_MEMORY_INIT;
  o.compact = true;
  ash_out_json (&o, v, 0);
  return ash_buf_detach (&o.b);
}

static void
flat_row_read (const struct flat_walk *fw, const json_t *res,
               struct flat_row *r)
{
  struct ash_report_finding fi;
  static const char *const upper[]
    = { "INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL" };

  ash_report_walk_finding (&fw->w, res, &fi);
  _cleanup_free_ char *h
    = ash_report_finding_id (fi.scanner, fi.rule, fi.path, fi.start, fi.end);
  /* "%s-%s-%.8s" of the scanner, the rule and the hash.  */
  struct ash_buf id = ASH_BUF_INIT;
  ash_buf_addstr (&id, fi.scanner);
  ash_buf_addch (&id, '-');
  ash_buf_addstr (&id, fi.rule ? fi.rule : "unknown");
  ash_buf_addch (&id, '-');
  ash_buf_add (&id, h, strnlen (h, 8));
  r->id = ash_buf_detach (&id);
  r->title = fi.rule ? fi.rule : "Unknown Issue";
  r->description = fi.message;
  r->severity = upper[fi.severity];
  r->scanner = fi.scanner;
  r->rule_id = fi.rule;
  r->file_path = fi.path;
  r->line_start = fi.start > 0 ? fi.start : 0;
  r->line_end = fi.end > 0 ? fi.end : 0;
  r->is_suppressed = fi.suppressed;
  r->suppression_kind = fi.suppressed ? fi.suppression_kind : NULL;
  r->suppression_justification = fi.suppressed ? fi.suppression_reason : NULL;
  r->detected_at = fw->when;
  r->code_snippet = fi.snippet;
  r->tags = fi.tags_text ? xstrdup (fi.tags_text)
            : fi.tags    ? compact_text (fi.tags)
                         : NULL;
  r->properties = fi.properties_text ? xstrdup (fi.properties_text)
                  : fi.properties    ? compact_text (fi.properties)
                                     : NULL;
  r->actionable = !fi.suppressed && fi.severity >= (int) fw->threshold;
}

static void
flat_row_release (struct flat_row *r)
{
  free (r->id);
  free (r->tags);
  free (r->properties);
}

static void
obj_nullable_str (struct ash_out_obj *w, const char *key, const char *s)
{
  if (s)
    ash_out_obj_str (w, key, s);
  else
    {
      ash_out_obj_key (w, key);
      ash_out_add (w->o, "null", 4);
    }
}

static void
obj_nullable_line (struct ash_out_obj *w, const char *key, int n)
{
  if (n > 0)
    ash_out_obj_int (w, key, n);
  else
    obj_nullable_str (w, key, NULL);
}

static void
obj_bool (struct ash_out_obj *w, const char *key, bool v)
{
  ash_out_obj_key (w, key);
  ash_out_add (w->o, v ? "true" : "false", v ? 4 : 5);
}

/* ROW as ash.flat.json's item at DEPTH: the text json_dumps gives the
   object of the same members.  */
static void
flat_row_write (const struct flat_row *r, struct ash_out *o, int depth)
{
  struct ash_out_obj w;
  ash_out_obj_begin (&w, o, depth);
  ash_out_obj_str (&w, "id", r->id);
  ash_out_obj_str (&w, "title", r->title);
  ash_out_obj_str (&w, "description", r->description);
  ash_out_obj_str (&w, "severity", r->severity);
  ash_out_obj_str (&w, "scanner", r->scanner);
  ash_out_obj_str (&w, "scanner_type", "UNKNOWN");
  obj_nullable_str (&w, "rule_id", r->rule_id);
  obj_nullable_str (&w, "file_path", r->file_path);
  obj_nullable_line (&w, "line_start", r->line_start);
  obj_nullable_line (&w, "line_end", r->line_end);
  obj_nullable_str (&w, "cve_id", NULL);
  obj_nullable_str (&w, "cwe_id", NULL);
  obj_nullable_str (&w, "fix_available", NULL);
  obj_bool (&w, "is_suppressed", r->is_suppressed);
  obj_nullable_str (&w, "suppression_kind", r->suppression_kind);
  obj_nullable_str (&w, "suppression_justification",
                    r->suppression_justification);
  obj_nullable_str (&w, "detected_at", r->detected_at);
  obj_nullable_str (&w, "code_snippet", r->code_snippet);
  obj_nullable_str (&w, "tags", r->tags);
  obj_nullable_str (&w, "properties", r->properties);
  obj_nullable_str (&w, "references", NULL);
  ash_out_obj_str (&w, "message", r->description);
  obj_bool (&w, "suppressed", r->is_suppressed);
  obj_bool (&w, "actionable", r->actionable);
  ash_out_obj_end (&w);
}

static bool
flat_write (void *ctx, struct ash_out *o, int depth, bool first)
{
  struct flat_walk *fw = ctx;
  const json_t *res = ash_report_walk_result (&fw->w, NULL);
  if (res == NULL)
    return false;
  struct flat_row r;
  flat_row_read (fw, res, &r);
  ash_out_item_start (o, depth, first);
  flat_row_write (&r, o, depth);
  flat_row_release (&r);
  return true;
}

static void
flat_walk_init (struct flat_walk *fw, const json_t *agg)
{
  fw->threshold = threshold_of (agg);
  fw->when = json_string_value (
    json_object_get (json_object_get (agg, "metadata"), "generated_at"));
  ash_report_walk_init (&fw->w, agg, NULL);
}

json_t *
ash_report_flat_json_doc (const json_t *agg, struct ash_json_gen *ret_gen)
{
  struct flat_walk *fw = xcalloc (1, sizeof *fw);
  flat_walk_init (fw, agg);
  json_t *list = json_array ();
  *ret_gen = (struct ash_json_gen){
    .array = list, .release = free, .ctx = fw, .write = flat_write
  };
  return list;
}

char *
ash_report_flat_json (const json_t *agg)
{
  struct ash_json_gen g;
  json_t *doc = ash_report_flat_json_doc (agg, &g);
  return ash_report_dump_json_gen (doc, &g);
}

void
ash_report_csv_field (struct ash_buf *b, const char *in)
{
  /* Control characters are shown as text (escape.h), as in every text
     report.  Quote every field; a leading =, +, - or @ is prefixed with a
     quote so that a spreadsheet does not run it as a formula.  */
  _cleanup_free_ char *shown = ash_escape_control (in);
  const char *s = shown;
  ash_buf_addch (b, '"');
  if (*s == '=' || *s == '+' || *s == '-' || *s == '@')
    ash_buf_addch (b, '\'');
  while (*s)
    {
      /* A run without a quote, then the quote doubled.  */
      const char *q = strchrnul (s, '"');
      ash_buf_add (b, s, (size_t) (q - s));
      s = q;
      if (*s)
        {
          ash_buf_add (b, "\"\"", 2);
          s++;
        }
    }
  ash_buf_addch (b, '"');
}

/* upstream's columns (its flat vulnerability's fields), then ash's
   actionable.  */
static const char *const csv_columns[] = {
  "id",
  "title",
  "description",
  "severity",
  "scanner",
  "scanner_type",
  "rule_id",
  "file_path",
  "line_start",
  "line_end",
  "cve_id",
  "cwe_id",
  "fix_available",
  "is_suppressed",
  "suppression_kind",
  "suppression_justification",
  "detected_at",
  "code_snippet",
  "tags",
  "properties",
  "references",
  "actionable",
};

static void
csv_str (struct ash_buf *b, const char *s)
{
  if (s)
    ash_report_csv_field (b, s);
}

static void
csv_line (struct ash_buf *b, int n)
{
  if (n > 0)
    ash_buf_addf (b, "%d", n);
}

static void
csv_bool (struct ash_buf *b, bool v)
{
  ash_buf_addstr (b, v ? "True" : "False");
}

void
ash_report_csv_write (const json_t *agg, struct ash_out *o)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct flat_walk fw;
  const json_t *res;

  flat_walk_init (&fw, agg);
  for (size_t c = 0; c < ARRAY_SIZE (csv_columns); c++)
    ash_buf_addf (&b, "%s%s", c ? "," : "", csv_columns[c]);
  ash_buf_addch (&b, '\n');
  ash_out_add (o, b.buf, b.len);
  /* A row at a time, its fields in the order of csv_columns; a null is
     an empty field.  */
  while ((res = ash_report_walk_result (&fw.w, NULL)))
    {
      struct flat_row r;
      flat_row_read (&fw, res, &r);
      ash_buf_reset (&b);
      csv_str (&b, r.id);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.title);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.description);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.severity);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.scanner);
      ash_buf_addch (&b, ',');
      csv_str (&b, "UNKNOWN");
      ash_buf_addch (&b, ',');
      csv_str (&b, r.rule_id);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.file_path);
      ash_buf_addch (&b, ',');
      csv_line (&b, r.line_start);
      ash_buf_addch (&b, ',');
      csv_line (&b, r.line_end);
      /* cve_id, cwe_id, fix_available: null.  */
      ash_buf_addstr (&b, ",,,,");
      csv_bool (&b, r.is_suppressed);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.suppression_kind);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.suppression_justification);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.detected_at);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.code_snippet);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.tags);
      ash_buf_addch (&b, ',');
      csv_str (&b, r.properties);
      /* references: null.  */
      ash_buf_addstr (&b, ",,");
      csv_bool (&b, r.actionable);
      ash_buf_addch (&b, '\n');
      ash_out_add (o, b.buf, b.len);
      flat_row_release (&r);
    }
  ash_buf_release (&b);
}

char *
ash_report_csv (const json_t *agg)
{
  struct ash_out o = ASH_OUT_MEMORY_INIT;
  ash_report_csv_write (agg, &o);
  return ash_buf_detach (&o.b);
}
