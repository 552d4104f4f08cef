/* SPDX-License-Identifier: Apache-2.0 */
/* run.c -- start a command confined by its scope.

   The one way a command with a sandboxing scope starts: the backend's
   wrap() rewrites a private copy of the command, proc/spawn.c starts it,
   and the backend's cleanup() undoes what wrap() set up on the host.  */

#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/chown.h"
#include "sandbox/backend.h"
#include "sandbox/policy.h"

/* The account a scanner runs as when ASH runs as root: ASH_SCANNER_USER,
   a user name or UID[:GID], by default nobody (65534:65534 when there is
   no such entry).  Root itself is refused.  */
/* The last account found, by the ASH_SCANNER_USER it was found for
   (NULL: unset or empty): every sandboxed spawn asks, and a look-up by
   name reads the passwd database.  */
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static char *ids_spec;
static bool ids_known;
static uid_t ids_uid;
static gid_t ids_gid;

static int scanner_ids_lookup (const char *spec, uid_t *ret_uid,
                               gid_t *ret_gid, struct ash_error *err);

int
ash_sandbox_scanner_ids (uid_t *ret_uid, gid_t *ret_gid, struct ash_error *err)
{
  const char *spec = getenv ("ASH_SCANNER_USER");
  uid_t uid = 0;
  gid_t gid = 0;
  int r;

  if (spec && !*spec)
    spec = NULL;
  pthread_mutex_lock (&ids_lock);
  if (ids_known
      && (spec ? ids_spec && streq (ids_spec, spec) : ids_spec == NULL))
    {
      *ret_uid = ids_uid;
      *ret_gid = ids_gid;
      pthread_mutex_unlock (&ids_lock);
      return 0;
    }
  pthread_mutex_unlock (&ids_lock);
  r = scanner_ids_lookup (spec, &uid, &gid, err);
  if (r < 0)
    return r;
  pthread_mutex_lock (&ids_lock);
  free (ids_spec);
  ids_spec = spec ? xstrdup (spec) : NULL;
  ids_uid = uid;
  ids_gid = gid;
  ids_known = true;
  pthread_mutex_unlock (&ids_lock);
  *ret_uid = uid;
  *ret_gid = gid;
  return 0;
}

static int
scanner_ids_lookup (const char *spec, uid_t *ret_uid, gid_t *ret_gid,
                    struct ash_error *err)
{
  const char *name = spec ? spec : "nobody";
  struct passwd *pw;
  char *end;
  unsigned long u, g;

  if (name[0] >= '0' && name[0] <= '9')
    {
      errno = 0;
      u = strtoul (name, &end, 10);
      g = u;
      if (!errno && *end == ':')
        g = strtoul (end + 1, &end, 10);
      if (errno || *end != '\0' || u > 0x7fffffffUL || g > 0x7fffffffUL)
        return ash_error_set (err, -EINVAL,
                              _ ("ASH_SCANNER_USER=%s is neither a user "
                                 "name nor UID[:GID]"),
                              name);
    }
  else if ((pw = getpwnam (name)) != NULL)
    {
      u = pw->pw_uid;
      g = pw->pw_gid;
    }
  else if (!spec || !*spec)
    u = g = 65534;
  else
    return ash_error_set (err, -ENOENT,
                          _ ("ASH_SCANNER_USER=%s: no such user"), name);
  if (u == 0 || g == 0)
    return ash_error_set (err, -EPERM,
                          _ ("ASH_SCANNER_USER=%s is root; a sandboxed "
                             "scanner never runs as root"),
                          name);
  *ret_uid = (uid_t) u;
  *ret_gid = (gid_t) g;
  return 0;
}

int
ash_sandbox_drop_root (const struct ash_policy *policy, struct ash_cmd *w,
                       struct ash_error *err)
{
  uid_t uid;
  gid_t gid;
  int r = ash_sandbox_scanner_ids (&uid, &gid, err);

  if (r < 0)
    return r;
  if (policy->results_dir)
    {
      r = ash_tree_chown_all (policy->results_dir, uid, gid, err);
      if (r < 0 && r != -ENOENT)
        return r;
    }
  if (policy->run_config_dir)
    {
      r = ash_tree_chown_all (policy->run_config_dir, uid, gid, err);
      if (r < 0 && r != -ENOENT)
        return r;
    }
  ash_error_release (err);
  w->set_ids = true;
  w->user_id = uid;
  w->group_id = gid;
  return 0;
}

