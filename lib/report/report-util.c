/* SPDX-License-Identifier: Apache-2.0 */
/* report-util.c -- helpers the reports share.  */

#include <config.h>

#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "report/json-out.h"
#include "report/reports.h"
#include "scan/packed.h"
#include "scan/sarif.h"

char *
ash_report_dump_json (json_t *v, bool pretty)
{
  char *r = ash_json_text (v, pretty);
  json_decref (v);
  return r;
}

char *
ash_report_dump_json_gen (json_t *doc, struct ash_json_gen *gen)
{
  char *r = ash_json_text_gen (doc, true, gen);
  json_decref (doc);
  ash_json_gen_release (gen);
  return r;
}

void
ash_report_walk_init (struct ash_report_walk *w, const json_t *agg,
                      json_t *(*item) (struct ash_report_walk *w,
                                       const json_t *run, const json_t *res))
{
  w->agg = agg;
  w->runs = json_object_get (json_object_get (agg, "sarif"), "runs");
  w->run = w->res = 0;
  w->count = 0;
  w->item = item;
  w->at = SIZE_MAX;
  w->packed = NULL;
  w->n_packed = w->n_results = 0;
}

/* RUN, the walk's run W->RUN, looked at once: its packed results and
   its count.  */
static void
walk_look (struct ash_report_walk *w, const json_t *run)
{
  if (w->at == w->run)
    return;
  const json_t *results = json_object_get (run, "results");
  w->at = w->run;
  w->packed = ash_packed_of (results);
  w->n_packed = ash_packed_count (w->packed);
  w->n_results = w->n_packed + json_array_size (results);
}

/* Result I of RUN (the walk's run, looked at) as the walk gives it: the
   tree's, or, for a result of a packed run, ASH_REPORT_PACKED_RESULT.  */
static const json_t *
walk_at (const struct ash_report_walk *w, const json_t *run, size_t i)
{
  return i < w->n_packed ? ASH_REPORT_PACKED_RESULT
                         : json_array_get (json_object_get (run, "results"),
                                           i - w->n_packed);
}

json_t *
ash_report_walk_next (void *ctx)
{
  struct ash_report_walk *w = ctx;
  for (; w->run < json_array_size (w->runs); w->run++, w->res = 0)
    {
      const json_t *run = json_array_get (w->runs, w->run);
      walk_look (w, run);
      while (w->res < w->n_results)
        {
          w->count++;
          json_t *v = w->item (w, run, walk_at (w, run, w->res++));
          if (v)
            return v;
        }
    }
  return NULL;
}

const json_t *
ash_report_walk_result (struct ash_report_walk *w, const json_t **ret_run)
{
  for (; w->run < json_array_size (w->runs); w->run++, w->res = 0)
    {
      const json_t *run = json_array_get (w->runs, w->run);
      walk_look (w, run);
      if (w->res < w->n_results)
        {
          if (ret_run)
            *ret_run = run;
          w->count++;
          return walk_at (w, run, w->res++);
        }
    }
  return NULL;
}

/* The last result parsed again by ash_report_walk_unpacked on this
   thread, kept until the next.  */
static _Thread_local json_t *unpacked_held;

const json_t *
ash_report_walk_unpacked (const struct ash_report_walk *w, const json_t *res)
{
  /* The walk has looked at its run: it gave RES.  */
  if (res != ASH_REPORT_PACKED_RESULT || w->res == 0 || w->at != w->run
      || w->res - 1 >= w->n_packed)
    return res;
  json_decref (unpacked_held);
  unpacked_held = ash_packed_load (w->packed, w->res - 1);
  return unpacked_held;
}

/* FNV-1a (64 bits) of the NUL-separated fields added so far.  */
static uint64_t
fnv_add (uint64_t h, const char *s)
{
  for (const unsigned char *p = (const unsigned char *) (s ? s : ""); *p; p++)
    h = (h ^ *p) * 0x100000001b3ULL;
  return (h ^ 0xff) * 0x100000001b3ULL;
}

