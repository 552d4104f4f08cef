/* SPDX-License-Identifier: Apache-2.0 */
/* sandbox-settings.c -- the mode as a floor, grants only from files that
   may grant.  See "Who may grant" in ash-sandbox(7).  */

#include <config.h>

#include "config/sandbox-settings.h"

#include <errno.h>
#include <yaml.h>

#include "base/log.h"
#include "base/util.h"

/* The settings that grant access, in the order the warning names them:
   the spec's four, and env_allow, which lets named variables through the
   environment filter's credential screening.  */
static const char *const grant_keys[] = {
  "network_scanners", "extra_read_paths", "read_path_scanners",
  "env_scanners",     "env_allow",
};

void
ash_sandbox_settings_init (struct ash_sandbox_settings *s)
{
  *s = (struct ash_sandbox_settings){ 0 };
  ash_strvec_init (&s->network_scanners);
  ash_strvec_init (&s->network_restrict);
  ash_strvec_init (&s->extra_read_paths);
  ash_strvec_init (&s->read_path_scanners);
  ash_strvec_init (&s->env_scanners);
  ash_strvec_init (&s->env_allow);
  ash_strvec_init (&s->warnings);
}

void
ash_sandbox_settings_release (struct ash_sandbox_settings *s)
{
  free (s->mode);
  free (s->mode_source);
  ash_strvec_release (&s->network_scanners);
  ash_strvec_release (&s->network_restrict);
  ash_strvec_release (&s->extra_read_paths);
  ash_strvec_release (&s->read_path_scanners);
  ash_strvec_release (&s->env_scanners);
  ash_strvec_release (&s->env_allow);
  ash_strvec_release (&s->warnings);
  ash_sandbox_settings_init (s);
}

bool
ash_sandbox_settings_on (const struct ash_sandbox_settings *s)
{
  return s->mode && !streq (s->mode, "off");
}

char *const *
ash_sandbox_settings_network_scanners (const struct ash_sandbox_settings *s)
{
  return s->network_scanners_set ? s->network_scanners.v : NULL;
}

char *const *
ash_sandbox_settings_network_restrict (const struct ash_sandbox_settings *s)
{
  return s->network_restrict_set ? s->network_restrict.v : NULL;
}

void
ash_sandbox_settings_log_warnings (const struct ash_sandbox_settings *s)
{
  for (size_t i = 0; i < s->warnings.nr; i++)
    ash_warning ("%s", s->warnings.v[i]);
}

/* ---- --config-overrides values --------------------------------------- */

static json_t *
yaml_plain_scalar (const char *v, size_t len, bool quoted)
{
  if (!quoted)
    {
      if (len == 0 || streq (v, "~") || streq (v, "null") || streq (v, "Null")
          || streq (v, "NULL"))
        return json_null ();
      if (streq (v, "true") || streq (v, "True") || streq (v, "TRUE"))
        return json_true ();
      if (streq (v, "false") || streq (v, "False") || streq (v, "FALSE"))
        return json_false ();
      char *end;
      errno = 0;
      long long n = strtoll (v, &end, 10);
      if (errno == 0 && end != v && *end == '\0')
        return json_integer ((json_int_t) n);
    }
  return json_stringn (v, len);
}

/* Build a jansson value from the next node of PARSER (whose first event is
   EV, consumed by the caller).  NULL on a parse error.  */
