/* SPDX-License-Identifier: Apache-2.0 */
/* test-backend-wrap.c -- the command lines the Linux backends build for
   representative policies, word for word.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "fs/tree.h"
#include "tap.h"
#include "../../linux/backends.h"
#include "../../linux/private-dir.h"

#define HELPER "/usr/libexec/ash/ash-landlock-exec"

struct fixture
{
  struct ash_policy policy;
  struct ash_policy_path paths[8];
  struct ash_policy_link links[2];
  struct ash_linux_probe probe;
  struct ash_wrap_state *state;
  struct ash_cmd cmd;
};

static void
add_path (struct fixture *f, const char *path, enum ash_access access)
{
  struct ash_policy_path *p = &f->paths[f->policy.n_paths++];

  p->path = (char *) path;
  p->access = access;
  p->exec = access == ASH_ACCESS_READ;
  p->rule = (char *) "test";
}

/* A bandit-like scanner: the system, its tool, the source tree with the
   output directory inside it, its results directory, and uv's cache under
   the home directory.  */
static void
fixture_init (struct fixture *f, const char *tool)
{
  memset (f, 0, sizeof *f);
  f->policy.paths = f->paths;
  f->policy.scanner = (char *) "bandit";
  add_path (f, "/usr", ASH_ACCESS_READ);
  add_path (f, "/etc", ASH_ACCESS_READ);
  add_path (f, "/src", ASH_ACCESS_DATA);
  add_path (f, "/src/.ash/ash_output", ASH_ACCESS_DATA);
  add_path (f, "/src/.ash/ash_output/scanners/bandit", ASH_ACCESS_WRITE);
  add_path (f, "/home/u/.cache/uv", ASH_ACCESS_CACHE);
  f->policy.results_dir = (char *) "/src/.ash/ash_output/scanners/bandit";
  f->policy.home = (char *) "/home/u";
  f->policy.passwd_home = (char *) "/home/u";
  ash_strvec_init (&f->policy.env);
  ash_strvec_push (&f->policy.env, "PATH=/usr/bin:/bin");
  ash_strvec_push (&f->policy.env, "LANG=C.UTF-8");
  ash_strvec_push (&f->policy.env, "ASH_TEST_SETTING=operator");
  /* An adapter's own settings: one over a variable of the policy's, one
     of its own.  */
  ash_strvec_init (&f->policy.adapter_env);
  ash_strvec_push (&f->policy.adapter_env, "ASH_TEST_SETTING=adapter");
  ash_strvec_push (&f->policy.adapter_env, "ASH_TEST_ADAPTER=on");
  ash_strvec_init (&f->policy.private_caches);
  ash_strvec_init (&f->policy.warnings);
  f->probe.base.usable = true;
  f->probe.tool = (char *) tool;
  f->probe.helper = (char *) HELPER;
  ash_cmd_init (&f->cmd);
  ash_strvec_push (&f->cmd.argv, "/usr/bin/bandit");
  ash_strvec_push (&f->cmd.argv, "-r");
  ash_strvec_push (&f->cmd.argv, "/src");
  ash_strvec_push (&f->cmd.env, "AWS_SECRET_ACCESS_KEY=leak");
  ash_strvec_push (&f->cmd.env, "PATH=/usr/bin:/bin");
  f->cmd.cwd = xstrdup ("/src");
}

static void
fixture_release (struct fixture *f)
{
  ash_policy_hidden_release (&f->policy);
  ash_strvec_release (&f->policy.shown);
  ash_strvec_release (&f->policy.readonly_mounts);
  free (f->policy.mounts_error);
  ash_strvec_release (&f->policy.env);
  ash_strvec_release (&f->policy.adapter_env);
  ash_strvec_release (&f->policy.private_caches);
  ash_strvec_release (&f->policy.warnings);
  ash_error_release (&f->policy.refusal);
  ash_cmd_release (&f->cmd);
}

/* The wrapped command gets the adapter's settings set over the policy's
   environment; the policy as decided keeps its own.  */
static void
check_adapter_env (const struct fixture *f, const char *name)
{
  tap_is_str (ash_strvec_getenv (&f->cmd.env, "ASH_TEST_ADAPTER"), "on",
              "%s: the adapter's own setting is passed", name);
  tap_is_str (ash_strvec_getenv (&f->cmd.env, "ASH_TEST_SETTING"), "adapter",
              "%s: the adapter's setting is set over the policy's", name);
  tap_is_str (ash_strvec_getenv (&f->policy.env, "ASH_TEST_SETTING"),
              "operator", "%s: the policy's environment is left as decided",
              name);
  tap_ok (ash_strvec_getenv (&f->policy.env, "ASH_TEST_ADAPTER") == NULL,
          "%s: the adapter's setting is not added to the policy's", name);
}

/* The words of SV joined, with each "--fd N" left out and counted in
   *N_FDS when N_FDS is not NULL, each "--seccomp-fd N" and "--ready-fd N"
   written with FD for N and counted as well, and ASH's mount namespace in
   "--not-mount-ns=N" written NS; *UNPASSED counts the rules (--ro,
   --rw, --tmpdir, --home) not preceded by an --fd.  */
static char *
joined_no_fds (const struct ash_strvec *sv, int *n_fds, int *unpassed)
{
  struct ash_buf b = ASH_BUF_INIT;
  bool after_fd = false;

  *n_fds = *unpassed = 0;
  for (size_t i = 0; i < sv->nr; i++)
    {
      const char *w = sv->v[i];

      if (streq (w, "--"))
        {
          for (; i < sv->nr; i++)
            {
              ash_buf_addch (&b, ' ');
              ash_buf_addstr (&b, sv->v[i]);
            }
          break;
        }
      if (streq (w, "--fd") && i + 1 < sv->nr)
        {
          (*n_fds)++;
          i++;
          after_fd = true;
          continue;
        }
      if ((streq (w, "--seccomp-fd") || streq (w, "--ready-fd"))
          && i + 1 < sv->nr)
        {
          (*n_fds)++;
          i++;
          ash_buf_addf (&b, " %s FD", w);
          continue;
        }
      if (strncmp (w, "--not-mount-ns=", 15) == 0)
        {
          ash_buf_addstr (&b, " --not-mount-ns=NS");
          continue;
        }
      if ((streq (w, "--ro") || streq (w, "--rw") || streq (w, "--tmpdir")
           || streq (w, "--home"))
          && !after_fd)
        (*unpassed)++;
      after_fd = false;
      if (i)
        ash_buf_addch (&b, ' ');
      ash_buf_addstr (&b, w);
    }
  return ash_buf_detach (&b);
}

/* The words of SV joined, with the number after "--seccomp-fd" and
   "--ready-fd" written FD, and the one in "--not-mount-ns=N" NS.  */
