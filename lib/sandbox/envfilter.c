/* SPDX-License-Identifier: Apache-2.0 */
/* envfilter.c -- the environment a sandboxed scanner gets.  */

#include <config.h>

#include "sandbox/envfilter.h"

#include <c-ctype.h>
#include <c-strcase.h>

/* The spec's list, and the words credentials are also named by (a
   deploy key, a private key, a passwd).  Matched in any position and any
   case; the longer words first, so that the reason names API_KEY rather
   than KEY.  */
static const char *const credential_words[] = {
  "TOKEN",   "PASSWORD", "PASSWD",  "SECRET",  "AUTH", "CREDENTIAL",
  "API_KEY", "APIKEY",   "PRIVATE", "SESSION", "KEY",
};

/* Variables that name a local IPC endpoint: never passed.  */
static const char *const ipc_names[] = {
  "SSH_AUTH_SOCK",  "DBUS_SESSION_BUS_ADDRESS", "DOCKER_HOST",
  "CONTAINER_HOST", "XDG_RUNTIME_DIR",
};

static const char *const baseline_names[] = {
  "PATH",           "LANG",
  "LANGUAGE",       "TZ",
  "TERM",           "SSL_CERT_FILE",
  "SSL_CERT_DIR",   "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
};

static const char *const proxy_names[] = {
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
};

static const char *const baseline_prefixes[] = { "LC_", "ASH_", "UV_" };

const char *
ash_env_credential_word (const char *name)
{
  char small[128];
  size_t n = strlen (name);
  _cleanup_free_ char *big = n < sizeof small ? NULL : xmalloc (n + 1);
  char *up = big ? big : small;
  const char *word = NULL;

  /* The words are upper case: one upper-case copy of NAME is searched
     for each of them, in the order of the list.  */
  for (size_t i = 0; i <= n; i++)
    up[i] = c_toupper (name[i]);
  for (size_t i = 0; !word && i < ARRAY_SIZE (credential_words); i++)
    if (strstr (up, credential_words[i]))
      word = credential_words[i];
  return word;
}

/* True when the word at P (up to the next white space) carries userinfo:
   an "@" with a ":" anywhere before it (user:password@; a password may
   hold "/", "?", "#" or "@" itself, and a secret is still there whether or
   not a URL parser would take it as one, so the whole word counts), or an
   "@" before the first "/", "?" or "#" (a user name alone, which is how
   tokens are put in URLs: https://TOKEN@host/).  */
static bool
word_has_userinfo (const char *p)
{
  size_t len = strcspn (p, " \t\r\n");
  const char *at = NULL;
  for (const char *q = p; q < p + len; q++)
    if (*q == '@')
      at = q;
  if (at == NULL)
    return false;
  if (memchr (p, ':', (size_t) (at - p)) != NULL)
    return true;
  size_t auth = strcspn (p, "/?# \t\r\n");
  return memchr (p, '@', auth) != NULL && p[0] != '@';
}

bool
ash_env_value_has_userinfo (const char *value)
{
  const char *p = value;
  while ((p = strstr (p, "://")) != NULL)
    {
      p += 3;
      if (word_has_userinfo (p))
        return true;
    }
  return false;
}

static bool
is_proxy_name (const char *name)
{
  for (size_t i = 0; i < ARRAY_SIZE (proxy_names); i++)
    if (c_strcasecmp (name, proxy_names[i]) == 0)
      return true;
  return false;
}

/* A proxy setting may leave out the scheme ("user:pass@proxy:3128"), and
   curl and pip still read it as a URL.  */
static bool
proxy_value_has_userinfo (const char *value)
{
  for (const char *p = value; *p;)
    {
      p += strspn (p, " \t\r\n");
      if (!*p)
        break;
      size_t len = strcspn (p, " \t\r\n");
      if (!memmem (p, len, "://", 3))
        {
          _cleanup_free_ char *w = xstrndup (p, len);
          if (word_has_userinfo (w))
            return true;
        }
      p += len;
    }
  return false;
}

