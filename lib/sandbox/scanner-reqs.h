/* SPDX-License-Identifier: Apache-2.0 */
/* scanner-reqs.h -- the sandbox requirements every scanner ASH ships
   declares: the builtin scanners, the community plugin scanners and the
   jupyter converter, as the per-scanner table of ash-sandbox(7) says.  */

#ifndef ASH_SCANNER_REQS_H
#define ASH_SCANNER_REQS_H

#include "sandbox/requirements.h"

/* Fill RET (initialised here) with SCANNER's declared requirements.
   -ENOENT for a scanner ASH does not ship: the caller then uses the
   strictest default (RET is left initialised to it).  */
int ash_builtin_requirements (const char *scanner,
                              struct ash_requirements *ret);

/* The database cache directory the tool of SCANNER (grype; trivy for
   trivy and trivy-repo) reads on the host, as ash-sandbox(7) says: the
   tool's variable (GRYPE_DB_CACHE_DIR, TRIVY_CACHE_DIR) as it is when set
   and not empty, else $XDG_CACHE_HOME when it is an absolute path, else
   HOME/.cache, with grype/db (grype) or trivy (trivy) below the last two.
   ENVIRON is the environment to read (NULL-terminated NAME=VALUE), HOME
   the home directory ($HOME; may be NULL).  Newly allocated, with
   *RET_RULE (newly allocated, may be NULL) saying which rule gave it; NULL
   for any other scanner, or when no rule gives an absolute path.  */
char *ash_scanner_db_cache_dir (const char *scanner, char *const *environ,
                                const char *home, char **ret_rule);

/* The names ash_builtin_requirements knows, NULL-terminated.  */
extern const char *const ash_builtin_scanner_names[];

#endif
