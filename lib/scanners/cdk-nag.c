/* SPDX-License-Identifier: Apache-2.0 */
/* cdk-nag.c -- the cdk-nag adapter.

   cdk-nag is a library, so ash runs a worker of its own
   (cdk-nag-worker.js, installed in pkglibexecdir) with node, as the
   scanner's command and so under the scanner's sandbox, never inside
   ash:

     node WORKER --modules MODDIR --out RESULTS/cdk-nag-out
       --packs AwsSolutionsChecks[,...] -- TEMPLATE...

   run in the source directory with the CloudFormation templates of the
   scan set relative to it.  MODDIR, the node_modules directory holding
   aws-cdk-lib and cdk-nag, is $ASH_CDK_NAG_MODULES when set (the sandbox
   mounts it read-only), else npm's global directory.  The packs are
   upstream ASH's nag_packs: AwsSolutionsChecks by default, the HIPAA,
   NIST 800-53 R4 and R5 and PCI DSS 3.2.1 packs by option.  The worker
   writes cdk-nag's NagReport CSV files per template and a manifest;
   their Non-Compliant rows are the findings (rule level Error: HIGH,
   Warning: MEDIUM), located at the line of the resource's logical id in
   the template.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/strvec.h"
#include "base/util.h"
#include "fs/tree.h"
#include "proc/toolfind.h"
#include "scanners/adapter.h"
#include "scanners/iac-common.h"

#define CDK_NAG_OUT "cdk-nag-out"
#define CDK_NAG_WORKER "cdk-nag-worker.js"
#define CDK_NAG_URI "https://github.com/cdklabs/cdk-nag"

static const char *const cdk_nag_options[] = {
  "nag_packs",
  "tool_version",
  "install_timeout",
  NULL,
};

static const char *const cdk_nag_packs[] = {
  "AwsSolutionsChecks", "HIPAASecurityChecks", "NIST80053R4Checks",
  "NIST80053R5Checks",  "PCIDSS321Checks",     NULL,
};

/* The node_modules directory holding cdk-nag: ASH_CDK_NAG_MODULES, else
   the one "ash dependencies install" fills (PREFIX/lib/node_modules for
   each entry PREFIX/bin of ASH's bin directory BIN_PATH), else npm's
   global ones.  */
static char *
modules_dir (const char *bin_path)
{
  const char *env = getenv ("ASH_CDK_NAG_MODULES");
  static const char *const global[]
    = { "/usr/local/lib/node_modules", "/usr/lib/node_modules", NULL };
  if (env && *env)
    return xstrdup (env);
  if (bin_path)
    {
      _cleanup_free_ char *list = xstrdup (bin_path);
      for (char *save = NULL, *d = strtok_r (list, ":", &save); d;
           d = strtok_r (NULL, ":", &save))
        {
          size_t n = strlen (d);
          while (n > 1 && d[n - 1] == '/')
            d[--n] = '\0';
          if (d[0] != '/' || n < 5 || !streq (d + n - 4, "/bin"))
            continue;
          _cleanup_free_ char *mods
            = xasprintf ("%.*s/lib/node_modules", (int) (n - 4), d);
          _cleanup_free_ char *p = ash_path_join (mods, "cdk-nag");
          if (access (p, R_OK) == 0)
            return xstrdup (mods);
        }
    }
  for (size_t i = 0; global[i]; i++)
    {
      _cleanup_free_ char *p = ash_path_join (global[i], "cdk-nag");
      if (access (p, R_OK) == 0)
        return xstrdup (global[i]);
    }
  return xstrdup (global[0]);
}

