/* policy.h -- what a scanner's sandbox allows, already decided.

   lib/policy.c computes a policy from the scanner's requirements, the
   operator's grants, --offline and facts about the host.  Backends only
   enforce it.  Every path carries the rule that put it there, so that
   `ash sandbox explain` and the aggregated results can show why.  */

#ifndef ASH_POLICY_H
#define ASH_POLICY_H

#include <stdbool.h>

#include "error.h"
#include "requirements.h"
#include "strvec.h"

enum ash_access
{
  ASH_ACCESS_READ,     /* read-only (and executable, except under
                          sandbox-exec where EXEC says) */
  ASH_ACCESS_WRITE,    /* read-write, persistent: the results directory */
  ASH_ACCESS_CACHE,    /* writable through a throwaway overlay where the
                          backend can, else read-only */
  ASH_ACCESS_DATA,     /* readable as data only (nothing runs from it under
                          sandbox-exec): the source tree, output dir */
  ASH_ACCESS_HIDE,     /* an empty directory mounted over it (staged input) */
};

struct ash_policy_path
{
  char *path;   /* absolute, normalised */
  enum ash_access access;
  bool exec;    /* programs may run from it (for sandbox-exec) */
  char *rule;   /* why it is there, e.g. "source directory" */
};

struct ash_policy_link
{
  char *name;   /* relative to the private home */
  char *target; /* absolute path on the host */
};

struct ash_policy_drop
{
  char *name;   /* the variable dropped (never its value) */
  char *why;
};

struct ash_policy
{
  char *scanner;                   /* the scanner's own name */
  struct ash_policy_path *paths;
  size_t n_paths;
  char *results_dir;               /* the one persistent writable place */
  char *home;                      /* the real HOME (for links, firejail) */
  char *passwd_home;               /* the passwd entry's home */
  struct ash_policy_link *home_links; /* symlinks in the private HOME */
  size_t n_home_links;
  struct ash_strvec env;           /* the filtered environment (NAME=VALUE),
                                      with HOME and TMPDIR still to be set
                                      by the backend to its private dirs */
  struct ash_policy_drop *dropped;
  size_t n_dropped;
  bool network;
  struct ash_strvec private_caches; /* NAME=dir: cache_env variables that
                                       point at a private cache under the
                                       results directory (removed after) */
  struct ash_strvec warnings;      /* withheld needs, refused mounts */
  char *refusal;                   /* non-NULL: cannot be sandboxed, why */
};

void ash_policy_init (struct ash_policy *p);
void ash_policy_release (struct ash_policy *p);
/* Add PATH with ACCESS and RULE (copies).  A later add of the same path
   keeps the stronger access.  */
void ash_policy_add_path (struct ash_policy *p, const char *path,
                          enum ash_access access, bool exec,
                          const char *rule);
const char *ash_access_name (enum ash_access a);

#endif
