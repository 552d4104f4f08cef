/* SPDX-License-Identifier: Apache-2.0 */
/* landlock.c -- the Landlock backend.

   The command is rewritten to start ash-landlock-exec, which restricts
   itself with Landlock (read and execute beneath the read-only paths, full
   access beneath the results directory and a private TMPDIR and HOME) and
   the seccomp socket filter, starts a new session, and runs the scanner as
   a child subreaper.  Landlock can only grant, not mount, so the private
   TMPDIR and HOME are fresh directories made here for each spawn and
   removed after it, and each path the policy grants under the real home
   appears in the private one as a link to the real path.  */

#include <config.h>

#include "backends.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "fs/chown.h"
#include "fs/owndir.h"
#include "landlock-uapi.h"
#include "private-dir.h"

#define PRIVATE_PREFIX "ash-landlock-"

/* The private directory of a spawn holds its TMPDIR and HOME.  */
static const char *const private_subdirs[] = { "tmp", "home", NULL };

/* The wrapper's exit statuses in --probe mode (linux/landlock-exec.h).  */
#define LANDLOCK_EXIT_UNAVAILABLE 121
#define LANDLOCK_EXIT_OLD_ABI 122

/* What wrap() made for one spawn: the private directory holding its
   TMPDIR and HOME, which cleanup() removes.  */
struct landlock_state
{
  struct ash_wrap_state base;
  char *dir;
  int fds[ASH_CMD_MAX_PASS_FDS]; /* handed to the wrapper */
  unsigned n_fds;
  int ready; /* the read end of the wrapper's --ready-fd, or -1 */
};

/* Where the private directories are made: ASH's own directory in TMPDIR
   (or /tmp), whose stale entries are found without reading TMPDIR.  */
static const char *
tmp_base (void)
{
  const char *t = getenv ("TMPDIR");

  return ash_own_tmp_dir (t && t[0] == '/' ? t : "/tmp");
}

/* Hand the wrapper FD for the path that follows: "--fd FD".  */
static int
pass_fd (struct ash_cmd *cmd, struct landlock_state *st,
         struct ash_strvec *argv, int fd, struct ash_error *err)
{
  if (cmd->n_pass_fds >= ASH_CMD_MAX_PASS_FDS)
    {
      ash_close (fd);
      return ash_error_set (err, -EMFILE,
                            _ ("the Landlock sandbox is given more than %d "
                               "paths"),
                            ASH_CMD_MAX_PASS_FDS);
    }
  cmd->pass_fds[cmd->n_pass_fds++] = fd;
  st->fds[st->n_fds++] = fd;
  ash_strvec_push (argv, "--fd");
  ash_strvec_pushf (argv, "%d", fd);
  return 0;
}

/* Open the policy path PATH, granted with ACCESS, once, for a Landlock rule
   made from the descriptor: never through a link at any component, so that
   a local user who can write a directory above it cannot swap it for a
   link between this check and the wrapper's rule.  A read-only path that
   is reached through a link (a system directory such as /lib64 on some
   systems, a tool's prefix) grants the link's target, as it always has:
   the target is resolved here once and opened without links in its turn.
   The results directory must be a directory owned by the scanner's user
   (ash's, or the scanner account when ash runs as root), the data
   (the source tree, the converted files) a directory or a regular file.
   0 with *RET_FD the descriptor (and *RET_ST what fstat() says of it), or
   -1 when the path is not there (or cannot be reached: it grants
   nothing); a negative errno when it is refused, and nothing runs.  */
static int
open_for_rule (const char *path, enum ash_access access, bool results,
               uid_t owner, int *ret_fd, struct stat *ret_st,
               struct ash_error *err)
{
  _cleanup_close_ int fd = -1;
  struct stat st;
  bool follows = access == ASH_ACCESS_READ || access == ASH_ACCESS_CACHE;

