/* SPDX-License-Identifier: Apache-2.0 */
/* ocsf.c -- ash.ocsf.json: every finding as an OCSF 1.1 Vulnerability
   Finding (class 2002), in a JSON array, as upstream's ocsf reporter.  */

#include <config.h>

#include <string.h>
#include <time.h>

#include "base/util.h"
#include "report/reports.h"
#include "scan/sarif.h"

/* OCSF severity_id: 1 informational ... 5 critical.  */
static int
severity_id (enum ash_severity s)
{
  return (int) s + 1;
}

static const char *
severity_label (enum ash_severity s)
{
  static const char *const names[]
    = { "Informational", "Low", "Medium", "High", "Critical" };
  return names[s];
}

/* The time of AGG's report in milliseconds since the epoch (0 when it
   cannot be read).  */
static long long
report_time_ms (const json_t *agg)
{
  struct tm tm = { 0 };
  const char *g = ash_report_generated_at (agg);
  if (sscanf (g, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
              &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec)
      != 6)
    return 0;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  time_t t = timegm (&tm);
  return t == (time_t) -1 ? 0 : (long long) t * 1000;
}

static json_t *
finding (const json_t *res, const json_t *meta, long long ms)
{
  struct ash_report_finding fi;
  ash_report_finding_read (res, &fi);
  const char *path = fi.path, *rule = fi.rule, *scanner = fi.scanner;
  const char *msg = fi.message;
  int start = fi.start, end = fi.end;
  enum ash_severity sev = (enum ash_severity) fi.severity;
  if (rule == NULL || *rule == '\0')
    rule = "unknown";
  _cleanup_free_ char *uid
    = ash_report_finding_id (scanner, rule, path, start, end);
  const char *base = path ? strrchr (path, '/') : NULL;
  base = base ? base + 1 : path;
  /* The title as upstream: the rule, the file, the message, at most 120
     characters of it (cut between UTF-8 characters).  */
  _cleanup_free_ char *title = path
                                 ? xasprintf ("%s in %s - %s", rule, base, msg)
                                 : xasprintf ("%s - %s", rule, msg);
  size_t n = strlen (title);
  if (n > 120)
    {
      n = 120;
      while (n > 0 && ((unsigned char) title[n] & 0xc0) == 0x80)
        n--;
      title[n] = '\0';
    }

  json_t *vuln = json_pack ("{s:s, s:s, s:s, s:{s:s, s:s}}", "title", rule,
                            "desc", msg, "severity", severity_label (sev),
                            "cve", "uid", rule, "desc", msg);
  if (path)
    {
      json_t *code = json_pack ("{s:{s:s, s:s, s:i}}", "file", "name", base,
                                "path", path, "type_id", 1);
      if (start > 0)
        {
          json_object_set_new (code, "start_line", json_integer (start));
          json_object_set_new (code, "end_line", json_integer (end));
        }
      json_object_set_new (vuln, "affected_code", json_pack ("[o]", code));
    }
  bool sup = fi.suppressed;
  json_t *f
    = json_pack ("{s:i, s:s, s:i, s:s, s:i, s:i, s:s, s:i, s:s, s:I, s:O, "
                 "s:{s:s, s:s, s:s}, s:[o], s:i, s:s}",
                 "activity_id", 1, "activity_name", "Create", "severity_id",
                 severity_id (sev), "severity", severity_label (sev),
                 "type_uid", 200201, "class_uid", 2002, "class_name",
                 "Vulnerability Finding", "category_uid", 2, "category_name",
                 "Findings", "time", (json_int_t) ms, "metadata", meta,
                 "finding_info", "uid", uid, "title", title, "desc", msg,
                 "vulnerabilities", vuln, "status_id", sup ? 3 : 1, "status",
                 sup ? "Suppressed" : "New");
  if (f == NULL)
    ash_oom ();
  if (sup)
    {
      const char *why = ash_report_result_suppression_reason (res);
      _cleanup_free_ char *d = xasprintf ("justification: %s", why ? why : "");
      json_object_set_new (f, "status_detail", json_string (d));
    }
  return f;
}

struct ocsf_walk
{
  struct ash_report_walk w;
  json_t *meta;
  long long ms;
};

static json_t *
ocsf_item (struct ash_report_walk *w, const json_t *run, const json_t *res)
{
  struct ocsf_walk *ow = (struct ocsf_walk *) w;
  (void) run;
  return finding (res, ow->meta, ow->ms);
}

static void
ocsf_walk_free (void *ctx)
{
  struct ocsf_walk *ow = ctx;
  json_decref (ow->meta);
  free (ow);
}

json_t *
ash_report_ocsf_doc (const json_t *agg, struct ash_json_gen *ret_gen)
{
  struct ocsf_walk *ow = xcalloc (1, sizeof *ow);
  ow->ms = report_time_ms (agg);
  ow->meta
    = json_pack ("{s:{s:s, s:s, s:s}, s:s, s:I}", "product", "name",
                 "Automated Security Helper", "vendor_name",
                 "Amazon Web Services", "version", PACKAGE_VERSION, "version",
                 "1.1.0", "logged_time", (json_int_t) ow->ms);
  if (ow->meta == NULL)
    ash_oom ();
  ash_report_walk_init (&ow->w, agg, ocsf_item);
  json_t *list = json_array ();
  *ret_gen
    = (struct ash_json_gen){ list, ash_report_walk_next, ocsf_walk_free, ow };
  return list;
}

char *
ash_report_ocsf (const json_t *agg)
{
  struct ash_json_gen g;
  json_t *doc = ash_report_ocsf_doc (agg, &g);
  return ash_report_dump_json_gen (doc, &g);
}
