/* SPDX-License-Identifier: Apache-2.0 */
/* reporter-names.h -- the reporter names a configuration and
   --output-formats may hold: those ash writes, and upstream's cloud
   reporters, which ash refuses.  */

#ifndef ASH_CONFIG_REPORTER_NAMES_H
#define ASH_CONFIG_REPORTER_NAMES_H

#include <stdbool.h>

/* The reporters ash writes, NULL-terminated (report/ has one renderer for
   each; tests/unit/test-reports checks that the two lists agree).  */
extern const char *const ash_reporter_names[];

/* Whether NAME is one of ash_reporter_names.  */
bool ash_reporter_known (const char *name);

/* When NAME is a reporter of upstream ASH that ash does not have (those
   that send the results to a cloud service), why, as a clause for a
   message; otherwise NULL.  */
const char *ash_reporter_unavailable (const char *name);

/* The names of ash_reporter_names joined by ", ", newly allocated.  */
char *ash_reporter_names_joined (void);

#endif
