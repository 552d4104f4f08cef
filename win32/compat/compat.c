/* SPDX-License-Identifier: Apache-2.0 */
/* compat.c -- the POSIX that lib/ uses, emulated for the Windows build
   (see ash-win32.h).  */

#include <config.h>

#ifdef _WIN32

#include <ctype.h>
#include <direct.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <windows.h>

#include "fnmatch.h"
#include "poll.h"
#include "pwd.h"
#include "sys/resource.h"
#include "sys/wait.h"

/* The CRT's functions, not our macros.  */
#undef open
#undef close
#undef fstat
#undef lstat
#undef mkdir
#undef rename
#undef dup
#undef access
#undef realpath
#undef closedir
#undef strndup
#undef mkstemp

char **ash_w32_environ;

__attribute__ ((constructor)) static void
init_environ (void)
{
  ash_w32_environ = _environ;
}

/* Directory descriptors: a table of absolute paths ("/"-separated), at
   numbers no CRT descriptor reaches.  */
#define DIRFD_BASE 0x40000
#define DIRFD_MAX 256
static char *dir_paths[DIRFD_MAX];

static bool
is_dirfd (int fd)
{
  return fd >= DIRFD_BASE && fd < DIRFD_BASE + DIRFD_MAX
         && dir_paths[fd - DIRFD_BASE];
}

static int
dirfd_new (const char *path)
{
  for (int i = 0; i < DIRFD_MAX; i++)
    if (!dir_paths[i])
      {
        dir_paths[i] = strdup (path);
        if (!dir_paths[i])
          {
            errno = ENOMEM;
            return -1;
          }
        return DIRFD_BASE + i;
      }
  errno = EMFILE;
  return -1;
}

static void
slashes (char *p)
{
  for (; *p; p++)
    if (*p == '\\')
      *p = '/';
}

/* PATH relative to DIRFD, newly allocated; NULL with errno set.  */
static char *
at_path (int dirfd, const char *path)
{
  char *r;

  if (!path)
    {
      errno = EFAULT;
      return NULL;
    }
  if (path[0] == '/' || path[0] == '\\'
      || (isalpha ((unsigned char) path[0]) && path[1] == ':')
      || dirfd == AT_FDCWD)
    r = strdup (path);
  else if (!is_dirfd (dirfd))
    {
      errno = EBADF;
      return NULL;
    }
  else if (!*path)
    r = strdup (dir_paths[dirfd - DIRFD_BASE]);
  else
    {
      const char *d = dir_paths[dirfd - DIRFD_BASE];
      size_t n = strlen (d);
      r = malloc (n + strlen (path) + 2);
      if (r)
        sprintf (r, "%s%s%s", d, n && d[n - 1] == '/' ? "" : "/", path);
    }
  if (!r)
    errno = ENOMEM;
  else
    slashes (r);
  return r;
}

/* True when PATH names a symbolic link, junction or other reparse point.  */
static bool
is_reparse (const char *path)
{
  DWORD a = GetFileAttributesA (path);
  return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT);
}

/* Windows cannot open a path relative to a directory without following a
   link, so each component of PATH below BASE_LEN is checked by name
   first: a link already there is refused (ELOOP).  */
static int
check_components (const char *path, size_t base_len, bool last)
{
  char *p = strdup (path);
  size_t n;

  if (!p)
    return -ENOMEM;
  n = strlen (p);
  for (size_t i = base_len + 1; i <= n; i++)
    if (p[i] == '/' || p[i] == '\0')
      {
        char c = p[i];
        if (c == '\0' && !last)
          break;
        p[i] = '\0';
        if (is_reparse (p))
          {
            free (p);
            return -ELOOP;
          }
        p[i] = c;
      }
  free (p);
  return 0;
}

static int
base_len_of (int dirfd, const char *path)
{
  if (path[0] == '/' || dirfd == AT_FDCWD || !is_dirfd (dirfd))
    return 0;
  return (int) strlen (dir_paths[dirfd - DIRFD_BASE]);
}

static int
open_path (const char *full, size_t base, int flags, int mode)
{
  struct _stat64 st;
  int r;

  r = check_components (full, base, (flags & O_NOFOLLOW) != 0);
  if (r < 0)
    {
      errno = -r;
      return -1;
    }
  if (_stat64 (full, &st) == 0 && S_ISDIR (st.st_mode))
    {
      if (flags & (O_WRONLY | O_RDWR))
        {
          errno = EISDIR;
          return -1;
        }
      return dirfd_new (full);
    }
  if (flags & O_DIRECTORY)
    {
      errno = (_stat64 (full, &st) == 0) ? ENOTDIR : ENOENT;
      return -1;
    }
  flags &= ~(O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY | O_NONBLOCK | O_NOCTTY);
  return _open (full, flags | O_BINARY | O_NOINHERIT, mode);
}

