/* SPDX-License-Identifier: Apache-2.0 */
/* cli.c -- the ash command line: commands, options, usage errors.

   Options come from, in increasing precedence: the environment, a
   --cli-json-input document, and the command line.  Every source is first
   collected as a list of assignments and then applied in that order; a
   repeatable option given by a later source replaces the earlier source's
   list rather than adding to it.  Usage errors print one line naming the
   problem and a hint, and exit 5, before anything else happens.  */

#include <config.h>

#include "cli/cli.h"
#include "config/config-tier.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "cli/commands.h"
#include "config/ashconfig.h"
#include "config/config-overrides.h"
#include "config/config-schema.h"
#include "config/options.h"
#include "config/reporter-names.h"
#include "report/reports.h"
#include "sandbox/probe-cache.h"
#include "sandbox/backend.h"
#include "scan/exit-codes.h"
#include "scan/plugins.h"
#include "scanners/scanner.h"

/* The commands, as bits, so that each option can list the commands that
   accept it.  */
enum
{
  CMD_SCAN = 1 << 0,
  CMD_CONFIG_INIT = 1 << 1,
  CMD_CONFIG_GET = 1 << 2,
  CMD_CONFIG_VALIDATE = 1 << 3,
  CMD_SANDBOX_PROBE = 1 << 4,
  CMD_SANDBOX_EXPLAIN = 1 << 5,
  CMD_DEPS_INSTALL = 1 << 6,
  CMD_REPORT = 1 << 7,
  CMD_COMPLETION = 1 << 8,
  CMD_CONFIG_UPDATE = 1 << 9,
  CMD_CONFIG_LINT = 1 << 10,
  CMD_BUILD_IMAGE = 1 << 11,
  CMD_PLUGIN_LIST = 1 << 12,
  CMD_INSPECT_SARIF_FIELDS = 1 << 13,
  CMD_ALL = 0x3fff,
  CMD_CONFIG_LOAD = CMD_SCAN | CMD_CONFIG_GET | CMD_CONFIG_VALIDATE
                    | CMD_SANDBOX_EXPLAIN | CMD_CONFIG_LINT | CMD_REPORT
                    | CMD_PLUGIN_LIST,
};

enum opt_id
{
  OPT_SOURCE_DIR = 256,
  OPT_OUTPUT_DIR,
  OPT_CONFIG,
  OPT_CONFIG_OVERRIDES,
  OPT_SCANNERS,
  OPT_EXCLUDE_SCANNERS,
  OPT_OFFLINE,
  OPT_MODE,
  OPT_SANDBOX,
  OPT_ALLOW_IN_TREE_TOOLS,
  OPT_NO_PROBE_CACHE,
  OPT_PLUGIN_MODULES,
  OPT_FAIL_ON_FINDINGS,
  OPT_NO_FAIL_ON_FINDINGS,
  OPT_OUTPUT_FORMAT,
  OPT_STRATEGY,
  OPT_MAX_WORKERS,
  OPT_PROGRESS,
  OPT_NO_PROGRESS,
  OPT_QUIET,
  OPT_LOG_LEVEL,
  OPT_VERBOSE,
  OPT_DEBUG,
  OPT_COLOR,
  OPT_NO_COLOR,
  OPT_CLI_JSON_INPUT,
  OPT_FORCE,
  OPT_DRY_RUN,
  OPT_FORMAT,
  OPT_REPORT_FORMAT,
  OPT_EXPLAIN_TIERS,
  OPT_HELP,
  OPT_VERSION,
  /* Upstream's spellings and options.  */
  OPT_OUTPUT_FORMATS, /* aliases of --output-format */
  OPT_FORMATS,
  OPT_NO_OFFLINE,
  OPT_NO_QUIET,
  OPT_MIN_SEVERITY,
  OPT_IGNORE_SUPPRESSIONS,
  OPT_NO_IGNORE_SUPPRESSIONS,
  OPT_SIMPLE,
  OPT_SHOW_SUMMARY,
  OPT_NO_SHOW_SUMMARY,
  OPT_USE_EXISTING,
  OPT_NO_USE_EXISTING,
  OPT_CLEANUP,
  OPT_NO_CLEANUP,
  OPT_PHASES,
  OPT_INSPECT,
  OPT_NO_INSPECT,
  OPT_OFFLINE_SEMGREP_RULESETS,
  OPT_PYTHON_ONLY,
  OPT_FULL,
  OPT_PYTHON_SCANNERS_ONLY,
  OPT_ALL_ENABLED_SCANNERS,
  OPT_PYTHON_PLUGINS_ONLY,
  OPT_ALL_ENABLED_PLUGINS,
  OPT_CHANGED_FILES_ONLY,
  OPT_NO_CHANGED_FILES_ONLY,
  OPT_BASE_REF,
  /* Container mode's (and ash build-image's).  */
  OPT_BUILD,
  OPT_NO_BUILD,
  OPT_RUN,
  OPT_NO_RUN,
  OPT_OCI_RUNNER,
  OPT_OCI,
  OPT_RUNNER,
  OPT_BUILD_TARGET,
  OPT_CONTAINER_UID,
  OPT_CONTAINER_GID,
  OPT_ASH_REVISION_TO_INSTALL,
  OPT_CUSTOM_CONTAINERFILE,
  OPT_CUSTOM_BUILD_ARG,
  OPT_SET,
  OPT_MODIFICATIONS,
};

/* How a key of a --cli-json-input document is read.  */
enum json_kind
{
  J_NONE, /* not accepted in the document */
  J_STRING,
  J_BOOL, /* true/false; for a pair, false selects the NEG option */
  J_LIST, /* a list of strings, or one string */
  J_INT,
  J_COUNT, /* verbose: a boolean or a count */
};

struct optdef
{
  const char *name;
  int has_arg;
  int id;
  int short_opt;
  unsigned cmds;
  enum json_kind json;
  int neg;         /* for J_BOOL pairs: the option false selects */
  const char *arg; /* argument name in --help */
  const char *help;
};

#define ALL_LOG CMD_ALL

