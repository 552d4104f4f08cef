/* SPDX-License-Identifier: Apache-2.0 */
/* backend-util.c -- what the Linux backends share: finding their tools and
   the wrapper, the wrapper's socket-filter prefix, the environment a
   sandboxed command gets, and running a probe command.  */

#include <config.h>

#include "backends.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "base/thread.h"
#include "proc/spawn.h"
#include "proc/toolfind.h"
#include "sandbox/backend.h"

/* The socket filter for each policy, built once for the life of this
   process, when a scanner first needs it, and handed to every wrapper as
   the same sealed memfd: the wrapper then neither builds it nor needs
   libseccomp's compiler on every run.  The memfd is close-on-exec here;
   only a spawn that passes it clears that, in its child.  Several scan
   threads may ask at once.  */
static pthread_mutex_t filter_lock = PTHREAD_MUTEX_INITIALIZER;
static int filter_fds[3] = { -1, -1, -1 };
/* A build started ahead (ash_linux_socket_filter_prepare()) for each:
   atomics, so that asking does not wait for a build that holds the lock.  */
static atomic_bool filter_started[3];

int
ash_linux_socket_filter_fd (enum ash_socket_policy sockets,
                            struct ash_error *err)
{
  char *why = NULL;
  int fd, r = 0;

  if ((unsigned) sockets >= sizeof filter_fds / sizeof filter_fds[0])
    return ash_error_set (err, -EINVAL, _ ("no such socket filter: %d"),
                          (int) sockets);
  pthread_mutex_lock (&filter_lock);
  fd = filter_fds[sockets];
  if (fd < 0)
    {
      r = ash_socket_filter_memfd (sockets, &why);
      if (r >= 0)
        fd = filter_fds[sockets] = r;
    }
  pthread_mutex_unlock (&filter_lock);
  if (fd >= 0)
    return fd;
  r = ash_error_set (err, r, _ ("cannot build the socket filter: %s"),
                     why ? why : strerror (-r));
  free (why);
  return r;
}

/* The thread of ash_linux_socket_filter_prepare(): it holds the lock for
   the whole build, so that a wrap() that asks meanwhile waits for this
   build instead of making its own.  */
static void *
filter_build (void *arg)
{
  enum ash_socket_policy sockets = (enum ash_socket_policy) (intptr_t) arg;
  char *why = NULL;

  pthread_mutex_lock (&filter_lock);
  if (filter_fds[sockets] < 0)
    {
      int r = ash_socket_filter_memfd (sockets, &why);
      if (r >= 0)
        filter_fds[sockets] = r;
    }
  pthread_mutex_unlock (&filter_lock);
  free (why);
  return NULL;
}

void
ash_linux_socket_filter_prepare (enum ash_socket_policy sockets)
{
  if ((unsigned) sockets >= sizeof filter_fds / sizeof filter_fds[0]
      || atomic_exchange (&filter_started[sockets], true))
    return;
  /* A program made at build time is only written to a memfd: a few system
     calls, fewer than starting a thread costs.  */
  if (ash_socket_filter_is_prebuilt (sockets))
    {
      filter_build ((void *) (intptr_t) sockets);
      return;
    }
  /* No signal for the builder (ash_thread_start blocks them all): ASH
     takes SIGINT and SIGTERM on a thread of its own.  */
  if (ash_thread_start (NULL, true, filter_build, (void *) (intptr_t) sockets)
      != 0)
    /* Not started: the first wrap() builds it.  */
    atomic_store (&filter_started[sockets], false);
}

int
ash_linux_ready_pipe (struct ash_cmd *cmd, int *ret_read,
                      struct ash_error *err)
{
  int p[2];

  *ret_read = -1;
  if (cmd->n_pass_fds >= ASH_CMD_MAX_PASS_FDS)
    return ash_error_set (err, -EMFILE,
                          _ ("the sandbox is given more than %d "
                             "descriptors"),
                          ASH_CMD_MAX_PASS_FDS);
  if (pipe2 (p, O_CLOEXEC | O_NONBLOCK) < 0)
    return ash_error_set (err, -errno, _ ("cannot create a pipe: %s"),
                          strerror (errno));
  cmd->pass_fds[cmd->n_pass_fds++] = p[1];
  *ret_read = p[0];
  return p[1];
}

