/* SPDX-License-Identifier: Apache-2.0 */
/* config-overrides.h -- --config-overrides 'a.b=v' and 'a.b+=[..]'.  */

#ifndef ASH_CONFIG_OVERRIDES_H
#define ASH_CONFIG_OVERRIDES_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"

/* Parse an override value as upstream ASH does: JSON, then a naive
   bracketed list "[a, b]" (items trimmed, surrounding quotes removed),
   then true/false (any case), null, an integer, a float, else the string
   itself.  New reference, never NULL.  */
json_t *ash_config_override_value (const char *text);

/* Split TEXT into its dotted path (newly allocated), whether it appends
   ("+="), and its value.  -EINVAL with ERR naming TEXT when the text has
   no '=' or the path is empty or has an empty component.  */
int ash_config_override_parse (const char *text, char **ret_path,
                               bool *ret_append, json_t **ret_value,
                               struct ash_error *err);

/* Apply the override TEXT to ROOT.  ORIGINS (may be NULL) is updated: every
   leaf the override set now comes from TEXT.  Does not check the schema.  */
int ash_config_override_apply (json_t *root, const char *text, json_t *origins,
                               struct ash_error *err);

/* ORIGINS bookkeeping: forget KPATH and everything below it, then record
   ORIGIN (borrowed) for every leaf of VALUE placed at KPATH.  A leaf is
   any value but a non-empty mapping (a list counts as one leaf).  */
void ash_config_origins_set (json_t *origins, const char *kpath,
                             const json_t *value, json_t *origin);

#endif
