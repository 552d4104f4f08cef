/* SPDX-License-Identifier: Apache-2.0 */
/* flat.c -- the flat findings list the summaries use, and ash.flat.json
   and ash.csv in upstream's shape (its flat vulnerability fields).  */

#include <config.h>

#include "base/escape.h"
#include "base/buf.h"
#include "base/util.h"
#include "report/reports.h"
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

/* The list built for the document being reported on, between
   ash_report_findings_begin() and _end().  */
static const json_t *findings_agg;
static struct ash_report_flat *findings_v;
static size_t findings_n;

static struct ash_report_flat *build_findings (const json_t *agg,
                                               size_t *ret_n);

void
ash_report_findings_begin (const json_t *agg)
{
  ash_report_findings_end ();
  findings_v = build_findings (agg, &findings_n);
  findings_agg = agg;
}

void
ash_report_findings_end (void)
{
  free (findings_v);
  findings_v = NULL;
  findings_n = 0;
  findings_agg = NULL;
}

void
ash_report_flat_list_get (const json_t *agg, struct ash_report_flat_list *ret)
{
  if (agg == findings_agg && findings_agg)
    {
      *ret = (struct ash_report_flat_list){ findings_v, findings_n, NULL };
      return;
    }
  struct ash_report_flat *v = build_findings (agg, &ret->n);
  ret->v = v;
  ret->owned = v;
}

void
ash_report_flat_list_release (struct ash_report_flat_list *l)
{
  free (l->owned);
  *l = (struct ash_report_flat_list){ NULL, 0, NULL };
}