bool
ash_env_name_in_baseline (const char *name)
{
  for (size_t i = 0; i < ARRAY_SIZE (baseline_names); i++)
    if (streq (name, baseline_names[i]))
      return true;
  for (size_t i = 0; i < ARRAY_SIZE (proxy_names); i++)
    if (c_strcasecmp (name, proxy_names[i]) == 0)
      {
        /* Only all upper or all lower case, as tools read them.  */
        bool upper = c_isupper (name[0]);
        for (const char *c = name; *c; c++)
          if (c_isalpha (*c) && (bool) c_isupper (*c) != upper)
            return false;
        return true;
      }
  for (size_t i = 0; i < ARRAY_SIZE (baseline_prefixes); i++)
    if (ash_str_has_prefix (name, baseline_prefixes[i]))
      return true;
  return false;
}

static bool
in_list (char *const *list, const char *name)
{
  for (size_t i = 0; list && list[i]; i++)
    if (streq (list[i], name))
      return true;
  return false;
}

static bool
declared_name (const struct ash_requirements *req, const char *name)
{
  return req && ash_strvec_contains (&req->env_names, name);
}

static bool
declared_prefix (const struct ash_requirements *req, const char *name)
{
  if (!req)
    return false;
  for (size_t i = 0; i < req->env_prefixes.nr; i++)
    if (ash_str_has_prefix (name, req->env_prefixes.v[i]))
      return true;
  return false;
}

void
ash_env_filter (char *const *environ, const struct ash_requirements *req,
                bool declared, struct ash_policy *p)
{
  ash_env_filter_allow (environ, req, declared, NULL, p);
}

void
ash_env_filter_allow (char *const *environ, const struct ash_requirements *req,
                      bool declared, char *const *allow, struct ash_policy *p)
{
  /* The reasons, each translated the first time it is given: most of
     the environment is dropped for the same few.  */
  enum
  {
    WHY_IPC,
    WHY_PRIVATE,
    WHY_CACHE,
    WHY_ALLOWLIST,
    WHY_USERINFO,
    N_WHY
  };
  static const char *const why_msgid[N_WHY] = {
    [WHY_IPC] = N_ ("names a local IPC endpoint"),
    [WHY_PRIVATE] = N_ ("set by the sandbox to a private directory"),
    [WHY_CACHE] = N_ ("not passed: ASH names each cache directory to the "
                      "scanner itself"),
    [WHY_ALLOWLIST] = N_ ("not in the allowlist"),
    [WHY_USERINFO] = N_ ("value carries user:password@ (or a user name) in "
                         "a URL"),
  };
  const char *why[N_WHY] = { NULL };
#define WHY(k) (why[k] ? why[k] : (why[k] = _ (why_msgid[k])))

  if (!environ)
    return;
  for (char *const *e = environ; *e; e++)
    {
      const char *eq = strchr (*e, '=');
      if (!eq || eq == *e)
        continue;
      _cleanup_free_ char *name = xstrndup (*e, eq - *e);
      const char *value = eq + 1;
      bool ipc = false;

      if (ash_strvec_getenv (&p->env, name))
        continue; /* a duplicate: the first one counts */
      for (size_t i = 0; i < ARRAY_SIZE (ipc_names); i++)
        if (streq (name, ipc_names[i]))
          ipc = true;
      if (ipc)
        {
          ash_policy_add_drop (p, name, WHY (WHY_IPC));
          continue;
        }
      if (streq (name, "HOME") || streq (name, "TMPDIR"))
        {
          ash_policy_add_drop (p, name, WHY (WHY_PRIVATE));
          continue;
        }
      if (streq (name, "XDG_CACHE_HOME"))
        {
          ash_policy_add_drop (p, name, WHY (WHY_CACHE));
          continue;
        }

      bool exact
        = (declared && declared_name (req, name)) || in_list (allow, name);
      if (!exact && !ash_env_name_in_baseline (name)
          && !(declared && declared_prefix (req, name)))
        {
          ash_policy_add_drop (p, name, WHY (WHY_ALLOWLIST));
          continue;
        }
      if (!exact)
        {
          const char *word = ash_env_credential_word (name);
          if (word)
            {
              _cleanup_free_ char *why
                = xasprintf (_ ("name contains %s"), word);
              ash_policy_add_drop (p, name, why);
              continue;
            }
          if (ash_env_value_has_userinfo (value)
              || (is_proxy_name (name) && proxy_value_has_userinfo (value)))
            {
              ash_policy_add_drop (p, name, WHY (WHY_USERINFO));
              continue;
            }
        }
      ash_strvec_push (&p->env, *e);
    }
#undef WHY
}
