/* SPDX-License-Identifier: Apache-2.0 */
/* gitleaks.c -- the gitleaks adapter.

   ash runs "gitleaks dir" (releases before 8.19: "gitleaks detect
   --no-git") over the source directory, from the source directory, so
   that reported paths are relative to it, and asks for SARIF.  Every run
   carries --redact=100 (no secret value in its report or its log),
   --exit-code=2 (gitleaks exits 1 for its own failures too: 0 and 2 are
   the scan's successes), --no-banner, --no-color, an empty
   --gitleaks-ignore-path, and a --config that ASH writes in the run's
   0700 directory: gitleaks' default rules (or the operator's config_file,
   which it extends) plus an allowlist of the paths the scan set leaves
   out.  So a .gitleaks.toml in the scanned tree is never read.

   gitleaks reads <scan path>/.gitleaksignore whatever it is told.  When
   the tree has one, ASH copies each file it names into the run directory
   and runs gitleaks again on each copy (a single file has no
   .gitleaksignore beside it), and adds back every finding the first run
   dropped: findings are tuned with ASH suppressions, which are reported
   and counted.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "sandbox/probe-cache.h"
#include "scanners/adapter.h"
#include "scanners/scanner.h"

#define GITLEAKS_SARIF "gitleaks.sarif"
#define GITLEAKS_TOML "gitleaks.toml"
#define GITLEAKS_NO_IGNORE "no-gitleaksignore"
#define GITLEAKS_COPIES "gitleaksignore-copies"
/* At most this many files named by a .gitleaksignore are re-scanned.  */
#define GITLEAKS_MAX_RESCANS 1000

static const struct ash_option_spec gitleaks_options[] = {
  { "config_file", ASH_OPTION_STRING, NULL },
  { "baseline_path", ASH_OPTION_STRING, NULL },
  { "max_target_megabytes", ASH_OPTION_INT, NULL },
  { NULL, 0, NULL },
};

static int
gitleaks_check_options (const json_t *options, struct ash_error *err)
{
  return ash_adapter_check_options ("gitleaks", options, gitleaks_options,
                                    err);
}

/* The version of the tool, asked once per tool path.  */
static pthread_mutex_t version_lock = PTHREAD_MUTEX_INITIALIZER;
static char *version_tool;
static char *version_text;

/* "v8.21.2\n" or "8.21.2" -> 8.21.2 (newly allocated), or NULL.  */
static char *
parse_version (const char *out)
{
  while (*out == ' ' || *out == '\n' || *out == 'v')
    out++;
  size_t n = strspn (out, "0123456789.");
  return n > 0 ? xstrndup (out, n) : NULL;
}

static bool
has_dir_command (const char *version)
{
  unsigned major = 0, minor = 0;
  if (version == NULL || sscanf (version, "%u.%u", &major, &minor) < 1)
    return true;
  return major > 8 || (major == 8 && minor >= 19);
}

static int
gitleaks_prepare (const struct ash_scanner *s _unused_,
                  const struct ash_scan_job *job, struct ash_error *err)
{
  char *const argv[] = { (char *) job->tool_path, (char *) "version", NULL };
  char *out = NULL;
  int r = 0;

  pthread_mutex_lock (&version_lock);
  if (!(version_tool && streq (version_tool, job->tool_path)))
    {
      /* Kept across runs; "" when the tool printed no version.  */
      char *cached
        = ash_tool_cache_load ("gitleaks", job->tool_path, "version");
      if (cached
          && (*cached == '\0'
              || strspn (cached, "0123456789.") == strlen (cached)))
        {
          free (version_tool);
          free (version_text);
          version_tool = xstrdup (job->tool_path);
          version_text = *cached ? cached : NULL;
          if (!version_text)
            free (cached);
          pthread_mutex_unlock (&version_lock);
          return 0;
        }
      free (cached);
      r = ash_adapter_probe (job, argv, &out, err);
      if (r == 0)
        {
          free (version_tool);
          free (version_text);
          version_tool = xstrdup (job->tool_path);
          version_text = parse_version (out);
          ash_tool_cache_store ("gitleaks", job->tool_path, "version",
                                version_text ? version_text : "");
        }
      else
        ash_error_prefix (err, _ ("cannot ask gitleaks for its version: "));
      free (out);
    }
  pthread_mutex_unlock (&version_lock);
  return r;
}

