/* SPDX-License-Identifier: Apache-2.0 */
/* test-results.c -- counting, statuses, the aggregated document, exit
   codes and their precedence.  */

#include <config.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/util.h"
#include "config/options.h"
#include "fs/tree.h"
#include "report/reports.h"
#include "scan/exit-codes.h"
#include "scan/results.h"
#include "scan/sarif.h"
#include "tap.h"

static json_t *
doc_with (const char *const *levels, size_t n, size_t n_suppressed)
{
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("t", NULL, NULL);
  for (size_t i = 0; i < n; i++)
    {
      json_t *r = json_pack ("{s:s, s:s, s:{s:s}}", "ruleId", "R", "level",
                             levels[i], "message", "text", "m");
      if (i < n_suppressed)
        json_object_set_new (r, "suppressions",
                             json_pack ("[{s:s}]", "kind", "external"));
      json_array_append_new (json_object_get (run, "results"), r);
    }
  json_array_append_new (json_object_get (doc, "runs"), run);
  return doc;
}

static int
code_of (enum ash_scanner_status a, unsigned actionable_a,
         enum ash_scanner_status b, bool fof, bool foi)
{
  struct ash_scanner_result x, y;
  ash_scanner_result_init (&x, "x");
  ash_scanner_result_init (&y, "y");
  x.status = a;
  x.actionable_count = actionable_a;
  y.status = b;
  struct ash_scanner_result *v[] = { &x, &y };
  int c = ash_results_exit_code (v, 2, fof, foi);
  ash_scanner_result_release (&x);
  ash_scanner_result_release (&y);
  return c;
}

/* The files ash_report_outputs_write() leaves are byte for byte what
   each document dumped whole, and each report as its renderer alone
   renders it: the SARIF serialised once for two files, and the findings
   list built once for every report, change nothing.  */
static char *
slurp (int dfd, const char *rel)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  if (ash_tree_read_file (dfd, rel, 64 << 20, &b, &e) < 0)
    {
      ash_error_release (&e);
      ash_buf_release (&b);
      return NULL;
    }
  ash_buf_addch (&b, '\0');
  return ash_buf_detach (&b);
}

