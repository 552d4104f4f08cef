/* SPDX-License-Identifier: Apache-2.0 */
/* bwrap.c -- the bubblewrap backend.

   bwrap builds the root from an empty tmpfs and mounts into it only what the
   policy lists, in new user, mount, PID, IPC, UTS, cgroup and (without a
   network) network namespaces.  The scanner starts through the wrapper's
   socket-filter mode, because bwrap's mounts do not hide a Unix socket in a
   directory they show, nor the abstract sockets of a shared network
   namespace.  */

#include <config.h>

#include "backends.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"

/* Top-level directories that a merged-/usr host has as links into /usr.
   They are recreated as the same links, so that #! lines and the dynamic
   loader's /lib64 keep working; the policy mounts /usr itself.  */
static const char *const merged_usr_links[] = {
  "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
};

/* The parts of /proc through which a process whose uid is root on the
   host changes the host (core_pattern, sysrq-trigger, IRQ affinity, bus
   settings): the kernel checks the file's mode there against the uid, not a
   capability, and a new user namespace maps root to root.  They are bound
   read-only over the new /proc, as bwrap itself does only without a user
   namespace.  */
static const char *const proc_covered[] = {
  "/proc/sys",
  "/proc/sysrq-trigger",
  "/proc/irq",
  "/proc/bus",
};

static void
push_proc (struct ash_strvec *argv)
{
  ash_strvec_push (argv, "--proc");
  ash_strvec_push (argv, "/proc");
  for (size_t i = 0; i < ARRAY_SIZE (proc_covered); i++)
    {
      ash_strvec_push (argv, "--ro-bind-try");
      ash_strvec_push (argv, proc_covered[i]);
      ash_strvec_push (argv, proc_covered[i]);
    }
}

/* In increasing strength: of two mounts of one path, the stronger is
   emitted.  */
enum mount_kind
{
  MOUNT_TMPFS,
  MOUNT_RO,
  MOUNT_OVERLAY,
  MOUNT_RW,
};

struct mount_op
{
  const char *path;
  enum mount_kind kind;
  size_t seq; /* insertion order, for a stable sort */
};

static size_t
path_depth (const char *path)
{
  size_t n = 0;

  for (const char *p = path; *p; p++)
    if (*p == '/' && p[1] != '\0' && p[1] != '/')
      n++;
  return n;
}

/* Parents before children, so that a bind inside another one (the results
   directory inside the output directory inside the source tree), or inside
   the private /tmp and $HOME, lands on top.  */
