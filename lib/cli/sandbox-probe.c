/* SPDX-License-Identifier: Apache-2.0 */
/* sandbox-probe.c -- `ash sandbox probe`: each backend of this platform,
   usable or the exact reason it is not, with what fixes it.  */

#include <config.h>

#include <stdio.h>

#include "base/log.h"
#include "cli/commands.h"
#include "sandbox/backend.h"

/* The fix column of the spec's table "When a scanner cannot be sandboxed",
   by the start of the message.  */
static const struct
{
  const char *prefix;
  const char *fix;
} fixes[] = {
  { "bwrap is not installed", N_ ("Install bubblewrap.") },
  { "bwrap cannot create a sandbox here",
    N_ ("Allow unprivileged user namespaces, or use landlock.") },
  { "bwrap cannot apply the Unix-socket filter",
    N_ ("Use the bwrap from your distribution, on x86_64 or aarch64, on a "
        "kernel that allows seccomp filters.") },
  { "Landlock is not available",
    N_ ("Add landlock to the lsm= kernel parameter.") },
  { "Landlock ABI ",
    N_ ("Use bwrap, a kernel with Landlock ABI 3 or later, or container "
        "mode.") },
  { "firejail is not installed",
    N_ ("Install firejail, or use another backend.") },
  { "firejail ran a test command without a sandbox",
    N_ ("Use bwrap or landlock; firejail does not sandbox inside this "
        "container.") },
  { "firejail could not run a test command",
    N_ ("Use bwrap or landlock, or allow your user to run firejail.") },
  { "firejail cannot apply the Unix-socket filter",
    N_ ("Use the firejail from your distribution, on x86_64 or aarch64, on "
        "a kernel that allows seccomp filters.") },
  { "sandbox-exec is not present",
    N_ ("No macOS backend remains; scan in a container.") },
  { "--sandbox auto found no working sandbox",
    N_ ("Lists why each backend failed; fix one of them.") },
  { "no scanner sandbox is available on Windows",
    N_ ("Use WSL2 or container mode.") },
};

static const char *
fix_for (const char *reason)
{
  for (size_t i = 0; i < ARRAY_SIZE (fixes); i++)
    if (reason && ash_str_has_prefix (reason, fixes[i].prefix))
      return _ (fixes[i].fix);
  return NULL;
}

static void
print_notes (const char *notes)
{
  if (notes && *notes)
    printf ("  %s %s\n", _ ("note:"), notes);
}

static void
print_unavailable (const char *name, const char *reason)
{
  const char *fix = fix_for (reason);

  printf (_ ("%s: unavailable: %s\n"), name, reason);
  if (fix)
    printf ("  %s %s\n", _ ("fix:"), fix);
}

int
ash_sandbox_probe_command (const struct ash_options *opts,
                           const struct ash_backend *const *backends)
{
  struct ash_host host;
  const struct ash_backend *chosen;
  const struct ash_probe *chosen_probe = NULL;
  _cleanup_error_ struct ash_error auto_reason = ASH_ERROR_INIT;
  bool any = false;

  ash_host_init (&host, opts);
  if (!backends || !backends[0] || ash_backend_none_reason (backends))
    {
      print_unavailable ("auto", ash_backend_none_reason (backends)
                                   ? ash_backend_none_reason (backends)
                                   : _ ("this platform has no sandbox "
                                        "backend"));
      fflush (stdout);
      return 1;
    }
  for (size_t i = 0; backends[i]; i++)
    {
      const struct ash_probe *p
        = ash_backend_probe_cached (backends[i], &host);

      if (ash_probe_usable (p))
        {
          any = true;
          printf (_ ("%s: usable\n"), backends[i]->name);
          print_notes (ash_probe_notes (p));
          if (ash_probe_cached (p))
            print_notes (_ ("from the probe cache (--no-probe-cache probes "
                            "afresh)"));
        }
      else
        print_unavailable (backends[i]->name, ash_probe_reason (p));
    }
  chosen = ash_backend_select ("auto", backends, &host, &chosen_probe,
                               &auto_reason);
  if (chosen)
    printf (_ ("auto: %s\n"), chosen->name);
  else
    print_unavailable ("auto", auto_reason.message);
  fflush (stdout);
  return any ? 0 : 1;
}
