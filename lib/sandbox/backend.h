/* SPDX-License-Identifier: Apache-2.0 */
/* backend.h -- the sandbox backend table.

   Each platform's main.c hands its backends, in the order --sandbox auto
   tries them, to ash_main().  A backend probes once per process and rewrites
   commands; it never decides policy (lib/sandbox/policy.c does) and never
   spawns anything itself except through its probe, which goes through
   proc/spawn.c.  */

#ifndef ASH_BACKEND_H
#define ASH_BACKEND_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/error.h"
#include "proc/spawn.h"

/* Facts about the host that probes and wrappers need.  */
struct ash_host
{
  const char *path_env;   /* PATH of ASH's environment */
  const char *bin_path;   /* ASH's bin directory (ASH_BIN_PATH) */
  const char *source_dir; /* absolute; tools found only here are not
                             installed unless ALLOW_IN_TREE_TOOLS */
  bool allow_in_tree_tools;
  const char *helper_dir;  /* where ash-landlock-exec lives */
  const char *home;        /* $HOME */
  const char *passwd_home; /* the passwd entry's home */
  uid_t uid;
};

/* The outcome of a probe: each backend's own structure, private to it
   (sandbox/backend-impl.h holds the part every backend shares).  Filled
   once; then read only, through the accessors below.  */
struct ash_probe;

/* What one wrap() set up on the host for one spawn (a private directory),
   handed back to cleanup() after the spawn: each backend's own.  */
struct ash_wrap_state;

struct json_t;

struct ash_backend
{
  const char *name; /* "bwrap", "firejail", "landlock", "sandbox-exec",
                       "none" */
  /* The "none" backend of a platform that has no sandbox: the platform's
     message, which its probe reports as the reason for every mode.  NULL
     for a real backend.  */
  const char *none_reason;
  /* wrap() names each of the host's mount points to make it read-only
     (the policy's readonly_mounts, read from the mount table): only then
     does the policy list them.  */
  bool lists_mounts;
  /* Probe the host.  Always stores a new probe in *RET (release it with
     ash_probe_free()); returns 0 when usable, else a negative errno with
     the spec's message as the probe's reason.  */
  int (*probe) (const struct ash_host *host, struct ash_probe **ret);
  /* Free what the backend's probe holds beyond the shared part (may be
     NULL when it holds nothing more).  */
  void (*probe_free) (struct ash_probe *probe);
  /* Rewrite CMD so that it runs confined by POLICY.  Never spawns.  What
     it set up on the host for this spawn goes to *RET_STATE (NULL when
     nothing), which the caller hands to cleanup() after the spawn.  A
     failing wrap() undoes its own work and leaves *RET_STATE NULL.  */
  int (*wrap) (const struct ash_probe *probe, const struct ash_policy *policy,
               struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
               struct ash_error *reterr);
  /* Undo what wrap() set up and free STATE (NULL-safe).  May be NULL for
     a backend whose wrap() never sets state.  */
  void (*cleanup) (struct ash_wrap_state *state);
  /* Once the wrapped command's program has started (its exec succeeded),
     on the spawning thread, before the command's own while_running hook:
     release what only the starting child needed (the descriptors it was
     handed, which it holds now), for cleanup() not to do after the run.
     Never called when the program did not start.  May be NULL.  */
  void (*running) (struct ash_wrap_state *state);
  /* Start making, off the calling thread, what wrap() of a command
     confined by POLICY will need and can be made ahead, once for every
     spawn of the process (the socket filter), so that a scan's first
     spawn does not wait for it; called once POLICY is decided, before
     the scanner's other preparations.  Never spawns and never fails:
     wrap() makes what is not ready and reports why it cannot.  May be
     NULL.  */
  void (*prepare) (const struct ash_probe *probe,
                   const struct ash_policy *policy);
  /* The probe cache (sandbox/probe-cache.h); each may be NULL, and the
     backend is then probed in every run.  identity() appends to RET what
     identifies the programs the probe ran (path, device, inode, size and
     modification time of each), or fails when one is missing; save() and
     load() write and read a usable probe.  */
  int (*identity) (const struct ash_host *host, struct ash_buf *ret);
  int (*save) (const struct ash_probe *probe, struct json_t *obj);
  int (*load) (const struct json_t *obj, struct ash_probe **ret);
  /* The cheap check a cached usable probe passes before a run relies on
     it (the sandbox can still be made); 0 when it passes.  May be NULL.  */
  int (*recheck) (const struct ash_probe *probe, const struct ash_host *host);
  /* After a spawn that ran (before cleanup()): whether the sandbox was
     set up, as far as the backend can tell from STATE and RESULT; a
     sandbox that was not drops the backend's probe, cached or not, so
     that the next scan probes it again.  May be NULL: nothing to tell.  */
  bool (*started) (const struct ash_wrap_state *state,
                   const struct ash_cmd_result *result);
  /* Wait for what cleanup() left to finish in the background (the
     removal of a spawn's private directories) to be done; called at the
     end of a scan, and done again at exit by the backend itself.  May be
     NULL: cleanup() leaves nothing running.  */
  void (*finish) (void);
};

