/* SPDX-License-Identifier: Apache-2.0 */
/* bandit.c -- the bandit adapter.

   Debian's bandit (1.6) has no SARIF formatter, so ash runs
   "bandit -r -f json -o RESULTS/bandit.json TARGET" and maps the JSON
   report to SARIF 2.1.0 itself.  A bandit whose --help lists "sarif"
   among its formats writes SARIF directly.  bandit exits 1 when it found
   issues: that is a successful scan.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <pthread.h>
#include <strings.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "sandbox/backend.h"
#include "sandbox/probe-cache.h"
#include "scan/sarif.h"
#include "scanners/adapter.h"
#include "scanners/scanner.h"

#define BANDIT_JSON "bandit.json"
#define BANDIT_SARIF "bandit.sarif"
#define BANDIT_INI "bandit.ini"

/* Upstream ASH's bandit options that ash builds (excluded_paths is
   checked on its own: strings or mappings with a path).  */
static const char *const confidence_levels[] = {
  "all", "low", "medium", "high", NULL,
};

static const struct ash_option_spec bandit_options[] = {
  { "config_file", ASH_OPTION_STRING, NULL },
  { "confidence_level", ASH_OPTION_STRING, confidence_levels },
  { "ignore_nosec", ASH_OPTION_BOOL, NULL },
  { "skips", ASH_OPTION_STRLIST, NULL },
  { "tests", ASH_OPTION_STRLIST, NULL },
  { NULL, 0, NULL },
};

static bool
no_comma (const char *path, const void *arg _unused_)
{
  return strchr (path, ',') == NULL;
}

static int
bandit_check_excluded (const json_t *options, struct ash_error *err)
{
  struct ash_opt_list l = { .with_reason = true, .valid = no_comma };

  if (ash_adapter_opt_list (options, "excluded_paths", &l, NULL) == 0)
    return 0;
  if (l.fault == ASH_OPT_LIST_NOT_LIST)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.bandit.options.excluded_paths must be "
                             "a list of paths, or of mappings with path and "
                             "reason"));
  if (l.fault == ASH_OPT_LIST_BAD_ITEM)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.bandit.options.excluded_paths[%zu] "
                             "must be a path, or a mapping with path and "
                             "reason"),
                          l.index);
  return ash_error_set (err, -EINVAL,
                        _ ("scanners.bandit.options.excluded_paths[%zu]: "
                           "bandit cannot exclude a path with a comma"),
                        l.index);
}

static int
bandit_check_options (const json_t *options, struct ash_error *err)
{
  if (options == NULL || json_is_null (options))
    return 0;
  if (!json_is_object (options))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.bandit.options must be a mapping"));
  int r = ash_adapter_check_install_options ("bandit", options, true, err);
  if (r < 0)
    return r;
  json_t *v = json_object_get (options, "additional_formats");
  if (v && !json_is_null (v)
      && !(json_is_array (v) && json_array_size (v) == 0))
    return ash_error_set (err, -ENOTSUP,
                          _ ("scanners.bandit.options.additional_formats is "
                             "not supported: ash keeps bandit's SARIF (or "
                             "JSON) report only"));
  r = bandit_check_excluded (options, err);
  if (r < 0)
    return r;
  static const char *const lists[] = { "skips", "tests" };
  for (size_t k = 0; k < ARRAY_SIZE (lists); k++)
    {
      size_t i;
      json_t *e;
      json_array_foreach (json_object_get (options, lists[k]), i, e)
        {
          const char *id = json_string_value (e);
          bool good = id && *id;
          for (const char *c = id; good && *c; c++)
            good = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')
                   || (*c >= '0' && *c <= '9') || *c == '_';
          if (!good)
            return ash_error_set (err, -EINVAL,
                                  _ ("bandit: scanners.bandit.options.%s "
                                     "must list test ids such as B101"),
                                  lists[k]);
        }
    }
  json_t *copy = json_copy ((json_t *) options);
  json_object_del (copy, "excluded_paths");
  json_object_del (copy, "additional_formats");
  json_object_del (copy, "tool_version");
  json_object_del (copy, "install_timeout");
  r = ash_adapter_check_options ("bandit", copy, bandit_options, err);
  json_decref (copy);
  return r;
}

/* Whether this bandit has a SARIF formatter: asked once per tool path.  */
static pthread_mutex_t sarif_lock = PTHREAD_MUTEX_INITIALIZER;
static char *sarif_tool;
static bool sarif_supported;

static bool
help_lists_sarif (const char *help)
{
  const char *p = strstr (help, "--format {");
  if (p == NULL)
    return false;
  const char *end = strchr (p, '}');
  const char *s = strstr (p, "sarif");
  return s != NULL && end != NULL && s < end;
}