bool
ash_linux_ready_seen (int fd)
{
  char c;

  return fd >= 0 && read (fd, &c, 1) == 1;
}

unsigned long long
ash_linux_own_mount_ns (void)
{
  struct stat st;

  return stat ("/proc/self/ns/mnt", &st) == 0 ? (unsigned long long) st.st_ino
                                              : 0;
}

void
ash_linux_filter_prefix (struct ash_strvec *argv, const char *helper,
                         const struct ash_policy *policy, bool network,
                         bool new_session, int seccomp_fd, int ready_fd)
{
  unsigned long long own_ns = ash_linux_own_mount_ns ();

  ash_strvec_push (argv, helper);
  ash_strvec_push (argv, "--socket-filter");
  /* bwrap and firejail always make a mount namespace: a command in ASH's
     own ran without their sandbox.  */
  if (own_ns)
    ash_strvec_pushf (argv, "--not-mount-ns=%llu", own_ns);
  /* The scanned data (source and output directories) and the results
     directory must be there in the sandbox, the same directories as here:
     opened without following a link at any component, so that a backend
     that mounts them by name (firejail, bwrap without --bind-fd) cannot
     be given another directory swapped in at that name by a local user
     who can write a directory above it.  A link on the way now expects a
     directory that cannot exist (0:0): the wrapper then refuses to start
     the scanner.  */
  for (size_t i = 0; policy && i < policy->n_paths; i++)
    {
      const struct ash_policy_path *pp = &policy->paths[i];
      struct stat st;
      int fd;

      if ((pp->access != ASH_ACCESS_DATA && pp->access != ASH_ACCESS_WRITE)
          || pp->path[0] != '/' || lstat (pp->path, &st) < 0)
        continue;
      fd = ash_linux_open_no_links (pp->path, false);
      if (fd >= 0)
        {
          int r = fstat (fd, &st);
          ash_close (fd);
          if (r < 0 || !S_ISDIR (st.st_mode))
            continue;
        }
      else if (fd == -ELOOP)
        st.st_dev = st.st_ino = 0;
      else
        continue;
      ash_strvec_pushf (argv, "--expect=%s=%llu:%llu", pp->path,
                        (unsigned long long) st.st_dev,
                        (unsigned long long) st.st_ino);
    }
  /* Without a network, bwrap and firejail give the command a network
     namespace of its own: its IP sockets reach only its own loopback.  */
  ash_strvec_push (argv, network ? "--network" : "--private-network");
  if (seccomp_fd >= 0)
    {
      ash_strvec_push (argv, "--seccomp-fd");
      ash_strvec_pushf (argv, "%d", seccomp_fd);
    }
  if (new_session)
    ash_strvec_push (argv, "--new-session");
  if (ready_fd >= 0)
    {
      ash_strvec_push (argv, "--ready-fd");
      ash_strvec_pushf (argv, "%d", ready_fd);
    }
  ash_strvec_push (argv, "--");
}

/* One component at a time from /, each opened relative to the one before
   with O_PATH | O_NOFOLLOW: the walk for a kernel without openat2.  */
static int
walk_no_links (const char *path, bool dir)
{
  _cleanup_free_ char *copy = xstrdup (path);
  char *save = NULL;
  int fd = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0)
    return -errno;
  for (char *c = strtok_r (copy, "/", &save); c;
       c = strtok_r (NULL, "/", &save))
    {
      struct stat st;
      int nfd;

      if (streq (c, "."))
        continue;
      if (streq (c, ".."))
        {
          ash_close (fd);
          return -EINVAL;
        }
      nfd = openat (fd, c, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      ash_close (fd);
      if (nfd < 0)
        return -errno;
      fd = nfd;
      if (fstat (fd, &st) < 0)
        {
          int e = errno;
          ash_close (fd);
          return -e;
        }
      if (S_ISLNK (st.st_mode))
        {
          ash_close (fd);
          return -ELOOP;
        }
    }
  if (dir)
    {
      struct stat st;
      if (fstat (fd, &st) < 0 || !S_ISDIR (st.st_mode))
        {
          ash_close (fd);
          return -ENOTDIR;
        }
    }
  return fd;
}