/* 128 bits: two FNV-1a hashes of FIELDS with different starting values.  */
static void
hash128 (const char *const *fields, size_t n, uint64_t ret[2])
{
  uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  for (size_t i = 0; i < n; i++)
    {
      a = fnv_add (a, fields[i]);
      b = fnv_add (b, fields[i]);
      b = fnv_add (b, "\x01");
    }
  ret[0] = a;
  ret[1] = b;
}

char *
ash_report_finding_id (const char *scanner, const char *rule, const char *path,
                       int start, int end)
{
  /* "%d-%d" of START and END.  */
  char lines[64];
  size_t k = ash_format_int (lines, start);
  lines[k++] = '-';
  lines[k + ash_format_int (lines + k, end)] = '\0';
  const char *f[] = { scanner, rule, path, lines };
  uint64_t h[2];
  hash128 (f, ARRAY_SIZE (f), h);
  /* "%016llx%016llx", written by hand: it is made for every finding of
     several reports.  */
  static const char hex[] = "0123456789abcdef";
  char *id = xmalloc (33);
  for (int i = 0; i < 32; i++)
    id[i] = hex[(h[i / 16] >> (60 - 4 * (i % 16))) & 0xf];
  id[32] = '\0';
  return id;
}

char *
ash_report_uuid (const json_t *agg, const char *salt)
{
  const json_t *meta = json_object_get (agg, "metadata");
  const char *f[] = {
    json_string_value (json_object_get (meta, "report_id")),
    json_string_value (json_object_get (meta, "generated_at")),
    json_string_value (json_object_get (meta, "source_dir")),
    json_string_value (json_object_get (meta, "output_dir")),
    salt,
  };
  uint64_t h[2];
  hash128 (f, ARRAY_SIZE (f), h);
  /* Version 8 (RFC 9562: the bits are the maker's own), variant 10.  */
  h[0] = (h[0] & ~0xf000ULL) | 0x8000ULL;
  h[1] = (h[1] & ~(3ULL << 62)) | (2ULL << 62);
  return xasprintf ("%08llx-%04llx-%04llx-%04llx-%012llx",
                    (unsigned long long) (h[0] >> 32),
                    (unsigned long long) ((h[0] >> 16) & 0xffff),
                    (unsigned long long) (h[0] & 0xffff),
                    (unsigned long long) (h[1] >> 48),
                    (unsigned long long) (h[1] & 0xffffffffffffULL));
}

const char *
ash_report_generated_at (const json_t *agg)
{
  const char *s = json_string_value (
    json_object_get (json_object_get (agg, "metadata"), "generated_at"));
  return s ? s : "";
}

const char *
ash_report_result_scanner (const json_t *result)
{
  const char *s = json_string_value (
    json_object_get (json_object_get (result, "properties"), "scanner_name"));
  return s ? s : "";
}

const char *
ash_report_result_message (const json_t *result)
{
  const char *s = json_string_value (
    json_object_get (json_object_get (result, "message"), "text"));
  return s ? s : "";
}

void
ash_report_finding_read (const json_t *result, struct ash_report_finding *ret)
{
  ret->path = ash_sarif_result_location (result, &ret->start, &ret->end);
  ret->rule = ash_sarif_result_rule (result);
  ret->scanner = ash_report_result_scanner (result);
  ret->message = ash_report_result_message (result);
  ret->severity = (int) ash_sarif_result_severity (result);
  ret->suppressed = ash_sarif_result_is_suppressed (result);
  const json_t *sup
    = json_array_get (json_object_get (result, "suppressions"), 0);
  ret->suppression_kind = json_string_value (json_object_get (sup, "kind"));
  ret->suppression_reason
    = json_string_value (json_object_get (sup, "justification"));
  ret->snippet = json_string_value (json_object_get (
    json_object_get (
      json_object_get (
        json_object_get (json_array_get (json_object_get (result, "locations"),
                                         0),
                         "physicalLocation"),
        "region"),
      "snippet"),
    "text"));
  const json_t *props = json_object_get (result, "properties");
  ret->properties = json_is_object (props) ? props : NULL;
  const json_t *tags = json_object_get (props, "tags");
  ret->tags = json_is_array (tags) ? tags : NULL;
  ret->properties_text = ret->tags_text = NULL;
}
