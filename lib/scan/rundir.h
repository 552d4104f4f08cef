/* SPDX-License-Identifier: Apache-2.0 */
/* rundir.h -- the per-run config directory of a scanner.

   The files ASH writes for a tool (bandit's empty --ini) go into a new
   directory, mode 0700, outside the scanned tree and the output directory,
   made for one run of one scanner and removed when the run ends.  The
   scanner's policy lets it read the directory and not write it.  */

#ifndef ASH_RUNDIR_H
#define ASH_RUNDIR_H

#include <sys/types.h>

#include "base/error.h"

/* The system temporary directory to make run directories in: $TMPDIR
   when it is absolute, outside SOURCE_DIR and OUTPUT_DIR, and no other
   account can change it (owned by us or root, and not writable by others
   unless sticky); else /tmp.  Borrowed from the environment.  */
const char *ash_rundir_base (const char *source_dir, const char *output_dir);

/* Make DIR/ash-SCANNER-PID-XXXXXX (PID: ash's own; DIR: ash_own_tmp_dir
   (BASE), fs/owndir.h), mode 0700, and return its path in *RET_DIR (newly
   allocated).  The first call for a BASE sweeps DIR first
   (ash_rundir_sweep).  0, or a negative errno with ERR filled.  */
int ash_rundir_make (const char *base, const char *scanner, char **ret_dir,
                     struct ash_error *err);

/* The pid in a run directory's name ash-NAME-PID-XXXXXX, or 0 when NAME
   is not such a name.  */
pid_t ash_rundir_owner (const char *name);

/* Remove the run directories in BASE that runs of ash killed before they
   could remove them: directories (not links) of ASH's own account whose
   name carries the pid of a process that no longer exists, whatever they
   hold, never following a link.  Another account's, a live process's, and
   anything that is not such a name are left alone.  The number removed,
   or a negative errno when BASE cannot be read.  */
int ash_rundir_sweep (const char *base);

/* Remove *DIR and everything in it, without following links, then free
   and clear *DIR.  0 (also when *DIR is NULL), or a negative errno with
   ERR filled; *DIR is freed and cleared either way.  */
int ash_rundir_remove (char **dir, struct ash_error *err);

#endif
