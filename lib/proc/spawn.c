/* SPDX-License-Identifier: Apache-2.0 */
/* spawn.c -- the one choke point through which every child process starts.

   The parent prepares everything the child needs (argv, environment,
   descriptors, the list of descriptors to keep) before it starts the
   child, because between the start and execve() the child of a
   multi-threaded process may only make async-signal-safe calls: no
   malloc, no stdio, no locks.

   How the child starts.  On Linux, clone(CLONE_VM | CLONE_VFORK) on a
   small stack of its own: the child shares ASH's memory until its
   execve(), and the calling thread sleeps until then, so that nothing of
   ASH's address space is copied (fork() copies the page tables of the
   whole process, and every page either side then writes costs a fault
   and, with other threads running, a TLB flush on every CPU).  What the
   child may do there is narrower still than after fork(): it writes
   nothing of ASH's memory except the failure record it was given, and
   it changes its credentials with the raw system calls, since glibc's
   wrappers would signal ASH's other threads to change theirs.  A
   failure in the child is written to that record, which the parent reads
   once clone() returns, that is once the child has either exec'd or
   exited.  Elsewhere (and in builds with a sanitizer, whose run-time
   the shared memory would confuse) fork(); a failure is then written as
   the same record to a close-on-exec pipe, and the parent reads either
   that record or end of file (the exec succeeded).

   Waiting is thread-safe: waitid (WNOHANG | WNOWAIT) on the one pid, with
   poll() in between on the capture pipes and, where the kernel has
   pidfd_open() (Linux 5.3), on a descriptor of the child that becomes
   readable the moment it exits, so that the wait ends then and not at the
   next tick.  Where there is no such descriptor, poll() sleeps a short
   adaptive time instead.  No SIGCHLD handler is installed.  WNOWAIT leaves
   the exited leader as a zombie, so its process group id cannot be reused
   while we remove it from the registry and kill what it left behind in its
   group.  */

#include <config.h>

#include "proc/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#ifdef __linux__
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#endif
#include <time.h>

#include "proc/spawn.h"

#ifndef NSIG
#define NSIG 65
#endif

/* How the child starts (see the top of the file).  ASH_SPAWN_FORK, for
   the tests, forces fork().  */
#if defined __SANITIZE_ADDRESS__ || defined __SANITIZE_THREAD__
#define SPAWN_SANITIZED 1
#elif defined __has_feature
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)       \
  || __has_feature(memory_sanitizer)
#define SPAWN_SANITIZED 1
#endif
#endif
#if defined __linux__ && defined CLONE_VM && defined CLONE_VFORK              \
  && !defined SPAWN_SANITIZED && !defined ASH_SPAWN_FORK
#define SPAWN_SHARED_VM 1
/* The child's stack: what child_run() and execve() need, with room for
   the dynamic linker's lazy binding, which saves the whole vector state
   on it; a page below it is left inaccessible.  */
#define CHILD_STACK_SIZE (64 * 1024)
#endif

#define DEFAULT_KILL_GRACE_SEC 10
#define MAX_SLEEP_MS 50
#define CAPTURE_CHUNK 8192
/* Chunks read from one pipe per wakeup, so that a child writing without
   pause cannot keep us from noticing its timeout.  */
#define CAPTURE_CHUNKS_PER_WAKEUP 16
/* What the final drain reads at most from a pipe whose size cannot be
   asked for: above the usual pipe capacities (64 KiB on Linux and the BSDs,
   up to 1 MiB when raised).  */
#define DRAIN_FALLBACK_MAX (1024 * 1024)

/* The registry of running process groups.  Lock-free so that
   ash_spawn_terminate_all() may run in a signal handler: a slot holds the
   process group id (the leader's pid) of a running child, or 0.  */
#define REGISTRY_SIZE 1024
static _Atomic pid_t registry[REGISTRY_SIZE];
/* The process group ash_spawn_terminate_all() signalled in each slot, so
   that a child that died of that SIGTERM before its waiter looked is still
   reported as interrupted.  Never cleared: a later user of the slot has
   another pid.  */
static _Atomic pid_t signalled[REGISTRY_SIZE];
/* How many ash_spawn_terminate_all() calls are between reading a slot and
   signalling the process group they read there.  The waiter clears its
   slot, then waits for this to drop to zero before it reaps the leader:
   until then the leader stays a zombie and its process group id cannot be
   given to another process, so a kill() from a call that read the slot
   just before it was cleared cannot reach a stranger.  */
static atomic_uint in_use[REGISTRY_SIZE];
/* Bumped by every ash_spawn_terminate_all(); a command compares it with the
   value it saw before fork() to learn that it was interrupted.  */
static atomic_uint terminate_gen;

/* Hooks for tests that build this file into themselves to stop at the
   points where races happen.  */
