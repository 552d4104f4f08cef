/* SPDX-License-Identifier: Apache-2.0 */
/* container-command.c -- `ash scan --mode container` and `ash build-image`.

   The scan inside the container sees only the source directory (at /src)
   and the output directory (at /out).  So a config file that is not
   inside the source directory (a --config or ASH_CONFIG file, or a base
   one of them extends) and plugin modules, which are host paths, are
   refused rather than silently lost.  The config is read here too, to
   see whether it asks for a sandbox: container mode does not apply one
   (the container is the boundary), so it says so on stderr whatever the
   log level, and gives the scan inside sandbox.mode=off as its last
   override (the spec's "Modes").  --sandbox other than off was refused
   before (exit 5).  */

#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "cli/commands.h"
#include "config/sandbox-settings.h"
#include "fs/outdir.h"
#include "fs/tree.h"
#include "scan/container.h"
#include "scan/exit-codes.h"

extern char **environ;

/* A refusal of container mode: exit 3.  */
#define refuse(...) ash_cli_refuse (ASH_EXIT_CONFIG, __VA_ARGS__)

static int
refuse_error (const struct ash_error *e)
{
  _cleanup_free_ char *m = ash_error_format (e);
  return refuse ("%s", m);
}

/* ash's source tree, the build context: ASH_ROOT_DIR, else the directory
   above the running ash when that is a source tree (linux/ash of a
   checkout's build), else NULL.  */
static char *
root_dir (void)
{
  const char *env = getenv ("ASH_ROOT_DIR");
  if (env && *env)
    return ash_path_absolute (env);
  char exe[4096];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = '\0';
  for (int up = 0; up < 2; up++)
    {
      char *slash = strrchr (exe, '/');
      if (slash == NULL || slash == exe)
        return NULL;
      *slash = '\0';
    }
  return ash_container_is_source_tree (exe) ? xstrdup (exe) : NULL;
}

/* Add the config to ARGS as the scan inside names it (/src/...): every
   file it was read from must be inside the source directory.  */
static int
config_args (const struct ash_options *o, const struct ash_config *c,
             struct ash_strvec *args)
{
  _cleanup_free_ char *src = realpath (o->source_dir, NULL);
  if (src == NULL)
    return refuse (_ ("container mode cannot run: the source directory "
                      "'%s': %s; nothing was scanned"),
                   o->source_dir, strerror (errno));
  for (size_t i = 0; i < c->n_files; i++)
    {
      const struct ash_config_file *f = &c->files[i];
      if (f->resolved == NULL)
        continue;
      if (!ash_path_is_inside (f->resolved, src))
        return refuse (_ ("container mode cannot use the config file '%s': "
                          "it is outside the source directory '%s', which "
                          "is all the scan in the container sees; put it "
                          "in the source directory, or pass its settings "
                          "with --config-overrides; nothing was scanned"),
                       f->name, src);
      if ((f->origin == ASH_CONFIG_CLI || f->origin == ASH_CONFIG_ENV)
          && i == 1)
        ash_strvec_pushf (args, "--config=/src%s", f->resolved + strlen (src));
    }
  return 0;
}

/* The spec's warning when the config asks for a sandbox, and the last
   override of the scan inside.  */
static int
sandbox_args (struct ash_options *o, const struct ash_config *c,
              struct ash_strvec *args)
{
  struct ash_sandbox_settings ss;
  struct ash_error e = ASH_ERROR_INIT;
  ash_sandbox_settings_init (&ss);
  /* What the config files and overrides ask for, whatever --sandbox off
     says.  */
  char *given = o->sandbox;
  o->sandbox = NULL;
  int r = ash_sandbox_settings_resolve (o, c, &ss, &e);
  o->sandbox = given;
  if (r < 0)
    {
      r = refuse_error (&e);
      ash_error_release (&e);
      ash_sandbox_settings_release (&ss);
      return r;
    }
  if (ash_sandbox_settings_on (&ss))
    {
      _cleanup_free_ char *raw = xasprintf (
        _ ("sandbox.mode %s (from %s) is not applied in container mode: it "
           "never sandboxes the scanners inside the image, and the container "
           "is the boundary; the scan in the container runs with "
           "sandbox.mode=off"),
        ss.mode, ss.mode_source ? ss.mode_source : "?");
      _cleanup_free_ char *m = ash_escape_control (raw);
      /* On stderr whatever --quiet or --log-level say.  */
      fprintf (stderr, "WARNING  %s\n", m);
      fflush (stderr);
    }
  ash_sandbox_settings_release (&ss);
  if (given)
    ash_strvec_pushf (args, "--sandbox=%s", given);
  /* Last, so that it wins over every other override.  */
  ash_strvec_push (args, "--config-overrides=sandbox.mode=off");
  return 0;
}

