/* SPDX-License-Identifier: Apache-2.0 */
/* sarif.c -- SARIF 2.1.0 documents.  */

#include <config.h>

#include "scan/sarif.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/escape.h"
#include "base/util.h"
#include "fs/tree.h"
#include "scan/json-arena.h"
#include "scan/packed.h"
#include "scan/json-fast.h"

static const char *const severity_names[ASH_SEVERITY_COUNT] = {
  "info", "low", "medium", "high", "critical",
};

const char *
ash_severity_name (enum ash_severity s)
{
  if ((unsigned) s >= ASH_SEVERITY_COUNT)
    return "info";
  return severity_names[s];
}

/* Upstream ASH's scores (automated_security_helper/plugin_modules/
   ash_builtin/reporters/github_ghas_reporter.py, _LEVEL_TO_SECURITY_
   SEVERITY): error 8.0, warning 6.0, note 3.0, none 1.0, inside GitHub's
   buckets (9.0-10.0 critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9
   low).  SARIF's "error" holds both of ASH's critical and high; critical
   takes 9.5, in GitHub's critical bucket, so that it stays apart.  */
static const char *const severity_scores[ASH_SEVERITY_COUNT] = {
  "1.0", "3.0", "6.0", "8.0", "9.5",
};

/* Upstream ASH reads a level back the same way (automated_security_helper/
   utils/severity_ladder.py, _SARIF_LEVEL_TO_SEVERITY, and utils/
   sarif_utils.py, _resolve_result_severity: note is low, none is info),
   so an info finding written as note would count as low there.  */
const char *
ash_severity_sarif_level (enum ash_severity s)
{
  switch (s)
    {
    case ASH_SEVERITY_CRITICAL:
    case ASH_SEVERITY_HIGH:
      return "error";
    case ASH_SEVERITY_MEDIUM:
      return "warning";
    case ASH_SEVERITY_LOW:
      return "note";
    default:
      return "none";
    }
}

const char *
ash_severity_score (enum ash_severity s)
{
  if ((unsigned) s >= ASH_SEVERITY_COUNT)
    return severity_scores[ASH_SEVERITY_INFO];
  return severity_scores[s];
}

int
ash_severity_parse (const char *s, enum ash_severity *ret)
{
  if (s == NULL)
    return -EINVAL;
  for (int i = 0; i < ASH_SEVERITY_COUNT; i++)
    if (strcasecmp (s, severity_names[i]) == 0)
      {
        *ret = (enum ash_severity) i;
        return 0;
      }
  if (strcasecmp (s, "all") == 0 || strcasecmp (s, "none") == 0
      || strcasecmp (s, "informational") == 0
      || strcasecmp (s, "undefined") == 0)
    {
      *ret = ASH_SEVERITY_INFO;
      return 0;
    }
  return -EINVAL;
}

enum ash_severity
ash_sarif_result_severity (const json_t *result)
{
  json_t *props = json_object_get (result, "properties");
  static const char *const keys[] = { "issue_severity", "severity" };
  enum ash_severity s;

  for (size_t i = 0; i < ARRAY_SIZE (keys); i++)
    {
      const char *v = json_string_value (json_object_get (props, keys[i]));
      if (v && ash_severity_parse (v, &s) == 0)
        return s;
    }
  const char *level = json_string_value (json_object_get (result, "level"));
  if (level == NULL || streq (level, "warning"))
    return ASH_SEVERITY_MEDIUM;
  if (streq (level, "error"))
    return ASH_SEVERITY_HIGH;
  if (streq (level, "note"))
    return ASH_SEVERITY_LOW;
  return ASH_SEVERITY_INFO;
}

bool
ash_sarif_result_is_suppressed (const json_t *result)
{
  json_t *sups = json_object_get (result, "suppressions");
  size_t i;
  json_t *s;

  if (!json_is_array (sups))
    return false;
  json_array_foreach (sups, i, s)
    {
      const char *status = json_string_value (json_object_get (s, "status"));
      if (status == NULL || streq (status, "accepted"))
        return true;
    }
  return false;
}

json_t *
ash_sarif_doc_new (void)
{
  json_t *doc = json_pack ("{s:s, s:s, s:[]}", "$schema", ASH_SARIF_SCHEMA_URI,
                           "version", "2.1.0", "runs");
  if (doc == NULL)
    ash_oom ();
  return doc;
}

