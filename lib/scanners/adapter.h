/* SPDX-License-Identifier: Apache-2.0 */
/* adapter.h -- what every scanner adapter needs: checking its options,
   naming a file an option points at, its exclusions, reading the tool's
   output, and normalising the SARIF it reads.

   Ownership follows jansson: json_t arguments are borrowed.  Every
   function returns 0 or a negative errno and fills ERR with a message that
   is the reason the scanner is ERROR (or, for the option checks, the
   configuration error).  */

#ifndef ASH_ADAPTER_H
#define ASH_ADAPTER_H

#include <jansson.h>
#include <stdbool.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"
#include "scan/sarif.h"
#include "scanners/scanner.h"

/* The JSON type an option takes.  */
enum ash_option_type
{
  ASH_OPTION_STRING,
  ASH_OPTION_BOOL,
  ASH_OPTION_INT,     /* a positive integer */
  ASH_OPTION_STRLIST, /* a list of strings */
};

struct ash_option_spec
{
  const char *name;
  enum ash_option_type type;
  const char *const *choices; /* NULL-terminated values a string (or each
                                 string of a list) may take, compared
                                 without case, or NULL for any */
};

/* Check scanners.SCANNER.options (OPTIONS, may be NULL) against SPEC
   (terminated by an entry whose name is NULL).  scan_timeout and
   severity_threshold, which the scan itself reads, are accepted for every
   scanner.  An option not in
   SPEC is an error naming it and listing the supported ones; a value of
   the wrong type or outside its choices is an error naming the option.
   JSON null counts as unset.  */
int ash_adapter_check_options (const char *scanner, const json_t *options,
                               const struct ash_option_spec *spec,
                               struct ash_error *err);

/* The value of option KEY: a string (NULL when unset or empty), a
   boolean (DEF when unset), a positive integer (0 when unset), a list of
   strings (pushed onto RET; the list's own items only).  Only after
   ash_adapter_check_options() accepted OPTIONS.  */
const char *ash_adapter_opt_string (const json_t *options, const char *key);
bool ash_adapter_opt_bool (const json_t *options, const char *key, bool def);
long long ash_adapter_opt_int (const json_t *options, const char *key);
void ash_adapter_opt_strlist (const json_t *options, const char *key,
                              struct ash_strvec *ret);
/* True when OPTIONS sets KEY (to anything but null).  */
bool ash_adapter_opt_set (const json_t *options, const char *key);

/* Why ash_adapter_opt_list() refused a list option.  */
enum ash_opt_list_fault
{
  ASH_OPT_LIST_NOT_LIST = 1, /* the value is not a list */
  ASH_OPT_LIST_BAD_ITEM,     /* an item is not a string (or, WITH_REASON,
                                a mapping whose path is one), or is empty
                                when NON_EMPTY */
  ASH_OPT_LIST_REFUSED,      /* VALID refused an item */
};

/* How ash_adapter_opt_list() reads a list option, and, when it refuses
   one, where: the caller words the error, so that each option keeps its
   own message.  */
struct ash_opt_list
{
  bool with_reason; /* an item may be a mapping with path and reason, as
                       upstream's IgnorePathWithReason */
  bool non_empty;   /* an empty string is a bad item */
  /* May refuse an item (NULL: any); ARG is passed along.  */
  bool (*valid) (const char *item, const void *arg);
  const void *arg;
  /* Set on a refusal.  */
  enum ash_opt_list_fault fault;
  size_t index;     /* the item's index */
  const char *item; /* the item (borrowed from OPTIONS; NULL when it is
                       not a string) */
};

/* Option KEY of OPTIONS (may be NULL) as a list: its strings (each
   mapping's path) are appended to RET (may be NULL).  Unset or null:
   nothing, 0.  Otherwise -EINVAL with L's fault, index and item set,
   and nothing appended.  */
int ash_adapter_opt_list (const json_t *options, const char *key,
                          struct ash_opt_list *l, struct ash_strvec *ret);

