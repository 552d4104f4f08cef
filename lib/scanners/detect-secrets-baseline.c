/* SPDX-License-Identifier: Apache-2.0 */
/* detect-secrets-baseline.c -- the detect-secrets verification filter and
   baseline file under the tier rules.  */

#include <config.h>

#include "scanners/detect-secrets-baseline.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/util.h"
#include "sandbox/homescreen.h"
#include "scan/sarif.h"

/* A baseline larger than this is refused rather than read.  */
#define BASELINE_MAX_BYTES (64u * 1024 * 1024)

/* The path of a plugins_used or filters_used entry (an object with
   "path", or a string), or NULL.  */
static const char *
entry_path (const json_t *entry)
{
  if (json_is_string (entry))
    return json_string_value (entry);
  if (json_is_object (entry))
    return json_string_value (json_object_get (entry, "path"));
  return NULL;
}

bool
ash_detect_secrets_is_verify_filter (const json_t *entry)
{
  const char *path = entry_path (entry);
  if (!path)
    return false;
  return streq (path, ASH_DETECT_SECRETS_VERIFY_FILTER)
         || strstr (path, "verif") != NULL;
}

static int
strip_list (json_t *list)
{
  int n = 0;
  if (!json_is_array (list))
    return 0;
  for (size_t i = json_array_size (list); i-- > 0;)
    if (ash_detect_secrets_is_verify_filter (json_array_get (list, i)))
      {
        json_array_remove (list, i);
        n++;
      }
  return n;
}

int
ash_detect_secrets_strip_verification (json_t *settings)
{
  if (!json_is_object (settings))
    return 0;
  int n = strip_list (json_object_get (settings, "filters_used"));
  json_t *inner = json_object_get (settings, "settings");
  if (json_is_object (inner))
    n += strip_list (json_object_get (inner, "filters_used"));
  return n;
}

static bool
list_verifies (const json_t *list)
{
  size_t i;
  json_t *e;
  json_array_foreach (list, i, e)
    if (ash_detect_secrets_is_verify_filter (e))
      return true;
  return false;
}

/* The file a plugins_used or filters_used entry loads Python code from:
   a plugin's "path", or a filter path that names a file
   ("file://FILE::FUNCTION"); NULL for detect-secrets' own.  */
static const char *
code_path_of (const json_t *entry, bool plugin)
{
  const char *path = entry_path (entry);
  if (!path)
    return NULL;
  if (plugin)
    return path;
  /* detect-secrets imports a filter by its module path unless it names a
     file; anything but its own modules counts as code of its own.  */
  if (strncmp (path, "detect_secrets.", strlen ("detect_secrets.")) != 0)
    return path;
  return NULL;
}

static int
strip_code_list (json_t *list, bool plugin, struct ash_strvec *removed)
{
  int n = 0;
  if (!json_is_array (list))
    return 0;
  for (size_t i = 0; i < json_array_size (list); i++)
    {
      const char *c = code_path_of (json_array_get (list, i), plugin);
      if (c && removed)
        ash_strvec_push (removed, c);
    }
  for (size_t i = json_array_size (list); i-- > 0;)
    if (code_path_of (json_array_get (list, i), plugin))
      {
        json_array_remove (list, i);
        n++;
      }
  return n;
}

int
ash_detect_secrets_strip_custom_code (json_t *settings,
                                      struct ash_strvec *removed)
{
  if (!json_is_object (settings))
    return 0;
  int n = strip_code_list (json_object_get (settings, "plugins_used"), true,
                           removed)
          + strip_code_list (json_object_get (settings, "filters_used"), false,
                             removed);
  json_t *inner = json_object_get (settings, "settings");
  if (json_is_object (inner))
    n += strip_code_list (json_object_get (inner, "plugins_used"), true,
                          removed)
         + strip_code_list (json_object_get (inner, "filters_used"), false,
                            removed);
  return n;
}

/* The warning for the custom plugins and filters removed from WHERE.  */
static char *
custom_code_removed_warning (const char *where, const char *why,
                             const struct ash_strvec *removed)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < removed->nr; i++)
    {
      _cleanup_free_ char *q = ash_escape_control (removed->v[i]);
      ash_buf_addf (&b, "%s'%s'", i ? ", " : "", q);
    }
  char *w = xasprintf (_ ("Not loading the detect-secrets plugins and filters "
                          "%s from %s: %s. detect-secrets would run their "
                          "code; only the operator's own baseline or settings "
                          "may name code to load"),
                       b.buf, where, why);
  ash_buf_release (&b);
  return w;
}

bool
ash_detect_secrets_verifies (const json_t *settings)
{
  if (!json_is_object (settings))
    return false;
  if (list_verifies (json_object_get (settings, "filters_used")))
    return true;
  json_t *inner = json_object_get (settings, "settings");
  return json_is_object (inner)
         && list_verifies (json_object_get (inner, "filters_used"));
}

