/* SPDX-License-Identifier: Apache-2.0 */
/* firejail.c -- the firejail backend.

   firejail shows everything and then restricts: / is made read-only, the
   home directory it hides is the passwd entry's and only the policy's paths
   are whitelisted inside it and /tmp, the runtime sockets are blacklisted,
   and the results directory is made writable again.  The scanner starts
   through the wrapper's socket-filter mode, because /run and its sockets
   stay visible.  */

#include <config.h>

#include "backends.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "base/log.h"

/* Container runtime sockets and their directories.  */
static const char *const runtime_sockets[] = {
  "/run/docker.sock", "/var/run/docker.sock", "/run/docker",
  "/var/run/docker", "/run/podman", "/var/run/podman", "/run/containerd",
  "/var/run/containerd", "/run/crio", "/var/run/crio", "/run/buildkit",
  "/var/run/buildkit",
};

/* A link to one of these changes nothing: they are shown anyway.  */
static const char *const system_dirs[] = {
  "/usr", "/etc", "/opt", "/nix", "/bin", "/sbin", "/lib", "/lib32",
  "/lib64", "/libx32",
};

static void
push_opt (struct ash_strvec *argv, const char *opt, const char *path)
{
  ash_strvec_pushf (argv, "%s=%s", opt, path);
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

static void
push_blacklists (struct ash_strvec *argv)
{
  const char *ssh_auth_sock = getenv ("SSH_AUTH_SOCK");

  for (size_t i = 0; i < ARRAY_SIZE (runtime_sockets); i++)
    push_opt (argv, "--blacklist", runtime_sockets[i]);
  ash_strvec_pushf (argv, "--blacklist=/run/user/%lu",
                    (unsigned long) getuid ());
  if (ssh_auth_sock && ssh_auth_sock[0] == '/')
    push_opt (argv, "--blacklist", ssh_auth_sock);
}

static bool
usable_dir (const char *d)
{
  return d && d[0] == '/' && d[1] != '\0';
}

static bool
inside_any_policy_path (const struct ash_policy *policy, const char *dir)
{
  for (size_t i = 0; i < policy->n_paths; i++)
    if (ash_path_is_inside (policy->paths[i].path, dir))
      return true;
  return policy->results_dir && ash_path_is_inside (policy->results_dir, dir);
}

static bool
policy_grants (const struct ash_policy *policy, const char *dir)
{
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access != ASH_ACCESS_HIDE
        && ash_path_is_inside (dir, policy->paths[i].path))
      return true;
  return policy->results_dir && ash_path_is_inside (dir, policy->results_dir);
}

/* Whether the policy shows PATH itself: one of its paths that is not
   hidden, or the results directory (with RESULTS_ONLY, only that).  */
static bool
policy_shows (const struct ash_policy *policy, const char *path,
              bool results_only)
{
  for (size_t i = 0; !results_only && i < policy->n_paths; i++)
    if (policy->paths[i].access != ASH_ACCESS_HIDE
        && streq (policy->paths[i].path, path))
      return true;
  return policy->results_dir && streq (policy->results_dir, path);
}

/* Whether the policy shows anything strictly inside DIR (with
   RESULTS_ONLY, the results directory).  */
static bool
policy_shows_inside (const struct ash_policy *policy, const char *dir,
                     bool results_only)
{
  for (size_t i = 0; !results_only && i < policy->n_paths; i++)
    if (policy->paths[i].access != ASH_ACCESS_HIDE
        && !streq (policy->paths[i].path, dir)
        && ash_path_is_inside (policy->paths[i].path, dir))
      return true;
  return policy->results_dir && !streq (policy->results_dir, dir)
         && ash_path_is_inside (policy->results_dir, dir);
}

/* Hide a hidden directory that holds paths the policy shows (the output
   directory holding the results directory): firejail cannot show a path
   below a blacklisted one, so everything in it beside the way to those
   paths is blacklisted instead, entry by entry.  A directory that cannot
   be read is blacklisted whole, what it holds with it.  What appears there
   after the scanner starts is not covered; ash-sandbox(7) says so.  */
