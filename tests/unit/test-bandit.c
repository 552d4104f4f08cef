/* SPDX-License-Identifier: Apache-2.0 */
/* test-bandit.c -- bandit's JSON report mapped to SARIF, and its argv.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/strvec.h"
#include "base/util.h"
#include "scan/sarif.h"
#include "scanners/scanner.h"
#include "tap.h"

static json_t *
result_with_rule (json_t *doc, const char *rule, int nth)
{
  json_t *results
    = json_object_get (json_array_get (json_object_get (doc, "runs"), 0),
                       "results");
  size_t i;
  json_t *r;
  json_array_foreach (results, i, r)
    if (streq (json_string_value (json_object_get (r, "ruleId")), rule)
        && nth-- == 0)
      return r;
  return NULL;
}

static void
test_mapping (void)
{
  const char *srcdir = getenv ("top_srcdir");
  char *path = xasprintf ("%s/tests/fixtures/bandit/py-small-report.json",
                          srcdir ? srcdir : ".");
  json_error_t jerr;
  json_t *raw = json_load_file (path, 0, &jerr);
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;

  if (!tap_ok (raw != NULL, "fixture %s loads", path))
    return;
  char *text = json_dumps (raw, 0);
  int r = ash_bandit_json_to_sarif (text, strlen (text), "/src/py-small", &doc,
                                    &err);
  tap_is_int (r, 0, "bandit JSON maps to SARIF");
  if (r < 0)
    return;
  tap_is_str (json_string_value (json_object_get (doc, "version")), "2.1.0",
              "version 2.1.0");
  json_t *run = json_array_get (json_object_get (doc, "runs"), 0);
  tap_is_str (json_string_value (json_object_get (
                json_object_get (json_object_get (run, "tool"), "driver"),
                "name")),
              "bandit", "driver name is bandit");
  tap_is_int (json_array_size (json_object_get (run, "results")), 4,
              "four results");

  json_t *b602 = result_with_rule (doc, "B602", 0);
  tap_ok (b602 != NULL, "B602 is a result");
  int start, end;
  const char *uri = ash_sarif_result_location (b602, &start, &end);
  tap_is_str (uri, "pkg/runner.py", "uri is relative to the source dir");
  tap_is_int (start, 7, "B602 startLine 7");
  tap_is_int (end, 7, "B602 endLine 7");
  tap_is_str (json_string_value (json_object_get (b602, "level")), "error",
              "HIGH severity is level error");
  json_t *props = json_object_get (b602, "properties");
  tap_is_str (json_string_value (json_object_get (props, "issue_severity")),
              "HIGH", "properties.issue_severity");
  tap_is_str (json_string_value (json_object_get (props, "issue_confidence")),
              "HIGH", "properties.issue_confidence");
  json_t *region = json_object_get (
    json_object_get (json_array_get (json_object_get (b602, "locations"), 0),
                     "physicalLocation"),
    "region");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (region, "snippet"), "text")),
              "    return subprocess.call(cmd, shell=True)\n",
              "snippet is the source line without bandit's line number");
  tap_is_int (ash_sarif_result_severity (b602), ASH_SEVERITY_HIGH,
              "B602 counts as high");

  json_t *b301 = result_with_rule (doc, "B301", 0);
  tap_is_str (json_string_value (json_object_get (b301, "level")), "warning",
              "MEDIUM severity is level warning");
  json_t *b404 = result_with_rule (doc, "B404", 0);
  tap_is_str (json_string_value (json_object_get (b404, "level")), "note",
              "LOW severity is level note");
  ash_sarif_result_location (b404, &start, &end);
  tap_is_int (end, 5, "endLine is the last of bandit's line_range");

  json_t *rules = json_object_get (
    json_object_get (json_object_get (run, "tool"), "driver"), "rules");
  tap_is_int (json_array_size (rules), 4, "one rule per test id");
  json_t *rule
    = json_array_get (rules, (size_t) json_integer_value (
                               json_object_get (b602, "ruleIndex")));
  tap_is_str (json_string_value (json_object_get (rule, "id")), "B602",
              "ruleIndex points at the rule");
  tap_ok (ash_str_has_prefix (json_string_value (
                                json_object_get (rule, "helpUri")),
                              "https://bandit.readthedocs.io/"),
          "rule helpUri from more_info");
  tap_is_str (json_string_value (json_object_get (rule, "name")),
              "subprocess_popen_with_shell_equals_true", "rule name");

  json_decref (doc);
  doc = NULL;
  r = ash_bandit_json_to_sarif ("{\"errors\": []", 13, "/src", &doc, &err);
  tap_ok (r < 0 && strstr (err.message, "not JSON") != NULL,
          "truncated report is an error: %s", err.message);
  r = ash_bandit_json_to_sarif ("[]", 2, "/src", &doc, &err);
  tap_ok (r < 0 && strstr (err.message, "results") != NULL,
          "report without results is an error: %s", err.message);
  /* A report of many tiny objects would take far more memory than its
     size once parsed: refused before that, by the parse budget.  */
  {
    struct ash_buf dense = ASH_BUF_INIT;
    ash_buf_addstr (&dense, "{\"errors\": [], \"results\": [");
    for (int k = 0; k < 100000; k++)
      ash_buf_addstr (&dense, k ? ",{}" : "{}");
    ash_buf_addstr (&dense, "]}");
    doc = NULL;
    r = ash_bandit_json_to_sarif (dense.buf, dense.len, "/src", &doc, &err);
    tap_ok (r == -EFBIG && doc == NULL
              && strstr (err.message, "bandit's report was not read") != NULL,
            "a report of tiny objects over the parse budget is refused: %s",
            err.message);
    ash_buf_release (&dense);
  }
  ash_error_release (&err);
  free (text);
  json_decref (raw);
  free (path);
}