bool
ash_detect_secrets_baseline_readable (const char *path, const char *source_dir,
                                      const struct ash_sandbox_settings *s,
                                      char **ret_warning)
{
  if (!ash_sandbox_settings_on (s))
    return true;

  _cleanup_free_ char *real = realpath (path, NULL);
  _cleanup_free_ char *src = source_dir ? realpath (source_dir, NULL) : NULL;
  struct stat st;
  const char *why = NULL;

  if (!real || stat (real, &st) < 0)
    why = _ ("it cannot be resolved");
  else if (!S_ISREG (st.st_mode))
    why = _ ("it is not a regular file");
  else if (src && ash_path_is_inside (real, src))
    return true;
  else if (ash_strvec_contains (&s->read_path_scanners,
                                ASH_DETECT_SECRETS_NAME))
    {
      /* The policy does not mount an entry that is /, a home or a
         directory holding one, so such an entry contains nothing here
         either.  */
      struct passwd *pw = getpwuid (getuid ());
      struct ash_homescreen hs;
      ash_homescreen_init (&hs, NULL, getenv ("HOME"), pw ? pw->pw_dir : NULL,
                           NULL);
      bool inside = false;
      for (size_t i = 0; !inside && i < s->extra_read_paths.nr; i++)
        {
          _cleanup_free_ char *e = realpath (s->extra_read_paths.v[i], NULL);
          if (e && !ash_homescreen_holds_home (&hs, e)
              && ash_path_is_inside (real, e))
            inside = true;
        }
      ash_homescreen_release (&hs);
      if (inside)
        return true;
      why = _ ("it is outside the source tree and every "
               "sandbox.extra_read_paths entry");
    }
  else
    why = _ ("it is outside the source tree, and sandbox.read_path_scanners "
             "does not name detect-secrets");
  if (ret_warning)
    *ret_warning
      = xasprintf (_ ("Not reading the detect-secrets baseline %s: %s. Under "
                      "a sandbox ASH reads it only inside the source tree, or "
                      "inside a sandbox.extra_read_paths entry when "
                      "sandbox.read_path_scanners names detect-secrets; the "
                      "candidates it would have marked are reported"),
                   path, why);
  return false;
}

static char *
verify_removed_warning (const char *where, const char *why)
{
  return xasprintf (_ ("Removing the detect-secrets verification filter "
                       "(filters_used: %s) from %s: %s. Without it "
                       "detect-secrets does not verify candidates over the "
                       "network"),
                    ASH_DETECT_SECRETS_VERIFY_FILTER, where, why);
}

static char *
verify_no_network_warning (const char *where)
{
  return xasprintf (_ ("The detect-secrets settings in %s list the "
                       "verification filter (filters_used: %s), but "
                       "detect-secrets has no network: every candidate counts "
                       "as unverified, and candidates that verification would "
                       "have dropped are reported. Name detect-secrets in "
                       "sandbox.network_scanners to verify"),
                    where, ASH_DETECT_SECRETS_VERIFY_FILTER);
}

static int
read_capped (const char *path, struct ash_buf *b, struct ash_error *err)
{
  _cleanup_close_ int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return ash_error_set (err, -errno, _ ("cannot open %s: %s"), path,
                          strerror (errno));
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    return ash_error_set (err, -EINVAL, _ ("%s is not a regular file"), path);
  if ((unsigned long long) st.st_size > BASELINE_MAX_BYTES)
    return ash_error_set (err, -EFBIG, _ ("%s is too large"), path);
  int r = ash_buf_read_fd (b, fd);
  if (r < 0)
    return ash_error_set (err, r, _ ("cannot read %s: %s"), path,
                          strerror (-r));
  return 0;
}

int
ash_detect_secrets_baseline_load (const char *path, const struct ash_config *c,
                                  const char *option_key,
                                  const struct ash_tier_context *ctx,
                                  const struct ash_sandbox_settings *s,
                                  bool offline, bool has_network, json_t **ret,
                                  struct ash_strvec *warnings,
                                  struct ash_error *err)
{
  char *warning = NULL;
  *ret = NULL;

  if (!ash_detect_secrets_baseline_readable (path,
                                             ctx ? ctx->source_dir : NULL, s,
                                             &warning))
    {
      ash_strvec_push_nodup (warnings, warning);
      return 0;
    }

