/* SPDX-License-Identifier: Apache-2.0 */
/* container.c -- container mode: build ASH's image and run a scan in it
   (see container.h).  */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "proc/spawn.h"
#include "proc/toolfind.h"
#include "scan/container.h"

/* The runtimes tried when none is named, in upstream's order.  */
static const char *const runtimes[]
  = { "finch", "docker", "nerdctl", "podman", NULL };

bool
ash_container_is_source_tree (const char *root)
{
  if (root == NULL || root[0] != '/')
    return false;
  _cleanup_free_ char *cf = ash_path_join (root, "container/Containerfile");
  _cleanup_free_ char *ac = ash_path_join (root, "configure.ac");
  struct stat st;
  return stat (cf, &st) == 0 && S_ISREG (st.st_mode) && stat (ac, &st) == 0
         && S_ISREG (st.st_mode);
}

char *
ash_container_image (const struct ash_container_request *req)
{
  if (req->custom_containerfile)
    return xstrdup (ASH_CONTAINER_IMAGE_PREFIX "custom");
  if (req->image && *req->image)
    return xstrdup (req->image);
  return xasprintf (ASH_CONTAINER_IMAGE_PREFIX "%s", req->build_target);
}

static char *
base_image (const struct ash_container_request *req)
{
  if (req->image && *req->image)
    return xstrdup (req->image);
  return xasprintf (ASH_CONTAINER_IMAGE_PREFIX "%s", req->build_target);
}

/* Find the runtime: the one named, or the first of RUNTIMES installed.
   A runtime found only inside the scanned directory counts as not
   installed, whatever --allow-in-tree-tools says.  */
int
ash_container_find_runtime (const struct ash_container_request *req,
                            char **ret_path, struct ash_error *err)
{
  struct ash_toolfind_opts tf = {
    .path_env = req->path_env,
    .bin_path = req->bin_path,
    .source_dir = req->source_dir,
    .allow_in_tree_tools = false,
  };
  if (req->runtime && *req->runtime)
    {
      struct ash_error e = ASH_ERROR_INIT;
      int r = ash_toolfind (req->runtime, &tf, ret_path, &e);
      if (r < 0)
        {
          _cleanup_free_ char *m = ash_error_format (&e);
          ash_error_release (&e);
          return ash_error_set (err, r,
                                _ ("container mode cannot run: the container "
                                   "runtime '%s' cannot be used: %s; nothing "
                                   "was scanned"),
                                req->runtime, m);
        }
      return 0;
    }
  struct ash_buf inside = ASH_BUF_INIT;
  for (size_t i = 0; runtimes[i]; i++)
    {
      struct ash_error e = ASH_ERROR_INIT;
      int r = ash_toolfind (runtimes[i], &tf, ret_path, &e);
      ash_error_release (&e);
      if (r == 0)
        {
          ash_buf_release (&inside);
          return 0;
        }
      if (r == -EPERM)
        ash_buf_addf (&inside, "%s%s", inside.len ? ", " : "", runtimes[i]);
    }
  int r;
  if (inside.len)
    r = ash_error_set (err, -ENOENT,
                       _ ("container mode cannot run: no container runtime "
                          "(finch, docker, nerdctl or podman) was found on "
                          "PATH or in ASH's bin directory (%s only inside the "
                          "scanned directory, which does not count); nothing "
                          "was scanned"),
                       inside.buf);
  else
    r = ash_error_set (err, -ENOENT,
                       _ ("container mode cannot run: no container runtime "
                          "(finch, docker, nerdctl or podman) was found on "
                          "PATH or in ASH's bin directory; install one, or "
                          "name it with --oci-runner or OCI_RUNNER; nothing "
                          "was scanned"));
  ash_buf_release (&inside);
  return r;
}

/* Run ARGV (ARGV[0] the runtime) with the request's environment; stdout
   and stderr are ASH's own, or discarded with QUIET.  */
static int
run_runtime (const struct ash_container_request *req,
             const struct ash_strvec *argv, bool quiet, int *ret_status,
             struct ash_error *err)
{
  struct ash_cmd cmd;
  ash_cmd_init (&cmd);
  for (size_t i = 0; i < argv->nr; i++)
    ash_strvec_push (&cmd.argv, argv->v[i]);
  for (size_t i = 0; req->env && req->env[i]; i++)
    ash_strvec_push (&cmd.env, req->env[i]);
  /* The runtime runs in its own process group, so it must not read the
     terminal.  */
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = quiet ? ASH_STDIO_NULL : ASH_STDIO_INHERIT;
  cmd.stderr_mode = quiet ? ASH_STDIO_NULL : ASH_STDIO_INHERIT;
  struct ash_cmd_result res;
  int r = ash_cmd_run (&cmd, &res, err);
  ash_cmd_release (&cmd);
  if (r < 0)
    {
      ash_error_prefix (err, "%s", _ ("container mode cannot run"));
      return r;
    }
  *ret_status = res.status;
  return 0;
}