static void
hide_around (struct ash_strvec *argv, const struct ash_policy *policy,
             const char *dir, bool results_only, int depth)
{
  DIR *d = depth > 32 ? NULL : opendir (dir);
  struct dirent *de;

  if (!d)
    {
      push_opt (argv, "--blacklist", dir);
      return;
    }
  while ((de = readdir (d)))
    {
      _cleanup_free_ char *child = NULL;
      struct stat st;

      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      child = ash_path_join (dir, de->d_name);
      if (policy_shows (policy, child, results_only))
        continue;
      if (policy_shows_inside (policy, child, results_only)
          && fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISDIR (st.st_mode))
        hide_around (argv, policy, child, results_only, depth + 1);
      else
        push_opt (argv, "--blacklist", child);
    }
  closedir (d);
}

/* Hide everything in DIR beside the way to the policy's paths inside it.  */
static void
hide_beside (struct ash_strvec *argv, const struct ash_policy *policy,
             const char *dir, int depth)
{
  DIR *d;
  struct dirent *de;

  if (policy_grants (policy, dir) || depth > 32)
    return;
  d = opendir (dir);
  if (!d)
    return;
  while ((de = readdir (d)))
    {
      _cleanup_free_ char *child = NULL;

      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      child = ash_path_join (dir, de->d_name);
      if (inside_any_policy_path (policy, child))
        {
          struct stat st;
          if (lstat (child, &st) == 0 && S_ISDIR (st.st_mode))
            hide_beside (argv, policy, child, depth + 1);
        }
      else
        push_opt (argv, "--blacklist", child);
    }
  closedir (d);
}

/* A link at the top of a home that names a directory outside the homes
   (~/.local kept on another disk) is part of that home, but firejail would
   show it.  Blacklist it, or every entry beside the way to the policy's
   paths inside it.  A link to a system directory changes nothing.  */
static void
hide_home_links (struct ash_strvec *argv, const struct ash_policy *policy,
                 const char *home, const char *other_home)
{
  DIR *d = opendir (home);
  struct dirent *de;

  if (!d)
    return;
  while ((de = readdir (d)))
    {
      _cleanup_free_ char *link = NULL;
      char target[PATH_MAX];
      struct stat st;
      bool system = false;

      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      link = ash_path_join (home, de->d_name);
      if (lstat (link, &st) < 0 || !S_ISLNK (st.st_mode))
        continue;
      if (!realpath (link, target) || stat (target, &st) < 0
          || !S_ISDIR (st.st_mode) || streq (target, "/"))
        continue;
      if (ash_path_is_inside (target, home)
          || (other_home && ash_path_is_inside (target, other_home))
          || ash_path_is_inside (home, target)
          || (other_home && ash_path_is_inside (other_home, target)))
        continue;
      for (size_t i = 0; i < ARRAY_SIZE (system_dirs); i++)
        if (ash_path_is_inside (target, system_dirs[i]))
          system = true;
      if (system)
        continue;
      if (inside_any_policy_path (policy, target))
        hide_beside (argv, policy, target, 0);
      else
        push_opt (argv, "--blacklist", target);
    }
  closedir (d);
}

/* Whether a path is whitelisted: the policy's paths inside the passwd
   entry's home, which firejail hides, and inside /tmp.  */
static bool
wants_whitelist (const char *path, const char *fj_home)
{
  return (fj_home && ash_path_is_inside (path, fj_home)
          && !streq (path, fj_home))
         || (ash_path_is_inside (path, "/tmp") && !streq (path, "/tmp"));
}

const char *ash_linux_mountinfo = "/proc/self/mountinfo";

/* Undo the octal escapes (\040 and the like) of a path in mountinfo, in
   place.  */
