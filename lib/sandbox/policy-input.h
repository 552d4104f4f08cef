/* SPDX-License-Identifier: Apache-2.0 */
/* policy-input.h -- what a scanner's policy is computed from.

   `ash scan` and `ash sandbox explain` both fill a scanner's policy input
   through ash_policy_input_fill(), so that explain shows the policy the
   scan enforces.  */

#ifndef ASH_POLICY_INPUT_H
#define ASH_POLICY_INPUT_H

#include <stdbool.h>

#include "config/sandbox-settings.h"
#include "sandbox/backend.h"
#include "sandbox/policy.h"

/* Where a scanner runs: absolute paths, borrowed.  */
struct ash_policy_place
{
  const char *source_dir;
  const char *output_dir;
  const char *results_dir;    /* OUTPUT/scanners/NAME/source */
  const char *run_config_dir; /* the run's 0700 directory, or NULL when
                                 it is not made yet (explain) */
  const char *tool_path;      /* the scanner's tool, or NULL */
};

/* Fill IN for SCANNER with requirements REQ, the resolved sandbox settings
   SS (grants already filtered by tier), the host facts HOST, the places
   PLACE, OFFLINE, and the probe of the backend that will enforce it
   (NULL: none, and caches fall back to read-only as every backend but
   bwrap with overlays enforces them).  Everything is borrowed: IN points
   into the arguments and into the process's environment.  */
void ash_policy_input_fill (struct ash_policy_input *in, const char *scanner,
                            const struct ash_requirements *req,
                            const struct ash_sandbox_settings *ss,
                            const struct ash_host *host,
                            const struct ash_policy_place *place, bool offline,
                            const struct ash_probe *probe);

#endif
