/* SPDX-License-Identifier: Apache-2.0 */
/* test-deps-options.c -- the options of the dependency and SBOM adapters
   (grype, syft, npm-audit, trivy-repo): each one's check_options (made
   before the scan and by `config validate`) and its scan-time steps
   (npm-audit's prepare, then each one's build) give the same verdict on
   the same options: a bad option is the same error from both, naming the
   key; a good one passes both.  severity_threshold, the scan's own
   option, is taken by every one.  */

#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "proc/spawn.h"
#include "scanners/deps-common.h"
#include "scanners/scanner.h"
#include "tap.h"

struct opt_case
{
  const struct ash_scanner *s;
  const char *options; /* JSON, NULL: unset */
  const char *names;   /* a part of the message, NULL: the options pass */
};

static const struct opt_case opt_cases[] = {
  /* grype */
  { &ash_scanner_grype, "{\"nope\": 1}",
    "scanners.grype.options: unknown option 'nope' (known: config_file, "
    "severity_threshold, offline, scan_timeout)" },
  { &ash_scanner_grype, "[\"offline\"]",
    "scanners.grype.options must be a mapping" },
  { &ash_scanner_grype, "{\"config_file\": 5}",
    "scanners.grype.options.config_file must be a non-empty string" },
  /* build reads config_file before it checks the names: so does
     check_options.  */
  { &ash_scanner_grype, "{\"nope\": 1, \"config_file\": [\"x\"]}",
    "scanners.grype.options.config_file must be a non-empty string" },
  { &ash_scanner_grype, "{\"severity_threshold\": 3}",
    "scanners.grype.options.severity_threshold must be a non-empty string" },
  { &ash_scanner_grype, "{\"severity_threshold\": \"INFO\"}",
    "scanners.grype.options.severity_threshold must be one of ALL, LOW, "
    "MEDIUM, HIGH, CRITICAL, not 'INFO'" },
  { &ash_scanner_grype, "{\"offline\": \"yes\"}",
    "scanners.grype.options.offline must be true or false" },
  { &ash_scanner_grype,
    "{\"severity_threshold\": \"HIGH\", \"offline\": true, \"scan_timeout\": "
    "60, \"config_file\": null}",
    NULL },
  { &ash_scanner_grype, "{}", NULL },
  { &ash_scanner_grype, NULL, NULL },
  /* syft */
  { &ash_scanner_syft, "{\"nope\": 1}",
    "scanners.syft.options: unknown option 'nope' (known: config_file, "
    "exclude, additional_outputs, offline, severity_threshold, "
    "scan_timeout)" },
  { &ash_scanner_syft, "\"x\"", "scanners.syft.options must be a mapping" },
  { &ash_scanner_syft, "{\"config_file\": true}",
    "scanners.syft.options.config_file must be a non-empty string" },
  { &ash_scanner_syft, "{\"offline\": 1}",
    "scanners.syft.options.offline must be true or false" },
  { &ash_scanner_syft, "{\"additional_outputs\": \"spdx-json\"}",
    "scanners.syft.options.additional_outputs must be a list" },
  { &ash_scanner_syft, "{\"additional_outputs\": [\"pdf\"]}",
    "scanners.syft.options.additional_outputs: unknown format 'pdf'" },
  { &ash_scanner_syft, "{\"additional_outputs\": [7]}",
    "scanners.syft.options.additional_outputs: unknown format '?'" },
  { &ash_scanner_syft, "{\"exclude\": \"vendor\"}",
    "scanners.syft.options.exclude must be a list" },
  { &ash_scanner_syft, "{\"exclude\": [{\"reason\": \"r\"}]}",
    "scanners.syft.options.exclude[0] has no path" },
  { &ash_scanner_syft, "{\"exclude\": [\"ok\", \"a\\nb\"]}",
    "syft's --exclude cannot name 'a\nb': it holds a line break" },
  { &ash_scanner_syft, "{\"severity_threshold\": \"LOW\", \"nope\": 1}",
    "scanners.syft.options: unknown option 'nope'" },
  { &ash_scanner_syft,
    "{\"severity_threshold\": \"MEDIUM\", \"additional_outputs\": "
    "[\"spdx-json\", \"cyclonedx-xml\"], \"exclude\": [\"./vendor\", "
    "{\"path\": \"node_modules\"}], \"offline\": false, \"config_file\": "
    "null}",
    NULL },
  { &ash_scanner_syft, NULL, NULL },
  /* npm-audit */
  { &ash_scanner_npm_audit, "{\"registry\": \"http://evil\"}",
    "scanners.npm-audit.options: unknown option 'registry' (known: "
    "offline, severity_threshold, scan_timeout)" },
  { &ash_scanner_npm_audit, "[]",
    "scanners.npm-audit.options must be a mapping" },
  { &ash_scanner_npm_audit, "{\"offline\": \"no\"}",
    "scanners.npm-audit.options.offline must be true or false" },
  { &ash_scanner_npm_audit, "{\"severity_threshold\": \"LOW\"}", NULL },
  { &ash_scanner_npm_audit,
    "{\"severity_threshold\": null, \"offline\": true, \"scan_timeout\": 5}",
    NULL },
  { &ash_scanner_npm_audit, NULL, NULL },
  /* trivy-repo */
  { &ash_scanner_trivy_repo, "{\"nope\": 1}",
    "scanners.trivy-repo.options: unknown option 'nope'" },
  { &ash_scanner_trivy_repo, "[1]",
    "scanners.trivy-repo.options must be a mapping" },
  { &ash_scanner_trivy_repo, "{\"config_file\": 1}",
    "scanners.trivy-repo.options.config_file must be a non-empty string" },
  { &ash_scanner_trivy_repo, "{\"ignore_file\": {}}",
    "scanners.trivy-repo.options.ignore_file must be a non-empty string" },
  { &ash_scanner_trivy_repo, "{\"secret_config_file\": []}",
    "scanners.trivy-repo.options.secret_config_file must be a non-empty "
    "string" },
  { &ash_scanner_trivy_repo, "{\"module_dir\": true, \"nope\": 1}",
    "scanners.trivy-repo.options.module_dir must be a non-empty string" },
  { &ash_scanner_trivy_repo, "{\"license_full\": \"y\"}",
    "scanners.trivy-repo.options.license_full must be true or false" },
  { &ash_scanner_trivy_repo, "{\"ignore_unfixed\": 0}",
    "scanners.trivy-repo.options.ignore_unfixed must be true or false" },
  { &ash_scanner_trivy_repo, "{\"disable_telemetry\": \"no\"}",
    "scanners.trivy-repo.options.disable_telemetry must be true or false" },
  { &ash_scanner_trivy_repo, "{\"offline\": []}",
    "scanners.trivy-repo.options.offline must be true or false" },
  { &ash_scanner_trivy_repo, "{\"severity_threshold\": \"INFO\"}",
    "scanners.trivy-repo.options.severity_threshold must be one of ALL, LOW, "
    "MEDIUM, HIGH, CRITICAL, not 'INFO'" },
  { &ash_scanner_trivy_repo, "{\"scanners\": \"vuln\"}",
    "scanners.trivy-repo.options.scanners must be a list" },
  { &ash_scanner_trivy_repo, "{\"scanners\": [\"vuln\", \"sbom\"]}",
    "scanners.trivy-repo.options.scanners: unknown kind 'sbom'" },
  { &ash_scanner_trivy_repo,
    "{\"scanners\": [\"vuln\", \"secret\"], \"severity_threshold\": "
    "\"HIGH\", \"ignore_unfixed\": true, \"license_full\": false, "
    "\"disable_telemetry\": true, \"offline\": true, \"config_file\": null, "
    "\"module_dir\": null}",
    NULL },
  { &ash_scanner_trivy_repo, NULL, NULL },
};