#ifndef ASH_SPAWN_TERMINATE_HOOK
#define ASH_SPAWN_TERMINATE_HOOK(slot, pgid) ((void) 0)
#endif
#ifndef ASH_SPAWN_DRAIN_HOOK
#define ASH_SPAWN_DRAIN_HOOK() ((void) 0)
#endif
/* Called before each poll() of the wait.  */
#ifndef ASH_SPAWN_POLL_HOOK
#define ASH_SPAWN_POLL_HOOK() ((void) 0)
#endif
/* Called once the child's exit is seen: BY_EVENT is true when the wait
   woke on the child's descriptor, false when a poll found it.  */
#ifndef ASH_SPAWN_EXIT_SEEN_HOOK
#define ASH_SPAWN_EXIT_SEEN_HOOK(by_event) ((void) (by_event))
#endif

static int
registry_add (pid_t pgid)
{
  for (int i = 0; i < REGISTRY_SIZE; i++)
    {
      pid_t expected = 0;
      if (atomic_compare_exchange_strong (&registry[i], &expected, pgid))
        return i;
    }
  return -1;
}

/* Clear SLOT, then wait until no ash_spawn_terminate_all() that may have
   read it before is still about to signal what it read.  Call before
   reaping the process group's leader.  The wait is short: a caller holds
   the slot only across one atomic load and one kill().  */
static void
registry_remove (int slot)
{
  if (slot < 0)
    return;
  atomic_store (&registry[slot], 0);
  while (atomic_load (&in_use[slot]) != 0)
    {
      struct timespec ts = { 0, 100000 };
      nanosleep (&ts, NULL);
    }
}

void
ash_spawn_terminate_all (void)
{
  int saved = errno;
  atomic_fetch_add (&terminate_gen, 1);
  for (int i = 0; i < REGISTRY_SIZE; i++)
    {
      /* Only atomics and kill(): this may run in a signal handler.  */
      atomic_fetch_add (&in_use[i], 1);
      pid_t pgid = atomic_load (&registry[i]);
      if (pgid > 0)
        {
          ASH_SPAWN_TERMINATE_HOOK (i, pgid);
          atomic_store (&signalled[i], pgid);
          (void) kill (-pgid, SIGTERM);
        }
      atomic_fetch_sub (&in_use[i], 1);
    }
  errno = saved;
}

void
ash_cmd_init (struct ash_cmd *cmd)
{
  memset (cmd, 0, sizeof *cmd);
  ash_strvec_init (&cmd->argv);
  ash_strvec_init (&cmd->env);
  cmd->cwd = NULL;
  cmd->stdin_mode = cmd->stdout_mode = cmd->stderr_mode = ASH_STDIO_NULL;
  cmd->stdin_fd = cmd->stdout_fd = cmd->stderr_fd = -1;
  ash_buf_init (&cmd->out);
  ash_buf_init (&cmd->err);
  cmd->scope = NULL;
  for (size_t i = 0; i < ASH_CMD_MAX_PASS_FDS; i++)
    cmd->pass_fds[i] = -1;
  cmd->n_pass_fds = 0;
}

void
ash_cmd_release (struct ash_cmd *cmd)
{
  ash_strvec_release (&cmd->argv);
  ash_strvec_release (&cmd->env);
  free (cmd->cwd);
  cmd->cwd = NULL;
  ash_buf_release (&cmd->out);
  ash_buf_release (&cmd->err);
}

/* What the child reports when it cannot get as far as running the
   program.  */
enum child_stage
{
  STAGE_SETUP = 1,
  STAGE_CHDIR,
  STAGE_EXEC,
};

struct child_failure
{
  int stage; /* 0: none */
  int err;
};

/* Everything the child needs, prepared by the parent.  */
struct child_plan
{
  const char *path;
  char *const *argv;
  char *const *envp;
  const char *cwd;
  int src[3]; /* descriptor for stdin/stdout/stderr; -1: keep ASH's */
  /* Where a failure is reported: the record in the parent's memory (a
     child sharing it), else the write end of the failure pipe
     (close-on-exec).  */
  volatile struct child_failure *failure;
  int errfd;
  int keep[ASH_CMD_MAX_PASS_FDS + 1]; /* sorted; ERRFD too, if any */
  size_t n_keep;
  const int *pass_fds;
  size_t n_pass_fds;
  int max_fd;       /* for the close loop when close_range() is missing */
  bool new_session; /* setsid() rather than setpgid() */
  bool set_ids;
  uid_t uid;
  gid_t gid;
  pid_t parent;
  struct ash_cmd_limits limits;
};

/* Set the resource RES to V (soft and hard) unless V is 0.
   Async-signal-safe.  */
static int
child_limit (int res, unsigned long long v)
{
  if (v == 0)
    return 0;
  struct rlimit rl = { (rlim_t) v, (rlim_t) v };
  struct rlimit cur;
  /* Never raise a limit ASH itself runs under.  */
  if (getrlimit (res, &cur) == 0)
    {
      if (cur.rlim_max != RLIM_INFINITY && cur.rlim_max < rl.rlim_max)
        rl.rlim_max = cur.rlim_max;
      if (rl.rlim_cur > rl.rlim_max)
        rl.rlim_cur = rl.rlim_max;
    }
  return setrlimit (res, &rl);
}