static char *
joined (const struct ash_strvec *sv)
{
  struct ash_buf b = ASH_BUF_INIT;

  for (size_t i = 0; i < sv->nr; i++)
    {
      if (i)
        ash_buf_addch (&b, ' ');
      if (i > 0
          && (streq (sv->v[i - 1], "--seccomp-fd")
              || streq (sv->v[i - 1], "--ready-fd")))
        {
          ash_buf_addstr (&b, "FD");
          continue;
        }
      if (strncmp (sv->v[i], "--not-mount-ns=", 15) == 0)
        {
          ash_buf_addstr (&b, "--not-mount-ns=NS");
          continue;
        }
      ash_buf_addstr (&b, sv->v[i]);
    }
  return ash_buf_detach (&b);
}

/* The links this host's merged /usr makes bwrap recreate.  */
static char *
merged_usr (void)
{
  static const char *const links[]
    = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };
  struct ash_buf b = ASH_BUF_INIT;

  for (size_t i = 0; i < ARRAY_SIZE (links); i++)
    {
      char t[256];
      struct stat st;
      ssize_t n;

      if (lstat (links[i], &st) < 0 || !S_ISLNK (st.st_mode))
        continue;
      n = readlink (links[i], t, sizeof t - 1);
      if (n <= 0)
        continue;
      t[n] = '\0';
      ash_buf_addf (&b, " --symlink %s %s", t, links[i]);
    }
  return ash_buf_detach (&b);
}

/* The descriptor after "--seccomp-fd" in the wrapped command, or -1.  */
static int
seccomp_fd_of (const struct ash_cmd *cmd)
{
  for (size_t i = 0; i + 1 < cmd->argv.nr; i++)
    if (streq (cmd->argv.v[i], "--seccomp-fd"))
      return atoi (cmd->argv.v[i + 1]);
  return -1;
}

/* The descriptors of this process that are socket-filter memfds, into
   RET (at most MAX); how many.  */
static int
filter_memfds (int *ret, int max)
{
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *de;
  int n = 0;

  if (d == NULL)
    return -1;
  while ((de = readdir (d)) != NULL)
    {
      _cleanup_free_ char *p = xasprintf ("/proc/self/fd/%s", de->d_name);
      char target[256];
      ssize_t len = readlink (p, target, sizeof target - 1);

      if (len <= 0)
        continue;
      target[len] = '\0';
      if (strncmp (target, "/memfd:ash-socket-filter", 24) == 0 && n < max)
        ret[n++] = atoi (de->d_name);
    }
  closedir (d);
  return n;
}

/* prepare() builds the socket filter of the policy ahead, off the
   calling thread, and the wrap() that follows hands over that filter and
   builds none of its own.  Run first, before any filter of the process
   is built.  */
static void
test_prepare (void)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  int fds[8], n = 0;

  fixture_init (&f, "/usr/bin/bwrap");
  tap_is_int (filter_memfds (fds, 8), 0,
              "control: no socket filter is built before prepare()");
  ash_backend_bwrap.prepare (&f.probe.base, &f.policy);
  /* Not a timing: the build is waited for, up to a minute.  */
  for (int i = 0; i < 6000 && (n = filter_memfds (fds, 8)) == 0; i++)
    usleep (10000);
  tap_ok (n >= 1, "prepare() builds the socket filter without a wrap()");
  tap_is_int (ash_backend_bwrap.wrap (&f.probe.base, &f.policy, &f.cmd,
                                      &f.state, &err),
              0, "the wrap() after prepare() succeeds");
  n = filter_memfds (fds, 8);
  tap_is_int (n, 1, "and no other filter is built");
  tap_is_int (seccomp_fd_of (&f.cmd), n == 1 ? fds[0] : -2,
              "the wrap() hands over the filter prepare() built");
  ash_backend_bwrap.cleanup (f.state);
  f.state = NULL;
  ash_error_release (&err);
  fixture_release (&f);
}

static void
test_bwrap (bool overlay, bool network)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *got = NULL, *want = NULL, *links = merged_usr ();
  int r;

  fixture_init (&f, "/usr/bin/bwrap");
  f.probe.base.cache_overlay = overlay;
  f.policy.network = network;
  r = ash_backend_bwrap.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                              &err);
  tap_is_int (r, 0, "bwrap wrap (overlay %d, network %d) succeeds", overlay,
              network);
  got = joined (&f.cmd.argv);
  want = xasprintf (
    "/usr/bin/bwrap --unshare-user --unshare-ipc --unshare-pid --unshare-uts"
    " --unshare-cgroup-try%s --die-with-parent --new-session"
    " --cap-drop ALL%s"
    " --dev /dev --proc /proc"
    " --ro-bind-try /proc/sys /proc/sys"
    " --ro-bind-try /proc/sysrq-trigger /proc/sysrq-trigger"
    " --ro-bind-try /proc/irq /proc/irq --ro-bind-try /proc/bus /proc/bus"
    " --ro-bind-try /etc /etc --ro-bind-try /src /src --tmpfs /tmp"
    " --ro-bind-try /usr /usr --tmpfs /home/u"
    " --ro-bind-try /src/.ash/ash_output /src/.ash/ash_output"
    " %s"
    " --ro-bind-try " HELPER " " HELPER
    " --bind /src/.ash/ash_output/scanners/bandit"
    " /src/.ash/ash_output/scanners/bandit"
    " --chdir /src -- " HELPER
    " --socket-filter --not-mount-ns=NS%s --seccomp-fd FD"
    " --ready-fd FD --"
    " /usr/bin/bandit -r /src",
    network ? "" : " --unshare-net", links,
    overlay ? "--overlay-src /home/u/.cache/uv --tmp-overlay /home/u/.cache/uv"
            : "--ro-bind-try /home/u/.cache/uv /home/u/.cache/uv",
    network ? " --network" : " --private-network");
  tap_is_str (got, want, "bwrap argv (overlay %d, network %d)", overlay,
              network);
  {
    /* The socket filter for the same policy (no network: a network
       namespace of its own, IP sockets kept for its loopback), built once
       and shared: passed on, and left open by cleanup().  */
    int fd = seccomp_fd_of (&f.cmd);
    bool passed = false;

    for (unsigned i = 0; i < f.cmd.n_pass_fds; i++)
      passed |= f.cmd.pass_fds[i] == fd;
    tap_ok (fd > 2 && passed, "bwrap: --seccomp-fd %d is passed to bwrap", fd);
    tap_is_int (fd,
                ash_linux_socket_filter_fd (network ? ASH_SOCKETS_NETWORK
                                                    : ASH_SOCKETS_NETNS,
                                            &err),
                "bwrap: the filter is the %s one",
                network ? "network" : "network-namespace");
    ash_backend_bwrap.cleanup (f.state);
    f.state = NULL;
    tap_is_int (fcntl (fd, F_GET_SEALS),
                F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL,
                "bwrap: after cleanup the filter's sealed memfd is open");
  }
  tap_is_str (ash_strvec_getenv (&f.cmd.env, "HOME"), "/home/u",
              "bwrap: HOME is the private home at its usual path");
  tap_is_str (ash_strvec_getenv (&f.cmd.env, "TMPDIR"), "/tmp",
              "bwrap: TMPDIR is the private /tmp");
  tap_ok (ash_strvec_getenv (&f.cmd.env, "AWS_SECRET_ACCESS_KEY") == NULL,
          "bwrap: the environment is the policy's, not the caller's");
  tap_is_str (ash_strvec_getenv (&f.cmd.env, "LANG"), "C.UTF-8",
              "bwrap: the policy's variables are passed");
  check_adapter_env (&f, "bwrap");
  ash_error_release (&err);
  fixture_release (&f);
}

