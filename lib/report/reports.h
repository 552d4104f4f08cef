/* SPDX-License-Identifier: Apache-2.0 */
/* reports.h -- the reports, each rendered from the aggregated results
   document alone (results.h), as newly allocated text.  */

#ifndef ASH_REPORTS_H
#define ASH_REPORTS_H

#include <jansson.h>
#include <stdbool.h>

#include "report/json-out.h"

/* One report format: its reporter name in the config (reporters.NAME),
   the file it writes under reports/, and its renderer.  A renderer may
   return NULL when it has nothing to write (gitlab-cyclonedx without an
   SBOM), as upstream writes no file then.  RENDER_OPTS, when set, is used
   instead of RENDER and gets reporters.NAME.options (may be NULL).  */
struct ash_report_format
{
  const char *name;
  const char *file;
  char *(*render) (const json_t *agg);
  char *(*render_opts) (const json_t *agg, const json_t *options);
  /* For a report that is one JSON document: the document (new
     reference), which ash_report_outputs_write() writes to the file as
     it is produced rather than rendering it to text first.  RENDER or
     RENDER_OPTS gives the same bytes.  */
  json_t *(*build) (const json_t *agg, const json_t *options,
                    struct ash_json_gen *ret_gen);
  /* For a report of another kind written as it is produced: its text
     written to O.  RENDER gives the same bytes.  */
  void (*write) (const json_t *agg, const json_t *options, struct ash_out *o);
};

/* Every format, NULL-name terminated, in the order they are written.  */
extern const struct ash_report_format ash_report_formats[];

/* One finding of the flat list that the summaries read.  The strings
   are borrowed from the aggregated document and never NULL ("" when the
   result has none).  */
struct ash_report_flat
{
  const json_t *result; /* the result it was read from */
  const char *path;     /* as ash_sarif_result_location, or NULL */
  const char *rule;     /* as ash_sarif_result_rule, or NULL */
  const char *scanner;
  const char *rule_id;
  const char *file_path;
  const char *message;
  int line_start, line_end; /* 0: no line */
  int severity;             /* enum ash_severity */
  bool suppressed;
  bool actionable;
  /* As in struct ash_report_finding.  */
  const char *suppression_kind;
  const char *suppression_reason;
  const char *snippet;
  const json_t *properties;
  const json_t *tags;
  /* For a result of a packed run (scan/packed.h), which has no tree
     for PROPERTIES and TAGS to point into: their compact text, or NULL
     when absent.  */
  const char *properties_text;
  const char *tags_text;
};
/* The findings of the merged SARIF of an aggregated document, in its
   order: N items at V.  */
struct ash_report_flat_list
{
  const struct ash_report_flat *v;
  size_t n;
  struct ash_report_flat *owned; /* what _release frees */
  void *strings;                 /* and the texts it holds */
};
/* The flat list of AGG into RET, valid while AGG does not change;
   release it with ash_report_flat_list_release().  */
void ash_report_flat_list_get (const json_t *agg,
                               struct ash_report_flat_list *ret);
void ash_report_flat_list_release (struct ash_report_flat_list *l);
/* Between these, the findings list of AGG is built once and shared by
   every ash_report_flat_list_get() for AGG (which must not change
   meanwhile).  Not thread-safe: the reports are written by one thread.  */
void ash_report_findings_begin (const json_t *agg);
void ash_report_findings_end (void);

char *ash_report_sarif (const json_t *agg);
/* The documents of the JSON reports (new references), their array of
   findings made one finding at a time by *RET_GEN (see json-out.h): the
   text of ash_report_NAME is the document's, indented, and a line
   end.  */
json_t *ash_report_flat_json_doc (const json_t *agg,
                                  struct ash_json_gen *ret_gen);
json_t *ash_report_cyclonedx_doc (const json_t *agg,
                                  struct ash_json_gen *ret_gen);
json_t *ash_report_gitlab_sast_doc (const json_t *agg, const json_t *options,
                                    struct ash_json_gen *ret_gen);
json_t *ash_report_ghas_doc (const json_t *agg, const json_t *options,
                             struct ash_json_gen *ret_gen);
json_t *ash_report_ocsf_doc (const json_t *agg, struct ash_json_gen *ret_gen);

/* The results of the merged SARIF of an aggregated document, one at a
   time, each made into a report's item by ITEM (a new reference, or
   NULL to leave the result out).  A report's state around it starts
   with it.  */