static char *
tool_version (const struct ash_scan_job *job)
{
  char *v = NULL;
  pthread_mutex_lock (&version_lock);
  if (version_tool && streq (version_tool, job->tool_path) && version_text)
    v = xstrdup (version_text);
  pthread_mutex_unlock (&version_lock);
  return v;
}

void
ash_gitleaks_argv (const char *tool, const char *subcommand,
                   const json_t *options, const char *config,
                   const char *baseline, const char *ignore_dir,
                   const char *out, const char *target,
                   struct ash_strvec *argv)
{
  bool dir = streq (subcommand, "dir");
  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, subcommand);
  if (!dir)
    ash_strvec_push (argv, "--no-git");
  ash_strvec_push (argv, "--report-format=sarif");
  ash_strvec_pushf (argv, "--report-path=%s", out);
  /* gitleaks declares --redact with an optional value: "--redact 100"
     would make 100 the scan path.  */
  ash_strvec_push (argv, "--redact=100");
  ash_strvec_push (argv, "--exit-code=2");
  ash_strvec_push (argv, "--no-banner");
  ash_strvec_push (argv, "--no-color");
  ash_strvec_pushf (argv, "--gitleaks-ignore-path=%s", ignore_dir);
  ash_strvec_pushf (argv, "--config=%s", config);
  if (baseline)
    ash_strvec_pushf (argv, "--baseline-path=%s", baseline);
  long long mb = ash_adapter_opt_int (options, "max_target_megabytes");
  if (mb > 0)
    ash_strvec_pushf (argv, "--max-target-megabytes=%lld", mb);
  if (dir)
    {
      ash_strvec_push (argv, "--");
      ash_strvec_push (argv, target);
    }
  else
    ash_strvec_pushf (argv, "--source=%s", target);
}

/* S as a TOML basic string, or NULL when it holds a control
   character.  */
static char *
toml_string (const char *s)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addch (&b, '"');
  for (; *s; s++)
    {
      if ((unsigned char) *s < 0x20 || *s == 0x7f)
        {
          ash_buf_release (&b);
          return NULL;
        }
      if (*s == '"' || *s == '\\')
        ash_buf_addch (&b, '\\');
      ash_buf_addch (&b, *s);
    }
  ash_buf_addch (&b, '"');
  return ash_buf_detach (&b);
}

char *
ash_gitleaks_config_text (const char *base, char *const *excluded,
                          struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, "# Written by ash: gitleaks' rules and the paths the "
                      "scan set leaves out.\n[extend]\n");
  if (base)
    {
      _cleanup_free_ char *q = toml_string (base);
      if (q == NULL)
        {
          ash_buf_release (&b);
          ash_error_set (err, -EINVAL,
                         _ ("gitleaks: the config_file path holds a control "
                            "character"));
          return NULL;
        }
      ash_buf_addf (&b, "path = %s\n", q);
    }
  else
    ash_buf_addstr (&b, "useDefault = true\n");
  if (excluded && excluded[0])
    {
      ash_buf_addstr (&b, "\n[allowlist]\ndescription = \"paths the ash "
                          "scan set leaves out\"\npaths = [\n");
      for (size_t i = 0; excluded[i]; i++)
        {
          /* gitleaks matches these against the path it reports, which is
             relative to the scan path "."; a directory covers what is in
             it.  */
          _cleanup_free_ char *re = ash_adapter_regex_escape (excluded[i]);
          _cleanup_free_ char *full = xasprintf ("^(\\./)?%s(/|$)", re);
          _cleanup_free_ char *q = toml_string (full);
          if (q == NULL)
            {
              ash_buf_release (&b);
              ash_error_set (err, -EINVAL,
                             _ ("gitleaks was not run on the source "
                                "directory: the path '%s' that the scan set "
                                "leaves out holds a control character, which "
                                "a gitleaks allowlist cannot name"),
                             excluded[i]);
              err->kind = ASH_KIND_LINK_NOT_EXCLUDABLE;
              return NULL;
            }
          ash_buf_addf (&b, "  %s,\n", q);
        }
      ash_buf_addstr (&b, "]\n");
    }
  return ash_buf_detach (&b);
}

static int
gitleaks_build (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job, struct ash_cmd *cmd,
                struct ash_error *err)
{
  _cleanup_free_ char *out = ash_path_join (job->results_dir, GITLEAKS_SARIF);
  _cleanup_free_ char *config_file = NULL, *baseline = NULL, *text = NULL;
  _cleanup_free_ char *config = NULL, *version = tool_version (job);
  struct ash_strvec excluded = ASH_STRVEC_INIT;
  const char *v;
  int r;

