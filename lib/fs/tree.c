/* SPDX-License-Identifier: Apache-2.0 */
/* tree.c -- fd-relative access below the output directory.

   Everything here works relative to a directory fd and never follows a
   symlink: intermediate directories are opened one component at a time
   with O_NOFOLLOW | O_DIRECTORY (or in one openat2 call with
   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS where the
   kernel has it), and the last component is created exclusively or checked
   with fstatat (AT_SYMLINK_NOFOLLOW) before it is used.  Since every step
   holds an fd of the directory it looked in, a directory that is swapped
   for a symlink between two steps cannot redirect a later step.  */

#include <config.h>

#include "fs/tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

#ifdef O_PATH
#define TREE_HAVE_O_PATH 1
#else
#define O_PATH 0
#endif

#if defined HAVE_LINUX_OPENAT2_H && defined SYS_openat2
#define ASH_HAVE_OPENAT2 1
#endif

/* How deep the recursive walks (sweep, check) go before they give up with
   an error rather than exhaust the stack.  Removal has no limit: it walks
   iteratively (remove_below).  */
#define TREE_MAX_DEPTH 512

enum tree_op
{
  OP_WRITE,
  OP_READ,
  OP_RESULTS,
};

/* ---- Naming directory fds ------------------------------------------- */

struct dir_name
{
  int fd;
  dev_t dev;
  ino_t ino;
  char *path;
};

static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dir_name *names;
static size_t names_nr, names_alloc;

void
ash_tree_name_dir (int fd, const char *abspath)
{
  struct stat st;
  if (fd < 0 || !abspath || fstat (fd, &st) < 0)
    return;
  char *copy = xstrdup (abspath);
  pthread_mutex_lock (&names_lock);
  size_t i;
  for (i = 0; i < names_nr; i++)
    if (names[i].fd == fd)
      break;
  if (i == names_nr)
    {
      if (names_nr == names_alloc)
        {
          names_alloc = names_alloc ? 2 * names_alloc : 16;
          names = xreallocarray (names, names_alloc, sizeof *names);
        }
      names_nr++;
    }
  else
    free (names[i].path);
  names[i] = (struct dir_name){ fd, st.st_dev, st.st_ino, copy };
  pthread_mutex_unlock (&names_lock);
}

/* The name of DIRFD, newly allocated, or NULL.  */
static char *
dir_name_of (int dirfd)
{
  struct stat st;
  char *ret = NULL;
  if (dirfd < 0 || fstat (dirfd, &st) < 0)
    return NULL;
  pthread_mutex_lock (&names_lock);
  for (size_t i = 0; i < names_nr; i++)
    if (names[i].fd == dirfd && names[i].dev == st.st_dev
        && names[i].ino == st.st_ino)
      {
        ret = xstrdup (names[i].path);
        break;
      }
  pthread_mutex_unlock (&names_lock);
  return ret;
}

char *
ash_tree_path (int dirfd, const char *relpath)
{
  _cleanup_free_ char *base = dir_name_of (dirfd);
  if (!relpath || !*relpath || streq (relpath, "."))
    return base ? TAKE_PTR (base) : xstrdup (".");
  if (!base)
    return xstrdup (relpath);
  _cleanup_free_ char *j = ash_path_join (base, relpath);
  return ash_path_normalize (j);
}

/* ---- openat2 or the walker ------------------------------------------ */

/* Read and written by every scan thread: atomic.  */
static atomic_int force_walker = -1; /* -1: not decided yet */
static atomic_int openat2_missing;   /* the kernel said ENOSYS, or seccomp
                                        EPERM */

void
ash_tree_set_walker (bool force)
{
  atomic_store (&force_walker, force);
}

static bool
walker_forced (void)
{
  int f = atomic_load (&force_walker);
  if (f < 0)
    {
      const char *e = getenv ("ASH_TREE_FORCE_WALKER");
      int want = e && streq (e, "1");
      /* A value ash_tree_set_walker stored meanwhile wins.  */
      if (!atomic_compare_exchange_strong (&force_walker, &f, want))
        return f;
      f = want;
    }
  return f;
}

bool
ash_tree_using_walker (void)
{
#ifdef ASH_HAVE_OPENAT2
  if (walker_forced ())
    return true;
  if (!atomic_load (&openat2_missing))
    {
      /* Ask the kernel once.  */
      struct open_how how;
      memset (&how, 0, sizeof how);
      how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
      how.resolve = RESOLVE_BENEATH;
      long fd = syscall (SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
      if (fd >= 0)
        ash_close ((int) fd);
      else if (errno == ENOSYS || errno == EPERM)
        /* EPERM: a seccomp profile (a container's) that does not know the
           call refuses it.  */
        atomic_store (&openat2_missing, 1);
    }
  return atomic_load (&openat2_missing);
#else
  return true;
#endif
}

/* ---- Errors ---------------------------------------------------------- */

_printf_ (4, 5) static int tree_error (struct ash_error *err, int ret,
                                       enum ash_error_kind kind,
                                       const char *fmt, ...)
{
  if (err)
    {
      va_list ap;
      va_start (ap, fmt);
      char *msg = xvasprintf (fmt, ap);
      va_end (ap);
      ash_error_set (err, ret, "%s", msg);
      free (msg);
      err->kind = kind;
    }
  return ret;
}

/* TARGET is the path being written (as ASH names it), LINK the symlink
   found on the way.  */
static int
link_error (struct ash_error *err, enum tree_op op, const char *target,
            const char *link)
{
  switch (op)
    {
    case OP_RESULTS:
      return tree_error (err, -ELOOP, ASH_KIND_RESULTS_DIR_LINK,
                         _ ("the results directory path %s is a symlink, so "
                            "ASH will not let a scanner write there; remove "
                            "the link under the output directory, or pass "
                            "another --output-dir"),
                         link);
    case OP_READ:
      return tree_error (err, -ELOOP, ASH_KIND_OUTPUT_READ,
                         _ ("%s was not read: %s is a symlink, and ASH does "
                            "not read through a symlink below its output "
                            "directory"),
                         target, link);
    case OP_WRITE:
    default:
      return tree_error (err, -ELOOP, ASH_KIND_OUTPUT_LINK,
                         _ ("%s was not written: %s is a symlink, and ASH "
                            "does not write through a symlink below its "
                            "output directory"),
                         target, link);
    }
}

static int
errno_error (struct ash_error *err, int e, enum tree_op op, const char *target,
             const char *what)
{
  if (op == OP_READ)
    return ash_error_set (err, -e, _ ("cannot read %s: %s: %s"), target, what,
                          strerror (e));
  return ash_error_set (err, -e, _ ("%s was not written: %s: %s"), target,
                        what, strerror (e));
}

/* ---- Relative paths -------------------------------------------------- */

/* Split RELPATH into components, skipping empty ones and ".".  */
static int
split_relpath (const char *relpath, struct ash_strvec *ret,
               struct ash_error *err)
{
  if (!relpath)
    relpath = "";
  if (relpath[0] == '/')
    return ash_error_set (err, -EINVAL,
                          _ ("%s is not a path relative to the output "
                             "directory"),
                          relpath);
  const char *p = relpath;
  while (*p)
    {
      while (*p == '/')
        p++;
      if (!*p)
        break;
      const char *end = strchrnul (p, '/');
      size_t len = (size_t) (end - p);
      if (len == 2 && p[0] == '.' && p[1] == '.')
        return ash_error_set (err, -EINVAL,
                              _ ("%s leads out of the directory it is "
                                 "relative to"),
                              relpath);
      if (!(len == 1 && p[0] == '.'))
        ash_strvec_push_nodup (ret, xstrndup (p, len));
      p = end;
    }
  return 0;
}

/* "a/b" from the first N components, as ASH names it below DIRFD.  */
static char *
prefix_path (int dirfd, const struct ash_strvec *comps, size_t n)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < n; i++)
    {
      if (i)
        ash_buf_addch (&b, '/');
      ash_buf_addstr (&b, comps->v[i]);
    }
  _cleanup_free_ char *rel = ash_buf_detach (&b);
  return ash_tree_path (dirfd, rel);
}

