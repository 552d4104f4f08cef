/* SPDX-License-Identifier: Apache-2.0 */
/* probe-entry.h -- the probe cache's entries read without a JSON parser.

   probe-cache.c writes each entry with json_dumps (JSON_COMPACT):

     {"key":{"ash":"...","uid":N,"kernel":"...","backend":"...",
             "identity":"..."},"probe":{"NAME":VALUE,...}}

   with nothing after it, where each VALUE of the probe is a string, an
   integer, true, false or null.  An entry in exactly that form is read
   here at a fraction of what json_loadb costs.  Anything else (white
   space, another order, an escape jansson does not write, a nested value,
   a number that is not a small integer, a duplicate name, bytes that are
   not UTF-8, a truncated file) is left to jansson, which decides as it
   always has: this reader never accepts what jansson would refuse, nor
   reads a value differently.  */

#ifndef ASH_PROBE_ENTRY_H
#define ASH_PROBE_ENTRY_H

#include <jansson.h>

#include "base/buf.h"

/* Append to RET the text json_dumps (JSON_COMPACT) gives for the key
   object {"ash": VERSION, "uid": UID, "kernel": KERNEL, "backend":
   BACKEND, "identity": IDENTITY}.  0, or -EINVAL (RET then holds an
   unspecified prefix) when a string is not valid UTF-8: the caller then
   lets jansson build the key.  */
int ash_probe_entry_key_text (const char *version, long long uid,
                              const char *kernel, const char *backend,
                              const char *identity, struct ash_buf *ret);

/* When TEXT (LEN bytes) is an entry in the form above whose key is
   exactly KEY_TEXT (from ash_probe_entry_key_text), 0 with *RET_PROBE
   the probe object (a new reference), the value json_loadb would give.
   Otherwise -EAGAIN and *RET_PROBE NULL: the entry is for jansson to
   read (it may still be a good entry, spelt differently).  */
int ash_probe_entry_read (const char *text, size_t len, const char *key_text,
                          json_t **ret_probe);

#endif