  r = gitleaks_check_options (job->options, err);
  if (r < 0)
    return r;
  if (job->run_config_dir == NULL)
    return ash_error_set (err, -EINVAL,
                          _ ("gitleaks has no run directory for its config"));
  v = ash_adapter_opt_string (job->options, "config_file");
  if (v
      && (r
          = ash_adapter_option_file (job, "config_file", v, &config_file, err))
           < 0)
    return r;
  v = ash_adapter_opt_string (job->options, "baseline_path");
  if (v
      && (r
          = ash_adapter_option_file (job, "baseline_path", v, &baseline, err))
           < 0)
    return r;
  r = ash_adapter_excluded_paths (job, &excluded, err);
  if (r == 0)
    {
      text = ash_gitleaks_config_text (config_file, excluded.v, err);
      r = text ? 0 : -EINVAL;
    }
  ash_strvec_release (&excluded);
  if (r < 0)
    return r;
  r = ash_adapter_write_run_file (job, GITLEAKS_TOML, text, &config, err);
  if (r < 0)
    return r;
  _cleanup_free_ char *ignore_dir
    = ash_path_join (job->run_config_dir, GITLEAKS_NO_IGNORE);
  if (mkdir (ignore_dir, 0755) < 0 && errno != EEXIST)
    return ash_error_set (err, -errno, _ ("cannot make %s: %s"), ignore_dir,
                          strerror (errno));
  ash_gitleaks_argv (job->tool_path,
                     has_dir_command (version) ? "dir" : "detect",
                     job->options, config, baseline, ignore_dir, out, ".",
                     &cmd->argv);
  return 0;
}

/* The file names a .gitleaksignore lists (<file>:<rule>:<line>) that are
   regular files inside the source directory.  */