/* ---- Opening directories --------------------------------------------- */

#ifdef ASH_HAVE_OPENAT2
/* The fast path: one openat2 call that the kernel refuses as a whole when
   any component is a symlink.  Returns the fd, or -1 with errno; any
   failure sends the caller to the walker, which creates what is missing
   and names the link it finds.  */
static int
open_dir_openat2 (int dirfd, const struct ash_strvec *comps, size_t n)
{
  if (n == 0 || walker_forced () || atomic_load (&openat2_missing))
    {
      errno = EOPNOTSUPP;
      return -1;
    }
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < n; i++)
    {
      if (i)
        ash_buf_addch (&b, '/');
      ash_buf_addstr (&b, comps->v[i]);
    }
  char *rel = ash_buf_detach (&b);
  struct open_how how;
  memset (&how, 0, sizeof how);
  how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  long fd = syscall (SYS_openat2, dirfd, rel, &how, sizeof how);
  int e = errno;
  free (rel);
  if (fd < 0 && (e == ENOSYS || e == EPERM))
    atomic_store (&openat2_missing, 1);
  errno = e; /* the caller reads the syscall's, not free's */
  return (int) fd;
}
#endif

/* Opening C below CUR as a directory without following it failed with
   ERRNO_ (ELOOP or ENOTDIR): look at what is there now, atomically where
   O_PATH exists.  A directory (the name changed back meanwhile) is opened
   and returned; otherwise -1 with errno ELOOP for a symlink and ENOTDIR
   for anything else.  */
