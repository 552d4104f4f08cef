/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for report/json-out.c: the text it writes is json_dumps's,
   byte for byte, for values built to tell them apart; an array made by
   a generator, or written item by item by one, is written as the same
   array held whole; an object written member by member as the same
   object.  */

#include <config.h>

#include <string.h>

#include "base/util.h"
#include "report/json-out.h"
#include "scan/packed.h"
#include "tap.h"

/* V (stolen) written by both, indented and compact.  */
static void
same_as_jansson (json_t *v, const char *what)
{
  static const struct
  {
    bool pretty;
    size_t flags;
  } modes[] = {
    { true, JSON_INDENT (2) | JSON_ENSURE_ASCII | JSON_ENCODE_ANY },
    { false, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY },
  };
  for (size_t i = 0; i < ARRAY_SIZE (modes); i++)
    {
      char *want = json_dumps (v, modes[i].flags);
      _cleanup_free_ char *got = ash_json_text (v, modes[i].pretty);
      _cleanup_free_ char *w = xasprintf ("%s\n", want ? want : "(null)");
      if (!tap_ok (streq (got, w), "%s (%s): json_dumps's text", what,
                   modes[i].pretty ? "indented" : "compact"))
        tap_diag ("got %s want %s", got, w);
      free (want);
    }
  json_decref (v);
}

static void
test_values (void)
{
  /* Every control character, the characters JSON escapes, ASCII's
     last (DEL, not escaped), two, three and four byte sequences.  */
  char s[64];
  size_t n = 0;
  for (int c = 1; c < 0x20; c++)
    s[n++] = (char) c;
  memcpy (s + n, "\"\\/\x7f", 4);
  n += 4;
  const char *utf8 = "\xc3\xa9\xe2\x80\x94\xf0\x9f\x98\x80";
  memcpy (s + n, utf8, strlen (utf8));
  n += strlen (utf8);
  same_as_jansson (json_stringn (s, n), "a string of every kind of escape");
  same_as_jansson (json_stringn ("a\0b", 3), "a string holding a NUL");
  same_as_jansson (json_integer (-9223372036854775807LL - 1),
                   "the least integer");
  same_as_jansson (json_real (0.1), "a real");
  same_as_jansson (json_real (1e300), "a real with an exponent");
  same_as_jansson (json_real (3.0), "a whole real");
  same_as_jansson (json_null (), "null");
  same_as_jansson (json_array (), "an empty array");
  same_as_jansson (json_object (), "an empty object");
  same_as_jansson (
    json_loads ("{\"k\\u00e9y\": [1, [], {}, [[{\"a\": {\"b\": [true, "
                "false, null]}}]], \"x\"], \"z\": {}, \"a\": 2.5, "
                "\"deep\": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}",
                0, NULL),
    "nested containers, keys in their order, deeper than 32 spaces");
  json_t *k = json_object ();
  json_object_setn_new (k, "a\0b", 3, json_true ());
  same_as_jansson (k, "a key holding a NUL");
}

/* A generator of COUNT integers.  */
struct count
{
  int i, n;
};

static json_t *
count_next (void *ctx)
{
  struct count *c = ctx;
  return c->i < c->n ? json_pack ("{s:i}", "n", c->i++) : NULL;
}

static void
test_gen (void)
{
  for (int n = 0; n < 3; n++)
    {
      struct count c = { 0, n };
      json_t *hole = json_array ();
      json_t *doc = json_pack ("{s:s, s:O, s:i}", "before", "x", "items", hole,
                               "after", 1);
      struct ash_json_gen g = { .array = hole, .next = count_next, .ctx = &c };
      _cleanup_free_ char *got = ash_json_text_gen (doc, true, &g);
      for (int i = 0; i < n; i++)
        json_array_append_new (hole, json_pack ("{s:i}", "n", i));
      _cleanup_free_ char *want = ash_json_text (doc, true);
      tap_is_str (got, want,
                  "%d items made one at a time: the text of the whole array",
                  n);
      json_decref (hole);
      json_decref (doc);
    }
}

/* The value count_next makes for item I, written member by member:
   {"n": I, "s": "\u00e9\"", "o": {}, "p": {"q": [<ITEMS>]}}.  */
static void
count_item_write (struct ash_out *o, int depth, int i)
{
  struct ash_out_obj w, e, p;
  ash_out_obj_begin (&w, o, depth);
  ash_out_obj_int (&w, "n", i);
  ash_out_obj_str (&w, "s", "\xc3\xa9\"");
  ash_out_obj_key (&w, "o");
  ash_out_obj_begin (&e, o, depth + 1);
  ash_out_obj_end (&e);
  ash_out_obj_key (&w, "p");
  ash_out_obj_begin (&p, o, depth + 1);
  json_t *q = json_pack ("[i, {s:[]}]", i, "r");
  ash_out_obj_json (&p, "q", q);
  json_decref (q);
  ash_out_obj_end (&p);
  ash_out_obj_end (&w);
}