static void
gitleaksignore_files (const struct ash_scan_job *job, struct ash_strvec *ret)
{
  _cleanup_close_ int dfd
    = open (job->target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct ash_buf b = ASH_BUF_INIT;
  if (dfd < 0
      || ash_tree_read_file (dfd, ".gitleaksignore", 16 << 20, &b, NULL) < 0)
    {
      ash_buf_release (&b);
      return;
    }
  _cleanup_free_ char *root = realpath (job->target, NULL);
  char *save = NULL;
  for (char *line = strtok_r (b.buf, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      while (*line == ' ' || *line == '\t')
        line++;
      size_t n = strlen (line);
      while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
        line[--n] = '\0';
      if (*line == '\0' || *line == '#')
        continue;
      char *c2 = strrchr (line, ':');
      if (c2 == NULL)
        continue;
      *c2 = '\0';
      char *c1 = strrchr (line, ':');
      if (c1 == NULL || c1 == line)
        continue;
      *c1 = '\0';
      _cleanup_free_ char *abs
        = line[0] == '/' ? xstrdup (line) : ash_path_join (job->target, line);
      _cleanup_free_ char *real = realpath (abs, NULL);
      struct stat st;
      if (root && real && ash_path_is_inside (real, root)
          && stat (real, &st) == 0 && S_ISREG (st.st_mode)
          && !ash_strvec_contains (ret, line)
          && ret->nr < GITLEAKS_MAX_RESCANS)
        ash_strvec_push (ret, line);
    }
  ash_buf_release (&b);
}

static char *
result_key (const json_t *r)
{
  int start = 0, end = 0;
  const char *uri = ash_sarif_result_location (r, &start, &end);
  const char *rule = ash_sarif_result_rule (r);
  return xasprintf ("%s\n%s\n%d", uri ? uri : "", rule ? rule : "", start);
}

/* Copy the file NAME of the source directory into DIR as COPY, read
   without following a link at its last component.  */
static int
copy_file (const struct ash_scan_job *job, const char *name, const char *copy,
           struct ash_error *err)
{
  _cleanup_free_ char *abs
    = name[0] == '/' ? xstrdup (name) : ash_path_join (job->target, name);
  _cleanup_free_ char *real = realpath (abs, NULL);
  _cleanup_close_ int in
    = real ? open (real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
  struct ash_buf b = ASH_BUF_INIT;
  struct stat st;
  int r;
  if (in < 0 || fstat (in, &st) < 0 || !S_ISREG (st.st_mode))
    return ash_error_set (err, -EINVAL, _ ("cannot read %s"), abs);
  r = ash_buf_read_fd (&b, in);
  if (r < 0)
    {
      ash_buf_release (&b);
      return ash_error_set (err, r, _ ("cannot read %s"), abs);
    }
  _cleanup_close_ int out
    = open (copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (out < 0 || ash_write_all (out, b.buf ? b.buf : "", b.len) < 0)
    r = ash_error_set (err, -errno, _ ("cannot write %s: %s"), copy,
                       strerror (errno));
  ash_buf_release (&b);
  return r;
}

/* Re-scan the files the tree's .gitleaksignore names, adding to DOC's
   first run the findings the first run dropped.  */
static int
add_back_ignored (const struct ash_scan_job *job, char *const *argv,
                  json_t *doc, struct ash_error *err)
{
  struct ash_strvec names = ASH_STRVEC_INIT;
  int r = 0;

  gitleaksignore_files (job, &names);
  if (names.nr == 0)
    return 0;
  json_t *results
    = json_object_get (json_array_get (json_object_get (doc, "runs"), 0),
                       "results");
  if (!json_is_array (results))
    {
      ash_strvec_release (&names);
      return 0;
    }
  json_t *seen = json_object ();
  size_t i;
  json_t *x;
  json_array_foreach (results, i, x)
    {
      _cleanup_free_ char *k = result_key (x);
      json_object_set_new (seen, k, json_true ());
    }
  _cleanup_free_ char *copies
    = ash_path_join (job->run_config_dir, GITLEAKS_COPIES);
  if (mkdir (copies, 0755) < 0)
    r = ash_error_set (err, -errno, _ ("cannot make %s: %s"), copies,
                       strerror (errno));
  unsigned added = 0;
  for (size_t n = 0; r == 0 && n < names.nr; n++)
    {
      const char *name = names.v[n];
      const char *base = strrchr (name, '/');
      base = base ? base + 1 : name;
      _cleanup_free_ char *sub = xasprintf ("%s/%zu", copies, n);
      _cleanup_free_ char *copy = ash_path_join (sub, base);
      _cleanup_free_ char *report = xasprintf ("gitleaks-rescan-%zu.sarif", n);
      _cleanup_free_ char *report_abs
        = ash_path_join (job->results_dir, report);
      if (mkdir (sub, 0755) < 0)
        {
          r = ash_error_set (err, -errno, _ ("cannot make %s: %s"), sub,
                             strerror (errno));
          break;
        }
      r = copy_file (job, name, copy, err);
      if (r < 0)
        break;
      struct ash_strvec av = ASH_STRVEC_INIT;
      for (size_t a = 0; argv[a] && argv[a + 1]; a++)
        {
          if (ash_str_has_prefix (argv[a], "--report-path="))
            ash_strvec_pushf (&av, "--report-path=%s", report_abs);
          else if (ash_str_has_prefix (argv[a], "--source="))
            ash_strvec_pushf (&av, "--source=%s", copy);
          else
            ash_strvec_push (&av, argv[a]);
        }
      if (!ash_str_has_prefix (argv[ash_strv_length (argv) - 1], "--source="))
        ash_strvec_push (&av, copy);
      else
        ash_strvec_pushf (&av, "--source=%s", copy);
      struct ash_cmd_result res;
      r = ash_adapter_run_tool (job, av.v, &res, err);
      ash_strvec_release (&av);
      json_t *rdoc = NULL;
      if (r == 0 && (res.status != 0 && res.status != 2))
        r = ash_error_set (err, -EIO,
                           _ ("gitleaks failed re-scanning %s, which the "
                              "scanned tree's .gitleaksignore names (exit "
                              "%d); without that run the findings the file "
                              "hides would go unreported"),
                           name, res.status);
      if (r == 0)
        r = ash_adapter_read_sarif (job, report, &rdoc, err);
      if (r < 0)
        break;
      size_t ri, k;
      json_t *run, *res_;
      json_array_foreach (json_object_get (rdoc, "runs"), ri, run)
        json_array_foreach (json_object_get (run, "results"), k, res_)
          {
            /* The copy's path is the original's.  */
            json_t *loc;
            size_t li;
            json_array_foreach (json_object_get (res_, "locations"), li, loc)
              {
                json_t *al
                  = json_object_get (json_object_get (loc, "physicalLocation"),
                                     "artifactLocation");
                if (json_is_object (al))
                  json_object_set_new (al, "uri", json_string (name));
              }
            _cleanup_free_ char *key = result_key (res_);
            if (json_object_get (seen, key))
              continue;
            json_object_set_new (seen, key, json_true ());
            json_array_append (results, res_);
            added++;
          }
      json_decref (rdoc);
    }
  if (r == 0)
    ash_info (_ ("gitleaks: the scanned tree's .gitleaksignore names %zu "
                 "file(s); gitleaks applies it whatever ash passes, so ash "
                 "re-scanned copies of them and reports the %u finding(s) it "
                 "dropped (tune findings with ASH suppressions)"),
              names.nr, added);
  json_decref (seen);
  ash_strvec_release (&names);
  return r;
}

static enum ash_severity
gitleaks_severity (const json_t *result _unused_, const json_t *rule _unused_)
{
  /* An exposed credential is critical whichever issuer made it (upstream
     rates gitleaks and detect-secrets findings alike).  */
  return ASH_SEVERITY_CRITICAL;
}

static int
gitleaks_parse (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job,
                const struct ash_cmd_result *res, json_t **ret_doc,
                struct ash_error *err)
{
  json_t *doc = NULL;
  int r;

  if (res->status != 0 && res->status != 2)
    return ash_error_set (err, -EIO,
                          _ ("gitleaks exited with status %d (it exits 0 "
                             "when it finds nothing and 2 when it finds "
                             "leaks)"),
                          res->status);
  r = ash_adapter_read_sarif (job, GITLEAKS_SARIF, &doc, err);
  if (r < 0)
    return r;

  /* The argv of the first run, rebuilt for the re-scans.  */
  struct ash_cmd cmd;
  ash_cmd_init (&cmd);
  _cleanup_free_ char *version = tool_version (job);
  _cleanup_free_ char *out = ash_path_join (job->results_dir, GITLEAKS_SARIF);
  _cleanup_free_ char *config
    = ash_path_join (job->run_config_dir, GITLEAKS_TOML);
  _cleanup_free_ char *ignore_dir
    = ash_path_join (job->run_config_dir, GITLEAKS_NO_IGNORE);
  _cleanup_free_ char *baseline = NULL;
  const char *b = ash_adapter_opt_string (job->options, "baseline_path");
  struct ash_error berr = ASH_ERROR_INIT;
  if (b)
    ash_adapter_option_file (job, "baseline_path", b, &baseline, &berr);
  ash_error_release (&berr);
  ash_gitleaks_argv (job->tool_path,
                     has_dir_command (version) ? "dir" : "detect",
                     job->options, config, baseline, ignore_dir, out, ".",
                     &cmd.argv);
  r = add_back_ignored (job, cmd.argv.v, doc, err);
  ash_cmd_release (&cmd);
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }

  struct ash_sarif_norm n = {
    .driver_name = "gitleaks",
    .version = version,
    .info_uri = "https://github.com/gitleaks/gitleaks",
    .source_dir = job->target,
    .severity = gitleaks_severity,
    .redact_snippets = true,
  };
  r = ash_adapter_sarif_normalize (doc, &n, err);
  if (r == 0)
    {
      /* Empty partial fingerprints (dir mode has no commit) say nothing
         and are the same for every result.  */
      size_t i, k;
      json_t *run, *x;
      json_array_foreach (json_object_get (doc, "runs"), i, run)
        json_array_foreach (json_object_get (run, "results"), k, x)
          {
            json_t *pf = json_object_get (x, "partialFingerprints");
            const char *key;
            json_t *v;
            void *tmp;
            json_object_foreach_safe (pf, tmp, key, v)
              if (!json_is_string (v) || !*json_string_value (v))
                json_object_del (pf, key);
            if (pf && json_object_size (pf) == 0)
              json_object_del (x, "partialFingerprints");
            json_t *props = json_object_get (x, "properties");
            json_object_set_new (props, "tags",
                                 json_pack ("[s,s]", "secret", "security"));
          }
      json_object_del (json_array_get (json_object_get (doc, "runs"), 0),
                       "automationDetails");
    }
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }
  *ret_doc = doc;
  return 0;
}

const struct ash_scanner ash_scanner_gitleaks = {
  .name = "gitleaks",
  .tool = "gitleaks",
  .checks_tool_version = true,
  .install_hint = "go install github.com/zricethezav/gitleaks/v8@latest",
  .description = "secrets detection in files and git history",
  .build = gitleaks_build,
  .parse = gitleaks_parse,
  .prepare = gitleaks_prepare,
  .check_options = gitleaks_check_options,
};