int
ash_linux_open_no_links (const char *path, bool dir)
{
  struct open_how how = {
    .flags = O_PATH | O_CLOEXEC | (dir ? O_DIRECTORY : 0),
    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
  };
  long fd;

  if (path[0] != '/')
    return -EINVAL;
  fd = syscall (SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd < 0 && (errno == ENOSYS || errno == EPERM))
    /* EPERM: a seccomp profile (a container's) that does not know the
       call.  */
    fd = walk_no_links (path, dir);
  else if (fd < 0)
    fd = -errno;
  if (fd >= 0 && fd < 3)
    {
      int moved = fcntl ((int) fd, F_DUPFD_CLOEXEC, 3);
      int e = errno;
      ash_close ((int) fd);
      fd = moved < 0 ? -e : moved;
    }
  return (int) fd;
}

/* Whether the mode ST grants BIT (4 read, 1 search or execute) to UID and
   GID, which are not root's.  */
static bool
grants (const struct stat *st, uid_t uid, gid_t gid, unsigned bit)
{
  if (st->st_uid == uid)
    return (st->st_mode >> 6) & bit;
  if (st->st_gid == gid)
    return (st->st_mode >> 3) & bit;
  return st->st_mode & bit;
}

bool
ash_linux_reachable_by (const char *path, uid_t uid, gid_t gid)
{
  _cleanup_free_ char *real = realpath (path, NULL);
  struct stat st;
  char *p;

  if (!real)
    return false;
  /* Each directory on the way must be searchable, the last one readable
     and searchable, a file readable.  */
  for (p = real; (p = strchr (p + 1, '/')) != NULL;)
    {
      *p = '\0';
      if (stat (*real ? real : "/", &st) < 0 || !grants (&st, uid, gid, 1))
        return false;
      *p = '/';
    }
  if (stat ("/", &st) < 0 || !grants (&st, uid, gid, 1) || stat (real, &st) < 0
      || !grants (&st, uid, gid, 4))
    return false;
  return !S_ISDIR (st.st_mode) || grants (&st, uid, gid, 1);
}

int
ash_linux_find_tool (const struct ash_host *host, const char *name,
                     char **ret_path, char **ret_why)
{
  struct ash_toolfind_opts o = {
    .path_env = host->path_env,
    .bin_path = host->bin_path,
    .source_dir = host->source_dir,
    .allow_in_tree_tools = host->allow_in_tree_tools,
  };
  struct ash_error err = ASH_ERROR_INIT;
  char *path = NULL;
  int r;

  r = ash_toolfind (name, &o, &path, &err);
  if (r < 0)
    {
      if (ret_why)
        *ret_why = xstrdup (err.message ? err.message : strerror (-r));
      ash_error_release (&err);
      /* A tool found only inside the scanned directory counts as not
         installed.  */
      return r == -EPERM ? -ENOENT : r;
    }
  *ret_path = path;
  return 0;
}

/* Whether UID and GID may reach the file PATH (absolute) and run it:
   every directory on its way searchable by them, the file readable and
   executable.  */
static bool
reachable_by (const char *path, uid_t uid, gid_t gid)
{
  _cleanup_free_ char *p = xstrdup (path);

  for (char *s = p + 1;; s++)
    {
      char c = *s;
      struct stat st;
      unsigned have, need = c == '\0' ? 5 : 1;

      if (c != '/' && c != '\0')
        continue;
      *s = '\0';
      if (stat (p, &st) < 0)
        return false;
      have = st.st_uid == uid   ? (st.st_mode >> 6) & 7
             : st.st_gid == gid ? (st.st_mode >> 3) & 7
                                : st.st_mode & 7;
      if ((have & need) != need)
        return false;
      if (c == '\0')
        return true;
      *s = c;
    }
}

/* The helper copied where the scanner account can run it, for this
   process: made once, removed at exit.  */
static pthread_once_t copy_once = PTHREAD_ONCE_INIT;
static const char *copy_source;
static char *copy_dir;
static char *copy_path;

