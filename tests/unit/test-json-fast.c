/* SPDX-License-Identifier: Apache-2.0 */
/* test-json-fast.c -- ash's JSON parser against jansson's: every
   document of a table of tricky ones (and of a few generated ones) is
   accepted or refused by both, read whole and handed over 1, 2, 3, 7
   and 65,536 bytes at a time, and when accepted gives the same value,
   its members in the same order, for the same cost to the parse budget;
   ash_sarif_parse refuses what it refused when jansson parsed, with
   jansson's messages, and at the same size under the budget.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/util.h"
#include "json-same.h"
#include "scan/json-fast.h"
#include "scan/sarif.h"
#include "tap.h"

#define RD JSON_REJECT_DUPLICATES

struct doc_case
{
  const char *text;
  size_t len;
  size_t flags;
  bool accept; /* what jansson 2.14 does */
};

#define C(s, f, a)                                                            \
  {                                                                           \
    s, sizeof (s) - 1, f, a                                                   \
  }

static const struct doc_case cases[] = {
  /* The top level, whitespace, what may follow.  */
  C ("{}", RD, true),
  C ("[]", RD, true),
  C (" \t\n\r[ \t\n\r]\n\r\t ", RD, true),
  C ("", RD, false),
  C (" ", RD, false),
  C ("\n\t\r", RD, false),
  C ("1", RD, false),
  C ("\"a\"", RD, false),
  C ("null", RD, false),
  C ("[1,]", RD, false),
  C ("{\"a\":1,}", RD, false),
  C ("[,1]", RD, false),
  C ("[,]", RD, false),
  C ("[1 2]", RD, false),
  C ("{\"a\" 1}", RD, false),
  C ("{\"a\":}", RD, false),
  C ("{\"a\"}", RD, false),
  C ("{1:2}", RD, false),
  C ("{a:2}", RD, false),
  C ("{'a':2}", RD, false),
  C ("[1]x", RD, false),
  C ("[1] [2]", RD, false),
  C ("[1]]", RD, false),
  C ("[[1]", RD, false),
  C ("{\"a\":1", RD, false),
  C ("[", RD, false),
  C ("]", RD, false),
  C ("[1]\0", RD, false),
  C ("[\0]", RD, false),
  C ("\xef\xbb\xbf[]", RD, false),
  C ("[\f]", RD, false),
  C ("[\v]", RD, false),
  C ("[1]\xc3\xa9", RD, false),
  C ("[\xc3\xa9]", RD, false),
  C ("/**/[]", RD, false),
  /* jansson loses a NUL byte it read after a number or a word.  */
  C ("[1\0]", RD, true),
  C ("[1\0 ,-2.5e1\0, 3]", RD, true),
  C ("[true\0,false\0,null\0]", RD, true),
  C ("{\"a\":null\0}", RD, true),
  C ("[1\0\0]", RD, false),
  C ("[1 \0]", RD, false),
  C ("[\"a\"\0]", RD, false),
  C ("[[]\0]", RD, false),
  C ("[-\0]", RD, false),
  C ("[1.\0]", RD, false),
  C ("[tru\0e]", RD, false),
  C ("1\0", JSON_DECODE_ANY, true),
  C ("true\0", JSON_DECODE_ANY, true),
  C ("1\0\0", JSON_DECODE_ANY, false),
  /* Words.  */
  C ("[true,false,null]", RD, true),
  C ("[true ,false\n,\tnull ]", RD, true),
  C ("[truex]", RD, false),
  C ("[tru]", RD, false),
  C ("[True]", RD, false),
  C ("[nul]", RD, false),
  C ("[nulll]", RD, false),
  C ("[true1]", RD, false),
  C ("[null\"\"]", RD, false),
  C ("{\"a\":true}", RD, true),
  /* Strings and escapes.  */
  C ("[\"\"]", RD, true),
  C ("[\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"]", RD, true),
  C ("[\"\\a\"]", RD, false),
  C ("[\"\\x41\"]", RD, false),
  C ("[\"\\'\"]", RD, false),
  C ("[\"\\U0041\"]", RD, false),
  C ("[\"\\u0041\\u00e9\\u20AC\\uFFFF\\u0001\\u001f\"]", RD, true),
  C ("[\"\\uD83D\\uDE00\"]", RD, true),
  C ("[\"\\ud83d\\ude00x\"]", RD, true),
  C ("[\"\\uDBFF\\uDFFF\\uD800\\uDC00\"]", RD, true),
  C ("[\"\\uD83D\"]", RD, false),
  C ("[\"\\uDE00\"]", RD, false),
  C ("[\"\\uDE00\\uD83D\"]", RD, false),
  C ("[\"\\uD83Dx\"]", RD, false),
  C ("[\"\\uD83D\\u0041\"]", RD, false),
  C ("[\"\\uD83D\\uD83D\"]", RD, false),
  C ("[\"\\uD83D\\n\"]", RD, false),
  C ("[\"\\uD83D\\\"]", RD, false),
  C ("[\"\\u12\"]", RD, false),
  C ("[\"\\u12G4\"]", RD, false),
  C ("[\"\\u\"]", RD, false),
  C ("[\"\\u0000\"]", RD, false),
  C ("[\"a\\u0000b\"]", JSON_ALLOW_NUL, true),
  C ("{\"\\u0000\":1}", RD, false),
  C ("{\"a\\u0000\":1}", JSON_ALLOW_NUL, false),
  C ("{\"a\":\"\\u0000\"}", RD | JSON_ALLOW_NUL, true),
  C ("[\"a\x01\"]", RD, false),
  C ("[\"a\nb\"]", RD, false),
  C ("[\"a\tb\"]", RD, false),
  C ("[\"\x1f\"]", RD, false),
  C ("[\"a\0b\"]", RD | JSON_ALLOW_NUL, false),
  C ("[\"a\x7f\"]", RD, true),
  C ("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]", RD, true),
  C ("[\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\"]", RD,
     true),
  C ("[\"\xee\x80\x80\xed\x9f\xbf\"]", RD, true),
  C ("[\"\xc0\xaf\"]", RD, false),
  C ("[\"\xc1\xbf\"]", RD, false),
  C ("[\"\xe0\x80\xaf\"]", RD, false),
  C ("[\"\xe0\x9f\xbf\"]", RD, false),
  C ("[\"\xf0\x80\x80\xaf\"]", RD, false),
  C ("[\"\xf0\x8f\xbf\xbf\"]", RD, false),
  C ("[\"\xed\xa0\x80\"]", RD, false),
  C ("[\"\xed\xbf\xbf\"]", RD, false),
  C ("[\"\xf4\x90\x80\x80\"]", RD, false),
  C ("[\"\xf5\x80\x80\x80\"]", RD, false),
  C ("[\"\xf8\x88\x80\x80\x80\"]", RD, false),
  C ("[\"\xff\"]", RD, false),
  C ("[\"\x80\"]", RD, false),
  C ("[\"\xc3\"]", RD, false),
  C ("[\"\xc3\"", RD, false),
  C ("[\"\xe2\x82\"]", RD, false),
  C ("[\"\xc3\xc3\xa9\"]", RD, false),
  C ("[\"abc", RD, false),
  C ("[\"abc\\", RD, false),
  C ("[\"abc\\\"]", RD, false),
  C ("[\"\\uD83D", RD, false),
  /* Numbers.  */
  C ("[0,-0,1,-1,10,-10]", RD, true),
  C ("[-0.0,0.0,0e0,0E1,0.1e-1,1E+5,1e+5,1.5E+308]", RD, true),
  C ("[9223372036854775807,-9223372036854775808]", RD, true),
  C ("[9223372036854775808]", RD, false),
  C ("[-9223372036854775809]", RD, false),
  C ("[99999999999999999999]", RD, false),
  C ("[18446744073709551616]", RD, false),
  C ("[123456789012345678901234567890]", RD, false),
  C ("[123456789012345678901234567890.0]", RD, true),
  C ("[9223372036854775808.0,-9223372036854775809e0]", RD, true),
  C ("[1e400]", RD, false),
  C ("[-1e400]", RD, false),
  C ("[1.8e308]", RD, false),
  C ("[1.7976931348623157e308,-1.7976931348623157e308]", RD, true),
  C ("[1.5e-400,-1.5e-400,4.9e-324,2.4e-324,2.2250738585072011e-308]", RD,
     true),
  C ("[1e00000000000000000001,1e-99999999999,1e-0]", RD, true),
  C ("[1e99999999999]", RD, false),
  C ("[0.30000000000000004,0.1,3.141592653589793238462643383279]", RD, true),
  C ("[01]", RD, false),
  C ("[-01]", RD, false),
  C ("[00]", RD, false),
  C ("[00.5]", RD, false),
  C ("[1.]", RD, false),
  C ("[1.e5]", RD, false),
  C ("[.5]", RD, false),
  C ("[-.5]", RD, false),
  C ("[+1]", RD, false),
  C ("[1e]", RD, false),
  C ("[1e+]", RD, false),
  C ("[1e-]", RD, false),
  C ("[1E+-5]", RD, false),
  C ("[-]", RD, false),
  C ("[--1]", RD, false),
  C ("[0x10]", RD, false),
  C ("[1.2.3]", RD, false),
  C ("[1e5e5]", RD, false),
  C ("[1e5.5]", RD, false),
  C ("[-a]", RD, false),
  C ("[Infinity]", RD, false),
  C ("[-Infinity]", RD, false),
  C ("[NaN]", RD, false),
  C ("[1_000]", RD, false),
  C ("[1,000]", RD, false),
  C ("[0e]", RD, false),
  C ("[1true]", RD, false),
  C ("[1\"a\"]", RD, false),
  C ("[1", RD, false),
  C ("[1.5", RD, false),
  C ("[1e5", RD, false),
  C ("[-", RD, false),
  C ("[1,9223372036854775808,-0,2e0]", JSON_DECODE_INT_AS_REAL, true),
  C ("[1e400]", JSON_DECODE_INT_AS_REAL, false),
  C ("[1"
     "00000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000]",
     JSON_DECODE_INT_AS_REAL, false),
  /* Any value at the top (JSON_DECODE_ANY).  */
  C ("1", JSON_DECODE_ANY, true),
  C (" -0 ", JSON_DECODE_ANY, true),
  C ("1.5e3", JSON_DECODE_ANY, true),
  C ("\"a\"", JSON_DECODE_ANY, true),
  C ("null", JSON_DECODE_ANY, true),
  C (" true\n", JSON_DECODE_ANY, true),
  C ("false", JSON_DECODE_ANY, true),
  C ("", JSON_DECODE_ANY, false),
  C ("1 2", JSON_DECODE_ANY, false),
  C ("tru", JSON_DECODE_ANY, false),
  C ("\"\\u0000\"", JSON_DECODE_ANY | JSON_ALLOW_NUL, true),
  /* Objects: keys, their order, duplicates.  */
  C ("{\"z\":1,\"a\":2,\"m\":3,\"b\":[],\"y\":{}}", RD, true),
  C ("{\"\":1}", RD, true),
  C ("{\"\":1,\"\":2}", RD, false),
  C ("{\"a\":1,\"a\":2}", RD, false),
  C ("{\"a\":1,\"a\":2}", 0, true),
  C ("{\"a\":1,\"b\":2,\"a\":3}", 0, true),
  C ("{\"a\":1,\"\\u0061\":2}", RD, false),
  C ("{\"a\":1,\"A\":2}", RD, true),
  C ("{\"a\":{\"a\":{\"a\":1}},\"b\":{\"a\":2}}", RD, true),
  C ("{\"a\":[{\"a\":1},{\"a\":1}]}", RD, true),
  C ("{\"\xc3\xa9\":1,\"e\\u0301\":2,\"\\u00e9\":3}", RD, false),
  C ("{\"\xc3\xa9\":1,\"e\\u0301\":2}", RD, true),
  C ("{\"a\":1 , \"b\" : 2 }", RD, true),
  C ("{\"a\":1,,\"b\":2}", RD, false),
  C ("{,}", RD, false),
  C ("{\"a\":1 \"b\":2}", RD, false),
  C ("{\"a\"::1}", RD, false),
  C ("{\"a\x01\":1}", RD, false),
  C ("{\"\xc3\":1}", RD, false),
  /* A SARIF log's shape.  */
  C ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"x\","
     "\"rules\":[]}},\"results\":[{\"ruleId\":\"B1\",\"level\":\"error\","
     "\"message\":{\"text\":\"use of \\\"eval\\\"\\n\"},\"locations\":[{"
     "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"a.py\"},"
     "\"region\":{\"startLine\":1,\"endLine\":2}}}]}]}]}",
     RD, true),
};

