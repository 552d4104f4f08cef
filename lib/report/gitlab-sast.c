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

/* {"name": NAME, "type": "text", "value": VALUE} as the member KEY of W.  */
static void
detail_write (struct ash_out_obj *w, const char *key, const char *name,
              const char *value)
{
  struct ash_out_obj d;
  ash_out_obj_key (w, key);
  ash_out_obj_begin (&d, w->o, w->depth + 1);
  ash_out_obj_str (&d, "name", name);
  ash_out_obj_str (&d, "type", "text");
  ash_out_obj_str (&d, "value", value);
  ash_out_obj_end (&d);
}

/* {"type": TYPE, "name": NAME, "value": VALUE} as an item of an array
   at DEPTH - 1.  */
static void
identifier_write (struct ash_out *o, int depth, bool first, const char *type,
                  const char *name, const char *value)
{
  struct ash_out_obj w;
  ash_out_item_start (o, depth, first);
  ash_out_obj_begin (&w, o, depth);
  ash_out_obj_str (&w, "type", type);
  ash_out_obj_str (&w, "name", name);
  ash_out_obj_str (&w, "value", value);
  ash_out_obj_end (&w);
}

/* RES (what the reports read of it: FI) as a GitLab vulnerability,
   written to O at nesting DEPTH with its members in upstream's order.  */
static void
vulnerability_write (const struct ash_report_finding *fi,
                     const char *detected_at, struct ash_out *o, int depth)
{
  int start = fi->start, end = fi->end;
  const char *path = fi->path;
  const char *rule = fi->rule;
  const char *scanner = fi->scanner;
  const char *msg = fi->message;
  if (rule == NULL || *rule == '\0')
    rule = "unknown";
  _cleanup_free_ char *id
    = ash_report_finding_id (scanner, rule, path, start, end);
  _cleanup_free_ char *name = cut (rule, 255);
  _cleanup_free_ char *desc = cut (msg, 1048576);

  struct ash_out_obj v, loc, details;
  ash_out_obj_begin (&v, o, depth);
  ash_out_obj_str (&v, "id", id);
  ash_out_obj_str (&v, "name", name);
  ash_out_obj_str (&v, "description", desc);
  ash_out_obj_key (&v, "identifiers");
  ash_out_add (o, "[", 1);
  if (*scanner)
    {
      _cleanup_free_ char *t = xasprintf ("%s-rule", scanner);
      _cleanup_free_ char *n = xasprintf ("%s Rule %s", scanner, rule);
      _cleanup_free_ char *sn = xasprintf ("%s Scanner", scanner);
      identifier_write (o, depth + 2, true, t, n, rule);
      identifier_write (o, depth + 2, false, "scanner", sn, scanner);
    }
  identifier_write (o, depth + 2, !*scanner, "ash-finding-id",
                    "ASH Finding ID", id);
  ash_out_indent (o, depth + 1);
  ash_out_add (o, "]", 1);
  ash_out_obj_key (&v, "location");
  ash_out_obj_begin (&loc, o, depth + 1);
  if (path && *path)
    ash_out_obj_str (&loc, "file", path);
  if (start > 0)
    {
      ash_out_obj_int (&loc, "start_line", start);
      ash_out_obj_int (&loc, "end_line", end);
    }
  ash_out_obj_end (&loc);
  ash_out_obj_key (&v, "details");
  ash_out_obj_begin (&details, o, depth + 1);
  if (*scanner)
    detail_write (&details, "scanner", "Scanner", scanner);
  detail_write (&details, "rule_id", "Rule ID", rule);
  detail_write (&details, "detected_at", "Detected At", detected_at);
  ash_out_obj_end (&details);
  if (fi->suppressed)
    {
      const char *why = fi->suppression_reason;
      _cleanup_free_ char *sol = xasprintf (
        "This finding was suppressed by ASH: %s. You can dismiss this "
        "vulnerability in the GitLab Security Dashboard.",
        why && *why ? why : "No reason provided");
      ash_out_obj_str (&v, "severity", "Info");
      _cleanup_free_ char *sol_cut = cut (sol, 7000);
      ash_out_obj_str (&v, "solution", sol_cut);
    }
  else
    ash_out_obj_str (&v, "severity",
                     gitlab_severity ((enum ash_severity) fi->severity));
  ash_out_obj_end (&v);
}

struct sast_walk
{
  struct ash_report_walk w;
  bool exclude;
  const char *when;
};

static bool
sast_write (void *ctx, struct ash_out *o, int depth, bool first)
{
  struct sast_walk *sw = ctx;
  struct ash_report_finding fi;
  if (!ash_report_walk_next_finding (&sw->w, sw->exclude, &fi))
    return false;
  ash_out_item_start (o, depth, first);
  vulnerability_write (&fi, sw->when, o, depth);
  return true;
}

json_t *
ash_report_gitlab_sast_doc (const json_t *agg, const json_t *options,
                            struct ash_json_gen *ret_gen)
{
  struct sast_walk *sw = xcalloc (1, sizeof *sw);
  sw->exclude = json_is_true (json_object_get (options, "exclude_suppressed"));
  sw->when = ash_report_generated_at (agg);
  ash_report_walk_init (&sw->w, agg, NULL);
  /* The schema's times are "YYYY-MM-DDTHH:MM:SS", without a zone.  */
  char when[20];
  snprintf (when, sizeof when, "%s", ash_report_generated_at (agg));
  json_t *vulns = json_array ();
  *ret_gen = (struct ash_json_gen){
    .array = vulns, .release = free, .ctx = sw, .write = sast_write
  };
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