static int
bandit_prepare (const struct ash_scanner *s _unused_,
                const struct ash_scan_job *job, struct ash_error *err _unused_)
{
  struct ash_cmd_result res;
  struct ash_error perr = ASH_ERROR_INIT;

  pthread_mutex_lock (&sarif_lock);
  if (sarif_tool && streq (sarif_tool, job->tool_path))
    {
      pthread_mutex_unlock (&sarif_lock);
      return 0;
    }
  /* Kept across runs: a second Python start costs as much as a small
     scan.  */
  _cleanup_free_ char *cached
    = ash_tool_cache_load ("bandit", job->tool_path, "sarif");
  if (cached && (streq (cached, "yes") || streq (cached, "no")))
    {
      free (sarif_tool);
      sarif_tool = xstrdup (job->tool_path);
      sarif_supported = streq (cached, "yes");
      pthread_mutex_unlock (&sarif_lock);
      return 0;
    }
  char *const argv[] = { (char *) job->tool_path, (char *) "--help", NULL };
  _cleanup_free_ char *out = NULL;
  bool ran = ash_adapter_probe_run (job, argv, 60, &out, &res, &perr) == 0;
  bool supported = ran && help_lists_sarif (out);
  /* Only an answer from a run that printed its help: a probe that could
     not start says nothing about the tool.  */
  if (ran && res.status == 0 && !res.timed_out && !res.interrupted)
    ash_tool_cache_store ("bandit", job->tool_path, "sarif",
                          supported ? "yes" : "no");
  free (sarif_tool);
  sarif_tool = xstrdup (job->tool_path);
  sarif_supported = supported;
  pthread_mutex_unlock (&sarif_lock);
  ash_error_release (&perr);
  return 0;
}

static bool
use_sarif (const struct ash_scan_job *job)
{
  bool r;
  pthread_mutex_lock (&sarif_lock);
  r = sarif_tool && streq (sarif_tool, job->tool_path) && sarif_supported;
  pthread_mutex_unlock (&sarif_lock);
  return r;
}

static int
bandit_build (const struct ash_scanner *s _unused_,
              const struct ash_scan_job *job, struct ash_cmd *cmd,
              struct ash_error *err)
{
  int r = bandit_check_options (job->options, err);
  if (r < 0)
    return r;
  bool sarif = use_sarif (job);
  _cleanup_free_ char *out
    = ash_path_join (job->results_dir, sarif ? BANDIT_SARIF : BANDIT_JSON);

  /* config_file names a file bandit reads its skips and tests from: the
     option-file rule decides whether bandit gets it.  */
  json_t *options = json_incref ((json_t *) job->options);
  const char *cfg
    = json_string_value (json_object_get (options, "config_file"));
  if (cfg && *cfg)
    {
      _cleanup_free_ char *why = NULL;
      struct ash_error ferr = ASH_ERROR_INIT;
      int ok = ash_scan_job_option_file (job, "config_file", cfg, &why, &ferr);
      if (ok <= 0)
        {
          ash_warning ("bandit: %s",
                       ok < 0 ? (ferr.message ? ferr.message : "") : why);
          json_t *copy = json_copy (options);
          json_object_del (copy, "config_file");
          json_decref (options);
          options = copy;
        }
      ash_error_release (&ferr);
    }
  r = ash_bandit_argv (job->tool_path, options, job->excluded_paths,
                       sarif ? "sarif" : "json", out, job->target, &cmd->argv,
                       err);
  json_decref (options);
  if (r < 0)
    return r;
  if (job->run_config_dir == NULL)
    return ash_error_set (err, -EINVAL,
                          _ ("bandit: no run directory for its --ini file"));

  /* Without --ini, bandit walks its target for a .bandit file and takes
     its skips, tests, exclusions and targets: a repository could turn
     bandit's checks off.  Give it an empty one of ASH's own.  */
  _cleanup_free_ char *ini = ash_path_join (job->run_config_dir, BANDIT_INI);
  static const char body[] = "[bandit]\n";
  int fd
    = open (ini, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    r = -errno;
  else
    {
      /* A short write is a failure too: bandit must never run with a
         truncated ini, nor without one.  */
      r = ash_write_all (fd, body, sizeof body - 1);
      if (close (fd) < 0 && r == 0 && errno != EINTR)
        r = -errno;
      if (r < 0)
        unlink (ini);
    }
  if (r < 0)
    return ash_error_set (err, r, _ ("cannot write %s: %s"), ini,
                          strerror (-r));
  ash_strvec_insert (&cmd->argv, 1, "--ini");
  ash_strvec_insert (&cmd->argv, 2, ini);
  return 0;
}

static int
bandit_parse (const struct ash_scanner *s _unused_,
              const struct ash_scan_job *job, const struct ash_cmd_result *res,
              json_t **ret_doc, struct ash_error *err)
{
  bool sarif = use_sarif (job);
  struct ash_buf b = ASH_BUF_INIT;
  int r;

  if (res->status != 0 && res->status != 1)
    return ash_error_set (err, -EIO, _ ("bandit exited with status %d"),
                          res->status);
  r = ash_adapter_read_output (job, sarif ? BANDIT_SARIF : BANDIT_JSON, &b,
                               err);
  if (r < 0)
    {
      ash_buf_release (&b);
      return r;
    }
  if (sarif)
    r = ash_sarif_parse (b.buf, b.len, ret_doc, err);
  else
    r = ash_bandit_json_to_sarif (b.buf, b.len, job->target, ret_doc, err);
  ash_buf_release (&b);
  return r;
}

const struct ash_scanner ash_scanner_bandit = {
  .name = "bandit",
  .tool = "bandit",
  .checks_tool_version = true,
  .install_hint = "apt-get install bandit",
  .description = "Python source code security linter",
  .build = bandit_build,
  .parse = bandit_parse,
  .prepare = bandit_prepare,
  .check_options = bandit_check_options,
};
