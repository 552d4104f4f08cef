/* SPDX-License-Identifier: Apache-2.0 */
/* backends.h -- the Linux sandbox backends: bubblewrap, firejail and
   Landlock, in the order --sandbox auto tries them.

   Each backend enforces a struct ash_policy exactly as lib/sandbox/policy.c
   decided it; none decides anything itself.  All three start the scanner
   through ash-landlock-exec: in its socket-filter mode under bwrap and
   firejail (which build the rest of the sandbox), in its Landlock mode
   otherwise.  */

#ifndef ASH_LINUX_BACKENDS_H
#define ASH_LINUX_BACKENDS_H

#include <jansson.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "sandbox/backend.h"
#include "sandbox/backend-impl.h"
#include "sandbox/policy.h"
#include "socket-filter.h"

extern const struct ash_backend ash_backend_bwrap;
extern const struct ash_backend ash_backend_firejail;
extern const struct ash_backend ash_backend_landlock;

/* The probe of a Linux backend: private to linux/, read by the rest of
   ASH through the accessors of sandbox/backend.h.  */
struct ash_linux_probe
{
  struct ash_probe base;
  char *tool;       /* absolute path of bwrap / firejail, or NULL */
  char *helper;     /* absolute path of ash-landlock-exec, or NULL */
  int landlock_abi; /* 0 when not applicable */
  bool bind_fd;     /* bwrap has --bind-fd and --ro-bind-fd */
};

/* A new, not yet usable probe of BACKEND.  */
struct ash_linux_probe *
ash_linux_probe_new (const struct ash_backend *backend);
/* The Linux probe P is the shared part of.  */
const struct ash_linux_probe *ash_linux_probe_of (const struct ash_probe *p);
/* The backends' probe_free(), save() and load().  */
void ash_linux_probe_free (struct ash_probe *p);
int ash_linux_probe_save (const struct ash_probe *p, json_t *obj);
int ash_linux_probe_load_for (const struct ash_backend *backend,
                              const json_t *obj, struct ash_probe **ret);
/* identity(): the tool NAME (NULL for none) and the wrapper, as HOST finds
   them, each as "path dev ino size mtime" on a line of RET; also where
   ASH runs (the boot, its namespaces, the init of its PID namespace) and
   the seccomp actions the kernel offers; with NAMESPACES (a backend that
   makes namespaces), the sysctls and AppArmor settings that let an
   unprivileged account make them.  */
int ash_linux_identity (const struct ash_host *host, const char *name,
                        bool namespaces, struct ash_buf *ret);
/* Append "PATH dev ino size mtime" (or "PATH -" when PATH is missing) to
   RET: a file a probe's result depends on.  */
int ash_linux_identity_file (struct ash_buf *ret, const char *path);

/* The file name of the wrapper, looked up with ash_helper_path().  */
#define ASH_LANDLOCK_EXEC "ash-landlock-exec"

/* Append to ARGV the words that start a command through the wrapper's
   socket-filter mode (HELPER is its absolute path): the seccomp sandbox
   filter only; without NETWORK, the command's own network namespace
   (which the caller must make) keeps IP sockets for its loopback and
   every other family is refused; with
   NEW_SESSION a new session (for a backend that does not start one
   itself).  With POLICY (may be NULL), the wrapper first checks that each
   data directory (the source and output directories) is there in the
   sandbox and is the same directory as on the host, and refuses to start
   the command otherwise.  With SECCOMP_FD (not -1, and passed to the
   command by the caller: ash_linux_socket_filter_fd() for the same
   policy), the wrapper loads the filter from it rather than building it.
   The wrapper also refuses to start the command in ASH's own mount
   namespace (the backend around it made none).  With READY_FD (not -1,
   the write end from ash_linux_ready_pipe()), the wrapper tells it when
   the sandbox is set up.  The command itself follows.  */
void ash_linux_filter_prefix (struct ash_strvec *argv, const char *helper,
                              const struct ash_policy *policy, bool network,
                              bool new_session, int seccomp_fd, int ready_fd);

/* A pipe for the wrapper's --ready-fd: its write end is added to CMD's
   descriptors to pass and returned (the caller closes it after the
   spawn), its read end, non-blocking, goes to *RET_READ.  A negative
   errno with ERR set when it cannot be made.  */
