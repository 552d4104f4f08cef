/* SPDX-License-Identifier: Apache-2.0 */
/* test-sarif.c -- checking what a scanner wrote, severities, merging.  */

#include <config.h>

#include <errno.h>

#include "base/buf.h"
#include "base/error.h"
#include "report/reports.h"
#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/deps-common.h"
#include "scanners/iac-common.h"
#include "scanners/scanner.h"
#include "tap.h"

static void
parse_case (const char *text, bool ok, const char *want_msg)
{
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;
  int r = ash_sarif_parse (text, strlen (text), &doc, &err);
  if (ok)
    tap_ok (r == 0 && doc != NULL, "accepted: %s", text);
  else
    {
      tap_ok (r < 0 && err.message && strstr (err.message, want_msg),
              "refused (%s): %s", err.message ? err.message : "no message",
              text);
    }
  json_decref (doc);
  ash_error_release (&err);
}

/* A document of N empty objects, or of N results with a short message
   and a rule id of about the same size in all.  */
static char *
dense_doc (size_t n, bool empty_objects)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addf (&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                    "{\"name\":\"t\"}},\"results\":[");
  for (size_t i = 0; i < n; i++)
    if (empty_objects)
      ash_buf_addf (&b, "%s{}", i ? "," : "");
    else
      ash_buf_addf (&b,
                    "%s{\"ruleId\":\"rule-%06zu\",\"message\":{\"text\":"
                    "\"a finding about something\"}}",
                    i ? "," : "", i);
  ash_buf_addf (&b, "]}]}");
  return ash_buf_detach (&b);
}

/* The parse may take at most ASH_SARIF_PARSE_MEMORY_FACTOR times the
   document's size: one made of empty objects (about 90 times) is refused
   with -EFBIG, results of the same size in bytes are not.  */
static void
parse_budget_cases (void)
{
  _cleanup_free_ char *dense = dense_doc (1500000, true);
  size_t len = strlen (dense);
  _cleanup_free_ char *real = dense_doc (len / 75, false);
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;

  tap_is_int (ash_sarif_parse (dense, len, &doc, &err), -EFBIG,
              "budget: %zu bytes of empty objects are refused", len);
  tap_ok (err.message && strstr (err.message, "bytes of memory once parsed"),
          "budget: the message says why (%s)",
          err.message ? err.message : "none");
  tap_ok (doc == NULL, "budget: no document is returned");
  ash_error_release (&err);
  tap_is_int (ash_sarif_parse (real, strlen (real), &doc, &err), 0,
              "budget: %zu bytes of results are read (control)",
              strlen (real));
  json_decref (doc);
  doc = NULL;
  /* The budget ends with the parse: jansson allocates as before.  */
  json_t *big = json_array ();
  for (int i = 0; i < 100000; i++)
    json_array_append_new (big, json_object ());
  tap_is_int (json_array_size (big), 100000,
              "budget: allocations after a refused parse are not limited");
  json_decref (big);
  ash_error_release (&err);
}

/* npm-audit parses npm's, pnpm's and yarn's reports under the same
   budget: a report (or a yarn event line) of tiny objects over it makes
   the scanner's error name the report, while a small real report of the
   same lockfile is read.  */