int
ash_w32_open (const char *path, int flags, ...)
{
  int mode = 0;
  if (flags & O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, int);
      va_end (ap);
    }
  char *full = at_path (AT_FDCWD, path);
  if (!full)
    return -1;
  int r = open_path (full, 0, flags, mode);
  free (full);
  return r;
}

int
ash_w32_openat (int dirfd, const char *path, int flags, ...)
{
  int mode = 0;
  if (flags & O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, int);
      va_end (ap);
    }
  char *full = at_path (dirfd, path);
  if (!full)
    return -1;
  int r = open_path (full, (size_t) base_len_of (dirfd, path), flags, mode);
  free (full);
  return r;
}

int
ash_w32_close (int fd)
{
  if (is_dirfd (fd))
    {
      free (dir_paths[fd - DIRFD_BASE]);
      dir_paths[fd - DIRFD_BASE] = NULL;
      return 0;
    }
  return _close (fd);
}

int
ash_w32_stat (const char *path, struct stat *st)
{
  return stat (path, st);
}

int
ash_w32_lstat (const char *path, struct stat *st)
{
  if (stat (path, st) < 0)
    return -1;
  if (is_reparse (path))
    st->st_mode = (unsigned short) ((st->st_mode & ~S_IFMT) | S_IFLNK);
  return 0;
}

int
ash_w32_fstat (int fd, struct stat *st)
{
  if (is_dirfd (fd))
    return stat (dir_paths[fd - DIRFD_BASE], st);
  return fstat (fd, st);
}

int
ash_w32_fstatat (int dirfd, const char *path, struct stat *st, int flags)
{
  if ((flags & AT_EMPTY_PATH) && (!path || !*path))
    return ash_w32_fstat (dirfd, st);
  char *full = at_path (dirfd, path);
  if (!full)
    return -1;
  int r = (flags & AT_SYMLINK_NOFOLLOW) ? ash_w32_lstat (full, st)
                                        : stat (full, st);
  free (full);
  return r;
}

int
ash_w32_mkdir (const char *path, mode_t mode)
{
  (void) mode;
  return _mkdir (path);
}

int
ash_w32_mkdirat (int dirfd, const char *path, mode_t mode)
{
  char *full = at_path (dirfd, path);
  if (!full)
    return -1;
  int r = check_components (full, (size_t) base_len_of (dirfd, path), false);
  if (r < 0)
    {
      free (full);
      errno = -r;
      return -1;
    }
  r = _mkdir (full);
  free (full);
  return r;
}

int
ash_w32_unlinkat (int dirfd, const char *path, int flags)
{
  char *full = at_path (dirfd, path);
  if (!full)
    return -1;
  int r = (flags & AT_REMOVEDIR) ? _rmdir (full) : _unlink (full);
  free (full);
  return r;
}

int
ash_w32_rename (const char *old, const char *new_)
{
  if (!MoveFileExA (old, new_, MOVEFILE_REPLACE_EXISTING))
    {
      errno = EACCES;
      return -1;
    }
  return 0;
}

int
ash_w32_renameat (int ofd, const char *old, int nfd, const char *new_)
{
  char *a = at_path (ofd, old), *b = at_path (nfd, new_);
  int r = -1;
  if (a && b)
    {
      r = check_components (b, (size_t) base_len_of (nfd, new_), true);
      if (r < 0)
        {
          errno = -r;
          r = -1;
        }
      else
        r = ash_w32_rename (a, b);
    }
  free (a);
  free (b);
  return r;
}

int
ash_w32_fcntl (int fd, int cmd, ...)
{
  switch (cmd)
    {
    case F_DUPFD_CLOEXEC:
      return ash_w32_dup (fd);
    case F_GETFD:
    case F_GETFL:
      return 0;
    default:
      return 0;
    }
}

int
ash_w32_dup (int fd)
{
  if (is_dirfd (fd))
    return dirfd_new (dir_paths[fd - DIRFD_BASE]);
  return _dup (fd);
}

int
ash_w32_fchmod (int fd, mode_t mode)
{
  (void) fd;
  (void) mode;
  return 0;
}

int
ash_w32_fchmodat (int dirfd, const char *path, mode_t mode, int flags)
{
  (void) dirfd;
  (void) path;
  (void) mode;
  (void) flags;
  return 0;
}

