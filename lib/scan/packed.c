/* SPDX-License-Identifier: Apache-2.0 */
/* packed.c -- a run's results kept as text once they are processed.  */

#include <config.h>

#include "scan/packed.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/util.h"
#include "scan/json-fast.h"
#include "scan/sarif.h"

/* The texts are written one after another into blocks of this size (a
   text longer than that into a block of its own), so that a store of
   many results never copies them to grow.  */
#define PACKED_BLOCK ((size_t) 1 << 20)

struct packed_block
{
  struct packed_block *next;
  size_t used, size;
  char data[];
};

struct packed_item
{
  const char *text;
  size_t len;
  signed char severity;
  bool suppressed;
};

struct ash_packed
{
  struct packed_block *blocks; /* the newest first */
  struct packed_item *v;
  size_t n, alloc;
};

static const size_t dump_flags
  = JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY;

struct ash_packed *
ash_packed_new (void)
{
  return xcalloc (1, sizeof (struct ash_packed));
}

void
ash_packed_free (struct ash_packed *p)
{
  if (p == NULL)
    return;
  for (struct packed_block *b = p->blocks, *next; b; b = next)
    {
      next = b->next;
      free (b);
    }
  free (p->v);
  free (p);
}

static struct packed_block *
block_new (struct ash_packed *p, size_t need)
{
  size_t size = need > PACKED_BLOCK ? need : PACKED_BLOCK;
  struct packed_block *b = xmalloc (sizeof *b + size);
  b->used = 0;
  b->size = size;
  b->next = p->blocks;
  p->blocks = b;
  return b;
}

void
ash_packed_add (struct ash_packed *p, const json_t *result, int severity,
                bool suppressed)
{
  struct packed_block *b = p->blocks;
  if (b == NULL)
    b = block_new (p, 0);
  size_t room = b->size - b->used;
  size_t n = json_dumpb (result, b->data + b->used, room, dump_flags);
  if (n == 0)
    ash_oom ();
  if (n > room)
    {
      b = block_new (p, n);
      if (json_dumpb (result, b->data, b->size, dump_flags) != n)
        ash_oom ();
    }
  if (p->n == p->alloc)
    {
      p->alloc = p->alloc ? 2 * p->alloc : 64;
      p->v = xreallocarray (p->v, p->alloc, sizeof *p->v);
    }
  p->v[p->n++] = (struct packed_item){ b->data + b->used, n,
                                       (signed char) severity, suppressed };
  b->used += n;
}

size_t
ash_packed_count (const struct ash_packed *p)
{
  return p ? p->n : 0;
}

const char *
ash_packed_text (const struct ash_packed *p, size_t i, size_t *ret_len)
{
  *ret_len = p->v[i].len;
  return p->v[i].text;
}

int
ash_packed_severity (const struct ash_packed *p, size_t i)
{
  return p->v[i].severity;
}

bool
ash_packed_suppressed (const struct ash_packed *p, size_t i)
{
  return p->v[i].suppressed;
}

json_t *
ash_packed_load (const struct ash_packed *p, size_t i)
{
  json_t *v = NULL;
  /* The text is the dump of a value: it parses, short of memory.  */
  if (ash_json_fast_loadb (p->v[i].text, p->v[i].len, JSON_DECODE_ANY, NULL,
                           &v)
      < 0)
    ash_oom ();
  return v;
}

/* ---- The registry ---------------------------------------------------- */