static json_t *
yaml_node (yaml_parser_t *parser, yaml_event_t *ev, int depth)
{
  if (depth > 64)
    return NULL;
  switch (ev->type)
    {
    case YAML_SCALAR_EVENT:
      return yaml_plain_scalar ((const char *) ev->data.scalar.value,
                                ev->data.scalar.length,
                                ev->data.scalar.style
                                  != YAML_PLAIN_SCALAR_STYLE);
    case YAML_SEQUENCE_START_EVENT:
      {
        json_t *a = json_array ();
        for (;;)
          {
            yaml_event_t e;
            if (!yaml_parser_parse (parser, &e))
              {
                json_decref (a);
                return NULL;
              }
            if (e.type == YAML_SEQUENCE_END_EVENT)
              {
                yaml_event_delete (&e);
                return a;
              }
            json_t *item = yaml_node (parser, &e, depth + 1);
            yaml_event_delete (&e);
            if (!item)
              {
                json_decref (a);
                return NULL;
              }
            json_array_append_new (a, item);
          }
      }
    case YAML_MAPPING_START_EVENT:
      {
        json_t *o = json_object ();
        for (;;)
          {
            yaml_event_t k;
            if (!yaml_parser_parse (parser, &k))
              {
                json_decref (o);
                return NULL;
              }
            if (k.type == YAML_MAPPING_END_EVENT)
              {
                yaml_event_delete (&k);
                return o;
              }
            if (k.type != YAML_SCALAR_EVENT)
              {
                yaml_event_delete (&k);
                json_decref (o);
                return NULL;
              }
            _cleanup_free_ char *key
              = xstrndup ((const char *) k.data.scalar.value,
                          k.data.scalar.length);
            yaml_event_delete (&k);
            yaml_event_t v;
            if (!yaml_parser_parse (parser, &v))
              {
                json_decref (o);
                return NULL;
              }
            json_t *val = yaml_node (parser, &v, depth + 1);
            yaml_event_delete (&v);
            if (!val)
              {
                json_decref (o);
                return NULL;
              }
            json_object_set_new (o, key, val);
          }
      }
    default:
      return NULL;
    }
}

static json_t *
yaml_value_parse (const char *text)
{
  yaml_parser_t parser;
  json_t *result = NULL;
  bool done = false;

  if (!yaml_parser_initialize (&parser))
    ash_oom ();
  yaml_parser_set_input_string (&parser, (const unsigned char *) text,
                                strlen (text));
  while (!done)
    {
      yaml_event_t ev;
      if (!yaml_parser_parse (&parser, &ev))
        break;
      switch (ev.type)
        {
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_START_EVENT:
          break;
        case YAML_STREAM_END_EVENT:
        case YAML_DOCUMENT_END_EVENT:
          done = true;
          break;
        default:
          if (!result)
            result = yaml_node (&parser, &ev, 0);
          done = true;
          break;
        }
      yaml_event_delete (&ev);
    }
  yaml_parser_delete (&parser);
  return result;
}

int
ash_sandbox_settings_override_parse (const char *text, char **ret_key,
                                     json_t **ret_value, bool *ret_append,
                                     struct ash_error *err)
{
  const char *eq = strchr (text, '=');
  if (!eq || eq == text)
    return ash_error_set (err, -EINVAL,
                          _ ("%s: a config override has the form KEY=VALUE "
                             "or KEY+=VALUE"),
                          text);
  bool append = eq > text && eq[-1] == '+';
  const char *kend = append ? eq - 1 : eq;
  while (kend > text && (kend[-1] == ' ' || kend[-1] == '\t'))
    kend--;
  if (kend == text)
    return ash_error_set (err, -EINVAL, _ ("%s: the override names no key"),
                          text);
  const char *v = eq + 1;
  json_t *value = *v ? yaml_value_parse (v) : json_null ();
  if (!value)
    return ash_error_set (err, -EINVAL,
                          _ ("%s: the override's value is not valid YAML"),
                          text);
  *ret_key = xstrndup (text, (size_t) (kend - text));
  *ret_value = value;
  *ret_append = append;
  return 0;
}

/* ---- helpers on the value trees -------------------------------------- */

/* The value at "sandbox.KEY" in a file's own tree (borrowed), or NULL.  */
static json_t *
own_sandbox_value (const json_t *tree, const char *key)
{
  json_t *sb = json_object_get (tree, "sandbox");
  if (!json_is_object (sb))
    return NULL;
  json_t *v = json_object_get (sb, key);
  return json_is_null (v) ? NULL : v;
}