json_t *
ash_sarif_run_new (const char *tool, const char *version, const char *info_uri)
{
  json_t *driver = json_pack ("{s:s, s:[]}", "name", tool, "rules");
  if (driver == NULL)
    ash_oom ();
  if (version)
    json_object_set_new (driver, "version", json_string (version));
  if (info_uri)
    json_object_set_new (driver, "informationUri", json_string (info_uri));
  json_t *run
    = json_pack ("{s:{s:o}, s:[]}", "tool", "driver", driver, "results");
  if (run == NULL)
    ash_oom ();
  return run;
}

static int
shape_error (struct ash_error *err, const char *what)
{
  return ash_error_set (err, -EINVAL,
                        _ ("the output is not a SARIF 2.1.0 log: %s"), what);
}

/* Remove the items of array A (may be NULL) for which KEEP is false.  */
static void
filter_array (json_t *a, bool (*keep) (const json_t *))
{
  for (size_t i = json_array_size (a); i-- > 0;)
    if (!keep (json_array_get (a, i)))
      json_array_remove (a, i);
}

static bool
is_rule (const json_t *r)
{
  return json_is_object (r) && json_is_string (json_object_get (r, "id"));
}

static bool
is_suppression (const json_t *s)
{
  const char *kind = json_string_value (json_object_get (s, "kind"));
  return kind && (streq (kind, "inSource") || streq (kind, "external"));
}

static bool
is_object (const json_t *o)
{
  return json_is_object (o);
}

/* A region's line and column numbers are integers of at least 1 in
   SARIF 2.1.0, and an artifact location's uri a string; one of another
   type or value is dropped (the rest of the location stays), as is a
   region or an artifact location that is not an object.  PHYS is a
   location's physicalLocation (may be NULL).  */
static void
prune_region (json_t *phys)
{
  static const char *const nums[]
    = { "startLine", "endLine", "startColumn", "endColumn" };
  json_t *al = json_object_get (phys, "artifactLocation");
  if (al && !json_is_object (al))
    json_object_del (phys, "artifactLocation");
  else if (al && json_object_get (al, "uri")
           && !json_is_string (json_object_get (al, "uri")))
    json_object_del (al, "uri");
  json_t *reg = json_object_get (phys, "region");
  if (reg == NULL)
    return;
  if (!json_is_object (reg))
    {
      json_object_del (phys, "region");
      return;
    }
  for (size_t i = 0; i < ARRAY_SIZE (nums); i++)
    {
      json_t *v = json_object_get (reg, nums[i]);
      if (v && !(json_is_integer (v) && json_integer_value (v) >= 1))
        json_object_del (reg, nums[i]);
    }
}

/* The part of prune_run for one result RES.  */
static void
prune_result (json_t *res)
{
  json_t *msg = json_object_get (res, "message");
  json_t *mtext = json_object_get (msg, "text");
  if (!json_is_string (mtext)
      && (mtext || !json_is_string (json_object_get (msg, "id"))))
    json_object_set_new (msg, "text", json_string (""));
  json_t *sups = json_object_get (res, "suppressions");
  if (sups && !json_is_array (sups))
    json_object_del (res, "suppressions");
  else
    filter_array (sups, is_suppression);
  const char *level = json_string_value (json_object_get (res, "level"));
  if (json_object_get (res, "level")
      && !(level
           && (streq (level, "none") || streq (level, "note")
               || streq (level, "warning") || streq (level, "error"))))
    json_object_del (res, "level");
  json_t *rid = json_object_get (res, "ruleId");
  if (rid && !json_is_string (rid))
    json_object_del (res, "ruleId");
  json_t *locs = json_object_get (res, "locations");
  if (locs && !json_is_array (locs))
    json_object_del (res, "locations");
  else
    {
      filter_array (locs, is_object);
      size_t k;
      json_t *loc;
      json_array_foreach (locs, k, loc)
        prune_region (json_object_get (loc, "physicalLocation"));
    }
}

/* Drop what a scanner wrote that SARIF 2.1.0 does not allow where ash
   reads it, so that the log ash writes from it is valid: rules that are
   not objects with an id, suppressions of an unknown kind (a malformed
   one does not hide a result), levels outside the four, ruleIds and
   locations of the wrong type, region numbers that are not integers of
   at least 1, a driver's version, semanticVersion, fullName or
   informationUri that is not a string; a message with neither text nor id gets
   an empty text.  */
