/* SPDX-License-Identifier: Apache-2.0 */
/* plugin-tier.c -- plugin modules named by a configuration, under the
   tier rules.  See "Out of scope: Plugin modules" in ash-sandbox(7).  */

#include <config.h>

#include "config/plugin-tier.h"

#include <errno.h>
#include <sys/stat.h>

#include "base/util.h"

static const char *const reserved_modules[] = {
  "ash_aws_plugins",
  "ash_snyk_plugins",
};

/* Upstream's Python plugin packages that ash ships as module files.  */
static const struct
{
  const char *package;
  const char *module;
} upstream_modules[] = {
  { "ash_trivy_plugins", "trivy-repo" },
  { "ash_snyk_plugins", "snyk-code" },
  { "ash_ferret_plugins", "ferret-scan" },
};

#define UPSTREAM_PREFIX "automated_security_helper.plugin_modules."

const char *
ash_plugin_module_map (const char *entry)
{
  const char *p = entry;
  if (ash_str_has_prefix (p, UPSTREAM_PREFIX))
    p += strlen (UPSTREAM_PREFIX);
  for (size_t i = 0; i < ARRAY_SIZE (upstream_modules); i++)
    if (streq (p, upstream_modules[i].package))
      return upstream_modules[i].module;
  return entry;
}

bool
ash_plugin_module_is_reserved (const char *entry)
{
  /* Upstream's full module name names the package too.  */
  if (ash_str_has_prefix (entry, UPSTREAM_PREFIX))
    entry += strlen (UPSTREAM_PREFIX);
  const char *base = strrchr (entry, '/');
  base = base ? base + 1 : entry;
  size_t len = strcspn (base, ".");
  for (size_t i = 0; i < ARRAY_SIZE (reserved_modules); i++)
    if (strlen (reserved_modules[i]) == len
        && strneq (base, reserved_modules[i], len))
      return true;
  /* A dotted module path ("ash_aws_plugins.scanners") names the package
     too.  */
  for (size_t i = 0; i < ARRAY_SIZE (reserved_modules); i++)
    if (ash_str_has_prefix (entry, reserved_modules[i])
        && (entry[strlen (reserved_modules[i])] == '.'
            || entry[strlen (reserved_modules[i])] == '\0'))
      return true;
  return false;
}

/* Whether a file that may not grant lists ENTRY in its own
   ash_plugin_modules; RET_FILE gets the first such file's label.  */
static bool
listed_by_untrusted (const struct ash_config *c,
                     const struct ash_tier_context *ctx, const char *entry,
                     const char **ret_file)
{
  for (size_t i = 0; i < c->n_files; i++)
    {
      json_t *list = json_object_get (c->files[i].tree, "ash_plugin_modules");
      size_t j;
      json_t *e;
      bool lists = false;
      json_array_foreach (list, j, e)
        if (json_is_string (e) && streq (json_string_value (e), entry))
          lists = true;
      if (!lists)
        continue;
      bool may = false;
      _cleanup_free_ char *why = NULL;
      ash_config_tier_judge_file (c, i, ctx, &may, &why);
      if (!may)
        {
          *ret_file = c->files[i].name
                        ? c->files[i].name
                        : ash_config_origin_name (c->files[i].origin);
          return true;
        }
    }
  return false;
}

static void
default_search_dirs (struct ash_strvec *dirs)
{
  const char *env = getenv ("ASH_PLUGIN_PATH");
  if (env && *env)
    {
      _cleanup_free_ char *copy = xstrdup (env);
      char *save = NULL;
      for (char *d = strtok_r (copy, ":", &save); d;
           d = strtok_r (NULL, ":", &save))
        if (d[0] == '/')
          ash_strvec_push (dirs, d);
    }
#ifdef PKGDATADIR
  ash_strvec_push (dirs, PKGDATADIR "/plugins");
#endif
}

static char *
refusal (const char *entry, const char *file, const char *why)
{
  return xasprintf (_ ("Not loading plugin module '%s' named by %s: %s. A "
                       "config inside a git checkout or the scanned tree may "
                       "name only modules installed outside them; name it "
                       "with --ash-plugin-modules instead"),
                    entry, file, why);
}

/* Push ENTRY and who named it.  */
static void
allow (struct ash_strvec *allowed, struct ash_strvec *named_by,
       const char *entry, const char *file)
{
  ash_strvec_push (allowed, entry);
  if (named_by)
    ash_strvec_push (named_by, file ? file : "");
}

/* Judge an installed module file; push it or a warning.  */
static void
judge_module (const char *entry, const char *file, const char *path,
              const struct ash_tier_context *ctx, struct ash_strvec *allowed,
              struct ash_strvec *named_by, struct ash_strvec *warnings)
{
  struct ash_tier_verdict v = { 0 };
  struct ash_error e = ASH_ERROR_INIT;
  if (ash_config_tier_judge_full (path, ctx, &v, &e) < 0)
    {
      ash_strvec_push_nodup (warnings, refusal (entry, file, e.message));
      ash_error_release (&e);
      return;
    }
  if (v.may_grant)
    allow (allowed, named_by, v.resolved ? v.resolved : path, file);
  else if (v.checkout)
    {
      _cleanup_free_ char *why
        = xasprintf (_ ("%s counts as inside the git checkout %s (%s)"), path,
                     v.checkout, v.reason);
      ash_strvec_push_nodup (warnings, refusal (entry, file, why));
    }
  else
    ash_strvec_push_nodup (warnings, refusal (entry, file, v.reason));
  ash_tier_verdict_release (&v);
}

