/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for spawn.c: the one choke point through which every child
   process starts.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "base/util.h"
#include "proc/spawn.h"
#include "sandbox/backend.h"
#include "sandbox/backend-impl.h"
#include "tap.h"

static char *probe; /* absolute path of tests/fixtures/spawn-probe */
static char *tmpdir;

static void
sleep_ms (int ms)
{
  struct timespec ts = { ms / 1000, (long) (ms % 1000) * 1000000L };
  nanosleep (&ts, NULL);
}

/* A command running the probe with ARGS (NULL-terminated).  */
static void
probe_cmd (struct ash_cmd *cmd, const char *what, const char *arg)
{
  ash_cmd_init (cmd);
  ash_strvec_push (&cmd->argv, probe);
  ash_strvec_push (&cmd->argv, what);
  if (arg)
    ash_strvec_push (&cmd->argv, arg);
  ash_strvec_push (&cmd->env, "LC_ALL=C");
  cmd->stdout_mode = ASH_STDIO_CAPTURE;
  cmd->stderr_mode = ASH_STDIO_CAPTURE;
}

static void
sh_cmd (struct ash_cmd *cmd, const char *script)
{
  ash_cmd_init (cmd);
  ash_strvec_push (&cmd->argv, "/bin/sh");
  ash_strvec_push (&cmd->argv, "-c");
  ash_strvec_push (&cmd->argv, script);
  ash_strvec_push (&cmd->env, "PATH=/usr/bin:/bin");
  cmd->stdout_mode = ASH_STDIO_CAPTURE;
  cmd->stderr_mode = ASH_STDIO_CAPTURE;
}

/* Is process PID gone (or a zombie nobody reaps)?  Waits up to ~10 s for
   a signal already sent to take effect; the assertion is the outcome.  */
static bool
process_gone (pid_t pid)
{
  for (int i = 0; i < 1000; i++)
    {
      if (kill (pid, 0) < 0 && errno == ESRCH)
        return true;
      char path[64], buf[512];
      snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
      FILE *f = fopen (path, "r");
      if (f)
        {
          size_t n = fread (buf, 1, sizeof buf - 1, f);
          fclose (f);
          buf[n] = '\0';
          char *paren = strrchr (buf, ')');
          if (paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'))
            return true;
        }
      sleep_ms (10);
    }
  return false;
}

static pid_t
read_pid (const char *s)
{
  return (pid_t) strtol (s, NULL, 10);
}

static void
test_status (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  probe_cmd (&cmd, "exit", "0");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "exit 0 runs");
  tap_is_int (res.status, 0, "exit 0 is status 0");
  tap_is_int (res.term_signal, 0, "exit 0 has no signal");
  tap_ok (!res.timed_out && !res.interrupted, "exit 0 is not timed out");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "exit", "42");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "exit 42 runs");
  tap_is_int (res.status, 42, "exit code 42 is reported");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "raise", "9");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "raise 9 runs");
  tap_is_int (res.status, 128 + 9, "SIGKILL is status 137");
  tap_is_int (res.term_signal, 9, "term_signal is 9");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "raise", "15");
  ash_cmd_run (&cmd, &res, &err);
  tap_is_int (res.status, 128 + 15, "SIGTERM is status 143");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "pgid", NULL);
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "leader", "the child leads its process group");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
}

static void
test_exec_failure (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, "/nonexistent/ash-no-such-tool");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), -ENOENT,
              "a missing program fails with -ENOENT");
  tap_is_str (err.message,
              "cannot run '/nonexistent/ash-no-such-tool': No such file or "
              "directory",
              "the ENOENT message names the program");
  ash_cmd_release (&cmd);
  ash_error_release (&err);

  _cleanup_free_ char *noexec = ash_path_join (tmpdir, "not-executable");
  FILE *f = fopen (noexec, "w");
  fputs ("#!/bin/sh\nexit 0\n", f);
  fclose (f);
  chmod (noexec, 0644);
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, noexec);
  tap_is_int (ash_sandbox_run (&cmd, &res, &err), -EACCES,
              "a non-executable file fails with -EACCES");
  _cleanup_free_ char *want
    = xasprintf ("cannot run '%s': Permission denied", noexec);
  tap_is_str (err.message, want, "the EACCES message names the program");
  ash_cmd_release (&cmd);
  ash_error_release (&err);

  /* Negative control: the same file with its x bit runs.  */
  chmod (noexec, 0755);
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, noexec);
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
              "the same file runs once executable");
  ash_cmd_release (&cmd);

  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, "sh");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), -EINVAL,
              "a relative argv[0] is refused (no PATH search)");
  ash_cmd_release (&cmd);
  ash_error_release (&err);

  probe_cmd (&cmd, "cwd", NULL);
  cmd.cwd = xstrdup ("/nonexistent/dir");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), -ENOENT,
              "a missing working directory fails the spawn");
  tap_ok (err.message && strstr (err.message, "/nonexistent/dir"),
          "the chdir message names the directory: %s",
          err.message ? err.message : "(null)");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
}