static const size_t chunk_sizes[] = { 1, 2, 3, 7, 65536 };

/* TEXT (LEN bytes) parsed by jansson and by the fast parser in every
   way: true when they agree, else false with WHY (200 bytes) filled.
   EXPECT: 1 accepted, 0 refused, -1 whatever jansson does.  *RET_WANT:
   whether jansson accepted it.  */
static bool
doc_agrees (const char *text, size_t len, size_t flags, int expect, char *why,
            bool *ret_want)
{
  json_error_t jerr;
  const size_t why_size = 200;

  *why = '\0';

  same_count_begin ();
  json_t *want = json_loadb (text, len, flags, &jerr);
  size_t want_cost = same_count_end ();
  if (expect >= 0 && (want != NULL) != expect)
    snprintf (why, why_size, "jansson %s it, not as the table says",
              want ? "accepts" : "refuses");

  for (size_t i = 0; i <= ARRAY_SIZE (chunk_sizes) && !*why; i++)
    {
      json_t *got;
      int r;
      same_count_begin ();
      if (i == ARRAY_SIZE (chunk_sizes))
        r = ash_json_fast_loadb (text, len, flags, &same_shadow_count, &got);
      else
        {
          struct same_chunks c = { text, len, 0, chunk_sizes[i] };
          r = ash_json_fast_load_callback (same_chunks_read, &c, flags,
                                           &same_shadow_count, &got);
        }
      size_t cost = same_count_end ();
      const char *how = i == ARRAY_SIZE (chunk_sizes) ? "whole" : "chunked";
      size_t chunk = i == ARRAY_SIZE (chunk_sizes) ? len : chunk_sizes[i];
      if ((got != NULL) != (want != NULL) || (r == 0) != (got != NULL))
        snprintf (why, why_size, "%s (%zu): fast parser %s it (%d)", how,
                  chunk, got ? "accepts" : "refuses", r);
      else if (got && !json_same (got, want))
        snprintf (why, why_size, "%s (%zu): values differ", how, chunk);
      else if (got && cost != want_cost)
        snprintf (why, why_size, "%s (%zu): cost %zu, jansson's %zu", how,
                  chunk, cost, want_cost);
      else if (!got && r != -EINVAL)
        snprintf (why, why_size, "%s (%zu): refused with %d", how, chunk, r);
      json_decref (got);
    }
  *ret_want = want != NULL;
  json_decref (want);
  return !*why;
}

