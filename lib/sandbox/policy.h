/* SPDX-License-Identifier: Apache-2.0 */
/* policy.h -- what a scanner's sandbox allows, already decided.

   lib/sandbox/policy.c computes a policy from the scanner's requirements, the
   operator's grants, --offline and facts about the host.  Backends only
   enforce it.  Every path carries the rule that put it there, so that
   `ash sandbox explain` and the aggregated results can show why.  */

#ifndef ASH_POLICY_H
#define ASH_POLICY_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"
#include "sandbox/requirements.h"

enum ash_access
{
  ASH_ACCESS_READ,  /* read-only (and executable, except under
                       sandbox-exec where EXEC says) */
  ASH_ACCESS_WRITE, /* read-write, persistent: the results directory */
  ASH_ACCESS_CACHE, /* writable through a throwaway overlay where the
                       backend can, else read-only */
  ASH_ACCESS_DATA,  /* readable as data only (nothing runs from it under
                       sandbox-exec): the source tree, output dir */
  ASH_ACCESS_HIDE,  /* an empty directory mounted over it (staged input) */
};

struct ash_policy_path
{
  char *path; /* absolute, normalised */
  enum ash_access access;
  bool exec;  /* programs may run from it (for sandbox-exec) */
  char *rule; /* why it is there, e.g. "source directory" */
};

struct ash_policy_link
{
  char *name;   /* relative to the private home */
  char *target; /* absolute path on the host */
};

/* A path a backend that shows the host hides.  */
struct ash_policy_hidden
{
  char *path;
  char *why;
  char *env; /* non-NULL: PATH is this variable's value, which
                explain names and never shows */
};

struct ash_policy_drop
{
  char *name; /* the variable dropped (never its value) */
  char *why;
};

struct ash_policy
{
  char *scanner; /* the scanner's own name */
  struct ash_policy_path *paths;
  size_t n_paths;
  char *results_dir;                  /* the one persistent writable place */
  char *home;                         /* the real HOME (for links, firejail) */
  char *passwd_home;                  /* the passwd entry's home */
  struct ash_policy_link *home_links; /* symlinks in the private HOME */
  size_t n_home_links;
  struct ash_strvec env;         /* the filtered environment (NAME=VALUE),
                                    with HOME and TMPDIR still to be set
                                    by the backend to its private dirs */
  struct ash_strvec adapter_env; /* NAME=VALUE: the scanner adapter's own
                                    settings (constants of ASH's choosing,
                                    GRYPE_DB_AUTO_UPDATE=false), set over
                                    ENV when the command is run; not part
                                    of the policy as decided, which the
                                    record and `ash sandbox explain`
                                    show */
  struct ash_policy_drop *dropped;
  size_t n_dropped;
  bool network;
  struct ash_strvec private_caches; /* NAME=dir: cache_env variables that
                                       point at a private cache under the
                                       results directory (removed after) */
  struct ash_strvec warnings;       /* withheld needs, refused mounts */
  /* Why the scanner cannot be sandboxed as requested (kind
     ASH_KIND_SANDBOX_REFUSED); refusal.message is NULL when it can.  */
  struct ash_error refusal;
  struct ash_policy_drop *skipped; /* paths considered and not mounted
                                      (NAME is the path), with why */
  size_t n_skipped;
  struct ash_strvec linked_home_dirs; /* directories a link at the top of a
                                         home names outside the homes: part
                                         of the home, hidden with it by
                                         firejail and sandbox-exec */
  struct ash_strvec backend_env;      /* names the backend sets itself: HOME,
                                         TMPDIR (private directories) */
  struct ash_strvec sandbox_exec_env; /* NAME=VALUE set under sandbox-exec
                                         only, after the allowlist */
  char *unpack_dir_env;               /* sandbox-exec points it at a private,
                                         executable directory per spawn */
  bool system_trust_roots;            /* sandbox-exec: export the system roots
                                         and set SSL_CERT_FILE (unless set) */
  bool staged_input_only;             /* source and output dirs are HIDE */
  /* For a backend that shows the host and then restricts (firejail):  */
  struct ash_policy_hidden *hidden; /* paths it hides */
  size_t n_hidden;
  struct ash_strvec shown;           /* what it shows again inside the home
                                        it hides (the passwd entry's) and
                                        /tmp, which it makes private */
  struct ash_strvec readonly_mounts; /* the host's mount points, made
                                        read-only by name */
  char *mounts_error;                /* non-NULL: the mount table could not
                                        be read, and such a backend refuses */
  bool mounts_listed;                /* the mount table was read for
                                        readonly_mounts (only a backend that
                                        names them needs it) */
  char *run_config_dir;              /* the scanner run's config directory
                                        (real path), or NULL: given with the
                                        results directory to the scanner's
                                        account when ASH runs as root */
  struct ash_strvec masked;          /* FIFOs, sockets and devices of the
                                        source directory (absolute) that the
                                        backend must show as empty or not at
                                        all: the scanner walks the directory
                                        itself, and opening one could block
                                        it.  A backend that cannot mask them
                                        refuses to run the scanner.  */
};

/* Everything the policy is computed from.  Lists are NULL-terminated
   vectors, or NULL for none.  */