static void
test_env (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  setenv ("ASH_SPAWN_TEST_LEAK", "leaked", 1);
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, probe);
  ash_strvec_push (&cmd.argv, "env");
  ash_strvec_push (&cmd.env, "A=1");
  ash_strvec_push (&cmd.env, "B=two words");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "env runs");
  tap_is_str (cmd.out.buf, "A=1\nB=two words\n",
              "the environment is exactly the one given");
  ash_cmd_release (&cmd);

  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, probe);
  ash_strvec_push (&cmd.argv, "env");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "", "an empty environment stays empty");
  ash_cmd_release (&cmd);
  unsetenv ("ASH_SPAWN_TEST_LEAK");
  ash_error_release (&err);
}

static void
test_fds (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  /* Not close-on-exec: only spawn's closing keeps it from the child.  */
  int fd = open ("/dev/null", O_RDONLY);
  int fd2 = open ("/dev/null", O_RDONLY);
  tap_ok (fd > 2 && fd2 > 2, "opened descriptors without O_CLOEXEC");

  probe_cmd (&cmd, "fds", NULL);
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "", "no descriptor above 2 reaches the child");
  ash_cmd_release (&cmd);

  /* Control: a passed descriptor does reach it, so the probe can see.  */
  probe_cmd (&cmd, "fds", NULL);
  cmd.pass_fds[cmd.n_pass_fds++] = fd2;
  ash_cmd_run (&cmd, &res, &err);
  _cleanup_free_ char *want = xasprintf ("%d\n", fd2);
  tap_is_str (cmd.out.buf, want, "a passed descriptor reaches the child");
  ash_cmd_release (&cmd);

  /* Stdio from an fd.  */
  _cleanup_free_ char *path = ash_path_join (tmpdir, "out.txt");
  int out = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  probe_cmd (&cmd, "out", "to a file");
  cmd.stdout_mode = ASH_STDIO_FD;
  cmd.stdout_fd = out;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "stdout to an fd runs");
  ash_cmd_release (&cmd);
  close (out);
  char buf[64] = "";
  FILE *f = fopen (path, "r");
  if (f)
    {
      size_t n = fread (buf, 1, sizeof buf - 1, f);
      buf[n] = '\0';
      fclose (f);
    }
  tap_is_str (buf, "to a file", "ASH_STDIO_FD writes to the given fd");

  /* Stdin from an fd, stdout swapped onto stderr's fd number.  */
  int in = open (path, O_RDONLY | O_CLOEXEC);
  probe_cmd (&cmd, "stdin", NULL);
  cmd.stdin_mode = ASH_STDIO_FD;
  cmd.stdin_fd = in;
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "to a file", "ASH_STDIO_FD feeds stdin");
  ash_cmd_release (&cmd);
  close (in);

  probe_cmd (&cmd, "stdin", NULL);
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "", "ASH_STDIO_NULL stdin reads nothing");
  ash_cmd_release (&cmd);

  close (fd);
  close (fd2);
  ash_error_release (&err);
}

static void
test_cwd_capture_signals (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  probe_cmd (&cmd, "cwd", NULL);
  cmd.cwd = xstrdup (tmpdir);
  ash_cmd_run (&cmd, &res, &err);
  _cleanup_free_ char *real = realpath (tmpdir, NULL);
  tap_is_str (cmd.out.buf, real, "the child runs in cwd");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "out", "hello");
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "hello", "stdout is captured");
  tap_is_str (cmd.err.buf, "", "stderr stays empty");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "err", "oops");
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.err.buf, "oops", "stderr is captured");
  tap_is_str (cmd.out.buf, "", "stdout stays empty");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "flood", "1000000");
  ash_cmd_run (&cmd, &res, &err);
  tap_is_int (cmd.out.len, 1000000, "a megabyte is captured whole");
  tap_ok (!res.out_truncated, "and not marked truncated");
  ash_cmd_release (&cmd);

  probe_cmd (&cmd, "flood", "1000000");
  cmd.out.max = 10;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
              "a child writing past the bound is not blocked");
  tap_is_int (res.status, 0, "and exits normally");
  tap_is_str (cmd.out.buf, "xxxxxxxxxx", "capture stops at out.max");
  tap_ok (res.out_truncated, "the capture is marked truncated");
  ash_cmd_release (&cmd);

  /* ASH's own ignored signals and mask do not reach the child.  */
  struct sigaction ign, old;
  memset (&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigaction (SIGPIPE, &ign, &old);
  sigset_t usr1, oldmask;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &usr1, &oldmask);
  probe_cmd (&cmd, "signals", NULL);
  ash_cmd_run (&cmd, &res, &err);
  tap_is_str (cmd.out.buf, "pipe=dfl usr1=unblocked",
              "signal dispositions and mask are reset");
  ash_cmd_release (&cmd);
  pthread_sigmask (SIG_SETMASK, &oldmask, NULL);
  sigaction (SIGPIPE, &old, NULL);
  ash_error_release (&err);
}

