/* SPDX-License-Identifier: Apache-2.0 */
/* scanner-reqs.c -- the sandbox requirements of the scanners ASH ships.

   Each entry follows the per-scanner table of ash-sandbox(7).  The uv
   cache is declared through cache_env UV_CACHE_DIR, which the policy
   turns into a mount of uv's cache (and a private one where caches cannot
   be thrown away).  semgrep and opengrep keep their settings in
   $XDG_CONFIG_HOME/.semgrep (.opengrep) or ~/.semgrep, so XDG_CONFIG_HOME
   is the variable that moves it to a private directory.  */

#include <config.h>

#include "sandbox/scanner-reqs.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

struct builtin
{
  const char *name;
  bool network;
  const char *read_paths[4];
  const char *cache_paths[4];
  const char *cache_env[4];
  const char *env_prefixes[4];
  const char *env_names[4];
  const char *sandbox_exec_env[4];
  const char *unpack_dir_env;
  const char *read_path_env[2];
  bool staged_input_only;
  bool system_trust_roots;
};

static const struct builtin builtins[] = {
  { .name = "bandit", .cache_env = { "UV_CACHE_DIR" } },
  { .name = "checkov",
    .cache_env = { "UV_CACHE_DIR" },
    .env_prefixes = { "CHECKOV_" } },
  { .name = "semgrep",
    .network = true,
    .cache_paths = { "~/.semgrep" },
    .cache_env = { "UV_CACHE_DIR", "XDG_CONFIG_HOME" },
    .env_prefixes = { "SEMGREP_" },
    .read_path_env = { "SEMGREP_RULES_CACHE_DIR" },
    .system_trust_roots = true },
  { .name = "opengrep",
    .network = true,
    .cache_paths = { "~/.opengrep" },
    .cache_env = { "XDG_CONFIG_HOME" },
    .env_prefixes = { "OPENGREP_" },
    .unpack_dir_env = "XDG_CACHE_HOME",
    .read_path_env = { "OPENGREP_RULES_CACHE_DIR" } },
  { .name = "grype",
    .network = true,
    .cache_paths = { "~/.cache/grype", "~/Library/Caches/grype" },
    .env_prefixes = { "GRYPE_" } },
  { .name = "syft",
    .cache_paths = { "~/.cache/syft", "~/Library/Caches/syft" },
    .cache_env = { "SYFT_CACHE_DIR" },
    .env_prefixes = { "SYFT_" } },
  { .name = "trivy",
    .network = true,
    .cache_paths = { "~/.cache/trivy", "~/Library/Caches/trivy" },
    .env_prefixes = { "TRIVY_" } },
  { .name = "trivy-repo",
    .network = true,
    .cache_paths = { "~/.cache/trivy", "~/Library/Caches/trivy" },
    .env_prefixes = { "TRIVY_" } },
  { .name = "npm-audit",
    .network = true,
    .cache_paths = { "~/.npm" },
    .cache_env = { "npm_config_cache" },
    /* pnpm and yarn as "ash dependencies install" puts them: links in
       the bin directory to their packages there.  */
    .read_paths = { "{bin}/../lib/node_modules" },
    .env_prefixes = { "npm_config_", "NPM_CONFIG_" } },
  /* Ruby's gems: the user's (~/.gem, ~/.local/share/gem), the system's
     outside /usr (Debian's "gem install" as root puts them in
     /var/lib/gems), and those GEM_HOME and GEM_PATH (one directory) name.  */
  { .name = "cfn-nag",
    .read_paths = { "~/.gem", "~/.local/share/gem", "/var/lib/gems" },
    .env_names = { "GEM_HOME", "GEM_PATH" },
    .read_path_env = { "GEM_HOME", "GEM_PATH" } },
  { .name = "detect-secrets" },
  { .name = "cdk-nag",
    .cache_paths = { "~/.cache/aws/jsii" },
    .env_prefixes = { "JSII_" },
    .sandbox_exec_env = { "JSII_RUNTIME_PACKAGE_CACHE=disabled" },
    /* Where "ash dependencies install" puts cdk-nag's modules, and ash's
       worker script that node runs, wherever ash is installed.  */
    .read_paths
    = { "{bin}/../lib/node_modules", "{helper:cdk-nag-worker.js}" },
    .read_path_env = { "ASH_CDK_NAG_MODULES" } },
  { .name = "actionlint" },
  { .name = "cfn-lint", .cache_env = { "UV_CACHE_DIR" } },
  { .name = "cfn-guard",
    .read_paths = { "{bin}/../share/cfn-guard-rules" },
    .read_path_env = { "ASH_CFN_GUARD_RULES_DIR" } },
  { .name = "gitleaks" },
  { .name = "zizmor", .cache_env = { "UV_CACHE_DIR" } },
  /* Community plugin scanners.  */
  { .name = "snyk-code",
    .network = true,
    .read_paths = { "~/.config/configstore/snyk.json" },
    .env_prefixes = { "SNYK_" },
    .env_names = { "SNYK_TOKEN" } },
  { .name = "ferret-scan", .env_prefixes = { "FERRET_" } },
  /* The jupyter converter's nbconvert.  */
  { .name = "jupyter", .staged_input_only = true },
};

