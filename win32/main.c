/* SPDX-License-Identifier: Apache-2.0 */
/* main.c -- ash on Windows.  There is no sandbox backend: the none backend
   reports the spec's message, and with a sandbox mode other than off every
   scanner is MISSING with it.  */

#include <config.h>

#include "cli/cli.h"
#include "sandbox/backend.h"

static const struct ash_backend win32_none = ASH_BACKEND_NONE (
  "no scanner sandbox is available on Windows; run ASH under WSL2 and use "
  "--sandbox bwrap there, or use --mode container");

static const struct ash_backend *const win32_backends[] = {
  &win32_none,
  NULL,
};

int
main (int argc, char **argv)
{
  return ash_main (argc, argv, win32_backends);
}
