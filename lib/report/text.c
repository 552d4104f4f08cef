/* SPDX-License-Identifier: Apache-2.0 */
/* text.c -- the terminal summary table, ash.summary.txt and
   ash.summary.md.  */

#include <config.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/strvec.h"
#include "base/util.h"
#include "report/reports.h"
#include "scan/sarif.h"

/* Every string in these reports comes from the aggregated results, which
   hold what scanners and the repository wrote: each is shown with its
   control characters as text (T), and in Markdown with its punctuation
   escaped too (md_escape).  POOL keeps T's strings until the report is
   done.  */
static struct ash_strvec pool = ASH_STRVEC_INIT;

static const char *
T (const char *s)
{
  char *e = ash_escape_control (s);
  ash_strvec_push_nodup (&pool, e);
  return e;
}

static long long
num (const json_t *o, const char *k)
{
  return (long long) json_integer_value (json_object_get (o, k));
}

static const char *
raw (const json_t *o, const char *k)
{
  const char *s = json_string_value (json_object_get (o, k));
  return s ? s : "";
}

static const char *
str (const json_t *o, const char *k)
{
  return T (raw (o, k));
}

#define md_escape ash_report_md_escape

static const char *
reason_of (const json_t *sr)
{
  const char *r = json_string_value (json_object_get (sr, "missing_reason"));
  if (r == NULL)
    r = json_string_value (json_object_get (sr, "error_reason"));
  if (r == NULL)
    r = json_string_value (json_object_get (sr, "skipped_reason"));
  return r;
}

/* Whether the terminal summary is coloured (ash_report_summary_color).  */
static bool summary_color;

void
ash_report_summary_color (bool on)
{
  summary_color = on;
}

/* The SGR colour of a scanner status, or NULL.  */
static const char *
status_color (const char *st)
{
  return streq (st, "PASSED")    ? "32"
         : streq (st, "FAILED")  ? "31"
         : streq (st, "ERROR")   ? "1;31"
         : streq (st, "MISSING") ? "33"
         : streq (st, "SKIPPED") ? "2"
                                 : NULL;
}

/* Append TEXT padded to WIDTH (left-aligned when LEFT), in the colour
   SGR when COLOR and SGR are set: the padding stays outside the codes,
   so that the columns line up.  */
static void
cell (struct ash_buf *b, const char *text, int width, bool left,
      const char *sgr, bool color)
{
  int pad = width - (int) strlen (text);
  if (!left)
    for (int i = 0; i < pad; i++)
      ash_buf_addch (b, ' ');
  if (color && sgr)
    ash_buf_addf (b, "\033[%sm%s\033[0m", sgr, text);
  else
    ash_buf_addstr (b, text);
  if (left)
    for (int i = 0; i < pad; i++)
      ash_buf_addch (b, ' ');
}

