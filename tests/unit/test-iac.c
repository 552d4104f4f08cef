/* SPDX-License-Identifier: Apache-2.0 */
/* test-iac.c -- the command lines of the infrastructure-as-code adapters
   for their defaults and for each option, the refusal of options they do
   not have, the same verdict on the options from each adapter's
   check_options (made before the scan) and from its build (made when the
   command is built), and the shared SARIF normalisation.  */

#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "proc/spawn.h"
#include "scanners/iac-common.h"
#include "tap.h"

static char *
joined (const struct ash_strvec *v)
{
  size_t n = 1;
  for (size_t i = 0; i < v->nr; i++)
    n += strlen (v->v[i]) + 1;
  char *s = xzalloc (n);
  for (size_t i = 0; i < v->nr; i++)
    {
      if (i)
        strcat (s, " ");
      strcat (s, v->v[i]);
    }
  return s;
}

static json_t *
opts (const char *text)
{
  json_t *o = json_loads (text, 0, NULL);
  if (o == NULL)
    abort ();
  return o;
}

typedef int (*argv_fn) (const json_t *options, struct ash_strvec *argv,
                        struct ash_error *err);

static void
expect (argv_fn fn, const char *options, const char *want, const char *what)
{
  struct ash_strvec v = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  json_t *o = options ? opts (options) : NULL;
  int r = fn (o, &v, &err);
  _cleanup_free_ char *got
    = r == 0 ? joined (&v) : xasprintf ("error: %s", err.message);
  tap_is_str (got, want, "%s", what);
  json_decref (o);
  ash_strvec_release (&v);
  ash_error_release (&err);
}

static char *const templates[]
  = { (char *) "a.yaml", (char *) "b[1].json", NULL };
static char *const workflows[] = { (char *) ".github/workflows/ci.yml", NULL };
static char *const excluded[]
  = { (char *) "vendor/x.py", (char *) "a b/$(c)[1].terraform",
      (char *) "/src/out", (char *) "/elsewhere", NULL };
static char *const excluded_bad[] = { (char *) "ok", (char *) "x\ny", NULL };

static int
cfn_lint (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_cfn_lint_argv ("cfn-lint", o, "sarif", "/run/rc", "/res/o",
                            templates, v, e);
}
static int
checkov (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_checkov_argv ("checkov", o, NULL, "/res", "/src", excluded, v, e);
}
static int
checkov_bad (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_checkov_argv ("checkov", o, NULL, "/res", "/src", excluded_bad, v,
                           e);
}
static int
cfn_nag (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_cfn_nag_argv ("cfn_nag_scan", o, NULL, NULL, NULL, "/src",
                           templates, v, e);
}
static int
cfn_nag_own (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_cfn_nag_argv ("cfn_nag_scan", o, "/run", "/run/p", "/run/d",
                           "/src", templates, v, e);
}
static int
actionlint (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_actionlint_argv ("actionlint", o, "/run/al.yaml", NULL, NULL,
                              workflows, v, e);
}
static int
zizmor (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_zizmor_argv ("zizmor", o, NULL, false, workflows, v, e);
}
static int
cdk_nag (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_cdk_nag_argv ("node", "/lib/w.js", "/nm", o, "/res/out",
                           templates, v, e);
}

static int
actionlint_tools (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_actionlint_argv ("actionlint", o, "/src/.github/al.yaml",
                              "/usr/bin/shellcheck", "pyflakes", workflows, v,
                              e);
}
static int
zizmor_config (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_zizmor_argv ("zizmor", o, "/op/zizmor.yml", false, workflows, v,
                          e);
}
static int
zizmor_no_config (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_zizmor_argv ("zizmor", o, NULL, true, workflows, v, e);
}
static char bundle[] = "/tmp/test-iac-bundle.XXXXXX";
static char *const own_rules[] = { (char *) "/run/rules-0.guard", NULL };
static int
cfn_guard (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_cfn_guard_argv ("cfn-guard", o, bundle, NULL, templates, v, e);
}
static int
cfn_guard_own (const json_t *o, struct ash_strvec *v, struct ash_error *e)
{
  return ash_cfn_guard_argv ("cfn-guard", o, bundle, own_rules, templates, v,
                             e);
}

/* check_options against build: each scanner's options are checked
   before the scan (check_options) and again when its command is built
   (build, on a tree with a CloudFormation template and a workflow, so
   that every adapter reaches its option checks).  A bad option must be
   the same error from both, naming the key; a good one must pass both.  */