static int
mount_op_cmp (const void *a, const void *b)
{
  const struct mount_op *x = a, *y = b;
  size_t dx = path_depth (x->path), dy = path_depth (y->path);
  int c;

  if (dx != dy)
    return dx < dy ? -1 : 1;
  c = strcmp (x->path, y->path);
  if (c != 0)
    return c;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool
is_merged_usr_link (const char *path)
{
  for (size_t i = 0; i < ARRAY_SIZE (merged_usr_links); i++)
    if (streq (path, merged_usr_links[i]))
      {
        struct stat st;
        return lstat (path, &st) == 0 && S_ISLNK (st.st_mode);
      }
  return false;
}

static void
push_merged_usr_links (struct ash_strvec *argv)
{
  for (size_t i = 0; i < ARRAY_SIZE (merged_usr_links); i++)
    {
      const char *p = merged_usr_links[i];
      char target[256];
      struct stat st;
      ssize_t n;

      if (lstat (p, &st) < 0 || !S_ISLNK (st.st_mode))
        continue;
      n = readlink (p, target, sizeof target - 1);
      if (n <= 0)
        continue;
      target[n] = '\0';
      ash_strvec_push (argv, "--symlink");
      ash_strvec_push (argv, target);
      ash_strvec_push (argv, p);
    }
}

static void
push_namespaces (struct ash_strvec *argv, bool network)
{
  ash_strvec_push (argv, "--unshare-user");
  ash_strvec_push (argv, "--unshare-ipc");
  ash_strvec_push (argv, "--unshare-pid");
  ash_strvec_push (argv, "--unshare-uts");
  ash_strvec_push (argv, "--unshare-cgroup-try");
  if (!network)
    ash_strvec_push (argv, "--unshare-net");
  ash_strvec_push (argv, "--die-with-parent");
  ash_strvec_push (argv, "--new-session");
  /* As root, bwrap would otherwise keep every capability inside its user
     namespace, where uid 0 is still mapped to the owner of most files.  */
  ash_strvec_push (argv, "--cap-drop");
  ash_strvec_push (argv, "ALL");
}

/* Close the O_PATH descriptors wrap() handed bwrap (the caller passes
   none of that kind).  */
static void
close_path_fds (struct ash_cmd *cmd)
{
  unsigned kept = 0;

  for (unsigned i = 0; i < cmd->n_pass_fds; i++)
    {
      int fl = fcntl (cmd->pass_fds[i], F_GETFL);
      if (fl >= 0 && (fl & O_PATH))
        close (cmd->pass_fds[i]);
      else
        cmd->pass_fds[kept++] = cmd->pass_fds[i];
    }
  cmd->n_pass_fds = kept;
}

/* Take the shared socket-filter descriptor FD back out of what CMD
   passes on (a wrap() that failed), without closing it.  */
static void
drop_filter_fd (struct ash_cmd *cmd, int fd)
{
  unsigned kept = 0;

  for (unsigned i = 0; i < cmd->n_pass_fds; i++)
    if (cmd->pass_fds[i] != fd)
      cmd->pass_fds[kept++] = cmd->pass_fds[i];
  cmd->n_pass_fds = kept;
}

/* Where the installed bwrap has --bind-fd, the results directory (read
   and write) and the scanned data are handed to it as descriptors opened
   here once, so that a local user who can write a directory above one of
   them cannot swap it for a link between ash's checks and bwrap's mount.
   When ash runs as root, bwrap runs as the scanner account, which cannot
   reach everything root's policy mounts (a tool directory under /root):
   every other path is then handed over the same way (a path reached
   through a link as its target, resolved once here).  0 with *RET_FD the
   descriptor for PATH, or -1 to bind it by name; a negative errno when
   the data cannot be opened that way (a link on the way: nothing
   runs).  */
static int
bind_fd_for (const struct ash_linux_probe *probe, struct ash_cmd *cmd,
             const char *path, bool data, int *ret_fd)
{
  int fd;

  *ret_fd = -1;
  if (!probe->bind_fd || !(data || cmd->set_ids)
      || cmd->n_pass_fds >= ASH_CMD_MAX_PASS_FDS)
    return 0;
  /* A path resolved through a link now was swapped after the policy was
     made.  */
  fd = ash_linux_open_no_links (path, data);
  if (fd == -ELOOP && !data)
    {
      _cleanup_free_ char *real = realpath (path, NULL);
      fd = real ? ash_linux_open_no_links (real, false) : -errno;
    }
  if (fd == -ENOENT || (!data && fd < 0))
    return 0;
  if (fd < 0)
    return fd;
  cmd->pass_fds[cmd->n_pass_fds++] = fd;
  *ret_fd = fd;
  return 0;
}

/* What one wrap() opened for bwrap: the descriptors it hands over.  */
struct bwrap_state
{
  struct ash_wrap_state base;
  int fds[ASH_CMD_MAX_PASS_FDS];
  unsigned n;
  int ready; /* the read end of the wrapper's --ready-fd */
};

static int
bwrap_wrap (const struct ash_probe *base, const struct ash_policy *policy,
            struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
            struct ash_error *err)
{
  const struct ash_linux_probe *probe = ash_linux_probe_of (base);
  struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_strvec env = ASH_STRVEC_INIT;
  _cleanup_free_ struct mount_op *ops = NULL;
  size_t n_ops = 0;
  const char *home = ash_linux_policy_home (policy);
  unsigned n_fds_before = cmd->n_pass_fds;
  int filter_fd, ready_fd, ready_read = -1;

  *ret_state = NULL;
  if (policy->refusal.message)
    return ash_policy_refused (policy, err);
  if (!probe || !probe->base.usable || !probe->tool || !probe->helper)
    return ash_error_set (err, -EINVAL, _ ("bwrap is not usable here"));
  if (cmd->argv.nr == 0 || cmd->argv.v[0][0] != '/')
    return ash_error_set (err, -EINVAL,
                          _ ("a sandboxed command must start with an "
                             "absolute path"));

  /* The socket filter, built once for every scanner (without a network,
     bwrap gives the command a network namespace of its own: IP sockets
     stay for its loopback).  bwrap passes the descriptor on to the
     wrapper.  Shared by every spawn, so not in the state's descriptors,
     which cleanup() closes.  */
  filter_fd = ash_linux_socket_filter_fd (policy->network ? ASH_SOCKETS_NETWORK
                                                          : ASH_SOCKETS_NETNS,
                                          err);
  if (filter_fd < 0)
    return filter_fd;
  if (cmd->n_pass_fds >= ASH_CMD_MAX_PASS_FDS)
    return ash_error_set (err, -EMFILE,
                          _ ("the bwrap sandbox is given more than %d "
                             "descriptors"),
                          ASH_CMD_MAX_PASS_FDS);
  cmd->pass_fds[cmd->n_pass_fds++] = filter_fd;
  n_fds_before = cmd->n_pass_fds;

  ops = xcalloc (policy->n_paths + 4, sizeof *ops);
  ops[n_ops++] = (struct mount_op){ "/tmp", MOUNT_TMPFS, n_ops };
  if (home)
    ops[n_ops++] = (struct mount_op){ home, MOUNT_TMPFS, n_ops };
  ops[n_ops++] = (struct mount_op){ probe->helper, MOUNT_RO, n_ops };
  for (size_t i = 0; i < policy->n_paths; i++)
    {
      const struct ash_policy_path *pp = &policy->paths[i];
      enum mount_kind kind;

      if (pp->path[0] != '/' || streq (pp->path, "/")
          || is_merged_usr_link (pp->path)
          || ash_path_is_inside (pp->path, "/proc")
          || ash_path_is_inside (pp->path, "/dev"))
        continue;
      /* As root, bwrap runs as the scanner account, which must reach
         what it mounts: a path only root can reach (a tool directory
         under /root) would be no use to the scanner anyway and is left
         out; the scanned data must be readable to it.  */
      if (cmd->set_ids && pp->access != ASH_ACCESS_HIDE
          && pp->access != ASH_ACCESS_WRITE
          && !ash_linux_reachable_by (pp->path, cmd->user_id, cmd->group_id))
        {
          if (pp->access == ASH_ACCESS_DATA && access (pp->path, F_OK) == 0)
            {
              drop_filter_fd (cmd, filter_fd);
              return ash_error_set (err, -EACCES,
                                    _ ("the scanner's user (uid %ld) cannot "
                                       "read %s; ash runs the scanners as "
                                       "that account when it runs as root"),
                                    (long) cmd->user_id, pp->path);
            }
          continue;
        }
      switch (pp->access)
        {
        case ASH_ACCESS_WRITE:
          kind = MOUNT_RW;
          break;
        case ASH_ACCESS_CACHE:
          kind = probe->base.cache_overlay ? MOUNT_OVERLAY : MOUNT_RO;
          break;
        case ASH_ACCESS_HIDE:
          kind = MOUNT_TMPFS;
          break;
        case ASH_ACCESS_READ:
        case ASH_ACCESS_DATA:
        default:
          kind = MOUNT_RO;
          break;
        }
      ops[n_ops++] = (struct mount_op){ pp->path, kind, n_ops };
    }
  if (policy->results_dir)
    ops[n_ops++] = (struct mount_op){ policy->results_dir, MOUNT_RW, n_ops };
  qsort (ops, n_ops, sizeof *ops, mount_op_cmp);

  ash_strvec_push (&argv, probe->tool);
  push_namespaces (&argv, policy->network);
  push_merged_usr_links (&argv);
  ash_strvec_push (&argv, "--dev");
  ash_strvec_push (&argv, "/dev");
  push_proc (&argv);
  for (size_t i = 0; i < n_ops; i++)
    {
      const char *p = ops[i].path;

      /* The same path twice (the results directory is both in the list
         and named on its own): the stronger mount was sorted last, and
         only it is emitted.  */
      if (i + 1 < n_ops && streq (ops[i + 1].path, p)
          && ops[i].kind != MOUNT_TMPFS)
        continue;
      switch (ops[i].kind)
        {
        case MOUNT_TMPFS:
          ash_strvec_push (&argv, "--tmpfs");
          ash_strvec_push (&argv, p);
          break;
        case MOUNT_RO:
        case MOUNT_RW:
          {
            bool rw = ops[i].kind == MOUNT_RW;
            const struct ash_policy_path *pp
              = ash_policy_find_path (policy, p);
            bool data = rw || (pp && pp->access == ASH_ACCESS_DATA);
            int fd;
            int r = bind_fd_for (probe, cmd, p, data, &fd);

            if (r < 0)
              {
                close_path_fds (cmd);
                drop_filter_fd (cmd, filter_fd);
                ash_strvec_release (&argv);
                return ash_error_set (err, r,
                                      _ ("%s cannot be handed to bwrap: %s "
                                         "(a link on its way?)"),
                                      p, strerror (-r));
              }
            if (fd >= 0)
              {
                ash_strvec_push (&argv, rw ? "--bind-fd" : "--ro-bind-fd");
                ash_strvec_pushf (&argv, "%d", fd);
              }
            else
              {
                ash_strvec_push (&argv, rw ? "--bind" : "--ro-bind-try");
                ash_strvec_push (&argv, p);
              }
            ash_strvec_push (&argv, p);
          }
          break;
        case MOUNT_OVERLAY:
          ash_strvec_push (&argv, "--overlay-src");
          ash_strvec_push (&argv, p);
          ash_strvec_push (&argv, "--tmp-overlay");
          ash_strvec_push (&argv, p);
          break;
        default:
          abort ();
        }
    }
  /* The FIFOs, sockets and devices of the tree, for a scanner that walks
     it itself: /dev/null bound over each, so that opening one reads
     nothing at once instead of blocking.  bwrap resolves the mount point
     inside the new root, where nothing from the tree can lead outside
     what the scanner sees anyway.  */
  for (size_t i = 0; i < policy->masked.nr; i++)
    {
      ash_strvec_push (&argv, "--ro-bind");
      ash_strvec_push (&argv, "/dev/null");
      ash_strvec_push (&argv, policy->masked.v[i]);
    }
  /* A hidden directory (the output directory) is an empty tmpfs with the
     results directory bound into it: read-only once the mounts inside it
     are made, so that nothing written there looks as if it had reached
     the output directory.  */
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access == ASH_ACCESS_HIDE
        && policy->paths[i].path[0] == '/'
        && !streq (policy->paths[i].path, "/")
        && (!home || !streq (policy->paths[i].path, home))
        && !streq (policy->paths[i].path, "/tmp"))
      {
        ash_strvec_push (&argv, "--remount-ro");
        ash_strvec_push (&argv, policy->paths[i].path);
      }
  if (cmd->cwd)
    {
      ash_strvec_push (&argv, "--chdir");
      ash_strvec_push (&argv, cmd->cwd);
    }
  ash_strvec_push (&argv, "--");
  /* bwrap passes the pipe on to the wrapper, which says when bwrap has
     set everything up: a bwrap that fails first (its namespaces refused)
     never does.  */
  ready_fd = ash_linux_ready_pipe (cmd, &ready_read, err);
  if (ready_fd < 0)
    {
      close_path_fds (cmd);
      drop_filter_fd (cmd, filter_fd);
      ash_strvec_release (&argv);
      return ready_fd;
    }
  ash_linux_filter_prefix (&argv, probe->helper, policy, policy->network,
                           false, filter_fd, ready_fd);
  ash_strvec_pushv (&argv, cmd->argv.v);

  /* bwrap passes its own environment on; it needs nothing from it.  */
  ash_linux_sandbox_env (policy, home, "/tmp", &env);

  ash_strvec_release (&cmd->argv);
  cmd->argv = argv;
  ash_strvec_release (&cmd->env);
  cmd->env = env;
  {
    struct bwrap_state *st = xzalloc (sizeof *st);
    st->base.backend = &ash_backend_bwrap;
    for (unsigned i = n_fds_before; i < cmd->n_pass_fds; i++)
      st->fds[st->n++] = cmd->pass_fds[i];
    st->ready = ready_read;
    *ret_state = &st->base;
  }
  return 0;
}

