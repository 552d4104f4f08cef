/* SPDX-License-Identifier: Apache-2.0 */
/* probe-cache.h -- backend probes kept across runs.

   A usable probe is stored in the user's cache directory
   ($XDG_CACHE_HOME/ash, else ~/.cache/ash), keyed by the identity of the
   programs it ran (each backend's identity()), the kernel (uname release
   and version), the uid and ash's version.  An entry whose key differs is
   not used, and one in a file or directory another user could write, or
   reached through a link, is never trusted.  Only usable probes are
   stored: an unusable backend is probed again in every run, so a stale
   entry can make a backend usable that has become unusable, never the
   reverse; and a cached usable backend is dropped when a spawn through it
   fails.  */

#ifndef ASH_PROBE_CACHE_H
#define ASH_PROBE_CACHE_H

#include "sandbox/backend.h"

/* The cached probe of BACKEND for HOST, or NULL (no entry, a key that
   differs, an entry not to be trusted, or a backend that is not
   cached).  */
struct ash_probe *ash_probe_cache_load (const struct ash_backend *backend,
                                        const struct ash_host *host);

/* Store PROBE (when usable and the backend can save it).  Failures are
   silent: the cache is an optimisation.  */
void ash_probe_cache_store (const struct ash_backend *backend,
                            const struct ash_host *host,
                            const struct ash_probe *probe);

/* Remove BACKEND's entry.  */
void ash_probe_cache_forget (const struct ash_backend *backend);

/* Tool capability probes (whether a bandit writes SARIF, which version a
   gitleaks is), kept in the same directory under the same rules, one file
   per scanner and probe (tool-SCANNER.WHAT.json).  The key is the tool's
   path and identity (device, inode, size and modification time of the
   file the path names, links followed), the scanner, the probe, the uid
   and ash's version; an entry whose key differs is not used.  What is
   stored only chooses among the ways a tool is run under the same
   sandbox, so a stale entry can make a scanner fail, never run with less
   confinement.  */

/* The value stored for TOOL's probe WHAT (freed by the caller), or NULL.  */
char *ash_tool_cache_load (const char *scanner, const char *tool,
                           const char *what);
/* Store VALUE for TOOL's probe WHAT.  Failures are silent.  */
void ash_tool_cache_store (const char *scanner, const char *tool,
                           const char *what, const char *value);
/* Remove the entry of SCANNER's probe WHAT.  */
void ash_tool_cache_forget (const char *scanner, const char *what);
/* With DISABLE (--no-probe-cache), tool probes are neither read from nor
   written to the cache.  */
void ash_tool_cache_disable (bool disable);

#endif