static char *
joined (struct ash_strvec *v)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < v->nr; i++)
    ash_buf_addf (&b, "%s%s", i ? " " : "", v->v[i]);
  return ash_buf_detach (&b);
}

static void
test_argv (void)
{
  struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_error err = ASH_ERROR_INIT;
  json_t *opts = json_pack ("{s:s, s:b, s:[s], s:s}", "confidence_level",
                            "medium", "ignore_nosec", 1, "excluded_paths",
                            "tests/*", "config_file", "bandit.yaml");
  char *const links[] = { (char *) "vendor/link", NULL };
  int r = ash_bandit_argv ("/usr/bin/bandit", opts, links, "json",
                           "/out/bandit.json", "/src", &argv, &err);
  tap_is_int (r, 0, "argv builds");
  char *s = joined (&argv);
  tap_is_str (s,
              "/usr/bin/bandit -r -f json -o /out/bandit.json -ii "
              "--ignore-nosec -c /src/bandit.yaml --exclude "
              ".svn,CVS,.bzr,.hg,.git,__pycache__,.tox,.eggs,*.egg,tests/*,"
              "/src/vendor/link /src",
              "options map to bandit flags");
  free (s);
  ash_strvec_clear (&argv);

  /* Each link joined to the target once, whether or not the target ends
     with a slash; an absolute one kept as it is.  */
  static const char *const joins[][2] = {
    { "/src/", "/src/vendor/link,/abs/link,/src/a" },
    { "/", "/vendor/link,/abs/link,/a" },
    { "src", "src/vendor/link,/abs/link,src/a" },
  };
  char *const links3[]
    = { (char *) "vendor/link", (char *) "/abs/link", (char *) "a", NULL };
  for (size_t i = 0; i < ARRAY_SIZE (joins); i++)
    {
      r = ash_bandit_argv ("bandit", NULL, links3, "json", "o", joins[i][0],
                           &argv, &err);
      tap_is_int (r, 0, "argv builds for target %s", joins[i][0]);
      _cleanup_free_ char *want
        = xasprintf (".svn,CVS,.bzr,.hg,.git,__pycache__,.tox,.eggs,*.egg,%s",
                     joins[i][1]);
      tap_is_str (argv.nr >= 2 ? argv.v[argv.nr - 2] : "", want,
                  "links joined to target %s", joins[i][0]);
      ash_strvec_clear (&argv);
    }

  static const char *const levels[][2] = {
    { "all", "" },
    { "low", " -i" },
    { "high", " -iii" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (levels); i++)
    {
      json_t *o = json_pack ("{s:s}", "confidence_level", levels[i][0]);
      ash_bandit_argv ("bandit", o, NULL, "sarif", "o", "/t", &argv, &err);
      s = joined (&argv);
      char *want = xasprintf ("bandit -r -f sarif -o o%s --exclude "
                              ".svn,CVS,.bzr,.hg,.git,__pycache__,.tox,"
                              ".eggs,*.egg /t",
                              levels[i][1]);
      tap_is_str (s, want, "confidence_level %s", levels[i][0]);
      free (want);
      free (s);
      ash_strvec_clear (&argv);
      json_decref (o);
    }
  json_t *bad = json_pack ("{s:s}", "confidence_level", "extreme");
  r = ash_bandit_argv ("bandit", bad, NULL, "json", "o", "/t", &argv, &err);
  tap_ok (r < 0 && strstr (err.message, "extreme") != NULL,
          "unknown confidence_level is refused: %s", err.message);
  json_decref (bad);
  json_decref (opts);
  ash_strvec_release (&argv);
  ash_error_release (&err);
}

/* Build bandit's command with RUN_DIR as the run's config directory;
   the result of the adapter's BUILD, with the message in ERR.  */
static int
build_in (const char *target, const char *run_dir, struct ash_cmd *cmd,
          struct ash_error *err)
{
  struct ash_scan_job job = {
    .name = "bandit",
    .target = target,
    .results_dir = target,
    .results_fd = -1,
    .tool_path = "/usr/bin/bandit",
    .run_config_dir = run_dir,
    .max_output = 1 << 20,
  };
  ash_cmd_init (cmd);
  return ash_scanner_bandit.build (&ash_scanner_bandit, &job, cmd, err);
}

static bool
argv_has (const struct ash_cmd *cmd, const char *arg)
{
  for (size_t i = 0; i < cmd->argv.nr; i++)
    if (streq (cmd->argv.v[i], arg))
      return true;
  return false;
}

/* The empty --ini that keeps a repository's .bandit away: when it cannot
   be written whole, the scanner fails instead of running without it.  */
static void
test_ini (void)
{
  char run[] = "/tmp/ash-test-bandit-run.XXXXXX";
  struct ash_cmd cmd;
  struct ash_error err = ASH_ERROR_INIT;
  struct stat st;

  if (mkdtemp (run) == NULL)
    {
      tap_ok (false, "mkdtemp: %s", strerror (errno));
      return;
    }
  _cleanup_free_ char *ini = ash_path_join (run, "bandit.ini");

  /* Control: a writable run directory gets the ini, on the command.  */
  int r = build_in (run, run, &cmd, &err);
  tap_is_int (r, 0, "build with a writable run directory");
  tap_ok (argv_has (&cmd, "--ini") && argv_has (&cmd, ini),
          "the command carries --ini %s", ini);
  tap_ok (stat (ini, &st) == 0 && st.st_size == 9, "the ini is written whole");
  ash_cmd_release (&cmd);
  unlink (ini);

  /* A short write: the file size limit lets 4 of its 9 bytes through.  */
  struct rlimit old, small = { 4, 4 };
  getrlimit (RLIMIT_FSIZE, &old);
  small.rlim_max = old.rlim_max;
  signal (SIGXFSZ, SIG_IGN);
  if (setrlimit (RLIMIT_FSIZE, &small) < 0)
    tap_ok (false, "setrlimit: %s", strerror (errno));
  errno = 0;
  r = build_in (run, run, &cmd, &err);
  setrlimit (RLIMIT_FSIZE, &old);
  tap_ok (r < 0, "a short write of the ini fails the build (%d)", r);
  tap_ok (err.message && strstr (err.message, "cannot write") != NULL
            && strstr (err.message, "bandit.ini") != NULL,
          "the error names the ini: %s", err.message ? err.message : "");
  tap_ok (stat (ini, &st) < 0 && errno == ENOENT,
          "no truncated ini is left behind");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  unlink (ini);

  /* A run directory that does not exist.  */
  _cleanup_free_ char *gone = ash_path_join (run, "gone");
  r = build_in (run, gone, &cmd, &err);
  tap_ok (r < 0 && err.message && strstr (err.message, "cannot write"),
          "an unwritable run directory fails the build: %s",
          err.message ? err.message : "");
  ash_cmd_release (&cmd);
  ash_error_release (&err);

  /* No run directory at all.  */
  r = build_in (run, NULL, &cmd, &err);
  tap_ok (r < 0, "no run directory fails the build: %s",
          err.message ? err.message : "");
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  rmdir (run);
}

/* The check_options hook: upstream's options ash builds pass, anything
   else is an error naming the option.  */
static void
test_check_options (void)
{
  struct ash_error err = ASH_ERROR_INIT;
  int (*check) (const json_t *, struct ash_error *)
    = ash_scanner_bandit.check_options;

  tap_ok (check != NULL, "bandit has a check_options hook");
  if (check == NULL)
    return;
  json_t *good = json_loads ("{\"config_file\": \"b.yaml\", "
                             "\"confidence_level\": \"HIGH\", "
                             "\"ignore_nosec\": true, "
                             "\"excluded_paths\": [\"a\", {\"path\": \"b\", "
                             "\"reason\": \"r\"}], "
                             "\"additional_formats\": [], "
                             "\"scan_timeout\": 60}",
                             0, NULL);
  tap_is_int (check (good, &err), 0, "supported options pass: %s",
              err.message ? err.message : "");
  ash_error_release (&err);
  tap_is_int (check (NULL, &err), 0, "no options pass");
  json_decref (good);

  static const struct
  {
    const char *json, *want;
  } bad[] = {
    { "{\"profile\": \"strict\"}", "scanners.bandit.options.profile: ash does "
                                   "not support this option of bandit" },
    { "{\"skips\": [\"-r/etc\"]}",
      "scanners.bandit.options.skips must list test ids" },
    { "{\"ignore_nosec\": \"yes\"}",
      "scanners.bandit.options.ignore_nosec must be" },
    { "{\"tool_version\": \"1.7\"}",
      "scanners.bandit.options.tool_version: '1.7' is not a version "
      "constraint" },
    { "{\"install_timeout\": 0}",
      "scanners.bandit.options.install_timeout must be a number of seconds" },
    { "{\"additional_formats\": [\"html\"]}",
      "scanners.bandit.options.additional_formats is not supported" },
    { "{\"excluded_paths\": \"a\"}",
      "scanners.bandit.options.excluded_paths must be a list" },
    { "{\"excluded_paths\": [{\"reason\": \"r\"}]}",
      "scanners.bandit.options.excluded_paths[0] must be a path" },
    { "{\"excluded_paths\": [\"a,b\"]}", "with a comma" },
    { "[1]", "scanners.bandit.options must be a mapping" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      json_t *o = json_loads (bad[i].json, JSON_DECODE_ANY, NULL);
      int r = check (o, &err);
      tap_ok (r < 0 && err.message && strstr (err.message, bad[i].want),
              "%s is refused: %s", bad[i].json,
              err.message ? err.message : "");
      ash_error_release (&err);
      json_decref (o);
    }
}

int
main (void)
{
  test_mapping ();
  test_argv ();
  test_ini ();
  test_check_options ();
  return tap_done ();
}
