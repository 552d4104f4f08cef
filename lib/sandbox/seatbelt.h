/* SPDX-License-Identifier: Apache-2.0 */
/* seatbelt.h -- the Seatbelt (SBPL) profile that sandbox-exec applies.

   Portable: the profile is text, built and tested on every platform; only
   darwin/ hands it to /usr/bin/sandbox-exec.

   The profile denies by default and names no path in its text.  Every path
   is a parameter, referenced as (param "NAME") and passed on sandbox-exec's
   command line as -D NAME=VALUE, so that no path (which a scanned
   repository or another local user may have chosen) is ever parsed as
   SBPL.  The text holds only the rules, parameter names and Mach service
   names, all fixed here.

   Rules, in order (the last matching rule wins in SBPL):
     1. deny default;
     2. fork, signals within the sandbox, sysctl reads, POSIX semaphores and
        shared memory;
     3. reads everywhere, then reads denied below the homes (HOME and the
        passwd entry's home), the directories links at their top name, the
        shared temporary directories and, for staged input, the source and
        output directories; then the policy's paths, the results directory,
        the private TMPDIR, the unpack directory and the exported trust
        roots readable again, with metadata of the directories on the way
        to them;
     4. writes only below the policy's writable paths (the results
        directory), the private TMPDIR and the unpack directory, to uv's
        tools-directory lock file, and to the null device;
     5. process-exec and executable mappings only from the system
        directories and the policy's tool paths; then denied from every
        other policy path, the results directory and the private TMPDIR;
        then allowed again from a tool path inside one of those, from the
        private uv cache and from the unpack directory;
     6. Mach service lookups: cfprefsd, logd, notifyd and opendirectoryd,
        and with a network configd and trustd;
     7. network: nothing offline; online IP sockets, and of Unix sockets
        only mDNSResponder's;
     8. last, after every allow: LaunchServices, the pasteboard and the
        keychain daemon denied as Mach services, and the keychain files
        (/Library/Keychains and Library/Keychains in both homes) denied to
        read and write.  */

#ifndef ASH_SEATBELT_H
#define ASH_SEATBELT_H

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"
#include "sandbox/policy.h"

/* The per-spawn directories the backend made for the scanner.  All
   absolute; any may be NULL.  */
struct ash_seatbelt_spawn
{
  const char *tmpdir;     /* private TMPDIR: readable, writable */
  const char *unpack_dir; /* the unpack directory (policy->unpack_dir_env):
                             readable, writable, executable */
  const char *cert_file;  /* exported system trust roots: readable */
};

struct ash_seatbelt
{
  struct ash_buf profile;   /* the SBPL text */
  struct ash_strvec params; /* NAME=VALUE, each for one -D */
};

void ash_seatbelt_init (struct ash_seatbelt *sb);
void ash_seatbelt_release (struct ash_seatbelt *sb);

/* Build the profile for POLICY and SPAWN into RET (initialised here).
   Returns 0, or a negative errno with ERR filled: -EPERM when the policy
   refuses the scanner, -EINVAL for a relative path.  */
int ash_seatbelt_build (const struct ash_policy *policy,
                        const struct ash_seatbelt_spawn *spawn,
                        struct ash_seatbelt *ret, struct ash_error *err);

/* The Mach services every scanner may look up, and those only a scanner
   with a network may (NULL-terminated).  */
extern const char *const ash_seatbelt_mach_services[];
extern const char *const ash_seatbelt_mach_services_network[];

#endif