static void
strvec_from_json (struct ash_strvec *sv, const json_t *a)
{
  size_t i;
  json_t *item;
  ash_strvec_clear (sv);
  if (json_is_string (a))
    {
      ash_strvec_push (sv, json_string_value (a));
      return;
    }
  json_array_foreach (a, i, item)
    if (json_is_string (item))
      ash_strvec_push (sv, json_string_value (item));
}

/* The merged value at DOTTED (borrowed), or NULL.  Kept here rather than
   through ash_config_get() so that the settings need only the tree.  */
static json_t *
root_get (const struct ash_config *c, const char *dotted)
{
  json_t *v = c->root;
  _cleanup_free_ char *copy = xstrdup (dotted);
  char *save = NULL;
  for (char *part = strtok_r (copy, ".", &save); part && v;
       part = strtok_r (NULL, ".", &save))
    v = json_is_object (v) ? json_object_get (v, part) : NULL;
  return v;
}

/* How far a file is from the top of the extends chain.  */
static int
file_depth (const struct ash_config *c, size_t i)
{
  int d = 0;
  int p = c->files[i].parent;
  while (p >= 0 && (size_t) p < c->n_files && d <= (int) c->n_files)
    {
      d++;
      p = c->files[p].parent;
    }
  return d;
}

/* Rank among files that set the same key: the nearer the top of the
   chain the stronger; among the top-level files --config beats
   ASH_CONFIG beats a discovered file; otherwise the later file.  */
static bool
stronger (const struct ash_config *c, size_t a, size_t b)
{
  int da = file_depth (c, a), db = file_depth (c, b);
  if (da != db)
    return da < db;
  static const int top_rank[] = {
    [ASH_CONFIG_DEFAULTS] = 0, [ASH_CONFIG_DISCOVERED] = 1,
    [ASH_CONFIG_EXTENDS] = 1,  [ASH_CONFIG_ENV] = 2,
    [ASH_CONFIG_CLI] = 3,      [ASH_CONFIG_OVERRIDE] = 4,
  };
  int ra = top_rank[c->files[a].origin], rb = top_rank[c->files[b].origin];
  if (ra != rb)
    return ra > rb;
  return a > b;
}

/* Among the files for which WANT[i] is true, the one the merge lets win
   for sandbox.mode (the merge's own origin when it is among them), or -1.  */
static int
mode_winner (const struct ash_config *c, const bool *want)
{
  bool over = false;
  int o = ash_config_origin_index (c, "sandbox.mode", &over);
  if (o >= 0 && want[o] && own_sandbox_value (c->files[o].tree, "mode"))
    return o;
  int best = -1;
  for (size_t i = 0; i < c->n_files; i++)
    if (want[i]
        && json_is_string (own_sandbox_value (c->files[i].tree, "mode")))
      if (best < 0 || stronger (c, i, (size_t) best))
        best = (int) i;
  return best;
}

static const char *
file_label (const struct ash_config_file *f)
{
  if (f->name)
    return f->name;
  if (f->resolved)
    return f->resolved;
  return ash_config_origin_name (f->origin);
}

/* ASH_CONFIG's file when --config shadowed it and some file the
   configuration was built from may not grant: the grants then come from
   what it writes itself (when it may grant), and its mode is the
   operator's floor.  */
struct env_layer
{
  json_t *tree; /* its own values, or NULL when not used */
  bool may_grant;
  char *name;
};

/* ---- the mode ------------------------------------------------------- */

static void
decide_mode (const struct ash_options *opts, const struct ash_config *c,
             const bool *may, const struct env_layer *env,
             struct ash_sandbox_settings *s)
{
  if (opts->sandbox && *opts->sandbox)
    {
      s->mode = xstrdup (opts->sandbox);
      s->mode_source = xstrdup ("--sandbox");
      return;
    }