static void
test_timeout (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  /* The grandchild is in the same process group.  */
  sh_cmd (&cmd, "sleep 1000 & echo $!; wait");
  cmd.timeout_sec = 1;
  cmd.kill_grace_sec = 1;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "a hanging child runs");
  tap_ok (res.timed_out, "it is timed out");
  tap_is_int (res.term_signal, SIGTERM, "it ended by SIGTERM");
  tap_is_int (res.status, 128 + SIGTERM, "status is 143");
  pid_t gc = read_pid (cmd.out.buf);
  tap_ok (gc > 0 && process_gone (gc), "its grandchild (%d) is gone too",
          (int) gc);
  ash_cmd_release (&cmd);

  /* Every member ignores SIGTERM: only SIGKILL after the grace ends it.  */
  sh_cmd (&cmd, "trap '' TERM; sleep 1000 & echo $!; "
                "while :; do wait; done");
  cmd.timeout_sec = 1;
  cmd.kill_grace_sec = 1;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
              "a SIGTERM-ignoring child runs");
  tap_ok (res.timed_out, "it is timed out");
  tap_is_int (res.term_signal, SIGKILL, "it ended by SIGKILL");
  gc = read_pid (cmd.out.buf);
  tap_ok (gc > 0 && process_gone (gc),
          "its SIGTERM-ignoring grandchild (%d) is gone too", (int) gc);
  ash_cmd_release (&cmd);

  /* Control: a child that finishes in time is not timed out.  */
  probe_cmd (&cmd, "exit", "3");
  cmd.timeout_sec = 100;
  ash_cmd_run (&cmd, &res, &err);
  tap_ok (!res.timed_out && res.status == 3,
          "a child within its timeout is not timed out");
  ash_cmd_release (&cmd);

  /* What the leader leaves behind in its group is ended when it exits.  */
  sh_cmd (&cmd, "sleep 1000 & echo $!");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
              "a leader leaving a background child returns");
  tap_is_int (res.status, 0, "with its own status");
  gc = read_pid (cmd.out.buf);
  tap_ok (gc > 0 && process_gone (gc), "its leftover (%d) is ended", (int) gc);
  ash_cmd_release (&cmd);
  ash_error_release (&err);
}

/* A SIGCHLD that ASH inherited ignored (or with SA_NOCLDWAIT) makes the
   kernel reap children itself: their status would be lost.  */
static void
test_sigchld_ignored (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;
  struct sigaction ign, old;

  memset (&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset (&ign.sa_mask);
  sigaction (SIGCHLD, &ign, &old);
  probe_cmd (&cmd, "exit", "42");
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
              "with SIGCHLD ignored, a command runs");
  tap_is_int (res.status, 42, "and its exit status 42 is reported");
  ash_cmd_release (&cmd);
  probe_cmd (&cmd, "raise", "15");
  ash_cmd_run (&cmd, &res, &err);
  tap_is_int (res.status, 128 + 15,
              "and a death by SIGTERM is reported as 143");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  sigaction (SIGCHLD, &old, NULL);
}

struct straggler_arg
{
  const char *script;
  int rc;
  struct ash_cmd_result res;
  size_t out_len;
  atomic_bool done;
};

static void *
straggler_main (void *p)
{
  struct straggler_arg *a = p;
  struct ash_cmd cmd;
  struct ash_error err = ASH_ERROR_INIT;
  sh_cmd (&cmd, a->script);
  a->rc = ash_cmd_run (&cmd, &a->res, &err);
  a->out_len = cmd.out.len;
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  atomic_store (&a->done, true);
  return NULL;
}

/* A process that left the command's process group and keeps writing to
   the captured stdout must not keep ash_cmd_run() from returning once the
   command itself has exited.  */
