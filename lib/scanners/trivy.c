/* SPDX-License-Identifier: Apache-2.0 */
/* trivy.c -- the trivy-repo adapter.

   trivy-repo ships as a plugin module file (data/plugins/trivy-repo.yaml)
   whose "adapter: trivy-repo" hands its command line and output to this
   code.  It shares the builtin trivy's sandbox declaration: a network,
   trivy's database cache and the TRIVY_ variables.

   "trivy repository --format sarif --output RESULTS/trivy-repo.sarif
   --cache-backend=memory --skip-db-update --skip-java-db-update
   --cache-dir CACHE --config CONFIG --ignorefile IGNORE --secret-config
   SECRET --module-dir MODULES --scanners LIST [--license-full]
   [--ignore-unfixed] [--disable-telemetry] [--severity LIST]
   [--skip-files P]... [--skip-dirs P]... TARGET", run from the scanner
   run's own directory outside the tree (never the scanned tree, where a
   trivy.yaml or .trivyignore would apply).  CONFIG, IGNORE, SECRET and
   MODULES are ash's own empty files and directory unless the operator's
   config_file, ignore_file, secret_config_file or module_dir passes the
   tier rule.  ash updates the database and the misconfiguration checks
   bundle itself before the scan (lib/scan/dbphase.c), so the scan always
   runs with --skip-check-update; the scan cache stays in memory because trivy
   would otherwise open a database in a cache it may only read.  */

#include <config.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "fs/tree.h"
#include "sandbox/scanner-reqs.h"
#include "scanners/adapter.h"
#include "scanners/deps-common.h"
#include "scanners/scanner.h"

#define TRIVY_SARIF "trivy-repo.sarif"

extern char **environ;

static const char *const trivy_options[] = {
  "scanners",          "license_full", "ignore_unfixed",
  "disable_telemetry", "offline",      "severity_threshold",
  "config_file",       "ignore_file",  "secret_config_file",
  "module_dir",        NULL,
};

/* The file option KEY: the operator's when the tier rule lets it apply,
   else ash's own EMPTY (written in the run directory).  */
static int
file_option (const struct ash_scan_job *job, const char *key,
             const char *own_name, const char *own_body, bool dir, char **ret,
             struct ash_error *err)
{
  const char *v = NULL;
  _cleanup_free_ char *why = NULL;
  int r = ash_adapter_get_string (job->name, job->options, key, true, &v, err);
  *ret = NULL;
  if (r == 0 && v)
    r = ash_deps_option_file (job, key, v, ret, &why, err);
  if (r < 0)
    return r;
  if (why)
    ash_warning ("%s", why);
  if (*ret)
    return 0;
  if (dir)
    {
      _cleanup_free_ char *p = ash_path_join (job->run_config_dir, own_name);
      if (mkdir (p, 0755) < 0)
        return ash_error_set (err, -errno, _ ("cannot make %s: %s"), p,
                              strerror (errno));
      *ret = TAKE_PTR (p);
      return 0;
    }
  return ash_adapter_write_run_file (job, own_name, own_body, ret, err);
}

int
ash_trivy_repo_argv (const struct ash_scan_job *job, const char *cache,
                     const char *config, const char *ignore,
                     const char *secret, const char *modules,
                     struct ash_strvec *argv, struct ash_error *err)
{
  bool license_full, ignore_unfixed, telemetry_off, offline;
  const char *sev = NULL;
  int r = ash_deps_options_check (job->name, job->options, trivy_options, err);
  if (r == 0)
    r = ash_adapter_get_bool (job->name, job->options, "license_full", true,
                              &license_full, err);
  if (r == 0)
    r = ash_adapter_get_bool (job->name, job->options, "ignore_unfixed", true,
                              &ignore_unfixed, err);
  if (r == 0)
    r = ash_adapter_get_bool (job->name, job->options, "disable_telemetry",
                              true, &telemetry_off, err);
  if (r == 0)
    r = ash_adapter_get_bool (job->name, job->options, "offline", false,
                              &offline, err);
  if (r == 0)
    r = ash_adapter_get_string (job->name, job->options, "severity_threshold",
                                true, &sev, err);
  if (r < 0)
    return r;