  /* The last override that sets the mode, directly or as part of the
     sandbox section.  */
  for (size_t i = opts->config_overrides.nr; i-- > 0;)
    {
      _cleanup_free_ char *key = NULL;
      json_t *value = NULL;
      bool append = false;
      if (ash_sandbox_settings_override_parse (opts->config_overrides.v[i],
                                               &key, &value, &append, NULL)
          < 0)
        continue;
      const char *m = NULL;
      if (streq (key, "sandbox.mode") && json_is_string (value))
        m = json_string_value (value);
      else if (streq (key, "sandbox") && json_is_object (value)
               && json_is_string (json_object_get (value, "mode")))
        m = json_string_value (json_object_get (value, "mode"));
      if (m)
        {
          s->mode = xstrdup (m);
          s->mode_source = xstrdup ("--config-overrides");
          json_decref (value);
          return;
        }
      json_decref (value);
    }

  _cleanup_free_ bool *op = xcalloc (c->n_files + 1, sizeof *op);
  _cleanup_free_ bool *repo = xcalloc (c->n_files + 1, sizeof *repo);
  for (size_t i = 0; i < c->n_files; i++)
    {
      enum ash_config_origin o = c->files[i].origin;
      if (o == ASH_CONFIG_DEFAULTS || o == ASH_CONFIG_OVERRIDE)
        continue;
      /* The operator's --config and ASH_CONFIG's file set the mode whatever
         their tier: a mode other than off grants nothing.  */
      if (o == ASH_CONFIG_CLI || o == ASH_CONFIG_ENV || may[i])
        op[i] = true;
      else
        repo[i] = true;
    }

  int w = mode_winner (c, op);
  const char *op_mode
    = w >= 0 ? json_string_value (own_sandbox_value (c->files[w].tree, "mode"))
             : NULL;
  if (op_mode && !streq (op_mode, "off"))
    {
      s->mode = xstrdup (op_mode);
      s->mode_source = xstrdup (file_label (&c->files[w]));
      return;
    }
  json_t *em = env->tree ? own_sandbox_value (env->tree, "mode") : NULL;
  if (json_is_string (em) && !streq (json_string_value (em), "off"))
    {
      s->mode = xstrdup (json_string_value (em));
      s->mode_source = xstrdup (env->name);
      return;
    }
  int rw = mode_winner (c, repo);
  if (rw >= 0)
    {
      s->mode = xstrdup (
        json_string_value (own_sandbox_value (c->files[rw].tree, "mode")));
      s->mode_source = xstrdup (file_label (&c->files[rw]));
      return;
    }
  if (op_mode)
    {
      s->mode = xstrdup (op_mode);
      s->mode_source = xstrdup (file_label (&c->files[w]));
      return;
    }
  for (size_t i = 0; i < c->n_files; i++)
    if (c->files[i].origin == ASH_CONFIG_DEFAULTS)
      {
        json_t *m = own_sandbox_value (c->files[i].tree, "mode");
        if (json_is_string (m))
          {
            s->mode = xstrdup (json_string_value (m));
            s->mode_source = xstrdup ("defaults");
            return;
          }
      }
  s->mode = xstrdup ("off");
  s->mode_source = xstrdup ("defaults");
}

/* ---- the grants ----------------------------------------------------- */

/* The value a grant takes when some file may not grant: the defaults,
   ASH_CONFIG's file, the --config file (each by its own writing, and only
   when it may grant), then the overrides.  New reference or NULL.  */
