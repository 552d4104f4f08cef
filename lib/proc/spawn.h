/* SPDX-License-Identifier: Apache-2.0 */
/* spawn.h -- the one choke point through which every child process starts.

   Scanners, tool version probes, converters and ASH's own git calls all go
   through ash_cmd_run().  No other file calls fork(), exec*(),
   posix_spawn*(), system() or popen() (build-aux/check-spawn-sites enforces
   it).

   The child leads its own process group, gets exactly CMD->env as its
   environment, keeps no descriptor above stderr except CMD->pass_fds, and
   starts with an empty signal mask and default dispositions.  A SIGCHLD
   that ASH finds ignored (or set with SA_NOCLDWAIT, as it may inherit
   either) is set back to the default, since it would make the kernel
   discard every child's exit status.  When the
   program ends, whatever it left running in its process group is killed.
   Being in its own process group, a child is in the background on a
   terminal: give it ASH_STDIO_NULL or a file as stdin, not the terminal.

   A command carries an explicit environment and a scope:
     - ASH_SCOPE_NONE: one of ASH's own spawns, run as is;
     - ASH_SCOPE_SANDBOX: the backend's wrap() rewrites the command so that it
       runs confined by the scope's policy (ash_sandbox_run() only: this
       layer knows no backend and refuses such a command);
     - ASH_SCOPE_REFUSE: the spawn fails with the scope's reason and nothing
       runs.  */

#ifndef ASH_SPAWN_H
#define ASH_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"

struct ash_backend;
struct ash_probe;
struct ash_policy;

enum ash_scope_kind
{
  ASH_SCOPE_NONE = 0,
  ASH_SCOPE_SANDBOX,
  ASH_SCOPE_REFUSE,
};

struct ash_scope
{
  enum ash_scope_kind kind;
  const struct ash_backend *backend; /* ASH_SCOPE_SANDBOX */
  const struct ash_probe *probe;     /* ASH_SCOPE_SANDBOX */
  const struct ash_policy *policy;   /* ASH_SCOPE_SANDBOX */
  const struct ash_error *refusal;   /* ASH_SCOPE_REFUSE: why, with its
                                        kind; borrowed */
};

/* What to do with a standard stream of the child.  */
enum ash_stdio
{
  ASH_STDIO_NULL = 0, /* /dev/null */
  ASH_STDIO_FD,       /* the fd given (not closed by spawn) */
  ASH_STDIO_CAPTURE,  /* captured into the command's buffer */
  ASH_STDIO_INHERIT,  /* ASH's own stream */
};

/* Descriptors a command may pass to its child besides stdio.  */
#define ASH_CMD_MAX_PASS_FDS 64

/* Resource limits set in the child before it runs the program (each
   both soft and hard, so that it cannot raise them; 0: left as it is).
   They hold for everything the program starts, a sandbox wrapper and the
   scanner alike.  */
struct ash_cmd_limits
{
  unsigned long long nproc; /* RLIMIT_NPROC: processes of its real uid (per
                               user namespace since Linux 5.14) */
  unsigned long long as;    /* RLIMIT_AS: bytes of address space */
  unsigned long long fsize; /* RLIMIT_FSIZE: bytes of any file it writes */
  /* Control groups the child joins before it runs the program, while it
     has one thread: each an open cgroup.procs or, in cgroup v1, tasks
     (close-on-exec), written "0" (proc/cgroup.h).  */
  int cgroup_procs_fd[2];
  unsigned n_cgroup_procs_fds;
};

struct ash_cmd
{
  struct ash_strvec argv; /* argv[0] must be an absolute path (find it
                             with ash_toolfind()); no PATH search */
  struct ash_strvec env;  /* explicit NAME=VALUE list; never inherited */
  char *cwd;              /* owned; NULL: ASH's working directory */
  enum ash_stdio stdin_mode, stdout_mode, stderr_mode;
  int stdin_fd, stdout_fd, stderr_fd; /* for ASH_STDIO_FD */
  struct ash_buf out, err; /* for ASH_STDIO_CAPTURE (appended to); set .max
                              to bound, the excess is read and dropped */
  unsigned timeout_sec;    /* 0: none */
  unsigned kill_grace_sec; /* SIGTERM to SIGKILL; 0 means the default 10 */
  const struct ash_scope *scope; /* NULL: ASH_SCOPE_NONE */
  /* Descriptors the child keeps open under the same number (a backend's
     wrap() may add some, e.g. bwrap's --seccomp FD).  Not closed by spawn;
     each must be above 2.  */
  int pass_fds[ASH_CMD_MAX_PASS_FDS];
  unsigned n_pass_fds;
  /* The child starts a new session (setsid()) rather than only a process
     group: it has no controlling terminal (sandbox-exec's wrap() sets
     it).  It still leads its own process group.  */
  bool new_session;
  struct ash_cmd_limits limits;
  /* Run the program as USER_ID and GROUP_ID, with no supplementary
     groups (set after the limits, the control groups and the working
     directory, just before exec; ASH as root starts sandboxed scanners
     so).  */
  bool set_ids;
  uid_t user_id;
  gid_t group_id;
  /* Called once, on the calling thread, when the program has started
     (its exec succeeded) and before it is waited for: work that need not
     precede the program, done while it runs instead of after it.  It
     must not block; the program's exit is noticed once it returns.  May
     be NULL.  */
  void (*while_running) (void *arg);
  void *while_running_arg;
};

struct ash_cmd_result
{
  int status;                        /* exit code, or 128 + signal */
  int term_signal;                   /* the signal that ended it, or 0 */
  bool timed_out;                    /* killed after its timeout */
  double duration;                   /* seconds */
  bool interrupted;                  /* ended by ash_spawn_terminate_all() */
  bool out_truncated, err_truncated; /* capture hit the buffer's max */
};

void ash_cmd_init (struct ash_cmd *cmd);
/* Safe on a zeroed command and on one already released.  */
void ash_cmd_release (struct ash_cmd *cmd);
#define _cleanup_cmd_ _cleanup_ (ash_cmd_release)

/* Run CMD to completion, unconfined.  Returns 0 when the program ran
   (whatever its exit status, reported in RET), or a negative errno with ERR
   filled when it could not be started: exec failed (the errno comes back
   from the child: "cannot run '/path': No such file or directory"), the
   working directory could not be entered, argv[0] is not absolute
   (-EINVAL), or the scope refuses (-EPERM, the scope's reason as the
   message).  A sandboxing scope is refused here too (-EPERM): only
   ash_sandbox_run() (sandbox/backend.h), which hands the command to the
   backend's wrap() first, starts such a command.  Safe to call from
   several threads at once (each with its own CMD).  */
int ash_cmd_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
                 struct ash_error *err);

/* End every child started through ash_cmd_run() that is still running
   (SIGTERM to its process group now; the ash_cmd_run() waiting for it sends
   SIGKILL after the command's grace period, and reports interrupted).  A
   command that was being started at that moment is ended too; commands
   started afterwards run normally.  Safe to call from any thread and from a
   signal handler (it only uses atomics and kill()).  */
void ash_spawn_terminate_all (void);

#endif
