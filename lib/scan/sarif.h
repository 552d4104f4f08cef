/* SPDX-License-Identifier: Apache-2.0 */
/* sarif.h -- SARIF 2.1.0 documents: building, checking what a scanner
   wrote, severities, and merging the runs of every scanner into one
   document.

   Ownership follows jansson: functions named _new return a new reference;
   json_t arguments are borrowed unless the comment says "steals".  */

#ifndef ASH_SARIF_H
#define ASH_SARIF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

#define ASH_SARIF_SCHEMA_URI                                                  \
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"       \
  "sarif-schema-2.1.0.json"

/* Severities as upstream ASH counts them, lowest first.  */
enum ash_severity
{
  ASH_SEVERITY_INFO = 0,
  ASH_SEVERITY_LOW,
  ASH_SEVERITY_MEDIUM,
  ASH_SEVERITY_HIGH,
  ASH_SEVERITY_CRITICAL,
};
#define ASH_SEVERITY_COUNT 5

/* "info", "low", "medium", "high", "critical".  */
const char *ash_severity_name (enum ash_severity s);
/* The properties.security-severity score of severity S, the one every
   SARIF normaliser and report of ash gives a rule that has none of its
   own: "1.0", "3.0", "6.0", "8.0", "9.5" for info to critical.  */
const char *ash_severity_score (enum ash_severity s);
/* The SARIF level of a result of severity S: "error" for critical and
   high, "warning" for medium, "note" for low, "none" for info (the levels
   ash_sarif_result_severity reads back as the same severities, but for
   critical).  The one mapping of every normaliser: code, IaC and
   dependency scanners alike.  */
const char *ash_severity_sarif_level (enum ash_severity s);
/* Parse a severity or threshold name, any case; "ALL" and "NONE" mean
   info.  0 or -EINVAL.  */
int ash_severity_parse (const char *s, enum ash_severity *ret);

/* The severity of one SARIF result: properties.issue_severity or
   properties.severity when present (CRITICAL, HIGH, MEDIUM, LOW, INFO),
   else from level (error: high, warning: medium, note: low, none: info;
   absent: warning, as SARIF defaults it).  */
enum ash_severity ash_sarif_result_severity (const json_t *result);

/* True when the result carries a suppression that is in effect (a
   "suppressions" entry whose status is absent or "accepted").  */
bool ash_sarif_result_is_suppressed (const json_t *result);

/* {"$schema", "version": "2.1.0", "runs": []}.  */
json_t *ash_sarif_doc_new (void);
/* A run of TOOL (driver name), VERSION and INFO_URI (both may be NULL),
   with empty rules and results.  */
json_t *ash_sarif_run_new (const char *tool, const char *version,
                           const char *info_uri);

/* json_loadb of TEXT under the parse budget of LEN bytes (the one
   ash_json_parse_output applies), parsed by json-fast.h's parser, and by
   jansson again when that refuses it.  Returns the document, or NULL
   with *JERR filled as jansson fills it; *RET_OVER tells whether the
   budget ended the parse.  */
json_t *ash_json_loadb_budgeted (const char *text, size_t len,
                                 json_error_t *jerr, bool *ret_over);

/* json_loadb (TEXT, LEN, FLAGS, JERR) without a budget, its document
   made in the arena (json-arena.h) when it is large: for a document
   ash wrote itself, such as the aggregated results read again.  The
   text is parsed by json-fast.h's parser, and by jansson only when that
   refuses it, for JERR.  */
json_t *ash_json_loadb_large (const char *text, size_t len, size_t flags,
                              json_error_t *jerr);

/* Set ERR to the refusal of WHAT, LEN bytes whose parse went over the
   budget; returns -EFBIG.  */
int ash_json_over_budget (struct ash_error *err, const char *what, size_t len);

/* A scanner's native JSON output (LEN bytes of TEXT) parsed under the
   same memory budget as a SARIF log: 0 with *RET_DOC, or -EINVAL with
   "WHAT is not JSON (line N: why)", or -EFBIG when the document would
   take more memory than the budget once parsed.  */
int ash_json_parse_output (const char *what, const char *text, size_t len,
                           json_t **ret_doc, struct ash_error *err);