int ash_linux_ready_pipe (struct ash_cmd *cmd, int *ret_read,
                          struct ash_error *err);
/* Whether the wrapper wrote to the pipe whose read end is FD: the
   sandbox was set up and the command about to run.  */
bool ash_linux_ready_seen (int fd);
/* The start of the small file PATH (a sysctl, a /proc entry) in BUF,
   at most SIZE - 1 bytes, always terminated; empty when it cannot be
   read.  */
void ash_linux_read_short (const char *path, char *buf, size_t size);
/* The inode number of ASH's own mount namespace, or 0.  */
unsigned long long ash_linux_own_mount_ns (void);

/* The socket filter for SOCKETS as a sealed memfd (socket-filter.h), built
   the first time it is asked for and kept open, close-on-exec, for the
   life of the process: the caller passes it to the wrapper
   (--seccomp-fd) and never closes it.  A negative errno with ERR set when
   it cannot be built.  Thread-safe.  */
int ash_linux_socket_filter_fd (enum ash_socket_policy sockets,
                                struct ash_error *err);
/* Start building the socket filter for SOCKETS on a thread of its own,
   unless it is built or being built, so that the first
   ash_linux_socket_filter_fd() for it finds it ready, or waits for that
   build rather than starting its own; a program made at build time is
   written here instead, which costs less than the thread.  A build that
   fails or a thread that cannot start leaves it unbuilt:
   ash_linux_socket_filter_fd() then builds it, and reports the error.  */
void ash_linux_socket_filter_prepare (enum ash_socket_policy sockets);

/* Find the tool NAME (bwrap, firejail, readlink, true) by the toolfind
   rules of HOST.  On failure returns a negative errno (-ENOENT when it is
   not installed, counting one found only inside the scanned directory as
   not installed) and *RET_WHY, when RET_WHY is not NULL, says why.  */
int ash_linux_find_tool (const struct ash_host *host, const char *name,
                         char **ret_path, char **ret_why);

/* Open the absolute PATH once, refusing a link at any component (-ELOOP):
   openat2 with RESOLVE_NO_SYMLINKS, or one component at a time with
   O_PATH | O_NOFOLLOW where the kernel lacks it.  With DIR, PATH must be a
   directory.  An O_PATH descriptor (close-on-exec, above 2), or a negative
   errno.  */
int ash_linux_open_no_links (const char *path, bool dir);

/* Whether UID and GID (not root's) may reach and read PATH by its modes
   alone (each directory on the way searchable, PATH readable, and
   searchable when a directory).  */
bool ash_linux_reachable_by (const char *path, uid_t uid, gid_t gid);

/* Find ash-landlock-exec for HOST; NULL when it is not there.  */
char *ash_linux_find_helper (const struct ash_host *host);

/* Find ash-landlock-exec for the probe of the backend NAME (bwrap,
   firejail); when it is not there, fill RET->reason and return NULL.  */
char *ash_linux_probe_helper (const struct ash_host *host, const char *name,
                              struct ash_probe *ret);

/* The home directory a policy hides and HOME points at: the policy's HOME,
   else the passwd entry's home, else NULL.  */
const char *ash_linux_policy_home (const struct ash_policy *policy);

/* Trim trailing white space from S in place and return it.  */
char *ash_linux_chomp (char *s);

/* Fill RET (cleared first) with the environment of a sandboxed command:
   the policy's filtered environment, HOME (unset when NULL) and TMPDIR
   pointing at the backend's private directories, and the private caches
   the policy names.  */
void ash_linux_sandbox_env (const struct ash_policy *policy, const char *home,
                            const char *tmpdir, struct ash_strvec *ret);

/* Run ARGV (argv[0] absolute) as a probe: no sandbox scope, a minimal
   environment, working directory /, a timeout.  *RET_OUT gets stdout,
   *RET_ERR stderr joined into one line (both newly allocated), and
   *RET_STATUS the exit status (-1 when it could not start or timed out).
   Returns 0 when it ran, else a negative errno with *RET_ERR saying why.  */
int ash_linux_probe_run (char *const *argv, char **ret_out, char **ret_err,
                         int *ret_status);

#endif
