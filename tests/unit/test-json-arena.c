/* SPDX-License-Identifier: Apache-2.0 */
/* test-json-arena.c -- the chunks that a large parse's document is made
   in: carving, giving chunks back, frees from other threads, and
   documents parsed there that are the same as malloc's.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/util.h"
#include "scan/json-arena.h"
#include "scan/sarif.h"
#include "tap.h"

#define CHUNK ASH_JSON_ARENA_CHUNK

static uintptr_t
chunk_of (const void *p)
{
  return (uintptr_t) p & ~(uintptr_t) (CHUNK - 1);
}

/* Blocks of many sizes, each filled with its own byte, do not overlap,
   are 8-byte aligned, and span more than one chunk; once every one is
   freed and the thread is done, no chunk is taken.  */
static void
carve_cases (void)
{
  enum
  {
    N = 20000
  };
  static void *v[N];
  static size_t sz[N];
  size_t total = 0;
  bool aligned = true;

  for (size_t i = 0; i < N; i++)
    {
      sz[i] = 1 + (i * 37) % 200;
      v[i] = ash_json_arena_alloc (sz[i]);
      if (v[i] == NULL)
        {
          tap_ok (false, "carve: block %zu made", i);
          return;
        }
      aligned &= ((uintptr_t) v[i] & 7) == 0;
      memset (v[i], (int) (i & 0xff), sz[i]);
      total += sz[i];
    }
  tap_ok (aligned, "carve: every block is 8-byte aligned");
  bool intact = true;
  for (size_t i = 0; i < N; i++)
    for (size_t k = 0; k < sz[i]; k++)
      intact &= ((unsigned char *) v[i])[k] == (i & 0xff);
  tap_ok (intact, "carve: no block overlaps another (%zu bytes)", total);
  tap_ok (chunk_of (v[0]) != chunk_of (v[N - 1]),
          "carve: the blocks span more than one chunk");
  tap_ok (ash_json_arena_chunks_in_use () >= 2, "carve: %zu chunks taken",
          ash_json_arena_chunks_in_use ());
  size_t theirs = 0;
  for (size_t i = 0; i < N; i++)
    theirs += ash_json_arena_free (v[i]);
  tap_is_int (theirs, N, "carve: every block is the arena's to free");
  tap_is_int (ash_json_arena_chunks_in_use (), 1,
              "carve: all freed, the chunk carved from stays taken");
  ash_json_arena_end ();
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "carve: once the thread is done, no chunk is taken");
}

/* A chunk given back is the next one taken; a block too large and a
   pointer of malloc's are not the arena's.  */
static void
reuse_cases (void)
{
  void *a = ash_json_arena_alloc (16);
  uintptr_t c = chunk_of (a);
  tap_ok (ash_json_arena_free (a), "reuse: freed");
  ash_json_arena_end ();
  tap_is_int (ash_json_arena_chunks_in_use (), 0, "reuse: given back");
  void *b = ash_json_arena_alloc (16);
  tap_ok (chunk_of (b) == c, "reuse: the chunk given back is taken again");
  /* Its pages were given to the kernel: the chunk is usable again.  */
  memset (b, 0x5a, 16);
  tap_ok (((unsigned char *) b)[15] == 0x5a, "reuse: it is writable");
  ash_json_arena_free (b);
  ash_json_arena_end ();

  tap_ok (ash_json_arena_alloc (CHUNK / 8 + 1) == NULL,
          "big block: one over an eighth of a chunk is left to malloc");
  void *big = ash_json_arena_alloc (CHUNK / 8);
  tap_ok (big != NULL, "big block: an eighth of a chunk is made in one");
  ash_json_arena_end ();
  tap_is_int (ash_json_arena_chunks_in_use (), 1,
              "big block: the unfreed block keeps its chunk");
  ash_json_arena_free (big);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "big block: freed, its chunk is given back");
  char *m = malloc (64);
  tap_ok (!ash_json_arena_free (m), "malloc's pointer is not the arena's");
  free (m);
  tap_ok (!ash_json_arena_free (NULL), "NULL is not the arena's");
}