static int
classify_open (int cur, const char *c, bool readable, int errno_)
{
  for (int tries = 0; tries < 16; tries++)
    {
      struct stat st;
#ifdef TREE_HAVE_O_PATH
      int pfd = openat (cur, c, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      if (pfd < 0)
        return -1;
      if (fstat (pfd, &st) < 0)
        {
          ash_close (pfd);
          return -1;
        }
      if (S_ISDIR (st.st_mode))
        {
          if (!readable)
            return pfd;
          int fd = openat (pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
          ash_close (pfd);
          return fd;
        }
      ash_close (pfd);
#else
      if (fstatat (cur, c, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return -1;
      if (S_ISDIR (st.st_mode))
        {
          int fd = openat (cur, c,
                           (readable ? O_RDONLY : O_PATH) | O_DIRECTORY
                             | O_NOFOLLOW | O_CLOEXEC);
          if (fd >= 0 || (errno != ELOOP && errno != ENOTDIR))
            return fd;
          continue;
        }
#endif
      errno = S_ISLNK (st.st_mode) ? ELOOP : ENOTDIR;
      return -1;
    }
  errno = errno_;
  return -1;
}

/* Open (with CREATE, creating) the directory of the first N components of
   COMPS below DIRFD, refusing a symlink at any of them.  TARGET names the
   path the operation is for, in messages.  */
static int
open_dir_components (int dirfd, const struct ash_strvec *comps, size_t n,
                     bool create, enum tree_op op, const char *target,
                     int *ret_fd, struct ash_error *err)
{
#ifdef ASH_HAVE_OPENAT2
  {
    int fd = open_dir_openat2 (dirfd, comps, n);
    if (fd >= 0)
      {
        *ret_fd = fd;
        return 0;
      }
  }
#endif

  _cleanup_close_ int cur = fcntl (dirfd, F_DUPFD_CLOEXEC, 3);
  if (cur < 0)
    return errno_error (err, errno, op, target,
                        _ ("cannot use the directory"));
  for (size_t i = 0; i < n; i++)
    {
      const char *c = comps->v[i];
      /* The last one is opened readable, so that callers can list it.  */
      int flags = (i + 1 == n ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW
                  | O_CLOEXEC;
      int fd = openat (cur, c, flags);
      if (fd < 0 && errno == ENOENT && create)
        {
          if (mkdirat (cur, c, 0777) < 0 && errno != EEXIST)
            {
              _cleanup_free_ char *p = prefix_path (dirfd, comps, i + 1);
              return errno_error (err, errno, op, target, p);
            }
          fd = openat (cur, c, flags);
        }
      if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
        fd = classify_open (cur, c, i + 1 == n, errno);
      if (fd < 0)
        {
          int e = errno;
          _cleanup_free_ char *p = prefix_path (dirfd, comps, i + 1);
          if (e == ELOOP)
            return link_error (err, op, target, p);
          return errno_error (err, e, op, target, p);
        }
      ash_close (cur);
      cur = fd;
    }
  if (n == 0)
    {
      /* DIRFD itself, readable.  */
      int fd = openat (cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        return errno_error (err, errno, op, target,
                            _ ("cannot open the directory"));
      ash_close (cur);
      cur = fd;
    }
  *ret_fd = TAKE_FD (cur);
  return 0;
}

static int
open_dir_rel (int dirfd, const char *relpath, bool create, enum tree_op op,
              int *ret_fd, struct ash_error *err)
{
  struct ash_strvec comps = ASH_STRVEC_INIT;
  _cleanup_free_ char *target = ash_tree_path (dirfd, relpath);
  int fd = -1;
  int r = split_relpath (relpath, &comps, err);
  if (r == 0)
    r = open_dir_components (dirfd, &comps, comps.nr, create, op, target, &fd,
                             err);
  ash_strvec_release (&comps);
  if (r < 0)
    return r;
  ash_tree_name_dir (fd, target);
  if (ret_fd)
    *ret_fd = fd;
  else
    ash_close (fd);
  return 0;
}

int
ash_tree_mkdirs (int dirfd, const char *relpath, int *ret_fd,
                 struct ash_error *err)
{
  return open_dir_rel (dirfd, relpath, true, OP_WRITE, ret_fd, err);
}

int
ash_tree_open_dir (int dirfd, const char *relpath, int *ret_fd,
                   struct ash_error *err)
{
  return open_dir_rel (dirfd, relpath, false, OP_WRITE, ret_fd, err);
}

int
ash_tree_results_dir_open (int dirfd, const char *relpath, int *ret_fd,
                           struct ash_error *err)
{
  return open_dir_rel (dirfd, relpath, true, OP_RESULTS, ret_fd, err);
}

/* The parent directory of RELPATH and its last component.  */
struct leaf
{
  int parent;
  char *name;
  char *target; /* RELPATH as ASH names it */
};

#define LEAF_INIT                                                             \
  {                                                                           \
    -1, NULL, NULL                                                            \
  }

/* Safe on a LEAF_INIT leaf and on one already released.  */
static void
leaf_release (struct leaf *l)
{
  if (l->parent >= 0)
    ash_close (l->parent);
  free (l->name);
  free (l->target);
  l->parent = -1;
  l->name = l->target = NULL;
}

static int
open_leaf (int dirfd, const char *relpath, bool create, enum tree_op op,
           struct leaf *ret, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec comps = ASH_STRVEC_INIT;
  ret->parent = -1;
  ret->name = NULL;
  ret->target = ash_tree_path (dirfd, relpath);
  int r = split_relpath (relpath, &comps, err);
  if (r == 0 && comps.nr == 0)
    r = ash_error_set (err, -EINVAL, _ ("%s names no file"), ret->target);
  if (r == 0)
    r = open_dir_components (dirfd, &comps, comps.nr - 1, create, op,
                             ret->target, &ret->parent, err);
  if (r == 0)
    ret->name = xstrdup (comps.v[comps.nr - 1]);
  if (r < 0)
    leaf_release (ret);
  return r;
}

/* Refuse what is at L->name when it exists and is not a plain file with
   one name.  Returns 1 when it exists, 0 when it does not.  */
static int
check_leaf (const struct leaf *l, enum tree_op op, struct stat *ret_st,
            struct ash_error *err)
{
  struct stat st;
  if (fstatat (l->parent, l->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    {
      if (errno == ENOENT)
        return 0;
      return errno_error (err, errno, op, l->target, l->target);
    }
  if (S_ISLNK (st.st_mode))
    return link_error (err, op, l->target, l->target);
  if (S_ISDIR (st.st_mode))
    return tree_error (err, -EISDIR, ASH_KIND_NONE,
                       op == OP_READ ? _ ("%s was not read: it is a directory")
                                     : _ ("%s was not written: it is a "
                                          "directory"),
                       l->target);
  if (!S_ISREG (st.st_mode))
    return tree_error (err, -EPERM,
                       op == OP_READ ? ASH_KIND_OUTPUT_READ : ASH_KIND_NONE,
                       op == OP_READ
                         ? _ ("%s was not read: it is not a regular file")
                         : _ ("%s was not written: it is not a regular "
                              "file, and ASH writes only regular files"),
                       l->target);
  if (op != OP_READ && st.st_nlink > 1)
    return tree_error (err, -EMLINK, ASH_KIND_OUTPUT_HARD_LINK,
                       _ ("%s was not written: %ju names refer to it"),
                       l->target, (uintmax_t) st.st_nlink);
  if (ret_st)
    *ret_st = st;
  return 1;
}

/* ---- Writing ---------------------------------------------------------- */

static int
create_temp (int parent, mode_t mode, char **ret_name)
{
  static unsigned counter;
  for (int tries = 0; tries < 100; tries++)
    {
      unsigned c = __atomic_add_fetch (&counter, 1, __ATOMIC_RELAXED);
      struct timespec ts;
      clock_gettime (CLOCK_MONOTONIC, &ts);
      char *name = xasprintf (".ash-%ld-%u-%lx.tmp", (long) getpid (), c,
                              (unsigned long) ts.tv_nsec);
      int fd
        = openat (parent, name,
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
      if (fd >= 0)
        {
          *ret_name = name;
          return fd;
        }
      int e = errno;
      free (name);
      if (e != EEXIST)
        return -e;
    }
  return -EEXIST;
}

int
ash_tree_file_create (int dirfd, const char *relpath, mode_t mode,
                      struct ash_tree_file *ret, struct ash_error *err)
{
  _cleanup_ (leaf_release) struct leaf l = LEAF_INIT;
  int r = open_leaf (dirfd, relpath, true, OP_WRITE, &l, err);
  if (r < 0)
    return r;
  r = check_leaf (&l, OP_WRITE, NULL, err);
  if (r < 0)
    return r;
  char *tmp = NULL;
  int fd = create_temp (l.parent, mode, &tmp);
  if (fd < 0)
    return errno_error (err, -fd, OP_WRITE, l.target,
                        _ ("cannot create a temporary file"));
  ret->fd = fd;
  ret->parent = TAKE_FD (l.parent);
  ret->name = TAKE_PTR (l.name);
  ret->tmp = tmp;
  ret->path = TAKE_PTR (l.target);
  return 0;
}

void
ash_tree_file_abort (struct ash_tree_file *f)
{
  if (!f)
    return;
  if (f->fd >= 0)
    ash_close (f->fd);
  if (f->parent >= 0)
    {
      if (f->tmp)
        (void) unlinkat (f->parent, f->tmp, 0);
      ash_close (f->parent);
    }
  free (f->name);
  free (f->tmp);
  free (f->path);
  *f = (struct ash_tree_file) ASH_TREE_FILE_INIT;
}

int
ash_tree_file_commit (struct ash_tree_file *f, struct ash_error *err)
{
  int r = 0;
  if (f->fd < 0 || f->parent < 0)
    return ash_error_set (err, -EBADF, _ ("no file is being written"));
  int fd = f->fd;
  f->fd = -1;
  if (close (fd) < 0)
    r = errno_error (err, errno, OP_WRITE, f->path, f->path);
  if (r == 0)
    {
      /* Look again just before the rename: a link or hard link that
         appeared meanwhile is refused.  One that appears after this check
         is replaced by the rename, which never writes through it.  */
      struct leaf l = { f->parent, f->name, f->path };
      r = check_leaf (&l, OP_WRITE, NULL, err);
    }
  if (r >= 0 && renameat (f->parent, f->tmp, f->parent, f->name) < 0)
    r = errno_error (err, errno, OP_WRITE, f->path, f->path);
  else if (r >= 0)
    {
      free (f->tmp);
      f->tmp = NULL;
      r = 0;
    }
  ash_tree_file_abort (f);
  return r;
}

int
ash_tree_write_file (int dirfd, const char *relpath, const void *data,
                     size_t len, mode_t mode, struct ash_error *err)
{
  struct ash_tree_file f = ASH_TREE_FILE_INIT;
  int r = ash_tree_file_create (dirfd, relpath, mode, &f, err);
  if (r < 0)
    return r;
  r = ash_write_all (f.fd, data, len);
  if (r < 0)
    {
      r = errno_error (err, -r, OP_WRITE, f.path, f.path);
      ash_tree_file_abort (&f);
      return r;
    }
  return ash_tree_file_commit (&f, err);
}

int
ash_tree_open_stream (int dirfd, const char *relpath, bool truncate,
                      int *ret_fd, struct ash_error *err)
{
  _cleanup_ (leaf_release) struct leaf l = LEAF_INIT;
  struct stat st;
  int r = open_leaf (dirfd, relpath, true, OP_WRITE, &l, err);
  if (r < 0)
    return r;
  r = check_leaf (&l, OP_WRITE, &st, err);
  if (r < 0)
    return r;
  if (r == 1 && truncate)
    {
      /* Start afresh with a new file rather than truncate one in place.  */
      if (unlinkat (l.parent, l.name, 0) < 0 && errno != ENOENT)
        return errno_error (err, errno, OP_WRITE, l.target, l.target);
      r = 0;
    }
  int fd;
  if (r == 0)
    {
      fd = openat (l.parent, l.name,
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
                     | (truncate ? 0 : O_APPEND),
                   0666);
      if (fd < 0)
        {
          /* EEXIST: something appeared there meanwhile; look at it.  */
          int e = errno;
          r = check_leaf (&l, OP_WRITE, NULL, err);
          if (r >= 0)
            r = errno_error (err, e, OP_WRITE, l.target, l.target);
          return r < 0 ? r : 0;
        }
    }
  else
    {
      /* O_NONBLOCK: a FIFO put there since the check must not hang us.  */
      fd = openat (l.parent, l.name,
                   O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
                     | O_NOCTTY);
      if (fd < 0)
        {
          int e = errno;
          r = check_leaf (&l, OP_WRITE, NULL, err);
          if (r >= 0)
            r = errno_error (err, e, OP_WRITE, l.target, l.target);
          return r < 0 ? r : 0;
        }
      struct stat fst;
      if (fstat (fd, &fst) < 0 || !S_ISREG (fst.st_mode) || fst.st_nlink != 1
          || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino)
        {
          ash_close (fd);
          r = check_leaf (&l, OP_WRITE, NULL, err);
          if (r >= 0)
            r = tree_error (err, -EAGAIN, ASH_KIND_NONE,
                            _ ("%s was not written: it changed while ASH "
                               "opened it"),
                            l.target);
          return r < 0 ? r : 0;
        }
      int fl = fcntl (fd, F_GETFL);
      if (fl >= 0)
        (void) fcntl (fd, F_SETFL, fl & ~O_NONBLOCK);
    }
  *ret_fd = fd;
  return 0;
}

/* ---- Reading ---------------------------------------------------------- */

int
ash_tree_reader_open (int dirfd, const char *relpath, size_t max,
                      struct ash_tree_reader *ret, struct ash_error *err)
{
  _cleanup_ (leaf_release) struct leaf l = LEAF_INIT;
  *ret = (struct ash_tree_reader) ASH_TREE_READER_INIT;
  int r = open_leaf (dirfd, relpath, false, OP_READ, &l, err);
  if (r < 0)
    return r;
  _cleanup_close_ int fd
    = openat (l.parent, l.name,
              O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      int e = errno;
      r = check_leaf (&l, OP_READ, NULL, err);
      if (r >= 0)
        r = errno_error (err, e, OP_READ, l.target, l.target);
      return r;
    }
  struct stat st;
  if (fstat (fd, &st) < 0)
    r = errno_error (err, errno, OP_READ, l.target, l.target);
  else if (!S_ISREG (st.st_mode))
    r = tree_error (err, -EPERM, ASH_KIND_OUTPUT_READ,
                    _ ("%s was not read: it is not a regular file"), l.target);
  else if (max && (uintmax_t) st.st_size > (uintmax_t) max)
    r = tree_error (err, -EFBIG, ASH_KIND_OUTPUT_READ,
                    _ ("%s was not read: it is larger than %zu bytes"),
                    l.target, max);
  if (r < 0)
    return r;
  int fl = fcntl (fd, F_GETFL);
  if (fl >= 0)
    (void) fcntl (fd, F_SETFL, fl & ~O_NONBLOCK);
  ret->fd = TAKE_FD (fd);
  ret->max = max;
  ret->size = (size_t) st.st_size;
  ret->target = TAKE_PTR (l.target);
  return 0;
}

ssize_t
ash_tree_reader_read (struct ash_tree_reader *rd, void *buf, size_t n,
                      struct ash_error *err)
{
  for (;;)
    {
      ssize_t k = read (rd->fd, buf, n);
      if (k < 0 && errno == EINTR)
        continue;
      if (k < 0)
        return errno_error (err, errno, OP_READ, rd->target, rd->target);
      if (rd->max && (size_t) k > rd->max - rd->total)
        return tree_error (err, -EFBIG, ASH_KIND_OUTPUT_READ,
                           _ ("%s was not read: it is larger than %zu bytes"),
                           rd->target, rd->max);
      rd->total += (size_t) k;
      return k;
    }
}

void
ash_tree_reader_release (struct ash_tree_reader *rd)
{
  if (rd->fd >= 0)
    ash_close (rd->fd);
  free (rd->target);
  *rd = (struct ash_tree_reader) ASH_TREE_READER_INIT;
}

int
ash_tree_read_file (int dirfd, const char *relpath, size_t max,
                    struct ash_buf *ret, struct ash_error *err)
{
  struct ash_tree_reader rd;
  int r = ash_tree_reader_open (dirfd, relpath, max, &rd, err);
  if (r < 0)
    return r;
  _cleanup_buf_ struct ash_buf b = ASH_BUF_INIT;
  char chunk[8192];
  for (;;)
    {
      ssize_t n = ash_tree_reader_read (&rd, chunk, sizeof chunk, err);
      if (n <= 0)
        {
          r = (int) n;
          break;
        }
      if (ash_buf_add (&b, chunk, (size_t) n) < 0)
        ash_oom ();
    }
  ash_tree_reader_release (&rd);
  if (r == 0)
    {
      ash_buf_release (ret);
      *ret = b;
      b = (struct ash_buf) ASH_BUF_INIT;
    }
  return r;
}

/* ---- Recursive walks -------------------------------------------------- */

enum walk_mode
{
  WALK_REMOVE,
  WALK_SWEEP,
  WALK_CHECK,
};

struct walk
{
  enum walk_mode mode;
  struct ash_strvec *removed;
  const char *top; /* the directory walked, as ASH names it */
  struct ash_error *err;
};

static bool
is_special (mode_t m)
{
  return S_ISLNK (m) || S_ISFIFO (m) || S_ISSOCK (m) || S_ISCHR (m)
         || S_ISBLK (m);
}

/* Walk the directory DFD (named PATH); takes ownership of DFD.  */
static int
walk_dir (struct walk *w, int dfd, const char *path, int depth)
{
  if (depth > TREE_MAX_DEPTH)
    {
      ash_close (dfd);
      return ash_error_set (w->err, -ELOOP,
                            _ ("%s is nested more than %d directories deep"),
                            path, TREE_MAX_DEPTH);
    }
  DIR *d = fdopendir (dfd);
  if (!d)
    {
      int e = errno;
      ash_close (dfd);
      return ash_error_set (w->err, -e, _ ("cannot list %s: %s"), path,
                            strerror (e));
    }
  int r = 0;
  for (;;)
    {
      errno = 0;
      struct dirent *de = readdir (d);
      if (!de)
        {
          int e = errno;
          if (e)
            r = ash_error_set (w->err, -e, _ ("cannot list %s: %s"), path,
                               strerror (e));
          break;
        }
      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      _cleanup_free_ char *child = ash_path_join (path, de->d_name);
      struct stat st;
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        {
          int e = errno;
          if (e == ENOENT)
            continue;
          r = ash_error_set (w->err, -e, _ ("cannot examine %s: %s"), child,
                             strerror (e));
          break;
        }
      if (S_ISDIR (st.st_mode))
        {
          int cfd = openat (dirfd (d), de->d_name,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (cfd < 0)
            {
              int e = errno;
              r = ash_error_set (w->err, -e, _ ("cannot open %s: %s"), child,
                                 strerror (e));
              break;
            }
          r = walk_dir (w, cfd, child, depth + 1);
          if (r < 0)
            break;
          if (w->mode == WALK_REMOVE
              && unlinkat (dirfd (d), de->d_name, AT_REMOVEDIR) < 0)
            {
              int e = errno;
              r = ash_error_set (w->err, -e, _ ("cannot remove %s: %s"), child,
                                 strerror (e));
              break;
            }
          continue;
        }
      if (w->mode == WALK_CHECK)
        {
          if (S_ISLNK (st.st_mode))
            {
              r = tree_error (w->err, -ELOOP, ASH_KIND_RESULTS_DIR_UNCLEAN,
                              _ ("the results directory %s already holds a "
                                 "symlink, %s, before the scanner starts; "
                                 "remove it, or pass another --output-dir"),
                              w->top, child);
              break;
            }
          if (S_ISREG (st.st_mode) && st.st_nlink > 1)
            {
              r = tree_error (w->err, -EMLINK, ASH_KIND_RESULTS_DIR_UNCLEAN,
                              _ ("the results directory %s already holds "
                                 "%s, a file that %ju names refer to, before "
                                 "the scanner starts; remove it, or pass "
                                 "another --output-dir"),
                              w->top, child, (uintmax_t) st.st_nlink);
              break;
            }
          continue;
        }
      if (w->mode == WALK_SWEEP && !is_special (st.st_mode))
        continue;
      if (unlinkat (dirfd (d), de->d_name, 0) < 0)
        {
          int e = errno;
          if (e == ENOENT)
            continue;
          r = ash_error_set (w->err, -e, _ ("cannot remove %s: %s"), child,
                             strerror (e));
          break;
        }
      if (w->mode == WALK_SWEEP && w->removed)
        ash_strvec_push (w->removed, child);
    }
  closedir (d);
  return r;
}

/* ---- Removal at any depth -------------------------------------------- */

/* Open the directory NAME below PARENT for removal, never following a
   link, and fill *RET_ST.  A directory of ash's own user that it may not
   list, enter or write in (mode 000, 0500 ...) is first given read, write
   and search permission for its owner: the mode is changed through an
   O_PATH fd of the very directory, so that a name swapped for a link in
   between cannot redirect the change.  */
static int
open_for_removal (int parent, const char *name, struct stat *ret_st,
                  int *ret_fd)
{
  int fd
    = openat (parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0)
    {
      if (fstat (fd, ret_st) < 0)
        {
          int e = errno;
          ash_close (fd);
          return -e;
        }
      if ((ret_st->st_mode & 0700) != 0700 && ret_st->st_uid == geteuid ())
        (void) fchmod (fd, (ret_st->st_mode & 07777) | 0700);
      *ret_fd = fd;
      return 0;
    }
  if (errno != EACCES)
    return -errno;
#ifdef TREE_HAVE_O_PATH
  _cleanup_close_ int pfd
    = openat (parent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (pfd < 0)
    return -errno;
  if (fstat (pfd, ret_st) < 0)
    return -errno;
  if (ret_st->st_uid != geteuid ())
    return -EACCES;
  char proc[64];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", pfd);
  if (chmod (proc, (ret_st->st_mode & 07777) | 0700) < 0)
    return errno == ENOENT ? -EACCES : -errno;
  fd = openat (pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  *ret_fd = fd;
  return 0;
#else
  return -EACCES;
#endif
}

struct rframe
{
  dev_t dev;
  ino_t ino;
  char *name;                /* in the parent; NULL for the top */
  struct ash_strvec subdirs; /* found by the last listing */
  size_t next;               /* the next of SUBDIRS to enter */
};

static char *
rframes_path (const char *top, const struct rframe *v, size_t n,
              const char *last)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, top);
  for (size_t i = 1; i < n; i++)
    ash_buf_addf (&b, "/%s", v[i].name);
  if (last)
    ash_buf_addf (&b, "/%s", last);
  return ash_buf_detach (&b);
}

/* Remove every entry of the directory CUR but its subdirectories, which
   go to SUBDIRS.  */
static int
unlink_entries (int cur, struct ash_strvec *subdirs)
{
  int lfd = openat (cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lfd < 0)
    return -errno;
  DIR *d = fdopendir (lfd);
  if (!d)
    {
      int e = errno;
      ash_close (lfd);
      return -e;
    }
  int r = 0;
  for (;;)
    {
      errno = 0;
      struct dirent *de = readdir (d);
      if (!de)
        {
          r = -errno;
          break;
        }
      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      if (de->d_type == DT_DIR)
        {
          ash_strvec_push (subdirs, de->d_name);
          continue;
        }
      if (unlinkat (cur, de->d_name, 0) == 0 || errno == ENOENT)
        continue;
      int e = errno;
      if (e == EISDIR || e == EPERM)
        {
          /* A directory (unlink says EISDIR, or EPERM on some systems):
             entered later.  Anything else keeps unlink's own error, not
             fstatat's.  */
          struct stat st;
          if (fstatat (cur, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            {
              if (S_ISDIR (st.st_mode))
                {
                  ash_strvec_push (subdirs, de->d_name);
                  continue;
                }
            }
          else if (errno == ENOENT)
            continue; /* gone meanwhile */
          e = EPERM;
        }
      r = -e;
      break;
    }
  closedir (d);
  return r;
}

/* Remove everything below the directory FD (named TOP; taken over), at
   any depth, holding two fds at most: a walk down one directory at a
   time, and back up through "..", checked against the device and inode
   recorded on the way down, so that a directory moved meanwhile stops the
   removal instead of redirecting it.  Each directory is listed twice: to
   remove its files and find its subdirectories, and once they are gone to
   see that it is empty.  A subdirectory that is empty already is removed
   without being entered.  */
static int
remove_below (int fd, const char *top, struct ash_error *err)
{
  struct rframe *v = NULL;
  size_t n = 0, alloc = 0;
  int cur = fd, r = 0;
  struct stat st;

  if (fstat (cur, &st) < 0)
    {
      int e = errno;
      r = ash_error_set (err, -e, _ ("cannot examine %s: %s"), top,
                         strerror (e));
      ash_close (cur);
      return r;
    }
  v = xreallocarray (NULL, alloc = 16, sizeof *v);
  v[n++] = (struct rframe){ st.st_dev, st.st_ino, NULL, ASH_STRVEC_INIT, 0 };
  while (r == 0)
    {
      struct rframe *f = &v[n - 1];
      if (f->next == f->subdirs.nr)
        {
          ash_strvec_release (&f->subdirs);
          f->next = 0;
          r = unlink_entries (cur, &f->subdirs);
          if (r < 0)
            {
              _cleanup_free_ char *p = rframes_path (top, v, n, NULL);
              r = ash_error_set (err, r,
                                 _ ("cannot remove the contents of "
                                    "%s: %s"),
                                 p, strerror (-r));
              break;
            }
          if (f->subdirs.nr == 0)
            {
              if (n == 1)
                break;
              int up = openat (cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
              int e = 0;
              if (up < 0 || fstat (up, &st) < 0)
                e = errno;
              if (e || st.st_dev != v[n - 2].dev || st.st_ino != v[n - 2].ino)
                {
                  if (up >= 0)
                    ash_close (up);
                  _cleanup_free_ char *p = rframes_path (top, v, n, NULL);
                  if (e)
                    r = ash_error_set (err, -e,
                                       _ ("cannot open the parent "
                                          "of %s: %s"),
                                       p, strerror (e));
                  else
                    r = ash_error_set (err, -ESTALE,
                                       _ ("cannot remove %s: its directory "
                                          "was moved during the removal"),
                                       p);
                  break;
                }
              ash_close (cur);
              cur = up;
              if (unlinkat (cur, f->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
                {
                  /* Read errno before rframes_path allocates.  */
                  int ue = errno;
                  _cleanup_free_ char *p = rframes_path (top, v, n, NULL);
                  r = ash_error_set (err, -ue, _ ("cannot remove %s: %s"), p,
                                     strerror (ue));
                  break;
                }
              free (f->name);
              ash_strvec_release (&f->subdirs);
              n--;
              continue;
            }
        }
      const char *name = f->subdirs.v[f->next++];
      int child;
      /* An empty directory goes at once: rmdir never follows a link (it
         fails with ENOTDIR on one) and needs no permission on the
         directory itself.  A directory that is not empty, or that
         cannot be removed so, is entered below as before.  */
      if (unlinkat (cur, name, AT_REMOVEDIR) == 0)
        continue;
      r = open_for_removal (cur, name, &st, &child);
      if (r == -ENOENT)
        {
          r = 0;
          continue;
        }
      if (r == -ENOTDIR || r == -ELOOP)
        {
          /* Replaced by a file or a link since the listing.  */
          r = 0;
          if (unlinkat (cur, name, 0) < 0 && errno != ENOENT)
            r = -errno;
          else
            continue;
        }
      if (r < 0)
        {
          _cleanup_free_ char *p = rframes_path (top, v, n, name);
          r = ash_error_set (err, r, _ ("cannot open %s: %s"), p,
                             strerror (-r));
          break;
        }
      if (n == alloc)
        v = xreallocarray (v, alloc *= 2, sizeof *v);
      v[n++] = (struct rframe){ st.st_dev, st.st_ino, xstrdup (name),
                                ASH_STRVEC_INIT, 0 };
      ash_close (cur);
      cur = child;
    }
  ash_close (cur);
  for (size_t i = 0; i < n; i++)
    {
      free (v[i].name);
      ash_strvec_release (&v[i].subdirs);
    }
  free (v);
  return r;
}

static int
walk_rel (int dirfd, const char *relpath, enum walk_mode mode,
          struct ash_strvec *removed, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec comps = ASH_STRVEC_INIT;
  _cleanup_free_ char *top = ash_tree_path (dirfd, relpath);
  _cleanup_close_ int parent = -1;
  int r = split_relpath (relpath, &comps, err);
  if (r < 0)
    return r;
  int fd = -1;
  struct walk w = { mode, removed, top, err };
  if (comps.nr == 0)
    {
      r = open_dir_components (dirfd, &comps, 0, false,
                               mode == WALK_CHECK ? OP_RESULTS : OP_WRITE, top,
                               &fd, err);
      if (r == 0)
        r = mode == WALK_REMOVE ? remove_below (fd, top, err)
                                : walk_dir (&w, fd, top, 0);
      return r;
    }

  /* Open the parent, then look at the last component without following
     it.  */
  r = open_dir_components (dirfd, &comps, comps.nr - 1, false,
                           mode == WALK_CHECK ? OP_RESULTS : OP_WRITE, top,
                           &parent, err);
  if (r == -ENOENT)
    {
      /* Nothing there: nothing to remove, nothing unclean.  */
      ash_error_release (err);
      return 0;
    }
  if (r < 0)
    return r;
  const char *name = comps.v[comps.nr - 1];
  struct stat st;
  if (fstatat (parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    {
      int e = errno;
      if (e != ENOENT)
        r = ash_error_set (err, -e, _ ("cannot examine %s: %s"), top,
                           strerror (e));
      return r;
    }
  if (!S_ISDIR (st.st_mode))
    {
      if (mode == WALK_CHECK)
        r = S_ISLNK (st.st_mode)
              ? link_error (err, OP_RESULTS, top, top)
              : ash_error_set (err, -ENOTDIR, _ ("%s is not a directory"),
                               top);
      else if (mode == WALK_REMOVE || is_special (st.st_mode))
        {
          int e = unlinkat (parent, name, 0) < 0 ? errno : 0;
          if (e && e != ENOENT)
            r = ash_error_set (err, -e, _ ("cannot remove %s: %s"), top,
                               strerror (e));
          else if (mode == WALK_SWEEP && removed)
            ash_strvec_push (removed, top);
        }
      return r;
    }
  if (mode == WALK_REMOVE)
    {
      /* An empty directory in one call (see remove_below).  */
      if (unlinkat (parent, name, AT_REMOVEDIR) == 0)
        return 0;
      r = open_for_removal (parent, name, &st, &fd);
      if (r < 0)
        return ash_error_set (err, r, _ ("cannot open %s: %s"), top,
                              strerror (-r));
      r = remove_below (fd, top, err);
    }
  else
    {
      fd = openat (parent, name,
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0)
        return ash_error_set (err, -errno, _ ("cannot open %s: %s"), top,
                              strerror (errno));
      r = walk_dir (&w, fd, top, 0);
    }
  if (r == 0 && mode == WALK_REMOVE
      && unlinkat (parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
    r = ash_error_set (err, -errno, _ ("cannot remove %s: %s"), top,
                       strerror (errno));
  return r;
}

int
ash_tree_remove_all (int dirfd, const char *relpath, struct ash_error *err)
{
  return walk_rel (dirfd, relpath, WALK_REMOVE, NULL, err);
}

int
ash_tree_sweep (int dirfd, const char *relpath, struct ash_strvec *removed,
                struct ash_error *err)
{
  return walk_rel (dirfd, relpath, WALK_SWEEP, removed, err);
}

int
ash_tree_check_clean (int dirfd, const char *relpath, struct ash_error *err)
{
  return walk_rel (dirfd, relpath, WALK_CHECK, NULL, err);
}

/* ---- The output directory --------------------------------------------- */

/* Names ASH writes directly in the output directory and clears itself.  */
static const char *const fixed_names[] = {
  "analysis",
  "reports",
  "scanners",
  "converted",
  "ash.log",
  "ash.log.jsonl",
  "ash_aggregated_results.json",
  "ASH.ScanResults.json",
  "ash-scan-set-files-list.txt",
  "ash-ignore-report.txt",
};

static int
outdir_link_error (struct ash_error *err, const char *outdir, const char *link)
{
  if (streq (outdir, link))
    return tree_error (err, -ELOOP, ASH_KIND_OUTPUT_DIR_LINK,
                       _ ("the output directory %s is a symlink; pass "
                          "--output-dir with a directory that is not a link"),
                       outdir);
  return tree_error (err, -ELOOP, ASH_KIND_OUTPUT_DIR_LINK,
                     _ ("the output directory %s is reached through %s, a "
                        "symlink below the source directory; pass "
                        "--output-dir with a directory that is not a link"),
                     outdir, link);
}

/* Push the non-empty components of PATH onto TODO in reverse order, so
   that the first component is at the end, next to be taken.  */
static void
push_components (struct ash_strvec *todo, const char *path)
{
  struct ash_strvec comps = ASH_STRVEC_INIT;
  const char *p = path;
  while (*p)
    {
      while (*p == '/')
        p++;
      if (!*p)
        break;
      const char *end = strchrnul (p, '/');
      ash_strvec_push_nodup (&comps, xstrndup (p, (size_t) (end - p)));
      p = end;
    }
  for (size_t i = comps.nr; i > 0; i--)
    ash_strvec_push (todo, comps.v[i - 1]);
  ash_strvec_release (&comps);
}

/* Resolve the absolute path SPELLED as the kernel would, one component at a
   time, into *RET_REAL (components that do not exist yet are appended as
   spelled).  A symlink strictly below REAL_SRC on the way, or a symlink as
   the very last component, is refused.  */
static int
resolve_outdir (const char *spelled, const char *outdir, const char *real_src,
                char **ret_real, struct ash_error *err)
{
  struct ash_strvec todo = ASH_STRVEC_INIT; /* reversed: next at the end */
  _cleanup_free_ char *cur = xstrdup ("/");
  int links = 0;
  int r = 0;

  push_components (&todo, spelled);

  bool missing = false;
  while (todo.nr > 0)
    {
      char *c = xstrdup (todo.v[todo.nr - 1]);
      ash_strvec_remove (&todo, todo.nr - 1);
      if (streq (c, "."))
        {
          free (c);
          continue;
        }
      if (streq (c, ".."))
        {
          free (c);
          char *n = ash_path_join (cur, "..");
          free (cur);
          cur = ash_path_normalize (n);
          free (n);
          continue;
        }
      char *next = ash_path_join (cur, c);
      free (c);
      struct stat st;
      if (missing || lstat (next, &st) < 0)
        {
          missing = true;
          free (cur);
          cur = next;
          continue;
        }
      if (S_ISLNK (st.st_mode))
        {
          if (todo.nr == 0
              || (ash_path_is_inside (next, real_src)
                  && !streq (next, real_src)))
            {
              r = outdir_link_error (err, outdir,
                                     todo.nr == 0 ? outdir : next);
              free (next);
              break;
            }
          if (++links > 40)
            {
              r = ash_error_set (err, -ELOOP,
                                 _ ("the output directory %s cannot be "
                                    "resolved: too many levels of symbolic "
                                    "links"),
                                 outdir);
              free (next);
              break;
            }
          char target[PATH_MAX];
          ssize_t n = readlink (next, target, sizeof target - 1);
          free (next);
          if (n < 0)
            {
              r = ash_error_set (err, -errno, _ ("cannot resolve %s: %s"),
                                 outdir, strerror (errno));
              break;
            }
          target[n] = '\0';
          if (target[0] == '/')
            {
              free (cur);
              cur = xstrdup ("/");
            }
          push_components (&todo, target);
          continue;
        }
      if (!S_ISDIR (st.st_mode) && todo.nr > 0)
        {
          r = ash_error_set (err, -ENOTDIR,
                             _ ("the output directory %s cannot be used: %s "
                                "is not a directory"),
                             outdir, next);
          free (next);
          break;
        }
      free (cur);
      cur = next;
    }
  ash_strvec_release (&todo);
  if (r < 0)
    return r;
  *ret_real = ash_path_normalize (cur);
  return 0;
}

void
ash_outdir_release (struct ash_outdir *od)
{
  if (!od)
    return;
  if (od->fd >= 0)
    ash_close (od->fd);
  free (od->path);
  od->fd = -1;
  od->path = NULL;
}

/* Whether a directory with ST may be trusted not to change under us: it
   is owned by root or by us, and no one else may write it unless it is
   sticky (then they can change only what they own).  */
static bool
dir_is_safe (const struct stat *st)
{
  uid_t me = geteuid ();
  if (st->st_uid != 0 && st->st_uid != me)
    return false;
  return (st->st_mode & (S_IWGRP | S_IWOTH)) == 0
         || (st->st_mode & S_ISVTX) != 0;
}

/* Open REAL (absolute, resolved) from / without following a link at any
   component, creating missing directories (mode 0755).  A directory on
   the way that another user could change (ash_outdir_open) is refused,
   and so is an existing output directory owned by another user.
   *RET_CREATED tells whether the last component was created here.  */
static int
outdir_walk (const char *real, const char *outdir, int *ret_fd,
             bool *ret_created, struct ash_error *err)
{
  struct ash_strvec comps = ASH_STRVEC_INIT;
  int r = split_relpath (real[0] == '/' ? real + 1 : real, &comps, err);
  if (r < 0)
    return r;
  _cleanup_close_ int cur = open ("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  _cleanup_free_ char *at = xstrdup ("/");
  bool created = false;
  if (cur < 0)
    r = -errno;
  for (size_t i = 0; r >= 0 && i < comps.nr; i++)
    {
      struct stat pst;
      if (fstat (cur, &pst) < 0)
        {
          r = -errno;
          break;
        }
      if (!dir_is_safe (&pst))
        {
          r = tree_error (err, -EPERM, ASH_KIND_OUTPUT_DIR_UNSAFE,
                          pst.st_uid != 0 && pst.st_uid != geteuid ()
                            ? _ ("refusing the output directory %s: %s on "
                                 "its path is owned by another user, who "
                                 "could replace what is in it with a link; "
                                 "pass --output-dir with a directory on a "
                                 "path only you and root can change")
                            : _ ("refusing the output directory %s: %s on "
                                 "its path is writable by other users and "
                                 "not sticky, so they could replace what is "
                                 "in it with a link; pass --output-dir with a "
                                 "directory on a path only you and root can "
                                 "change"),
                          outdir, at);
          break;
        }
      created = false;
      int nfd = openat (cur, comps.v[i],
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (nfd < 0 && errno == ENOENT)
        {
          if (mkdirat (cur, comps.v[i], 0755) < 0 && errno != EEXIST)
            {
              r = ash_error_set (err, -errno,
                                 _ ("cannot create the output directory %s: "
                                    "%s"),
                                 outdir, strerror (errno));
              break;
            }
          created = errno != EEXIST;
          nfd = openat (cur, comps.v[i],
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
      char *next = ash_path_join (at, comps.v[i]);
      free (at);
      at = next;
      if (nfd < 0)
        {
          if (errno == ELOOP || errno == ENOTDIR)
            {
              struct stat lst;
              if (fstatat (cur, comps.v[i], &lst, AT_SYMLINK_NOFOLLOW) == 0
                  && S_ISLNK (lst.st_mode))
                r = outdir_link_error (err, outdir, at);
              else
                r = ash_error_set (err, -ENOTDIR,
                                   _ ("cannot open the output directory %s: "
                                      "%s is not a directory"),
                                   outdir, at);
            }
          else
            r = ash_error_set (err, -errno,
                               _ ("cannot open the output directory %s: %s"),
                               outdir, strerror (errno));
          break;
        }
      ash_close (cur);
      cur = nfd;
    }
  if (r >= 0 && comps.nr > 0)
    {
      struct stat st;
      if (fstat (cur, &st) < 0)
        r = -errno;
      else if (st.st_uid != geteuid ())
        r = tree_error (err, -EPERM, ASH_KIND_OUTPUT_DIR_UNSAFE,
                        _ ("refusing the output directory %s: it is owned by "
                           "another user; pass --output-dir with a directory "
                           "of your own"),
                        outdir);
    }
  ash_strvec_release (&comps);
  if (r < 0)
    {
      if (err && err->message == NULL)
        ash_error_set (err, r, _ ("cannot open the output directory %s: %s"),
                       outdir, strerror (-r));
      return r;
    }
  *ret_fd = TAKE_FD (cur);
  if (ret_created)
    *ret_created = created;
  return 0;
}

int
ash_outdir_open (const char *path, const char *source_dir,
                 struct ash_outdir *ret, struct ash_error *err)
{
  _cleanup_free_ char *outdir = ash_path_absolute (path);
  _cleanup_free_ char *src = ash_path_absolute (source_dir);
  _cleanup_free_ char *real_src = realpath (src, NULL);
  _cleanup_free_ char *real_out = NULL;
  _cleanup_close_ int fd = -1;
  int r;

  if (!real_src)
    return ash_error_set (err, -errno,
                          _ ("cannot resolve the source "
                             "directory %s: %s"),
                          src, strerror (errno));

  /* The output directory itself, however spelled.  */
  struct stat st;
  if (lstat (outdir, &st) == 0 && S_ISLNK (st.st_mode))
    return outdir_link_error (err, outdir, outdir);

  /* Resolve the path as spelled, ".." after a link included, as the
     kernel would.  */
  _cleanup_free_ char *spelled = NULL;
  if (path[0] == '/')
    spelled = xstrdup (path);
  else
    {
      _cleanup_free_ char *cwd = getcwd (NULL, 0);
      spelled = cwd ? ash_path_join (cwd, path) : xstrdup (outdir);
    }
  r = resolve_outdir (spelled, outdir, real_src, &real_out, err);
  if (r < 0)
    return r;

  bool lex_inside = ash_path_is_inside (outdir, src);
  bool real_inside = ash_path_is_inside (real_out, real_src);
  if (lex_inside && !real_inside)
    return tree_error (err, -ELOOP, ASH_KIND_OUTPUT_DIR_LINK,
                       _ ("the output directory %s is inside the source "
                          "directory %s by its path but outside it by its "
                          "real path; pass --output-dir with a directory "
                          "that is not a link"),
                       outdir, src);

  /* Open the resolved path from / one component at a time, never
     following a link (one planted since the resolution above is caught),
     creating what is missing, and refusing to pass through a directory
     another user could change.  */
  r = outdir_walk (real_out, outdir, &fd, &ret->created, err);
  if (r < 0)
    return r;

  for (size_t i = 0; i < ARRAY_SIZE (fixed_names); i++)
    if (fstatat (fd, fixed_names[i], &st, AT_SYMLINK_NOFOLLOW) == 0
        && S_ISLNK (st.st_mode))
      {
        _cleanup_free_ char *p = ash_path_join (outdir, fixed_names[i]);
        return tree_error (err, -ELOOP, ASH_KIND_OUTPUT_DIR_LINK,
                           _ ("%s is a symlink, and ASH writes it itself; "
                              "remove the link, or pass --output-dir with a "
                              "directory that is not a link"),
                           p);
      }

  ash_tree_name_dir (fd, outdir);
  ret->fd = TAKE_FD (fd);
  ret->path = TAKE_PTR (outdir);
  return 0;
}
