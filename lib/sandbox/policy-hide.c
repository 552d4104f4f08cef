/* SPDX-License-Identifier: Apache-2.0 */
/* policy-hide.c -- what a backend that shows everything must hide.

   firejail (and any backend whose file system model is "everything
   visible, then restrict") starts from the host as it is.  What it hides,
   what it shows again inside the home and /tmp it makes private, and which
   mount points it makes read-only are decided here, with the rest of the
   policy, so that `ash sandbox explain` shows all of it and the backend
   only translates.  */

#include <config.h>

#include "sandbox/policy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "sandbox/homescreen.h"

/* Container runtime sockets and their directories.  */
static const char *const runtime_sockets[] = {
  "/run/docker.sock", "/var/run/docker.sock", "/run/docker",
  "/var/run/docker",  "/run/podman",          "/var/run/podman",
  "/run/containerd",  "/var/run/containerd",  "/run/crio",
  "/var/run/crio",    "/run/buildkit",        "/var/run/buildkit",
};

/* A link to one of these changes nothing: they are shown anyway.  */
static const char *const system_dirs[] = {
  "/usr",  "/etc", "/opt",   "/nix",   "/bin",
  "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
};

/* Mount points a backend that shows the host replaces itself.  */
static const char *const own_mounts[] = {
  "/proc", "/sys", "/dev", "/tmp", "/run/user",
};

static bool
usable_dir (const char *d)
{
  return d && d[0] == '/' && d[1] != '\0';
}

static void
hide_env (struct ash_policy *p, const char *path, const char *why,
          const char *env)
{
  for (size_t i = 0; i < p->n_hidden; i++)
    if (streq (p->hidden[i].path, path))
      return;
  p->hidden = xreallocarray (p->hidden, p->n_hidden + 1, sizeof *p->hidden);
  p->hidden[p->n_hidden].path = xstrdup (path);
  p->hidden[p->n_hidden].why = xstrdup (why);
  p->hidden[p->n_hidden].env = env ? xstrdup (env) : NULL;
  p->n_hidden++;
}

static void
hide (struct ash_policy *p, const char *path, const char *why)
{
  hide_env (p, path, why, NULL);
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

bool
ash_policy_shows_inside (const struct ash_policy *policy, const char *dir,
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
   directory holding the results directory): a backend that hides by name
   cannot show a path below a hidden one, so everything in it beside the
   way to those paths is hidden instead, entry by entry.  A directory that
   cannot be read is hidden whole, what it holds with it.  What appears
   there after the scanner starts is not covered; ash-sandbox(7) says
   so.  */
static void
hide_around (struct ash_policy *policy, const char *dir, bool results_only,
             const char *why, int depth)
{
  DIR *d = depth > 32 ? NULL : opendir (dir);
  struct dirent *de;

  if (!d)
    {
      hide (policy, dir, why);
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
      if (ash_policy_shows_inside (policy, child, results_only)
          && fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISDIR (st.st_mode))
        hide_around (policy, child, results_only, why, depth + 1);
      else
        hide (policy, child, why);
    }
  closedir (d);
}

/* Hide everything in DIR beside the way to the policy's paths inside it.  */
static void
hide_beside (struct ash_policy *policy, const char *dir, int depth)
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
            hide_beside (policy, child, depth + 1);
        }
      else
        hide (policy, child,
              _ ("beside the granted paths in a directory a "
                 "link at the top of the home names"));
    }
  closedir (d);
}

/* A link at the top of a home that names a directory outside the homes
   (~/.local kept on another disk) is part of that home, but a backend that
   shows the host would show it.  Hide it, or every entry beside the way to
   the policy's paths inside it.  A link to a system directory changes
   nothing.  */
static void
hide_home_links (struct ash_policy *policy, const char *home,
                 const char *other_home)
{
  _cleanup_strvec_ struct ash_strvec names = ASH_STRVEC_INIT;
  const char *why = NULL;

  if (!ash_homescreen_top_links (home, &names))
    return;
  for (size_t n = 0; n < names.nr; n++)
    {
      _cleanup_free_ char *link = ash_path_join (home, names.v[n]);
      _cleanup_free_ char *target = ash_homescreen_realpath (link);
      struct stat st;
      bool system = false;

      if (!target || stat (target, &st) < 0 || !S_ISDIR (st.st_mode)
          || streq (target, "/"))
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
        hide_beside (policy, target, 0);
      else
        {
          if (!why)
            why = _ ("named by a link at the top of the home");
          hide (policy, target, why);
        }
    }
}

void
ash_policy_hidden_release (struct ash_policy *p)
{
  for (size_t i = 0; i < p->n_hidden; i++)
    {
      free (p->hidden[i].path);
      free (p->hidden[i].why);
      free (p->hidden[i].env);
    }
  free (p->hidden);
  p->hidden = NULL;
  p->n_hidden = 0;
}

const char *
ash_policy_hidden_home (const struct ash_policy *p)
{
  if (usable_dir (p->passwd_home))
    return p->passwd_home;
  if (usable_dir (p->home))
    return p->home;
  return NULL;
}

bool
ash_policy_wants_shown (const struct ash_policy *p, const char *path)
{
  const char *fj_home = ash_policy_hidden_home (p);

  return (fj_home && ash_path_is_inside (path, fj_home)
          && !streq (path, fj_home))
         || (ash_path_is_inside (path, "/tmp") && !streq (path, "/tmp"));
}

/* The outermost of the policy's paths inside the hidden home and /tmp (a
   shown directory shows what is below it), and the results directory.  */
