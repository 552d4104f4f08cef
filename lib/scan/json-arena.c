/* SPDX-License-Identifier: Apache-2.0 */
/* json-arena.c -- the memory of the documents a large parse makes.  */

#include <config.h>

#include "scan/json-arena.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>

/* At the start of each chunk.  LIVE counts the allocations in the chunk
   that are not freed, and one more while a thread carves from it: the
   one that brings it to 0 gives the chunk back.  */
struct chunk_head
{
  atomic_size_t live;
  struct chunk_head *next; /* on the list of free chunks */
};
#define HEAD_SIZE ((size_t) 64)
#define CHUNK ASH_JSON_ARENA_CHUNK

/* Under AddressSanitizer every allocation stays malloc's, so that it
   still sees a use after free.  */
#if defined __SANITIZE_ADDRESS__
#define ARENA_OFF 1
#elif defined __has_feature
#if __has_feature(address_sanitizer)
#define ARENA_OFF 1
#endif
#endif

/* The region, [lo, hi), set once: HI is stored after LO and read before
   it, so that a thread that sees HI sees LO too (and one that sees no
   HI finds no pointer in the region).  */
static atomic_uintptr_t region_lo, region_hi;
static pthread_once_t region_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;
/* Under REGION_LOCK: the first chunk never taken, the free chunks.  */
static char *fresh;
static struct chunk_head *free_chunks;
static atomic_size_t chunks_in_use;
static atomic_bool enabled = true;

/* The chunk the thread carves from (NULL: none), and its bytes used.  */
static _Thread_local struct
{
  char *base;
  size_t used;
} cur;

/* Address space only (no memory is committed until a chunk is taken):
   64 GiB, or 4 GiB where that much cannot be had, aligned to a chunk.
   Under a limit on the address space (RLIMIT_AS) at most a quarter of
   it, so that malloc keeps the rest; none when that is under 16 chunks
   (every allocation is malloc's then).  */
static void
region_reserve (void)
{
#if SIZE_MAX > 0xffffffffu
  size_t sizes[] = { (size_t) 1 << 36, (size_t) 1 << 32 };
#else
  size_t sizes[] = { (size_t) 1 << 28, (size_t) 1 << 26 };
#endif
  int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_NORESERVE
  flags |= MAP_NORESERVE;
#endif
  struct rlimit rl;
  if (getrlimit (RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    {
      rlim_t quarter = rl.rlim_cur / 4 / CHUNK * CHUNK;
      for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (quarter < sizes[i])
          sizes[i] = (size_t) quarter;
    }
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    {
      if (sizes[i] < 16 * CHUNK)
        continue;
      void *m = mmap (NULL, sizes[i] + CHUNK, PROT_NONE, flags, -1, 0);
      if (m == MAP_FAILED)
        continue;
      uintptr_t lo = ((uintptr_t) m + CHUNK - 1) & ~(uintptr_t) (CHUNK - 1);
      fresh = (char *) lo;
      atomic_store_explicit (&region_lo, lo, memory_order_relaxed);
      atomic_store_explicit (&region_hi, lo + sizes[i], memory_order_release);
      return;
    }
}

static char *
chunk_take (void)
{
  char *c = NULL;
  bool is_new = false;

  pthread_once (&region_once, region_reserve);
  pthread_mutex_lock (&region_lock);
  if (free_chunks)
    {
      c = (char *) free_chunks;
      free_chunks = free_chunks->next;
    }
  else if (fresh
           && (uintptr_t) fresh + CHUNK
                <= atomic_load_explicit (&region_hi, memory_order_relaxed))
    {
      c = fresh;
      fresh += CHUNK;
      is_new = true;
    }
  pthread_mutex_unlock (&region_lock);
  if (c == NULL)
    return NULL;
  /* A chunk that cannot be made writable is left out of use.  */
  if (is_new && mprotect (c, CHUNK, PROT_READ | PROT_WRITE) != 0)
    return NULL;
  struct chunk_head *h = (void *) c;
  atomic_init (&h->live, 1);
  h->next = NULL;
  atomic_fetch_add_explicit (&chunks_in_use, 1, memory_order_relaxed);
  return c;
}

/* H's pages back to the kernel, H on the free list.  */
static void
chunk_give_back (struct chunk_head *h)
{
  madvise (h, CHUNK, MADV_DONTNEED);
  pthread_mutex_lock (&region_lock);
  h->next = free_chunks;
  free_chunks = h;
  pthread_mutex_unlock (&region_lock);
  atomic_fetch_sub_explicit (&chunks_in_use, 1, memory_order_relaxed);
}

static void
chunk_unref (struct chunk_head *h)
{
  if (atomic_fetch_sub_explicit (&h->live, 1, memory_order_acq_rel) == 1)
    chunk_give_back (h);
}

void *
ash_json_arena_alloc (size_t n)
{
#ifdef ARENA_OFF
  (void) n;
  return NULL;
#else
  if (n > CHUNK / 8 || !atomic_load_explicit (&enabled, memory_order_relaxed))
    return NULL;
  n = n ? (n + 7) & ~(size_t) 7 : 8;
  if (cur.base == NULL || cur.used + n > CHUNK)
    {
      ash_json_arena_end ();
      cur.base = chunk_take ();
      if (cur.base == NULL)
        return NULL;
      cur.used = HEAD_SIZE;
    }
  struct chunk_head *h = (void *) cur.base;
  void *p = cur.base + cur.used;
  cur.used += n;
  atomic_fetch_add_explicit (&h->live, 1, memory_order_relaxed);
  return p;
#endif
}

bool
ash_json_arena_free (void *p)
{
  uintptr_t a = (uintptr_t) p;
  uintptr_t hi = atomic_load_explicit (&region_hi, memory_order_acquire);
  if (a >= hi || a < atomic_load_explicit (&region_lo, memory_order_relaxed))
    return false;
  chunk_unref ((struct chunk_head *) (a & ~(uintptr_t) (CHUNK - 1)));
  return true;
}

void
ash_json_arena_end (void)
{
  if (cur.base == NULL)
    return;
  struct chunk_head *h = (void *) cur.base;
  cur.base = NULL;
  chunk_unref (h);
}

void
ash_json_arena_enable (bool on)
{
  atomic_store_explicit (&enabled, on, memory_order_relaxed);
}

size_t
ash_json_arena_chunks_in_use (void)
{
  return atomic_load_explicit (&chunks_in_use, memory_order_relaxed);
}