/* One test of doc_agrees.  */
static void
check_doc (const char *name, const char *text, size_t len, size_t flags,
           int expect)
{
  char why[200];
  bool want;
  bool agree = doc_agrees (text, len, flags, expect, why, &want);
  if (!tap_ok (agree, "%s: %s", name, want ? "accepted" : "refused"))
    tap_diag ("  %s", why);
}

static void
table_cases (void)
{
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      char name[64];
      size_t n = 0;
      for (size_t k = 0; k < cases[i].len && n < 40; k++)
        {
          unsigned char c = (unsigned char) cases[i].text[k];
          n += (size_t) snprintf (name + n, sizeof name - n,
                                  c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
        }
      if (n >= 40)
        snprintf (name + 40, sizeof name - 40, "...");
      check_doc (name, cases[i].text, cases[i].len, cases[i].flags,
                 cases[i].accept);
    }
}

/* Every byte from 0x80 up, alone in a string (never UTF-8), and as the
   lead of a two-, three- and four-byte sequence.  */
static void
byte_cases (void)
{
  char text[16], name[64];
  for (int b = 0x80; b <= 0xff; b++)
    {
      snprintf (text, sizeof text, "[\"%c\"]", b);
      snprintf (name, sizeof name, "byte 0x%02x alone", (unsigned) b);
      check_doc (name, text, strlen (text), RD, 0);
      snprintf (text, sizeof text, "[\"%c\x80\"]", b);
      snprintf (name, sizeof name, "byte 0x%02x 0x80", (unsigned) b);
      check_doc (name, text, strlen (text), RD, -1);
      snprintf (text, sizeof text, "[\"%c\xa0\x80\"]", b);
      snprintf (name, sizeof name, "byte 0x%02x 0xa0 0x80", (unsigned) b);
      check_doc (name, text, strlen (text), RD, -1);
      snprintf (text, sizeof text, "[\"%c\x90\x80\x80\"]", b);
      snprintf (name, sizeof name, "byte 0x%02x 0x90 0x80 0x80", (unsigned) b);
      check_doc (name, text, strlen (text), RD, -1);
    }
  for (int b = 0; b < 0x20; b++)
    {
      snprintf (text, sizeof text, "[\"a%cb\"]", b);
      snprintf (name, sizeof name, "control 0x%02x in a string", (unsigned) b);
      check_doc (name, text, 6, RD, 0);
    }
}

