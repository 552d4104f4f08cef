/* SPDX-License-Identifier: Apache-2.0 */
/* firejail.c -- the firejail backend.

   firejail shows everything and then restricts: / is made read-only, the
   home directory it hides is the passwd entry's and only the policy's paths
   are whitelisted inside it and /tmp, the runtime sockets are blacklisted,
   and the results directory is made writable again.  The scanner starts
   through the wrapper's socket-filter mode, because /run and its sockets
   stay visible.

   firejail makes private the passwd entry's home of the account it runs
   as.  When the scanner's HOME would be another directory (run as root,
   ASH starts firejail as the scanner account, whose HOME would be root's,
   which that account cannot write; a HOME in /tmp is shown as directories
   of firejail's own making), the scanner gets a home of its own: a
   directory made here for the spawn and removed after it, holding a link
   to each path the policy grants under the real home, as under
   Landlock.  */

#include <config.h>

#include "backends.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "fs/chown.h"
#include "landlock-exec.h"
#include "private-dir.h"

#define PRIVATE_PREFIX "ash-firejail-"

/* What wrap() made for one spawn given a home of its own: the private
   directory holding its HOME, which cleanup() removes.  */
struct firejail_state
{
  struct ash_wrap_state base;
  char *dir;
};

static void
push_opt (struct ash_strvec *argv, const char *opt, const char *path)
{
  ash_strvec_pushf (argv, "%s=%s", opt, path);
}

/* Whether firejail takes PATH for what it says: it expands globs ('*',
   '?', '[') and macros ("${HOME}", a leading '~') in the paths it is
   given, so a name from the scanned tree such as "*" would blacklist a
   whole directory, and hide from a scanner the files it should scan.  */
static bool
literal_for_firejail (const char *path)
{
  for (const unsigned char *p = (const unsigned char *) path; *p; p++)
    if (*p < 0x20 || *p == 0x7f || strchr ("*?[]{}$~\\", *p))
      return false;
  return true;
}

static void
push_base_options (struct ash_strvec *argv, bool network)
{
  ash_strvec_push (argv, "--noprofile");
  /* Without these firejail keeps the sandbox alive while any process the
     scanner left is running, and exits with the last one's status.  */
  ash_strvec_push (argv, "--deterministic-shutdown");
  ash_strvec_push (argv, "--deterministic-exit-code");
  ash_strvec_push (argv, "--private-dev");
  ash_strvec_push (argv, "--nonewprivs");
  ash_strvec_push (argv, "--caps.drop=all");
  ash_strvec_push (argv, "--seccomp");
  ash_strvec_push (argv, "--nogroups");
  ash_strvec_push (argv, "--dbus-user=none");
  ash_strvec_push (argv, "--dbus-system=none");
  if (!network)
    ash_strvec_push (argv, "--net=none");
  ash_strvec_push (argv, "--read-only=/");
}

/* What firejail hides: the policy's list.  */
static void
push_blacklists (struct ash_strvec *argv, const struct ash_policy *policy)
{
  for (size_t i = 0; i < policy->n_hidden; i++)
    push_opt (argv, "--blacklist", policy->hidden[i].path);
  /* The FIFOs, sockets and devices of the tree: firejail puts an empty
     file it owns, mode 0, over each, so opening one fails at once.  */
  for (size_t i = 0; i < policy->masked.nr; i++)
    push_opt (argv, "--blacklist", policy->masked.v[i]);
}

static bool
usable_dir (const char *d)
{
  return d && d[0] == '/' && d[1] != '\0';
}

/* The passwd entry's home of UID (newly allocated), or NULL: the home
   firejail makes private when it runs as that account.  */
static char *
account_home (uid_t uid)
{
  struct passwd pw, *res = NULL;
  char buf[4096];

  if (getpwuid_r (uid, &pw, buf, sizeof buf, &res) != 0 || !res
      || !usable_dir (res->pw_dir))
    return NULL;
  return xstrdup (res->pw_dir);
}

/* Note that firejail is told to show PATH: inside OWN_HOME, the home
   firejail makes private, or inside /tmp.  */
static void
note_shown (const char *path, const char *own_home, bool *home_listed,
            bool *tmp_listed)
{
  if (own_home && ash_path_is_inside (path, own_home))
    *home_listed = true;
  else if (ash_path_is_inside (path, "/tmp"))
    *tmp_listed = true;
}