static void
prune_run (json_t *run)
{
  json_t *driver = json_object_get (json_object_get (run, "tool"), "driver");
  static const char *const texts[]
    = { "version", "semanticVersion", "fullName", "informationUri" };
  for (size_t t = 0; t < ARRAY_SIZE (texts); t++)
    {
      json_t *v = json_object_get (driver, texts[t]);
      if (v && !json_is_string (v))
        json_object_del (driver, texts[t]);
    }
  json_t *rules = json_object_get (driver, "rules");
  if (rules && !json_is_array (rules))
    json_object_del (driver, "rules");
  else
    filter_array (rules, is_rule);
  size_t i;
  json_t *res;
  json_array_foreach (json_object_get (run, "results"), i, res)
    prune_result (res);
}

/* The memory a parse may take.  The size of a scanner's output is capped
   (global_settings.max_scanner_document) before it is read, but the
   memory jansson needs for a document depends on its shape as well as
   its size: counted as below, a SARIF log of real results takes 5 to 20
   times its size (the shorter its results, the more), a document of
   nothing but empty objects ("{},{},...") about 90 times.
   So that no document within the cap can take more than a bounded
   multiple of it, every allocation jansson makes on this thread while a
   parse runs is counted (frees are not: a bound from above), and one
   that would pass the budget fails, which ends the parse.  The cost of
   an allocation is counted the same whether it is made in the arena
   (json-arena.h: a parse of 256 KiB or more) or by malloc, so that the
   arena changes no refusal.  The documents are parsed by json-fast.h's
   parser, which makes its values through jansson's allocator and
   reports the scratch allocations jansson's own parser would have made
   besides (budget_shadow), so that the same documents are refused as
   when jansson parsed them.  Outside a parse, and on other threads,
   allocations go straight to malloc.  */
struct parse_budget
{
  bool on;
  bool hit;
  bool arena; /* allocations carved from the arena (json-arena.h) */
  size_t left;
};

static _Thread_local struct parse_budget parse_budget;

/* Count COST against the budget of the parse that runs, if any; false
   (the budget hit) when it would pass it, or when the cost overflowed
   (OVERFLOW).  */
static bool
budget_count (size_t cost, bool overflow)
{
  struct parse_budget *b = &parse_budget;
  if (!b->on)
    return true;
  if (overflow || cost > b->left)
    {
      b->hit = true;
      return false;
    }
  b->left -= cost;
  return true;
}

/* malloc's own header and alignment, roughly.  */
#define BUDGET_OVERHEAD (2 * sizeof (void *))

static void *
budget_malloc (size_t n)
{
  struct parse_budget *b = &parse_budget;
  size_t cost = n + BUDGET_OVERHEAD;
  if (!budget_count (cost, cost < n))
    return NULL;
  if (b->arena)
    {
      void *p = ash_json_arena_alloc (n);
      if (p)
        return p;
    }
  return malloc (n);
}

static void
budget_free (void *p)
{
  if (!ash_json_arena_free (p))
    free (p);
}

/* Before main, while there is one thread: jansson reads its allocator
   without a lock.  */
__attribute__ ((constructor)) static void
install_budget_malloc (void)
{
  json_set_alloc_funcs (budget_malloc, budget_free);
}

/* What jansson's own parser would have allocated beyond what the fast
   parser does (json-fast.h), counted as budget_malloc counts it: the
   budget refuses the same documents as when jansson parsed them.  */
static bool
budget_shadow (size_t size, size_t ours, void *arg)
{
  (void) arg;
  if (ours)
    return budget_count (size - ours, size < ours);
  return budget_count (size + BUDGET_OVERHEAD, size + BUDGET_OVERHEAD < size);
}

static const struct ash_json_fast_shadow budget_shadow_charge = {
  .charge = budget_shadow,
};

/* The budget of a parse of LEN bytes.  */
static size_t
parse_budget_for (size_t len)
{
  size_t floor = (size_t) 1 << 20;
  if (len > (SIZE_MAX - floor) / ASH_SARIF_PARSE_MEMORY_FACTOR)
    return SIZE_MAX;
  return floor + len * ASH_SARIF_PARSE_MEMORY_FACTOR;
}

/* The budget of a parse of LEN bytes starts (none when !ON); a parse of
   a quarter of an arena chunk or more makes its document in the arena
   (a smaller one would leave most of a chunk unused).  */
