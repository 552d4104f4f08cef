/* SPDX-License-Identifier: Apache-2.0 */
/* plugins.h -- plugin module files: declarative scanners (DESIGN section
   4).  No plugin code runs inside ASH: a module names a tool, its
   arguments and where it writes SARIF.

   scanners:
     my-scanner:
       tool: my-tool                  # found like every scanner tool
       args: ["--sarif", "{results_dir}/out.sarif", "{target}"]
       output: { format: sarif, path: "{results_dir}/out.sarif" }
       sandbox_requirements: { network: false, env_prefixes: [MYTOOL_] }
       install_hint: "pipx install my-tool"    # optional
       description: "..."                      # optional
       adapter: trivy-repo   # optional: a builtin adapter builds the
                             # command and reads the output (args and
                             # output are then not used)

   Placeholders in args and output.path: {target} (absolute path of the
   directory scanned), {results_dir} (the scanner's results directory),
   {scan_set} (a file listing the scan set, one path per line).  The output
   must be below {results_dir}.  Modules are named by absolute path, or by
   name (NAME.yaml, NAME.yml) on the search path: ASH_PLUGIN_PATH, then
   $(pkgdatadir)/plugins (and data/plugins next to a build-tree binary).  */

#ifndef ASH_PLUGINS_H
#define ASH_PLUGINS_H

#include "base/error.h"
#include "base/strvec.h"
#include "sandbox/requirements.h"
#include "scanners/scanner.h"

struct ash_plugin_scanner
{
  struct ash_scanner scanner; /* name, tool, build, parse; data: this */
  char *name;
  char *tool;
  char *install_hint;
  char *description;
  struct ash_strvec args;            /* templates */
  char *output_path;                 /* template, below {results_dir} */
  const struct ash_scanner *adapter; /* "adapter: NAME": the builtin
                                        adapter that builds the command and
                                        reads the output, or NULL */
  struct ash_requirements req;
  char *module; /* the file it came from */
  int line;     /* where its entry starts */
};

struct ash_plugin_set
{
  struct ash_plugin_scanner **v;
  size_t n;
};

void ash_plugin_set_init (struct ash_plugin_set *s);

/* True when S is a plugin scanner (without an adapter) that is handed
   {target}, the directory: it walks the tree itself and is not told what
   the scan set leaves out.  */
bool ash_plugin_walks_target (const struct ash_scanner *s);
/* False only for a plugin scanner (without an adapter) whose arguments
   name neither {target} nor {scan_set}: nothing of the scan set is
   handed to it.  Every builtin scanner reads the tree.  */
bool ash_plugin_reads_tree (const struct ash_scanner *s);
void ash_plugin_set_release (struct ash_plugin_set *s);

/* The directories modules are searched in: the entries of ASH_PLUGIN_PATH
   (ENV_PATH, may be NULL), then EXTRA_DIR (may be NULL: the build tree's
   data/plugins), then PKGDATADIR/plugins.  */
void ash_plugin_search_dirs (const char *env_path, const char *extra_dir,
                             struct ash_strvec *ret);

/* Find the module file ENTRY names (absolute path, or a name looked up in
   DIRS).  -ENOENT with ERR saying where it was looked for.  */
int ash_plugin_find (const char *entry, char *const *dirs, char **ret_path,
                     struct ash_error *err);

/* Load the module file PATH, adding its scanners to SET.  An invalid
   module is -EINVAL with ERR naming the file and line (a configuration
   error: exit 3).  A scanner named like one already in SET or like a
   builtin scanner is refused the same way.  */
int ash_plugin_load_file (const char *path, struct ash_plugin_set *set,
                          struct ash_error *err);

struct ash_config;
struct ash_options;

/* Load the modules a scan loads, in the order it loads them: those of
   --ash-plugin-modules, then those of CONFIG that their tier lets load
   (ash_plugin_modules_allowed, judged against SOURCE_DIR), each found by
   ash_plugin_find on ASH_PLUGIN_PATH, HELPER_DIR/../data/plugins when that
   directory exists (a build tree; HELPER_DIR may be NULL), then
   PKGDATADIR/plugins.  RET_WARNINGS gets one warning per refused entry.
   Errors are those of ash_plugin_modules_allowed, ash_plugin_find and
   ash_plugin_load_file (a configuration error: exit 3).  */
int ash_plugin_load_configured (const struct ash_config *config,
                                const struct ash_options *opts,
                                const char *source_dir, const char *helper_dir,
                                struct ash_plugin_set *set,
                                struct ash_strvec *ret_warnings,
                                struct ash_error *err);

/* TEMPLATE with its placeholders replaced from JOB.  Newly allocated.  */
char *ash_plugin_expand (const char *tmpl, const struct ash_scan_job *job);

#endif
