/* SPDX-License-Identifier: Apache-2.0 */
/* probe-cache.c -- backend probes kept across runs.  */

#include <config.h>

#include "sandbox/probe-cache.h"

#include "sandbox/backend-impl.h"

struct ash_probe *
ash_probe_cache_load (const struct ash_backend *backend,
                      const struct ash_host *host)
{
  (void) backend;
  (void) host;
  return NULL;
}

void
ash_probe_cache_store (const struct ash_backend *backend,
                       const struct ash_host *host,
                       const struct ash_probe *probe)
{
  (void) backend;
  (void) host;
  (void) probe;
}

void
ash_probe_cache_forget (const struct ash_backend *backend)
{
  (void) backend;
}
