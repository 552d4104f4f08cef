/* SPDX-License-Identifier: Apache-2.0 */
/* semgrep.c -- the semgrep adapter, and the command line it shares with
   opengrep (opengrep.c), a fork that keeps semgrep's flags.

   ash runs "semgrep scan --sarif --output=RESULTS/semgrep.sarif
   --metrics=off --disable-version-check --config=... -- ." from the
   source directory.  Online the rules are the config option's (default
   p/ci, from the registry: semgrep has a network when online).  Offline
   they are the rule files below $SEMGREP_RULES_CACHE_DIR (with
   --no-rewrite-rule-ids, so rule ids are the same as online), which the
   sandbox mounts read-only; with no such rules the scanner is ERROR
   rather than run without rules.  A config option naming a file or
   directory follows the option-file rule.  Metrics stay off whatever
   the options say.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "scanners/adapter.h"
#include "scanners/grep-common.h"
#include "scanners/scanner.h"

/* At most this many rule files are taken from a rules cache.  */
#define GREP_MAX_RULE_FILES 10000

static const char *const severities[] = { "INFO", "WARNING", "ERROR", NULL };
static const char *const metrics[] = { "off", NULL };

static const struct ash_option_spec grep_options[] = {
  { "config", ASH_OPTION_STRING, NULL },
  { "exclude", ASH_OPTION_STRLIST, NULL },
  { "exclude_rule", ASH_OPTION_STRLIST, NULL },
  { "severity", ASH_OPTION_STRLIST, severities },
  { "metrics", ASH_OPTION_STRING, metrics },
  { "offline", ASH_OPTION_BOOL, NULL },
  { NULL, 0, NULL },
};

int
ash_grep_check_options (const char *name, const json_t *options,
                        struct ash_error *err)
{
  return ash_adapter_check_options (name, options, grep_options, err);
}

/* upstream's default exclusions: the files its converters write.  */
static const char *const default_excludes[]
  = { "*-converted.py", "*_report_result.txt", NULL };

/* True when VALUE names registry rules rather than a file.  */
bool
ash_grep_config_is_registry (const char *value)
{
  return streq (value, "auto") || ash_str_has_prefix (value, "p/")
         || ash_str_has_prefix (value, "r/")
         || ash_str_has_prefix (value, "s/")
         || ash_str_has_prefix (value, "https://")
         || ash_str_has_prefix (value, "http://");
}

/* PATH (relative to the source directory) as an anchored gitignore
   pattern, with the glob characters escaped.  */
static char *
exclude_pattern (const char *path)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addch (&b, '/');
  for (const char *p = path; *p; p++)
    {
      if (strchr ("*?[]\\!# ", *p))
        ash_buf_addch (&b, '\\');
      ash_buf_addch (&b, *p);
    }
  return ash_buf_detach (&b);
}

int
ash_grep_argv (bool opengrep, const char *tool, const json_t *options,
               bool offline, char *const *rule_files, char *const *excluded,
               const char *out, const char *target, struct ash_strvec *argv,
               struct ash_error *err)
{
  const char *name = opengrep ? "opengrep" : "semgrep";
  ash_strvec_push (argv, tool);
  ash_strvec_push (argv, "scan");
  ash_strvec_push (argv, "--sarif");
  ash_strvec_pushf (argv, "--output=%s", out);
  ash_strvec_push (argv, "--metrics=off");
  if (!opengrep)
    ash_strvec_push (argv, "--disable-version-check");

  if (offline)
    {
      if (rule_files == NULL || rule_files[0] == NULL)
        return ash_error_set (err, -ENOENT,
                              _ ("%s has no local rules offline: set %s to a "
                                 "directory of rule files (.yml, .yaml), or "
                                 "scan online"),
                              name,
                              opengrep ? "OPENGREP_RULES_CACHE_DIR"
                                       : "SEMGREP_RULES_CACHE_DIR");
      for (size_t i = 0; rule_files[i]; i++)
        ash_strvec_pushf (argv, "--config=%s", rule_files[i]);
    }
  else if (rule_files && rule_files[0])
    for (size_t i = 0; rule_files[i]; i++)
      ash_strvec_pushf (argv, "--config=%s", rule_files[i]);
  if (rule_files && rule_files[0])
    /* The rules' own ids, not ids prefixed with the cache's path: the
       same ids as online, as upstream ASH passes.  */
    ash_strvec_push (argv, "--no-rewrite-rule-ids");
  else if (!offline)
    {
      const char *c = ash_adapter_opt_string (options, "config");
      ash_strvec_pushf (argv, "--config=%s", c ? c : "p/ci");
    }

