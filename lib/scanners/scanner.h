/* SPDX-License-Identifier: Apache-2.0 */
/* scanner.h -- the scanner adapter contract (DESIGN section 4).

   A scanner is a name, the tool it runs, the exact command that installs
   that tool, what it needs from its sandbox, a function that builds the
   command line for one target, a function that turns the tool's native
   output into SARIF, and an optional step that runs before the scan.
   Builtin adapters live in lib/scanners/NAME.c and are listed in
   lib/scanners/registry.c; plugin module files (lib/scan/plugins.c) make
   scanners of the same shape at run time.

   A scanner whose tool is known but whose adapter is not built yet has no
   BUILD function: the orchestrator records it MISSING with a reason that
   says so, and never pretends to have scanned.  */

#ifndef ASH_SCANNER_H
#define ASH_SCANNER_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "config/ashconfig.h"
#include "config/config-tier.h"
#include "config/sandbox-settings.h"
#include "fs/scanset.h"
#include "proc/spawn.h"
#include "sandbox/requirements.h"

struct ash_config;
struct ash_sarif_sink;

/* A PREPARE error of kind ASH_KIND_SCANNER_MISSING (base/error.h) makes
   the scanner MISSING rather than ERROR.  */

/* Everything an adapter needs for one run against one target.  */
struct ash_scan_job
{
  const char *name;                /* the scanner's own name */
  const char *target;              /* absolute: the directory scanned */
  const char *results_dir;         /* absolute: OUTPUT/scanners/NAME/source */
  int results_fd;                  /* O_DIRECTORY fd of RESULTS_DIR */
  const char *scan_set_file;       /* absolute path of the scan-set list (one
                                      path per line), or NULL */
  const char *tool_path;           /* absolute path of the scanner's tool */
  const json_t *options;           /* scanners.NAME.options, or NULL */
  char *const *excluded_paths;     /* paths the scan set excludes (links that
                                      leave the tree), relative to TARGET;
                                      NULL-terminated, or NULL */
  const struct ash_scope *scope;   /* for probes the adapter runs; NULL:
                                      unsandboxed */
  size_t max_output;               /* cap on a native output file, in bytes */
  const char *run_config_dir;      /* absolute: this run's own 0700 directory
                                      outside the scanned tree, for the config
                                      files ASH writes for the tool (removed
                                      when the run ends), or NULL */
  const struct ash_config *config; /* the scan's configuration, for the
                                      option-file rule; NULL: every option
                                      counts as set by a file that may not
                                      grant */
  const struct ash_tier_context *tier; /* the scanned directory's
                                          spellings, or NULL (TARGET) */
  const char *bin_path;                /* ASH's bin directory, or NULL */
  const struct ash_sandbox_settings *settings; /* or NULL */
  const struct ash_scanset *scanset;           /* the scan set, or NULL */
  bool sandboxed;              /* the tool runs inside a sandbox */
  bool offline;                /* --offline */
  char *const *rulesets;       /* --offline-semgrep-rulesets, or NULL */
  bool network;                /* the tool gets a network */
  char *const *scan_set_files; /* the scan set, relative to TARGET, sorted,
                                  NULL-terminated; or NULL */
  /* Where an adapter whose output is a SARIF log read as it is
     (a plugin's) hands its results as they are parsed
     (ash_sarif_parse_file_sink), or NULL.  */
  const struct ash_sarif_sink *sink;
};

/* The option-file rule (ash-sandbox(7), "What each tier may set"), for
   every scanner option that names a file the tool reads (a config_file,
   a baseline, an ignore file).  OPTION is the option's key below
   scanners.NAME.options ("config_file"); PATH is its value as written (a
   relative one is taken against JOB->target).

   When the operator set the option (a config file outside every git
   checkout and the scanned tree, or --config-overrides) the file may be
   anywhere.  When a file the scanned repository could have written set
   it, the file it names is judged like a config file: it must not lie in
   a git checkout or the scanned tree, by its name, by any link on the way
   or by the file it resolves to.

   Returns 1 when the tool may be given PATH; 0 when it may not, with
   *RET_REASON (newly allocated) saying why, for a warning; the adapter
   then runs the tool as if the option were unset.  A negative errno when
   the rule could not be applied (ERR says why); treat it as 0.  */
