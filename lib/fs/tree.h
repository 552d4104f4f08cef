/* SPDX-License-Identifier: Apache-2.0 */
/* tree.h -- fd-relative access below the output directory.

   Every file ASH writes below its output directory is written relative to
   the directory fd opened once at the start, one component at a time with
   O_NOFOLLOW (or openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
   RESOLVE_NO_MAGICLINKS where the kernel has it), never through a symlink.
   New files are created exclusively as a temporary in the same directory and
   renamed into place.  A symlink at any component is refused with
   "<path> was not written: <link> is a symlink, and ASH does not write
   through a symlink below its output directory" (kind OutputLinkRefused); a
   file with more than one name with "<path> was not written: <n> names refer
   to it" (kind OutputHardLinkRefused).  FIFOs and devices are never opened
   for writing.

   Naming: messages name paths as ASH names them, the directory's absolute
   path joined with the relative path.  Directory fds returned by
   ash_outdir_open, ash_tree_mkdirs, ash_tree_open_dir and
   ash_tree_results_dir_open are remembered with their path (keyed by fd,
   device and inode, so a reused fd number is never misnamed); for a
   directory opened some other way, call ash_tree_name_dir once.  An
   unnamed fd makes messages use the relative path alone.

   Relative paths: "a/b/c"; empty components and "." are skipped; ".." and
   absolute paths are refused with -EINVAL.

   Errors: every function returns 0 or a negative errno and fills ERR.
   Link refusals return -ELOOP, hard-link refusals -EMLINK, other refusals
   of what is found at a name (a FIFO, a device, a directory where a file
   belongs) -EPERM or -EISDIR.  */

#ifndef ASH_TREE_H
#define ASH_TREE_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"

/* The kinds of error this module records are in base/error.h.  */

/* Default cap for ash_tree_read_file callers (1 GiB).  */
#define ASH_TREE_READ_MAX ((size_t) 1 << 30)

struct ash_outdir
{
  int fd;       /* O_DIRECTORY fd of the output directory, or -1 */
  char *path;   /* absolute, normalised path as ASH names it */
  bool created; /* ash_outdir_open created the directory itself */
};

#define ASH_OUTDIR_INIT                                                       \
  {                                                                           \
    -1, NULL, false                                                           \
  }

/* Open (creating it and its missing parents) the output directory PATH for
   the scan of SOURCE_DIR.  Refused (kind OutputDirLinkRefused, -ELOOP; the
   scan exits 3) when the output directory is a symlink, is reached through
   a symlink below the source directory (however either path is spelled),
   is inside the source directory by its path but outside it by its real
   path, or when analysis, reports, scanners, converted, ash.log,
   ash.log.jsonl or another fixed name ASH writes in it is a symlink.  Links
   at or above the source directory, and above an output directory outside
   the source tree, are not examined.  The path is then resolved once and
   opened from / one component at a time without following a link, and a
   directory on it that another user could change (owned by a user other
   than root and ASH's, or writable by others and not sticky), or an
   existing output directory owned by another user, is refused (kind
   OutputDirUnsafe, -EPERM).  */
int ash_outdir_open (const char *path, const char *source_dir,
                     struct ash_outdir *ret, struct ash_error *err);
void ash_outdir_release (struct ash_outdir *od);
#define _cleanup_outdir_ _cleanup_ (ash_outdir_release)

/* Remember that FD is the directory ABSPATH, for messages.  */
void ash_tree_name_dir (int fd, const char *abspath);
/* The path ASH names RELPATH below DIRFD by (newly allocated).  */
char *ash_tree_path (int dirfd, const char *relpath);

/* Testing: force the portable walker even where openat2 exists (also set
   by the environment variable ASH_TREE_FORCE_WALKER=1).  True when the
   walker is forced or openat2 is unavailable (the kernel lacks it, or a
   seccomp profile refuses it with EPERM).  */
void ash_tree_set_walker (bool force);
bool ash_tree_using_walker (void);

/* Create the directories of RELPATH below DIRFD (like mkdir -p), refusing
   links.  With RET_FD, return an O_DIRECTORY fd of the last one.  */
int ash_tree_mkdirs (int dirfd, const char *relpath, int *ret_fd,
                     struct ash_error *err);
/* Open the existing directory RELPATH below DIRFD, refusing links.  */
int ash_tree_open_dir (int dirfd, const char *relpath, int *ret_fd,
                       struct ash_error *err);
/* Atomically replace RELPATH below DIRFD with DATA (parents created).  An
   existing symlink, hard-linked file or non-regular file at RELPATH is
   refused and left as it is.  */