static void
parse_budget_start (size_t len, bool on)
{
  parse_budget = (struct parse_budget){
    .on = on,
    .arena = len >= ASH_JSON_ARENA_CHUNK / 4,
    .left = on ? parse_budget_for (len) : 0,
  };
}

/* ... and ends; returns whether it ended the parse.  */
static bool
parse_budget_end (void)
{
  bool hit = parse_budget.hit;
  if (parse_budget.arena)
    ash_json_arena_end ();
  parse_budget = (struct parse_budget){ 0 };
  return hit;
}

/* TEXT (LEN bytes) parsed with FLAGS under the budget of its size (or
   none, when !BUDGET: in the arena alone) by the fast parser, or, when
   that refuses it, by jansson, which says why in JERR: the document and
   *RET_HIT, whether the budget ended the parse, are what jansson alone
   gave before the fast parser (json-fast.h: it accepts what jansson
   accepts, and counts what jansson's parse would take).  */
static json_t *
loadb_fast (const char *text, size_t len, size_t flags, bool budget,
            json_error_t *jerr, bool *ret_hit)
{
  json_t *doc;

  parse_budget_start (len, budget);
  ash_json_fast_loadb (text, len, flags, &budget_shadow_charge, &doc);
  *ret_hit = parse_budget_end ();
  if (doc)
    return doc;
  parse_budget_start (len, budget);
  doc = json_loadb (text, len, flags, jerr);
  *ret_hit = parse_budget_end ();
  return doc;
}

json_t *
ash_json_loadb_budgeted (const char *text, size_t len, json_error_t *jerr,
                         bool *ret_over)
{
  bool hit;
  json_t *doc = loadb_fast (text, len, 0, true, jerr, &hit);
  *ret_over = doc == NULL && hit;
  return doc;
}

json_t *
ash_json_loadb_large (const char *text, size_t len, size_t flags,
                      json_error_t *jerr)
{
  bool hit;
  return loadb_fast (text, len, flags, false, jerr, &hit);
}

int
ash_json_over_budget (struct ash_error *err, const char *what, size_t len)
{
  return ash_error_set (err, -EFBIG,
                        _ ("%s was not read: its %zu bytes would take more "
                           "than %zu bytes of memory once parsed, %d times "
                           "its size and 1 MiB"),
                        what, len, parse_budget_for (len),
                        ASH_SARIF_PARSE_MEMORY_FACTOR);
}

int
ash_json_parse_output (const char *what, const char *text, size_t len,
                       json_t **ret_doc, struct ash_error *err)
{
  json_error_t jerr;
  bool over;

  json_t *doc = ash_json_loadb_budgeted (text, len, &jerr, &over);
  *ret_doc = doc;
  if (over)
    return ash_json_over_budget (err, what, len);
  if (doc == NULL)
    {
      _cleanup_free_ char *why = ash_escape_control (jerr.text);
      return ash_error_set (err, -EINVAL, _ ("%s is not JSON (line %d: %s)"),
                            what, jerr.line, why);
    }
  return 0;
}

/* What ash_sarif_parse does with PARSED, the document a parse of LEN
   bytes gave (stolen; NULL when the parse failed with JERR, and HIT when
   the budget ended it).  */
static int
sarif_check (json_t *parsed, const json_error_t *jerr, bool hit, size_t len,
             const bool *bad, size_t nbad, json_t **ret_doc,
             struct ash_error *err)
{
  _cleanup_json_ json_t *doc = parsed;
  size_t i;
  json_t *run;

  if (doc == NULL && hit)
    return ash_error_set (err, -EFBIG,
                          _ ("the output was not read: its %zu bytes would "
                             "take more than %zu bytes of memory once parsed, "
                             "%d times its size and 1 MiB"),
                          len, parse_budget_for (len),
                          ASH_SARIF_PARSE_MEMORY_FACTOR);
  if (doc == NULL)
    return ash_error_set (err, -EINVAL,
                          _ ("the output is not JSON (line %d: %s)"),
                          jerr->line, jerr->text);
  if (!json_is_object (doc))
    return shape_error (err, _ ("it is not a JSON object"));
  const char *version = json_string_value (json_object_get (doc, "version"));
  if (version == NULL || !streq (version, "2.1.0"))
    return shape_error (err, _ ("its version is not \"2.1.0\""));
  json_t *runs = json_object_get (doc, "runs");
  if (!json_is_array (runs))
    return shape_error (err, _ ("it has no \"runs\" array"));
  json_array_foreach (runs, i, run)
    {
      json_t *driver
        = json_object_get (json_object_get (run, "tool"), "driver");
      if (!json_is_string (json_object_get (driver, "name")))
        return shape_error (err, _ ("a run has no tool.driver.name"));
      json_t *results = json_object_get (run, "results");
      if (results == NULL || json_is_null (results))
        continue;
      if (!json_is_array (results))
        return shape_error (err, _ ("a run's \"results\" is not an array"));
      size_t j;
      json_t *res;
      /* BAD: the runs that had such a result taken by a sink.  */
      if (i < nbad && bad[i])
        return shape_error (err, _ ("a result has no message"));
      json_array_foreach (results, j, res)
        if (!json_is_object (json_object_get (res, "message")))
          return shape_error (err, _ ("a result has no message"));
    }
  json_array_foreach (runs, i, run)
    prune_run (run);
  *ret_doc = TAKE_PTR (doc);
  return 0;
}