static const struct optdef optdefs[] = {
  { "source-dir", required_argument, OPT_SOURCE_DIR, 0, CMD_ALL, J_STRING, 0,
    "DIR",
    N_ ("directory to scan (default: the working directory; env "
        "ASH_SOURCE_DIR)") },
  { "output-dir", required_argument, OPT_OUTPUT_DIR, 0,
    CMD_SCAN | CMD_SANDBOX_EXPLAIN | CMD_REPORT | CMD_INSPECT_SARIF_FIELDS,
    J_STRING, 0, "DIR",
    N_ ("where results go (default: SOURCE/.ash/ash_output; env "
        "ASH_OUTPUT_DIR)") },
  { "config", required_argument, OPT_CONFIG, 'c',
    CMD_CONFIG_LOAD | CMD_CONFIG_INIT | CMD_CONFIG_UPDATE, J_STRING, 0, "FILE",
    N_ ("configuration file (env ASH_CONFIG; default: discovered; "
        "config init: the file to write, default "
        "SOURCE/.ash/.ash.yaml)") },
  { "config-overrides", required_argument, OPT_CONFIG_OVERRIDES, 0,
    CMD_CONFIG_LOAD, J_LIST, 0, "KEY=VALUE",
    N_ ("override a configuration value; KEY+=[..] appends; repeatable") },
  { "scanners", required_argument, OPT_SCANNERS, 0,
    CMD_SCAN | CMD_DEPS_INSTALL, J_LIST, 0, "LIST",
    N_ ("run (or install the tools of) only these scanners "
        "(comma-separated; repeatable)") },
  { "exclude-scanners", required_argument, OPT_EXCLUDE_SCANNERS, 0, CMD_SCAN,
    J_LIST, 0, "LIST", N_ ("do not run these scanners (comma-separated)") },
  { "offline", no_argument, OPT_OFFLINE, 0,
    CMD_SCAN | CMD_SANDBOX_EXPLAIN | CMD_BUILD_IMAGE, J_BOOL, 0, NULL,
    N_ ("no scanner gets a network, nothing is updated (env ASH_OFFLINE)") },
  { "mode", required_argument, OPT_MODE, 0, CMD_SCAN, J_STRING, 0,
    "local|container|precommit", N_ ("how to run the scan (env ASH_MODE)") },
  { "sandbox", required_argument, OPT_SANDBOX, 0,
    CMD_SCAN | CMD_SANDBOX_EXPLAIN, J_STRING, 0, "MODE",
    N_ ("sandbox every scanner: off, auto, bwrap, firejail, landlock, "
        "sandbox-exec") },
  { "allow-in-tree-tools", no_argument, OPT_ALLOW_IN_TREE_TOOLS, 0,
    CMD_SCAN | CMD_SANDBOX_PROBE | CMD_SANDBOX_EXPLAIN, J_BOOL, 0, NULL,
    N_ ("use tools found inside the scanned directory (env "
        "ASH_ALLOW_IN_TREE_TOOLS)") },
  { "no-probe-cache", no_argument, OPT_NO_PROBE_CACHE, 0,
    CMD_SCAN | CMD_SANDBOX_PROBE | CMD_SANDBOX_EXPLAIN, J_BOOL, 0, NULL,
    N_ ("probe every sandbox backend and scanner tool afresh: neither read "
        "nor write the probe cache in ~/.cache/ash (env "
        "ASH_NO_PROBE_CACHE)") },
  { "ash-plugin-modules", required_argument, OPT_PLUGIN_MODULES, 0,
    CMD_SCAN | CMD_SANDBOX_EXPLAIN | CMD_PLUGIN_LIST, J_LIST, 0, "LIST",
    N_ ("plugin module files to load (comma-separated; env "
        "ASH_PLUGIN_MODULES)") },
  { "fail-on-findings", no_argument, OPT_FAIL_ON_FINDINGS, 0, CMD_SCAN, J_BOOL,
    OPT_NO_FAIL_ON_FINDINGS, NULL,
    N_ ("exit 2 when there are actionable findings") },
  { "no-fail-on-findings", no_argument, OPT_NO_FAIL_ON_FINDINGS, 0, CMD_SCAN,
    J_NONE, 0, NULL, N_ ("exit 0 despite actionable findings") },
  { "output-format", required_argument, OPT_OUTPUT_FORMAT, 'f', CMD_SCAN,
    J_LIST, 0, "LIST",
    N_ ("reports to write (comma-separated; repeatable): sarif, markdown, "
        "text, flat-json, html, junitxml, csv, cyclonedx, gitlab-sast, "
        "github-ghas, ocsf, yaml, spdx, gitlab-cyclonedx, "
        "unused-suppressions") },
  { "strategy", required_argument, OPT_STRATEGY, 0, CMD_SCAN, J_STRING, 0,
    "parallel|sequential",
    N_ ("run scanners in parallel (default) or one "
        "by one") },
  { "max-workers", required_argument, OPT_MAX_WORKERS, 0, CMD_SCAN, J_INT, 0,
    "N", N_ ("at most N scanners at a time (default: the number of CPUs)") },
  { "progress", no_argument, OPT_PROGRESS, 'p', CMD_SCAN, J_BOOL,
    OPT_NO_PROGRESS, NULL,
    N_ ("show progress (default: on a terminal, not "
        "under CI)") },
  { "no-progress", no_argument, OPT_NO_PROGRESS, 'P', CMD_SCAN, J_NONE, 0,
    NULL, N_ ("do not show progress") },
  { "quiet", no_argument, OPT_QUIET, 0, ALL_LOG, J_BOOL, 0, NULL,
    N_ ("print only errors") },
  { "log-level", required_argument, OPT_LOG_LEVEL, 0, ALL_LOG, J_STRING, 0,
    "LEVEL",
    N_ ("TRACE (as DEBUG), DEBUG, VERBOSE, INFO, WARNING, ERROR, "
        "CRITICAL, SIMPLE (as --simple) or QUIET (as --quiet)") },
  { "verbose", no_argument, OPT_VERBOSE, 'v', ALL_LOG, J_COUNT, 0, NULL,
    N_ ("more output") },
  { "debug", no_argument, OPT_DEBUG, 'd', ALL_LOG, J_BOOL, 0, NULL,
    N_ ("debug output") },
  { "color", no_argument, OPT_COLOR, 0, ALL_LOG, J_BOOL, OPT_NO_COLOR, NULL,
    N_ ("colour the summary on a terminal (the default, unless NO_COLOR "
        "is set)") },
  { "no-color", no_argument, OPT_NO_COLOR, 0, ALL_LOG, J_NONE, 0, NULL,
    N_ ("do not colour the summary") },
  { "cli-json-input", required_argument, OPT_CLI_JSON_INPUT, 0, CMD_SCAN,
    J_NONE, 0, "FILE",
    N_ ("read these options from a JSON object (snake_case keys); flags "
        "win") },
  { "dry-run", no_argument, OPT_DRY_RUN, 0,
    CMD_DEPS_INSTALL | CMD_CONFIG_UPDATE, J_NONE, 0, NULL,
    N_ ("print the install commands, or the updated configuration, without "
        "running or writing anything") },
  { "set", required_argument, OPT_SET, 0, CMD_CONFIG_UPDATE, J_NONE, 0,
    "KEY=VALUE",
    N_ ("config update: set KEY (as --config-overrides; "
        "KEY+=[..] appends); repeatable") },
  { "modifications", required_argument, OPT_MODIFICATIONS, 0,
    CMD_CONFIG_UPDATE, J_NONE, 0, "KEY=VALUE", N_ ("same as --set") },
  { "force", no_argument, OPT_FORCE, 0,
    CMD_CONFIG_INIT | CMD_SCAN | CMD_BUILD_IMAGE, J_NONE, 0, NULL,
    N_ ("replace an existing configuration file") },
  { "format", required_argument, OPT_FORMAT, 0,
    CMD_CONFIG_GET | CMD_SCAN | CMD_REPORT, J_NONE, 0, "yaml|json",
    N_ ("output format of ash config get (default: yaml)") },
  { "report-format", required_argument, OPT_REPORT_FORMAT, 0, CMD_REPORT,
    J_NONE, 0, "NAME",
    N_ ("the report to print: a reporter name, as for --output-format "
        "(default: markdown)") },
  { "explain-tiers", no_argument, OPT_EXPLAIN_TIERS, 0, CMD_CONFIG_GET, J_NONE,
    0, NULL,
    N_ ("show each contributing file, whether it may grant sandbox access, "
        "and why") },
  { "output-formats", required_argument, OPT_OUTPUT_FORMATS, 0, CMD_SCAN,
    J_LIST, 0, "LIST", N_ ("same as --output-format") },
  { "formats", required_argument, OPT_FORMATS, 0, CMD_SCAN, J_NONE, 0, "LIST",
    N_ ("same as --output-format") },
  { "no-offline", no_argument, OPT_NO_OFFLINE, 0,
    CMD_SCAN | CMD_SANDBOX_EXPLAIN, J_NONE, 0, NULL,
    N_ ("scan online (the default; overrides ASH_OFFLINE)") },
  { "no-quiet", no_argument, OPT_NO_QUIET, 0, ALL_LOG, J_NONE, 0, NULL,
    N_ ("print the log as the log level says (the default)") },
  { "min-severity", required_argument, OPT_MIN_SEVERITY, 0, CMD_SCAN, J_STRING,
    0, "LEVEL",
    N_ ("findings below LEVEL are not actionable (ALL, INFO, LOW, MEDIUM, "
        "HIGH, CRITICAL); replaces global_settings.severity_threshold") },
  { "ignore-suppressions", no_argument, OPT_IGNORE_SUPPRESSIONS, 0, CMD_SCAN,
    J_BOOL, OPT_NO_IGNORE_SUPPRESSIONS, NULL,
    N_ ("apply no suppression: neither configured ones nor ash-ignore "
        "comments") },
  { "no-ignore-suppressions", no_argument, OPT_NO_IGNORE_SUPPRESSIONS, 0,
    CMD_SCAN, J_NONE, 0, NULL, N_ ("apply the suppressions (the default)") },
  { "simple", no_argument, OPT_SIMPLE, 0, CMD_SCAN, J_BOOL, 0, NULL,
    N_ ("minimal output: warnings and errors, no progress, the summary "
        "(same as --log-level SIMPLE)") },
  { "show-summary", no_argument, OPT_SHOW_SUMMARY, 0, CMD_SCAN, J_BOOL,
    OPT_NO_SHOW_SUMMARY, NULL,
    N_ ("print the results summary after the scan (the default)") },
  { "no-show-summary", no_argument, OPT_NO_SHOW_SUMMARY, 0, CMD_SCAN, J_NONE,
    0, NULL, N_ ("do not print the results summary") },
  { "use-existing", no_argument, OPT_USE_EXISTING, 0, CMD_SCAN, J_BOOL,
    OPT_NO_USE_EXISTING, NULL,
    N_ ("run no scanner: write the reports again from OUTPUT's "
        "ash_aggregated_results.json") },
  { "no-use-existing", no_argument, OPT_NO_USE_EXISTING, 0, CMD_SCAN, J_NONE,
    0, NULL, N_ ("scan (the default)") },
  { "cleanup", no_argument, OPT_CLEANUP, 0, CMD_SCAN, J_BOOL, OPT_NO_CLEANUP,
    NULL,
    N_ ("remove the converters' work directory OUTPUT/converted after "
        "the scan") },
  { "no-cleanup", no_argument, OPT_NO_CLEANUP, 0, CMD_SCAN, J_NONE, 0, NULL,
    N_ ("keep OUTPUT/converted (the default)") },
  { "phases", required_argument, OPT_PHASES, 0, CMD_SCAN, J_LIST, 0, "LIST",
    N_ ("phases to run (comma-separated; repeatable): convert, scan, report; "
        "report alone is --use-existing") },
  { "inspect", no_argument, OPT_INSPECT, 0, CMD_SCAN, J_BOOL, OPT_NO_INSPECT,
    NULL, N_ ("the inspect phase: not available in this version") },
  { "no-inspect", no_argument, OPT_NO_INSPECT, 0, CMD_SCAN, J_NONE, 0, NULL,
    N_ ("no inspect phase (the default)") },
  { "offline-semgrep-rulesets", required_argument,
    OPT_OFFLINE_SEMGREP_RULESETS, 0, CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0,
    "LIST",
    N_ ("offline, semgrep and opengrep use only these rulesets (p/NAME) "
        "from the rules cache, as NAME.yml or NAME.yaml (comma-separated)") },
  { "python-only", no_argument, OPT_PYTHON_ONLY, 0, CMD_SCAN, J_BOOL, OPT_FULL,
    NULL,
    N_ ("run only upstream's Python-based scanners: bandit, detect-secrets, "
        "checkov, cdk-nag, npm-audit") },
  { "full", no_argument, OPT_FULL, 0, CMD_SCAN, J_NONE, 0, NULL,
    N_ ("run every enabled scanner (the default)") },
  { "python-based-scanners-only", no_argument, OPT_PYTHON_SCANNERS_ONLY, 0,
    CMD_SCAN, J_NONE, 0, NULL, N_ ("same as --python-only") },
  { "all-enabled-scanners", no_argument, OPT_ALL_ENABLED_SCANNERS, 0, CMD_SCAN,
    J_NONE, 0, NULL, N_ ("same as --full") },
  { "python-based-plugins-only", no_argument, OPT_PYTHON_PLUGINS_ONLY, 0,
    CMD_SCAN, J_BOOL, OPT_ALL_ENABLED_PLUGINS, NULL,
    N_ ("same as --python-only") },
  { "all-enabled-plugins", no_argument, OPT_ALL_ENABLED_PLUGINS, 0, CMD_SCAN,
    J_NONE, 0, NULL, N_ ("same as --full") },
  { "changed-files-only", no_argument, OPT_CHANGED_FILES_ONLY, 0, CMD_SCAN,
    J_BOOL, OPT_NO_CHANGED_FILES_ONLY, NULL,
    N_ ("report only findings in files git says changed from --base-ref") },
  { "no-changed-files-only", no_argument, OPT_NO_CHANGED_FILES_ONLY, 0,
    CMD_SCAN, J_NONE, 0, NULL,
    N_ ("report findings in every file (the "
        "default)") },
  { "base-ref", required_argument, OPT_BASE_REF, 0, CMD_SCAN, J_STRING, 0,
    "REF",
    N_ ("with --changed-files-only: the commit to compare with "
        "(default: origin/HEAD, then origin/main, main)") },
  { "build", no_argument, OPT_BUILD, 'b', CMD_SCAN, J_BOOL, OPT_NO_BUILD, NULL,
    N_ ("container mode: build the image before the scan (the "
        "default)") },
  { "no-build", no_argument, OPT_NO_BUILD, 'B', CMD_SCAN, J_NONE, 0, NULL,
    N_ ("container mode: run the image built before") },
  { "run", no_argument, OPT_RUN, 'r', CMD_SCAN, J_BOOL, OPT_NO_RUN, NULL,
    N_ ("container mode: run the scan in the image (the default)") },
  { "no-run", no_argument, OPT_NO_RUN, 'R', CMD_SCAN, J_NONE, 0, NULL,
    N_ ("container mode: only build the image") },
  { "oci-runner", required_argument, OPT_OCI_RUNNER, 'o',
    CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0, "PROGRAM",
    N_ ("container runtime (env OCI_RUNNER; default: the first of finch, "
        "docker, nerdctl, podman found)") },
  { "oci", required_argument, OPT_OCI, 0, CMD_SCAN | CMD_BUILD_IMAGE, J_NONE,
    0, "PROGRAM", N_ ("same as --oci-runner") },
  { "runner", required_argument, OPT_RUNNER, 0, CMD_SCAN | CMD_BUILD_IMAGE,
    J_NONE, 0, "PROGRAM", N_ ("same as --oci-runner") },
  { "build-target", required_argument, OPT_BUILD_TARGET, 0,
    CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0, "non-root|ci",
    N_ ("container mode: the image's target (default: non-root)") },
  { "container-uid", required_argument, OPT_CONTAINER_UID, 'u',
    CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0, "UID",
    N_ ("container mode: the user id of the image's user, which writes the "
        "output (default: yours)") },
  { "container-gid", required_argument, OPT_CONTAINER_GID, 'g',
    CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0, "GID",
    N_ ("container mode: the group id of the image's user (default: "
        "yours)") },
  { "ash-revision-to-install", required_argument, OPT_ASH_REVISION_TO_INSTALL,
    0, CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0, "LOCAL",
    N_ ("container mode: the ash built into the image; only LOCAL, "
        "the source tree (env ASH_ROOT_DIR)") },
  { "custom-containerfile", required_argument, OPT_CUSTOM_CONTAINERFILE, 0,
    CMD_SCAN | CMD_BUILD_IMAGE, J_STRING, 0, "FILE",
    N_ ("container mode: build FILE on the image (build argument "
        "ASH_BASE_IMAGE) and scan in the result") },
  { "custom-build-arg", required_argument, OPT_CUSTOM_BUILD_ARG, 0,
    CMD_SCAN | CMD_BUILD_IMAGE, J_LIST, 0, "NAME=VALUE",
    N_ ("container mode: a build argument for the image; repeatable") },
  { "help", no_argument, OPT_HELP, 'h', CMD_ALL, J_NONE, 0, NULL,
    N_ ("show this help and exit") },
  { "version", no_argument, OPT_VERSION, 0, CMD_ALL, J_NONE, 0, NULL,
    N_ ("show the version and exit") },
};

/* The values of --output-formats are ash_reporter_names
   (config/reporter-names.h).  */
#define REPORTER_CHOICES ash_reporter_names

/* The values of the options that take one of a list (also what the shell
   completions offer).  */
static const char *const run_modes[]
  = { "local", "container", "precommit", NULL };
static const char *const strategies[] = { "parallel", "sequential", NULL };
static const char *const log_levels[]
  = { "TRACE", "DEBUG",    "VERBOSE", "INFO",  "WARNING",
      "ERROR", "CRITICAL", "SIMPLE",  "QUIET", NULL };
static const char *const phase_names[]
  = { "convert", "scan", "report", "inspect", NULL };
static const char *const min_severities[]
  = { "ALL", "INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL", NULL };
static const char *const config_formats[] = { "yaml", "json", NULL };
static const char *const completion_shells[] = { "bash", "zsh", "fish", NULL };

struct command
{
  unsigned bit;
  const char *name; /* "config get" */
  const char *args; /* positional arguments in --help */
  const char *summary;
};

static const struct command commands[] = {
  { CMD_SCAN, "scan", "",
    N_ ("scan the source directory (the default "
        "command)") },
  { CMD_CONFIG_INIT, "config init", "",
    N_ ("write a commented configuration, .ash/.ash.yaml (and "
        ".ash/.gitignore), into the source directory") },
  { CMD_CONFIG_GET, "config get", " [KEY]",
    N_ ("print the resolved configuration, or the value at KEY") },
  { CMD_CONFIG_VALIDATE, "config validate", "",
    N_ ("check the configuration and report the first error") },
  { CMD_CONFIG_UPDATE, "config update", " [FILE]",
    N_ ("apply --set KEY=VALUE to a configuration file and rewrite it") },
  { CMD_CONFIG_LINT, "config lint", "",
    N_ ("check the configuration and list every problem, warnings "
        "included") },
  { CMD_SANDBOX_PROBE, "sandbox probe", "",
    N_ ("say for each sandbox backend whether it can be used, and why not") },
  { CMD_SANDBOX_EXPLAIN, "sandbox explain", " SCANNER",
    N_ ("print the sandbox policy SCANNER would run under, as JSON") },
  { CMD_DEPS_INSTALL, "dependencies install", "",
    N_ ("install the scanners' tools into ASH's bin directory (npm, uv or "
        "pipx), and print how to install the rest") },
  { CMD_PLUGIN_LIST, "plugin list", "",
    N_ ("list the scanners (builtin and of the plugin modules a scan would "
        "load), converters and reporters, and whether each is enabled") },
  { CMD_INSPECT_SARIF_FIELDS, "inspect sarif-fields", "",
    N_ ("list which SARIF result fields each scanner wrote and whether "
        "the aggregated ash.sarif kept them, into OUTPUT/inspect") },
  { CMD_REPORT, "report", "",
    N_ ("print one report again from the output directory's "
        "ash_aggregated_results.json (--report-format NAME, default "
        "markdown)") },
  { CMD_BUILD_IMAGE, "build-image", "",
    N_ ("build the container image of container mode from "
        "container/Containerfile") },
  { CMD_COMPLETION, "completion", " SHELL",
    N_ ("print the completion script for SHELL (bash, zsh or fish)") },
};