/* DEPTH arrays (or objects: {"a": ...}) one in the other around INNER.  */
static void
nest_case (size_t depth, bool objects, const char *inner, int expect)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < depth; i++)
    ash_buf_addstr (&b, objects ? "{\"a\":" : "[");
  ash_buf_addstr (&b, inner);
  for (size_t i = 0; i < depth; i++)
    ash_buf_addstr (&b, objects ? "}" : "]");
  char name[80];
  snprintf (name, sizeof name, "%zu %s around %s", depth,
            objects ? "objects" : "arrays", *inner ? inner : "nothing");
  check_doc (name, b.buf, b.len, RD, expect);
  ash_buf_release (&b);
}

/* jansson counts every value's depth, a scalar's too: the limit is
   JSON_PARSER_MAX_DEPTH values, one in the other.  */
static void
depth_cases (void)
{
  size_t max = JSON_PARSER_MAX_DEPTH;
  nest_case (max, false, "", 1);
  nest_case (max + 1, false, "", 0);
  nest_case (max - 1, false, "1", 1);
  nest_case (max, false, "1", 0);
  nest_case (max - 1, false, "{}", 1);
  nest_case (max, false, "{}", 0);
  nest_case (max - 1, true, "{}", 1);
  nest_case (max, true, "{}", 0);
  nest_case (max - 1, true, "\"s\"", 1);
  nest_case (max, true, "\"s\"", 0);
  nest_case (100000, false, "", 0);
}

/* Strings, keys and numbers of every length around the sizes jansson's
   token buffer grows at (16, 32, 64, ...), plain and escaped; a long
   string across the 64 KiB reads.  */
static void
length_cases (void)
{
  struct ash_buf b = ASH_BUF_INIT;
  bool ok = true;
  size_t n = 0;
  for (size_t len = 0; len < 300 && ok; len++)
    for (int kind = 0; kind < 4 && ok; kind++)
      {
        ash_buf_reset (&b);
        ash_buf_addstr (&b, kind == 2 ? "{\"" : "[\"");
        for (size_t i = 0; i < len; i++)
          ash_buf_addstr (&b, kind == 1 && i % 5 == 0   ? "\\n"
                              : kind == 3 && i % 7 == 0 ? "\xc3\xa9"
                                                        : "x");
        ash_buf_addstr (&b, kind == 2 ? "\":1}" : "\",1");
        for (size_t i = 0; i < len && kind == 0; i++)
          ash_buf_addstr (&b, i == 0 ? "" : i == 1 ? ".3" : "3");
        ash_buf_addstr (&b, kind == 2 ? "" : "]");
        char why[200];
        bool want;
        ok = doc_agrees (b.buf, b.len, RD, 1, why, &want);
        if (!ok)
          tap_diag ("length %zu, kind %d: %s", len, kind, why);
        n++;
      }
  tap_ok (ok, "%zu documents of strings, keys and numbers of every length", n);

  ash_buf_reset (&b);
  ash_buf_addstr (&b, "[\"");
  for (size_t i = 0; i < 200000; i++)
    ash_buf_addstr (&b, i % 1000 == 999 ? "\\u00e9" : "y");
  ash_buf_addstr (&b, "\",\"");
  for (size_t i = 0; i < 140000; i++)
    ash_buf_addstr (&b, "z");
  ash_buf_addstr (&b, "\"]");
  check_doc ("strings longer than a read", b.buf, b.len, RD, 1);
  ash_buf_release (&b);
}

/* A document whose parse jansson's budget refuses by less than what its
   own scratch allocations cost (a key's copy: 20 bytes an object here)
   is refused by ash_sarif_parse, and one with a byte more of padding
   (a budget 32 bytes larger) is not: the budget ends at the same size.  */
