/* orchestrator.c -- the phases of `ash scan`.  */

#include <config.h>

#include "commands.h"
#include "log.h"

int
ash_scan (const struct ash_options *opts, const struct ash_config *config,
          const struct ash_backend *const *backends,
          const char *platform_note)
{
  (void) opts;
  (void) config;
  (void) backends;
  (void) platform_note;
  ash_err ("the scan pipeline is not built yet");
  return 1;
}
