/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-cli-json-input.c -- --cli-json-input documents, through the
   command line's entry point (ash_main).

   The argv is fixed and safe: "ash scan --mode container
   --oci-runner=/nonexistent/oci-runtime --cli-json-input FILE
   --source-dir EMPTY".  Flags win over the document, so no runtime is
   ever found, and container mode refuses before any configuration is
   read or anything runs or is written; every key of the document is
   parsed and applied and nothing is scanned.  Property: ash_main returns one
   of ash's exit codes (usage 2, configuration 3; never success, which would
   mean a scan ran) and writes nothing to standard output.  */

#include <config.h>

#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sandbox/backend.h"
#include "scan/exit-codes.h"

static const struct ash_backend *const no_backends[] = { NULL };

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *tmp = fuzz_tmpdir ();
  if (fuzz_write_file (tmp, "input.json", data, size) < 0
      || fuzz_write_file (tmp, "src/.keep", "", 0) < 0)
    abort ();
  char file[4096], src[4096], out[4096];
  snprintf (file, sizeof file, "%s/input.json", tmp);
  snprintf (src, sizeof src, "%s/src", tmp);
  snprintf (out, sizeof out, "%s/out", tmp);
  char *argv[] = { (char *) "ash",
                   (char *) "scan",
                   (char *) "--mode",
                   (char *) "container",
                   (char *) "--oci-runner=/nonexistent/oci-runtime",
                   (char *) "--quiet",
                   (char *) "--cli-json-input",
                   file,
                   (char *) "--source-dir",
                   src,
                   (char *) "--output-dir",
                   out,
                   NULL };

  /* Standard output must stay empty: send it to a file and look.  */
  fflush (stdout);
  int saved = dup (1);
  char cap[4096];
  snprintf (cap, sizeof cap, "%s/stdout", tmp);
  int fd = open (cap, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (saved < 0 || fd < 0 || dup2 (fd, 1) < 0)
    abort ();
  close (fd);
  int r = ash_main ((int) (sizeof argv / sizeof *argv) - 1, argv, no_backends);
  fflush (stdout);
  off_t written = lseek (1, 0, SEEK_END);
  dup2 (saved, 1);
  close (saved);

  FUZZ_CHECK (r == ASH_EXIT_USAGE || r == ASH_EXIT_CONFIG);
  FUZZ_CHECK (written == 0);
  FUZZ_CHECK (access (out, F_OK) != 0);
  return 0;
}
