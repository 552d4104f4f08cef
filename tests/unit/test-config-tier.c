/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for config-tier.c, detect-secrets-baseline.c and
   plugin-tier.c, on real directory trees.  */

#include <config.h>

#include "base/buf.h"
#include "config/config-tier.h"
#include "config/plugin-tier.h"
#include "config/sandbox-settings.h"
#include "scanners/detect-secrets-baseline.h"
#include "test-config-tier-fixture.h"

#if defined __has_include
#if __has_include(<sys/mount.h>) && __has_include(<sched.h>)
#include <sched.h>
#include <sys/mount.h>
#define TEST_HAVE_MOUNT 1
#endif
#endif

static const char *const tree_ops[] = {
  /* A checkout, and a linked worktree / submodule with a .git file.  */
  "g:co",
  "f:co/.ash/.ash.yaml",
  "G:wt",
  "f:wt/a.yaml",
  /* Outside every checkout.  */
  "f:out/op.yaml",
  "l:out/into-co.yaml>@/co/.ash/.ash.yaml",
  "l:co/out.yaml>@/out/op.yaml",
  /* An operator's own link that passes through a link in a checkout.  */
  "l:co/hop.yaml>@/out/op.yaml",
  "l:out/chain.yaml>@/co/hop.yaml",
  "l:out/rel-chain.yaml>../co/hop.yaml",
  "l:out/codir>@/co",
  "l:out/loop1>@/out/loop2",
  "l:out/loop2>@/out/loop1",
  /* A scanned directory outside any checkout (an extracted archive),
     reached through two links.  */
  "f:arch/.ash/.ash.yaml",
  "l:arch/.ash/escape.yaml>@/out/op.yaml",
  "l:archlink>@/arch",
  "l:pwdlink>@/arch",
  "f:other/x.yaml",
  NULL,
};

enum ctx_kind
{
  CTX_NONE,
  CTX_ALL,      /* archlink, arch, pwdlink */
  CTX_NAME,     /* only archlink */
  CTX_RESOLVED, /* only arch */
  CTX_PWD,      /* only pwdlink */
};

static const struct
{
  const char *title;
  const char *name;
  enum ctx_kind ctx;
  bool may_grant;
  const char *reason; /* "@" stands for the root */
} judge_cases[] = {
  { "outside everything", "out/op.yaml", CTX_ALL, true, NULL },
  { "in a checkout (.git directory)", "co/.ash/.ash.yaml", CTX_NONE, false,
    "@/co/.ash/.ash.yaml is inside the git checkout @/co" },
  { "in a checkout (.git file)", "wt/a.yaml", CTX_NONE, false,
    "@/wt/a.yaml is inside the git checkout @/wt" },
  { "a link outside that resolves into a checkout", "out/into-co.yaml",
    CTX_NONE, false,
    "@/out/into-co.yaml resolves to @/co/.ash/.ash.yaml, inside the git "
    "checkout @/co" },
  { "a link in a checkout that resolves outside", "co/out.yaml", CTX_NONE,
    false, "@/co/out.yaml is inside the git checkout @/co" },
  { "a path through a link in a checkout", "out/chain.yaml", CTX_NONE, false,
    "@/out/chain.yaml leads through the link @/co/hop.yaml, inside the git "
    "checkout @/co" },
  { "a relative link through a link in a checkout", "out/rel-chain.yaml",
    CTX_NONE, false,
    "@/out/rel-chain.yaml leads through the link @/co/hop.yaml, inside the "
    "git checkout @/co" },
  { "a directory link into a checkout", "out/codir/.ash/.ash.yaml", CTX_NONE,
    false,
    "@/out/codir/.ash/.ash.yaml is inside the git checkout @/out/codir" },
  { "a dot-dot spelling", "out/../co/.ash/.ash.yaml", CTX_NONE, false,
    "@/co/.ash/.ash.yaml is inside the git checkout @/co" },
  { "a missing file in a checkout", "co/missing.yaml", CTX_NONE, false,
    "@/co/missing.yaml is inside the git checkout @/co" },
  { "a missing file outside", "out/missing.yaml", CTX_NONE, true, NULL },
  { "scanned dir by its resolved path", "arch/.ash/.ash.yaml", CTX_RESOLVED,
    false, "@/arch/.ash/.ash.yaml is inside the scanned directory @/arch" },
  { "scanned dir by its name", "archlink/.ash/.ash.yaml", CTX_NAME, false,
    "@/archlink/.ash/.ash.yaml is inside the scanned directory @/archlink" },
  { "scanned dir by $PWD", "pwdlink/.ash/.ash.yaml", CTX_PWD, false,
    "@/pwdlink/.ash/.ash.yaml is inside the scanned directory @/pwdlink" },
  { "resolved file in the scanned dir, named by its link",
    "archlink/.ash/"
    ".ash.yaml",
    CTX_RESOLVED, false,
    "@/archlink/.ash/.ash.yaml resolves to @/arch/.ash/.ash.yaml, inside the "
    "scanned directory @/arch" },
  { "the scanned dir's link is met on the way", "pwdlink/.ash/.ash.yaml",
    CTX_NAME, false,
    "@/pwdlink/.ash/.ash.yaml resolves to @/arch/.ash/.ash.yaml, inside the "
    "scanned directory @/archlink" },
  { "a symlink out of the scanned dir still counts as inside",
    "archlink/.ash/escape.yaml", CTX_NAME, false,
    "@/archlink/.ash/escape.yaml is inside the scanned directory @/archlink" },
  { "the same link by $PWD only", "pwdlink/.ash/escape.yaml", CTX_PWD, false,
    "@/pwdlink/.ash/escape.yaml is inside the scanned directory @/pwdlink" },
  { "the same link by the resolved dir only", "archlink/.ash/escape.yaml",
    CTX_RESOLVED, false,
    "@/archlink/.ash/escape.yaml leads through the link "
    "@/arch/.ash/escape.yaml, inside the scanned directory @/arch" },
  { "a file beside the scanned dir", "other/x.yaml", CTX_ALL, true, NULL },
  { "a scanned dir outside a checkout does not taint a sibling", "out/op.yaml",
    CTX_ALL, true, NULL },
};