struct carved
{
  void **v;
  size_t n;
};

static void *
carve_thread (void *arg)
{
  struct carved *c = arg;
  for (size_t i = 0; i < c->n; i++)
    c->v[i] = ash_json_arena_alloc (100);
  ash_json_arena_end ();
  return NULL;
}

/* Blocks carved on another thread are freed here, and their chunks go
   back when the last is.  */
static void
thread_cases (void)
{
  size_t before = ash_json_arena_chunks_in_use ();
  struct carved c = { .n = 30000 };
  c.v = xcalloc (c.n, sizeof *c.v);
  pthread_t t;
  pthread_create (&t, NULL, carve_thread, &c);
  pthread_join (t, NULL);
  tap_ok (ash_json_arena_chunks_in_use () > before,
          "thread: its chunks are taken after it is done");
  for (size_t i = 0; i < c.n; i++)
    ash_json_arena_free (c.v[i]);
  tap_is_int (ash_json_arena_chunks_in_use (), before,
              "thread: freed here, its chunks are given back");
  free (c.v);
}

/* A SARIF log of N results.  */
static char *
sarif_doc (size_t n, bool truncated)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addf (&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                    "{\"name\":\"t\",\"rules\":[{\"id\":\"R1\"}, 7]}},"
                    "\"results\":[");
  for (size_t i = 0; i < n; i++)
    ash_buf_addf (&b,
                  "%s{\"ruleId\":\"R%zu\",\"level\":\"%s\",\"message\":{"
                  "\"text\":\"finding \\u00e9 %zu\"},\"locations\":[{"
                  "\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
                  "\"src/f%zu.py\"},\"region\":{\"startLine\":%zu,"
                  "\"endLine\":0}}}],\"properties\":{\"n\":%zu.5}}",
                  i ? "," : "", i % 50, i % 3 ? "warning" : "bogus", i, i,
                  i % 90, i);
  ash_buf_addf (&b, truncated ? "]}]" : "]}]}");
  return ash_buf_detach (&b);
}

/* A parse of a quarter of a chunk or more is made in the arena, and its
   document is the same as the one a parse in malloc's memory gives
   (after the same checks); a refused or failed parse leaves no chunk
   taken, and a small one takes none.  */
