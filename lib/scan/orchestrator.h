/* SPDX-License-Identifier: Apache-2.0 */
/* orchestrator.h -- `ash scan`: prepare, check, scan, aggregate.  */

#ifndef ASH_ORCHESTRATOR_H
#define ASH_ORCHESTRATOR_H

#include <jansson.h>

#include "base/error.h"
#include "config/ashconfig.h"
#include "config/options.h"
#include "sandbox/backend.h"

/* What the scan leaves behind once its results are aggregated.  The
   report layer provides these (report/reports.h); the scan layer only
   calls them.  */
struct ash_scan_outputs
{
  /* Write the aggregated results AGG and the reports the options and the
     configuration enable below the output directory DIRFD.  0, or a
     negative errno with ERR filled (the first failure; the other files
     are still written).  */
  int (*write) (int dirfd, const json_t *agg, const struct ash_options *opts,
                const struct ash_config *config, struct ash_error *err);
  /* The summary table printed on stdout (newly allocated).  REPORTS_DIR
     is where the reports are.  */
  char *(*summary) (const json_t *agg, const char *reports_dir);
};

/* Run `ash scan` with the resolved, valid CONFIG, confining every scanner
   with the best of BACKENDS (NULL-terminated, in the order --sandbox auto
   tries them) that the options select; on a platform with only the none
   backend, every sandboxed scanner is MISSING with its message.  Returns
   the process exit code.  */
int ash_scan_run (const struct ash_options *opts,
                  const struct ash_config *config,
                  const struct ash_backend *const *backends,
                  const struct ash_scan_outputs *outputs);

#endif