  {
    struct ash_strvec ex = ASH_STRVEC_INIT;
    if (ash_adapter_opt_set (options, "exclude"))
      ash_adapter_opt_strlist (options, "exclude", &ex);
    else
      ash_strvec_pushv (&ex, (char *const *) default_excludes);
    for (size_t i = 0; i < ex.nr; i++)
      ash_strvec_pushf (argv, "--exclude=%s", ex.v[i]);
    ash_strvec_release (&ex);
  }
  for (size_t i = 0; excluded && excluded[i]; i++)
    {
      _cleanup_free_ char *p = exclude_pattern (excluded[i]);
      ash_strvec_pushf (argv, "--exclude=%s", p);
    }
  struct ash_strvec l = ASH_STRVEC_INIT;
  ash_adapter_opt_strlist (options, "exclude_rule", &l);
  for (size_t i = 0; i < l.nr; i++)
    ash_strvec_pushf (argv, "--exclude-rule=%s", l.v[i]);
  ash_strvec_clear (&l);
  ash_adapter_opt_strlist (options, "severity", &l);
  for (size_t i = 0; i < l.nr; i++)
    {
      _cleanup_free_ char *up = xstrdup (l.v[i]);
      for (char *p = up; *p; p++)
        *p = (char) (*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
      ash_strvec_pushf (argv, "--severity=%s", up);
    }
  ash_strvec_release (&l);
  ash_strvec_push (argv, "--");
  ash_strvec_push (argv, target);
  return 0;
}

static int
cmp_str (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The rule files (.yml, .yaml) below DIR, sorted, not following links
   below it.  */
static void
collect_rules (const char *dir, int depth, struct ash_strvec *ret)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  if (d == NULL)
    return;
  while ((e = readdir (d)) != NULL && ret->nr < GREP_MAX_RULE_FILES)
    {
      if (e->d_name[0] == '.')
        continue;
      _cleanup_free_ char *p = ash_path_join (dir, e->d_name);
      struct stat st;
      if (lstat (p, &st) < 0)
        continue;
      if (S_ISDIR (st.st_mode) && depth < 16)
        collect_rules (p, depth + 1, ret);
      else if (S_ISREG (st.st_mode)
               && (ash_str_has_suffix (e->d_name, ".yml")
                   || ash_str_has_suffix (e->d_name, ".yaml")))
        ash_strvec_push (ret, p);
    }
  closedir (d);
}

/* Offline with --offline-semgrep-rulesets: of the cached rule files RULES
   (below DIR), only those named NAME.yml or NAME.yaml for a ruleset p/NAME
   (or NAME) in RULESETS; a ruleset with no such file is an error.  */
static int
keep_rulesets (const char *tool, const char *dir, char *const *rulesets,
               struct ash_strvec *rules, struct ash_error *err)
{
  struct ash_strvec kept = ASH_STRVEC_INIT;
  for (size_t k = 0; rulesets[k]; k++)
    {
      const char *want = rulesets[k];
      if (ash_str_has_prefix (want, "p/"))
        want += 2;
      bool found = false;
      for (size_t i = 0; i < rules->nr; i++)
        {
          const char *base = strrchr (rules->v[i], '/');
          base = base ? base + 1 : rules->v[i];
          size_t n = strlen (want);
          if (strncmp (base, want, n) == 0
              && (streq (base + n, ".yml") || streq (base + n, ".yaml")))
            {
              found = true;
              if (!ash_strvec_contains (&kept, rules->v[i]))
                ash_strvec_push (&kept, rules->v[i]);
            }
        }
      if (!found)
        {
          int r = ash_error_set (err, -ENOENT,
                                 _ ("%s: the ruleset '%s' of "
                                    "--offline-semgrep-rulesets is not in "
                                    "the rules cache %s (as %s.yml or "
                                    "%s.yaml)"),
                                 tool, rulesets[k], dir, want, want);
          ash_strvec_release (&kept);
          return r;
        }
    }
  ash_strvec_release (rules);
  *rules = kept;
  return 0;
}

int
ash_grep_build (bool opengrep, const struct ash_scan_job *job,
                const char *out_name, struct ash_cmd *cmd,
                struct ash_error *err)
{
  const char *name = opengrep ? "opengrep" : "semgrep";
  const char *cache_var
    = opengrep ? "OPENGREP_RULES_CACHE_DIR" : "SEMGREP_RULES_CACHE_DIR";
  struct ash_strvec rules = ASH_STRVEC_INIT;
  struct ash_strvec excluded = ASH_STRVEC_INIT;
  _cleanup_free_ char *out = ash_path_join (job->results_dir, out_name);
  bool offline
    = job->offline || ash_adapter_opt_bool (job->options, "offline", false);
  int r;

