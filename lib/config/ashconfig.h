/* SPDX-License-Identifier: Apache-2.0 */
/* ashconfig.h -- the resolved configuration and where each value came from.

   Files are YAML (libyaml) or JSON (.json, jansson) and are loaded into one
   jansson value tree.  For every file the path it was found under and the
   path it resolves to are kept, and for every value the file (or override)
   it came from, so that lib/config/config-tier.c can decide who may grant.  */

#ifndef ASH_CONFIG_H
#define ASH_CONFIG_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/strvec.h"

enum ash_config_origin
{
  ASH_CONFIG_DEFAULTS = 0, /* the built-in default configuration */
  ASH_CONFIG_CLI,          /* --config */
  ASH_CONFIG_ENV,          /* ASH_CONFIG */
  ASH_CONFIG_DISCOVERED,   /* found in the source directory */
  ASH_CONFIG_EXTENDS,      /* named by another file's extends */
  ASH_CONFIG_OVERRIDE,     /* a --config-overrides entry */
};

struct ash_config_file
{
  enum ash_config_origin origin;
  char *name;          /* absolute path it was found under (not resolved) */
  char *resolved;      /* the file it resolves to (realpath) */
  char *extends_entry; /* for ASH_CONFIG_EXTENDS: the text of the entry */
  int parent;          /* index of the file whose extends named it, or -1 */
  json_t *tree;        /* this file's own values (new reference) */
  json_t *positions;   /* object: "dotted.key.path" (list items as
                          "a.b[0]") -> [line, column] of the key or item
                          in this file; best effort for .json files */
  json_t *env_uses;    /* array: [line, column] of every !ENV scalar in
                          this file (never its value) */
  /* Filled by config-tier.c.  */
  bool may_grant;
  char *tier_reason; /* why it may not grant, or NULL */
};

struct ash_config
{
  json_t *root;                  /* the merged configuration */
  struct ash_config_file *files; /* every contributing file, in load order */
  size_t n_files;
  json_t *origins;    /* object: "dotted.key.path" -> integer index into
                         FILES, or the override text (string) */
  bool from_defaults; /* no file was found: built-in defaults */
  /* Additions: the overrides applied, in order (their text is what
     ORIGINS names for the values they set).  */
  struct ash_strvec overrides;
};

/* FILES[0] is always the built-in default configuration (origin
   ASH_CONFIG_DEFAULTS, NAME and RESOLVED NULL, PARENT -1); it lies under
   everything else.  When a file was given or found, FILES[1] is that file
   (ASH_CONFIG_CLI, ASH_CONFIG_ENV or ASH_CONFIG_DISCOVERED) and FILES[2..]
   are its extends chain in the order they were followed, each with PARENT
   the index of the file whose extends entry named it.  Merge order: the
   defaults, then the deepest base, ..., then FILES[1], then the overrides.
   The "extends" key itself is consumed and does not appear in ROOT.  */

struct ash_config_request
{
  const char *source_dir;  /* absolute */
  const char *config_path; /* --config, or NULL */
  const char *env_config;  /* ASH_CONFIG, or NULL */
  char *const *overrides;  /* NULL-terminated, in order, or NULL */
};

void ash_config_init (struct ash_config *c);
void ash_config_release (struct ash_config *c);
#define _cleanup_config_ _cleanup_ (ash_config_release)

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

/* Where the value at DOTTED came from: the index into C->files (>= 0), or
   -1 with *RET_OVERRIDE set to the override text, or -2 when unknown.  */
int ash_config_origin_of (const struct ash_config *c, const char *dotted,
                          const char **ret_override);

/* What a configuration file may hold.  A file larger than
   ASH_CONFIG_MAX_SIZE is refused unread.  A document of nested aliases (a
   "billion laughs") is a few hundred bytes that expand to billions of
   nodes: every node of the tree the loader builds, each copy an alias
   makes included, counts against ASH_CONFIG_MAX_NODES, and every byte of
   its strings (keys included) against ASH_CONFIG_MAX_BYTES, so that what a
   file expands to stays within a small multiple of what a real
   configuration needs; no node may lie deeper than ASH_CONFIG_MAX_DEPTH.
   Past any of them the parse fails with -E2BIG (the size: -EFBIG) and
   builds nothing more.  */
#define ASH_CONFIG_MAX_SIZE (16 * 1024 * 1024)
#define ASH_CONFIG_MAX_DEPTH 64
#define ASH_CONFIG_MAX_NODES 200000
#define ASH_CONFIG_MAX_BYTES (64 * 1024 * 1024)

/* Parse one configuration file (YAML, or JSON when its name ends in
   ".json") into a new tree and the positions of its keys.  No schema
   check, no extends.  !ENV tags are expanded from the environment.  */
int ash_config_parse_file (const char *path, json_t **ret_tree,
                           json_t **ret_positions, struct ash_error *err);
/* Parse YAML text (NAME is used in error messages).  */
int ash_config_parse_yaml (const char *text, size_t len, const char *name,
                           json_t **ret_tree, json_t **ret_positions,
                           struct ash_error *err);

/* For the _env variants: do not read the environment.  A scalar tagged
   !ENV is then not expanded (it reads as null, and nothing of its text
   is kept); only its place is recorded.  */
#define ASH_CONFIG_PARSE_NO_ENV 0x1u

/* The same, with FLAGS, and the place of every scalar tagged !ENV:
   *RET_ENV_USES (when RET_ENV_USES is not NULL) gets a new array of
   [line, column] pairs, in the order they occur.  An anchor's !ENV that
   aliases copy counts once.  */
int ash_config_parse_file_env (const char *path, unsigned flags,
                               json_t **ret_tree, json_t **ret_positions,
                               json_t **ret_env_uses, struct ash_error *err);
int ash_config_parse_yaml_env (const char *text, size_t len, const char *name,
                               unsigned flags, json_t **ret_tree,
                               json_t **ret_positions, json_t **ret_env_uses,
                               struct ash_error *err);

/* A plain YAML scalar resolved by the YAML 1.2 core schema (null,
   true/false, integers, floats, else a string: "off" stays a string).  New
   reference.  */
json_t *ash_config_resolve_plain (const char *s);

/* The names discovery tries, in order: every name in the source root,
   then every name in SOURCE/.ash/.  */
extern const char *const ash_config_discovery_names[];

/* Render VALUE as YAML (block style) / JSON; newly allocated.  */
char *ash_config_to_yaml (const json_t *value);
char *ash_config_to_json (const json_t *value);

/* The built-in default configuration as YAML text.  */
extern const char ash_default_config_yaml[];
/* The same, as the JSON text of the tree ash_config_parse_yaml() makes of
   it (lib/config/config-default-json.h, made by `make
   update-default-config-json`; test-config checks that they agree): what
   every run loads, faster than the YAML.  */
extern const char ash_default_config_json[];

#endif