static void
check_outputs (const json_t *agg)
{
  char tmpl[] = "/tmp/ash-test-results.XXXXXX";
  if (!mkdtemp (tmpl))
    {
      tap_ok (false, "mkdtemp");
      return;
    }
  int dfd = open (tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct ash_options opts;
  struct ash_error e = ASH_ERROR_INIT;
  ash_options_init (&opts);
  json_t *before = json_deep_copy (agg);
  tap_is_int (ash_report_outputs_write (dfd, agg, &opts, NULL, &e), 0,
              "outputs written");
  tap_ok (json_equal (agg, before),
          "the aggregated document is left as it was");
  json_decref (before);
  char *got = slurp (dfd, "ash_aggregated_results.json");
  json_t *doc = got ? json_loads (got, JSON_REJECT_DUPLICATES, NULL) : NULL;
  free (got);
  tap_ok (doc != NULL, "ash_aggregated_results.json is a JSON document");
  const json_t *sb = json_object_get (
    json_object_get (json_object_get (doc, "scanner_results"), "s"),
    "sandbox");
  if (json_object_get (
        json_object_get (json_object_get (agg, "scanner_results"), "s"),
        "sandbox"))
    tap_ok (json_integer_value (json_object_get (sb, "dropped_count")) == 2
              && json_integer_value (json_object_get (sb, "skipped_count"))
                   == 1
              && !json_object_get (sb, "dropped")
              && !json_object_get (sb, "skipped"),
            "the file's sandbox record counts what the scanner was not "
            "given, and does not list it");
  /* The file is the document with upstream's fields added: every key of
     the document is there, and what no upstream field touches is equal.  */
  const char *k;
  json_t *v;
  bool all = doc != NULL;
  json_object_foreach ((json_t *) agg, k, v)
    all = all && json_object_get (doc, k) != NULL;
  tap_ok (all, "ash_aggregated_results.json holds every key of the document");
  tap_ok (doc
            && json_equal (json_object_get (doc, "sarif"),
                           json_object_get (agg, "sarif")),
          "ash_aggregated_results.json holds the merged SARIF as it is");
  /* Each report is as its renderer renders the aggregated results; one
     with nothing to say is not written.  */
  for (size_t i = 0; doc && ash_report_formats[i].name; i++)
    {
      const struct ash_report_format *f = &ash_report_formats[i];
      char *rel = xasprintf ("reports/%s", f->file);
      char *want = f->render ? f->render (doc) : f->render_opts (doc, NULL);
      got = slurp (dfd, rel);
      if (want == NULL)
        tap_ok (got == NULL, "%s has nothing to say and is not written", rel);
      else
        tap_ok (got && streq (got, want), "%s is as its renderer renders it",
                rel);
      free (want);
      free (got);
      free (rel);
    }
  json_decref (doc);
  ash_options_release (&opts);
  ash_error_release (&e);
  ash_tree_remove_all (dfd, "reports", NULL);
  unlinkat (dfd, "ash_aggregated_results.json", 0);
  close (dfd);
  rmdir (tmpl);
}

int
main (void)
{
  static const char *const levels[]
    = { "error", "error", "warning", "note", "none" };
  struct ash_scanner_result r;

  ash_scanner_result_init (&r, "s");
  r.sarif = doc_with (levels, 5, 1);
  ash_scanner_result_count (&r, ASH_SEVERITY_MEDIUM);
  tap_is_int (r.finding_count, 5, "five findings");
  tap_is_int (r.suppressed_count, 1, "one suppressed");
  tap_is_int (r.severity_counts[ASH_SEVERITY_HIGH], 1,
              "one unsuppressed high");
  tap_is_int (r.actionable_count, 2, "high and medium actionable at MEDIUM");
  tap_is_int (r.status, ASH_STATUS_FAILED, "FAILED with actionable findings");
  ash_scanner_result_count (&r, ASH_SEVERITY_HIGH);
  tap_is_int (r.actionable_count, 1, "only high actionable at HIGH");
  ash_scanner_result_count (&r, ASH_SEVERITY_CRITICAL);
  tap_is_int (r.actionable_count, 0, "nothing actionable at CRITICAL");
  tap_is_int (r.status, ASH_STATUS_PASSED, "PASSED below the threshold");
  ash_scanner_result_count (&r, ASH_SEVERITY_INFO);
  tap_is_int (r.actionable_count, 4, "every unsuppressed finding at ALL");

  struct ash_scanner_result m;
  ash_scanner_result_init (&m, "semgrep");
  m.status = ASH_STATUS_MISSING;
  m.reason = xstrdup ("semgrep is not installed");
  struct ash_scanner_result sk;
  ash_scanner_result_init (&sk, "grype");
  sk.status = ASH_STATUS_SKIPPED;
  sk.excluded = true;
  ash_sarif_tag (r.sarif, "s");
  struct ash_scanner_result *all[] = { &r, &m, &sk };
  struct ash_scan_summary sum = {
    .project_name = "p",
    .generated_at = "2026-01-01T00:00:00Z",
    .ended_at = "2026-01-01T00:02:05Z",
    .threshold = ASH_SEVERITY_INFO,
    .fail_on_findings = true,
    .fail_on_incomplete = true,
  };
  json_t *agg = ash_results_aggregate (&sum, all, 3);
  static const char *const keys[]
    = { "metadata", "scanner_results", "sarif", "converter_results",
        "additional_reports" };
  for (size_t i = 0; i < ARRAY_SIZE (keys); i++)
    tap_ok (json_object_get (agg, keys[i]) != NULL, "top-level key %s",
            keys[i]);
  json_t *sr = json_object_get (agg, "scanner_results");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (sr, "semgrep"),
                                 "missing_reason")),
              "semgrep is not installed", "missing_reason recorded");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (sr, "semgrep"), "status")),
              "MISSING", "status MISSING");
  tap_ok (json_is_true (
            json_object_get (json_object_get (sr, "grype"), "excluded")),
          "excluded recorded");
  json_t *stats
    = json_object_get (json_object_get (agg, "metadata"), "summary_stats");
  tap_is_int (json_integer_value (json_object_get (stats, "suppressed")), 1,
              "summary suppressed");
  tap_is_str (json_string_value (json_object_get (stats, "start")),
              "2026-01-01T00:00:00Z", "summary_stats.start: the scan's start");
  tap_is_str (json_string_value (json_object_get (stats, "end")),
              "2026-01-01T00:02:05Z", "summary_stats.end: the scan's end");
  tap_is_int (json_integer_value (json_object_get (stats, "actionable")), 4,
              "summary actionable");
  tap_is_int (json_integer_value (
                json_object_get (json_object_get (agg, "metadata"),
                                 "exit_code")),
              1, "metadata exit_code");
  tap_is_int (json_array_size (
                json_object_get (json_object_get (agg, "sarif"), "runs")),
              1, "merged SARIF has the run");

  char *table = ash_report_summary_table (agg, "/out/reports");
  tap_ok (strstr (table, "semgrep MISSING: semgrep is not installed") != NULL,
          "summary table gives the reason of a MISSING row");
  tap_ok (strstr (table, "Reports: /out/reports") != NULL,
          "summary table says where the reports are");
  free (table);
  for (size_t i = 0; ash_report_formats[i].name; i++)
    {
      const struct ash_report_format *f = &ash_report_formats[i];
      char *text = f->render ? f->render (agg) : f->render_opts (agg, NULL);
      /* gitlab-cyclonedx has nothing to say without syft's SBOM.  */
      if (streq (f->name, "gitlab-cyclonedx"))
        tap_ok (text == NULL, "report %s: nothing without an SBOM", f->name);
      else
        tap_ok (text != NULL && *text != '\0', "report %s renders", f->name);
      free (text);
    }
  char *csv = ash_report_csv (agg);
  if (!tap_ok (strstr (csv, "\"R\"") && strstr (csv, "\"HIGH\"")
                 && strstr (csv, "\"s\""),
               "csv row: scanner, rule and severity"))
    tap_diag ("%s", csv);
  free (csv);
  /* A sandbox record: the file counts the environment names and PATH
     entries the scanner was not given, the document keeps them.  */
  json_object_set_new (
    json_object_get (json_object_get (agg, "scanner_results"), "s"), "sandbox",
    json_pack ("{s:s, s:[s, s], s:[s]}", "backend", "landlock", "dropped",
               "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "skipped", "/opt/x"));
  check_outputs (agg);
  /* A message of two lines with markup and control characters: each
     line escaped, the break kept, in ash.html and ash.junit.xml.  */
  {
    /* The last result, which is not suppressed.  */
    json_t *list = json_object_get (
      json_array_get (json_object_get (json_object_get (agg, "sarif"), "runs"),
                      0),
      "results");
    json_t *res = json_array_get (list, json_array_size (list) - 1);
    json_t *saved = json_deep_copy (json_object_get (res, "message"));
    json_object_set_new (res, "message",
                         json_pack ("{s:s}", "text",
                                    "a<b & \"c\"\n\x1b[31md'e\x07"));
    char *html = ash_report_html (agg);
    char *junit = ash_report_junit (agg);
    const char *want = "a&lt;b &amp; &quot;c&quot;\n\\e[31md&#39;e\\x07";
    tap_ok (html && strstr (html, want),
            "ash.html: a two-line message escaped line by line");
    if (!tap_ok (junit && strstr (junit, want),
                 "ash.junit.xml: a two-line message escaped line by line"))
      tap_diag ("%s", junit ? junit : "(none)");
    free (html);
    free (junit);
    json_object_set_new (res, "message", saved);
  }
  /* The same bytes with the reports written one after the other, and
     with more threads than reports.  */
  ash_report_outputs_set_workers (1);
  check_outputs (agg);
  ash_report_outputs_set_workers (16);
  check_outputs (agg);
  ash_report_outputs_set_workers (0);
  json_decref (agg);

  /* Text that is not UTF-8 (a Latin-1 path, a scanner's raw message):
     kept with its bytes shown, never dropped, never the end of the
     document.  */
  {
    struct ash_scanner_result e;
    ash_scanner_result_init (&e, "bandit");
    e.status = ASH_STATUS_ERROR;
    e.reason = xstrdup ("bad byte \xe9 here");
    e.tool_path = xstrdup ("/opt/caf\xe9/bandit");
    struct ash_scanner_result *one[] = { &e };
    struct ash_scan_summary s2 = sum;
    s2.project_name = "proj\xff";
    s2.source_dir = "/src/caf\xe9";
    s2.output_dir = "/out/caf\xe9";
    json_t *a = ash_results_aggregate (&s2, one, 1);
    tap_ok (a != NULL, "a document with text that is not UTF-8");
    json_t *b
      = json_object_get (json_object_get (a, "scanner_results"), "bandit");
    tap_is_str (json_string_value (json_object_get (b, "error_reason")),
                "bad byte \\xe9 here", "error_reason kept, the byte shown");
    tap_is_str (json_string_value (json_object_get (b, "tool_path")),
                "/opt/caf\\xe9/bandit", "tool_path kept, the byte shown");
    json_t *meta = json_object_get (a, "metadata");
    tap_is_str (json_string_value (json_object_get (meta, "project_name")),
                "proj\\xff", "project_name kept, the byte shown");
    tap_is_str (json_string_value (json_object_get (meta, "source_dir")),
                "/src/caf\\xe9", "source_dir kept, the byte shown");
    json_decref (a);
    ash_scanner_result_release (&e);
  }

  /* Exit codes.  */
  tap_is_int (code_of (ASH_STATUS_PASSED, 0, ASH_STATUS_PASSED, true, true),
              ASH_EXIT_OK, "all passed: 0");
  tap_is_int (code_of (ASH_STATUS_FAILED, 3, ASH_STATUS_PASSED, true, true),
              ASH_EXIT_FINDINGS, "actionable findings: 2");
  tap_is_int (code_of (ASH_STATUS_FAILED, 3, ASH_STATUS_PASSED, false, true),
              ASH_EXIT_OK, "actionable findings without fail_on_findings: 0");
  tap_is_int (code_of (ASH_STATUS_PASSED, 0, ASH_STATUS_MISSING, true, true),
              ASH_EXIT_INCOMPLETE, "MISSING: 1");
  tap_is_int (code_of (ASH_STATUS_PASSED, 0, ASH_STATUS_ERROR, true, true),
              ASH_EXIT_INCOMPLETE, "ERROR: 1");
  tap_is_int (code_of (ASH_STATUS_FAILED, 3, ASH_STATUS_ERROR, true, true),
              ASH_EXIT_INCOMPLETE, "incomplete wins over findings: 1");
  tap_is_int (code_of (ASH_STATUS_FAILED, 3, ASH_STATUS_ERROR, true, false),
              ASH_EXIT_FINDINGS,
              "without fail_on_incomplete_scanners, findings: 2");
  tap_is_int (code_of (ASH_STATUS_PASSED, 0, ASH_STATUS_MISSING, true, false),
              ASH_EXIT_OK, "MISSING without fail_on_incomplete_scanners: 0");
  tap_is_int (code_of (ASH_STATUS_PASSED, 0, ASH_STATUS_SKIPPED, true, true),
              ASH_EXIT_OK, "SKIPPED is not incomplete: 0");

  ash_scanner_result_release (&r);
  ash_scanner_result_release (&m);
  ash_scanner_result_release (&sk);
  return tap_done ();
}
