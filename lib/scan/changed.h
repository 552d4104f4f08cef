/* SPDX-License-Identifier: Apache-2.0 */
/* changed.h -- --changed-files-only: the files git says changed between a
   base commit and HEAD, and the findings kept in them.

   git is ASH's own spawn, run unsandboxed through proc/spawn.c, never a
   shell.  The repository it reads is the scanned tree, so nothing its
   configuration names may run: ash compares two commits only (no work
   tree, no index, so no fsmonitor, clean filter or hook is consulted),
   passes --no-ext-diff and --no-textconv, sets the settings that name
   programs (core.fsmonitor, diff.external, core.hooksPath,
   core.sshCommand) to nothing on the command line, forbids every
   transport (protocol.allow=never, GIT_NO_LAZY_FETCH) so that a partial
   clone cannot fetch through a configured command, and reads neither the
   system nor the user's configuration.  */

#ifndef ASH_CHANGED_H
#define ASH_CHANGED_H

#include <jansson.h>

#include "base/error.h"
#include "base/strvec.h"

/* The files (relative to SOURCE_DIR, sorted) that changed between the
   merge base of BASE_REF and HEAD, and HEAD, found with the git GIT.
   BASE_REF NULL: origin/HEAD, then origin/main, then main.  A BASE_REF
   that starts with '-' is refused (-EINVAL).  Errors: -ENOENT when no
   base could be found, -EIO when git fails (ERR says why).  */
int ash_changed_files (const char *git, const char *source_dir,
                       const char *base_ref, struct ash_strvec *ret,
                       struct ash_error *err);

/* Remove from every run of DOC the results located in a file that is not
   in CHANGED (sorted); results without a file are kept.  Returns how many
   were removed.  */
size_t ash_changed_filter_doc (json_t *doc, const struct ash_strvec *changed);

/* Remove from every run of DOC the results located in a file that is in
   DROP (sorted).  Returns how many were removed.  */
size_t ash_paths_drop_doc (json_t *doc, const struct ash_strvec *drop);

#endif
