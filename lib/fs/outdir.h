/* SPDX-License-Identifier: Apache-2.0 */
/* outdir.h -- where the output directory may be, and what ash may clear
   in it.

   ash writes its output to a directory it is given, and clears the
   results of an earlier scan there.  So it refuses a directory where that
   would destroy or expose what is not its own, and it removes only what a
   run of its own wrote, as recorded in a manifest in the directory.  */

#ifndef ASH_OUTDIR_H
#define ASH_OUTDIR_H

#include <stdbool.h>

#include "base/error.h"
#include "fs/tree.h"

/* The file in the output directory that lists what ash wrote there.  */
#define ASH_OUTDIR_MANIFEST ".ash_output_manifest.json"

/* Decide where the output goes for --output-dir PATH (NULL: the upstream
   default SOURCE_DIR/.ash/ash_output).  Refused (-EPERM, kind
   OutputDirRefused; the scan exits 3): "/", a home directory (HOME, the
   passwd entry's home of ash's user, and every home the passwd database
   lists), the source directory's ancestors, and a directory inside the
   source tree other than .ash/ash_output, each by its path and by its
   real path.  The source directory itself is redirected to
   SOURCE_DIR/.ash/ash_output, and *RET_WARNING says so (else NULL).
   *RET_PATH is the directory to open (newly allocated).  */
int ash_outdir_place (const char *path, const char *source_dir,
                      char **ret_path, char **ret_warning,
                      struct ash_error *err);

/* Before a scan writes into OD: claim it.  When the manifest is there,
   the entries it lists of NAMES (NULL-terminated: what a run writes at
   the top of the output directory) are removed, never following a link.
   When it is not, ash clears nothing: OD must be a directory ash_outdir_open
   created, an empty one, one that holds none of NAMES, or the upstream
   default SOURCE_DIR/.ash/ash_output (DEFAULT_OUT true), else it is
   refused (-EPERM, kind OutputDirRefused) as a directory ash did not
   create.  Then the manifest is written, listing NAMES.  */
int ash_outdir_claim (const struct ash_outdir *od, bool default_out,
                      const char *const *names, struct ash_error *err);

#endif