static char *
at_root (const char *s)
{
  if (!s)
    return NULL;
  char *out = xstrdup ("");
  for (const char *p = s; *p; p++)
    {
      char *n = *p == '@' ? xasprintf ("%s%s", out, fx_root)
                          : xasprintf ("%s%c", out, *p);
      free (out);
      out = n;
    }
  return out;
}

static struct ash_tier_context
ctx_of (enum ctx_kind k)
{
  static char *s[3];
  for (int i = 0; i < 3; i++)
    free (s[i]);
  s[0] = xstrdup (fx_path ("archlink"));
  s[1] = xstrdup (fx_path ("arch"));
  s[2] = xstrdup (fx_path ("pwdlink"));
  struct ash_tier_context c = { 0 };
  if (k == CTX_ALL || k == CTX_NAME)
    c.source_dir = s[0];
  if (k == CTX_ALL || k == CTX_RESOLVED)
    c.source_dir_resolved = s[1];
  if (k == CTX_ALL || k == CTX_PWD)
    c.pwd = s[2];
  return c;
}

static void
test_judge (void)
{
  for (size_t i = 0; i < ARRAY_SIZE (judge_cases); i++)
    {
      struct ash_tier_context ctx = ctx_of (judge_cases[i].ctx);
      bool may = !judge_cases[i].may_grant;
      char *reason = NULL;
      struct ash_error e = ASH_ERROR_INIT;
      int r = ash_config_tier_judge (fx_path (judge_cases[i].name), &ctx, &may,
                                     &reason, &e);
      _cleanup_free_ char *want = at_root (judge_cases[i].reason);
      tap_ok (r == 0 && may == judge_cases[i].may_grant, "%s: %s",
              judge_cases[i].title,
              judge_cases[i].may_grant ? "may grant" : "may not grant");
      tap_is_str (reason, want, "%s: reason", judge_cases[i].title);
      free (reason);
      ash_error_release (&e);
    }

  struct ash_tier_context ctx = ctx_of (CTX_ALL);
  bool may = true;
  char *reason = NULL;
  struct ash_error e = ASH_ERROR_INIT;
  int r
    = ash_config_tier_judge (fx_path ("out/loop1"), &ctx, &may, &reason, &e);
  tap_is_int (r, -ELOOP, "a link loop cannot be judged");
  ash_error_release (&e);
}

