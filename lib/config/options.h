/* SPDX-License-Identifier: Apache-2.0 */
/* options.h -- the parsed options of `ash scan` (and the commands that
   accept some of them: config, sandbox explain).

   cli.c fills this from, in increasing precedence: the environment
   variables, a --cli-json-input document, and the command line.  A field
   left at its "unset" value (NULL, -1, or an empty vector with its _set flag
   false) lets the configuration file decide.  */

#ifndef ASH_OPTIONS_H
#define ASH_OPTIONS_H

#include <stdbool.h>

#include "base/strvec.h"

enum ash_run_mode
{
  ASH_RUN_LOCAL = 0,
  ASH_RUN_CONTAINER,
  ASH_RUN_PRECOMMIT,
};

enum ash_strategy
{
  ASH_STRATEGY_PARALLEL = 0,
  ASH_STRATEGY_SEQUENTIAL,
};

struct ash_options
{
  char *source_dir; /* absolute; default: the working directory */
  char *output_dir; /* absolute; default SOURCE/.ash/ash_output */
  char *config;     /* --config / -c, or NULL */
  char *env_config; /* ASH_CONFIG, or NULL */
  struct ash_strvec config_overrides; /* in order */
  struct ash_strvec scanners;         /* --scanners (narrows), empty: all */
  struct ash_strvec exclude_scanners;
  bool offline;
  enum ash_run_mode mode;
  char *sandbox; /* --sandbox MODE, or NULL when not given */
  bool allow_in_tree_tools;
  bool no_probe_cache;              /* --no-probe-cache, ASH_NO_PROBE_CACHE */
  struct ash_strvec plugin_modules; /* --ash-plugin-modules / env */
  int fail_on_findings;             /* -1 unset, 0, 1 */
  struct ash_strvec output_formats;
  enum ash_strategy strategy;
  int max_workers; /* 0: number of CPUs */
  int progress;    /* -1 unset (auto), 0, 1 */
  bool quiet;
  char *log_level; /* NULL: INFO */
  int verbose;
  bool debug;
  int color; /* -1 auto, 0, 1 */
  char *cli_json_input;
  char *bin_path;   /* ASH_BIN_PATH or its default */
  bool progress_ci; /* CI was set in the environment */
  /* Upstream's further scan options.  */
  char *min_severity;       /* --min-severity: replaces
                               global_settings.severity_threshold */
  bool ignore_suppressions; /* no suppression applies */
  bool simple;              /* --simple, --log-level SIMPLE */
  int show_summary;         /* -1 unset (shown), 0, 1 */
  bool use_existing;        /* re-render OUTPUT's aggregated results */
  bool cleanup;             /* remove OUTPUT/converted after the scan */
  bool skip_convert;        /* --phases without convert */
  bool skip_reports;        /* --phases without report */
  bool python_only;         /* only upstream's Python-based scanners */
  bool changed_files_only;  /* findings only in files changed from
                               base_ref */
  char *base_ref;           /* --base-ref, or NULL: origin's HEAD, then
                               main */
  struct ash_strvec semgrep_rulesets; /* --offline-semgrep-rulesets */
  struct ash_strvec phases;           /* --phases as given; empty: all */
  bool inspect;                       /* --inspect (refused) */
};

void ash_options_init (struct ash_options *o);
void ash_options_release (struct ash_options *o);
#define _cleanup_options_ _cleanup_ (ash_options_release)

#endif