static json_t *
opts (const char *text)
{
  json_t *o = json_loads (text, JSON_DECODE_ANY, NULL);
  if (o == NULL)
    abort ();
  return o;
}

/* The scan-time verdict: prepare (when the scanner has one), then
   build.  */
static int
scan_time (const struct ash_scanner *s, const struct ash_scan_job *job,
           struct ash_error *err)
{
  struct ash_cmd cmd;
  int r = s->prepare ? s->prepare (s, job, err) : 0;
  ash_cmd_init (&cmd);
  if (r == 0)
    r = s->build (s, job, &cmd, err);
  ash_cmd_release (&cmd);
  return r;
}

int
main (void)
{
  char root[] = "/tmp/test-deps-opts.XXXXXX";
  if (mkdtemp (root) == NULL)
    abort ();
  _cleanup_free_ char *src = ash_path_join (root, "src");
  _cleanup_free_ char *res = ash_path_join (root, "results");
  _cleanup_free_ char *cache = ash_path_join (root, "cache");
  if (mkdir (src, 0755) < 0 || mkdir (res, 0755) < 0
      || mkdir (cache, 0755) < 0)
    abort ();
  /* grype's and trivy's database caches, as build names them.  */
  setenv ("XDG_CACHE_HOME", cache, 1);
  setenv ("HOME", root, 1);
  int rfd = open (res, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rfd < 0)
    abort ();

  for (size_t i = 0; i < ARRAY_SIZE (opt_cases); i++)
    {
      const struct opt_case *c = &opt_cases[i];
      json_t *o = c->options ? opts (c->options) : NULL;
      struct ash_error e1 = ASH_ERROR_INIT, e2 = ASH_ERROR_INIT;
      _cleanup_free_ char *name = xasprintf ("run-%zu", i);
      _cleanup_free_ char *run = ash_path_join (root, name);
      if (mkdir (run, 0700) < 0)
        abort ();
      struct ash_scan_job job = {
        .name = c->s->name,
        .target = src,
        .results_dir = res,
        .results_fd = rfd,
        .tool_path = "/bin/true",
        .options = o,
        .max_output = 1 << 20,
        .run_config_dir = run,
      };
      const char *what = c->options ? c->options : "null";

      tap_ok (c->s->check_options != NULL, "%s has check_options", c->s->name);
      int r1 = c->s->check_options ? c->s->check_options (o, &e1) : 0;
      int r2 = scan_time (c->s, &job, &e2);
      if (c->names)
        {
          /* The message may hold a line break: never raw in TAP.  */
          _cleanup_free_ char *shown
            = ash_escape_control (e1.message ? e1.message : "accepted");
          tap_ok (r1 < 0 && e1.message && strstr (e1.message, c->names),
                  "%s %s: check_options refuses it, naming it (%s)",
                  c->s->name, what, shown);
          tap_is_str (r2 < 0 ? e2.message : "accepted",
                      r1 < 0 ? e1.message : "refused",
                      "%s %s: the scan refuses it with the same message",
                      c->s->name, what);
        }
      else
        {
          tap_is_str (r1 < 0 ? e1.message : "accepted", "accepted",
                      "%s %s: check_options accepts it", c->s->name, what);
          tap_is_str (r2 < 0 ? e2.message : "accepted", "accepted",
                      "%s %s: the scan accepts it", c->s->name, what);
        }
      ash_error_release (&e1);
      ash_error_release (&e2);
      json_decref (o);
    }
  close (rfd);
  _cleanup_close_ int tfd = open ("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct ash_error e = ASH_ERROR_INIT;
  if (tfd >= 0)
    ash_tree_remove_all (tfd, root + strlen ("/tmp/"), &e);
  ash_error_release (&e);
  printf ("1..%d\n", tap_n);
  return tap_failed ? 1 : 0;
}
