/* SPDX-License-Identifier: Apache-2.0 */
/* opengrep.c -- the opengrep adapter.

   opengrep is a fork of semgrep that keeps its command line, options and
   SARIF, shipped as a single binary: ash runs it as it runs semgrep
   (semgrep.c), with opengrep's own rules cache, $OPENGREP_RULES_CACHE_DIR,
   offline, and without semgrep's version check, which opengrep does not
   have.  */

#include <config.h>

#include "base/util.h"
#include "scanners/grep-common.h"
#include "scanners/scanner.h"

#define OPENGREP_SARIF "opengrep.sarif"

static int
opengrep_check_options (const json_t *options, struct ash_error *err)
{
  return ash_grep_check_options ("opengrep", options, err);
}

static int
opengrep_build (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job, struct ash_cmd *cmd,
                struct ash_error *err)
{
  return ash_grep_build (true, job, OPENGREP_SARIF, cmd, err);
}

static int
opengrep_parse (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job,
                const struct ash_cmd_result *res, json_t **ret_doc,
                struct ash_error *err)
{
  _cleanup_free_ char *version = ash_grep_version (job);
  return ash_grep_parse (true, job, res, OPENGREP_SARIF, version, ret_doc,
                         err);
}

const struct ash_scanner ash_scanner_opengrep = {
  .name = "opengrep",
  .tool = "opengrep",
  .checks_tool_version = true,
  .install_hint = "curl -fsSL https://raw.githubusercontent.com/opengrep/"
                  "opengrep/main/install.sh | bash",
  .description = "static analysis with Semgrep-compatible rules",
  .build = opengrep_build,
  .parse = opengrep_parse,
  .check_options = opengrep_check_options,
};