int
ash_cdk_nag_argv (const char *node, const char *worker, const char *modules,
                  const json_t *options, const char *out,
                  char *const *templates, struct ash_strvec *argv,
                  struct ash_error *err)
{
  struct ash_buf packs = ASH_BUF_INIT;
  int r = ash_iac_check_options ("cdk-nag", options, cdk_nag_options, err);
  if (r == 0)
    r = ash_adapter_check_install_options ("cdk-nag", options, false, err);
  if (r < 0)
    return r;
  json_t *np = json_object_get (options, "nag_packs");
  if (np && !json_is_null (np) && !json_is_object (np))
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.cdk-nag.options.nag_packs must be a "
                             "mapping of rule pack names to true or false"));
  const char *key;
  json_t *v;
  json_object_foreach (np, key, v)
    {
      bool known = false;
      for (size_t i = 0; cdk_nag_packs[i]; i++)
        known = known || streq (cdk_nag_packs[i], key);
      if (!known)
        return ash_error_set (err, -EINVAL,
                              _ ("scanners.cdk-nag.options.nag_packs.%s is "
                                 "not a cdk-nag rule pack"),
                              key);
      if (!json_is_boolean (v))
        return ash_error_set (err, -EINVAL,
                              _ ("scanners.cdk-nag.options.nag_packs.%s must "
                                 "be true or false"),
                              key);
    }
  for (size_t i = 0; cdk_nag_packs[i]; i++)
    {
      json_t *on = json_object_get (np, cdk_nag_packs[i]);
      bool enabled = on ? json_is_true (on) : i == 0;
      if (enabled)
        ash_buf_addf (&packs, "%s%s", packs.len ? "," : "", cdk_nag_packs[i]);
    }
  if (packs.len == 0)
    return ash_error_set (err, -EINVAL,
                          _ ("scanners.cdk-nag.options.nag_packs turns every "
                             "rule pack off"));
  ash_strvec_push (argv, node);
  ash_strvec_push (argv, worker);
  ash_strvec_push (argv, "--modules");
  ash_strvec_push (argv, modules);
  ash_strvec_push (argv, "--out");
  ash_strvec_push (argv, out);
  ash_strvec_push (argv, "--packs");
  ash_strvec_push_nodup (argv, ash_buf_detach (&packs));
  ash_strvec_push (argv, "--");
  for (size_t i = 0; templates && templates[i]; i++)
    ash_strvec_push (argv, templates[i]);
  return 0;
}

/* scanners.cdk-nag.options, checked before the scan and by `config
   validate`: through ash_cdk_nag_argv itself (placeholder paths, no
   template), which makes every check of the options cdk_nag_build makes;
   nothing of them depends on the scanned tree.  */
static int
cdk_nag_check_options (const json_t *options, struct ash_error *err)
{
  _cleanup_strvec_ struct ash_strvec argv = ASH_STRVEC_INIT;
  return ash_cdk_nag_argv ("node", "/", "/", options, "/", NULL, &argv, err);
}

static int
cdk_nag_build (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job, struct ash_cmd *cmd,
               struct ash_error *err)
{
  struct ash_strvec templates = ASH_STRVEC_INIT;
  _cleanup_free_ char *worker = ash_helper_file (CDK_NAG_WORKER);
  _cleanup_free_ char *modules = modules_dir (job->bin_path);
  _cleanup_free_ char *out = ash_path_join (job->results_dir, CDK_NAG_OUT);
  /* A configuration error is told before a missing worker.  */
  int r = cdk_nag_check_options (job->options, err);
  if (r == 0 && worker == NULL)
    r = ash_error_set (err, -ENOENT,
                       _ ("cdk-nag's worker %s is not installed in %s"),
                       CDK_NAG_WORKER, PKGLIBEXECDIR);
  if (r == 0)
    r = ash_iac_cfn_templates (job, &templates, err);
  if (r == 0)
    r = ash_cdk_nag_argv (job->tool_path, worker, modules, job->options, out,
                          templates.v, &cmd->argv, err);
  if (r == 0 && templates.nr == 0)
    {
      r = ash_iac_mark_no_input (job, err);
      ash_strvec_clear (&cmd->argv);
      ash_strvec_push (&cmd->argv, job->tool_path);
      ash_strvec_push (&cmd->argv, "--version");
    }
  if (r == 0)
    cmd->cwd = xstrdup (job->target);
  ash_strvec_release (&templates);
  return r;
}

/* Split one CSV record LINE into FIELDS (RFC 4180 quoting).  */
static void
csv_fields (const char *line, struct ash_strvec *fields)
{
  const char *p = line;
  for (;;)
    {
      struct ash_buf b = ASH_BUF_INIT;
      if (*p == '"')
        {
          p++;
          while (*p && !(*p == '"' && p[1] != '"'))
            {
              if (*p == '"')
                p++;
              ash_buf_addch (&b, *p++);
            }
          if (*p == '"')
            p++;
        }
      while (*p && *p != ',')
        ash_buf_addch (&b, *p++);
      ash_strvec_push_nodup (fields,
                             b.buf ? ash_buf_detach (&b) : xstrdup (""));
      if (*p != ',')
        break;
      p++;
    }
}

