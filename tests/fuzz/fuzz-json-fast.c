/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-json-fast.c -- ash's JSON parser (lib/scan/json-fast.h) against
   jansson's json_loadb, the parser whose results it must give.

   The input's first byte chooses the flags (its low three bits) and how
   many bytes at a time the text is handed over (the next three); the
   rest is the text.  Properties: the fast parser, reading the text whole
   and a chunk at a time, accepts it exactly when jansson does; an
   accepted document is the same value as jansson's (json-same.h: bytes,
   bits, member order); and the allocations it makes through jansson's
   allocator, with those it reports of jansson's own parser, cost the
   parse budget what jansson's parse cost it; the same holds with the
   results hook taking every item of a SARIF log's results arrays, and
   the items it took, put back, give jansson's value.  */

#include <config.h>

#include "fuzz.h"

#include <errno.h>

#include "json-same.h"
#include "scan/json-fast.h"

static const size_t flag_sets[] = {
  JSON_REJECT_DUPLICATES,
  0,
  JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
  JSON_DECODE_ANY | JSON_REJECT_DUPLICATES,
  JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES,
  JSON_DECODE_ANY | JSON_ALLOW_NUL,
  JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL,
  JSON_REJECT_DUPLICATES,
};

static const size_t chunk_sizes[] = { 1, 2, 3, 7, 64, 1000, 4096, 65536 };

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  size_t flags = flag_sets[data[0] & 7];
  struct same_chunks c = {
    (const char *) data + 1,
    size - 1,
    0,
    chunk_sizes[(data[0] >> 3) & 7],
  };
  json_error_t jerr;

  same_count_begin ();
  json_t *want = json_loadb (c.text, c.len, flags, &jerr);
  size_t want_cost = same_count_end ();

  json_t *whole, *chunked;
  same_count_begin ();
  int r
    = ash_json_fast_loadb (c.text, c.len, flags, &same_shadow_count, &whole);
  size_t whole_cost = same_count_end ();
  FUZZ_CHECK ((whole != NULL) == (want != NULL));
  FUZZ_CHECK (whole ? r == 0 : r == -EINVAL);

  same_count_begin ();
  r = ash_json_fast_load_callback (same_chunks_read, &c, flags,
                                   &same_shadow_count, &chunked);
  size_t chunked_cost = same_count_end ();
  FUZZ_CHECK ((chunked != NULL) == (want != NULL));
  FUZZ_CHECK (chunked ? r == 0 : r == -EINVAL);

  if (want)
    {
      FUZZ_CHECK (json_same (whole, want));
      FUZZ_CHECK (json_same (chunked, want));
      FUZZ_CHECK (whole_cost == want_cost);
      FUZZ_CHECK (chunked_cost == want_cost);
    }
  /* The results hook taking every item of a SARIF log's results arrays
     (chunked): the same verdict and cost, and the items put back give
     the value (when a duplicate member is refused; otherwise a later
     "runs" or "results" replaces what an earlier one offered).  */
  struct same_taken t = { .mode = 1 };
  const struct ash_json_fast_results hook = { same_take, &t };
  json_t *taken;
  c.pos = 0;
  same_count_begin ();
  r = ash_json_fast_load_callback_results (same_chunks_read, &c, flags,
                                           &same_shadow_count, &hook, &taken);
  size_t taken_cost = same_count_end ();
  FUZZ_CHECK ((taken != NULL) == (want != NULL));
  FUZZ_CHECK (taken ? r == 0 : r == -EINVAL);
  if (want)
    {
      FUZZ_CHECK (taken_cost == want_cost);
      if (flags & JSON_REJECT_DUPLICATES)
        {
          json_t *back = same_put_back (taken, &t);
          FUZZ_CHECK (json_same (back, want));
          json_decref (back);
        }
    }
  same_taken_release (&t);
  json_decref (taken);
  json_decref (want);
  json_decref (whole);
  json_decref (chunked);
  return 0;
}