static void
table (struct ash_buf *b, const json_t *agg, bool markdown, bool color)
{
  const json_t *scanners = json_object_get (agg, "scanner_results");
  const char *name;
  json_t *sr;
  static const char *const sevs[]
    = { "critical", "high", "medium", "low", "info" };

  if (markdown)
    ash_buf_addstr (b, "| Scanner | Status | Critical | High | Medium | "
                       "Low | Info | Suppressed | Actionable | Time |\n"
                       "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  else
    ash_buf_addf (b, "%-16s %-8s %8s %5s %6s %5s %5s %10s %10s %8s\n",
                  "Scanner", "Status", "Critical", "High", "Medium", "Low",
                  "Info", "Suppressed", "Actionable", "Time");
  json_object_foreach ((json_t *) scanners, name, sr)
    {
      const json_t *c = json_object_get (sr, "severity_counts");
      double t = json_number_value (json_object_get (sr, "duration"));
      if (markdown)
        {
          ash_buf_addstr (b, "| ");
          md_escape (b, name);
          ash_buf_addstr (b, " | ");
          md_escape (b, raw (sr, "status"));
          for (size_t i = 0; i < ARRAY_SIZE (sevs); i++)
            ash_buf_addf (b, " | %lld", num (c, sevs[i]));
          ash_buf_addf (b, " | %lld | %lld | %.1fs |\n", num (c, "suppressed"),
                        num (sr, "actionable_count"), t);
        }
      else
        {
          /* The severities' colours, for a count that is not zero.  */
          static const char *const sev_sgr[]
            = { "1;31", "31", "33", "34", "2" };
          static const int widths[] = { 8, 5, 6, 5, 5 };
          ash_buf_addf (b, "%-16s ", T (name));
          cell (b, str (sr, "status"), 8, true,
                status_color (raw (sr, "status")), color);
          for (size_t i = 0; i < ARRAY_SIZE (sevs); i++)
            {
              char n[32];
              snprintf (n, sizeof n, "%lld", num (c, sevs[i]));
              ash_buf_addch (b, ' ');
              cell (b, n, widths[i], false, sev_sgr[i],
                    color && num (c, sevs[i]) > 0);
            }
          ash_buf_addf (b, " %10lld %10lld %7.1fs\n", num (c, "suppressed"),
                        num (sr, "actionable_count"), t);
        }
    }
  bool any = false;
  json_object_foreach ((json_t *) scanners, name, sr)
    {
      const char *st = raw (sr, "status");
      const char *why = reason_of (sr);
      if (why == NULL || !(streq (st, "MISSING") || streq (st, "ERROR")))
        continue;
      if (!any)
        ash_buf_addstr (b, markdown ? "\n**Scanners that did not run "
                                      "or failed:**\n\n"
                                    : "\n");
      any = true;
      if (markdown)
        {
          ash_buf_addstr (b, "- ");
          md_escape (b, name);
          ash_buf_addf (b, " %s: ", st);
          md_escape (b, why);
          ash_buf_addch (b, '\n');
        }
      else
        {
          ash_buf_addf (b, "%s ", T (name));
          cell (b, st, 0, true, status_color (st), color);
          ash_buf_addf (b, ": %s\n", T (why));
        }
    }
}

static void
totals (struct ash_buf *b, const json_t *agg)
{
  const json_t *meta = json_object_get (agg, "metadata");
  const json_t *s = json_object_get (meta, "summary_stats");
  ash_buf_addf (b,
                "%lld findings (%lld actionable at severity %s or above, "
                "%lld suppressed); %lld scanners passed, %lld failed, "
                "%lld missing, %lld error, %lld skipped\n",
                num (s, "total"), num (s, "actionable"),
                str (s, "severity_threshold"), num (s, "suppressed"),
                num (s, "passed"), num (s, "failed"), num (s, "missing"),
                num (s, "error"), num (s, "skipped"));
}

char *
ash_report_summary_table (const json_t *agg, const char *reports_dir)
{
  struct ash_buf b = ASH_BUF_INIT;
  table (&b, agg, false, summary_color);
  ash_buf_addch (&b, '\n');
  totals (&b, agg);
  if (reports_dir)
    ash_buf_addf (&b, "Reports: %s\n", T (reports_dir));
  ash_strvec_release (&pool);
  return ash_buf_detach (&b);
}

void
ash_summary_opts_read (const json_t *options, struct ash_summary_opts *ret)
{
  json_t *v;
  ret->include_summary
    = !json_is_false (json_object_get (options, "include_summary"));
  json_t *d = json_object_get (options, "include_detailed_findings");
  json_t *t = json_object_get (options, "include_findings_table");
  ret->include_findings = !(json_is_false (d) && !json_is_true (t));
  v = json_object_get (options, "max_detailed_findings");
  ret->max_findings = json_is_integer (v) ? json_integer_value (v) : -1;
  v = json_object_get (options, "top_hotspots_limit");
  ret->hotspots = json_is_integer (v) ? json_integer_value (v) : 0;
  ret->collapsible
    = json_is_true (json_object_get (options, "use_collapsible_details"));
  ret->compact = json_is_true (json_object_get (options, "compact"));
}

static int
cmp_hotspot (const void *a, const void *b)
{
  const json_t *x = *(json_t *const *) a, *y = *(json_t *const *) b;
  json_int_t nx = json_integer_value (json_array_get (x, 1));
  json_int_t ny = json_integer_value (json_array_get (y, 1));
  if (nx != ny)
    return nx > ny ? -1 : 1;
  return strcmp (json_string_value (json_array_get (x, 0)),
                 json_string_value (json_array_get (y, 0)));
}

/* The files with the most unsuppressed findings of LIST, at most LIMIT:
   a new array of [path, count].  */
static json_t *
hotspots (const struct ash_report_flat_list *list, long long limit)
{
  json_t *counts = json_object ();
  for (size_t i = 0; i < list->n; i++)
    {
      const struct ash_report_flat *f = &list->v[i];
      if (*f->file_path == '\0' || f->suppressed)
        continue;
      json_t *c = json_object_get (counts, f->file_path);
      json_object_set_new (counts, f->file_path,
                           json_integer (json_integer_value (c) + 1));
    }
  size_t n = json_object_size (counts);
  json_t **v = xcalloc (n + 1, sizeof *v);
  const char *k;
  json_t *c;
  size_t m = 0;
  json_object_foreach (counts, k, c)
    v[m++] = json_pack ("[s, I]", k, json_integer_value (c));
  qsort (v, m, sizeof *v, cmp_hotspot);
  json_t *out = json_array ();
  for (size_t j = 0; j < m; j++)
    {
      if ((long long) j < limit)
        json_array_append (out, v[j]);
      json_decref (v[j]);
    }
  free (v);
  json_decref (counts);
  return out;
}

/* What B holds written to OUT, B emptied and T's strings freed: the
   reports are written a finding at a time, never held whole.  */
static void
put (struct ash_buf *b, struct ash_out *out)
{
  ash_out_add (out, b->buf, b->len);
  ash_buf_reset (b);
  ash_strvec_release (&pool);
}

char *
ash_report_text (const json_t *agg)
{
  struct ash_summary_opts o;
  ash_summary_opts_read (NULL, &o);
  return ash_report_text_opts (agg, &o);
}

void
ash_report_text_write (const json_t *agg, const struct ash_summary_opts *o,
                       struct ash_out *out)
{
  struct ash_buf b = ASH_BUF_INIT;
  const json_t *meta = json_object_get (agg, "metadata");

  ash_buf_addf (&b,
                "ASH scan report\nProject: %s\nSource: %s\n"
                "Generated: %s\nash %s, sandbox %s\n\n",
                str (meta, "project_name"), str (meta, "source_dir"),
                str (meta, "generated_at"), str (meta, "tool_version"),
                str (meta, "sandbox_mode"));
  if (o->include_summary)
    {
      table (&b, agg, false, false);
      ash_buf_addch (&b, '\n');
    }
  totals (&b, agg);

  struct ash_report_flat_list list;
  ash_report_flat_list_get (agg, &list);
  size_t i;
  json_t *f;
  if (o->hotspots > 0)
    {
      json_t *h = hotspots (&list, o->hotspots);
      if (json_array_size (h) > 0)
        ash_buf_addstr (&b, "\nHotspots:\n");
      json_array_foreach (h, i, f)
        ash_buf_addf (&b, "%s: %lld\n",
                      T (json_string_value (json_array_get (f, 0))),
                      (long long) json_integer_value (json_array_get (f, 1)));
      json_decref (h);
    }
  if (o->include_findings && list.n > 0)
    ash_buf_addstr (&b, "\nFindings:\n");
  put (&b, out);
  for (i = 0; o->include_findings && i < list.n; i++)
    {
      const struct ash_report_flat *fl = &list.v[i];
      if (o->max_findings >= 0 && (long long) i >= o->max_findings)
        {
          ash_buf_addf (&b, "... and %zu more (max_detailed_findings)\n",
                        list.n - i);
          break;
        }
      ash_buf_addf (&b, "%s:%lld: [%s] %s %s: %s%s\n", T (fl->file_path),
                    (long long) fl->line_start, T (fl->scanner),
                    T (ash_severity_name (fl->severity)), T (fl->rule_id),
                    T (fl->message), fl->suppressed ? " (suppressed)" : "");
      put (&b, out);
    }
  put (&b, out);
  ash_report_flat_list_release (&list);
  ash_buf_release (&b);
}

char *
ash_report_text_opts (const json_t *agg, const struct ash_summary_opts *o)
{
  struct ash_out out = ASH_OUT_MEMORY_INIT;
  ash_report_text_write (agg, o, &out);
  return ash_buf_detach (&out.b);
}

/* S as Markdown text: control characters shown as text first, then
   every ASCII punctuation character backslash-escaped (CommonMark lets
   any be), so that nothing in S can open a link, an image, a code span,
   a table cell or an HTML tag.  */
void
ash_report_md_escape (struct ash_buf *b, const char *s)
{
  _cleanup_free_ char *e = ash_escape_control (s);
  const char *p = e;
  while (*p)
    {
      /* Runs of characters that need no backslash are copied whole.  */
      size_t n = strcspn (p, "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
      ash_buf_add (b, p, n);
      p += n;
      if (*p)
        {
          ash_buf_addch (b, '\\');
          ash_buf_addch (b, *p++);
        }
    }
}

char *
ash_report_markdown (const json_t *agg)
{
  struct ash_summary_opts o;
  ash_summary_opts_read (NULL, &o);
  return ash_report_markdown_opts (agg, &o);
}

void
ash_report_markdown_write (const json_t *agg, const struct ash_summary_opts *o,
                           struct ash_out *out)
{
  struct ash_buf b = ASH_BUF_INIT;
  const json_t *meta = json_object_get (agg, "metadata");

  ash_buf_addstr (&b, "# ASH Scan Report\n\n");
  if (!o->compact)
    {
      ash_buf_addstr (&b, "- **Project:** ");
      md_escape (&b, raw (meta, "project_name"));
      ash_buf_addstr (&b, "\n- **Generated:** ");
      md_escape (&b, raw (meta, "generated_at"));
      ash_buf_addstr (&b, "\n- **ash version:** ");
      md_escape (&b, raw (meta, "tool_version"));
      ash_buf_addstr (&b, "\n- **Sandbox:** ");
      md_escape (&b, raw (meta, "sandbox_mode"));
      ash_buf_addstr (&b, "\n\n");
    }
  ash_buf_addstr (&b, "## Summary\n\n");
  if (o->include_summary && !o->compact)
    {
      table (&b, agg, true, false);
      ash_buf_addch (&b, '\n');
    }
  totals (&b, agg);

  struct ash_report_flat_list list;
  ash_report_flat_list_get (agg, &list);
  size_t i;
  json_t *f;
  if (o->hotspots > 0)
    {
      json_t *h = hotspots (&list, o->hotspots);
      if (json_array_size (h) > 0)
        ash_buf_addstr (&b, "\n## Hotspots\n\n| File | Findings |\n"
                            "|---|---|\n");
      json_array_foreach (h, i, f)
        {
          ash_buf_addstr (&b, "| ");
          md_escape (&b, json_string_value (json_array_get (f, 0)));
          ash_buf_addf (&b, " | %lld |\n",
                        (long long) json_integer_value (
                          json_array_get (f, 1)));
        }
      json_decref (h);
    }
  bool any = o->include_findings && list.n > 0;
  if (any)
    ash_buf_addf (&b,
                  "\n%s## Findings\n\n| Severity | Scanner | Rule | "
                  "Location | Message |\n|---|---|---|---|---|\n",
                  o->collapsible ? "<details>\n<summary>Findings</summary>"
                                   "\n\n"
                                 : "");
  put (&b, out);
  for (i = 0; any && i < list.n; i++)
    {
      const struct ash_report_flat *fl = &list.v[i];
      if (o->max_findings >= 0 && (long long) i >= o->max_findings)
        {
          ash_buf_addf (&b,
                        "\n%zu more findings are not listed "
                        "(max\\_detailed\\_findings)\n",
                        list.n - i);
          break;
        }
      ash_buf_addstr (&b, "| ");
      md_escape (&b, ash_severity_name (fl->severity));
      ash_buf_addf (&b, "%s | ", fl->suppressed ? " (suppressed)" : "");
      md_escape (&b, fl->scanner);
      ash_buf_addstr (&b, " | ");
      md_escape (&b, fl->rule_id);
      ash_buf_addstr (&b, " | ");
      md_escape (&b, fl->file_path);
      ash_buf_addf (&b, ":%lld | ", (long long) fl->line_start);
      md_escape (&b, fl->message);
      ash_buf_addstr (&b, " |\n");
      put (&b, out);
    }
  if (any && o->collapsible)
    ash_buf_addstr (&b, "\n</details>\n");
  put (&b, out);
  ash_report_flat_list_release (&list);
  ash_buf_release (&b);
}

char *
ash_report_markdown_opts (const json_t *agg, const struct ash_summary_opts *o)
{
  struct ash_out out = ASH_OUT_MEMORY_INIT;
  ash_report_markdown_write (agg, o, &out);
  return ash_buf_detach (&out.b);
}