int
ash_w32_fsync (int fd)
{
  if (is_dirfd (fd))
    return 0;
  return _commit (fd);
}

ssize_t
ash_w32_readlink (const char *path, char *buf, size_t len)
{
  (void) buf;
  (void) len;
  errno = is_reparse (path) ? ENOSYS : EINVAL;
  return -1;
}

ssize_t
ash_w32_readlinkat (int dirfd, const char *path, char *buf, size_t len)
{
  char *full = at_path (dirfd, path);
  if (!full)
    return -1;
  ssize_t r = ash_w32_readlink (full, buf, len);
  free (full);
  return r;
}

int
ash_w32_symlink (const char *target, const char *path)
{
  (void) target;
  (void) path;
  errno = ENOSYS;
  return -1;
}

int
ash_w32_symlinkat (const char *target, int dirfd, const char *path)
{
  (void) target;
  (void) dirfd;
  (void) path;
  errno = ENOSYS;
  return -1;
}

int
ash_w32_link (const char *a, const char *b)
{
  (void) a;
  (void) b;
  errno = ENOSYS;
  return -1;
}

int
ash_w32_linkat (int ofd, const char *a, int nfd, const char *b, int flags)
{
  (void) ofd;
  (void) a;
  (void) nfd;
  (void) b;
  (void) flags;
  errno = ENOSYS;
  return -1;
}

/* The real path, "/"-separated; on the current drive without its letter,
   so that lib/'s absolute paths start with "/".  */
char *
ash_w32_realpath (const char *path, char *resolved)
{
  char buf[MAX_PATH * 4];
  struct _stat64 st;
  char cwd[MAX_PATH * 4];

  if (!path)
    {
      errno = EINVAL;
      return NULL;
    }
  if (_stat64 (path, &st) < 0)
    return NULL;
  if (!_fullpath (buf, path, sizeof buf))
    {
      errno = ENAMETOOLONG;
      return NULL;
    }
  slashes (buf);
  const char *out = buf;
  if (_getcwd (cwd, sizeof cwd) && isalpha ((unsigned char) buf[0])
      && buf[1] == ':'
      && toupper ((unsigned char) buf[0]) == toupper ((unsigned char) cwd[0]))
    out = buf + 2;
  size_t n = strlen (out);
  while (n > 1 && out[n - 1] == '/')
    n--;
  if (n == 0)
    out = "/", n = 1;
  char *r = resolved ? resolved : malloc (n + 1);
  if (!r)
    {
      errno = ENOMEM;
      return NULL;
    }
  memcpy (r, out, n);
  r[n] = '\0';
  return r;
}

char *
ash_w32_mkdtemp (char *tmpl)
{
  size_t n = strlen (tmpl);
  if (n < 6 || strcmp (tmpl + n - 6, "XXXXXX") != 0)
    {
      errno = EINVAL;
      return NULL;
    }
  for (int tries = 0; tries < 100; tries++)
    {
      static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
      unsigned v = (unsigned) GetTickCount () ^ (unsigned) rand ()
                   ^ ((unsigned) tries << 16);
      for (int i = 0; i < 6; i++)
        {
          tmpl[n - 6 + i] = chars[v % 36];
          v = v / 36 + (unsigned) rand ();
        }
      if (_mkdir (tmpl) == 0)
        return tmpl;
      if (errno != EEXIST)
        return NULL;
    }
  return NULL;
}

int
ash_w32_pipe (int fds[2])
{
  return _pipe (fds, 65536, O_BINARY | O_NOINHERIT);
}

int
ash_w32_access (const char *path, int mode)
{
  /* Windows has no execute permission bit to ask about.  */
  return _access (path, mode & ~X_OK);
}

int
ash_w32_fchdir (int fd)
{
  if (!is_dirfd (fd))
    {
      errno = EBADF;
      return -1;
    }
  return _chdir (dir_paths[fd - DIRFD_BASE]);
}

int
ash_w32_faccessat (int dirfd, const char *path, int mode, int flags)
{
  (void) flags;
  char *full = at_path (dirfd, path);
  if (!full)
    return -1;
  int r = ash_w32_access (full, mode);
  free (full);
  return r;
}

int
ash_w32_utimensat (int dirfd, const char *path, const void *ts, int flags)
{
  (void) dirfd;
  (void) path;
  (void) ts;
  (void) flags;
  return 0;
}

int
ash_w32_futimens (int fd, const void *ts)
{
  (void) fd;
  (void) ts;
  return 0;
}

