/* SPDX-License-Identifier: Apache-2.0 */
/* fnmatch.h -- shell pattern matching for the Windows build.  */
#ifndef ASH_W32_FNMATCH_H
#define ASH_W32_FNMATCH_H
#define FNM_NOMATCH 1
#define FNM_NOESCAPE 1
#define FNM_PATHNAME 2
#define FNM_PERIOD 4
int fnmatch (const char *pattern, const char *string, int flags);
#endif
