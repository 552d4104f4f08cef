/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for util.c, buf.c and strvec.c.  */

#include <config.h>

#include <errno.h>

#include <jansson.h>
#include <string.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"
#include "base/util.h"
#include "proc/spawn.h"
#include "sandbox/policy.h"
#include "tap.h"

static void
test_normalize (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "/", "/" },
    { "//a//b/", "/a/b" },
    { "/a/./b", "/a/b" },
    { "/a/../b", "/b" },
    { "/../a", "/a" },
    { "a/../../b", "../b" },
    { "a/b/..", "a" },
    { ".", "." },
    { "/a/b/../../..", "/" },
    { "../../etc/passwd", "../../etc/passwd" },
    { "../a/../../b", "../../b" },
    { "a/../../../b/c/..", "../../b" },
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

  /* addf formats in place when there is room, and grows when there is
     not; addch and addf keep to max like every append.  */
  struct ash_buf c = ASH_BUF_INIT;
  ash_buf_addch (&c, 'x');
  for (int i = 0; i < 200; i++)
    ash_buf_addf (&c, "%d,", i % 10);
  tap_is_int ((long long) c.len, 401, "addf after addch: 1 + 200 * 2 bytes");
  tap_ok (c.buf[c.len] == '\0' && strncmp (c.buf, "x0,1,2,", 7) == 0
            && streq (c.buf + c.len - 4, "8,9,"),
          "... the bytes in their order, NUL-terminated");
  ash_buf_reset (&c);
  c.max = 4;
  ash_buf_addstr (&c, "abc");
  tap_is_int (ash_buf_addf (&c, "%s", "de"), -EFBIG,
              "addf past max is refused");
  tap_is_str (c.buf, "abc", "... and leaves the buffer, NUL where it was");
  tap_is_int (ash_buf_addch (&c, 'd'), 0, "addch up to max");
  tap_is_int (ash_buf_addch (&c, 'e'), -EFBIG, "addch past max is refused");
  tap_is_str (c.buf, "abcd", "... and leaves the buffer");
  ash_buf_release (&c);
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
  tap_ok (ash_strvec_setenv_kv (&sv, "HOME=/k=v"),
          "setenv_kv takes NAME=VALUE");
  tap_is_str (ash_strvec_getenv (&sv, "HOME"), "/k=v",
              "setenv_kv replaces, the value up to its end");
  size_t before = sv.nr;
  tap_ok (!ash_strvec_setenv_kv (&sv, "=x") && !ash_strvec_setenv_kv (&sv, "x")
            && sv.nr == before,
          "setenv_kv refuses an entry with no name or no '='");
  ash_strvec_unsetenv (&sv, "HOME");
  tap_ok (ash_strvec_getenv (&sv, "HOME") == NULL, "unsetenv removes");
  ash_strvec_remove (&sv, 0);
  tap_is_str (sv.v[0], "a", "remove shifts down");
  ash_strvec_release (&sv);

  /* Sorted in strcmp order, whether it came sorted, almost sorted (out of
     order at its very end) or not at all.  */
  static const char *const orders[][5] = { { "a", "a.c", "a/b", "b", "c" },
                                           { "a", "a.c", "a/b", "c", "b" },
                                           { "c", "a/b", "b", "a", "a.c" } };
  for (size_t k = 0; k < ARRAY_SIZE (orders); k++)
    {
      for (size_t i = 0; i < 5; i++)
        ash_strvec_push (&sv, orders[k][i]);
      ash_strvec_sort (&sv);
      struct ash_buf j = ASH_BUF_INIT;
      for (size_t i = 0; i < sv.nr; i++)
        ash_buf_addf (&j, "%s%s", i ? " " : "", sv.v[i]);
      tap_is_str (j.buf, "a a.c a/b b c", "sort, input %zu", k);
      ash_buf_release (&j);
      ash_strvec_release (&sv);
    }
}

/* Every owning type's release is safe on a zeroed value and twice in a
   row, so that a cleanup attribute may run on a value that was never
   filled in, or one already released by hand.  */
static void
test_release_zeroed (void)
{
  struct ash_strvec sv;
  struct ash_buf b;
  struct ash_error e;
  struct ash_cmd c;
  struct ash_policy p;

  memset (&sv, 0, sizeof sv);
  ash_strvec_release (&sv);
  ash_strvec_release (&sv);
  tap_ok (sv.nr == 0 && sv.v && sv.v[0] == NULL,
          "a zeroed strvec releases, twice, to an empty vector");
  memset (&b, 0, sizeof b);
  ash_buf_release (&b);
  ash_buf_release (&b);
  tap_ok (b.len == 0 && b.buf && b.buf[0] == '\0',
          "a zeroed buf releases, twice, to an empty buffer");
  memset (&e, 0, sizeof e);
  ash_error_release (&e);
  ash_error_release (&e);
  tap_ok (e.message == NULL, "a zeroed error releases, twice");
  memset (&c, 0, sizeof c);
  ash_cmd_release (&c);
  ash_cmd_release (&c);
  tap_ok (c.cwd == NULL && c.argv.nr == 0, "a zeroed cmd releases, twice");
  memset (&p, 0, sizeof p);
  ash_policy_release (&p);
  ash_policy_release (&p);
  tap_ok (p.scanner == NULL && p.n_paths == 0,
          "a zeroed policy releases, twice");
}

/* The attributes release at the end of the scope, and TAKE_PTR hands a
   value out of one.  */
static void
test_cleanup_attributes (void)
{
  json_t *kept = json_object ();
  {
    _cleanup_json_ json_t *ref = json_incref (kept);
    tap_is_int ((long long) kept->refcount, 2, "a second reference held");
  }
  tap_is_int ((long long) kept->refcount, 1,
              "_cleanup_json_ dropped it at the end of the scope");
  json_t *out;
  {
    _cleanup_json_ json_t *ref = json_incref (kept);
    out = TAKE_PTR (ref);
  }
  tap_is_int ((long long) kept->refcount, 2,
              "TAKE_PTR keeps the reference past the scope");
  json_decref (out);
  json_decref (kept);
  {
    _cleanup_strvec_ struct ash_strvec sv = ASH_STRVEC_INIT;
    _cleanup_buf_ struct ash_buf b = ASH_BUF_INIT;
    _cleanup_error_ struct ash_error e = ASH_ERROR_INIT;
    ash_strvec_push (&sv, "x");
    ash_buf_addstr (&b, "y");
    ash_error_set (&e, -EINVAL, "z");
    tap_ok (sv.nr == 1 && b.len == 1 && e.message,
            "strvec, buf and error in scope with their attributes");
  }
}

int
main (void)
{
  test_normalize ();
  test_inside ();
  test_buf ();
  test_strvec ();
  test_release_zeroed ();
  test_cleanup_attributes ();
  return tap_done ();
}
