/* SPDX-License-Identifier: Apache-2.0 */
/* results.c -- per-scanner results, the aggregated document, the exit
   code.  */

#include <config.h>

#include "base/escape.h"
#include "scan/results.h"
#include "scan/packed.h"

#include "base/util.h"
#include "scan/exit-codes.h"

static const char *const status_names[] = {
  [ASH_STATUS_PASSED] = "PASSED",   [ASH_STATUS_FAILED] = "FAILED",
  [ASH_STATUS_ERROR] = "ERROR",     [ASH_STATUS_MISSING] = "MISSING",
  [ASH_STATUS_SKIPPED] = "SKIPPED",
};

const char *
ash_scanner_status_name (enum ash_scanner_status s)
{
  if ((unsigned) s >= ARRAY_SIZE (status_names))
    return "ERROR";
  return status_names[s];
}

void
ash_scanner_result_init (struct ash_scanner_result *r, const char *name)
{
  memset (r, 0, sizeof *r);
  r->name = xstrdup (name);
  r->exit_code = -1;
  r->status = ASH_STATUS_SKIPPED;
}

/* S (NULL: "") as a JSON string.  A JSON string holds UTF-8 only, and
   a path, a scanner's message or an in-tree project name need not be:
   such a value is kept with its bytes shown as text (escape.h), never
   dropped and never the end of the document.  */
static json_t *
text_json (const char *s)
{
  json_t *j = json_string (s ? s : "");
  if (j == NULL)
    {
      _cleanup_free_ char *shown = ash_escape_control (s);
      j = json_string (shown);
    }
  if (j == NULL)
    ash_oom ();
  return j;
}

void
ash_scanner_result_release (struct ash_scanner_result *r)
{
  free (r->name);
  free (r->reason);
  free (r->tool_path);
  json_decref (r->sarif);
  json_decref (r->sandbox);
  memset (r, 0, sizeof *r);
}

void
ash_scanner_result_count (struct ash_scanner_result *r,
                          enum ash_severity threshold)
{
  size_t i;
  json_t *run, *res;

  memset (r->severity_counts, 0, sizeof r->severity_counts);
  r->suppressed_count = r->finding_count = r->actionable_count = 0;
  json_array_foreach (json_object_get (r->sarif, "runs"), i, run)
    {
      json_t *results = json_object_get (run, "results");
      /* A packed run's results (packed.h) kept what this reads.  */
      const struct ash_packed *p = ash_packed_of (results);
      size_t np = ash_packed_count (p);
      for (size_t k = 0; k < np + json_array_size (results); k++)
        {
          res = k < np ? NULL : json_array_get (results, k - np);
          r->finding_count++;
          if (res ? ash_sarif_result_is_suppressed (res)
                  : ash_packed_suppressed (p, k))
            {
              r->suppressed_count++;
              continue;
            }
          enum ash_severity s
            = res ? ash_sarif_result_severity (res)
                  : (enum ash_severity) ash_packed_severity (p, k);
          r->severity_counts[s]++;
          if (s >= threshold)
            r->actionable_count++;
        }
    }
  r->status = r->actionable_count > 0 ? ASH_STATUS_FAILED : ASH_STATUS_PASSED;
}

static json_t *
counts_json (const unsigned c[ASH_SEVERITY_COUNT], unsigned suppressed)
{
  return json_pack ("{s:I, s:I, s:I, s:I, s:I, s:I}", "critical",
                    (json_int_t) c[ASH_SEVERITY_CRITICAL], "high",
                    (json_int_t) c[ASH_SEVERITY_HIGH], "medium",
                    (json_int_t) c[ASH_SEVERITY_MEDIUM], "low",
                    (json_int_t) c[ASH_SEVERITY_LOW], "info",
                    (json_int_t) c[ASH_SEVERITY_INFO], "suppressed",
                    (json_int_t) suppressed);
}

static bool
incomplete (const struct ash_scanner_result *r)
{
  return r->status == ASH_STATUS_MISSING || r->status == ASH_STATUS_ERROR;
}

json_t *
ash_results_aggregate (const struct ash_scan_summary *sum,
                       struct ash_scanner_result *const *results, size_t n)
{
  json_t *scanners = json_object ();
  json_t *merged = ash_sarif_doc_new ();
  unsigned total[ASH_SEVERITY_COUNT] = { 0 };
  unsigned suppressed = 0, findings = 0, actionable = 0;
  unsigned by_status[ARRAY_SIZE (status_names)] = { 0 };
  double duration = 0;

