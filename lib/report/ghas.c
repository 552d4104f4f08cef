/* SPDX-License-Identifier: Apache-2.0 */
/* ghas.c -- ash.ghas.sarif: SARIF 2.1.0 for GitHub code scanning, as
   upstream's github-ghas reporter: one run whose driver lists every rule
   once, each with properties.security-severity (GitHub's severity scale)
   and tags; results with their location relative to %SRCROOT%, a
   partialFingerprints entry, and without the suppressed ones (GitHub has
   its own dismissals; reporters.github-ghas.options.exclude_suppressed:
   false keeps them).  */

#include <config.h>

#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "report/json-out.h"
#include "report/reports.h"
#include "scan/sarif.h"

/* PATH as a URI reference: every byte outside the unreserved characters
   and "/" percent-encoded, so that a file name cannot carry a scheme, a
   query or a control character into the log.  */
static char *
uri_of (const char *path)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (const unsigned char *p = (const unsigned char *) path; *p; p++)
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
        || (*p >= '0' && *p <= '9') || strchr ("-._~/", *p))
      ash_buf_addch (&b, (char) *p);
    else
      ash_buf_addf (&b, "%%%02X", *p);
  return ash_buf_detach (&b);
}

/* The rule RULE_ID of any run's driver or extensions, or NULL.  */
static const json_t *
find_rule (const json_t *run, const char *rule_id)
{
  const json_t *tool = json_object_get (run, "tool");
  size_t i, j;
  json_t *r, *ext;
  json_array_foreach (json_object_get (json_object_get (tool, "driver"),
                                       "rules"),
                      i, r)
    {
      const char *id = json_string_value (json_object_get (r, "id"));
      if (id && streq (id, rule_id))
        return r;
    }
  json_array_foreach (json_object_get (tool, "extensions"), j, ext)
    json_array_foreach (json_object_get (ext, "rules"), i, r)
      {
        const char *id = json_string_value (json_object_get (r, "id"));
        if (id && streq (id, rule_id))
          return r;
      }
  return NULL;
}

static void
copy_text (json_t *dst, const char *key, const json_t *src)
{
  const char *t = json_string_value (json_object_get (src, "text"));
  if (t && *t)
    json_object_set_new (dst, key, json_pack ("{s:s}", "text", t));
}

/* A new rule entry for RULE_ID, from the scanner's RULE (may be NULL) and
   the severity of its first result.  */
static json_t *
slim_rule (const char *rule_id, const json_t *rule, const char *scanner,
           enum ash_severity sev)
{
  json_t *o = json_pack ("{s:s}", "id", rule_id);
  const json_t *props = json_object_get (rule, "properties");
  copy_text (o, "shortDescription",
             json_object_get (rule, "shortDescription"));
  copy_text (o, "fullDescription", json_object_get (rule, "fullDescription"));
  if (!json_object_get (o, "shortDescription"))
    json_object_set_new (o, "shortDescription",
                         json_pack ("{s:s}", "text", rule_id));
  if (!json_object_get (o, "fullDescription"))
    json_object_set (o, "fullDescription",
                     json_object_get (o, "shortDescription"));
  const char *uri = json_string_value (json_object_get (rule, "helpUri"));
  if (uri
      && (strncmp (uri, "https://", 8) == 0
          || strncmp (uri, "http://", 7) == 0))
    json_object_set_new (o, "helpUri", json_string (uri));
  copy_text (o, "help", json_object_get (rule, "help"));

  /* The scanner's own score when it gave one as a number in range.  */
  json_t *ss = json_object_get (props, "security-severity");
  const char *given = json_string_value (ss);
  char *end = NULL;
  double d = given ? strtod (given, &end) : -1;
  json_t *p = json_object ();
  if (given && end && *end == '\0' && d >= 0 && d <= 10)
    json_object_set_new (p, "security-severity", json_string (given));
  else
    json_object_set_new (p, "security-severity",
                         json_string (ash_severity_score (sev)));
  json_t *tags = json_array ();
  json_array_append_new (tags, json_string ("security"));
  if (*scanner)
    json_array_append_new (tags, json_string (scanner));
  size_t i;
  json_t *t;
  json_array_foreach (json_object_get (props, "tags"), i, t)
    if (json_is_string (t))
      json_array_append (tags, t);
  json_object_set_new (p, "tags", tags);
  json_object_set_new (o, "properties", p);
  return o;
}

static const char *
level_of (enum ash_severity s)
{
  return s >= ASH_SEVERITY_HIGH     ? "error"
         : s == ASH_SEVERITY_MEDIUM ? "warning"
                                    : "note";
}

struct ghas_walk
{
  struct ash_report_walk w;
  bool exclude;
  json_t *rules;
  json_t *index; /* rule id -> index in RULES */
};

/* The rule id a finding is reported under.  */
static const char *
rule_of (const struct ash_report_finding *fi)
{
  return fi->rule == NULL || *fi->rule == '\0' ? "unknown" : fi->rule;
}

/* The first pass: the rules, in the order their first result comes.  */
static json_t *
ghas_rule_item (struct ash_report_walk *w, const json_t *run,
                const json_t *res)
{
  struct ghas_walk *gw = (struct ghas_walk *) w;
  struct ash_report_finding fi;
  ash_report_walk_finding (w, res, &fi);
  if (gw->exclude && fi.suppressed)
    return NULL;
  const char *rule = rule_of (&fi);
  if (json_object_get (gw->index, rule) == NULL)
    {
      json_object_set_new (gw->index, rule,
                           json_integer (
                             (json_int_t) json_array_size (gw->rules)));
      json_array_append_new (gw->rules,
                             slim_rule (rule, find_rule (run, rule),
                                        fi.scanner,
                                        (enum ash_severity) fi.severity));
    }
  return NULL;
}

