/* SPDX-License-Identifier: Apache-2.0 */
/* policy-json.c -- a policy as JSON, for `ash sandbox explain` and the
   sandbox record of the aggregated results.  Never a variable's value.  */

#include <config.h>

#include "sandbox/policy.h"

static json_t *
str_or_null (const char *s)
{
  return s ? json_string (s) : json_null ();
}

json_t *
ash_policy_env_names (const struct ash_strvec *env)
{
  json_t *a = json_array ();
  for (size_t i = 0; i < env->nr; i++)
    {
      const char *eq = strchr (env->v[i], '=');
      size_t n = eq ? (size_t) (eq - env->v[i]) : strlen (env->v[i]);
      json_array_append_new (a, json_stringn (env->v[i], n));
    }
  return a;
}

static json_t *
strings (const struct ash_strvec *sv)
{
  json_t *a = json_array ();
  for (size_t i = 0; i < sv->nr; i++)
    json_array_append_new (a, json_string (sv->v[i]));
  return a;
}

/* A string for each of a run of values that are often the same (the
   reasons a variable or a path is left out): one value, shared, while
   the text stays the same.  */
struct shared_string
{
  const char *text;
  json_t *value;
};

static json_t *
shared_string (struct shared_string *ss, const char *text)
{
  if (!ss->text || !streq (ss->text, text))
    {
      json_decref (ss->value);
      ss->text = text;
      ss->value = json_string (text);
    }
  return ss->value ? json_incref (ss->value) : NULL;
}

static json_t *
pairs (const struct ash_policy_drop *d, size_t n, const char *k1,
       const char *k2)
{
  struct shared_string why = { NULL, NULL };
  json_t *a = json_array ();

  for (size_t i = 0; i < n; i++)
    {
      json_t *o = json_object ();
      json_object_set_new_nocheck (o, k1, json_string (d[i].name));
      json_object_set_new_nocheck (o, k2, shared_string (&why, d[i].why));
      json_array_append_new (a, o);
    }
  json_decref (why.value);
  return a;
}

static json_t *
name_dirs (const struct ash_strvec *sv)
{
  json_t *a = json_array ();
  for (size_t i = 0; i < sv->nr; i++)
    {
      const char *eq = strchr (sv->v[i], '=');
      json_t *o = json_object ();
      size_t n = eq ? (size_t) (eq - sv->v[i]) : strlen (sv->v[i]);
      json_object_set_new_nocheck (o, "name", json_stringn (sv->v[i], n));
      json_object_set_new_nocheck (o, "dir", json_string (eq ? eq + 1 : ""));
      json_array_append_new (a, o);
    }
  return a;
}

json_t *
ash_policy_to_json (const struct ash_policy *p)
{
  json_t *o = json_object ();

  json_object_set_new_nocheck (o, "scanner", str_or_null (p->scanner));
  json_object_set_new_nocheck (o, "network", json_boolean (p->network));
  json_object_set_new_nocheck (o, "refusal", str_or_null (p->refusal.message));
  json_object_set_new_nocheck (o, "results_dir", str_or_null (p->results_dir));

  json_t *paths = json_array ();
  for (size_t i = 0; i < p->n_paths; i++)
    {
      json_t *e = json_object ();
      json_object_set_new_nocheck (e, "path", json_string (p->paths[i].path));
      json_object_set_new_nocheck (e, "access",
                                   json_string (
                                     ash_access_name (p->paths[i].access)));
      json_object_set_new_nocheck (e, "exec", json_boolean (p->paths[i].exec));
      json_object_set_new_nocheck (e, "rule", json_string (p->paths[i].rule));
      json_array_append_new (paths, e);
    }
  json_object_set_new_nocheck (o, "paths", paths);

  json_t *priv = json_object ();
  json_object_set_new_nocheck (priv, "tmp", json_true ());
  json_object_set_new_nocheck (priv, "home", json_true ());
  json_object_set_new_nocheck (priv, "set_by_backend",
                               strings (&p->backend_env));
  json_object_set_new_nocheck (o, "private", priv);

  json_object_set_new_nocheck (o, "home", str_or_null (p->home));
  json_object_set_new_nocheck (o, "passwd_home", str_or_null (p->passwd_home));
  json_t *links = json_array ();
  for (size_t i = 0; i < p->n_home_links; i++)
    {
      json_t *e = json_object ();
      json_object_set_new_nocheck (e, "name",
                                   json_string (p->home_links[i].name));
      json_object_set_new_nocheck (e, "target",
                                   json_string (p->home_links[i].target));
      json_array_append_new (links, e);
    }
  json_object_set_new_nocheck (o, "home_links", links);
  json_object_set_new_nocheck (o, "linked_home_dirs",
                               strings (&p->linked_home_dirs));
  json_object_set_new_nocheck (o, "env", ash_policy_env_names (&p->env));
  json_object_set_new_nocheck (o, "dropped",
                               pairs (p->dropped, p->n_dropped, "name",
                                      "why"));
  json_object_set_new_nocheck (o, "skipped",
                               pairs (p->skipped, p->n_skipped, "path",
                                      "why"));
  json_object_set_new_nocheck (o, "private_caches",
                               name_dirs (&p->private_caches));
  json_object_set_new_nocheck (o, "sandbox_exec_env",
                               strings (&p->sandbox_exec_env));
  json_object_set_new_nocheck (o, "unpack_dir_env",
                               str_or_null (p->unpack_dir_env));
  json_object_set_new_nocheck (o, "system_trust_roots",
                               json_boolean (p->system_trust_roots));
  json_object_set_new_nocheck (o, "staged_input_only",
                               json_boolean (p->staged_input_only));
  json_object_set_new_nocheck (o, "warnings", strings (&p->warnings));
  json_t *hide = json_array ();
  struct shared_string why = { NULL, NULL };
  for (size_t i = 0; i < p->n_hidden; i++)
    {
      json_t *e = json_object ();
      if (p->hidden[i].env)
        json_object_set_new_nocheck (e, "path",
                                     json_sprintf ("$%s", p->hidden[i].env));
      else
        json_object_set_new_nocheck (e, "path",
                                     json_string (p->hidden[i].path));
      json_object_set_new_nocheck (e, "why",
                                   shared_string (&why, p->hidden[i].why));
      json_array_append_new (hide, e);
    }
  json_decref (why.value);
  json_object_set_new_nocheck (o, "hide", hide);
  json_object_set_new_nocheck (o, "show", strings (&p->shown));
  if (p->mounts_listed)
    {
      json_object_set_new_nocheck (o, "readonly_mounts",
                                   strings (&p->readonly_mounts));
      json_object_set_new_nocheck (o, "mounts_error",
                                   str_or_null (p->mounts_error));
    }
  if (p->masked.nr)
    json_object_set_new_nocheck (o, "masked", strings (&p->masked));
  return o;
}