int ash_tree_write_file (int dirfd, const char *relpath, const void *data,
                         size_t len, mode_t mode, struct ash_error *err);
/* A new file being written: created as an exclusive temporary (mode MODE)
   in the directory of RELPATH (parents created, links refused, an existing
   link, hard-linked or non-regular file at RELPATH refused); write to FD,
   then ash_tree_file_commit renames it into place (checking RELPATH once
   more), or ash_tree_file_abort removes it.  Both release F.  */
struct ash_tree_file
{
  int fd;     /* write here */
  int parent; /* the directory */
  char *name; /* RELPATH's last component */
  char *tmp;  /* the temporary's name in PARENT */
  char *path; /* RELPATH as ASH names it */
};
#define ASH_TREE_FILE_INIT                                                    \
  {                                                                           \
    -1, -1, NULL, NULL, NULL                                                  \
  }
int ash_tree_file_create (int dirfd, const char *relpath, mode_t mode,
                          struct ash_tree_file *ret, struct ash_error *err);
int ash_tree_file_commit (struct ash_tree_file *f, struct ash_error *err);
void ash_tree_file_abort (struct ash_tree_file *f);

/* Open RELPATH for streaming writes (logs, captured output): created when
   missing, truncated when TRUNCATE (otherwise appended to), refused when it
   is a link, has more than one name or is not a regular file.  The fd is
   O_WRONLY | O_CLOEXEC (| O_APPEND without TRUNCATE), blocking.  */
int ash_tree_open_stream (int dirfd, const char *relpath, bool truncate,
                          int *ret_fd, struct ash_error *err);
/* Read a regular file below DIRFD, never following a link and never
   blocking on a FIFO, at most MAX bytes (larger: -EFBIG).  */
int ash_tree_read_file (int dirfd, const char *relpath, size_t max,
                        struct ash_buf *ret, struct ash_error *err);

/* The same file read a chunk at a time, for a reader that never holds it
   whole: ash_tree_reader_open makes the checks and gives the errors of
   ash_tree_read_file before the first byte is read (SIZE is the file's
   size then), ash_tree_reader_read those of reading it (-EFBIG once
   more than MAX bytes came, as ash_tree_read_file says it), returning
   the count read, 0 at its end, or a negative errno with ERR filled.  */
struct ash_tree_reader
{
  int fd;
  size_t max;   /* 0: none */
  size_t size;  /* when it was opened */
  size_t total; /* read so far */
  char *target; /* RELPATH as the errors name it */
};
#define ASH_TREE_READER_INIT                                                  \
  {                                                                           \
    -1, 0, 0, 0, NULL                                                         \
  }
int ash_tree_reader_open (int dirfd, const char *relpath, size_t max,
                          struct ash_tree_reader *ret, struct ash_error *err);
ssize_t ash_tree_reader_read (struct ash_tree_reader *rd, void *buf, size_t n,
                              struct ash_error *err);
/* Safe on an ASH_TREE_READER_INIT reader and on one already released.  */
void ash_tree_reader_release (struct ash_tree_reader *rd);
/* Remove RELPATH below DIRFD and everything in it, never following links.
   A missing RELPATH is not an error.  */
int ash_tree_remove_all (int dirfd, const char *relpath,
                         struct ash_error *err);

/* Open (creating it) the results directory RELPATH (for example
   "scanners/bandit/source") below the output directory fd DIRFD.  When it
   is, or is reached through, a symlink: -ELOOP, kind ResultsDirLinkRefused,
   "the results directory path <path> is a symlink, so ASH will not let a
   scanner write there; remove the link under the output directory, or pass
   another --output-dir" (the scanner is MISSING).  */
int ash_tree_results_dir_open (int dirfd, const char *relpath, int *ret_fd,
                               struct ash_error *err);
/* Remove every symlink and special file (FIFO, socket, device) below
   RELPATH (RELPATH itself is not removed; "" or "." for DIRFD itself); the
   removed paths, as ASH names them, are appended to REMOVED (may be NULL).
   Never follows a link.  */
int ash_tree_sweep (int dirfd, const char *relpath, struct ash_strvec *removed,
                    struct ash_error *err);
/* Fail (kind ResultsDirNotClean, -ELOOP for a symlink, -EMLINK for a file
   with more than one name; the scanner is ERROR) when a symlink or a file
   with more than one name is already below RELPATH.  */
int ash_tree_check_clean (int dirfd, const char *relpath,
                          struct ash_error *err);

#endif
