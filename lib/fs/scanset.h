/* SPDX-License-Identifier: Apache-2.0 */
/* scanset.h -- the scan set: which files of the source directory ASH
   scans.

   The source directory is walked relative to its fd, never following a
   link.  .gitignore and .ashignore files (git's pattern syntax; a file
   applies to the directory it is in and everything below it, deeper files
   and later lines win) and global_settings.ignore_paths (the same syntax,
   relative to the source directory, applied after every ignore file so
   that they cannot be negated) leave files out; .git directories and the
   output directory are always left out.

   Only regular files are in the scan set.  A FIFO, socket or device is
   left out with the warning "Not scanning '<path>': not a regular file
   (<kind>)", and a regular file larger than max_file_size with "Not
   scanning '<path>': <size> bytes is more than
   global_settings.max_file_size (<max>)"; both are added to LEAVING, so
   that the scanners that walk the directory themselves skip them too.

   Ignore files are read up to 1 MiB each, 8 MiB and 100000 rules in all;
   the rules past a cap are not read, and one warning says so.  Rules
   whose pattern is a literal name or "*" and a literal suffix are
   indexed, so that matching costs about the length of a name.

   A symlink whose target, with every link on the way resolved, is outside
   the source directory (or cannot be resolved at all) is left out with the
   warning "Not scanning '<path>': link leaves the scanned tree", naming
   only the link.  Links that stay inside the tree are kept.  Links inside
   ignored directories are screened too, since scanners that walk the
   directory themselves do not read ignore files, and end up in the
   per-scanner exclusion options (without a warning).

   ash-scan-set-files-list.txt lists the absolute path of every file in the
   scan set, one a line, sorted.  ash-ignore-report.txt lists each ignored
   path (relative to the source directory; an ignored directory once, not
   its contents) and the rule that ignored it: "<path>: <origin>", where the
   origin is "<ignore file>:<line>: <pattern>" or
   "global_settings.ignore_paths: <pattern> (<reason>)".  In both files
   (and in IGNORED below) a path that holds a control character, such as a
   line break, or that starts with a double quote is written in double
   quotes with C escapes ("a\nb"), so that no name adds a line of its
   own.  */

#ifndef ASH_SCANSET_H
#define ASH_SCANSET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/strvec.h"

/* A link's path that cannot be put into a scanner's own exclusion option
   is an error of kind ASH_KIND_LINK_NOT_EXCLUDABLE (base/error.h).  */

struct ash_ignore_path
{
  const char *path;   /* pattern, relative to the source directory */
  const char *reason; /* may be NULL */
};

struct ash_scanset_opts
{
  /* The output directory (any spelling); left out of the walk when it is
     inside the tree.  May be NULL.  */
  const char *output_dir;
  const struct ash_ignore_path *ignore_paths;
  size_t n_ignore_paths;
  /* Regular files larger than this many bytes are left out of the scan
     set with a warning; 0 for no limit.  */
  unsigned long long max_file_size;
};

struct ash_scanset
{
  char *source_dir;           /* absolute, as given (normalised) */
  char *real_source_dir;      /* realpath of it */
  struct ash_strvec files;    /* relative paths in the scan set, sorted */
  struct ash_strvec ignored;  /* "<path>: <origin>" lines, walk order */
  struct ash_strvec leaving;  /* links that leave the tree (ignored ones
                                 included), special files and files
                                 over the size limit: relative, sorted */
  struct ash_strvec warnings; /* one per leaving link in the scan set:
                                 "Not scanning '<path>': link leaves the
                                 scanned tree" (log them as warnings) */
  struct ash_strvec all;      /* every path walked, relative (for the
                                 substring rules of the exclusions) */
  /* How many times an ignore rule was tried against a path: with the
     literal names and suffixes indexed, it does not grow with the
     number of such rules.  */
  unsigned long long rule_tries;
  struct ash_strvec specials; /* the FIFOs, sockets and devices walked
                                 (also in LEAVING), relative: a sandbox
                                 masks them from a scanner given the
                                 directory */
  struct ash_strvec unlisted; /* the paths of ALL that are not in FILES,
                                 in ALL's order (a directory before
                                 what is below it) */
  /* The strings of ALL, FILES and UNLISTED are not theirs: each path is
     made once, in blocks of many, which ash_scanset_release frees.
     Those three vectors are read-only to users of the scan set.  */
  struct ash_scanset_paths *paths;
};