int
ash_sarif_parse (const char *text, size_t len, json_t **ret_doc,
                 struct ash_error *err)
{
  json_error_t jerr;
  bool hit;

  json_t *doc
    = loadb_fast (text, len, JSON_REJECT_DUPLICATES, true, &jerr, &hit);
  return sarif_check (doc, &jerr, hit, len, NULL, 0, ret_doc, err);
}

/* The state of a parse that reads its text as it goes: the fast parser
   has it read into its own buffer 64 KiB at a time (file_read); jansson
   asks for a kilobyte at a time of a 64 KiB buffer read
   (file_source_read).  */
struct file_source
{
  struct ash_tree_reader rd;
  struct ash_error *err;
  int error; /* the read's, with ERR filled; or 0 */
  size_t pos, len;
  char buf[(size_t) 1 << 16];
};

static size_t
file_read (void *buf, size_t n, void *arg)
{
  struct file_source *fs = arg;
  if (fs->error)
    return (size_t) -1;
  ssize_t k = ash_tree_reader_read (&fs->rd, buf, n, fs->err);
  if (k < 0)
    {
      fs->error = (int) k;
      return (size_t) -1;
    }
  return (size_t) k;
}

static size_t
file_source_read (void *buf, size_t n, void *arg)
{
  struct file_source *fs = arg;
  if (fs->pos == fs->len)
    {
      size_t k = file_read (fs->buf, sizeof fs->buf, fs);
      if (k == (size_t) -1)
        return k;
      fs->pos = 0;
      fs->len = k;
    }
  size_t k = fs->len - fs->pos < n ? fs->len - fs->pos : n;
  memcpy (buf, fs->buf + fs->pos, k);
  fs->pos += k;
  return k;
}

static void set_scanner_name (json_t *obj, json_t *name);

/* A parse that hands its results to a sink (ash_sarif_parse_file_sink)
   as they come.  */
struct sink_feed
{
  const struct ash_sarif_sink *sink;
  bool *bad; /* by run: a result without a message object was taken */
  size_t nbad;
};

/* Take RES, runs[RUN].results[J] of the log being parsed, for the sink.
   Every result is taken, so that the parse charges its budget what the
   whole log's would (json-fast.h): one without a message object is
   dropped, and its run noted for sarif_check to refuse the log with the
   message it gives for one; any other is pruned as sarif_check prunes
   the results it keeps, and handed over.  What the sink does is none of
   the parse's business: its allocations are neither counted against the
   parse's budget nor carved from its arena.  */
static bool
sink_take (json_t *res, size_t run, void *arg)
{
  struct sink_feed *f = arg;
  struct parse_budget saved = parse_budget;
  parse_budget.on = false;
  parse_budget.arena = false;
  if (!json_is_object (json_object_get (res, "message")))
    {
      if (run >= f->nbad)
        {
          f->bad = xreallocarray (f->bad, run + 1, sizeof *f->bad);
          memset (f->bad + f->nbad, 0, (run + 1 - f->nbad) * sizeof *f->bad);
          f->nbad = run + 1;
        }
      f->bad[run] = true;
      json_decref (res);
    }
  else
    {
      prune_result (res);
      f->sink->result (res, run, f->sink->arg);
    }
  parse_budget = saved;
  return true;
}

/* Hand the results of DOC, parsed whole, to F's sink as sink_take
   does while a parse runs, emptying their arrays.  */