static void
test_refusal (const struct ash_backend *b, const char *tool)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  int r;

  fixture_init (&f, tool);
  f.policy.scanner = (char *) "bandit";
  ash_policy_refuse (&f.policy, "x");
  f.policy.scanner = NULL;
  r = b->wrap (&f.probe.base, &f.policy, &f.cmd, &f.state, &err);
  tap_is_int (r, -EPERM, "%s: a refused policy is not wrapped", b->name);
  tap_is_str (err.message, "bandit cannot be sandboxed as requested: x",
              "%s: with the policy's reason", b->name);
  tap_is_str (ash_error_kind_name (err.kind), "SandboxRefused",
              "%s: and its kind", b->name);
  tap_is_str (f.cmd.argv.v[0], "/usr/bin/bandit",
              "%s: the command is left alone", b->name);
  ash_error_release (&err);
  fixture_release (&f);
}

static void
test_firejail_other_home (void)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *got = NULL, *want = NULL;
  int r;

  memset (&f, 0, sizeof f);
  f.policy.paths = f.paths;
  add_path (&f, "/usr", ASH_ACCESS_READ);
  add_path (&f, "/home/u/.local/bin", ASH_ACCESS_READ);
  add_path (&f, "/work/h/bin", ASH_ACCESS_READ);
  add_path (&f, "/tmp/src", ASH_ACCESS_DATA);
  add_path (&f, "/tmp/src/out/scanners/x", ASH_ACCESS_WRITE);
  add_path (&f, "/opt/cache", ASH_ACCESS_CACHE);
  f.policy.results_dir = (char *) "/tmp/src/out/scanners/x";
  f.policy.home = (char *) "/work/h";
  f.policy.passwd_home = (char *) "/home/u";
  ash_strvec_init (&f.policy.env);
  ash_strvec_push (&f.policy.env, "PATH=/usr/bin");
  ash_strvec_init (&f.policy.private_caches);
  ash_strvec_push (&f.policy.private_caches,
                   "UV_CACHE_DIR=/tmp/src/out/scanners/x/.uv-cache");
  f.probe.base.usable = true;
  f.probe.tool = (char *) "/usr/bin/firejail";
  f.probe.helper = (char *) HELPER;
  ash_cmd_init (&f.cmd);
  ash_strvec_push (&f.cmd.argv, "/usr/bin/x");

  /* Every other mount point of the host is made read-only by name (a
     fixture mount table: /srv/data and "/mnt/a b"; /proc, /sys, /dev,
     /tmp and what lies in the hidden home are firejail's own).  */
  const char *srcdir = getenv ("top_srcdir");
  static char *mountinfo;
  if (!mountinfo)
    mountinfo = xasprintf ("%s/tests/fixtures/mountinfo-sample",
                           srcdir ? srcdir : ".");
  char *agent_env[] = { (char *) "SSH_AUTH_SOCK=/run/agent.sock", NULL };
  ash_policy_add_hiding (&f.policy, agent_env, mountinfo, true);
  r = ash_backend_firejail.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0, "firejail wrap succeeds");
  got = joined (&f.cmd.argv);
  want = xasprintf (
    HELPER
    " --supervise -- /usr/bin/firejail --noprofile --deterministic-shutdown"
    " --deterministic-exit-code --private-dev --nonewprivs"
    " --caps.drop=all --seccomp --nogroups --dbus-user=none"
    " --dbus-system=none --net=none --read-only=/ --quiet"
    " --blacklist=/run/docker.sock --blacklist=/var/run/docker.sock"
    " --blacklist=/run/docker --blacklist=/var/run/docker"
    " --blacklist=/run/podman --blacklist=/var/run/podman"
    " --blacklist=/run/containerd --blacklist=/var/run/containerd"
    " --blacklist=/run/crio --blacklist=/var/run/crio"
    " --blacklist=/run/buildkit --blacklist=/var/run/buildkit"
    " --blacklist=/run/user/%lu --blacklist=/run/agent.sock"
    " --blacklist=/work/h"
    " --whitelist=/home/u/.local/bin --whitelist=/tmp/src"
    " --read-only=/home/u/.local/bin --read-only=/tmp/src"
    " --read-only=/srv/data --read-only=/mnt/a b"
    " --read-write=/tmp/src/out/scanners/x"
    " " HELPER " --socket-filter --not-mount-ns=NS --private-network"
    " --new-session"
    " -- /usr/bin/x",
    (unsigned long) getuid ());
  tap_is_str (got, want, "firejail argv with HOME other than the passwd home");
  tap_is_str (ash_strvec_getenv (&f.cmd.env, "HOME"), "/home/u",
              "firejail: HOME is the home firejail makes private");
  tap_is_str (ash_strvec_getenv (&f.cmd.env, "UV_CACHE_DIR"),
              "/tmp/src/out/scanners/x/.uv-cache",
              "firejail: a private cache variable is set");
  ash_error_release (&err);
  ash_strvec_release (&f.policy.env);
  ash_strvec_release (&f.policy.adapter_env);
  ash_strvec_release (&f.policy.private_caches);
  ash_cmd_release (&f.cmd);

  /* The same home, nothing listed inside it or /tmp.  */
  fixture_init (&f, "/usr/bin/firejail");
  f.policy.n_paths = 2;
  f.policy.results_dir = (char *) "/srv/out/x";
  ash_policy_add_hiding (&f.policy, NULL, mountinfo, true);
  r = ash_backend_firejail.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0, "firejail wrap (nothing in the home) succeeds");
  free (got);
  got = joined (&f.cmd.argv);
  tap_ok (strstr (got, " --private --private-tmp --read-only=/srv/data"
                       " --read-only=/mnt/a b --read-only=/work/h/mnt"
                       " --read-write=/srv/out/x /")
            != NULL,
          "firejail: an empty private home and /tmp when the policy lists "
          "nothing there");
  tap_ok (strstr (got, "--blacklist=/home/u") == NULL
            && strstr (got, "agent.sock") == NULL,
          "firejail: HOME equal to the passwd home is not blacklisted");
  tap_ok (strstr (got, "--net=none") != NULL, "firejail: no network");
  ash_error_release (&err);
  fixture_release (&f);
}