/* HEAD, 20,000 ITEMs separated by commas, PAD spaces and TAIL.  */
static char *
padded_text (const char *head, const char *item, const char *tail, size_t pad,
             size_t *ret_len)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, head);
  for (size_t i = 0; i < 20000; i++)
    {
      if (i)
        ash_buf_addch (&b, ',');
      ash_buf_addstr (&b, item);
    }
  for (size_t i = 0; i < pad; i++)
    ash_buf_addstr (&b, " ");
  ash_buf_addstr (&b, tail);
  *ret_len = b.len;
  return ash_buf_detach (&b);
}

static char *
padded_doc (size_t pad, size_t *ret_len)
{
  return padded_text ("[", "{\"k\":0}", "]", pad, ret_len);
}

static bool
jansson_over (size_t pad)
{
  size_t len;
  _cleanup_free_ char *text = padded_doc (pad, &len);
  json_error_t jerr;
  bool over;
  json_t *doc = ash_json_loadb_budgeted (text, len, &jerr, &over);
  json_decref (doc);
  return over;
}

/* Returns the most padding jansson's budget refuses (0: none found).  */
static size_t
budget_cases (void)
{
  size_t lo = 0, hi = 400000;
  if (!jansson_over (lo) || jansson_over (hi))
    {
      tap_ok (false, "budget: jansson refuses no padding and reads %zu", hi);
      return 0;
    }
  while (hi - lo > 1)
    {
      size_t mid = lo + (hi - lo) / 2;
      *(jansson_over (mid) ? &lo : &hi) = mid;
    }
  for (size_t pad = lo; pad <= hi; pad++)
    {
      size_t len;
      _cleanup_free_ char *text = padded_doc (pad, &len);
      json_t *doc = NULL;
      struct ash_error err = ASH_ERROR_INIT;
      int r = ash_sarif_parse (text, len, &doc, &err);
      if (pad == lo)
        tap_ok (r == -EFBIG && doc == NULL,
                "budget: %zu bytes refused, as jansson refused them (%s)", len,
                err.message ? err.message : "");
      else
        tap_ok (r == -EINVAL && doc == NULL && err.message
                  && strstr (err.message, "not a JSON object"),
                "budget: %zu bytes read, as jansson read them (%s)", len,
                err.message ? err.message : "");
      ash_error_release (&err);
    }
  return lo;
}

/* ash_sarif_parse_file of TEXT written to NAME in DIRFD: its result as
   ash_sarif_parse's of TEXT, which the tests above compare with
   jansson's (a refused file is read a second time, by jansson).  */