static void
parse_cases (void)
{
  _cleanup_free_ char *text = sarif_doc (4000, false);
  size_t len = strlen (text);
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;

  tap_ok (len >= CHUNK / 4, "parse: a document of %zu bytes", len);
  tap_is_int (ash_sarif_parse (text, len, &doc, &err), 0, "parse: read");
  tap_ok (ash_json_arena_chunks_in_use () > 0,
          "parse: its document is in %zu chunks",
          ash_json_arena_chunks_in_use ());
  _cleanup_free_ char *got
    = json_dumps (doc, JSON_INDENT (2) | JSON_SORT_KEYS);
  json_decref (doc);
  doc = NULL;
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parse: the document freed, its chunks are given back");

  /* The same text in malloc's memory.  */
  ash_json_arena_enable (false);
  tap_is_int (ash_sarif_parse (text, len, &doc, &err), 0,
              "parse: read in malloc's memory");
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parse: with the arena off, no chunk is taken");
  ash_json_arena_enable (true);
  _cleanup_free_ char *want
    = json_dumps (doc, JSON_INDENT (2) | JSON_SORT_KEYS);
  json_decref (doc);
  doc = NULL;
  tap_ok (got && want && streq (got, want),
          "parse: the document is the same in the arena");
  json_t *plain = json_loadb (text, len, 0, NULL);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parse: a parse outside the budget is not in the arena");
  json_decref (plain);

  _cleanup_free_ char *cut = sarif_doc (4000, true);
  tap_is_int (ash_sarif_parse (cut, strlen (cut), &doc, &err), -EINVAL,
              "parse: a truncated document is refused");
  tap_ok (err.message && strstr (err.message, "not JSON"),
          "parse: as not JSON (%s)", err.message ? err.message : "none");
  ash_error_release (&err);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parse: a failed parse leaves no chunk taken");

  struct ash_buf dense = ASH_BUF_INIT;
  ash_buf_addf (&dense,
                "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                "{\"name\":\"t\"}},\"results\":[{}");
  for (size_t i = 0; i < 400000; i++)
    ash_buf_addf (&dense, ",{}");
  ash_buf_addf (&dense, "]}]}");
  tap_is_int (ash_sarif_parse (dense.buf, dense.len, &doc, &err), -EFBIG,
              "parse: %zu bytes of empty objects are over the budget",
              dense.len);
  ash_error_release (&err);
  ash_buf_release (&dense);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parse: a refused parse leaves no chunk taken");

  _cleanup_free_ char *small = sarif_doc (10, false);
  tap_is_int (ash_sarif_parse (small, strlen (small), &doc, &err), 0,
              "parse: a small document is read");
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parse: a small document is not in the arena");
  json_decref (doc);
}

/* Hostile documents large enough to be parsed in the arena: each is
   refused (or read) with the same code and message as with the arena
   off, and leaves no chunk taken.  Each is a valid log of many results
   with one more result, TAIL, before the end.  */
static void
hostile_cases (void)
{
  static const struct
  {
    const char *name, *tail;
    bool ok;
  } cases[] = {
    { "deep nesting", "", false },
    { "NUL in a string", "{\"message\":{\"text\":\"a\\u0000b\"}}", false },
    { "invalid UTF-8", "{\"message\":{\"text\":\"a\xff\xfe\"}}", false },
    { "a lone surrogate", "{\"message\":{\"text\":\"\\ud800\"}}", false },
    { "a duplicate key", "{\"message\":{\"text\":\"a\",\"text\":\"b\"}}",
      false },
    { "an integer out of range",
      "{\"message\":{\"text\":\"a\"},\"rank\":123456789012345678901234}",
      false },
    { "a real out of range", "{\"message\":{\"text\":\"a\"},\"rank\":1e999}",
      false },
    { "a result without a message", "{\"ruleId\":\"x\"}", false },
    { "a result that is not an object", "17", false },
    { "a huge string", "", true },
    { "truncated", "{\"message\":{\"text\":\"a", false },
    { "runs not an array", NULL, false },
    { "results not an array", NULL, false },
  };
  _cleanup_free_ char *base = sarif_doc (3000, false);
  size_t blen = strlen (base) - 4; /* without "]}]}" */

  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      struct ash_buf b = ASH_BUF_INIT;
      ash_buf_add (&b, base, blen);
      ash_buf_addf (&b, ",");
      if (streq (cases[i].name, "deep nesting"))
        {
          ash_buf_addf (&b, "{\"message\":{\"text\":\"a\"},\"x\":");
          for (int k = 0; k < 5000; k++)
            ash_buf_addf (&b, "[");
          for (int k = 0; k < 5000; k++)
            ash_buf_addf (&b, "]");
          ash_buf_addf (&b, "}");
        }
      else if (streq (cases[i].name, "a huge string"))
        {
          ash_buf_addf (&b, "{\"message\":{\"text\":\"");
          for (int k = 0; k < 300000; k++)
            ash_buf_addf (&b, "abc\\n");
          ash_buf_addf (&b, "\"}}");
        }
      else if (cases[i].tail == NULL)
        {
          /* A log of the wrong shape after a long string.  */
          ash_buf_reset (&b);
          ash_buf_addf (&b, "{\"version\":\"2.1.0\",\"pad\":\"");
          for (int k = 0; k < 100000; k++)
            ash_buf_addf (&b, "pad");
          ash_buf_addf (&b, "\",%s}",
                        streq (cases[i].name, "runs not an array")
                          ? "\"runs\":{}"
                          : "\"runs\":[{\"tool\":{\"driver\":{"
                            "\"name\":\"t\"}},\"results\":7}]");
        }
      else
        ash_buf_addf (&b, "%s", cases[i].tail);
      if (!streq (cases[i].name, "truncated") && cases[i].tail)
        ash_buf_addf (&b, "]}]}");

      struct ash_error e1 = ASH_ERROR_INIT, e2 = ASH_ERROR_INIT;
      json_t *d1 = NULL, *d2 = NULL;
      int r1 = ash_sarif_parse (b.buf, b.len, &d1, &e1);
      bool arena = ash_json_arena_chunks_in_use () > 0;
      ash_json_arena_enable (false);
      int r2 = ash_sarif_parse (b.buf, b.len, &d2, &e2);
      ash_json_arena_enable (true);
      tap_ok (cases[i].ok ? r1 == 0 : r1 < 0, "hostile, %s: %s (%s)",
              cases[i].name, cases[i].ok ? "read" : "refused",
              e1.message ? e1.message : "no message");
      tap_is_int (r1, r2, "hostile, %s: the code without the arena",
                  cases[i].name);
      tap_is_str (e1.message ? e1.message : "", e2.message ? e2.message : "",
                  "hostile, %s: the message without the arena", cases[i].name);
      tap_ok (!cases[i].ok || (arena && json_equal (d1, d2)),
              "hostile, %s: the document in the arena, as without",
              cases[i].name);
      json_decref (d1);
      json_decref (d2);
      tap_is_int (ash_json_arena_chunks_in_use (), 0,
                  "hostile, %s: no chunk is left taken", cases[i].name);
      ash_error_release (&e1);
      ash_error_release (&e2);
      ash_buf_release (&b);
    }
}

