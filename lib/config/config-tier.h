/* SPDX-License-Identifier: Apache-2.0 */
/* config-tier.h -- which files may grant sandbox access.

   A file the scanned repository could have written may not grant: one
   inside a git checkout (a directory at or above it holds a .git entry) or
   inside the scanned directory.  A file is judged by the name it was found
   under and by the file it resolves to, and every symlink met while
   resolving it counts: a path that leads through a link inside a checkout
   counts as inside that checkout.  The same rule judges extends bases,
   plugin module files and the tool config files a scanner option names.  */

#ifndef ASH_CONFIG_TIER_H
#define ASH_CONFIG_TIER_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"
#include "config/ashconfig.h"

/* The three spellings of the scanned directory.  Any may be NULL.  */
struct ash_tier_context
{
  const char *source_dir;          /* as named (absolute) */
  const char *source_dir_resolved; /* its realpath */
  const char *pwd;                 /* its spelling through $PWD, when the
                                      shell reached it through a link */
};

/* What ash_config_tier_judge_full() found.  */
struct ash_tier_verdict
{
  bool may_grant;
  char *reason;   /* NULL when it may grant */
  char *checkout; /* the directory holding the .git entry, or NULL */
  char *link;     /* the link that led into the checkout or tree, or NULL */
  bool in_scanned_tree;
  char *resolved; /* the path NAME resolves to (as far as it exists) */
};

/* Fill CTX's strings from SOURCE_DIR (absolute) and the environment:
   its realpath, and its spelling through $PWD when $PWD names the working
   directory and SOURCE_DIR lies at or below it.  The strings are stored
   in STORAGE (three slots, freed by the caller with free()).  */
void ash_tier_context_fill (struct ash_tier_context *ctx,
                            const char *source_dir, char *storage[3]);

void ash_tier_verdict_release (struct ash_tier_verdict *v);

/* Judge NAME (an absolute path; a relative one is taken against the
   working directory).  0 on success with RET filled; a negative errno
   only when the judgement could not be made (then NAME counts as one
   that may not grant).  A name that does not exist is judged by its
   spelling and by the part of it that exists.  */
int ash_config_tier_judge_full (const char *name,
                                const struct ash_tier_context *ctx,
                                struct ash_tier_verdict *ret,
                                struct ash_error *err);

/* The same, returning only whether NAME may grant and, when it may not,
   why (newly allocated; NULL when it may).  */
int ash_config_tier_judge (const char *name,
                           const struct ash_tier_context *ctx,
                           bool *ret_may_grant, char **ret_reason,
                           struct ash_error *err);

/* Judge file I of C (without changing C): the defaults and the overrides
   may grant; any other file is judged by its name, its resolved path and,
   for an extends base, the path its extends entry names.  RET_REASON is
   newly allocated, NULL when the file may grant.  A judgement that fails
   counts as one that may not grant.  */
void ash_config_tier_judge_file (const struct ash_config *c, size_t i,
                                 const struct ash_tier_context *ctx,
                                 bool *ret_may_grant, char **ret_reason);

/* Fill may_grant and tier_reason of every file of C.  The defaults and
   the overrides may grant; a file is judged by its name and its resolved
   path, and an extends base also by the path its extends entry names
   (relative entries taken against both spellings of the naming file's
   directory).  A judgement that fails leaves the file unable to grant.  */
int ash_config_tier_judge_all (struct ash_config *c,
                               const struct ash_tier_context *ctx,
                               struct ash_error *err);

/* A file the repository could have written (WHY says so; may be NULL)
   may not read ASH's environment: when ENV_USES (the [line, column]
   array ash_config_parse_file_env() records) is not empty, set ERR at
   the first !ENV of FILE and return -EACCES; else 0.  The message names
   no variable and no value.  */
int ash_config_tier_refuse_env (const char *file, const json_t *env_uses,
                                const char *why, struct ash_error *err);

/* True when any file C was built from may not grant.  */
bool ash_config_tier_any_untrusted (const struct ash_config *c);

/* The name of an origin: "defaults", "--config", "ASH_CONFIG",
   "discovered", "extends", "--config-overrides".  */
const char *ash_config_origin_name (enum ash_config_origin o);

/* `ash config get --explain-tiers`: each contributing file, its origin,
   tier and reason.  New reference:
   {"files": [{"index", "origin", "name", "resolved", "extends_entry",
               "parent", "may_grant", "tier", "reason",
               "env_tags": [[line, column], ...]}],
    "any_untrusted": bool}  */
json_t *ash_config_tiers_to_json (const struct ash_config *c);
/* The same as text, one block per file (newly allocated).  */
char *ash_config_tiers_to_text (const struct ash_config *c);

/* A tool config file (or any path) that a scanner option names: when the
   option was set by a file that may not grant, PATH is judged by the tier
   rule; when the operator set it (a file that may grant, an override),
   it is trusted wherever it is.  OPTION_KEY is the dotted key
   ("scanners.trivy.options.config_file").  RET_TRUSTED is true when the
   file may be treated as the operator's; RET_REASON says why not.  */
int ash_config_option_file_trusted (const struct ash_config *c,
                                    const char *option_key, const char *path,
                                    const struct ash_tier_context *ctx,
                                    bool *ret_trusted, char **ret_reason,
                                    struct ash_error *err);

/* The index into C->files of the file that set DOTTED, or -1 when an
   override set it or no file did (RET_OVERRIDE tells which; may be
   NULL).  */
int ash_config_origin_index (const struct ash_config *c, const char *dotted,
                             bool *ret_override);

#endif
