/* SPDX-License-Identifier: Apache-2.0 */
/* gitlab-sast.c -- ash.gl-sast-report.json: the findings in GitLab's SAST
   report format (security report schema 15.2.2), as upstream's gitlab-sast
   reporter writes them.  A suppressed finding is kept with severity Info
   and the reason as its solution, or left out with
   reporters.gitlab-sast.options.exclude_suppressed.  */

#include <config.h>

#include <string.h>

#include "base/util.h"
#include "report/reports.h"
#include "scan/sarif.h"

static const char *
gitlab_severity (enum ash_severity s)
{
  switch (s)
    {
    case ASH_SEVERITY_CRITICAL:
      return "Critical";
    case ASH_SEVERITY_HIGH:
      return "High";
    case ASH_SEVERITY_MEDIUM:
      return "Medium";
    case ASH_SEVERITY_LOW:
      return "Low";
    case ASH_SEVERITY_INFO:
    default:
      return "Info";
    }
}

/* S cut to at most MAX bytes, between UTF-8 characters: GitLab refuses a
   whole report whose name, description or solution is longer than its
   schema allows.  Newly allocated.  */
static char *
cut (const char *s, size_t max)
{
  size_t n = strlen (s);
  if (n <= max)
    return xstrdup (s);
  n = max;
  while (n > 0 && ((unsigned char) s[n] & 0xc0) == 0x80)
    n--;
  return xstrndup (s, n);
}

static json_t *
detail (const char *name, const char *value)
{
  return json_pack ("{s:s, s:s, s:s}", "name", name, "type", "text", "value",
                    value);
}

static json_t *
vulnerability (const json_t *res, const char *detected_at)
{
  int start, end;
  const char *path = ash_sarif_result_location (res, &start, &end);
  const char *rule = ash_sarif_result_rule (res);
  const char *scanner = ash_report_result_scanner (res);
  const char *msg = ash_report_result_message (res);
  if (rule == NULL || *rule == '\0')
    rule = "unknown";
  _cleanup_free_ char *id
    = ash_report_finding_id (scanner, rule, path, start, end);
  json_t *ids = json_array ();
  if (*scanner)
    {
      _cleanup_free_ char *t = xasprintf ("%s-rule", scanner);
      _cleanup_free_ char *n = xasprintf ("%s Rule %s", scanner, rule);
      _cleanup_free_ char *sn = xasprintf ("%s Scanner", scanner);
      json_array_append_new (ids, json_pack ("{s:s, s:s, s:s}", "type", t,
                                             "name", n, "value", rule));
      json_array_append_new (ids,
                             json_pack ("{s:s, s:s, s:s}", "type", "scanner",
                                        "name", sn, "value", scanner));
    }
  json_array_append_new (ids, json_pack ("{s:s, s:s, s:s}", "type",
                                         "ash-finding-id", "name",
                                         "ASH Finding ID", "value", id));
  json_t *loc = json_object ();
  if (path && *path)
    json_object_set_new (loc, "file", json_string (path));
  if (start > 0)
    {
      json_object_set_new (loc, "start_line", json_integer (start));
      json_object_set_new (loc, "end_line", json_integer (end));
    }
  json_t *details = json_object ();
  if (*scanner)
    json_object_set_new (details, "scanner", detail ("Scanner", scanner));
  json_object_set_new (details, "rule_id", detail ("Rule ID", rule));
  json_object_set_new (details, "detected_at",
                       detail ("Detected At", detected_at));

  _cleanup_free_ char *name = cut (rule, 255);
  _cleanup_free_ char *desc = cut (msg, 1048576);
  json_t *v = json_pack ("{s:s, s:s, s:s, s:o, s:o, s:o}", "id", id, "name",
                         name, "description", desc, "identifiers", ids,
                         "location", loc, "details", details);
  if (v == NULL)
    ash_oom ();
  if (ash_sarif_result_is_suppressed (res))
    {
      const char *why = ash_report_result_suppression_reason (res);
      _cleanup_free_ char *sol = xasprintf (
        "This finding was suppressed by ASH: %s. You can dismiss this "
        "vulnerability in the GitLab Security Dashboard.",
        why && *why ? why : "No reason provided");
      json_object_set_new (v, "severity", json_string ("Info"));
      _cleanup_free_ char *sol_cut = cut (sol, 7000);
      json_object_set_new (v, "solution", json_string (sol_cut));
    }
  else
    json_object_set_new (v, "severity",
                         json_string (
                           gitlab_severity (ash_sarif_result_severity (res))));
  return v;
}

struct sast_walk
{
  struct ash_report_walk w;
  bool exclude;
  const char *when;
};

static json_t *
sast_item (struct ash_report_walk *w, const json_t *run, const json_t *res)
{
  struct sast_walk *sw = (struct sast_walk *) w;
  (void) run;
  if (sw->exclude && ash_sarif_result_is_suppressed (res))
    return NULL;
  return vulnerability (res, sw->when);
}

json_t *
ash_report_gitlab_sast_doc (const json_t *agg, const json_t *options,
                            struct ash_json_gen *ret_gen)
{
  struct sast_walk *sw = xcalloc (1, sizeof *sw);
  sw->exclude = json_is_true (json_object_get (options, "exclude_suppressed"));
  sw->when = ash_report_generated_at (agg);
  ash_report_walk_init (&sw->w, agg, sast_item);
  /* The schema's times are "YYYY-MM-DDTHH:MM:SS", without a zone.  */
  char when[20];
  snprintf (when, sizeof when, "%s", ash_report_generated_at (agg));
  json_t *vulns = json_array ();
  *ret_gen = (struct ash_json_gen){ vulns, ash_report_walk_next, free, sw };
  long long actionable = (long long) json_integer_value (
    json_object_get (json_object_get (json_object_get (agg, "metadata"),
                                      "summary_stats"),
                     "actionable"));
  json_t *doc = json_pack (
    "{s:s, s:o, s:{s:{s:s, s:s, s:s, s:{s:s}, s:s}, s:{s:s, s:s, s:s, "
    "s:{s:s}, s:s}, s:s, s:s, s:s, s:s}}",
    "version", "15.2.2", "vulnerabilities", json_incref (vulns), "scan",
    "analyzer", "id", "ash", "name", "Automated Security Helper (ASH)",
    "version", PACKAGE_VERSION, "vendor", "name", "ASH", "url",
    "https://github.com/awslabs/automated-security-helper", "scanner", "id",
    "automated-security-helper", "name", "Automated Security Helper",
    "version", PACKAGE_VERSION, "vendor", "name", "ASH", "url",
    "https://github.com/awslabs/automated-security-helper", "type", "sast",
    "start_time", when, "end_time", when, "status",
    actionable == 0 ? "success" : "failure");
  json_decref (vulns);
  if (doc == NULL)
    ash_oom ();
  return doc;
}

char *
ash_report_gitlab_sast (const json_t *agg, const json_t *options)
{
  struct ash_json_gen g;
  json_t *doc = ash_report_gitlab_sast_doc (agg, options, &g);
  return ash_report_dump_json_gen (doc, &g);
}