static json_t *
count_item (int i)
{
  return json_pack ("{s:i, s:s, s:{}, s:{s:[i, {s:[]}]}}", "n", i, "s",
                    "\xc3\xa9\"", "o", "p", "q", i, "r");
}

static bool
count_write (void *ctx, struct ash_out *o, int depth, bool first)
{
  struct count *c = ctx;
  if (c->i >= c->n)
    return false;
  ash_out_item_start (o, depth, first);
  count_item_write (o, depth, c->i++);
  return true;
}

static void
test_gen_write (void)
{
  for (int pretty = 0; pretty < 2; pretty++)
    for (int n = 0; n < 3; n++)
      {
        struct count c = { 0, n };
        json_t *hole = json_array ();
        json_t *doc = json_pack ("{s:s, s:O, s:i}", "before", "x", "items",
                                 hole, "after", 1);
        struct ash_json_gen g
          = { .array = hole, .ctx = &c, .write = count_write };
        _cleanup_free_ char *got = ash_json_text_gen (doc, pretty, &g);
        for (int i = 0; i < n; i++)
          json_array_append_new (hole, count_item (i));
        _cleanup_free_ char *want = ash_json_text (doc, pretty);
        tap_is_str (got, want,
                    "%s: %d items written by the generator: the text of "
                    "the whole array",
                    pretty ? "indented" : "compact", n);
        json_decref (hole);
        json_decref (doc);
      }
  /* An object written member by member at depth 0, as a document.  */
  for (int pretty = 0; pretty < 2; pretty++)
    {
      struct ash_out o = ASH_OUT_MEMORY_INIT;
      o.compact = !pretty;
      count_item_write (&o, 0, 7);
      ash_out_add (&o, "\n", 1);
      _cleanup_free_ char *got = ash_buf_detach (&o.b);
      json_t *v = count_item (7);
      _cleanup_free_ char *want = ash_json_text (v, pretty);
      json_decref (v);
      tap_is_str (got, want, "%s: an object written member by member",
                  pretty ? "indented" : "compact");
    }
}

/* Strings of every length up to 40 made of pieces drawn at random (a
   fixed seed) from plain ASCII, the characters JSON escapes and
   multi-byte sequences, so that each kind of byte falls at every
   offset of the eight-byte words the writer scans: all written as
   json_dumps writes them.  */