  for (size_t i = 0; i < n; i++)
    {
      const struct ash_scanner_result *r = results[i];
      json_t *o
        = json_pack ("{s:s, s:b, s:b, s:o, s:I, s:I, s:I, s:i, s:f}", "status",
                     ash_scanner_status_name (r->status),
                     "dependencies_satisfied", r->dependencies_satisfied,
                     "excluded", r->excluded, "severity_counts",
                     counts_json (r->severity_counts, r->suppressed_count),
                     "finding_count", (json_int_t) r->finding_count,
                     "actionable_count", (json_int_t) r->actionable_count,
                     "suppressed_count", (json_int_t) r->suppressed_count,
                     "exit_code", r->exit_code, "duration", r->duration);
      if (o == NULL)
        ash_oom ();
      if (r->reason && r->status == ASH_STATUS_MISSING)
        json_object_set_new (o, "missing_reason", text_json (r->reason));
      else if (r->reason && r->status == ASH_STATUS_ERROR)
        json_object_set_new (o, "error_reason", text_json (r->reason));
      else if (r->reason && r->status == ASH_STATUS_SKIPPED)
        json_object_set_new (o, "skipped_reason", text_json (r->reason));
      if (r->tool_path)
        json_object_set_new (o, "tool_path", text_json (r->tool_path));
      json_object_set_new (o, "sandbox",
                           r->sandbox ? json_incref (r->sandbox)
                                      : json_null ());
      json_object_set_new (scanners, r->name, o);

      if (r->sarif)
        ash_sarif_merge (merged, r->sarif);
      for (int s = 0; s < ASH_SEVERITY_COUNT; s++)
        total[s] += r->severity_counts[s];
      suppressed += r->suppressed_count;
      findings += r->finding_count;
      actionable += r->actionable_count;
      by_status[r->status]++;
      duration += r->duration;
    }

  json_t *stats = counts_json (total, suppressed);
  json_object_set_new (stats, "total", json_integer (findings));
  json_object_set_new (stats, "actionable", json_integer (actionable));
  json_object_set_new (stats, "passed",
                       json_integer (by_status[ASH_STATUS_PASSED]));
  json_object_set_new (stats, "failed",
                       json_integer (by_status[ASH_STATUS_FAILED]));
  json_object_set_new (stats, "missing",
                       json_integer (by_status[ASH_STATUS_MISSING]));
  json_object_set_new (stats, "skipped",
                       json_integer (by_status[ASH_STATUS_SKIPPED]));
  json_object_set_new (stats, "error",
                       json_integer (by_status[ASH_STATUS_ERROR]));
  json_object_set_new (stats, "duration", json_real (duration));
  /* Upstream's start and end of the scan.  */
  json_object_set_new (stats, "start", json_string (sum->generated_at));
  json_object_set_new (stats, "end",
                       json_string (sum->ended_at ? sum->ended_at
                                                  : sum->generated_at));
  json_object_set_new (stats, "severity_threshold",
                       json_string (ash_severity_name (sum->threshold)));

  int code = ash_results_exit_code (results, n, sum->fail_on_findings,
                                    sum->fail_on_incomplete);
  if (sum->converters_incomplete && sum->fail_on_incomplete)
    code = ASH_EXIT_INCOMPLETE;
  json_t *meta = json_pack (
    "{s:s, s:s, s:o, s:s, s:s, s:o, s:o, s:s, s:o, s:i, s:b}", "report_id",
    sum->generated_at, "generated_at", sum->generated_at, "project_name",
    text_json (sum->project_name), "tool_name", "ash", "tool_version",
    PACKAGE_VERSION, "source_dir", text_json (sum->source_dir), "output_dir",
    text_json (sum->output_dir), "sandbox_mode",
    sum->sandbox_mode ? sum->sandbox_mode : "off", "summary_stats", stats,
    "exit_code", code, "interrupted", sum->interrupted);
  if (meta == NULL)
    ash_oom ();

  json_t *conv = sum->converter_results
                   ? json_deep_copy (sum->converter_results)
                   : json_object ();
  json_t *doc
    = json_pack ("{s:s, s:s, s:o, s:o, s:o, s:o, s:{}}", "name",
                 "ASH Scan Report", "description",
                 "Automated Security Helper - aggregated results", "metadata",
                 meta, "scanner_results", scanners, "sarif", merged,
                 "converter_results", conv, "additional_reports");
  if (doc == NULL)
    ash_oom ();
  return doc;
}

int
ash_results_exit_code (struct ash_scanner_result *const *results, size_t n,
                       bool fail_on_findings, bool fail_on_incomplete)
{
  bool inc = false, act = false;
  for (size_t i = 0; i < n; i++)
    {
      inc |= incomplete (results[i]);
      act |= results[i]->actionable_count > 0;
    }
  if (inc && fail_on_incomplete)
    return ASH_EXIT_INCOMPLETE;
  if (act && fail_on_findings)
    return ASH_EXIT_FINDINGS;
  return ASH_EXIT_OK;
}