static void
test_straggler_writer (void)
{
  _cleanup_free_ char *pidfile = ash_path_join (tmpdir, "straggler.pid");
  _cleanup_free_ char *script
    = xasprintf ("setsid /bin/sh -c 'echo $$ > \"$0\"; exec yes' '%s' & "
                 "while [ ! -s '%s' ]; do sleep 0.01; done; echo leader-done",
                 pidfile, pidfile);
  struct straggler_arg a = { script, 1, { 0 }, 0, false };
  pthread_t t;

  pthread_create (&t, NULL, straggler_main, &a);
  /* Up to 30 s for ash_cmd_run() to return on its own; then end the
     straggler, which lets a stuck one return too.  */
  for (int i = 0; i < 3000 && !atomic_load (&a.done); i++)
    sleep_ms (10);
  bool returned = atomic_load (&a.done);
  FILE *f = fopen (pidfile, "r");
  int spid = 0;
  if (f)
    {
      if (fscanf (f, "%d", &spid) != 1)
        spid = 0;
      fclose (f);
    }
  if (spid > 0)
    kill (-spid, SIGKILL); /* its session's process group */
  pthread_join (t, NULL);
  tap_ok (spid > 0, "the straggler started (%d)", spid);
  tap_ok (returned, "ash_cmd_run() returned while a straggler outside the "
                    "group still wrote to its stdout");
  tap_ok (a.rc == 0 && a.res.status == 0, "the command's status is 0");
  tap_ok (a.out_len > 0, "its output was captured (%zu bytes)", a.out_len);
}

static bool
file_exists (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0;
}

static int wrap_calls, cleanup_calls;
static bool cleanup_saw_wrapped;

static struct ash_wrap_state fake_state;

static int
fake_wrap (const struct ash_probe *p, const struct ash_policy *policy,
           struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
           struct ash_error *reterr)
{
  wrap_calls++;
  *ret_state = &fake_state;
  ash_strvec_insert (&cmd->argv, 0, "/bin/sh");
  ash_strvec_insert (&cmd->argv, 1, "-c");
  ash_strvec_insert (&cmd->argv, 2, "printf 'wrapped:%s' \"$*\"");
  ash_strvec_insert (&cmd->argv, 3, "sh");
  ash_strvec_setenv (&cmd->env, "WRAPPED", "1");
  return 0;
}

static void
fake_cleanup (struct ash_wrap_state *state)
{
  cleanup_calls++;
  cleanup_saw_wrapped = state == &fake_state;
}

static int
failing_wrap (const struct ash_probe *p, const struct ash_policy *policy,
              struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
              struct ash_error *reterr)
{
  *ret_state = NULL;
  wrap_calls++;
  return ash_error_set (reterr, -EACCES, "the fake backend says no");
}

static void
test_scopes (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *marker = ash_path_join (tmpdir, "marker");
  _cleanup_free_ char *script = xasprintf ("echo x > '%s'", marker);

  struct ash_error why = ASH_ERROR_INIT;
  ash_error_set (&why, -EPERM, "sandbox refused: no backend works");
  why.kind = ASH_KIND_SANDBOX_REFUSED;
  struct ash_scope refuse = { ASH_SCOPE_REFUSE, NULL, NULL, NULL, &why };
  sh_cmd (&cmd, script);
  cmd.scope = &refuse;
  tap_is_int (ash_sandbox_run (&cmd, &res, &err), -EPERM,
              "a refusing scope fails with -EPERM");
  tap_is_str (err.message, "sandbox refused: no backend works",
              "with the scope's reason");
  tap_is_str (ash_error_kind_name (err.kind), "SandboxRefused",
              "and its kind");
  ash_error_release (&why);
  tap_ok (!file_exists (marker), "and runs nothing");
  ash_cmd_release (&cmd);
  ash_error_release (&err);

  struct ash_scope none = { ASH_SCOPE_NONE, NULL, NULL, NULL, NULL };
  sh_cmd (&cmd, script);
  cmd.scope = &none;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "a NONE scope runs");
  tap_ok (file_exists (marker), "control: it creates the marker");
  ash_cmd_release (&cmd);
  unlink (marker);

  struct ash_backend fake
    = { .name = "fake", .wrap = fake_wrap, .cleanup = fake_cleanup };
  struct ash_scope sandbox = { ASH_SCOPE_SANDBOX, &fake, NULL, NULL, NULL };
  probe_cmd (&cmd, "out", "ignored");
  cmd.scope = &sandbox;
  wrap_calls = cleanup_calls = 0;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), -EPERM,
              "the process layer refuses a sandbox scope");
  tap_is_int (wrap_calls, 0, "without calling wrap()");
  tap_is_int ((int) cmd.out.len, 0, "and runs nothing");
  ash_error_release (&err);
  tap_is_int (ash_sandbox_run (&cmd, &res, &err), 0, "a sandbox scope runs");
  _cleanup_free_ char *want = xasprintf ("wrapped:%s out ignored", probe);
  tap_is_str (cmd.out.buf, want, "wrap() rewrote the command");
  tap_is_int (wrap_calls, 1, "wrap() was called once");
  tap_is_int (cleanup_calls, 1, "cleanup() was called once");
  tap_ok (cleanup_saw_wrapped, "cleanup() got the state wrap() returned");
  tap_is_str (cmd.argv.v[0], probe, "the caller's command is unchanged");
  tap_ok (ash_strvec_getenv (&cmd.env, "WRAPPED") == NULL,
          "the caller's environment is unchanged");
  ash_cmd_release (&cmd);

  struct ash_backend no
    = { .name = "no", .wrap = failing_wrap, .cleanup = fake_cleanup };
  struct ash_scope sandbox_no = { ASH_SCOPE_SANDBOX, &no, NULL, NULL, NULL };
  sh_cmd (&cmd, script);
  cmd.scope = &sandbox_no;
  wrap_calls = cleanup_calls = 0;
  tap_is_int (ash_sandbox_run (&cmd, &res, &err), -EACCES,
              "a wrap failure fails the spawn");
  tap_is_str (err.message, "the fake backend says no",
              "with the wrap's message");
  tap_ok (!file_exists (marker), "and runs nothing");
  tap_is_int (cleanup_calls, 0, "cleanup() is not called after a failure");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
}

