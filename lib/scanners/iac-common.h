/* SPDX-License-Identifier: Apache-2.0 */
/* iac-common.h -- what the infrastructure-as-code and workflow adapters
   (checkov, cfn-nag, cfn-lint, cfn-guard, cdk-nag, actionlint, zizmor)
   share.

   Options: every adapter lists the keys of scanners.NAME.options it
   understands; any other key is a configuration error naming it
   (ash_iac_check_options).  The typed readers of adapter.h
   (ash_adapter_get_bool, ash_adapter_get_string, ash_adapter_opt_list)
   refuse a value of the wrong type the same way, naming the dotted key.

   Scan set: the adapters that are handed files, not a directory, take
   them from the scan-set list (ash_iac_scan_set), which already leaves out
   ignored paths and links that leave the tree.  ash_iac_cfn_templates
   keeps those upstream ASH's discovery counts as CloudFormation: a .json,
   .yaml or .yml file whose top level is a mapping with a "Resources"
   mapping.  YAML is read with libyaml's event API, so CloudFormation's
   intrinsic tags (!Ref, !Sub, !GetAtt, ...) are accepted anywhere.

   Option files: a path an option names goes through the option-file rule
   (ash_config_option_file_trusted); one the rule refuses is not given to
   the tool, with a warning that names the option and the reason.

   Output: ash_iac_read_output reads the file a tool wrote below its
   results directory and turns a missing, empty, oversized or unreadable
   file into an error naming it.  ash_iac_sarif_normalise makes any SARIF
   document fit ASH's report: the driver's name, version and information
   URI, rules with help text and properties.security-severity, results
   with properties.issue_severity (CRITICAL, HIGH, MEDIUM, LOW, INFO) and
   the level that severity reads as, and artifact URIs relative to the
   source directory (an absolute path outside it is reduced to its file
   name, so no host path reaches the report).  */

#ifndef ASH_IAC_COMMON_H
#define ASH_IAC_COMMON_H

#include <jansson.h>
#include <stdbool.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"
#include "scan/sarif.h"
#include "scanners/scanner.h"

/* Copy the regular file PATH (at most MAX bytes, no link followed) into
   JOB->run_config_dir as NAME, so that the tool reads the copy and no
   mount is needed; *RET_PATH (may be NULL) is the copy's absolute
   path.  */
int ash_iac_copy_to_run (const struct ash_scan_job *job, const char *path,
                         const char *name, size_t max, char **ret_path,
                         struct ash_error *err);
/* Record that the scan set holds nothing for the tool: BUILD then runs
   the tool's version query only, and PARSE reports an empty run.  */
int ash_iac_mark_no_input (const struct ash_scan_job *job,
                           struct ash_error *err);
bool ash_iac_no_input (const struct ash_scan_job *job);

/* 0, or -EINVAL naming the first key of OPTIONS (an object or NULL) that
   is not in ALLOWED (NULL-terminated): "scanners.NAME.options.KEY is not
   an option of NAME".  scan_timeout and severity_threshold, handled by
   the scan, are always allowed.  */
int ash_iac_check_options (const char *scanner, const json_t *options,
                           const char *const *allowed, struct ash_error *err);

/* ash_iac_check_options, then each option of STRINGS (NULL-terminated)
   that OPTIONS sets must be a string, as ash_adapter_get_string reads
   it: the checks of the options naming a file or a program that an
   adapter makes before it judges what they name (at scan time).  */
int ash_iac_check_options_strings (const char *scanner, const json_t *options,
                                   const char *const *allowed,
                                   const char *const *strings,
                                   struct ash_error *err);

/* OPTIONS.KEY as a list of strings into RET (appended).  Absent or null:
   nothing.  A non-list, a non-string item, or an item VALID (may be NULL)
   refuses, is an error naming the key.  */
int ash_iac_opt_strings (const char *scanner, const json_t *options,
                         const char *key, bool (*valid) (const char *),
                         struct ash_strvec *ret, struct ash_error *err);
/* The option-file rule for OPTIONS.KEY (a path, relative to the source
   directory unless absolute).  *RET_PATH: the absolute path to give the
   tool, or NULL when the option is unset or the rule refuses the file
   (then a warning names the option and the reason).  A file the operator
   named that does not exist is an error.  */
