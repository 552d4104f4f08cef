/* SPDX-License-Identifier: Apache-2.0 */
/* backend.h -- the sandbox backend table.

   Each platform's main.c hands its backends, in the order --sandbox auto
   tries them, to ash_main().  A backend probes once per process and rewrites
   commands; it never decides policy (lib/sandbox/policy.c does) and never spawns
   anything itself except through its probe, which goes through
   proc/spawn.c.  */

#ifndef ASH_BACKEND_H
#define ASH_BACKEND_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "proc/spawn.h"

/* Facts about the host that probes and wrappers need.  */
struct ash_host
{
  const char *path_env;        /* PATH of ASH's environment */
  const char *bin_path;        /* ASH's bin directory (ASH_BIN_PATH) */
  const char *source_dir;      /* absolute; tools found only here are not
                                  installed unless ALLOW_IN_TREE_TOOLS */
  bool allow_in_tree_tools;
  const char *helper_dir;      /* where ash-landlock-exec lives */
  const char *home;            /* $HOME */
  const char *passwd_home;     /* the passwd entry's home */
  uid_t uid;
};

/* The outcome of a probe.  Filled once per process; then read only.  */
struct ash_probe
{
  bool usable;
  char *reason;        /* why not usable: the spec's message */
  char *tool;          /* absolute path of bwrap / firejail, or NULL */
  char *helper;        /* absolute path of ash-landlock-exec, or NULL */
  bool overlay;        /* throwaway cache overlays supported */
  int landlock_abi;    /* 0 when not applicable */
  char *notes;         /* things to log (e.g. "no overlay: ...") or NULL */
  bool bind_fd;        /* bwrap has --bind-fd and --ro-bind-fd */
};

struct ash_backend
{
  const char *name; /* "bwrap", "firejail", "landlock", "sandbox-exec" */
  /* 0 when usable; otherwise fills RET->reason with the spec's message and
     returns a negative errno.  */
  int (*probe) (const struct ash_host *host, struct ash_probe *ret);
  /* Rewrite CMD so that it runs confined by POLICY.  Never spawns.  */
  int (*wrap) (const struct ash_probe *probe, const struct ash_policy *policy,
               struct ash_cmd *cmd, struct ash_error *reterr);
  /* Optional: undo what wrap() set up on the host (temporary files) after
     the spawn.  May be NULL.  */
  void (*cleanup) (const struct ash_probe *probe,
                   const struct ash_policy *policy, struct ash_cmd *cmd);
};

void ash_probe_release (struct ash_probe *p);

/* Run CMD as ash_cmd_run() does, confined by its scope: with a sandboxing
   scope, the backend's wrap() rewrites a private copy of CMD (CMD itself
   is left as the caller built it; the captured output still lands in
   CMD->out and CMD->err), the copy runs, and cleanup() follows.  A wrap()
   failure is the spawn's failure: nothing runs.  Other scopes are run or
   refused by ash_cmd_run().  */
int ash_sandbox_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
                     struct ash_error *err);

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
const struct ash_probe *ash_backend_probe_cached (
  const struct ash_backend *backend, const struct ash_host *host);

/* Forget every cached probe (for tests).  */
void ash_backend_probe_cache_reset (void);

/* The backend of LIST (NULL-terminated) called NAME, or NULL.  */
const struct ash_backend *ash_backend_find (
  const struct ash_backend *const *list, const char *name);

/* The backend that sandbox MODE selects from LIST, with its probe in
   *RET_PROBE: "auto" takes the first usable backend in LIST's order, a
   backend's name takes that backend only (an unavailable one never falls
   back).  Returns NULL for "off" (with *RET_REASON NULL), and NULL with
   *RET_REASON (newly allocated) when no backend can be used: the probe's
   reason for a named backend, "--sandbox auto found no working sandbox
   (NAME: REASON; ...)" for auto.  Probes are cached per process.  */
const struct ash_backend *ash_backend_select (
  const char *mode, const struct ash_backend *const *list,
  const struct ash_host *host, const struct ash_probe **ret_probe,
  char **ret_reason);

#endif