static void
sink_feed_doc (json_t *doc, struct sink_feed *f)
{
  size_t i;
  json_t *run;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    {
      json_t *results = json_object_get (run, "results");
      if (!json_is_array (results) || !json_is_object (run))
        continue;
      size_t j;
      json_t *res;
      json_array_foreach (results, j, res)
        sink_take (json_incref (res), i, f);
      json_array_clear (results);
    }
}

/* The document in the file RELPATH below DIRFD (at most MAX bytes),
   parsed with FLAGS: by the fast parser with HOOK (may be NULL) and,
   when that refuses it, once more by jansson, through a reader of its
   own, to say why in JERR (or to find the budget passed), as loadb_fast
   does for a text in memory.  RESET (ARG), when not NULL, comes before
   each reading; BUDGET: the budget of the file's size counts the parse.
   Returns 0 with *RET_DOC (NULL when the text was refused), *RET_HIT
   (the budget ended the parse) and *RET_SIZE (the file's size when it
   was opened), or the reader's error; *RET_TOTAL is the bytes the last
   reading read.

   The file may have changed between the readings, its scanner or
   whatever else can write below the results directory having written
   it again: that is harmless, since the second reading's checks, cap
   and budget are the first's, and what ash then reports (jansson's
   verdict on the file as it was read the second time) is what a single
   reading at that moment would have given; a file another process can
   rewrite holds whatever that process chose, either way.  */
static int
read_file_twice (int dirfd, const char *relpath, size_t max, size_t flags,
                 bool budget, const struct ash_json_fast_results *hook,
                 void (*reset) (void *), void *arg, json_t **ret_doc,
                 json_error_t *jerr, bool *ret_hit, size_t *ret_size,
                 size_t *ret_total, struct ash_error *err)
{
  _cleanup_free_ struct file_source *f = xmalloc (sizeof *f);
  json_t *doc = NULL;

  *ret_doc = NULL;
  *ret_hit = false;
  f->err = err;
  for (int pass = 0; pass < 2 && doc == NULL; pass++)
    {
      f->error = 0;
      f->pos = f->len = 0;
      if (reset)
        reset (arg);
      int r = ash_tree_reader_open (dirfd, relpath, max, &f->rd, err);
      if (r < 0)
        return r;
      /* The budget of the size the file had when it was opened, as for
         a text read whole; reading past MAX stops the parse.  */
      *ret_size = f->rd.size;
      parse_budget_start (f->rd.size, budget);
      if (pass == 0)
        ash_json_fast_load_callback_results (file_read, f, flags,
                                             budget ? &budget_shadow_charge
                                                    : NULL,
                                             hook, &doc);
      else
        doc = json_load_callback (file_source_read, f, flags, jerr);
      *ret_hit = parse_budget_end ();
      *ret_total = f->rd.total;
      ash_tree_reader_release (&f->rd);
      if (f->error)
        {
          json_decref (doc);
          return f->error;
        }
    }
  *ret_doc = doc;
  return 0;
}

static void
sink_feed_reset (void *arg)
{
  struct sink_feed *feed = arg;
  feed->sink->reset (feed->sink->arg);
  free (feed->bad);
  feed->bad = NULL;
  feed->nbad = 0;
}

static int
parse_file (int dirfd, const char *relpath, size_t max,
            const struct ash_sarif_sink *sink, json_t **ret_doc,
            size_t *ret_len, bool *ret_unread, struct ash_error *err)
{
  json_error_t jerr;
  json_t *doc;
  size_t len = 0;
  bool hit;
  struct sink_feed feed = { sink, NULL, 0 };
  /* The results go to the sink as they are parsed, so that the log is
     never a tree of all of them.  */
  const struct ash_json_fast_results take = { sink_take, &feed, NULL };

  *ret_unread = true;
  *ret_len = 0;
  int r = read_file_twice (dirfd, relpath, max, JSON_REJECT_DUPLICATES, true,
                           sink ? &take : NULL, sink ? sink_feed_reset : NULL,
                           &feed, &doc, &jerr, &hit, &len, ret_len, err);
  if (r < 0)
    {
      free (feed.bad);
      return r;
    }
  /* What is left in the log's results arrays goes to the sink once the
     log is whole: jansson's reading, should it accept what the fast
     parser did not, hands them all over so.  */
  if (doc && sink)
    sink_feed_doc (doc, &feed);
  *ret_unread = false;
  r = sarif_check (doc, &jerr, hit, len, feed.bad, feed.nbad, ret_doc, err);
  free (feed.bad);
  return r;
}