static void
npm_audit_budget_cases (void)
{
  static const struct
  {
    const char *lock, *version, *prefix, *suffix;
  } cases[] = {
    { "package-lock.json", "10.0.0", "{\"vulnerabilities\":{\"x\":[", "]}}" },
    { "pnpm-lock.yaml", "9.0.0", "{\"advisories\":{\"x\":[", "]}}" },
    { "yarn.lock", "1.22.19", "{\"type\":\"auditAdvisory\",\"data\":[",
      "]}\n" },
    { "yarn.lock", "4.1.0", "{\"value\":\"p\",\"children\":[", "]}\n" },
  };
  struct ash_scan_job job = { 0 };
  job.name = "npm-audit";
  job.target = "/nonexistent/npm-audit-budget";
  job.max_output = 1 << 24;
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      struct ash_buf b = ASH_BUF_INIT;
      ash_buf_addstr (&b, cases[i].prefix);
      for (int k = 0; k < 200000; k++)
        ash_buf_addstr (&b, k ? ",{}" : "{}");
      ash_buf_addstr (&b, cases[i].suffix);
      char *locks[] = { (char *) cases[i].lock, NULL };
      char *texts[] = { b.buf, NULL };
      size_t lens[] = { b.len, 0 };
      struct ash_error err = ASH_ERROR_INIT;
      json_t *doc = NULL;
      int r = ash_npm_audit_to_sarif (&job, locks, texts, lens,
                                      cases[i].version, &doc, &err);
      tap_ok (r == -EFBIG && err.message
                && strstr (err.message, "was not read")
                && strstr (err.message, cases[i].lock),
              "npm-audit %s (%s): a report of tiny objects is refused: %s",
              cases[i].lock, cases[i].version,
              err.message ? err.message : "no error");
      json_decref (doc);
      ash_error_release (&err);
      ash_buf_release (&b);
    }
  /* Control: npm's clean report of the same lockfile is read.  */
  {
    const char *clean = "{\"auditReportVersion\":2,\"vulnerabilities\":{},"
                        "\"metadata\":{}}";
    char *locks[] = { (char *) "package-lock.json", NULL };
    char *texts[] = { (char *) clean, NULL };
    size_t lens[] = { strlen (clean), 0 };
    struct ash_error err = ASH_ERROR_INIT;
    json_t *doc = NULL;
    tap_is_int (ash_npm_audit_to_sarif (&job, locks, texts, lens, "10.0.0",
                                        &doc, &err),
                0, "npm-audit: a clean report is read (control; %s)",
                err.message ? err.message : "no error");
    json_decref (doc);
    ash_error_release (&err);
  }
}

/* Every SARIF normaliser and the GitHub report give a rule without a
   score of its own the same security-severity for each ASH severity.  */
static enum ash_severity wanted_severity;

static enum ash_severity
wanted (const json_t *result _unused_, const json_t *rule _unused_)
{
  return wanted_severity;
}

/* DOC's first run's first rule.  */
static json_t *
rule0 (const json_t *doc)
{
  json_t *run = json_array_get (json_object_get (doc, "runs"), 0);
  return json_array_get (
    json_object_get (json_object_get (json_object_get (run, "tool"), "driver"),
                     "rules"),
    0);
}

static const char *
rule0_score (const json_t *doc)
{
  return json_string_value (
    json_object_get (json_object_get (rule0 (doc), "properties"),
                     "security-severity"));
}

/* The level of DOC's first result, and its first rule's default
   level.  */
static const char *
result0_level (const json_t *doc)
{
  json_t *run = json_array_get (json_object_get (doc, "runs"), 0);
  return json_string_value (
    json_object_get (json_array_get (json_object_get (run, "results"), 0),
                     "level"));
}

static const char *
rule0_level (const json_t *doc)
{
  return json_string_value (
    json_object_get (json_object_get (rule0 (doc), "defaultConfiguration"),
                     "level"));
}

static json_t *
one_finding (const char *level)
{
  return json_pack ("{s:s, s:[{s:{s:{s:s, s:[{s:s, s:{s:s}}]}}, s:[{s:s, "
                    "s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i}}}]}]}]}",
                    "version", "2.1.0", "runs", "tool", "driver", "name", "t",
                    "rules", "id", "r", "defaultConfiguration", "level", level,
                    "results", "ruleId", "r", "level", level, "message",
                    "text", "m", "locations", "physicalLocation",
                    "artifactLocation", "uri", "a.txt", "region", "startLine",
                    1);
}

