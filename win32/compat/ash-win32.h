/* SPDX-License-Identifier: Apache-2.0 */
/* ash-win32.h -- the POSIX that lib/ uses, for the Windows build.

   Forced into every compilation of the Windows build (configure adds
   -include for it), so that lib/ compiles unchanged.  What Windows can do
   is emulated: directory descriptors for the *at() calls (a table of
   paths, each component checked by name for links and reparse points
   before a file is opened, as the spec says ASH does on Windows), paths
   spelled with "/" on the current drive.  What it cannot do (process
   groups, signals, poll, symlinks, the passwd database) fails with ENOSYS
   or does nothing, so nothing that needs it runs.  Programs are never
   started: win32/spawn.c takes lib/proc/spawn.c's place.  */

#ifndef ASH_WIN32_H
#define ASH_WIN32_H

#ifdef _WIN32

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#ifndef __USE_MINGW_ANSI_STDIO
#define __USE_MINGW_ANSI_STDIO 1
#endif

#include <direct.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The global environment, under a name that leaves struct fields called
   environ alone.  */
#undef environ
#define environ ash_w32_environ
extern char **ash_w32_environ;

typedef int uid_t;
typedef int gid_t;
typedef unsigned long nfds_t;
typedef unsigned long long sigset_t_ash;
#define sigset_t sigset_t_ash

/* Open flags Windows lacks; bits its CRT does not use, removed before
   _open().  */
#define O_CLOEXEC 0x1000000
#define O_NOFOLLOW 0x2000000
#define O_DIRECTORY 0x4000000
#define O_NONBLOCK 0x8000000
#define O_NOCTTY 0x10000000

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR 0x200
#define AT_EMPTY_PATH 0x1000

#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC 1

#ifndef S_IFLNK
#define S_IFLNK 0120000
#endif
#ifndef S_ISLNK
#define S_ISLNK(m) (((m) &S_IFMT) == S_IFLNK)
#endif
#ifndef S_IFSOCK
#define S_IFSOCK 0140000
#endif
#ifndef S_ISSOCK
#define S_ISSOCK(m) (((m) &S_IFMT) == S_IFSOCK)
#endif
#ifndef S_ISVTX
#define S_ISVTX 01000
#endif
#ifndef S_ISUID
#define S_ISUID 04000
#endif
#ifndef S_ISGID
#define S_ISGID 02000
#endif
#ifndef S_IRWXG
#define S_IRWXG 0070
#define S_IRGRP 0040
#define S_IWGRP 0020
#define S_IXGRP 0010
#define S_IRWXO 0007
#define S_IROTH 0004
#define S_IWOTH 0002
#define S_IXOTH 0001
#endif

#define SIGHUP 1
#define SIGQUIT 3
#define SIGKILL 9
#define SIGBUS 7
#define SIGUSR1 10
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGCHLD 17
#define SIGSYS 31
#define SA_RESTART 0x10000000
#define SA_NOCLDWAIT 2
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

struct sigaction
{
  void (*sa_handler) (int);
  sigset_t sa_mask;
  int sa_flags;
};
int ash_w32_sigaction (int sig, const struct sigaction *sa,
                       struct sigaction *old);
#define sigaction(s, a, o) ash_w32_sigaction (s, a, o)
#define sigemptyset(s) (*(s) = 0, 0)
#define sigfillset(s) (*(s) = ~0ULL, 0)
#define sigaddset(s, n) (*(s) |= 1ULL << (n), 0)
#define sigdelset(s, n) (*(s) &= ~(1ULL << (n)), 0)
#define sigismember(s, n) ((*(s) >> (n)) & 1)
#undef pthread_sigmask
#define pthread_sigmask(h, s, o) ash_w32_sigmask (h, s, o)
#define sigprocmask(h, s, o) ash_w32_sigmask (h, s, o)
int ash_w32_sigmask (int how, const sigset_t *set, sigset_t *old);
int ash_w32_sigwait (const sigset_t *set, int *sig);
#define sigwait(s, n) ash_w32_sigwait (s, n)
/* The one use of pthread_kill() is to post a signal to a thread waiting in
   sigwait(); both are emulated together.  */
int ash_w32_pthread_kill (pthread_t t, int sig);
#undef pthread_kill
#define pthread_kill(t, s) ash_w32_pthread_kill (t, s)
int ash_w32_kill (int pid, int sig);
#define kill(p, s) ash_w32_kill (p, s)

uid_t ash_w32_getuid (void);
#define getuid() ash_w32_getuid ()
#define geteuid() ash_w32_getuid ()
#define getgid() ash_w32_getuid ()
#define getegid() ash_w32_getuid ()

#define _SC_NPROCESSORS_ONLN 84
#define _SC_OPEN_MAX 4
long ash_w32_sysconf (int name);
#define sysconf(n) ash_w32_sysconf (n)