int ash_iac_option_file (const char *scanner, const struct ash_scan_job *job,
                         const char *key, char **ret_path,
                         struct ash_error *err);

/* The scan set's files (relative to JOB->target, sorted) into RET.  */
int ash_iac_scan_set (const struct ash_scan_job *job, struct ash_strvec *ret,
                      struct ash_error *err);

/* Whether the file REL below the source directory is a CloudFormation
   template.  A file that cannot be read or parsed is not one.  */
bool ash_iac_is_cfn_template (const struct ash_scan_job *job, const char *rel);
/* The CloudFormation templates of the scan set into RET.  */
int ash_iac_cfn_templates (const struct ash_scan_job *job,
                           struct ash_strvec *ret, struct ash_error *err);
/* Whether REL is a GitHub workflow: .github/workflows/NAME.yml or .yaml
   at any depth.  */
bool ash_iac_is_workflow (const char *rel);
/* Whether REL is a composite action's action.yml or action.yaml.  */
bool ash_iac_is_action (const char *rel);

/* Escape the glob characters of PATH (*, ?, [) with brackets, as
   Python's glob.escape does (newly allocated).  */
char *ash_iac_glob_escape (const char *path);

/* Read NAME below JOB->results_fd into RET.  Errors, for SCANNER's
   reason: "NAME: no such file (SCANNER wrote no report)", "NAME is
   empty", "NAME is larger than N bytes".  */
int ash_iac_read_output (const char *scanner, const struct ash_scan_job *job,
                         const char *name, struct ash_buf *ret,
                         struct ash_error *err);
/* Read NAME and parse it as JSON (*RET, new reference); an error names
   the file.  */
int ash_iac_read_json (const char *scanner, const struct ash_scan_job *job,
                       const char *name, json_t **ret, struct ash_error *err);
/* Read NAME and check it is SARIF 2.1.0; an error names the file.  */
int ash_iac_read_sarif (const char *scanner, const struct ash_scan_job *job,
                        const char *name, json_t **ret, struct ash_error *err);

/* A severity from a tool's RESULT (and RULE, may be NULL) in a run.  */
typedef enum ash_severity (*ash_iac_severity_fn) (const json_t *result,
                                                  const json_t *rule);

/* Normalise DOC in place as described above.  DRIVER names the tool,
   VERSION (may be NULL: keep the tool's own) and INFO_URI (may be NULL).
   SEVERITY maps each result (NULL: from its level).  */
void ash_iac_sarif_normalise (json_t *doc, const char *driver,
                              const char *version, const char *info_uri,
                              const char *source_dir,
                              ash_iac_severity_fn severity);

/* A new run of DRIVER for a native report mapped to SARIF.  */
json_t *ash_iac_run_new (const char *driver, const char *version,
                         const char *info_uri);
/* Add rule ID (with NAME, HELP text and HELP_URI, each may be NULL) to
   RUN's driver unless there; its index.  */
size_t ash_iac_run_rule (json_t *run, const char *id, const char *name,
                         const char *help, const char *help_uri);
/* Append a result of rule ID to RUN: MESSAGE, file URI (made relative to
   SOURCE_DIR), lines START..END (0: no region), severity SEV.  */
void ash_iac_run_result (json_t *run, const char *id, const char *message,
                         const char *uri, const char *source_dir, long start,
                         long end, enum ash_severity sev);

/* URI relative to SOURCE_DIR: "file://" removed, "." and ".."
   components resolved, SOURCE_DIR (or its real path) removed; a path
   elsewhere (absolute, or climbing above the source directory) is
   reduced to its last component.  */
char *ash_iac_relative_uri (const char *uri, const char *source_dir);

/* URI with its percent-encoding undone, as a file name (checkov's SARIF
   writes "path%20to/ec2.tf" for the file "path to/ec2.tf"): every %XX
   decoded but those that would give a control character, a NUL or a '/',
   which stay as written, as does a '%' not followed by two hex digits.
   Newly allocated.  */
char *ash_iac_uri_unescape (const char *uri);

/* TEXT a tool wrote, fit for a message: control characters and bytes
   that are not printable ASCII as \xNN, at most 300 bytes of it, with
   "..." when cut (newly allocated).  */
