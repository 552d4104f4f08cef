/* SPDX-License-Identifier: Apache-2.0 */
/* backends.h -- the macOS sandbox backend: sandbox-exec.  */

#ifndef ASH_DARWIN_BACKENDS_H
#define ASH_DARWIN_BACKENDS_H

#include "sandbox/backend.h"
#include "sandbox/policy.h"

/* The one sandbox-exec ASH runs: the system's, at its fixed path.  The
   build check on other systems (configure --enable-darwin-build-check)
   compiles darwin/ with a stub's path here instead.  */
#ifndef ASH_SANDBOX_EXEC
#define ASH_SANDBOX_EXEC "/usr/bin/sandbox-exec"
#endif

/* The program the probe runs under an allow-all profile.  */
#ifndef ASH_DARWIN_TRUE
#define ASH_DARWIN_TRUE "/usr/bin/true"
#endif

extern const struct ash_backend ash_backend_sandbox_exec;

#endif
