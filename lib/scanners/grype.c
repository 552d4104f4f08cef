/* SPDX-License-Identifier: Apache-2.0 */
/* grype.c -- the grype adapter.

   "grype dir:TARGET -o sarif=RESULTS/grype.sarif -o json=RESULTS/grype.json
   --config CONFIG [--exclude ./PATH]... [--fail-on SEVERITY]", with
   GRYPE_DB_AUTO_UPDATE=false (ash updates the database itself before the
   scan, lib/scan/dbphase.c), GRYPE_DB_VALIDATE_AGE=false (ash holds the
   database to its bound after the scan) and GRYPE_DB_CACHE_DIR naming the
   cache the update wrote and the staleness check reads.

   CONFIG is the operator's config_file when the tier rule lets it apply,
   else an empty file of ash's own in the run directory, so a .grype.yaml
   in the scanned tree changes nothing.  A config that sets db.cache-dir
   is warned about: the variable wins.

   grype writes SARIF and its JSON report in one run.  The findings are
   read from the JSON report, which carries each match's own severity,
   CVSS scores and fixed versions (grype's SARIF folds them into text);
   the SARIF is used when the JSON report is absent.  grype exits 2 when
   --fail-on finds a match at or above it: a successful scan.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "fs/tree.h"
#include "sandbox/scanner-reqs.h"
#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/deps-common.h"
#include "scanners/scanner.h"

#define GRYPE_SARIF "grype.sarif"
#define GRYPE_JSON "grype.json"
#define GRYPE_CONFIG "grype.yaml"

extern char **environ;

static const char *const grype_options[]
  = { "config_file", "severity_threshold", "offline", NULL };

/* Whether the grype config at PATH sets db.cache-dir.  */
static bool
config_sets_cache_dir (const char *path)
{
  FILE *f = fopen (path, "re");
  char line[4096];
  bool in_db = false, found = false;
  if (f == NULL)
    return false;
  while (!found && fgets (line, sizeof line, f))
    {
      if (line[0] != ' ' && line[0] != '\t' && line[0] != '#'
          && line[0] != '\n')
        in_db = strneq (line, "db:", 3);
      const char *p = line + strspn (line, " \t");
      if ((in_db && strneq (p, "cache-dir:", 10))
          || strneq (line, "db.cache-dir:", 13))
        found = true;
    }
  fclose (f);
  return found;
}

int
ash_grype_argv (const struct ash_scan_job *job, const char *config,
                struct ash_strvec *argv, struct ash_error *err)
{
  const char *sev = NULL;
  int r = ash_deps_options_check (job->name, job->options, grype_options, err);
  if (r == 0)
    r = ash_adapter_get_string (job->name, job->options, "severity_threshold",
                                true, &sev, err);
  if (r < 0)
    return r;
  bool off;
  r = ash_adapter_get_bool (job->name, job->options, "offline", false, &off,
                            err);
  if (r < 0)
    return r;
  static const char *const sevs[]
    = { "ALL", "LOW", "MEDIUM", "HIGH", "CRITICAL" };
  bool known = sev == NULL;
  for (size_t i = 0; !known && i < ARRAY_SIZE (sevs); i++)
    known = streq (sev, sevs[i]);
  if (!known)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.grype.options.severity_threshold must "
                             "be one of ALL, LOW, MEDIUM, HIGH, CRITICAL, "
                             "not '%s'"),
                          sev);

  ash_strvec_push (argv, job->tool_path);
  ash_strvec_pushf (argv, "dir:%s", job->target);
  ash_strvec_push (argv, "-o");
  ash_strvec_pushf (argv, "sarif=%s/%s", job->results_dir, GRYPE_SARIF);
  ash_strvec_push (argv, "-o");
  ash_strvec_pushf (argv, "json=%s/%s", job->results_dir, GRYPE_JSON);
  ash_strvec_push (argv, "--config");
  ash_strvec_push (argv, config);
  if (sev && !streq (sev, "ALL"))
    {
      _cleanup_free_ char *lower = xstrdup (sev);
      for (char *p = lower; *p; p++)
        *p = (char) (*p - 'A' + 'a');
      ash_strvec_push (argv, "--fail-on");
      ash_strvec_push (argv, lower);
    }

  /* The scan set: links that leave the tree (already "./P", escaped), the
     output directory when inside the tree, and ignore_paths.  */
  struct ash_strvec ign = ASH_STRVEC_INIT;
  for (char *const *e = job->excluded_paths; e && *e; e++)
    {
      const char *p = *e;
      if (p[0] == '/')
        {
          size_t n = strlen (job->target);
          if (!(strneq (p, job->target, n) && p[n] == '/'))
            continue;
          ash_strvec_pushf (argv, "--exclude=./%s/**", p + n + 1);
          continue;
        }
      ash_strvec_pushf (argv, "--exclude=%s", p);
    }
  ash_deps_ignore_paths (job, &ign);
  for (size_t i = 0; i < ign.nr; i++)
    {
      const char *p = ign.v[i];
      if (strchr (p, '\n') || strchr (p, ','))
        {
          r = ash_error_set (err, -EINVAL,
                             _ (
                               "grype's --exclude cannot name the ignore path "
                               "'%s': it holds a comma or a line break"),
                             p);
          break;
        }
      while (p[0] == '.' && p[1] == '/')
        p += 2;
      ash_strvec_pushf (argv, "--exclude=./%s", p);
      ash_strvec_pushf (argv, "--exclude=./%s/**", p);
    }
  ash_strvec_release (&ign);
  return r;
}