const char *const ash_builtin_scanner_names[] = {
  "bandit",     "checkov",   "semgrep",        "opengrep",
  "grype",      "syft",      "trivy",          "trivy-repo",
  "npm-audit",  "cfn-nag",   "detect-secrets", "cdk-nag",
  "actionlint", "cfn-lint",  "cfn-guard",      "gitleaks",
  "zizmor",     "snyk-code", "ferret-scan",    "jupyter",
  NULL,
};

static void
push_all (struct ash_strvec *sv, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n && list[i]; i++)
    ash_strvec_push (sv, list[i]);
}

int
ash_builtin_requirements (const char *scanner, struct ash_requirements *ret)
{
  ash_requirements_init (ret);
  for (size_t i = 0; i < ARRAY_SIZE (builtins); i++)
    {
      const struct builtin *b = &builtins[i];
      if (!streq (b->name, scanner))
        continue;
      ret->network = b->network;
      push_all (&ret->read_paths, b->read_paths, 4);
      push_all (&ret->cache_paths, b->cache_paths, 4);
      push_all (&ret->cache_env, b->cache_env, 4);
      push_all (&ret->env_prefixes, b->env_prefixes, 4);
      push_all (&ret->env_names, b->env_names, 4);
      push_all (&ret->sandbox_exec_env, b->sandbox_exec_env, 4);
      ret->unpack_dir_env
        = b->unpack_dir_env ? xstrdup (b->unpack_dir_env) : NULL;
      push_all (&ret->read_path_env, b->read_path_env, 2);
      ret->staged_input_only = b->staged_input_only;
      ret->system_trust_roots = b->system_trust_roots;
      return 0;
    }
  return -ENOENT;
}

static const char *
env_value (char *const *environ, const char *name)
{
  size_t n = strlen (name);
  for (char *const *e = environ; e && *e; e++)
    if (strneq (*e, name, n) && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}

char *
ash_scanner_db_cache_dir (const char *scanner, char *const *environ,
                          const char *home, char **ret_rule)
{
  const char *var, *sub, *tool;
  const char *v;

  if (ret_rule)
    *ret_rule = NULL;
  if (streq (scanner, "grype"))
    var = "GRYPE_DB_CACHE_DIR", sub = "grype/db", tool = "grype";
  else if (streq (scanner, "trivy") || streq (scanner, "trivy-repo"))
    var = "TRIVY_CACHE_DIR", sub = "trivy", tool = "trivy";
  else
    return NULL;

  v = env_value (environ, var);
  if (v && *v)
    {
      /* A relative value is taken against the working directory, as the
         tool itself would.  */
      if (ret_rule)
        *ret_rule = xasprintf (_ ("%s's database cache ($%s)"), tool, var);
      return ash_path_absolute (v);
    }
  v = env_value (environ, "XDG_CACHE_HOME");
  if (v && v[0] == '/')
    {
      if (ret_rule)
        *ret_rule = xasprintf (_ ("%s's database cache ($XDG_CACHE_HOME/%s)"),
                               tool, sub);
      _cleanup_free_ char *d = ash_path_join (v, sub);
      return ash_path_normalize (d);
    }
  /* trivy takes Go's user cache directory, which is an error for a
     relative XDG_CACHE_HOME or without a home, and then the temporary
     directory; grype ignores a relative XDG_CACHE_HOME.  */
  if (streq (tool, "trivy") && ((v && *v) || home == NULL || home[0] != '/'))
    {
      /* Only a temporary directory of this account's own: in a shared
         one (/tmp, the default) another account could make trivy's
         database directory first.  */
      const char *t = env_value (environ, "TMPDIR");
      struct stat st;
      if (t == NULL || t[0] != '/' || stat (t, &st) < 0
          || !S_ISDIR (st.st_mode) || st.st_uid != geteuid ()
          || (st.st_mode & (S_IWGRP | S_IWOTH)))
        return NULL;
      if (ret_rule)
        *ret_rule = xasprintf (_ ("%s's database cache ($TMPDIR/%s, as "
                                  "XDG_CACHE_HOME is relative or there is "
                                  "no home)"),
                               tool, sub);
      _cleanup_free_ char *d = ash_path_join (t, sub);
      return ash_path_normalize (d);
    }
  if (home == NULL || home[0] != '/')
    return NULL;
  if (ret_rule)
    *ret_rule = xasprintf (_ ("%s's database cache (~/.cache/%s)"), tool, sub);
  _cleanup_free_ char *cache = ash_path_join (home, ".cache");
  _cleanup_free_ char *d = ash_path_join (cache, sub);
  return ash_path_normalize (d);
}

const char *
ash_db_cache_unknown (const char *tool)
{
  if (streq (tool, "grype"))
    return _ ("cannot tell where grype keeps its database (there is no "
              "absolute HOME or XDG_CACHE_HOME): set GRYPE_DB_CACHE_DIR");
  return _ ("cannot tell where trivy keeps its database (XDG_CACHE_HOME is "
            "relative or there is no absolute HOME, and trivy would then "
            "use a temporary directory that is not this account's own): set "
            "TRIVY_CACHE_DIR");
}