/* A path the runtime's --mount takes as one comma-separated field.  */
static int
check_mount_path (const char *what, const char *path, struct ash_error *err)
{
  for (const char *p = path; *p; p++)
    if (*p == ',' || *p == '"' || *p == '\n' || *p == '\r')
      return ash_error_set (err, -EINVAL,
                            _ ("container mode cannot run: the %s '%s' holds "
                               "a character the container runtime's --mount "
                               "option cannot carry (a comma, a double quote "
                               "or a line break); nothing was scanned"),
                            what, path);
  return 0;
}

static void
push_build_arg (struct ash_strvec *v, const char *fmt, const char *value)
{
  ash_strvec_push (v, "--build-arg");
  _cleanup_free_ char *a = xasprintf (fmt, value);
  ash_strvec_push (v, a);
}

int
ash_container_build (const struct ash_container_request *req,
                     const char *runtime, int *ret_status,
                     struct ash_error *err)
{
  if (!ash_container_is_source_tree (req->root_dir))
    return ash_error_set (err, -ENOENT,
                          _ ("container mode cannot build the image: no ash "
                             "source tree (container/Containerfile and "
                             "configure.ac) was found%s%s; set ASH_ROOT_DIR "
                             "to an ash checkout, or pass --no-build to run "
                             "an image built before; nothing was scanned"),
                          req->root_dir ? " in " : "",
                          req->root_dir ? req->root_dir : "");
  if (req->custom_containerfile)
    {
      struct stat st;
      if (stat (req->custom_containerfile, &st) < 0 || !S_ISREG (st.st_mode))
        return ash_error_set (err, -ENOENT,
                              _ ("container mode cannot build the image: the "
                                 "custom containerfile '%s' is not a file; "
                                 "nothing was scanned"),
                              req->custom_containerfile);
    }
  _cleanup_free_ char *base = base_image (req);
  _cleanup_free_ char *file
    = ash_path_join (req->root_dir, "container/Containerfile");
  struct ash_strvec v = ASH_STRVEC_INIT;
  ash_strvec_push (&v, runtime);
  ash_strvec_push (&v, "build");
  push_build_arg (&v, "UID=%s", req->uid);
  push_build_arg (&v, "GID=%s", req->gid);
  ash_strvec_push (&v, "--tag");
  ash_strvec_push (&v, base);
  ash_strvec_push (&v, "--target");
  ash_strvec_push (&v, req->build_target);
  ash_strvec_push (&v, "--file");
  ash_strvec_push (&v, file);
  push_build_arg (&v, "OFFLINE=%s", req->offline ? "YES" : "NO");
  push_build_arg (&v, "OFFLINE_SEMGREP_RULESETS=%s",
                  req->semgrep_rulesets ? req->semgrep_rulesets : "p/ci");
  for (size_t i = 0; req->build_args && req->build_args[i]; i++)
    push_build_arg (&v, "%s", req->build_args[i]);
  if (req->force)
    ash_strvec_push (&v, "--no-cache");
  if (req->quiet)
    ash_strvec_push (&v, "-q");
  ash_strvec_push (&v, req->root_dir);
  int r = run_runtime (req, &v, false, ret_status, err);
  ash_strvec_release (&v);
  if (r < 0 || *ret_status != 0 || req->custom_containerfile == NULL)
    return r;

  /* The custom image, built on the one just built.  */
  _cleanup_free_ char *custom = ash_container_image (req);
  _cleanup_free_ char *ctx = xstrdup (req->custom_containerfile);
  char *slash = strrchr (ctx, '/');
  if (slash == ctx)
    slash[1] = '\0';
  else if (slash)
    *slash = '\0';
  ash_strvec_push (&v, runtime);
  ash_strvec_push (&v, "build");
  ash_strvec_push (&v, "--tag");
  ash_strvec_push (&v, custom);
  ash_strvec_push (&v, "--file");
  ash_strvec_push (&v, req->custom_containerfile);
  push_build_arg (&v, "ASH_BASE_IMAGE=%s", base);
  for (size_t i = 0; req->build_args && req->build_args[i]; i++)
    push_build_arg (&v, "%s", req->build_args[i]);
  if (req->quiet)
    ash_strvec_push (&v, "-q");
  ash_strvec_push (&v, ctx);
  r = run_runtime (req, &v, false, ret_status, err);
  ash_strvec_release (&v);
  return r;
}

