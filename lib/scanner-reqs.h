/* scanner-reqs.h -- the sandbox requirements every scanner ASH ships
   declares: the builtin scanners, the community plugin scanners and the
   jupyter converter, as the per-scanner table of ash-sandbox(7) says.  */

#ifndef ASH_SCANNER_REQS_H
#define ASH_SCANNER_REQS_H

#include "requirements.h"

/* Fill RET (initialised here) with SCANNER's declared requirements.
   -ENOENT for a scanner ASH does not ship: the caller then uses the
   strictest default (RET is left initialised to it).  */
int ash_builtin_requirements (const char *scanner,
                              struct ash_requirements *ret);

/* The names ash_builtin_requirements knows, NULL-terminated.  */
extern const char *const ash_builtin_scanner_names[];

#endif