/* scanners.grype.options, checked before the scan and by `config
   validate`: every check grype_build makes of the options alone, in its
   order (config_file's type, then the option names, severity_threshold
   and offline through ash_grype_argv itself, with a placeholder job).
   What depends on the scanned tree, the configuration or this machine
   stays at scan time: the file config_file names (the option-file rule
   judges it, and whether it sets db.cache-dir), the ignore_paths grype's
   --exclude cannot name, and grype's database cache.  */
static int
grype_check_options (const json_t *options, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_scan_job job = ASH_DEPS_CHECK_JOB ("grype", options);
  const char *cf;
  int r
    = ash_adapter_get_string ("grype", options, "config_file", true, &cf, err);
  if (r == 0)
    r = ash_grype_argv (&job, "/dev/null", &argv, err);
  return r;
}

static int
grype_build (const struct ash_scanner *s _unused_,
             const struct ash_scan_job *job, struct ash_cmd *cmd,
             struct ash_error *err)
{
  const char *cf = NULL;
  _cleanup_free_ char *config = NULL, *why = NULL;
  int r = ash_adapter_get_string (job->name, job->options, "config_file", true,
                                  &cf, err);
  if (r < 0)
    return r;
  if (cf)
    {
      r = ash_deps_option_file (job, "config_file", cf, &config, &why, err);
      if (r < 0)
        return r;
      if (why)
        ash_warning ("%s", why);
    }
  if (config == NULL)
    {
      r = ash_adapter_write_run_file (
        job, GRYPE_CONFIG, "# the empty grype config ash gives grype\n",
        &config, err);
      if (r < 0)
        return r;
    }
  else if (config_sets_cache_dir (config))
    ash_warning (_ ("grype: %s sets db.cache-dir, which ash overrides with "
                    "GRYPE_DB_CACHE_DIR; set that variable instead"),
                 config);

  r = ash_grype_argv (job, config, &cmd->argv, err);
  if (r < 0)
    return r;
  _cleanup_free_ char *cache
    = ash_scanner_db_cache_dir ("grype", environ, getenv ("HOME"), NULL);
  if (cache == NULL)
    return ash_error_set (err, -EINVAL, "%s", ash_db_cache_unknown ("grype"));
  ash_strvec_setenv (&cmd->env, "GRYPE_DB_CACHE_DIR", cache);
  ash_strvec_setenv (&cmd->env, "GRYPE_DB_AUTO_UPDATE", "false");
  ash_strvec_setenv (&cmd->env, "GRYPE_DB_VALIDATE_AGE", "false");
  ash_strvec_setenv (&cmd->env, "GRYPE_CHECK_FOR_APP_UPDATE", "false");
  return 0;
}

static const char *
str (const json_t *o, const char *k)
{
  return json_string_value (json_object_get (o, k));
}

/* The highest CVSS base score of V's cvss list (version 3 first), or 0.  */
static double
best_score (const json_t *cvss)
{
  double best3 = 0, best = 0;
  size_t i;
  json_t *c;
  json_array_foreach (cvss, i, c)
    {
      json_t *bs
        = json_object_get (json_object_get (c, "metrics"), "baseScore");
      if (!json_is_number (bs))
        continue;
      double d = json_number_value (bs);
      const char *ver = str (c, "version");
      if (ver && ver[0] == '3' && d > best3)
        best3 = d;
      if (d > best)
        best = d;
    }
  return best3 > 0 ? best3 : best;
}

int
ash_grype_json_to_sarif (const char *text, size_t len, const char *version,
                         const char *source_dir, json_t **ret_doc,
                         struct ash_error *err)
{
  json_t *in = NULL;
  size_t i;
  json_t *m;
  int pr = ash_json_parse_output (GRYPE_JSON, text, len, &in, err);