static json_t *
trusted_grant (const struct ash_options *opts, const struct ash_config *c,
               const bool *may, const struct env_layer *env, const char *key)
{
  static const enum ash_config_origin order[] = {
    ASH_CONFIG_DEFAULTS,
    ASH_CONFIG_ENV,
    ASH_CONFIG_DISCOVERED,
    ASH_CONFIG_CLI,
  };
  json_t *val = NULL;

  for (size_t k = 0; k < ARRAY_SIZE (order); k++)
    {
      for (size_t i = 0; i < c->n_files; i++)
        if (c->files[i].origin == order[k] && may[i])
          {
            json_t *v = own_sandbox_value (c->files[i].tree, key);
            if (v)
              {
                json_decref (val);
                val = json_deep_copy (v);
              }
          }
      if (order[k] == ASH_CONFIG_ENV && env->tree && env->may_grant)
        {
          json_t *v = own_sandbox_value (env->tree, key);
          if (v)
            {
              json_decref (val);
              val = json_deep_copy (v);
            }
        }
    }

  _cleanup_free_ char *dotted = xasprintf ("sandbox.%s", key);
  for (size_t i = 0; i < opts->config_overrides.nr; i++)
    {
      _cleanup_free_ char *okey = NULL;
      json_t *ov = NULL;
      bool append = false;
      if (ash_sandbox_settings_override_parse (opts->config_overrides.v[i],
                                               &okey, &ov, &append, NULL)
          < 0)
        continue;
      json_t *nv = NULL;
      if (streq (okey, dotted))
        nv = json_incref (ov);
      else if (streq (okey, "sandbox") && json_is_object (ov))
        {
          nv = json_object_get (ov, key);
          if (nv)
            json_incref (nv);
          else if (!append)
            nv = json_null (); /* a whole new section without the key */
        }
      json_decref (ov);
      if (!nv)
        continue;
      if (append && json_is_array (val))
        {
          if (json_is_array (nv))
            json_array_extend (val, nv);
          else
            json_array_append (val, nv);
          json_decref (nv);
        }
      else if (append && !json_is_array (nv) && !json_is_null (nv))
        {
          json_decref (val);
          val = json_array ();
          json_array_append_new (val, nv);
        }
      else
        {
          json_decref (val);
          val = nv;
        }
    }
  if (json_is_null (val))
    {
      json_decref (val);
      val = NULL;
    }
  return val;
}

static struct ash_strvec *
grant_vec (struct ash_sandbox_settings *s, size_t k)
{
  switch (k)
    {
    case 0:
      return &s->network_scanners;
    case 1:
      return &s->extra_read_paths;
    case 2:
      return &s->read_path_scanners;
    case 3:
      return &s->env_scanners;
    default:
      return &s->env_allow;
    }
}

/* The warning for a file that may not grant and writes NAMES.  */
static char *
untrusted_warning (const char *names, const char *file)
{
  return xasprintf (_ ("Ignoring %s from %s: that config is inside a git "
                       "checkout or the scanned tree, or was delivered by an "
                       "MCP client. A network_scanners list there still "
                       "removes network from scanners it does not name, and "
                       "a sandbox mode there still applies when nothing else "
                       "turns the sandbox on. To keep a setting, move the "
                       "file outside every git checkout, or pass the setting "
                       "with --config-overrides. A file inside the scanned "
                       "directory has to move out of it as well."),
                    names, file);
}

/* "sandbox.a, sandbox.b" for the grants TREE writes itself, or NULL.  */
static char *
written_grants (const json_t *tree)
{
  char *names = NULL;
  for (size_t k = 0; k < ARRAY_SIZE (grant_keys); k++)
    if (own_sandbox_value (tree, grant_keys[k]))
      {
        char *n = names ? xasprintf ("%s, sandbox.%s", names, grant_keys[k])
                        : xasprintf ("sandbox.%s", grant_keys[k]);
        free (names);
        names = n;
      }
  return names;
}

static void
decide_grants (const struct ash_options *opts, const struct ash_config *c,
               const bool *may, const struct env_layer *env,
               struct ash_sandbox_settings *s)
{
  s->any_untrusted = false;
  for (size_t i = 0; i < c->n_files; i++)
    if (!may[i])
      s->any_untrusted = true;

  for (size_t k = 0; k < ARRAY_SIZE (grant_keys); k++)
    {
      json_t *val;
      if (!s->any_untrusted)
        {
          _cleanup_free_ char *dotted
            = xasprintf ("sandbox.%s", grant_keys[k]);
          val = root_get (c, dotted);
          if (json_is_null (val))
            val = NULL;
          json_incref (val);
        }
      else
        val = trusted_grant (opts, c, may, env, grant_keys[k]);
      if (val)
        {
          strvec_from_json (grant_vec (s, k), val);
          if (k == 0)
            s->network_scanners_set = true;
        }
      json_decref (val);
    }
  if (!s->any_untrusted)
    return;