static void
remove_copy (void)
{
  if (copy_path)
    unlink (copy_path);
  if (copy_dir)
    rmdir (copy_dir);
}

static void
make_copy (void)
{
  struct stat st;
  const char *base = "/run";
  _cleanup_close_ int in = -1, dfd = -1, out = -1;
  char buf[65536];
  ssize_t n;

  /* /run is root's and shown by every backend (firejail makes /tmp
     private); /tmp where there is no such /run.  The directory has a
     name no one can guess and is root's: no one else can put a file
     there.  */
  if (stat (base, &st) < 0 || !S_ISDIR (st.st_mode) || st.st_uid != 0
      || (st.st_mode & 022))
    base = "/tmp";
  char *dir = xasprintf ("%s/ash-helper-XXXXXX", base);
  if (!mkdtemp (dir))
    {
      free (dir);
      return;
    }
  copy_dir = dir;
  atexit (remove_copy);
  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  in = open (copy_source, O_RDONLY | O_CLOEXEC);
  if (dfd < 0 || in < 0 || fchmod (dfd, 0755) < 0)
    return;
  out = openat (dfd, ASH_LANDLOCK_EXEC,
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
  if (out < 0)
    return;
  copy_path = ash_path_join (dir, ASH_LANDLOCK_EXEC);
  while ((n = read (in, buf, sizeof buf)) > 0)
    if (write (out, buf, (size_t) n) != n)
      {
        n = -1;
        break;
      }
  if (n < 0 || fchmod (out, 0755) < 0 || close (TAKE_FD (out)) < 0)
    {
      unlink (copy_path);
      free (copy_path);
      copy_path = NULL;
    }
}

char *
ash_linux_find_helper (const struct ash_host *host)
{
  char *path = ash_helper_path (host->helper_dir, ASH_LANDLOCK_EXEC);
  char *real;
  uid_t uid;
  gid_t gid;
  struct ash_error err = ASH_ERROR_INIT;

  /* Mounts and whitelists name the file itself, not a link to it.  */
  if (path && (real = realpath (path, NULL)))
    {
      free (path);
      path = real;
    }
  /* Run as root, ash starts the helper as the scanner account: one that
     account cannot reach (a build tree in root's home) is used through a
     copy it can.  */
  if (path && geteuid () == 0
      && ash_sandbox_scanner_ids (&uid, &gid, &err) == 0
      && !reachable_by (path, uid, gid))
    {
      copy_source = path;
      pthread_once (&copy_once, make_copy);
      if (copy_path)
        {
          free (path);
          path = xstrdup (copy_path);
        }
    }
  ash_error_release (&err);
  return path;
}

struct ash_linux_probe *
ash_linux_probe_new (const struct ash_backend *backend)
{
  struct ash_linux_probe *lp = xcalloc (1, sizeof *lp);

  lp->base.backend = backend;
  return lp;
}

const struct ash_linux_probe *
ash_linux_probe_of (const struct ash_probe *p)
{
  return p ? ash_container_of (p, const struct ash_linux_probe, base) : NULL;
}

void
ash_linux_probe_free (struct ash_probe *p)
{
  struct ash_linux_probe *lp;

  if (!p)
    return;
  lp = ash_container_of (p, struct ash_linux_probe, base);
  ash_probe_base_release (p);
  free (lp->tool);
  free (lp->helper);
  free (lp);
}

int
ash_linux_probe_save (const struct ash_probe *p, json_t *obj)
{
  const struct ash_linux_probe *lp = ash_linux_probe_of (p);

  if (!lp->helper)
    return -EINVAL;
  if (json_object_set_new (obj, "tool",
                           lp->tool ? json_string (lp->tool) : json_null ())
      || json_object_set_new (obj, "helper", json_string (lp->helper))
      || json_object_set_new (obj, "landlock_abi",
                              json_integer (lp->landlock_abi))
      || json_object_set_new (obj, "cache_overlay",
                              json_boolean (p->cache_overlay))
      || json_object_set_new (obj, "bind_fd", json_boolean (lp->bind_fd))
      || json_object_set_new (obj, "notes",
                              p->notes ? json_string (p->notes)
                                       : json_null ()))
    return -ENOMEM;
  return 0;
}

/* An absolute path from OBJ's string KEY, or NULL.  */
static char *
abs_string (const json_t *obj, const char *key)
{
  const char *s = json_string_value (json_object_get (obj, key));

  return s && s[0] == '/' ? xstrdup (s) : NULL;
}

int
ash_linux_probe_load_for (const struct ash_backend *backend, const json_t *obj,
                          struct ash_probe **ret)
{
  struct ash_linux_probe *lp = ash_linux_probe_new (backend);
  const json_t *tool = json_object_get (obj, "tool");
  const json_t *abi = json_object_get (obj, "landlock_abi");
  const json_t *overlay = json_object_get (obj, "cache_overlay");
  const json_t *notes = json_object_get (obj, "notes");
  const json_t *bind_fd = json_object_get (obj, "bind_fd");

  lp->tool = abs_string (obj, "tool");
  lp->helper = abs_string (obj, "helper");
  if (!lp->helper || (!lp->tool && !json_is_null (tool))
      || !json_is_integer (abi) || !json_is_boolean (overlay)
      || !json_is_boolean (bind_fd)
      || !(json_is_null (notes) || json_is_string (notes)))
    {
      ash_linux_probe_free (&lp->base);
      return -EINVAL;
    }
  lp->landlock_abi = (int) json_integer_value (abi);
  lp->base.cache_overlay = json_is_true (overlay);
  lp->bind_fd = json_is_true (bind_fd);
  lp->base.notes
    = json_is_string (notes) ? xstrdup (json_string_value (notes)) : NULL;
  lp->base.usable = true;
  *ret = &lp->base;
  return 0;
}

void
ash_linux_read_short (const char *path, char *buf, size_t size)
{
  ssize_t n = -1;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

  if (fd >= 0)
    {
      n = read (fd, buf, size - 1);
      close (fd);
    }
  buf[n > 0 ? n : 0] = '\0';
}

/* A file's identity: where it is, its size, owner and mode, and when it
   last changed (the change time moves with any write, chmod or chown, and
   cannot be set back).  */
static void
add_stat (struct ash_buf *ret, const char *path, const struct stat *st)
{
  ash_buf_addf (ret, "%s %llu %llu %lld %lo %ld:%ld %lld.%09ld %lld.%09ld\n",
                path, (unsigned long long) st->st_dev,
                (unsigned long long) st->st_ino, (long long) st->st_size,
                (unsigned long) st->st_mode, (long) st->st_uid,
                (long) st->st_gid, (long long) st->st_mtim.tv_sec,
                (long) st->st_mtim.tv_nsec, (long long) st->st_ctim.tv_sec,
                (long) st->st_ctim.tv_nsec);
}

static int
add_identity (struct ash_buf *ret, const char *path)
{
  struct stat st;

  if (!path || stat (path, &st) < 0)
    return -ENOENT;
  add_stat (ret, path, &st);
  return 0;
}

/* The first line of the small file PATH (a sysctl, the boot id) as
   "PATH VALUE", or "PATH -" when it cannot be read.  */
static void
add_setting (struct ash_buf *ret, const char *path)
{
  char buf[128];

  ash_linux_read_short (path, buf, sizeof buf);
  buf[strcspn (buf, "\n")] = '\0';
  ash_buf_addf (ret, "%s %s\n", path, buf[0] ? buf : "-");
}

/* The start time of the first process ASH can see, in clock ticks since
   boot: the init of its PID namespace, which tells one namespace from a
   later one given the same inode number.  */
static void
add_init_start (struct ash_buf *ret)
{
  char buf[1024];
  const char *p;

  ash_linux_read_short ("/proc/1/stat", buf, sizeof buf);
  /* Field 22; the command name (field 2) may hold spaces, so count from
     its closing parenthesis.  */
  p = strrchr (buf, ')');
  for (int field = 2; p && field < 22; field++)
    p = strchr (p + 1, ' ');
  if (p)
    ash_buf_addf (ret, "init-start %.*s\n", (int) strcspn (p + 1, " \n"),
                  p + 1);
  else
    ash_buf_addf (ret, "init-start -\n");
}

/* Where ASH runs and what the kernel lets an unprivileged account do
   there, none of which any file's identity shows: the boot (which also
   stands for what the running kernel offers and cannot change until the
   next boot, its seccomp actions among them), ASH's own namespaces (a
   container, a sandbox around ASH) and, with NAMESPACES_MADE, the start of
   the first process ASH sees and the sysctls and AppArmor settings that
   allow or refuse user namespaces.  A backend that makes no namespace is
   keyed by the user and mount namespaces only, which decide what its
   wrapper and rules apply to (its file, the paths, the account): the pid,
   net, ipc, uts and cgroup namespaces bear on nothing it probes, and the
   start of the first process, which tells a PID namespace from a later one
   given the same inode number, with them.  A namespace's number reused
   for another within one boot leaves such a backend's entry only as good
   as the recheck before its first spawn (for Landlock, the kernel's ABI
   asked again), which is what it rests on anyway.  */
static void
add_place (struct ash_buf *ret, bool namespaces_made)
{
  static const char *const namespaces[]
    = { "user", "mnt", "pid", "net", "ipc", "uts", "cgroup" };
  /* The first two of NAMESPACES.  */
  const size_t n_namespaces = namespaces_made ? ARRAY_SIZE (namespaces) : 2;
  static const char *const userns_settings[] = {
    "/proc/sys/kernel/unprivileged_userns_clone",
    "/proc/sys/user/max_user_namespaces",
    "/proc/sys/user/max_mnt_namespaces",
    "/proc/sys/user/max_pid_namespaces",
    "/proc/sys/user/max_net_namespaces",
    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
    "/proc/sys/kernel/apparmor_restrict_unprivileged_unconfined",
  };

  for (size_t i = 0; i < n_namespaces; i++)
    {
      char path[64], link[64];
      ssize_t n;

      snprintf (path, sizeof path, "/proc/self/ns/%s", namespaces[i]);
      n = readlink (path, link, sizeof link - 1);
      link[n > 0 ? n : 0] = '\0';
      ash_buf_addf (ret, "ns %s\n", n > 0 ? link : namespaces[i]);
    }
  if (namespaces_made)
    add_init_start (ret);
  add_setting (ret, "/proc/sys/kernel/random/boot_id");
  if (namespaces_made)
    for (size_t i = 0; i < ARRAY_SIZE (userns_settings); i++)
      add_setting (ret, userns_settings[i]);
}

int
ash_linux_identity_file (struct ash_buf *ret, const char *path)
{
  struct stat st;

  if (stat (path, &st) < 0)
    {
      ash_buf_addf (ret, "%s -\n", path);
      return 0;
    }
  add_stat (ret, path, &st);
  return 0;
}

int
ash_linux_identity (const struct ash_host *host, const char *name,
                    bool namespaces, struct ash_buf *ret)
{
  _cleanup_free_ char *tool = NULL, *helper = NULL;
  int r;

  if (name)
    {
      r = ash_linux_find_tool (host, name, &tool, NULL);
      if (r < 0)
        return r;
      r = add_identity (ret, tool);
      if (r < 0)
        return r;
    }
  /* As root the probe runs as the scanner account: another account is
     another probe.  */
  if (geteuid () == 0)
    {
      struct ash_error e = ASH_ERROR_INIT;
      uid_t uid;
      gid_t gid;

      if (ash_sandbox_scanner_ids (&uid, &gid, &e) == 0)
        ash_buf_addf (ret, "scanner-account %ld:%ld\n", (long) uid,
                      (long) gid);
      else
        ash_buf_addf (ret, "scanner-account none\n");
      ash_error_release (&e);
    }
  add_place (ret, namespaces);
  helper = ash_linux_find_helper (host);
  return add_identity (ret, helper);
}

char *
ash_linux_probe_helper (const struct ash_host *host, const char *name,
                        struct ash_probe *ret)
{
  char *helper = ash_linux_find_helper (host);

  if (!helper)
    ret->reason = xasprintf (_ ("%s cannot apply the Unix-socket filter in "
                                "its sandbox (%s was not found next to ash "
                                "or in %s)"),
                             name, ASH_LANDLOCK_EXEC, PKGLIBEXECDIR);
  return helper;
}

const char *
ash_linux_policy_home (const struct ash_policy *policy)
{
  if (policy->home && policy->home[0] == '/' && policy->home[1] != '\0')
    return policy->home;
  if (policy->passwd_home && policy->passwd_home[0] == '/'
      && policy->passwd_home[1] != '\0')
    return policy->passwd_home;
  return NULL;
}

char *
ash_linux_chomp (char *s)
{
  size_t n = strlen (s);

  while (n > 0 && isspace ((unsigned char) s[n - 1]))
    s[--n] = '\0';
  return s;
}

void
ash_linux_sandbox_env (const struct ash_policy *policy, const char *home,
                       const char *tmpdir, struct ash_strvec *ret)
{
  ash_policy_env (policy, ret);
  if (home)
    ash_strvec_setenv (ret, "HOME", home);
  else
    ash_strvec_unsetenv (ret, "HOME");
  ash_strvec_setenv (ret, "TMPDIR", tmpdir);
  for (size_t i = 0; i < policy->private_caches.nr; i++)
    ash_strvec_setenv_kv (ret, policy->private_caches.v[i]);
}

/* Join the lines of S into one, separated by "; ", for a reason that fits
   on one line.  Newly allocated.  */
static char *
one_line (const char *s)
{
  struct ash_buf b = ASH_BUF_INIT;
  const char *p = s;

  while (*p)
    {
      const char *nl = strchr (p, '\n');
      size_t n = nl ? (size_t) (nl - p) : strlen (p);

      while (n > 0 && isspace ((unsigned char) p[n - 1]))
        n--;
      if (n > 0)
        {
          if (b.len > 0)
            ash_buf_addstr (&b, "; ");
          ash_buf_add (&b, p, n);
        }
      if (!nl)
        break;
      p = nl + 1;
    }
  return ash_buf_detach (&b);
}

int
ash_linux_probe_run (char *const *argv, char **ret_out, char **ret_err,
                     int *ret_status)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res = { 0 };
  struct ash_error err = ASH_ERROR_INIT;
  int r;

  ash_cmd_init (&cmd);
  /* As root, the backend will run every scanner as the scanner account:
     so does its probe, which then says whether the backend works for
     that account (firejail refuses nobody).  */
  if (geteuid () == 0)
    {
      r = ash_sandbox_scanner_ids (&cmd.user_id, &cmd.group_id, &err);
      if (r < 0)
        {
          *ret_out = xstrdup ("");
          *ret_err = xstrdup (err.message);
          *ret_status = -1;
          ash_error_release (&err);
          ash_cmd_release (&cmd);
          return r;
        }
      cmd.set_ids = true;
    }
  ash_strvec_pushv (&cmd.argv, argv);
  ash_strvec_push (&cmd.env, "PATH=/usr/local/bin:/usr/bin:/bin");
  ash_strvec_push (&cmd.env, "LC_ALL=C");
  cmd.cwd = xstrdup ("/");
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  cmd.stderr_mode = ASH_STDIO_CAPTURE;
  cmd.out.max = 64 * 1024;
  cmd.err.max = 64 * 1024;
  cmd.timeout_sec = 60;
  cmd.kill_grace_sec = 2;
  r = ash_cmd_run (&cmd, &res, &err);
  if (r < 0)
    {
      *ret_out = xstrdup ("");
      *ret_err = xstrdup (err.message ? err.message : strerror (-r));
      *ret_status = -1;
      ash_error_release (&err);
      ash_cmd_release (&cmd);
      return r;
    }
  *ret_out = ash_buf_detach (&cmd.out);
  {
    _cleanup_free_ char *e = ash_buf_detach (&cmd.err);
    *ret_err = one_line (e);
  }
  *ret_status = res.timed_out ? -1 : res.status;
  if (res.timed_out)
    {
      char *e = *ret_err;
      *ret_err = xasprintf ("%s%stimed out", e, *e ? "; " : "");
      free (e);
    }
  ash_cmd_release (&cmd);
  return 0;
}