/* The first key of OPTIONS (an object or NULL) that is neither in
   ALLOWED (NULL-terminated) nor scan_timeout, or NULL: the core of each
   family's unknown-option check, which words its own error.  */
const char *ash_adapter_unknown_option (const json_t *options,
                                        const char *const *allowed);

/* OPTIONS.KEY as a boolean into *RET (DEF when unset or null); another
   type is an error naming the option ("scanners.SCANNER.options.KEY must
   be true or false").  */
int ash_adapter_get_bool (const char *scanner, const json_t *options,
                          const char *key, bool def, bool *ret,
                          struct ash_error *err);
/* OPTIONS.KEY as a string into *RET (borrowed; NULL when unset or null).
   Another type is an error naming the option; so is an empty string when
   NON_EMPTY, which is otherwise read as unset.  */
int ash_adapter_get_string (const char *scanner, const json_t *options,
                            const char *key, bool non_empty, const char **ret,
                            struct ash_error *err);
/* Check upstream's options for the tool's installation:
   scanners.SCANNER.options.tool_version (null, or a version constraint
   base/version.h understands: the tool ash finds must satisfy it) and
   install_timeout (null, or a positive number of seconds: how long `ash
   dependencies install` may take to install it).  When VERSION_CHECKED
   is false, SCANNER's tool is not the program whose version the
   constraint names (cdk-nag's is node) and a tool_version is refused.  */
int ash_adapter_check_install_options (const char *scanner,
                                       const json_t *options,
                                       bool version_checked,
                                       struct ash_error *err);

/* When scanners.NAME.options.tool_version is set, ask JOB's tool for its
   version (S's version_arg, else --version; inside JOB's scope, the
   answer kept in the tool probe cache) and check it against the
   constraint: 0 when it satisfies it or no constraint is set, else an
   error of kind ASH_KIND_SCANNER_MISSING saying which version was found
   and how to install another.  */
int ash_adapter_check_tool_version (const struct ash_scanner *s,
                                    const struct ash_scan_job *job,
                                    struct ash_error *err);

/* The file that option KEY of JOB's scanner names (VALUE, taken against
   the source directory when relative), under the option-file rules:

   - it must be a regular file (not a directory, socket or device);
   - when a config file the scanned repository could have written set the
     option, the file is judged by the tier rule
     (ash_config_option_file_trusted): one the repository could have
     written is refused, so a repository cannot hand a tool rules that
     read outside the tree or turn every rule off;
   - under a sandbox, a file outside the source tree is not mounted, so it
     is refused unless it is inside one of the operator's
     sandbox.extra_read_paths entries.

   On success *RET_PATH is the absolute path to pass to the tool (newly
   allocated).  */
int ash_adapter_option_file (const struct ash_scan_job *job, const char *key,
                             const char *value, char **ret_path,
                             struct ash_error *err);

/* The same for an option that may also name a directory (ALLOW_DIR).  */
int ash_adapter_option_path (const struct ash_scan_job *job, const char *key,
                             const char *value, bool allow_dir,
                             char **ret_path, struct ash_error *err);

/* The paths JOB's tool must not scan, relative to the source directory:
   the links that leave the tree, the paths the ignore files and
   global_settings.ignore_paths leave out, and the output directory when it
   is inside the tree.  A path whose name holds a control character
   cannot be put in any tool's exclusion syntax: an error naming it (kind
   ASH_KIND_LINK_NOT_EXCLUDABLE).  */
int ash_adapter_excluded_paths (const struct ash_scan_job *job,
                                struct ash_strvec *ret, struct ash_error *err);

/* Read the tool's output NAME from JOB's results directory (no link
   followed, regular files only, at most JOB->max_output bytes).  A missing
   file, an empty one or one over the cap is an error whose message names
   the file.  */
int ash_adapter_read_output (const struct ash_scan_job *job, const char *name,
                             struct ash_buf *ret, struct ash_error *err);

/* Read NAME as above and parse it as a SARIF 2.1.0 log (*RET_DOC, new
   reference).  A truncated or malformed file is an error naming it.  */
