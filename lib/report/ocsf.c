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

/* RES (what the reports read of it: FP) as an OCSF Vulnerability
   Finding, written to O at nesting DEPTH with its members in upstream's
   order; META is the finding's metadata
   and MS the report's time.  */
static void
finding_write (const struct ash_report_finding *fp, const json_t *meta,
               long long ms, struct ash_out *o, int depth)
{
  struct ash_report_finding fi = *fp;
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
  bool sup = fi.suppressed;

  struct ash_out_obj f, info, vuln, cve, code, file;
  ash_out_obj_begin (&f, o, depth);
  ash_out_obj_int (&f, "activity_id", 1);
  ash_out_obj_str (&f, "activity_name", "Create");
  ash_out_obj_int (&f, "severity_id", severity_id (sev));
  ash_out_obj_str (&f, "severity", severity_label (sev));
  ash_out_obj_int (&f, "type_uid", 200201);
  ash_out_obj_int (&f, "class_uid", 2002);
  ash_out_obj_str (&f, "class_name", "Vulnerability Finding");
  ash_out_obj_int (&f, "category_uid", 2);
  ash_out_obj_str (&f, "category_name", "Findings");
  ash_out_obj_int (&f, "time", ms);
  ash_out_obj_json (&f, "metadata", meta);
  ash_out_obj_key (&f, "finding_info");
  ash_out_obj_begin (&info, o, depth + 1);
  ash_out_obj_str (&info, "uid", uid);
  ash_out_obj_str (&info, "title", title);
  ash_out_obj_str (&info, "desc", msg);
  ash_out_obj_end (&info);
  ash_out_obj_key (&f, "vulnerabilities");
  ash_out_add (o, "[", 1);
  ash_out_item_start (o, depth + 2, true);
  ash_out_obj_begin (&vuln, o, depth + 2);
  ash_out_obj_str (&vuln, "title", rule);
  ash_out_obj_str (&vuln, "desc", msg);
  ash_out_obj_str (&vuln, "severity", severity_label (sev));
  ash_out_obj_key (&vuln, "cve");
  ash_out_obj_begin (&cve, o, depth + 3);
  ash_out_obj_str (&cve, "uid", rule);
  ash_out_obj_str (&cve, "desc", msg);
  ash_out_obj_end (&cve);
  if (path)
    {
      ash_out_obj_key (&vuln, "affected_code");
      ash_out_add (o, "[", 1);
      ash_out_item_start (o, depth + 4, true);
      ash_out_obj_begin (&code, o, depth + 4);
      ash_out_obj_key (&code, "file");
      ash_out_obj_begin (&file, o, depth + 5);
      ash_out_obj_str (&file, "name", base);
      ash_out_obj_str (&file, "path", path);
      ash_out_obj_int (&file, "type_id", 1);
      ash_out_obj_end (&file);
      if (start > 0)
        {
          ash_out_obj_int (&code, "start_line", start);
          ash_out_obj_int (&code, "end_line", end);
        }
      ash_out_obj_end (&code);
      ash_out_indent (o, depth + 3);
      ash_out_add (o, "]", 1);
    }
  ash_out_obj_end (&vuln);
  ash_out_indent (o, depth + 1);
  ash_out_add (o, "]", 1);
  ash_out_obj_int (&f, "status_id", sup ? 3 : 1);
  ash_out_obj_str (&f, "status", sup ? "Suppressed" : "New");
  if (sup)
    {
      const char *why = fi.suppression_reason;
      _cleanup_free_ char *d = xasprintf ("justification: %s", why ? why : "");
      ash_out_obj_str (&f, "status_detail", d);
    }
  ash_out_obj_end (&f);
}

struct ocsf_walk
{
  struct ash_report_walk w;
  json_t *meta;
  long long ms;
};

static bool
ocsf_write (void *ctx, struct ash_out *o, int depth, bool first)
{
  struct ocsf_walk *ow = ctx;
  struct ash_report_finding fi;
  if (!ash_report_walk_next_finding (&ow->w, false, &fi))
    return false;
  ash_out_item_start (o, depth, first);
  finding_write (&fi, ow->meta, ow->ms, o, depth);
  return true;
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
  ash_report_walk_init (&ow->w, agg, NULL);
  json_t *list = json_array ();
  *ret_gen = (struct ash_json_gen){
    .array = list, .release = ocsf_walk_free, .ctx = ow, .write = ocsf_write
  };
  return list;
}

char *
ash_report_ocsf (const json_t *agg)
{
  struct ash_json_gen g;
  json_t *doc = ash_report_ocsf_doc (agg, &g);
  return ash_report_dump_json_gen (doc, &g);
}