static void
file_case (int dirfd, const char *name, const char *text, size_t len)
{
  int fd
    = openat (dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  bool written = fd >= 0 && write (fd, text, len) == (ssize_t) len;
  if (fd >= 0)
    close (fd);
  if (!written)
    {
      tap_ok (false, "file %s: written", name);
      return;
    }
  json_t *want = NULL, *got = NULL;
  struct ash_error want_err = ASH_ERROR_INIT, got_err = ASH_ERROR_INIT;
  int want_r = ash_sarif_parse (text, len, &want, &want_err);
  size_t got_len;
  bool unread;
  int got_r
    = ash_sarif_parse_file (dirfd, name, 0, &got, &got_len, &unread, &got_err);
  /* A parse the budget ends stops reading.  */
  tap_ok (got_r == want_r && !unread
            && (got_r == -EFBIG ? got_len <= len : got_len == len)
            && (want ? got && json_same (got, want) : got == NULL),
          "file %s: %d, as for the text in memory", name, got_r);
  tap_is_str (got_err.message, want_err.message, "file %s: the same message",
              name);
  json_decref (want);
  json_decref (got);
  ash_error_release (&want_err);
  ash_error_release (&got_err);
}

static void
file_cases (size_t budget_pad)
{
  char dir[] = "/tmp/test-json-fast.XXXXXX";
  if (mkdtemp (dir) == NULL)
    {
      tap_ok (false, "mkdtemp: %s", strerror (errno));
      return;
    }
  int dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  static const char sarif[]
    = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
      "\"name\":\"x\"}},\"results\":[{\"message\":{\"text\":\"m\"}}]}]}";
  file_case (dirfd, "good.sarif", sarif, strlen (sarif));
  file_case (dirfd, "trailing.sarif", "{\"version\":\"2.1.0\"}\n\nx", 23);
  file_case (dirfd, "nul.sarif", "[\"\\u0000\"]", 10);
  file_case (dirfd, "empty.sarif", "", 0);
  for (size_t pad = budget_pad; pad && pad <= budget_pad + 1; pad++)
    {
      size_t len;
      _cleanup_free_ char *text = padded_doc (pad, &len);
      file_case (dirfd, "budget.sarif", text, len);
    }
  static const char *const names[]
    = { "good.sarif", "trailing.sarif", "nul.sarif", "empty.sarif",
        "budget.sarif" };
  for (size_t i = 0; i < ARRAY_SIZE (names); i++)
    unlinkat (dirfd, names[i], 0);
  close (dirfd);
  rmdir (dir);
}

/* A refused document's message is jansson's.  */
static void
message_cases (void)
{
  static const char *const docs[] = {
    "",
    "[1,]",
    "{\"a\":1,\"a\":2}",
    "[\"\\uD83D\"]",
    "[\n\n9223372036854775808]",
    "[1e400]",
    "[\"\xc3\"]",
    "{\"version\":\"2.1.0\"}x",
  };
  for (size_t i = 0; i < ARRAY_SIZE (docs); i++)
    {
      json_error_t jerr;
      json_t *j = json_loadb (docs[i], strlen (docs[i]), RD, &jerr);
      char want[300];
      snprintf (want, sizeof want, "the output is not JSON (line %d: %s)",
                jerr.line, jerr.text);
      json_t *doc = NULL;
      struct ash_error err = ASH_ERROR_INIT;
      int r = ash_sarif_parse (docs[i], strlen (docs[i]), &doc, &err);
      tap_ok (j == NULL && r == -EINVAL, "message %zu: refused", i);
      tap_is_str (err.message, want, "message %zu: jansson's", i);
      ash_error_release (&err);
    }
}

/* ---- The results hook ---------------------------------------------- */

/* The items a full parse DOC has at the hook's place, counted.  */
static size_t
hook_items (const json_t *doc)
{
  size_t n = 0;
  const json_t *runs = json_object_get (doc, "runs");
  for (size_t i = 0; json_is_array (runs) && i < json_array_size (runs); i++)
    {
      const json_t *r = json_object_get (json_array_get (runs, i), "results");
      if (json_is_array (r))
        n += json_array_size (r);
    }
  return n;
}

/* TEXT parsed with the hook taking none, all and every other item, read
   whole and in chunks: the same verdict as the plain parse; taking none
   the same value and cost; taking all the same cost, the items at the
   hook's place (all of them, in order, with their runs) and the value
   with them put back.  */
static void
hook_case (const char *name, const char *text, size_t len, size_t flags,
           bool put_back_ok)
{
  same_count_begin ();
  json_t *want = NULL;
  int want_r
    = ash_json_fast_loadb (text, len, flags, &same_shadow_count, &want);
  size_t want_cost = same_count_end ();
  char why[300] = "";
  for (int mode = 0; mode < 3 && !*why; mode++)
    for (size_t i = 0; i <= ARRAY_SIZE (chunk_sizes) && !*why; i++)
      {
        struct same_taken t = { .mode = mode };
        const struct ash_json_fast_results hook = { same_take, &t };
        json_t *got = NULL;
        int r;
        same_count_begin ();
        if (i == ARRAY_SIZE (chunk_sizes))
          r = ash_json_fast_loadb_results (text, len, flags,
                                           &same_shadow_count, &hook, &got);
        else
          {
            struct same_chunks c = { text, len, 0, chunk_sizes[i] };
            r = ash_json_fast_load_callback_results (same_chunks_read, &c,
                                                     flags, &same_shadow_count,
                                                     &hook, &got);
          }
        size_t cost = same_count_end ();
        size_t chunk = i == ARRAY_SIZE (chunk_sizes) ? len : chunk_sizes[i];
        if (r != want_r || (got == NULL) != (want == NULL))
          snprintf (why, sizeof why, "mode %d, chunk %zu: %d, not %d", mode,
                    chunk, r, want_r);
        else if (want && mode != 2 && cost != want_cost)
          snprintf (why, sizeof why, "mode %d, chunk %zu: cost %zu, not %zu",
                    mode, chunk, cost, want_cost);
        else if (want && mode == 0
                 && (t.offered != hook_items (want) || !json_same (got, want)))
          snprintf (why, sizeof why,
                    "take none, chunk %zu: %zu offered of "
                    "%zu, or the value differs",
                    chunk, t.offered, hook_items (want));
        else if (want && mode == 1 && t.n != hook_items (want))
          snprintf (why, sizeof why, "take all, chunk %zu: %zu taken of %zu",
                    chunk, t.n, hook_items (want));
        else if (want && mode == 1 && hook_items (got) != 0)
          snprintf (why, sizeof why, "take all, chunk %zu: items left", chunk);
        else if (want && mode >= 1 && put_back_ok)
          {
            json_t *back = same_put_back (got, &t);
            if (!json_same (back, want))
              snprintf (why, sizeof why,
                        "mode %d, chunk %zu: the items put back do not give "
                        "the value",
                        mode, chunk);
            json_decref (back);
          }
        json_decref (got);
        same_taken_release (&t);
      }
  json_decref (want);
  if (!tap_ok (!*why, "results hook: %s", name))
    tap_diag ("  %s", why);
}

static void
hook_cases (void)
{
  /* Every document of the table: none of them is offered anything but
     the SARIF log's one result.  */
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      char name[64];
      snprintf (name, sizeof name, "table case %zu", i);
      hook_case (name, cases[i].text, cases[i].len, cases[i].flags, true);
    }
  static const struct
  {
    const char *name, *text;
    size_t flags;
    bool put_back;
  } docs[] = {
    { "items of every kind, runs of every kind, results elsewhere",
      "{\"runs\":[{\"results\":[1,{\"a\":1},[2],\"s\",null,true]},"
      "{\"results\":[]},{\"x\":1},5,[{\"results\":[3]}],"
      "{\"results\":{\"not\":\"an array\"}},{\"results\":[{\"runs\":[{"
      "\"results\":[7]}]}]}],\"results\":[9],\"properties\":{\"runs\":[{"
      "\"results\":[8]}]}}",
      RD, true },
    { "a top-level array", "[{\"runs\":[{\"results\":[1]}]}]", RD, true },
    { "runs not an array", "{\"runs\":{\"results\":[1]}}", RD, true },
    { "a results array before and after other members",
      "{\"x\":[],\"runs\":[{\"a\":1,\"results\":[{\"b\":[{}]},2],\"c\":{}},"
      "{\"results\":[3,4,5]}],\"y\":0}",
      RD, true },
    { "refused after items: truncated",
      "{\"runs\":[{\"results\":[1,2,3]}],\"x\":", RD, true },
    { "refused after items: a duplicate key in a later item",
      "{\"runs\":[{\"results\":[{\"a\":1},{\"a\":1,\"a\":2}]}]}", RD, true },
    { "refused after items: a second results member",
      "{\"runs\":[{\"results\":[1],\"results\":[2]}]}", RD, true },
    { "refused after items: a second runs member",
      "{\"runs\":[{\"results\":[1]}],\"runs\":[]}", RD, true },
    { "names compared decoded", "{\"r\\u0075ns\":[{\"result\\u0073\":[1,2]}]}",
      RD, true },
    { "names that are not quite runs and results",
      "{\"Runs\":[{\"results\":[1]}],\"runs \":[{\"results\":[1]}],"
      "\"runs\":[{\"Results\":[1],\"results\":[2]}]}",
      RD, true },
    { "a results member of the tool, and runs inside a result",
      "{\"runs\":[{\"results\":[1],\"tool\":{\"results\":[5]}},"
      "{\"results\":[{\"runs\":[{\"results\":[9]}]}]}]}",
      RD, true },
    { "null, true and false items among others",
      "{\"runs\":[{\"results\":[null,null,1,null,true,false,null]}]}", RD,
      true },
    { "a NUL in items",
      "{\"runs\":[{\"results\":[\"a\\u0000b\",{\"k\":"
      "\"\\u0000\"}]}]}",
      RD | JSON_ALLOW_NUL, true },
    { "a NUL in items, refused", "{\"runs\":[{\"results\":[\"a\\u0000b\"]}]}",
      RD, true },
    { "integers as reals", "{\"runs\":[{\"results\":[1,-2,3e0]}]}",
      JSON_DECODE_INT_AS_REAL | RD, true },
    { "refused after items: bytes after the document",
      "{\"runs\":[{\"results\":[1,2]}]}x", RD, true },
    { "refused after items: a trailing comma in a later run",
      "{\"runs\":[{\"results\":[1]},{\"results\":[2,]}]}", RD, true },
    { "refused after items: a word cut short after them",
      "{\"runs\":[{\"results\":[1]},{\"results\":[2]}],\"b\":tru}", RD, true },
    { "a runs member that is not an array, then one that is (no duplicates "
      "refused)",
      "{\"runs\":1,\"x\":[{\"results\":[1]}]}", 0, true },
  };
  for (size_t i = 0; i < ARRAY_SIZE (docs); i++)
    hook_case (docs[i].name, docs[i].text, strlen (docs[i].text),
               docs[i].flags, docs[i].put_back);
  /* Arrays long enough to grow many times: the charge for what taken
     items would have cost.  */
  static const size_t counts[] = { 7, 8, 9, 16, 17, 100, 1000, 5000 };
  for (size_t i = 0; i < ARRAY_SIZE (counts); i++)
    {
      struct ash_buf b = ASH_BUF_INIT;
      ash_buf_addstr (&b, "{\"runs\":[{\"results\":[");
      for (size_t j = 0; j < counts[i]; j++)
        ash_buf_addstr (&b, j ? ",{\"k\":0}" : "{\"k\":0}");
      ash_buf_addstr (&b, "]},{\"results\":[{}]}]}");
      char name[64];
      snprintf (name, sizeof name, "%zu results in one run", counts[i]);
      hook_case (name, b.buf, b.len, RD, true);
      ash_buf_release (&b);
    }
}

