/* SPDX-License-Identifier: Apache-2.0 */
/* reports.h -- the reports, each rendered from the aggregated results
   document alone (results.h), as newly allocated text.  */

#ifndef ASH_REPORTS_H
#define ASH_REPORTS_H

#include <jansson.h>
#include <stdbool.h>

/* One report format: its reporter name in the config (reporters.NAME),
   the file it writes under reports/, and its renderer.  */
struct ash_report_format
{
  const char *name;
  const char *file;
  char *(*render) (const json_t *agg);
};

/* Every format, NULL-name terminated, in the order they are written.  */
extern const struct ash_report_format ash_report_formats[];

/* The findings of the merged SARIF as a flat list (new reference): each
   {scanner, rule_id, severity, file_path, line_start, line_end, message,
   suppressed, actionable}.  */
json_t *ash_report_flat_findings (const json_t *agg);
/* Between these, the findings list of AGG is built once and shared by
   every call above for AGG (which must not change meanwhile).  Not
   thread-safe: the reports are written by one thread.  */
void ash_report_findings_begin (const json_t *agg);
void ash_report_findings_end (void);

char *ash_report_sarif (const json_t *agg);
char *ash_report_flat_json (const json_t *agg);
char *ash_report_csv (const json_t *agg);
char *ash_report_markdown (const json_t *agg);
char *ash_report_text (const json_t *agg);

/* The options of reporters.markdown and reporters.text that ash honours
   (upstream's names); the schema checked them.  */
struct ash_summary_opts
{
  bool include_summary;           /* the per-scanner table (default true) */
  bool include_findings;          /* include_detailed_findings or
                                     include_findings_table (default
                                     true) */
  long long max_findings;         /* max_detailed_findings; -1: all */
  long long hotspots;             /* top_hotspots_limit; 0: no section */
  bool collapsible;               /* markdown: findings in <details> */
  bool compact;                   /* markdown: no header list */
};
/* Read OPTIONS (reporters.NAME.options, may be NULL) into RET.  */
void ash_summary_opts_read (const json_t *options,
                            struct ash_summary_opts *ret);
char *ash_report_markdown_opts (const json_t *agg,
                                const struct ash_summary_opts *o);
char *ash_report_text_opts (const json_t *agg,
                            const struct ash_summary_opts *o);
char *ash_report_html (const json_t *agg);
char *ash_report_junit (const json_t *agg);

/* The terminal summary: one row per scanner (status, counts, time), the
   reason under each MISSING/ERROR row, where the reports are.  */
char *ash_report_summary_table (const json_t *agg, const char *reports_dir);

/* Write ash_aggregated_results.json and every enabled report (the four
   upstream requires always; the others unless reporters.NAME.enabled is
   false or --output-formats leaves them out) below the output directory
   DIRFD, without following links.  0, or a negative errno with ERR filled
   for the first failure; every other file is still written.  */
struct ash_options;
struct ash_config;
struct ash_error;
int ash_report_outputs_write (int dirfd, const json_t *agg,
                              const struct ash_options *opts,
                              const struct ash_config *config,
                              struct ash_error *err);

#endif
