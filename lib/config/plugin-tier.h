/* SPDX-License-Identifier: Apache-2.0 */
/* plugin-tier.h -- which plugin modules a configuration may name.

   A config file that may not grant (inside a git checkout or the scanned
   tree) may name only modules installed outside the tree and outside
   every checkout, found by name on the plugin search path; never
   ash_aws_plugins or ash_snyk_plugins.  --ash-plugin-modules and the
   operator's files name any module.  */

#ifndef ASH_PLUGIN_TIER_H
#define ASH_PLUGIN_TIER_H

#include "base/error.h"
#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/config-tier.h"
#include "config/options.h"

/* Decide which modules load.  SEARCH_DIRS (NULL-terminated, or NULL for
   $ASH_PLUGIN_PATH then PKGDATADIR/plugins) is where installed modules
   are found as NAME.yaml.  RET_ALLOWED gets, in order, the modules of
   --ash-plugin-modules, then those of the configuration that may load:
   an operator's entry as written, a repository's entry as the absolute
   path of the installed file that was judged (load exactly that file).
   RET_WARNINGS gets one warning per refused entry.  */
int ash_plugin_modules_allowed (const struct ash_config *c,
                                const struct ash_options *o,
                                const struct ash_tier_context *ctx,
                                char *const *search_dirs,
                                struct ash_strvec *ret_allowed,
                                struct ash_strvec *ret_warnings,
                                struct ash_error *err);

/* The same, and RET_NAMED_BY (may be NULL) gets, for each entry of
   RET_ALLOWED in the same order, the name of the config file that may
   not grant which named it, or "" when the operator named it (then the
   module may grant what it declares).  A module a repository's config
   names may still be refused once its declaration is read: see
   ash_plugin_module_refusal().  */
int ash_plugin_modules_allowed_by (
  const struct ash_config *c, const struct ash_options *o,
  const struct ash_tier_context *ctx, char *const *search_dirs,
  struct ash_strvec *ret_allowed, struct ash_strvec *ret_named_by,
  struct ash_strvec *ret_warnings, struct ash_error *err);

/* The warning for a module ENTRY, named by FILE (a config that may not
   grant), that declares WHAT (e.g. "a network"): only a config file that
   may grant can enable such a module.  Newly allocated.  */
char *ash_plugin_module_refusal (const char *entry, const char *file,
                                 const char *what);

/* The ash module file name for upstream's Python package ENTRY
   (automated_security_helper.plugin_modules.ash_trivy_plugins, or
   ash_trivy_plugins: trivy-repo; ash_snyk_plugins: snyk-code;
   ash_ferret_plugins: ferret-scan), or ENTRY itself.  */
const char *ash_plugin_module_map (const char *entry);

/* True for ash_aws_plugins and ash_snyk_plugins, by name or file name, or
   by upstream's full module name.  */
bool ash_plugin_module_is_reserved (const char *entry);

#endif