  *ret_fd = -1;
  fd = ash_linux_open_no_links (path, false);
  if (fd == -ELOOP && follows && !results)
    {
      _cleanup_free_ char *real = realpath (path, NULL);
      fd = real ? ash_linux_open_no_links (real, false) : -errno;
    }
  if (fd == -ENOENT || fd == -ENOTDIR || fd == -EACCES)
    return 0;
  if (fd < 0)
    return ash_error_set (err, fd,
                          _ ("%s cannot be handed to the Landlock sandbox: "
                             "%s (a link on its way?)"),
                          path, strerror (-fd));
  if (fstat (fd, &st) < 0)
    return ash_error_set (err, -errno, _ ("cannot examine %s: %s"), path,
                          strerror (errno));
  if (results && (!S_ISDIR (st.st_mode) || st.st_uid != owner))
    return ash_error_set (err, -EPERM,
                          _ ("the results directory %s is not a directory "
                             "of the scanner's user; the scanner does not "
                             "run"),
                          path);
  if (!follows && !S_ISDIR (st.st_mode) && !S_ISREG (st.st_mode))
    return ash_error_set (err, -EPERM,
                          _ ("%s is neither a directory nor a regular file; "
                             "the scanner does not run"),
                          path);
  *ret_fd = TAKE_FD (fd);
  *ret_st = st;
  return 0;
}

static void landlock_cleanup (struct ash_wrap_state *base);

/* Append to ARGV the rule OPT (--ro, --rw) for PATH, handed over as the
   descriptor open_for_rule() opened.  */
static int
push_rule (struct ash_cmd *cmd, struct landlock_state *st,
           struct ash_strvec *argv, const char *opt, const char *path,
           enum ash_access access, bool results, struct ash_error *err)
{
  int fd, r;
  struct stat sb;

  r = open_for_rule (path, access, results,
                     cmd->set_ids ? cmd->user_id : geteuid (), &fd, &sb, err);
  if (r < 0)
    return r;
  if (fd < 0)
    return 0; /* not there: nothing to grant */
  /* The scanned data must be there for the scanner, readable as its
     user: the wrapper checks that it opens this very directory.  */
  if (access == ASH_ACCESS_DATA && S_ISDIR (sb.st_mode))
    ash_strvec_pushf (argv, "--expect=%s=%llu:%llu", path,
                      (unsigned long long) sb.st_dev,
                      (unsigned long long) sb.st_ino);
  r = pass_fd (cmd, st, argv, fd, err);
  if (r < 0)
    return r;
  ash_strvec_push (argv, opt);
  ash_strvec_push (argv, path);
  return 0;
}

/* Open the directory NAME that ash_linux_private_dir_make() made in the
   private directory PRIV_FD (checked to be ASH's own, mode 0700, so that
   no one else could have put anything there); it is handed over as
   "--fd N OPT PATH".  */
