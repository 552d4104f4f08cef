/* SPDX-License-Identifier: Apache-2.0 */
/* packed.h -- a run's results kept as text once they are processed.

   A scanner's SARIF log parsed whole is a tree of jansson values: an
   object, its buckets and a pair for each member, a string value and its
   text each, about 3.5 KB for a result of 900 bytes in the file.  Once
   a scanner's results are tagged, mapped, suppressed and filtered, none
   of that changes again, and what reads them afterwards is the writers
   of the aggregated results and ash.sarif, which write them as text, and
   the findings list of the reports, which reads a few fields of each.
   So each result is kept as its compact JSON text (json_dumps with
   JSON_COMPACT | JSON_ENSURE_ASCII), a few hundred bytes, and the run's
   "results" array is left empty and registered as standing for them.

   The writers of json-out.h write a registered array's texts,
   re-indented to their depth, so that the document's text is byte for
   byte what the tree would have given.  Anything else that reads a
   run's results counts them with ash_sarif_results_count() and reads a
   packed one again on its own with ash_packed_load().

   A registered array is held (a reference) until ash_packed_forget_all(),
   so that its address names it for as long as the texts are kept.  A
   result added to it after it was packed comes after the packed ones,
   for the writers and for the functions below alike.  */

#ifndef ASH_PACKED_H
#define ASH_PACKED_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct ash_packed;

/* A new empty store.  */
struct ash_packed *ash_packed_new (void);
void ash_packed_free (struct ash_packed *p);

/* Add RESULT's text to P, with the SEVERITY (enum ash_severity) and
   SUPPRESSED the counts of its scanner take from it.  */
void ash_packed_add (struct ash_packed *p, const json_t *result, int severity,
                     bool suppressed);

size_t ash_packed_count (const struct ash_packed *p);
/* The compact text of result I (not NUL-terminated) and its length.  */
const char *ash_packed_text (const struct ash_packed *p, size_t i,
                             size_t *ret_len);
int ash_packed_severity (const struct ash_packed *p, size_t i);
bool ash_packed_suppressed (const struct ash_packed *p, size_t i);
/* Result I parsed again (a new reference).  */
json_t *ash_packed_load (const struct ash_packed *p, size_t i);

/* Pack every result of every run of DOC (a SARIF log): each run's
   "results" array is emptied and registered with a store of its
   results' texts.  A run already packed, or without a results array,
   is left as it is.  */
void ash_sarif_pack (json_t *doc);

/* The store RESULTS (a run's "results" array) stands for, or NULL when
   it is not registered.  Cheap when nothing is registered.  */
const struct ash_packed *ash_packed_of (const json_t *results);

/* The number of results of RUN, packed or not.  */
size_t ash_sarif_results_count (const json_t *run);

/* A deep copy of DOC (a SARIF log, or a document holding one under
   "sarif") with every packed run's results made a tree again: for the
   writers that know nothing of packing (the YAML report).  */
json_t *ash_sarif_unpacked_copy (const json_t *doc);

/* The stores of a log's runs, filled one result at a time as it is
   parsed, then given to the log's runs once it is known good.  */
struct ash_packed_runs
{
  struct ash_packed **v; /* by run; NULL: none yet */
  size_t n;
};
#define ASH_PACKED_RUNS_INIT                                                  \
  {                                                                           \
    NULL, 0                                                                   \
  }
/* Pack RES (borrowed) into the store of RUN.  */
void ash_packed_runs_add (struct ash_packed_runs *r, size_t run,
                          const json_t *res);
/* Give each store to the results array of the run of RUNS (an array)
   with its index, which the parse left empty; a store without such an
   array is dropped.  R is left empty.  */
void ash_packed_runs_attach (struct ash_packed_runs *r, const json_t *runs);
void ash_packed_runs_clear (struct ash_packed_runs *r);

/* Drop every registration and store.  */
void ash_packed_forget_all (void);

#endif