/* One assignment from one source.  */
struct assign
{
  int id;
  char *arg;   /* owned, or NULL */
  char *where; /* how to name the source in an error: "--mode", "ASH_MODE" */
};

struct assigns
{
  struct assign *v;
  size_t n;
};

static void
assigns_add (struct assigns *a, int id, const char *arg, const char *where)
{
  a->v = xreallocarray (a->v, a->n + 1, sizeof *a->v);
  a->v[a->n].id = id;
  a->v[a->n].arg = arg ? xstrdup (arg) : NULL;
  a->v[a->n].where = xstrdup (where);
  a->n++;
}

static void
assigns_release (struct assigns *a)
{
  for (size_t i = 0; i < a->n; i++)
    {
      free (a->v[i].arg);
      free (a->v[i].where);
    }
  free (a->v);
  a->v = NULL;
  a->n = 0;
}

static const struct optdef *
optdef_by_id (int id)
{
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    if (optdefs[i].id == id)
      return &optdefs[i];
  return NULL;
}

static const struct command *
command_by_bit (unsigned bit)
{
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    if (commands[i].bit == bit)
      return &commands[i];
  return NULL;
}

static int usage_error (const char *fmt, ...) _printf_ (1, 2);

static int
usage_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *raw = xvasprintf (fmt, ap);
  va_end (ap);
  _cleanup_free_ char *m = ash_escape_control (raw);
  fprintf (stderr, "ash: %s\n", m);
  fprintf (stderr, _ ("Try 'ash --help' for more information.\n"));
  return ASH_EXIT_USAGE;
}

static int
config_error (const struct ash_error *e)
{
  _cleanup_free_ char *raw = ash_error_format (e);
  _cleanup_free_ char *m = ash_escape_control (raw);
  fprintf (stderr, "ash: %s\n", m);
  return ASH_EXIT_CONFIG;
}

/* Help.  */

/* The help of D under CMD: two options mean another thing to ash scan.  */
static const char *
option_help (const struct optdef *d, unsigned cmd)
{
  if (cmd == CMD_SCAN && d->id == OPT_FORMAT)
    return _ ("same as --output-format");
  if (cmd == CMD_REPORT && d->id == OPT_FORMAT)
    return _ ("same as --report-format");
  if ((cmd == CMD_SCAN || cmd == CMD_BUILD_IMAGE) && d->id == OPT_FORCE)
    return _ ("container mode: build the image without the runtime's "
              "cache");
  return _ (d->help);
}

static void
print_options (FILE *out, unsigned cmd, unsigned skip)
{
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    {
      const struct optdef *d = &optdefs[i];
      if (!(d->cmds & cmd)
          || ((d->cmds & skip) && d->id != OPT_FORMAT && d->id != OPT_FORCE))
        continue;
      struct ash_buf b = ASH_BUF_INIT;
      if (d->short_opt)
        ash_buf_addf (&b, "-%c, ", d->short_opt);
      else
        ash_buf_addstr (&b, "    ");
      ash_buf_addf (&b, "--%s", d->name);
      if (d->arg)
        ash_buf_addf (&b, " %s",
                      cmd == CMD_SCAN && d->id == OPT_FORMAT     ? "LIST"
                      : cmd == CMD_REPORT && d->id == OPT_FORMAT ? "NAME"
                                                                 : d->arg);
      const char *h = option_help (d, cmd);
      if (b.len < 32)
        fprintf (out, "  %-32s%s\n", b.buf, h);
      else
        fprintf (out, "  %s\n  %-32s%s\n", b.buf, "", h);
      ash_buf_release (&b);
    }
}

static void
print_help (FILE *out)
{
  fprintf (out, _ ("Usage: ash [COMMAND] [OPTION]...\n"
                   "Run security scanners over a source tree, each in an "
                   "OS-level sandbox when asked.\n\n"));
  fprintf (out, _ ("Commands:\n"));
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    {
      _cleanup_free_ char *n
        = xasprintf ("%s%s", commands[i].name, commands[i].args);
      fprintf (out, "  %-32s%s\n", n, _ (commands[i].summary));
    }
  fprintf (out, "  %-32s%s\n", "help COMMAND", _ ("show the help of COMMAND"));
  fprintf (out, _ ("\nOptions of ash scan:\n"));
  print_options (out, CMD_SCAN, 0);
  fprintf (out, _ ("\nThe other commands take the options of ash scan that "
                   "apply to them\n('ash help COMMAND' lists them), and:\n"));
  print_options (out, CMD_ALL & ~CMD_SCAN & ~CMD_REPORT, CMD_SCAN);
  fprintf (out, _ ("\nExit status: 0 clean; 1 incomplete scan or failure; 2 "
                   "actionable findings;\n3 configuration error; 5 usage "
                   "error.\n\nSee ash(1) and ash.yaml(5).\n"));
}

static void
print_command_help (FILE *out, unsigned cmd)
{
  const struct command *c = command_by_bit (cmd);
  fprintf (out, _ ("Usage: ash %s%s [OPTION]...\n%s\n\nOptions:\n"), c->name,
           c->args, _ (c->summary));
  print_options (out, cmd, 0);
}

/* Values.  */

static bool
in_list (const char *s, const char *const *list)
{
  for (size_t i = 0; list[i]; i++)
    if (streq (s, list[i]))
      return true;
  return false;
}

static char *
join_list (const char *const *list)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; list[i]; i++)
    ash_buf_addf (&b, "%s%s", i ? ", " : "", list[i]);
  return ash_buf_detach (&b);
}

static int
bad_value (const char *where, const char *value, const char *const *list)
{
  _cleanup_free_ char *l = join_list (list);
  return usage_error (_ ("invalid value '%s' for %s (expected one of: %s)"),
                      value, where, l);
}

/* Push each comma-separated item of ARG.  */
static void
push_comma_list (struct ash_strvec *sv, const char *arg)
{
  _cleanup_free_ char *copy = xstrdup (arg);
  char *save = NULL;
  for (char *t = strtok_r (copy, ",", &save); t;
       t = strtok_r (NULL, ",", &save))
    {
      while (*t == ' ')
        t++;
      size_t n = strlen (t);
      while (n > 0 && t[n - 1] == ' ')
        t[--n] = '\0';
      if (*t)
        ash_strvec_push (sv, t);
    }
}

/* Add to DST each value of the comma-separated ARG (lowered first with
   LOWER) that is not there yet; a value not in CHOICES is a usage error
   naming WHERE.  0 or the usage error's code.  */
static int
push_choices (struct ash_strvec *dst, const char *arg,
              const char *const *choices, bool lower, const char *where)
{
  struct ash_strvec tmp = ASH_STRVEC_INIT;
  int r = 0;

  push_comma_list (&tmp, arg);
  for (size_t i = 0; i < tmp.nr && r == 0; i++)
    {
      for (char *p = tmp.v[i]; lower && *p; p++)
        *p = (char) tolower ((unsigned char) *p);
      if (!in_list (tmp.v[i], choices))
        r = bad_value (where, tmp.v[i], choices);
      else if (!ash_strvec_contains (dst, tmp.v[i]))
        ash_strvec_push (dst, tmp.v[i]);
    }
  ash_strvec_release (&tmp);
  return r;
}

static int
parse_truthy (const char *s, bool *ret)
{
  static const char *const yes[] = { "1", "true", "yes", "on" };
  static const char *const no[] = { "", "0", "false", "no", "off" };
  for (size_t i = 0; i < ARRAY_SIZE (yes); i++)
    if (strcasecmp (s, yes[i]) == 0)
      return *ret = true, 0;
  for (size_t i = 0; i < ARRAY_SIZE (no); i++)
    if (strcasecmp (s, no[i]) == 0)
      return *ret = false, 0;
  return -EINVAL;
}

static void
set_str (char **field, const char *v)
{
  free (*field);
  *field = xstrdup (v);
}

/* Apply one assignment.  ARG "0"/"1" carries booleans of JSON and the
   environment; NULL means "given" for a flag.  Returns 0 or an exit
   code.  */
static int
apply_one (struct ash_options *o, const struct assign *a)
{
  const char *arg = a->arg;
  bool on = arg == NULL || streq (arg, "1");
  switch (a->id)
    {
    case OPT_SOURCE_DIR:
      set_str (&o->source_dir, arg);
      break;
    case OPT_OUTPUT_DIR:
      set_str (&o->output_dir, arg);
      break;
    case OPT_CONFIG:
      set_str (&o->config, arg);
      break;
    case OPT_CONFIG_OVERRIDES:
      ash_strvec_push (&o->config_overrides, arg);
      break;
    case OPT_SCANNERS:
      push_comma_list (&o->scanners, arg);
      break;
    case OPT_EXCLUDE_SCANNERS:
      push_comma_list (&o->exclude_scanners, arg);
      break;
    case OPT_PLUGIN_MODULES:
      push_comma_list (&o->plugin_modules, arg);
      break;
    case OPT_OUTPUT_FORMAT:
    case OPT_OUTPUT_FORMATS:
    case OPT_FORMATS:
      {
        /* An upstream cloud reporter is refused as in the configuration
           (exit 3), not taken for a misspelling.  */
        struct ash_strvec tmp = ASH_STRVEC_INIT;
        const char *why = NULL;
        push_comma_list (&tmp, arg);
        for (size_t i = 0; i < tmp.nr && why == NULL; i++)
          if ((why = ash_reporter_unavailable (tmp.v[i])))
            {
              _cleanup_free_ char *m = ash_escape_control (tmp.v[i]);
              fprintf (stderr,
                       _ ("ash: %s: reporter '%s' is not available in ash: "
                          "%s, and ash writes its reports only to the "
                          "output directory\n"),
                       a->where, m, why);
            }
        ash_strvec_release (&tmp);
        if (why)
          return ASH_EXIT_CONFIG;
        return push_choices (&o->output_formats, arg, REPORTER_CHOICES, false,
                             a->where);
      }
    case OPT_OFFLINE:
      o->offline = on;
      break;
    case OPT_ALLOW_IN_TREE_TOOLS:
      o->allow_in_tree_tools = on;
      break;
    case OPT_NO_PROBE_CACHE:
      o->no_probe_cache = on;
      break;
    case OPT_QUIET:
      o->quiet = on;
      break;
    case OPT_DEBUG:
      o->debug = on;
      break;
    case OPT_MODE:
      {
        if (!in_list (arg, run_modes))
          return bad_value (a->where, arg, run_modes);
        o->mode = streq (arg, "local")       ? ASH_RUN_LOCAL
                  : streq (arg, "container") ? ASH_RUN_CONTAINER
                                             : ASH_RUN_PRECOMMIT;
      }
      break;
    case OPT_SANDBOX:
      if (!in_list (arg, ash_sandbox_modes))
        return bad_value (a->where, arg, ash_sandbox_modes);
      set_str (&o->sandbox, arg);
      break;
    case OPT_STRATEGY:
      {
        if (!in_list (arg, strategies))
          return bad_value (a->where, arg, strategies);
        o->strategy = streq (arg, "parallel") ? ASH_STRATEGY_PARALLEL
                                              : ASH_STRATEGY_SEQUENTIAL;
      }
      break;
    case OPT_MAX_WORKERS:
      {
        char *end;
        errno = 0;
        long n = strtol (arg, &end, 10);
        if (errno || *arg == '\0' || *end || n < 1 || n > 4096)
          return usage_error (_ ("invalid value '%s' for %s (expected a "
                                 "number from 1 to 4096)"),
                              arg, a->where);
        o->max_workers = (int) n;
      }
      break;
    case OPT_LOG_LEVEL:
      {
        enum ash_log_level l;
        /* Upstream's three levels ash_log does not have: QUIET is
           --quiet, SIMPLE is --simple, TRACE is ash's most detailed
           level, DEBUG.  */
        if (strcasecmp (arg, "QUIET") == 0)
          o->quiet = true;
        else if (strcasecmp (arg, "SIMPLE") == 0)
          o->simple = true;
        else if (strcasecmp (arg, "TRACE") == 0)
          set_str (&o->log_level, "DEBUG");
        else if (ash_log_level_parse (arg, &l) < 0)
          return bad_value (a->where, arg, log_levels);
        else
          set_str (&o->log_level, arg);
      }
      break;
    case OPT_NO_OFFLINE:
      o->offline = false;
      break;
    case OPT_NO_QUIET:
      o->quiet = false;
      break;
    case OPT_MIN_SEVERITY:
      {
        bool known = false;
        for (size_t i = 0; min_severities[i]; i++)
          known |= strcasecmp (arg, min_severities[i]) == 0;
        if (!known)
          return bad_value (a->where, arg, min_severities);
        set_str (&o->min_severity, arg);
      }
      break;
    case OPT_IGNORE_SUPPRESSIONS:
      o->ignore_suppressions = on;
      break;
    case OPT_NO_IGNORE_SUPPRESSIONS:
      o->ignore_suppressions = false;
      break;
    case OPT_SIMPLE:
      o->simple = on;
      break;
    case OPT_SHOW_SUMMARY:
      o->show_summary = on;
      break;
    case OPT_NO_SHOW_SUMMARY:
      o->show_summary = 0;
      break;
    case OPT_USE_EXISTING:
      o->use_existing = on;
      break;
    case OPT_NO_USE_EXISTING:
      o->use_existing = false;
      break;
    case OPT_CLEANUP:
      o->cleanup = on;
      break;
    case OPT_NO_CLEANUP:
      o->cleanup = false;
      break;
    case OPT_PHASES:
      return push_choices (&o->phases, arg, phase_names, true, a->where);
    case OPT_INSPECT:
      o->inspect = on;
      break;
    case OPT_NO_INSPECT:
      o->inspect = false;
      break;
    case OPT_OFFLINE_SEMGREP_RULESETS:
      ash_strvec_clear (&o->semgrep_rulesets);
      push_comma_list (&o->semgrep_rulesets, arg);
      break;
    case OPT_PYTHON_ONLY:
    case OPT_PYTHON_SCANNERS_ONLY:
    case OPT_PYTHON_PLUGINS_ONLY:
      o->python_only = on;
      break;
    case OPT_FULL:
    case OPT_ALL_ENABLED_SCANNERS:
    case OPT_ALL_ENABLED_PLUGINS:
      o->python_only = false;
      break;
    case OPT_CHANGED_FILES_ONLY:
      o->changed_files_only = on;
      break;
    case OPT_NO_CHANGED_FILES_ONLY:
      o->changed_files_only = false;
      break;
    case OPT_BASE_REF:
      set_str (&o->base_ref, arg);
      break;
    case OPT_VERBOSE:
      if (arg == NULL)
        o->verbose++;
      else
        o->verbose = atoi (arg);
      break;
    case OPT_FAIL_ON_FINDINGS:
      o->fail_on_findings = on;
      break;
    case OPT_NO_FAIL_ON_FINDINGS:
      o->fail_on_findings = 0;
      break;
    case OPT_PROGRESS:
      o->progress = on;
      break;
    case OPT_NO_PROGRESS:
      o->progress = 0;
      break;
    case OPT_COLOR:
      o->color = on;
      break;
    case OPT_NO_COLOR:
      o->color = 0;
      break;
    case OPT_CLI_JSON_INPUT:
      set_str (&o->cli_json_input, arg);
      break;
    default:
      break;
    }
  return 0;
}