static void
add_shown (struct ash_policy *policy, const char *other_home)
{
  for (size_t i = 0; i < policy->n_paths; i++)
    {
      const char *p = policy->paths[i].path;
      bool covered = false;

      if (policy->paths[i].access == ASH_ACCESS_HIDE
          || !ash_policy_wants_shown (policy, p))
        continue;
      if (other_home && ash_path_is_inside (p, other_home))
        continue;
      for (size_t j = 0; j < policy->n_paths && !covered; j++)
        if (j != i && policy->paths[j].access != ASH_ACCESS_HIDE
            && ash_policy_wants_shown (policy, policy->paths[j].path)
            && ash_path_is_inside (p, policy->paths[j].path)
            && (!streq (p, policy->paths[j].path) || j < i))
          covered = true;
      if (!covered && !ash_strvec_contains (&policy->shown, p))
        ash_strvec_push (&policy->shown, p);
    }
  if (policy->results_dir
      && ash_policy_wants_shown (policy, policy->results_dir))
    {
      for (size_t j = 0; j < policy->shown.nr; j++)
        if (ash_path_is_inside (policy->results_dir, policy->shown.v[j]))
          return;
      ash_strvec_push (&policy->shown, policy->results_dir);
    }
}

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

/* Making / read-only reaches the root file system only: every other mount
   (a tmpfs, a second disk, /srv on its own file system) would stay
   writable, and a source tree or output directory there with it.  Each
   mount point of the host is listed, except those the backend replaces
   itself and those inside a home it hides.  */
static int
add_readonly_mounts (struct ash_policy *policy, const char *mountinfo,
                     const char *other_home)
{
  const char *fj_home = ash_policy_hidden_home (policy);
  _cleanup_free_ char *line = NULL;
  size_t n = 0;
  FILE *f = fopen (mountinfo, "re");

  if (!f)
    return -errno;
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
      for (size_t i = 0; i < ARRAY_SIZE (own_mounts); i++)
        if (ash_path_is_inside (mp, own_mounts[i]))
          skip = true;
      if ((fj_home && ash_path_is_inside (mp, fj_home))
          || (other_home && ash_path_is_inside (mp, other_home)))
        skip = true;
      if (!skip && !ash_strvec_contains (&policy->readonly_mounts, mp))
        ash_strvec_push (&policy->readonly_mounts, mp);
    }
  fclose (f);
  return 0;
}

int
ash_policy_add_hiding (struct ash_policy *p, char *const *environ,
                       const char *mountinfo, bool list_mounts)
{
  const char *fj_home = ash_policy_hidden_home (p);
  const char *home = usable_dir (p->home) ? p->home : fj_home;
  const char *other_home = NULL;
  const char *ssh_auth_sock = NULL;
  int r;

  for (char *const *e = environ; e && *e; e++)
    if (ash_str_has_prefix (*e, "SSH_AUTH_SOCK="))
      ssh_auth_sock = *e + strlen ("SSH_AUTH_SOCK=");

  {
    const char *why = _ ("container runtime socket");
    for (size_t i = 0; i < ARRAY_SIZE (runtime_sockets); i++)
      hide (p, runtime_sockets[i], why);
  }
  {
    _cleanup_free_ char *run_user
      = xasprintf ("/run/user/%lu", (unsigned long) getuid ());
    hide (p, run_user,
          _ ("the user's runtime directory (session bus, "
             "agents)"));
  }
  if (ssh_auth_sock && ssh_auth_sock[0] == '/')
    hide_env (p, ssh_auth_sock, _ ("the SSH agent's socket"), "SSH_AUTH_SOCK");

  /* The home a backend like firejail hides is the passwd entry's.  A HOME
     elsewhere is hidden as a whole, unless it is under /tmp, which is
     private already.  */
  if (home && fj_home && !streq (home, fj_home)
      && !ash_path_is_inside (home, "/tmp"))
    {
      other_home = home;
      /* A HOME that holds the results directory (--output-dir $HOME) is
         hidden around it.  */
      if (ash_policy_shows_inside (p, home, true))
        hide_around (p, home, true,
                     _ ("HOME, which is not the passwd entry's home"), 0);
      else
        hide (p, home, _ ("HOME, which is not the passwd entry's home"));
    }
  /* A hidden directory holding paths the policy shows (the output
     directory, or a staged converter's source tree holding the results
     directory) cannot be hidden whole: everything beside the way to what
     it shows is.  */
  for (size_t i = 0; i < p->n_paths; i++)
    if (p->paths[i].access == ASH_ACCESS_HIDE
        && ash_policy_shows_inside (p, p->paths[i].path, false))
      {
        _cleanup_free_ char *path = xstrdup (p->paths[i].path);
        _cleanup_free_ char *why
          = xstrdup (p->paths[i].rule ? p->paths[i].rule : "");
        hide_around (p, path, false, why, 0);
      }
  if (fj_home)
    hide_home_links (p, fj_home, other_home);
  if (other_home)
    hide_home_links (p, other_home, fj_home);

  add_shown (p, other_home);

  if (!list_mounts)
    return 0;
  p->mounts_listed = true;
  r = add_readonly_mounts (p, mountinfo ? mountinfo : "/proc/self/mountinfo",
                           other_home);
  if (r < 0)
    {
      free (p->mounts_error);
      p->mounts_error
        = xasprintf (_ ("cannot read the mount table %s: %s"),
                     mountinfo ? mountinfo : "/proc/self/mountinfo",
                     strerror (-r));
    }
  return 0;
}
