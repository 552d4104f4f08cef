/* SPDX-License-Identifier: Apache-2.0 */
/* private-dir.c -- the private directories of one spawn (private-dir.h).  */

#include <config.h>

#include "private-dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/thread.h"
#include "base/util.h"
#include "fs/tree.h"
#include "sandbox/backend.h"

/* Private directories are removed off the thread that ran the spawn:
   each removal is a synchronous discard per directory on some disks, and
   nothing after the spawn needs the directory gone, except the exit of
   ASH.  One thread removes, in order, what was queued (the directories of
   spawns that ended, the stale ones of killed runs); the queue is drained
   before ASH exits (an atexit handler, and ash_linux_private_dir_flush()
   at the end of a scan), and whatever cannot be queued is removed on the
   calling thread, as before.  */
struct removal
{
  struct removal *next;
  char *dir;          /* a directory to remove, or NULL: */
  char *base;         /* remove the stale directories of PREFIX in BASE, */
  const char *prefix; /* (a string constant) */
  bool spare;         /* or, with SPARE, make the spare directory */
  const char *const *subdirs;
};

static pthread_mutex_t removal_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t removal_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t removal_idle = PTHREAD_COND_INITIALIZER;
static struct removal *removal_head, **removal_tail = &removal_head;
/* Queued and not yet done, the one being done included.  */
static size_t removal_pending;
static bool removal_thread_started, removal_thread_failed;

static void remove_stale (const char *base, const char *prefix);
static int make_dir (const char *base, const char *prefix,
                     const char *const *subdirs, char **ret_dir,
                     struct ash_error *err);

/* The first spawn's directory, made ahead on the same thread
   (ash_linux_private_dir_prepare()): BASE/PREFIX<pid>-XXXXXX with its
   subdirectories, all 0700 and ASH's own, never handed to a scanner
   before.  Taken once, by the next make() for the same BASE, PREFIX and
   subdirectories; removed with the others when it is not.  One at a
   time: another is made ahead only once this one is taken or removed.  */
static bool spare_requested;
static char *spare_dir, *spare_base;
static const char *spare_prefix;
static const char *const *spare_subdirs;

/* Remove DIR, made with SUBDIRS (NULL-terminated, or NULL), in the
   parent directory PFD when it holds those empty subdirectories and
   nothing else, as it does when a scanner left nothing there: each
   removed by name, which never follows a link.  False when anything is
   left, for the full walk to remove.  */
static bool
remove_made (int pfd, const char *name, const char *const *subdirs)
{
  _cleanup_close_ int dfd = -1;

  if (!subdirs || !subdirs[0])
    return false;
  dfd = openat (pfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0)
    return false;
  for (size_t i = 0; subdirs[i]; i++)
    if (unlinkat (dfd, subdirs[i], AT_REMOVEDIR) < 0 && errno != ENOENT)
      return false;
  return unlinkat (pfd, name, AT_REMOVEDIR) == 0;
}

static void
remove_now (const char *dir, const char *const *subdirs)
{
  struct ash_error e = ASH_ERROR_INIT;
  _cleanup_free_ char *parent = xstrdup (dir);
  char *slash = strrchr (parent, '/');

  if (slash == NULL)
    return;
  *slash = '\0';
  _cleanup_close_ int pfd
    = open (*parent ? parent : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pfd >= 0 && remove_made (pfd, slash + 1, subdirs))
    return;
  if (pfd < 0 || ash_tree_remove_all (pfd, slash + 1, &e) < 0)
    ash_warning (_ ("cannot remove %s: %s"), dir,
                 e.message ? e.message : strerror (errno));
  ash_error_release (&e);
}

static void
make_spare (struct removal *r)
{
  struct ash_error e = ASH_ERROR_INIT;
  char *dir = NULL;
  bool kept = false;

  if (make_dir (r->base, r->prefix, r->subdirs, &dir, &e) < 0)
    {
      ash_error_release (&e);
      return;
    }
  pthread_mutex_lock (&removal_lock);
  if (!spare_dir)
    {
      spare_dir = dir;
      spare_base = xstrdup (r->base);
      spare_prefix = r->prefix;
      spare_subdirs = r->subdirs;
      kept = true;
    }
  pthread_mutex_unlock (&removal_lock);
  if (!kept)
    {
      remove_now (dir, r->subdirs);
      free (dir);
    }
}

