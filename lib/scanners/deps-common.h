/* SPDX-License-Identifier: Apache-2.0 */
/* deps-common.h -- what the dependency and SBOM adapters share (grype,
   syft, npm-audit, trivy-repo).

   Options: every adapter names the options it accepts; any other key of
   scanners.NAME.options is a configuration error naming it
   (ash_deps_options_check).  Option values that name files go through the
   tier rule (ash_deps_option_file).

   SARIF: a run is normalised after the tool wrote it or after ash built it
   from a native format (ash_deps_sarif_normalise): the driver's name and
   version are set, every rule carries help text and
   properties.security-severity, every result a properties.severity of
   ASH's five, and every location is made relative to the scanned
   directory (an absolute host path never reaches a report).

   Files: the config files ash writes for a tool live in the run's own
   0700 directory, outside the scanned tree (ash_adapter_write_run_file);
   boolean and string options are read with adapter.h's
   ash_adapter_get_bool and ash_adapter_get_string.  */

#ifndef ASH_DEPS_COMMON_H
#define ASH_DEPS_COMMON_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"
#include "scan/sarif.h"
#include "scanners/scanner.h"

/* A job for an adapter's check_options (a placeholder of NAME for
   OPTIONS, before the scan): its argv builder makes every check of the
   options alone; the placeholder paths are never used, and with no
   configuration it reads no ignore_paths.  */
#define ASH_DEPS_CHECK_JOB(NAME, OPTIONS)                                     \
  ((struct ash_scan_job){ .name = (NAME),                                     \
                          .target = "/",                                      \
                          .results_dir = "/",                                 \
                          .results_fd = -1,                                   \
                          .tool_path = (NAME),                                \
                          .options = (OPTIONS) })

/* Refuse any key of OPTIONS (may be NULL) that is not in ALLOWED
   (NULL-terminated).  scan_timeout and severity_threshold, read by the
   scan itself, are always allowed.  -EINVAL with ERR
   "NAME: unknown option 'KEY' (known: ...)".  */
int ash_deps_options_check (const char *name, const json_t *options,
                            const char *const *allowed, struct ash_error *err);

/* The file a scanner option KEY names (VALUE, relative to the scanned
   directory when not absolute), judged by the tier rule: *RET_PATH is the
   absolute path when the operator set it or the file may grant, NULL
   with a warning in *RET_WHY (newly allocated) when a config the scanned
   repository could have written names a file inside the tree or a
   checkout.  A value the tier rule cannot judge is an error.  */
int ash_deps_option_file (const struct ash_scan_job *job, const char *key,
                          const char *value, char **ret_path, char **ret_why,
                          struct ash_error *err);

/* Map a tool's severity word (critical, high, moderate/medium, low,
   negligible/info/unknown, any case) to ASH's.  */
enum ash_severity ash_deps_severity (const char *word);

/* A rule for RUN (added once per ID; returns its index).  HELP may be
   NULL (SHORT_TEXT is used); SCORE may be NULL (from SEV).  */
size_t ash_deps_rule (json_t *run, const char *id, const char *short_text,
                      const char *help, const char *help_uri,
                      enum ash_severity sev, const char *score);

/* A result at URI (relative, line LINE >= 1) for rule ID.  Returns the
   result (borrowed; in RUN's results) for adding properties.  */
json_t *ash_deps_result (json_t *run, const char *id, size_t rule_index,
                         enum ash_severity sev, const char *message,
                         const char *uri, int line);

/* Normalise every run of DOC (see the top of this file): NAME and
   VERSION (may be NULL: kept) for the driver, SOURCE_DIR the absolute
   scanned directory.  A result URI that is absolute and outside
   SOURCE_DIR loses its directory part.  */
void ash_deps_sarif_normalise (json_t *doc, const char *name,
                               const char *version, const char *source_dir);

/* Run TOOL --version (or ARG) in SCOPE and take the first version-looking
   word of its first line (newly allocated), or NULL.  */
char *ash_deps_tool_version (const char *tool, const char *arg,
                             const struct ash_scope *scope);

/* The ignore_paths of JOB's configuration, as strings (borrowed, in
   RET).  */
void ash_deps_ignore_paths (const struct ash_scan_job *job,
                            struct ash_strvec *ret);

#endif
