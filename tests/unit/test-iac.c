/* SPDX-License-Identifier: Apache-2.0 */
/* test-iac.c -- the command lines of the infrastructure-as-code adapters
   for their defaults and for each option, the refusal of options they do
   not have, and the shared SARIF normalisation.  */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strvec.h"
#include "base/util.h"
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

  printf ("1..%d\n", tap_n);
  return tap_failed ? 1 : 0;
}
