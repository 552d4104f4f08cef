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
   HOME/.cache, with grype/db (grype) or trivy (trivy) below the last two;
   for trivy, $TMPDIR/trivy when XDG_CACHE_HOME is relative or HOME is
   not an absolute path, as trivy itself does, but only when TMPDIR is an
   absolute path naming a directory of this account's own that no other
   can write (never the shared /tmp, trivy's default there).
   ENVIRON is the environment to read (NULL-terminated NAME=VALUE), HOME
   the home directory ($HOME; may be NULL).  Newly allocated, with
   *RET_RULE (newly allocated, may be NULL) saying which rule gave it; NULL
   for any other scanner, or when no rule gives an absolute path.  */
char *ash_scanner_db_cache_dir (const char *scanner, char *const *environ,
                                const char *home, char **ret_rule);

/* Why no database cache can be named for TOOL ("grype" or "trivy"), when
   ash_scanner_db_cache_dir gives none: the scanner is refused then, rather
   than left to pick a directory of its own (translated, static).  */
const char *ash_db_cache_unknown (const char *tool);

/* The names ash_builtin_requirements knows, NULL-terminated.  */
extern const char *const ash_builtin_scanner_names[];

#endif