int ash_scan_job_option_file (const struct ash_scan_job *job,
                              const char *option, const char *path,
                              char **ret_reason, struct ash_error *err);

struct ash_scanner
{
  const char *name;         /* as in the config: scanners.NAME */
  const char *tool;         /* the program looked up with the toolfind
                               rules */
  const char *install_hint; /* the exact command that installs TOOL */
  const char *description;
  /* NULL when ash has no adapter for this scanner yet.  Fill CMD->argv
     (argv[0] is JOB->tool_path); may set CMD->cwd and environment entries
     of its own.  */
  int (*build) (const struct ash_scanner *s, const struct ash_scan_job *job,
                struct ash_cmd *cmd, struct ash_error *err);
  /* After the tool ran (RES): read its native output below
     JOB->results_fd and make a SARIF document (*RET_DOC, new reference).
     An exit status that means failure for this tool, a missing output or
     one that does not parse is an error whose message is the reason the
     scanner is ERROR.  */
  int (*parse) (const struct ash_scanner *s, const struct ash_scan_job *job,
                const struct ash_cmd_result *res, json_t **ret_doc,
                struct ash_error *err);
  /* Optional: runs before BUILD (probes such as "does this bandit have a
     SARIF formatter"; database updates).  */
  int (*prepare) (const struct ash_scanner *s, const struct ash_scan_job *job,
                  struct ash_error *err);
  /* Optional: check scanners.NAME.options (OPTIONS, may be NULL) before
     the scan and for `config validate`; an error is a configuration error
     that names the option.  It makes every check BUILD makes of the
     options alone, with the same message, so that the two never
     disagree; what depends on the scanned tree or on this machine (a file
     an option names, a program, an installed bundle) stays in BUILD.  */
  int (*check_options) (const json_t *options, struct ash_error *err);
  /* Optional: run the command BUILD made, once or more (npm-audit audits
     each lockfile on its own).  CMD has its environment, stdio, timeout
     and scope set; RES is what PARSE then gets.  NULL: CMD runs once.  */
  int (*run) (const struct ash_scanner *s, const struct ash_scan_job *job,
              struct ash_cmd *cmd, struct ash_cmd_result *res,
              struct ash_error *err);
  /* Whether scanners.NAME.options.tool_version is checked against the
     tool's version (the scanners whose options take it), and the
     argument that makes the tool print its version (NULL:
     "--version").  */
  bool checks_tool_version;
  const char *version_arg;
  /* What the scanner needs from its sandbox; NULL for the strictest
     default.  */
  const struct ash_requirements *req;
  void *data; /* adapter data (a plugin module's definition) */
};

/* The builtin scanners of upstream ASH, NULL-terminated, in the order
   they are reported.  */
extern const struct ash_scanner *const ash_builtin_scanners[];
/* The builtin scanner named NAME, or NULL.  */
const struct ash_scanner *ash_scanner_builtin (const char *name);
/* The sandbox requirements of S into REQ (initialised by the caller):
   those its plugin module declared, or the builtin ones of its name.  */
void ash_scanner_requirements (const struct ash_scanner *s,
                               struct ash_requirements *req);
/* The scanners upstream ASH runs with --mode precommit (its fast set),
   NULL-terminated.  */
extern const char *const ash_precommit_scanners[];

/* The bandit adapter and its pieces, exposed for the tests.  */
extern const struct ash_scanner ash_scanner_bandit;
/* Map bandit's JSON report TEXT to a SARIF document (new reference in
   *RET_DOC).  File names are made relative to SOURCE_DIR.  */
int ash_bandit_json_to_sarif (const char *text, size_t len,
                              const char *source_dir, json_t **ret_doc,
                              struct ash_error *err);
/* Build bandit's argv into ARGV: TOOL, -r, the options, output file OUT
   in FORMAT ("json" or "sarif"), TARGET.  */
int ash_bandit_argv (const char *tool, const json_t *options,
                     char *const *excluded_paths, const char *format,
                     const char *out, const char *target,
                     struct ash_strvec *argv, struct ash_error *err);

/* The adapters of the code and secret scanners (adapter.h has what they
   share).  */
extern const struct ash_scanner ash_scanner_gitleaks;
extern const struct ash_scanner ash_scanner_semgrep;
extern const struct ash_scanner ash_scanner_opengrep;
extern const struct ash_scanner ash_scanner_detect_secrets;

