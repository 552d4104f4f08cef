/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for the reporter names (config/reporter-names.c) and the
   reports upstream ASH 3 has (report/).  */

#include <config.h>

#include <string.h>

#include "base/util.h"
#include "config/ashconfig.h"
#include "config/reporter-names.h"
#include "report/reports.h"
#include "tap.h"

static void
test_names_agree (void)
{
  size_t n = 0;
  for (; ash_reporter_names[n]; n++)
    tap_is_str (ash_report_formats[n].name, ash_reporter_names[n],
                "reporter %zu is written by the formats table", n);
  tap_ok (ash_report_formats[n].name == NULL,
          "the formats table has no reporter the names lack");
  tap_ok (ash_reporter_known ("cyclonedx") && !ash_reporter_known ("pdf"),
          "known names");
  tap_ok (ash_reporter_unavailable ("s3") != NULL
            && ash_reporter_unavailable ("aws-security-hub") != NULL
            && ash_reporter_unavailable ("sarif") == NULL,
          "cloud reporters are unavailable, ash's are not");
}

static void
test_suppression_id (void)
{
  static const struct
  {
    const char *entry, *id;
  } cases[] = {
    { "{\"path\": \"a/**\"}", "a/**|*|*|*" },
    { "{\"path\": \"a\", \"rule_id\": \"R1\", \"line_start\": 3}",
      "a|R1|3|3" },
    { "{\"path\": \"a\", \"line_start\": 3, \"line_end\": 9}", "a|*|3|9" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      json_t *e = json_loads (cases[i].entry, 0, NULL);
      _cleanup_free_ char *id = ash_report_suppression_id (e);
      tap_is_str (id, cases[i].id, "suppression id of %s", cases[i].entry);
      json_decref (e);
    }
}

/* An aggregated document with one finding whose message, rule and path
   are hostile, suppressed when SUPPRESSED.  */
static json_t *
hostile_agg (bool suppressed)
{
  json_t *res
    = json_pack ("{s:s, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i}}}], s:{s:s}}",
                 "ruleId", "R\x1b: x", "level", "error", "message", "text",
                 "a\x1b]0;T\x07\nkey: v\n- i\n&x *y !!tag \"q\" 'q' =1+1",
                 "locations", "physicalLocation", "artifactLocation", "uri",
                 "d ir/a#b?c\x1b.txt", "region", "startLine", 2, "properties",
                 "scanner_name", "s");
  if (suppressed)
    json_object_set_new (res, "suppressions",
                         json_pack ("[{s:s, s:s}]", "kind", "external",
                                    "justification", "why"));
  return json_pack ("{s:{s:s, s:s, s:{s:i}}, s:{s:[{s:{s:{s:s}}, s:[o]}]}}",
                    "metadata", "generated_at", "2026-01-02T03:04:05Z",
                    "report_id", "r", "summary_stats", "actionable", 1,
                    "sarif", "runs", "tool", "driver", "name", "s", "results",
                    res);
}

static void
test_yaml_round_trip (void)
{
  json_t *agg = hostile_agg (false);
  _cleanup_free_ char *y = ash_report_yaml (agg);
  tap_ok (strchr (y, '\x1b') == NULL && strchr (y, '\x07') == NULL,
          "yaml: no raw control character");
  json_t *back = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_config_parse_yaml (y, strlen (y), "ash.yaml", &back, NULL, &err);
  tap_ok (r == 0 && json_equal (back, agg),
          "yaml: reads back as the same document");
  ash_error_release (&err);
  json_decref (back);
  json_decref (agg);
}

static void
test_gitlab_and_ghas (void)
{
  json_t *agg = hostile_agg (true);
  _cleanup_free_ char *gl = ash_report_gitlab_sast (agg, NULL);
  json_t *d = json_loads (gl, 0, NULL);
  json_t *v = json_array_get (json_object_get (d, "vulnerabilities"), 0);
  tap_is_str (json_string_value (json_object_get (v, "severity")), "Info",
              "gitlab-sast: a suppressed finding is Info");
  tap_ok (strstr (json_string_value (json_object_get (v, "solution")),
                  "suppressed by ASH: why")
            != NULL,
          "gitlab-sast: with the reason as its solution");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (d, "scan"), "start_time")),
              "2026-01-02T03:04:05", "gitlab-sast: a time without a zone");
  json_decref (d);
  json_t *opts = json_pack ("{s:b}", "exclude_suppressed", true);
  _cleanup_free_ char *gl2 = ash_report_gitlab_sast (agg, opts);
  d = json_loads (gl2, 0, NULL);
  tap_is_int (json_array_size (json_object_get (d, "vulnerabilities")), 0,
              "gitlab-sast: exclude_suppressed leaves it out");
  json_decref (d);

  _cleanup_free_ char *gh = ash_report_ghas (agg, NULL);
  d = json_loads (gh, 0, NULL);
  json_t *run = json_array_get (json_object_get (d, "runs"), 0);
  tap_is_int (json_array_size (json_object_get (run, "results")), 0,
              "ghas: suppressed findings are left out by default");
  json_decref (d);
  json_object_set_new (opts, "exclude_suppressed", json_false ());
  _cleanup_free_ char *gh2 = ash_report_ghas (agg, opts);
  d = json_loads (gh2, 0, NULL);
  run = json_array_get (json_object_get (d, "runs"), 0);
  json_t *res = json_array_get (json_object_get (run, "results"), 0);
  json_t *loc
    = json_object_get (json_array_get (json_object_get (res, "locations"), 0),
                       "physicalLocation");
  const char *uri = json_string_value (
    json_object_get (json_object_get (loc, "artifactLocation"), "uri"));
  tap_is_str (uri, "d%20ir/a%23b%3Fc%1B.txt",
              "ghas: the path percent-encoded");
  json_t *rule = json_array_get (
    json_object_get (json_object_get (json_object_get (run, "tool"), "driver"),
                     "rules"),
    0);
  tap_is_str (json_string_value (
                json_object_get (json_object_get (rule, "properties"),
                                 "security-severity")),
              "8.0", "ghas: a high finding's rule scores 8.0");
  json_decref (d);
  json_decref (opts);
  json_decref (agg);
}

static void
test_gitlab_limits (void)
{
  char rule[301];
  memset (rule, 'R', 300);
  rule[300] = '\0';
  json_t *res = json_pack ("{s:s, s:{s:s}, s:[{s:{s:{s:s}}}]}", "ruleId", rule,
                           "message", "text", "m", "locations",
                           "physicalLocation", "artifactLocation", "uri", "");
  json_t *agg
    = json_pack ("{s:{s:s}, s:{s:[{s:{s:{s:s}}, s:[o]}]}}", "metadata",
                 "generated_at", "2026-01-02T03:04:05Z", "sarif", "runs",
                 "tool", "driver", "name", "s", "results", res);
  _cleanup_free_ char *gl = ash_report_gitlab_sast (agg, NULL);
  json_t *d = json_loads (gl, 0, NULL);
  json_t *v = json_array_get (json_object_get (d, "vulnerabilities"), 0);
  tap_is_int (strlen (json_string_value (json_object_get (v, "name"))), 255,
              "gitlab-sast: a name is cut to the schema's 255");
  tap_ok (json_object_get (json_object_get (v, "location"), "file") == NULL,
          "gitlab-sast: an empty path is left out");
  json_decref (d);
  json_decref (agg);
}

int
main (void)
{
  test_gitlab_limits ();
  test_names_agree ();
  test_suppression_id ();
  test_yaml_round_trip ();
  test_gitlab_and_ghas ();
  return tap_done ();
}
