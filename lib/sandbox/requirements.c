/* SPDX-License-Identifier: Apache-2.0 */
/* requirements.c -- what a scanner declares it needs from its sandbox.  */

#include <config.h>

#include "sandbox/requirements.h"

#include <errno.h>

void
ash_requirements_init (struct ash_requirements *r)
{
  memset (r, 0, sizeof *r);
  ash_strvec_init (&r->read_paths);
  ash_strvec_init (&r->cache_paths);
  ash_strvec_init (&r->cache_env);
  ash_strvec_init (&r->env_prefixes);
  ash_strvec_init (&r->env_names);
  ash_strvec_init (&r->sandbox_exec_env);
  ash_strvec_init (&r->read_path_env);
}

void
ash_requirements_release (struct ash_requirements *r)
{
  ash_strvec_release (&r->read_paths);
  ash_strvec_release (&r->cache_paths);
  ash_strvec_release (&r->cache_env);
  ash_strvec_release (&r->env_prefixes);
  ash_strvec_release (&r->env_names);
  ash_strvec_release (&r->sandbox_exec_env);
  ash_strvec_release (&r->read_path_env);
  free (r->unpack_dir_env);
  ash_requirements_init (r);
}

void
ash_requirements_copy (struct ash_requirements *dst,
                       const struct ash_requirements *src)
{
  ash_requirements_init (dst);
  dst->network = src->network;
  ash_strvec_pushv (&dst->read_paths, src->read_paths.v);
  ash_strvec_pushv (&dst->cache_paths, src->cache_paths.v);
  ash_strvec_pushv (&dst->cache_env, src->cache_env.v);
  ash_strvec_pushv (&dst->env_prefixes, src->env_prefixes.v);
  ash_strvec_pushv (&dst->env_names, src->env_names.v);
  ash_strvec_pushv (&dst->sandbox_exec_env, src->sandbox_exec_env.v);
  dst->unpack_dir_env
    = src->unpack_dir_env ? xstrdup (src->unpack_dir_env) : NULL;
  dst->read_paths_require_grant = src->read_paths_require_grant;
  dst->env_requires_grant = src->env_requires_grant;
  ash_strvec_pushv (&dst->read_path_env, src->read_path_env.v);
  dst->staged_input_only = src->staged_input_only;
  dst->system_trust_roots = src->system_trust_roots;
}

static int
parse_list (const char *key, json_t *v, struct ash_strvec *ret,
            struct ash_error *err)
{
  size_t i;
  json_t *e;

  if (!json_is_array (v))
    return ash_error_set (err, -EINVAL,
                          _ ("sandbox_requirements.%s must be a list of "
                             "strings"),
                          key);
  json_array_foreach (v, i, e)
    {
      if (!json_is_string (e))
        return ash_error_set (err, -EINVAL,
                              _ ("sandbox_requirements.%s must be a list of "
                                 "strings"),
                              key);
      ash_strvec_push (ret, json_string_value (e));
    }
  return 0;
}

static bool
valid_env_name (const char *s)
{
  if (!*s)
    return false;
  for (; *s; s++)
    if (*s == '=')
      return false;
  return true;
}

static int
exec_env_error (struct ash_error *err)
{
  return ash_error_set (err, -EINVAL,
                        _ ("sandbox_requirements.sandbox_exec_env must map "
                           "variable names to strings"));
}

static int
parse_exec_env (json_t *v, struct ash_strvec *ret, struct ash_error *err)
{
  const char *k;
  json_t *e;
  size_t i;

  if (json_is_object (v))
    {
      json_object_foreach (v, k, e)
        {
          if (!json_is_string (e) || !valid_env_name (k))
            return exec_env_error (err);
          ash_strvec_pushf (ret, "%s=%s", k, json_string_value (e));
        }
      return 0;
    }
  if (!json_is_array (v))
    return exec_env_error (err);
  json_array_foreach (v, i, e)
    {
      json_t *n = json_array_get (e, 0), *val = json_array_get (e, 1);
      if (!json_is_array (e) || json_array_size (e) != 2 || !json_is_string (n)
          || !json_is_string (val) || !valid_env_name (json_string_value (n)))
        return exec_env_error (err);
      ash_strvec_pushf (ret, "%s=%s", json_string_value (n),
                        json_string_value (val));
    }
  return 0;
}

int
ash_requirements_from_json (json_t *obj, struct ash_requirements *ret,
                            struct ash_error *err)
{
  _cleanup_ (ash_requirements_release) struct ash_requirements r;
  const char *key;
  json_t *v;
  int e = 0;