/* The next result of the walk CTX as ash.ghas.sarif's item at DEPTH,
   written member by member (the text json_dumps gives the same
   object).  */
static bool
ghas_write (void *ctx, struct ash_out *o, int depth, bool first)
{
  struct ghas_walk *gw = ctx;
  struct ash_report_finding fi;
  if (!ash_report_walk_next_finding (&gw->w, gw->exclude, &fi))
    return false;
  const char *rule = rule_of (&fi);
  const char *scanner = fi.scanner;
  enum ash_severity sev = (enum ash_severity) fi.severity;
  int start = fi.start, end = fi.end;
  const char *path = fi.path;
  _cleanup_free_ char *fp
    = ash_report_finding_id (scanner, rule, path, start, end);
  const char *msg = fi.message;
  struct ash_out_obj r, m, f, loc, phys, al, reg, sup;

  ash_out_item_start (o, depth, first);
  ash_out_obj_begin (&r, o, depth);
  ash_out_obj_str (&r, "ruleId", rule);
  ash_out_obj_int (&r, "ruleIndex",
                   (long long) json_integer_value (
                     json_object_get (gw->index, rule)));
  ash_out_obj_str (&r, "level", level_of (sev));
  ash_out_obj_key (&r, "message");
  ash_out_obj_begin (&m, o, depth + 1);
  ash_out_obj_str (&m, "text", *msg ? msg : rule);
  ash_out_obj_end (&m);
  ash_out_obj_key (&r, "partialFingerprints");
  ash_out_obj_begin (&f, o, depth + 1);
  ash_out_obj_str (&f, "ashFindingId/v1", fp);
  ash_out_obj_end (&f);
  if (path && *path)
    {
      _cleanup_free_ char *uri = uri_of (path);
      ash_out_obj_key (&r, "locations");
      ash_out_add (o, "[", 1);
      ash_out_item_start (o, depth + 2, true);
      ash_out_obj_begin (&loc, o, depth + 2);
      ash_out_obj_key (&loc, "physicalLocation");
      ash_out_obj_begin (&phys, o, depth + 3);
      ash_out_obj_key (&phys, "artifactLocation");
      ash_out_obj_begin (&al, o, depth + 4);
      ash_out_obj_str (&al, "uri", uri);
      ash_out_obj_str (&al, "uriBaseId", "%SRCROOT%");
      ash_out_obj_end (&al);
      if (start > 0)
        {
          ash_out_obj_key (&phys, "region");
          ash_out_obj_begin (&reg, o, depth + 4);
          ash_out_obj_int (&reg, "startLine", start);
          ash_out_obj_int (&reg, "endLine", end >= start ? end : start);
          ash_out_obj_end (&reg);
        }
      ash_out_obj_end (&phys);
      ash_out_obj_end (&loc);
      ash_out_indent (o, depth + 1);
      ash_out_add (o, "]", 1);
    }
  if (fi.suppressed)
    {
      ash_out_obj_key (&r, "suppressions");
      ash_out_add (o, "[", 1);
      ash_out_item_start (o, depth + 2, true);
      ash_out_obj_begin (&sup, o, depth + 2);
      ash_out_obj_str (&sup, "kind", "external");
      ash_out_obj_end (&sup);
      ash_out_indent (o, depth + 1);
      ash_out_add (o, "]", 1);
    }
  ash_out_obj_end (&r);
  return true;
}

static void
ghas_walk_free (void *ctx)
{
  struct ghas_walk *gw = ctx;
  json_decref (gw->index);
  free (gw);
}

json_t *
ash_report_ghas_doc (const json_t *agg, const json_t *options,
                     struct ash_json_gen *ret_gen)
{
  json_t *ex = json_object_get (options, "exclude_suppressed");
  struct ghas_walk *gw = xcalloc (1, sizeof *gw);
  gw->exclude = ex ? json_is_true (ex) : true;
  json_t *rules = gw->rules = json_array ();
  gw->index = json_object ();
  ash_report_walk_init (&gw->w, agg, ghas_rule_item);
  while (ash_report_walk_next (&gw->w))
    ;
  ash_report_walk_init (&gw->w, agg, NULL);
  json_t *results = json_array ();
  *ret_gen = (struct ash_json_gen){
    .array = results, .release = ghas_walk_free, .ctx = gw, .write = ghas_write
  };
  json_t *doc
    = json_pack ("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:s, s:o}}, s:o}]}",
                 "$schema", ASH_SARIF_SCHEMA_URI, "version", "2.1.0", "runs",
                 "tool", "driver", "name", "ASH - Automated Security Helper",
                 "organization", "Amazon Web Services", "version",
                 PACKAGE_VERSION, "informationUri",
                 "https://github.com/awslabs/automated-security-helper",
                 "rules", rules, "results", results);
  if (doc == NULL)
    ash_oom ();
  return doc;
}

char *
ash_report_ghas (const json_t *agg, const json_t *options)
{
  struct ash_json_gen g;
  json_t *doc = ash_report_ghas_doc (agg, options, &g);
  return ash_report_dump_json_gen (doc, &g);
}