  /* What is dropped, once per file.  */
  for (size_t i = 0; i < c->n_files; i++)
    {
      const struct ash_config_file *f = &c->files[i];
      if (f->origin == ASH_CONFIG_DEFAULTS || f->origin == ASH_CONFIG_OVERRIDE)
        continue;
      bool top = f->origin == ASH_CONFIG_CLI || f->origin == ASH_CONFIG_ENV
                 || f->origin == ASH_CONFIG_DISCOVERED;
      if (may[i] && top)
        continue;
      _cleanup_free_ char *names = written_grants (f->tree);
      if (!names)
        continue;
      if (!may[i])
        ash_strvec_push_nodup (&s->warnings,
                               untrusted_warning (names, file_label (f)));
      else
        ash_strvec_push_nodup (
          &s->warnings,
          xasprintf (_ ("Ignoring %s from %s: it is an extends base of a "
                        "config built from a file inside a git checkout or "
                        "the scanned tree, so only what the top-level config "
                        "file writes itself grants. Pass the setting with "
                        "--config-overrides instead."),
                     names, file_label (f)));
    }

  if (env->tree && !env->may_grant)
    {
      _cleanup_free_ char *names = written_grants (env->tree);
      if (names)
        ash_strvec_push_nodup (&s->warnings,
                               untrusted_warning (names, env->name));
    }

  /* An in-tree network_scanners list still takes network away: a scanner
     gets a network only when every such list names it.  */
  for (size_t i = 0; i <= c->n_files; i++)
    {
      const json_t *tree;
      if (i == c->n_files)
        {
          if (!env->tree || env->may_grant)
            continue;
          tree = env->tree;
        }
      else if (may[i])
        continue;
      else
        tree = c->files[i].tree;
      json_t *v = own_sandbox_value (tree, "network_scanners");
      if (!json_is_array (v))
        continue;
      struct ash_strvec list = ASH_STRVEC_INIT;
      strvec_from_json (&list, v);
      if (!s->network_restrict_set)
        {
          ash_strvec_pushv (&s->network_restrict, list.v);
          s->network_restrict_set = true;
        }
      else
        for (size_t j = s->network_restrict.nr; j-- > 0;)
          if (!ash_strvec_contains (&list, s->network_restrict.v[j]))
            ash_strvec_remove (&s->network_restrict, j);
      ash_strvec_release (&list);
    }
}

/* Load ASH_CONFIG's file NAME as the grant source behind a --config that
   shadowed it: its own values only (never its extends bases), judged by
   the tier rule.  A file that cannot be loaded stops the scan, as any
   config that was asked for.  */
static int
env_layer_load (const char *name, const struct ash_tier_context *ctx,
                struct env_layer *env, struct ash_error *err)
{
  _cleanup_free_ char *abs = ash_path_absolute (name);
  json_t *tree = NULL, *positions = NULL;
  int r;

