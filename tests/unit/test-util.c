/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for util.c, buf.c and strvec.c.  */

#include <config.h>

#include <errno.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "tap.h"

static void
test_normalize (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "/", "/" },           { "//a//b/", "/a/b" },  { "/a/./b", "/a/b" },
    { "/a/../b", "/b" },    { "/../a", "/a" },      { "a/../../b", "../b" },
    { "a/b/..", "a" },      { ".", "." },           { "/a/b/../../..", "/" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      _cleanup_free_ char *n = ash_path_normalize (cases[i].in);
      tap_is_str (n, cases[i].out, "normalize %s", cases[i].in);
    }
}

static void
test_inside (void)
{
  tap_ok (ash_path_is_inside ("/a/b", "/a"), "/a/b is inside /a");
  tap_ok (ash_path_is_inside ("/a", "/a"), "/a is inside /a");
  tap_ok (!ash_path_is_inside ("/ab", "/a"), "/ab is not inside /a");
  tap_ok (ash_path_is_inside ("/x", "/"), "/x is inside /");
  tap_ok (ash_path_is_inside ("/a/b", "/a/"), "trailing slash on the dir");
}

static void
test_buf (void)
{
  struct ash_buf b = ASH_BUF_INIT;
  tap_is_str (b.buf, "", "an empty buffer is an empty string");
  ash_buf_addstr (&b, "abc");
  ash_buf_addf (&b, "-%d", 42);
  tap_is_str (b.buf, "abc-42", "addstr and addf append");
  b.max = 8;
  tap_is_int (ash_buf_addstr (&b, "toolong"), -EFBIG, "max bounds appends");
  tap_is_str (b.buf, "abc-42", "a refused append leaves the buffer");
  char *s = ash_buf_detach (&b);
  tap_is_str (s, "abc-42", "detach hands over the string");
  tap_is_int ((long long) b.len, 0, "detach resets the buffer");
  free (s);
  ash_buf_release (&b);
}

static void
test_strvec (void)
{
  struct ash_strvec sv = ASH_STRVEC_INIT;
  tap_ok (sv.v[0] == NULL, "an empty vector is NULL-terminated");
  ash_strvec_push (&sv, "a");
  ash_strvec_pushf (&sv, "b%d", 1);
  ash_strvec_insert (&sv, 0, "z");
  tap_is_int ((long long) sv.nr, 3, "three entries");
  tap_is_str (sv.v[0], "z", "insert at the front");
  tap_ok (sv.v[3] == NULL, "still NULL-terminated");
  ash_strvec_setenv (&sv, "HOME", "/x");
  ash_strvec_setenv (&sv, "HOME", "/y");
  tap_is_str (ash_strvec_getenv (&sv, "HOME"), "/y", "setenv replaces");
  ash_strvec_unsetenv (&sv, "HOME");
  tap_ok (ash_strvec_getenv (&sv, "HOME") == NULL, "unsetenv removes");
  ash_strvec_remove (&sv, 0);
  tap_is_str (sv.v[0], "a", "remove shifts down");
  ash_strvec_release (&sv);
}

int
main (void)
{
  test_normalize ();
  test_inside ();
  test_buf ();
  test_strvec ();
  return tap_done ();
}