struct opt_case
{
  const struct ash_scanner *s;
  const char *options; /* JSON */
  const char *names;   /* a part of the message, NULL: the options pass */
};

static const struct opt_case opt_cases[] = {
  /* checkov */
  { &ash_scanner_checkov, "{\"nope\": 1}",
    "scanners.checkov.options.nope is not an option of checkov" },
  { &ash_scanner_checkov, "[\"frameworks\"]",
    "scanners.checkov.options must be a mapping" },
  { &ash_scanner_checkov, "{\"config_file\": 5}",
    "scanners.checkov.options.config_file must be a string" },
  { &ash_scanner_checkov, "{\"tool_version\": \"latest\"}",
    "scanners.checkov.options.tool_version: 'latest' is not a version "
    "constraint" },
  { &ash_scanner_checkov, "{\"install_timeout\": 0}",
    "scanners.checkov.options.install_timeout must be a number of seconds" },
  { &ash_scanner_checkov, "{\"additional_formats\": [\"pdf\"]}",
    "scanners.checkov.options.additional_formats: 'pdf' is not a value" },
  { &ash_scanner_checkov, "{\"additional_formats\": \"sarif\"}",
    "scanners.checkov.options.additional_formats must be a list" },
  { &ash_scanner_checkov, "{\"frameworks\": [\"cobol\"]}",
    "scanners.checkov.options.frameworks: 'cobol' is not a value" },
  { &ash_scanner_checkov, "{\"skip_frameworks\": [\"\"]}",
    "scanners.checkov.options.skip_frameworks must be a list of non-empty" },
  { &ash_scanner_checkov, "{\"offline\": \"yes\"}",
    "scanners.checkov.options.offline must be true or false" },
  { &ash_scanner_checkov, "{\"skip_path\": [\"(\"]}",
    "scanners.checkov.options.skip_path: '(' is not a regular expression" },
  { &ash_scanner_checkov, "{\"skip_path\": [{\"reason\": \"r\"}]}",
    "scanners.checkov.options.skip_path: item 0 has no path" },
  { &ash_scanner_checkov, "{\"skip_path\": \"x\"}",
    "scanners.checkov.options.skip_path must be a list" },
  { &ash_scanner_checkov,
    "{\"frameworks\": [\"cloudformation\"], \"skip_frameworks\": "
    "[\"secrets\"], \"offline\": true, \"additional_formats\": [], "
    "\"skip_path\": [\"^tests/\", {\"path\": \"fixtures\", \"reason\": "
    "\"data\"}], \"tool_version\": \">=3\", \"install_timeout\": 300, "
    "\"scan_timeout\": 60, \"config_file\": null}",
    NULL },
  { &ash_scanner_checkov, NULL, NULL },
  /* severity_threshold is the scan's, taken by every scanner (upstream's
     own configs set it for checkov and cfn-nag); a key after it is still
     checked.  */
  { &ash_scanner_checkov, "{\"severity_threshold\": \"LOW\"}", NULL },
  { &ash_scanner_checkov, "{\"severity_threshold\": \"LOW\", \"nope\": 1}",
    "scanners.checkov.options.nope is not an option of checkov" },
  { &ash_scanner_cfn_nag, "{\"severity_threshold\": \"MEDIUM\"}", NULL },
  { &ash_scanner_cdk_nag, "{\"severity_threshold\": null}", NULL },
  /* cfn-lint */
  { &ash_scanner_cfn_lint, "{\"no_such\": 1}",
    "scanners.cfn-lint.options.no_such is not an option of cfn-lint" },
  { &ash_scanner_cfn_lint, "{\"config_file\": 5}",
    "scanners.cfn-lint.options.config_file must be a string" },
  { &ash_scanner_cfn_lint, "{\"tool_version\": \"1\"}",
    "scanners.cfn-lint.options.tool_version: '1' is not a version" },
  { &ash_scanner_cfn_lint, "{\"install_timeout\": -1}",
    "scanners.cfn-lint.options.install_timeout must be a number" },
  { &ash_scanner_cfn_lint, "{\"regions\": [\"--update-specs\"]}",
    "scanners.cfn-lint.options.regions: '--update-specs' is not a value" },
  { &ash_scanner_cfn_lint, "{\"ignore_checks\": [\"W-1\"]}",
    "scanners.cfn-lint.options.ignore_checks: 'W-1' is not a value" },
  { &ash_scanner_cfn_lint, "{\"include_checks\": \"I\"}",
    "scanners.cfn-lint.options.include_checks must be a list of strings" },
  { &ash_scanner_cfn_lint,
    "{\"regions\": [\"us-east-1\", \"ALL_REGIONS\"], \"ignore_checks\": "
    "[\"W2001\"], \"include_checks\": [\"I\"], \"tool_version\": \">=1\", "
    "\"install_timeout\": 60}",
    NULL },
  /* cfn-nag */
  { &ash_scanner_cfn_nag, "{\"x\": true}",
    "scanners.cfn-nag.options.x is not an option of cfn-nag" },
  { &ash_scanner_cfn_nag, "{\"tool_version\": \">=0.8\"}",
    "scanners.cfn-nag.options.tool_version is not an option of cfn-nag" },
  { &ash_scanner_cfn_nag, "{\"rule_directory\": 5}",
    "scanners.cfn-nag.options.rule_directory must be a string" },
  { &ash_scanner_cfn_nag, "{\"profile_path\": [\"p\"]}",
    "scanners.cfn-nag.options.profile_path must be a string" },
  { &ash_scanner_cfn_nag, "{\"deny_list_path\": true}",
    "scanners.cfn-nag.options.deny_list_path must be a string" },
  { &ash_scanner_cfn_nag, "{\"rule_directory\": null, \"scan_timeout\": 9}",
    NULL },
  /* actionlint */
  { &ash_scanner_actionlint, "{\"color\": true}",
    "scanners.actionlint.options.color is not an option of actionlint" },
  { &ash_scanner_actionlint, "{\"shellcheck\": true}",
    "scanners.actionlint.options.shellcheck must be a string" },
  { &ash_scanner_actionlint, "{\"pyflakes\": 1}",
    "scanners.actionlint.options.pyflakes must be a string" },
  { &ash_scanner_actionlint, "{\"config_file\": []}",
    "scanners.actionlint.options.config_file must be a string" },
  { &ash_scanner_actionlint, "{\"tool_version\": \"x\"}",
    "scanners.actionlint.options.tool_version: 'x' is not a version" },
  { &ash_scanner_actionlint, "{\"install_timeout\": 0}",
    "scanners.actionlint.options.install_timeout must be a number" },
  { &ash_scanner_actionlint,
    "{\"shellcheck\": \"/bin/sh\", \"pyflakes\": \"\", \"tool_version\": "
    "\"<2\"}",
    NULL },
  /* zizmor */
  { &ash_scanner_zizmor, "{\"offline\": true}",
    "scanners.zizmor.options.offline is not an option of zizmor" },
  { &ash_scanner_zizmor, "{\"config_file\": 1}",
    "scanners.zizmor.options.config_file must be a string" },
  { &ash_scanner_zizmor, "{\"persona\": 5}",
    "scanners.zizmor.options.persona must be a string" },
  { &ash_scanner_zizmor, "{\"persona\": \"evil\"}",
    "scanners.zizmor.options.persona must be one of regular, pedantic, "
    "auditor, not 'evil'" },
  { &ash_scanner_zizmor, "{\"online_audits\": \"no\"}",
    "scanners.zizmor.options.online_audits must be true or false" },
  { &ash_scanner_zizmor, "{\"online_audits\": true}",
    "scanners.zizmor.options.online_audits is not supported" },
  { &ash_scanner_zizmor, "{\"tool_version\": \"nope\"}",
    "scanners.zizmor.options.tool_version: 'nope' is not a version" },
  { &ash_scanner_zizmor,
    "{\"persona\": \"pedantic\", \"online_audits\": false}", NULL },
  /* cfn-guard */
  { &ash_scanner_cfn_guard, "{\"rules\": []}",
    "scanners.cfn-guard.options.rules is not an option of cfn-guard" },
  { &ash_scanner_cfn_guard, "{\"rules_paths\": \"own.guard\"}",
    "scanners.cfn-guard.options.rules_paths must be a list of strings" },
  { &ash_scanner_cfn_guard, "{\"rules_paths\": [\"\"]}",
    "scanners.cfn-guard.options.rules_paths must be a list of non-empty" },
  { &ash_scanner_cfn_guard, "{\"rule_sets\": [\"../x\"]}",
    "scanners.cfn-guard.options.rule_sets: '../x' is not a value" },
  { &ash_scanner_cfn_guard, "{\"rule_sets\": []}",
    "cfn-guard has no rules: rule_sets is empty and rules_paths names none" },
  { &ash_scanner_cfn_guard, "{\"rule_sets\": [], \"rules_paths\": []}",
    "cfn-guard has no rules: rule_sets is empty and rules_paths names none" },
  { &ash_scanner_cfn_guard, "{\"tool_version\": \"latest\"}",
    "scanners.cfn-guard.options.tool_version: 'latest' is not a version" },
  { &ash_scanner_cfn_guard, "{\"install_timeout\": 86401}",
    "scanners.cfn-guard.options.install_timeout must be a number" },
  { &ash_scanner_cfn_guard,
    "{\"rule_sets\": [\"wa-Security-Pillar\"], \"tool_version\": \">=3\"}",
    NULL },
  /* cdk-nag */
  { &ash_scanner_cdk_nag, "{\"packs\": {}}",
    "scanners.cdk-nag.options.packs is not an option of cdk-nag" },
  { &ash_scanner_cdk_nag, "{\"tool_version\": \">=2\"}",
    "scanners.cdk-nag.options.tool_version is not supported" },
  { &ash_scanner_cdk_nag, "{\"install_timeout\": 0}",
    "scanners.cdk-nag.options.install_timeout must be a number" },
  { &ash_scanner_cdk_nag, "{\"nag_packs\": [\"HIPAASecurityChecks\"]}",
    "scanners.cdk-nag.options.nag_packs must be a mapping" },
  { &ash_scanner_cdk_nag, "{\"nag_packs\": {\"Evil\": true}}",
    "scanners.cdk-nag.options.nag_packs.Evil is not a cdk-nag rule pack" },
  { &ash_scanner_cdk_nag, "{\"nag_packs\": {\"HIPAASecurityChecks\": 1}}",
    "scanners.cdk-nag.options.nag_packs.HIPAASecurityChecks must be true "
    "or false" },
  { &ash_scanner_cdk_nag, "{\"nag_packs\": {\"AwsSolutionsChecks\": false}}",
    "scanners.cdk-nag.options.nag_packs turns every rule pack off" },
  { &ash_scanner_cdk_nag,
    "{\"nag_packs\": {\"HIPAASecurityChecks\": true}, \"install_timeout\": "
    "60}",
    NULL },
};

