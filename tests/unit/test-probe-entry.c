/* SPDX-License-Identifier: Apache-2.0 */
/* test-probe-entry.c -- the probe cache's own entry reader against
   jansson: the key text is what json_dumps (JSON_COMPACT) writes; a good
   entry is read to the value json_loadb gives; a truncated entry, one
   with more members, nested or non-integer values, white space, escapes
   jansson does not write, duplicate names, another key or bytes that are
   not UTF-8 are left to jansson (-EAGAIN); and no document the reader
   accepts, among every one-byte change of a good entry, is one jansson
   refuses or reads differently.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "sandbox/probe-entry.h"
#include "tap.h"

#define VERSION "0.1.0"
#define KERNEL "6.18.44 #1 SMP PREEMPT_DYNAMIC @0"

static json_t *
key_of (const char *identity)
{
  return json_pack ("{s:s, s:I, s:s, s:s, s:s}", "ash", VERSION, "uid",
                    (json_int_t) 1000, "kernel", KERNEL, "backend", "landlock",
                    "identity", identity);
}

static char *
key_text_of (const char *identity)
{
  struct ash_buf b = ASH_BUF_INIT;

  if (ash_probe_entry_key_text (VERSION, 1000, KERNEL, "landlock", identity,
                                &b)
      < 0)
    {
      ash_buf_release (&b);
      return NULL;
    }
  return ash_buf_detach (&b);
}

/* The entry probe-cache.c writes for IDENTITY and PROBE (stolen).  */
static char *
entry_of (const char *identity, json_t *probe)
{
  json_t *doc
    = json_pack ("{s:o, s:o}", "key", key_of (identity), "probe", probe);
  char *s = json_dumps (doc, JSON_COMPACT);
  json_decref (doc);
  return s;
}

static json_t *
usual_probe (void)
{
  return json_pack ("{s:n, s:s, s:i, s:b, s:b, s:s}", "tool", "helper",
                    "/usr/libexec/ash/ash-landlock-exec", "landlock_abi", 7,
                    "cache_overlay", 0, "bind_fd", 0, "notes",
                    "Landlock ABI 7");
}

/* Whether the reader and jansson agree on TEXT (LEN bytes) for the key
   of IDENTITY: when the reader accepts, jansson reads the same key and
   the same probe object.  *RET_READ says whether the reader accepted.  */
static bool
agrees (const char *text, size_t len, const char *identity, bool *ret_read)
{
  _cleanup_free_ char *kt = key_text_of (identity);
  json_t *probe = NULL;
  int r = ash_probe_entry_read (text, len, kt, &probe);
  bool ok;

  *ret_read = r == 0;
  if (r != 0)
    return r == -EAGAIN && probe == NULL;
  json_t *doc = json_loadb (text, len, JSON_REJECT_DUPLICATES, NULL);
  json_t *key = key_of (identity);
  ok = doc && json_equal (json_object_get (doc, "key"), key)
       && json_is_object (json_object_get (doc, "probe"))
       && json_equal (json_object_get (doc, "probe"), probe);
  json_decref (doc);
  json_decref (key);
  json_decref (probe);
  return ok;
}

static void
test_key_text (void)
{
  static const char *const ids[] = {
    "",
    "plain",
    "scanner-account 65534:65534\nns user:[4026531837]\ninit-start 25\n",
    "quote \" backslash \\ slash /",
    "tab\t cr\r ff\f bs\b nl\n",
    "\x01\x02\x1e\x1f\x7f",
    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
  };

  for (size_t i = 0; i < ARRAY_SIZE (ids); i++)
    {
      json_t *key = key_of (ids[i]);
      char *want = json_dumps (key, JSON_COMPACT);
      char *got = key_text_of (ids[i]);

      tap_is_str (got, want, "key text %zu is json_dumps's", i);
      free (want);
      free (got);
      json_decref (key);
    }

  static const char *const bad[] = {
    "\x80",             /* a continuation byte first */
    "\xc0\xaf",         /* overlong */
    "\xed\xa0\x80",     /* a surrogate */
    "\xf4\x90\x80\x80", /* above U+10FFFF */
    "\xe2\x82",         /* truncated */
  };
  for (size_t i = 0; i < ARRAY_SIZE (bad); i++)
    {
      json_t *key = key_of (bad[i]);
      char *got = key_text_of (bad[i]);

      tap_ok (got == NULL && key == NULL,
              "not UTF-8 (%zu): no key text, as jansson makes no key", i);
      free (got);
      json_decref (key);
    }
}

static void
test_good (void)
{
  json_t *probes[] = {
    usual_probe (),
    json_pack ("{s:s, s:s, s:i, s:b, s:b, s:n}", "tool", "/usr/bin/bwrap",
               "helper", "/usr/libexec/ash/ash-landlock-exec", "landlock_abi",
               0, "cache_overlay", 1, "bind_fd", 1, "notes"),
    json_pack ("{s:s, s:i}", "notes",
               "a \"quoted\"\\ note\n\twith\x01 caf\xc3\xa9", "n", -42),
    json_object (),
  };

  for (size_t i = 0; i < ARRAY_SIZE (probes); i++)
    {
      const char *id = "ns user:[1]\n/x 1 2 3\n";
      json_t *want = json_deep_copy (probes[i]);
      _cleanup_free_ char *text = entry_of (id, probes[i]);
      _cleanup_free_ char *kt = key_text_of (id);
      json_t *got = NULL;

      tap_is_int (ash_probe_entry_read (text, strlen (text), kt, &got), 0,
                  "good entry %zu is read", i);
      tap_ok (got && json_equal (got, want), "and gives jansson's value");
      json_decref (got);
      json_decref (want);
    }
}