/* Parse TEXT as a SARIF 2.1.0 log and check its shape: an object with
   version "2.1.0" and a "runs" array whose runs have tool.driver.name and,
   when present, a "results" array of objects with a message.  On success
   *RET_DOC is the document (new reference), from which what SARIF 2.1.0
   does not allow where ash reads it was dropped (rules without an id,
   suppressions of an unknown kind, levels outside the four, ruleIds and
   locations of the wrong type; a message without text or id gets an empty
   text).  Errors name what is wrong:
   "the output is not JSON (line L: ...)", "the output is not a SARIF 2.1.0
   log: ...".  The parse may take at most ASH_SARIF_PARSE_MEMORY_FACTOR
   times LEN and 1 MiB of memory: a document that would need more (one
   made of many tiny objects) is refused with -EFBIG and "the output was
   not read: its N bytes would take more than M bytes of memory once
   parsed ...", so that the memory a scanner's output costs is bounded by
   the cap on its size.  */
#define ASH_SARIF_PARSE_MEMORY_FACTOR 32
int ash_sarif_parse (const char *text, size_t len, json_t **ret_doc,
                     struct ash_error *err);

/* What takes a log's results one at a time as they are parsed
   (ash_sarif_parse_file_sink).  RESULT is given each result of the
   log's run RUN (the reference is handed over), checked and pruned as
   ash_sarif_parse_file leaves a result, in the log's order, while the
   parse runs: before the log as a whole is known to be good.  RESET is
   called before each reading of the file: what was given before it
   belongs to no log.  */
struct ash_sarif_sink
{
  void (*result) (json_t *res, size_t run, void *arg);
  void (*reset) (void *arg);
  void *arg;
};

/* As ash_sarif_parse_file, every result of the log handed to SINK: the
   runs' "results" arrays of *RET_DOC are left empty.  When it fails,
   what SINK was given belongs to no log.  */
int ash_sarif_parse_file_sink (int dirfd, const char *relpath, size_t max,
                               const struct ash_sarif_sink *sink,
                               json_t **ret_doc, size_t *ret_len,
                               bool *ret_unread, struct ash_error *err);

/* The JSON document in the file RELPATH below DIRFD (read a chunk at a
   time, at most MAX bytes; 0: no cap), parsed with FLAGS, each result
   of WITHIN.runs (WITHIN a member of the top-level object; NULL: the
   top-level "runs") packed (packed.h) as it is parsed, so that the
   document is never a tree of all its results: what `ash report`
   reads.  Returns 0 with *RET the document; -EINVAL when it is not
   JSON, with jansson's message in JERR; or the reader's error, in ERR.  */
int ash_json_load_file_packed (int dirfd, const char *relpath, size_t max,
                               size_t flags, const char *within, json_t **ret,
                               json_error_t *jerr, struct ash_error *err);

/* NAME (a string) as properties.scanner_name of the result RES, as
   ash_sarif_tag sets it.  */
void ash_sarif_tag_result (json_t *res, json_t *name);

/* ash_sarif_parse of the file RELPATH below DIRFD, read as
   ash_tree_read_file (DIRFD, RELPATH, MAX) reads it but a chunk at a time
   while it is parsed, so that its text is never held whole.  When it
   cannot be read, the error is ash_tree_read_file's and *RET_UNREAD is
   true; otherwise it is ash_sarif_parse's for the text read, the
   budget that of the file's size, and *RET_LEN the bytes read.  A file
   the parse refuses is read once more, by jansson, for the error it
   gives (then those are the second reading's).  */
int ash_sarif_parse_file (int dirfd, const char *relpath, size_t max,
                          json_t **ret_doc, size_t *ret_len, bool *ret_unread,
                          struct ash_error *err);

/* Tag every result of every run of DOC with properties.scanner_name =
   SCANNER, and the run itself with properties.scanner_name.  */
void ash_sarif_tag (json_t *doc, const char *scanner);

/* Append the runs of DOC to MERGED's runs (references taken).  */
void ash_sarif_merge (json_t *merged, const json_t *doc);

/* The artifact path of a result's first location (its
   physicalLocation.artifactLocation.uri with a "file://" prefix removed),
   its startLine (0 when none) and its endLine (startLine when none).
   Returns NULL when the result has no location.  Borrowed string.  */
const char *ash_sarif_result_location (const json_t *result, int *ret_start,
                                       int *ret_end);

/* The rule id of a result (ruleId, else rule.id), or NULL.  */
const char *ash_sarif_result_rule (const json_t *result);

#endif
