/* SPDX-License-Identifier: Apache-2.0 */
/* phase.h -- the convert phase of `ash scan`: which converters run, on
   which inputs of the scan set, and what the scanners are then given.  */

#ifndef ASH_CONVERT_PHASE_H
#define ASH_CONVERT_PHASE_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/sandbox-settings.h"
#include "converters/converter.h"
#include "sandbox/backend.h"

struct ash_convert_input
{
  const struct ash_config *config;
  const struct ash_strvec *files; /* the scan set, relative paths */
  bool no_scanset; /* the scan set was not built (FILES is empty): no
                      scanner of the scan is handed the tree */
  int srcfd;
  const char *source_dir;
  int outfd; /* the output directory */
  const char *output_dir;
  const char *mode; /* sandbox mode */
  const struct ash_backend *const *backends;
  const struct ash_host *host;
  const struct ash_sandbox_settings *ss;
  bool offline;
  unsigned workers;
};

struct ash_convert_phase
{
  struct ash_converter_result jupyter;
  struct ash_converter_result archive;
  json_t *map;     /* converted/-relative path -> {original, member,
                      kind} */
  int workfd;      /* OUTPUT/converted, or -1 */
  char *work_abs;  /* its absolute path, or NULL */
  char *list_file; /* OUTPUT/ash-converted-files-list.txt, or NULL */
  size_t n_converted;
};

void ash_convert_phase_init (struct ash_convert_phase *ph);
void ash_convert_phase_release (struct ash_convert_phase *ph);

/* Clear the work directory of an earlier scan, then run every enabled
   converter on its inputs.  A converter that cannot run or an input that
   is refused or fails is recorded in PH (see
   ash_convert_phase_incomplete), not returned: a negative errno only when
   the work directory itself cannot be made or cleared (ERR filled, kind
   as fs/tree.h says).  */
int ash_convert_phase_run (const struct ash_convert_input *in,
                           struct ash_convert_phase *ph,
                           struct ash_error *err);

/* converter_results (new reference).  */
json_t *ash_convert_phase_json (const struct ash_convert_phase *ph);

/* True when a converter makes the scan incomplete.  */
bool ash_convert_phase_incomplete (const struct ash_convert_phase *ph);

#endif
