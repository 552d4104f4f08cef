/* SPDX-License-Identifier: Apache-2.0 */
/* html.c -- ash.html and ash.junit.xml (both XML-escaped markup).  */

#include <config.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/util.h"
#include "report/reports.h"
#include "scan/sarif.h"

/* S as XML text or attribute value: control characters shown as text
   (escape.h; a line break stays one in the markup), then the markup
   characters as entities.  */
/* The bytes esc() cannot copy as they are: the markup characters and
   the control characters.  */
static const bool html_special[256] = {
  [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1,
  [0x06] = 1, [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1,
  [0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1,
  [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1,
  [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1,
  [0x1e] = 1, [0x1f] = 1, ['<'] = 1,  ['>'] = 1,  ['&'] = 1,  ['"'] = 1,
  ['\''] = 1,
};

static void
esc (struct ash_buf *b, const char *in)
{
  struct ash_buf shown = ASH_BUF_INIT;
  const char *l = in ? in : "";
  /* Most texts are one line: escaped in place, with no copy.  */
  if (!strchr (l, '\n'))
    ash_escape_control_add (&shown, l, true);
  else
    for (; *l;)
      {
        const char *nl = strchrnul (l, '\n');
        _cleanup_free_ char *line = xstrndup (l, (size_t) (nl - l));
        ash_escape_control_add (&shown, line, true);
        if (!*nl)
          break;
        ash_buf_addch (&shown, '\n');
        l = nl + 1;
      }
  for (const char *s = shown.buf ? shown.buf : ""; *s; s++)
    {
      /* A run that needs no entity is copied whole.  */
      const char *r = s;
      while (!html_special[(unsigned char) *s])
        s++;
      if (s > r)
        ash_buf_add (b, r, (size_t) (s - r));
      if (*s == '\0')
        break;
      switch (*s)
        {
        case '<':
          ash_buf_addstr (b, "&lt;");
          break;
        case '>':
          ash_buf_addstr (b, "&gt;");
          break;
        case '&':
          ash_buf_addstr (b, "&amp;");
          break;
        case '"':
          ash_buf_addstr (b, "&quot;");
          break;
        case '\'':
          ash_buf_addstr (b, "&#39;");
          break;
        default:
          /* Control characters are not allowed in XML 1.0.  */
          if ((unsigned char) *s < 0x20 && *s != '\n' && *s != '\t')
            ash_buf_addch (b, ' ');
          else
            ash_buf_addch (b, *s);
        }
    }
  ash_buf_release (&shown);
}

static const char *
str (const json_t *o, const char *k)
{
  const char *s = json_string_value (json_object_get (o, k));
  return s ? s : "";
}

/* What B holds written to OUT, B emptied: the reports are written a
   finding at a time, never held whole.  */
static void
put (struct ash_buf *b, struct ash_out *out)
{
  ash_out_add (out, b->buf, b->len);
  ash_buf_reset (b);
}

void
ash_report_html_write (const json_t *agg, struct ash_out *out)
{
  struct ash_buf b = ASH_BUF_INIT;
  const json_t *meta = json_object_get (agg, "metadata");
  const char *name;
  json_t *sr;

  ash_buf_addstr (&b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                      "<meta charset=\"utf-8\"><title>ASH Scan Report"
                      "</title><style>body{font-family:sans-serif}"
                      "table{border-collapse:collapse}td,th{border:1px "
                      "solid #999;padding:2px 6px}</style></head><body>\n"
                      "<h1>ASH Scan Report</h1>\n<p>Project: ");
  esc (&b, str (meta, "project_name"));
  ash_buf_addstr (&b, "<br>Generated: ");
  esc (&b, str (meta, "generated_at"));
  ash_buf_addstr (&b, "<br>Sandbox: ");
  esc (&b, str (meta, "sandbox_mode"));
  ash_buf_addstr (&b, "</p>\n<h2>Scanners</h2>\n<table><tr><th>Scanner</th>"
                      "<th>Status</th><th>Findings</th><th>Actionable</th>"
                      "<th>Suppressed</th><th>Reason</th></tr>\n");
  json_object_foreach (json_object_get (agg, "scanner_results"), name, sr)
    {
      const char *why
        = json_string_value (json_object_get (sr, "missing_reason"));
      if (why == NULL)
        why = json_string_value (json_object_get (sr, "error_reason"));
      ash_buf_addstr (&b, "<tr><td>");
      esc (&b, name);
      ash_buf_addstr (&b, "</td><td>");
      esc (&b, str (sr, "status"));
      ash_buf_addf (&b, "</td><td>%lld</td><td>%lld</td><td>%lld</td><td>",
                    (long long) json_integer_value (
                      json_object_get (sr, "finding_count")),
                    (long long) json_integer_value (
                      json_object_get (sr, "actionable_count")),
                    (long long) json_integer_value (
                      json_object_get (sr, "suppressed_count")));
      esc (&b, why);
      ash_buf_addstr (&b, "</td></tr>\n");
    }
  ash_buf_addstr (&b, "</table>\n<h2>Findings</h2>\n<table><tr>"
                      "<th>Severity</th><th>Scanner</th><th>Rule</th>"
                      "<th>Location</th><th>Message</th></tr>\n");
  struct ash_report_flat_list list;
  ash_report_flat_list_get (agg, &list);
  for (size_t i = 0; i < list.n; i++)
    {
      const struct ash_report_flat *f = &list.v[i];
      ash_buf_addstr (&b, "<tr><td>");
      esc (&b, ash_severity_name (f->severity));
      if (f->suppressed)
        ash_buf_addstr (&b, " (suppressed)");
      ash_buf_addstr (&b, "</td><td>");
      esc (&b, f->scanner);
      ash_buf_addstr (&b, "</td><td>");
      esc (&b, f->rule_id);
      ash_buf_addstr (&b, "</td><td>");
      esc (&b, f->file_path);
      ash_buf_addf (&b, ":%lld</td><td>", (long long) f->line_start);
      esc (&b, f->message);
      ash_buf_addstr (&b, "</td></tr>\n");
      put (&b, out);
    }
  ash_report_flat_list_release (&list);
  ash_buf_addstr (&b, "</table>\n</body></html>\n");
  put (&b, out);
  ash_buf_release (&b);
}

char *
ash_report_html (const json_t *agg)
{
  struct ash_out out = ASH_OUT_MEMORY_INIT;
  ash_report_html_write (agg, &out);
  return ash_buf_detach (&out.b);
}

void
ash_report_junit_write (const json_t *agg, struct ash_out *out)
{
  struct ash_buf b = ASH_BUF_INIT;
  const char *name;
  json_t *sr;
  struct ash_report_flat_list list;
  ash_report_flat_list_get (agg, &list);

  /* Each scanner's actionable findings, in their order, found in one
     pass over the list: SLOTS maps a scanner to its entry of BY.  */
  json_t *slots = json_object ();
  struct
  {
    size_t *v, n, a;
  } *by = NULL;
  size_t nby = 0;
  for (size_t i = 0; i < list.n; i++)
    {
      if (!list.v[i].actionable)
        continue;
      const char *sc = list.v[i].scanner;
      json_t *slot = json_object_get (slots, sc);
      if (slot == NULL)
        {
          by = xreallocarray (by, nby + 1, sizeof *by);
          by[nby].v = NULL;
          by[nby].n = by[nby].a = 0;
          slot = json_integer ((json_int_t) nby++);
          json_object_set_new (slots, sc, slot);
        }
      size_t k = (size_t) json_integer_value (slot);
      if (by[k].n == by[k].a)
        {
          by[k].a = by[k].a ? 2 * by[k].a : 16;
          by[k].v = xreallocarray (by[k].v, by[k].a, sizeof *by[k].v);
        }
      by[k].v[by[k].n++] = i;
    }

  ash_buf_addstr (&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"ASH\">\n");
  json_object_foreach (json_object_get (agg, "scanner_results"), name, sr)
    {
      const char *st = str (sr, "status");
      json_t *slot = json_object_get (slots, name);
      size_t k = slot ? (size_t) json_integer_value (slot) : 0;
      long long failures = slot ? (long long) by[k].n : 0;
      bool err = streq (st, "ERROR") || streq (st, "MISSING");
      ash_buf_addstr (&b, "  <testsuite name=\"");
      esc (&b, name);
      ash_buf_addf (&b,
                    "\" tests=\"%lld\" failures=\"%lld\" errors=\"%d\" "
                    "skipped=\"%d\" time=\"%.3f\">\n",
                    failures + 1, failures, err ? 1 : 0,
                    streq (st, "SKIPPED") ? 1 : 0,
                    json_number_value (json_object_get (sr, "duration")));
      ash_buf_addstr (&b, "    <testcase classname=\"");
      esc (&b, name);
      ash_buf_addstr (&b, "\" name=\"scanner completed\">");
      if (err)
        {
          const char *why
            = json_string_value (json_object_get (sr, "missing_reason"));
          if (why == NULL)
            why = str (sr, "error_reason");
          ash_buf_addstr (&b, "<error type=\"");
          esc (&b, st);
          ash_buf_addstr (&b, "\" message=\"");
          esc (&b, why);
          ash_buf_addstr (&b, "\"/>");
        }
      else if (streq (st, "SKIPPED"))
        ash_buf_addstr (&b, "<skipped/>");
      ash_buf_addstr (&b, "</testcase>\n");
      for (size_t x = 0; slot && x < by[k].n; x++)
        {
          const struct ash_report_flat *f = &list.v[by[k].v[x]];
          ash_buf_addstr (&b, "    <testcase classname=\"");
          esc (&b, name);
          ash_buf_addstr (&b, "\" name=\"");
          esc (&b, f->rule_id);
          ash_buf_addch (&b, ' ');
          esc (&b, f->file_path);
          ash_buf_addf (&b, ":%lld\"><failure type=\"",
                        (long long) f->line_start);
          esc (&b, ash_severity_name (f->severity));
          ash_buf_addstr (&b, "\" message=\"");
          esc (&b, f->message);
          ash_buf_addstr (&b, "\"/></testcase>\n");
          put (&b, out);
        }
      ash_buf_addstr (&b, "  </testsuite>\n");
      put (&b, out);
    }
  ash_buf_addstr (&b, "</testsuites>\n");
  put (&b, out);
  for (size_t k = 0; k < nby; k++)
    free (by[k].v);
  free (by);
  json_decref (slots);
  ash_report_flat_list_release (&list);
  ash_buf_release (&b);
}

char *
ash_report_junit (const json_t *agg)
{
  struct ash_out out = ASH_OUT_MEMORY_INIT;
  ash_report_junit_write (agg, &out);
  return ash_buf_detach (&out.b);
}

/* Adapters of the document builders that take no options.  */
static json_t *
flat_json_doc (const json_t *agg, const json_t *options,
               struct ash_json_gen *gen)
{
  (void) options;
  return ash_report_flat_json_doc (agg, gen);
}

static json_t *
cyclonedx_doc (const json_t *agg, const json_t *options,
               struct ash_json_gen *gen)
{
  (void) options;
  return ash_report_cyclonedx_doc (agg, gen);
}

static json_t *
ocsf_doc (const json_t *agg, const json_t *options, struct ash_json_gen *gen)
{
  (void) options;
  return ash_report_ocsf_doc (agg, gen);
}

static void
csv_write (const json_t *agg, const json_t *options, struct ash_out *o)
{
  (void) options;
  ash_report_csv_write (agg, o);
}

static void
html_write (const json_t *agg, const json_t *options, struct ash_out *o)
{
  (void) options;
  ash_report_html_write (agg, o);
}

static void
junit_write (const json_t *agg, const json_t *options, struct ash_out *o)
{
  (void) options;
  ash_report_junit_write (agg, o);
}

static void
markdown_write (const json_t *agg, const json_t *options, struct ash_out *o)
{
  struct ash_summary_opts so;
  ash_summary_opts_read (options, &so);
  ash_report_markdown_write (agg, &so, o);
}

static void
text_write (const json_t *agg, const json_t *options, struct ash_out *o)
{
  struct ash_summary_opts so;
  ash_summary_opts_read (options, &so);
  ash_report_text_write (agg, &so, o);
}

const struct ash_report_format ash_report_formats[] = {
  { "sarif", "ash.sarif", ash_report_sarif, NULL, NULL },
  { "markdown", "ash.summary.md", ash_report_markdown, NULL, NULL,
    markdown_write },
  { "text", "ash.summary.txt", ash_report_text, NULL, NULL, text_write },
  { "flat-json", "ash.flat.json", ash_report_flat_json, NULL, flat_json_doc },
  { "html", "ash.html", ash_report_html, NULL, NULL, html_write },
  { "junitxml", "ash.junit.xml", ash_report_junit, NULL, NULL, junit_write },
  { "csv", "ash.csv", ash_report_csv, NULL, NULL, csv_write },
  { "cyclonedx", "ash.cdx.json", ash_report_cyclonedx, NULL, cyclonedx_doc },
  { "gitlab-sast", "ash.gl-sast-report.json", NULL, ash_report_gitlab_sast,
    ash_report_gitlab_sast_doc },
  { "github-ghas", "ash.ghas.sarif", NULL, ash_report_ghas,
    ash_report_ghas_doc },
  { "ocsf", "ash.ocsf.json", ash_report_ocsf, NULL, ocsf_doc },
  { "yaml", "ash.yaml", ash_report_yaml, NULL, NULL },
  { "spdx", "ash.spdx.json", ash_report_spdx, NULL, NULL },
  { "gitlab-cyclonedx", "ash.gl-dependency-scanning-report.cdx.json", NULL,
    ash_report_gitlab_cyclonedx, NULL },
  { "unused-suppressions", "ash.unused-suppressions.json", NULL,
    ash_report_unused_suppressions, NULL },
  { NULL, NULL, NULL, NULL, NULL },
};