/* Make the scanner's home for one spawn: DIR/home, DIR a new directory in
   /tmp (the one place outside a home that firejail shows again by name),
   ASH's own and searchable, so that the scanner cannot put anything else
   at the name "home"; the home itself, with the policy's links in it, the
   scanner's (the scanner account's, when CMD runs as it).  0 with
   *RET_DIR, or a negative errno with ERR filled and nothing left
   behind.  */
static int
make_private_home (const struct ash_policy *policy, const struct ash_cmd *cmd,
                   char **ret_dir, struct ash_error *err)
{
  _cleanup_free_ char *dir = NULL;
  _cleanup_close_ int dfd = -1, hfd = -1;
  int r;

  r = ash_linux_private_dir_make ("/tmp", PRIVATE_PREFIX, NULL, &dir, err);
  if (r < 0)
    return r;
  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd >= 0 && fchmod (dfd, 0711) == 0 && mkdirat (dfd, "home", 0700) == 0)
    hfd
      = openat (dfd, "home", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (hfd < 0)
    r = ash_error_set (err, -errno, _ ("cannot make a private home in %s: %s"),
                       dir, strerror (errno));
  else
    r = ash_linux_home_links_make (hfd, policy, err);
  if (r >= 0 && cmd->set_ids)
    {
      r = ash_tree_chown_fd (hfd, cmd->user_id, cmd->group_id);
      if (r < 0)
        ash_error_set (err, r, _ ("cannot give %s/home to uid %ld: %s"), dir,
                       (long) cmd->user_id, strerror (-r));
    }
  if (r < 0)
    {
      ash_linux_private_dir_remove (dir);
      return r;
    }
  *ret_dir = TAKE_PTR (dir);
  return 0;
}

static void
firejail_cleanup (struct ash_wrap_state *base)
{
  struct firejail_state *state;

  if (!base)
    return;
  state = ash_container_of (base, struct firejail_state, base);
  if (state->dir)
    ash_linux_private_dir_remove (state->dir);
  free (state->dir);
  free (state);
}

static int
firejail_wrap (const struct ash_probe *base, const struct ash_policy *policy,
               struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
               struct ash_error *err)
{
  const struct ash_linux_probe *probe = ash_linux_probe_of (base);
  struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_strvec env = ASH_STRVEC_INIT;
  const char *fj_home = ash_policy_hidden_home (policy);
  const char *home = usable_dir (policy->home) ? policy->home : fj_home;
  bool home_listed = false, tmp_listed = false, helper_shown = false;
  bool home_hidden = false;
  /* The home firejail makes private: the passwd entry's of the account it
     runs as.  */
  _cleanup_free_ char *own_home = NULL;
  _cleanup_free_ char *priv_dir = NULL, *priv_home = NULL;
  int r;

  *ret_state = NULL;
  if (policy->refusal.message)
    return ash_policy_refused (policy, err);
  if (!probe || !probe->base.usable || !probe->tool || !probe->helper)
    return ash_error_set (err, -EINVAL, _ ("firejail is not usable here"));
  if (cmd->argv.nr == 0 || cmd->argv.v[0][0] != '/')
    return ash_error_set (err, -EINVAL,
                          _ ("a sandboxed command must start with an "
                             "absolute path"));
  /* Fails closed: without the mount table, mounts other than / would stay
     writable.  */
  if (policy->mounts_error)
    return ash_error_set (err, -EIO, _ ("firejail: %s"), policy->mounts_error);
  if (!policy->mounts_listed)
    return ash_error_set (err, -EINVAL,
                          _ ("firejail: the policy does not list the host's "
                             "mount points, which firejail must make "
                             "read-only"));
  for (size_t i = 0; i < policy->masked.nr; i++)
    if (!literal_for_firejail (policy->masked.v[i]))
      return ash_error_set (err, -EPERM,
                            _ ("firejail cannot hide %s (a FIFO, socket or "
                               "device in the scanned tree) from a scanner "
                               "given the directory: it would expand the "
                               "name; run it under bwrap, or remove the "
                               "file"),
                            policy->masked.v[i]);

  /* A HOME that is not the passwd entry's, outside /tmp, is hidden by the
     policy (whole, or around the results directory it holds): the
     scanner's HOME is then the passwd entry's, which firejail makes
     private.  */
  home_hidden = home && fj_home && !streq (home, fj_home)
                && !ash_path_is_inside (home, "/tmp");
  own_home = cmd->set_ids                       ? account_home (cmd->user_id)
             : usable_dir (policy->passwd_home) ? xstrdup (policy->passwd_home)
                                                : NULL;
  /* Any HOME other than the one firejail makes private for the account it
     runs as is not that account's own: root's, when firejail runs as the
     scanner account, or one in /tmp, where firejail shows the paths it
     is told to show in directories of its own making.  The scanner then
     gets a home of its own.  */
  {
    const char *scanner_home = home_hidden ? fj_home : home;
    if (!own_home || !scanner_home || !streq (scanner_home, own_home))
      {
        r = make_private_home (policy, cmd, &priv_dir, err);
        if (r < 0)
          return r;
        priv_home = ash_path_join (priv_dir, "home");
      }
  }