static void
test_landlock (void)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *got = NULL, *want = NULL, *priv = NULL;
  _cleanup_free_ char *link_path = NULL;
  const char *tmpdir, *home;
  char target[256];
  ssize_t n;
  struct stat st;
  int r;

  fixture_init (&f, NULL);
  f.links[0].name = (char *) ".cache/uv";
  f.links[0].target = (char *) "/home/u/.cache/uv";
  f.policy.home_links = f.links;
  f.policy.n_home_links = 1;
  f.policy.network = true;
  r = ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0, "landlock wrap succeeds");
  check_adapter_env (&f, "landlock");
  tmpdir = ash_strvec_getenv (&f.cmd.env, "TMPDIR");
  home = ash_strvec_getenv (&f.cmd.env, "HOME");
  tap_ok (tmpdir && home, "landlock: TMPDIR and HOME are set");
  if (!tmpdir || !home)
    return;
  priv = xstrndup (tmpdir, strlen (tmpdir) - strlen ("/tmp"));
  tap_is_str (home, (free (want), want = ash_path_join (priv, "home")),
              "landlock: HOME is next to TMPDIR in one private directory");
  tap_ok (stat (priv, &st) == 0 && S_ISDIR (st.st_mode)
            && (st.st_mode & 07777) == 0700,
          "landlock: the private directory exists with mode 0700");
  {
    int n_fds, unpassed;

    /* Every path is handed over as a descriptor ash opened; one that is
       not there (the fixture's /src, /home/u) grants nothing and is left
       out.  */
    got = joined_no_fds (&f.cmd.argv, &n_fds, &unpassed);
    free (want);
    want
      = xasprintf (HELPER " --network --seccomp-fd FD --ready-fd FD --ro /usr"
                          " --ro /etc"
                          " --tmpdir %s/tmp --home %s/home -- /usr/bin/bandit"
                          " -r"
                          " /src",
                   priv, priv);
    tap_is_str (got, want, "landlock argv");
    tap_is_int (unpassed, 0, "landlock: every rule is made from a descriptor");
    tap_is_int ((int) f.cmd.n_pass_fds, n_fds,
                "landlock: each --fd is passed to the wrapper");
  }
  link_path = xasprintf ("%s/home/.cache/uv", priv);
  n = readlink (link_path, target, sizeof target - 1);
  if (n > 0)
    target[n] = '\0';
  tap_ok (n > 0 && streq (target, "/home/u/.cache/uv"),
          "landlock: a granted path under the real home is linked in the "
          "private one");
  ash_backend_landlock.cleanup (f.state);
  tap_ok (ash_backend_landlock.finish != NULL,
          "landlock: the backend can be waited for");
  ash_backend_landlock.finish ();
  tap_ok (lstat (priv, &st) < 0 && errno == ENOENT,
          "landlock: cleanup removes the private directory, by the time "
          "finish() returns");
  ash_error_release (&err);
  fixture_release (&f);
}

/* Once the wrapper has started, running() closes ASH's copies of the
   descriptors B handed it (Landlock's rules' paths and private
   directories, the ready pipe's write end), but not the socket filter,
   which every spawn shares; cleanup() then closes nothing twice.  */
static void
test_running (const struct ash_backend *b, const char *tool, int at_least)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  int fds[ASH_CMD_MAX_PASS_FDS], filter, n, open_after = 0, reused = -1;

  fixture_init (&f, tool);
  if (b->wrap (&f.probe.base, &f.policy, &f.cmd, &f.state, &err) < 0)
    {
      tap_ok (false, "%s wrap for running(): %s", b->name, err.message);
      ash_error_release (&err);
      fixture_release (&f);
      return;
    }
  filter = seccomp_fd_of (&f.cmd);
  n = (int) f.cmd.n_pass_fds;
  memcpy (fds, f.cmd.pass_fds, (size_t) n * sizeof *fds);
  tap_ok (n >= at_least, "%s: the wrapper is handed %d descriptors", b->name,
          n);
  b->running (f.state);
  for (int i = 0; i < n; i++)
    if (fds[i] != filter && fcntl (fds[i], F_GETFD) >= 0)
      open_after++;
  tap_is_int (open_after, 0,
              "%s: running() closes every descriptor handed to the "
              "wrapper but the filter",
              b->name);
  tap_ok (fcntl (filter, F_GET_SEALS) >= 0,
          "%s: running() leaves the shared socket filter open", b->name);
  /* A descriptor opened now may take one of the closed numbers:
     cleanup() must not close it.  */
  reused = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  b->cleanup (f.state);
  f.state = NULL;
  tap_ok (reused >= 0 && fcntl (reused, F_GETFD) >= 0,
          "%s: cleanup() after running() closes none of them again", b->name);
  if (reused >= 0)
    close (reused);
  if (b->finish)
    b->finish ();
  ash_error_release (&err);
  fixture_release (&f);
}

/* Wrap the fixture's command with or without a network and return the
   --seccomp-fd it is given (-1 when none), after checking that it is
   among the descriptors the spawn passes on.  */
static int
wrap_for_filter (bool network)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  bool passed = false;
  int r, fd;

  fixture_init (&f, NULL);
  f.policy.network = network;
  r = ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0, "landlock wrap (%s) succeeds",
              network ? "network" : "no network");
  fd = seccomp_fd_of (&f.cmd);
  for (unsigned i = 0; i < f.cmd.n_pass_fds; i++)
    passed |= f.cmd.pass_fds[i] == fd;
  tap_ok (fd > 2 && passed,
          "landlock (%s): --seccomp-fd %d is passed to the wrapper",
          network ? "network" : "no network", fd);
  ash_backend_landlock.cleanup (f.state);
  ash_error_release (&err);
  fixture_release (&f);
  return fd;
}

/* The socket filter is built once per filter kind for the life of ash and
   handed to every wrapper as a sealed memfd, which cleanup() leaves
   open.  */