static void
removal_do (struct removal *r)
{
  if (r->dir)
    remove_now (r->dir, r->subdirs);
  else if (r->spare)
    make_spare (r);
  else
    remove_stale (r->base, r->prefix);
  free (r->dir);
  free (r->base);
  free (r);
}

static void *
removal_thread (void *arg)
{
  (void) arg;
  pthread_mutex_lock (&removal_lock);
  for (;;)
    {
      struct removal *r = removal_head;

      if (!r)
        {
          pthread_cond_wait (&removal_wake, &removal_lock);
          continue;
        }
      removal_head = r->next;
      if (!removal_head)
        removal_tail = &removal_head;
      pthread_mutex_unlock (&removal_lock);
      removal_do (r);
      pthread_mutex_lock (&removal_lock);
      if (--removal_pending == 0)
        pthread_cond_broadcast (&removal_idle);
    }
  return NULL;
}

/* Until the queue is done.  Called with REMOVAL_LOCK held.  */
static void
wait_idle_locked (void)
{
  while (removal_pending > 0)
    pthread_cond_wait (&removal_idle, &removal_lock);
}

void
ash_linux_private_dir_wait (void)
{
  pthread_mutex_lock (&removal_lock);
  wait_idle_locked ();
  pthread_mutex_unlock (&removal_lock);
}

/* The spare directory (NULL: none), now the caller's, and a new one
   may be asked for.  Called with REMOVAL_LOCK held.  */
static char *
spare_take_locked (void)
{
  char *dir = spare_dir;
  spare_dir = NULL;
  free (spare_base);
  spare_base = NULL;
  spare_requested = false;
  return dir;
}

void
ash_linux_private_dir_flush (void)
{
  char *spare;
  const char *const *subdirs;

  pthread_mutex_lock (&removal_lock);
  wait_idle_locked ();
  /* A spare directory no spawn took goes too.  */
  subdirs = spare_subdirs;
  spare = spare_take_locked ();
  pthread_mutex_unlock (&removal_lock);
  if (spare)
    {
      remove_now (spare, subdirs);
      free (spare);
    }
}

static void
flush_at_exit (void)
{
  ash_linux_private_dir_flush ();
}

/* Start the removal thread, once; false when it cannot be (the caller
   then removes on its own thread).  Called with removal_lock held.  */
static bool
removal_thread_start (void)
{
  if (removal_thread_started)
    return true;
  if (removal_thread_failed)
    return false;
  removal_thread_failed = true;
  if (atexit (flush_at_exit) != 0)
    return false;
  /* No signal for the remover (ash_thread_start blocks them all): ASH
     takes SIGINT and SIGTERM on a thread of its own.  */
  if (ash_thread_start (NULL, true, removal_thread, NULL) == 0)
    removal_thread_started = true;
  removal_thread_failed = !removal_thread_started;
  return removal_thread_started;
}

/* Queue R for the removal thread; false (R untouched) when there is
   none.  */
static bool
removal_queue (struct removal *r)
{
  bool queued = false;

  pthread_mutex_lock (&removal_lock);
  if (removal_thread_start ())
    {
      r->next = NULL;
      *removal_tail = r;
      removal_tail = &r->next;
      removal_pending++;
      pthread_cond_signal (&removal_wake);
      queued = true;
    }
  pthread_mutex_unlock (&removal_lock);
  return queued;
}

void
ash_linux_private_dir_remove_made (const char *dir, const char *const *subdirs)
{
  struct removal *r = xcalloc (1, sizeof *r);

  r->dir = xstrdup (dir);
  r->subdirs = subdirs;
  if (!removal_queue (r))
    removal_do (r);
}

