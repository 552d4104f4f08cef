/* SPDX-License-Identifier: Apache-2.0 */
/* container.h -- container mode: build ASH's image and run a scan in it.

   The container runtime (finch, docker, nerdctl or podman, or the one
   OCI_RUNNER or --oci-runner names) is found like every tool ASH runs
   (proc/toolfind.h), never inside the scanned directory, whatever
   --allow-in-tree-tools says.  It is one of ASH's own spawns (no sandbox
   scope): the container is the boundary.  The source directory is
   mounted read-only at /src and the output directory read-write at
   /out; the scan inside runs as the image's user (UID and GID build
   arguments), and ASH never changes the owner of a host file.

   Nothing here ever scans on the host: every failure is a refusal with
   its reason, and the caller exits with it.  */

#ifndef ASH_CONTAINER_H
#define ASH_CONTAINER_H

#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"

/* Image names, as upstream: ASH_IMAGE_NAME, else
   automated-security-helper:TARGET (custom for a custom containerfile's
   image).  */
#define ASH_CONTAINER_IMAGE_PREFIX "automated-security-helper:"

struct ash_container_request
{
  /* Finding the runtime.  */
  const char *runtime;    /* --oci-runner / OCI_RUNNER, or NULL */
  const char *path_env;   /* PATH */
  const char *bin_path;   /* ASH's bin directory, or NULL */
  const char *source_dir; /* absolute: never run a runtime from it */
  char *const *env;       /* the runtime's environment */

  /* Building.  */
  bool build;
  const char *root_dir;             /* ash's source tree (the build context),
                                       or NULL when none is known */
  const char *build_target;         /* "non-root" or "ci" */
  const char *image;                /* ASH_IMAGE_NAME, or NULL */
  const char *uid, *gid;            /* decimal */
  bool force;                       /* --no-cache */
  bool quiet;                       /* -q */
  bool offline;                     /* OFFLINE=YES, and --network=none */
  const char *semgrep_rulesets;     /* OFFLINE_SEMGREP_RULESETS */
  const char *custom_containerfile; /* absolute, or NULL */
  char *const *build_args;          /* --custom-build-arg NAME=VALUE */

  /* Running.  */
  bool run;
  const char *output_dir; /* absolute; made and checked by the
                             caller (fs/tree.h ash_outdir_open) */
  bool debug;             /* ASH_DEBUG=YES */
  char *const *scan_args; /* after "ash scan --source-dir /src
                             --output-dir /out --mode local" */
};

/* Each returns 0, or a negative errno with ERR filled with the reason
   container mode cannot work here; the runtime's output goes to ASH's own
   stdout and stderr.  */

/* Find the runtime (newly allocated absolute path in *RET_PATH).  */
int ash_container_find_runtime (const struct ash_container_request *req,
                                char **ret_path, struct ash_error *err);

/* Build the image (and the custom one on it) with RUNTIME: *RET_STATUS is
   0, or the failing build's exit status.  Refused when REQ->root_dir is
   not ash's source tree or the custom containerfile is not a file.  */
int ash_container_build (const struct ash_container_request *req,
                         const char *runtime, int *ret_status,
                         struct ash_error *err);

/* Refused when the image REQ runs is not in RUNTIME's store.  */
int ash_container_check_image (const struct ash_container_request *req,
                               const char *runtime, struct ash_error *err);

/* Run the scan in the image: *RET_STATUS is the exit status of the scan
   inside (or the runtime's own when it fails to start the container).
   Refused when a directory's path is one --mount cannot carry, or when
   the output directory does not resolve to itself.  */
int ash_container_run (const struct ash_container_request *req,
                       const char *runtime, int *ret_status,
                       struct ash_error *err);

/* The image a request runs (newly allocated).  */
char *ash_container_image (const struct ash_container_request *req);

/* True when ROOT holds ash's source tree (container/Containerfile and
   configure.ac), the build context of the image.  */
bool ash_container_is_source_tree (const char *root);

#endif