static void
test_landlock_filter_fd (void)
{
  int off = wrap_for_filter (false);
  int on = wrap_for_filter (true);
  int off2 = wrap_for_filter (false);
  int seals, flags;
  struct stat st;

  tap_ok (off != on, "the filters without and with a network are two "
                     "descriptors");
  tap_is_int (off2, off, "a second scanner gets the same filter (built once)");
  for (int i = 0; i < 2; i++)
    {
      int fd = i ? on : off;
      const char *what = i ? "network" : "no network";

      seals = fcntl (fd, F_GET_SEALS);
      tap_is_int (seals,
                  F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL,
                  "the %s filter is a memfd with all four seals", what);
      flags = fcntl (fd, F_GETFD);
      tap_ok (flags >= 0 && (flags & FD_CLOEXEC),
              "the %s filter stays open after cleanup, close-on-exec", what);
      if (fstat (fd, &st) < 0)
        st.st_size = -1;
      tap_ok (st.st_size > 0 && st.st_size % 8 == 0,
              "the %s filter holds whole BPF instructions (%lld bytes)", what,
              (long long) st.st_size);
      tap_is_int ((int) write (fd, "x", 1), -1,
                  "the %s filter cannot be written", what);
    }
}

/* A granted directory nested in another granted one (a pyenv tool's bin
   directory in its install prefix), listed inner first: one link for the
   outer directory, none beneath it; an inner link that the outer one
   would shadow with another directory is refused.  */
static void
test_landlock_nested (void)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  char tmpl[] = "/tmp/test-backend-wrap-XXXXXX";
  _cleanup_free_ char *outer = NULL, *inner = NULL, *other = NULL;
  _cleanup_free_ char *priv = NULL, *at = NULL;
  const char *home;
  struct stat st;
  int r;

  if (!mkdtemp (tmpl))
    {
      tap_ok (false, "cannot make %s: %s", tmpl, strerror (errno));
      return;
    }
  outer = ash_path_join (tmpl, "versions/3.11");
  inner = ash_path_join (tmpl, "versions/3.11/bin");
  other = ash_path_join (tmpl, "other");
  {
    _cleanup_free_ char *v = ash_path_join (tmpl, "versions");
    if (mkdir (v, 0700) < 0 || mkdir (outer, 0700) < 0
        || mkdir (inner, 0700) < 0 || mkdir (other, 0700) < 0)
      tap_ok (false, "cannot make the directories: %s", strerror (errno));
  }

  fixture_init (&f, NULL);
  f.links[0].name = (char *) ".pyenv/versions/3.11/bin";
  f.links[0].target = inner;
  f.links[1].name = (char *) ".pyenv/versions/3.11";
  f.links[1].target = outer;
  f.policy.home_links = f.links;
  f.policy.n_home_links = 2;
  r = ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0,
              "landlock: nested granted directories in the home "
              "wrap (%s)",
              err.message ? err.message : "no error");
  home = ash_strvec_getenv (&f.cmd.env, "HOME");
  at = home ? ash_path_join (home, ".pyenv/versions/3.11") : NULL;
  tap_ok (at && lstat (at, &st) == 0 && S_ISLNK (st.st_mode),
          "landlock: the outer directory is a link in the private home");
  free (at);
  at = home ? ash_path_join (home, ".pyenv/versions/3.11/bin") : NULL;
  tap_ok (at && stat (at, &st) == 0 && S_ISDIR (st.st_mode),
          "landlock: the inner one is reached through it");
  ash_backend_landlock.cleanup (f.state);
  ash_error_release (&err);
  fixture_release (&f);

  fixture_init (&f, NULL);
  f.links[0].name = (char *) ".pyenv/versions/3.11";
  f.links[0].target = outer;
  f.links[1].name = (char *) ".pyenv/versions/3.11/bin";
  f.links[1].target = other;
  f.policy.home_links = f.links;
  f.policy.n_home_links = 2;
  r = ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, -EEXIST,
              "landlock: a link the outer one would shadow is "
              "refused");
  tap_ok (err.message && strstr (err.message, "is a link to"),
          "landlock: the refusal says why (%s)",
          err.message ? err.message : "no message");
  tap_ok (f.state == NULL, "landlock: a refused wrap leaves no state");
  ash_error_release (&err);
  fixture_release (&f);

  {
    struct ash_error e = ASH_ERROR_INIT;
    int tfd = open ("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tfd >= 0)
      ash_tree_remove_all (tfd, tmpl + strlen ("/tmp/"), &e);
    if (tfd >= 0)
      close (tfd);
    ash_error_release (&e);
  }
}

/* Where bwrap has --bind-fd: the results directory and the scanned data
   are handed over as descriptors opened once, without following a link.
   A swap of the results directory for a link after wrap() (a local user
   who can write the directory above it) changes nothing: the descriptor
   is still the directory that was checked.  A link already on the way
   makes wrap() fail, and nothing runs.  */
static void
test_bwrap_bind_fd (void)
{
  char tmpl[] = "/tmp/ash-bindfd-XXXXXX";
  char *t = mkdtemp (tmpl);
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  struct stat before, now;

  if (!t)
    {
      tap_ok (false, "bind-fd: a temporary directory");
      return;
    }
  _cleanup_free_ char *src = ash_path_join (t, "src");
  _cleanup_free_ char *res = ash_path_join (t, "src/out/scanners/x");
  _cleanup_free_ char *out = ash_path_join (t, "src/out");
  _cleanup_free_ char *sc = ash_path_join (t, "src/out/scanners");
  _cleanup_free_ char *other = ash_path_join (t, "other");
  _cleanup_free_ char *moved = ash_path_join (t, "src/out/scanners/moved");
  mkdir (src, 0755);
  mkdir (out, 0755);
  mkdir (sc, 0755);
  mkdir (res, 0755);
  mkdir (other, 0755);
  stat (res, &before);

  memset (&f, 0, sizeof f);
  f.policy.paths = f.paths;
  f.policy.scanner = (char *) "x";
  add_path (&f, "/usr", ASH_ACCESS_READ);
  add_path (&f, src, ASH_ACCESS_DATA);
  add_path (&f, out, ASH_ACCESS_HIDE);
  add_path (&f, res, ASH_ACCESS_WRITE);
  f.policy.results_dir = res;
  ash_strvec_init (&f.policy.env);
  ash_strvec_init (&f.policy.private_caches);
  ash_strvec_init (&f.policy.warnings);
  f.probe.base.usable = true;
  f.probe.tool = (char *) "/usr/bin/bwrap";
  f.probe.helper = (char *) HELPER;
  f.probe.bind_fd = true;
  ash_cmd_init (&f.cmd);
  ash_strvec_push (&f.cmd.argv, "/usr/bin/x");

  int r = ash_backend_bwrap.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                  &err);
  tap_is_int (r, 0, "bind-fd: wrap succeeds");
  _cleanup_free_ char *got = joined (&f.cmd.argv);
  _cleanup_free_ char *want_ro = NULL;
  int fd_res = -1;
  for (size_t i = 0; i + 2 < f.cmd.argv.nr; i++)
    if (streq (f.cmd.argv.v[i], "--bind-fd")
        && streq (f.cmd.argv.v[i + 2], res))
      fd_res = atoi (f.cmd.argv.v[i + 1]);
  tap_ok (fd_res > 2,
          "bind-fd: the results directory is bound from a "
          "descriptor (%d)",
          fd_res);
  want_ro = xasprintf (" %s ", src);
  tap_ok (strstr (got, "--ro-bind-fd ") && strstr (got, want_ro)
            && !strstr (got, "--ro-bind-try /tmp/ash-bindfd"),
          "bind-fd: the source tree is bound read-only from a descriptor");
  tap_ok (strstr (got, "--ro-bind-try /usr /usr") != NULL,
          "bind-fd: system directories are still bound by name");
  tap_ok (f.cmd.n_pass_fds == 4,
          "bind-fd: both descriptors, the socket filter and the ready pipe "
          "are passed (%u)",
          f.cmd.n_pass_fds);

  /* The swap, after ash's checks and wrap().  */
  rename (res, moved);
  symlink (other, res);
  tap_ok (fd_res > 2 && fstat (fd_res, &now) == 0
            && now.st_ino == before.st_ino && now.st_dev == before.st_dev,
          "bind-fd: swapped for a link afterwards, the descriptor is still "
          "the checked directory");
  tap_ok (f.state != NULL, "bind-fd: wrap keeps the descriptors in its "
                           "state");
  ash_backend_bwrap.cleanup (f.state);
  f.state = NULL;
  tap_ok (fd_res > 2 && fcntl (fd_res, F_GETFD) < 0,
          "bind-fd: cleanup closes the descriptors");
  ash_cmd_release (&f.cmd);

  /* With the link already there, nothing runs.  */
  ash_cmd_init (&f.cmd);
  ash_strvec_push (&f.cmd.argv, "/usr/bin/x");
  r = ash_backend_bwrap.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                              &err);
  tap_ok (r < 0 && f.cmd.n_pass_fds == 0 && f.state == NULL,
          "bind-fd: a results directory reached through a link is refused "
          "(%d)",
          r);
  tap_diag ("%s", err.message ? err.message : "");
  ash_error_release (&err);
  fixture_release (&f);
  unlink (res);
  rmdir (moved);
  rmdir (sc);
  rmdir (out);
  rmdir (src);
  rmdir (other);
  rmdir (t);
}

