/* SPDX-License-Identifier: Apache-2.0 */
/* scan-command.c -- `ash scan`: the scan layer's phases, with the report
   layer's outputs.  */

#include <config.h>

#include "cli/commands.h"
#include "report/reports.h"
#include "scan/orchestrator.h"

static const struct ash_scan_outputs report_outputs = {
  .write = ash_report_outputs_write,
  .summary = ash_report_summary_table,
};

int
ash_scan (const struct ash_options *opts, const struct ash_config *config,
          const struct ash_backend *const *backends)
{
  return ash_scan_run (opts, config, backends, &report_outputs);
}