  /* Everything below translates the policy's decisions word for word;
     only the wrapper, firejail's own helper, and the scanner's private
     home are added to what the policy shows.  */
  /* firejail is setuid: the parent-death signal ash sets is lost when it
     starts, and firejail outlives a killed ash with the scanner.  The
     wrapper, started first, keeps it and ends firejail's whole tree.  */
  ash_strvec_push (&argv, probe->helper);
  ash_strvec_push (&argv, "--supervise");
  ash_strvec_push (&argv, "--");
  ash_strvec_push (&argv, probe->tool);
  push_base_options (&argv, policy->network);
  ash_strvec_push (&argv, "--quiet");
  push_blacklists (&argv, policy);

  for (size_t j = 0; j < policy->shown.nr; j++)
    {
      push_opt (&argv, "--whitelist", policy->shown.v[j]);
      note_shown (policy->shown.v[j], own_home, &home_listed, &tmp_listed);
      if (ash_path_is_inside (probe->helper, policy->shown.v[j]))
        helper_shown = true;
    }
  if (!helper_shown && ash_policy_wants_shown (policy, probe->helper))
    {
      push_opt (&argv, "--whitelist", probe->helper);
      note_shown (probe->helper, own_home, &home_listed, &tmp_listed);
    }
  if (priv_home)
    {
      push_opt (&argv, "--whitelist", priv_home);
      note_shown (priv_home, own_home, &home_listed, &tmp_listed);
      /* The home the policy names is not the one firejail hides when it
         runs as the scanner account: unless firejail shows something
         inside it, it is hidden by name.  */
      if (cmd->set_ids && fj_home && !streq (fj_home, own_home ? own_home : "")
          && !ash_path_is_inside (fj_home, "/tmp"))
        {
          bool shows_inside = false;
          for (size_t j = 0; j < policy->shown.nr; j++)
            if (ash_path_is_inside (policy->shown.v[j], fj_home))
              shows_inside = true;
          if (!shows_inside)
            push_opt (&argv, "--blacklist", fj_home);
        }
    }
  /* Without a whitelist inside it, firejail would show the whole home.  */
  if (!home_listed)
    ash_strvec_push (&argv, "--private");
  if (!tmp_listed)
    ash_strvec_push (&argv, "--private-tmp");

  /* A whitelisted path is writable unless made read-only again; the
     results directory is made writable last.  */
  for (size_t i = 0; i < policy->n_paths; i++)
    {
      const struct ash_policy_path *pp = &policy->paths[i];

      /* A hidden directory holding what the policy shows (the output
         directory, or a staged converter's source tree holding the
         results directory) is not blacklisted whole, since firejail would
         hide the results directory with it: the policy's hidden list
         holds everything beside the way to what it shows.  */
      if (pp->access == ASH_ACCESS_HIDE
          && !ash_policy_shows_inside (policy, pp->path, false))
        push_opt (&argv, "--blacklist", pp->path);
      else if (pp->access != ASH_ACCESS_WRITE
               && ash_policy_wants_shown (policy, pp->path))
        push_opt (&argv, "--read-only", pp->path);
    }
  if (ash_policy_wants_shown (policy, probe->helper))
    push_opt (&argv, "--read-only", probe->helper);
  for (size_t i = 0; i < policy->readonly_mounts.nr; i++)
    {
      _cleanup_free_ char *opt
        = xasprintf ("--read-only=%s", policy->readonly_mounts.v[i]);
      if (!ash_strvec_contains (&argv, opt))
        ash_strvec_push (&argv, opt);
    }
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access == ASH_ACCESS_WRITE
        && (!policy->results_dir
            || !streq (policy->paths[i].path, policy->results_dir)))
      push_opt (&argv, "--read-write", policy->paths[i].path);
  if (priv_home)
    push_opt (&argv, "--read-write", priv_home);
  if (policy->results_dir)
    push_opt (&argv, "--read-write", policy->results_dir);

  /* No "--" before the command: firejail 0.9.72 runs what follows "--"
     through the account's login shell, which fails for an account whose
     shell is nologin.  The command is an absolute path, so it cannot be
     taken for an option.  */
  /* firejail keeps the terminal's session: the wrapper leaves it, so
     that the scanner has no controlling terminal.  */
  /* firejail closes the descriptors it inherits: the wrapper builds the
     filter itself.  */
  ash_linux_filter_prefix (&argv, probe->helper, policy, policy->network, true,
                           -1, -1);
  ash_strvec_pushv (&argv, cmd->argv.v);

  ash_linux_sandbox_env (policy,
                         priv_home     ? priv_home
                         : home_hidden ? fj_home
                                       : home,
                         "/tmp", &env);

  if (priv_dir)
    {
      struct firejail_state *state = xcalloc (1, sizeof *state);
      state->base.backend = &ash_backend_firejail;
      state->dir = TAKE_PTR (priv_dir);
      *ret_state = &state->base;
    }
  ash_strvec_release (&cmd->argv);
  cmd->argv = argv;
  ash_strvec_release (&cmd->env);
  cmd->env = env;
  return 0;
}