#define ASH_SCANSET_INIT                                                      \
  {                                                                           \
    NULL, NULL, ASH_STRVEC_INIT, ASH_STRVEC_INIT, ASH_STRVEC_INIT,            \
      ASH_STRVEC_INIT, ASH_STRVEC_INIT, 0, ASH_STRVEC_INIT, ASH_STRVEC_INIT,  \
      NULL                                                                    \
  }

void ash_scanset_release (struct ash_scanset *s);

/* Walk SRCFD, the directory SOURCE_DIR, into RET.  */
int ash_scanset_build (int srcfd, const char *source_dir,
                       const struct ash_scanset_opts *opts,
                       struct ash_scanset *ret, struct ash_error *err);

/* Write ash-scan-set-files-list.txt and ash-ignore-report.txt below the
   output directory fd OUTDIRFD through the tree.h writers.  */
int ash_scanset_write_reports (const struct ash_scanset *s, int outdirfd,
                               struct ash_error *err);

/* PATH as one line of ash-scan-set-files-list.txt writes it (quoted with
   C escapes when it holds a control character or starts with a double
   quote), newly allocated.  The converted files' list uses it too.  */
char *ash_scanset_quote_path (const char *path);

/* Append to RET_ARGS the arguments that make SCANNER skip every link that
   leaves the tree (nothing when there is none, or when SCANNER walks no
   directory itself):
     bandit       --exclude P1,P2,...  (relative paths; bandit matches
                  substrings, so callers adding their own exclusions must
                  join them into this one value)
     checkov      --skip-path R  for each link (R: the path as a regex,
                  ash_scanset_checkov_regex)
     ferret-scan  --exclude P1,P2,...
     grype, syft  --exclude ./P  for each link (glob characters escaped)
     trivy-repo   --skip-files P  for each link (CSV-quoted when it holds a
                  comma or a quote, glob characters escaped)
   Paths are relative to the source directory: the scanner must be run on
   the source directory (absolute path or "."), so that they match.
   -EINVAL with kind LinkNotExcludable when a link's path cannot be put in
   the option alone: for bandit a comma, a glob character (* ? [) or a line
   break, or a path that another path in the tree contains; for checkov a
   line break or another control character, or a path that another path
   of the tree ends with (after a '/'); for ferret-scan a comma, a line
   break, or a path another path in the tree contains.  */
int ash_scanset_exclusion_args (const struct ash_scanset *s,
                                const char *scanner,
                                struct ash_strvec *ret_args,
                                struct ash_error *err);

/* PATH (relative to the directory checkov scans) as one of checkov's
   --skip-path regular expressions.  checkov compiles each value with
   Python's re (and joins them all into one expression in its terraform
   module finder) after replacing ".terraform" with "\\.terraform", and
   searches it in the path of every file and directory it walks, that
   directory's path joined with the name.  So the value is
   "(?:^|/)PATH$", matching a path that is PATH or ends with "/PATH" and
   never one that merely holds it (a link named "s" must not hide every
   path with an "s" in it, the scanned directory's own included); in
   PATH every ASCII punctuation character but '/', '_' and '-' is
   preceded by a backslash, and '.' is written "[.]", which that
   replacement cannot reach.  NULL when PATH holds a control character,
   which the value cannot carry.  Newly allocated.  */
char *ash_scanset_checkov_regex (const char *path);

#endif
