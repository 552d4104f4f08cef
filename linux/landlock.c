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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/log.h"
#include "fs/tree.h"

#define PRIVATE_PREFIX "ash-landlock-"

/* The wrapper's exit statuses in --probe mode (linux/landlock-exec.h).  */
#define LANDLOCK_EXIT_UNAVAILABLE 121
#define LANDLOCK_EXIT_OLD_ABI 122

/* The private directories made by wrap() and not yet removed: cleanup()
   removes only a directory it finds here, whatever the command's
   environment says.  */
static pthread_mutex_t private_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ash_strvec private_dirs = ASH_STRVEC_INIT;

static void
private_register (const char *dir)
{
  pthread_mutex_lock (&private_lock);
  ash_strvec_push (&private_dirs, dir);
  pthread_mutex_unlock (&private_lock);
}

static bool
private_unregister (const char *dir)
{
  bool found = false;

  pthread_mutex_lock (&private_lock);
  for (size_t i = 0; i < private_dirs.nr; i++)
    if (streq (private_dirs.v[i], dir))
      {
        ash_strvec_remove (&private_dirs, i);
        found = true;
        break;
      }
  pthread_mutex_unlock (&private_lock);
  return found;
}

/* Remove DIR and everything in it, at any depth and whatever modes the
   scanner left, never following a link: the scanner could have left
   links in its TMPDIR.  */
static void
remove_tree (const char *dir)
{
  struct ash_error e = ASH_ERROR_INIT;
  _cleanup_free_ char *parent = xstrdup (dir);
  char *slash = strrchr (parent, '/');

  if (slash == NULL)
    return;
  *slash = '\0';
  _cleanup_close_ int pfd = open (*parent ? parent : "/",
                                  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pfd < 0 || ash_tree_remove_all (pfd, slash + 1, &e) < 0)
    ash_warning (_("cannot remove %s: %s"), dir,
                 e.message ? e.message : strerror (errno));
  ash_error_release (&e);
}

static const char *
tmp_base (void)
{
  const char *t = getenv ("TMPDIR");

  return t && t[0] == '/' ? t : "/tmp";
}

/* Remove the private directories that runs of ash's own user left when
   they were killed before they could remove them: those whose name
   carries the pid of an ash that no longer exists.  A pid that has been
   reused keeps its directory until a later run; names without a pid are
   left alone.  Once per process.  */
static void
remove_stale_private_once (void)
{
  const char *base = tmp_base ();
  DIR *d = opendir (base);
  struct dirent *de;

  if (d == NULL)
    return;
  while ((de = readdir (d)) != NULL)
    {
      const char *p = de->d_name;
      char *end;
      long pid;
      struct stat st;

      if (!ash_str_has_prefix (p, PRIVATE_PREFIX))
        continue;
      p += strlen (PRIVATE_PREFIX);
      errno = 0;
      pid = strtol (p, &end, 10);
      if (errno || end == p || *end != '-' || pid <= 0 || pid == getpid ())
        continue;
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISDIR (st.st_mode) || st.st_uid != geteuid ())
        continue;
      if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      _cleanup_free_ char *path = ash_path_join (base, de->d_name);
      ash_info (_("removing %s, left by a run of ash that was killed"),
                path);
      remove_tree (path);
    }
  closedir (d);
}

static void
remove_stale_private (void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;

  pthread_once (&once, remove_stale_private_once);
}

/* Make the link NAME (relative, below the directory HOME_FD) to TARGET,
   creating the directories on the way.  */