char *
ash_plugin_module_refusal (const char *entry, const char *file,
                           const char *what)
{
  return xasprintf (_ ("Not loading plugin module '%s' named by %s: it "
                       "declares %s, which only a config file that may grant "
                       "can enable, and %s is inside a git checkout or the "
                       "scanned tree, or was delivered by an MCP client. "
                       "Name it with --ash-plugin-modules, or in a config "
                       "outside every git checkout and the scanned tree"),
                    entry, file, what, file);
}

int
ash_plugin_modules_allowed (const struct ash_config *c,
                            const struct ash_options *o,
                            const struct ash_tier_context *ctx,
                            char *const *search_dirs,
                            struct ash_strvec *ret_allowed,
                            struct ash_strvec *ret_warnings,
                            struct ash_error *err)
{
  return ash_plugin_modules_allowed_by (c, o, ctx, search_dirs, ret_allowed,
                                        NULL, ret_warnings, err);
}

int
ash_plugin_modules_allowed_by (
  const struct ash_config *c, const struct ash_options *o,
  const struct ash_tier_context *ctx, char *const *search_dirs,
  struct ash_strvec *ret_allowed, struct ash_strvec *ret_named_by,
  struct ash_strvec *ret_warnings, struct ash_error *err)
{
  struct ash_strvec dirs = ASH_STRVEC_INIT;
  (void) err;

  if (search_dirs)
    ash_strvec_pushv (&dirs, search_dirs);
  else
    default_search_dirs (&dirs);

  /* The operator's own.  */
  if (o)
    for (size_t i = 0; i < o->plugin_modules.nr; i++)
      allow (ret_allowed, ret_named_by,
             ash_plugin_module_map (o->plugin_modules.v[i]), NULL);

  json_t *list
    = c && c->root ? json_object_get (c->root, "ash_plugin_modules") : NULL;
  size_t j;
  json_t *e;
  json_array_foreach (list, j, e)
    {
      if (!json_is_string (e))
        continue;
      const char *orig = json_string_value (e);
      const char *entry = ash_plugin_module_map (orig);
      const char *file = NULL;
      if (ash_strvec_contains (ret_allowed, entry))
        continue;
      if (!listed_by_untrusted (c, ctx, orig, &file))
        {
          allow (ret_allowed, ret_named_by, entry, NULL);
          continue;
        }
      /* Judged by the name the file wrote, before mapping: upstream's
         ash_snyk_plugins stays reserved under its ash name too.  */
      if (ash_plugin_module_is_reserved (orig))
        {
          ash_strvec_push_nodup (
            ret_warnings,
            xasprintf (_ ("Not loading plugin module '%s' named by %s: "
                          "ash_aws_plugins and ash_snyk_plugins send findings "
                          "or source off the host with your credentials, and "
                          "are never loaded from a config inside a git "
                          "checkout or the scanned tree; name it with "
                          "--ash-plugin-modules instead"),
                       orig, file));
          continue;
        }
      if (strchr (entry, '/'))
        {
          /* A path: only an installed module's own file qualifies.  */
          _cleanup_free_ char *real
            = entry[0] == '/' ? realpath (entry, NULL) : NULL;
          bool installed = false;
          for (size_t d = 0; real && d < dirs.nr; d++)
            {
              _cleanup_free_ char *rd = realpath (dirs.v[d], NULL);
              if (rd && ash_path_is_inside (real, rd))
                installed = true;
            }
          if (!installed)
            ash_strvec_push_nodup (
              ret_warnings,
              refusal (entry, file,
                       _ ("it is not a module installed on the plugin "
                          "search path")));
          else
            judge_module (entry, file, entry, ctx, ret_allowed, ret_named_by,
                          ret_warnings);
          continue;
        }
      bool found = false;
      for (size_t d = 0; d < dirs.nr && !found; d++)
        {
          static const char *const exts[] = { ".yaml", ".yml" };
          for (size_t x = 0; x < ARRAY_SIZE (exts) && !found; x++)
            {
              _cleanup_free_ char *p
                = xasprintf ("%s/%s%s", dirs.v[d], entry, exts[x]);
              struct stat st;
              if (stat (p, &st) == 0 && S_ISREG (st.st_mode))
                {
                  found = true;
                  judge_module (entry, file, p, ctx, ret_allowed, ret_named_by,
                                ret_warnings);
                }
            }
        }
      if (!found)
        ash_strvec_push_nodup (
          ret_warnings,
          refusal (entry, file, _ ("no installed module has that name")));
    }
  ash_strvec_release (&dirs);
  return 0;
}