static void
score_cases (void)
{
  static const char *const levels[ASH_SEVERITY_COUNT]
    = { "none", "note", "warning", "error", "error" };
  static const char *const upper[ASH_SEVERITY_COUNT]
    = { "INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL" };
  static const char *const upstream[ASH_SEVERITY_COUNT]
    = { "1.0", "3.0", "6.0", "8.0", "9.5" };

  for (int s = 0; s < ASH_SEVERITY_COUNT; s++)
    {
      const char *name = ash_severity_name ((enum ash_severity) s);
      const char *want = ash_severity_score ((enum ash_severity) s);
      tap_is_str (want, upstream[s], "%s scores as upstream's GHAS reporter",
                  name);
      wanted_severity = (enum ash_severity) s;

      json_t *doc = one_finding (levels[s]);
      struct ash_sarif_norm n
        = { .driver_name = "t", .source_dir = "/src", .severity = wanted };
      struct ash_error err = ASH_ERROR_INIT;
      tap_ok (ash_adapter_sarif_normalize (doc, &n, &err) == 0,
              "%s: adapter normalises", name);
      tap_is_str (rule0_score (doc), want, "%s: the adapter's score", name);
      tap_is_str (result0_level (doc), levels[s], "%s: the adapter's level",
                  name);
      ash_error_release (&err);
      json_decref (doc);

      doc = one_finding (levels[s]);
      ash_iac_sarif_normalise (doc, "t", NULL, NULL, "/src", wanted);
      tap_is_str (rule0_score (doc), want, "%s: the IaC normaliser's score",
                  name);
      tap_is_str (result0_level (doc), levels[s],
                  "%s: the IaC normaliser's level", name);
      json_decref (doc);

      json_t *run = ash_sarif_run_new ("t", NULL, NULL);
      size_t ri = ash_deps_rule (run, "r", "x", NULL, NULL,
                                 (enum ash_severity) s, NULL);
      ash_deps_result (run, "r", ri, (enum ash_severity) s, "m", "a.txt", 1);
      doc = ash_sarif_doc_new ();
      json_array_append_new (json_object_get (doc, "runs"), run);
      tap_is_str (rule0_score (doc), want,
                  "%s: the dependency normaliser's rule score", name);
      /* One mapping for all three normalisers: info is none, as upstream
         ASH reads it back, never note (low).  */
      tap_is_str (rule0_level (doc), levels[s],
                  "%s: the dependency normaliser's rule level", name);
      tap_is_str (result0_level (doc), levels[s],
                  "%s: the dependency normaliser's result level", name);
      tap_is_str (ash_severity_sarif_level ((enum ash_severity) s), levels[s],
                  "%s: ash_severity_sarif_level", name);
      json_decref (doc);

      if (s != ASH_SEVERITY_CRITICAL)
        {
          /* SARIF levels: no critical.  */
          doc = one_finding (levels[s]);
          json_object_del (
            json_array_get (
              json_object_get (
                json_array_get (json_object_get (doc, "runs"), 0), "results"),
              0),
            "level");
          ash_deps_sarif_normalise (doc, "t", NULL, "/src");
          tap_is_str (rule0_score (doc), want,
                      "%s: the dependency normaliser's score for level %s",
                      name, levels[s]);
          json_t *res = json_array_get (
            json_object_get (json_array_get (json_object_get (doc, "runs"), 0),
                             "results"),
            0);
          tap_is_str (json_string_value (
                        json_object_get (json_object_get (res, "properties"),
                                         "severity")),
                      upper[s], "%s: and its result keeps that severity",
                      name);
          json_decref (doc);
        }

      doc = one_finding (levels[s]);
      json_t *res = json_array_get (
        json_object_get (json_array_get (json_object_get (doc, "runs"), 0),
                         "results"),
        0);
      json_object_set_new (res, "properties",
                           json_pack ("{s:s}", "severity", upper[s]));
      json_t *agg = json_pack ("{s:o}", "sarif", doc);
      _cleanup_free_ char *gh = ash_report_ghas (agg, NULL);
      json_t *g = json_loads (gh, 0, NULL);
      tap_is_str (rule0_score (g), want, "%s: the GitHub report's score",
                  name);
      json_decref (g);
      json_decref (agg);
    }
}