int
ash_sarif_parse_file (int dirfd, const char *relpath, size_t max,
                      json_t **ret_doc, size_t *ret_len, bool *ret_unread,
                      struct ash_error *err)
{
  return parse_file (dirfd, relpath, max, NULL, ret_doc, ret_len, ret_unread,
                     err);
}

int
ash_sarif_parse_file_sink (int dirfd, const char *relpath, size_t max,
                           const struct ash_sarif_sink *sink, json_t **ret_doc,
                           size_t *ret_len, bool *ret_unread,
                           struct ash_error *err)
{
  return parse_file (dirfd, relpath, max, sink, ret_doc, ret_len, ret_unread,
                     err);
}

static bool
pack_take (json_t *res, size_t run, void *arg)
{
  ash_packed_runs_add (arg, run, res);
  json_decref (res);
  return true;
}

static void
packed_runs_reset (void *arg)
{
  ash_packed_runs_clear (arg);
}

int
ash_json_load_file_packed (int dirfd, const char *relpath, size_t max,
                           size_t flags, const char *within, json_t **ret,
                           json_error_t *jerr, struct ash_error *err)
{
  struct ash_packed_runs feed = ASH_PACKED_RUNS_INIT;
  const struct ash_json_fast_results take = { pack_take, &feed, within };
  json_t *doc;
  size_t size, total;
  bool hit;

  *ret = NULL;
  memset (jerr, 0, sizeof *jerr);
  int r = read_file_twice (dirfd, relpath, max, flags, false, &take,
                           packed_runs_reset, &feed, &doc, jerr, &hit, &size,
                           &total, err);
  if (r < 0 || doc == NULL)
    {
      ash_packed_runs_clear (&feed);
      return r < 0 ? r : -EINVAL;
    }
  json_t *top = within ? json_object_get (doc, within) : doc;
  ash_packed_runs_attach (&feed, json_object_get (top, "runs"));
  /* jansson's reading, should it accept what the fast parser did not,
     leaves the results as a tree: they are packed the same.  */
  if (json_is_object (top))
    ash_sarif_pack (top);
  *ret = doc;
  return 0;
}

void
ash_sarif_tag_result (json_t *res, json_t *name)
{
  set_scanner_name (res, name);
}

/* NAME (borrowed, shared: one string for every result of a scanner,
   which no one changes) as properties.scanner_name of OBJ.  */
static void
set_scanner_name (json_t *obj, json_t *name)
{
  json_t *props = json_object_get (obj, "properties");
  if (!json_is_object (props))
    {
      props = json_object ();
      json_object_set_new (obj, "properties", props);
    }
  json_object_set (props, "scanner_name", name);
}

void
ash_sarif_tag (json_t *doc, const char *scanner)
{
  size_t i, j;
  json_t *run, *res;
  /* NULL for a name that is not UTF-8: nothing is set then, as
     json_object_set_new of NULL sets nothing.  */
  json_t *name = json_string (scanner);

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    {
      set_scanner_name (run, name);
      json_array_foreach (json_object_get (run, "results"), j, res)
        set_scanner_name (res, name);
    }
  json_decref (name);
}

void
ash_sarif_merge (json_t *merged, const json_t *doc)
{
  json_t *runs = json_object_get (merged, "runs");
  size_t i;
  json_t *run;

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_append (runs, run);
}

const char *
ash_sarif_result_location (const json_t *result, int *ret_start, int *ret_end)
{
  json_t *loc = json_array_get (json_object_get (result, "locations"), 0);
  json_t *phys = json_object_get (loc, "physicalLocation");
  const char *uri = json_string_value (
    json_object_get (json_object_get (phys, "artifactLocation"), "uri"));
  json_t *region = json_object_get (phys, "region");
  int start = (int) json_integer_value (json_object_get (region, "startLine"));
  int end = (int) json_integer_value (json_object_get (region, "endLine"));

  if (end < start)
    end = start;
  if (ret_start)
    *ret_start = start;
  if (ret_end)
    *ret_end = end;
  if (uri && ash_str_has_prefix (uri, "file://"))
    uri += strlen ("file://");
  return uri;
}

const char *
ash_sarif_result_rule (const json_t *result)
{
  const char *id = json_string_value (json_object_get (result, "ruleId"));
  if (id == NULL)
    id = json_string_value (
      json_object_get (json_object_get (result, "rule"), "id"));
  return id;
}
