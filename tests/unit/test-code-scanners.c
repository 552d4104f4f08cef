/* SPDX-License-Identifier: Apache-2.0 */
/* test-code-scanners.c -- the command lines of gitleaks, semgrep and
   opengrep for their defaults and each option, the option checks, the
   gitleaks config ash writes, detect-secrets' report mapped to SARIF, and
   the SARIF normalisation every adapter shares.  */

#include <config.h>

#include <jansson.h>
#include <string.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"
#include "base/util.h"
#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/grep-common.h"
#include "scanners/scanner.h"
#include "tap.h"

static char *
joined (const struct ash_strvec *sv)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < sv->nr; i++)
    ash_buf_addf (&b, "%s%s", i ? " " : "", sv->v[i]);
  return b.buf ? ash_buf_detach (&b) : xstrdup ("");
}

static json_t *
opts (const char *text)
{
  json_error_t je;
  json_t *j = json_loads (text, 0, &je);
  if (j == NULL)
    abort ();
  return j;
}

static void
test_gitleaks_argv (void)
{
  struct ash_strvec av = ASH_STRVEC_INIT;
  json_t *o = opts ("{}");
  ash_gitleaks_argv ("/bin/gitleaks", "dir", o, "/run/g.toml", NULL,
                     "/run/none", "/out/gitleaks.sarif", ".", &av);
  _cleanup_free_ char *s = joined (&av);
  tap_is_str (s,
              "/bin/gitleaks dir --report-format=sarif "
              "--report-path=/out/gitleaks.sarif --redact=100 --exit-code=2 "
              "--no-banner --no-color --gitleaks-ignore-path=/run/none "
              "--config=/run/g.toml -- .",
              "gitleaks defaults");
  ash_strvec_clear (&av);
  json_decref (o);

  o = opts ("{\"max_target_megabytes\": 5}");
  ash_gitleaks_argv ("/bin/gitleaks", "detect", o, "/run/g.toml",
                     "/src/base.json", "/run/none", "/out/g.sarif", ".", &av);
  _cleanup_free_ char *s2 = joined (&av);
  tap_is_str (s2,
              "/bin/gitleaks detect --no-git --report-format=sarif "
              "--report-path=/out/g.sarif --redact=100 --exit-code=2 "
              "--no-banner --no-color --gitleaks-ignore-path=/run/none "
              "--config=/run/g.toml --baseline-path=/src/base.json "
              "--max-target-megabytes=5 --source=.",
              "gitleaks detect, baseline_path and max_target_megabytes");
  ash_strvec_release (&av);
  json_decref (o);
}

static void
test_gitleaks_config (void)
{
  struct ash_error err = ASH_ERROR_INIT;
  char *none[] = { NULL };
  _cleanup_free_ char *a = ash_gitleaks_config_text (NULL, none, &err);
  tap_ok (a && strstr (a, "useDefault = true") && !strstr (a, "allowlist"),
          "default rules, no allowlist");
  char *ex[] = { (char *) "vendor", (char *) "a.b/c d", NULL };
  _cleanup_free_ char *b
    = ash_gitleaks_config_text ("/ops/g\"x.toml", ex, &err);
  tap_ok (b && strstr (b, "path = \"/ops/g\\\"x.toml\""),
          "the operator's config extended, quoted for TOML");
  tap_ok (b && strstr (b, "\"^(\\\\./)?vendor(/|$)\""),
          "an excluded directory as an anchored regex");
  tap_ok (b && strstr (b, "a\\\\.b/c d"),
          "regex punctuation escaped, a space left as it is");
  char *bad[] = { (char *) "a\nb", NULL };
  char *c = ash_gitleaks_config_text (NULL, bad, &err);
  tap_ok (c == NULL && err.kind == ASH_KIND_LINK_NOT_EXCLUDABLE,
          "a path with a line break is refused");
  ash_error_release (&err);
}