static bool
bwrap_started (const struct ash_wrap_state *base,
               const struct ash_cmd_result *result)
{
  const struct bwrap_state *state;

  (void) result;
  if (!base)
    return false;
  state = ash_container_of (base, const struct bwrap_state, base);
  return ash_linux_ready_seen (state->ready);
}

static bool
userns_restricted_by_apparmor (const char *stderr_text)
{
  FILE *f;
  int c = '0';

  if (strstr (stderr_text, "setting up uid map")
      || strstr (stderr_text, "RTM_NEWADDR"))
    return true;
  f = fopen ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "re");
  if (f)
    {
      c = fgetc (f);
      fclose (f);
    }
  return c == '1' && strstr (stderr_text, "Permission denied");
}

/* bwrap's own help lists the options it has; ask it rather than compare
   version numbers.  */
/* What this bwrap's --help lists: its throwaway overlays and its binds
   of open descriptors (features are asked of the tool, never read from
   its version).  */
static void
bwrap_features (const char *tool, bool *overlay, bool *bind_fd)
{
  char *const argv[] = { (char *) tool, (char *) "--help", NULL };
  _cleanup_free_ char *out = NULL, *errtext = NULL;
  int status;

  *overlay = *bind_fd = false;
  if (ash_linux_probe_run (argv, &out, &errtext, &status) < 0)
    return;
  *overlay = strstr (out, "--overlay-src") && strstr (out, "--tmp-overlay");
  *bind_fd = strstr (out, "--bind-fd") && strstr (out, "--ro-bind-fd");
}

