/* SPDX-License-Identifier: Apache-2.0 */
/* test-backend-run.c -- run one command under one Linux backend, as a
   scanner would be run, for the shell tests of the sandbox.

   test-backend-run --backend NAME --results DIR [--source DIR]
                    [--output DIR] [--read PATH]... [--network]
                    [--env NAME=VALUE]... [--timeout SECONDS] [--cwd DIR]
                    [--probe-only | --print-argv [--print-fds]]
                    [--before-wrap SCRIPT] [--after-wrap SCRIPT]
                    -- COMMAND [ARG]...

   NAME is bwrap, firejail, landlock, or off (no sandbox: the command gets
   this program's whole environment, as a scanner does with --sandbox off).
   The policy is the one lib/sandbox/policy.c computes for a plugin scanner
   that declares nothing but, with --network, a network: the system and tool
   directories read-only (and each --read, as the operator's
   sandbox.extra_read_paths), the source and output directories as data, the
   results directory writable, a private HOME and TMPDIR, and the filtered
   environment plus the --env variables.  The helper is looked up in
   $ASH_HELPER_DIR.  --probe-only stops after the probe;
   --print-argv prints the command line the backend would run, one line
   with words separated by spaces, and runs nothing (for bench/; the
   Landlock private directories are then left for that command to use).
   With --print-fds, a line before it gives the descriptors that command
   line names, as shell redirections that open them again from the paths
   they were opened on ("3<'/etc' 4<'/usr'"), for a shell to open before
   it runs the command; the Landlock private directories are then left
   for that command (under $TMPDIR).  The socket filter ash hands the
   Landlock wrapper as a sealed memfd (--seccomp-fd N) cannot be opened
   again by a shell, nor the pipe the wrapper says it started on
   (--ready-fd N): --print-argv leaves both out, and the printed command
   is the wrapper as it runs standalone, building the filter itself.
   --after-wrap runs /bin/sh -c SCRIPT, unsandboxed, after the backend's
   wrap() has opened and checked the paths and before the wrapped command
   starts (what a local user racing ash could do then, made
   deterministic); it must exit 0.  --before-wrap runs SCRIPT the same
   way after the policy is computed and before wrap().  Exit status: the
   command's; 77 with the probe's reason on stdout when the backend is
   unavailable.  */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/stat.h>

#include "proc/spawn.h"
#include "sandbox/requirements.h"
#ifdef __APPLE__
#include "../../darwin/backends.h"
#else
#include "../../linux/backends.h"
#endif

extern char **environ;

/* Print CMD's descriptors as one line of shell redirections that open
   each again from the path it was opened on; -1 (with a message) when one
   has no such path or the path needs quoting.  */
/* Whether WORD is an option of the wrapper's whose descriptor a shell
   cannot open again: the sealed memfd of --seccomp-fd, the pipe of
   --ready-fd.  Both are left out of what --print-argv prints.  */
static bool
unprintable_fd_option (const char *word)
{
  return strcmp (word, "--seccomp-fd") == 0
         || strcmp (word, "--ready-fd") == 0;
}

/* Whether CMD's argv names FD with one of those options.  */
static bool
unprintable_fd (const struct ash_cmd *cmd, int fd)
{
  for (size_t i = 0; i + 1 < cmd->argv.nr; i++)
    if (unprintable_fd_option (cmd->argv.v[i])
        && atoi (cmd->argv.v[i + 1]) == fd)
      return true;
  return false;
}

static int
print_redirections (const struct ash_cmd *cmd)
{
  bool first = true;

  for (size_t i = 0; i < cmd->n_pass_fds; i++)
    {
      char link[64], path[PATH_MAX];

      if (unprintable_fd (cmd, cmd->pass_fds[i]))
        continue;
      snprintf (link, sizeof link, "/proc/self/fd/%d", cmd->pass_fds[i]);
      ssize_t n = readlink (link, path, sizeof path - 1);
      if (n <= 0 || path[0] != '/' || memchr (path, '\'', (size_t) n))
        {
          fprintf (stderr,
                   "test-backend-run: descriptor %d has no path to open it "
                   "again from\n",
                   cmd->pass_fds[i]);
          return -1;
        }
      path[n] = '\0';
      printf ("%s%d<'%s'", first ? "" : " ", cmd->pass_fds[i], path);
      first = false;
    }
  printf ("\n");
  return 0;
}