/* firejail with a HOME that is not the home firejail makes private for
   the account it runs as (in /tmp; as root, run as another account): the
   scanner gets a home of its own in /tmp, shown and writable, holding the
   policy's links, its parent ASH's; cleanup removes it.  */
static void
test_firejail_private_home (bool as_account)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *got = NULL, *prefix = NULL, *wl = NULL, *rw = NULL;
  _cleanup_free_ char *link = NULL, *parent = NULL;
  const char *what = as_account ? "firejail as the scanner account"
                                : "firejail, HOME in /tmp";
  const char *home;
  char target[64];
  struct stat st;
  ssize_t n;
  int r;

  fixture_init (&f, "/usr/bin/firejail");
  f.policy.home = (char *) (as_account ? "/home/u" : "/tmp/h");
  f.links[0].name = (char *) ".cache/uv";
  f.links[0].target = (char *) "/home/u/.cache/uv";
  f.policy.home_links = f.links;
  f.policy.n_home_links = 1;
  if (as_account)
    {
      f.cmd.set_ids = true;
      f.cmd.user_id = 65534;
      f.cmd.group_id = 65534;
    }
  ash_policy_add_hiding (&f.policy, NULL, "/nonexistent/mountinfo", true);
  free (f.policy.mounts_error);
  f.policy.mounts_error = NULL;
  r = ash_backend_firejail.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0, "%s: wrap succeeds", what);
  if (r < 0)
    tap_diag ("%s", err.message ? err.message : "?");
  home = ash_strvec_getenv (&f.cmd.env, "HOME");
  prefix = xasprintf ("/tmp/ash-firejail-%ld-", (long) getpid ());
  tap_ok (home && ash_str_has_prefix (home, prefix)
            && ash_str_has_suffix (home, "/home"),
          "%s: HOME is a private home in /tmp (%s)", what,
          home ? home : "unset");
  if (!home)
    home = "/nonexistent";
  got = joined (&f.cmd.argv);
  wl = xasprintf (" --whitelist=%s ", home);
  rw = xasprintf (" --read-write=%s ", home);
  tap_ok (strstr (got, wl) && strstr (got, rw),
          "%s: firejail shows it and makes it writable", what);
  tap_ok (strstr (got, " --private-tmp") == NULL,
          "%s: /tmp is not made empty over it", what);
  tap_ok (stat (home, &st) == 0 && S_ISDIR (st.st_mode)
            && (st.st_mode & 07777) == 0700
            && st.st_uid == (as_account ? 65534 : geteuid ()),
          "%s: the home is a directory of the scanner's user, mode 0700",
          what);
  parent = xstrndup (home, strlen (home) - strlen ("/home"));
  tap_ok (lstat (parent, &st) == 0 && S_ISDIR (st.st_mode)
            && st.st_uid == geteuid () && (st.st_mode & 07777) == 0711,
          "%s: its parent is ASH's, mode 0711", what);
  link = ash_path_join (home, ".cache/uv");
  n = readlink (link, target, sizeof target - 1);
  if (n >= 0)
    target[n] = '\0';
  tap_ok (n > 0 && streq (target, "/home/u/.cache/uv"),
          "%s: the granted cache under the real home is linked there", what);
  if (as_account)
    tap_ok (strstr (got, " --whitelist=/home/u/.cache/uv ") != NULL
              && strstr (got, " --private ") != NULL
              && strstr (got, " --blacklist=/home/u ") == NULL,
            "%s: the cache is shown where it is, the account's own home is "
            "made private, and the policy's home, which holds the cache, "
            "is not hidden whole",
            what);
  ash_backend_firejail.cleanup (f.state);
  f.state = NULL;
  ash_backend_firejail.finish ();
  tap_ok (lstat (parent, &st) < 0 && errno == ENOENT,
          "%s: cleanup removes the private directory, by the time finish() "
          "returns",
          what);
  ash_error_release (&err);
  fixture_release (&f);
}

/* The entries of DIR, one ash-landlock-* directory expected: its name in
   RET (newly allocated) when there is exactly one, the count returned.  */
static int
private_dirs_in (const char *dir, char **ret)
{
  DIR *d = opendir (dir);
  struct dirent *de;
  int n = 0;

  *ret = NULL;
  if (!d)
    return -1;
  while ((de = readdir (d)))
    {
      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      n++;
      free (*ret);
      *ret = ash_path_join (dir, de->d_name);
    }
  closedir (d);
  if (n != 1)
    {
      free (*ret);
      *ret = NULL;
    }
  return n;
}

