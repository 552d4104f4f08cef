/* SPDX-License-Identifier: Apache-2.0 */
/* owndir.h -- ASH's own directory in a temporary directory.  */

#ifndef ASH_OWNDIR_H
#define ASH_OWNDIR_H

/* ASH's own directory in the temporary directory BASE, where its run
   directories and the Landlock backend's private directories are made:
   BASE/ash-UID (UID: the effective user id), made when missing, mode
   0700 (0711 for root, whose scanner account must reach the directories
   made for it there without being able to list them).  Its stale
   directories are then found without reading BASE, which may hold any
   number of other entries.  When that name is taken by anything else (a
   link, a file, another account's directory, one another account can
   write), BASE itself, with a warning: the directories made directly in
   BASE are as private as ever, only their stale ones cost a read of BASE.
   Also BASE when BASE cannot be written to, and on Windows, whose
   temporary directory is the user's own.  Settled once per BASE for
   the life of the process; the string is never freed.  */
const char *ash_own_tmp_dir (const char *base);

#endif
