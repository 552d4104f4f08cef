/* requirements.h -- what a scanner declares it needs from its sandbox.

   The fields are exactly those of the spec's SandboxRequirements.  Lists are
   NULL-terminated vectors of owned strings; "~" at the start of a path means
   the home directory.  A scanner that declares nothing gets the strictest
   default (ash_requirements_init): no network, nothing extra to read, no
   caches, no variables beyond the baseline allowlist.  */

#ifndef ASH_REQUIREMENTS_H
#define ASH_REQUIREMENTS_H

#include <stdbool.h>

#include "strvec.h"

struct ash_requirements
{
  bool network;
  struct ash_strvec read_paths;
  struct ash_strvec cache_paths;
  struct ash_strvec cache_env;
  struct ash_strvec env_prefixes;
  struct ash_strvec env_names;
  struct ash_strvec sandbox_exec_env; /* NAME=VALUE pairs */
  char *unpack_dir_env;               /* owned, or NULL */
  bool read_paths_require_grant;
  bool env_requires_grant;
  struct ash_strvec read_path_env;
  bool staged_input_only;
  bool system_trust_roots;
};

void ash_requirements_init (struct ash_requirements *r);
void ash_requirements_release (struct ash_requirements *r);
void ash_requirements_copy (struct ash_requirements *dst,
                            const struct ash_requirements *src);

#endif