  struct ash_buf b = ASH_BUF_INIT;
  int r = read_capped (path, &b, err);
  if (r < 0)
    {
      ash_buf_release (&b);
      return r;
    }
  if (b.len > BASELINE_MAX_BYTES)
    {
      /* It grew after the fstat.  */
      ash_buf_release (&b);
      return ash_error_set (err, -EFBIG, _ ("%s is too large"), path);
    }
  json_error_t je;
  bool over;
  json_t *doc = ash_json_loadb_budgeted (b.buf, b.len, &je, &over);
  size_t len = b.len;
  ash_buf_release (&b);
  if (over)
    {
      _cleanup_free_ char *what
        = xasprintf (_ ("the detect-secrets baseline %s"), path);
      return ash_json_over_budget (err, what, len);
    }
  if (!doc)
    return ash_error_set_at (err, -EINVAL, path, je.line, je.column,
                             _ ("the detect-secrets baseline is not valid "
                                "JSON: %s"),
                             je.text);

  /* Where the verification filter may stay.  */
  const char *why = NULL;
  struct ash_tier_verdict v = { 0 };
  struct ash_error e = ASH_ERROR_INIT;
  bool judged = ash_config_tier_judge_full (path, ctx, &v, &e) == 0;
  ash_error_release (&e);
  bool option_trusted = true;
  if (c && option_key)
    {
      bool over = false;
      int idx = ash_config_origin_index (c, option_key, &over);
      if (!over && idx >= 0)
        {
          bool may = false;
          _cleanup_free_ char *reason = NULL;
          ash_config_tier_judge_file (c, (size_t) idx, ctx, &may, &reason);
          option_trusted = may;
        }
    }
  const char *untrusted = NULL;
  if (!judged || v.in_scanned_tree)
    untrusted = _ ("the baseline is inside the scanned tree");
  else if (!option_trusted && !v.may_grant)
    untrusted = _ ("a config inside a git checkout or the scanned tree names "
                   "it, and the baseline is inside a git checkout too");
  ash_tier_verdict_release (&v);
  why = offline ? _ ("the scan is offline") : untrusted;

  /* A plugin or filter the repository names is its own code, which
     detect-secrets would run (unsandboxed under --sandbox off).  */
  struct ash_strvec removed = ASH_STRVEC_INIT;
  if (untrusted && ash_detect_secrets_strip_custom_code (doc, &removed) > 0)
    ash_strvec_push_nodup (warnings,
                           custom_code_removed_warning (path, untrusted,
                                                        &removed));
  ash_strvec_release (&removed);

  if (why)
    {
      if (ash_detect_secrets_strip_verification (doc) > 0)
        ash_strvec_push_nodup (warnings, verify_removed_warning (path, why));
    }
  else if (!has_network && ash_detect_secrets_verifies (doc))
    ash_strvec_push_nodup (warnings, verify_no_network_warning (path));
  *ret = doc;
  return 0;
}

int
ash_detect_secrets_options_filter (const struct ash_config *c,
                                   const struct ash_tier_context *ctx,
                                   bool offline, json_t *options,
                                   struct ash_strvec *warnings)
{
  static const char *const keys[] = {
    "scanners." ASH_DETECT_SECRETS_NAME ".options.scan_settings.filters_used",
    "scanners." ASH_DETECT_SECRETS_NAME ".options.scan_settings.plugins_used",
    "scanners." ASH_DETECT_SECRETS_NAME ".options.scan_settings",
    "scanners." ASH_DETECT_SECRETS_NAME ".options.filters_used",
    "scanners." ASH_DETECT_SECRETS_NAME ".options.settings",
    "scanners." ASH_DETECT_SECRETS_NAME ".options",
  };
  const char *why = NULL;
  const char *where = "scanners.detect-secrets.options";

  /* The first of KEYS set by a file that may not grant.  */
  for (size_t k = 0; k < ARRAY_SIZE (keys) && !why; k++)
    {
      bool over = false;
      int idx = ash_config_origin_index (c, keys[k], &over);
      if (over || idx < 0)
        continue;
      bool may = false;
      _cleanup_free_ char *reason = NULL;
      ash_config_tier_judge_file (c, (size_t) idx, ctx, &may, &reason);
      if (!may)
        {
          why = _ ("that config is inside a git checkout or the scanned "
                   "tree");
          if (c->files[idx].name)
            where = c->files[idx].name;
        }
    }

  struct ash_strvec removed = ASH_STRVEC_INIT;
  int n = 0;
  if (why
      && (n = ash_detect_secrets_strip_custom_code (options, &removed)) > 0)
    ash_strvec_push_nodup (warnings,
                           custom_code_removed_warning (where, why, &removed));
  ash_strvec_release (&removed);

  if (!ash_detect_secrets_verifies (options))
    return n;
  if (offline)
    {
      why = _ ("the scan is offline");
      where = "scanners.detect-secrets.options";
    }
  if (!why)
    return n;
  int v = ash_detect_secrets_strip_verification (options);
  if (v > 0)
    ash_strvec_push_nodup (warnings, verify_removed_warning (where, why));
  return n + v;
}
