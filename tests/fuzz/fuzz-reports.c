/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-reports.c -- the report writers: a scanner's SARIF log, a project
   name and an error reason (all three hostile: the log and the reason come
   from a scanner, the name from a configuration in the scanned tree) go
   through ingestion into the aggregated results document, and every
   report is rendered from it.

   Input: the SARIF log, then the project name, then the reason, split at
   `--ash-fuzz-file--` lines (missing pieces are empty).

   Properties: every report renders; the text reports (text, markdown,
   the terminal summary) and the CSV hold no control character other than
   newline and tab, raw or as a C1 code point; the HTML report holds no
   markup the input brought (no script, image, frame or event attribute,
   no javascript: link), and every '<' of the Markdown report is
   backslash-escaped or opens a tag ash writes itself; the JUnit XML holds no
   character XML 1.0 forbids; the YAML report holds no control character
   but newline and tab; every other report is a JSON document that loads
   back, and the SARIF and GitHub SARIF reports validate structurally.  */

#include <config.h>

#include "fuzz.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/reports.h"
#include "scan/results.h"
#include "scan/sarif.h"
#include "scan/suppress.h"
#include "scanners/adapter.h"

/* No C0 control but newline and tab (and carriage return when CR_OK), no
   DEL, and no C1 control encoded as UTF-8 (U+0080..U+009F).  */
static void
check_no_controls (const char *what, const char *s, bool cr_ok)
{
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      bool bad
        = (*p < 0x20 && *p != '\n' && *p != '\t' && !(cr_ok && *p == '\r'))
          || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
      if (bad)
        {
          fprintf (stderr, "%s: control byte 0x%02x at offset %zu\n", what, *p,
                   (size_t) ((const char *) p - s));
          FUZZ_CHECK (!bad);
        }
    }
}

/* True when S holds NEEDLE, ignoring ASCII case.  */
static bool
has_nocase (const char *s, const char *needle)
{
  size_t n = strlen (needle);
  for (; *s; s++)
    if (strncasecmp (s, needle, n) == 0)
      return true;
  return false;
}

/* Every tag of the HTML report is one ash's template writes, with no
   event attribute and no javascript: URL inside it: markup the input
   brought would show up as another tag or inside one.  Text between tags
   may say anything.  */