static void
test_context_fill (void)
{
  _cleanup_free_ char *old = getcwd (NULL, 0);
  const char *oldpwd = getenv ("PWD");
  _cleanup_free_ char *saved = oldpwd ? xstrdup (oldpwd) : NULL;
  char *storage[3];
  struct ash_tier_context ctx;

  if (chdir (fx_path ("pwdlink")) < 0)
    tap_ok (false, "chdir into the linked directory");
  setenv ("PWD", fx_path ("pwdlink"), 1);
  _cleanup_free_ char *cwd = getcwd (NULL, 0);
  ash_tier_context_fill (&ctx, cwd, storage);
  _cleanup_free_ char *want_pwd = xstrdup (fx_path ("pwdlink"));
  _cleanup_free_ char *want_res = xstrdup (fx_path ("arch"));
  tap_is_str (ctx.source_dir_resolved, want_res,
              "context: the resolved spelling");
  tap_is_str (ctx.pwd, want_pwd, "context: the $PWD spelling");

  /* A config named through $PWD that links out of the tree.  */
  bool may = true;
  char *reason = NULL;
  ash_config_tier_judge (fx_path ("pwdlink/.ash/escape.yaml"), &ctx, &may,
                         &reason, NULL);
  tap_ok (!may, "context: a link out of the tree named through $PWD");
  free (reason);
  for (int i = 0; i < 3; i++)
    free (storage[i]);

  /* A stale $PWD that names another directory is not a spelling.  */
  setenv ("PWD", fx_path ("out"), 1);
  ash_tier_context_fill (&ctx, cwd, storage);
  tap_ok (ctx.pwd == NULL, "context: a stale $PWD is ignored");
  for (int i = 0; i < 3; i++)
    free (storage[i]);

  if (saved)
    setenv ("PWD", saved, 1);
  else
    unsetenv ("PWD");
  if (chdir (old) < 0)
    tap_ok (false, "chdir back");
}

static void
test_judge_all (void)
{
  struct ash_config c;
  struct fx_file files[] = {
    { ASH_CONFIG_DEFAULTS, NULL, -1, NULL, "{}" },
    /* The loader recorded the base by a name outside every checkout, but
       the entry names it through the checkout.  */
    { ASH_CONFIG_EXTENDS, "out/op.yaml", 2, "../co/out.yaml", "{}" },
    { ASH_CONFIG_CLI, "out/op.yaml", -1, NULL, "{}" },
    { ASH_CONFIG_EXTENDS, "other/x.yaml", 2, "../other/x.yaml", "{}" },
    { ASH_CONFIG_OVERRIDE, NULL, -1, NULL, "{}" },
    { ASH_CONFIG_ENV, "wt/a.yaml", -1, NULL, "{}" },
  };
  struct ash_tier_context ctx = ctx_of (CTX_ALL);

  fx_config (&c, files, ARRAY_SIZE (files));
  ash_config_tier_judge_all (&c, &ctx, NULL);
  tap_ok (c.files[0].may_grant, "judge_all: the defaults may grant");
  tap_ok (!c.files[1].may_grant,
          "judge_all: an extends base judged by its entry");
  _cleanup_free_ char *want1
    = at_root ("@/co/out.yaml is inside the git checkout @/co");
  tap_is_str (c.files[1].tier_reason, want1, "judge_all: the entry's reason");
  tap_ok (c.files[2].may_grant, "judge_all: --config outside may grant");
  tap_ok (c.files[3].may_grant, "judge_all: a base outside may grant");
  tap_ok (c.files[4].may_grant, "judge_all: an override may grant");
  tap_ok (!c.files[5].may_grant, "judge_all: ASH_CONFIG in a worktree");
  tap_ok (ash_config_tier_any_untrusted (&c), "judge_all: any untrusted");

  json_t *j = ash_config_tiers_to_json (&c);
  json_t *f1 = json_array_get (json_object_get (j, "files"), 1);
  tap_is_str (json_string_value (json_object_get (f1, "tier")), "repository",
              "explain-tiers: the tier");
  tap_is_str (json_string_value (json_object_get (f1, "origin")), "extends",
              "explain-tiers: the origin");
  tap_is_str (json_string_value (json_object_get (f1, "reason")), want1,
              "explain-tiers: the reason");
  tap_ok (json_is_true (json_object_get (j, "any_untrusted")),
          "explain-tiers: any_untrusted");
  json_decref (j);
  _cleanup_free_ char *text = ash_config_tiers_to_text (&c);
  tap_ok (strstr (text, "tier: repository (may not grant)") != NULL
            && strstr (text, want1) != NULL,
          "explain-tiers: the text form");
  fx_config_release (&c);
}

