/* SPDX-License-Identifier: Apache-2.0 */
/* json-same.h -- what test-json-fast and fuzz-json-fast compare between
   jansson's parser and ash's (lib/scan/json-fast.h): the two values, and
   what the two parses allocated through jansson's allocator.

   json_same: the same value to the byte and the bit, the members of each
   object in the same order (json_equal does not look at order).

   Counting: same_count_begin installs an allocator that adds up what
   every allocation costs as sarif.c's parse budget counts it (its size
   and two pointers), passing it on to the allocator that was installed;
   same_shadow counts what the fast parser reports of jansson's own
   allocations (json-fast.h) the same way; same_count_end puts the
   allocator back and returns the total.  */

#ifndef ASH_JSON_SAME_H
#define ASH_JSON_SAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scan/json-fast.h"

static bool
json_same (const json_t *a, const json_t *b)
{
  if (json_typeof (a) != json_typeof (b))
    return false;
  switch (json_typeof (a))
    {
    case JSON_OBJECT:
      {
        if (json_object_size (a) != json_object_size (b))
          return false;
        void *ia = json_object_iter ((json_t *) a);
        void *ib = json_object_iter ((json_t *) b);
        for (; ia && ib; ia = json_object_iter_next ((json_t *) a, ia),
                         ib = json_object_iter_next ((json_t *) b, ib))
          {
            size_t la = json_object_iter_key_len (ia);
            if (la != json_object_iter_key_len (ib)
                || memcmp (json_object_iter_key (ia),
                           json_object_iter_key (ib), la)
                     != 0
                || !json_same (json_object_iter_value (ia),
                               json_object_iter_value (ib)))
              return false;
          }
        return ia == NULL && ib == NULL;
      }
    case JSON_ARRAY:
      if (json_array_size (a) != json_array_size (b))
        return false;
      for (size_t i = 0; i < json_array_size (a); i++)
        if (!json_same (json_array_get (a, i), json_array_get (b, i)))
          return false;
      return true;
    case JSON_STRING:
      return json_string_length (a) == json_string_length (b)
             && memcmp (json_string_value (a), json_string_value (b),
                        json_string_length (a))
                  == 0;
    case JSON_INTEGER:
      return json_integer_value (a) == json_integer_value (b);
    case JSON_REAL:
      {
        double x = json_real_value (a), y = json_real_value (b);
        return memcmp (&x, &y, sizeof x) == 0;
      }
    default:
      return true;
    }
}

static json_malloc_t same_next_malloc;
static json_free_t same_next_free;
static size_t same_total;

#define SAME_OVERHEAD (2 * sizeof (void *))

static void *
same_malloc (size_t n)
{
  same_total += n + SAME_OVERHEAD;
  return same_next_malloc (n);
}

static void
same_free (void *p)
{
  same_next_free (p);
}

static bool
same_shadow (size_t size, size_t ours, void *arg)
{
  (void) arg;
  same_total += ours ? size - ours : size + SAME_OVERHEAD;
  return true;
}

static const struct ash_json_fast_shadow same_shadow_count
  = { .charge = same_shadow };

static void
same_count_begin (void)
{
  json_get_alloc_funcs (&same_next_malloc, &same_next_free);
  json_set_alloc_funcs (same_malloc, same_free);
  same_total = 0;
}

static size_t
same_count_end (void)
{
  json_set_alloc_funcs (same_next_malloc, same_next_free);
  return same_total;
}

/* A reader of a text in memory that hands it over at most CHUNK bytes at
   a time (json_load_callback_t).  */
struct same_chunks
{
  const char *text;
  size_t len, pos, chunk;
};

static size_t
same_chunks_read (void *buf, size_t n, void *arg)
{
  struct same_chunks *c = arg;
  size_t k = c->len - c->pos;
  if (k > c->chunk)
    k = c->chunk;
  if (k > n)
    k = n;
  memcpy (buf, c->text + c->pos, k);
  c->pos += k;
  return k;
}

/* The results hook (json-fast.h): what a TAKE callback was given, the
   items it took and, for every item offered, whether it took it and its
   run, in C arrays (no allocation through jansson, which the costs
   count).  MODE: 0 take none, 1 take all, 2 take every other one.  */
struct same_taken
{
  json_t **items; /* the taken ones */
  size_t n;
  bool *took;   /* by offer: taken */
  size_t *runs; /* by offer: its run */
  size_t offered, cap;
  int mode; /* 0: take none, 1: take all, 2: take every other one */
};

static bool
same_take (json_t *item, size_t run, void *arg)
{
  struct same_taken *t = arg;
  bool take = t->mode == 1 || (t->mode == 2 && t->offered % 2 == 0);
  if (t->offered == t->cap)
    {
      t->cap = t->cap ? 2 * t->cap : 16;
      t->items = realloc (t->items, t->cap * sizeof *t->items);
      t->took = realloc (t->took, t->cap * sizeof *t->took);
      t->runs = realloc (t->runs, t->cap * sizeof *t->runs);
      if (!t->items || !t->took || !t->runs)
        abort ();
    }
  t->took[t->offered] = take;
  t->runs[t->offered++] = run;
  if (take)
    t->items[t->n++] = item;
  return take;
}

static void
same_taken_release (struct same_taken *t)
{
  for (size_t i = 0; i < t->n; i++)
    json_decref (t->items[i]);
  free (t->items);
  free (t->took);
  free (t->runs);
  memset (t, 0, sizeof *t);
}

/* GOT with the items T took put back where they were offered, among
   those left: a new value.  */
static json_t *
same_put_back (const json_t *got, const struct same_taken *t)
{
  json_t *back = json_deep_copy (got);
  json_t *runs = json_object_get (back, "runs");
  const json_t *gruns = json_object_get (got, "runs");
  for (size_t r = 0; r < json_array_size (runs); r++)
    {
      json_t *res = json_object_get (json_array_get (runs, r), "results");
      if (json_is_array (res))
        json_array_clear (res);
    }
  size_t k = 0;
  size_t *left = calloc (json_array_size (runs) + 1, sizeof *left);
  if (left == NULL)
    abort ();
  for (size_t o = 0; o < t->offered; o++)
    {
      size_t r = t->runs[o];
      json_t *res = json_object_get (json_array_get (runs, r), "results");
      const json_t *gres
        = json_object_get (json_array_get (gruns, r), "results");
      if (!json_is_array (res))
        continue;
      if (t->took[o])
        json_array_append (res, t->items[k++]);
      else
        json_array_append (res, json_array_get (gres, left[r]++));
    }
  free (left);
  return back;
}

#endif