static void
test_grep_argv (void)
{
  struct ash_strvec av = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  json_t *o = opts ("{}");
  tap_is_int (ash_grep_argv (false, "/bin/semgrep", o, false, NULL, NULL,
                             "/out/s.sarif", ".", &av, &err),
              0, "semgrep defaults build");
  _cleanup_free_ char *s = joined (&av);
  tap_is_str (s,
              "/bin/semgrep scan --sarif --output=/out/s.sarif "
              "--metrics=off --disable-version-check --config=p/ci "
              "--exclude=*-converted.py --exclude=*_report_result.txt -- .",
              "semgrep defaults: p/ci, metrics off, upstream's exclusions");
  ash_strvec_clear (&av);
  json_decref (o);

  o = opts ("{\"config\": \"r/python\", \"exclude\": [\"tests\"], "
            "\"exclude_rule\": [\"a.b\"], \"severity\": [\"error\", "
            "\"WARNING\"], \"metrics\": \"off\"}");
  char *excluded[] = { (char *) "vendor/x*y", NULL };
  ash_grep_argv (true, "/bin/opengrep", o, false, NULL, excluded,
                 "/out/o.sarif", ".", &av, &err);
  _cleanup_free_ char *s2 = joined (&av);
  tap_is_str (s2,
              "/bin/opengrep scan --sarif --output=/out/o.sarif "
              "--metrics=off --config=r/python --exclude=tests "
              "--exclude=/vendor/x\\*y --exclude-rule=a.b --severity=ERROR "
              "--severity=WARNING -- .",
              "opengrep with each option and an anchored, escaped exclusion");
  ash_strvec_clear (&av);

  char *rules[] = { (char *) "/cache/a.yml", (char *) "/cache/b.yaml", NULL };
  ash_grep_argv (false, "/bin/semgrep", o, true, rules, NULL, "/out/s.sarif",
                 ".", &av, &err);
  _cleanup_free_ char *s3 = joined (&av);
  tap_ok (strstr (s3, "--config=/cache/a.yml --config=/cache/b.yaml "
                      "--no-rewrite-rule-ids")
            && !strstr (s3, "r/python"),
          "offline: the rules cache's files with their own rule ids, never "
          "registry rules");
  ash_strvec_clear (&av);
  tap_ok (ash_grep_argv (false, "/bin/semgrep", o, true, NULL, NULL,
                         "/out/s.sarif", ".", &av, &err)
              < 0
            && strstr (err.message, "SEMGREP_RULES_CACHE_DIR"),
          "offline without rules: an error naming the variable");
  ash_error_release (&err);
  ash_strvec_release (&av);
  json_decref (o);

  tap_ok (ash_grep_config_is_registry ("p/ci")
            && ash_grep_config_is_registry ("auto")
            && ash_grep_config_is_registry ("https://x/r.yml")
            && !ash_grep_config_is_registry ("rules/x.yml"),
          "registry rules told from files");
}

static void
test_options (void)
{
  struct ash_error err = ASH_ERROR_INIT;
  json_t *o = opts ("{\"config\": \"p/ci\", \"scan_timeout\": 5, "
                    "\"offline\": true}");
  tap_is_int (ash_grep_check_options ("semgrep", o, &err), 0,
              "supported options pass");
  json_decref (o);
  o = opts ("{\"timeout_per_rule\": 5}");
  tap_ok (ash_grep_check_options ("semgrep", o, &err) < 0
            && strstr (err.message,
                       "scanners.semgrep.options.timeout_per_rule"),
          "an unsupported option is an error naming it");
  json_decref (o);
  o = opts ("{\"tool_version\": \">=1.125.0\", \"install_timeout\": 300}");
  tap_is_int (ash_grep_check_options ("semgrep", o, &err), 0,
              "upstream's tool_version and install_timeout pass");
  json_decref (o);
  o = opts ("{\"install_timeout\": -1}");
  tap_ok (ash_grep_check_options ("semgrep", o, &err) < 0
            && strstr (err.message,
                       "scanners.semgrep.options.install_timeout must be"),
          "an install_timeout out of range is an error naming it");
  ash_error_release (&err);
  json_decref (o);
  o = opts ("{\"severity\": [\"LOW\"]}");
  tap_ok (ash_grep_check_options ("semgrep", o, &err) < 0
            && strstr (err.message,
                       "'LOW' is not one of INFO, WARNING, ERROR"),
          "a value outside its choices is an error");
  ash_error_release (&err);
  json_decref (o);
  o = opts ("{\"exclude\": \"tests\"}");
  tap_ok (ash_grep_check_options ("semgrep", o, &err) < 0
            && strstr (err.message, "must be a list of strings"),
          "a value of the wrong type is an error");
  ash_error_release (&err);
  json_decref (o);
  tap_is_int (ash_scanner_gitleaks.check_options (NULL, &err), 0,
              "no options: nothing to check");
  o = opts ("{\"scan_settings\": {\"plugins_used\": [], \"exclude\": 1}}");
  tap_ok (ash_scanner_detect_secrets.check_options (o, &err) < 0
            && strstr (err.message, "scan_settings.exclude"),
          "an unsupported detect-secrets setting is an error naming it");
  ash_error_release (&err);
  json_decref (o);
}

static void
test_detect_secrets_sarif (void)
{
  static const char report[]
    = "{\"version\": \"1.5.0\", \"plugins_used\": [], \"results\": {"
      "\"a/b.py\": [{\"type\": \"AWS Access Key\", \"filename\": \"a/b.py\","
      " \"hashed_secret\": \"deadbeef00\", \"is_verified\": false,"
      " \"line_number\": 7}]}}";
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;
  tap_is_int (ash_detect_secrets_to_sarif (report, sizeof report - 1, "/src",
                                           &doc, &err),
              0, "a baseline report maps to SARIF");
  _cleanup_free_ char *text = json_dumps (doc, 0);
  tap_ok (text && strstr (text, "\"ruleId\": \"AWS-Access-Key\"")
            && strstr (text, "\"startLine\": 7"),
          "one result per secret, with its type and line");
  tap_ok (text && !strstr (text, "deadbeef00"), "the hash is not copied");
  json_decref (doc);
  tap_ok (ash_detect_secrets_to_sarif ("[1]", 3, "/src", &doc, &err) < 0,
          "a report without results is refused");
  ash_error_release (&err);
}

