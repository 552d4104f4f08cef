/* SPDX-License-Identifier: Apache-2.0 */
/* test-suppress.c -- config suppressions, expiry, inline comments.  */

#include <config.h>

#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/error.h"
#include "base/strvec.h"
#include "scan/sarif.h"
#include "scan/suppress.h"
#include "tap.h"

static json_t *
result (const char *rule, const char *path, int line)
{
  return json_pack ("{s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i}}}]}", "ruleId",
                    rule, "message", "text", "m", "locations",
                    "physicalLocation", "artifactLocation", "uri", path,
                    "region", "startLine", line);
}

int
main (void)
{
  struct ash_suppressions s;
  struct ash_strvec warnings = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  json_t *list = json_loads (
    "[{\"rule_id\":\"B6*\",\"path\":\"src/*.py\",\"reason\":\"reviewed\"},"
    " {\"path\":\"legacy/\",\"reason\":\"old code\"},"
    " {\"rule_id\":\"B301\",\"path\":\"app.py\",\"line_start\":10,"
    "  \"line_end\":20,\"reason\":\"range\"},"
    " {\"rule_id\":\"B101\",\"path\":\"*\",\"reason\":\"expired\","
    "  \"expiration\":\"2020-01-01\"},"
    " {\"rule_id\":\"B102\",\"path\":\"*\",\"reason\":\"future\","
    "  \"expiration\":\"2999-12-31\"}]",
    0, NULL);

  ash_suppressions_init (&s);
  int r = ash_suppressions_load (list, "2026-06-01", &s, &warnings, &err);
  tap_is_int (r, 0, "suppressions load");
  tap_is_int (s.n, 4, "the expired entry is left out");
  tap_is_int (warnings.nr, 1, "one warning");
  tap_ok (warnings.nr == 1 && strstr (warnings.v[0], "B101")
            && strstr (warnings.v[0], "expired on 2020-01-01"),
          "warning names the rule and the date: %s",
          warnings.nr ? warnings.v[0] : "");

  tap_ok (ash_suppressions_match (&s, "B602", "src/a.py", 3) != NULL,
          "rule glob and path glob match");
  tap_ok (ash_suppressions_match (&s, "B602", "./src/a.py", 3) != NULL,
          "a leading ./ does not matter");
  tap_ok (ash_suppressions_match (&s, "B404", "src/a.py", 3) == NULL,
          "another rule does not match");
  tap_ok (ash_suppressions_match (&s, "B602", "lib/a.py", 3) == NULL,
          "another path does not match");
  tap_ok (ash_suppressions_match (&s, "X1", "legacy/deep/x.py", 1) != NULL,
          "a directory covers what is below it");
  tap_ok (ash_suppressions_match (&s, "B301", "app.py", 10) != NULL,
          "line range start");
  tap_ok (ash_suppressions_match (&s, "B301", "app.py", 20) != NULL,
          "line range end");
  tap_ok (ash_suppressions_match (&s, "B301", "app.py", 21) == NULL,
          "outside the line range");
  tap_ok (ash_suppressions_match (&s, "B301", "app.py", 9) == NULL,
          "before the line range");
  tap_ok (ash_suppressions_match (&s, "B101", "x.py", 1) == NULL,
          "the expired entry does not apply");
  tap_ok (ash_suppressions_match (&s, "B102", "x.py", 1) != NULL,
          "an entry that expires later applies");

  /* As upstream: "**\/" matches zero or more directories, rule ids and
     paths compare without case, an entry no longer applies on its
     expiration date, and one that expires within 30 days is warned
     about.  */
  {
    json_t *l2 = json_loads (
      "[{\"rule_id\":\"b101\",\"path\":\"tests/**/*.py\",\"reason\":\"r\"},"
      " {\"path\":\"**/.venv/**\",\"reason\":\"r\"},"
      " {\"rule_id\":\"T1\",\"path\":\"Docs/*\",\"reason\":\"r\"},"
      " {\"rule_id\":\"E1\",\"path\":\"*\",\"reason\":\"r\","
      "  \"expiration\":\"2026-06-01\"},"
      " {\"rule_id\":\"E2\",\"path\":\"*\",\"reason\":\"r\","
      "  \"expiration\":\"2026-06-20\"}]",
      0, NULL);
    struct ash_suppressions s3;
    struct ash_strvec w3 = ASH_STRVEC_INIT;
    ash_suppressions_init (&s3);
    tap_is_int (ash_suppressions_load (l2, "2026-06-01", &s3, &w3, &err), 0,
                "upstream's entries load");
    tap_ok (ash_suppressions_match (&s3, "B101", "tests/a.py", 1) != NULL,
            "tests/**/*.py matches tests/a.py (no directory)");
    tap_ok (ash_suppressions_match (&s3, "B101", "tests/x/y/a.py", 1) != NULL,
            "tests/**/*.py matches tests/x/y/a.py");
    tap_ok (ash_suppressions_match (&s3, "B101", "src/a.py", 1) == NULL,
            "tests/**/*.py does not match src/a.py");
    tap_ok (ash_suppressions_match (&s3, "X", ".venv/lib/x.py", 1) != NULL,
            "**/.venv/** matches .venv/lib/x.py at the top");
    tap_ok (ash_suppressions_match (&s3, "X", "a/.venv/x.py", 1) != NULL,
            "**/.venv/** matches a/.venv/x.py");
    tap_ok (ash_suppressions_match (&s3, "t1", "docs/README", 1) != NULL,
            "rule id and path compare without case");
    tap_ok (ash_suppressions_match (&s3, "E1", "x", 1) == NULL,
            "an entry does not apply on its expiration date");
    tap_ok (ash_suppressions_match (&s3, "E2", "x", 1) != NULL,
            "an entry that expires in 19 days applies");
    bool expired = false, soon = false;
    for (size_t i = 0; i < w3.nr; i++)
      {
        expired |= strstr (w3.v[i], "E1")
                   && strstr (w3.v[i], "expired on 2026-06-01");
        soon |= strstr (w3.v[i], "E2")
                && strstr (w3.v[i], "expires on 2026-06-20, in 19 days");
      }
    tap_ok (expired, "the expired entry is warned about");
    tap_ok (soon, "the entry that expires soon is warned about");
    ash_suppressions_release (&s3);
    ash_strvec_release (&w3);
    json_decref (l2);
  }

  json_t *bad
    = json_loads ("[{\"path\":\"x\",\"expiration\":\"soon\"}]", 0, NULL);
  struct ash_suppressions s2;
  ash_suppressions_init (&s2);
  r = ash_suppressions_load (bad, "2026-06-01", &s2, &warnings, &err);
  tap_ok (r < 0 && strstr (err.message, "soon"),
          "an expiration that is not a date is an error: %s", err.message);
  json_decref (bad);
  ash_suppressions_release (&s2);

  const char *text = "a\nb # ash-ignore: B101 reviewed\n"
                     "# ash-ignore-next-line: B102\nd\ne // ASH-IGNORE: b103\n"
                     "f # ash-ignore\ng # ash-ignore B101\n";
  tap_ok (!ash_suppress_inline_text (text, 1, "B101"),
          "line 1 not suppressed");
  tap_ok (ash_suppress_inline_text (text, 2, "B101"),
          "ash-ignore: B101 on the line");
  tap_ok (ash_suppress_inline_text (text, 2, "b101"),
          "the rule id without case");
  tap_ok (!ash_suppress_inline_text (text, 2, "B102"),
          "ash-ignore: B101 does not suppress B102");
  tap_ok (!ash_suppress_inline_text (text, 3, "B102"),
          "ash-ignore-next-line does not suppress its own line");
  tap_ok (ash_suppress_inline_text (text, 4, "B102"),
          "ash-ignore-next-line: B102 suppresses B102 on the next line");
  tap_ok (!ash_suppress_inline_text (text, 4, "B101"), "... not another rule");
  tap_ok (ash_suppress_inline_text (text, 5, "B103"),
          "// and the marker in capitals");
  tap_ok (!ash_suppress_inline_text (text, 6, "B101"),
          "a bare ash-ignore names no rule: nothing");
  tap_ok (!ash_suppress_inline_text (text, 7, "B101"),
          "ash-ignore without its colon: nothing");
  tap_ok (!ash_suppress_inline_text (text, 2, NULL),
          "a result without a rule");
  tap_ok (!ash_suppress_inline_text (text, 99, "B101"), "past the end");

  /* Inline suppressions read the source files.  */
  char dir[] = "/tmp/ash-test-suppress.XXXXXX";
  tap_ok (mkdtemp (dir) != NULL, "temporary dir");
  char *file = xasprintf ("%s/code.py", dir);
  FILE *f = fopen (file, "w");
  fputs ("x = 1\ny = eval(s)  # ash-ignore: E1\nz = eval(s)\n", f);
  fclose (f);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("t", NULL, NULL);
  json_t *results = json_object_get (run, "results");
  json_array_append_new (results, result ("E1", "code.py", 2));
  json_array_append_new (results, result ("E1", "code.py", 3));
  json_array_append_new (results, result ("B602", "src/y.py", 1));
  json_array_append_new (json_object_get (doc, "runs"), run);
  size_t n = ash_suppress_doc (doc, &s, dir, 1 << 20);
  tap_is_int (n, 2, "two results suppressed");
  tap_ok (ash_sarif_result_is_suppressed (json_array_get (results, 0)),
          "inline comment suppresses line 2");
  tap_is_str (json_string_value (json_object_get (
                json_array_get (json_object_get (json_array_get (results, 0),
                                                 "suppressions"),
                                0),
                "kind")),
              "inSource", "inline suppression kind inSource");
  tap_ok (!ash_sarif_result_is_suppressed (json_array_get (results, 1)),
          "line 3 is not suppressed");
  json_t *ext = json_array_get (json_object_get (json_array_get (results, 2),
                                                 "suppressions"),
                                0);
  tap_is_str (json_string_value (json_object_get (ext, "kind")), "external",
              "config suppression kind external");
  tap_is_str (json_string_value (json_object_get (ext, "justification")),
              "reviewed", "justification is the reason");
  json_decref (doc);

  /* Files the tree lacks: one debug line each in ash.log, however many
     results name them.  */
  {
    char logpath[] = "/tmp/ash-test-suppress-log.XXXXXX";
    int lfd = mkstemp (logpath);
    tap_ok (lfd >= 0, "a log file");
    ash_log_attach (lfd, -1);
    json_t *d2 = ash_sarif_doc_new ();
    json_t *r2 = ash_sarif_run_new ("t", NULL, NULL);
    json_t *res2 = json_object_get (r2, "results");
    json_array_append_new (res2, result ("E1", "gone/a.py", 1));
    json_array_append_new (res2, result ("E1", "gone/b.py", 2));
    json_array_append_new (res2, result ("E1", "gone/a.py", 3));
    json_array_append_new (json_object_get (d2, "runs"), r2);
    ash_suppress_doc (d2, NULL, dir, 1 << 20);
    ash_log_close ();
    json_decref (d2);
    static char text[1 << 16];
    FILE *lf = fopen (logpath, "r");
    size_t got = lf ? fread (text, 1, sizeof text - 1, lf) : 0;
    text[got] = '\0';
    if (lf)
      fclose (lf);
    unlink (logpath);
    int na = 0, nb = 0;
    for (const char *q = text;
         (q = strstr (q, "no inline suppression check of gone/")); q++)
      {
        na += strncmp (q + 36, "a.py:", 5) == 0;
        nb += strncmp (q + 36, "b.py:", 5) == 0;
      }
    tap_ok (na == 1 && nb == 1,
            "each missing file is named once in ash.log (a.py %d, b.py %d)",
            na, nb);
  }

  /* Many results in one file: each line gets the answer the line-by-line
     check gives, whatever the order of the results, with markers on
     every kind of line (same line, next line, both, a blank last line, a
     line past the end).  */
  static const char *const lines[] = {
    "a = 1",
    "b = eval(s)  # ash-ignore: E1",
    "# ash-ignore-next-line: E1",
    "c = eval(s)",
    "",
    "d = 1  # ASH-IGNORE: e1",
    "e = eval(s)",
    "f = 1  # ash-ignore: B101",
    "# ash-ignore-next-line: B101",
    "g = 1",
    "h = 1 # ash-ignorex: E1",
    "i = 1 # ash-ignore: E*",
    "j = 1 # ash-ignore",
  };
  struct ash_buf many = ASH_BUF_INIT;
  for (int rep = 0; rep < 50; rep++)
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++)
      ash_buf_addf (&many, "%s\n", lines[k]);
  f = fopen (file, "w");
  fputs (many.buf, f);
  fclose (f);
  int nlines = 50 * (int) (sizeof lines / sizeof *lines);
  doc = ash_sarif_doc_new ();
  run = ash_sarif_run_new ("t", NULL, NULL);
  results = json_object_get (run, "results");
  for (int l = nlines + 2; l >= 1; l--)
    json_array_append_new (results, result ("E1", "code.py", l));
  json_array_append_new (json_object_get (doc, "runs"), run);
  ash_suppress_doc (doc, NULL, dir, 1 << 20);
  int agree = 0, want_n = 0;
  for (int l = nlines + 2; l >= 1; l--)
    {
      bool want = ash_suppress_inline_text (many.buf, l, "E1");
      bool got = ash_sarif_result_is_suppressed (
        json_array_get (results, (size_t) (nlines + 2 - l)));
      agree += want == got;
      want_n += want;
    }
  tap_is_int (agree, nlines + 2,
              "one file, %d results: each as the line-by-line check says",
              nlines + 2);
  tap_is_int (want_n, 50 * 4,
              "and the file has 200 lines suppressed for E1, none for "
              "another rule's marker or a bare one");
  ash_buf_release (&many);
  json_decref (doc);
  unlink (file);
  rmdir (dir);
  free (file);

  json_decref (list);
  ash_suppressions_release (&s);
  ash_strvec_release (&warnings);
  ash_error_release (&err);
  return tap_done ();
}