_Noreturn static void
child_fail (const struct child_plan *p, int stage, int err)
{
  if (p->failure)
    {
      p->failure->err = err;
      p->failure->stage = stage;
      _exit (127);
    }
  struct child_failure f = { stage, err };
  ssize_t n;
  do
    n = write (p->errfd, &f, sizeof f);
  while (n < 0 && errno == EINTR);
  _exit (127);
}

/* Drop every supplementary group and set the real, effective and saved
   ids, by the system calls themselves: glibc's setresuid() in a process
   it knows to be multi-threaded changes the ids of every thread, by
   signals to the other threads, which a child sharing ASH's memory would
   send to ASH's threads.  The kernel changes the calling process's ids
   only, which in the child is all there is.  Async-signal-safe.  */
static int
child_set_ids (uid_t uid, gid_t gid)
{
#ifdef __linux__
#ifdef SYS_setresuid32
  /* 32-bit ABIs, whose setresuid takes 16-bit ids.  */
  if (syscall (SYS_setgroups32, 0, NULL) < 0
      || syscall (SYS_setresgid32, gid, gid, gid) < 0
      || syscall (SYS_setresuid32, uid, uid, uid) < 0)
    return -1;
#else
  if (syscall (SYS_setgroups, 0, NULL) < 0
      || syscall (SYS_setresgid, gid, gid, gid) < 0
      || syscall (SYS_setresuid, uid, uid, uid) < 0)
    return -1;
#endif
#else
  if (setgroups (0, NULL) < 0 || setgid (gid) < 0 || setuid (uid) < 0)
    return -1;
#endif
  return 0;
}

/* Close [FROM, TO] (TO may be INT_MAX).  Async-signal-safe.  */
static void
child_close_between (int from, int to, int max_fd)
{
#ifdef HAVE_CLOSE_RANGE
  if (close_range ((unsigned) from, to == INT_MAX ? ~0U : (unsigned) to, 0)
      == 0)
    return;
#endif
  if (to > max_fd)
    to = max_fd;
  for (int fd = from; fd <= to; fd++)
    (void) close (fd);
}

_Noreturn static void
child_run (const struct child_plan *p)
{
  int src[3];

  if (p->new_session ? setsid () < 0 : setpgid (0, 0) < 0)
    child_fail (p, STAGE_SETUP, errno);

#ifdef PR_SET_PDEATHSIG
  /* Should ASH be killed outright (kill -9), take the command with it;
     the sandbox wrappers pass the signal on to what they start.  Had ASH
     died already, between fork() and here, the signal would never come:
     we would have been reparented, so check.  */
  if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
    child_fail (p, STAGE_SETUP, errno);
  if (getppid () != p->parent)
    _exit (127);
#endif
    /* A platform without one of these limits is refused the command in
     ash_cmd_run() before it gets here.  */
#ifdef RLIMIT_NPROC
  if (child_limit (RLIMIT_NPROC, p->limits.nproc) < 0)
    child_fail (p, STAGE_SETUP, errno);
#endif
#ifdef RLIMIT_AS
  if (child_limit (RLIMIT_AS, p->limits.as) < 0)
    child_fail (p, STAGE_SETUP, errno);
#endif
#ifdef RLIMIT_FSIZE
  if (child_limit (RLIMIT_FSIZE, p->limits.fsize) < 0)
    child_fail (p, STAGE_SETUP, errno);
#endif
  for (unsigned i = 0; i < p->limits.n_cgroup_procs_fds && i < 2; i++)
    if (write (p->limits.cgroup_procs_fd[i], "0", 1) != 1)
      child_fail (p, STAGE_SETUP, errno);

  /* A source that sits on another standard descriptor's number would be
     overwritten by that one's dup2(): move it out of the way first.  */
  for (int i = 0; i < 3; i++)
    {
      src[i] = p->src[i];
      if (src[i] >= 0 && src[i] < 3 && src[i] != i)
        {
          int fd = fcntl (src[i], F_DUPFD_CLOEXEC, 3);
          if (fd < 0)
            child_fail (p, STAGE_SETUP, errno);
          src[i] = fd;
        }
    }
  for (int i = 0; i < 3; i++)
    {
      if (src[i] < 0)
        continue;
      if (src[i] == i)
        {
          /* dup2() onto itself would leave close-on-exec set.  */
          if (fcntl (i, F_SETFD, 0) < 0)
            child_fail (p, STAGE_SETUP, errno);
        }
      else if (dup2 (src[i], i) < 0)
        child_fail (p, STAGE_SETUP, errno);
    }

  for (size_t i = 0; i < p->n_pass_fds; i++)
    if (fcntl (p->pass_fds[i], F_SETFD, 0) < 0)
      child_fail (p, STAGE_SETUP, errno);

  /* Close everything above stderr except the descriptors in KEEP.  */
  int from = 3;
  for (size_t i = 0; i < p->n_keep; i++)
    {
      if (p->keep[i] > from)
        child_close_between (from, p->keep[i] - 1, p->max_fd);
      from = p->keep[i] + 1;
    }
  child_close_between (from, INT_MAX, p->max_fd);

  if (p->cwd && chdir (p->cwd) < 0)
    child_fail (p, STAGE_CHDIR, errno);

  if (p->set_ids)
    {
      if (child_set_ids (p->uid, p->gid) < 0)
        child_fail (p, STAGE_SETUP, errno);
#ifdef PR_SET_PDEATHSIG
      /* A change of credentials clears the parent-death signal.  */
      if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        child_fail (p, STAGE_SETUP, errno);
      if (getppid () != p->parent)
        _exit (127);
#endif
    }

  /* All signals are blocked (the parent blocked them around fork()), so no
     handler of ASH's can run here; reset the dispositions, then the mask.
     Ignored signals would otherwise stay ignored across execve().  */
  struct sigaction dfl;
  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset (&dfl.sa_mask);
  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      (void) sigaction (sig, &dfl, NULL);
  sigset_t empty;
  sigemptyset (&empty);
  if (sigprocmask (SIG_SETMASK, &empty, NULL) < 0)
    child_fail (p, STAGE_SETUP, errno);

  execve (p->path, p->argv, p->envp);
  child_fail (p, STAGE_EXEC, errno);
}

