/* spawn.h -- the one choke point through which every child process starts.

   Scanners, tool version probes, converters and ASH's own git calls all go
   through ash_cmd_run() / ash_cmd_start().  No other file calls fork(),
   exec*(), posix_spawn*(), system() or popen() (a test enforces it).

   A command carries an explicit environment and a scope:
     - ASH_SCOPE_NONE: one of ASH's own spawns, run as is;
     - ASH_SCOPE_SANDBOX: the backend's wrap() rewrites the command so that it
       runs confined by the scope's policy;
     - ASH_SCOPE_REFUSE: the spawn fails with the scope's reason and nothing
       runs.  */

#ifndef ASH_SPAWN_H
#define ASH_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include "buf.h"
#include "error.h"
#include "strvec.h"

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
  const char *reason;                /* ASH_SCOPE_REFUSE */
};

/* What to do with a standard stream of the child.  */
enum ash_stdio
{
  ASH_STDIO_NULL = 0, /* /dev/null */
  ASH_STDIO_FD,       /* the fd given (not closed by spawn) */
  ASH_STDIO_CAPTURE,  /* captured into the command's buffer */
  ASH_STDIO_INHERIT,  /* ASH's own stream */
};

struct ash_cmd
{
  struct ash_strvec argv;  /* argv[0] is an absolute path, or a name looked
                              up with the toolfind rules by the caller */
  struct ash_strvec env;   /* explicit NAME=VALUE list; never inherited */
  char *cwd;               /* owned; NULL: ASH's working directory */
  enum ash_stdio stdin_mode, stdout_mode, stderr_mode;
  int stdin_fd, stdout_fd, stderr_fd;  /* for ASH_STDIO_FD */
  struct ash_buf out, err; /* for ASH_STDIO_CAPTURE; set .max to bound */
  unsigned timeout_sec;    /* 0: none */
  unsigned kill_grace_sec; /* SIGTERM to SIGKILL; 0 means the default 10 */
  const struct ash_scope *scope; /* NULL: ASH_SCOPE_NONE */
};

struct ash_cmd_result
{
  int status;      /* exit code, or 128 + signal */
  int term_signal; /* the signal that ended it, or 0 */
  bool timed_out;  /* killed after its timeout */
  double duration; /* seconds */
};

void ash_cmd_init (struct ash_cmd *cmd);
void ash_cmd_release (struct ash_cmd *cmd);

/* Run CMD to completion.  Returns 0 when the program ran (whatever its exit
   status, reported in RET), or a negative errno with ERR filled when it
   could not be started: exec failed (the errno comes back from the child),
   the scope refuses, or the backend could not wrap it.  */
int ash_cmd_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
                 struct ash_error *err);

/* End every child started through ash_cmd_run() that is still running
   (SIGTERM to its process group, SIGKILL after the grace period).  Safe to
   call from any thread; used on SIGINT/SIGTERM.  */
void ash_spawn_terminate_all (void);

#endif