/* A private home and /tmp for a probe, showing the wrapper (read-only)
   when it lives in one of them.  */
static void
push_private_showing (struct ash_strvec *argv, const char *helper,
                      const char *passwd_home)
{
  bool in_home
    = usable_dir (passwd_home) && ash_path_is_inside (helper, passwd_home);
  bool in_tmp = ash_path_is_inside (helper, "/tmp");

  if (in_home || in_tmp)
    {
      push_opt (argv, "--whitelist", helper);
      push_opt (argv, "--read-only", helper);
    }
  if (!in_home)
    ash_strvec_push (argv, "--private");
  if (!in_tmp)
    ash_strvec_push (argv, "--private-tmp");
}

static char *
own_mount_namespace (void)
{
  char buf[128];
  ssize_t n = readlink ("/proc/self/ns/mnt", buf, sizeof buf - 1);

  if (n <= 0)
    return NULL;
  buf[n] = '\0';
  return xstrdup (buf);
}

/* The first line of OUT that names a mount namespace, or NULL.  */
static char *
reported_namespace (const char *out)
{
  const char *p = strstr (out, "mnt:[");
  const char *e;

  if (!p || (p != out && p[-1] != '\n'))
    return NULL;
  e = strchr (p, '\n');
  return e ? xstrndup (p, (size_t) (e - p)) : xstrdup (p);
}