/* Make and check the output directory as a local scan would.  */
static int
output_dir (const struct ash_options *o, char **ret_path)
{
  struct ash_error e = ASH_ERROR_INIT;
  _cleanup_free_ char *placed = NULL, *warning = NULL;
  int r
    = ash_outdir_place (o->output_dir, o->source_dir, &placed, &warning, &e);
  if (r == 0 && warning)
    ash_warning ("%s", warning);
  struct ash_outdir od = ASH_OUTDIR_INIT;
  if (r == 0)
    r = ash_outdir_open (placed, o->source_dir, &od, &e);
  if (r < 0)
    {
      r = refuse_error (&e);
      ash_error_release (&e);
      return r;
    }
  *ret_path = xstrdup (od.path);
  ash_outdir_release (&od);
  return 0;
}

int
ash_container_command (struct ash_options *o,
                       const struct ash_container_cli *cc)
{
  _cleanup_strvec_ struct ash_strvec args = ASH_STRVEC_INIT;
  _cleanup_config_ struct ash_config c;
  _cleanup_error_ struct ash_error e = ASH_ERROR_INIT;
  _cleanup_free_ char *out = NULL, *root = NULL, *uid = NULL, *gid = NULL;
  _cleanup_free_ char *custom = NULL, *rulesets = NULL, *runtime = NULL;
  int status = 0;
  int r = 0;

  ash_config_init (&c);

  if (cc->run && o->plugin_modules.nr > 0)
    {
      r = refuse (_ ("container mode cannot load plugin modules (%s): they "
                     "are host paths, which the scan in the container does "
                     "not see; nothing was scanned"),
                  o->plugin_modules.v[0]);
      return r;
    }
  root = root_dir ();
  if (cc->build && !ash_container_is_source_tree (root))
    {
      r = refuse (_ ("container mode cannot build the image: no ash source "
                     "tree (container/Containerfile and configure.ac) was "
                     "found%s%s; set ASH_ROOT_DIR to an ash checkout, or "
                     "pass --no-build to run an image built before; nothing "
                     "was built or scanned"),
                  root ? " in " : "", root ? root : "");
      return r;
    }
  uid = cc->uid ? xstrdup (cc->uid) : xasprintf ("%u", (unsigned) getuid ());
  gid = cc->gid ? xstrdup (cc->gid) : xasprintf ("%u", (unsigned) getgid ());
  if (cc->custom_containerfile)
    custom = ash_path_absolute (cc->custom_containerfile);
  if (o->semgrep_rulesets.nr)
    {
      struct ash_buf b = ASH_BUF_INIT;
      for (size_t i = 0; i < o->semgrep_rulesets.nr; i++)
        ash_buf_addf (&b, "%s%s", i ? "," : "", o->semgrep_rulesets.v[i]);
      rulesets = ash_buf_detach (&b);
    }
  struct ash_container_request req = {
    .runtime = cc->runtime ? cc->runtime : getenv ("OCI_RUNNER"),
    .path_env = getenv ("PATH"),
    .bin_path = o->bin_path,
    .source_dir = o->source_dir,
    .env = environ,
    .build = cc->build,
    .root_dir = root,
    .build_target = cc->build_target,
    .image = getenv ("ASH_IMAGE_NAME"),
    .uid = uid,
    .gid = gid,
    .force = cc->force,
    .quiet = o->quiet,
    .offline = o->offline,
    .semgrep_rulesets = rulesets,
    .custom_containerfile = custom,
    .build_args = cc->build_args.v,
    .run = cc->run,
    .debug = o->debug,
  };
  if (ash_container_find_runtime (&req, &runtime, &e) < 0)
    return refuse_error (&e);

  /* What the scan inside gets, and the refusals that depend on the
     configuration, before anything is built or written.  */
  if (cc->run)
    {
      struct ash_config_request creq = {
        .source_dir = o->source_dir,
        .config_path = o->config,
        .env_config = o->env_config,
        .overrides = o->config_overrides.v,
      };
      if (ash_config_load (&creq, &c, &e) < 0)
        return refuse_error (&e);
      for (size_t i = 0; i < cc->scan_args.nr; i++)
        ash_strvec_push (&args, cc->scan_args.v[i]);
      r = config_args (o, &c, &args);
      if (r == 0)
        r = sandbox_args (o, &c, &args);
      if (r)
        return r;
      req.scan_args = args.v;
    }

  if (!cc->build && cc->run
      && ash_container_check_image (&req, runtime, &e) < 0)
    return refuse_error (&e);
  /* The output directory is checked (a link the scanned tree planted
     there is refused) before anything is built.  */
  if (cc->run)
    {
      r = output_dir (o, &out);
      if (r)
        return r;
      req.output_dir = out;
    }
  if (cc->build)
    {
      if (ash_container_build (&req, runtime, &status, &e) < 0)
        return refuse_error (&e);
      if (status != 0)
        {
          _cleanup_free_ char *image = ash_container_image (&req);
          ash_err (_ ("building the image %s failed (%s exited %d); nothing "
                      "was scanned"),
                   image, runtime, status);
          return status;
        }
    }
  if (!cc->run)
    return r;
  if (ash_container_run (&req, runtime, &status, &e) < 0)
    return refuse_error (&e);
  return status;
}