static void
test_option_file (void)
{
  struct ash_config c;
  struct fx_file files[] = {
    { ASH_CONFIG_DEFAULTS, NULL, -1, NULL, "{}" },
    { ASH_CONFIG_DISCOVERED, "arch/.ash/.ash.yaml", -1, NULL,
      "{\"scanners\": {\"trivy\": {\"options\": {\"config_file\": \"x\"}}}}" },
    { ASH_CONFIG_CLI, "out/op.yaml", -1, NULL,
      "{\"scanners\": {\"gitleaks\": {\"options\": {\"config_file\": "
      "\"y\"}}}}" },
  };
  struct ash_tier_context ctx = ctx_of (CTX_ALL);
  bool trusted;
  char *why = NULL;

  fx_config (&c, files, ARRAY_SIZE (files));
  ash_config_option_file_trusted (&c, "scanners.trivy.options.config_file",
                                  fx_path ("co/.ash/.ash.yaml"), &ctx,
                                  &trusted, &why, NULL);
  tap_ok (!trusted && why && strstr (why, "inside the git checkout"),
          "a tool config in a checkout named by an in-tree config");
  free (why);
  ash_config_option_file_trusted (&c, "scanners.trivy.options.config_file",
                                  fx_path ("out/op.yaml"), &ctx, &trusted,
                                  &why, NULL);
  tap_ok (trusted, "a tool config outside named by an in-tree config");
  free (why);
  ash_config_option_file_trusted (&c, "scanners.gitleaks.options.config_file",
                                  fx_path ("co/.ash/.ash.yaml"), &ctx,
                                  &trusted, &why, NULL);
  tap_ok (trusted, "a tool config in a checkout named by the operator");
  free (why);
  fx_config_release (&c);
}

/* ---- detect-secrets ------------------------------------------------- */

static const char baseline_json[]
  = "{\"version\": \"1.5.0\", \"plugins_used\": [{\"name\": "
    "\"AWSKeyDetector\"}], \"filters_used\": [{\"path\": "
    "\"detect_secrets.filters.heuristic.is_potential_uuid\"}, {\"path\": "
    "\"detect_secrets.filters.common.is_ignored_due_to_verification_"
    "policies\", \"min_level\": 2}], \"results\": {}}";

static void
settings_with (struct ash_sandbox_settings *s, const char *mode,
               const char *extra, bool ds_reads)
{
  ash_sandbox_settings_init (s);
  s->mode = xstrdup (mode);
  if (extra)
    ash_strvec_push (&s->extra_read_paths, extra);
  if (ds_reads)
    ash_strvec_push (&s->read_path_scanners, "detect-secrets");
}