  ash_requirements_init (&r);
  if (!obj || json_is_null (obj))
    {
      *ret = r;
      ash_requirements_init (&r);
      return 0;
    }
  if (!json_is_object (obj))
    return ash_error_set (err, -EINVAL,
                          _ ("sandbox_requirements must be a mapping"));

  json_object_foreach (obj, key, v)
    {
      bool *flag = NULL;
      struct ash_strvec *list = NULL;

      if (streq (key, "network"))
        flag = &r.network;
      else if (streq (key, "read_paths_require_grant"))
        flag = &r.read_paths_require_grant;
      else if (streq (key, "env_requires_grant"))
        flag = &r.env_requires_grant;
      else if (streq (key, "staged_input_only"))
        flag = &r.staged_input_only;
      else if (streq (key, "system_trust_roots"))
        flag = &r.system_trust_roots;
      else if (streq (key, "read_paths"))
        list = &r.read_paths;
      else if (streq (key, "cache_paths"))
        list = &r.cache_paths;
      else if (streq (key, "cache_env"))
        list = &r.cache_env;
      else if (streq (key, "env_prefixes"))
        list = &r.env_prefixes;
      else if (streq (key, "env_names"))
        list = &r.env_names;
      else if (streq (key, "read_path_env"))
        list = &r.read_path_env;
      else if (streq (key, "sandbox_exec_env"))
        {
          e = parse_exec_env (v, &r.sandbox_exec_env, err);
          if (e < 0)
            return e;
          continue;
        }
      else if (streq (key, "unpack_dir_env"))
        {
          if (json_is_null (v))
            continue;
          if (!json_is_string (v) || !valid_env_name (json_string_value (v)))
            return ash_error_set (err, -EINVAL,
                                  _ ("sandbox_requirements.unpack_dir_env "
                                     "must be a variable name"));
          free (r.unpack_dir_env);
          r.unpack_dir_env = xstrdup (json_string_value (v));
          continue;
        }
      else
        return ash_error_set (err, -EINVAL,
                              _ ("unknown key sandbox_requirements.%s"), key);

      if (flag)
        {
          if (!json_is_boolean (v))
            return ash_error_set (err, -EINVAL,
                                  _ ("sandbox_requirements.%s must be true or "
                                     "false"),
                                  key);
          *flag = json_is_true (v);
        }
      else
        {
          e = parse_list (key, v, list, err);
          if (e < 0)
            return e;
        }
    }
  *ret = r;
  ash_requirements_init (&r);
  return 0;
}

static json_t *
list_json (const struct ash_strvec *sv)
{
  json_t *a = json_array ();
  for (size_t i = 0; i < sv->nr; i++)
    json_array_append_new (a, json_string (sv->v[i]));
  return a;
}

json_t *
ash_requirements_to_json (const struct ash_requirements *r)
{
  json_t *o = json_object ();
  json_object_set_new (o, "network", json_boolean (r->network));
  json_object_set_new (o, "read_paths", list_json (&r->read_paths));
  json_object_set_new (o, "cache_paths", list_json (&r->cache_paths));
  json_object_set_new (o, "cache_env", list_json (&r->cache_env));
  json_object_set_new (o, "env_prefixes", list_json (&r->env_prefixes));
  json_object_set_new (o, "env_names", list_json (&r->env_names));
  json_t *x = json_object ();
  for (size_t i = 0; i < r->sandbox_exec_env.nr; i++)
    {
      const char *kv = r->sandbox_exec_env.v[i];
      const char *eq = strchr (kv, '=');
      _cleanup_free_ char *k
        = xstrndup (kv, eq ? (size_t) (eq - kv) : strlen (kv));
      json_object_set_new (x, k, json_string (eq ? eq + 1 : ""));
    }
  json_object_set_new (o, "sandbox_exec_env", x);
  json_object_set_new (o, "unpack_dir_env",
                       r->unpack_dir_env ? json_string (r->unpack_dir_env)
                                         : json_null ());
  json_object_set_new (o, "read_paths_require_grant",
                       json_boolean (r->read_paths_require_grant));
  json_object_set_new (o, "env_requires_grant",
                       json_boolean (r->env_requires_grant));
  json_object_set_new (o, "read_path_env", list_json (&r->read_path_env));
  json_object_set_new (o, "staged_input_only",
                       json_boolean (r->staged_input_only));
  json_object_set_new (o, "system_trust_roots",
                       json_boolean (r->system_trust_roots));
  return o;
}