void
ash_linux_private_dir_remove (const char *dir)
{
  ash_linux_private_dir_remove_made (dir, NULL);
}

/* Remove the private directories PREFIX<pid>-* in BASE that runs of ash
   left when they were killed before they could remove them: those whose
   pid names an ash that no longer exists.  A pid that has been reused
   keeps its directory until a later run; names without a pid are left
   alone.  */
static void
remove_stale (const char *base, const char *prefix)
{
  DIR *d = opendir (base);
  struct dirent *de;
  /* As root, the private directories may belong to the scanner
     account.  */
  uid_t scanner_uid = geteuid ();
  if (geteuid () == 0)
    {
      struct ash_error e = ASH_ERROR_INIT;
      gid_t gid;
      if (ash_sandbox_scanner_ids (&scanner_uid, &gid, &e) < 0)
        scanner_uid = 0;
      ash_error_release (&e);
    }

  if (d == NULL)
    return;
  while ((de = readdir (d)) != NULL)
    {
      const char *p = de->d_name;
      char *end;
      long pid;
      struct stat st;

      if (!ash_str_has_prefix (p, prefix))
        continue;
      p += strlen (prefix);
      errno = 0;
      pid = strtol (p, &end, 10);
      if (errno || end == p || *end != '-' || pid <= 0 || pid == getpid ())
        continue;
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISDIR (st.st_mode)
          || (st.st_uid != geteuid () && st.st_uid != scanner_uid))
        continue;
      if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      _cleanup_free_ char *path = ash_path_join (base, de->d_name);
      ash_info (_ ("removing %s, left by a run of ash that was killed"), path);
      remove_now (path, NULL);
    }
  closedir (d);
}

/* Whether the stale directories of PREFIX are still to be removed in this
   process; records that they are being.  The backends' prefixes are
   string constants, compared by address.  */
static bool
first_for_prefix (const char *prefix)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static const char *done[8];
  static size_t n_done;
  bool first = true;

  pthread_mutex_lock (&lock);
  for (size_t i = 0; i < n_done; i++)
    if (done[i] == prefix)
      first = false;
  if (first && n_done < ARRAY_SIZE (done))
    done[n_done++] = prefix;
  pthread_mutex_unlock (&lock);
  return first;
}

/* Make BASE/PREFIX<pid>-XXXXXX with SUBDIRS (NULL-terminated, or NULL)
   in it: 0 with *RET_DIR the new name, or a negative errno with ERR
   filled.  */
static int
make_dir (const char *base, const char *prefix, const char *const *subdirs,
          char **ret_dir, struct ash_error *err)
{
  char *dir;
  int dfd;

  /* The pid of ash in the name tells a later run whether the run that
     made it is still alive.  */
  dir = xasprintf ("%s/%s%ld-XXXXXX", base, prefix, (long) getpid ());
  if (!mkdtemp (dir))
    {
      int e = errno;
      free (dir);
      return ash_error_set (err, -e,
                            _ ("cannot make a private directory in %s: %s"),
                            base, strerror (e));
    }
  if (!subdirs || !subdirs[0])
    {
      *ret_dir = dir;
      return 0;
    }
  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  for (size_t i = 0; subdirs[i]; i++)
    if (dfd < 0 || mkdirat (dfd, subdirs[i], 0700) < 0)
      {
        int e = errno;
        ash_error_set (err, -e, _ ("cannot make %s/%s: %s"), dir, subdirs[i],
                       strerror (e));
        if (dfd >= 0)
          close (dfd);
        remove_now (dir, NULL);
        free (dir);
        return -e;
      }
  close (dfd);
  *ret_dir = dir;
  return 0;
}

/* Queue the removal of the stale directories of PREFIX in BASE, once per
   process and PREFIX: a large BASE is read whole.  They are never this
   run's.  */
static void
stale_queue (const char *base, const char *prefix)
{
  if (first_for_prefix (prefix))
    {
      struct removal *r = xcalloc (1, sizeof *r);

      r->base = xstrdup (base);
      r->prefix = prefix;
      if (!removal_queue (r))
        removal_do (r);
    }
}

