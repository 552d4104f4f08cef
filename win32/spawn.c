/* SPDX-License-Identifier: Apache-2.0 */
/* spawn.c -- proc/spawn.h for Windows, in place of lib/proc/spawn.c.

   Windows has no sandbox backend, and this build starts no program at all:
   not a scanner, not a tool's version probe, not git.  Every command is
   refused with a reason that says where ASH can run its scanners, so a
   scan with --sandbox off records each scanner it would run as not
   startable rather than running anything.  */

#include <config.h>

#include "proc/spawn.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

void
ash_spawn_terminate_all (void)
{
}

void
ash_cmd_init (struct ash_cmd *cmd)
{
  memset (cmd, 0, sizeof *cmd);
  ash_strvec_init (&cmd->argv);
  ash_strvec_init (&cmd->env);
  cmd->stdin_fd = cmd->stdout_fd = cmd->stderr_fd = -1;
  ash_buf_init (&cmd->out);
  ash_buf_init (&cmd->err);
  for (size_t i = 0; i < ASH_CMD_MAX_PASS_FDS; i++)
    cmd->pass_fds[i] = -1;
}

void
ash_cmd_release (struct ash_cmd *cmd)
{
  ash_strvec_release (&cmd->argv);
  ash_strvec_release (&cmd->env);
  free (cmd->cwd);
  cmd->cwd = NULL;
  ash_buf_release (&cmd->out);
  ash_buf_release (&cmd->err);
}

int
ash_cmd_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
             struct ash_error *err)
{
  const char *path = cmd->argv.nr ? cmd->argv.v[0] : "";

  if (ret)
    memset (ret, 0, sizeof *ret);
  if (cmd->scope && cmd->scope->kind == ASH_SCOPE_REFUSE)
    return cmd->scope->refusal && cmd->scope->refusal->message
             ? ash_error_copy (err, -EPERM, cmd->scope->refusal)
             : ash_error_set (err, -EPERM, "%s", "");
  return ash_error_set (err, -ENOSYS,
                        _ ("cannot run '%s': ASH on Windows starts no "
                           "programs; run ASH under WSL2, or use --mode "
                           "container"),
                        path);
}
