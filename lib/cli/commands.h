/* SPDX-License-Identifier: Apache-2.0 */
/* commands.h -- the commands cli.c dispatches to after parsing options and
   resolving the configuration.  Each returns the process exit code.  */

#ifndef ASH_COMMANDS_H
#define ASH_COMMANDS_H

#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/options.h"
#include "sandbox/backend.h"

/* `ash scan` (lib/cli/scan-command.c, over lib/scan/orchestrator.c).
   CONFIG is resolved and valid.  */
int ash_scan (const struct ash_options *opts, const struct ash_config *config,
              const struct ash_backend *const *backends);

/* `ash sandbox probe` (lib/cli/sandbox-probe.c): each backend, usable or the
   exact reason.  */
int ash_sandbox_probe_command (const struct ash_options *opts,
                               const struct ash_backend *const *backends);

/* `ash sandbox explain SCANNER` (lib/cli/sandbox-explain.c): the computed
   policy as JSON on stdout.  */
int ash_sandbox_explain_command (const struct ash_options *opts,
                                 const struct ash_config *config,
                                 const char *scanner,
                                 const struct ash_backend *const *backends);

/* `ash dependencies install` (lib/cli/deps-install.c): install the tools
   of the scanners OPTS->scanners names (all when empty) into
   OPTS->bin_path; with DRY_RUN, print the commands only.  */
int ash_dependencies_install_command (const struct ash_options *opts,
                                      bool dry_run);

/* The output directory of an earlier scan, placed as ash scan places it
   (--output-dir, --source-dir), opened for reading: 0 with *RET_PATH
   (newly allocated) and *RET_FD, or the exit code after saying why (3:
   a refused directory; 1: none there) (lib/cli/report-command.c).  */
int ash_cli_open_results (const struct ash_options *opts, char **ret_path,
                          int *ret_fd);

/* `ash report` (lib/cli/report-command.c): the report FORMAT (a reporter
   name) rendered again from the output directory's
   ash_aggregated_results.json with CONFIG's reporter options, on
   stdout.  */
int ash_report_command (const struct ash_options *opts,
                        const struct ash_config *config, const char *format);

/* `ash plugin list` (lib/cli/plugin-command.c): the scanners, converters
   and reporters, each with whether CONFIG enables it and where it comes
   from.  */
int ash_plugin_list_command (const struct ash_options *opts,
                             const struct ash_config *config);

/* `ash inspect sarif-fields` (lib/cli/inspect-command.c): the SARIF
   result fields each scanner of the output directory's last scan wrote
   and whether the aggregated report has them, into OUTPUT/inspect and as
   a summary on stdout.  */
int ash_inspect_sarif_fields_command (const struct ash_options *opts);

/* Print "ash: MESSAGE" on stderr, with the control characters of the
   formatted message shown as text, and return CODE: the way the commands
   refuse (lib/cli/cli.c).  */
int ash_cli_refuse (int code, const char *fmt, ...) _printf_ (2, 3);

/* Container mode's options, as the command line collected them.  */
struct ash_container_cli
{
  bool build_image;         /* `ash build-image`: build, never run */
  bool build, run, force;   /* --[no-]build, --[no-]run, --force */
  const char *runtime;      /* --oci-runner, or NULL (then OCI_RUNNER) */
  const char *build_target; /* "non-root" or "ci" */
  const char *uid, *gid;    /* --container-uid/-gid, or NULL: ASH's */
  const char *custom_containerfile;
  struct ash_strvec build_args; /* --custom-build-arg */
  struct ash_strvec scan_args;  /* the options the scan inside gets */
};

/* `ash scan --mode container` and `ash build-image`
   (lib/cli/container-command.c, over lib/scan/container.c).  Never
   scans on the host: exit 3 with the reason when container mode cannot
   work here, else the scan's exit code from inside the container.  */
int ash_container_command (struct ash_options *opts,
                           const struct ash_container_cli *cc);

#endif