static void
test_normalize (void)
{
  static const char sarif[]
    = "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {"
      "\"name\": \"Semgrep OSS\", \"rules\": [{\"id\": \"r1\", "
      "\"fullDescription\": {\"text\": \"full\"}}, {\"id\": \"r2\", "
      "\"properties\": {\"security-severity\": 9.8}}]}}, "
      "\"invocations\": [{\"executionSuccessful\": true, "
      "\"workingDirectory\": {\"uri\": \"file:///home/me/src\"}}], "
      "\"results\": ["
      "{\"ruleId\": \"r1\", \"level\": \"warning\", \"message\": {\"text\": "
      "\"m\"}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": "
      "{\"uri\": \"file:///home/me/src/a/b.py\", \"uriBaseId\": \"SRC\"}, "
      "\"region\": {\"startLine\": 3, \"snippet\": {\"text\": \"pw=1\"}}}}]},"
      "{\"ruleId\": \"r2\", \"message\": {\"text\": \"m\"}, \"locations\": "
      "[{\"physicalLocation\": {\"artifactLocation\": {\"uri\": "
      "\"/etc/passwd\"}}}]},"
      "{\"ruleId\": \"r3\", \"level\": \"note\", \"message\": {\"text\": "
      "\"m\"}}]}]}";
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;
  tap_is_int (ash_sarif_parse (sarif, sizeof sarif - 1, &doc, &err), 0,
              "sample SARIF parses");
  struct ash_sarif_norm n = { .driver_name = "semgrep",
                              .version = "1.2.3",
                              .source_dir = "/home/me/src",
                              .redact_snippets = true };
  tap_is_int (ash_adapter_sarif_normalize (doc, &n, &err), 0, "normalised");
  json_t *run = json_array_get (json_object_get (doc, "runs"), 0);
  json_t *drv = json_object_get (json_object_get (run, "tool"), "driver");
  tap_is_str (json_string_value (json_object_get (drv, "name")), "semgrep",
              "driver name");
  tap_is_str (json_string_value (json_object_get (drv, "version")), "1.2.3",
              "driver version");
  tap_ok (json_object_get (run, "invocations") == NULL,
          "invocations (host paths) dropped");
  json_t *res = json_object_get (run, "results");
  json_t *r0 = json_array_get (res, 0), *r1 = json_array_get (res, 1);
  json_t *r2 = json_array_get (res, 2);
  int s, e;
  tap_is_str (ash_sarif_result_location (r0, &s, &e), "a/b.py",
              "a file:// location made relative to the source root");
  tap_is_str (ash_sarif_result_location (r1, &s, &e), "passwd",
              "a location outside the root keeps only its name");
  tap_ok (json_is_true (json_object_get (json_object_get (r1, "properties"),
                                         "location_outside_source")),
          "and is marked");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (r0, "properties"),
                                 "severity")),
              "MEDIUM", "warning is MEDIUM");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (r1, "properties"),
                                 "severity")),
              "CRITICAL", "a 9.8 security-severity is CRITICAL");
  tap_is_str (json_string_value (json_object_get (r1, "level")), "error",
              "and its level error");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (r2, "properties"),
                                 "severity")),
              "LOW", "note is LOW");
  _cleanup_free_ char *text = json_dumps (doc, 0);
  tap_ok (!strstr (text, "pw=1") && strstr (text, "REDACTED"),
          "snippets redacted");
  tap_ok (!strstr (text, "/home/me"), "no host path left");
  json_t *rules = json_object_get (drv, "rules");
  tap_is_int ((int) json_array_size (rules), 3, "a rule added for r3");
  json_t *rule0 = json_array_get (rules, 0);
  tap_is_str (json_string_value (
                json_object_get (json_object_get (rule0, "help"), "text")),
              "full", "help from the full description");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (rule0, "properties"),
                                 "security-severity")),
              "6.0", "security-severity from the results' severity");
  tap_is_str (json_string_value (json_object_get (
                json_object_get (json_array_get (rules, 1), "properties"),
                "security-severity")),
              "9.8", "the tool's own score kept, as a string");
  json_decref (doc);
}

int
main (void)
{
  test_gitleaks_argv ();
  test_gitleaks_config ();
  test_grep_argv ();
  test_options ();
  test_detect_secrets_sarif ();
  test_normalize ();
  return tap_done ();
}
