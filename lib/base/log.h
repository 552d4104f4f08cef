/* SPDX-License-Identifier: Apache-2.0 */
/* log.h -- ash.log, ash.log.jsonl and the terminal.

   Terminal lines look like "WARNING  message" (the level name left-aligned
   in eight columns, then a space).  Before the output directory is open,
   records go to the terminal only; ash_log_attach() adds ash.log (human
   readable) and ash.log.jsonl (one JSON object per record), opened by the
   caller through the non-following writers below the output directory.
   Thread-safe.  */

#ifndef ASH_LOG_H
#define ASH_LOG_H

#include <stdbool.h>

#include "base/error.h"

enum ash_log_level
{
  ASH_LOG_DEBUG = 10,
  ASH_LOG_VERBOSE = 15,
  ASH_LOG_INFO = 20,
  ASH_LOG_WARNING = 30,
  ASH_LOG_ERROR = 40,
  ASH_LOG_CRITICAL = 50,
};

/* LEVEL: the lowest level shown on the terminal.  QUIET: only errors.  */
void ash_log_setup (enum ash_log_level level, bool quiet, int color);
/* Parse "DEBUG", "info", ... ; 0 or -EINVAL.  */
int ash_log_level_parse (const char *s, enum ash_log_level *ret);
const char *ash_log_level_name (enum ash_log_level level);
/* Start writing records to HUMAN_FD (ash.log) and JSON_FD (ash.log.jsonl),
   both opened by the caller through the tree.h writers; the log owns and
   closes them.  -1 for none.  */
void ash_log_attach (int human_fd, int json_fd);
void ash_log_close (void);
void ash_log (enum ash_log_level level, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* A record that is printed on stderr whatever --quiet or --log-level say
   (the spec requires this for some warnings), and logged as LEVEL.  */
void ash_log_always (enum ash_log_level level, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Log each of MSGS (N of them) at LEVEL, as ash_log would one after
   the other (one time stamp for all), with a write per destination for
   many lines rather than one per line.  */
void ash_log_many (enum ash_log_level level, char *const *msgs, size_t n);
#define ash_debug(...) ash_log (ASH_LOG_DEBUG, __VA_ARGS__)
#define ash_info(...) ash_log (ASH_LOG_INFO, __VA_ARGS__)
#define ash_warning(...) ash_log (ASH_LOG_WARNING, __VA_ARGS__)
#define ash_err(...) ash_log (ASH_LOG_ERROR, __VA_ARGS__)

#endif
