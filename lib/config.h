/* config.h -- the resolved configuration and where each value came from.

   Files are YAML (libyaml) or JSON (.json, jansson) and are loaded into one
   jansson value tree.  For every file the path it was found under and the
   path it resolves to are kept, and for every value the file (or override)
   it came from, so that lib/config-tier.c can decide who may grant.  */

#ifndef ASH_CONFIG_H
#define ASH_CONFIG_H

#include <jansson.h>
#include <stdbool.h>

#include "error.h"
#include "strvec.h"

enum ash_config_origin
{
  ASH_CONFIG_DEFAULTS = 0,  /* the built-in default configuration */
  ASH_CONFIG_CLI,           /* --config */
  ASH_CONFIG_ENV,           /* ASH_CONFIG */
  ASH_CONFIG_DISCOVERED,    /* found in the source directory */
  ASH_CONFIG_EXTENDS,       /* named by another file's extends */
  ASH_CONFIG_OVERRIDE,      /* a --config-overrides entry */
};

struct ash_config_file
{
  enum ash_config_origin origin;
  char *name;          /* absolute path it was found under (not resolved) */
  char *resolved;      /* the file it resolves to (realpath) */
  char *extends_entry; /* for ASH_CONFIG_EXTENDS: the text of the entry */
  int parent;          /* index of the file whose extends named it, or -1 */
  json_t *tree;        /* this file's own values (new reference) */
  /* Filled by config-tier.c.  */
  bool may_grant;
  char *tier_reason;   /* why it may not grant, or NULL */
};

struct ash_config
{
  json_t *root;                  /* the merged configuration */
  struct ash_config_file *files; /* every contributing file, in load order */
  size_t n_files;
  json_t *origins;   /* object: "dotted.key.path" -> integer index into
                        FILES, or the override text (string) */
  bool from_defaults; /* no file was found: built-in defaults */
};

struct ash_config_request
{
  const char *source_dir;        /* absolute */
  const char *config_path;       /* --config, or NULL */
  const char *env_config;        /* ASH_CONFIG, or NULL */
  char *const *overrides;        /* NULL-terminated, in order, or NULL */
};

void ash_config_init (struct ash_config *c);
void ash_config_release (struct ash_config *c);

/* Resolve the configuration: --config, else ASH_CONFIG, else discovery in
   the source directory, else the defaults; extends; validation; then the
   overrides.  Any error (a file that was asked for and is missing, a parse
   error, an unknown key, a wrong type, a bad override, a missing extends
   base, an extends cycle) returns a negative errno with ERR naming the
   file, line and column (for overrides: the override text).  */
int ash_config_load (const struct ash_config_request *req,
                     struct ash_config *ret, struct ash_error *err);

/* Accessors on the merged tree by dotted path ("scanners.bandit.enabled").
   Borrowed reference, or NULL.  */
json_t *ash_config_get (const struct ash_config *c, const char *dotted);
bool ash_config_get_bool (const struct ash_config *c, const char *dotted,
                          bool dflt);
const char *ash_config_get_string (const struct ash_config *c,
                                   const char *dotted);

/* The built-in default configuration as YAML text.  */
extern const char ash_default_config_yaml[];

#endif