/* Descriptors and paths.  */
int ash_w32_open (const char *path, int flags, ...);
int ash_w32_openat (int dirfd, const char *path, int flags, ...);
int ash_w32_close (int fd);
int ash_w32_fstat (int fd, struct stat *st);
int ash_w32_fstatat (int dirfd, const char *path, struct stat *st, int flags);
int ash_w32_lstat (const char *path, struct stat *st);
int ash_w32_stat (const char *path, struct stat *st);
int ash_w32_mkdirat (int dirfd, const char *path, mode_t mode);
int ash_w32_mkdir (const char *path, mode_t mode);
int ash_w32_unlinkat (int dirfd, const char *path, int flags);
int ash_w32_renameat (int ofd, const char *old, int nfd, const char *new_);
int ash_w32_rename (const char *old, const char *new_);
int ash_w32_fcntl (int fd, int cmd, ...);
int ash_w32_dup (int fd);
int ash_w32_fchmod (int fd, mode_t mode);
int ash_w32_fchmodat (int dirfd, const char *path, mode_t mode, int flags);
int ash_w32_fsync (int fd);
ssize_t ash_w32_readlink (const char *path, char *buf, size_t len);
ssize_t ash_w32_readlinkat (int dirfd, const char *path, char *buf,
                            size_t len);
int ash_w32_symlink (const char *target, const char *path);
int ash_w32_symlinkat (const char *target, int dirfd, const char *path);
int ash_w32_link (const char *a, const char *b);
int ash_w32_linkat (int ofd, const char *a, int nfd, const char *b, int flags);
char *ash_w32_realpath (const char *path, char *resolved);
char *ash_w32_mkdtemp (char *tmpl);
int ash_w32_pipe (int fds[2]);
int ash_w32_access (const char *path, int mode);
int ash_w32_chdir (const char *path);
char *ash_w32_getcwd (char *buf, size_t size);
int ash_w32_fchdir (int fd);
int ash_w32_faccessat (int dirfd, const char *path, int mode, int flags);
int ash_w32_utimensat (int dirfd, const char *path, const void *ts, int flags);
int ash_w32_futimens (int fd, const void *ts);

#define open ash_w32_open
#define openat ash_w32_openat
#define close ash_w32_close
#define fstat(f, s) ash_w32_fstat (f, s)
#define fstatat ash_w32_fstatat
#define lstat(p, s) ash_w32_lstat (p, s)
#define mkdirat ash_w32_mkdirat
#define mkdir(p, m) ash_w32_mkdir (p, m)
#define unlinkat ash_w32_unlinkat
#define renameat ash_w32_renameat
#define rename(a, b) ash_w32_rename (a, b)
#define fcntl ash_w32_fcntl
#define dup(f) ash_w32_dup (f)
#define fchmod ash_w32_fchmod
#define fchmodat ash_w32_fchmodat
#define fsync ash_w32_fsync
#define readlink ash_w32_readlink
#define readlinkat ash_w32_readlinkat
#define symlink ash_w32_symlink
#define symlinkat ash_w32_symlinkat
#define link(a, b) ash_w32_link (a, b)
#define linkat ash_w32_linkat
#define realpath ash_w32_realpath
#define mkdtemp ash_w32_mkdtemp
#define pipe(f) ash_w32_pipe (f)
#define access(p, m) ash_w32_access (p, m)
#define fchdir ash_w32_fchdir
#define faccessat ash_w32_faccessat
#define utimensat ash_w32_utimensat
#define futimens ash_w32_futimens

/* Directory streams over the emulated directory descriptors:
   fdopendir() opens the directory the descriptor names and takes the
   descriptor, which closedir() closes.  */
DIR *ash_w32_fdopendir (int fd);
int ash_w32_closedir (DIR *d);
int ash_w32_dirfd (DIR *d);
#define fdopendir ash_w32_fdopendir
#define closedir ash_w32_closedir
#define dirfd ash_w32_dirfd

struct tm *ash_w32_gmtime_r (const long *t, struct tm *tm);
struct tm *ash_w32_localtime_r (const long *t, struct tm *tm);
#define gmtime_r(t, tm) ash_w32_gmtime_r ((const long *) (t), tm)
#define localtime_r(t, tm) ash_w32_localtime_r ((const long *) (t), tm)

char *ash_w32_strndup (const char *s, size_t n);
#define strndup ash_w32_strndup
char *ash_w32_strchrnul (const char *s, int c);
#define strchrnul ash_w32_strchrnul
void *ash_w32_memmem (const void *h, size_t hn, const void *n, size_t nn);
#define memmem ash_w32_memmem
int ash_w32_mkostemp (char *tmpl, int flags);
#define mkostemp ash_w32_mkostemp
#define mkstemp(t) ash_w32_mkostemp (t, 0)

#endif /* _WIN32 */
#endif
