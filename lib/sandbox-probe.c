/* sandbox-probe.c -- `ash sandbox probe`.  */

#include <config.h>

#include "commands.h"
#include "log.h"

int
ash_sandbox_probe_command (const struct ash_options *opts,
                           const struct ash_backend *const *backends,
                           const char *platform_note)
{
  (void) opts;
  (void) backends;
  (void) platform_note;
  ash_err ("ash sandbox probe is not built yet");
  return 1;
}