char *ash_iac_printable (const char *text);

/* The adapters of this family, and the pieces the tests call.  */
extern const struct ash_scanner ash_scanner_cfn_lint;
extern const struct ash_scanner ash_scanner_checkov;
extern const struct ash_scanner ash_scanner_cfn_nag;
extern const struct ash_scanner ash_scanner_actionlint;
extern const struct ash_scanner ash_scanner_zizmor;
extern const struct ash_scanner ash_scanner_cfn_guard;
extern const struct ash_scanner ash_scanner_cdk_nag;

/* checkov's argv: TOOL, its outputs into RESULTS_DIR, TARGET, CONFIG_FILE
   (may be NULL), the options, and a --skip-path for each of
   EXCLUDED_PATHS.  */
int ash_checkov_argv (const char *tool, const json_t *options,
                      const char *config_file, const char *results_dir,
                      const char *target, char *const *excluded_paths,
                      struct ash_strvec *argv, struct ash_error *err);
/* checkov's JSON report (one, or a list of one per framework) to SARIF.  */
int ash_checkov_json_to_sarif (const json_t *report, const char *source_dir,
                               json_t **ret_doc, struct ash_error *err);
/* cfn_nag_scan's argv: TOOL, JSON output, RULE_DIR, PROFILE and
   DENY_LIST (each may be NULL: not given), TARGET, and a template pattern
   naming exactly TEMPLATES (relative to TARGET).  */
int ash_cfn_nag_argv (const char *tool, const json_t *options,
                      const char *rule_dir, const char *profile,
                      const char *deny_list, const char *target,
                      char *const *templates, struct ash_strvec *argv,
                      struct ash_error *err);
/* cfn_nag_scan's JSON report to SARIF.  */
int ash_cfn_nag_json_to_sarif (const json_t *report, const char *source_dir,
                               json_t **ret_doc, struct ash_error *err);
/* actionlint's argv: TOOL, SHELLCHECK and PYFLAKES ("" or NULL: off),
   CONFIG_FILE, ASH's JSON format template, "--", WORKFLOWS.  */
int ash_actionlint_argv (const char *tool, const json_t *options,
                         const char *config_file, const char *shellcheck,
                         const char *pyflakes, char *const *workflows,
                         struct ash_strvec *argv, struct ash_error *err);
/* actionlint's {"version", "errors"} report (exit STATUS) to SARIF.  */
int ash_actionlint_json_to_sarif (const json_t *payload, int status,
                                  const char *source_dir, json_t **ret_doc,
                                  struct ash_error *err);
/* zizmor's argv: TOOL, SARIF, --offline, the persona, CONFIG_FILE (or
   --no-config when NO_CONFIG), "--", INPUTS.  */
int ash_zizmor_argv (const char *tool, const json_t *options,
                     const char *config_file, bool no_config,
                     char *const *inputs, struct ash_strvec *argv,
                     struct ash_error *err);
/* cfn-guard's argv: TOOL validate, SARIF, the rule sets of the options
   from BUNDLE, OWN_RULES (the copies of rules_paths), TEMPLATES.  */
int ash_cfn_guard_argv (const char *tool, const json_t *options,
                        const char *bundle, char *const *own_rules,
                        char *const *templates, struct ash_strvec *argv,
                        struct ash_error *err);
/* cdk-nag's argv: NODE WORKER, MODULES, OUT, the packs of the options,
   "--", TEMPLATES.  */
int ash_cdk_nag_argv (const char *node, const char *worker,
                      const char *modules, const json_t *options,
                      const char *out, char *const *templates,
                      struct ash_strvec *argv, struct ash_error *err);
/* cfn-lint's JSON matches (a list) to SARIF.  */
int ash_cfn_lint_json_to_sarif (const json_t *matches, const char *source_dir,
                                json_t **ret_doc, struct ash_error *err);
/* cfn-lint's argv: TOOL, FORMAT (sarif or json) into OUT, CONFIG_FILE, the
   options, "--", TEMPLATES (relative to the source directory; glob-escaped
   here).  */
int ash_cfn_lint_argv (const char *tool, const json_t *options,
                       const char *format, const char *config_file,
                       const char *out, char *const *templates,
                       struct ash_strvec *argv, struct ash_error *err);

#endif