/* Whether IMAGE is in the runtime's store.  */
int
ash_container_check_image (const struct ash_container_request *req,
                           const char *runtime, struct ash_error *err)
{
  _cleanup_free_ char *image = ash_container_image (req);
  struct ash_strvec v = ASH_STRVEC_INIT;
  ash_strvec_push (&v, runtime);
  ash_strvec_push (&v, "image");
  ash_strvec_push (&v, "inspect");
  ash_strvec_push (&v, image);
  int status = 0;
  int r = run_runtime (req, &v, true, &status, err);
  ash_strvec_release (&v);
  if (r < 0)
    return r;
  if (status != 0)
    return ash_error_set (err, -ENOENT,
                          _ ("container mode cannot run: the image %s is "
                             "missing (%s image inspect exited %d); build it "
                             "with 'ash build-image', or leave out "
                             "--no-build; nothing was scanned"),
                          image, runtime, status);
  return 0;
}

int
ash_container_run (const struct ash_container_request *req,
                   const char *runtime, int *ret_status, struct ash_error *err)
{
  _cleanup_free_ char *src = realpath (req->source_dir, NULL);
  if (src == NULL)
    return ash_error_set (err, -errno,
                          _ ("container mode cannot run: the source "
                             "directory '%s': %s"),
                          req->source_dir, strerror (errno));
  _cleanup_free_ char *out = realpath (req->output_dir, NULL);
  if (out == NULL)
    return ash_error_set (err, -errno,
                          _ ("container mode cannot run: the output "
                             "directory '%s': %s"),
                          req->output_dir, strerror (errno));
  /* The caller opened the output directory refusing every link on its
     path, so its real path is the path it gave; anything else means the
     tree changed since.  */
  _cleanup_free_ char *given = ash_path_normalize (req->output_dir);
  if (!streq (given, out))
    return ash_error_set (err, -ELOOP,
                          _ ("container mode cannot run: the output "
                             "directory '%s' resolves to '%s'; nothing was "
                             "scanned"),
                          req->output_dir, out);
  int r = check_mount_path (_ ("source directory"), src, err);
  if (r == 0)
    r = check_mount_path (_ ("output directory"), out, err);
  if (r < 0)
    return r;

  _cleanup_free_ char *image = ash_container_image (req);
  struct ash_strvec v = ASH_STRVEC_INIT;
  ash_strvec_push (&v, runtime);
  ash_strvec_push (&v, "run");
  ash_strvec_push (&v, "--rm");
  ash_strvec_push (&v, "-e");
  ash_strvec_pushf (&v, "ASH_ACTUAL_SOURCE_DIR=%s", src);
  ash_strvec_push (&v, "-e");
  ash_strvec_pushf (&v, "ASH_ACTUAL_OUTPUT_DIR=%s", out);
  ash_strvec_push (&v, "-e");
  ash_strvec_pushf (&v, "ASH_DEBUG=%s", req->debug ? "YES" : "NO");
  ash_strvec_push (&v, "--mount");
  ash_strvec_pushf (&v, "type=bind,source=%s,destination=/src,readonly", src);
  ash_strvec_push (&v, "--mount");
  ash_strvec_pushf (&v, "type=bind,source=%s,destination=/out", out);
  /* An output directory inside the source tree is hidden from the scan
     inside, as a local scan leaves it out: an empty file system over it
     at its place below /src.  */
  if (!streq (out, src) && ash_path_is_inside (out, src))
    {
      ash_strvec_push (&v, "--mount");
      ash_strvec_pushf (&v, "type=tmpfs,destination=/src%s",
                        out + strlen (src));
    }
  if (req->offline)
    ash_strvec_push (&v, "--network=none");
  ash_strvec_push (&v, image);
  ash_strvec_push (&v, "ash");
  ash_strvec_push (&v, "scan");
  ash_strvec_push (&v, "--source-dir");
  ash_strvec_push (&v, "/src");
  ash_strvec_push (&v, "--output-dir");
  ash_strvec_push (&v, "/out");
  /* The scan inside is a local one, whatever else it is given.  */
  ash_strvec_push (&v, "--mode");
  ash_strvec_push (&v, "local");
  for (size_t i = 0; req->scan_args && req->scan_args[i]; i++)
    ash_strvec_push (&v, req->scan_args[i]);
  r = run_runtime (req, &v, false, ret_status, err);
  ash_strvec_release (&v);
  return r;
}