struct ash_report_walk
{
  const json_t *agg;
  const json_t *runs;
  size_t run, res;
  size_t count; /* results given so far */
  json_t *(*item) (struct ash_report_walk *w, const json_t *run,
                   const json_t *res);
  /* Of the run RUN once looked at (AT is RUN then): its packed results
     (scan/packed.h) or NULL, how many they are, and its results in all,
     so that each run's are looked up once.  */
  size_t at;
  const struct ash_packed *packed;
  size_t n_packed, n_results;
};
void ash_report_walk_init (struct ash_report_walk *w, const json_t *agg,
                           json_t *(*item) (struct ash_report_walk *w,
                                            const json_t *run,
                                            const json_t *res));
/* The next item of the walk CTX, or NULL after the last (the NEXT of an
   ash_json_gen).  */
json_t *ash_report_walk_next (void *ctx);
/* The next result of the walk W (borrowed; its run in *RET_RUN when not
   NULL), or NULL after the last: for a report that writes its items
   itself (the WRITE of an ash_json_gen), which ignores W's ITEM.  */
/* What the walk gives for a result of a packed run (scan/packed.h),
   which has no tree: the reports read it through
   ash_report_walk_finding(), from the findings list.  It is JSON's
   null, so that whatever reads it as a result reads nothing.  */
#define ASH_REPORT_PACKED_RESULT (json_null ())
/* RES, the result the walk W gave last, as a tree: RES itself, or the
   packed result parsed again (valid until the next call on this
   thread).  For a walk without the findings list of its document.  */
const json_t *ash_report_walk_unpacked (const struct ash_report_walk *w,
                                        const json_t *res);
const json_t *ash_report_walk_result (struct ash_report_walk *w,
                                      const json_t **ret_run);
/* What the reports read of RES, the result the walk W gave last: taken
   from the findings list shared between ash_report_findings_begin() and
   _end() when there is one for W's document, else read from RES.  */
struct ash_report_finding;
void ash_report_walk_finding (const struct ash_report_walk *w,
                              const json_t *res,
                              struct ash_report_finding *ret);
/* The next result of W as what the reports read of it, into *RET,
   passing over the suppressed ones when SKIP_SUPPRESSED: false after the
   last.  */
bool ash_report_walk_next_finding (struct ash_report_walk *w,
                                   bool skip_suppressed,
                                   struct ash_report_finding *ret);
/* DOC (stolen), its array made by GEN, as ash_report_dump_json writes
   it (indented); GEN is released.  */
char *ash_report_dump_json_gen (json_t *doc, struct ash_json_gen *gen);
char *ash_report_flat_json (const json_t *agg);
char *ash_report_csv (const json_t *agg);
/* The text of ash_report_csv written to O a row at a time.  */
void ash_report_csv_write (const json_t *agg, struct ash_out *o);
char *ash_report_markdown (const json_t *agg);
char *ash_report_text (const json_t *agg);

/* The options of reporters.markdown and reporters.text that ash honours
   (upstream's names); the schema checked them.  */
struct ash_summary_opts
{
  bool include_summary;   /* the per-scanner table (default true) */
  bool include_findings;  /* include_detailed_findings or
                             include_findings_table (default
                             true) */
  long long max_findings; /* max_detailed_findings; -1: all */
  long long hotspots;     /* top_hotspots_limit; 0: no section */
  bool collapsible;       /* markdown: findings in <details> */
  bool compact;           /* markdown: no header list */
};
/* Read OPTIONS (reporters.NAME.options, may be NULL) into RET.  */
void ash_summary_opts_read (const json_t *options,
                            struct ash_summary_opts *ret);
char *ash_report_markdown_opts (const json_t *agg,
                                const struct ash_summary_opts *o);
char *ash_report_text_opts (const json_t *agg,
                            const struct ash_summary_opts *o);
/* The text of ash_report_markdown_opts and ash_report_text_opts written
   to O a finding at a time.  */
void ash_report_markdown_write (const json_t *agg,
                                const struct ash_summary_opts *o,
                                struct ash_out *out);
void ash_report_text_write (const json_t *agg,
                            const struct ash_summary_opts *o,
                            struct ash_out *out);
char *ash_report_html (const json_t *agg);
char *ash_report_junit (const json_t *agg);
/* The text of ash_report_html and ash_report_junit written to O a
   finding at a time.  */
void ash_report_html_write (const json_t *agg, struct ash_out *out);
void ash_report_junit_write (const json_t *agg, struct ash_out *out);

/* The reports upstream ASH 3 has besides those above.  Each reads the
   aggregated document as ash_report_outputs_write() writes it: with
   upstream's "cyclonedx" member (syft's SBOM, or null), "ash_config" and
   "used_suppressions".  */