static struct ash_strvec *
list_field (struct ash_options *o, int id)
{
  switch (id)
    {
    case OPT_CONFIG_OVERRIDES:
      return &o->config_overrides;
    case OPT_SCANNERS:
      return &o->scanners;
    case OPT_EXCLUDE_SCANNERS:
      return &o->exclude_scanners;
    case OPT_PLUGIN_MODULES:
      return &o->plugin_modules;
    case OPT_OUTPUT_FORMAT:
    case OPT_OUTPUT_FORMATS:
    case OPT_FORMATS:
      return &o->output_formats;
    case OPT_PHASES:
      return &o->phases;
    default:
      return NULL;
    }
}

/* Apply a whole source: a list it names replaces the list of an earlier
   source.  */
static int
apply_source (struct ash_options *o, const struct assigns *a)
{
  for (size_t i = 0; i < a->n; i++)
    {
      struct ash_strvec *l = list_field (o, a->v[i].id);
      if (l)
        {
          bool seen = false;
          for (size_t j = 0; j < i; j++)
            if (a->v[j].id == a->v[i].id)
              seen = true;
          if (!seen)
            ash_strvec_clear (l);
        }
    }
  for (size_t i = 0; i < a->n; i++)
    {
      int r = apply_one (o, &a->v[i]);
      if (r)
        return r;
    }
  return 0;
}

/* The environment.  Only variables for options the command accepts are
   read.  */
static int
collect_env (unsigned cmd, struct assigns *a, struct ash_options *o)
{
  static const struct
  {
    const char *var;
    int id;
    bool boolean;
  } envs[] = {
    { "ASH_SOURCE_DIR", OPT_SOURCE_DIR, false },
    { "ASH_OUTPUT_DIR", OPT_OUTPUT_DIR, false },
    { "ASH_MODE", OPT_MODE, false },
    { "ASH_OFFLINE", OPT_OFFLINE, true },
    { "ASH_PLUGIN_MODULES", OPT_PLUGIN_MODULES, false },
    { "ASH_ALLOW_IN_TREE_TOOLS", OPT_ALLOW_IN_TREE_TOOLS, true },
    { "ASH_NO_PROBE_CACHE", OPT_NO_PROBE_CACHE, true },
    { "ASH_SCANNERS", OPT_SCANNERS, false },
    { "ASH_EXCLUDED_SCANNERS", OPT_EXCLUDE_SCANNERS, false },
  };
  for (size_t i = 0; i < ARRAY_SIZE (envs); i++)
    {
      const char *v = getenv (envs[i].var);
      if (v == NULL || !(optdef_by_id (envs[i].id)->cmds & cmd))
        continue;
      if (envs[i].boolean)
        {
          bool b;
          if (parse_truthy (v, &b) < 0)
            return usage_error (_ ("invalid value '%s' for %s (expected 1, "
                                   "true, 0 or false)"),
                                v, envs[i].var);
          assigns_add (a, envs[i].id, b ? "1" : "0", envs[i].var);
        }
      else if (*v
               && (envs[i].id == OPT_SCANNERS
                   || envs[i].id == OPT_EXCLUDE_SCANNERS))
        {
          /* Upstream splits these at white space; ash also at commas.  */
          _cleanup_free_ char *c = xstrdup (v);
          for (char *p = c; *p; p++)
            if (isspace ((unsigned char) *p))
              *p = ',';
          assigns_add (a, envs[i].id, c, envs[i].var);
        }
      else if (*v)
        assigns_add (a, envs[i].id, v, envs[i].var);
    }
  const char *c = getenv ("ASH_CONFIG");
  if (c && *c && (cmd & CMD_CONFIG_LOAD))
    set_str (&o->env_config, c);
  const char *ci = getenv ("CI");
  bool b;
  o->progress_ci = ci && *ci && !(parse_truthy (ci, &b) == 0 && !b);
  return 0;
}

/* A --cli-json-input document.  */
static int
collect_json (unsigned cmd, const char *file, struct assigns *a)
{
  json_error_t jerr;
  _cleanup_json_ json_t *doc
    = json_load_file (file, JSON_REJECT_DUPLICATES, &jerr);
  if (doc == NULL)
    return usage_error (_ ("--cli-json-input %s: %s"), file, jerr.text);
  if (!json_is_object (doc))
    return usage_error (_ ("--cli-json-input %s: the document must be a JSON "
                           "object"),
                        file);
  const char *key;
  json_t *v;
  json_object_foreach (doc, key, v)
    {
      const struct optdef *d = NULL;
      for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
        {
          if (optdefs[i].json == J_NONE)
            continue;
          _cleanup_free_ char *snake = xstrdup (optdefs[i].name);
          for (char *p = snake; *p; p++)
            if (*p == '-')
              *p = '_';
          if (streq (snake, key))
            d = &optdefs[i];
        }
      if (d == NULL)
        return usage_error (_ ("--cli-json-input %s: unknown key '%s'"), file,
                            key);
      if (!(d->cmds & cmd))
        return usage_error (_ ("--cli-json-input %s: '%s' is not accepted by "
                               "'ash %s'"),
                            file, key, command_by_bit (cmd)->name);
      _cleanup_free_ char *where = xasprintf ("'%s' in %s", key, file);
      const char *want = NULL;
      switch (d->json)
        {
        case J_STRING:
          if (!json_is_string (v))
            want = _ ("a string");
          else
            assigns_add (a, d->id, json_string_value (v), where);
          break;
        case J_BOOL:
          if (!json_is_boolean (v))
            want = _ ("true or false");
          else if (d->neg && !json_is_true (v))
            assigns_add (a, d->neg, NULL, where);
          else
            assigns_add (a, d->id, json_is_true (v) ? "1" : "0", where);
          break;
        case J_INT:
          if (!json_is_integer (v))
            want = _ ("an integer");
          else
            {
              _cleanup_free_ char *n
                = xasprintf ("%lld", (long long) json_integer_value (v));
              assigns_add (a, d->id, n, where);
            }
          break;
        case J_COUNT:
          if (json_is_boolean (v))
            assigns_add (a, d->id, json_is_true (v) ? "1" : "0", where);
          else if (json_is_integer (v) && json_integer_value (v) >= 0
                   && json_integer_value (v) < 100)
            {
              _cleanup_free_ char *n
                = xasprintf ("%lld", (long long) json_integer_value (v));
              assigns_add (a, d->id, n, where);
            }
          else
            want = _ ("true, false or a count");
          break;
        case J_LIST:
          if (json_is_string (v))
            assigns_add (a, d->id, json_string_value (v), where);
          else if (json_is_array (v))
            {
              size_t i;
              json_t *e;
              json_array_foreach (v, i, e)
                if (!json_is_string (e))
                  want = _ ("a string or a list of strings");
              if (!want)
                json_array_foreach (v, i, e)
                  assigns_add (a, d->id, json_string_value (e), where);
            }
          else
            want = _ ("a string or a list of strings");
          break;
        case J_NONE:
        default:
          break;
        }
      if (want)
        return usage_error (_ ("--cli-json-input %s: '%s' must be %s"), file,
                            key, want);
    }
  return 0;
}

/* Parse ARGV (ARGV[0] is the command word or "ash") for command CMD.
   Positional arguments go to POS.  Returns 0, or an exit code; -1 when
   help or the version was printed.  */
static int
parse_argv (int argc, char **argv, unsigned cmd, struct assigns *a,
            struct ash_strvec *pos)
{
  struct option longopts[ARRAY_SIZE (optdefs) + 1];
  _cleanup_buf_ struct ash_buf shortopts = ASH_BUF_INIT;

  ash_buf_addstr (&shortopts, ":");
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    {
      longopts[i].name = optdefs[i].name;
      longopts[i].has_arg = optdefs[i].has_arg;
      longopts[i].flag = NULL;
      longopts[i].val = optdefs[i].id;
      if (optdefs[i].short_opt)
        ash_buf_addf (&shortopts, "%c%s", optdefs[i].short_opt,
                      optdefs[i].has_arg ? ":" : "");
    }
  memset (&longopts[ARRAY_SIZE (optdefs)], 0, sizeof longopts[0]);

  opterr = 0;
  optind = 0; /* also resets GNU getopt's state */
  for (;;)
    {
      int c = getopt_long (argc, argv, shortopts.buf, longopts, NULL);
      if (c == -1)
        break;
      const char *given = argv[optind - 1];
      if (c == '?')
        {
          if (optopt)
            return usage_error (_ ("invalid option -- '%c'"), optopt);
          else
            return usage_error (_ ("unrecognized option '%s'"), given);
        }
      if (c == ':')
        {
          if (optopt && optopt < 256)
            return usage_error (_ ("option requires an argument -- '%c'"),
                                optopt);
          else
            return usage_error (_ ("option '%s' requires an argument"), given);
        }
      const struct optdef *d = NULL;
      for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
        if (optdefs[i].id == c || (c < 256 && optdefs[i].short_opt == c))
          d = &optdefs[i];
      if (d == NULL)
        return usage_error (_ ("unrecognized option '%s'"), given);
      if (d->id == OPT_HELP)
        {
          if (cmd == CMD_SCAN && streq (argv[0], "ash"))
            print_help (stdout);
          else
            print_command_help (stdout, cmd);
          return -1;
        }
      if (d->id == OPT_VERSION)
        {
          printf ("ash %s\n", PACKAGE_VERSION);
          /* TRANSLATORS: the GNU --version lines after the first.  */
          fputs (_ ("Copyright (C) 2026 The ash authors.\n"
                    "License Apache-2.0: Apache License, Version 2.0 "
                    "<https://www.apache.org/licenses/LICENSE-2.0>.\n"
                    "This is free software: you are free to change and "
                    "redistribute it.\n"
                    "There is NO WARRANTY, to the extent permitted by law.\n"),
                 stdout);
          return -1;
        }
      if (!(d->cmds & cmd))
        return usage_error (_ ("option '--%s' is not accepted by 'ash %s'"),
                            d->name, command_by_bit (cmd)->name);
      _cleanup_free_ char *where = xasprintf ("--%s", d->name);
      /* Upstream's ash scan takes --format for --output-format, its ash
         report --format for --report-format.  */
      assigns_add (a,
                   cmd == CMD_SCAN && d->id == OPT_FORMAT ? OPT_OUTPUT_FORMAT
                   : cmd == CMD_REPORT && d->id == OPT_FORMAT
                     ? OPT_REPORT_FORMAT
                     : d->id,
                   optarg, where);
    }
  for (int i = optind; i < argc; i++)
    ash_strvec_push (pos, argv[i]);
  return 0;
}

static const char *
format_of (const struct assigns *a)
{
  const char *f = "yaml";
  for (size_t i = 0; i < a->n; i++)
    if (a->v[i].id == OPT_FORMAT)
      f = a->v[i].arg;
  return f;
}

static bool
has_opt (const struct assigns *a, int id)
{
  for (size_t i = 0; i < a->n; i++)
    if (a->v[i].id == id)
      return true;
  return false;
}