/* The hook WITHIN "sarif": the results of sarif.runs are taken (those
   of a top-level "runs" are not), with the same cost and value once put
   back, read whole and in chunks.  */
static void
hook_within_cases (void)
{
  static const struct
  {
    const char *text;
    size_t taken;
  } docs[] = {
    { "{\"metadata\":{},\"sarif\":{\"runs\":[{\"results\":[{\"a\":1},2]},"
      "{\"results\":[3]}]},\"runs\":[{\"results\":[4]}]}",
      3 },
    { "{\"runs\":[{\"results\":[4]}],\"sarif\":{\"x\":{\"runs\":[{"
      "\"results\":[5]}]},\"runs\":[{\"results\":[]}]}}",
      0 },
    { "{\"sarif\":[{\"runs\":[{\"results\":[1]}]}]}", 0 },
    { "{\"s\\u0061rif\":{\"runs\":[{\"results\":[1,[2]]}]}}", 2 },
  };
  for (size_t i = 0; i < ARRAY_SIZE (docs); i++)
    {
      const char *text = docs[i].text;
      size_t len = strlen (text);
      same_count_begin ();
      json_t *want = NULL;
      ash_json_fast_loadb (text, len, RD, &same_shadow_count, &want);
      size_t want_cost = same_count_end ();
      bool good = want != NULL;
      for (size_t c = 0; c <= ARRAY_SIZE (chunk_sizes) && good; c++)
        {
          struct same_taken t = { .mode = 1 };
          struct ash_json_fast_results hook = { same_take, &t, "sarif" };
          json_t *got = NULL;
          same_count_begin ();
          if (c == ARRAY_SIZE (chunk_sizes))
            ash_json_fast_loadb_results (text, len, RD, &same_shadow_count,
                                         &hook, &got);
          else
            {
              struct same_chunks ch = { text, len, 0, chunk_sizes[c] };
              ash_json_fast_load_callback_results (same_chunks_read, &ch, RD,
                                                   &same_shadow_count, &hook,
                                                   &got);
            }
          size_t cost = same_count_end ();
          good = got && t.n == docs[i].taken && cost == want_cost;
          if (good && got)
            {
              json_t *back
                = same_put_back (json_object_get (got, "sarif"), &t);
              json_t *whole = json_deep_copy (got);
              if (json_is_object (json_object_get (whole, "sarif")))
                json_object_set_new (whole, "sarif", back);
              else
                json_decref (back);
              good = json_same (whole, want);
              json_decref (whole);
            }
          json_decref (got);
          same_taken_release (&t);
        }
      tap_ok (good, "results hook within sarif: document %zu, %zu taken", i,
              docs[i].taken);
      json_decref (want);
    }
}