static void
unescape_mountinfo (char *s)
{
  char *w = s;

  for (char *r = s; *r; r++)
    {
      if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0'
          && r[2] <= '7' && r[3] >= '0' && r[3] <= '7')
        {
          *w++ = (char) ((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
          r += 3;
        }
      else
        *w++ = *r;
    }
  *w = '\0';
}

/* --read-only=/ reaches the root file system only: every other mount
   (a tmpfs, a second disk, /srv on its own file system) stays writable
   inside the sandbox, and a source tree or output directory there with it.
   Make each mount point of the host read-only by name, except those
   firejail replaces itself (/proc, /sys, /dev, /tmp, /run/user) and those
   inside a home it hides or blacklists.  The results directory is made writable after
   these.  Fails closed: when the mount table cannot be read, nothing
   runs.  */
static int
push_readonly_mounts (struct ash_strvec *argv, const char *fj_home,
                      const char *home, struct ash_error *err)
{
  static const char *const skipped[] = {
    "/proc", "/sys", "/dev", "/tmp", "/run/user",
  };
  _cleanup_free_ char *line = NULL;
  size_t n = 0;
  FILE *f = fopen (ash_linux_mountinfo, "re");

  if (!f)
    return ash_error_set (err, -errno,
                          _("firejail: cannot read the mount table: %s"),
                          strerror (errno));
  while (getline (&line, &n, f) > 0)
    {
      /* ID PARENT MAJOR:MINOR ROOT MOUNTPOINT ...  */
      char *save = NULL, *mp = NULL;
      char *tok = strtok_r (line, " ", &save);
      bool skip = false;

      for (int i = 0; tok && i < 4; i++)
        tok = strtok_r (NULL, " ", &save);
      mp = tok;
      if (!mp || mp[0] != '/')
        continue;
      unescape_mountinfo (mp);
      if (streq (mp, "/"))
        continue;
      for (size_t i = 0; i < ARRAY_SIZE (skipped); i++)
        if (ash_path_is_inside (mp, skipped[i]))
          skip = true;
      if ((fj_home && ash_path_is_inside (mp, fj_home))
          || (home && ash_path_is_inside (mp, home)))
        skip = true;
      if (!skip)
        {
          _cleanup_free_ char *opt = xasprintf ("--read-only=%s", mp);
          if (!ash_strvec_contains (argv, opt))
            ash_strvec_push (argv, opt);
        }
    }
  fclose (f);
  return 0;
}

static int
firejail_wrap (const struct ash_probe *probe, const struct ash_policy *policy,
               struct ash_cmd *cmd, struct ash_error *err)
{
  struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_strvec env = ASH_STRVEC_INIT;
  struct ash_strvec white = ASH_STRVEC_INIT;
  const char *fj_home = usable_dir (policy->passwd_home)
                          ? policy->passwd_home
                          : ash_linux_policy_home (policy);
  const char *home = usable_dir (policy->home) ? policy->home : fj_home;
  bool hide_home = false, home_listed = false, tmp_listed = false;

  if (policy->refusal)
    return ash_error_set (err, -EPERM, "%s", policy->refusal);
  if (!probe || !probe->usable || !probe->tool || !probe->helper)
    return ash_error_set (err, -EINVAL, _("firejail is not usable here"));
  if (cmd->argv.nr == 0 || cmd->argv.v[0][0] != '/')
    return ash_error_set (err, -EINVAL,
                          _("a sandboxed command must start with an "
                            "absolute path"));

  /* firejail hides the passwd entry's home, not HOME's.  A HOME elsewhere
     is blacklisted as a whole, unless it is under /tmp, which is private
     already.  */
  if (home && fj_home && !streq (home, fj_home)
      && !ash_path_is_inside (home, "/tmp"))
    hide_home = true;

  /* firejail is setuid: the parent-death signal ash sets is lost when it
     starts, and firejail outlives a killed ash with the scanner.  The
     wrapper, started first, keeps it and ends firejail's whole tree.  */
  ash_strvec_push (&argv, probe->helper);
  ash_strvec_push (&argv, "--supervise");
  ash_strvec_push (&argv, "--");
  ash_strvec_push (&argv, probe->tool);
  push_base_options (&argv, policy->network);
  ash_strvec_push (&argv, "--quiet");
  push_blacklists (&argv);
  /* A HOME that holds the results directory (--output-dir $HOME) is
     hidden around it.  */
  if (hide_home && policy_shows_inside (policy, home, true))
    hide_around (&argv, policy, home, true, 0);
  else if (hide_home)
    push_opt (&argv, "--blacklist", home);
  if (fj_home)
    hide_home_links (&argv, policy, fj_home, hide_home ? home : NULL);
  if (hide_home)
    hide_home_links (&argv, policy, home, fj_home);

  /* Whitelists: the outermost of the policy's paths inside the home and
     /tmp (a whitelisted directory shows what is below it).  */
  for (size_t i = 0; i <= policy->n_paths; i++)
    {
      const char *p = i < policy->n_paths ? policy->paths[i].path
                                          : probe->helper;
      bool covered = false;

      if (i < policy->n_paths && policy->paths[i].access == ASH_ACCESS_HIDE)
        continue;
      if (!wants_whitelist (p, fj_home))
        continue;
      if (hide_home && ash_path_is_inside (p, home))
        continue;
      for (size_t j = 0; j < policy->n_paths && !covered; j++)
        if (j != i && policy->paths[j].access != ASH_ACCESS_HIDE
            && wants_whitelist (policy->paths[j].path, fj_home)
            && ash_path_is_inside (p, policy->paths[j].path)
            && (!streq (p, policy->paths[j].path) || j < i))
          covered = true;
      if (covered || ash_strvec_contains (&white, p))
        continue;
      ash_strvec_push (&white, p);
      if (fj_home && ash_path_is_inside (p, fj_home))
        home_listed = true;
      else
        tmp_listed = true;
    }
  if (policy->results_dir && wants_whitelist (policy->results_dir, fj_home))
    {
      bool covered = false;
      for (size_t j = 0; j < white.nr; j++)
        if (ash_path_is_inside (policy->results_dir, white.v[j]))
          covered = true;
      if (!covered)
        {
          ash_strvec_push (&white, policy->results_dir);
          if (fj_home && ash_path_is_inside (policy->results_dir, fj_home))
            home_listed = true;
          else
            tmp_listed = true;
        }
    }
  for (size_t j = 0; j < white.nr; j++)
    push_opt (&argv, "--whitelist", white.v[j]);
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

      /* A hidden directory holding the results directory (the output
         directory, or a staged converter's source tree holding it) is not
         blacklisted whole, since firejail would hide the results directory
         with it: everything beside the way to what it shows is.  */
      if (pp->access == ASH_ACCESS_HIDE
          && policy_shows_inside (policy, pp->path, false))
        hide_around (&argv, policy, pp->path, false, 0);
      else if (pp->access == ASH_ACCESS_HIDE)
        push_opt (&argv, "--blacklist", pp->path);
      else if (pp->access != ASH_ACCESS_WRITE
               && wants_whitelist (pp->path, fj_home))
        push_opt (&argv, "--read-only", pp->path);
    }
  if (wants_whitelist (probe->helper, fj_home))
    push_opt (&argv, "--read-only", probe->helper);
  {
    int r = push_readonly_mounts (&argv, fj_home, home, err);
    if (r < 0)
      {
        ash_strvec_release (&argv);
        ash_strvec_release (&env);
        ash_strvec_release (&white);
        return r;
      }
  }
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access == ASH_ACCESS_WRITE
        && (!policy->results_dir
            || !streq (policy->paths[i].path, policy->results_dir)))
      push_opt (&argv, "--read-write", policy->paths[i].path);
  if (policy->results_dir)
    push_opt (&argv, "--read-write", policy->results_dir);

  /* No "--" before the command: firejail 0.9.72 runs what follows "--"
     through the account's login shell, which fails for an account whose
     shell is nologin.  The command is an absolute path, so it cannot be
     taken for an option.  */
  /* firejail keeps the terminal's session: the wrapper leaves it, so
     that the scanner has no controlling terminal.  */
  ash_linux_filter_prefix (&argv, probe->helper, policy, policy->network,
                           true);
  ash_strvec_pushv (&argv, cmd->argv.v);

  ash_linux_sandbox_env (policy, hide_home ? fj_home : home, "/tmp", &env);

  ash_strvec_release (&white);
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
  bool in_home = usable_dir (passwd_home)
                 && ash_path_is_inside (helper, passwd_home);
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
firejail_probe (const struct ash_host *host, struct ash_probe *ret)
{
  struct ash_strvec argv = ASH_STRVEC_INIT;
  _cleanup_free_ char *tool = NULL, *helper = NULL, *readlink_path = NULL;
  _cleanup_free_ char *true_path = NULL, *why = NULL, *own = NULL;
  _cleanup_free_ char *out = NULL, *errtext = NULL, *ns = NULL;
  int status, r;

  memset (ret, 0, sizeof *ret);
  if (ash_linux_find_tool (host, "firejail", &tool, NULL) < 0)
    {
      ret->reason = xstrdup (_("firejail is not installed"));
      return -ENOENT;
    }
  if (ash_linux_find_tool (host, "readlink", &readlink_path, &why) < 0
      || ash_linux_find_tool (host, "true", &true_path, &why) < 0)
    {
      ret->reason = xasprintf (_("firejail cannot be tested here (%s)"), why);
      return -ENOENT;
    }
  own = own_mount_namespace ();

  /* The same options as a scan, without --quiet, so that firejail's
     warning that it found an existing sandbox shows.  */
  ash_strvec_push (&argv, tool);
  push_base_options (&argv, false);
  push_blacklists (&argv);
  ash_strvec_push (&argv, "--private");
  ash_strvec_push (&argv, "--private-tmp");
  /* No "--": see firejail_wrap.  */
  ash_strvec_push (&argv, readlink_path);
  ash_strvec_push (&argv, "/proc/self/ns/mnt");
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  if (r < 0 || status != 0)
    {
      ret->reason = xasprintf (_("firejail could not run a test command "
                                 "(%s)"),
                               *errtext ? errtext : _("no output"));
      ash_strvec_release (&argv);
      return -EPERM;
    }
  ns = reported_namespace (out);
  if (strstr (out, "existing sandbox") || strstr (errtext, "existing sandbox")
      || strstr (errtext, "without any additional sandboxing"))
    {
      ret->reason = xasprintf (_("firejail ran a test command without a "
                                 "sandbox (%s)"),
                               errtext);
      ash_strvec_release (&argv);
      return -EPERM;
    }
  if (!ns || !own || streq (ns, own))
    {
      ret->reason = xasprintf (
        _("firejail ran a test command without a sandbox (it reported "
          "%s, and ASH's own mount namespace is %s)"),
        ns ? ns : _("no mount namespace"), own ? own : "?");
      ash_strvec_release (&argv);
      return -EPERM;
    }
  ash_strvec_release (&argv);

  helper = ash_linux_probe_helper (host, "firejail", ret);
  if (!helper)
    return -ENOENT;
  ash_strvec_push (&argv, tool);
  push_base_options (&argv, false);
  ash_strvec_push (&argv, "--quiet");
  push_private_showing (&argv, helper, host->passwd_home);
  /* No "--": see firejail_wrap.  */
  ash_linux_filter_prefix (&argv, helper, NULL, false, true);
  ash_strvec_push (&argv, true_path);
  free (out);
  free (errtext);
  out = errtext = NULL;
  r = ash_linux_probe_run (argv.v, &out, &errtext, &status);
  ash_strvec_release (&argv);
  if (r < 0 || status != 0)
    {
      ret->reason = xasprintf (
        _("firejail cannot apply the Unix-socket filter in its sandbox (%s)"),
        *errtext ? errtext : _("no output"));
      return -EPERM;
    }

  ret->usable = true;
  ret->tool = TAKE_PTR (tool);
  ret->helper = TAKE_PTR (helper);
  ret->notes = xstrdup (_("everything outside the home directory and /tmp "
                          "that your user can read stays readable; caches "
                          "are read-only"));
  return 0;
}

const struct ash_backend ash_backend_firejail = {
  .name = "firejail",
  .probe = firejail_probe,
  .wrap = firejail_wrap,
  .cleanup = NULL,
};