/* Make FD close-on-exec and not one of 0, 1, 2 (ASH may have been started
   with a standard stream closed).  0 or a negative errno; *FD is closed on
   failure.  */
static int
fd_above_stdio (int *fd)
{
  if (*fd >= 3)
    return 0;
  int nfd = fcntl (*fd, F_DUPFD_CLOEXEC, 3);
  int e = errno;
  ash_close (*fd);
  *fd = nfd;
  return nfd < 0 ? -e : 0;
}

static int
make_pipe (int p[2])
{
#ifdef HAVE_PIPE2
  if (pipe2 (p, O_CLOEXEC) < 0)
    return -errno;
#else
  if (pipe (p) < 0)
    return -errno;
  (void) fcntl (p[0], F_SETFD, FD_CLOEXEC);
  (void) fcntl (p[1], F_SETFD, FD_CLOEXEC);
#endif
  int r = fd_above_stdio (&p[0]);
  if (r < 0)
    {
      ash_close (p[1]);
      return r;
    }
  r = fd_above_stdio (&p[1]);
  if (r < 0)
    {
      ash_close (p[0]);
      return r;
    }
  return 0;
}

static int
open_max_fd (void)
{
  long n = sysconf (_SC_OPEN_MAX);
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
      && (long) rl.rlim_cur > n)
    n = (long) rl.rlim_cur;
  if (n <= 0)
    n = 1024;
  /* Bound the fallback loop; close_range() covers the rest where it
     exists.  */
  if (n > (1L << 20))
    n = 1L << 20;
  return (int) n - 1;
}

static int
cmp_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

/* Append what can be read now, up to MAX bytes, from *FD to B, bounded
   by B->max (the rest is read and dropped so the child never blocks on a
   full pipe).  Closes *FD at end of file.  Returns the bytes read.  */