/* Whether DIR/NAME is a directory of ours, mode 0700, with nothing in
   it.  */
static bool
fresh_dir (const char *dir, const char *name)
{
  _cleanup_free_ char *p = ash_path_join (dir, name);
  _cleanup_free_ char *x = NULL;
  struct stat st;

  return lstat (p, &st) == 0 && S_ISDIR (st.st_mode)
         && (st.st_mode & 07777) == 0700 && st.st_uid == geteuid ()
         && private_dirs_in (p, &x) == 0;
}

/* The private directory made ahead by prepare(): made on the removal
   thread, with an empty tmp and home, taken by the next wrap() alone,
   never by a second one, and removed by finish() when no wrap() took
   it.  */
static void
test_landlock_ahead (void)
{
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *base = NULL, *old_tmp = NULL, *own = NULL;
  _cleanup_free_ char *in_base = NULL;
  _cleanup_free_ char *ahead = NULL, *got = NULL, *second = NULL;
  const char *t = getenv ("TMPDIR");
  const char *tmpdir;
  int n;

  old_tmp = t ? xstrdup (t) : NULL;
  base = xasprintf ("%s/test-backend-wrap-ahead-XXXXXX",
                    t && t[0] == '/' ? t : "/tmp");
  if (!mkdtemp (base))
    {
      tap_ok (false, "ahead: cannot make %s", base);
      return;
    }
  setenv ("TMPDIR", base, 1);
  /* ASH's own directory in TMPDIR, where the private directories go.  */
  own = xasprintf ("%s/ash-%ld", base, (long) geteuid ());
  fixture_init (&f, NULL);

  ash_backend_landlock.prepare (&f.probe.base, &f.policy);
  ash_linux_private_dir_wait ();
  n = private_dirs_in (own, &ahead);
  tap_is_int (n, 1, "ahead: prepare() makes one private directory");
  {
    struct stat st;
    tap_ok (private_dirs_in (base, &in_base) == 1 && in_base
              && streq (in_base, own) && lstat (own, &st) == 0
              && S_ISDIR (st.st_mode) && st.st_uid == geteuid ()
              && (st.st_mode & 07777) == (geteuid () == 0 ? 0711 : 0700),
            "ahead: in ASH's own directory in TMPDIR, %s, alone there, "
            "mode %s",
            own, geteuid () == 0 ? "0711" : "0700");
  }
  tap_ok (ahead && fresh_dir (ahead, "tmp") && fresh_dir (ahead, "home"),
          "ahead: with an empty tmp and home, ASH's own, mode 0700");
  ash_backend_landlock.finish ();
  tap_is_int (private_dirs_in (own, &got), 0,
              "ahead: finish() removes it when no wrap() took it");

  free (ahead);
  ahead = NULL;
  ash_backend_landlock.prepare (&f.probe.base, &f.policy);
  ash_linux_private_dir_wait ();
  tap_is_int (private_dirs_in (own, &ahead), 1,
              "ahead: prepare() makes another once that one is gone");
  tap_is_int (ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd,
                                         &f.state, &err),
              0, "ahead: wrap() succeeds");
  tmpdir = ash_strvec_getenv (&f.cmd.env, "TMPDIR");
  free (got);
  got = ahead ? ash_path_join (ahead, "tmp") : NULL;
  tap_is_str (tmpdir, got, "ahead: wrap() takes the directory made ahead");
  tap_is_int (private_dirs_in (own, &second), 1, "ahead: and makes no other");
  ash_backend_landlock.cleanup (f.state);
  f.state = NULL;
  fixture_release (&f);

  fixture_init (&f, NULL);
  tap_is_int (ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd,
                                         &f.state, &err),
              0, "ahead: a second wrap() succeeds");
  tmpdir = ash_strvec_getenv (&f.cmd.env, "TMPDIR");
  tap_ok (tmpdir && ahead && !ash_str_has_prefix (tmpdir, ahead),
          "ahead: the second wrap() never gets the first one's directory "
          "(%s)",
          tmpdir ? tmpdir : "none");
  ash_backend_landlock.cleanup (f.state);
  f.state = NULL;
  ash_backend_landlock.finish ();
  tap_is_int (private_dirs_in (own, &second), 0,
              "ahead: finish() leaves nothing behind");
  fixture_release (&f);

  /* What wrap() checks of a directory it made itself holds for one made
     ahead: ASH's own, mode 0700, and its tmp and home are not links.  */
  for (int bad = 0; bad < 2; bad++)
    {
      _cleanup_free_ char *p = NULL;
      int r;

      fixture_init (&f, NULL);
      free (ahead);
      ahead = NULL;
      ash_backend_landlock.prepare (&f.probe.base, &f.policy);
      ash_linux_private_dir_wait ();
      private_dirs_in (own, &ahead);
      if (ahead && bad == 0)
        r = chmod (ahead, 0755);
      else if (ahead)
        {
          p = ash_path_join (ahead, "tmp");
          r = rmdir (p) == 0 ? symlink ("/etc", p) : -1;
        }
      else
        r = -1;
      tap_is_int (r, 0, "ahead: %s",
                  bad ? "its tmp swapped for a link"
                      : "its mode changed to 0755");
      ash_error_release (&err);
      r = ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd,
                                     &f.state, &err);
      tap_ok (r < 0 && f.state == NULL && err.message
                && strstr (err.message, "cannot")
                && streq (f.cmd.argv.v[0], "/usr/bin/bandit"),
              "ahead: then wrap() refuses it and runs nothing (%s)",
              err.message ? err.message : "no error");
      ash_backend_landlock.finish ();
      tap_is_int (private_dirs_in (own, &second), 0,
                  "ahead: and nothing is left");
      fixture_release (&f);
    }
  ash_error_release (&err);
  rmdir (own);
  rmdir (base);
  if (old_tmp)
    setenv ("TMPDIR", old_tmp, 1);
  else
    unsetenv ("TMPDIR");
}

/* The private directory of a spawn without home links: as root, it and
   its TMPDIR and HOME are the scanner account's; cleanup removes it with
   whatever the scanner left there (LEAVE: files, a directory it cannot
   read, a link to a file outside, which is removed and never followed),
   by the time finish() returns.  */