static void
test_string_offsets (void)
{
  static const char *const pieces[] = {
    "a",
    "Z",
    "0",
    " ",
    "~",
    "\x7f",
    "\"",
    "\\",
    "/",
    "\n",
    "\t",
    "\x01",
    "\x1f",
    "\xc3\xa9",
    "\xe6\x97\xa5",
    "\xf0\x9f\x98\x80",
  };
  unsigned seed = 22;
  size_t bad = 0, n = 0;
  for (size_t len = 0; len <= 40; len++)
    for (int round = 0; round < 50; round++)
      {
        char text[256];
        size_t k = 0;
        while (k < len)
          {
            seed = seed * 1103515245u + 12345u;
            const char *p = pieces[(seed >> 16) % ARRAY_SIZE (pieces)];
            size_t l = strlen (p);
            if (k + l >= sizeof text)
              break;
            memcpy (text + k, p, l);
            k += l;
          }
        text[k] = '\0';
        json_t *v = json_string (text);
        char *want
          = json_dumps (v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
        _cleanup_free_ char *got = ash_json_text (v, false);
        _cleanup_free_ char *w = xasprintf ("%s\n", want ? want : "(null)");
        if (!streq (got, w))
          {
            if (bad++ == 0)
              tap_diag ("got %s want %s", got, w);
          }
        n++;
        free (want);
        json_decref (v);
      }
  tap_ok (bad == 0 && n == 41 * 50,
          "%zu strings of every length to 40: json_dumps's text", n);
}

/* A SARIF log whose one run's results are VALUES (stolen), nested
   under "sarif" of an aggregated-like document when NESTED.  */
static json_t *
log_of (json_t *values, bool nested)
{
  json_t *doc
    = json_pack ("{s:s, s:[{s:{s:{s:s}}, s:o}, {s:{s:{s:s}}}]}", "version",
                 "2.1.0", "runs", "tool", "driver", "name", "t", "results",
                 values, "tool", "driver", "name", "u");
  if (!nested)
    return doc;
  return json_pack ("{s:i, s:o, s:[]}", "first", 1, "sarif", doc, "last");
}

/* Packed results (scan/packed.h) are written as the tree they were:
   indented at their depth and compact, whatever their values.  */
static void
test_packed (void)
{
  const char *const texts[] = {
    "{\"ruleId\": \"B101\", \"message\": {\"text\": \"a \\\"quoted\\\" "
    "[brace] {x}: y, z\"}, \"locations\": [{\"physicalLocation\": "
    "{\"artifactLocation\": {\"uri\": \"caf\\u00e9/a.py\"}, \"region\": "
    "{\"startLine\": 3, \"snippet\": {\"text\": \"\\n\\t\\u0001\"}}}}], "
    "\"properties\": {\"tags\": [], \"x\": {}, \"r\": 2.5, \"n\": -7, "
    "\"deep\": [[[[{\"a\": [null, true, false]}]]]]}}",
    "{}",
    "{\"message\": {\"text\": \"\"}, \"empty\": [{}, [], [[]], {\"a\": {}}]}",
    "[1, [2, [3]], {\"k:\": \",\"}]",
    "\"a string result\"",
    "42",
  };
  json_t *values = json_array ();
  for (size_t i = 0; i < ARRAY_SIZE (texts); i++)
    {
      json_error_t e;
      json_t *v = json_loads (texts[i], JSON_DECODE_ANY, &e);
      if (!tap_ok (v != NULL, "packed: test value %zu parses", i))
        tap_diag ("%s", e.text);
      json_array_append_new (values, v ? v : json_null ());
    }
  for (int nested = 0; nested < 2; nested++)
    {
      json_t *tree = log_of (json_deep_copy (values), nested);
      json_t *packed = json_deep_copy (tree);
      json_t *sarif = nested ? json_object_get (packed, "sarif") : packed;
      ash_sarif_pack (sarif);
      json_t *run0 = json_array_get (json_object_get (sarif, "runs"), 0);
      tap_ok (json_array_size (json_object_get (run0, "results")) == 0
                && ash_packed_of (json_object_get (run0, "results")) != NULL,
              "packed (%s): the results array is emptied and registered",
              nested ? "nested" : "top");
      for (int pretty = 0; pretty < 2; pretty++)
        {
          _cleanup_free_ char *want = ash_json_text (tree, pretty);
          _cleanup_free_ char *got = ash_json_text (packed, pretty);
          char *dumped
            = json_dumps (tree, pretty ? JSON_INDENT (2) | JSON_ENSURE_ASCII
                                       : JSON_COMPACT | JSON_ENSURE_ASCII);
          _cleanup_free_ char *d = xasprintf ("%s\n", dumped);
          free (dumped);
          if (!tap_ok (streq (got, want) && streq (got, d),
                       "packed (%s, %s): the text of the tree",
                       nested ? "nested" : "top",
                       pretty ? "indented" : "compact"))
            tap_diag ("got %s want %s", got, want);
        }
      tap_ok (ash_sarif_results_count (run0) == ARRAY_SIZE (texts),
              "packed: the count of the packed run");
      bool same = true;
      for (size_t i = 0; i < ARRAY_SIZE (texts); i++)
        {
          json_t *r = ash_packed_load (ash_packed_of (
                                         json_object_get (run0, "results")),
                                       i);
          same = same && json_equal (r, json_array_get (values, i));
          json_decref (r);
        }
      tap_ok (same, "packed: each result parsed again equals the tree's");
      json_t *copy = ash_sarif_unpacked_copy (packed);
      tap_ok (json_equal (copy, tree), "packed (%s): the unpacked copy",
              nested ? "nested" : "top");
      json_decref (copy);
      /* A result added after packing comes after the packed ones.  */
      json_array_append_new (json_object_get (run0, "results"),
                             json_string ("added"));
      json_array_append_new (
        json_object_get (
          json_array_get (
            json_object_get (nested ? json_object_get (tree, "sarif") : tree,
                             "runs"),
            0),
          "results"),
        json_string ("added"));
      _cleanup_free_ char *want = ash_json_text (tree, true);
      _cleanup_free_ char *got = ash_json_text (packed, true);
      tap_ok (streq (got, want)
                && ash_sarif_results_count (run0) == ARRAY_SIZE (texts) + 1,
              "packed: a result added after packing is written after them");
      json_decref (tree);
      json_decref (packed);
    }
  json_decref (values);
  ash_packed_forget_all ();
  tap_ok (ash_packed_of (NULL) == NULL, "packed: forgotten");
}

int
main (void)
{
  test_values ();
  test_string_offsets ();
  test_gen ();
  test_gen_write ();
  test_packed ();
  return tap_done ();
}
