/* SPDX-License-Identifier: Apache-2.0 */
/* json-arena.h -- the memory of the documents a large parse makes.

   A parsed document is a tree of many small allocations (an object of
   jansson's takes four: itself, its buckets, a pair per member, and
   each string two), and malloc adds its header and rounding to each: a
   sixth of the memory a scanner's SARIF takes once parsed.  While a
   large parse runs (sarif.c), jansson's allocations on that thread are
   carved one after another out of chunks of one reserved region
   instead, 8-byte aligned and without a header; a chunk counts the
   allocations in it that are not freed yet and goes back to the region
   (its pages to the kernel) when the last one is.  Any thread may free
   an allocation; the chunk a thread carves from is its own.  */

#ifndef ASH_JSON_ARENA_H
#define ASH_JSON_ARENA_H

#include <stdbool.h>
#include <stddef.h>

/* The size of a chunk; an allocation of more than an eighth of it is
   never made in a chunk.  */
#define ASH_JSON_ARENA_CHUNK ((size_t) 1 << 20)

/* N bytes from the calling thread's chunk (a new one when it is full),
   or NULL when they are not to be made there (too large, or no region:
   it could not be reserved, or it is used up); the caller then takes
   them from malloc.  */
void *ash_json_arena_alloc (size_t n);

/* Free P when it was made by ash_json_arena_alloc and return true; else
   return false (P is the caller's to free).  */
bool ash_json_arena_free (void *p);

/* The calling thread is done carving: its chunk, once its allocations
   are freed, goes back to the region, and its next allocation takes a
   new chunk.  */
void ash_json_arena_end (void);

/* Whether ash_json_arena_alloc makes anything (at first it does): for
   the tests, which compare documents made with and without it.  */
void ash_json_arena_enable (bool on);

/* The chunks that are taken (carved from by a thread, or holding an
   allocation not freed yet): for the tests.  */
size_t ash_json_arena_chunks_in_use (void);

#endif