/* A backend whose wrap() leaves the command as it is.  */
static int
passthrough_wrap (const struct ash_probe *p, const struct ash_policy *policy,
                  struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
                  struct ash_error *reterr)
{
  (void) p;
  (void) policy;
  (void) cmd;
  (void) reterr;
  wrap_calls++;
  *ret_state = NULL;
  return 0;
}

/* The backend's running(): how often it was called, and with which
   state.  */
static int running_calls;
static bool running_saw_state;
static struct ash_wrap_state running_state;

static int
running_wrap (const struct ash_probe *p, const struct ash_policy *policy,
              struct ash_cmd *cmd, struct ash_wrap_state **ret_state,
              struct ash_error *reterr)
{
  int r = passthrough_wrap (p, policy, cmd, ret_state, reterr);
  *ret_state = &running_state;
  return r;
}

static void
fake_running (struct ash_wrap_state *state)
{
  running_calls++;
  running_saw_state = state == &running_state;
}

/* What while_running() was handed: the pipe's write end, closed once
   "go" is written to it, how often it was called and how often the
   backend's running() had been by then.  */
struct hook_arg
{
  int fd;
  int calls;
  int running_before;
};

static void
hook_go (void *arg)
{
  struct hook_arg *h = arg;

  h->calls++;
  h->running_before = running_calls;
  if (h->fd >= 0)
    {
      if (write (h->fd, "go\n", 3) != 3)
        tap_diag ("cannot write to the pipe: %s", strerror (errno));
      close (h->fd);
      h->fd = -1;
    }
}

/* ash_cmd.while_running: called once, while the program runs (the
   program waits for what it writes: were it called after the wait, the
   program would wait until its timeout), also through a sandbox scope;
   never for a program that did not start.  */
static void
test_while_running (void)
{
  struct ash_backend pass = { .name = "pass",
                              .wrap = running_wrap,
                              .cleanup = fake_cleanup,
                              .running = fake_running };
  struct ash_scope sandbox = { ASH_SCOPE_SANDBOX, &pass, NULL, NULL, NULL };

  for (int scoped = 0; scoped < 2; scoped++)
    {
      const char *how = scoped ? "through a sandbox scope" : "unconfined";
      struct ash_cmd cmd;
      struct ash_cmd_result res;
      struct ash_error err = ASH_ERROR_INIT;
      struct hook_arg h = { -1, 0, -1 };
      int p[2], r;

      if (pipe2 (p, O_CLOEXEC) < 0)
        {
          tap_ok (false, "while_running %s: pipe: %s", how, strerror (errno));
          continue;
        }
      sh_cmd (&cmd, "read line && echo \"got $line\"");
      cmd.stdin_mode = ASH_STDIO_FD;
      cmd.stdin_fd = p[0];
      cmd.timeout_sec = 10;
      cmd.while_running = hook_go;
      cmd.while_running_arg = &h;
      h.fd = p[1];
      if (scoped)
        cmd.scope = &sandbox;
      wrap_calls = running_calls = 0;
      running_saw_state = false;
      r = scoped ? ash_sandbox_run (&cmd, &res, &err)
                 : ash_cmd_run (&cmd, &res, &err);
      close (p[0]);
      if (h.fd >= 0)
        close (h.fd);
      tap_is_int (r, 0, "while_running %s: the program ran", how);
      tap_is_int (h.calls, 1, "while_running %s: called once", how);
      tap_ok (!res.timed_out && res.status == 0,
              "while_running %s: called while the program ran (status %d%s)",
              how, res.status, res.timed_out ? ", timed out" : "");
      tap_is_str (cmd.out.buf, "got go\n",
                  "while_running %s: the program read what it wrote", how);
      if (scoped)
        {
          tap_is_int (wrap_calls, 1, "while_running %s: wrap() ran", how);
          tap_is_int (running_calls, 1,
                      "while_running %s: the backend's running() ran once",
                      how);
          tap_ok (running_saw_state,
                  "while_running %s: running() got wrap()'s state", how);
          tap_is_int (h.running_before, 1,
                      "while_running %s: running() ran before the hook", how);
        }
      ash_cmd_release (&cmd);
      ash_error_release (&err);
    }

  /* A program that never starts: neither the hook nor, through a
     sandbox scope, the backend's running().  */
  for (int scoped = 0; scoped < 2; scoped++)
    {
      const char *how = scoped ? "through a sandbox scope" : "unconfined";
      struct ash_cmd cmd;
      struct ash_cmd_result res;
      struct ash_error err = ASH_ERROR_INIT;
      struct hook_arg h = { -1, 0, -1 };
      int r;

      ash_cmd_init (&cmd);
      ash_strvec_push (&cmd.argv, "/nonexistent/ash-no-such-tool");
      cmd.while_running = hook_go;
      cmd.while_running_arg = &h;
      if (scoped)
        cmd.scope = &sandbox;
      running_calls = 0;
      r = scoped ? ash_sandbox_run (&cmd, &res, &err)
                 : ash_cmd_run (&cmd, &res, &err);
      tap_is_int (r, -ENOENT, "while_running %s: a missing program fails",
                  how);
      tap_is_int (h.calls, 0,
                  "while_running %s: not called when nothing started", how);
      if (scoped)
        tap_is_int (running_calls, 0,
                    "while_running %s: nor the backend's running()", how);
      ash_cmd_release (&cmd);
      ash_error_release (&err);
    }
}