  struct ash_buf sc = ASH_BUF_INIT;
  json_t *list = json_object_get (job->options, "scanners");
  static const char *const kinds[]
    = { "vuln", "secret", "misconfig", "license", NULL };
  if (list == NULL)
    ash_buf_addstr (&sc, "vuln,secret,misconfig,license");
  else if (!json_is_array (list))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.trivy-repo.options.scanners must be a "
                             "list"));
  size_t i;
  json_t *e;
  json_array_foreach (list, i, e)
    {
      const char *k = json_string_value (e);
      if (k == NULL || !ash_strv_contains ((char *const *) kinds, k))
        {
          ash_buf_release (&sc);
          return ash_error_set (err, -EINVAL,
                                _ ("scanners.trivy-repo.options.scanners: "
                                   "unknown kind '%s' (known: vuln, secret, "
                                   "misconfig, license)"),
                                k ? k : "?");
        }
      ash_buf_addf (&sc, "%s%s", sc.len ? "," : "", k);
    }
  static const char *const sevs[][2] = {
    { "ALL", NULL },
    { "LOW", "LOW,MEDIUM,HIGH,CRITICAL" },
    { "MEDIUM", "MEDIUM,HIGH,CRITICAL" },
    { "HIGH", "HIGH,CRITICAL" },
    { "CRITICAL", "CRITICAL" },
  };
  const char *sev_list = NULL;
  bool sev_ok = sev == NULL;
  for (size_t k = 0; sev && k < ARRAY_SIZE (sevs); k++)
    if (streq (sev, sevs[k][0]))
      sev_ok = true, sev_list = sevs[k][1];
  if (!sev_ok)
    {
      ash_buf_release (&sc);
      return ash_error_set (err, -EINVAL,
                            _ (
                              "scanners.trivy-repo.options.severity_threshold "
                              "must be one of ALL, LOW, MEDIUM, HIGH, "
                              "CRITICAL, not '%s'"),
                            sev);
    }

  ash_strvec_push (argv, job->tool_path);
  ash_strvec_push (argv, "repository");
  ash_strvec_push (argv, "--format");
  ash_strvec_push (argv, "sarif");
  ash_strvec_push (argv, "--output");
  ash_strvec_pushf (argv, "%s/%s", job->results_dir, TRIVY_SARIF);
  ash_strvec_push (argv, "--cache-backend=memory");
  ash_strvec_push (argv, "--skip-db-update");
  ash_strvec_push (argv, "--skip-java-db-update");
  if (cache)
    {
      ash_strvec_push (argv, "--cache-dir");
      ash_strvec_push (argv, cache);
    }
  ash_strvec_push (argv, "--config");
  ash_strvec_push (argv, config);
  ash_strvec_push (argv, "--ignorefile");
  ash_strvec_push (argv, ignore);
  ash_strvec_push (argv, "--secret-config");
  ash_strvec_push (argv, secret);
  ash_strvec_push (argv, "--module-dir");
  ash_strvec_push (argv, modules);
  ash_strvec_push (argv, "--scanners");
  ash_strvec_push (argv, sc.buf);
  ash_buf_release (&sc);
  if (license_full)
    ash_strvec_push (argv, "--license-full");
  if (ignore_unfixed)
    ash_strvec_push (argv, "--ignore-unfixed");
  if (telemetry_off)
    ash_strvec_push (argv, "--disable-telemetry");
  if (sev_list)
    {
      ash_strvec_push (argv, "--severity");
      ash_strvec_push (argv, sev_list);
    }
  if (offline || job->offline)
    ash_strvec_push (argv, "--offline-scan");
  /* Online, ash fetched the checks bundle into the cache before the scan
     (lib/scan/dbphase.c); the sandboxed trivy only reads it.  */
  ash_strvec_push (argv, "--skip-check-update");
  for (char *const *x = job->excluded_paths; x && *x; x++)
    {
      const char *p = *x;
      size_t n = strlen (job->target);
      if (p[0] == '/')
        {
          if (strneq (p, job->target, n) && p[n] == '/')
            {
              ash_strvec_push (argv, "--skip-dirs");
              ash_strvec_push (argv, p + n + 1);
            }
          continue;
        }
      ash_strvec_push (argv, "--skip-files");
      ash_strvec_push (argv, p);
    }
  struct ash_strvec ign = ASH_STRVEC_INIT;
  ash_deps_ignore_paths (job, &ign);
  for (size_t k = 0; r == 0 && k < ign.nr; k++)
    {
      const char *p = ign.v[k];
      if (strchr (p, ',') || strchr (p, '"') || strchr (p, '\n'))
        r = ash_error_set (err, -EINVAL,
                           _ (
                             "trivy's --skip-dirs cannot name the ignore path "
                             "'%s': it holds a comma, a quote or a line "
                             "break"),
                           p);
      else
        {
          while (p[0] == '.' && p[1] == '/')
            p += 2;
          ash_strvec_push (argv, "--skip-dirs");
          ash_strvec_push (argv, p);
          ash_strvec_push (argv, "--skip-files");
          ash_strvec_push (argv, p);
        }
    }
  ash_strvec_release (&ign);
  if (r == 0)
    ash_strvec_push (argv, job->target);
  return r;
}