/* Accessors: what callers may know of a probe (P never NULL).  */
bool ash_probe_usable (const struct ash_probe *p);
/* Why it is not usable (the spec's message), or NULL when it is.  */
const char *ash_probe_reason (const struct ash_probe *p);
/* Things to log (no cache overlays, the Landlock ABI), or NULL.  */
const char *ash_probe_notes (const struct ash_probe *p);
/* Whether cache writes can be thrown away (bwrap with overlays).  */
bool ash_probe_cache_overlay (const struct ash_probe *p);
/* Whether the policy for P's backend lists the host's mount points: true
   for a backend that names them (lists_mounts) and for a NULL P.  */
bool ash_probe_lists_mounts (const struct ash_probe *p);
/* Whether the result came from the probe cache rather than a probe.  */
bool ash_probe_cached (const struct ash_probe *p);
/* Free P (NULL-safe) through its backend.  */
void ash_probe_free (struct ash_probe *p);

/* Run CMD as ash_cmd_run() does, confined by its scope: with a sandboxing
   scope, the backend's wrap() rewrites a private copy of CMD (CMD itself
   is left as the caller built it; the captured output still lands in
   CMD->out and CMD->err), the copy runs, and cleanup() follows with the
   state wrap() returned for this spawn.  A wrap() failure is the spawn's
   failure: nothing runs.  A copy that cannot be started drops the
   backend's probe (ash_backend_probe_drop()).  Other scopes are run or
   refused by ash_cmd_run().  */
int ash_sandbox_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
                     struct ash_error *err);
/* When ASH runs as root, ash_sandbox_run() runs the command as the
   scanner account (no root-only file is then readable to a scanner): the
   user ASH_SCANNER_USER names (a user name or UID[:GID]), by default
   nobody, 65534:65534 without a passwd entry; the results directory and
   the run's config directory are given to it first.  Its ids, or a
   negative errno (root itself is refused).  */
int ash_sandbox_scanner_ids (uid_t *ret_uid, gid_t *ret_gid,
                             struct ash_error *err);
/* What ash_sandbox_run() does as root before wrap(): give POLICY's results
   directory and run config directory to the scanner account and set CMD
   to run as it.  0 or a negative errno.  */
struct ash_policy;
int ash_sandbox_drop_root (const struct ash_policy *policy,
                           struct ash_cmd *cmd, struct ash_error *err);

struct ash_options;

/* Fill HOST for this process: PATH and HOME from the environment, the
   source directory, in-tree rule and bin directory from OPTS (may be NULL),
   the passwd entry's home, and the directory of the running ash as the
   helper directory hint (ash_helper_path() falls back to PKGLIBEXECDIR).
   The strings belong to OPTS, the environment and the process.  */
void ash_host_init (struct ash_host *host, const struct ash_options *opts);

/* Probe BACKEND once per process and return the cached result (never NULL;
   read only).  Safe to call from several threads: the first caller probes,
   the others wait for its result.  */
const struct ash_probe *
ash_backend_probe_cached (const struct ash_backend *backend,
                          const struct ash_host *host);

/* Forget every cached probe of this process (for tests).  */
void ash_backend_probe_cache_reset (void);

/* Neither read nor write the probe cache across runs (--no-probe-cache,
   ASH_NO_PROBE_CACHE=1): every backend is probed afresh.  */
void ash_backend_probe_cache_disable (bool disable);

/* A spawn through BACKEND failed in a way its probe did not foresee:
   forget its probe, in this process (the next caller probes again) and in
   the probe cache.  */
void ash_backend_probe_drop (const struct ash_backend *backend);

/* The platform's message when LIST (NULL-terminated) holds only the none
   backend, else NULL.  */
const char *ash_backend_none_reason (const struct ash_backend *const *list);

/* The backend of a platform without a sandbox: a "none" backend that
   reports MESSAGE for every mode.  */
#define ASH_BACKEND_NONE(message)                                             \
  {                                                                           \
    .name = "none", .none_reason = (message)                                  \
  }

/* The backend of LIST (NULL-terminated) called NAME, or NULL.  */
const struct ash_backend *
ash_backend_find (const struct ash_backend *const *list, const char *name);

/* The backend that sandbox MODE selects from LIST, with its probe in
   *RET_PROBE: "auto" takes the first usable backend in LIST's order, a
   backend's name takes that backend only (an unavailable one never falls
   back).  Returns NULL for "off" (with ERR released: no message), and
   NULL with ERR set when no backend can be used: the platform's message
   with kind ASH_KIND_SANDBOX_NONE on a platform with the none backend,
   else kind ASH_KIND_SANDBOX_UNAVAILABLE with the probe's reason for a
   named backend, "--sandbox auto found no working sandbox (NAME: REASON;
   ...)" for auto.  ERR may be NULL.  Probes are cached per process.  */
const struct ash_backend *
ash_backend_select (const char *mode, const struct ash_backend *const *list,
                    const struct ash_host *host,
                    const struct ash_probe **ret_probe, struct ash_error *err);

#endif
