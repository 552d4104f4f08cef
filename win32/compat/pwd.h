/* SPDX-License-Identifier: Apache-2.0 */
/* pwd.h -- Windows has no passwd database: every lookup finds nothing.  */
#ifndef ASH_W32_PWD_H
#define ASH_W32_PWD_H
#include <stddef.h>
struct passwd
{
  char *pw_name;
  char *pw_passwd;
  int pw_uid;
  int pw_gid;
  char *pw_gecos;
  char *pw_dir;
  char *pw_shell;
};
struct passwd *getpwuid (int uid);
struct passwd *getpwnam (const char *name);
int getpwuid_r (int uid, struct passwd *pw, char *buf, size_t len,
                struct passwd **ret);
#endif