struct registered
{
  json_t *array; /* held */
  struct ash_packed *p;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct registered *registry;
static size_t registry_n, registry_alloc;
static atomic_size_t registry_any;

static void
registry_add (json_t *array, struct ash_packed *p)
{
  pthread_mutex_lock (&registry_lock);
  if (registry_n == registry_alloc)
    {
      registry_alloc = registry_alloc ? 2 * registry_alloc : 16;
      registry = xreallocarray (registry, registry_alloc, sizeof *registry);
    }
  registry[registry_n++] = (struct registered){ json_incref (array), p };
  atomic_store (&registry_any, registry_n);
  pthread_mutex_unlock (&registry_lock);
}

const struct ash_packed *
ash_packed_of (const json_t *results)
{
  if (results == NULL || atomic_load (&registry_any) == 0)
    return NULL;
  const struct ash_packed *p = NULL;
  pthread_mutex_lock (&registry_lock);
  for (size_t i = 0; i < registry_n && !p; i++)
    if (registry[i].array == results)
      p = registry[i].p;
  pthread_mutex_unlock (&registry_lock);
  return p;
}

void
ash_packed_forget_all (void)
{
  pthread_mutex_lock (&registry_lock);
  for (size_t i = 0; i < registry_n; i++)
    {
      json_decref (registry[i].array);
      ash_packed_free (registry[i].p);
    }
  free (registry);
  registry = NULL;
  registry_n = registry_alloc = 0;
  atomic_store (&registry_any, 0);
  pthread_mutex_unlock (&registry_lock);
}

/* ---- Runs ------------------------------------------------------------ */

void
ash_sarif_pack (json_t *doc)
{
  size_t i;
  json_t *run;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    {
      json_t *results = json_object_get (run, "results");
      if (!json_is_array (results) || json_array_size (results) == 0)
        continue;
      struct ash_packed *p = ash_packed_new ();
      size_t n = json_array_size (results);
      for (size_t j = 0; j < n; j++)
        {
          const json_t *res = json_array_get (results, j);
          ash_packed_add (p, res, (int) ash_sarif_result_severity (res),
                          ash_sarif_result_is_suppressed (res));
        }
      json_array_clear (results);
      registry_add (results, p);
    }
}

size_t
ash_sarif_results_count (const json_t *run)
{
  const json_t *results = json_object_get (run, "results");
  return ash_packed_count (ash_packed_of (results))
         + json_array_size (results);
}

/* Fill the runs of COPY (a deep copy of ORIG's) from ORIG's packed
   ones.  */
static void
unpack_runs (const json_t *orig, json_t *copy)
{
  const json_t *runs = json_object_get (orig, "runs");
  json_t *cruns = json_object_get (copy, "runs");
  for (size_t i = 0; i < json_array_size (runs); i++)
    {
      const struct ash_packed *p = ash_packed_of (
        json_object_get (json_array_get (runs, i), "results"));
      json_t *cres = json_object_get (json_array_get (cruns, i), "results");
      if (p == NULL || !json_is_array (cres))
        continue;
      /* The packed results come first, then what was added after.  */
      for (size_t j = 0; j < p->n; j++)
        json_array_insert_new (cres, j, ash_packed_load (p, j));
    }
}

json_t *
ash_sarif_unpacked_copy (const json_t *doc)
{
  json_t *copy = json_deep_copy (doc);
  if (copy == NULL)
    ash_oom ();
  if (atomic_load (&registry_any) == 0)
    return copy;
  unpack_runs (doc, copy);
  const json_t *sarif = json_object_get (doc, "sarif");
  if (json_is_object (sarif))
    unpack_runs (sarif, json_object_get (copy, "sarif"));
  return copy;
}

void
ash_packed_runs_add (struct ash_packed_runs *r, size_t run, const json_t *res)
{
  if (run >= r->n)
    {
      r->v = xreallocarray (r->v, run + 1, sizeof *r->v);
      memset (r->v + r->n, 0, (run + 1 - r->n) * sizeof *r->v);
      r->n = run + 1;
    }
  if (r->v[run] == NULL)
    r->v[run] = ash_packed_new ();
  ash_packed_add (r->v[run], res, (int) ash_sarif_result_severity (res),
                  ash_sarif_result_is_suppressed (res));
}

void
ash_packed_runs_attach (struct ash_packed_runs *r, const json_t *runs)
{
  for (size_t i = 0; i < r->n; i++)
    {
      json_t *results = json_object_get (json_array_get (runs, i), "results");
      if (r->v[i] && json_is_array (results))
        registry_add (results, r->v[i]);
      else
        ash_packed_free (r->v[i]);
      r->v[i] = NULL;
    }
  ash_packed_runs_clear (r);
}

void
ash_packed_runs_clear (struct ash_packed_runs *r)
{
  for (size_t i = 0; i < r->n; i++)
    ash_packed_free (r->v[i]);
  free (r->v);
  r->v = NULL;
  r->n = 0;
}