/* A private copy of CMD for a backend to rewrite.  */
static void
cmd_copy (struct ash_cmd *dst, const struct ash_cmd *src)
{
  ash_cmd_init (dst);
  ash_strvec_pushv (&dst->argv, src->argv.v);
  ash_strvec_pushv (&dst->env, src->env.v);
  dst->cwd = src->cwd ? xstrdup (src->cwd) : NULL;
  dst->stdin_mode = src->stdin_mode;
  dst->stdout_mode = src->stdout_mode;
  dst->stderr_mode = src->stderr_mode;
  dst->stdin_fd = src->stdin_fd;
  dst->stdout_fd = src->stdout_fd;
  dst->stderr_fd = src->stderr_fd;
  dst->out.max
    = src->out.max
        ? (src->out.len < src->out.max ? src->out.max - src->out.len : 1)
        : 0;
  dst->err.max
    = src->err.max
        ? (src->err.len < src->err.max ? src->err.max - src->err.len : 1)
        : 0;
  dst->timeout_sec = src->timeout_sec;
  dst->kill_grace_sec = src->kill_grace_sec;
  dst->scope = NULL;
  for (size_t i = 0; i < src->n_pass_fds && i < ASH_CMD_MAX_PASS_FDS; i++)
    dst->pass_fds[i] = src->pass_fds[i];
  dst->n_pass_fds = src->n_pass_fds;
  dst->limits = src->limits;
  dst->set_ids = src->set_ids;
  dst->user_id = src->user_id;
  dst->group_id = src->group_id;
  dst->while_running = src->while_running;
  dst->while_running_arg = src->while_running_arg;
}

static void
capture_move (struct ash_buf *dst, struct ash_buf *src, bool *truncated)
{
  size_t take = src->len;
  if (dst->max)
    {
      size_t room = dst->len < dst->max ? dst->max - dst->len : 0;
      if (take > room)
        {
          take = room;
          *truncated = true;
        }
    }
  if (take > 0 && ash_buf_add (dst, src->buf, take) < 0)
    *truncated = true;
}

/* The wrapped command's while_running hook: the backend's running()
   first, then the caller's own hook.  */
struct running_hook
{
  const struct ash_backend *be;
  struct ash_wrap_state *state;
  void (*fn) (void *arg);
  void *arg;
};

static void
sandbox_running (void *p)
{
  struct running_hook *h = p;

  if (h->be->running)
    h->be->running (h->state);
  if (h->fn)
    h->fn (h->arg);
}

int
ash_sandbox_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
                 struct ash_error *err)
{
  const struct ash_scope *scope = cmd->scope;

  if (!scope || scope->kind != ASH_SCOPE_SANDBOX)
    return ash_cmd_run (cmd, ret, err);

  if (!scope->backend || !scope->backend->wrap)
    return ash_error_set (err, -EINVAL,
                          _ ("cannot run '%s': no sandbox backend to run it "
                             "in"),
                          cmd->argv.nr ? cmd->argv.v[0] : "");

  const struct ash_backend *be = scope->backend;
  struct ash_wrap_state *state = NULL;
  struct ash_cmd w;
  int r;
  cmd_copy (&w, cmd);
  if (geteuid () == 0 && scope->policy && !w.set_ids)
    {
      r = ash_sandbox_drop_root (scope->policy, &w, err);
      if (r < 0)
        {
          ash_cmd_release (&w);
          return r;
        }
    }
  r = be->wrap (scope->probe, scope->policy, &w, &state, err);
  if (r < 0)
    {
      if (err && !err->message)
        ash_error_set (err, r, _ ("cannot run '%s' in the %s sandbox: %s"),
                       cmd->argv.nr ? cmd->argv.v[0] : "", be->name,
                       strerror (-r));
      ash_cmd_release (&w);
      return r;
    }

  struct running_hook hook
    = { be, state, w.while_running, w.while_running_arg };
  if (be->running)
    {
      w.while_running = sandbox_running;
      w.while_running_arg = &hook;
    }
  r = ash_cmd_run (&w, ret, err);
  /* The sandbox itself could not be started, or not set up: whatever its
     probe said (from this run or the probe cache), it is probed again
     next time.  */
  bool dropped = r < 0 || (be->started && !be->started (state, ret));
  if (be->cleanup)
    be->cleanup (state);
  if (dropped)
    ash_backend_probe_drop (be);
  if (r >= 0)
    {
      capture_move (&cmd->out, &w.out, &ret->out_truncated);
      capture_move (&cmd->err, &w.err, &ret->err_truncated);
    }
  ash_cmd_release (&w);
  return r;
}
