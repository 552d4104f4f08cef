/* SPDX-License-Identifier: Apache-2.0 */
/* backend-impl.h -- what a backend's own probe and wrap state start with.

   For the backends only (linux/, darwin/, and lib/sandbox/ itself): the
   rest of lib/ reads a probe through the accessors in sandbox/backend.h.
   A backend embeds struct ash_probe as the first member of its own probe
   structure, and struct ash_wrap_state as the first member of its own
   per-spawn state.  */

#ifndef ASH_BACKEND_IMPL_H
#define ASH_BACKEND_IMPL_H

#include <stddef.h>

#include "sandbox/backend.h"

struct ash_probe
{
  const struct ash_backend *backend; /* whose probe it is */
  bool usable;
  char *reason;       /* why not usable: the spec's message */
  char *notes;        /* things to log, or NULL */
  bool cache_overlay; /* throwaway cache overlays supported */
  bool cached;        /* read from the probe cache */
};

struct ash_wrap_state
{
  const struct ash_backend *backend; /* whose state it is */
};

/* The structure of type TYPE whose member MEMBER PTR points at.  */
#define ash_container_of(ptr, type, member)                                   \
  ((type *) (void *) ((char *) (ptr) -offsetof (type, member)))

/* A new probe of BACKEND with only the shared part: not usable, with
   REASON (copied; may be NULL).  */
struct ash_probe *ash_probe_new_unusable (const struct ash_backend *backend,
                                          const char *reason);

/* Release the shared part of P (not P itself): a backend's probe_free()
   calls it before freeing its own structure.  Safe on a zeroed one.  */
void ash_probe_base_release (struct ash_probe *p);

#endif