int
main (void)
{
  score_cases ();
  parse_budget_cases ();
  npm_audit_budget_cases ();
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[]}", true, NULL);
  parse_case (
    "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
    "{\"name\":\"x\"}},\"results\":[{\"message\":{\"text\":\"m\"}}]}]}",
    true, NULL);
  parse_case ("", false, "not JSON");
  parse_case ("this is not sarif", false, "not JSON");
  parse_case ("[1,2]", false, "not a JSON object");
  parse_case ("{\"version\":\"2.0.0\",\"runs\":[]}", false, "version");
  parse_case ("{\"version\":\"2.1.0\"}", false, "runs");
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{}}]}", false,
              "tool.driver.name");
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
              "{\"name\":\"x\"}},\"results\":{}}]}",
              false, "not an array");
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
              "{\"name\":\"x\"}},\"results\":[{}]}]}",
              false, "no message");

  static const struct
  {
    const char *json;
    enum ash_severity want;
  } sev[] = {
    { "{\"level\":\"error\"}", ASH_SEVERITY_HIGH },
    { "{\"level\":\"warning\"}", ASH_SEVERITY_MEDIUM },
    { "{}", ASH_SEVERITY_MEDIUM },
    { "{\"level\":\"note\"}", ASH_SEVERITY_LOW },
    { "{\"level\":\"none\"}", ASH_SEVERITY_INFO },
    { "{\"level\":\"note\",\"properties\":{\"severity\":\"CRITICAL\"}}",
      ASH_SEVERITY_CRITICAL },
    { "{\"level\":\"error\",\"properties\":{\"issue_severity\":\"LOW\"}}",
      ASH_SEVERITY_LOW },
  };
  for (size_t i = 0; i < ARRAY_SIZE (sev); i++)
    {
      json_t *r = json_loads (sev[i].json, 0, NULL);
      tap_is_int (ash_sarif_result_severity (r), sev[i].want, "severity of %s",
                  sev[i].json);
      json_decref (r);
    }

  enum ash_severity t;
  tap_ok (ash_severity_parse ("MEDIUM", &t) == 0 && t == ASH_SEVERITY_MEDIUM,
          "MEDIUM parses");
  tap_ok (ash_severity_parse ("ALL", &t) == 0 && t == ASH_SEVERITY_INFO,
          "ALL is the lowest threshold");
  tap_ok (ash_severity_parse ("bogus", &t) < 0, "bogus is refused");

  json_t *sup
    = json_loads ("{\"suppressions\":[{\"kind\":\"inSource\"}]}", 0, NULL);
  tap_ok (ash_sarif_result_is_suppressed (sup), "suppression in effect");
  json_decref (sup);
  sup = json_loads ("{\"suppressions\":[{\"kind\":\"external\","
                    "\"status\":\"rejected\"}]}",
                    0, NULL);
  tap_ok (!ash_sarif_result_is_suppressed (sup),
          "rejected suppression is not in effect");
  json_decref (sup);

  json_t *merged = ash_sarif_doc_new ();
  json_t *a = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("tool-a", "1.0", NULL);
  json_array_append_new (json_object_get (run, "results"),
                         json_pack ("{s:{s:s}}", "message", "text", "m"));
  json_array_append_new (json_object_get (a, "runs"), run);
  ash_sarif_tag (a, "scanner-a");
  ash_sarif_merge (merged, a);
  ash_sarif_merge (merged, a);
  tap_is_int (json_array_size (json_object_get (merged, "runs")), 2,
              "merge appends runs");
  json_t *res = json_array_get (json_object_get (run, "results"), 0);
  tap_is_str (json_string_value (
                json_object_get (json_object_get (res, "properties"),
                                 "scanner_name")),
              "scanner-a", "results are tagged with their scanner");
  json_decref (a);
  json_decref (merged);
  return tap_done ();
}
