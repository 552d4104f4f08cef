/* SPDX-License-Identifier: Apache-2.0 */
/* flat.c -- the flat findings list: ash.flat.json and ash.csv.  */

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
  const char *s = json_string_value (json_object_get (
    json_object_get (json_object_get (agg, "metadata"), "summary_stats"),
    "severity_threshold"));
  if (s)
    ash_severity_parse (s, &t);
  return t;
}

/* The list built for the document being reported on, between
   ash_report_findings_begin() and _end().  */
static const json_t *findings_agg;
static json_t *findings_list;

static json_t *build_findings (const json_t *agg);

void
ash_report_findings_begin (const json_t *agg)
{
  ash_report_findings_end ();
  findings_list = build_findings (agg);
  findings_agg = agg;
}

void
ash_report_findings_end (void)
{
  json_decref (findings_list);
  findings_list = NULL;
  findings_agg = NULL;
}

json_t *
ash_report_flat_findings (const json_t *agg)
{
  if (agg == findings_agg && findings_list)
    return json_incref (findings_list);
  return build_findings (agg);
}

static json_t *
build_findings (const json_t *agg)
{
  json_t *list = json_array ();
  enum ash_severity threshold = threshold_of (agg);
  size_t i, j;
  json_t *run, *res;

  json_array_foreach (json_object_get (json_object_get (agg, "sarif"),
                                       "runs"),
                      i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      {
        int start, end;
        const char *path = ash_sarif_result_location (res, &start, &end);
        const char *rule = ash_sarif_result_rule (res);
        const char *scanner = json_string_value (json_object_get (
          json_object_get (res, "properties"), "scanner_name"));
        const char *msg = json_string_value (
          json_object_get (json_object_get (res, "message"), "text"));
        enum ash_severity sev = ash_sarif_result_severity (res);
        bool sup = ash_sarif_result_is_suppressed (res);
        json_t *f = json_pack (
          "{s:s, s:s, s:s, s:s, s:i, s:i, s:s, s:b, s:b}", "scanner",
          scanner ? scanner : "", "rule_id", rule ? rule : "", "severity",
          ash_severity_name (sev), "file_path", path ? path : "",
          "line_start", start, "line_end", end, "message", msg ? msg : "",
          "suppressed", sup, "actionable", !sup && sev >= threshold);
        if (f == NULL)
          ash_oom ();
        json_array_append_new (list, f);
      }
  return list;
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

char *
ash_report_flat_json (const json_t *agg)
{
  json_t *list = ash_report_flat_findings (agg);
  char *r = dump (list);
  json_decref (list);
  return r;
}

static void
csv_field (struct ash_buf *b, const char *in)
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

char *
ash_report_csv (const json_t *agg)
{
  struct ash_buf b = ASH_BUF_INIT;
  json_t *list = ash_report_flat_findings (agg);
  size_t i;
  json_t *f;

  ash_buf_addstr (&b, "scanner,rule_id,severity,file_path,line_start,"
                      "line_end,suppressed,actionable,message\n");
  json_array_foreach (list, i, f)
    {
      csv_field (&b, json_string_value (json_object_get (f, "scanner")));
      ash_buf_addch (&b, ',');
      csv_field (&b, json_string_value (json_object_get (f, "rule_id")));
      ash_buf_addch (&b, ',');
      csv_field (&b, json_string_value (json_object_get (f, "severity")));
      ash_buf_addch (&b, ',');
      csv_field (&b, json_string_value (json_object_get (f, "file_path")));
      ash_buf_addf (
        &b, ",%lld,%lld,%s,%s,",
        (long long) json_integer_value (json_object_get (f, "line_start")),
        (long long) json_integer_value (json_object_get (f, "line_end")),
        json_is_true (json_object_get (f, "suppressed")) ? "true" : "false",
        json_is_true (json_object_get (f, "actionable")) ? "true" : "false");
      csv_field (&b, json_string_value (json_object_get (f, "message")));
      ash_buf_addch (&b, '\n');
    }
  json_decref (list);
  return ash_buf_detach (&b);
}