/* Directory streams.  */
struct dir_map
{
  DIR *d;
  int fd;
};
static struct dir_map dir_maps[DIRFD_MAX];

DIR *
ash_w32_fdopendir (int fd)
{
  if (!is_dirfd (fd))
    {
      errno = EBADF;
      return NULL;
    }
  DIR *d = opendir (dir_paths[fd - DIRFD_BASE]);
  if (!d)
    return NULL;
  for (int i = 0; i < DIRFD_MAX; i++)
    if (!dir_maps[i].d)
      {
        dir_maps[i].d = d;
        dir_maps[i].fd = fd;
        return d;
      }
  closedir (d);
  errno = EMFILE;
  return NULL;
}

int
ash_w32_closedir (DIR *d)
{
  for (int i = 0; i < DIRFD_MAX; i++)
    if (dir_maps[i].d == d)
      {
        ash_w32_close (dir_maps[i].fd);
        dir_maps[i].d = NULL;
      }
  return closedir (d);
}

int
ash_w32_dirfd (DIR *d)
{
  for (int i = 0; i < DIRFD_MAX; i++)
    if (dir_maps[i].d == d)
      return dir_maps[i].fd;
  errno = EINVAL;
  return -1;
}

/* Signals: Windows delivers none of these; nothing waits for them.  */
int
ash_w32_sigaction (int sig, const struct sigaction *sa, struct sigaction *old)
{
  (void) sig;
  (void) sa;
  if (old)
    memset (old, 0, sizeof *old);
  return 0;
}

int
ash_w32_sigmask (int how, const sigset_t *set, sigset_t *old)
{
  (void) how;
  (void) set;
  if (old)
    *old = 0;
  return 0;
}

/* Signals posted to sigwait(): by pthread_kill() and by the console's
   Ctrl-C and Ctrl-Break (SIGINT), window close (SIGTERM).  */
static SRWLOCK sig_lock = SRWLOCK_INIT;
static CONDITION_VARIABLE sig_cond = CONDITION_VARIABLE_INIT;
static unsigned long long sig_pending;

static void
sig_post (int sig)
{
  AcquireSRWLockExclusive (&sig_lock);
  sig_pending |= 1ULL << sig;
  ReleaseSRWLockExclusive (&sig_lock);
  WakeAllConditionVariable (&sig_cond);
}

static BOOL WINAPI
console_handler (DWORD type)
{
  sig_post (type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT ? SIGINT
                                                             : SIGTERM);
  return TRUE;
}

int
ash_w32_pthread_kill (pthread_t t, int sig)
{
  (void) t;
  if (sig > 0 && sig < 64)
    sig_post (sig);
  return 0;
}

int
ash_w32_sigwait (const sigset_t *set, int *sig)
{
  static bool handler_set;

  AcquireSRWLockExclusive (&sig_lock);
  if (!handler_set)
    {
      handler_set = true;
      SetConsoleCtrlHandler (console_handler, TRUE);
    }
  while (!(sig_pending & *set))
    SleepConditionVariableSRW (&sig_cond, &sig_lock, INFINITE, 0);
  for (int i = 1; i < 64; i++)
    if ((sig_pending & *set) & (1ULL << i))
      {
        sig_pending &= ~(1ULL << i);
        *sig = i;
        break;
      }
  ReleaseSRWLockExclusive (&sig_lock);
  return 0;
}

int
ash_w32_kill (int pid, int sig)
{
  (void) pid;
  (void) sig;
  errno = ESRCH;
  return -1;
}

uid_t
ash_w32_getuid (void)
{
  return 1000;
}

long
ash_w32_sysconf (int name)
{
  if (name == _SC_NPROCESSORS_ONLN)
    {
      SYSTEM_INFO si;
      GetSystemInfo (&si);
      return (long) si.dwNumberOfProcessors;
    }
  if (name == _SC_OPEN_MAX)
    return 2048;
  errno = EINVAL;
  return -1;
}

struct passwd *
getpwuid (int uid)
{
  (void) uid;
  errno = ENOENT;
  return NULL;
}

struct passwd *
getpwnam (const char *name)
{
  (void) name;
  errno = ENOENT;
  return NULL;
}

int
getpwuid_r (int uid, struct passwd *pw, char *buf, size_t len,
            struct passwd **ret)
{
  (void) uid;
  (void) pw;
  (void) buf;
  (void) len;
  *ret = NULL;
  return ENOENT;
}

