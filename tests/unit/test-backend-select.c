/* SPDX-License-Identifier: Apache-2.0 */
/* test-backend-select.c -- choosing a backend: auto order, no fallback for
   a named backend, the auto message, one probe per process.  */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdatomic.h>

#include "sandbox/backend.h"
#include "sandbox/backend-impl.h"
#include "tap.h"

static atomic_int probes_a, probes_b, probes_c;
static bool a_usable, b_usable, c_usable;

static const struct ash_backend be_a, be_b, be_c;

static int
probe_common (const struct ash_backend *b, bool usable, const char *reason,
              struct ash_probe **ret)
{
  *ret = ash_probe_new_unusable (b, usable ? NULL : reason);
  if (!usable)
    return -ENOENT;
  (*ret)->usable = true;
  return 0;
}

static int
probe_a (const struct ash_host *h, struct ash_probe **ret)
{
  (void) h;
  atomic_fetch_add (&probes_a, 1);
  /* Slow enough that concurrent callers overlap.  */
  usleep (20000);
  return probe_common (&be_a, a_usable,
                       "bwrap is not installed (install "
                       "the 'bubblewrap' package)",
                       ret);
}

static int
probe_b (const struct ash_host *h, struct ash_probe **ret)
{
  (void) h;
  atomic_fetch_add (&probes_b, 1);
  return probe_common (&be_b, b_usable, "firejail is not installed", ret);
}

static int
probe_c (const struct ash_host *h, struct ash_probe **ret)
{
  (void) h;
  atomic_fetch_add (&probes_c, 1);
  /* A backend that fails without a reason of its own.  */
  if (!c_usable)
    {
      *ret = ash_probe_new_unusable (&be_c, NULL);
      return -EOPNOTSUPP;
    }
  return probe_common (&be_c, true, NULL, ret);
}

static const struct ash_backend be_a = { .name = "bwrap", .probe = probe_a };
static const struct ash_backend be_b
  = { .name = "firejail", .probe = probe_b };
static const struct ash_backend be_c
  = { .name = "landlock", .probe = probe_c };
static const struct ash_backend *const list[] = { &be_a, &be_b, &be_c, NULL };
#define WINDOWS_MESSAGE                                                       \
  "no scanner sandbox is available on Windows; run ASH under WSL2 and use "   \
  "--sandbox bwrap there, or use --mode container"
static const struct ash_backend be_none = ASH_BACKEND_NONE (WINDOWS_MESSAGE);
static const struct ash_backend *const none_list[] = { &be_none, NULL };
static struct ash_host host;

static void *
thread_probe (void *arg)
{
  (void) arg;
  return (void *) ash_backend_probe_cached (&be_a, &host);
}

static void
reset (bool a, bool b, bool c)
{
  ash_backend_probe_cache_reset ();
  a_usable = a;
  b_usable = b;
  c_usable = c;
  probes_a = probes_b = probes_c = 0;
}

/* The scanner account is remembered by the ASH_SCANNER_USER it was found
   for: a changed variable is looked up again, never answered from the
   last look-up.  */
static void
test_scanner_ids (void)
{
  struct ash_error e = ASH_ERROR_INIT;
  uid_t u = 0;
  gid_t g = 0;
  int r;

  setenv ("ASH_SCANNER_USER", "1234:5678", 1);
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == 0 && u == 1234 && g == 5678, "scanner ids: 1234:5678");
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == 0 && u == 1234 && g == 5678,
          "scanner ids: the same again (remembered)");
  setenv ("ASH_SCANNER_USER", "2345", 1);
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == 0 && u == 2345 && g == 2345,
          "scanner ids: a changed ASH_SCANNER_USER is looked up again");
  setenv ("ASH_SCANNER_USER", "0:5678", 1);
  u = g = 7;
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == -EPERM && u == 7 && g == 7,
          "scanner ids: root is refused, after an account was remembered");
  tap_is_str (e.message,
              "ASH_SCANNER_USER=0:5678 is root; a sandboxed scanner never "
              "runs as root",
              "scanner ids: with the refusal's message");
  ash_error_release (&e);
  setenv ("ASH_SCANNER_USER", "no-such-user-ash-test-xyz", 1);
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == -ENOENT, "scanner ids: an unknown name is refused");
  ash_error_release (&e);
  setenv ("ASH_SCANNER_USER", "1234:5678", 1);
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == 0 && u == 1234 && g == 5678,
          "scanner ids: and back to the first");
  unsetenv ("ASH_SCANNER_USER");
  r = ash_sandbox_scanner_ids (&u, &g, &e);
  tap_ok (r == 0 && u != 1234 && u != 0,
          "scanner ids: unset, the default account (%ld)", (long) u);
  ash_error_release (&e);
}