int ash_adapter_read_sarif (const struct ash_scan_job *job, const char *name,
                            json_t **ret_doc, struct ash_error *err);

/* How ash_adapter_sarif_normalize() rewrites a document.  */
struct ash_sarif_norm
{
  const char *driver_name; /* tool.driver.name of every run */
  const char *version;     /* tool.driver.version, or NULL to keep the
                              tool's own */
  const char *info_uri;    /* informationUri when the tool gave none */
  const char *source_dir;  /* absolute: locations are made relative to it */
  /* The ASH severity of RESULT (its rule RULE, NULL when it has none), or
     NULL for the default: the rule's properties.security-severity score
     when present, else the result's level (error: high, warning: medium,
     note: low, none: info).  */
  enum ash_severity (*severity) (const json_t *result, const json_t *rule);
  /* Replace every snippet by "REDACTED" (secret scanners).  */
  bool redact_snippets;
};

/* Normalise every run of DOC in place: the driver's name and version;
   every rule a result names exists, with help text and a
   properties.security-severity score; every result carries its ASH
   severity as properties.severity (CRITICAL, HIGH, MEDIUM, LOW, INFO) and
   the matching level; every artifact location is relative to the source
   directory ("file://" removed); invocations, originalUriBaseIds and any
   absolute path outside the source directory are dropped (a location
   outside it keeps only its file name, and the result is marked
   properties.location_outside_source).  */
int ash_adapter_sarif_normalize (json_t *doc, const struct ash_sarif_norm *n,
                                 struct ash_error *err);

/* The severity a SARIF security-severity score means (CVSS bands); the
   score of a severity is ash_severity_score().  */
enum ash_severity ash_adapter_score_severity (double score);

/* S escaped for a regular expression (Go's regexp and Python's re):
   every ASCII punctuation character but '/', '_' and '-' is preceded by a
   backslash.  Newly allocated.  */
char *ash_adapter_regex_escape (const char *s);

/* Write TEXT into JOB's run directory as NAME (mode 0644, so that the
   scanner account reads it; never through a link, never over an existing
   file); *RET_PATH is its absolute path (newly allocated).  */
int ash_adapter_write_run_file (const struct ash_scan_job *job,
                                const char *name, const char *text,
                                char **ret_path, struct ash_error *err);
/* The same for LEN bytes of BODY, replacing NAME when REPLACE;
   RET_PATH may be NULL.  */
int ash_adapter_write_run_data (const struct ash_scan_job *job,
                                const char *name, const void *body, size_t len,
                                bool replace, char **ret_path,
                                struct ash_error *err);

/* Run a probe of JOB's tool (argv ARGV, inside JOB's scope, with PATH
   and LC_ALL=C.UTF-8 only, for at most TIMEOUT_SEC seconds).  0 when it
   ran: *RES holds how it ended and *RET_OUT its standard output (at most
   1 MiB; newly allocated, "" for none).  Otherwise an error, *RET_OUT
   NULL.  */
int ash_adapter_probe_run (const struct ash_scan_job *job, char *const *argv,
                           unsigned timeout_sec, char **ret_out,
                           struct ash_cmd_result *res, struct ash_error *err);

/* Run a probe of JOB's tool as above (60 seconds) and capture its stdout
   into *RET_OUT (newly allocated); a non-zero exit is an error.  */
int ash_adapter_probe (const struct ash_scan_job *job, char *const *argv,
                       char **ret_out, struct ash_error *err);

/* Run another pass of JOB's tool (ARGV) as the scan itself runs: inside
   JOB's scope with the sandbox's environment (ASH's own when
   unsandboxed), from the source directory, stdin from /dev/null and its
   output discarded; the results directory is swept after a sandboxed
   run.  *RET gets its exit status.  */
int ash_adapter_run_tool (const struct ash_scan_job *job, char *const *argv,
                          struct ash_cmd_result *ret, struct ash_error *err);

#endif
