/* SPDX-License-Identifier: Apache-2.0 */
/* grep-common.h -- what the semgrep and opengrep adapters share
   (semgrep.c): opengrep keeps semgrep's command line, options and SARIF.
   NAME is "semgrep" or "opengrep"; OPENGREP selects opengrep's
   variables ($OPENGREP_RULES_CACHE_DIR) and flags.  */

#ifndef ASH_GREP_COMMON_H
#define ASH_GREP_COMMON_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "proc/spawn.h"
#include "scanners/scanner.h"

/* Check scanners.NAME.options: config, exclude, exclude_rule, severity
   (INFO, WARNING, ERROR), metrics (only off), offline.  */
int ash_grep_check_options (const char *name, const json_t *options,
                            struct ash_error *err);

/* True when a config VALUE names registry rules ("auto", "p/...",
   "r/...", "s/...", a URL) rather than a file or directory.  */
bool ash_grep_config_is_registry (const char *value);

/* Build the command of one run into CMD; the SARIF report is OUT_NAME in
   the results directory.  */
int ash_grep_build (bool opengrep, const struct ash_scan_job *job,
                    const char *out_name, struct ash_cmd *cmd,
                    struct ash_error *err);

/* Read and normalise OUT_NAME after the run RES.  */
int ash_grep_parse (bool opengrep, const struct ash_scan_job *job,
                    const struct ash_cmd_result *res, const char *out_name,
                    const char *version, json_t **ret_doc,
                    struct ash_error *err);

/* The tool's version from "TOOL --version", or NULL (newly allocated).  */
char *ash_grep_version (const struct ash_scan_job *job);

#endif