/* The socket filter wrap() hands the wrapper for POLICY, built ahead.  */
static void
bwrap_prepare (const struct ash_probe *probe, const struct ash_policy *policy)
{
  (void) probe;
  if (!policy->refusal.message)
    ash_linux_socket_filter_prepare (policy->network ? ASH_SOCKETS_NETWORK
                                                     : ASH_SOCKETS_NETNS);
}

/* bwrap holds what it was handed once it has started: ASH's copies go
   while it runs.  */
static void
bwrap_running (struct ash_wrap_state *base)
{
  struct bwrap_state *state;

  if (!base)
    return;
  state = ash_container_of (base, struct bwrap_state, base);
  for (unsigned i = 0; i < state->n; i++)
    close (state->fds[i]);
  state->n = 0;
}

static void
bwrap_cleanup (struct ash_wrap_state *base)
{
  struct bwrap_state *state;

  if (!base)
    return;
  bwrap_running (base);
  state = ash_container_of (base, struct bwrap_state, base);
  if (state->ready >= 0)
    close (state->ready);
  free (state);
}

static int
bwrap_probe (const struct ash_host *host, struct ash_probe **retp)
{
  struct ash_linux_probe *ret = ash_linux_probe_new (&ash_backend_bwrap);
  struct ash_strvec argv = ASH_STRVEC_INIT;
  _cleanup_free_ char *tool = NULL, *helper = NULL, *true_path = NULL;
  _cleanup_free_ char *why = NULL, *out = NULL, *errtext = NULL;
  size_t base;
  int status, r;

  *retp = &ret->base;
  if (ash_linux_find_tool (host, "bwrap", &tool, NULL) < 0)
    {
      ret->base.reason = xstrdup (_ ("bwrap is not installed (install the "
                                     "'bubblewrap' package)"));
      return -ENOENT;
    }
  if (ash_linux_find_tool (host, "true", &true_path, &why) < 0)
    {
      ret->base.reason
        = xasprintf (_ ("bwrap cannot create a sandbox here (%s)"), why);
      return -ENOENT;
    }

  /* First bwrap alone, so that its own failure is told apart from the
     filter's.  The root is the host's, read-only: the probe asks whether
     the namespaces and mounts can be made, not what a policy shows.  */
  ash_strvec_push (&argv, tool);
  push_namespaces (&argv, false);
  ash_strvec_push (&argv, "--ro-bind");
  ash_strvec_push (&argv, "/");
  ash_strvec_push (&argv, "/");
  ash_strvec_push (&argv, "--dev");
  ash_strvec_push (&argv, "/dev");
  ash_strvec_push (&argv, "--proc");
  ash_strvec_push (&argv, "/proc");
  ash_strvec_push (&argv, "--tmpfs");
  ash_strvec_push (&argv, "/tmp");
  ash_strvec_push (&argv, "--");
  base = argv.nr;
  ash_strvec_push (&argv, true_path);
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  if (r < 0 || status != 0)
    {
      if (!*errtext)
        {
          free (errtext);
          errtext = xasprintf (_ ("exit status %d"), status);
        }
      if (userns_restricted_by_apparmor (errtext))
        ret->base.reason = xasprintf (
          _ ("bwrap cannot create a sandbox here (%s; unprivileged user "
             "namespaces are restricted by AppArmor: an AppArmor profile "
             "that grants userns to %s, or sysctl "
             "kernel.apparmor_restrict_unprivileged_userns=0, lifts it)"),
          errtext, tool);
      else
        ret->base.reason
          = xasprintf (_ ("bwrap cannot create a sandbox here (%s)"), errtext);
      ash_strvec_release (&argv);
      return -EPERM;
    }

  helper = ash_linux_probe_helper (host, "bwrap", &ret->base);
  if (!helper)
    {
      ash_strvec_release (&argv);
      return -ENOENT;
    }
  /* Drop "-- true" and show the wrapper, which may live in /tmp.  */
  while (argv.nr > base - 1)
    ash_strvec_remove (&argv, argv.nr - 1);
  ash_strvec_push (&argv, "--ro-bind");
  ash_strvec_push (&argv, helper);
  ash_strvec_push (&argv, helper);
  ash_strvec_push (&argv, "--");
  ash_linux_filter_prefix (&argv, helper, NULL, false, false, -1, -1);
  ash_strvec_push (&argv, true_path);
  free (out);
  free (errtext);
  out = errtext = NULL;
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  ash_strvec_release (&argv);
  if (r < 0 || status != 0)
    {
      if (!*errtext)
        {
          free (errtext);
          errtext = xasprintf (_ ("exit status %d"), status);
        }
      ret->base.reason = xasprintf (
        _ ("bwrap cannot apply the Unix-socket filter in its sandbox (%s)"),
        errtext);
      return -EPERM;
    }

  ret->base.usable = true;
  ret->tool = TAKE_PTR (tool);
  ret->helper = TAKE_PTR (helper);
  bwrap_features (ret->tool, &ret->base.cache_overlay, &ret->bind_fd);
  if (!ret->base.cache_overlay)
    ret->base.notes = xstrdup (_ ("throwaway cache overlays: not supported by "
                                  "this bwrap; caches are read-only"));
  return 0;
}