struct thread_arg
{
  int id;
  int failures;
};

static void *
thread_main (void *p)
{
  struct thread_arg *a = p;
  for (int i = 0; i < 20; i++)
    {
      struct ash_cmd cmd;
      struct ash_cmd_result res;
      struct ash_error err = ASH_ERROR_INIT;
      char text[32];
      snprintf (text, sizeof text, "t%d-%d", a->id, i);
      probe_cmd (&cmd, "out", text);
      if (ash_cmd_run (&cmd, &res, &err) < 0 || res.status != 0
          || !streq (cmd.out.buf, text))
        a->failures++;
      ash_cmd_release (&cmd);
      ash_error_release (&err);
    }
  return NULL;
}

static void
test_threads (void)
{
  pthread_t t[8];
  struct thread_arg a[8];
  for (int i = 0; i < 8; i++)
    {
      a[i] = (struct thread_arg){ i, 0 };
      pthread_create (&t[i], NULL, thread_main, &a[i]);
    }
  int failures = 0;
  for (int i = 0; i < 8; i++)
    {
      pthread_join (t[i], NULL);
      failures += a[i].failures;
    }
  tap_is_int (failures, 0, "160 runs from 8 threads each get their output");
}

struct hang_arg
{
  const char *script;
  int rc;
  struct ash_cmd_result res;
  char *out;
};

static void *
hang_main (void *p)
{
  struct hang_arg *a = p;
  struct ash_cmd cmd;
  struct ash_error err = ASH_ERROR_INIT;
  sh_cmd (&cmd, a->script);
  cmd.kill_grace_sec = 1;
  a->rc = ash_cmd_run (&cmd, &a->res, &err);
  a->out = ash_buf_detach (&cmd.out);
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  return NULL;
}

static void
test_terminate_all (void)
{
  _cleanup_free_ char *m1 = ash_path_join (tmpdir, "started1");
  _cleanup_free_ char *m2 = ash_path_join (tmpdir, "started2");
  _cleanup_free_ char *s1
    = xasprintf ("sleep 1000 & echo $!; : > '%s'; wait", m1);
  _cleanup_free_ char *s2
    = xasprintf ("trap '' TERM; : > '%s'; while :; do sleep 1; done", m2);
  struct hang_arg a1 = { s1, 1, { 0 }, NULL };
  struct hang_arg a2 = { s2, 1, { 0 }, NULL };
  pthread_t t1, t2;
  pthread_create (&t1, NULL, hang_main, &a1);
  pthread_create (&t2, NULL, hang_main, &a2);
  for (int i = 0; i < 3000 && !(file_exists (m1) && file_exists (m2)); i++)
    sleep_ms (10);
  tap_ok (file_exists (m1) && file_exists (m2), "two children started");
  ash_spawn_terminate_all ();
  pthread_join (t1, NULL);
  pthread_join (t2, NULL);
  tap_is_int (a1.rc, 0, "the first ran");
  tap_ok (a1.res.interrupted && !a1.res.timed_out,
          "it is reported interrupted");
  tap_is_int (a1.res.term_signal, SIGTERM, "it ended by SIGTERM");
  pid_t gc = read_pid (a1.out ? a1.out : "");
  tap_ok (gc > 0 && process_gone (gc), "its grandchild is gone");
  tap_ok (a2.res.interrupted, "the SIGTERM-ignoring one is interrupted");
  tap_is_int (a2.res.term_signal, SIGKILL, "and ended by SIGKILL");
  free (a1.out);
  free (a2.out);

  /* Commands started afterwards run normally.  */
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;
  probe_cmd (&cmd, "exit", "5");
  ash_cmd_run (&cmd, &res, &err);
  tap_ok (res.status == 5 && !res.interrupted,
          "a command started after terminate_all runs normally");
  ash_cmd_release (&cmd);
}