/* A scanner's file parsed as it is read: in the arena, the same
   document as the text's.  */
static void
file_cases (void)
{
  _cleanup_free_ char *text = sarif_doc (4000, false);
  char dir[] = "/tmp/test-json-arena.XXXXXX";
  if (mkdtemp (dir) == NULL)
    {
      tap_ok (false, "file: a temporary directory");
      return;
    }
  _cleanup_close_ int dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int fd = openat (dfd, "big.sarif", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  bool written
    = fd >= 0 && write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  if (fd >= 0)
    close (fd);
  tap_ok (written, "file: written");
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL, *want = NULL;
  size_t len = 0;
  bool unread = true;
  int r = ash_sarif_parse_file (dfd, "big.sarif", (size_t) 1 << 24, &doc, &len,
                                &unread, &err);
  tap_ok (r == 0 && !unread && len == strlen (text), "file: read whole");
  tap_ok (ash_json_arena_chunks_in_use () > 0, "file: in the arena");
  ash_json_arena_enable (false);
  tap_is_int (ash_sarif_parse (text, strlen (text), &want, &err), 0,
              "file: the text read without the arena");
  ash_json_arena_enable (true);
  tap_ok (doc && want && json_equal (doc, want),
          "file: the same document as the text's");
  json_decref (doc);
  json_decref (want);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "file: freed, no chunk is taken");
  ash_error_release (&err);
  unlinkat (dfd, "big.sarif", 0);
  rmdir (dir);
}

/* A document ash wrote itself, read again without a budget: in the
   arena when large, the same as jansson's; its errors are jansson's.  */