/* Fill the defaults that depend on the environment.  */
static int
finish_options (struct ash_options *o)
{
  if (o->source_dir == NULL)
    {
      char *cwd = getcwd (NULL, 0);
      if (cwd == NULL)
        {
          fprintf (stderr, _ ("ash: cannot get the working directory: %s\n"),
                   strerror (errno));
          return ASH_EXIT_INCOMPLETE;
        }
      o->source_dir = cwd;
    }
  char *abs = ash_path_absolute (o->source_dir);
  free (o->source_dir);
  o->source_dir = abs;
  if (o->output_dir == NULL)
    o->output_dir = ash_path_join (o->source_dir, ".ash/ash_output");
  else
    {
      abs = ash_path_absolute (o->output_dir);
      free (o->output_dir);
      o->output_dir = abs;
    }
  const char *bin = getenv ("ASH_BIN_PATH");
  if (bin && *bin)
    o->bin_path = ash_path_absolute (bin);
  else
    {
      const char *xdg = getenv ("XDG_DATA_HOME");
      const char *home = getenv ("HOME");
      if (xdg && xdg[0] == '/')
        o->bin_path = ash_path_join (xdg, "ash/bin");
      else if (home && home[0] == '/')
        o->bin_path = ash_path_join (home, ".local/share/ash/bin");
    }
  return 0;
}

int
ash_cli_refuse (int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *raw = xvasprintf (fmt, ap);
  va_end (ap);
  _cleanup_free_ char *m = ash_escape_control (raw);
  fprintf (stderr, "ash: %s\n", m);
  return code;
}

static bool
is_container_option (int id)
{
  switch (id)
    {
    case OPT_BUILD:
    case OPT_NO_BUILD:
    case OPT_RUN:
    case OPT_NO_RUN:
    case OPT_FORCE:
    case OPT_OCI_RUNNER:
    case OPT_OCI:
    case OPT_RUNNER:
    case OPT_BUILD_TARGET:
    case OPT_CONTAINER_UID:
    case OPT_CONTAINER_GID:
    case OPT_ASH_REVISION_TO_INSTALL:
    case OPT_CUSTOM_CONTAINERFILE:
    case OPT_CUSTOM_BUILD_ARG:
      return true;
    default:
      return false;
    }
}

/* The options of ash scan that depend on each other or that ash cannot
   honour, once every source was applied.  Returns 0 or an exit code.  */
static int
check_scan_options (struct ash_options *o, const struct assigns *const *srcs,
                    size_t n_srcs)
{
  /* A container option in a local scan would be accepted and ignored:
     it is a usage error instead.  */
  for (size_t s = 0; s < n_srcs && o->mode != ASH_RUN_CONTAINER; s++)
    for (size_t i = 0; i < srcs[s]->n; i++)
      if (is_container_option (srcs[s]->v[i].id))
        return ash_cli_refuse (ASH_EXIT_USAGE,
                               _ ("%s is an option of container mode, which "
                                  "this scan does not use: add --mode "
                                  "container, or leave it out; nothing was "
                                  "scanned"),
                               srcs[s]->v[i].where);
  bool convert = true, scan = true, report = true;
  if (o->phases.nr > 0)
    {
      convert = ash_strvec_contains (&o->phases, "convert");
      scan = ash_strvec_contains (&o->phases, "scan");
      report = ash_strvec_contains (&o->phases, "report");
      o->inspect |= ash_strvec_contains (&o->phases, "inspect");
    }
  if (o->inspect)
    return ash_cli_refuse (ASH_EXIT_USAGE,
                           _ (
                             "the inspect phase (--inspect, --phases inspect) "
                             "is not available in this version"));
  if (!scan && !report)
    return ash_cli_refuse (ASH_EXIT_USAGE,
                           _ ("--phases must name scan or report"));
  if (!scan && convert)
    return ash_cli_refuse (ASH_EXIT_USAGE,
                           _ ("--phases convert without scan is not "
                              "available: converted files are only scanned"));
  if (!scan)
    o->use_existing = true;
  if (!report && o->use_existing)
    return ash_cli_refuse (ASH_EXIT_USAGE,
                           _ ("--use-existing needs the report phase"));
  o->skip_convert = !convert;
  o->skip_reports = !report;
  if (o->base_ref && !o->changed_files_only)
    return ash_cli_refuse (ASH_EXIT_USAGE, _ ("--base-ref is only used with "
                                              "--changed-files-only"));
  if (o->semgrep_rulesets.nr > 0 && !o->offline)
    fprintf (stderr, _ ("ash: warning: --offline-semgrep-rulesets applies "
                        "only offline (--offline); this scan is online and "
                        "semgrep uses its configured rules\n"));
  /* Upstream's simple output: no live progress.  */
  if (o->simple && o->progress < 0)
    o->progress = 0;
  return 0;
}

static void
setup_log (const struct ash_options *o)
{
  enum ash_log_level level = ASH_LOG_INFO;
  if (o->log_level)
    ash_log_level_parse (o->log_level, &level);
  else if (o->debug)
    level = ASH_LOG_DEBUG;
  else if (o->verbose)
    level = ASH_LOG_VERBOSE;
  else if (o->simple)
    level = ASH_LOG_WARNING;
  ash_log_setup (level, o->quiet, o->color);
}

static int
load_config (const struct ash_options *o, struct ash_config *c)
{
  struct ash_config_request req = {
    .source_dir = o->source_dir,
    .config_path = o->config,
    .env_config = o->env_config,
    .overrides = o->config_overrides.v,
  };
  _cleanup_error_ struct ash_error e = ASH_ERROR_INIT;
  ash_config_init (c);
  if (ash_config_load (&req, c, &e) < 0)
    return config_error (&e);
  return 0;
}

/* `ash config init`.  */

static const char init_template[]
  = "# ASH configuration (see ash.yaml(5)).  Keys not set here take their\n"
    "# value from the built-in defaults; 'ash config get' shows the result.\n"
    "project_name: my-project\n"
    "\n"
    "global_settings:\n"
    "  # Findings below this severity do not fail the scan:\n"
    "  # ALL, LOW, MEDIUM, HIGH or CRITICAL.\n"
    "  severity_threshold: MEDIUM\n"
    "  # Paths no scanner looks at, each with the reason.\n"
    "  ignore_paths: []\n"
    "  #  - path: tests/fixtures/**\n"
    "  #    reason: test data\n"
    "  # Findings to suppress: rule_id, path, line_start, line_end, reason,\n"
    "  # expiration (YYYY-MM-DD).\n"
    "  suppressions: []\n"
    "\n"
    "# Exit 2 when there are actionable findings.\n"
    "fail_on_findings: true\n"
    "# Exit 1 when a scanner is MISSING or fails.\n"
    "fail_on_incomplete_scanners: true\n"
    "\n"
    "# Every builtin scanner is enabled unless turned off here, e.g.\n"
    "scanners:\n"
    "  bandit:\n"
    "    enabled: true\n"
    "    # options:\n"
    "    #   scan_timeout: 600\n"
    "\n"
    "reporters:\n"
    "  sarif:\n"
    "    enabled: true\n"
    "\n"
    "# Run every scanner in an OS-level sandbox: off, auto, bwrap, firejail,\n"
    "# landlock or sandbox-exec.  Grants (network_scanners, "
    "extra_read_paths,\n"
    "# read_path_scanners, env_scanners) are ignored in a file inside a git\n"
    "# checkout; see ash-sandbox(7).\n"
    "sandbox:\n"
    "  mode: \"off\"\n";

/* The directory part of the absolute, normalized PATH ("/" for "/x").  */
static char *
path_dirname (const char *path)
{
  const char *sl = strrchr (path, '/');
  if (sl == NULL)
    return xstrdup (".");
  if (sl == path)
    return xstrdup ("/");
  return xstrndup (path, (size_t) (sl - path));
}

/* Write TEXT to PATH through a temporary file in its directory, renamed
   into place.  0 or a negative errno.  */
static int
write_replacing (const char *path, const char *text)
{
  _cleanup_free_ char *tmp = xasprintf ("%s.XXXXXX", path);
  int fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    return -errno;
  int r = ash_write_all (fd, text, strlen (text));
  if (r == 0 && (fchmod (fd, 0644) < 0 || fsync (fd) < 0))
    r = -errno;
  ash_close (fd);
  if (r == 0 && rename (tmp, path) < 0)
    r = -errno;
  if (r < 0)
    unlink (tmp);
  return r;
}