  r = ash_grep_check_options (name, job->options, err);
  if (r < 0)
    return r;
  const char *config = ash_adapter_opt_string (job->options, "config");
  if (config && !ash_grep_config_is_registry (config))
    {
      char *path = NULL;
      r = ash_adapter_option_path (job, "config", config, true, &path, err);
      if (r < 0)
        return r;
      ash_strvec_push_nodup (&rules, path);
    }
  else if (config && offline)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.%s.options.config is '%s', registry "
                             "rules, and the scan is offline; name a local "
                             "rules file or directory, or set %s"),
                          name, config, cache_var);
  else if (offline)
    {
      /* Only ASH's own environment names the cache, never the options.  */
      const char *dir = getenv (cache_var);
      if (dir && dir[0] == '/')
        {
          collect_rules (dir, 0, &rules);
          qsort (rules.v, rules.nr, sizeof *rules.v, cmp_str);
        }
      if (dir && dir[0] == '/' && job->rulesets && job->rulesets[0])
        {
          r = keep_rulesets (name, dir, job->rulesets, &rules, err);
          if (r < 0)
            {
              ash_strvec_release (&rules);
              return r;
            }
        }
    }
  r = ash_adapter_excluded_paths (job, &excluded, err);
  if (r == 0)
    r = ash_grep_argv (opengrep, job->tool_path, job->options, offline,
                       rules.v, excluded.v, out, ".", &cmd->argv, err);
  ash_strvec_release (&rules);
  ash_strvec_release (&excluded);
  return r;
}

int
ash_grep_parse (bool opengrep, const struct ash_scan_job *job,
                const struct ash_cmd_result *res, const char *out_name,
                const char *version, json_t **ret_doc, struct ash_error *err)
{
  const char *name = opengrep ? "opengrep" : "semgrep";
  json_t *doc = NULL;
  int r;

  /* 0: no findings, 1: findings; 2 and above are semgrep's errors
     (invalid config 7, missing target 2, ...).  */
  if (res->status != 0 && res->status != 1)
    return ash_error_set (err, -EIO, _ ("%s exited with status %d"), name,
                          res->status);
  r = ash_adapter_read_sarif (job, out_name, &doc, err);
  if (r < 0)
    return r;
  struct ash_sarif_norm n = {
    .driver_name = name,
    .version = version,
    .info_uri = opengrep ? "https://github.com/opengrep/opengrep"
                         : "https://semgrep.dev",
    .source_dir = job->target,
    .redact_snippets = true,
  };
  r = ash_adapter_sarif_normalize (doc, &n, err);
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }
  *ret_doc = doc;
  return 0;
}

/* The version a --version probe printed ("1.116.0\n").  */
char *
ash_grep_version (const struct ash_scan_job *job)
{
  char *const argv[] = { (char *) job->tool_path, (char *) "--version", NULL };
  char *out = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  char *v = NULL;
  if (ash_adapter_probe (job, argv, &out, &err) == 0)
    {
      const char *p = out;
      while (*p && !(*p >= '0' && *p <= '9'))
        p++;
      size_t n = strspn (p, "0123456789.");
      if (n > 0)
        v = xstrndup (p, n);
    }
  free (out);
  ash_error_release (&err);
  return v;
}

#define SEMGREP_SARIF "semgrep.sarif"

static int
semgrep_check_options (const json_t *options, struct ash_error *err)
{
  return ash_grep_check_options ("semgrep", options, err);
}

static int
semgrep_build (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job, struct ash_cmd *cmd,
               struct ash_error *err)
{
  return ash_grep_build (false, job, SEMGREP_SARIF, cmd, err);
}

static int
semgrep_parse (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job,
               const struct ash_cmd_result *res, json_t **ret_doc,
               struct ash_error *err)
{
  _cleanup_free_ char *version = ash_grep_version (job);
  return ash_grep_parse (false, job, res, SEMGREP_SARIF, version, ret_doc,
                         err);
}

const struct ash_scanner ash_scanner_semgrep = {
  .name = "semgrep",
  .tool = "semgrep",
  .checks_tool_version = true,
  .install_hint = "uv tool install semgrep",
  .description = "static analysis for many languages",
  .build = semgrep_build,
  .parse = semgrep_parse,
  .check_options = semgrep_check_options,
};