/* A SARIF log of 20,000 results padded by PAD spaces.  */
static char *
padded_log (size_t pad, size_t *ret_len)
{
  return padded_text ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\""
                      ":{\"name\":\"x\"}},\"results\":[",
                      "{\"message\":{}}", "]}]}", pad, ret_len);
}

static size_t sink_given;

static void
sink_result (json_t *res, size_t run, void *arg)
{
  (void) run;
  (void) arg;
  sink_given++;
  json_decref (res);
}

static void
sink_reset (void *arg)
{
  (void) arg;
  sink_given = 0;
}

/* ash_sarif_parse_file_sink reads a log the budget refuses at the same
   size as ash_sarif_parse_file, and gives a log it reads to its sink
   whole, its runs' results arrays left empty.  */
static void
sink_budget_cases (void)
{
  char dir[] = "/tmp/test-json-fast.XXXXXX";
  if (mkdtemp (dir) == NULL)
    {
      tap_ok (false, "mkdtemp: %s", strerror (errno));
      return;
    }
  int dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const struct ash_sarif_sink sink = { sink_result, sink_reset, NULL };
  /* The most padding the plain file parse refuses.  */
  int verdict[2];
  size_t lo = 0, hi = 600000, found = 0;
  for (int round = 0; round < 40 && hi - lo > 1; round++)
    {
      size_t mid = lo + (hi - lo) / 2, len;
      _cleanup_free_ char *text = padded_log (mid, &len);
      int fd = openat (dirfd, "pad.sarif", O_WRONLY | O_CREAT | O_TRUNC, 0600);
      bool ok = fd >= 0 && write (fd, text, len) == (ssize_t) len;
      if (fd >= 0)
        close (fd);
      if (!ok)
        break;
      json_t *doc = NULL;
      struct ash_error err = ASH_ERROR_INIT;
      size_t got_len;
      bool unread;
      int r = ash_sarif_parse_file (dirfd, "pad.sarif", 0, &doc, &got_len,
                                    &unread, &err);
      json_decref (doc);
      ash_error_release (&err);
      *(r == -EFBIG ? &lo : &hi) = mid;
      found = lo;
    }
  tap_ok (lo > 0 && hi - lo == 1, "sink: the budget's edge found (%zu)",
          found);
  for (size_t pad = lo; pad <= hi; pad++)
    {
      size_t len;
      _cleanup_free_ char *text = padded_log (pad, &len);
      int fd = openat (dirfd, "pad.sarif", O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0)
        {
          if (write (fd, text, len) != (ssize_t) len)
            tap_diag ("short write");
          close (fd);
        }
      for (int with = 0; with < 2; with++)
        {
          json_t *doc = NULL;
          struct ash_error err = ASH_ERROR_INIT;
          size_t got_len;
          bool unread;
          sink_given = 0;
          verdict[with]
            = with ? ash_sarif_parse_file_sink (dirfd, "pad.sarif", 0, &sink,
                                                &doc, &got_len, &unread, &err)
                   : ash_sarif_parse_file (dirfd, "pad.sarif", 0, &doc,
                                           &got_len, &unread, &err);
          if (with && verdict[with] == 0)
            tap_ok (sink_given == 20000
                      && json_array_size (json_object_get (
                           json_array_get (json_object_get (doc, "runs"), 0),
                           "results"))
                           == 0,
                    "sink: the log read gives its 20000 results to the sink");
          json_decref (doc);
          ash_error_release (&err);
        }
      tap_ok (verdict[0] == verdict[1]
                && verdict[0] == (pad == lo ? -EFBIG : 0),
              "sink: %zu bytes of padding %s with and without the sink (%d, "
              "%d)",
              pad, pad == lo ? "refused" : "read", verdict[0], verdict[1]);
    }
  unlinkat (dirfd, "pad.sarif", 0);
  close (dirfd);
  rmdir (dir);
}

int
main (void)
{
  table_cases ();
  byte_cases ();
  depth_cases ();
  length_cases ();
  size_t pad = budget_cases ();
  message_cases ();
  file_cases (pad);
  hook_cases ();
  hook_within_cases ();
  sink_budget_cases ();
  return tap_done ();
}