static size_t
capture_read_upto (int *fd, struct ash_buf *b, bool *truncated, size_t max)
{
  char chunk[CAPTURE_CHUNK];
  size_t got = 0;
  for (int i = 0; i < CAPTURE_CHUNKS_PER_WAKEUP && got < max; i++)
    {
      size_t want = max - got < sizeof chunk ? max - got : sizeof chunk;
      ssize_t n = read (*fd, chunk, want);
      if (n > 0)
        {
          size_t take = (size_t) n;
          if (b->max)
            {
              size_t room = b->len < b->max ? b->max - b->len : 0;
              if (take > room)
                {
                  take = room;
                  *truncated = true;
                }
            }
          if (take > 0 && ash_buf_add (b, chunk, take) < 0)
            *truncated = true;
          got += (size_t) n;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      /* EWOULDBLOCK is EAGAIN wherever ASH builds.  */
      if (n < 0 && errno == EAGAIN)
        return got;
      ash_close (*fd);
      *fd = -1;
      return got;
    }
  return got;
}

static bool
capture_read (int *fd, struct ash_buf *b, bool *truncated)
{
  return capture_read_upto (fd, b, truncated, SIZE_MAX) > 0;
}

/* How much the final drain of the pipe FD reads at most: what the pipe
   can hold, which is all the program could have written before it exited
   and we did not read yet.  Whatever comes beyond that comes from a
   straggler, which must not keep us reading forever.  */
static size_t
drain_limit (int fd)
{
#ifdef F_GETPIPE_SZ
  int sz = fcntl (fd, F_GETPIPE_SZ);
  if (sz > 0)
    return (size_t) sz;
#else
  (void) fd;
#endif
  return DRAIN_FALLBACK_MAX;
}

/* Milliseconds from NOW until WHEN, at least 1, rounded up.  */
static int
ms_until (double now, double when)
{
  double ms = (when - now) * 1000.0 + 1.0;
  if (ms < 1.0)
    return 1;
  if (ms > (double) INT_MAX)
    return INT_MAX;
  return (int) ms;
}

struct spawn_fds
{
  int src[3];    /* what the child gets; -1: ASH's own */
  bool owned[3]; /* SRC[i] was opened here and is closed after fork */
  int rd[3];     /* parent's read end of a capture pipe, or -1 */
  int err_rd, err_wr;
};

static void
spawn_fds_close (struct spawn_fds *f)
{
  for (int i = 0; i < 3; i++)
    {
      if (f->owned[i] && f->src[i] >= 0)
        ash_close (f->src[i]);
      f->src[i] = -1;
      f->owned[i] = false;
      if (f->rd[i] >= 0)
        ash_close (f->rd[i]);
      f->rd[i] = -1;
    }
  if (f->err_rd >= 0)
    ash_close (f->err_rd);
  if (f->err_wr >= 0)
    ash_close (f->err_wr);
  f->err_rd = f->err_wr = -1;
}

static const char *
stream_name (int i)
{
  return i == 0 ? "stdin" : i == 1 ? "stdout" : "stderr";
}

static int
spawn_fds_open (const struct ash_cmd *cmd, struct spawn_fds *f,
                struct ash_error *err)
{
  const enum ash_stdio modes[3]
    = { cmd->stdin_mode, cmd->stdout_mode, cmd->stderr_mode };
  const int given[3] = { cmd->stdin_fd, cmd->stdout_fd, cmd->stderr_fd };
  const char *path = cmd->argv.v[0];
  int r;

  for (int i = 0; i < 3; i++)
    {
      switch (modes[i])
        {
        case ASH_STDIO_NULL:
          {
            int fd = open ("/dev/null", (i == 0 ? O_RDONLY : O_WRONLY)
                                          | O_CLOEXEC | O_NOCTTY);
            if (fd < 0)
              return ash_error_set (err, -errno,
                                    _ ("cannot run '%s': cannot open %s: %s"),
                                    path, "/dev/null", strerror (errno));
            r = fd_above_stdio (&fd);
            if (r < 0)
              return ash_error_set (err, r, _ ("cannot run '%s': %s"), path,
                                    strerror (-r));
            f->src[i] = fd;
            f->owned[i] = true;
            break;
          }
        case ASH_STDIO_FD:
          if (given[i] < 0)
            return ash_error_set (err, -EBADF,
                                  _ ("cannot run '%s': no descriptor given "
                                     "for its %s"),
                                  path, stream_name (i));
          f->src[i] = given[i];
          break;
        case ASH_STDIO_CAPTURE:
          {
            int p[2];
            if (i == 0)
              return ash_error_set (err, -EINVAL,
                                    _ ("cannot run '%s': stdin cannot be "
                                       "captured"),
                                    path);
            r = make_pipe (p);
            if (r < 0)
              return ash_error_set (err, r, _ ("cannot run '%s': %s"), path,
                                    strerror (-r));
            f->rd[i] = p[0];
            f->src[i] = p[1];
            f->owned[i] = true;
            int fl = fcntl (p[0], F_GETFL);
            if (fl >= 0)
              (void) fcntl (p[0], F_SETFL, fl | O_NONBLOCK);
            break;
          }
        case ASH_STDIO_INHERIT:
        default:
          f->src[i] = -1;
          break;
        }
    }

#ifndef SPAWN_SHARED_VM
  /* The failure pipe: the child reports on it, see child_fail().  */
  int p[2];
  r = make_pipe (p);
  if (r < 0)
    return ash_error_set (err, r, _ ("cannot run '%s': %s"), path,
                          strerror (-r));
  f->err_rd = p[0];
  f->err_wr = p[1];
#endif
  return 0;
}

static ssize_t
read_full (int fd, void *buf, size_t len)
{
  size_t got = 0;
  while (got < len)
    {
      ssize_t n = read (fd, (char *) buf + got, len - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      got += (size_t) n;
    }
  return (ssize_t) got;
}

static void
reap (pid_t pid, int *ret_status)
{
  int st = 0;
  while (waitpid (pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (ret_status)
    *ret_status = st;
}

/* With SIGCHLD ignored, or with SA_NOCLDWAIT, the kernel reaps children
   itself, and their exit status is lost: waitid() fails with ECHILD.  Both
   are inherited across execve(), so ASH may have been started that way.
   Children are this file's business: restore the default, keeping a
   handler that someone installed but dropping SA_NOCLDWAIT.  */
static void
sigchld_keep_status (void)
{
  struct sigaction sa;

  if (sigaction (SIGCHLD, NULL, &sa) < 0)
    return;
  if (sa.sa_handler == SIG_IGN)
    {
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = SIG_DFL;
      sigemptyset (&sa.sa_mask);
      (void) sigaction (SIGCHLD, &sa, NULL);
    }
  else if (sa.sa_flags & SA_NOCLDWAIT)
    {
      sa.sa_flags &= ~SA_NOCLDWAIT;
      (void) sigaction (SIGCHLD, &sa, NULL);
    }
}

/* A descriptor that becomes readable when PID (our unreaped child) exits,
   or -1 where the system has none.  Close-on-exec, as pidfd_open() makes
   it.  */
static int
child_exit_fd (pid_t pid)
{
#if defined __linux__ && defined SYS_pidfd_open
  long fd = syscall (SYS_pidfd_open, pid, 0);
  return fd < 0 ? -1 : (int) fd;
#else
  (void) pid;
  return -1;
#endif
}

#ifdef SPAWN_SHARED_VM
static int
child_main (void *arg)
{
  child_run (arg);
}
#endif

/* Start the child of PLAN, with every signal blocked (the caller's mask
   is restored before this returns).  Returns its pid, or -1 with errno
   set when it could not be started.  *RET_CF gets what the child reported
   when it could not run the program (stage 0: it did, or that is still
   to be read from the failure pipe).  */
static pid_t
child_start (struct child_plan *plan, struct child_failure *ret_cf)
{
  sigset_t all, old;
  pid_t pid;
  int e;

  ret_cf->stage = 0;
  ret_cf->err = 0;
  /* Block every signal around the start so that none of ASH's handlers
     runs in the child before it has reset them.  */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
#ifdef SPAWN_SHARED_VM
  volatile struct child_failure shared = { 0, 0 };
  long page = sysconf (_SC_PAGESIZE);
  size_t guard = page > 0 ? (size_t) page : 4096;
  char *stack = mmap (NULL, guard + CHILD_STACK_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED)
    {
      e = errno;
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      errno = e;
      return -1;
    }
  (void) mprotect (stack, guard, PROT_NONE);
  plan->failure = &shared;
  /* The stack grows down on every architecture Linux runs ASH on but
     HP PA-RISC, which has no CLONE_VFORK user here.  */
  pid = clone (child_main, stack + guard + CHILD_STACK_SIZE,
               CLONE_VM | CLONE_VFORK | SIGCHLD, plan);
  e = errno;
  plan->failure = NULL;
  /* Here the child has either called execve() successfully or exited:
     its stack is no longer in use.  */
  (void) munmap (stack, guard + CHILD_STACK_SIZE);
  if (pid > 0)
    {
      ret_cf->stage = shared.stage;
      ret_cf->err = shared.err;
    }
#else
  pid = fork ();
  if (pid == 0)
    child_run (plan);
  e = errno;
#endif
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  errno = e;
  return pid;
}

static int
spawn_and_wait (struct ash_cmd *cmd, struct ash_cmd_result *ret,
                struct ash_error *err)
{
  struct spawn_fds f
    = { { -1, -1, -1 }, { false, false, false }, { -1, -1, -1 }, -1, -1 };
  struct child_plan plan;
  int r;

  if (cmd->argv.nr == 0)
    return ash_error_set (err, -EINVAL,
                          _ ("cannot run a command without a program"));
  const char *path = cmd->argv.v[0];
  if (path[0] != '/')
    return ash_error_set (err, -EINVAL,
                          _ ("cannot run '%s': not an absolute path"), path);
  if (cmd->n_pass_fds > ASH_CMD_MAX_PASS_FDS)
    return ash_error_set (err, -EINVAL,
                          _ ("cannot run '%s': too many descriptors to pass"),
                          path);
  for (size_t i = 0; i < cmd->n_pass_fds; i++)
    if (cmd->pass_fds[i] < 3)
      return ash_error_set (err, -EBADF,
                            _ ("cannot run '%s': descriptor %d cannot be "
                               "passed"),
                            path, cmd->pass_fds[i]);

#if !defined RLIMIT_NPROC || !defined RLIMIT_AS || !defined RLIMIT_FSIZE
  if (cmd->limits.nproc || cmd->limits.as || cmd->limits.fsize)
    return ash_error_set (err, -ENOTSUP,
                          _ ("cannot run '%s': this system cannot limit "
                             "a command's processes, memory or file size; "
                             "set global_settings.max_scanner_processes, "
                             "max_scanner_memory and max_scanner_output "
                             "to 0"),
                          path);
#endif
  sigchld_keep_status ();

  r = spawn_fds_open (cmd, &f, err);
  if (r < 0)
    {
      spawn_fds_close (&f);
      return r;
    }

  memset (&plan, 0, sizeof plan);
  plan.path = path;
  plan.argv = cmd->argv.v;
  plan.envp = cmd->env.v;
  plan.cwd = cmd->cwd;
  for (int i = 0; i < 3; i++)
    plan.src[i] = f.src[i];
  plan.errfd = f.err_wr;
  if (f.err_wr >= 0)
    plan.keep[plan.n_keep++] = f.err_wr;
  for (size_t i = 0; i < cmd->n_pass_fds; i++)
    plan.keep[plan.n_keep++] = cmd->pass_fds[i];
  qsort (plan.keep, plan.n_keep, sizeof plan.keep[0], cmp_int);
  plan.pass_fds = cmd->pass_fds;
  plan.n_pass_fds = cmd->n_pass_fds;
  plan.max_fd = open_max_fd ();
  plan.new_session = cmd->new_session;
  plan.set_ids = cmd->set_ids;
  plan.uid = cmd->user_id;
  plan.gid = cmd->group_id;
  plan.parent = getpid ();
  plan.limits = cmd->limits;

  /* The duration runs from here, the start of the child, to its reaping
     below: the program's run, with what its start and its end cost.  */
  unsigned gen = atomic_load (&terminate_gen);
  double start = ash_now ();
  struct child_failure cf;
  pid_t pid = child_start (&plan, &cf);
  if (pid < 0)
    {
      int e = errno;
      spawn_fds_close (&f);
      return ash_error_set (err, -e, _ ("cannot run '%s': %s"), path,
                            strerror (e));
    }

#ifndef SPAWN_SHARED_VM
  /* Also from this side, so that the group exists before we may signal
     it; EACCES once the child has exec'd is harmless.  (A child sharing
     our memory has made its group before clone() returns.)  */
  if (!cmd->new_session)
    (void) setpgid (pid, pid);
#endif
  int slot = registry_add (pid);

  /* The child has its copies now.  */
  for (int i = 0; i < 3; i++)
    {
      if (f.owned[i] && f.src[i] >= 0)
        ash_close (f.src[i]);
      f.src[i] = -1;
      f.owned[i] = false;
    }
  if (f.err_wr >= 0)
    ash_close (f.err_wr);
  f.err_wr = -1;

  if (slot < 0)
    {
      (void) kill (-pid, SIGKILL);
      (void) kill (pid, SIGKILL);
      reap (pid, NULL);
      spawn_fds_close (&f);
      return ash_error_set (err, -EAGAIN,
                            _ ("cannot run '%s': too many running commands"),
                            path);
    }

  /* From the pipe, end of file: the exec succeeded; a record: it did
     not.  */
  if (f.err_rd >= 0)
    {
      ssize_t n = read_full (f.err_rd, &cf, sizeof cf);
      ash_close (f.err_rd);
      f.err_rd = -1;
      if (n != (ssize_t) sizeof cf)
        cf.stage = 0;
    }
  if (cf.stage != 0)
    {
      registry_remove (slot);
      reap (pid, NULL);
      spawn_fds_close (&f);
      int e = cf.err > 0 ? cf.err : EIO;
      switch (cf.stage)
        {
        case STAGE_EXEC:
          return ash_error_set (err, -e, _ ("cannot run '%s': %s"), path,
                                strerror (e));
        case STAGE_CHDIR:
          return ash_error_set (err, -e,
                                _ ("cannot run '%s': cannot change to "
                                   "directory '%s': %s"),
                                path, cmd->cwd ? cmd->cwd : "", strerror (e));
        default:
          return ash_error_set (err, -e,
                                _ ("cannot run '%s': cannot set up the "
                                   "child process: %s"),
                                path, strerror (e));
        }
    }

  if (cmd->while_running)
    cmd->while_running (cmd->while_running_arg);

  unsigned grace
    = cmd->kill_grace_sec ? cmd->kill_grace_sec : DEFAULT_KILL_GRACE_SEC;
  double deadline = cmd->timeout_sec ? start + (double) cmd->timeout_sec : 0;
  double kill_at = 0;
  bool term_sent = false, kill_sent = false;
  bool timed_out = false, interrupted = false;
  bool trunc[3] = { false, false, false };
  struct ash_buf *bufs[3] = { NULL, &cmd->out, &cmd->err };
  /* With the child's descriptor, its exit wakes the poll below, which only
     needs a timeout for the deadlines and for noticing a
     terminate_all() (kill() cannot wake us); without it, poll sleeps
     a short time that grows while nothing happens.  */
  int exit_fd = child_exit_fd (pid);
  int sleep_ms = exit_fd >= 0 ? MAX_SLEEP_MS : 1;
  bool exit_event = false;

  /* A terminate_all() that ran between the child's start and
     registry_add() did not see this child.  */
  if (atomic_load (&terminate_gen) != gen)
    {
      interrupted = true;
      (void) kill (-pid, SIGTERM);
      term_sent = true;
      kill_at = ash_now () + grace;
    }

  for (;;)
    {
      siginfo_t si;
      memset (&si, 0, sizeof si);
      if (waitid (P_PID, (id_t) pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
        {
          if (errno == EINTR)
            continue;
          break; /* ECHILD: nothing left to wait for */
        }
      if (si.si_pid == pid)
        {
          ASH_SPAWN_EXIT_SEEN_HOOK (exit_event);
          break;
        }

      double now = ash_now ();
      if (!term_sent && atomic_load (&terminate_gen) != gen)
        interrupted = true;
      if (!term_sent && deadline > 0 && now >= deadline)
        timed_out = true;
      if (!term_sent && (interrupted || timed_out))
        {
          (void) kill (-pid, SIGTERM);
          term_sent = true;
          kill_at = now + grace;
        }
      if (term_sent && !kill_sent && now >= kill_at)
        {
          (void) kill (-pid, SIGKILL);
          kill_sent = true;
        }

      int wait_ms = sleep_ms;
      if (!term_sent && deadline > 0)
        {
          int m = ms_until (now, deadline);
          if (m < wait_ms)
            wait_ms = m;
        }
      if (term_sent && !kill_sent)
        {
          int m = ms_until (now, kill_at);
          if (m < wait_ms)
            wait_ms = m;
        }

      struct pollfd pfd[3];
      int npfd = 0, which[3];
      for (int i = 1; i < 3; i++)
        if (f.rd[i] >= 0)
          {
            pfd[npfd].fd = f.rd[i];
            pfd[npfd].events = POLLIN;
            pfd[npfd].revents = 0;
            which[npfd++] = i;
          }
      if (exit_fd >= 0)
        {
          pfd[npfd].fd = exit_fd;
          pfd[npfd].events = POLLIN;
          pfd[npfd].revents = 0;
          which[npfd++] = 0;
        }
      ASH_SPAWN_POLL_HOOK ();
      int pr = poll (npfd ? pfd : NULL, (nfds_t) npfd, wait_ms);
      bool got = false;
      exit_event = false;
      if (pr > 0)
        for (int k = 0; k < npfd; k++)
          {
            if (!pfd[k].revents)
              continue;
            if (which[k] == 0)
              exit_event = true;
            else
              got |= capture_read (&f.rd[which[k]], bufs[which[k]],
                                   &trunc[which[k]]);
          }
      if (exit_fd < 0)
        sleep_ms = got                           ? 1
                   : sleep_ms * 2 > MAX_SLEEP_MS ? MAX_SLEEP_MS
                                                 : sleep_ms * 2;
    }
  if (exit_fd >= 0)
    ash_close (exit_fd);

  /* The leader has exited but is not reaped yet, so its process group id
     is still ours: end whatever it left running there.  */
  if (atomic_load (&signalled[slot]) == pid)
    interrupted = true;
  registry_remove (slot);
  (void) kill (-pid, SIGKILL);

  /* What the program wrote before it exited is in the pipes now; what a
     straggler outside the group might still write is not waited for.  */
  for (int i = 1; i < 3; i++)
    if (f.rd[i] >= 0)
      {
        size_t limit = drain_limit (f.rd[i]);
        size_t drained = 0;
        while (f.rd[i] >= 0 && drained < limit)
          {
            ASH_SPAWN_DRAIN_HOOK ();
            size_t got = capture_read_upto (&f.rd[i], bufs[i], &trunc[i],
                                            limit - drained);
            if (got == 0)
              break;
            drained += got;
          }
      }

  int st;
  reap (pid, &st);
  spawn_fds_close (&f);

  memset (ret, 0, sizeof *ret);
  if (WIFEXITED (st))
    ret->status = WEXITSTATUS (st);
  else if (WIFSIGNALED (st))
    {
      ret->term_signal = WTERMSIG (st);
      ret->status = 128 + ret->term_signal;
    }
  else
    ret->status = 255;
  ret->timed_out = timed_out;
  ret->interrupted = interrupted;
  ret->out_truncated = trunc[1];
  ret->err_truncated = trunc[2];
  ret->duration = ash_now () - start;
  return 0;
}

int
ash_cmd_run (struct ash_cmd *cmd, struct ash_cmd_result *ret,
             struct ash_error *err)
{
  const struct ash_scope *scope = cmd->scope;

  if (!scope || scope->kind == ASH_SCOPE_NONE)
    return spawn_and_wait (cmd, ret, err);

  if (scope->kind == ASH_SCOPE_REFUSE)
    return scope->refusal && scope->refusal->message
             ? ash_error_copy (err, -EPERM, scope->refusal)
             : ash_error_set (err, -EPERM, _ ("the command was refused"));

  /* A confining scope needs the backend, which lives above this layer:
     such a command goes through ash_sandbox_run(), never around it.  */
  return ash_error_set (err, -EPERM,
                        _ ("cannot run '%s': a sandboxed command must be "
                           "started through the sandbox layer"),
                        cmd->argv.nr ? cmd->argv.v[0] : "");
}