char *ash_report_cyclonedx (const json_t *agg);
char *ash_report_gitlab_cyclonedx (const json_t *agg, const json_t *options);
char *ash_report_gitlab_sast (const json_t *agg, const json_t *options);
char *ash_report_ghas (const json_t *agg, const json_t *options);
char *ash_report_ocsf (const json_t *agg);
char *ash_report_yaml (const json_t *agg);
char *ash_report_spdx (const json_t *agg);
char *ash_report_unused_suppressions (const json_t *agg,
                                      const json_t *options);

/* The identifier upstream gives the suppression ENTRY (an item of
   global_settings.suppressions): "PATH|RULE|START|END", "*" for each part
   the entry leaves open.  Newly allocated.  */
char *ash_report_suppression_id (const json_t *entry);

/* What the reports read of one SARIF result (borrowed strings).  */
struct ash_report_finding
{
  const char *path;    /* or NULL */
  int start, end;      /* 0: no line */
  const char *rule;    /* or NULL */
  const char *scanner; /* "" when unknown */
  const char *message; /* "" when none */
  int severity;        /* enum ash_severity */
  bool suppressed;
  /* The rest of what a report may read of a result, so that none reads
     the result itself: its first suppression's kind and justification,
     the snippet of its first location, and its properties and their
     tags (each NULL when absent or not of its type).  */
  const char *suppression_kind;
  const char *suppression_reason;
  const char *snippet;
  const json_t *properties; /* an object */
  const json_t *tags;       /* an array */
  /* Their compact text instead, for a result of a packed run (then
     PROPERTIES and TAGS are NULL); NULL otherwise.  */
  const char *properties_text;
  const char *tags_text;
};
void ash_report_finding_read (const json_t *result,
                              struct ash_report_finding *ret);

/* Helpers the reports share (report-util.c).  */
struct ash_buf;
/* S as Markdown text: control characters shown as text, every ASCII
   punctuation character backslash-escaped.  */
void ash_report_md_escape (struct ash_buf *b, const char *s);
/* V (stolen) as JSON text and a line end; PRETTY: indented.  Every
   character outside ASCII is written as a \u escape.  */
char *ash_report_dump_json (json_t *v, bool pretty);
/* Append IN to B as one quoted CSV field: control characters shown as
   text, quotes doubled, and a leading =, +, - or @ prefixed with a quote
   so that a spreadsheet does not run it as a formula.  */
void ash_report_csv_field (struct ash_buf *b, const char *in);
/* A stable identifier of a finding: 32 hexadecimal digits from its
   scanner, rule, path and lines.  Newly allocated.  */
char *ash_report_finding_id (const char *scanner, const char *rule,
                             const char *path, int start, int end);
/* A UUID-shaped identifier of this report (of AGG's report id, time and
   directories, and SALT), the same for the same scan.  Newly
   allocated.  */
char *ash_report_uuid (const json_t *agg, const char *salt);
/* metadata.generated_at of AGG ("YYYY-MM-DDTHH:MM:SSZ"), or "".  */
const char *ash_report_generated_at (const json_t *agg);
/* The scanner that reported RESULT (properties.scanner_name), or "".  */
const char *ash_report_result_scanner (const json_t *result);
/* The message text of RESULT, or "".  */
const char *ash_report_result_message (const json_t *result);

/* The terminal summary: one row per scanner (status, counts, time), the
   reason under each MISSING/ERROR row, where the reports are.  */
char *ash_report_summary_table (const json_t *agg, const char *reports_dir);
/* Whether ash_report_summary_table() colours each scanner's status and
   its severity counts that are not zero with ANSI SGR sequences (default
   off; the text report never is).  */
void ash_report_summary_color (bool on);

/* The report of format F for the aggregated document AGG (new string,
   or NULL when F has nothing to report), with reporters.NAME.options of
   CONFIG (may be NULL).  */
struct ash_config;
char *ash_report_render (const json_t *agg, const struct ash_report_format *f,
                         const struct ash_config *config);

/* How many threads ash_report_outputs_write() writes the reports on: 0
   (the default) for one per processor, at most 4; 1 for one after the
   other.  For tests.  */
void ash_report_outputs_set_workers (unsigned n);

/* Write ash_aggregated_results.json and every enabled report (the four
   upstream requires always; the others unless reporters.NAME.enabled is
   false or --output-formats leaves them out) below the output directory
   DIRFD, without following links.  0, or a negative errno with ERR filled
   for the first failure; every other file is still written.  The reports
   are written side by side on threads (ash_report_outputs_set_workers).  */
struct ash_options;
struct ash_config;
struct ash_error;
int ash_report_outputs_write (int dirfd, const json_t *agg,
                              const struct ash_options *opts,
                              const struct ash_config *config,
                              struct ash_error *err);

#endif