static struct ash_report_flat *
build_findings (const json_t *agg, size_t *ret_n)
{
  enum ash_severity threshold = threshold_of (agg);
  const json_t *runs
    = json_object_get (json_object_get (agg, "sarif"), "runs");
  size_t i, j, n = 0;
  json_t *run, *res;

  json_array_foreach (runs, i, run)
    n += json_array_size (json_object_get (run, "results"));
  /* One more, so that an empty list is not a NULL that reads as
     "none built".  */
  struct ash_report_flat *v = xcalloc (n + 1, sizeof *v);
  n = 0;
  json_array_foreach (runs, i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      {
        struct ash_report_flat *f = &v[n++];
        const char *path
          = ash_sarif_result_location (res, &f->line_start, &f->line_end);
        const char *rule = ash_sarif_result_rule (res);
        f->scanner = ash_report_result_scanner (res);
        f->rule_id = rule ? rule : "";
        f->file_path = path ? path : "";
        f->message = ash_report_result_message (res);
        f->severity = ash_sarif_result_severity (res);
        f->suppressed = ash_sarif_result_is_suppressed (res);
        f->actionable = !f->suppressed && f->severity >= threshold;
      }
  *ret_n = n;
  return v;
}

static char *
dump (json_t *v)
{
  char *s = json_dumps (v, JSON_INDENT (2) | JSON_ENSURE_ASCII);
  if (s == NULL)
    ash_oom ();
  char *r = xasprintf ("%s\n", s);
  free (s);
  return r;
}

char *
ash_report_sarif (const json_t *agg)
{
  return dump (json_object_get (agg, "sarif"));
}

/* KEY of the first suppression of RES, or NULL.  */
static const char *
suppression_field (const json_t *res, const char *key)
{
  return json_string_value (
    json_object_get (json_array_get (json_object_get (res, "suppressions"), 0),
                     key));
}

static json_t *
nullable_string (const char *s)
{
  return s ? json_string (s) : json_null ();
}

static json_t *
nullable_line (int n)
{
  return n > 0 ? json_integer (n) : json_null ();
}

struct flat_walk
{
  struct ash_report_walk w;
  enum ash_severity threshold;
  const char *when;
};

/* A finding as upstream's flat vulnerability (its FlatVulnerability
   fields, in its order), then ash's message, suppressed and
   actionable.  */
static json_t *
flat_item (struct ash_report_walk *w, const json_t *run, const json_t *res)
{
  struct flat_walk *fw = (struct flat_walk *) w;
  enum ash_severity threshold = fw->threshold;
  const char *when = fw->when;
  (void) run;
  {
    struct ash_report_finding fi;
    ash_report_finding_read (res, &fi);
    const char *path = fi.path, *rule = fi.rule, *scanner = fi.scanner;
    const char *msg = fi.message;
    int start = fi.start, end = fi.end, sev = fi.severity;
    bool sup = fi.suppressed;
    static const char *const upper[]
      = { "INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL" };
    _cleanup_free_ char *h
      = ash_report_finding_id (scanner, rule, path, start, end);
    _cleanup_free_ char *id
      = xasprintf ("%s-%s-%.8s", scanner, rule ? rule : "unknown", h);
    const json_t *props = json_object_get (res, "properties");
    json_t *tags = json_object_get (props, "tags");
    _cleanup_free_ char *tags_text
      = json_is_array (tags)
          ? json_dumps (tags, JSON_COMPACT | JSON_ENSURE_ASCII)
          : NULL;
    _cleanup_free_ char *props_text
      = json_is_object (props)
          ? json_dumps (props, JSON_COMPACT | JSON_ENSURE_ASCII)
          : NULL;
    const char *snippet = json_string_value (json_object_get (
      json_object_get (
        json_object_get (
          json_object_get (json_array_get (json_object_get (res, "locations"),
                                           0),
                           "physicalLocation"),
          "region"),
        "snippet"),
      "text"));
    json_t *f = json_object ();
    json_object_set_new (f, "id", json_string (id));
    json_object_set_new (f, "title",
                         json_string (rule ? rule : "Unknown Issue"));
    json_object_set_new (f, "description", json_string (msg));
    json_object_set_new (f, "severity", json_string (upper[sev]));
    json_object_set_new (f, "scanner", json_string (scanner));
    json_object_set_new (f, "scanner_type", json_string ("UNKNOWN"));
    json_object_set_new (f, "rule_id", nullable_string (rule));
    json_object_set_new (f, "file_path", nullable_string (path));
    json_object_set_new (f, "line_start", nullable_line (start));
    json_object_set_new (f, "line_end", nullable_line (end));
    json_object_set_new (f, "cve_id", json_null ());
    json_object_set_new (f, "cwe_id", json_null ());
    json_object_set_new (f, "fix_available", json_null ());
    json_object_set_new (f, "is_suppressed", json_boolean (sup));
    json_object_set_new (f, "suppression_kind",
                         nullable_string (sup ? suppression_field (res, "kind")
                                              : NULL));
    json_object_set_new (
      f, "suppression_justification",
      nullable_string (sup ? suppression_field (res, "justification") : NULL));
    json_object_set_new (f, "detected_at", nullable_string (when));
    json_object_set_new (f, "code_snippet", nullable_string (snippet));
    json_object_set_new (f, "tags", nullable_string (tags_text));
    json_object_set_new (f, "properties", nullable_string (props_text));
    json_object_set_new (f, "references", json_null ());
    json_object_set_new (f, "message", json_string (msg));
    json_object_set_new (f, "suppressed", json_boolean (sup));
    json_object_set_new (f, "actionable",
                         json_boolean (!sup && sev >= (int) threshold));
    return f;
  }
}

json_t *
ash_report_flat_json_doc (const json_t *agg, struct ash_json_gen *ret_gen)
{
  struct flat_walk *fw = xcalloc (1, sizeof *fw);
  fw->threshold = threshold_of (agg);
  fw->when = json_string_value (
    json_object_get (json_object_get (agg, "metadata"), "generated_at"));
  ash_report_walk_init (&fw->w, agg, flat_item);
  json_t *list = json_array ();
  *ret_gen = (struct ash_json_gen){ list, ash_report_walk_next, free, fw };
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
  for (; *s; s++)
    {
      if (*s == '"')
        ash_buf_addch (b, '"');
      ash_buf_addch (b, *s);
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

void
ash_report_csv_write (const json_t *agg, struct ash_out *o)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_json_gen g;
  json_t *list = ash_report_flat_json_doc (agg, &g);
  json_t *f;

  for (size_t c = 0; c < ARRAY_SIZE (csv_columns); c++)
    ash_buf_addf (&b, "%s%s", c ? "," : "", csv_columns[c]);
  ash_buf_addch (&b, '\n');
  ash_out_add (o, b.buf, b.len);
  /* A row at a time.  */
  while ((f = g.next (g.ctx)))
    {
      ash_buf_reset (&b);
      for (size_t c = 0; c < ARRAY_SIZE (csv_columns); c++)
        {
          json_t *v = json_object_get (f, csv_columns[c]);
          if (c)
            ash_buf_addch (&b, ',');
          if (json_is_string (v))
            ash_report_csv_field (&b, json_string_value (v));
          else if (json_is_integer (v))
            ash_buf_addf (&b, "%lld", (long long) json_integer_value (v));
          else if (json_is_boolean (v))
            ash_buf_addstr (&b, json_is_true (v) ? "True" : "False");
        }
      ash_buf_addch (&b, '\n');
      ash_out_add (o, b.buf, b.len);
      json_decref (f);
    }
  ash_buf_release (&b);
  json_decref (list);
  ash_json_gen_release (&g);
}

char *
ash_report_csv (const json_t *agg)
{
  struct ash_out o = ASH_OUT_MEMORY_INIT;
  ash_report_csv_write (agg, &o);
  return ash_buf_detach (&o.b);
}