static void
test_landlock_cleanup (bool leave)
{
  const char *what = leave ? "landlock, things left" : "landlock, empty";
  struct fixture f;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *priv = NULL;
  char keep[] = "/tmp/ash-test-keep-XXXXXX";
  const char *tmpdir, *home;
  bool root = geteuid () == 0;
  struct stat st;
  int r, kfd;

  fixture_init (&f, NULL);
  if (root)
    {
      f.cmd.set_ids = true;
      f.cmd.user_id = 65534;
      f.cmd.group_id = 65534;
    }
  r = ash_backend_landlock.wrap (&f.probe.base, &f.policy, &f.cmd, &f.state,
                                 &err);
  tap_is_int (r, 0, "%s: wrap succeeds", what);
  tmpdir = ash_strvec_getenv (&f.cmd.env, "TMPDIR");
  home = ash_strvec_getenv (&f.cmd.env, "HOME");
  if (r < 0 || !tmpdir || !home)
    {
      ash_error_release (&err);
      fixture_release (&f);
      return;
    }
  priv = xstrndup (tmpdir, strlen (tmpdir) - strlen ("/tmp"));
  if (root)
    {
      const char *dirs[] = { priv, tmpdir, home };
      bool given = true;

      for (size_t i = 0; i < ARRAY_SIZE (dirs); i++)
        given &= stat (dirs[i], &st) == 0 && st.st_uid == 65534
                 && st.st_gid == 65534 && (st.st_mode & 07777) == 0700;
      tap_ok (given,
              "%s: the private directory, its TMPDIR and HOME are "
              "the scanner account's, mode 0700",
              what);
    }
  else
    tap_ok (true, "# SKIP %s: giving the directories away needs root", what);
  kfd = mkstemp (keep);
  if (leave)
    {
      _cleanup_free_ char *file = ash_path_join (tmpdir, "file");
      _cleanup_free_ char *dir = ash_path_join (tmpdir, "d");
      _cleanup_free_ char *inner = ash_path_join (dir, "f");
      _cleanup_free_ char *link = ash_path_join (home, "link");
      int fd;

      fd = open (file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd >= 0)
        close (fd);
      mkdir (dir, 0700);
      fd = open (inner, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd >= 0)
        close (fd);
      chmod (dir, 0);
      if (symlink (keep, link) < 0)
        tap_diag ("cannot make %s: %s", link, strerror (errno));
    }
  ash_backend_landlock.cleanup (f.state);
  ash_backend_landlock.finish ();
  tap_ok (lstat (priv, &st) < 0 && errno == ENOENT,
          "%s: cleanup removes the private directory", what);
  tap_ok (kfd >= 0 && stat (keep, &st) == 0 && S_ISREG (st.st_mode),
          "%s: and not the file a link there named", what);
  if (kfd >= 0)
    {
      close (kfd);
      unlink (keep);
    }
  ash_error_release (&err);
  fixture_release (&f);
}

/* What each backend's cached probe is keyed on.  Every identity holds the
   boot (which stands for the running kernel's seccomp actions too) and
   ASH's user and mount namespaces; its other namespaces, the start of the
   first process ASH sees (which tells a PID namespace from a later one)
   and the settings that allow or refuse user namespaces only that of a
   backend that makes namespaces (bwrap, firejail), not Landlock's, whose
   wrapper makes none.  */
static void
test_identity (void)
{
  static const char *const everywhere[]
    = { "/proc/sys/kernel/random/boot_id ", "ns user:", "ns mnt:" };
  static const char *const userns[]
    = { "/proc/sys/user/max_user_namespaces ",
        "/proc/sys/kernel/unprivileged_userns_clone ",
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns " };
  /* Namespaces only a backend that makes its own is keyed by.  */
  static const char *const other_ns[] = {
    "ns pid:", "ns net:", "ns ipc:", "ns uts:", "ns cgroup:", "init-start "
  };
  struct ash_host host;
  _cleanup_buf_ struct ash_buf ll = ASH_BUF_INIT;
  _cleanup_buf_ struct ash_buf ns = ASH_BUF_INIT;
  int r;

  memset (&host, 0, sizeof host);
  host.path_env = getenv ("PATH");
  host.helper_dir = getenv ("ASH_HELPER_DIR");
  r = ash_backend_landlock.identity (&host, &ll);
  if (r < 0)
    {
      tap_ok (true, "# SKIP identity: no %s in ASH_HELPER_DIR",
              ASH_LANDLOCK_EXEC);
      return;
    }
  tap_is_int (ash_linux_identity (&host, NULL, true, &ns), 0,
              "identity: with the namespace settings");
  for (size_t i = 0; i < ARRAY_SIZE (everywhere); i++)
    {
      tap_ok (strstr (ll.buf, everywhere[i]) != NULL,
              "identity: Landlock's holds %s", everywhere[i]);
      tap_ok (strstr (ns.buf, everywhere[i]) != NULL,
              "identity: a namespace backend's holds %s", everywhere[i]);
    }
  for (size_t i = 0; i < ARRAY_SIZE (other_ns); i++)
    {
      tap_ok (strstr (ll.buf, other_ns[i]) == NULL,
              "identity: Landlock's leaves out %s", other_ns[i]);
      tap_ok (strstr (ns.buf, other_ns[i]) != NULL,
              "identity: a namespace backend's holds %s", other_ns[i]);
    }
  for (size_t i = 0; i < ARRAY_SIZE (userns); i++)
    {
      tap_ok (strstr (ll.buf, userns[i]) == NULL,
              "identity: Landlock's leaves out %s", userns[i]);
      tap_ok (strstr (ns.buf, userns[i]) != NULL,
              "identity: a namespace backend's holds %s", userns[i]);
    }
  tap_ok (strstr (ll.buf, ASH_LANDLOCK_EXEC " ") != NULL,
          "identity: Landlock's holds the wrapper's file");
  /* bwrap's own, where it is installed.  */
  {
    _cleanup_buf_ struct ash_buf bw = ASH_BUF_INIT;
    if (ash_backend_bwrap.identity (&host, &bw) < 0)
      tap_ok (true, "# SKIP identity: bwrap is not installed");
    else
      tap_ok (strstr (bw.buf, userns[0]) != NULL, "identity: bwrap's holds %s",
              userns[0]);
  }
}

int
main (void)
{
  test_identity ();
  test_prepare ();
  test_landlock_ahead ();
  test_bwrap (false, false);
  test_bwrap (true, false);
  test_bwrap (false, true);
  test_refusal (&ash_backend_bwrap, "/usr/bin/bwrap");
  test_refusal (&ash_backend_firejail, "/usr/bin/firejail");
  test_refusal (&ash_backend_landlock, NULL);
  test_firejail_other_home ();
  test_firejail_private_home (false);
  if (geteuid () == 0)
    test_firejail_private_home (true);
  else
    tap_ok (true, "# SKIP firejail as the scanner account: not root");
  test_landlock ();
  test_landlock_filter_fd ();
  test_running (&ash_backend_landlock, NULL, 4);
  test_running (&ash_backend_bwrap, "/usr/bin/bwrap", 2);
  test_landlock_nested ();
  test_landlock_cleanup (false);
  test_landlock_cleanup (true);
  test_bwrap_bind_fd ();
  return tap_done ();
}
