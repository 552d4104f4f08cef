/* SPDX-License-Identifier: Apache-2.0 */
/* config-schema.h -- the keys and value types a configuration may hold
   (DESIGN section 5).  */

#ifndef ASH_CONFIG_SCHEMA_H
#define ASH_CONFIG_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"

/* The sandbox modes sandbox.mode and --sandbox accept, NULL-terminated.  */
extern const char *const ash_sandbox_modes[];
/* The severity thresholds global_settings.severity_threshold accepts.  */
extern const char *const ash_severity_thresholds[];

/* Check TREE (one file's own values, or the merged configuration) against
   the schema.  On error fills ERR: the message names the key path; PATH
   and the line and column come from POSITIONS ("dotted.path" ->
   [line, column], may be NULL) and FILE (may be NULL, e.g. for the result
   of an override).  */
int ash_config_schema_check (const json_t *tree, const char *file,
                             const json_t *positions, struct ash_error *err);

/* Whether E may be a reporter's extension (reporters.NAME.extension): a
   plain file name suffix.  */
bool ash_config_extension_valid (const char *e);

/* Keys upstream accepts and ignores (scanners.NAME.severity_threshold,
   outside options), and upstream's keys for what ash does not have
   (build, workspace, mcp-resource-management, global_settings.mcp): one
   warning each, saying where the key belongs or that it has no effect,
   pushed onto WARNINGS.  */
struct ash_strvec;
void ash_config_misplaced (const json_t *root, struct ash_strvec *warnings);

/* "a mapping", "a list", "a string", ... for messages.  */
const char *ash_config_type_name (const json_t *v);

#endif