/* The line of logical id ID in the template REL (0: not found).  */
static long
logical_id_line (const struct ash_scan_job *job, const char *rel,
                 const char *id)
{
  struct ash_buf b = ASH_BUF_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  long found = 0, n = 1;
  _cleanup_close_ int src
    = open (job->target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  _cleanup_free_ char *yaml = xasprintf ("%s:", id);
  _cleanup_free_ char *json = xasprintf ("\"%s\"", id);
  if (src >= 0 && ash_tree_read_file (src, rel, 64u << 20, &b, &e) == 0)
    for (char *p = b.buf; p && *p && !found; n++)
      {
        char *nl = strchr (p, '\n');
        if (nl)
          *nl = '\0';
        char *q = p + strspn (p, " \t");
        if (strneq (q, yaml, strlen (yaml)) || strneq (q, json, strlen (json)))
          found = n;
        p = nl ? nl + 1 : NULL;
      }
  ash_buf_release (&b);
  ash_error_release (&e);
  return found;
}

static int
add_report (const struct ash_scan_job *job, json_t *run, const char *rel,
            const char *report, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  int r = ash_iac_read_output ("cdk-nag", job, report, &b, err);
  if (r < 0)
    {
      ash_buf_release (&b);
      return r;
    }
  /* Its fields become SARIF strings, which must be UTF-8.  */
  json_t *utf8 = json_stringn (b.buf, b.len);
  if (utf8 == NULL)
    {
      ash_buf_release (&b);
      return ash_error_set (err, -EINVAL,
                            _ ("%s is not a cdk-nag NagReport (not UTF-8 "
                               "text)"),
                            report);
    }
  json_decref (utf8);
  char *p = b.buf;
  bool header = true;
  while (p && *p)
    {
      char *nl = strchr (p, '\n');
      if (nl)
        *nl = '\0';
      size_t len = strlen (p);
      if (len && p[len - 1] == '\r')
        p[len - 1] = '\0';
      struct ash_strvec f = ASH_STRVEC_INIT;
      csv_fields (p, &f);
      if (header)
        {
          if (f.nr < 6 || !streq (f.v[0], "Rule ID"))
            {
              ash_strvec_release (&f);
              ash_buf_release (&b);
              return ash_error_set (err, -EINVAL,
                                    _ ("%s is not a cdk-nag NagReport"),
                                    report);
            }
          header = false;
        }
      else if (*p && f.nr < 6)
        {
          ash_strvec_release (&f);
          ash_buf_release (&b);
          return ash_error_set (err, -EINVAL,
                                _ ("%s: a row has %zu fields, not 6"), report,
                                f.nr);
        }
      else if (*p && streq (f.v[2], "Non-Compliant"))
        {
          const char *slash = strrchr (f.v[1], '/');
          const char *lid = slash ? slash + 1 : f.v[1];
          long line = logical_id_line (job, rel, lid);
          enum ash_severity sev = streq (f.v[4], "Error")
                                    ? ASH_SEVERITY_HIGH
                                    : ASH_SEVERITY_MEDIUM;
          ash_iac_run_rule (run, f.v[0], f.v[0], f.v[5],
                            CDK_NAG_URI "/blob/main/RULES.md");
          _cleanup_free_ char *msg = xasprintf ("%s (%s)", f.v[5], lid);
          ash_iac_run_result (run, f.v[0], msg, rel, job->target, line, line,
                              sev);
        }
      ash_strvec_release (&f);
      p = nl ? nl + 1 : NULL;
    }
  ash_buf_release (&b);
  if (header)
    return ash_error_set (err, -EINVAL, _ ("%s is not a cdk-nag NagReport"),
                          report);
  return 0;
}

static int
cdk_nag_parse (const struct ash_scanner *s _unused_,
               const struct ash_scan_job *job,
               const struct ash_cmd_result *res, json_t **ret_doc,
               struct ash_error *err)
{
  json_t *manifest = NULL;
  size_t i, j;
  json_t *t, *rep;
  int r = 0;

  if (res->status != 0)
    return ash_error_set (err, -EIO,
                          _ ("cdk-nag's worker exited with status %d"),
                          res->status);
  json_t *doc = ash_sarif_doc_new ();
  json_t *run = ash_iac_run_new ("cdk-nag", NULL, CDK_NAG_URI);
  json_array_append_new (json_object_get (doc, "runs"), run);
  if (ash_iac_no_input (job))
    {
      *ret_doc = doc;
      return 0;
    }
  r = ash_iac_read_json ("cdk-nag", job, CDK_NAG_OUT "/manifest.json",
                         &manifest, err);
  if (r == 0 && !json_is_array (json_object_get (manifest, "templates")))
    r = ash_error_set (err, -EINVAL, _ ("%s has no \"templates\" list"),
                       CDK_NAG_OUT "/manifest.json");
  json_array_foreach (json_object_get (manifest, "templates"), i, t)
    {
      if (r < 0)
        break;
      const char *rel = json_string_value (json_object_get (t, "template"));
      const char *dir = json_string_value (json_object_get (t, "dir"));
      const char *e = json_string_value (json_object_get (t, "error"));
      if (rel == NULL || dir == NULL || strchr (dir, '/') || streq (dir, "..")
          || !json_is_array (json_object_get (t, "reports")))
        {
          r = ash_error_set (err, -EINVAL, _ ("%s: entry %zu is malformed"),
                             CDK_NAG_OUT "/manifest.json", i);
          break;
        }
      if (e)
        {
          _cleanup_free_ char *pr = ash_iac_printable (rel);
          _cleanup_free_ char *pe = ash_iac_printable (e);
          r = ash_error_set (err, -EINVAL,
                             _ ("cdk-nag could not check %s: %s"), pr, pe);
          break;
        }
      json_array_foreach (json_object_get (t, "reports"), j, rep)
        {
          const char *name = json_string_value (rep);
          if (name == NULL || strchr (name, '/') || name[0] == '.')
            {
              r = ash_error_set (err, -EINVAL,
                                 _ ("%s: entry %zu names a report outside "
                                    "its directory"),
                                 CDK_NAG_OUT "/manifest.json", i);
              break;
            }
          _cleanup_free_ char *path
            = xasprintf ("%s/%s/%s", CDK_NAG_OUT, dir, name);
          r = add_report (job, run, rel, path, err);
          if (r < 0)
            break;
        }
    }
  json_decref (manifest);
  if (r < 0)
    {
      json_decref (doc);
      return r;
    }
  ash_iac_sarif_normalise (doc, "cdk-nag", NULL, CDK_NAG_URI, job->target,
                           NULL);
  *ret_doc = doc;
  return 0;
}

/* node is there; cdk-nag's modules must be too, else the scanner is
   MISSING with the command that installs them (the worker would only
   fail to load them).  */
static int
cdk_nag_prepare (const struct ash_scanner *s, const struct ash_scan_job *job,
                 struct ash_error *err)
{
  _cleanup_free_ char *modules = modules_dir (job->bin_path);
  static const char *const need[] = { "cdk-nag", "aws-cdk-lib", "constructs" };
  for (size_t i = 0; i < ARRAY_SIZE (need); i++)
    {
      _cleanup_free_ char *p = ash_path_join (modules, need[i]);
      if (access (p, R_OK) != 0)
        {
          int r = ash_error_set (err, -ENOENT,
                                 _ ("%s is not installed in %s (install it "
                                    "with: %s, or ash dependencies "
                                    "install)"),
                                 need[i], modules, s->install_hint);
          err->kind = ASH_KIND_SCANNER_MISSING;
          return r;
        }
    }
  return 0;
}

const struct ash_scanner ash_scanner_cdk_nag = {
  .name = "cdk-nag",
  .tool = "node",
  /* One project, not "npm install -g" (which would give cdk-nag a copy
     of aws-cdk-lib of its own), and cdk-nag 2, the version ash's worker
     drives (cdk-nag 3's rule packs fail there with "aspect.visit is not a
     function").  */
  .install_hint = "apt-get install nodejs npm && npm install --prefix "
                  "/usr/local/lib aws-cdk-lib@2 constructs@10 cdk-nag@2",
  .description = "AWS CDK and CloudFormation rule packs",
  .build = cdk_nag_build,
  .parse = cdk_nag_parse,
  .prepare = cdk_nag_prepare,
  .check_options = cdk_nag_check_options,
};
