/* SPDX-License-Identifier: Apache-2.0 */
/* error.h -- errors returned to the caller, never printed by the library.

   Library functions return 0 or a negative errno and, when the caller passes
   a struct ash_error, fill it with what the user needs to know: a message,
   and where known the file, line and column it is about.  The command line
   layer decides what to print and how to exit.  */

#ifndef ASH_ERROR_H
#define ASH_ERROR_H

#include "base/util.h"

/* What an error means to the caller that acts on it (an exit code, a
   scanner's status), for the few failures that are acted on by kind;
   ASH_KIND_NONE for every other.  */
enum ash_error_kind
{
  ASH_KIND_NONE = 0,
  /* A link or another file at a name ash writes in the output
     directory.  */
  ASH_KIND_OUTPUT_LINK,
  ASH_KIND_OUTPUT_HARD_LINK,
  /* The output directory itself, or a fixed name in it, is a link: exit
     3.  */
  ASH_KIND_OUTPUT_DIR_LINK,
  /* A results directory is or is reached through a link: scanner
     MISSING.  */
  ASH_KIND_RESULTS_DIR_LINK,
  /* A link or hard link already below a results directory: scanner
     ERROR.  */
  ASH_KIND_RESULTS_DIR_UNCLEAN,
  /* The output directory, or a directory on its path, could be changed
     by another user (owned by them, or writable by others and not
     sticky): the scan exits 3.  */
  ASH_KIND_OUTPUT_DIR_UNSAFE,
  /* The output directory is a place ash does not write to (/, a home
     directory, an ancestor of the source directory, a directory inside
     the tree other than .ash/ash_output) or holds what ash did not write:
     the scan exits 3.  */
  ASH_KIND_OUTPUT_DIR_REFUSED,
  /* A scanner output that is not a regular file or is too large.  */
  ASH_KIND_OUTPUT_READ,
  /* A link's path cannot be put into a scanner's own exclusion option:
     that scanner is not run on the directory, and the scan fails naming
     the link.  */
  ASH_KIND_LINK_NOT_EXCLUDABLE,
  /* A scanner's PREPARE step found something it needs besides its tool
     not installed: the scanner is MISSING rather than ERROR.  */
  ASH_KIND_SCANNER_MISSING,
  /* The platform has no sandbox backend at all (the none backend): a
     sandboxed scanner is MISSING whatever mode was asked for.  */
  ASH_KIND_SANDBOX_NONE,
  /* No backend of the mode asked for can be used here: the scanner is
     MISSING under auto, ERROR for a backend named by the operator.  */
  ASH_KIND_SANDBOX_UNAVAILABLE,
  /* A backend is usable, but the scanner cannot be confined as its
     policy requires ("NAME cannot be sandboxed as requested: ..."): the
     scanner is ERROR and nothing of it runs.  */
  ASH_KIND_SANDBOX_REFUSED,
};

/* The kind's name ("OutputLinkRefused"; "" for ASH_KIND_NONE), for logs
   and tests.  */
const char *ash_error_kind_name (enum ash_error_kind kind);

struct ash_error
{
  char *message;            /* owned; NULL when no error was recorded */
  char *path;               /* owned; file the error is about, or NULL */
  int line;                 /* 1-based; 0 when unknown */
  int column;               /* 1-based; 0 when unknown */
  enum ash_error_kind kind; /* ASH_KIND_NONE unless a caller acts on it */
};

#define ASH_ERROR_INIT                                                        \
  {                                                                           \
    NULL, NULL, 0, 0, ASH_KIND_NONE                                           \
  }

void ash_error_init (struct ash_error *e);
/* Safe on a zeroed error and on one already released.  */
void ash_error_release (struct ash_error *e);
#define _cleanup_error_ _cleanup_ (ash_error_release)
/* Record a message (replacing any earlier one) and return ERR, which should
   be a negative errno, so that "return ash_error_set (e, -EINVAL, ...)"
   reads naturally.  E may be NULL.  */
int ash_error_set (struct ash_error *e, int err, const char *fmt, ...)
  _printf_ (3, 4);
int ash_error_set_at (struct ash_error *e, int err, const char *path, int line,
                      int column, const char *fmt, ...) _printf_ (6, 7);
/* Prefix the current message with "PREFIX: ".  */
void ash_error_prefix (struct ash_error *e, const char *fmt, ...)
  _printf_ (2, 3);
/* Copy SRC (message, place and kind) into DST (released first) and
   return ERR, as ash_error_set() does.  DST may be NULL.  */
int ash_error_copy (struct ash_error *dst, int err,
                    const struct ash_error *src);
/* Move the contents of SRC into DST (DST released first).  */
void ash_error_move (struct ash_error *dst, struct ash_error *src);
/* "path:line:column: message", or just the message.  Newly allocated.  */
char *ash_error_format (const struct ash_error *e);

#endif