  /* Judged before it is read: a file the repository could have written
     is parsed without reading the environment, and refused if it uses
     !ENV.  */
  bool may = false;
  _cleanup_free_ char *why = NULL;
  if (ash_config_tier_judge (abs, ctx, &may, &why, NULL) < 0)
    may = false;
  _cleanup_json_ json_t *env_uses = NULL;
  struct ash_error perr = ASH_ERROR_INIT;
  r = ash_config_parse_file_env (abs, may ? 0 : ASH_CONFIG_PARSE_NO_ENV, &tree,
                                 &positions, &env_uses, &perr);
  if (r == 0 && !may)
    {
      r = ash_config_tier_refuse_env (abs, env_uses, why, &perr);
      if (r < 0)
        {
          json_decref (tree);
          json_decref (positions);
          tree = positions = NULL;
        }
    }
  if (r < 0)
    {
      /* The caller logs only the message: name the file in it.  */
      _cleanup_free_ char *what = ash_error_format (&perr);
      ash_error_release (&perr);
      if (!strstr (what, abs))
        {
          char *w = xasprintf ("%s: %s", abs, what);
          free (what);
          what = w;
        }
      return ash_error_set (err, r,
                            _ ("cannot load the file ASH_CONFIG "
                               "names: %s"),
                            what);
    }
  json_decref (positions);
  if (!json_is_object (tree))
    {
      json_decref (tree);
      return ash_error_set (err, -EINVAL,
                            _ ("%s: the configuration is not a mapping"), abs);
    }
  json_t *sb = json_object_get (tree, "sandbox");
  if (sb && !json_is_object (sb) && !json_is_null (sb))
    {
      json_decref (tree);
      return ash_error_set (err, -EINVAL, _ ("%s: sandbox must be a mapping"),
                            abs);
    }
  env->tree = tree;
  env->may_grant = may;
  env->name = ash_path_normalize (abs);
  return 0;
}

int
ash_sandbox_settings_resolve_ctx (const struct ash_options *opts,
                                  const struct ash_config *config,
                                  const struct ash_tier_context *ctx,
                                  struct ash_sandbox_settings *ret,
                                  struct ash_error *err)
{
  struct ash_sandbox_settings s;
  _cleanup_free_ bool *may = xcalloc (config->n_files + 1, sizeof *may);

  struct env_layer env = { NULL, false, NULL };
  bool any_untrusted = false, has_env = false;
  int r;

  ash_sandbox_settings_init (&s);
  for (size_t i = 0; i < config->n_files; i++)
    {
      _cleanup_free_ char *why = NULL;
      ash_config_tier_judge_file (config, i, ctx, &may[i], &why);
      any_untrusted |= !may[i];
      has_env |= config->files[i].origin == ASH_CONFIG_ENV;
    }
  if (any_untrusted && !has_env && opts->env_config && *opts->env_config)
    {
      r = env_layer_load (opts->env_config, ctx, &env, err);
      if (r < 0)
        return r;
    }
  decide_mode (opts, config, may, &env, &s);
  decide_grants (opts, config, may, &env, &s);
  json_decref (env.tree);
  free (env.name);
  *ret = s;
  return 0;
}

int
ash_sandbox_settings_resolve (const struct ash_options *opts,
                              const struct ash_config *config,
                              struct ash_sandbox_settings *ret,
                              struct ash_error *err)
{
  char *storage[3] = { NULL, NULL, NULL };
  struct ash_tier_context ctx = { 0 };
  int r;

  if (opts->source_dir)
    ash_tier_context_fill (&ctx, opts->source_dir, storage);
  else
    {
      _cleanup_free_ char *cwd = getcwd (NULL, 0);
      ash_tier_context_fill (&ctx, cwd ? cwd : ".", storage);
    }
  r = ash_sandbox_settings_resolve_ctx (opts, config, &ctx, ret, err);
  for (size_t i = 0; i < 3; i++)
    free (storage[i]);
  return r;
}

/* ---- renamed scanner sections ---------------------------------------- */

int
ash_config_renamed_scanners (const struct ash_config *c,
                             struct ash_strvec *ret_names,
                             struct ash_strvec *ret_reasons)
{
  json_t *scanners = root_get (c, "scanners");
  const char *own;
  json_t *section;
  int n = 0;

  if (!json_is_object (scanners))
    return 0;
  json_object_foreach (scanners, own, section)
    {
      json_t *name = json_object_get (section, "name");
      if (!json_is_string (name) || streq (json_string_value (name), own))
        continue;
      const char *cn = json_string_value (name);
      ash_strvec_push (ret_names, own);
      ash_strvec_push_nodup (
        ret_reasons,
        xasprintf (_ ("%s: the config names this scanner '%s', but its own "
                      "name is '%s'"),
                   cn, cn, own));
      n++;
    }
  return n;
}
