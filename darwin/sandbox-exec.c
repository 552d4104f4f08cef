/* SPDX-License-Identifier: Apache-2.0 */
/* sandbox-exec.c -- the macOS backend: a Seatbelt profile per spawn, applied
   by /usr/bin/sandbox-exec.

   For every spawn, wrap() makes a private directory (mode 0700) in ASH's
   temporary directory, outside everything the profile lets the scanner
   write:

     DIR/profile.sb   the profile (lib/sandbox/seatbelt.c), read-only
     DIR/roots.pem    the exported system trust roots, for a scanner that
                      declares system_trust_roots, read-only
     DIR/tmp/         the private TMPDIR, writable
     DIR/unpack/      the unpack directory of a self-unpacking tool
                      (policy->unpack_dir_env), writable and executable

   and cleanup() removes it after the spawn.  The scanner can write only
   inside tmp/ and unpack/, so it can neither change its profile nor plant
   a link where DIR's other entries are.  Every path reaches sandbox-exec as
   a -D parameter; the profile's text holds none.  */

#include <config.h>

#include "backends.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/util.h"
#include "fs/chown.h"
#include "sandbox/backend-impl.h"
#include "sandbox/seatbelt.h"

#define PROFILE_NAME "profile.sb"
#define DIR_PREFIX "ash-sandbox-exec-"
#define ROOTS_NAME "roots.pem"

/* sandbox-exec's probe: the shared part and the program it found.  */
struct sbx_probe
{
  struct ash_probe base;
  char *tool;
};

/* What wrap() made for one spawn: the private directory, which cleanup()
   removes.  */
struct sbx_state
{
  struct ash_wrap_state base;
  char *dir;
};

static void
sbx_probe_free (struct ash_probe *p)
{
  struct sbx_probe *sp;

  if (!p)
    return;
  sp = ash_container_of (p, struct sbx_probe, base);
  ash_probe_base_release (p);
  free (sp->tool);
  free (sp);
}

/* The command that exports the system root certificates, as semgrep's
   ca-certs would run it itself.  */
static const char *const security_tool = "/usr/bin/security";
static const char *const root_keychains[] = {
  "/System/Library/Keychains/SystemRootCertificates.keychain",
  "/Library/Keychains/System.keychain",
};

/* ASH's own temporary directory, resolved: Seatbelt matches the paths the
   kernel resolves (/tmp is /private/tmp).  */
static char *
temp_base (void)
{
  const char *t = getenv ("TMPDIR");
  char *r;

  if (!t || t[0] != '/')
    t = "/tmp";
  r = realpath (t, NULL);
  return r ? r : xstrdup ("/tmp");
}

static int
rm_entry (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void) remove (path);
  return 0;
}

