/* SPDX-License-Identifier: Apache-2.0 */
/* results.h -- per-scanner results, ash_aggregated_results.json and the
   exit code.

   The aggregated document keeps upstream ASH v3's top-level keys:
   name, description, metadata {report_id, generated_at, project_name,
   tool_name, tool_version, source_dir, output_dir, summary_stats},
   scanner_results {NAME: {...}}, sarif (the merged SARIF document),
   converter_results and additional_reports.  Every report is rendered from
   this document alone, so `ash report` can render them again later.  */

#ifndef ASH_RESULTS_H
#define ASH_RESULTS_H

#include <jansson.h>
#include <stdbool.h>

#include "scan/sarif.h"

enum ash_scanner_status
{
  ASH_STATUS_PASSED = 0,
  ASH_STATUS_FAILED,
  ASH_STATUS_ERROR,
  ASH_STATUS_MISSING,
  ASH_STATUS_SKIPPED,
};

const char *ash_scanner_status_name (enum ash_scanner_status s);

struct ash_scanner_result
{
  char *name;
  enum ash_scanner_status status;
  bool dependencies_satisfied;
  bool excluded;
  unsigned severity_counts[ASH_SEVERITY_COUNT]; /* unsuppressed findings */
  unsigned suppressed_count;
  unsigned finding_count;    /* all findings, suppressed ones included */
  unsigned actionable_count; /* unsuppressed, at or above the threshold */
  int exit_code;             /* the tool's, or -1 when it did not run */
  double duration;           /* seconds */
  char *reason;              /* missing_reason / error_reason / why
                                skipped, or NULL */
  json_t *sarif;             /* the scanner's SARIF document, or NULL */
  json_t *sandbox;           /* the enforced sandbox record, or NULL */
  char *tool_path;
};

void ash_scanner_result_init (struct ash_scanner_result *r, const char *name);
void ash_scanner_result_release (struct ash_scanner_result *r);

/* Count the findings of R->sarif (severities, suppressed, actionable at
   THRESHOLD) and set the status to PASSED or FAILED (FAILED when
   something is actionable).  Only for a scanner that ran and whose output
   was read.  */
void ash_scanner_result_count (struct ash_scanner_result *r,
                               enum ash_severity threshold);

struct ash_scan_summary
{
  const char *project_name;
  const char *source_dir;
  const char *output_dir;
  const char *generated_at; /* ISO 8601, UTC: when the scan started */
  const char *ended_at;     /* ISO 8601, UTC: when its scanners had all
                               ended, or NULL for generated_at */
  const char *sandbox_mode;
  enum ash_severity threshold;
  bool fail_on_findings;
  bool fail_on_incomplete;
  bool interrupted;
  const json_t *converter_results; /* converter_results, or NULL for {} */
  bool converters_incomplete;      /* a converter refused, failed or is
                                      MISSING with inputs: exit 1 under
                                      FAIL_ON_INCOMPLETE */
};

/* The aggregated results document (new reference).  */
json_t *ash_results_aggregate (const struct ash_scan_summary *sum,
                               struct ash_scanner_result *const *results,
                               size_t n);

/* Exit code of the scan: 1 when a scanner is MISSING or ERROR and
   FAIL_ON_INCOMPLETE, else 2 when something is actionable and
   FAIL_ON_FINDINGS, else 0 (precedence 5, 3, 1, 2: the callers return 5
   and 3 before a scan runs).  */
int ash_results_exit_code (struct ash_scanner_result *const *results, size_t n,
                           bool fail_on_findings, bool fail_on_incomplete);

#endif