struct ash_policy_input
{
  const char *scanner; /* the scanner's own name */
  const struct ash_requirements *req;
  const char *source_dir;     /* absolute */
  const char *output_dir;     /* absolute */
  const char *results_dir;    /* absolute: OUTPUT/scanners/NAME/... */
  const char *converted_dir;  /* absolute, or NULL */
  const char *run_config_dir; /* the per-run 0700 config dir, or NULL */
  const char *tool_path;      /* absolute path of the scanner's tool */
  bool offline;
  /* Grants, already filtered by tier (lib/config/config-tier.c).  */
  char *const *network_scanners; /* NULL: the per-scanner defaults */
  char *const *network_restrict; /* NULL: none; else only these may have
                                    a network (an in-tree list) */
  char *const *extra_read_paths;
  char *const *read_path_scanners;
  char *const *env_scanners;
  char *const *option_read_paths; /* paths the scanner's options name */
  char *const *environ;           /* ASH's environment */
  const char *home;               /* $HOME */
  const char *passwd_home;        /* the passwd entry's home */
  const char *bin_path;           /* ASH's bin directory */
  bool cache_overlay;             /* the backend can throw cache writes
                                     away (bwrap with overlays) */
  /* Zero in each of the following means its default.  */
  const char *root;         /* the directory that plays "/" for the
                               host facts (tests); NULL: "/" */
  const char *mountinfo;    /* the mount table; NULL:
                               /proc/self/mountinfo */
  bool no_mounts;           /* the backend does not name mount points
                               (ash_probe_lists_mounts): the mount table
                               is not read and readonly_mounts stays
                               empty */
  char *const *system_dirs; /* NULL: /usr /etc /opt /nix */
  char *const *env_allow;   /* sandbox.env_allow: exact names the
                               operator lets through the credential
                               screening; NULL: none */
};

/* Whether the policy ash_policy_compute() makes from IN has a network
   (struct ash_policy's network), without computing the rest.  */
bool ash_policy_network (const struct ash_policy_input *in);
/* Compute the policy.  A scanner that cannot be sandboxed as requested gets
   RET->refusal set (and 0 returned); a negative errno only for a failure to
   compute at all.  */
/* 0 when P can be enforced; else -EPERM with P's refusal copied into ERR,
   for a backend's wrap() and every other place that must not run what P
   refuses.  */
int ash_policy_refused (const struct ash_policy *p, struct ash_error *err);
int ash_policy_compute (const struct ash_policy_input *in,
                        struct ash_policy *ret, struct ash_error *err);

void ash_policy_init (struct ash_policy *p);
/* P's environment into RET (cleared first): ENV, then each of
   ADAPTER_ENV set over it.  HOME, TMPDIR and the private caches are the
   backend's to set after.  */
void ash_policy_env (const struct ash_policy *p, struct ash_strvec *ret);
/* Safe on a zeroed policy and on one already released.  */
void ash_policy_release (struct ash_policy *p);
#define _cleanup_policy_ _cleanup_ (ash_policy_release)
/* Add PATH with ACCESS and RULE (copies).  A later add of the same path
   keeps the stronger access.  */
void ash_policy_add_path (struct ash_policy *p, const char *path,
                          enum ash_access access, bool exec, const char *rule);
const char *ash_access_name (enum ash_access a);
void ash_policy_add_drop (struct ash_policy *p, const char *name,
                          const char *why);
void ash_policy_add_skipped (struct ash_policy *p, const char *path,
                             const char *why);
/* The first refusal wins: "<scanner> cannot be sandboxed as requested:
   <reason>", into P's refusal with kind ASH_KIND_SANDBOX_REFUSED.  */
void ash_policy_refuse (struct ash_policy *p, const char *reason);
/* Look up PATH among the policy's paths, or NULL.  */
const struct ash_policy_path *ash_policy_find_path (const struct ash_policy *p,
                                                    const char *path);

/* Fill P's hidden, shown and readonly_mounts from its paths, homes and
   results directory, ENVIRON's SSH_AUTH_SOCK, the uid and the mount table
   MOUNTINFO (NULL: /proc/self/mountinfo), which is read only when
   LIST_MOUNTS; ash_policy_compute() calls it last.  Returns 0 (an
   unreadable mount table sets P->mounts_error).  */
int ash_policy_add_hiding (struct ash_policy *p, char *const *environ,
                           const char *mountinfo, bool list_mounts);
/* Free P's hidden list.  */
void ash_policy_hidden_release (struct ash_policy *p);
/* The home a backend that shows the host hides: the passwd entry's, else
   HOME; NULL when neither is a usable directory.  */
const char *ash_policy_hidden_home (const struct ash_policy *p);
/* Whether PATH lies in what such a backend makes private (that home, or
   /tmp), so that it must be shown again to be seen.  */
bool ash_policy_wants_shown (const struct ash_policy *p, const char *path);
/* Whether P shows anything strictly inside DIR (with RESULTS_ONLY, the
   results directory): such a hidden directory is hidden around it, entry
   by entry, in P's hidden list.  */
bool ash_policy_shows_inside (const struct ash_policy *p, const char *dir,
                              bool results_only);

/* The policy as JSON (new reference), keys in a fixed order: scanner,
   network, refusal, results_dir, paths (sorted by path: path, access,
   exec, rule), private, home, passwd_home, home_links, linked_home_dirs,
   env (names only), dropped (name, why), skipped (path, why),
   private_caches (name, dir), sandbox_exec_env, unpack_dir_env,
   system_trust_roots, staged_input_only, warnings, hide (path, why; a path
   that is a variable's value as "$NAME"),
   show, and readonly_mounts and mounts_error where the mount table was
   read (mounts_listed).  No value of a
   variable appears in it.  */
json_t *ash_policy_to_json (const struct ash_policy *p);
/* The names of the NAME=VALUE entries of ENV, as a JSON array.  */
json_t *ash_policy_env_names (const struct ash_strvec *env);

#endif
