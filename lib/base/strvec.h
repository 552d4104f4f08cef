/* SPDX-License-Identifier: Apache-2.0 */
/* strvec.h -- a growable, NULL-terminated vector of owned strings, for argv
   and environment vectors.  V is never NULL (an empty vector points at a
   static NULL slot), and V[NR] is always NULL.  */

#ifndef ASH_STRVEC_H
#define ASH_STRVEC_H

#include "base/util.h"

struct ash_strvec
{
  char **v;
  size_t nr;
  size_t alloc;
};

extern char *ash_strvec_empty[];
#define ASH_STRVEC_INIT                                                       \
  {                                                                           \
    ash_strvec_empty, 0, 0                                                    \
  }

void ash_strvec_init (struct ash_strvec *sv);
/* Safe on a zeroed vector and on one already released.  */
void ash_strvec_release (struct ash_strvec *sv);
#define _cleanup_strvec_ _cleanup_ (ash_strvec_release)
void ash_strvec_clear (struct ash_strvec *sv);
const char *ash_strvec_push (struct ash_strvec *sv, const char *s);
/* Take ownership of S.  */
const char *ash_strvec_push_nodup (struct ash_strvec *sv, char *s);
const char *ash_strvec_pushf (struct ash_strvec *sv, const char *fmt, ...)
  _printf_ (2, 3);
void ash_strvec_pushv (struct ash_strvec *sv, char *const *v);
void ash_strvec_insert (struct ash_strvec *sv, size_t at, const char *s);
void ash_strvec_remove (struct ash_strvec *sv, size_t at);
bool ash_strvec_contains (const struct ash_strvec *sv, const char *s);
/* For NAME=VALUE vectors: the value of NAME, or NULL.  */
const char *ash_strvec_getenv (const struct ash_strvec *sv, const char *name);
/* Replace or add NAME=VALUE.  */
void ash_strvec_setenv (struct ash_strvec *sv, const char *name,
                        const char *value);
/* Replace or add the NAME=VALUE entry KV; false (SV untouched) when KV
   has no "=" or no name.  */
bool ash_strvec_setenv_kv (struct ash_strvec *sv, const char *kv);
void ash_strvec_unsetenv (struct ash_strvec *sv, const char *name);
/* Give the caller the vector (never NULL); SV is reset.  */
char **ash_strvec_detach (struct ash_strvec *sv);
void ash_strvec_sort (struct ash_strvec *sv);

#endif