static int
push_private (struct ash_cmd *cmd, struct landlock_state *st,
              struct ash_strvec *argv, int priv_fd, const char *name,
              const char *opt, const char *path, struct ash_error *err)
{
  struct stat sb;
  int fd;

  fd = openat (priv_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return ash_error_set (err, -errno, _ ("cannot open %s: %s"), path,
                          strerror (errno));
  if (fstat (fd, &sb) < 0 || sb.st_uid != geteuid ()
      || (sb.st_mode & 07777) != 0700)
    {
      ash_close (fd);
      return ash_error_set (err, -EPERM,
                            _ ("cannot use the private directory %s"), path);
    }
  if (pass_fd (cmd, st, argv, fd, err) < 0)
    return -EMFILE;
  ash_strvec_push (argv, opt);
  ash_strvec_push (argv, path);
  return 0;
}

/* Give the private directory PRIV_FD, its TMPDIR TMP_FD and its HOME
   HOME_FD (the descriptors the wrapper is handed) to UID and GID.  With no
   link in the home, they are all it holds, ASH's alone since it made
   them: each is given by its descriptor.  Otherwise the whole tree is
   walked, the directories on the way to the links included.  */
static int
chown_private (int priv_fd, int tmp_fd, int home_fd,
               const struct ash_policy *policy, uid_t uid, gid_t gid)
{
  const int fds[] = { priv_fd, tmp_fd, home_fd };

  if (policy->n_home_links > 0)
    return ash_tree_chown_fd (priv_fd, uid, gid);
  for (size_t i = 0; i < ARRAY_SIZE (fds); i++)
    if (fchownat (fds[i], "", uid, gid, AT_EMPTY_PATH) < 0)
      return -errno;
  return 0;
}

static int
landlock_wrap_args (const struct ash_linux_probe *probe,
                    const struct ash_policy *policy, struct ash_cmd *cmd,
                    struct landlock_state *state, struct ash_strvec *argv,
                    struct ash_error *err)
{
  _cleanup_free_ char *priv_home = NULL, *priv_tmp = NULL;
  _cleanup_close_ int priv_fd = -1;
  int tmp_fd, home_fd;
  struct stat st;
  int r;

  priv_home = ash_path_join (state->dir, "home");
  priv_tmp = ash_path_join (state->dir, "tmp");
  /* mkdtemp() made it, 0700: it must still be that directory, ash's
     own.  */
  priv_fd = open (state->dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (priv_fd < 0 || fstat (priv_fd, &st) < 0 || st.st_uid != geteuid ()
      || (st.st_mode & 077))
    return ash_error_set (err, priv_fd < 0 ? -errno : -EPERM,
                          _ ("cannot use the private directory %s"),
                          state->dir);

  ash_strvec_push (argv, probe->helper);
  if (policy->network)
    ash_strvec_push (argv, "--network");
  /* The filter for the same policy the wrapper is told (with or without
     --network): it checks that what it loads refuses what that policy
     refuses.  Shared by every spawn, so not in STATE->fds, which cleanup()
     closes.  */
  r = ash_linux_socket_filter_fd (policy->network ? ASH_SOCKETS_NETWORK
                                                  : ASH_SOCKETS_NONE,
                                  err);
  if (r < 0)
    return r;
  if (cmd->n_pass_fds >= ASH_CMD_MAX_PASS_FDS)
    return ash_error_set (err, -EMFILE,
                          _ ("the Landlock sandbox is given more than %d "
                             "paths"),
                          ASH_CMD_MAX_PASS_FDS);
  cmd->pass_fds[cmd->n_pass_fds++] = r;
  ash_strvec_push (argv, "--seccomp-fd");
  ash_strvec_pushf (argv, "%d", r);
  /* The wrapper says when Landlock is in force and the command about to
     run: a wrapper that refuses (no Landlock any more) never does.  */
  r = ash_linux_ready_pipe (cmd, &state->ready, err);
  if (r < 0)
    return r;
  state->fds[state->n_fds++] = r;
  ash_strvec_push (argv, "--ready-fd");
  ash_strvec_pushf (argv, "%d", r);
  for (size_t i = 0; i < policy->n_paths; i++)
    {
      const struct ash_policy_path *pp = &policy->paths[i];

      r = 0;
      switch (pp->access)
        {
        case ASH_ACCESS_READ:
        case ASH_ACCESS_DATA:
        case ASH_ACCESS_CACHE:
          /* Landlock has no overlay: caches are read-only.  */
          r = push_rule (cmd, state, argv, "--ro", pp->path, pp->access, false,
                         err);
          break;
        case ASH_ACCESS_WRITE:
          if (!policy->results_dir || !streq (pp->path, policy->results_dir))
            r = push_rule (cmd, state, argv, "--rw", pp->path, pp->access,
                           false, err);
          break;
        case ASH_ACCESS_HIDE:
          /* Landlock only grants; what is not granted is hidden, except
             inside a granted path (the output directory inside the source
             tree), where the wrapper grants around it.  Only compared
             with the other paths' names, never looked up.  */
          ash_strvec_push (argv, "--hide");
          ash_strvec_push (argv, pp->path);
          break;
        default:
          break;
        }
      if (r < 0)
        return r;
    }
  if (policy->results_dir)
    {
      r = push_rule (cmd, state, argv, "--rw", policy->results_dir,
                     ASH_ACCESS_WRITE, true, err);
      if (r < 0)
        return r;
    }
  r = push_private (cmd, state, argv, priv_fd, "tmp", "--tmpdir", priv_tmp,
                    err);
  if (r < 0)
    return r;
  tmp_fd = state->fds[state->n_fds - 1];
  r = push_private (cmd, state, argv, priv_fd, "home", "--home", priv_home,
                    err);
  if (r < 0)
    return r;
  home_fd = state->fds[state->n_fds - 1];
  r = ash_linux_home_links_make (home_fd, policy, err);
  if (r < 0)
    return r;
  /* ash runs as root and the scanner as its account: the private TMPDIR
     and HOME are that account's.  */
  if (cmd->set_ids)
    {
      r = chown_private (priv_fd, tmp_fd, home_fd, policy, cmd->user_id,
                         cmd->group_id);
      if (r < 0)
        return ash_error_set (err, r, _ ("cannot give %s to uid %ld: %s"),
                              state->dir, (long) cmd->user_id, strerror (-r));
    }
  ash_strvec_push (argv, "--");
  ash_strvec_pushv (argv, cmd->argv.v);
  return 0;
}

static int
landlock_wrap (const struct ash_probe *base, const struct ash_policy *policy,
               struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
               struct ash_error *err)
{
  const struct ash_linux_probe *probe = ash_linux_probe_of (base);
  struct landlock_state *state;
  struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_strvec env = ASH_STRVEC_INIT;
  _cleanup_free_ char *priv = NULL, *priv_home = NULL, *priv_tmp = NULL;
  unsigned n_fds_before = cmd->n_pass_fds;
  int r;

  *ret_state = NULL;
  if (policy->refusal.message)
    return ash_policy_refused (policy, err);
  /* Landlock grants access to whole hierarchies and cannot take a file
     back out of one, nor replace it: a FIFO the scanner would block on
     stays visible.  Refused rather than run with less protection.  */
  if (policy->masked.nr)
    return ash_error_set (err, -EPERM,
                          _ ("Landlock cannot hide %s (a FIFO, socket or "
                             "device in the scanned tree) from a scanner "
                             "given the directory: run it under bwrap or "
                             "firejail, or remove the file"),
                          policy->masked.v[0]);
  if (!probe || !probe->base.usable || !probe->helper)
    return ash_error_set (err, -EINVAL, _ ("Landlock is not usable here"));
  if (cmd->argv.nr == 0 || cmd->argv.v[0][0] != '/')
    return ash_error_set (err, -EINVAL,
                          _ ("a sandboxed command must start with an "
                             "absolute path"));

  r = ash_linux_private_dir_make (tmp_base (), PRIVATE_PREFIX, private_subdirs,
                                  &priv, err);
  if (r < 0)
    return r;
  priv_home = ash_path_join (priv, "home");
  priv_tmp = ash_path_join (priv, "tmp");

  state = xcalloc (1, sizeof *state);
  state->base.backend = &ash_backend_landlock;
  state->ready = -1;
  state->dir = TAKE_PTR (priv);
  r = landlock_wrap_args (probe, policy, cmd, state, &argv, err);
  if (r < 0)
    {
      cmd->n_pass_fds = n_fds_before;
      ash_strvec_release (&argv);
      landlock_cleanup (&state->base);
      return r;
    }

  ash_linux_sandbox_env (policy, priv_home, priv_tmp, &env);

  *ret_state = &state->base;
  ash_strvec_release (&cmd->argv);
  cmd->argv = argv;
  ash_strvec_release (&cmd->env);
  cmd->env = env;
  return 0;
}

/* The socket filter wrap() hands the wrapper for POLICY, built ahead, and
   the first spawn's private directory, made ahead.  */
static void
landlock_prepare (const struct ash_probe *probe,
                  const struct ash_policy *policy)
{
  (void) probe;
  if (!policy->refusal.message)
    {
      ash_linux_socket_filter_prepare (policy->network ? ASH_SOCKETS_NETWORK
                                                       : ASH_SOCKETS_NONE);
      ash_linux_private_dir_prepare (tmp_base (), PRIVATE_PREFIX,
                                     private_subdirs);
    }
}

/* The wrapper holds the descriptors of its rules once it has started:
   ASH's copies go while it runs.  */
static void
landlock_running (struct ash_wrap_state *base)
{
  struct landlock_state *state;

  if (!base)
    return;
  state = ash_container_of (base, struct landlock_state, base);
  for (unsigned i = 0; i < state->n_fds; i++)
    ash_close (state->fds[i]);
  state->n_fds = 0;
}

static void
landlock_cleanup (struct ash_wrap_state *base)
{
  struct landlock_state *state;

  if (!base)
    return;
  landlock_running (base);
  state = ash_container_of (base, struct landlock_state, base);
  if (state->ready >= 0)
    ash_close (state->ready);
  if (state->dir)
    ash_linux_private_dir_remove_made (state->dir, private_subdirs);
  free (state->dir);
  free (state);
}

static bool
landlock_started (const struct ash_wrap_state *base,
                  const struct ash_cmd_result *result)
{
  const struct landlock_state *state;

  (void) result;
  if (!base)
    return false;
  state = ash_container_of (base, const struct landlock_state, base);
  return ash_linux_ready_seen (state->ready);
}

/* The ABI the wrapper reports: the first number in its output.  */
static int
parse_abi (const char *out)
{
  for (const char *p = out; *p; p++)
    if (isdigit ((unsigned char) *p))
      return atoi (p);
  return -1;
}

static int
landlock_probe (const struct ash_host *host, struct ash_probe **retp)
{
  struct ash_linux_probe *ret = ash_linux_probe_new (&ash_backend_landlock);
  _cleanup_free_ char *helper = NULL, *out = NULL, *errtext = NULL;
  int status, abi;

  *retp = &ret->base;
  helper = ash_linux_find_helper (host);
  if (!helper)
    {
      ret->base.reason = xasprintf (_ ("Landlock is not available (%s was not "
                                       "found next to ash or in %s)"),
                                    ASH_LANDLOCK_EXEC, PKGLIBEXECDIR);
      return -ENOENT;
    }
  {
    char *const argv[] = { helper, (char *) "--probe", NULL };
    if (ash_linux_probe_run (argv, &out, &errtext, &status) < 0)
      {
        ret->base.reason
          = xasprintf (_ ("Landlock is not available (%s)"), errtext);
        return -ENOENT;
      }
  }
  /* In --probe mode the wrapper says why on stderr, in the spec's words,
     and exits with LANDLOCK_EXIT_UNAVAILABLE or LANDLOCK_EXIT_OLD_ABI.  */
  if ((status == LANDLOCK_EXIT_UNAVAILABLE || status == LANDLOCK_EXIT_OLD_ABI)
      && *errtext)
    {
      ret->base.reason = xstrdup (errtext);
      ret->landlock_abi
        = status == LANDLOCK_EXIT_OLD_ABI ? parse_abi (errtext) : 0;
      return -EOPNOTSUPP;
    }
  abi = parse_abi (out);
  if (status != 0 || abi <= 0)
    {
      ret->base.reason
        = xasprintf (_ ("Landlock is not available (%s)"),
                     *errtext ? errtext : ash_linux_chomp (out));
      return -EOPNOTSUPP;
    }
  ret->landlock_abi = abi;
  if (abi < 3)
    {
      ret->base.reason = xasprintf (
        _ ("Landlock ABI %d is below 3 (Linux 6.2), the first that controls "
           "truncation"),
        abi);
      return -EOPNOTSUPP;
    }
  ret->base.usable = true;
  ret->helper = TAKE_PTR (helper);
  if (abi < 4)
    ret->base.notes = xasprintf (
      _ ("Landlock ABI %d: no TCP rules (ABI 4) and no scoping of abstract "
         "Unix sockets and signals (ABI 6)"),
      abi);
  else if (abi < 6)
    ret->base.notes = xasprintf (
      _ ("Landlock ABI %d: abstract Unix sockets and signals are not scoped "
         "(ABI 6, Linux 6.12)"),
      abi);
  else
    ret->base.notes = xasprintf (_ ("Landlock ABI %d"), abi);
  return 0;
}

/* The wrapper makes no namespace: the settings that allow or refuse user
   namespaces are not part of what its probe depends on.  */
static int
landlock_identity (const struct ash_host *host, struct ash_buf *ret)
{
  return ash_linux_identity (host, NULL, false, ret);
}

static int
landlock_load (const json_t *obj, struct ash_probe **ret)
{
  return ash_linux_probe_load_for (&ash_backend_landlock, obj, ret);
}

/* Whether the kernel still gives the same Landlock ABI (a kernel booted
   with Landlock left out of lsm= has the same release and version), asked
   here rather than through the wrapper: the answer is the kernel's, the
   same in this process as in the wrapper, which asks again, and refuses
   to run anything without Landlock, on every spawn.  */
static int
landlock_recheck (const struct ash_probe *probe, const struct ash_host *host)
{
  const struct ash_linux_probe *lp = ash_linux_probe_of (probe);
  int abi;

  (void) host;
  if (!lp->helper || access (lp->helper, X_OK) < 0)
    return -ENOENT;
  abi = ash_landlock_create_ruleset (NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi > 0 && abi == lp->landlock_abi ? 0 : -EPERM;
}

const struct ash_backend ash_backend_landlock = {
  .name = "landlock",
  .probe = landlock_probe,
  .probe_free = ash_linux_probe_free,
  .wrap = landlock_wrap,
  .cleanup = landlock_cleanup,
  .running = landlock_running,
  .prepare = landlock_prepare,
  .started = landlock_started,
  .identity = landlock_identity,
  .save = ash_linux_probe_save,
  .load = landlock_load,
  .recheck = landlock_recheck,
  .finish = ash_linux_private_dir_flush,
};