/* The argv of one gitleaks run into ARGV: SUBCOMMAND is "dir" or
   "detect" (older releases: detect --no-git), CONFIG the --config file,
   BASELINE the --baseline-path file or NULL, IGNORE_DIR the
   --gitleaks-ignore-path directory, OUT the SARIF report, TARGET the
   path to scan.  */
void ash_gitleaks_argv (const char *tool, const char *subcommand,
                        const json_t *options, const char *config,
                        const char *baseline, const char *ignore_dir,
                        const char *out, const char *target,
                        struct ash_strvec *argv);
/* The gitleaks config ASH writes: gitleaks' default rules (or an
   extension of the operator's BASE file) and an allowlist of the paths
   EXCLUDED (relative).  Newly allocated; NULL with ERR when a path cannot
   be written in TOML.  */
char *ash_gitleaks_config_text (const char *base, char *const *excluded,
                                struct ash_error *err);

/* The argv of semgrep (or opengrep, when OPENGREP) into ARGV.  RULES_DIR
   is $SEMGREP_RULES_CACHE_DIR (or $OPENGREP_RULES_CACHE_DIR), or NULL.  */
int ash_grep_argv (bool opengrep, const char *tool, const json_t *options,
                   bool offline, char *const *rule_files,
                   char *const *excluded, const char *out, const char *target,
                   struct ash_strvec *argv, struct ash_error *err);

/* Map a detect-secrets baseline report (TEXT) to SARIF: one result per
   secret, never its value (the baseline holds only a hash, which is not
   copied either).  */
int ash_detect_secrets_to_sarif (const char *text, size_t len,
                                 const char *source_dir, json_t **ret_doc,
                                 struct ash_error *err);
/* The dependency and SBOM adapters (npm-audit.c, grype.c, syft.c,
   trivy.c).  */
extern const struct ash_scanner ash_scanner_npm_audit;
/* Map the audit reports TEXTS[i] (LENS[i] bytes) of the lockfiles
   LOCKS[i] (relative to JOB->target; NULL-terminated) to one SARIF
   document (new reference in *RET_DOC).  Each report is read as the
   package manager of its lockfile's name writes it (npm, pnpm, or yarn
   of version VERSION).  */
int ash_npm_audit_to_sarif (const struct ash_scan_job *job, char *const *locks,
                            char *const *texts, const size_t *lens,
                            const char *version, json_t **ret_doc,
                            struct ash_error *err);
extern const struct ash_scanner ash_scanner_grype;
/* grype's argv for JOB with config file CONFIG into ARGV.  */
int ash_grype_argv (const struct ash_scan_job *job, const char *config,
                    struct ash_strvec *argv, struct ash_error *err);
/* Map grype's JSON report TEXT to SARIF (new reference in *RET_DOC);
   VERSION may be NULL (the report's descriptor version is used).  */
int ash_grype_json_to_sarif (const char *text, size_t len, const char *version,
                             const char *source_dir, json_t **ret_doc,
                             struct ash_error *err);
extern const struct ash_scanner ash_scanner_syft;
/* The CycloneDX SBOM syft writes in its results directory,
   scanners/syft/source/ of the output directory, which the CycloneDX and
   SPDX reports read.  */
#define ASH_SYFT_SBOM_FILE "syft.cdx.json"
/* syft's argv for JOB with config file CONFIG into ARGV.  */
int ash_syft_argv (const struct ash_scan_job *job, const char *config,
                   struct ash_strvec *argv, struct ash_error *err);
/* Check that TEXT is a CycloneDX JSON SBOM; *RET_COMPONENTS counts its
   components.  */
int ash_syft_sbom_check (const char *text, size_t len, size_t *ret_components,
                         struct ash_error *err);
extern const struct ash_scanner ash_scanner_trivy_repo;
/* trivy-repo's argv into ARGV (CACHE may be NULL).  */
int ash_trivy_repo_argv (const struct ash_scan_job *job, const char *cache,
                         const char *config, const char *ignore,
                         const char *secret, const char *modules,
                         struct ash_strvec *argv, struct ash_error *err);
/* The adapter a plugin module's "adapter: NAME" names (trivy-repo), or
   NULL.  */
const struct ash_scanner *ash_scanner_adapter (const char *name);

#endif