static int
make_home_link (int home_fd, const char *name, const char *target)
{
  _cleanup_free_ char *copy = xstrdup (name);
  _cleanup_close_ int dfd = fcntl (home_fd, F_DUPFD_CLOEXEC, 3);
  char *p = copy, *slash;

  if (dfd < 0)
    return -errno;
  while ((slash = strchr (p, '/')))
    {
      int nfd;

      *slash = '\0';
      if (*p == '\0' || streq (p, ".") || streq (p, ".."))
        return -EINVAL;
      if (mkdirat (dfd, p, 0700) < 0 && errno != EEXIST)
        return -errno;
      nfd = openat (dfd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (nfd < 0)
        return -errno;
      ash_close (dfd);
      dfd = nfd;
      p = slash + 1;
    }
  if (*p == '\0' || streq (p, ".") || streq (p, ".."))
    return -EINVAL;
  if (symlinkat (target, dfd, p) < 0)
    return -errno;
  return 0;
}

static int
landlock_wrap (const struct ash_probe *probe,
               const struct ash_policy *policy, struct ash_cmd *cmd,
               struct ash_error *err)
{
  struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_strvec env = ASH_STRVEC_INIT;
  _cleanup_free_ char *priv = NULL, *priv_home = NULL, *priv_tmp = NULL;
  _cleanup_close_ int home_fd = -1;

  if (policy->refusal)
    return ash_error_set (err, -EPERM, "%s", policy->refusal);
  if (!probe || !probe->usable || !probe->helper)
    return ash_error_set (err, -EINVAL, _("Landlock is not usable here"));
  if (cmd->argv.nr == 0 || cmd->argv.v[0][0] != '/')
    return ash_error_set (err, -EINVAL,
                          _("a sandboxed command must start with an "
                            "absolute path"));

  remove_stale_private ();
  /* The pid of ash in the name tells a later run whether the run that
     made it is still alive.  */
  priv = xasprintf ("%s/" PRIVATE_PREFIX "%ld-XXXXXX", tmp_base (),
                    (long) getpid ());
  if (!mkdtemp (priv))
    return ash_error_set (err, -errno,
                          _("cannot make a private directory in %s: %s"),
                          tmp_base (), strerror (errno));
  priv_home = ash_path_join (priv, "home");
  priv_tmp = ash_path_join (priv, "tmp");
  if (mkdir (priv_home, 0700) < 0 || mkdir (priv_tmp, 0700) < 0)
    {
      int e = errno;
      remove_tree (priv);
      return ash_error_set (err, -e, _("cannot make %s: %s"), priv,
                            strerror (e));
    }
  home_fd = open (priv_home, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  for (size_t i = 0; i < policy->n_home_links; i++)
    {
      const struct ash_policy_link *l = &policy->home_links[i];
      int r = home_fd < 0 ? -EBADF
                          : make_home_link (home_fd, l->name, l->target);
      if (r < 0)
        {
          remove_tree (priv);
          return ash_error_set (err, r,
                                _("cannot link %s in the private home to "
                                  "%s: %s"),
                                l->name, l->target, strerror (-r));
        }
    }

  ash_strvec_push (&argv, probe->helper);
  if (policy->network)
    ash_strvec_push (&argv, "--network");
  for (size_t i = 0; i < policy->n_paths; i++)
    {
      const struct ash_policy_path *pp = &policy->paths[i];

      switch (pp->access)
        {
        case ASH_ACCESS_READ:
        case ASH_ACCESS_DATA:
        case ASH_ACCESS_CACHE:
          /* Landlock has no overlay: caches are read-only.  */
          ash_strvec_push (&argv, "--ro");
          ash_strvec_push (&argv, pp->path);
          break;
        case ASH_ACCESS_WRITE:
          if (!policy->results_dir || !streq (pp->path, policy->results_dir))
            {
              ash_strvec_push (&argv, "--rw");
              ash_strvec_push (&argv, pp->path);
            }
          break;
        case ASH_ACCESS_HIDE:
          /* Landlock only grants; what is not granted is hidden, except
             inside a granted path (the output directory inside the source
             tree), where the wrapper grants around it.  */
          ash_strvec_push (&argv, "--hide");
          ash_strvec_push (&argv, pp->path);
          break;
        default:
          break;
        }
    }
  if (policy->results_dir)
    {
      ash_strvec_push (&argv, "--rw");
      ash_strvec_push (&argv, policy->results_dir);
    }
  ash_strvec_push (&argv, "--tmpdir");
  ash_strvec_push (&argv, priv_tmp);
  ash_strvec_push (&argv, "--home");
  ash_strvec_push (&argv, priv_home);
  ash_strvec_push (&argv, "--");
  ash_strvec_pushv (&argv, cmd->argv.v);

  ash_linux_sandbox_env (policy, priv_home, priv_tmp, &env);

  private_register (priv);
  ash_strvec_release (&cmd->argv);
  cmd->argv = argv;
  ash_strvec_release (&cmd->env);
  cmd->env = env;
  return 0;
}

static void
landlock_cleanup (const struct ash_probe *probe,
                  const struct ash_policy *policy, struct ash_cmd *cmd)
{
  const char *tmpdir = ash_strvec_getenv (&cmd->env, "TMPDIR");
  _cleanup_free_ char *priv = NULL;
  char *slash;

  (void) probe;
  (void) policy;
  if (!tmpdir)
    return;
  priv = xstrdup (tmpdir);
  slash = strrchr (priv, '/');
  if (!slash || !streq (slash, "/tmp"))
    return;
  *slash = '\0';
  if (private_unregister (priv))
    remove_tree (priv);
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
landlock_probe (const struct ash_host *host, struct ash_probe *ret)
{
  _cleanup_free_ char *helper = NULL, *out = NULL, *errtext = NULL;
  int status, abi;

  memset (ret, 0, sizeof *ret);
  helper = ash_linux_find_helper (host);
  if (!helper)
    {
      ret->reason = xasprintf (_("Landlock is not available (%s was not "
                                 "found next to ash or in %s)"),
                               ASH_LANDLOCK_EXEC, PKGLIBEXECDIR);
      return -ENOENT;
    }
  {
    char *const argv[] = { helper, (char *) "--probe", NULL };
    if (ash_linux_probe_run (argv, &out, &errtext, &status) < 0)
      {
        ret->reason = xasprintf (_("Landlock is not available (%s)"),
                                 errtext);
        return -ENOENT;
      }
  }
  /* In --probe mode the wrapper says why on stderr, in the spec's words,
     and exits with LANDLOCK_EXIT_UNAVAILABLE or LANDLOCK_EXIT_OLD_ABI.  */
  if ((status == LANDLOCK_EXIT_UNAVAILABLE || status == LANDLOCK_EXIT_OLD_ABI)
      && *errtext)
    {
      ret->reason = xstrdup (errtext);
      ret->landlock_abi = status == LANDLOCK_EXIT_OLD_ABI ? parse_abi (errtext)
                                                          : 0;
      return -EOPNOTSUPP;
    }
  abi = parse_abi (out);
  if (status != 0 || abi <= 0)
    {
      ret->reason = xasprintf (_("Landlock is not available (%s)"),
                               *errtext ? errtext
                                        : ash_linux_chomp (out));
      return -EOPNOTSUPP;
    }
  ret->landlock_abi = abi;
  if (abi < 3)
    {
      ret->reason = xasprintf (
        _("Landlock ABI %d is below 3 (Linux 6.2), the first that controls "
          "truncation"),
        abi);
      return -EOPNOTSUPP;
    }
  ret->usable = true;
  ret->helper = TAKE_PTR (helper);
  if (abi < 4)
    ret->notes = xasprintf (
      _("Landlock ABI %d: no TCP rules (ABI 4) and no scoping of abstract "
        "Unix sockets and signals (ABI 6)"),
      abi);
  else if (abi < 6)
    ret->notes = xasprintf (
      _("Landlock ABI %d: abstract Unix sockets and signals are not scoped "
        "(ABI 6, Linux 6.12)"),
      abi);
  else
    ret->notes = xasprintf (_("Landlock ABI %d"), abi);
  return 0;
}

const struct ash_backend ash_backend_landlock = {
  .name = "landlock",
  .probe = landlock_probe,
  .wrap = landlock_wrap,
  .cleanup = landlock_cleanup,
};