void
ash_linux_private_dir_prepare (const char *base, const char *prefix,
                               const char *const *subdirs)
{
  struct removal *r;
  bool first;

  stale_queue (base, prefix);
  pthread_mutex_lock (&removal_lock);
  first = !spare_requested;
  spare_requested = true;
  pthread_mutex_unlock (&removal_lock);
  if (!first)
    return;
  r = xcalloc (1, sizeof *r);
  r->base = xstrdup (base);
  r->prefix = prefix;
  r->spare = true;
  r->subdirs = subdirs;
  /* Without the thread there is nothing to gain.  */
  if (!removal_queue (r))
    {
      free (r->base);
      free (r);
    }
}

int
ash_linux_private_dir_make (const char *base, const char *prefix,
                            const char *const *subdirs, char **ret_dir,
                            struct ash_error *err)
{
  char *dir = NULL;

  stale_queue (base, prefix);
  pthread_mutex_lock (&removal_lock);
  if (spare_dir && spare_prefix == prefix && spare_subdirs == subdirs
      && streq (spare_base, base))
    dir = spare_take_locked ();
  pthread_mutex_unlock (&removal_lock);
  if (!dir)
    return make_dir (base, prefix, subdirs, ret_dir, err);
  *ret_dir = dir;
  return 0;
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
link_name_cmp (const void *a, const void *b)
{
  const struct ash_policy_link *const *x = a, *const *y = b;
  return strcmp ((*x)->name, (*y)->name);
}

/* The link already made in the private home (MADE, sorted parents first)
   that NAME lies beneath, or NULL.  */
static const struct ash_policy_link *
made_above (const struct ash_policy_link *const *made, size_t n_made,
            const char *name)
{
  for (size_t i = 0; i < n_made; i++)
    {
      size_t len = strlen (made[i]->name);
      if (strncmp (name, made[i]->name, len) == 0 && name[len] == '/')
        return made[i];
    }
  return NULL;
}

/* Whether PATH and TARGET name the same file on the host.  */
static bool
same_file (const char *path, const char *target)
{
  struct stat a, b;

  return stat (path, &a) == 0 && stat (target, &b) == 0 && a.st_dev == b.st_dev
         && a.st_ino == b.st_ino;
}

/* No directory can be made beneath a link, so an inner link is left out
   when the outer one leads to the same file, and refused otherwise.  The
   links are made parents first, whatever order the policy lists them
   in.  */
int
ash_linux_home_links_make (int home_fd, const struct ash_policy *policy,
                           struct ash_error *err)
{
  size_t n = policy->n_home_links, n_made = 0;
  _cleanup_free_ const struct ash_policy_link **order = NULL;
  _cleanup_free_ const struct ash_policy_link **made = NULL;

  if (n == 0)
    return 0;
  order = xcalloc (n, sizeof *order);
  made = xcalloc (n, sizeof *made);
  for (size_t i = 0; i < n; i++)
    order[i] = &policy->home_links[i];
  qsort (order, n, sizeof *order, link_name_cmp);
  for (size_t i = 0; i < n; i++)
    {
      const struct ash_policy_link *l = order[i];
      const struct ash_policy_link *above = made_above (made, n_made, l->name);
      int r;

      if (above)
        {
          _cleanup_free_ char *via
            = ash_path_join (above->target,
                             l->name + strlen (above->name) + 1);
          if (same_file (via, l->target))
            continue;
          return ash_error_set (err, -EEXIST,
                                _ ("cannot link %s in the private home to "
                                   "%s: %s is a link to %s there"),
                                l->name, l->target, above->name,
                                above->target);
        }
      r = home_fd < 0 ? -EBADF : make_home_link (home_fd, l->name, l->target);
      if (r < 0)
        return ash_error_set (err, r,
                              _ ("cannot link %s in the private home to "
                                 "%s: %s"),
                              l->name, l->target, strerror (-r));
      made[n_made++] = l;
    }
  return 0;
}
