/* SPDX-License-Identifier: Apache-2.0 */
/* strvec.c -- a growable, NULL-terminated vector of owned strings.  */

#include <config.h>

#include "base/strvec.h"

#include <stdio.h>

char *ash_strvec_empty[1];

void
ash_strvec_init (struct ash_strvec *sv)
{
  *sv = (struct ash_strvec) ASH_STRVEC_INIT;
}

void
ash_strvec_clear (struct ash_strvec *sv)
{
  for (size_t i = 0; i < sv->nr; i++)
    free (sv->v[i]);
  sv->nr = 0;
  if (sv->alloc)
    sv->v[0] = NULL;
}

void
ash_strvec_release (struct ash_strvec *sv)
{
  ash_strvec_clear (sv);
  if (sv->alloc)
    free (sv->v);
  ash_strvec_init (sv);
}

static void
strvec_grow (struct ash_strvec *sv)
{
  if (sv->nr + 2 <= sv->alloc)
    return;
  size_t n = sv->alloc ? sv->alloc * 2 : 8;
  if (sv->alloc)
    sv->v = xreallocarray (sv->v, n, sizeof *sv->v);
  else
    sv->v = xcalloc (n, sizeof *sv->v);
  sv->alloc = n;
}

const char *
ash_strvec_push_nodup (struct ash_strvec *sv, char *s)
{
  strvec_grow (sv);
  sv->v[sv->nr++] = s;
  sv->v[sv->nr] = NULL;
  return s;
}

const char *
ash_strvec_push (struct ash_strvec *sv, const char *s)
{
  return ash_strvec_push_nodup (sv, xstrdup (s));
}

const char *
ash_strvec_pushf (struct ash_strvec *sv, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = xvasprintf (fmt, ap);
  va_end (ap);
  return ash_strvec_push_nodup (sv, s);
}

void
ash_strvec_pushv (struct ash_strvec *sv, char *const *v)
{
  if (v)
    for (; *v; v++)
      ash_strvec_push (sv, *v);
}

void
ash_strvec_insert (struct ash_strvec *sv, size_t at, const char *s)
{
  if (at > sv->nr)
    at = sv->nr;
  strvec_grow (sv);
  memmove (sv->v + at + 1, sv->v + at, (sv->nr - at + 1) * sizeof *sv->v);
  sv->v[at] = xstrdup (s);
  sv->nr++;
}

void
ash_strvec_remove (struct ash_strvec *sv, size_t at)
{
  if (at >= sv->nr)
    return;
  free (sv->v[at]);
  memmove (sv->v + at, sv->v + at + 1, (sv->nr - at) * sizeof *sv->v);
  sv->nr--;
}

bool
ash_strvec_contains (const struct ash_strvec *sv, const char *s)
{
  for (size_t i = 0; i < sv->nr; i++)
    if (streq (sv->v[i], s))
      return true;
  return false;
}

static ssize_t
env_find (const struct ash_strvec *sv, const char *name)
{
  size_t ln = strlen (name);
  for (size_t i = 0; i < sv->nr; i++)
    if (strncmp (sv->v[i], name, ln) == 0 && sv->v[i][ln] == '=')
      return (ssize_t) i;
  return -1;
}

const char *
ash_strvec_getenv (const struct ash_strvec *sv, const char *name)
{
  ssize_t i = env_find (sv, name);
  return i < 0 ? NULL : sv->v[i] + strlen (name) + 1;
}

void
ash_strvec_setenv (struct ash_strvec *sv, const char *name, const char *value)
{
  ssize_t i = env_find (sv, name);
  char *s = xasprintf ("%s=%s", name, value);
  if (i < 0)
    ash_strvec_push_nodup (sv, s);
  else
    {
      free (sv->v[i]);
      sv->v[i] = s;
    }
}

bool
ash_strvec_setenv_kv (struct ash_strvec *sv, const char *kv)
{
  const char *eq = strchr (kv, '=');

  if (!eq || eq == kv)
    return false;
  _cleanup_free_ char *name = xstrndup (kv, (size_t) (eq - kv));
  ash_strvec_setenv (sv, name, eq + 1);
  return true;
}

void
ash_strvec_unsetenv (struct ash_strvec *sv, const char *name)
{
  ssize_t i;
  while ((i = env_find (sv, name)) >= 0)
    ash_strvec_remove (sv, (size_t) i);
}

char **
ash_strvec_detach (struct ash_strvec *sv)
{
  char **v = sv->alloc ? sv->v : xcalloc (1, sizeof *v);
  ash_strvec_init (sv);
  return v;
}

static int
cmp_str (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

void
ash_strvec_sort (struct ash_strvec *sv)
{
  /* Lists made in the order of a sorted walk mostly come sorted: a look
     at each neighbour costs less than qsort's n log n comparisons.  */
  size_t i = 1;
  while (i < sv->nr && strcmp (sv->v[i - 1], sv->v[i]) <= 0)
    i++;
  if (i < sv->nr)
    qsort (sv->v, sv->nr, sizeof *sv->v, cmp_str);
}
