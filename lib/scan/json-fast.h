/* SPDX-License-Identifier: Apache-2.0 */
/* json-fast.h -- a JSON parser that builds the values jansson's would.

   json_loadb and json_load_callback read their text a byte at a time
   through a function pointer and look every member up before they insert
   it; on a scanner's large SARIF log that is a third of a scan's work.
   This parser reads the same text a buffer at a time and builds the
   document with jansson's public API, so that every allocation still goes
   through jansson's allocator (json_set_alloc_funcs).

   It accepts exactly the documents json_loadb accepts with the same
   FLAGS, and gives a value json_equal to jansson's, members in the same
   order, integers and reals decided and converted as jansson does
   (strtod in the C locale for a number with '.', 'e' or 'E').  It does
   not say why a document is refused: a caller that needs jansson's
   json_error_t parses the text again with jansson (a refused document is
   the rare case).

   The parser recurses once for each level of nesting (a frame of about
   128 bytes, built with gcc -O2), at most JSON_PARSER_MAX_DEPTH levels,
   as jansson's does.

   FLAGS: any of JSON_REJECT_DUPLICATES, JSON_DECODE_ANY, JSON_ALLOW_NUL
   and JSON_DECODE_INT_AS_REAL; any other flag is refused with -ENOTSUP.

   Returns 0 with *RET the document (new reference), or, with *RET NULL:
   -EINVAL when jansson would refuse the text, -ENOMEM when an allocation
   failed (or SHADOW refused one, below), -EIO when READ failed, -ENOTSUP
   for an unknown flag.  */

#ifndef ASH_JSON_FAST_H
#define ASH_JSON_FAST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* jansson's parser makes allocations that this one does not: its token
   buffer (16 bytes at first, doubled whenever a token and the byte read
   after it do not fit), and for each string a buffer of the string's
   length as written (quotes and escapes included) and one, which
   becomes a string value's text (this parser allocates the decoded
   length and one through json_stringn_nocheck instead) and is freed
   after an object's key is copied into the object.  A caller that
   counts jansson's allocations to bound a parse is told of each through
   CHARGE (SIZE, OURS, ARG): jansson's parser would allocate SIZE bytes
   where this one allocates OURS (0: nothing), so that it counts the
   same total and refuses the same documents.  CHARGE returns false to
   end the parse as a failed allocation would.  */
struct ash_json_fast_shadow
{
  bool (*charge) (size_t size, size_t ours, void *arg);
  void *arg;
};

/* Parse LEN bytes of TEXT (SHADOW may be NULL).  */
int ash_json_fast_loadb (const char *text, size_t len, size_t flags,
                         const struct ash_json_fast_shadow *shadow,
                         json_t **ret);

/* Parse the text READ gives, asked for 64 KiB at a time: READ (BUF, N,
   ARG) stores at most N bytes at BUF and returns how many, 0 at the end
   of the text, (size_t) -1 on failure, as for json_load_callback.  The
   text is never held whole: besides the 64 KiB buffer the parser keeps a
   string or number that spans two reads, and the keys of the objects
   being parsed.  */
int ash_json_fast_load_callback (json_load_callback_t read, void *arg,
                                 size_t flags,
                                 const struct ash_json_fast_shadow *shadow,
                                 json_t **ret);

/* The results of a SARIF log taken as they are parsed, so that the log
   is never a tree of all of them.  Each item of the array that is the
   member "results" of an object that is an item of the array that is the
   member "runs" of the top-level object (runs[R].results[J]) is given to
   TAKE (ITEM, R, ARG) once it is complete, in the text's order, R
   counting the items of "runs" from 0 (whatever they are).  Nothing
   else is: not a "runs" or "results" anywhere else.  TAKE returns true
   when it takes ITEM (the reference is handed over, and ITEM is not
   added to its array), false to leave it to be added.

   TAKE is called while the parse runs: for the items of a document that
   is refused further on (a syntax error, a duplicate key, a failed
   allocation or a refused charge, a failed read), and, without
   JSON_REJECT_DUPLICATES, for those of a "runs" or "results" member
   that a later one of the same name replaces.  A caller acts on what
   it took only once the parse has returned 0.

   The SHADOW is charged for each taken item what appending it to its
   array would have cost jansson (its array's growth), so that a parse
   that takes every item of its results arrays charges the same total,
   and refuses the same documents, as one that takes none (an array of
   which some items are taken and some not is charged about as much).  The
   allocations TAKE itself makes go through jansson's allocator too: a
   caller that counts them must leave them out itself.  */
struct ash_json_fast_results
{
  bool (*take) (json_t *item, size_t run, void *arg);
  void *arg;
  /* When not NULL, the "runs" array is the member of that name of the
     object that is the member WITHIN of the top-level object
     (WITHIN.runs[R].results[J]: "sarif" for ash's aggregated results),
     and a "runs" of the top-level object itself is not looked at.  */
  const char *within;
};

/* ash_json_fast_loadb and ash_json_fast_load_callback with RESULTS
   (NULL: none taken).  */
int ash_json_fast_loadb_results (const char *text, size_t len, size_t flags,
                                 const struct ash_json_fast_shadow *shadow,
                                 const struct ash_json_fast_results *results,
                                 json_t **ret);
int ash_json_fast_load_callback_results (
  json_load_callback_t read, void *arg, size_t flags,
  const struct ash_json_fast_shadow *shadow,
  const struct ash_json_fast_results *results, json_t **ret);

#endif