static int
firejail_probe (const struct ash_host *host, struct ash_probe **retp)
{
  struct ash_linux_probe *ret = ash_linux_probe_new (&ash_backend_firejail);
  struct ash_strvec argv = ASH_STRVEC_INIT;
  _cleanup_free_ char *tool = NULL, *helper = NULL, *readlink_path = NULL;
  _cleanup_free_ char *true_path = NULL, *why = NULL, *own = NULL;
  _cleanup_free_ char *out = NULL, *errtext = NULL, *ns = NULL;
  int status, r;

  *retp = &ret->base;
  if (ash_linux_find_tool (host, "firejail", &tool, NULL) < 0)
    {
      ret->base.reason = xstrdup (_ ("firejail is not installed"));
      return -ENOENT;
    }
  if (ash_linux_find_tool (host, "readlink", &readlink_path, &why) < 0
      || ash_linux_find_tool (host, "true", &true_path, &why) < 0)
    {
      ret->base.reason
        = xasprintf (_ ("firejail cannot be tested here (%s)"), why);
      return -ENOENT;
    }
  own = own_mount_namespace ();

  /* The same options as a scan, without --quiet, so that firejail's
     warning that it found an existing sandbox shows.  */
  {
    /* The blacklists of a policy with no paths: what every scan hides
       outside the home.  */
    struct ash_policy none;
    ash_policy_init (&none);
    ash_policy_add_hiding (&none, environ, NULL, false);
    ash_strvec_push (&argv, tool);
    push_base_options (&argv, false);
    push_blacklists (&argv, &none);
    ash_policy_release (&none);
  }
  ash_strvec_push (&argv, "--private");
  ash_strvec_push (&argv, "--private-tmp");
  /* No "--": see firejail_wrap.  */
  ash_strvec_push (&argv, readlink_path);
  ash_strvec_push (&argv, "/proc/self/ns/mnt");
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  if (r < 0 || status != 0)
    {
      ret->base.reason = xasprintf (_ ("firejail could not run a test command "
                                       "(%s)"),
                                    *errtext ? errtext : _ ("no output"));
      ash_strvec_release (&argv);
      return -EPERM;
    }
  ns = reported_namespace (out);
  if (strstr (out, "existing sandbox") || strstr (errtext, "existing sandbox")
      || strstr (errtext, "without any additional sandboxing"))
    {
      ret->base.reason = xasprintf (_ ("firejail ran a test command without a "
                                       "sandbox (%s)"),
                                    errtext);
      ash_strvec_release (&argv);
      return -EPERM;
    }
  if (!ns || !own || streq (ns, own))
    {
      ret->base.reason = xasprintf (
        _ ("firejail ran a test command without a sandbox (it reported "
           "%s, and ASH's own mount namespace is %s)"),
        ns ? ns : _ ("no mount namespace"), own ? own : "?");
      ash_strvec_release (&argv);
      return -EPERM;
    }
  ash_strvec_release (&argv);

  helper = ash_linux_probe_helper (host, "firejail", &ret->base);
  if (!helper)
    return -ENOENT;
  ash_strvec_push (&argv, tool);
  push_base_options (&argv, false);
  ash_strvec_push (&argv, "--quiet");
  push_private_showing (&argv, helper, host->passwd_home);
  /* No "--": see firejail_wrap.  */
  ash_linux_filter_prefix (&argv, helper, NULL, false, true, -1, -1);
  ash_strvec_push (&argv, true_path);
  free (out);
  free (errtext);
  out = errtext = NULL;
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  ash_strvec_release (&argv);
  if (r < 0 || status != 0)
    {
      ret->base.reason = xasprintf (
        _ ("firejail cannot apply the Unix-socket filter in its sandbox (%s)"),
        *errtext ? errtext : _ ("no output"));
      return -EPERM;
    }

  ret->base.usable = true;
  ret->tool = TAKE_PTR (tool);
  ret->helper = TAKE_PTR (helper);
  ret->base.notes
    = xstrdup (_ ("everything outside the home directory and /tmp "
                  "that your user can read stays readable; caches "
                  "are read-only"));
  return 0;
}

/* The probe's answer depends on firejail, the wrapper, where ASH runs
   (its namespaces: see ash_linux_identity) and firejail's own
   configuration, which can refuse an account or turn features off.  */
static int
firejail_identity (const struct ash_host *host, struct ash_buf *ret)
{
  int r = ash_linux_identity (host, "firejail", true, ret);

  if (r < 0)
    return r;
  ash_linux_identity_file (ret, "/etc/firejail/firejail.config");
  ash_linux_identity_file (ret, "/etc/firejail/firejail.users");
  return 0;
}

static int
firejail_load (const json_t *obj, struct ash_probe **ret)
{
  return ash_linux_probe_load_for (&ash_backend_firejail, obj, ret);
}

/* firejail is still there and ASH can tell its own mount namespace from
   a sandbox's.  Whether firejail builds a sandbox at all is checked on
   every spawn: the wrapper refuses to start the scanner in ASH's own
   mount namespace (--not-mount-ns), which is what firejail running a
   command "without any additional sandboxing" would give it.  */
static int
firejail_recheck (const struct ash_probe *probe, const struct ash_host *host)
{
  const struct ash_linux_probe *lp = ash_linux_probe_of (probe);

  (void) host;
  if (!lp->tool || access (lp->tool, X_OK) < 0 || !lp->helper
      || access (lp->helper, X_OK) < 0)
    return -ENOENT;
  return ash_linux_own_mount_ns () != 0 ? 0 : -EPERM;
}

/* firejail closes the descriptors it is given, so the wrapper cannot say
   that it started; it exits with its setup status when it finds itself
   outside a sandbox, or cannot set up its filter.  firejail's own
   failures exit 1, which a scanner's findings can too: those are not told
   apart here.  */
static bool
firejail_started (const struct ash_wrap_state *state,
                  const struct ash_cmd_result *result)
{
  (void) state;
  return result->term_signal != 0 || result->status != ASH_LANDLOCK_EXIT_SETUP;
}

const struct ash_backend ash_backend_firejail = {
  .name = "firejail",
  .lists_mounts = true,
  .probe = firejail_probe,
  .probe_free = ash_linux_probe_free,
  .wrap = firejail_wrap,
  .cleanup = firejail_cleanup,
  .identity = firejail_identity,
  .save = ash_linux_probe_save,
  .load = firejail_load,
  .recheck = firejail_recheck,
  .started = firejail_started,
  .finish = ash_linux_private_dir_flush,
};
