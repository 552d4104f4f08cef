/* SPDX-License-Identifier: Apache-2.0 */
/* test-config-limits.c -- the configuration loaders refuse documents that
   expand beyond their limits (nested aliases, too many nodes, too deep)
   instead of building them.  The test runs under a 512 MiB address-space
   limit, so that a loader without limits fails here rather than taking
   the machine's memory.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "config/ashconfig.h"
#include "tap.h"

static char tmpdir[] = "/tmp/ash-test-config-limits.XXXXXX";

/* A billion-laughs document: NLEVELS levels of NFAN aliases each.  */
static char *
laughs (int nlevels, int nfan)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, "project_name: x\nl0: &l0 \"lol\"\n");
  for (int l = 1; l <= nlevels; l++)
    {
      ash_buf_addf (&b, "l%d: &l%d [", l, l);
      for (int i = 0; i < nfan; i++)
        ash_buf_addf (&b, "%s*l%d", i ? "," : "", l - 1);
      ash_buf_addstr (&b, "]\n");
    }
  return ash_buf_detach (&b);
}

static char *
write_file (const char *name, const char *text)
{
  char *p = xasprintf ("%s/%s", tmpdir, name);
  FILE *f = fopen (p, "w");
  if (!f || fputs (text, f) < 0 || fclose (f) != 0)
    {
      perror (p);
      exit (99);
    }
  return p;
}

/* AddressSanitizer reserves terabytes of address space for its shadow, so
   an address-space limit stops it from starting: under it, its own limit
   on the memory the program maps (shadow excluded) does the same job.  */
#if defined __SANITIZE_ADDRESS__
#define ASH_TEST_ASAN 1
#elif defined __has_feature
#if __has_feature(address_sanitizer)
#define ASH_TEST_ASAN 1
#endif
#endif
#ifdef ASH_TEST_ASAN
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "malloc_limit_mb=512";
}
#endif

int
main (void)
{
#ifndef ASH_TEST_ASAN
  struct rlimit rl = { 512UL << 20, 512UL << 20 };
  if (setrlimit (RLIMIT_AS, &rl) < 0)
    {
      perror ("setrlimit");
      return 99;
    }
#endif
  if (!mkdtemp (tmpdir))
    {
      perror ("mkdtemp");
      return 99;
    }
  struct ash_error e = ASH_ERROR_INIT;
  json_t *tree = NULL;

  /* Negative control: a few aliases of a small anchor load.  */
  _cleanup_free_ char *small = laughs (3, 4);
  tap_is_int (ash_config_parse_yaml (small, strlen (small), "ok.yaml", &tree,
                                     NULL, &e),
              0, "a document with a few aliases loads");
  tap_is_int (json_array_size (json_object_get (tree, "l3")), 4,
              "and its aliases are expanded");
  json_decref (tree);
  tree = NULL;

  _cleanup_free_ char *bomb = laughs (9, 10);
  tap_ok (strlen (bomb) < 1024, "the alias bomb is %zu bytes", strlen (bomb));
  int r = ash_config_parse_yaml (bomb, strlen (bomb), "bomb.yaml", &tree, NULL,
                                 &e);
  tap_is_int (r, -E2BIG, "a billion-laughs document is refused");
  tap_ok (e.message && strstr (e.message, "more than 200000 nodes"),
          "saying why (%s)", e.message ? e.message : "");
  tap_ok (e.line > 1, "at the alias that passed the limit (line %d)", e.line);
  tap_ok (tree == NULL, "and no tree is returned");

  /* One long string aliased many times: few nodes, much text.  */
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, "s: &s \"");
  for (int i = 0; i < 1 << 20; i++)
    ash_buf_addch (&b, 'x');
  ash_buf_addstr (&b, "\"\nl: [");
  for (int i = 0; i < 200; i++)
    ash_buf_addstr (&b, i ? ",*s" : "*s");
  ash_buf_addstr (&b, "]\n");
  r = ash_config_parse_yaml (b.buf, b.len, "text.yaml", &tree, NULL, &e);
  tap_is_int (r, -E2BIG,
              "an alias of a long string copied 200 times is "
              "refused");
  tap_ok (e.message && strstr (e.message, "bytes of text"), "saying why (%s)",
          e.message ? e.message : "");

  /* Depth through aliases: each level nests the one before.  */
  ash_buf_reset (&b);
  ash_buf_addstr (&b, "a0: &a0 [1]\n");
  for (int i = 1; i < 80; i++)
    ash_buf_addf (&b, "a%d: &a%d [*a%d]\n", i, i, i - 1);
  r = ash_config_parse_yaml (b.buf, b.len, "deep.yaml", &tree, NULL, &e);
  tap_is_int (r, -E2BIG, "nesting built from aliases is bounded too");

  /* Too many plain nodes, no alias at all.  */
  ash_buf_reset (&b);
  ash_buf_addstr (&b, "l: [");
  for (int i = 0; i < 250000; i++)
    ash_buf_addstr (&b, i ? ",1" : "1");
  ash_buf_addstr (&b, "]\n");
  r = ash_config_parse_yaml (b.buf, b.len, "wide.yaml", &tree, NULL, &e);
  tap_is_int (r, -E2BIG, "250000 plain nodes are refused");

  /* The same through the JSON loader.  */
  ash_buf_reset (&b);
  ash_buf_addstr (&b, "{\"l\": [");
  for (int i = 0; i < 250000; i++)
    ash_buf_addstr (&b, i ? ",1" : "1");
  ash_buf_addstr (&b, "]}\n");
  _cleanup_free_ char *jp = write_file ("wide.json", b.buf);
  r = ash_config_parse_file (jp, &tree, NULL, &e);
  tap_is_int (r, -E2BIG, "a JSON file of 250000 nodes is refused");
  ash_buf_reset (&b);
  for (int i = 0; i < 100; i++)
    ash_buf_addstr (&b, "{\"a\":");
  ash_buf_addstr (&b, "1");
  for (int i = 0; i < 100; i++)
    ash_buf_addstr (&b, "}");
  _cleanup_free_ char *dp = write_file ("deep.json", b.buf);
  r = ash_config_parse_file (dp, &tree, NULL, &e);
  tap_is_int (r, -E2BIG, "a JSON file nested 100 deep is refused");
  ash_buf_release (&b);
  unlink (jp);
  unlink (dp);
  rmdir (tmpdir);
  ash_error_release (&e);
  return tap_done ();
}