/* TEXT, with KEY for the key of "id", is left to jansson; and jansson
   decides as JANSSON_READS says.  */
static void
left (const char *what, const char *text, bool jansson_reads)
{
  _cleanup_free_ char *kt = key_text_of ("id");
  json_t *got = NULL;
  json_t *doc = json_loadb (text, strlen (text), JSON_REJECT_DUPLICATES, NULL);

  tap_ok (ash_probe_entry_read (text, strlen (text), kt, &got) == -EAGAIN
            && got == NULL,
          "%s: left to jansson", what);
  tap_ok ((doc != NULL) == jansson_reads, "%s: which %s it", what,
          jansson_reads ? "reads" : "refuses");
  json_decref (doc);
}

static void
test_left (void)
{
  _cleanup_free_ char *kt = key_text_of ("id");
  char *k = kt;
  char buf[4096];

#define DOC(probe)                                                            \
  (snprintf (buf, sizeof buf, "{\"key\":%s,\"probe\":%s}", k, probe), buf)
  left ("another key",
        "{\"key\":{\"ash\":\"0.1.0\",\"uid\":1000,\"kernel\":\"x\","
        "\"backend\":\"landlock\",\"identity\":\"id\"},\"probe\":{}}",
        true);
  left ("a nested value", DOC ("{\"a\":{\"b\":1}}"), true);
  left ("an array", DOC ("{\"a\":[1]}"), true);
  left ("a real", DOC ("{\"a\":1.5}"), true);
  left ("an exponent", DOC ("{\"a\":1e3}"), true);
  left ("a big integer", DOC ("{\"a\":12345678901234567890}"), false);
  left ("a leading zero", DOC ("{\"a\":01}"), false);
  left ("a duplicate name", DOC ("{\"a\":1,\"a\":2}"), false);
  left ("white space", DOC ("{\"a\": 1}"), true);
  left ("an escape jansson does not write", DOC ("{\"a\":\"\\u00e9\"}"), true);
  left ("an escaped NUL", DOC ("{\"a\":\"\\u0000\"}"), false);
  left ("a raw control character", DOC ("{\"a\":\"\x01\"}"), false);
  left ("bytes that are not UTF-8", DOC ("{\"a\":\"\xc0\xaf\"}"), false);
  left ("a name that is not UTF-8", DOC ("{\"\xff\":1}"), false);
  left ("a probe that is a string", DOC ("\"x\""), true);
  left ("a probe that is null", DOC ("null"), true);
  snprintf (buf, sizeof buf, "{\"key\":%s,\"probe\":{},\"more\":1}", k);
  left ("a member after the probe", buf, true);
  snprintf (buf, sizeof buf, "{\"probe\":{},\"key\":%s}", k);
  left ("the members in another order", buf, true);
  snprintf (buf, sizeof buf, "{\"key\":%s,\"probe\":{}}\n", k);
  left ("a line end after it", buf, true);
  snprintf (buf, sizeof buf, "{\"key\":%s,\"probe\":{}}x", k);
  left ("garbage after it", buf, false);
#undef DOC

  /* Read where jansson reads the same: escapes it would decode alike.  */
  snprintf (buf, sizeof buf,
            "{\"key\":%s,\"probe\":{\"a\":\"\\u0041\\/\",\"b\":-0}}", k);
  bool read;
  tap_ok (agrees (buf, strlen (buf), "id", &read) && read,
          "\\u0041, \\/ and -0 are read as jansson reads them");
}

static void
test_truncated_and_mutated (void)
{
  const char *id = "ns user:[1]\n\"q\"\\";
  _cleanup_free_ char *text = entry_of (id, usual_probe ());
  size_t len = strlen (text);
  bool all_left = true, all_agree = true;
  size_t accepted = 0, n = 0;
  static const char subst[] = "\"\\,:{}[]0 9-an\n\x01\x80\xff";

  for (size_t l = 0; l < len; l++)
    {
      bool read;
      all_agree &= agrees (text, l, id, &read);
      all_left &= !read;
    }
  tap_ok (all_left && all_agree, "every truncation of a good entry is left "
                                 "to jansson");

  _cleanup_free_ char *copy = xstrdup (text);
  for (size_t i = 0; i < len; i++)
    for (size_t s = 0; s < sizeof subst - 1; s++)
      {
        bool read;
        if (text[i] == subst[s])
          continue;
        copy[i] = subst[s];
        all_agree &= agrees (copy, len, id, &read);
        accepted += read;
        n++;
        copy[i] = text[i];
      }
  tap_ok (all_agree,
          "no one-byte change of a good entry (%zu) is read "
          "otherwise than jansson reads it (%zu read)",
          n, accepted);
}

int
main (void)
{
  test_key_text ();
  test_good ();
  test_left ();
  test_truncated_and_mutated ();
  return tap_done ();
}