  if (pr < 0)
    return pr;
  json_t *matches = json_object_get (in, "matches");
  if (!json_is_object (in) || !json_is_array (matches))
    {
      json_decref (in);
      return ash_error_set (err, -EINVAL,
                            _ ("%s is not a grype JSON report (no "
                               "\"matches\" list)"),
                            GRYPE_JSON);
    }
  if (version == NULL)
    version = str (json_object_get (in, "descriptor"), "version");
  json_t *doc = ash_sarif_doc_new ();
  json_t *run
    = ash_sarif_run_new ("grype", version, "https://github.com/anchore/grype");
  json_array_append_new (json_object_get (doc, "runs"), run);
  json_array_foreach (matches, i, m)
    {
      json_t *v = json_object_get (m, "vulnerability");
      json_t *a = json_object_get (m, "artifact");
      const char *id = str (v, "id");
      const char *name = str (a, "name") ?: "?";
      const char *pver = str (a, "version") ?: "?";
      const char *type = str (a, "type") ?: "unknown";
      if (id == NULL)
        continue;
      enum ash_severity sev = ash_deps_severity (str (v, "severity"));
      double score = best_score (json_object_get (v, "cvss"));
      size_t k;
      json_t *rv;
      json_array_foreach (json_object_get (m, "relatedVulnerabilities"), k, rv)
        if (score == 0)
          score = best_score (json_object_get (rv, "cvss"));
      _cleanup_free_ char *sc = score > 0 ? xasprintf ("%.1f", score) : NULL;
      struct ash_buf fixes = ASH_BUF_INIT;
      json_t *fv;
      json_array_foreach (json_object_get (json_object_get (v, "fix"),
                                           "versions"),
                          k, fv)
        if (json_is_string (fv))
          ash_buf_addf (&fixes, "%s%s", fixes.len ? ", " : "",
                        json_string_value (fv));
      const char *desc = str (v, "description");
      _cleanup_free_ char *help
        = xasprintf ("%s%s%s%s", desc ? desc : id, fixes.len ? " " : "",
                     fixes.len ? _ ("Fixed in: ") : "", fixes.buf);
      _cleanup_free_ char *rule_id = xasprintf ("%s-%s", id, name);
      _cleanup_free_ char *short_text
        = xasprintf (_ ("%s %s vulnerability for %s package"), id,
                     ash_severity_name (sev), name);
      size_t ri = ash_deps_rule (run, rule_id, short_text, help,
                                 str (v, "dataSource"), sev, sc);
      json_t *loc0 = json_array_get (json_object_get (a, "locations"), 0);
      const char *path = str (loc0, "path") ?: ".";
      _cleanup_free_ char *msg = xasprintf (
        _ ("A %s vulnerability in %s package: %s, version %s was found at: "
           "%s"),
        ash_severity_name (sev), type, name, pver, path);
      json_t *res = ash_deps_result (run, rule_id, ri, sev, msg, path, 1);
      json_t *props = json_object_get (res, "properties");
      json_object_set_new (props, "vulnerability_id", json_string (id));
      json_object_set_new (props, "package_name", json_string (name));
      json_object_set_new (props, "package_version", json_string (pver));
      if (str (a, "purl"))
        json_object_set_new (props, "purl", json_string (str (a, "purl")));
      if (fixes.len)
        json_object_set_new (props, "fixed_versions", json_string (fixes.buf));
      ash_buf_release (&fixes);
    }
  /* VERSION may point into IN.  */
  ash_deps_sarif_normalise (doc, "grype", version, source_dir);
  json_decref (in);
  *ret_doc = doc;
  return 0;
}

static int
grype_parse (const struct ash_scanner *s _unused_,
             const struct ash_scan_job *job, const struct ash_cmd_result *res,
             json_t **ret_doc, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  int r;

  if (res->status != 0 && res->status != 2)
    return ash_error_set (err, -EIO, _ ("grype exited with status %d"),
                          res->status);
  _cleanup_free_ char *version
    = ash_deps_tool_version (job->tool_path, "--version", job->scope);
  r = ash_tree_read_file (job->results_fd, GRYPE_JSON, job->max_output, &b,
                          err);
  if (r == 0)
    {
      if (b.len == 0)
        r = ash_error_set (err, -EINVAL,
                           _ ("grype wrote an empty report (%s)"), GRYPE_JSON);
      else
        r = ash_grype_json_to_sarif (b.buf, b.len, version, job->target,
                                     ret_doc, err);
      ash_buf_release (&b);
      return r;
    }
  if (r != -ENOENT)
    return r;
  r = ash_tree_read_file (job->results_fd, GRYPE_SARIF, job->max_output, &b,
                          err);
  if (r == -ENOENT)
    return ash_error_set (err, r, _ ("grype wrote no report (%s, %s)"),
                          GRYPE_JSON, GRYPE_SARIF);
  if (r == 0)
    {
      r = ash_sarif_parse (b.buf, b.len, ret_doc, err);
      if (r < 0)
        ash_error_prefix (err, "%s", GRYPE_SARIF);
      else
        ash_deps_sarif_normalise (*ret_doc, "grype", version, job->target);
    }
  ash_buf_release (&b);
  return r;
}

const struct ash_scanner ash_scanner_grype = {
  .name = "grype",
  .tool = "grype",
  .install_hint = "a release binary from "
                  "https://github.com/anchore/grype/releases",
  .description = "vulnerability scanner for dependencies",
  .build = grype_build,
  .parse = grype_parse,
  .check_options = grype_check_options,
};
