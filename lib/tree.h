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
   for writing.  */

#ifndef ASH_TREE_H
#define ASH_TREE_H

#include <stdbool.h>
#include <sys/types.h>

#include "buf.h"
#include "error.h"
#include "strvec.h"

/* Create the directories of RELPATH below DIRFD (like mkdir -p), refusing
   links.  With RET_FD, return an O_DIRECTORY fd of the last one.  */
int ash_tree_mkdirs (int dirfd, const char *relpath, int *ret_fd,
                     struct ash_error *err);
/* Open the existing directory RELPATH below DIRFD, refusing links.  */
int ash_tree_open_dir (int dirfd, const char *relpath, int *ret_fd,
                       struct ash_error *err);
/* Atomically replace RELPATH below DIRFD with DATA (parents created).  */
int ash_tree_write_file (int dirfd, const char *relpath, const void *data,
                         size_t len, mode_t mode, struct ash_error *err);
/* Open RELPATH for streaming writes (logs, captured output): created when
   missing, truncated when TRUNCATE, refused when it is a link, has more
   than one name or is not a regular file.  */
int ash_tree_open_stream (int dirfd, const char *relpath, bool truncate,
                          int *ret_fd, struct ash_error *err);
/* Read a regular file below DIRFD, never following a link, at most MAX
   bytes (larger: -EFBIG).  */
int ash_tree_read_file (int dirfd, const char *relpath, size_t max,
                        struct ash_buf *ret, struct ash_error *err);
/* Remove RELPATH below DIRFD and everything in it, never following links.  */
int ash_tree_remove_all (int dirfd, const char *relpath,
                         struct ash_error *err);
/* Remove every symlink and special file below RELPATH; the removed paths
   are appended to REMOVED (may be NULL).  */
int ash_tree_sweep (int dirfd, const char *relpath, struct ash_strvec *removed,
                    struct ash_error *err);
/* Fail (ERROR) when a symlink or a file with more than one name is already
   below RELPATH.  */
int ash_tree_check_clean (int dirfd, const char *relpath,
                          struct ash_error *err);

#endif