/* ---- how the child starts ------------------------------------------------ */

static atomic_int handled_count;

static void
count_signal (int sig _unused_)
{
  atomic_fetch_add (&handled_count, 1);
}

/* How many descriptors this process has open.  */
static int
open_fd_count (void)
{
  int n = 0;
  for (int fd = 0; fd < 4096; fd++)
    if (fcntl (fd, F_GETFD) >= 0)
      n++;
  return n;
}

/* Does this process have a child that exited and was not reaped?  */
static bool
zombie_left (void)
{
  siginfo_t si;
  memset (&si, 0, sizeof si);
  if (waitid (P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
    return false; /* ECHILD: no child at all */
  return si.si_pid != 0;
}

/* Threads that sleep while a test runs, so that the spawns below are
   made from a multi-threaded process, as in a scan.  */
struct sleepers
{
  pthread_t t[4];
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool stop;
};

static void *
sleeper (void *arg)
{
  struct sleepers *s = arg;
  pthread_mutex_lock (&s->lock);
  while (!s->stop)
    pthread_cond_wait (&s->cond, &s->lock);
  pthread_mutex_unlock (&s->lock);
  return NULL;
}

/* The real, effective, saved and file-system user ids of every thread of
   this process are 0.  */
static bool
all_threads_root (void)
{
  DIR *d = opendir ("/proc/self/task");
  struct dirent *de;
  bool ok = d != NULL;
  while (ok && (de = readdir (d)) != NULL)
    {
      if (de->d_name[0] == '.')
        continue;
      char line[256];
      _cleanup_free_ char *path
        = xasprintf ("/proc/self/task/%s/status", de->d_name);
      FILE *f = fopen (path, "r");
      if (!f)
        continue; /* the thread ended */
      while (fgets (line, sizeof line, f))
        if (strncmp (line, "Uid:", 4) == 0 || strncmp (line, "Gid:", 4) == 0)
          {
            unsigned a, b, c, e;
            if (sscanf (line + 4, "%u %u %u %u", &a, &b, &c, &e) != 4 || a || b
                || c || e)
              ok = false;
          }
      fclose (f);
    }
  if (d)
    closedir (d);
  return ok;
}

static void
test_child_start (void)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;

  /* A handler of ASH's is never run in the child, which gets the default
     disposition for that signal (and for an ignored one).  */
  struct sigaction sa, old_usr2, old_hup;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = count_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR2, &sa, &old_usr2);
  sa.sa_handler = SIG_IGN;
  sigaction (SIGHUP, &sa, &old_hup);
  probe_cmd (&cmd, "handled", NULL);
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0, "the probe runs");
  tap_is_str (cmd.out.buf, "usr2=dfl hup=dfl",
              "a handled and an ignored signal are at their default in the "
              "child");
  ash_cmd_release (&cmd);
  /* Control: the probe tells a handler from the default.  */
  raise (SIGUSR2);
  tap_is_int (atomic_load (&handled_count), 1,
              "control: the handler is installed here");
  sigaction (SIGUSR2, &old_usr2, NULL);
  sigaction (SIGHUP, &old_hup, NULL);

  /* A failure in the child's set-up, after the start (joining a control
     group through a descriptor that cannot be written): the spawn fails
     with the child's errno, and nothing runs.  */
  _cleanup_free_ char *marker = ash_path_join (tmpdir, "setup-marker");
  _cleanup_free_ char *script = xasprintf ("touch '%s'", marker);
  int ro = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  int before = open_fd_count ();
  sh_cmd (&cmd, script);
  cmd.limits.cgroup_procs_fd[0] = ro;
  cmd.limits.n_cgroup_procs_fds = 1;
  tap_is_int (ash_cmd_run (&cmd, &res, &err), -EBADF,
              "a failure in the child's set-up fails the spawn");
  tap_is_str (err.message,
              "cannot run '/bin/sh': cannot set up the child process: Bad "
              "file descriptor",
              "with the child's error");
  tap_ok (!file_exists (marker), "and runs nothing");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  sh_cmd (&cmd, script);
  tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
              "control: the same command without it runs");
  tap_ok (file_exists (marker), "and creates the marker");
  ash_cmd_release (&cmd);

  /* Every way a spawn can end leaves no descriptor and no zombie behind
     in ASH.  */
  for (int i = 0; i < 5; i++)
    {
      probe_cmd (&cmd, "exit", "3");
      ash_cmd_run (&cmd, &res, &err);
      ash_cmd_release (&cmd);
      ash_cmd_init (&cmd);
      ash_strvec_push (&cmd.argv, "/nonexistent/ash-no-such-tool");
      ash_cmd_run (&cmd, &res, &err);
      ash_cmd_release (&cmd);
      ash_error_release (&err);
      probe_cmd (&cmd, "cwd", NULL);
      cmd.cwd = xstrdup ("/nonexistent/dir");
      ash_cmd_run (&cmd, &res, &err);
      ash_cmd_release (&cmd);
      ash_error_release (&err);
      probe_cmd (&cmd, "out", "x");
      cmd.limits.cgroup_procs_fd[0] = ro;
      cmd.limits.n_cgroup_procs_fds = 1;
      ash_cmd_run (&cmd, &res, &err);
      ash_cmd_release (&cmd);
      ash_error_release (&err);
    }
  close (ro);
  tap_is_int (open_fd_count (), before - 1,
              "20 spawns, failed and not, leave no descriptor open");
  tap_ok (!zombie_left (), "and no child unreaped");

  /* The child's credentials change in the child alone, even with other
     threads running here.  */
  struct sleepers sl = { .stop = false };
  pthread_mutex_init (&sl.lock, NULL);
  pthread_cond_init (&sl.cond, NULL);
  for (int i = 0; i < 4; i++)
    pthread_create (&sl.t[i], NULL, sleeper, &sl);
  probe_cmd (&cmd, "ids", NULL);
  cmd.set_ids = true;
  if (geteuid () == 0)
    {
      cmd.user_id = 65534;
      cmd.group_id = 65534;
      tap_is_int (ash_cmd_run (&cmd, &res, &err), 0,
                  "as root, a command with set_ids runs");
      tap_is_str (cmd.out.buf, "65534 65534 0",
                  "as the ids given, with no supplementary group");
      tap_ok (all_threads_root (), "and every thread here keeps its root ids");
    }
  else
    {
      cmd.user_id = getuid () + 1;
      cmd.group_id = getgid ();
      tap_is_int (ash_cmd_run (&cmd, &res, &err), -EPERM,
                  "unprivileged, set_ids to another user fails the spawn");
      tap_ok (err.message
                && strstr (err.message, "cannot set up the child process"),
              "as a set-up failure: %s", err.message ? err.message : "(null)");
      tap_is_str (cmd.out.buf, "", "and runs nothing");
    }
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  /* Control: without set_ids, the probe reports this process's ids.  */
  probe_cmd (&cmd, "ids", NULL);
  ash_cmd_run (&cmd, &res, &err);
  _cleanup_free_ char *own
    = xasprintf ("%d %d", (int) getuid (), (int) getgid ());
  tap_ok (strncmp (cmd.out.buf, own, strlen (own)) == 0,
          "control: without set_ids the child has our ids (%s)", cmd.out.buf);
  ash_cmd_release (&cmd);
  pthread_mutex_lock (&sl.lock);
  sl.stop = true;
  pthread_cond_broadcast (&sl.cond);
  pthread_mutex_unlock (&sl.lock);
  for (int i = 0; i < 4; i++)
    pthread_join (sl.t[i], NULL);
}

int
main (void)
{
  const char *b = getenv ("top_builddir");
  _cleanup_free_ char *builddir = ash_path_absolute (b ? b : ".");
  probe = ash_path_join (builddir, "tests/fixtures/spawn-probe");
  if (access (probe, X_OK) < 0)
    {
      printf ("Bail out! %s is missing\n", probe);
      return 99;
    }
  char tmpl[] = "/tmp/ash-test-spawn.XXXXXX";
  tmpdir = mkdtemp (tmpl);
  if (!tmpdir)
    return 99;

  test_status ();
  test_exec_failure ();
  test_env ();
  test_fds ();
  test_cwd_capture_signals ();
  test_timeout ();
  test_sigchld_ignored ();
  test_straggler_writer ();
  test_scopes ();
  test_while_running ();
  test_threads ();
  test_terminate_all ();
  test_child_start ();

  struct ash_cmd cmd;
  struct ash_cmd_result res;
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, "/bin/rm");
  ash_strvec_push (&cmd.argv, "-rf");
  ash_strvec_push (&cmd.argv, tmpdir);
  ash_cmd_run (&cmd, &res, NULL);
  ash_cmd_release (&cmd);
  free (probe);
  return tap_done ();
}
