/* SPDX-License-Identifier: Apache-2.0 */
/* archive-lib.h -- the libarchive functions the archive converter calls,
   through a table.

   Where configure chose lazy loading (the default on Linux), ash is not
   linked with libarchive, so that a run that extracts no archive does not
   pay the dynamic loader for it and the dozen libraries it needs: the
   first archive to extract loads it by its SONAME (found by configure)
   with dlopen, once per process, and looks every function up into the
   table.  A library that cannot be loaded, or that lacks one of the
   functions, is an error naming the library and saying what dlerror()
   said, and the converter fails each archive with it: archives are never
   skipped.  Otherwise (--disable-lazy-libarchive, macOS, Windows) the
   table holds the functions linked in, and loading cannot fail.  */

#ifndef ASH_ARCHIVE_LIB_H
#define ASH_ARCHIVE_LIB_H

#include <archive.h>
#include <archive_entry.h>

#include "base/error.h"

/* Every function archive.c calls, in one list: the table's fields, the
   dlsym() look-ups and the table of a direct build come from it.  */
#define ASH_ARCHIVE_LIB_FUNCTIONS(F)                                          \
  F (archive_entry_filetype)                                                  \
  F (archive_entry_hardlink)                                                  \
  F (archive_entry_pathname)                                                  \
  F (archive_entry_size)                                                      \
  F (archive_entry_size_is_set)                                               \
  F (archive_entry_symlink)                                                   \
  F (archive_error_string)                                                    \
  F (archive_filter_bytes)                                                    \
  F (archive_read_data)                                                       \
  F (archive_read_free)                                                       \
  F (archive_read_new)                                                        \
  F (archive_read_next_header)                                                \
  F (archive_read_open_fd)                                                    \
  F (archive_read_support_filter_bzip2)                                       \
  F (archive_read_support_filter_gzip)                                        \
  F (archive_read_support_filter_xz)                                          \
  F (archive_read_support_format_gnutar)                                      \
  F (archive_read_support_format_tar)                                         \
  F (archive_read_support_format_zip)

/* Each field has the name and the type of the libarchive function.  */
struct ash_archive_lib
{
#define ASH_ARCHIVE_LIB_FIELD(name) __typeof__ (name) *name;
  ASH_ARCHIVE_LIB_FUNCTIONS (ASH_ARCHIVE_LIB_FIELD)
#undef ASH_ARCHIVE_LIB_FIELD
};

/* The table, loading libarchive the first time (thread-safe; later calls
   return what the first found).  0 with *RET set (borrowed, valid for the
   life of the process), or a negative errno with ERR saying "cannot load
   libarchive (SONAME): DLERROR".  */
int ash_archive_lib_load (const struct ash_archive_lib **ret,
                          struct ash_error *err);

#endif