/* Write TEXT to PATH (whole, or abort).  */
static void
put (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  if (f == NULL || fputs (text, f) < 0 || fclose (f) != 0)
    abort ();
}

static void
test_check_options (void)
{
  char root[] = "/tmp/test-iac-opts.XXXXXX";
  if (mkdtemp (root) == NULL)
    abort ();
  _cleanup_free_ char *src = ash_path_join (root, "src");
  _cleanup_free_ char *gh = ash_path_join (root, "src/.github");
  _cleanup_free_ char *wfd = ash_path_join (root, "src/.github/workflows");
  _cleanup_free_ char *tmpl = ash_path_join (root, "src/t.yaml");
  _cleanup_free_ char *wf
    = ash_path_join (root, "src/.github/workflows/ci.yml");
  _cleanup_free_ char *res = ash_path_join (root, "results");
  _cleanup_free_ char *bundle_dir = ash_path_join (root, "bundle");
  _cleanup_free_ char *guard
    = ash_path_join (root, "bundle/wa-Security-Pillar.guard");
  _cleanup_free_ char *list = ash_path_join (root, "scan-set.txt");
  if (mkdir (src, 0755) < 0 || mkdir (gh, 0755) < 0 || mkdir (wfd, 0755) < 0
      || mkdir (res, 0755) < 0 || mkdir (bundle_dir, 0755) < 0)
    abort ();
  put (tmpl, "AWSTemplateFormatVersion: \"2010-09-09\"\n"
             "Resources:\n  B:\n    Type: AWS::S3::Bucket\n");
  put (wf, "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
           "    steps:\n      - run: echo hi\n");
  put (guard, "rule r { Resources exists }\n");
  _cleanup_free_ char *set = xasprintf ("%s\n%s\n", tmpl, wf);
  put (list, set);
  setenv ("ASH_CFN_GUARD_RULES_DIR", bundle_dir, 1);
  int rfd = open (res, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rfd < 0)
    abort ();

  for (size_t i = 0; i < ARRAY_SIZE (opt_cases); i++)
    {
      const struct opt_case *c = &opt_cases[i];
      json_t *o = c->options ? opts (c->options) : NULL;
      struct ash_error e1 = ASH_ERROR_INIT, e2 = ASH_ERROR_INIT;
      struct ash_cmd cmd;
      _cleanup_free_ char *name = xasprintf ("run-%zu", i);
      _cleanup_free_ char *run = ash_path_join (root, name);
      if (mkdir (run, 0700) < 0)
        abort ();
      struct ash_scan_job job = {
        .name = c->s->name,
        .target = src,
        .results_dir = res,
        .results_fd = rfd,
        .scan_set_file = list,
        .tool_path = "/bin/true",
        .options = o,
        .max_output = 1 << 20,
        .run_config_dir = run,
      };
      const char *what = c->options ? c->options : "null";

      tap_ok (c->s->check_options != NULL, "%s has check_options", c->s->name);
      int r1 = c->s->check_options ? c->s->check_options (o, &e1) : 0;
      ash_cmd_init (&cmd);
      int r2 = c->s->build (c->s, &job, &cmd, &e2);
      if (c->names)
        {
          tap_ok (r1 < 0 && e1.message && strstr (e1.message, c->names),
                  "%s %s: check_options refuses it, naming it (%s)",
                  c->s->name, what, e1.message ? e1.message : "accepted");
          tap_is_str (r2 < 0 ? e2.message : "accepted",
                      r1 < 0 ? e1.message : "refused",
                      "%s %s: build refuses it with the same message",
                      c->s->name, what);
        }
      else
        {
          tap_is_str (r1 < 0 ? e1.message : "accepted", "accepted",
                      "%s %s: check_options accepts it", c->s->name, what);
          /* cdk-nag's worker is not installed beside this test: its build
             may stop there, after the options.  */
          bool worker
            = r2 < 0 && c->s == &ash_scanner_cdk_nag
              && strstr (e2.message, "worker cdk-nag-worker.js is not "
                                     "installed");
          tap_ok (r2 == 0 || worker, "%s %s: build accepts it (%s)",
                  c->s->name, what, r2 < 0 ? e2.message : "built");
        }
      ash_cmd_release (&cmd);
      ash_error_release (&e1);
      ash_error_release (&e2);
      json_decref (o);
    }
  close (rfd);
  unsetenv ("ASH_CFN_GUARD_RULES_DIR");
  _cleanup_close_ int tfd = open ("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct ash_error e = ASH_ERROR_INIT;
  if (tfd >= 0)
    ash_tree_remove_all (tfd, root + strlen ("/tmp/"), &e);
  ash_error_release (&e);
}

int
main (void)
{
  /* cfn-lint */
  expect (cfn_lint, NULL,
          "cfn-lint --format sarif --output-file=/res/o "
          "--config-file=/run/rc -- a.yaml b[[]1].json",
          "cfn-lint defaults, glob characters escaped");
  expect (cfn_lint, "{\"regions\": [\"us-east-1\", \"ALL_REGIONS\"]}",
          "cfn-lint --format sarif --output-file=/res/o "
          "--config-file=/run/rc --regions us-east-1 ALL_REGIONS -- a.yaml "
          "b[[]1].json",
          "cfn-lint regions");
  expect (cfn_lint,
          "{\"ignore_checks\": [\"W2001\"], "
          "\"include_checks\": [\"I\"]}",
          "cfn-lint --format sarif --output-file=/res/o "
          "--config-file=/run/rc --ignore-checks W2001 --include-checks I "
          "-- a.yaml b[[]1].json",
          "cfn-lint ignore_checks and include_checks");
  expect (cfn_lint, "{\"regions\": [\"--update-specs\"]}",
          "error: scanners.cfn-lint.options.regions: '--update-specs' is "
          "not a value cfn-lint accepts",
          "cfn-lint refuses a region that is an option");
  expect (cfn_lint, "{\"nope\": 1}",
          "error: scanners.cfn-lint.options.nope is not an option of "
          "cfn-lint",
          "cfn-lint refuses an unknown option");
  expect (cfn_lint, "{\"tool_version\": \"1\"}",
          "error: scanners.cfn-lint.options.tool_version: '1' is not a "
          "version constraint (write clauses such as >=1.7.0,<2.0.0, ~=3.2 "
          "or ==1.2.*)",
          "cfn-lint refuses a tool_version that is not a constraint");

  /* checkov */
  expect (checkov, NULL,
          "checkov --output sarif --output json --output cyclonedx_json "
          "--output-file-path /res --directory /src --framework all "
          "--skip-path .venv/ --skip-path venv/ --skip-path node_modules/ "
          "--skip-path (?:^|/)vendor/x[.]py$ --skip-path (?:^|/)a "
          "b/\\$\\(c\\)\\[1\\][.]terraform$ --skip-path (?:^|/)out$",
          "checkov defaults, links and the output directory skipped");
  expect (checkov,
          "{\"frameworks\": [\"cloudformation\", \"dockerfile\"], "
          "\"skip_frameworks\": [\"secrets\"], \"offline\": true, "
          "\"additional_formats\": [], \"skip_path\": [\"^tests/\", "
          "{\"path\": \"fixtures\", \"reason\": \"data\"}]}",
          "checkov --output sarif --output json --output-file-path /res "
          "--directory /src --skip-download --framework cloudformation "
          "--framework dockerfile --skip-framework secrets --skip-path .venv/ "
          "--skip-path venv/ --skip-path node_modules/ --skip-path ^tests/ "
          "--skip-path fixtures --skip-path (?:^|/)vendor/x[.]py$ "
          "--skip-path (?:^|/)a b/\\$\\(c\\)\\[1\\][.]terraform$ "
          "--skip-path (?:^|/)out$",
          "checkov options");
  expect (checkov, "{\"frameworks\": [\"cobol\"]}",
          "error: scanners.checkov.options.frameworks: 'cobol' is not a "
          "value checkov accepts",
          "checkov refuses an unknown framework");
  expect (checkov, "{\"skip_path\": [\"(\"]}",
          "error: scanners.checkov.options.skip_path: '(' is not a regular "
          "expression checkov can use",
          "checkov refuses a skip_path that is not a regex");

  expect (checkov_bad, NULL,
          "error: checkov's --skip-path cannot name '\"x\\ny\"': its path "
          "holds "
          "a line break or another control character",
          "checkov refuses an excluded path its syntax cannot hold");

  /* cfn-nag */
  expect (cfn_nag, NULL,
          "cfn_nag_scan --output-format json --print-suppression "
          "--ignore-fatal --input-path /src --template-pattern "
          "^(/src/a\\.yaml|/src/b\\[1\\]\\.json)$",
          "cfn-nag: a pattern naming exactly the templates");
  expect (cfn_nag, "{\"x\": true}",
          "error: scanners.cfn-nag.options.x is not an option of cfn-nag",
          "cfn-nag refuses an unknown option");
  expect (cfn_nag_own,
          "{\"rule_directory\": \"r\", "
          "\"profile_path\": \"p\", \"deny_list_path\": \"d\"}",
          "cfn_nag_scan --output-format json --print-suppression "
          "--ignore-fatal --rule-directory /run --profile-path /run/p "
          "--deny-list-path /run/d --input-path /src --template-pattern "
          "^(/src/a\\.yaml|/src/b\\[1\\]\\.json)$",
          "cfn-nag: the rule directory, profile and deny list (copies)");
  expect (cfn_nag, "{\"profile_path\": [\"p\"]}",
          "error: scanners.cfn-nag.options.profile_path must be a string",
          "cfn-nag refuses a profile_path that is not a string");

  /* actionlint */
  expect (actionlint, NULL,
          "actionlint -no-color -shellcheck= -pyflakes= -config-file "
          "/run/al.yaml -format {\"version\":{{getVersion | json}},"
          "\"errors\":{{json .}}} -- .github/workflows/ci.yml",
          "actionlint defaults: shellcheck and pyflakes off");

  /* zizmor */
  expect (zizmor, NULL,
          "zizmor --format sarif --no-exit-codes --offline "
          "--persona=regular -- .github/workflows/ci.yml",
          "zizmor defaults");
  expect (zizmor, "{\"persona\": \"auditor\"}",
          "zizmor --format sarif --no-exit-codes --offline "
          "--persona=auditor -- .github/workflows/ci.yml",
          "zizmor persona");
  expect (zizmor, "{\"online_audits\": true}",
          "error: scanners.zizmor.options.online_audits is not supported: "
          "ash gives zizmor neither a network nor a GitHub token",
          "zizmor refuses online_audits");
  expect (zizmor, "{\"persona\": \"evil\"}",
          "error: scanners.zizmor.options.persona must be one of regular, "
          "pedantic, auditor, not 'evil'",
          "zizmor refuses an unknown persona");

  /* actionlint: the programs and config the adapter resolved.  */
  expect (actionlint_tools, NULL,
          "actionlint -no-color -shellcheck=/usr/bin/shellcheck "
          "-pyflakes=pyflakes -config-file /src/.github/al.yaml -format "
          "{\"version\":{{getVersion | json}},\"errors\":{{json .}}} -- "
          ".github/workflows/ci.yml",
          "actionlint shellcheck, pyflakes and config_file");
  expect (actionlint, "{\"install_timeout\": 0}",
          "error: scanners.actionlint.options.install_timeout must be a "
          "number of seconds from 1 to 86400",
          "actionlint refuses an install_timeout of 0");

  /* zizmor: config_file, and --no-config for a refused one.  */
  expect (zizmor_config, NULL,
          "zizmor --format sarif --no-exit-codes --offline "
          "--persona=regular --config=/op/zizmor.yml -- "
          ".github/workflows/ci.yml",
          "zizmor config_file");
  expect (zizmor_no_config, NULL,
          "zizmor --format sarif --no-exit-codes --offline "
          "--persona=regular --no-config -- .github/workflows/ci.yml",
          "zizmor without a config it may read: --no-config");

  /* cfn-guard: rule sets from the bundle, own rules, no rules at all.  */
  if (mkdtemp (bundle) == NULL)
    abort ();
  _cleanup_free_ char *g1 = xasprintf ("%s/wa-Security-Pillar.guard", bundle);
  _cleanup_free_ char *g2 = xasprintf ("%s/hipaa.guard", bundle);
  fclose (fopen (g1, "w"));
  fclose (fopen (g2, "w"));
  _cleanup_free_ char *w1 = xasprintf (
    "cfn-guard validate --output-format sarif --show-summary none "
    "--structured --rules %s --data a.yaml --data b[1].json",
    g1);
  expect (cfn_guard, NULL, w1, "cfn-guard defaults: wa-Security-Pillar");
  _cleanup_free_ char *w2 = xasprintf (
    "cfn-guard validate --output-format sarif --show-summary none "
    "--structured --rules %s --rules /run/rules-0.guard --data a.yaml "
    "--data b[1].json",
    g2);
  expect (cfn_guard_own, "{\"rule_sets\": [\"hipaa\"]}", w2,
          "cfn-guard rule_sets and rules_paths");
  _cleanup_free_ char *w3 = xasprintf (
    "error: scanners.cfn-guard.options.rule_sets: nope is not in the rules "
    "bundle (%s/nope.guard)",
    bundle);
  expect (cfn_guard, "{\"rule_sets\": [\"nope\"]}", w3,
          "cfn-guard refuses a rule set the bundle lacks");
  expect (cfn_guard, "{\"rule_sets\": []}",
          "error: cfn-guard has no rules: rule_sets is empty and rules_paths "
          "names none",
          "cfn-guard refuses to run without rules");
  unlink (g1);
  unlink (g2);
  rmdir (bundle);

  /* cdk-nag */
  expect (cdk_nag, NULL,
          "node /lib/w.js --modules /nm --out /res/out --packs "
          "AwsSolutionsChecks -- a.yaml b[1].json",
          "cdk-nag defaults: AwsSolutions");
  expect (cdk_nag,
          "{\"nag_packs\": {\"AwsSolutionsChecks\": false, "
          "\"HIPAASecurityChecks\": true, \"NIST80053R5Checks\": true}}",
          "node /lib/w.js --modules /nm --out /res/out --packs "
          "HIPAASecurityChecks,NIST80053R5Checks -- a.yaml b[1].json",
          "cdk-nag packs by option");
  expect (cdk_nag, "{\"nag_packs\": {\"Evil\": true}}",
          "error: scanners.cdk-nag.options.nag_packs.Evil is not a cdk-nag "
          "rule pack",
          "cdk-nag refuses an unknown pack");

  /* Normalisation: driver, severities, rules, relative URIs.  */
  json_t *doc = opts (
    "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": "
    "{\"name\": \"x\"}}, \"invocations\": [{\"workingDirectory\": "
    "{\"uri\": \"file:///src\"}}], \"results\": [{\"ruleId\": \"R1\", "
    "\"level\": \"error\", \"message\": {\"text\": \"m\"}, \"locations\": "
    "[{\"physicalLocation\": {\"artifactLocation\": {\"uri\": "
    "\"file:///src/a/b.yaml\"}}}, {\"physicalLocation\": "
    "{\"artifactLocation\": {\"uri\": \"/etc/secret/host.yaml\"}}}]}]}]}");
  ash_iac_sarif_normalise (doc, "tool", "1.2", NULL, "/src", NULL);
  json_t *run = json_array_get (json_object_get (doc, "runs"), 0);
  json_t *res = json_array_get (json_object_get (run, "results"), 0);
  json_t *drv = json_object_get (json_object_get (run, "tool"), "driver");
  tap_is_str (json_string_value (json_object_get (drv, "name")), "tool",
              "driver name");
  tap_is_str (json_string_value (json_object_get (drv, "version")), "1.2",
              "driver version");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (res, "properties"),
                                 "issue_severity")),
              "HIGH", "level error is HIGH");
  json_t *rule = json_array_get (json_object_get (drv, "rules"), 0);
  tap_is_str (json_string_value (json_object_get (rule, "id")), "R1",
              "a rule for every result");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (rule, "properties"),
                                 "security-severity")),
              "8.0", "security-severity of a HIGH rule");
  tap_ok (json_is_object (json_object_get (rule, "help")), "rule has help");
  json_t *locs = json_object_get (res, "locations");
  tap_is_str (json_string_value (json_object_get (
                json_object_get (json_object_get (json_array_get (locs, 0),
                                                  "physicalLocation"),
                                 "artifactLocation"),
                "uri")),
              "a/b.yaml", "URI relative to the source directory");
  tap_is_str (json_string_value (json_object_get (
                json_object_get (json_object_get (json_array_get (locs, 1),
                                                  "physicalLocation"),
                                 "artifactLocation"),
                "uri")),
              "host.yaml", "no absolute host path");
  tap_ok (json_object_get (run, "invocations") == NULL,
          "invocations (host paths) removed");
  json_decref (doc);

  tap_ok (ash_iac_is_workflow (".github/workflows/ci.yml"), "workflow");
  tap_ok (ash_iac_is_workflow ("sub/.github/workflows/x.yaml"),
          "nested project's workflow");
  tap_ok (!ash_iac_is_workflow (".github/workflows/sub/x.yml"),
          "not in a subdirectory of workflows");
  tap_ok (!ash_iac_is_workflow ("x.github/workflows/x.yml"),
          "not a directory merely ending in .github");

  _cleanup_free_ char *esc = ash_iac_printable ("a\x1b]0;owned\ab\n");
  tap_is_str (esc, "a\\x1b]0;owned\\x07b\\x0a",
              "a tool's control characters are escaped");

  /* URIs: a location outside the source directory (/src) keeps only
     its file name (R); checkov's SARIF percent-encodes file names (U).  */
  static const char *const uris[][4] = {
    { "R", "../../etc/passwd", "passwd", "climbing above the tree" },
    { "R", "/src/../../etc/passwd", "passwd", "the tree, then above it" },
    { "R", "file:///src/a/../b.yaml", "b.yaml", "file URI inside the tree" },
    { "R", "./a/./b.yaml", "a/b.yaml", "dots removed" },
    { "R", "..", ".", "the parent itself" },
    { "U", "path%20to/ec2.tf", "path to/ec2.tf", "%20 is a space" },
    { "U", "a%5b1%5D+%24x%25", "a[1]+$x%", "either case of hex digits" },
    { "U", "%C3%A9.tf", "\xc3\xa9.tf", "UTF-8 bytes" },
    { "U", "a%2Fb%2fc", "a%2Fb%2fc", "%2F stays: no '/' is made" },
    { "U", "%1B[31m%7F%00x", "%1B[31m%7F%00x",
      "no control character, no NUL" },
    { "U", "100%", "100%", "a lone %" },
    { "U", "%zz%4", "%zz%4", "% without two hex digits" },
  };
  for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++)
    {
      _cleanup_free_ char *u = uris[i][0][0] == 'R'
                                 ? ash_iac_relative_uri (uris[i][1], "/src")
                                 : ash_iac_uri_unescape (uris[i][1]);
      tap_is_str (u, uris[i][2], "uri %s: %s", uris[i][0], uris[i][3]);
    }

  test_check_options ();

  printf ("1..%d\n", tap_n);
  return tap_failed ? 1 : 0;
}