static void
test_detect_secrets (void)
{
  const char *ops[] = {
    "d:ds",
    "f:ds/tree/.secrets.baseline=",
    "f:ds/ops/baseline.json=",
    "f:ds/elsewhere/baseline.json=",
    NULL,
  };
  fx_build (ops);
  const char *files[] = { "ds/tree/.secrets.baseline", "ds/ops/baseline.json",
                          "ds/elsewhere/baseline.json" };
  for (size_t i = 0; i < ARRAY_SIZE (files); i++)
    {
      FILE *f = fopen (fx_path (files[i]), "w");
      fputs (baseline_json, f);
      fclose (f);
    }
  _cleanup_free_ char *src = xstrdup (fx_path ("ds/tree"));
  struct ash_tier_context ctx = { src, src, NULL };

  json_t *doc = json_loads (baseline_json, 0, NULL);
  tap_ok (ash_detect_secrets_verifies (doc), "the baseline verifies");
  tap_is_int (ash_detect_secrets_strip_verification (doc), 1,
              "one verification filter removed");
  tap_ok (!ash_detect_secrets_verifies (doc)
            && json_array_size (json_object_get (doc, "filters_used")) == 1,
          "the other filter stays");
  json_decref (doc);

  static const struct
  {
    const char *title;
    const char *file;
    const char *mode;
    bool extra_ops, ds_reads, offline, network;
    bool read, verifies;
    const char *warning; /* a substring, or NULL for no warning */
  } cases[] = {
    { "in-tree baseline: read, filter removed", "ds/tree/.secrets.baseline",
      "bwrap", false, false, false, true, true, false,
      "the baseline is inside the scanned tree" },
    { "operator's baseline, sandbox off: read, filter kept",
      "ds/ops/baseline.json", "off", false, false, false, true, true, true,
      NULL },
    { "operator's baseline under a sandbox without a grant: skipped",
      "ds/ops/baseline.json", "bwrap", false, false, false, true, false, false,
      "Not reading the detect-secrets baseline" },
    { "extra_read_paths without read_path_scanners: skipped",
      "ds/ops/baseline.json", "bwrap", true, false, false, true, false, false,
      "does not name detect-secrets" },
    { "extra_read_paths and read_path_scanners: read, kept",
      "ds/ops/baseline.json", "bwrap", true, true, false, true, true, true,
      NULL },
    { "granted, but another directory: skipped", "ds/elsewhere/baseline.json",
      "bwrap", true, true, false, true, false, false,
      "outside the source tree and every" },
    { "offline: filter removed everywhere", "ds/ops/baseline.json", "bwrap",
      true, true, true, false, true, false, "the scan is offline" },
    { "kept but no network: warned", "ds/ops/baseline.json", "bwrap", true,
      true, false, false, true, true, "has no network" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      struct ash_sandbox_settings s;
      struct ash_strvec warnings = ASH_STRVEC_INIT;
      json_t *out = NULL;
      settings_with (&s, cases[i].mode,
                     cases[i].extra_ops ? fx_path ("ds/ops") : NULL,
                     cases[i].ds_reads);
      int r
        = ash_detect_secrets_baseline_load (fx_path (cases[i].file), NULL,
                                            NULL, &ctx, &s, cases[i].offline,
                                            cases[i].network, &out, &warnings,
                                            NULL);
      tap_ok (r == 0 && (out != NULL) == cases[i].read, "%s: %s",
              cases[i].title, cases[i].read ? "read" : "skipped");
      if (cases[i].read)
        tap_ok (ash_detect_secrets_verifies (out) == cases[i].verifies,
                "%s: verification %s", cases[i].title,
                cases[i].verifies ? "kept" : "removed");
      if (cases[i].warning)
        tap_ok (warnings.nr == 1 && strstr (warnings.v[0], cases[i].warning),
                "%s: warning", cases[i].title);
      else
        tap_is_int (warnings.nr, 0, "%s: no warning", cases[i].title);
      json_decref (out);
      ash_strvec_release (&warnings);
      ash_sandbox_settings_release (&s);
    }

  /* A baseline of tiny objects that would take far more memory than its
     size once parsed is refused, naming it; the in-tree baseline of the
     first case (same place, same settings) was read.  */
  {
    struct ash_buf dense = ASH_BUF_INIT;
    ash_buf_addstr (&dense, "{\"results\": {\"a\": [");
    for (int k = 0; k < 200000; k++)
      ash_buf_addstr (&dense, k ? ",{}" : "{}");
    ash_buf_addstr (&dense, "]}}");
    const char *dpath = fx_path ("ds/tree/dense.baseline");
    FILE *f = fopen (dpath, "w");
    tap_ok (f && fwrite (dense.buf, 1, dense.len, f) == dense.len
              && fclose (f) == 0,
            "a dense baseline is written");
    struct ash_sandbox_settings s;
    struct ash_strvec warnings = ASH_STRVEC_INIT;
    struct ash_error err = ASH_ERROR_INIT;
    json_t *out = NULL;
    settings_with (&s, "bwrap", NULL, false);
    int r
      = ash_detect_secrets_baseline_load (dpath, NULL, NULL, &ctx, &s, false,
                                          true, &out, &warnings, &err);
    tap_ok (r == -EFBIG && out == NULL && err.message
              && strstr (err.message, "was not read")
              && strstr (err.message, "dense.baseline"),
            "a baseline over the parse budget is refused: %s",
            err.message ? err.message : "no error");
    json_decref (out);
    ash_strvec_release (&warnings);
    ash_error_release (&err);
    ash_sandbox_settings_release (&s);
    ash_buf_release (&dense);
  }

  /* An extra_read_paths entry that is a home or / contains nothing, as
     the policy does not mount it: a baseline inside it is not read.  */
  {
    const char *hops[]
      = { "d:ds/home/.aws", "f:ds/home/.aws/baseline.json=", NULL };
    fx_build (hops);
    FILE *f = fopen (fx_path ("ds/home/.aws/baseline.json"), "w");
    fputs (baseline_json, f);
    fclose (f);
    _cleanup_free_ char *old_home
      = getenv ("HOME") ? xstrdup (getenv ("HOME")) : NULL;
    setenv ("HOME", fx_path ("ds/home"), 1);
    const char *entries[] = { "ds/home", "/" };
    for (size_t i = 0; i < ARRAY_SIZE (entries); i++)
      {
        struct ash_sandbox_settings s;
        struct ash_strvec warnings = ASH_STRVEC_INIT;
        json_t *out = NULL;
        settings_with (&s, "bwrap",
                       entries[i][0] == '/' ? entries[i]
                                            : fx_path (entries[i]),
                       true);
        int r = ash_detect_secrets_baseline_load (
          fx_path ("ds/home/.aws/baseline.json"), NULL, NULL, &ctx, &s, false,
          true, &out, &warnings, NULL);
        tap_ok (r == 0 && out == NULL && warnings.nr == 1
                  && strstr (warnings.v[0], "outside the source tree and "
                                            "every"),
                "a baseline in the home is skipped when extra_read_paths "
                "names %s",
                entries[i][0] == '/' ? "/" : "the home");
        json_decref (out);
        ash_strvec_release (&warnings);
        ash_sandbox_settings_release (&s);
      }
    /* Control: a directory inside the home is a container.  */
    {
      struct ash_sandbox_settings s;
      struct ash_strvec warnings = ASH_STRVEC_INIT;
      json_t *out = NULL;
      settings_with (&s, "bwrap", fx_path ("ds/home/.aws"), true);
      int r = ash_detect_secrets_baseline_load (
        fx_path ("ds/home/.aws/baseline.json"), NULL, NULL, &ctx, &s, false,
        true, &out, &warnings, NULL);
      tap_ok (r == 0 && out != NULL,
              "a baseline in a directory inside the home that "
              "extra_read_paths names is read");
      json_decref (out);
      ash_strvec_release (&warnings);
      ash_sandbox_settings_release (&s);
    }
    if (old_home)
      setenv ("HOME", old_home, 1);
    else
      unsetenv ("HOME");
  }

  /* Settings in a config file that may not grant.  */
  struct ash_config c;
  struct fx_file cf[] = {
    { ASH_CONFIG_DEFAULTS, NULL, -1, NULL, "{}" },
    { ASH_CONFIG_DISCOVERED, "ds/tree/.ash.yaml", -1, NULL,
      "{\"scanners\": {\"detect-secrets\": {\"options\": {\"filters_used\":"
      " [{\"path\": \"detect_secrets.filters.common."
      "is_ignored_due_to_verification_policies\"}]}}}}" },
  };
  fx_config (&c, cf, ARRAY_SIZE (cf));
  json_t *opts = json_deep_copy (
    json_object_get (json_object_get (json_object_get (c.root, "scanners"),
                                      "detect-secrets"),
                     "options"));
  struct ash_strvec warnings = ASH_STRVEC_INIT;
  tap_is_int (ash_detect_secrets_options_filter (&c, &ctx, false, opts,
                                                 &warnings),
              1, "in-tree detect-secrets options lose the filter");
  tap_ok (warnings.nr == 1 && strstr (warnings.v[0], "filters_used"),
          "the warning names the setting");
  json_decref (opts);
  ash_strvec_release (&warnings);
  fx_config_release (&c);

  struct fx_file of[] = {
    { ASH_CONFIG_DEFAULTS, NULL, -1, NULL, "{}" },
    { ASH_CONFIG_CLI, "ds/ops/ash.yaml", -1, NULL,
      "{\"scanners\": {\"detect-secrets\": {\"options\": {\"filters_used\":"
      " [\"detect_secrets.filters.common."
      "is_ignored_due_to_verification_policies\"]}}}}" },
  };
  fx_config (&c, of, ARRAY_SIZE (of));
  opts = json_deep_copy (
    json_object_get (json_object_get (json_object_get (c.root, "scanners"),
                                      "detect-secrets"),
                     "options"));
  tap_is_int (ash_detect_secrets_options_filter (&c, &ctx, false, opts,
                                                 &warnings),
              0, "the operator's options keep the filter");
  tap_is_int (ash_detect_secrets_options_filter (&c, &ctx, true, opts,
                                                 &warnings),
              1, "offline the operator's options lose it too");
  json_decref (opts);
  ash_strvec_release (&warnings);
  fx_config_release (&c);
}

/* ---- plugin modules ------------------------------------------------- */

static void
test_plugin_modules (void)
{
  const char *ops[] = {
    "f:pl/installed/good.yaml",
    "f:pl/installed/ash_aws_plugins.yaml",
    "g:pl/venvco",
    "f:pl/venvco/venv/plugins/incheckout.yaml",
    "f:pl/src/.ash/.ash.yaml",
    "f:pl/src/plugins/local.yaml",
    "f:pl/ops/ash.yaml",
    NULL,
  };
  fx_build (ops);
  _cleanup_free_ char *src = xstrdup (fx_path ("pl/src"));
  struct ash_tier_context ctx = { src, src, NULL };
  _cleanup_free_ char *d1 = xstrdup (fx_path ("pl/installed"));
  _cleanup_free_ char *d2 = xstrdup (fx_path ("pl/venvco/venv/plugins"));
  _cleanup_free_ char *d3 = xstrdup (fx_path ("pl/src/plugins"));
  char *dirs[] = { d1, d2, d3, NULL };
  _cleanup_free_ char *abs_local = xstrdup (fx_path ("pl/src/plugins/"
                                                     "local.yaml"));
  _cleanup_free_ char *abs_good = xstrdup (fx_path ("pl/installed/good.yaml"));

  _cleanup_free_ char *repo_json = xasprintf (
    "{\"ash_plugin_modules\": [\"good\", \"ash_aws_plugins\", "
    "\"ash_snyk_plugins\", \"incheckout\", \"local\", \"%s\", \"nosuch\"]}",
    abs_local);
  struct fx_file files[] = {
    { ASH_CONFIG_DEFAULTS, NULL, -1, NULL, "{}" },
    { ASH_CONFIG_DISCOVERED, "pl/src/.ash/.ash.yaml", -1, NULL, repo_json },
  };
  struct ash_config c;
  struct ash_options o;
  memset (&o, 0, sizeof o);
  ash_strvec_init (&o.plugin_modules);
  ash_strvec_push (&o.plugin_modules, "ash_snyk_plugins");

  fx_config (&c, files, ARRAY_SIZE (files));
  struct ash_strvec allowed = ASH_STRVEC_INIT, warnings = ASH_STRVEC_INIT;
  ash_plugin_modules_allowed (&c, &o, &ctx, dirs, &allowed, &warnings, NULL);
  _cleanup_free_ char *got = fx_join (&allowed);
  /* The operator's upstream name maps to ash's module file.  */
  _cleanup_free_ char *want = xasprintf ("snyk-code,%s", abs_good);
  tap_is_str (got, want,
              "in-tree config: only the installed module outside loads; "
              "--ash-plugin-modules names any");
  tap_is_int (warnings.nr, 5, "one warning per refused module");
  bool aws = false, checkout = false, tree = false, path = false,
       missing = false;
  for (size_t i = 0; i < warnings.nr; i++)
    {
      const char *w = warnings.v[i];
      if (strstr (w, "'ash_aws_plugins'") && strstr (w, "never loaded"))
        aws = true;
      if (strstr (w, "'incheckout'") && strstr (w, "inside the git checkout")
          && strstr (w, d2) && strstr (w, "pl/venvco"))
        checkout = true;
      if (strstr (w, "'local'") && strstr (w, "scanned directory"))
        tree = true;
      if (strstr (w, abs_local) && strstr (w, "scanned directory"))
        path = true;
      if (strstr (w, "'nosuch'"))
        missing = true;
    }
  tap_ok (aws, "ash_aws_plugins refused from an in-tree config");
  tap_ok (checkout, "a module in a checkout: the warning names the checkout");
  tap_ok (tree, "a module inside the scanned tree is refused");
  tap_ok (path, "a module path inside the scanned tree is refused");
  tap_ok (missing, "an unknown module is refused");
  ash_strvec_release (&allowed);
  ash_strvec_release (&warnings);
  fx_config_release (&c);

  /* The operator's config names anything.  */
  struct fx_file opf[] = {
    { ASH_CONFIG_DEFAULTS, NULL, -1, NULL, "{}" },
    { ASH_CONFIG_CLI, "pl/ops/ash.yaml", -1, NULL,
      "{\"ash_plugin_modules\": [\"ash_aws_plugins\", \"incheckout\"]}" },
  };
  fx_config (&c, opf, ARRAY_SIZE (opf));
  ash_strvec_clear (&o.plugin_modules);
  ash_plugin_modules_allowed (&c, &o, &ctx, dirs, &allowed, &warnings, NULL);
  _cleanup_free_ char *got2 = fx_join (&allowed);
  tap_is_str (got2, "ash_aws_plugins,incheckout",
              "the operator's config names any module");
  tap_is_int (warnings.nr, 0, "no warning for the operator's modules");
  ash_strvec_release (&allowed);
  ash_strvec_release (&warnings);
  ash_strvec_release (&o.plugin_modules);
  fx_config_release (&c);
}

/* The scanned directory reached by a spelling that no link explains: a
   bind mount of it (a case-insensitive file system gives the same).  A
   config inside it is inside the scanned directory all the same.  */
static void
test_bind_mount (void)
{
#if defined TEST_HAVE_MOUNT && defined CLONE_NEWNS && defined MS_BIND
  const char *ops[]
    = { "d:bm/arch/.ash", "f:bm/arch/.ash/.ash.yaml=", "d:bm/alias",
        "f:bm/ops.yaml=", NULL };
  fx_build (ops);
  _cleanup_free_ char *arch = xstrdup (fx_path ("bm/arch"));
  _cleanup_free_ char *alias = xstrdup (fx_path ("bm/alias"));
  if (unshare (CLONE_NEWNS) < 0
      || mount ("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0
      || mount (arch, alias, "none", MS_BIND, NULL) < 0)
    {
      tap_ok (true, "# SKIP bind mount: %s", strerror (errno));
      return;
    }
  struct ash_tier_context ctx = { arch, arch, NULL };
  bool may = true;
  char *reason = NULL;
  int r = ash_config_tier_judge (fx_path ("bm/alias/.ash/.ash.yaml"), &ctx,
                                 &may, &reason, NULL);
  _cleanup_free_ char *want
    = xasprintf ("%s/.ash/.ash.yaml is inside the scanned directory %s", alias,
                 arch);
  tap_ok (r == 0 && !may,
          "a config in a bind mount of the scanned directory may not grant");
  tap_is_str (reason, want, "bind mount: reason");
  free (reason);
  reason = NULL;
  may = false;
  r = ash_config_tier_judge (fx_path ("bm/ops.yaml"), &ctx, &may, &reason,
                             NULL);
  tap_ok (r == 0 && may, "bind mount: a file beside it may grant (control)");
  free (reason);
  (void) umount (alias);
#else
  tap_ok (true, "# SKIP bind mount: no mount namespaces here");
#endif
}

int
main (void)
{
  fx_new_root ();
  fx_build (tree_ops);
  test_judge ();
  test_context_fill ();
  test_judge_all ();
  test_option_file ();
  test_detect_secrets ();
  test_plugin_modules ();
  test_bind_mount ();
  fx_cleanup ();
  return tap_done ();
}
