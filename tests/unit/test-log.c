/* SPDX-License-Identifier: Apache-2.0 */
/* test-log.c -- the escapes of escape.c, and the lines log.c writes to
   the terminal, ash.log and ash.log.jsonl.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/log.h"
#include "base/util.h"
#include "tap.h"

static void
control (const char *in, const char *want, const char *what)
{
  _cleanup_free_ char *got = ash_escape_control (in);
  tap_is_str (got, want, "escape_control: %s", what);
}

static void
test_control (void)
{
  control ("plain text, 100% ASCII", "plain text, 100% ASCII", "ASCII kept");
  control ("", "", "empty");
  control ("a\x1b]0;title\x07z", "a\\e]0;title\\x07z", "OSC shown");
  control ("l1\nl2\rl3\tl4", "l1\\nl2\\rl3\\tl4", "line breaks and tab");
  control ("del\x7f", "del\\x7f", "DEL");
  control ("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac",
           "UTF-8 kept");
  control ("c1\xc2\x85.", "c1\\u0085.", "C1 control as a code");
  control ("bidi\xe2\x80\xae"
           "evil",
           "bidi\\u202Eevil", "bidi override");
  control ("bad\xff\xc3(", "bad\\xff\\xc3(", "bytes not UTF-8");
  control ("\xe0\x80\xaf", "\\xe0\\x80\\xaf", "overlong form");
  control ("\xed\xa0\x80", "\\xed\\xa0\\x80", "surrogate");
  control ("a\\b", "a\\b", "backslash copied");
  struct ash_buf b = ASH_BUF_INIT;
  ash_escape_control_add (&b, "x\ty", true);
  tap_is_str (b.buf, "x\ty", "escape_control: tab kept when asked");
  ash_buf_release (&b);
  tap_ok (!ash_has_control ("fine") && ash_has_control ("no\x1b"),
          "has_control tells them apart");
}

/* The text jansson writes for S as a JSON string without flags.  */
static char *
jansson_text (const char *s)
{
  json_t *v = json_string (s);
  char *t = v ? json_dumps (v, JSON_ENCODE_ANY) : NULL;
  json_decref (v);
  return t;
}

static void
json_same (const char *s, const char *what)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_escape_json_add (&b, s);
  _cleanup_free_ char *want = jansson_text (s);
  tap_is_str (b.buf, want ? want : "(jansson refused it)",
              "escape_json: as jansson writes %s", what);
  ash_buf_release (&b);
}

static void
test_json (void)
{
  json_same ("", "an empty string");
  json_same ("Not scanning 'pkg/a.py': link leaves the scanned tree",
             "a warning");
  json_same ("q\"uote\\back/slash", "quotes, backslashes and slashes");
  json_same ("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\x85",
             "characters outside ASCII");
  json_same ("del\x7f", "DEL");
  char all[128];
  for (int c = 1; c < 128; c++)
    all[c - 1] = (char) c;
  all[127] = '\0';
  json_same (all, "every ASCII character");

  struct ash_buf b = ASH_BUF_INIT;
  ash_escape_json_add (&b, "x\xff\xc3(y");
  tap_is_str (b.buf, "\"x\\\\xff\\\\xc3(y\"",
              "escape_json: a byte not UTF-8 as the text \\xHH");
  json_t *v = json_loads (b.buf, JSON_DECODE_ANY, NULL);
  tap_is_str (v && json_is_string (v) ? json_string_value (v) : "",
              "x\\xff\\xc3(y", "escape_json: which reads back as text");
  json_decref (v);
  ash_buf_release (&b);
}

/* Words of eight bytes are checked at once: a byte to escape must be
   found at every place in a word and across the end of one.  Each string
   is printable ASCII with one such byte (or sequence) at offset I; the
   escape of the whole must be the plain text around the escape of that
   byte alone, and the JSON one what jansson writes where it writes
   anything.  */