int
poll (struct pollfd *fds, unsigned long n, int timeout)
{
  (void) fds;
  (void) n;
  (void) timeout;
  errno = ENOSYS;
  return -1;
}

int
waitpid (int pid, int *status, int options)
{
  (void) pid;
  (void) status;
  (void) options;
  errno = ECHILD;
  return -1;
}

int
getrlimit (int res, struct rlimit *rl)
{
  (void) res;
  rl->rlim_cur = rl->rlim_max = RLIM_INFINITY;
  return 0;
}

int
setrlimit (int res, const struct rlimit *rl)
{
  (void) res;
  (void) rl;
  return 0;
}

/* time_t is 64 bits here, and a struct timeval's seconds a long.  */
struct tm *
ash_w32_gmtime_r (const long *t, struct tm *tm)
{
  time_t tt = (time_t) *t;
  return gmtime_s (tm, &tt) == 0 ? tm : NULL;
}

struct tm *
ash_w32_localtime_r (const long *t, struct tm *tm)
{
  time_t tt = (time_t) *t;
  return localtime_s (tm, &tt) == 0 ? tm : NULL;
}

char *
ash_w32_strndup (const char *s, size_t n)
{
  size_t len = strnlen (s, n);
  char *r = malloc (len + 1);
  if (!r)
    return NULL;
  memcpy (r, s, len);
  r[len] = '\0';
  return r;
}

char *
ash_w32_strchrnul (const char *s, int c)
{
  while (*s && *s != (char) c)
    s++;
  return (char *) s;
}

void *
ash_w32_memmem (const void *h, size_t hn, const void *n, size_t nn)
{
  const char *hp = h;
  if (nn == 0)
    return (void *) h;
  for (size_t i = 0; i + nn <= hn; i++)
    if (memcmp (hp + i, n, nn) == 0)
      return (void *) (hp + i);
  return NULL;
}

int
ash_w32_mkostemp (char *tmpl, int flags)
{
  size_t n = strlen (tmpl);
  if (n < 6 || strcmp (tmpl + n - 6, "XXXXXX") != 0)
    {
      errno = EINVAL;
      return -1;
    }
  for (int tries = 0; tries < 100; tries++)
    {
      static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
      unsigned v = (unsigned) GetTickCount () ^ (unsigned) rand ()
                   ^ ((unsigned) tries << 16);
      for (int i = 0; i < 6; i++)
        {
          tmpl[n - 6 + i] = chars[v % 36];
          v = v / 36 + (unsigned) rand ();
        }
      int fd = _open (tmpl,
                      (flags & ~(O_CLOEXEC | O_NOFOLLOW)) | O_RDWR | O_CREAT
                        | O_EXCL | O_BINARY | O_NOINHERIT,
                      0600);
      if (fd >= 0 || errno != EEXIST)
        return fd;
    }
  return -1;
}

/* Shell patterns: *, ?, [set] and [!set], backslash escapes unless
   FNM_NOESCAPE; with FNM_PATHNAME a "/" matches only a "/".  */
int
fnmatch (const char *p, const char *s, int flags)
{
  for (;; p++, s++)
    switch (*p)
      {
      case '\0':
        return *s ? FNM_NOMATCH : 0;
      case '?':
        if (!*s || ((flags & FNM_PATHNAME) && *s == '/'))
          return FNM_NOMATCH;
        break;
      case '*':
        while (*p == '*')
          p++;
        for (;; s++)
          {
            if (fnmatch (p, s, flags) == 0)
              return 0;
            if (!*s || ((flags & FNM_PATHNAME) && *s == '/'))
              return FNM_NOMATCH;
          }
      case '[':
        {
          const char *q = p + 1;
          bool neg = *q == '!' || *q == '^', hit = false;
          if (neg)
            q++;
          if (!*s)
            return FNM_NOMATCH;
          do
            {
              char lo = *q, hi;
              if (!lo)
                return FNM_NOMATCH;
              hi = lo;
              if (q[1] == '-' && q[2] && q[2] != ']')
                {
                  hi = q[2];
                  q += 2;
                }
              if (*s >= lo && *s <= hi)
                hit = true;
              q++;
            }
          while (*q != ']');
          if (hit == neg)
            return FNM_NOMATCH;
          p = q;
          break;
        }
      case '\\':
        if (!(flags & FNM_NOESCAPE) && p[1])
          p++;
        if (*p != *s)
          return FNM_NOMATCH;
        break;
      default:
        if (*p != *s)
          return FNM_NOMATCH;
        break;
      }
}

#endif /* _WIN32 */
