/* SPDX-License-Identifier: Apache-2.0 */
/* suppress.h -- suppressions: global_settings.suppressions entries of the
   configuration and inline ash-ignore comments in the scanned sources.

   A config entry matches a result when its rule_id glob (if any) matches
   the result's rule id, its path glob matches the result's file (relative
   to the source directory), and, when line_start / line_end are given, the
   result's start line lies in that range.  As upstream: globs compare
   without case, and "**" then "/" also matches no directory.  An entry whose
   expiration date (YYYY-MM-DD) is today or past does not apply, and a
   warning says so; one that expires within 30 days is warned about.

   Inline, as upstream: a result is suppressed when its first line holds
   "# ash-ignore: RULE" (or "// ash-ignore: RULE"), or the line before it
   "ash-ignore-next-line: RULE", and RULE matches the result's rule id.  */

#ifndef ASH_SUPPRESS_H
#define ASH_SUPPRESS_H

#include <jansson.h>
#include <stdbool.h>
#include <time.h>

#include "base/error.h"
#include "base/strvec.h"

struct ash_suppression
{
  char *rule_id;  /* glob, or NULL: any rule */
  char *path;     /* glob on the path relative to the source dir */
  int line_start; /* 0: not given */
  int line_end;   /* 0: not given */
  char *reason;
  char *expiration; /* as written, or NULL */
};

struct ash_suppressions
{
  struct ash_suppression *v;
  size_t n;
};

void ash_suppressions_init (struct ash_suppressions *s);
void ash_suppressions_release (struct ash_suppressions *s);

/* Load the entries of LIST (global_settings.suppressions, may be NULL).
   Entries expired at TODAY (a "YYYY-MM-DD" string) are left out with a
   warning appended to WARNINGS; an entry without a path, or with an
   expiration that is not a date, is an error (-EINVAL).  */
int ash_suppressions_load (const json_t *list, const char *today,
                           struct ash_suppressions *ret,
                           struct ash_strvec *warnings, struct ash_error *err);

/* The first entry that matches a result of RULE at PATH:LINE, or NULL.  */
const struct ash_suppression *
ash_suppressions_match (const struct ash_suppressions *s, const char *rule,
                        const char *path, int line);

/* Apply config entries S and inline comments (files read below
   SOURCE_DIR, at most MAX_FILE bytes each; SOURCE_DIR NULL: no inline
   check) to every result of every run of DOC: a suppressed result gets a
   "suppressions" entry (kind "external" for config entries with the
   entry's reason as justification, "inSource" for comments).  Returns the
   number of results newly suppressed.  */
size_t ash_suppress_doc (json_t *doc, const struct ash_suppressions *s,
                         const char *source_dir, size_t max_file);

/* The same, one result at a time: the files read for the inline check
   are kept from one result to the next until ash_suppress_end(), which
   logs (when LOG) the files that could not be read.  */
struct ash_suppress_session;
struct ash_suppress_session *
ash_suppress_begin (const struct ash_suppressions *s, const char *source_dir,
                    size_t max_file);
/* Whether RES was newly suppressed.  */
bool ash_suppress_result (struct ash_suppress_session *ss, json_t *res);
void ash_suppress_end (struct ash_suppress_session *ss, bool log);

/* Whether LINE (1-based) of TEXT carries an inline suppression of RULE:
   "# ash-ignore: ID" or "// ash-ignore: ID" on that line, or
   "ash-ignore-next-line: ID" on the one before, where the rule id ID
   matches RULE (a glob, without case; a reason may follow it).  */
bool ash_suppress_inline_text (const char *text, int line, const char *rule);

/* Today's date as "YYYY-MM-DD" (UTC) into BUF (11 bytes).  */
void ash_suppress_today (char buf[static 11]);

#endif