/* Run /bin/sh -c SCRIPT, unsandboxed; -1 unless it exits 0.  */
static int
run_hook (const char *script)
{
  struct ash_cmd hook;
  struct ash_cmd_result hres;
  struct ash_error e = ASH_ERROR_INIT;
  int r;

  ash_cmd_init (&hook);
  ash_strvec_push (&hook.argv, "/bin/sh");
  ash_strvec_push (&hook.argv, "-c");
  ash_strvec_push (&hook.argv, script);
  ash_strvec_pushv (&hook.env, environ);
  hook.stdout_mode = ASH_STDIO_INHERIT;
  hook.stderr_mode = ASH_STDIO_INHERIT;
  memset (&hres, 0, sizeof hres);
  r = ash_cmd_run (&hook, &hres, &e);
  ash_cmd_release (&hook);
  ash_error_release (&e);
  if (r < 0 || hres.status != 0)
    {
      fprintf (stderr, "test-backend-run: the hook script failed\n");
      return -1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "backend", required_argument, NULL, 'b' },
    { "results", required_argument, NULL, 'r' },
    { "source", required_argument, NULL, 's' },
    { "output", required_argument, NULL, 'o' },
    { "read", required_argument, NULL, 'R' },
    { "network", no_argument, NULL, 'n' },
    { "env", required_argument, NULL, 'e' },
    { "timeout", required_argument, NULL, 't' },
    { "cwd", required_argument, NULL, 'c' },
    { "probe-only", no_argument, NULL, 'P' },
    { "print-argv", no_argument, NULL, 'A' },
    { "print-fds", no_argument, NULL, 'F' },
    { "after-wrap", required_argument, NULL, 'W' },
    { "before-wrap", required_argument, NULL, 'B' },
    { NULL, 0, NULL, 0 },
  };
  static const struct ash_backend *const backends[] = {
#ifdef __APPLE__
    &ash_backend_sandbox_exec,
    NULL,
#else
    &ash_backend_bwrap,
    &ash_backend_firejail,
    &ash_backend_landlock,
    NULL,
#endif
  };
  const char *backend_name = NULL, *results = NULL, *source = NULL;
  const char *output = NULL, *cwd = NULL, *after_wrap = NULL;
  const char *before_wrap = NULL;
  /* What the command is built from lives until the program exits, which
     it does on every path right after running or printing the command.  */
  static struct ash_strvec extra_env = ASH_STRVEC_INIT;
  static struct ash_strvec reads = ASH_STRVEC_INIT;
  bool network = false, probe_only = false, print_argv = false;
  bool print_fds = false;
  unsigned timeout = 0;
  static struct ash_policy policy;
  struct ash_requirements req;
  static struct ash_host host;
  struct ash_scope scope;
  static struct ash_cmd cmd;
  struct ash_cmd_result res;
  static struct ash_error err = ASH_ERROR_INIT;
  const struct ash_backend *backend = NULL;
  const struct ash_probe *probe = NULL;
  struct passwd *pw;
  const char *home = getenv ("HOME");
  int c, r;

  while ((c = getopt_long (argc, argv, "+", longopts, NULL)) != -1)
    switch (c)
      {
      case 'b':
        backend_name = optarg;
        break;
      case 'r':
        results = optarg;
        break;
      case 's':
        source = optarg;
        break;
      case 'o':
        output = optarg;
        break;
      case 'R':
        ash_strvec_push (&reads, optarg);
        break;
      case 'n':
        network = true;
        break;
      case 'e':
        ash_strvec_push (&extra_env, optarg);
        break;
      case 't':
        timeout = (unsigned) atoi (optarg);
        break;
      case 'c':
        cwd = optarg;
        break;
      case 'P':
        probe_only = true;
        break;
      case 'A':
        print_argv = true;
        break;
      case 'F':
        print_fds = true;
        break;
      case 'W':
        after_wrap = optarg;
        break;
      case 'B':
        before_wrap = optarg;
        break;
      default:
        fprintf (stderr, "test-backend-run: bad usage\n");
        return 99;
      }
  if (!backend_name || !results || optind >= argc || argv[optind][0] != '/')
    {
      fprintf (stderr, "test-backend-run: bad usage\n");
      return 99;
    }

  ash_cmd_init (&cmd);
  ash_strvec_pushv (&cmd.argv, argv + optind);
  cmd.stdin_mode = ASH_STDIO_INHERIT;
  cmd.stdout_mode = ASH_STDIO_INHERIT;
  cmd.stderr_mode = ASH_STDIO_INHERIT;
  cmd.timeout_sec = timeout;
  if (cwd)
    cmd.cwd = xstrdup (cwd);

  if (streq (backend_name, "off"))
    {
      ash_strvec_pushv (&cmd.env, environ);
      for (size_t i = 0; i < extra_env.nr; i++)
        {
          char *eq = strchr (extra_env.v[i], '=');
          if (!eq)
            continue;
          *eq = '\0';
          ash_strvec_setenv (&cmd.env, extra_env.v[i], eq + 1);
          *eq = '=';
        }
      if (probe_only || print_argv)
        {
          for (size_t i = 0; print_argv && i < cmd.argv.nr; i++)
            printf ("%s%s", i ? " " : "", cmd.argv.v[i]);
          if (print_argv)
            printf ("\n");
          return 0;
        }
    }
  else
    {
      ash_host_init (&host, NULL);
      host.helper_dir = getenv ("ASH_HELPER_DIR");
      backend
        = ash_backend_select (backend_name, backends, &host, &probe, &err);
      if (!backend)
        {
          printf ("%s\n", err.message);
          return 77;
        }
      if (probe_only)
        return 0;

      ash_requirements_init (&req);
      req.network = network;
      pw = getpwuid (getuid ());
      {
        _cleanup_free_ char *abs_results = ash_path_absolute (results);
        _cleanup_free_ char *abs_source
          = source ? ash_path_absolute (source) : NULL;
        _cleanup_free_ char *abs_output
          = output ? ash_path_absolute (output) : NULL;
        struct ash_policy_input in = {
          .scanner = "escape-probe",
          .req = &req,
          .source_dir = abs_source ? abs_source : abs_results,
          .output_dir = abs_output ? abs_output : abs_results,
          .results_dir = abs_results,
          .tool_path = cmd.argv.v[0],
          .offline = !network,
          .extra_read_paths = reads.v,
          .environ = environ,
          .home = home && home[0] == '/' ? home : NULL,
          .passwd_home = pw ? pw->pw_dir : NULL,
          .bin_path = NULL,
          .cache_overlay = ash_probe_cache_overlay (probe),
        };
        r = ash_policy_compute (&in, &policy, &err);
        if (r < 0)
          {
            fprintf (stderr, "test-backend-run: %s\n", err.message);
            return 98;
          }
      }
      ash_strvec_pushv (&policy.env, extra_env.v);

      scope.kind = ASH_SCOPE_SANDBOX;
      scope.backend = backend;
      scope.probe = probe;
      scope.policy = &policy;
      scope.refusal = NULL;
      cmd.scope = &scope;
      /* As ash_sandbox_run() does: as root, the scanner account, which
         the results directory is given to.  */
      if (geteuid () == 0 && (print_argv || after_wrap)
          && ash_sandbox_drop_root (&policy, &cmd, &err) < 0)
        {
          fprintf (stderr, "test-backend-run: %s\n", err.message);
          return 98;
        }
      if (print_argv)
        {
          struct ash_wrap_state *state = NULL;
          r = backend->wrap (probe, &policy, &cmd, &state, &err);
          /* The descriptors are open until cleanup().  */
          if (r == 0 && print_fds && print_redirections (&cmd) < 0)
            r = -EBADF;
          /* With --print-fds, the private directories stay for the
             printed command, which opens them again.  */
          if (backend->cleanup && !(print_fds && r == 0))
            backend->cleanup (state);
          if (r == -EBADF && print_fds)
            return 98;
          if (r < 0)
            {
              fprintf (stderr, "test-backend-run: %s\n", err.message);
              return 98;
            }
          for (size_t i = 0; i < cmd.argv.nr; i++)
            {
              if (unprintable_fd_option (cmd.argv.v[i]))
                {
                  i++;
                  continue;
                }
              printf ("%s%s", i ? " " : "", cmd.argv.v[i]);
            }
          printf ("\n");
          return 0;
        }
    }

  memset (&res, 0, sizeof res);
  if (before_wrap && run_hook (before_wrap) < 0)
    return 98;
  if (after_wrap && cmd.scope)
    {
      /* What ash_sandbox_run() does, with SCRIPT run between wrap() and
         the start of the wrapped command.  */
      struct ash_wrap_state *state = NULL;

      r = backend->wrap (probe, &policy, &cmd, &state, &err);
      if (r < 0)
        {
          fprintf (stderr, "test-backend-run: %s\n", err.message);
          return 98;
        }
      if (run_hook (after_wrap) < 0)
        return 98;
      cmd.scope = NULL;
      r = ash_cmd_run (&cmd, &res, &err);
      if (backend->cleanup)
        backend->cleanup (state);
    }
  else
    r = ash_sandbox_run (&cmd, &res, &err);
  if (r < 0)
    {
      fprintf (stderr, "test-backend-run: %s\n",
               err.message ? err.message : strerror (-r));
      return 98;
    }
  if (res.timed_out)
    fprintf (stderr, "test-backend-run: timed out\n");
  return res.status;
}