static void
check_html_tags (const char *s)
{
  static const char *const own[]
    = { "!DOCTYPE", "html", "head", "meta",  "title", "style", "body", "h1",
        "h2",       "p",    "br",   "table", "tr",    "th",    "td" };
  for (const char *p = s; (p = strchr (p, '<')); p++)
    {
      const char *t = p + 1 + (p[1] == '/');
      size_t n = strspn (t, "!ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "abcdefghijklmnopqrstuvwxyz0123456789");
      bool mine = false;
      for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        mine = mine || (strlen (own[i]) == n && strncmp (t, own[i], n) == 0);
      const char *end = strchr (t, '>');
      FUZZ_CHECK (end != NULL);
      _cleanup_free_ char *inside = xstrndup (t, (size_t) (end - t));
      if (!mine || has_nocase (inside, " on")
          || has_nocase (inside, "javascript:"))
        fprintf (stderr, "html: a tag ash does not write at offset %zu\n",
                 (size_t) (p - s));
      FUZZ_CHECK (mine);
      FUZZ_CHECK (!has_nocase (inside, " on"));
      FUZZ_CHECK (!has_nocase (inside, "javascript:"));
    }
}

/* In Markdown, a '<' after an odd number of backslashes is text; any
   other must open one of the few tags ash writes itself.  */
static void
check_markdown_tags (const char *s)
{
  static const char *const own[]
    = { "<details>", "</details>", "<summary>", "</summary>" };
  for (const char *p = s; (p = strchr (p, '<')); p++)
    {
      size_t slashes = 0;
      while (p - slashes > s && p[-1 - (ptrdiff_t) slashes] == '\\')
        slashes++;
      if (slashes % 2 == 1)
        continue;
      bool mine = false;
      for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        mine = mine || strncmp (p, own[i], strlen (own[i])) == 0;
      if (!mine)
        fprintf (stderr, "markdown: unescaped '<' at offset %zu\n",
                 (size_t) (p - s));
      FUZZ_CHECK (mine);
    }
}

static void
check_report (const char *name, const char *text)
{
  FUZZ_CHECK (text != NULL);
  if (strcmp (name, "text") == 0 || strcmp (name, "csv") == 0)
    check_no_controls (name, text, false);
  else if (strcmp (name, "markdown") == 0)
    {
      check_no_controls (name, text, false);
      check_markdown_tags (text);
    }
  else if (strcmp (name, "html") == 0)
    {
      check_no_controls (name, text, true);
      check_html_tags (text);
    }
  else if (strcmp (name, "junitxml") == 0)
    check_no_controls (name, text, true);
  else if (strcmp (name, "yaml") == 0)
    check_no_controls (name, text, false);
  else
    {
      /* Every other report is a JSON document.  */
      json_error_t e;
      json_t *doc = json_loads (text, JSON_REJECT_DUPLICATES, &e);
      if (doc == NULL)
        fprintf (stderr, "%s: not JSON: %s\n", name, e.text);
      FUZZ_CHECK (doc != NULL);
      if (strcmp (name, "sarif") == 0 || strcmp (name, "github-ghas") == 0)
        fuzz_check_sarif (doc, strcmp (name, "sarif") == 0);
      json_decref (doc);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *piece[3] = { NULL, NULL, NULL };
  size_t len[3] = { 0, 0, 0 };
  size_t n = fuzz_split (data, size, 3, piece, len);
  char *name = fuzz_text (n > 1 ? piece[1] : data, n > 1 ? len[1] : 0);
  char *reason = fuzz_text (n > 2 ? piece[2] : data, n > 2 ? len[2] : 0);
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;

  const char *tmp = fuzz_tmpdir ();
  char srcdir[4096], outdir[4096];
  snprintf (srcdir, sizeof srcdir, "%s/src", tmp);
  snprintf (outdir, sizeof outdir, "%s/out", tmp);
  static bool made;
  if (!made)
    {
      if (fuzz_write_file (srcdir, "a.py", "x = 1\n", 6) < 0)
        abort ();
      made = true;
    }

  struct ash_scanner_result found, broken;
  ash_scanner_result_init (&found, "fuzz-scanner");
  ash_scanner_result_init (&broken, "broken-scanner");
  found.exit_code = 1;
  broken.status = ASH_STATUS_ERROR;
  broken.reason = reason;
  reason = NULL;

  if (n > 0
      && ash_sarif_parse ((const char *) piece[0], len[0], &doc, &err) == 0)
    {
      struct ash_sarif_norm norm = {
        .driver_name = "fuzz-scanner",
        .info_uri = "https://example.invalid/",
        .source_dir = srcdir,
      };
      if (ash_adapter_sarif_normalize (doc, &norm, &err) == 0)
        {
          ash_sarif_tag (doc, "fuzz-scanner");
          ash_suppress_doc (doc, NULL, srcdir, 1 << 20);
          found.sarif = doc;
          doc = NULL;
          ash_scanner_result_count (&found, ASH_SEVERITY_MEDIUM);
        }
    }
  if (!found.sarif)
    {
      found.status = ASH_STATUS_ERROR;
      found.reason = xstrdup (err.message ? err.message : "no log");
    }
  json_decref (doc);
  ash_error_release (&err);

  struct ash_scan_summary sum = {
    .project_name = name,
    .source_dir = srcdir,
    .output_dir = outdir,
    .generated_at = "2026-01-01T00:00:00Z",
    .sandbox_mode = "auto",
    .threshold = ASH_SEVERITY_MEDIUM,
    .fail_on_findings = true,
    .fail_on_incomplete = true,
  };
  struct ash_scanner_result *const results[] = { &found, &broken };
  json_t *agg = ash_results_aggregate (&sum, results, 2);
  FUZZ_CHECK (agg != NULL);
  fuzz_check_json_roundtrip (agg);

  ash_report_findings_begin (agg);
  for (const struct ash_report_format *f = ash_report_formats; f->name; f++)
    {
      char *text = f->render ? f->render (agg) : f->render_opts (agg, NULL);
      /* Only a report that may have nothing to say may say nothing.  */
      if (text == NULL && strcmp (f->name, "gitlab-cyclonedx") == 0)
        continue;
      check_report (f->name, text);
      free (text);
    }
  char *table = ash_report_summary_table (agg, "reports");
  FUZZ_CHECK (table != NULL);
  check_no_controls ("summary table", table, false);
  free (table);
  ash_report_findings_end ();

  json_decref (agg);
  ash_scanner_result_release (&found);
  ash_scanner_result_release (&broken);
  free (name);
  return 0;
}
