/* SPDX-License-Identifier: Apache-2.0 */
/* cgroup.c -- a control group per scanner (see cgroup.h).  */

#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"
#include "proc/cgroup.h"

/* Where the hierarchies are mounted; a test may point them elsewhere.  */
static const char *const v2_mounts[]
  = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified", NULL };
#define V1_PIDS "/sys/fs/cgroup/pids"
#define V1_MEMORY "/sys/fs/cgroup/memory"
#define GROUP_DIR "ash.scanners"

static int
write_file (const char *dir, const char *file, const char *text)
{
  _cleanup_free_ char *p = ash_path_join (dir, file);
  _cleanup_close_ int fd = open (p, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  size_t n = strlen (text);

  if (fd < 0)
    return -errno;
  if (write (fd, text, n) != (ssize_t) n)
    return errno ? -errno : -EIO;
  return 0;
}

static char *
read_file (const char *dir, const char *file)
{
  _cleanup_free_ char *p = ash_path_join (dir, file);
  _cleanup_close_ int fd = open (p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  char buf[4096];
  ssize_t n;

  if (fd < 0)
    return NULL;
  n = read (fd, buf, sizeof buf - 1);
  if (n < 0)
    return NULL;
  buf[n] = '\0';
  return xstrdup (buf);
}

/* Whether the space-separated list TEXT holds WORD.  */
static bool
has_word (const char *text, const char *word)
{
  size_t n = strlen (word);

  for (const char *p = text; p && (p = strstr (p, word)); p += n)
    if ((p == text || isspace ((unsigned char) p[-1]))
        && (p[n] == '\0' || isspace ((unsigned char) p[n])))
      return true;
  return false;
}

/* A v1 line names its controllers separated by commas.  */
static bool
has_word_sep (const char *list, const char *word)
{
  size_t n = strlen (word);

  for (const char *p = list; p && *p;)
    {
      const char *c = strchr (p, ',');
      size_t len = c ? (size_t) (c - p) : strlen (p);
      if (len == n && strncmp (p, word, n) == 0)
        return true;
      p = c ? c + 1 : NULL;
    }
  return false;
}

/* ASH's own group in the v2 hierarchy (CONTROLLER NULL) or in the v1
   hierarchy of CONTROLLER, from /proc/self/cgroup, or NULL.  */
static char *
own_group (const char *controller)
{
  _cleanup_fclose_ FILE *f = fopen ("/proc/self/cgroup", "re");
  char line[4096];

  if (!f)
    return NULL;
  while (fgets (line, sizeof line, f))
    {
      char *a = strchr (line, ':'), *b = a ? strchr (a + 1, ':') : NULL;

      if (!b)
        continue;
      line[strcspn (line, "\n")] = '\0';
      *b = '\0';
      if (controller == NULL ? streq (line, "0") && a + 1 == b
                             : has_word_sep (a + 1, controller))
        return xstrdup (b + 1);
    }
  return NULL;
}

static char *
dir_of (const char *path)
{
  char *d = xstrdup (path);
  char *slash = strrchr (d, '/');

  if (slash && slash != d)
    *slash = '\0';
  return d;
}

/* Make PARENT/GROUP_DIR (or take it as it is) with the controllers
   wanted enabled below it.  */
static char *
v2_group_dir (const char *parent, bool memory)
{
  _cleanup_free_ char *d = ash_path_join (parent, GROUP_DIR);
  struct stat st;

  if (mkdir (d, 0755) < 0 && errno != EEXIST)
    return NULL;
  if (lstat (d, &st) < 0 || !S_ISDIR (st.st_mode) || st.st_uid != geteuid ())
    return NULL;
  _cleanup_free_ char *sc = read_file (d, "cgroup.subtree_control");
  if (!sc)
    return NULL;
  if (!has_word (sc, "pids")
      && write_file (d, "cgroup.subtree_control", "+pids") < 0)
    return NULL;
  if (memory && !has_word (sc, "memory"))
    (void) write_file (d, "cgroup.subtree_control", "+memory");
  return TAKE_PTR (d);
}

/* The directory below which ASH makes its v2 groups: GROUP_DIR in the
   nearest ancestor of ASH's own group that delegates the pids controller
   to its children and lets ASH's account move processes there (its
   cgroup.procs writable); as root, an ancestor where the controllers can
   be enabled.  */
static char *
v2_parent (bool memory, char **ret_why)
{
  const char *mnt = NULL;
  _cleanup_free_ char *own = own_group (NULL);

  for (size_t i = 0; v2_mounts[i]; i++)
    {
      _cleanup_free_ char *text
        = read_file (v2_mounts[i], "cgroup.controllers");
      if (text && has_word (text, "pids"))
        {
          mnt = v2_mounts[i];
          break;
        }
    }
  if (!mnt || !own || own[0] != '/')
    {
      *ret_why = xstrdup (_ ("no cgroup v2 hierarchy with the pids "
                             "controller"));
      return NULL;
    }
  _cleanup_free_ char *cur = ash_path_join (mnt, own + 1);
  while (strlen (cur) > strlen (mnt))
    {
      char *up = dir_of (cur);
      free (cur);
      cur = up;
      _cleanup_free_ char *sc = read_file (cur, "cgroup.subtree_control");
      _cleanup_free_ char *procs = ash_path_join (cur, "cgroup.procs");
      if (!sc || access (procs, W_OK) < 0 || access (cur, W_OK) < 0)
        continue;
      if (!has_word (sc, "pids"))
        {
          if (geteuid () != 0
              || write_file (cur, "cgroup.subtree_control", "+pids") < 0)
            continue;
          if (memory)
            (void) write_file (cur, "cgroup.subtree_control", "+memory");
        }
      else if (memory && !has_word (sc, "memory") && geteuid () == 0)
        (void) write_file (cur, "cgroup.subtree_control", "+memory");
      char *d = v2_group_dir (cur, memory);
      if (d)
        return d;
    }
  *ret_why = xstrdup (geteuid () == 0
                        ? _ ("no cgroup v2 group where the pids controller "
                             "can be enabled")
                        : _ ("no cgroup v2 group delegated to this account "
                             "with the pids controller"));
  return NULL;
}

/* cgroup v1, as root: GROUP_DIR in ASH's own group of the hierarchy
   mounted at MNT, so that the bounds of the group ASH runs in still
   hold.  */
static char *
v1_parent (const char *mnt, const char *controller)
{
  _cleanup_free_ char *own = own_group (controller);
  _cleanup_free_ char *procs = ash_path_join (mnt, "cgroup.procs");

  if (geteuid () != 0 || !own || own[0] != '/' || access (procs, W_OK) < 0)
    return NULL;
  _cleanup_free_ char *base
    = streq (own, "/") ? xstrdup (mnt) : ash_path_join (mnt, own + 1);
  char *d = ash_path_join (base, GROUP_DIR);
  if (mkdir (d, 0755) < 0 && errno != EEXIST)
    {
      free (d);
      return NULL;
    }
  return d;
}

static char *
make_child (const char *parent, const char *name)
{
  char *d = ash_path_join (parent, name);

  if (mkdir (d, 0755) < 0)
    {
      free (d);
      return NULL;
    }
  return d;
}

/* The file through which the command joins the group DIR: it writes "0"
   there, between its start and its exec, while it has one thread.

   In cgroup v2, cgroup.procs.  In cgroup v1, tasks: written "0", it moves
   the calling thread alone, which for a process of one thread is the
   whole process, and the kernel (Linux 6.0, and the stable kernels from
   5.4 that took the change) does it without taking the global
   cgroup_threadgroup_rwsem for writing, which cgroup.procs takes, and
   whose every writer waits for an RCU grace period unless another writer
   came within the last one (4 to 16 ms each on an idle machine, more
   under load).  Everything the command starts afterwards is forked inside
   the group either way.  Older kernels take the lock for both files.  */
static int
open_procs (const char *dir, bool v1)
{
  _cleanup_free_ char *p = ash_path_join (dir, v1 ? "tasks" : "cgroup.procs");
  return open (p, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
}

int
ash_cgroup_make (const char *name, unsigned long long pids_max,
                 unsigned long long memory_max, struct ash_cgroup *ret,
                 char **ret_why)
{
  struct ash_cgroup cg = ASH_CGROUP_INIT;
  _cleanup_free_ char *leaf = xasprintf ("ash-%ld-%s", (long) getpid (), name);
  _cleanup_free_ char *why = NULL;
  char num[32];

  *ret_why = NULL;
  ash_cgroup_sweep ();
  _cleanup_free_ char *parent = v2_parent (memory_max != 0, &why);
  if (parent)
    {
      cg.v2 = make_child (parent, leaf);
      if (cg.v2)
        {
          if (pids_max)
            {
              snprintf (num, sizeof num, "%llu", pids_max);
              cg.pids = write_file (cg.v2, "pids.max", num) == 0;
            }
          if (memory_max)
            {
              snprintf (num, sizeof num, "%llu", memory_max);
              cg.memory = write_file (cg.v2, "memory.max", num) == 0;
              /* Over its bound the scanner is ended, not swapped out.  */
              if (cg.memory)
                (void) write_file (cg.v2, "memory.swap.max", "0");
            }
          cg.procs_fd[0] = open_procs (cg.v2, false);
        }
    }
  else
    {
      _cleanup_free_ char *pp = pids_max ? v1_parent (V1_PIDS, "pids") : NULL;
      _cleanup_free_ char *mp
        = memory_max ? v1_parent (V1_MEMORY, "memory") : NULL;
      int n = 0;

      if (pp && (cg.v1_pids = make_child (pp, leaf)))
        {
          snprintf (num, sizeof num, "%llu", pids_max);
          cg.pids = write_file (cg.v1_pids, "pids.max", num) == 0;
          cg.procs_fd[n++] = open_procs (cg.v1_pids, true);
        }
      if (mp && (cg.v1_memory = make_child (mp, leaf)))
        {
          snprintf (num, sizeof num, "%llu", memory_max);
          cg.memory
            = write_file (cg.v1_memory, "memory.limit_in_bytes", num) == 0;
          if (cg.memory)
            (void) write_file (cg.v1_memory, "memory.memsw.limit_in_bytes",
                               num);
          cg.procs_fd[n++] = open_procs (cg.v1_memory, true);
        }
      if (cg.v1_pids || cg.v1_memory)
        {
          free (why);
          why = NULL;
        }
      else if (geteuid () == 0 && !why)
        why = xstrdup (_ ("no cgroup v1 pids or memory hierarchy"));
    }
  if ((!cg.v2 && !cg.v1_pids && !cg.v1_memory) || cg.procs_fd[0] < 0
      || (!cg.pids && !cg.memory))
    {
      if (!why)
        why = xstrdup (_ ("the control group could not be set up"));
      ash_cgroup_remove (&cg);
      *ret_why = TAKE_PTR (why);
      return -ENOTSUP;
    }
  *ret = cg;
  return 0;
}

static unsigned long long
field_of (const char *text, const char *key)
{
  size_t n = strlen (key);

  for (const char *p = text; p && *p; p = strchr (p, '\n'), p = p ? p + 1 : p)
    if (strncmp (p, key, n) == 0 && p[n] == ' ')
      return strtoull (p + n + 1, NULL, 10);
  return 0;
}

bool
ash_cgroup_memory_exceeded (const struct ash_cgroup *cg)
{
  if (!cg || !cg->memory)
    return false;
  if (cg->v2)
    {
      _cleanup_free_ char *ev = read_file (cg->v2, "memory.events");
      return ev && field_of (ev, "oom_kill") > 0;
    }
  if (cg->v1_memory)
    {
      _cleanup_free_ char *oc
        = read_file (cg->v1_memory, "memory.oom_control");
      return oc && field_of (oc, "oom_kill") > 0;
    }
  return false;
}

static int
pid_cmp (const void *a, const void *b)
{
  pid_t x = *(const pid_t *) a, y = *(const pid_t *) b;
  return (x > y) - (x < y);
}

/* The processes the group's cgroup.procs (PROCS) lists, sorted, into
   *RET (N of them, freed by the caller); false when it cannot be read
   (the group is gone).  */
static bool
read_pids (const char *procs, pid_t **ret, size_t *ret_n)
{
  _cleanup_fclose_ FILE *f = fopen (procs, "re");
  pid_t *v = NULL;
  size_t n = 0, alloc = 0;
  long pid;

  *ret = NULL;
  *ret_n = 0;
  if (!f)
    return false;
  while (fscanf (f, "%ld", &pid) == 1)
    if (pid > 0 && pid <= INT_MAX)
      {
        if (n == alloc)
          v = xreallocarray (v, alloc = alloc ? 2 * alloc : 32, sizeof *v);
        v[n++] = (pid_t) pid;
      }
  if (n > 1)
    qsort (v, n, sizeof *v, pid_cmp);
  *ret = v;
  *ret_n = n;
  return true;
}

/* The pause before the next look at a group: 50 us the first time
   (*DELAY starts at 50), twice as long each time after, up to 1 ms.  */
static void
backoff (useconds_t *delay)
{
  usleep (*delay);
  *delay = *delay < 500 ? *delay * 2 : 1000;
}

#if defined __linux__ && defined SYS_pidfd_open                               \
  && defined SYS_pidfd_send_signal
#define HAVE_PIDFDS 1
#endif

/* Called between the pidfds' opening and the second reading of the
   group's processes; a test defines it to move a process out of the
   group there.  */
#ifndef ASH_CGROUP_RELIST_HOOK
#define ASH_CGROUP_RELIST_HOOK() ((void) 0)
#endif

/* SIGKILL to the processes in PIDS (N of them, listed by PROCS a moment
   ago), then wait for them to exit.  A listed process may exit and its
   pid be taken by a process outside the group before the signal: so
   each is opened as a pidfd first, PROCS is read again, and only those
   still listed are signalled, through their pidfds (a pid listed both
   times belongs to the process the pidfd holds, or that process is
   gone).  The wait is on the same pidfds, at most 20 ms.  Where there
   are no pidfds (a kernel before Linux 5.3, or no descriptor left) the
   pid is signalled as it is.  True when it waited for a process that
   had not exited yet; false when there was nothing to wait on that way
   (every one had exited already but is still listed, or no pidfds), and
   the caller sleeps instead.  */
static bool
kill_listed (const char *procs, const pid_t *pids, size_t n)
{
  bool waited = false;

  for (size_t base = 0; base < n; base += 64)
    {
#ifdef HAVE_PIDFDS
      struct pollfd fds[64];
      pid_t fpids[64];
      size_t nfds = 0;
      pid_t *now = NULL;
      size_t n_now = 0;

      for (size_t i = base; i < n && i < base + ARRAY_SIZE (fds); i++)
        {
          long fd = syscall (SYS_pidfd_open, pids[i], 0);
          if (fd >= 0)
            {
              fpids[nfds] = pids[i];
              fds[nfds++]
                = (struct pollfd){ .fd = (int) fd, .events = POLLIN };
            }
          else if (errno != ESRCH)
            kill (pids[i], SIGKILL);
        }
      if (nfds == 0)
        continue;
      ASH_CGROUP_RELIST_HOOK ();
      (void) read_pids (procs, &now, &n_now);
      for (size_t i = 0; i < nfds; i++)
        if (n_now && bsearch (&fpids[i], now, n_now, sizeof *now, pid_cmp))
          (void) syscall (SYS_pidfd_send_signal, fds[i].fd, SIGKILL, NULL, 0);
        else
          {
            /* Not in the group any more: not ours to signal or wait for. */
            close (fds[i].fd);
            fds[i].fd = -1;
          }
      free (now);
      /* Those that have exited already are not waited for; when all have,
         nothing is.  */
      size_t live = 0;
      for (size_t i = 0; i < nfds; i++)
        live += fds[i].fd >= 0;
      if (live > 0 && poll (fds, nfds, 0) < (int) live)
        for (;;)
          {
            bool left = false;
            for (size_t i = 0; i < nfds; i++)
              if (fds[i].fd >= 0 && fds[i].revents)
                {
                  close (fds[i].fd);
                  fds[i].fd = -1; /* poll skips a negative descriptor */
                }
              else if (fds[i].fd >= 0)
                left = true;
            if (!left)
              break;
            waited = true;
            int r = poll (fds, nfds, 20);
            if (r == 0 || (r < 0 && errno != EINTR))
              break;
          }
      for (size_t i = 0; i < nfds; i++)
        if (fds[i].fd >= 0)
          close (fds[i].fd);
#else
      (void) procs;
      for (size_t i = base; i < n && i < base + 64; i++)
        kill (pids[i], SIGKILL);
#endif
    }
  return waited;
}

/* End every process in DIR's group, and return once it holds none:
   cgroup.kill where there is one (v2), and SIGKILL to each process
   cgroup.procs lists (kill_listed()), round after round until none is
   listed (a fork bomb is bounded by pids.max, so the rounds end).  A
   round waits for the processes it found to exit, where it can on their
   pidfds, else it sleeps, a little longer each time (50 us to 1 ms): a
   process that outlives the scanner by a few microseconds (bwrap's init
   in the sandbox, still leaving its namespaces) costs no more than
   that.  false when the group was still not empty after the rounds.  */
static bool
end_all (const char *dir, bool v2)
{
  _cleanup_free_ char *p = ash_path_join (dir, "cgroup.procs");
  useconds_t delay = 50;

  if (v2)
    (void) write_file (dir, "cgroup.kill", "1");
  for (int round = 0; round < 1000; round++)
    {
      pid_t *listed;
      size_t n;

      if (!read_pids (p, &listed, &n) || n == 0)
        {
          free (listed);
          return true;
        }
      bool waited = kill_listed (p, listed, n);
      free (listed);
      if (!waited)
        backoff (&delay);
    }
  return false;
}

/* End every process in DIR's group, then remove DIR.  A group that is
   emptied may still be busy for a moment: rmdir is tried again, after
   a pause a little longer each time, for about a second.  */
static void
kill_and_rmdir (const char *dir, bool v2)
{
  useconds_t delay = 50;

  (void) end_all (dir, v2);
  for (int i = 0; i < 1000 && rmdir (dir) < 0 && errno == EBUSY; i++)
    backoff (&delay);
}

void
ash_cgroup_end (struct ash_cgroup *cg)
{
  if (!cg)
    return;
  if (cg->v2)
    (void) end_all (cg->v2, true);
  if (cg->v1_pids)
    (void) end_all (cg->v1_pids, false);
  if (cg->v1_memory)
    (void) end_all (cg->v1_memory, false);
}

void
ash_cgroup_remove (struct ash_cgroup *cg)
{
  if (!cg)
    return;
  for (size_t i = 0; i < ARRAY_SIZE (cg->procs_fd); i++)
    if (cg->procs_fd[i] >= 0)
      {
        close (cg->procs_fd[i]);
        cg->procs_fd[i] = -1;
      }
  if (cg->v2)
    kill_and_rmdir (cg->v2, true);
  if (cg->v1_pids)
    kill_and_rmdir (cg->v1_pids, false);
  if (cg->v1_memory)
    kill_and_rmdir (cg->v1_memory, false);
  free (cg->v2);
  free (cg->v1_pids);
  free (cg->v1_memory);
  cg->v2 = cg->v1_pids = cg->v1_memory = NULL;
  cg->pids = cg->memory = false;
}

/* The groups in PARENT named ash-PID-NAME whose PID is gone.  */
static void
sweep_parent (const char *parent)
{
  DIR *d = opendir (parent);
  struct dirent *de;

  if (!d)
    return;
  while ((de = readdir (d)))
    {
      char *end;
      long pid;

      if (!ash_str_has_prefix (de->d_name, "ash-"))
        continue;
      errno = 0;
      pid = strtol (de->d_name + 4, &end, 10);
      if (errno || end == de->d_name + 4 || *end != '-' || pid <= 0
          || pid == getpid ())
        continue;
      if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      _cleanup_free_ char *g = ash_path_join (parent, de->d_name);
      struct stat st;
      if (lstat (g, &st) < 0 || !S_ISDIR (st.st_mode)
          || st.st_uid != geteuid ())
        continue;
      _cleanup_free_ char *kill_file = ash_path_join (g, "cgroup.kill");
      kill_and_rmdir (g, access (kill_file, F_OK) == 0);
    }
  closedir (d);
}

static void
sweep_once (void)
{
  _cleanup_free_ char *why = NULL;
  _cleanup_free_ char *v2 = v2_parent (false, &why);
  _cleanup_free_ char *pp = v1_parent (V1_PIDS, "pids");
  _cleanup_free_ char *mp = v1_parent (V1_MEMORY, "memory");

  if (v2)
    sweep_parent (v2);
  if (pp)
    sweep_parent (pp);
  if (mp)
    sweep_parent (mp);
}

void
ash_cgroup_sweep (void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;

  pthread_once (&once, sweep_once);
}
