/* SPDX-License-Identifier: Apache-2.0 */
/* envfilter.h -- the environment a sandboxed scanner gets.

   An allowlist: locale (LANG, LANGUAGE, LC_*), PATH, TZ, TERM, the TLS
   settings (SSL_CERT_FILE, SSL_CERT_DIR, REQUESTS_CA_BUNDLE,
   CURL_CA_BUNDLE, NODE_EXTRA_CA_CERTS), the proxy settings in either case
   (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY), ASH_* and UV_*, plus the
   scanner's declared env_prefixes and env_names.  Inside it, a name that
   looks like a credential (TOKEN, PASSWORD, PASSWD, SECRET, AUTH,
   CREDENTIAL, API_KEY, APIKEY, PRIVATE, SESSION, KEY, in any position and
   case) or a value carrying userinfo in a URL (user:password@, or a user
   name alone, as a token is often given) is dropped unless the scanner
   names that exact variable or the operator's sandbox.env_allow does.  The
   variables naming local IPC endpoints are never passed, XDG_CACHE_HOME is not
   passed, and HOME and TMPDIR are left for the backend to set to its private
   directories.  Every dropped name is recorded with why (never its value).  */

#ifndef ASH_ENVFILTER_H
#define ASH_ENVFILTER_H

#include <stdbool.h>

#include "sandbox/policy.h"
#include "sandbox/requirements.h"

/* The credential word NAME contains (TOKEN, PASSWORD, PASSWD, SECRET,
   AUTH, CREDENTIAL, API_KEY, APIKEY, PRIVATE, SESSION, KEY;
   case-insensitive), or NULL.  */
const char *ash_env_credential_word (const char *name);

/* True when VALUE holds a URL with userinfo: user:password@, or a user
   name alone before the host.  */
bool ash_env_value_has_userinfo (const char *value);

/* True when NAME is in the baseline allowlist (before credential
   screening).  */
bool ash_env_name_in_baseline (const char *name);

/* Filter ENVIRON (NAME=VALUE, NULL-terminated, may be NULL) into P->env,
   recording each dropped name in P->dropped.  DECLARED is false when the
   scanner's env_prefixes and env_names were withheld (env_requires_grant
   without a grant): they then count as not declared.  */
void ash_env_filter (char *const *environ, const struct ash_requirements *req,
                     bool declared, struct ash_policy *p);

/* The same, where ALLOW (NULL-terminated, or NULL) lists exact names the
   operator's config lets through (sandbox.env_allow, a grant): each
   counts as named by the scanner, so it passes the allowlist and the
   credential screening.  The IPC names, HOME, TMPDIR and XDG_CACHE_HOME
   are never passed.  */
void ash_env_filter_allow (char *const *environ,
                           const struct ash_requirements *req, bool declared,
                           char *const *allow, struct ash_policy *p);

#endif
