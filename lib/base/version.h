/* SPDX-License-Identifier: Apache-2.0 */
/* version.h -- tool versions and version constraints.

   A configuration may ask for a version of a scanner's tool the way
   upstream ASH's scanners.NAME.options.tool_version does: a list of
   clauses separated by commas, each an operator and a version, as Python
   packaging writes them (">=1.7.0,<2.0.0", "~=3.2", "==1.2.*",
   "!=1.8.1").  ash does not install tools during a scan; it checks the
   version of the tool it found against the constraint.

   Versions compare by their release numbers (1.7 equals 1.7.0), then by
   what follows them: a development release, an alpha, a beta and a
   release candidate come before the release, a post release after it, in
   that order; a local part ("+ubuntu1") is ignored.  A suffix ash does
   not know ("1.2.0-foo", as semantic versioning writes pre-releases) is a
   pre-release.  */

#ifndef ASH_VERSION_H
#define ASH_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

#define ASH_VERSION_MAX_PARTS 8

struct ash_version
{
  unsigned long release[ASH_VERSION_MAX_PARTS];
  size_t n;          /* release numbers given (1 to ASH_VERSION_MAX_PARTS) */
  int phase;         /* -4 dev, -3 alpha, -2 beta, -1 candidate, 0 final,
                        1 post */
  unsigned long seq; /* the number after the phase's letters */
};

/* Parse S (an optional "v", then numbers separated by dots, then an
   optional suffix).  0, or -EINVAL when S does not start with a
   number.  */
int ash_version_parse (const char *s, struct ash_version *ret);

/* <0, 0 or >0 as A is older than, the same as or newer than B.  */
int ash_version_compare (const struct ash_version *a,
                         const struct ash_version *b);

/* Check that SPEC is a constraint ash understands; KEY names it in the
   error ("scanners.bandit.options.tool_version").  */
int ash_version_spec_check (const char *spec, const char *key,
                            struct ash_error *err);

/* Whether VERSION satisfies SPEC: 1 yes, 0 no, -EINVAL when SPEC is not
   a constraint (the error names KEY) or VERSION not a version.  */
int ash_version_spec_match (const char *spec, const char *version,
                            const char *key, struct ash_error *err);

/* The version in a tool's --version output: the first word of TEXT's
   first line that starts with a digit (or "v" and a digit), without a
   trailing comma or semicolon, at most 64 bytes; NULL when there is
   none.  */
char *ash_version_from_output (const char *text);

#endif