int
main (void)
{
  const struct ash_backend *got;
  const struct ash_probe *p;
  struct ash_error why = ASH_ERROR_INIT;
  pthread_t t[8];
  void *res[8];

  memset (&host, 0, sizeof host);
  ash_backend_probe_cache_disable (true);
  test_scanner_ids ();

  reset (false, true, true);
  got = ash_backend_select ("auto", list, &host, &p, &why);
  tap_ok (got == &be_b, "auto skips an unusable bwrap and takes firejail");
  tap_ok (p != NULL && ash_probe_usable (p), "with firejail's probe");
  tap_ok (why.message == NULL, "and no reason");
  tap_is_int (probes_c, 0, "landlock is not probed once firejail works");

  got = ash_backend_select ("auto", list, &host, &p, &why);
  tap_is_int (probes_a + probes_b, 2, "a second selection probes nothing");

  reset (false, false, false);
  got = ash_backend_select ("auto", list, &host, &p, &why);
  tap_ok (got == NULL && p == NULL, "auto with nothing usable selects none");
  tap_is_str (why.message,
              "--sandbox auto found no working sandbox (bwrap: bwrap is not "
              "installed (install the 'bubblewrap' package); firejail: "
              "firejail is not installed; landlock: landlock cannot be used "
              "here (Operation not supported))",
              "auto lists why each backend failed, in order");
  tap_is_str (ash_error_kind_name (why.kind), "SandboxUnavailable",
              "auto: of the kind a scanner is MISSING for");

  reset (false, true, true);
  got = ash_backend_select ("bwrap", list, &host, &p, &why);
  tap_ok (got == NULL, "a named backend that is unavailable is not replaced");
  tap_is_str (why.message,
              "bwrap is not installed (install the 'bubblewrap' package)",
              "its reason is the probe's, word for word");
  tap_is_int (probes_b + probes_c, 0, "no other backend is probed");
  tap_is_str (ash_error_kind_name (why.kind), "SandboxUnavailable",
              "of the kind a named backend's scanner is ERROR for");

  got = ash_backend_select ("landlock", list, &host, &p, &why);
  tap_ok (got == &be_c && p && ash_probe_usable (p),
          "a named usable backend is used");

  got = ash_backend_select ("off", list, &host, &p, &why);
  tap_ok (got == NULL && why.message == NULL,
          "off selects nothing, with no reason");

  got = ash_backend_select ("sandbox-exec", list, &host, &p, &why);
  tap_ok (got == NULL && why.message != NULL,
          "a backend this platform lacks is unavailable");

  reset (true, true, true);
  for (size_t i = 0; i < ARRAY_SIZE (t); i++)
    pthread_create (&t[i], NULL, thread_probe, NULL);
  for (size_t i = 0; i < ARRAY_SIZE (t); i++)
    pthread_join (t[i], &res[i]);
  tap_is_int (probes_a, 1, "eight threads at once probe a backend once");
  {
    bool same = true;
    for (size_t i = 1; i < ARRAY_SIZE (t); i++)
      same = same && res[i] == res[0];
    tap_ok (same && res[0] != NULL, "and all get the same result");
  }

  /* A spawn failure drops the probe: the next caller probes again.  */
  reset (true, true, true);
  ash_backend_probe_cached (&be_a, &host);
  ash_backend_probe_drop (&be_a);
  p = ash_backend_probe_cached (&be_a, &host);
  tap_is_int (probes_a, 2, "a dropped probe is probed again");
  tap_ok (p && ash_probe_usable (p), "and used again when it passes");

  /* The none backend: its message for every mode but off.  */
  reset (true, true, true);
  got = ash_backend_select ("auto", none_list, &host, &p, &why);
  tap_ok (got == NULL && p == NULL, "none: auto selects nothing");
  tap_is_str (why.message, WINDOWS_MESSAGE,
              "none: auto gives the platform's message");
  got = ash_backend_select ("bwrap", none_list, &host, &p, &why);
  tap_is_str (why.message, WINDOWS_MESSAGE,
              "none: a named backend gives the platform's message");
  tap_is_str (ash_error_kind_name (why.kind), "SandboxNone",
              "none: of the kind a scanner is MISSING for in every mode");
  got = ash_backend_select ("off", none_list, &host, &p, &why);
  tap_ok (got == NULL && why.message == NULL,
          "none: off selects nothing, no reason");
  p = ash_backend_probe_cached (&be_none, &host);
  tap_ok (!ash_probe_usable (p), "none: its probe is not usable");
  tap_is_str (ash_probe_reason (p), WINDOWS_MESSAGE,
              "none: its probe's reason is the platform's message");
  tap_is_str (ash_backend_none_reason (none_list), WINDOWS_MESSAGE,
              "ash_backend_none_reason of a none platform");
  tap_ok (ash_backend_none_reason (list) == NULL,
          "ash_backend_none_reason of a platform with backends");

  tap_ok (ash_backend_find (list, "firejail") == &be_b
            && ash_backend_find (list, "nope") == NULL,
          "ash_backend_find");
  ash_error_release (&why);
  ash_backend_probe_cache_reset ();
  return tap_done ();
}