static int
bwrap_identity (const struct ash_host *host, struct ash_buf *ret)
{
  return ash_linux_identity (host, "bwrap", true, ret);
}

static int
bwrap_load (const json_t *obj, struct ash_probe **ret)
{
  return ash_linux_probe_load_for (&ash_backend_bwrap, obj, ret);
}

/* Whether the small file PATH starts with a non-zero number.  */
static bool
setting_on (const char *path)
{
  char buf[64];
  const char *p = buf;

  ash_linux_read_short (path, buf, sizeof buf);
  p += strspn (p, " \t");
  return *p >= '1' && *p <= '9';
}

/* Whether bwrap can still make its namespaces.  What a sysctl, the boot
   or ASH's own namespaces change is in the cache key already (see
   ash_linux_identity), so bwrap is run again only where something the
   key cannot show may refuse it: AppArmor restricting user namespaces
   (a profile that grants them can be unloaded), SELinux enforcing (a
   boolean can change), or a seccomp filter around ASH itself.  Anything
   else that stops bwrap at a spawn drops the entry there (the wrapper
   never reported that it started; see bwrap_started).  */
static int
bwrap_recheck (const struct ash_probe *probe, const struct ash_host *host)
{
  const struct ash_linux_probe *lp = ash_linux_probe_of (probe);
  struct ash_strvec argv = ASH_STRVEC_INIT;
  _cleanup_free_ char *true_path = NULL, *out = NULL, *errtext = NULL;
  int status = -1, r;

  if (!lp->tool || access (lp->tool, X_OK) < 0)
    return -ENOENT;
  /* prctl() answers for ASH's own seccomp mode wherever /proc/self/status
     would put it (after a Groups line of any length); a filter that
     refuses prctl() itself counts as one.  */
  if (!setting_on ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
      && !setting_on ("/sys/fs/selinux/enforce")
      && prctl (PR_GET_SECCOMP, 0, 0, 0, 0) == 0)
    return 0;
  if (ash_linux_find_tool (host, "true", &true_path, NULL) < 0)
    return -ENOENT;
  ash_strvec_push (&argv, lp->tool);
  push_namespaces (&argv, false);
  ash_strvec_push (&argv, "--ro-bind");
  ash_strvec_push (&argv, "/");
  ash_strvec_push (&argv, "/");
  ash_strvec_push (&argv, "--");
  ash_strvec_push (&argv, true_path);
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  ash_strvec_release (&argv);
  return r < 0 ? r : status == 0 ? 0 : -EPERM;
}

const struct ash_backend ash_backend_bwrap = {
  .name = "bwrap",
  .probe = bwrap_probe,
  .probe_free = ash_linux_probe_free,
  .wrap = bwrap_wrap,
  .cleanup = bwrap_cleanup,
  .running = bwrap_running,
  .prepare = bwrap_prepare,
  .identity = bwrap_identity,
  .save = ash_linux_probe_save,
  .load = bwrap_load,
  .recheck = bwrap_recheck,
  .started = bwrap_started,
};