static void
remove_tree (const char *dir)
{
  nftw (dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* Write LEN bytes of DATA to NAME in DIRFD, created new (never through a
   link), then make it read-only.  */
static int
write_private_file (int dirfd, const char *name, const char *data, size_t len)
{
  int fd = openat (dirfd, name,
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  int r;

  if (fd < 0)
    return -errno;
  r = ash_write_all (fd, data, len);
  if (r == 0 && fchmod (fd, 0400) < 0)
    r = -errno;
  if (close (fd) < 0 && r == 0)
    r = -errno;
  return r;
}

/* Export the system trust roots into DIRFD/roots.pem, outside the sandbox.
   Returns 0 or a negative errno with ERR filled.  */
static int
export_trust_roots (int dirfd, struct ash_error *err)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res = { 0 };
  int r;

  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, security_tool);
  ash_strvec_push (&cmd.argv, "find-certificate");
  ash_strvec_push (&cmd.argv, "-a");
  ash_strvec_push (&cmd.argv, "-p");
  for (size_t i = 0; i < ARRAY_SIZE (root_keychains); i++)
    ash_strvec_push (&cmd.argv, root_keychains[i]);
  ash_strvec_push (&cmd.env, "PATH=/usr/bin:/bin");
  ash_strvec_push (&cmd.env, "LC_ALL=C");
  cmd.cwd = xstrdup ("/");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  cmd.stderr_mode = ASH_STDIO_CAPTURE;
  cmd.out.max = 16 * 1024 * 1024;
  cmd.err.max = 64 * 1024;
  cmd.timeout_sec = 60;
  r = ash_cmd_run (&cmd, &res, err);
  if (r >= 0 && (res.status != 0 || res.out_truncated || cmd.out.len == 0))
    r = ash_error_set (err, -EIO,
                       _ ("cannot export the system trust roots: '%s "
                          "find-certificate' exited with status %d"),
                       security_tool, res.status);
  else if (r < 0)
    ash_error_prefix (err, _ ("cannot export the system trust roots"));
  if (r >= 0)
    {
      r = write_private_file (dirfd, ROOTS_NAME, cmd.out.buf, cmd.out.len);
      if (r < 0)
        ash_error_set (err, r, _ ("cannot write the system trust roots: %s"),
                       strerror (-r));
    }
  ash_cmd_release (&cmd);
  return r;
}

static int
sandbox_exec_wrap (const struct ash_probe *base_probe,
                   const struct ash_policy *policy, struct ash_cmd *cmd,
                   struct ash_wrap_state **ret_state, struct ash_error *err)
{
  const struct sbx_probe *probe
    = base_probe ? ash_container_of (base_probe, const struct sbx_probe, base)
                 : NULL;
  struct sbx_state *state;
  _cleanup_free_ char *base = NULL, *tmpl = NULL, *tmpdir = NULL;
  _cleanup_free_ char *unpack = NULL, *roots = NULL, *profile = NULL;
  _cleanup_close_ int dirfd = -1;
  struct ash_seatbelt sb;
  struct ash_strvec argv = ASH_STRVEC_INIT, env = ASH_STRVEC_INIT;
  bool want_roots;
  int r;

  *ret_state = NULL;
  if (policy->refusal.message)
    return ash_policy_refused (policy, err);
  if (!probe || !probe->base.usable || !probe->tool)
    return ash_error_set (err, -EINVAL, _ ("sandbox-exec is not usable here"));
  if (cmd->argv.nr == 0 || cmd->argv.v[0][0] != '/')
    return ash_error_set (err, -EINVAL,
                          _ ("a sandboxed command must start with an "
                             "absolute path"));

  base = temp_base ();
  tmpl = xasprintf ("%s/" DIR_PREFIX "XXXXXX", base);
  if (!mkdtemp (tmpl))
    return ash_error_set (err, -errno,
                          _ ("cannot make the sandbox's private directory in "
                             "%s: %s"),
                          base, strerror (errno));
  dirfd = open (tmpl, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dirfd < 0)
    {
      r = ash_error_set (err, -errno, _ ("cannot open %s: %s"), tmpl,
                         strerror (errno));
      goto fail;
    }
  tmpdir = ash_path_join (tmpl, "tmp");
  if (mkdirat (dirfd, "tmp", 0700) < 0)
    {
      r = ash_error_set (err, -errno, _ ("cannot make %s: %s"), tmpdir,
                         strerror (errno));
      goto fail;
    }
  if (policy->unpack_dir_env)
    {
      unpack = ash_path_join (tmpl, "unpack");
      if (mkdirat (dirfd, "unpack", 0700) < 0)
        {
          r = ash_error_set (err, -errno, _ ("cannot make %s: %s"), unpack,
                             strerror (errno));
          goto fail;
        }
    }

  /* An SSL_CERT_FILE the operator set passes through the allowlist and
     wins over the export.  */
  want_roots = policy->system_trust_roots
               && !ash_strvec_getenv (&policy->env, "SSL_CERT_FILE");
  if (want_roots)
    {
      r = export_trust_roots (dirfd, err);
      if (r < 0)
        goto fail;
      roots = ash_path_join (tmpl, ROOTS_NAME);
    }

  struct ash_seatbelt_spawn sp = {
    .tmpdir = tmpdir,
    .unpack_dir = unpack,
    .cert_file = roots,
  };
  r = ash_seatbelt_build (policy, &sp, &sb, err);
  if (r < 0)
    goto fail;
  r = write_private_file (dirfd, PROFILE_NAME, sb.profile.buf, sb.profile.len);
  if (r < 0)
    {
      ash_error_set (err, r, _ ("cannot write the sandbox profile in %s: %s"),
                     tmpl, strerror (-r));
      ash_seatbelt_release (&sb);
      goto fail;
    }
  /* ash runs as root and the scanner (sandbox-exec first) as its
     account: the profile must be readable to it, and the private TMPDIR
     is its own.  */
  if (cmd->set_ids)
    {
      r = ash_tree_chown_fd (dirfd, cmd->user_id, cmd->group_id);
      if (r < 0)
        {
          ash_error_set (err, r, _ ("cannot give %s to uid %ld: %s"), tmpl,
                         (long) cmd->user_id, strerror (-r));
          ash_seatbelt_release (&sb);
          goto fail;
        }
    }
  profile = ash_path_join (tmpl, PROFILE_NAME);

  ash_strvec_push (&argv, probe->tool);
  ash_strvec_push (&argv, "-f");
  ash_strvec_push (&argv, profile);
  for (size_t i = 0; i < sb.params.nr; i++)
    {
      /* Seatbelt matches the path the kernel resolved (/tmp is
         /private/tmp), so a rule on a path spelled through a link would
         never apply: a deny would not deny.  Each existing path is passed
         resolved.  */
      const char *kv = sb.params.v[i];
      const char *eq = strchr (kv, '=');
      _cleanup_free_ char *real = eq ? realpath (eq + 1, NULL) : NULL;

      ash_strvec_push (&argv, "-D");
      if (real && !streq (real, eq + 1))
        ash_strvec_pushf (&argv, "%.*s=%s", (int) (eq - kv), kv, real);
      else
        ash_strvec_push (&argv, kv);
    }
  ash_strvec_pushv (&argv, cmd->argv.v);
  ash_seatbelt_release (&sb);

  /* The filtered environment; HOME stays the real one, which the profile
     hides except for the tool paths it grants there.  */
  ash_policy_env (policy, &env);
  ash_strvec_setenv (&env, "TMPDIR", tmpdir);
  for (size_t i = 0; i < policy->private_caches.nr; i++)
    ash_strvec_setenv_kv (&env, policy->private_caches.v[i]);
  for (size_t i = 0; i < policy->sandbox_exec_env.nr; i++)
    ash_strvec_setenv_kv (&env, policy->sandbox_exec_env.v[i]);
  if (unpack)
    ash_strvec_setenv (&env, policy->unpack_dir_env, unpack);
  if (roots)
    ash_strvec_setenv (&env, "SSL_CERT_FILE", roots);

  ash_strvec_release (&cmd->argv);
  cmd->argv = argv;
  ash_strvec_release (&cmd->env);
  cmd->env = env;
  /* No controlling terminal to inject keystrokes into.  */
  cmd->new_session = true;
  state = xcalloc (1, sizeof *state);
  state->base.backend = &ash_backend_sandbox_exec;
  state->dir = TAKE_PTR (tmpl);
  *ret_state = &state->base;
  return 0;

fail:
  remove_tree (tmpl);
  return r;
}

static void
sandbox_exec_cleanup (struct ash_wrap_state *base)
{
  struct sbx_state *state;

  if (!base)
    return;
  state = ash_container_of (base, struct sbx_state, base);
  if (state->dir)
    remove_tree (state->dir);
  free (state->dir);
  free (state);
}

/* S on one line: line breaks and other control characters become
   spaces, trailing space dropped.  Newly allocated.  */
static char *
one_line (const char *s)
{
  char *r = xstrdup (s);
  size_t n = strlen (r);

  for (char *p = r; *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = ' ';
  while (n > 0 && r[n - 1] == ' ')
    r[--n] = '\0';
  return r;
}

static int
sandbox_exec_probe (const struct ash_host *host, struct ash_probe **retp)
{
  struct sbx_probe *ret = xcalloc (1, sizeof *ret);
  struct ash_cmd cmd;
  struct ash_cmd_result res = { 0 };
  struct ash_error err = ASH_ERROR_INIT;
  int r;

  ret->base.backend = &ash_backend_sandbox_exec;
  *retp = &ret->base;
  /* The fixed path only: a sandbox-exec found on PATH or in the scanned
     tree is not the system's.  */
  if (access (ASH_SANDBOX_EXEC, X_OK) < 0)
    {
      ret->base.reason
        = xstrdup (_ ("sandbox-exec is not present (it has been "
                      "removed from this macOS)"));
      return -ENOENT;
    }

  /* Ask it to apply a profile that allows everything: this tells a
     sandbox-exec that runs from one that cannot apply a profile here.  */
  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, ASH_SANDBOX_EXEC);
  ash_strvec_push (&cmd.argv, "-p");
  ash_strvec_push (&cmd.argv, "(version 1)(allow default)");
  ash_strvec_push (&cmd.argv, ASH_DARWIN_TRUE);
  ash_strvec_push (&cmd.env, "PATH=/usr/bin:/bin");
  ash_strvec_push (&cmd.env, "LC_ALL=C");
  cmd.cwd = xstrdup ("/");
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  cmd.stderr_mode = ASH_STDIO_CAPTURE;
  cmd.out.max = 64 * 1024;
  cmd.err.max = 64 * 1024;
  cmd.timeout_sec = 60;
  r = ash_cmd_run (&cmd, &res, &err);
  if (r < 0 || res.status != 0)
    {
      _cleanup_free_ char *why
        = one_line (r < 0 && err.message ? err.message : cmd.err.buf);
      _cleanup_free_ char *status
        = xasprintf (_ ("exit status %d"), res.status);
      ret->base.reason
        = xasprintf (_ ("sandbox-exec cannot apply a profile here "
                        "(%s)"),
                     *why ? why : status);
      ash_error_release (&err);
      ash_cmd_release (&cmd);
      return r < 0 ? r : -EPERM;
    }
  ash_cmd_release (&cmd);
  ret->base.usable = true;
  ret->tool = xstrdup (ASH_SANDBOX_EXEC);
  ret->base.notes
    = xstrdup (_ ("caches are read-only; processes a scanner leaves "
                  "running are not ended"));
  return 0;
}

const struct ash_backend ash_backend_sandbox_exec = {
  .name = "sandbox-exec",
  .probe = sandbox_exec_probe,
  .probe_free = sbx_probe_free,
  .wrap = sandbox_exec_wrap,
  .cleanup = sandbox_exec_cleanup,
};
