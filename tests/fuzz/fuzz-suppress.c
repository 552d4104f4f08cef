/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-suppress.c -- inline suppression comments ("ash-ignore",
   "ash-ignore-next-line") and global_settings.suppressions entries.

   The input, split at FUZZ_SEPARATOR lines, is a source file (src/f.py)
   and a JSON list of suppression entries.  Properties:
   ash_suppress_inline_text agrees, for every line, with a plain model of
   the documented rule (upstream's "# ash-ignore: RULE" form, for the
   rule R1 of every result), and never suppresses a finding without a
   rule; ash_suppress_doc over one result per line of the
   file suppresses exactly the lines the model and the loaded entries say,
   each with one suppression entry, and leaves a well-formed SARIF log.  */

#include <config.h>

#include "fuzz.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "scan/sarif.h"
#include "scan/suppress.h"

/* Whether the line [L, L+LEN) holds the directive for RULE: a comment
   ("#" or "//", then blanks) opening right before "ash-ignore" (with
   NEXT, "ash-ignore-next-line"), the marker in any case, then ":", blanks
   and a rule id (up to a blank or CR) that matches RULE as a glob without
   case.  */
static bool
model_marker (const char *l, size_t len, bool next, const char *rule)
{
  for (size_t i = 0; i + 10 <= len; i++)
    {
      if (strncasecmp (l + i, "ash-ignore", 10) != 0)
        continue;
      size_t k = i;
      while (k > 0 && (l[k - 1] == ' ' || l[k - 1] == '\t'))
        k--;
      bool comment = (k >= 1 && l[k - 1] == '#')
                     || (k >= 2 && l[k - 1] == '/' && l[k - 2] == '/');
      size_t p = i + 10;
      bool is_next
        = p + 10 <= len && strncasecmp (l + p, "-next-line", 10) == 0;
      if (is_next)
        p += 10;
      if (!comment || is_next != next || p >= len || l[p] != ':')
        continue;
      p++;
      while (p < len && (l[p] == ' ' || l[p] == '\t'))
        p++;
      size_t q = p;
      while (q < len && l[q] != ' ' && l[q] != '\t' && l[q] != '\r')
        q++;
      if (q == p || q - p > 512)
        continue;
      char *pat = strndup (l + p, q - p);
      bool m = fnmatch (pat, rule, FNM_CASEFOLD) == 0;
      free (pat);
      if (m)
        return true;
    }
  return false;
}

/* The lines of TEXT (a C string): starts and lengths; a final empty
   line after the last newline is not a line.  */
static size_t
model_lines (const char *text, const char ***starts, size_t **lens)
{
  size_t n = 0, cap = 16;
  *starts = malloc (cap * sizeof **starts);
  *lens = malloc (cap * sizeof **lens);
  const char *p = text;
  while (*p)
    {
      const char *nl = strchr (p, '\n');
      size_t l = nl ? (size_t) (nl - p) : strlen (p);
      if (n == cap)
        {
          cap *= 2;
          *starts = realloc (*starts, cap * sizeof **starts);
          *lens = realloc (*lens, cap * sizeof **lens);
        }
      (*starts)[n] = p;
      (*lens)[n] = l;
      n++;
      if (!nl)
        break;
      p = nl + 1;
    }
  return n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *p[2];
  size_t len[2];
  size_t n = fuzz_split (data, size, 2, p, len);
  char *text = fuzz_text (p[0], len[0]);

  const char **starts;
  size_t *lens;
  size_t nlines = model_lines (text, &starts, &lens);
  if (nlines > 2000)
    nlines = 2000;
  bool *want = calloc (nlines + 2, sizeof *want);
  for (size_t l = 1; l <= nlines + 1; l++)
    {
      bool m = false;
      if (l <= nlines
          && model_marker (starts[l - 1], lens[l - 1], false, "R1"))
        m = true;
      if (l >= 2 && l - 1 <= nlines
          && model_marker (starts[l - 2], lens[l - 2], true, "R1"))
        m = true;
      FUZZ_CHECK (ash_suppress_inline_text (text, (int) l, "R1") == m);
      /* A finding without a rule is never suppressed by a comment.  */
      FUZZ_CHECK (!ash_suppress_inline_text (text, (int) l, NULL));
      want[l] = m;
    }
  FUZZ_CHECK (!ash_suppress_inline_text (text, 0, "R1"));

  /* The entries.  */
  struct ash_suppressions sup;
  ash_suppressions_init (&sup);
  if (n > 1)
    {
      json_t *list = json_loadb ((const char *) p[1], len[1], 0, NULL);
      struct ash_strvec warnings = ASH_STRVEC_INIT;
      struct ash_error err = ASH_ERROR_INIT;
      if (ash_suppressions_load (list, "2026-01-01", &sup, &warnings, &err)
          < 0)
        {
          FUZZ_CHECK (err.message != NULL);
          ash_suppressions_release (&sup);
          ash_suppressions_init (&sup);
        }
      ash_strvec_release (&warnings);
      ash_error_release (&err);
      json_decref (list);
    }

  /* One result per line.  */
  const char *tmp = fuzz_tmpdir ();
  if (fuzz_write_file (tmp, "src/f.py", p[0], len[0]) < 0)
    abort ();
  char srcdir[4096];
  snprintf (srcdir, sizeof srcdir, "%s/src", tmp);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("fuzz", NULL, NULL);
  json_array_append_new (json_object_get (doc, "runs"), run);
  json_t *results = json_object_get (run, "results");
  for (size_t l = 1; l <= nlines; l++)
    json_array_append_new (
      results, json_pack ("{s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i}}}]}",
                          "ruleId", "R1", "message", "text", "m", "locations",
                          "physicalLocation", "artifactLocation", "uri",
                          "f.py", "region", "startLine", (int) l));
  /* The comments are looked for only when the text (up to a NUL byte)
     is valid UTF-8.  */
  json_t *probe = json_string (text);
  bool utf8 = probe != NULL;
  json_decref (probe);
  size_t got = ash_suppress_doc (doc, &sup, srcdir, 1 << 20);
  size_t expect = 0;
  for (size_t l = 1; l <= nlines; l++)
    {
      json_t *res = json_array_get (results, l - 1);
      bool by_entry
        = ash_suppressions_match (&sup, "R1", "f.py", (int) l) != NULL;
      bool by_comment = utf8 && want[l];
      json_t *list = json_object_get (res, "suppressions");
      if (by_entry || by_comment)
        {
          expect++;
          FUZZ_CHECK (json_array_size (list) == 1);
        }
      else
        FUZZ_CHECK (list == NULL);
    }
  FUZZ_CHECK (got == expect);
  fuzz_check_sarif (doc, false);

  json_decref (doc);
  ash_suppressions_release (&sup);
  free (want);
  free (starts);
  free (lens);
  free (text);
  return 0;
}