static void
test_word_edges (void)
{
  static const char *const specials[] = {
    "\x01",     "\x1b",     "\n",           "\x1f", "\x7f", "\xff",
    "\xc3\xa9", "\xc2\x85", "\xe2\x80\xae", "\"",   "\\",   "\t",
  };
  static const char text[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  int bad_control = 0, bad_json = 0, bad_jansson = 0, cases = 0;
  for (size_t k = 0; k < sizeof specials / sizeof *specials; k++)
    for (size_t len = 0; len <= 24; len++)
      for (size_t i = 0; i <= len; i++)
        {
          _cleanup_free_ char *in
            = xasprintf ("%.*s%s%.*s", (int) i, text, specials[k],
                         (int) (len - i), text + i);
          _cleanup_free_ char *one = ash_escape_control (specials[k]);
          _cleanup_free_ char *want
            = xasprintf ("%.*s%s%.*s", (int) i, text, one, (int) (len - i),
                         text + i);
          _cleanup_free_ char *got = ash_escape_control (in);
          if (!streq (got, want))
            bad_control++;

          struct ash_buf j1 = ASH_BUF_INIT, jw = ASH_BUF_INIT;
          ash_escape_json_add (&j1, specials[k]);
          /* The escape of the byte alone, its quotation marks off.  */
          ash_buf_addch (&jw, '"');
          ash_buf_add (&jw, text, i);
          ash_buf_add (&jw, j1.buf + 1, j1.len - 2);
          ash_buf_add (&jw, text + i, len - i);
          ash_buf_addch (&jw, '"');
          struct ash_buf jg = ASH_BUF_INIT;
          ash_escape_json_add (&jg, in);
          if (!streq (jg.buf, jw.buf))
            bad_json++;
          _cleanup_free_ char *jt = jansson_text (in);
          if (jt && !streq (jt, jg.buf))
            bad_jansson++;
          ash_buf_release (&j1);
          ash_buf_release (&jw);
          ash_buf_release (&jg);
          cases++;
        }
  tap_is_int (bad_control, 0,
              "escape_control: a byte to escape found at every place of a "
              "word (%d strings)",
              cases);
  tap_is_int (bad_json, 0,
              "escape_json: a byte to escape found at every place of a word");
  tap_is_int (bad_jansson, 0,
              "escape_json: the same text as jansson at every place");
}

static char *
slurp (int fd)
{
  struct ash_buf b = ASH_BUF_INIT;
  lseek (fd, 0, SEEK_SET);
  if (ash_buf_read_fd (&b, fd) < 0)
    ash_buf_reset (&b);
  return ash_buf_detach (&b);
}

static int
temp_fd (void)
{
  char name[] = "/tmp/ash-test-log.XXXXXX";
  int fd = mkstemp (name);
  if (fd < 0)
    {
      printf ("Bail out! mkstemp: %s\n", strerror (errno));
      exit (99);
    }
  unlink (name);
  return fd;
}

/* Line N (from 0) of TEXT, in a new string, or NULL.  */
static char *
line_of (const char *text, int n)
{
  const char *p = text;
  for (; n > 0 && p; n--)
    {
      p = strchr (p, '\n');
      if (p)
        p++;
    }
  if (!p || !*p)
    return NULL;
  const char *e = strchrnul (p, '\n');
  return xstrndup (p, (size_t) (e - p));
}

static void
test_lines (void)
{
  int human = temp_fd (), json = temp_fd (), term = temp_fd ();
  int saved = dup (STDERR_FILENO);
  fflush (stderr);
  dup2 (term, STDERR_FILENO);

  ash_log_setup (ASH_LOG_INFO, false, 0);
  ash_log_attach (dup (human), dup (json));
  char *msgs[] = {
    (char *) "Not scanning 'a.py': link leaves the scanned tree",
    (char *) "name \x1b[2J\nFAKE PASSED \xff end",
    (char *) "caf\xc3\xa9 \"q\"",
  };
  ash_log_many (ASH_LOG_WARNING, msgs, 3);
  ash_log (ASH_LOG_CRITICAL, "one %s", "critical");
  ash_log (ASH_LOG_DEBUG, "not shown on the terminal");
  ash_log_close ();

  fflush (stderr);
  dup2 (saved, STDERR_FILENO);
  close (saved);

  _cleanup_free_ char *t = slurp (term);
  _cleanup_free_ char *h = slurp (human);
  _cleanup_free_ char *j = slurp (json);
  tap_is_str (t,
              "WARNING  Not scanning 'a.py': link leaves the scanned tree\n"
              "WARNING  name \\e[2J\\nFAKE PASSED \\xff end\n"
              "WARNING  caf\xc3\xa9 \"q\"\n"
              "CRITICAL one critical\n",
              "terminal: level padded to eight, controls shown as text");

  /* ash.log: a time stamp, then what the terminal has.  */
  const char *want_h[] = {
    "WARNING  Not scanning 'a.py': link leaves the scanned tree",
    "WARNING  name \\e[2J\\nFAKE PASSED \\xff end",
    "WARNING  caf\xc3\xa9 \"q\"",
    "CRITICAL one critical",
    "DEBUG    not shown on the terminal",
  };
  _cleanup_free_ char *first = line_of (h, 0);
  for (int i = 0; i < 5; i++)
    {
      _cleanup_free_ char *l = line_of (h, i);
      tap_ok (l && strlen (l) == 25 + strlen (want_h[i]) && l[4] == '-'
                && l[10] == 'T' && l[23] == 'Z' && l[24] == ' '
                && streq (l + 25, want_h[i]),
              "ash.log line %d: stamp and message (%s)", i, l ? l : "none");
    }
  _cleanup_free_ char *extra = line_of (h, 5);
  tap_ok (extra == NULL, "ash.log: one line a message");
  _cleanup_free_ char *l1 = line_of (h, 1), *l2 = line_of (h, 2);
  tap_ok (first && l1 && l2 && strncmp (first, l1, 24) == 0
            && strncmp (first, l2, 24) == 0,
          "ash.log: the messages logged together share their time stamp");

  /* ash.log.jsonl: each line an object, the message as it was.  */
  const char *want_j[] = {
    "Not scanning 'a.py': link leaves the scanned tree",
    "name \x1b[2J\nFAKE PASSED \\xff end",
    "caf\xc3\xa9 \"q\"",
    "one critical",
    "not shown on the terminal",
  };
  const char *want_lv[]
    = { "WARNING", "WARNING", "WARNING", "CRITICAL", "DEBUG" };
  for (int i = 0; i < 5; i++)
    {
      _cleanup_free_ char *l = line_of (j, i);
      json_t *o = l ? json_loads (l, JSON_REJECT_DUPLICATES, NULL) : NULL;
      const char *m = json_string_value (json_object_get (o, "message"));
      const char *lv = json_string_value (json_object_get (o, "level"));
      const char *tm = json_string_value (json_object_get (o, "time"));
      _cleanup_free_ char *hl = line_of (h, i);
      tap_ok (o && json_object_size (o) == 3 && m && streq (m, want_j[i]) && lv
                && streq (lv, want_lv[i]) && tm && hl && strlen (tm) == 24
                && strncmp (hl, tm, 24) == 0,
              "ash.log.jsonl line %d: time, level and message (%s)", i,
              l ? l : "none");
      json_decref (o);
    }
  _cleanup_free_ char *l0 = line_of (j, 0);
  tap_ok (l0 && strncmp (l0, "{\"time\":\"", 9) == 0
            && strstr (l0, "\",\"level\":\"WARNING\",\"message\":\"Not ")
            && l0[strlen (l0) - 1] == '}',
          "ash.log.jsonl: compact, members in order (%s)", l0 ? l0 : "");
  close (human);
  close (json);
  close (term);
}

/* Messages at the edges of the check that copies a message as it is:
   a byte to escape in the first word, in the last whole word and in the
   tail, and messages of exactly one and two words.  */
static void
test_plain_edges (void)
{
  int human = temp_fd (), json = temp_fd ();
  ash_log_setup (ASH_LOG_INFO, true, 0);
  ash_log_attach (dup (human), dup (json));
  static const char *const msgs[] = {
    "12345678",
    "1234567812345678",
    "0123456\x7f"
    "89abcdef",
    "01234567abcdef\\x",
    "0123456789abc\x7f",
    "tail quote\"",
    "bs\\",
    "",
    "tab\there",
  };
  static const char *const shown[] = {
    "12345678",
    "1234567812345678",
    "0123456\\x7f89abcdef",
    "01234567abcdef\\x",
    "0123456789abc\\x7f",
    "tail quote\"",
    "bs\\",
    "",
    "tab\\there",
  };
  ash_log_many (ASH_LOG_WARNING, (char *const *) msgs, ARRAY_SIZE (msgs));
  ash_log_close ();
  _cleanup_free_ char *h = slurp (human);
  _cleanup_free_ char *j = slurp (json);
  for (size_t i = 0; i < ARRAY_SIZE (msgs); i++)
    {
      _cleanup_free_ char *l = line_of (h, (int) i);
      tap_ok (l && strlen (l) >= 34 && streq (l + 34, shown[i]),
              "ash.log: edge message %zu shown as %s (%s)", i, shown[i],
              l ? l : "none");
      _cleanup_free_ char *lj = line_of (j, (int) i);
      json_t *o = lj ? json_loads (lj, JSON_REJECT_DUPLICATES, NULL) : NULL;
      const char *m = json_string_value (json_object_get (o, "message"));
      tap_ok (m && streq (m, msgs[i]) && lj[strlen (lj) - 1] == '}',
              "ash.log.jsonl: edge message %zu as it was (%s)", i,
              lj ? lj : "none");
      json_decref (o);
    }
  close (human);
  close (json);
}

/* What jansson takes as a string: valid UTF-8 only.  */
static void
test_utf8_valid (void)
{
  static const struct
  {
    const char *s;
    bool valid;
  } cases[] = {
    { "", true },
    { "plain", true },
    { "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80", true },
    { "\xf4\x8f\xbf\xbf", true },  /* U+10FFFF */
    { "\xc3", false },             /* cut short */
    { "\xc0\xaf", false },         /* overlong */
    { "\xe0\x80\xaf", false },     /* overlong */
    { "\xed\xa0\x80", false },     /* a surrogate */
    { "\xf4\x90\x80\x80", false }, /* above U+10FFFF */
    { "a\xff"
      "b",
      false },
    { "\x80", false },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    tap_ok (ash_utf8_valid (cases[i].s) == cases[i].valid,
            "ash_utf8_valid: case %zu %s", i,
            cases[i].valid ? "valid" : "refused");
}

int
main (void)
{
  test_control ();
  test_json ();
  test_word_edges ();
  test_lines ();
  test_plain_edges ();
  test_utf8_valid ();
  return tap_done ();
}
