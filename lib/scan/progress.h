/* SPDX-License-Identifier: Apache-2.0 */
/* progress.h -- what the scan is doing, while it does it.

   On a terminal: one line per running scanner with its elapsed time,
   redrawn in place.  Not a terminal: one plain line when a scanner starts
   and one when it ends.  Off: nothing (--no-progress, CI, --quiet).
   Thread-safe.  */

#ifndef ASH_PROGRESS_H
#define ASH_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

enum ash_progress_mode
{
  ASH_PROGRESS_OFF = 0,
  ASH_PROGRESS_PLAIN,
  ASH_PROGRESS_LIVE,
};

/* The mode for OPTION (-1 auto, 0 off, 1 on), CI (CI set), QUIET, and
   whether STREAM is a terminal.  */
enum ash_progress_mode ash_progress_choose (int option, bool ci, bool quiet,
                                            FILE *stream);

struct ash_progress;

/* Start reporting on STREAM.  LIVE mode starts a redraw thread.  */
struct ash_progress *ash_progress_start (enum ash_progress_mode mode,
                                         FILE *stream);
void ash_progress_begin (struct ash_progress *p, const char *name);
/* STATUS: "PASSED", "ERROR", ... ; DETAIL may be NULL.  */
void ash_progress_end (struct ash_progress *p, const char *name,
                       const char *status, double seconds);
/* Around terminal output of the caller's own (log lines): the live lines
   are cleared and the display holds still until ash_progress_resume(),
   which draws them again.  NULL-safe.  */
void ash_progress_pause (struct ash_progress *p);
void ash_progress_resume (struct ash_progress *p);
/* Stop and free (clears the live lines).  NULL-safe.  */
void ash_progress_stop (struct ash_progress *p);

#endif
