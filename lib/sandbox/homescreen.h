/* SPDX-License-Identifier: Apache-2.0 */
/* homescreen.h -- which directories a sandbox may mount.

   The spec's home-directory rules: a home, a directory holding one, or /
   is never mounted; inside a home only bin, sbin and Scripts directories
   (by the directory they resolve to) and install prefixes deeper than a
   directory directly in the home; venv and conda installations directly
   in a home told apart by their markers; links at the top of a home
   counted as part of it; the interpreter refusals.  Both HOME and the
   passwd entry's home are screened.

   Every decision reads the real file system, so tests build a tree in a
   temporary directory and pass it as ROOT (the directory that plays "/"),
   with the homes and system directories inside it.  */

#ifndef ASH_HOMESCREEN_H
#define ASH_HOMESCREEN_H

#include <stdbool.h>

#include "base/strvec.h"

struct ash_homescreen
{
  char *root;                     /* "/" or a test root (real path) */
  struct ash_strvec homes;        /* real paths: HOME, then the passwd home
                                     when it differs */
  struct ash_strvec system_dirs;  /* real paths of /usr /etc /opt /nix that
                                     exist */
  struct ash_strvec top_system;   /* top-level system directories: the
                                     above and /bin /sbin /lib* */
  struct ash_strvec link_names;   /* HOME/NAME for each link at the top of a
                                     home naming a directory elsewhere */
  struct ash_strvec link_targets; /* the real directory it names */
};

enum ash_screen
{
  ASH_SCREEN_MOUNT = 0,
  ASH_SCREEN_SKIP,   /* not mounted (a warning when WHY is set) */
  ASH_SCREEN_REFUSE, /* the scanner cannot be sandboxed as requested */
};

/* ROOT NULL means "/".  SYSTEM_DIRS NULL means ROOT/usr, ROOT/etc,
   ROOT/opt, ROOT/nix.  HOME and PASSWD_HOME may be NULL.  */
void ash_homescreen_init (struct ash_homescreen *s, const char *root,
                          const char *home, const char *passwd_home,
                          char *const *system_dirs);
void ash_homescreen_release (struct ash_homescreen *s);

/* realpath(), or NULL.  Between ash_homescreen_memo (true) and
   ash_homescreen_memo (false), on the same thread, each path is resolved
   once and its answer given again (newly allocated each time): for one
   policy's computation, which asks for the same paths many times.  */
char *ash_homescreen_realpath (const char *path);
void ash_homescreen_memo (bool on);
/* The names of the links at the top of the directory HOME (those lstat()
   says are links), in the order it lists them, into RET (cleared first);
   false when HOME cannot be listed.  Memoized as ash_homescreen_realpath
   is: the policy looks at each home twice.  */
bool ash_homescreen_top_links (const char *home, struct ash_strvec *ret);
/* REAL as if the links at the top of the homes were the directories they
   name: a path inside such a directory is spelled inside the home.  */
char *ash_homescreen_virtual (const struct ash_homescreen *s,
                              const char *real);
/* The index in S->homes of the home VIRT lies in, with DEPTH the number of
   components below it (0: the home itself); -1 when in none.  */
int ash_homescreen_home_depth (const struct ash_homescreen *s,
                               const char *virt, size_t *ret_depth);
/* REAL is /, a home, or a directory holding one.  */
bool ash_homescreen_holds_home (const struct ash_homescreen *s,
                                const char *real);
bool ash_homescreen_is_bin_name (const char *path);
/* A venv or conda installation (pyvenv.cfg, conda-meta) not on the
   never-counts list (~/.local, anything holding share/keyrings).  */
bool ash_homescreen_is_env (const struct ash_homescreen *s, const char *real);

/* Each screen returns an enum ash_screen.  RET_REAL gets the real path to
   mount (MOUNT only), RET_WHY a reason (SKIP: NULL when nothing is worth a
   warning; REFUSE: always).  Both newly allocated.  */

/* A PATH entry or a tool's directory.  */
int ash_homescreen_bin_dir (const struct ash_homescreen *s, const char *dir,
                            char **ret_real, char **ret_why);
/* A tool's install prefix.  */
int ash_homescreen_prefix (const struct ash_homescreen *s, const char *prefix,
                           char **ret_real, char **ret_why);
/* A script's interpreter: RET_MOUNTS gets the real prefixes to mount (the
   venv and its base), RET_RULES the rule for each.  */
int ash_homescreen_interpreter (const struct ash_homescreen *s,
                                const char *interp,
                                struct ash_strvec *ret_mounts,
                                struct ash_strvec *ret_rules, char **ret_why);
/* ASH_BIN_PATH.  */
int ash_homescreen_bin_path (const struct ash_homescreen *s, const char *dir,
                             char **ret_real, char **ret_why);
/* UV_TOOL_DIR, UV_PYTHON_INSTALL_DIR, UV_CACHE_DIR (or their defaults).  */
int ash_homescreen_uv_dir (const struct ash_homescreen *s, const char *dir,
                           char **ret_real, char **ret_why);
/* The value of a read_path_env variable.  */
int ash_homescreen_read_path_env (const struct ash_homescreen *s,
                                  const char *value, char **ret_real,
                                  char **ret_why);

#endif