/* Make DIR (and its missing parents), refusing a link on the way.  */
static int
make_dirs (const char *dir)
{
  struct stat st;
  if (lstat (dir, &st) == 0)
    return S_ISDIR (st.st_mode) ? 0 : -ENOTDIR;
  if (errno != ENOENT)
    return -errno;
  _cleanup_free_ char *parent = path_dirname (dir);
  if (!streq (parent, dir))
    {
      int r = make_dirs (parent);
      if (r < 0)
        return r;
    }
  return mkdir (dir, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* `ash config init`: the commented template, as upstream at
   SOURCE/.ash/.ash.yaml (or -c PATH), with a .gitignore for the output
   directory next to it when that directory is .ash.  */
static int
cmd_config_init (const struct ash_options *o, bool force)
{
  _cleanup_free_ char *path
    = o->config ? ash_path_absolute (o->config)
                : ash_path_join (o->source_dir, ".ash/.ash.yaml");
  _cleanup_free_ char *dir = path_dirname (path);
  const char *base = strrchr (dir, '/');
  base = base ? base + 1 : dir;
  struct stat st;
  if (!force && lstat (path, &st) == 0)
    {
      fprintf (stderr,
               _ ("ash: '%s' already exists; pass --force to replace it\n"),
               path);
      return ASH_EXIT_CONFIG;
    }
  int r = make_dirs (dir);
  if (r < 0)
    {
      fprintf (stderr, _ ("ash: cannot make the directory '%s': %s\n"), dir,
               strerror (-r));
      return ASH_EXIT_CONFIG;
    }
  /* The project is named after the directory the configuration is for.  */
  _cleanup_free_ char *pdir
    = streq (base, ".ash") ? path_dirname (dir) : xstrdup (dir);
  const char *pname = strrchr (pdir, '/');
  pname = pname && pname[1] ? pname + 1 : "my-project";
  _cleanup_json_ json_t *js = json_string (pname);
  _cleanup_free_ char *quoted
    = js ? json_dumps (js, JSON_ENCODE_ANY) : xstrdup ("my-project");
  const char *at = strstr (init_template, "my-project");
  _cleanup_free_ char *text
    = xasprintf ("%.*s%s%s", (int) (at - init_template), init_template,
                 quoted ? quoted : "my-project", at + strlen ("my-project"));
  r = write_replacing (path, text);
  if (r < 0)
    {
      fprintf (stderr, _ ("ash: cannot write '%s': %s\n"), path,
               strerror (-r));
      return ASH_EXIT_INCOMPLETE;
    }
  printf (_ ("wrote %s\n"), path);
  if (streq (base, ".ash"))
    {
      _cleanup_free_ char *gi = ash_path_join (dir, ".gitignore");
      static const char body[] = "# ash's output directory, and its "
                                 "variants\nash_output*\n";
      int fd = open (gi, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                     0644);
      if (fd >= 0)
        {
          r = ash_write_all (fd, body, sizeof body - 1);
          ash_close (fd);
          if (r < 0)
            {
              fprintf (stderr, _ ("ash: cannot write '%s': %s\n"), gi,
                       strerror (-r));
              return ASH_EXIT_INCOMPLETE;
            }
          printf (_ ("wrote %s\n"), gi);
        }
      else if (errno != EEXIST)
        {
          fprintf (stderr, _ ("ash: cannot write '%s': %s\n"), gi,
                   strerror (errno));
          return ASH_EXIT_INCOMPLETE;
        }
    }
  return ASH_EXIT_OK;
}

/* The configuration file `ash config update` edits: FILE, -c, else the
   first one discovery finds.  Newly allocated, or NULL.  */
static char *
find_config_file (const struct ash_options *o, const char *file)
{
  if (file)
    return ash_path_absolute (file);
  if (o->config)
    return ash_path_absolute (o->config);
  static const char *const where[] = { "", ".ash/" };
  for (size_t w = 0; w < ARRAY_SIZE (where); w++)
    for (size_t i = 0; ash_config_discovery_names[i]; i++)
      {
        _cleanup_free_ char *rel
          = xasprintf ("%s%s", where[w], ash_config_discovery_names[i]);
        char *p = ash_path_join (o->source_dir, rel);
        struct stat st;
        if (stat (p, &st) == 0 && S_ISREG (st.st_mode))
          return p;
        free (p);
      }
  return NULL;
}

/* `ash config update [FILE] --set KEY=VALUE... [--dry-run]`: apply the
   settings to the file's own values (not what it extends), check the
   result, print it, and write it back unless --dry-run.  */
static int
cmd_config_update (const struct ash_options *o, const char *file,
                   const struct ash_strvec *sets, bool dry_run)
{
  _cleanup_free_ char *path = find_config_file (o, file);
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_json_ json_t *tree = NULL;
  _cleanup_json_ json_t *pos = NULL;
  _cleanup_buf_ struct ash_buf raw = ASH_BUF_INIT;

  if (path == NULL)
    {
      fprintf (stderr, _ ("ash: no configuration file found; 'ash config "
                          "init' writes one\n"));
      return ASH_EXIT_CONFIG;
    }
  if (sets->nr == 0)
    {
      fprintf (stderr,
               _ ("ash: nothing to change in %s: give --set "
                  "KEY=VALUE\n"),
               path);
      return ASH_EXIT_OK;
    }
  if (ash_str_has_suffix (path, ".json"))
    {
      fprintf (stderr,
               _ ("ash: config update rewrites YAML files only, not "
                  "%s\n"),
               path);
      return ASH_EXIT_CONFIG;
    }
  FILE *f = fopen (path, "re");
  if (f)
    {
      char chunk[4096];
      size_t n;
      while ((n = fread (chunk, 1, sizeof chunk, f)) > 0)
        ash_buf_add (&raw, chunk, n);
      fclose (f);
    }
  /* The file is rewritten from its values: an !ENV tag would be replaced
     by the variable's value, which may be a secret.  */
  if (raw.len && strstr (raw.buf, "!ENV"))
    {
      fprintf (stderr,
               _ ("ash: %s uses !ENV; config update would write the "
                  "variables' values into it: edit it by hand\n"),
               path);
      return ASH_EXIT_CONFIG;
    }
  if (ash_config_parse_file (path, &tree, &pos, &err) < 0)
    return config_error (&err);
  if (json_is_null (tree))
    {
      json_decref (tree);
      tree = json_object ();
    }
  for (size_t i = 0; i < sets->nr; i++)
    if (ash_config_override_apply (tree, sets->v[i], NULL, &err) < 0)
      return config_error (&err);
  if (ash_config_schema_check (tree, path, NULL, &err) < 0)
    return config_error (&err);

  _cleanup_buf_ struct ash_buf text = ASH_BUF_INIT;
  /* The editor's schema line, as upstream keeps it.  */
  if (raw.len && raw.buf[0] == '#')
    {
      size_t l = strcspn (raw.buf, "\n");
      _cleanup_free_ char *first = xstrndup (raw.buf, l);
      if (strcasestr (first, "schema"))
        ash_buf_addf (&text, "%s\n", first);
    }
  _cleanup_free_ char *yaml = ash_config_to_yaml (tree);
  ash_buf_addstr (&text, yaml);
  fputs (text.buf, stdout);
  if (dry_run)
    {
      fprintf (stderr, _ ("ash: --dry-run: %s is unchanged\n"), path);
      return ASH_EXIT_OK;
    }
  int w = write_replacing (path, text.buf);
  if (w < 0)
    {
      fprintf (stderr, _ ("ash: cannot write '%s': %s\n"), path,
               strerror (-w));
      return ASH_EXIT_INCOMPLETE;
    }
  fprintf (stderr, _ ("ash: updated %s\n"), path);
  return ASH_EXIT_OK;
}

/* Print a warning for each key of C's configuration that upstream puts
   elsewhere, escaped: on stderr as ash's diagnostics (TO_STDERR), else on
   stdout as `config lint`'s report.  Returns how many there were.  */
static size_t
print_misplaced (const struct ash_config *c, bool to_stderr)
{
  struct ash_strvec w = ASH_STRVEC_INIT;
  size_t n;

  ash_config_misplaced (c->root, &w);
  for (size_t i = 0; i < w.nr; i++)
    {
      _cleanup_free_ char *m = ash_escape_control (w.v[i]);
      if (to_stderr)
        fprintf (stderr, _ ("ash: warning: %s\n"), m);
      else
        printf (_ ("warning: %s\n"), m);
    }
  n = w.nr;
  ash_strvec_release (&w);
  return n;
}

/* The options of each plugin scanner a builtin adapter serves
   (trivy-repo), of the plugin modules the scan would load with the same
   tier rules: 0, or the first error printed and exit 3 (a module that
   cannot be loaded is one, as in the scan).  */
static int
check_plugin_options (const struct ash_options *o, const struct ash_config *c)
{
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_ (ash_plugin_set_release) struct ash_plugin_set plugins;
  _cleanup_strvec_ struct ash_strvec warnings = ASH_STRVEC_INIT;
  struct ash_host host;

  ash_plugin_set_init (&plugins);
  ash_host_init (&host, o);
  _cleanup_free_ char *cwd = getcwd (NULL, 0);
  const char *src = o->source_dir ? o->source_dir : cwd;
  if (src == NULL)
    return ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                           _ ("cannot find the working directory: %s"),
                           strerror (errno));
  _cleanup_free_ char *source = ash_path_absolute (src);
  int r = ash_plugin_load_configured (c, o, source, host.helper_dir, &plugins,
                                      &warnings, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      return ash_cli_refuse (ASH_EXIT_CONFIG, "%s", m);
    }
  for (size_t i = 0; i < plugins.n; i++)
    {
      const struct ash_scanner *ps = &plugins.v[i]->scanner;
      if (ps->check_options == NULL)
        continue;
      _cleanup_free_ char *k = xasprintf ("scanners.%s.options", ps->name);
      if (ps->check_options (ash_config_get (c, k), &err) < 0)
        return ash_cli_refuse (ASH_EXIT_CONFIG, "%s", err.message);
    }
  return 0;
}

/* The options of each builtin scanner that checks its own, as ash scan
   checks them before it scans (a scanners.bandit.options.tool_version
   that is not a version constraint, for one, is refused), then those of
   the plugin scanners a builtin adapter serves: 0, or the first error
   printed and exit 3, so that `config validate` and `config lint` accept
   no configuration the scan refuses.  */
static int
check_scanner_options (const struct ash_options *o, const struct ash_config *c)
{
  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    {
      const struct ash_scanner *bs = ash_builtin_scanners[i];
      if (bs->check_options == NULL)
        continue;
      _cleanup_free_ char *k = xasprintf ("scanners.%s.options", bs->name);
      struct ash_error e = ASH_ERROR_INIT;
      if (bs->check_options (ash_config_get (c, k), &e) < 0)
        {
          int r = ash_cli_refuse (ASH_EXIT_CONFIG, "%s", e.message);
          ash_error_release (&e);
          return r;
        }
      ash_error_release (&e);
    }
  return check_plugin_options (o, c);
}

/* `ash config lint`: the first error (exit 3), else every warning (exit
   1 when there is any, 0 when there is none).  */
static int
cmd_config_lint (const struct ash_options *o)
{
  _cleanup_config_ struct ash_config c;
  int r = load_config (o, &c);
  if (r)
    return r;
  r = check_scanner_options (o, &c);
  if (r)
    {
      ash_config_release (&c);
      return r;
    }
  size_t n = print_misplaced (&c, false);
  if (n == 0)
    printf (_ ("no problems found\n"));
  return n ? ASH_EXIT_INCOMPLETE : ASH_EXIT_OK;
}

/* `ash config get --explain-tiers`: every file the configuration was built
   from, its tier and the reason (spec: "Who may grant").  */
static int
cmd_config_explain_tiers (const struct ash_options *o, struct ash_config *c,
                          const char *format)
{
  char *storage[3] = { NULL, NULL, NULL };
  struct ash_tier_context ctx;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  int r = ASH_EXIT_OK;

  ash_tier_context_fill (&ctx, o->source_dir, storage);
  if (ash_config_tier_judge_all (c, &ctx, &err) < 0)
    r = config_error (&err);
  else if (streq (format, "json"))
    {
      _cleanup_json_ json_t *j = ash_config_tiers_to_json (c);
      _cleanup_free_ char *t = ash_config_to_json (j);
      fputs (t, stdout);
    }
  else
    {
      _cleanup_free_ char *t = ash_config_tiers_to_text (c);
      fputs (t, stdout);
    }
  for (size_t i = 0; i < ARRAY_SIZE (storage); i++)
    free (storage[i]);
  return r;
}

static int
cmd_config_get (const struct ash_options *o, const char *key,
                const char *format, bool explain_tiers)
{
  _cleanup_config_ struct ash_config c;
  int r = load_config (o, &c);
  if (r)
    return r;
  if (explain_tiers)
    return cmd_config_explain_tiers (o, &c, format);
  json_t *v = ash_config_get (&c, key);
  if (v == NULL)
    {
      fprintf (stderr, _ ("ash: the configuration has no key '%s'\n"), key);
      return ASH_EXIT_INCOMPLETE;
    }
  _cleanup_free_ char *text
    = streq (format, "json") ? ash_config_to_json (v) : ash_config_to_yaml (v);
  fputs (text, stdout);
  return ASH_EXIT_OK;
}

static int
cmd_config_validate (const struct ash_options *o)
{
  _cleanup_config_ struct ash_config c;
  int r = load_config (o, &c);
  if (r)
    return r;
  r = check_scanner_options (o, &c);
  if (r)
    {
      ash_config_release (&c);
      return r;
    }
  print_misplaced (&c, true);
  if (c.n_files < 2)
    printf (_ ("configuration is valid: no file found, the built-in defaults "
               "apply\n"));
  else
    {
      printf (_ ("configuration is valid: %s\n"), c.files[1].name);
      for (size_t i = 2; i < c.n_files; i++)
        printf (_ ("  extends %s\n"), c.files[i].name);
    }
  return ASH_EXIT_OK;
}

/* The command word(s) at ARGV[1..]: sets *CMD and how many words were
   used.  Returns 0, or an exit code.  */
static int
parse_command (int argc, char **argv, unsigned *cmd, int *nwords)
{
  *nwords = 0;
  *cmd = CMD_SCAN;
  if (argc < 2 || argv[1][0] == '-')
    return 0;
  const char *w = argv[1];
  const char *sub = argc > 2 ? argv[2] : NULL;
  if (streq (w, "scan"))
    return *cmd = CMD_SCAN, *nwords = 1, 0;
  if (streq (w, "report"))
    return *cmd = CMD_REPORT, *nwords = 1, 0;
  if (streq (w, "completion"))
    return *cmd = CMD_COMPLETION, *nwords = 1, 0;
  if (streq (w, "build-image"))
    return *cmd = CMD_BUILD_IMAGE, *nwords = 1, 0;
  struct
  {
    const char *word;
    const char *subs[6];
    unsigned bits[6];
  } groups[] = {
    { "config",
      { "init", "get", "validate", "update", "lint", NULL },
      { CMD_CONFIG_INIT, CMD_CONFIG_GET, CMD_CONFIG_VALIDATE,
        CMD_CONFIG_UPDATE, CMD_CONFIG_LINT, 0 } },
    { "sandbox",
      { "probe", "explain", NULL },
      { CMD_SANDBOX_PROBE, CMD_SANDBOX_EXPLAIN, 0 } },
    { "dependencies", { "install", NULL }, { CMD_DEPS_INSTALL, 0 } },
    { "plugin", { "list", NULL }, { CMD_PLUGIN_LIST, 0 } },
    { "inspect", { "sarif-fields", NULL }, { CMD_INSPECT_SARIF_FIELDS, 0 } },
  };
  for (size_t g = 0; g < ARRAY_SIZE (groups); g++)
    {
      if (!streq (w, groups[g].word))
        continue;
      _cleanup_free_ char *list = join_list (groups[g].subs);
      if (sub == NULL || sub[0] == '-')
        return usage_error (_ ("'ash %s' needs a subcommand: %s"), w, list);
      for (size_t s = 0; groups[g].subs[s]; s++)
        if (streq (sub, groups[g].subs[s]))
          return *cmd = groups[g].bits[s], *nwords = 2, 0;
      return usage_error (_ ("unknown subcommand 'ash %s %s' (expected one "
                             "of: %s)"),
                          w, sub, list);
    }
  return usage_error (_ ("unknown command '%s'"), w);
}

/* Shell completions, generated from the tables above so that they cannot
   drift from the options ash accepts.  */

/* The values an option takes from a fixed list, or NULL.  */
static const char *const *
option_values (int id)
{
  switch (id)
    {
    case OPT_MODE:
      return run_modes;
    case OPT_SANDBOX:
      return ash_sandbox_modes;
    case OPT_STRATEGY:
      return strategies;
    case OPT_LOG_LEVEL:
      return log_levels;
    case OPT_FORMAT:
      return config_formats;
    case OPT_OUTPUT_FORMAT:
    case OPT_REPORT_FORMAT:
      return REPORTER_CHOICES;
    default:
      return NULL;
    }
}

/* What completes an option's argument: "d" a directory, "f" a file, "w"
   one of option_values(), "" nothing (free text).  */
static const char *
option_arg_kind (const struct optdef *d)
{
  if (option_values (d->id))
    return "w";
  if (d->arg && streq (d->arg, "DIR"))
    return "d";
  if (d->arg && streq (d->arg, "FILE"))
    return "f";
  return "";
}

/* The command's words as the shells see them: "config init" -> "config",
   "init"; the key under which its options are listed.  */
static void
completion_key (const struct command *c, struct ash_buf *key)
{
  ash_buf_reset (key);
  for (const char *p = c->name; *p; p++)
    ash_buf_addch (key, *p == ' ' ? '_' : *p);
}

static void
put_words (FILE *out, const char *const *v)
{
  for (size_t i = 0; v[i]; i++)
    fprintf (out, "%s%s", i ? " " : "", v[i]);
}

/* The options of CMD, "--name" and "-x", separated by spaces.  */
static void
put_options (FILE *out, unsigned cmd)
{
  bool first = true;
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    {
      const struct optdef *d = &optdefs[i];
      if (!(d->cmds & cmd))
        continue;
      fprintf (out, "%s--%s", first ? "" : " ", d->name);
      if (d->short_opt)
        fprintf (out, " -%c", d->short_opt);
      first = false;
    }
}

/* The top-level words and the subcommands of each group.  */
static void
put_command_words (FILE *out, const char *group)
{
  struct ash_strvec seen = ASH_STRVEC_INIT;
  size_t glen = group ? strlen (group) : 0;
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    {
      const char *n = commands[i].name;
      const char *sp = strchr (n, ' ');
      _cleanup_free_ char *w = NULL;
      if (group == NULL)
        w = sp ? xstrndup (n, (size_t) (sp - n)) : xstrdup (n);
      else if (sp && (size_t) (sp - n) == glen
               && strncmp (n, group, glen) == 0)
        w = xstrdup (sp + 1);
      if (w == NULL || ash_strvec_contains (&seen, w))
        continue;
      fprintf (out, "%s%s", seen.nr ? " " : "", w);
      ash_strvec_push (&seen, w);
    }
  if (group == NULL)
    fprintf (out, " help");
  ash_strvec_release (&seen);
}

/* "--name|-x" of D.  */
static void
put_option_pattern (FILE *out, const struct optdef *d)
{
  fprintf (out, "--%s", d->name);
  if (d->short_opt)
    fprintf (out, "|-%c", d->short_opt);
}

/* The options that take an argument, as one case pattern of the loop
   that finds the command (bash and zsh): their values are skipped.  */
static void
put_arg_options_pattern (FILE *out)
{
  bool first = true;
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    if (optdefs[i].has_arg == required_argument)
      {
        fputs (first ? "      " : "|", out);
        put_option_pattern (out, &optdefs[i]);
        first = false;
      }
}

/* What a shell does to complete an option's value.  */
struct value_actions
{
  const char *words_before, *words_after; /* around option_values() */
  const char *dir, *file;
};

/* One case per option that takes an argument, completing its value.  */
static void
put_value_cases (FILE *out, const struct value_actions *a)
{
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    {
      const struct optdef *d = &optdefs[i];
      if (d->has_arg != required_argument)
        continue;
      const char *k = option_arg_kind (d);
      fputs ("    ", out);
      put_option_pattern (out, d);
      if (streq (k, "w"))
        {
          fputs (a->words_before, out);
          put_words (out, option_values (d->id));
          fputs (a->words_after, out);
        }
      else if (streq (k, "d"))
        fputs (a->dir, out);
      else if (streq (k, "f"))
        fputs (a->file, out);
      else
        fputs (") return ;;\n", out);
    }
}

static void
completion_bash (FILE *out)
{
  struct ash_buf key = ASH_BUF_INIT;

  fputs ("# bash completion for ash(1); generated by 'ash completion bash'"
         "\n# from the command line's own tables.\n\n",
         out);
  fputs ("_ash ()\n{\n"
         "  local cur prev cmd= i w skip=\n"
         "  cur=${COMP_WORDS[COMP_CWORD]}\n"
         "  prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  COMPREPLY=()\n",
         out);
  /* The command: the first one or two words that are not options or
     option values.  */
  fputs ("  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    w=${COMP_WORDS[i]}\n"
         "    if [ -n \"$skip\" ]; then skip=; continue; fi\n"
         "    case $w in\n",
         out);
  put_arg_options_pattern (out);
  fputs (
    ") skip=1 ;;\n"
    "      -*) ;;\n"
    "      *) case $cmd in\n"
    "           '') cmd=$w ;;\n"
    "           config|sandbox|dependencies|plugin|inspect) cmd=${cmd}_$w ;;\n"
    "           *) ;;\n"
    "         esac ;;\n"
    "    esac\n"
    "  done\n",
    out);
  /* Option values.  */
  fputs ("  case $prev in\n", out);
  static const struct value_actions bash_actions = {
    .words_before = ") COMPREPLY=($(compgen -W \"",
    .words_after = "\" -- \"$cur\")); return ;;\n",
    .dir = ") COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n",
    .file = ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
  };
  put_value_cases (out, &bash_actions);
  fputs ("  esac\n", out);
  /* Command words.  */
  fputs ("  case $cmd in\n    '')\n"
         "      if [[ $cur != -* ]]; then\n"
         "        COMPREPLY=($(compgen -W \"",
         out);
  put_command_words (out, NULL);
  fputs ("\" -- \"$cur\")); return\n      fi ;;\n", out);
  static const char *const groups[]
    = { "config", "sandbox", "dependencies", "plugin", "inspect" };
  for (size_t g = 0; g < ARRAY_SIZE (groups); g++)
    {
      fprintf (out, "    %s)\n      COMPREPLY=($(compgen -W \"", groups[g]);
      put_command_words (out, groups[g]);
      fputs ("\" -- \"$cur\")); return ;;\n", out);
    }
  fputs ("    completion)\n      COMPREPLY=($(compgen -W \"", out);
  put_words (out, completion_shells);
  fputs ("\" -- \"$cur\")); return ;;\n  esac\n", out);
  /* Options of the command.  */
  fputs ("  case $cmd in\n", out);
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    {
      completion_key (&commands[i], &key);
      fprintf (out, "    %s%s) COMPREPLY=($(compgen -W \"",
               commands[i].bit == CMD_SCAN ? "''|" : "", key.buf);
      put_options (out, commands[i].bit);
      fputs ("\" -- \"$cur\")) ;;\n", out);
    }
  fputs ("  esac\n}\ncomplete -F _ash ash\n", out);
  ash_buf_release (&key);
}

static void
completion_zsh (FILE *out)
{
  struct ash_buf key = ASH_BUF_INIT;

  fputs ("#compdef ash\n# zsh completion for ash(1); generated by 'ash "
         "completion zsh'\n# from the command line's own tables.\n\n",
         out);
  fputs ("_ash () {\n"
         "  local cmd= i w skip= cur=${words[CURRENT]} "
         "prev=${words[CURRENT-1]}\n"
         "  for (( i = 2; i < CURRENT; i++ )); do\n"
         "    w=${words[i]}\n"
         "    if [[ -n $skip ]]; then skip=; continue; fi\n"
         "    case $w in\n",
         out);
  put_arg_options_pattern (out);
  fputs (
    ") skip=1 ;;\n"
    "      -*) ;;\n"
    "      *) case $cmd in\n"
    "           '') cmd=$w ;;\n"
    "           config|sandbox|dependencies|plugin|inspect) cmd=${cmd}_$w ;;\n"
    "         esac ;;\n"
    "    esac\n"
    "  done\n"
    "  case $prev in\n",
    out);
  static const struct value_actions zsh_actions = {
    .words_before = ") compadd -- ",
    .words_after = "; return ;;\n",
    .dir = ") _files -/; return ;;\n",
    .file = ") _files; return ;;\n",
  };
  put_value_cases (out, &zsh_actions);
  fputs ("  esac\n  case $cmd in\n    '')\n"
         "      if [[ $cur != -* ]]; then compadd -- ",
         out);
  put_command_words (out, NULL);
  fputs ("; return; fi ;;\n", out);
  static const char *const groups[]
    = { "config", "sandbox", "dependencies", "plugin", "inspect" };
  for (size_t g = 0; g < ARRAY_SIZE (groups); g++)
    {
      fprintf (out, "    %s) compadd -- ", groups[g]);
      put_command_words (out, groups[g]);
      fputs ("; return ;;\n", out);
    }
  fputs ("    completion) compadd -- ", out);
  put_words (out, completion_shells);
  fputs ("; return ;;\n  esac\n  case $cmd in\n", out);
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    {
      completion_key (&commands[i], &key);
      fprintf (out, "    %s%s) compadd -- ",
               commands[i].bit == CMD_SCAN ? "''|" : "", key.buf);
      put_options (out, commands[i].bit);
      fputs (" ;;\n", out);
    }
  fputs ("  esac\n}\n_ash \"$@\"\n", out);
  ash_buf_release (&key);
}

/* A fish string: single quotes, with \ and ' escaped.  */
static void
put_fish_string (FILE *out, const char *s)
{
  fputc ('\'', out);
  for (; *s; s++)
    {
      if (*s == '\\' || *s == '\'')
        fputc ('\\', out);
      fputc (*s, out);
    }
  fputc ('\'', out);
}

static void
completion_fish (FILE *out)
{
  fputs ("# fish completion for ash(1); generated by 'ash completion fish'\n"
         "# from the command line's own tables.\n\n"
         "complete -c ash -f\n",
         out);
  /* Top-level commands: offered before any command word.  */
  fputs ("set -l __ash_cmds ", out);
  put_command_words (out, NULL);
  fputs ("\n", out);
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    {
      const char *n = commands[i].name;
      const char *sp = strchr (n, ' ');
      if (sp)
        {
          _cleanup_free_ char *g = xstrndup (n, (size_t) (sp - n));
          fprintf (out,
                   "complete -c ash -n '__fish_seen_subcommand_from %s; "
                   "and not __fish_seen_subcommand_from ",
                   g);
          put_command_words (out, g);
          fprintf (out, "' -a %s -d ", sp + 1);
        }
      else
        fprintf (out,
                 "complete -c ash -n 'not __fish_seen_subcommand_from "
                 "$__ash_cmds' -a %s -d ",
                 n);
      put_fish_string (out, _ (commands[i].summary));
      fputc ('\n', out);
    }
  for (size_t i = 0; i < ARRAY_SIZE (commands); i++)
    if (strchr (commands[i].name, ' ')
        && strncmp (commands[i].name, commands[i - 1].name,
                    strcspn (commands[i].name, " ") + 1)
             != 0)
      {
        _cleanup_free_ char *g
          = xstrndup (commands[i].name, strcspn (commands[i].name, " "));
        fprintf (out,
                 "complete -c ash -n 'not __fish_seen_subcommand_from "
                 "$__ash_cmds' -a %s\n",
                 g);
      }
  fputs ("complete -c ash -n '__fish_seen_subcommand_from completion' -a '",
         out);
  put_words (out, completion_shells);
  fputs ("'\n", out);
  /* Options: each where one of its commands was named (scan also when no
     command was).  */
  for (size_t i = 0; i < ARRAY_SIZE (optdefs); i++)
    {
      const struct optdef *d = &optdefs[i];
      struct ash_buf cond = ASH_BUF_INIT;
      for (size_t c = 0; c < ARRAY_SIZE (commands); c++)
        {
          if (!(d->cmds & commands[c].bit))
            continue;
          const char *n = commands[c].name;
          const char *sp = strchr (n, ' ');
          if (commands[c].bit == CMD_SCAN)
            ash_buf_addf (&cond,
                          "%snot __fish_seen_subcommand_from "
                          "$__ash_cmds; or __fish_seen_subcommand_from scan",
                          cond.len ? "; or " : "");
          else
            ash_buf_addf (&cond, "%s__fish_seen_subcommand_from %s",
                          cond.len ? "; or " : "", sp ? sp + 1 : n);
        }
      if (cond.len == 0)
        {
          ash_buf_release (&cond);
          continue;
        }
      fprintf (out, "complete -c ash -n '%s' -l %s", cond.buf, d->name);
      if (d->short_opt)
        fprintf (out, " -s %c", d->short_opt);
      const char *k
        = d->has_arg == required_argument ? option_arg_kind (d) : NULL;
      if (k && streq (k, "w"))
        {
          fputs (" -x -a '", out);
          put_words (out, option_values (d->id));
          fputs ("'", out);
        }
      else if (k && (streq (k, "d") || streq (k, "f")))
        fputs (" -r -F", out);
      else if (k)
        fputs (" -x", out);
      fputs (" -d ", out);
      put_fish_string (out, _ (d->help));
      fputc ('\n', out);
      ash_buf_release (&cond);
    }
}

static int
cmd_completion (const char *shell, FILE *out)
{
  if (streq (shell, "bash"))
    completion_bash (out);
  else if (streq (shell, "zsh"))
    completion_zsh (out);
  else
    completion_fish (out);
  return fflush (out) == 0 && !ferror (out) ? ASH_EXIT_OK
                                            : ASH_EXIT_INCOMPLETE;
}

static int
cmd_help (int argc, char **argv)
{
  if (argc < 3)
    {
      print_help (stdout);
      return ASH_EXIT_OK;
    }
  /* "ash help config get": the command words follow.  */
  char *words[4] = { argv[0], NULL, NULL, NULL };
  int n = 1;
  for (int i = 2; i < argc && n < 3; i++)
    words[n++] = argv[i];
  unsigned cmd;
  int used;
  int r = parse_command (n, words, &cmd, &used);
  if (r)
    return r;
  if (used == 0)
    return usage_error (_ ("unknown command '%s'"), argv[2]);
  if (argc - 2 > used)
    return usage_error (_ ("unexpected argument '%s'"), argv[2 + used]);
  print_command_help (stdout, cmd);
  return ASH_EXIT_OK;
}

/* Container mode.  */

/* The options of the scan inside the container: each assignment of every
   source, in order (so the last still wins), but those container mode
   decides itself (the directories, the config, the mode, --sandbox) and
   its own.  A list only from the last source that names it, as it
   replaces the earlier ones.  */
static bool
forwarded (int id)
{
  switch (id)
    {
    case OPT_SOURCE_DIR:
    case OPT_OUTPUT_DIR:
    case OPT_CONFIG:
    case OPT_MODE:
    case OPT_SANDBOX:
    case OPT_CLI_JSON_INPUT:
    case OPT_PLUGIN_MODULES:
    case OPT_FORMAT:
    case OPT_HELP:
    case OPT_VERSION:
      return false;
    default:
      return !is_container_option (id) && (optdef_by_id (id)->cmds & CMD_SCAN);
    }
}

static void
container_scan_args (struct ash_options *o, const struct assigns *const *srcs,
                     size_t n_srcs, struct ash_strvec *ret)
{
  for (size_t s = 0; s < n_srcs; s++)
    for (size_t i = 0; i < srcs[s]->n; i++)
      {
        const struct assign *a = &srcs[s]->v[i];
        const struct optdef *d = optdef_by_id (a->id);
        if (!forwarded (a->id))
          continue;
        struct ash_strvec *l = list_field (o, a->id);
        bool later = false;
        for (size_t t = s + 1; l && t < n_srcs; t++)
          for (size_t j = 0; j < srcs[t]->n; j++)
            later |= list_field (o, srcs[t]->v[j].id) == l;
        if (later)
          continue;
        if (d->has_arg == required_argument)
          ash_strvec_pushf (ret, "--%s=%s", d->name, a->arg);
        else if (d->json == J_COUNT && a->arg)
          for (long k = strtol (a->arg, NULL, 10); k > 0; k--)
            ash_strvec_pushf (ret, "--%s", d->name);
        else if (a->arg == NULL || streq (a->arg, "1"))
          ash_strvec_pushf (ret, "--%s", d->name);
        else if (d->neg)
          ash_strvec_pushf (ret, "--%s", optdef_by_id (d->neg)->name);
        else if (a->id == OPT_OFFLINE)
          ash_strvec_push (ret, "--no-offline");
        else if (a->id == OPT_QUIET)
          ash_strvec_push (ret, "--no-quiet");
      }
}

/* Container mode's own options, from every source in order.  Returns 0
   or an exit code.  */
static int
container_options (const struct assigns *const *srcs, size_t n_srcs,
                   struct ash_container_cli *c)
{
  static const char *const targets[] = { "non-root", "ci", NULL };
  for (size_t s = 0; s < n_srcs; s++)
    for (size_t i = 0; i < srcs[s]->n; i++)
      {
        const struct assign *a = &srcs[s]->v[i];
        bool on = a->arg == NULL || streq (a->arg, "1");
        switch (a->id)
          {
          case OPT_BUILD:
            c->build = on;
            break;
          case OPT_NO_BUILD:
            c->build = false;
            break;
          case OPT_RUN:
            c->run = on;
            break;
          case OPT_NO_RUN:
            c->run = false;
            break;
          case OPT_FORCE:
            c->force = true;
            break;
          case OPT_OCI_RUNNER:
          case OPT_OCI:
          case OPT_RUNNER:
            c->runtime = a->arg;
            break;
          case OPT_BUILD_TARGET:
            if (!in_list (a->arg, targets))
              return bad_value (a->where, a->arg, targets);
            c->build_target = a->arg;
            break;
          case OPT_CONTAINER_UID:
          case OPT_CONTAINER_GID:
            {
              size_t n = strspn (a->arg, "0123456789");
              if (n == 0 || n > 9 || a->arg[n])
                return usage_error (_ ("invalid value '%s' for %s (expected "
                                       "a numeric id)"),
                                    a->arg, a->where);
              if (a->id == OPT_CONTAINER_UID)
                c->uid = a->arg;
              else
                c->gid = a->arg;
            }
            break;
          case OPT_ASH_REVISION_TO_INSTALL:
            if (strcasecmp (a->arg, "LOCAL") != 0)
              return ash_cli_refuse (ASH_EXIT_CONFIG,
                                     _ ("%s %s is not available: this ash "
                                        "builds its image only from its own "
                                        "source tree (LOCAL, ASH_ROOT_DIR); "
                                        "nothing was built or scanned"),
                                     a->where, a->arg);
            break;
          case OPT_CUSTOM_CONTAINERFILE:
            c->custom_containerfile = a->arg;
            break;
          case OPT_CUSTOM_BUILD_ARG:
            {
              size_t n = strspn (a->arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "abcdefghijklmnopqrstuvwxyz"
                                         "0123456789_");
              if (n == 0 || a->arg[n] != '='
                  || isdigit ((unsigned char) a->arg[0]))
                return usage_error (_ ("invalid value '%s' for %s (expected "
                                       "NAME=VALUE)"),
                                    a->arg, a->where);
              ash_strvec_push (&c->build_args, a->arg);
            }
            break;
          default:
            break;
          }
      }
  return 0;
}

static int
container_command (unsigned cmd, struct ash_options *o,
                   const struct assigns *const *srcs, size_t n_srcs)
{
  struct ash_container_cli c = {
    .build_image = cmd == CMD_BUILD_IMAGE,
    .build = true,
    .run = cmd != CMD_BUILD_IMAGE,
    .build_target = "non-root",
    .build_args = ASH_STRVEC_INIT,
    .scan_args = ASH_STRVEC_INIT,
  };
  int r = container_options (srcs, n_srcs, &c);
  if (r == 0 && cmd == CMD_SCAN)
    container_scan_args (o, srcs, n_srcs, &c.scan_args);
  if (r == 0)
    r = ash_container_command (o, &c);
  ash_strvec_release (&c.build_args);
  ash_strvec_release (&c.scan_args);
  return r;
}

/* ash_main() without its locale set-up and the final flush.  */
static int
run_command (int argc, char **argv, const struct ash_backend *const *backends)
{
  _cleanup_options_ struct ash_options o;
  _cleanup_ (assigns_release) struct assigns env_a = { 0 };
  _cleanup_ (assigns_release) struct assigns json_a = { 0 };
  _cleanup_ (assigns_release) struct assigns flag_a = { 0 };
  _cleanup_strvec_ struct ash_strvec pos = ASH_STRVEC_INIT;
  unsigned cmd;
  int nwords;
  int r;

  ash_options_init (&o);
  if (argc >= 2 && streq (argv[1], "help"))
    return cmd_help (argc, argv);
  r = parse_command (argc, argv, &cmd, &nwords);
  if (r)
    return r;

  /* getopt sees the command words as its program name.  */
  char **sub_argv = argv + nwords;
  int sub_argc = argc - nwords;
  char *saved0 = sub_argv[0];
  if (nwords == 0)
    sub_argv[0] = (char *) "ash";
  r = parse_argv (sub_argc, sub_argv, cmd, &flag_a, &pos);
  sub_argv[0] = saved0;
  if (r == -1)
    return ASH_EXIT_OK;
  if (r)
    return r;

  /* Positional arguments.  */
  if (cmd == CMD_COMPLETION)
    {
      if (pos.nr != 1)
        r = pos.nr ? usage_error (_ ("unexpected argument '%s'"), pos.v[1])
                   : usage_error (_ ("'ash completion' needs a shell: %s"),
                                  "bash, zsh, fish");
      else if (!in_list (pos.v[0], completion_shells))
        r = bad_value ("ash completion", pos.v[0], completion_shells);
      else
        r = cmd_completion (pos.v[0], stdout);
      return r;
    }

  size_t want_pos = cmd == CMD_SANDBOX_EXPLAIN ? 1 : 0;
  size_t max_pos
    = cmd == CMD_CONFIG_GET || cmd == CMD_CONFIG_UPDATE ? 1 : want_pos;
  if (pos.nr > max_pos)
    return usage_error (_ ("unexpected argument '%s'"), pos.v[max_pos]);
  if (pos.nr < want_pos)
    return usage_error (_ ("'ash %s' needs the name of a scanner"),
                        command_by_bit (cmd)->name);

  r = collect_env (cmd, &env_a, &o);
  if (r)
    return r;
  r = apply_source (&o, &env_a);
  if (r)
    return r;
  /* --cli-json-input is looked for among the flags first.  */
  for (size_t i = 0; i < flag_a.n; i++)
    if (flag_a.v[i].id == OPT_CLI_JSON_INPUT)
      set_str (&o.cli_json_input, flag_a.v[i].arg);
  if (o.cli_json_input)
    {
      r = collect_json (cmd, o.cli_json_input, &json_a);
      if (r)
        return r;
      r = apply_source (&o, &json_a);
      if (r)
        return r;
    }
  r = apply_source (&o, &flag_a);
  if (r)
    return r;
  if (cmd == CMD_SCAN)
    {
      const struct assigns *srcs[] = { &json_a, &flag_a };
      r = check_scan_options (&o, srcs, ARRAY_SIZE (srcs));
      if (r)
        return r;
    }

  if (cmd == CMD_CONFIG_GET)
    {
      const char *f = format_of (&flag_a);
      if (!in_list (f, config_formats))
        return bad_value ("--format", f, config_formats);
    }

  /* The spec ("Modes"): --sandbox with any mode but off is refused in
     container mode, before anything else happens.  */
  if (o.mode == ASH_RUN_CONTAINER && o.sandbox && !streq (o.sandbox, "off"))
    return usage_error (_ (
                          "--sandbox %s cannot be used with --mode container: "
                          "container mode does not sandbox the scanners "
                          "inside the image, the container is the boundary"),
                        o.sandbox);

  r = finish_options (&o);
  if (r)
    return r;
  setup_log (&o);
  /* --color colours the terminal summary: on a terminal only, never with
     --no-color, and by default not when NO_COLOR is set (an explicit
     --color overrides it, as no-color.org allows).  */
  {
    const char *nc = getenv ("NO_COLOR");
    ash_report_summary_color (o.color != 0 && isatty (STDOUT_FILENO)
                              && (o.color > 0 || !(nc && *nc)));
  }
  ash_backend_probe_cache_disable (o.no_probe_cache);
  ash_tool_cache_disable (o.no_probe_cache);

  /* Container mode hands the scan to the container runner; it never
     turns into a scan on the host.  */
  if ((cmd == CMD_SCAN && o.mode == ASH_RUN_CONTAINER)
      || cmd == CMD_BUILD_IMAGE)
    {
      const struct assigns *srcs[] = { &env_a, &json_a, &flag_a };
      return container_command (cmd, &o, srcs, ARRAY_SIZE (srcs));
    }

  switch (cmd)
    {
    case CMD_SCAN:
    case CMD_SANDBOX_EXPLAIN:
      {
        _cleanup_config_ struct ash_config c;
        ash_config_init (&c);
        r = load_config (&o, &c);
        if (r)
          return r;
        if (cmd == CMD_SCAN)
          return ash_scan (&o, &c, backends);
        return ash_sandbox_explain_command (&o, &c, pos.v[0], backends);
      }
    case CMD_SANDBOX_PROBE:
      return ash_sandbox_probe_command (&o, backends);
    case CMD_CONFIG_INIT:
      return cmd_config_init (&o, has_opt (&flag_a, OPT_FORCE));
    case CMD_CONFIG_GET:
      return cmd_config_get (&o, pos.nr ? pos.v[0] : NULL, format_of (&flag_a),
                             has_opt (&flag_a, OPT_EXPLAIN_TIERS));
    case CMD_CONFIG_VALIDATE:
      return cmd_config_validate (&o);
    case CMD_CONFIG_UPDATE:
      {
        _cleanup_strvec_ struct ash_strvec sets = ASH_STRVEC_INIT;
        for (size_t i = 0; i < flag_a.n; i++)
          if (flag_a.v[i].id == OPT_SET || flag_a.v[i].id == OPT_MODIFICATIONS)
            ash_strvec_push (&sets, flag_a.v[i].arg);
        return cmd_config_update (&o, pos.nr ? pos.v[0] : NULL, &sets,
                                  has_opt (&flag_a, OPT_DRY_RUN));
      }
    case CMD_CONFIG_LINT:
      return cmd_config_lint (&o);
    case CMD_DEPS_INSTALL:
      return ash_dependencies_install_command (&o,
                                               has_opt (&flag_a, OPT_DRY_RUN));
    case CMD_INSPECT_SARIF_FIELDS:
      return ash_inspect_sarif_fields_command (&o);
    case CMD_PLUGIN_LIST:
      {
        _cleanup_config_ struct ash_config c;
        r = load_config (&o, &c);
        if (r)
          return r;
        return ash_plugin_list_command (&o, &c);
      }
    case CMD_REPORT:
      {
        const char *rf = "markdown";
        for (size_t i = 0; i < flag_a.n; i++)
          if (flag_a.v[i].id == OPT_REPORT_FORMAT)
            rf = flag_a.v[i].arg;
        if (!ash_reporter_known (rf) && !ash_reporter_unavailable (rf))
          {
            _cleanup_free_ char *names = ash_reporter_names_joined ();
            return usage_error (_ ("unknown reporter '%s' for --report-format "
                                   "(expected one of: %s)"),
                                rf, names);
          }
        _cleanup_config_ struct ash_config c;
        r = load_config (&o, &c);
        if (r)
          return r;
        return ash_report_command (&o, &c, rf);
      }
    default:
      return ASH_EXIT_USAGE;
    }
}

int
ash_main (int argc, char **argv, const struct ash_backend *const *backends)
{
  setlocale (LC_ALL, "");
  /* Numbers in what ash writes for machines (JUnit's time, reports,
     results) never take the locale's decimal comma.  */
  setlocale (LC_NUMERIC, "C");
  bindtextdomain (PACKAGE, LOCALEDIR);
  textdomain (PACKAGE);
  int r = run_command (argc, argv, backends);
  fflush (stdout);
  return r;
}