/* scanners.trivy-repo.options, checked before the scan and by `config
   validate`: every check trivy_build makes of the options alone, in its
   order (the types of config_file, ignore_file, secret_config_file and
   module_dir, then the option names, the booleans, severity_threshold
   and scanners through ash_trivy_repo_argv itself, with a placeholder
   job).  What depends on the scanned tree, the configuration or this
   machine stays at scan time: the files and the directory those options
   name (the option-file rule judges each one), the ignore_paths trivy's
   --skip-dirs cannot name, the run directory and trivy's cache.  */
static int
trivy_check_options (const json_t *options, struct ash_error *err)
{
  static const char *const files[]
    = { "config_file", "ignore_file", "secret_config_file", "module_dir" };
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  struct ash_scan_job job = ASH_DEPS_CHECK_JOB ("trivy-repo", options);
  const char *v;
  int r = 0;
  for (size_t i = 0; r == 0 && i < ARRAY_SIZE (files); i++)
    r = ash_adapter_get_string ("trivy-repo", options, files[i], true, &v,
                                err);
  if (r == 0)
    r = ash_trivy_repo_argv (&job, "/", "/dev/null", "/dev/null", "/dev/null",
                             "/", &argv, err);
  return r;
}

static int
trivy_build (const struct ash_scanner *s _unused_,
             const struct ash_scan_job *job, struct ash_cmd *cmd,
             struct ash_error *err)
{
  _cleanup_free_ char *config = NULL, *ignore = NULL, *secret = NULL;
  _cleanup_free_ char *modules = NULL;
  if (job->run_config_dir == NULL)
    return ash_error_set (err, -EINVAL,
                          _ ("trivy-repo: no run directory to run from"));
  int r = file_option (job, "config_file", "trivy.yaml",
                       "# the empty trivy config ash gives trivy\n", false,
                       &config, err);
  if (r == 0)
    r = file_option (job, "ignore_file", "trivyignore", "", false, &ignore,
                     err);
  if (r == 0)
    r = file_option (job, "secret_config_file", "trivy-secret.yaml",
                     "# the empty trivy secret config ash gives trivy\n",
                     false, &secret, err);
  if (r == 0)
    r = file_option (job, "module_dir", "trivy-modules", NULL, true, &modules,
                     err);
  if (r < 0)
    return r;
  _cleanup_free_ char *cache
    = ash_scanner_db_cache_dir ("trivy-repo", environ, getenv ("HOME"), NULL);
  if (cache == NULL)
    return ash_error_set (err, -EINVAL, "%s", ash_db_cache_unknown ("trivy"));
  r = ash_trivy_repo_argv (job, cache, config, ignore, secret, modules,
                           &cmd->argv, err);
  if (r < 0)
    return r;
  if (cache)
    ash_strvec_setenv (&cmd->env, "TRIVY_CACHE_DIR", cache);
  /* Never the scanned tree, where trivy would read trivy.yaml and
     .trivyignore.  */
  cmd->cwd = xstrdup (job->run_config_dir);
  return 0;
}

static int
trivy_parse (const struct ash_scanner *s _unused_,
             const struct ash_scan_job *job, const struct ash_cmd_result *res,
             json_t **ret_doc, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  int r = ash_tree_read_file (job->results_fd, TRIVY_SARIF, job->max_output,
                              &b, err);
  if (r == -ENOENT)
    return ash_error_set (err, r,
                          _ ("trivy exited with status %d and wrote no report "
                             "(%s)"),
                          res->status, TRIVY_SARIF);
  if (r < 0)
    return r;
  if (res->status != 0)
    r = ash_error_set (err, -EIO, _ ("trivy exited with status %d (%s)"),
                       res->status, TRIVY_SARIF);
  else if (b.len == 0)
    r = ash_error_set (err, -EINVAL, _ ("trivy wrote an empty report (%s)"),
                       TRIVY_SARIF);
  else
    {
      r = ash_sarif_parse (b.buf, b.len, ret_doc, err);
      if (r < 0)
        ash_error_prefix (err, "%s", TRIVY_SARIF);
    }
  ash_buf_release (&b);
  if (r < 0)
    return r;
  _cleanup_free_ char *version
    = ash_deps_tool_version (job->tool_path, NULL, job->scope);
  ash_deps_sarif_normalise (*ret_doc, "trivy", version, job->target);
  return 0;
}

const struct ash_scanner ash_scanner_trivy_repo = {
  .name = "trivy-repo",
  .tool = "trivy",
  .install_hint = "a release binary from "
                  "https://github.com/aquasecurity/trivy/releases",
  .description = "trivy repository scan: vulnerabilities, secrets, "
                 "misconfigurations, licenses",
  .build = trivy_build,
  .parse = trivy_parse,
  .check_options = trivy_check_options,
};

const struct ash_scanner *
ash_scanner_adapter (const char *name)
{
  if (streq (name, "trivy-repo"))
    return &ash_scanner_trivy_repo;
  return NULL;
}