static void
large_cases (void)
{
  _cleanup_free_ char *text = sarif_doc (4000, false);
  size_t len = strlen (text);
  json_error_t je;

  json_t *doc = ash_json_loadb_large (text, len, JSON_REJECT_DUPLICATES, &je);
  tap_ok (doc != NULL, "large: read");
  tap_ok (ash_json_arena_chunks_in_use () > 0, "large: in the arena");
  json_t *plain = json_loadb (text, len, JSON_REJECT_DUPLICATES, NULL);
  tap_ok (json_equal (doc, plain), "large: the same document as jansson's");
  json_decref (plain);
  json_decref (doc);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "large: freed, no chunk is taken");

  /* A duplicate key near the end.  */
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_add (&b, text, len - 1);
  ash_buf_addf (&b, ",\"version\":\"2.1.0\"}");
  json_error_t want;
  json_t *none = json_loadb (b.buf, b.len, JSON_REJECT_DUPLICATES, &want);
  doc = ash_json_loadb_large (b.buf, b.len, JSON_REJECT_DUPLICATES, &je);
  tap_ok (none == NULL && doc == NULL, "large: a duplicate key is refused");
  tap_is_str (je.text, want.text, "large: with jansson's message");
  tap_is_int (je.line, want.line, "large: on jansson's line");
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "large: a refused document leaves no chunk taken");
  ash_buf_release (&b);
}

struct parsed
{
  const char *text;
  json_t *doc;
  int r;
};

static void *
parse_thread (void *arg)
{
  struct parsed *p = arg;
  struct ash_error err = ASH_ERROR_INIT;
  p->r = ash_sarif_parse (p->text, strlen (p->text), &p->doc, &err);
  ash_error_release (&err);
  return NULL;
}

/* Two parses at once, on two threads, each in chunks of its own; the
   documents freed here.  */
static void
parallel_cases (void)
{
  _cleanup_free_ char *text = sarif_doc (6000, false);
  struct parsed p[2] = { { .text = text }, { .text = text } };
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, parse_thread, &p[i]);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  tap_ok (p[0].r == 0 && p[1].r == 0, "parallel: both read");
  tap_ok (json_equal (p[0].doc, p[1].doc), "parallel: the same documents");
  json_decref (p[0].doc);
  json_decref (p[1].doc);
  tap_is_int (ash_json_arena_chunks_in_use (), 0,
              "parallel: freed, their chunks are given back");
}

/* Under a limit on the address space the region is a quarter of it:
   in a child that sets RLIMIT_AS to 1 GiB before the region is
   reserved, blocks are carved until its 256 MiB are used up (most of
   them: a chunk's tail is left), then left to malloc.  */
static void
rlimit_cases (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      struct rlimit rl = { (rlim_t) 1 << 30, (rlim_t) 1 << 30 };
      if (setrlimit (RLIMIT_AS, &rl) < 0)
        _exit (2);
      size_t made = 0;
      while (made < ((size_t) 1 << 31) && ash_json_arena_alloc (CHUNK / 8))
        made += CHUNK / 8;
      _exit (made > ((size_t) 192 << 20) && made <= ((size_t) 256 << 20) ? 0
                                                                         : 1);
    }
  int st = -1;
  waitpid (pid, &st, 0);
  tap_ok (WIFEXITED (st) && WEXITSTATUS (st) == 0,
          "rlimit: under RLIMIT_AS of 1 GiB the region is 256 MiB (%d)", st);
}

int
main (void)
{
  /* Under AddressSanitizer every allocation is malloc's: nothing to test
     (and the region is reserved by the probe, so the RLIMIT_AS child,
     which must reserve it itself, comes after).  */
  pid_t pid = fork ();
  if (pid == 0)
    {
      void *p = ash_json_arena_alloc (8);
      _exit (p ? 0 : 77);
    }
  int st = -1;
  waitpid (pid, &st, 0);
  if (WIFEXITED (st) && WEXITSTATUS (st) == 77)
    tap_skip_all ("the arena is off in this build");
  rlimit_cases ();
  void *probe = ash_json_arena_alloc (8);
  ash_json_arena_free (probe);
  ash_json_arena_end ();
  carve_cases ();
  reuse_cases ();
  thread_cases ();
  parse_cases ();
  large_cases ();
  hostile_cases ();
  file_cases ();
  parallel_cases ();
  return tap_done ();
}
