/* SPDX-License-Identifier: Apache-2.0 */
/* tap.h -- a tiny TAP producer for the C unit tests.

   Each test program prints "ok N - name" or "not ok N - name" lines, then
   the plan: main returns tap_done(), which prints "1..N" and returns 1
   when anything failed, else 0.  A program that cannot run at all calls
   tap_skip_all(), which prints "1..0 # SKIP reason" and exits 77; one
   test that cannot run calls tap_skip().  */

#ifndef ASH_TAP_H
#define ASH_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n;
static int tap_failed;

__attribute__ ((format (printf, 2, 3), unused)) static bool
tap_ok (bool cond, const char *fmt, ...)
{
  va_list ap;
  tap_n++;
  printf ("%s %d - ", cond ? "ok" : "not ok", tap_n);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  if (!cond)
    tap_failed++;
  fflush (stdout);
  return cond;
}

__attribute__ ((format (printf, 1, 2), unused)) static void
tap_diag (const char *fmt, ...)
{
  va_list ap;
  printf ("# ");
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  fflush (stdout);
}

#define tap_is_int(got, want, ...)                                            \
  do                                                                          \
    {                                                                         \
      long long _g = (long long) (got), _w = (long long) (want);              \
      if (!tap_ok (_g == _w, __VA_ARGS__))                                    \
        tap_diag ("  got %lld, want %lld", _g, _w);                           \
    }                                                                         \
  while (0)

#define tap_is_str(got, want, ...)                                            \
  do                                                                          \
    {                                                                         \
      const char *_g = (got), *_w = (want);                                   \
      bool _eq = (_g == NULL && _w == NULL)                                   \
                 || (_g != NULL && _w != NULL && strcmp (_g, _w) == 0);       \
      if (!tap_ok (_eq, __VA_ARGS__))                                         \
        tap_diag ("  got \"%s\", want \"%s\"", _g ? _g : "(null)",            \
                  _w ? _w : "(null)");                                        \
    }                                                                         \
  while (0)

/* One test that cannot run here: "ok N # SKIP reason".  */
__attribute__ ((unused)) static void
tap_skip (const char *reason)
{
  tap_n++;
  printf ("ok %d # SKIP %s\n", tap_n, reason);
  fflush (stdout);
}

__attribute__ ((noreturn, unused)) static void
tap_skip_all (const char *reason)
{
  printf ("1..0 # SKIP %s\n", reason);
  fflush (stdout);
  exit (77);
}

__attribute__ ((unused)) static int
tap_done (void)
{
  printf ("1..%d\n", tap_n);
  fflush (stdout);
  return tap_failed ? 1 : 0;
}

#endif
