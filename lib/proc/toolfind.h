/* SPDX-License-Identifier: Apache-2.0 */
/* toolfind.h -- finding the programs ASH runs.

   A tool (a scanner's program, bwrap, firejail, and the readlink and true
   the probes run) is looked up in ASH's bin directory (ASH_BIN_PATH) and in
   the absolute entries of PATH, in that order, and nowhere else: an empty or
   relative PATH entry (which would mean the working directory) is skipped.
   A candidate must be an executable regular file.

   A tool found only inside the scanned directory counts as not installed
   unless the operator allowed in-tree tools.  A candidate is inside when its
   path as found (the PATH entry joined with the name) lies below the scanned
   directory, or when the file or the directory it was found in resolves to
   a place below it: a PATH entry that is a link into the tree counts as
   inside.  */

#ifndef ASH_TOOLFIND_H
#define ASH_TOOLFIND_H

#include <stdbool.h>

#include "base/error.h"

struct ash_toolfind_opts
{
  const char *path_env;   /* PATH of ASH's environment; NULL: none */
  const char *bin_path;   /* ASH's bin directory (a ':' list is accepted);
                             NULL: none */
  const char *source_dir; /* the scanned directory; NULL: none */
  bool allow_in_tree_tools;
};

/* Find NAME (a plain name, or an absolute path which is then only checked).
   On success *RET_PATH is a newly allocated absolute path (the directory as
   found joined with NAME, not resolved, so that a virtualenv's links keep
   working) and 0 is returned.  Errors:
     -ENOENT  not installed: ERR says "NAME was not found on PATH or in
              ASH's bin directory";
     -EPERM   found only inside the scanned directory: ERR says
              "NAME was found only inside the scanned directory (PATH); ASH
              does not run tools from the tree it scans unless
              --allow-in-tree-tools is given";
     -EINVAL  NAME is empty or a relative path.  */
int ash_toolfind (const char *name, const struct ash_toolfind_opts *o,
                  char **ret_path, struct ash_error *err);

/* The absolute path of one of ASH's helper programs (ash-landlock-exec):
   in HELPER_DIR_HINT (the directory of the running ash, which the caller
   resolves; NULL to skip) when an executable NAME is there, else in
   PKGLIBEXECDIR.  Newly allocated, or NULL when neither has it.  */
char *ash_helper_path (const char *helper_dir_hint, const char *name);

/* The executable helper file NAME of ash's own (a worker script): beside
   the running ash, else in PKGLIBEXECDIR, else (a build tree) in ../data
   beside the running ash.  Newly allocated, or NULL when none is found.  */
char *ash_helper_file (const char *name);

#endif
