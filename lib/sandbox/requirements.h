/* SPDX-License-Identifier: Apache-2.0 */
/* requirements.h -- what a scanner declares it needs from its sandbox.

   The fields are exactly those of the spec's SandboxRequirements.  Lists are
   NULL-terminated vectors of owned strings; "~" at the start of a path means
   the home directory, "{bin}" at the start means ASH's bin directory
   (for a bundle installed beside it), and "{helper:NAME}" is ash's own
   helper file NAME where ash finds it (ash_helper_file).  A scanner that
   declares nothing gets the strictest default (ash_requirements_init): no
   network, nothing extra to read, no caches, no variables beyond the baseline
   allowlist.  */

#ifndef ASH_REQUIREMENTS_H
#define ASH_REQUIREMENTS_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"

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

/* Parse a plugin module's sandbox_requirements object (the keys are the
   field names above; lists are arrays of strings; sandbox_exec_env is an
   object of strings or an array of [NAME, VALUE] pairs).  Unknown keys and
   wrong types are errors (-EINVAL, ERR says which key).  OBJ NULL gives the
   strictest default.  RET is initialised here.  */
int ash_requirements_from_json (json_t *obj, struct ash_requirements *ret,
                                struct ash_error *err);

/* The requirements as JSON (new reference), keys in field order.  */
json_t *ash_requirements_to_json (const struct ash_requirements *r);

#endif
