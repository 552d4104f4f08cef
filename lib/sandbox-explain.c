/* sandbox-explain.c -- `ash sandbox explain SCANNER`.  */

#include <config.h>

#include "commands.h"
#include "log.h"

int
ash_sandbox_explain_command (const struct ash_options *opts,
                             const struct ash_config *config,
                             const char *scanner,
                             const struct ash_backend *const *backends)
{
  (void) opts;
  (void) config;
  (void) scanner;
  (void) backends;
  ash_err ("ash sandbox explain is not built yet");
  return 1;
}
