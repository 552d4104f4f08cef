/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-scanner.c -- a scanner's native output as its adapter reads it.

   Built once per adapter: FUZZ_SCANNER names it (bandit, detect-secrets,
   grype, syft, npm-audit, checkov, cfn-nag, actionlint, cfn-lint,
   cdk-nag, zizmor, cfn-guard, semgrep, trivy).  The input is the tool's
   report; an adapter that reads it from the results directory (cdk-nag,
   zizmor, cfn-guard, semgrep) gets it written there and runs its parse
   step, the others their mapping function on the text.  Nothing is
   spawned: no tool version is probed.

   Properties: a failure says why and returns no document; a document is
   a structurally valid SARIF 2.1.0 log, and still one, with ash's
   severity on every result, after ash's normalisation.  */

#include <config.h>

#include "fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/deps-common.h"
#include "scanners/grep-common.h"
#include "scanners/iac-common.h"
#include "scanners/scanner.h"

#ifndef FUZZ_SCANNER
#error "FUZZ_SCANNER must name the adapter"
#endif

#define IS(name) (strcmp (FUZZ_SCANNER, name) == 0)

/* The results directory of a job and the job itself.  */
static char srcdir[4096], resdir[4096];

static void
setup_job (struct ash_scan_job *job, struct ash_cmd_result *res,
           const char *name)
{
  memset (job, 0, sizeof *job);
  memset (res, 0, sizeof *res);
  job->name = name;
  job->target = srcdir;
  job->results_dir = resdir;
  job->results_fd = open (resdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  FUZZ_CHECK (job->results_fd >= 0);
  job->tool_path = "/nonexistent/fuzz-tool";
  job->max_output = 1 << 24;
}

static int
parse_in_dir (const struct ash_scanner *s, const char *file,
              const uint8_t *data, size_t size, int status, json_t **doc,
              struct ash_error *err)
{
  if (fuzz_write_file (resdir, file, data, size) < 0)
    abort ();
  struct ash_scan_job job;
  struct ash_cmd_result res;
  setup_job (&job, &res, s->name);
  res.status = status;
  int r = s->parse (s, &job, &res, doc, err);
  close (job.results_fd);
  return r;
}

static json_t *
load (const uint8_t *data, size_t size)
{
  return json_loadb ((const char *) data, size, JSON_REJECT_DUPLICATES, NULL);
}

static int
run (const uint8_t *data, size_t size, json_t **doc, struct ash_error *err)
{
  const char *text = (const char *) data;
  if (IS ("bandit"))
    return ash_bandit_json_to_sarif (text, size, srcdir, doc, err);
  if (IS ("detect-secrets"))
    return ash_detect_secrets_to_sarif (text, size, srcdir, doc, err);
  if (IS ("grype"))
    return ash_grype_json_to_sarif (text, size, NULL, srcdir, doc, err);
  if (IS ("syft"))
    {
      size_t n = 0;
      int r = ash_syft_sbom_check (text, size, &n, err);
      if (r == 0)
        {
          *doc = ash_sarif_doc_new ();
          json_array_append_new (json_object_get (*doc, "runs"),
                                 ash_sarif_run_new ("syft", NULL, NULL));
        }
      return r;
    }
  if (IS ("npm-audit"))
    {
      struct ash_scan_job job;
      struct ash_cmd_result res;
      setup_job (&job, &res, "npm-audit");
      char *locks[] = { (char *) "package-lock.json", NULL };
      char *texts[] = { fuzz_text (data, size), NULL };
      size_t lens[] = { size, 0 };
      int r = ash_npm_audit_to_sarif (&job, locks, texts, lens, "10.0.0", doc,
                                      err);
      free (texts[0]);
      close (job.results_fd);
      return r;
    }
  if (IS ("checkov") || IS ("cfn-nag") || IS ("actionlint") || IS ("cfn-lint"))
    {
      json_t *report = load (data, size);
      if (report == NULL)
        return ash_error_set (err, -EINVAL, "not JSON");
      int r = IS ("checkov")
                ? ash_checkov_json_to_sarif (report, srcdir, doc, err)
              : IS ("cfn-nag")
                ? ash_cfn_nag_json_to_sarif (report, srcdir, doc, err)
              : IS ("actionlint")
                ? ash_actionlint_json_to_sarif (report, 1, srcdir, doc, err)
                : ash_cfn_lint_json_to_sarif (report, srcdir, doc, err);
      json_decref (report);
      if (r == 0)
        ash_iac_sarif_normalise (*doc, FUZZ_SCANNER, NULL, NULL, srcdir, NULL);
      return r;
    }
  if (IS ("cdk-nag"))
    {
      static const char manifest[]
        = "{\"templates\": [{\"template\": \"t.template.json\", "
          "\"dir\": \"t0\", \"reports\": [\"r.csv\"]}]}";
      if (fuzz_write_file (resdir, "cdk-nag-out/manifest.json", manifest,
                           sizeof manifest - 1)
          < 0)
        abort ();
      return parse_in_dir (&ash_scanner_cdk_nag, "cdk-nag-out/t0/r.csv", data,
                           size, 0, doc, err);
    }
  if (IS ("zizmor"))
    return parse_in_dir (&ash_scanner_zizmor, "zizmor.stdout.log", data, size,
                         0, doc, err);
  if (IS ("cfn-guard"))
    return parse_in_dir (&ash_scanner_cfn_guard, "cfn-guard.stdout.log", data,
                         size, 0, doc, err);
  if (IS ("semgrep"))
    {
      if (fuzz_write_file (resdir, "semgrep.sarif", data, size) < 0)
        abort ();
      struct ash_scan_job job;
      struct ash_cmd_result res;
      setup_job (&job, &res, "semgrep");
      res.status = 1;
      int r = ash_grep_parse (false, &job, &res, "semgrep.sarif", "1.0.0", doc,
                              err);
      close (job.results_fd);
      return r;
    }
  if (IS ("trivy"))
    {
      int r = ash_sarif_parse (text, size, doc, err);
      if (r == 0)
        ash_deps_sarif_normalise (*doc, "trivy", "0.1", srcdir);
      return r;
    }
  fprintf (stderr, "fuzz-scanner: no adapter '%s'\n", FUZZ_SCANNER);
  abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *tmp = fuzz_tmpdir ();
  snprintf (srcdir, sizeof srcdir, "%s/src", tmp);
  snprintf (resdir, sizeof resdir, "%s/results", tmp);
  fuzz_empty_dir (tmp);
  if (fuzz_write_file (tmp, "src/app.py", "x = 1\n", 6) < 0
      || fuzz_write_file (tmp, "results/.keep", "", 0) < 0)
    abort ();

  json_t *doc = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  int r = run (data, size, &doc, &err);
  if (r < 0)
    {
      FUZZ_CHECK (doc == NULL);
      FUZZ_CHECK (err.message != NULL);
      ash_error_release (&err);
      return 0;
    }
  FUZZ_CHECK (doc != NULL);
  fuzz_check_sarif (doc, false);

  struct ash_sarif_norm norm = {
    .driver_name = FUZZ_SCANNER,
    .source_dir = srcdir,
  };
  r = ash_adapter_sarif_normalize (doc, &norm, &err);
  if (r < 0)
    FUZZ_CHECK (err.message != NULL);
  else
    fuzz_check_sarif (doc, true);
  json_decref (doc);
  ash_error_release (&err);
  return 0;
}
