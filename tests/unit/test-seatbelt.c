/* SPDX-License-Identifier: Apache-2.0 */
/* Tests of the Seatbelt profile generator (lib/sandbox/seatbelt.c).

   For every builtin scanner, offline and online, the policy is computed
   over a fixed host layout in a temporary directory and the profile built
   from it must:
     - parse as S-expressions: balanced, every string quoted, only rule
       words as bare atoms;
     - name no path: no string starts with "/", no parameter's value
       appears in the text, every parameter is used and every reference is
       defined;
     - hold each rule of the spec, in the order that makes it hold (SBPL's
       last matching rule wins);
     - equal its golden copy in tests/fixtures/seatbelt/NAME-MODE.sb
       (ASH_SEATBELT_REGEN=DIR writes them there instead).
   A policy with hostile paths (quotes, parentheses, newlines) must give a
   profile that still parses and holds none of it.  */

#include <config.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "sandbox/policy.h"
#include "sandbox/requirements.h"
#include "sandbox/scanner-reqs.h"
#include "sandbox/seatbelt.h"
#include "tap.h"

static char *root;

static void
mkdir_p (const char *path)
{
  _cleanup_free_ char *p = xstrdup (path);
  for (char *s = p + 1; *s; s++)
    if (*s == '/')
      {
        *s = '\0';
        mkdir (p, 0755);
        *s = '/';
      }
  mkdir (p, 0755);
}

static char *
under (const char *rel)
{
  return ash_path_join (root, rel);
}

static int
rm_cb (const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
  (void) remove (p);
  return 0;
}

/* One top-level form of the profile: its words before the first filter,
   and the parameters it names.  */
struct form
{
  char *head;               /* "allow file-read*", "deny default", ... */
  struct ash_strvec params; /* parameter names, in order */
  struct ash_strvec names;  /* quoted strings that are not parameter
                               names (Mach services) */
};

struct parsed
{
  struct form *forms;
  size_t n;
  char *error; /* NULL when it parses */
};

static bool
atom_char (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
         || c == '*' || c == '#';
}

/* A small reader: comments, parentheses, quoted strings without escapes
   or line breaks, and atoms of rule words.  */
static void
parse (const char *s, struct parsed *ret)
{
  int depth = 0;
  struct form *cur = NULL;
  bool after_param = false;

  memset (ret, 0, sizeof *ret);
  for (const char *p = s; *p;)
    {
      if (*p == ';')
        {
          p += strcspn (p, "\n");
          continue;
        }
      if (*p == ' ' || *p == '\n' || *p == '\t')
        {
          p++;
          continue;
        }
      if (*p == '(')
        {
          if (depth == 0)
            {
              ret->forms
                = xreallocarray (ret->forms, ret->n + 1, sizeof *ret->forms);
              cur = &ret->forms[ret->n++];
              cur->head = xstrdup ("");
              ash_strvec_init (&cur->params);
              ash_strvec_init (&cur->names);
            }
          depth++;
          p++;
          continue;
        }
      if (*p == ')')
        {
          if (--depth < 0)
            {
              ret->error = xstrdup ("unbalanced ')'");
              return;
            }
          after_param = false;
          p++;
          continue;
        }
      if (*p == '"')
        {
          size_t n = strcspn (p + 1, "\"\n\\");
          if (p[1 + n] != '"')
            {
              ret->error
                = xasprintf ("bad string at offset %zu", (size_t) (p - s));
              return;
            }
          _cleanup_free_ char *str = xstrndup (p + 1, n);
          if (!cur || depth == 0)
            {
              ret->error = xstrdup ("string outside a form");
              return;
            }
          if (after_param)
            ash_strvec_push (&cur->params, str);
          else
            ash_strvec_push (&cur->names, str);
          after_param = false;
          p += n + 2;
          continue;
        }
      if (atom_char (*p))
        {
          size_t n = 0;
          while (atom_char (p[n]))
            n++;
          _cleanup_free_ char *w = xstrndup (p, n);
          if (depth == 0)
            {
              ret->error = xasprintf ("bare atom '%s' at top level", w);
              return;
            }
          after_param = streq (w, "param");
          if (!streq (w, "param") && !streq (w, "subpath")
              && !streq (w, "literal") && !streq (w, "global-name")
              && !streq (w, "global-name-prefix"))
            {
              char *h
                = xasprintf ("%s%s%s", cur->head, *cur->head ? " " : "", w);
              free (cur->head);
              cur->head = h;
            }
          p += n;
          continue;
        }
      ret->error = xasprintf ("unexpected character '%c' at offset %zu", *p,
                              (size_t) (p - s));
      return;
    }
  if (depth != 0)
    ret->error = xasprintf ("%d unclosed '('", depth);
}

static void
parsed_release (struct parsed *p)
{
  for (size_t i = 0; i < p->n; i++)
    {
      free (p->forms[i].head);
      ash_strvec_release (&p->forms[i].params);
      ash_strvec_release (&p->forms[i].names);
    }
  free (p->forms);
  free (p->error);
}

/* The parameter name that holds VALUE, or NULL.  */
static char *
param_of (const struct ash_seatbelt *sb, const char *value)
{
  for (size_t i = 0; i < sb->params.nr; i++)
    {
      const char *eq = strchr (sb->params.v[i], '=');
      if (eq && streq (eq + 1, value))
        return xstrndup (sb->params.v[i], (size_t) (eq - sb->params.v[i]));
    }
  return NULL;
}

/* The index of the last form with HEAD that names VALUE's parameter (or,
   with VALUE NULL, any form with HEAD); -1 when none.  */
static long
last_form (const struct parsed *pp, const struct ash_seatbelt *sb,
           const char *head, const char *value)
{
  _cleanup_free_ char *name = value ? param_of (sb, value) : NULL;
  if (value && !name)
    return -1;
  for (size_t i = pp->n; i-- > 0;)
    if (streq (pp->forms[i].head, head)
        && (!name || ash_strvec_contains (&pp->forms[i].params, name)))
      return (long) i;
  return -1;
}

static long
last_form_name (const struct parsed *pp, const char *head, const char *name)
{
  for (size_t i = pp->n; i-- > 0;)
    if (streq (pp->forms[i].head, head)
        && ash_strvec_contains (&pp->forms[i].names, name))
      return (long) i;
  return -1;
}

static char *
read_text (const char *path)
{
  FILE *f = fopen (path, "re");
  struct ash_buf b = ASH_BUF_INIT;
  char chunk[4096];
  size_t n;

  if (!f)
    return NULL;
  while ((n = fread (chunk, 1, sizeof chunk, f)) > 0)
    ash_buf_add (&b, chunk, n);
  fclose (f);
  return ash_buf_detach (&b);
}

/* The checks every profile must pass.  */
static void
check_profile (const char *name, const struct ash_policy *pol,
               const struct ash_seatbelt_spawn *sp,
               const struct ash_seatbelt *sb)
{
  struct parsed pp;
  const char *text = sb->profile.buf;
  bool ok;

  parse (text, &pp);
  if (!tap_ok (!pp.error, "%s: parses as S-expressions", name))
    tap_diag ("%s", pp.error);

  /* No raw path.  */
  ok = true;
  for (const char *p = strchr (text, '"'); p; p = strchr (p + 1, '"'))
    if (p[1] == '/')
      ok = false;
  for (size_t i = 0; i < sb->params.nr; i++)
    {
      const char *v = strchr (sb->params.v[i], '=') + 1;
      if (strstr (text, v))
        {
          tap_diag ("%s: path %s is in the text", name, v);
          ok = false;
        }
    }
  if (strstr (text, root))
    ok = false;
  tap_ok (ok, "%s: no path in the profile's text", name);

  /* Parameters: every one used, every reference defined.  */
  ok = true;
  for (size_t i = 0; i < sb->params.nr; i++)
    {
      _cleanup_free_ char *n
        = xstrndup (sb->params.v[i], strcspn (sb->params.v[i], "="));
      _cleanup_free_ char *ref = xasprintf ("(param \"%s\")", n);
      if (!strstr (text, ref))
        {
          tap_diag ("%s: parameter %s unused", name, n);
          ok = false;
        }
    }
  for (size_t i = 0; i < pp.n; i++)
    for (size_t j = 0; j < pp.forms[i].params.nr; j++)
      {
        bool found = false;
        size_t len = strlen (pp.forms[i].params.v[j]);
        for (size_t k = 0; k < sb->params.nr; k++)
          if (strneq (sb->params.v[k], pp.forms[i].params.v[j], len)
              && sb->params.v[k][len] == '=')
            found = true;
        if (!found)
          {
            tap_diag ("%s: parameter %s undefined", name,
                      pp.forms[i].params.v[j]);
            ok = false;
          }
      }
  tap_ok (ok, "%s: parameters defined and used", name);

  /* Deny by default, first.  */
  tap_ok (pp.n > 1 && streq (pp.forms[0].head, "version 1")
            && streq (pp.forms[1].head, "deny default"),
          "%s: denies by default", name);

  /* No rule without a filter that would open a whole class.  */
  ok = true;
  for (size_t i = 0; i < pp.n; i++)
    {
      const char *h = pp.forms[i].head;
      if (pp.forms[i].params.nr == 0 && pp.forms[i].names.nr == 0
          && ash_str_has_prefix (h, "allow ") && !streq (h, "allow file-read*")
          && !streq (h, "allow process-fork")
          && !streq (h, "allow signal target same-sandbox")
          && !streq (h, "allow process-info* target same-sandbox")
          && !streq (h, "allow sysctl-read")
          && !streq (h, "allow user-preference-read")
          && !streq (h, "allow ipc-posix-sem")
          && !streq (h, "allow ipc-posix-shm")
          && !(pol->network
               && (streq (h, "allow system-socket")
                   || streq (h, "allow network-outbound remote ip")
                   || streq (h, "allow network-inbound local ip")
                   || streq (h, "allow network-bind local ip"))))
        {
          tap_diag ("%s: unfiltered rule (%s)", name, h);
          ok = false;
        }
    }
  tap_ok (ok, "%s: no unfiltered allow beyond the baseline", name);

  /* Reads: everywhere, then the homes and shared temporary directories
     denied, then the policy's paths allowed again.  */
  long read_all = -1;
  for (size_t i = 0; i < pp.n && read_all < 0; i++)
    if (streq (pp.forms[i].head, "allow file-read*")
        && pp.forms[i].params.nr == 0)
      read_all = (long) i;
  long deny_home = last_form (&pp, sb, "deny file-read*", pol->home);
  long deny_pw = last_form (&pp, sb, "deny file-read*", pol->passwd_home);
  long deny_tmp = last_form (&pp, sb, "deny file-read*", "/private/tmp");
  long deny_vtmp = last_form (&pp, sb, "deny file-read*", "/var/tmp");
  tap_ok (read_all >= 0 && deny_home > read_all && deny_pw > read_all
            && deny_tmp > read_all && deny_vtmp > read_all,
          "%s: reads everywhere but the homes and shared temporary "
          "directories",
          name);
  ok = true;
  for (size_t i = 0; i < pol->linked_home_dirs.nr; i++)
    if (last_form (&pp, sb, "deny file-read*", pol->linked_home_dirs.v[i]) < 0)
      ok = false;
  tap_ok (ok,
          "%s: the directories links at the top of a home name are "
          "denied",
          name);
  ok = true;
  for (size_t i = 0; i < pol->n_paths; i++)
    {
      long a = last_form (&pp, sb, "allow file-read*", pol->paths[i].path);
      if (pol->paths[i].access == ASH_ACCESS_HIDE ? a >= 0 : a <= deny_home)
        {
          tap_diag ("%s: %s not readable again", name, pol->paths[i].path);
          ok = false;
        }
    }
  if (last_form (&pp, sb, "allow file-read*", pol->results_dir) <= deny_home
      || last_form (&pp, sb, "allow file-read*", sp->tmpdir) <= deny_home)
    ok = false;
  tap_ok (ok, "%s: the policy's paths are readable again after the denies",
          name);

  /* Writes.  */
  ok = last_form (&pp, sb, "allow file-write*", pol->results_dir) >= 0
       && last_form (&pp, sb, "allow file-write*", sp->tmpdir) >= 0
       && last_form (&pp, sb, "allow file-write*", pol->home) < 0
       && last_form (&pp, sb, "allow file-write*", pol->passwd_home) < 0;
  size_t n_write = 0;
  for (size_t i = 0; i < pp.n; i++)
    if (strstr (pp.forms[i].head, "file-write")
        && ash_str_has_prefix (pp.forms[i].head, "allow"))
      n_write++;
  for (size_t i = 0; i < pol->n_paths; i++)
    if (pol->paths[i].access != ASH_ACCESS_WRITE
        && !streq (pol->paths[i].path, pol->results_dir)
        && last_form (&pp, sb, "allow file-write*", pol->paths[i].path) >= 0)
      ok = false;
  tap_ok (ok && n_write == 1,
          "%s: writes only to the results directory and private TMPDIR", name);

  /* uv's lock.  */
  for (size_t i = 0; i < pol->n_paths; i++)
    if (strstr (pol->paths[i].rule, "uv tool directory"))
      {
        _cleanup_free_ char *lock
          = ash_path_join (pol->paths[i].path, ".lock");
        tap_ok (last_form (&pp, sb, "allow file-write*", lock) >= 0
                  && last_form (&pp, sb, "allow file-write*",
                                pol->paths[i].path)
                       < 0,
                "%s: uv's lock file is writable, its tools directory not",
                name);
      }

  /* Programs.  */
  const char *xh = "allow process-exec* file-map-executable";
  const char *xd = "deny process-exec* file-map-executable";
  long exec_sys = last_form (&pp, sb, xh, "/usr");
  long noexec_res = last_form (&pp, sb, xd, pol->results_dir);
  long noexec_tmp = last_form (&pp, sb, xd, sp->tmpdir);
  ok = exec_sys >= 0 && noexec_res > exec_sys && noexec_tmp > exec_sys
       && last_form (&pp, sb, xh, pol->results_dir) < 0
       && last_form (&pp, sb, xh, sp->tmpdir) < 0;
  for (size_t i = 0; i < pol->n_paths; i++)
    {
      const struct ash_policy_path *p = &pol->paths[i];
      bool tool = p->exec && p->access == ASH_ACCESS_READ;
      long a = last_form (&pp, sb, xh, p->path);
      long d = last_form (&pp, sb, xd, p->path);
      if (tool ? (a < 0 || d > a) : (d < 0 || a > d))
        {
          tap_diag ("%s: exec rule wrong for %s (%s)", name, p->path,
                    ash_access_name (p->access));
          ok = false;
        }
    }
  tap_ok (ok,
          "%s: programs run only from system and tool paths, never from "
          "data, caches, results or TMPDIR",
          name);
  const char *uvc = ash_strvec_getenv (&pol->private_caches, "UV_CACHE_DIR");
  if (uvc)
    tap_ok (last_form (&pp, sb, xh, uvc) > noexec_res,
            "%s: the private uv cache is executable", name);
  if (sp->unpack_dir)
    tap_ok (last_form (&pp, sb, xh, sp->unpack_dir) > noexec_res
              && last_form (&pp, sb, "allow file-write*", sp->unpack_dir) >= 0,
            "%s: the unpack directory is writable and executable", name);

  /* Mach services.  */
  ok = true;
  for (const char *const *m = ash_seatbelt_mach_services; *m; m++)
    if (last_form_name (&pp, "allow mach-lookup", *m) < 0)
      ok = false;
  tap_ok (ok, "%s: cfprefsd, logd, notifyd and opendirectoryd allowed", name);
  ok = true;
  for (const char *const *m = ash_seatbelt_mach_services_network; *m; m++)
    if ((last_form_name (&pp, "allow mach-lookup", *m) >= 0) != pol->network)
      ok = false;
  tap_ok (ok, "%s: configd and trustd allowed %s", name,
          pol->network ? "with the network" : "only with a network");
  long last_allow_mach = last_form (&pp, sb, "allow mach-lookup", NULL);
  long d_ls = last_form_name (&pp, "deny mach-lookup",
                              "com.apple.coreservices.launchservicesd");
  long d_cs = last_form_name (&pp, "deny mach-lookup",
                              "com.apple.CoreServices.coreservicesd");
  long d_sec
    = last_form_name (&pp, "deny mach-lookup", "com.apple.SecurityServer");
  long d_lsd = last_form_name (&pp, "deny mach-lookup", "com.apple.lsd.");
  long d_pb
    = last_form_name (&pp, "deny mach-lookup", "com.apple.pasteboard.");
  ok = d_ls > last_allow_mach && d_cs > last_allow_mach
       && d_sec > last_allow_mach && d_lsd > last_allow_mach
       && d_pb > last_allow_mach;
  for (size_t i = 0; i < pp.n; i++)
    if (ash_str_has_prefix (pp.forms[i].head, "allow") && (long) i > d_ls)
      ok = false;
  tap_ok (ok,
          "%s: LaunchServices, pasteboard and SecurityServer denied after "
          "every allow",
          name);

  /* Keychain files, after every file rule.  */
  _cleanup_free_ char *kc_home
    = ash_path_join (pol->home, "Library/Keychains");
  _cleanup_free_ char *kc_pw
    = ash_path_join (pol->passwd_home, "Library/Keychains");
  long kc
    = last_form (&pp, sb, "deny file-read* file-write*", "/Library/Keychains");
  ok = kc >= 0 && kc == (long) pp.n - 1
       && last_form (&pp, sb, "deny file-read* file-write*", kc_home) == kc
       && last_form (&pp, sb, "deny file-read* file-write*", kc_pw) == kc;
  tap_ok (ok, "%s: the keychain files are denied after every file rule", name);

  /* Network.  */
  long ip = last_form (&pp, sb, "allow network-outbound remote ip", NULL);
  long mdns = last_form (&pp, sb,
                         "allow network-outbound remote unix-socket "
                         "path-literal",
                         "/private/var/run/mDNSResponder");
  size_t n_net = 0;
  for (size_t i = 0; i < pp.n; i++)
    if (strstr (pp.forms[i].head, "network")
        || strstr (pp.forms[i].head, "system-socket"))
      n_net++;
  if (pol->network)
    tap_ok (ip >= 0 && mdns >= 0 && n_net == 5,
            "%s: online, IP sockets and only mDNSResponder's Unix socket",
            name);
  else
    tap_ok (n_net == 0, "%s: offline, no socket of any kind", name);

  parsed_release (&pp);
}

static void
golden (const char *name, const char *text)
{
  const char *regen = getenv ("ASH_SEATBELT_REGEN");
  const char *srcdir = getenv ("top_srcdir");
  _cleanup_free_ char *file = xasprintf ("%s.sb", name);

  if (regen && *regen)
    {
      _cleanup_free_ char *p = ash_path_join (regen, file);
      FILE *f = fopen (p, "we");
      if (f)
        {
          fputs (text, f);
          fclose (f);
        }
      tap_ok (f != NULL, "%s: golden written to %s", name, p);
      return;
    }
  _cleanup_free_ char *p
    = xasprintf ("%s/tests/fixtures/seatbelt/%s", srcdir ? srcdir : ".", file);
  _cleanup_free_ char *want = read_text (p);
  if (!tap_ok (want && streq (want, text), "%s: matches its golden profile",
               name))
    tap_diag ("compare with %s (ASH_SEATBELT_REGEN=DIR writes it)", p);
}

static void
layout (void)
{
  static const char *const dirs[] = {
    "usr/bin",
    "etc",
    "opt/ash/bin",
    "home/me/.local/bin",
    "home/me/.local/share/uv/tools",
    "home/me/.local/share/uv/python",
    "home/me/.cache/uv",
    "home/me/.cache/grype",
    "home/me/.cache/trivy",
    "home/me/Library/Caches/grype",
    "home/me/Library/Caches/trivy",
    "home/me/.semgrep",
    "home/me/.opengrep",
    "home/me/.npm",
    "src",
    "out/scanners/x/source",
    "run-config",
    "spawn/tmp",
    "spawn/unpack",
    NULL,
  };
  for (const char *const *d = dirs; *d; d++)
    {
      _cleanup_free_ char *p = under (*d);
      mkdir_p (p);
    }
  _cleanup_free_ char *tool = under ("usr/bin/tool");
  FILE *f = fopen (tool, "we");
  if (f)
    fclose (f);
  chmod (tool, 0755);
}

static void
one_scanner (const char *scanner, bool offline)
{
  _cleanup_free_ char *name
    = xasprintf ("%s-%s", scanner, offline ? "offline" : "online");
  _cleanup_free_ char *home = under ("home/me");
  _cleanup_free_ char *src = under ("src");
  _cleanup_free_ char *out = under ("out");
  _cleanup_free_ char *res = under ("out/scanners/x/source");
  _cleanup_free_ char *rc = under ("run-config");
  _cleanup_free_ char *tool = under ("usr/bin/tool");
  _cleanup_free_ char *bin = under ("opt/ash/bin");
  _cleanup_free_ char *tmpdir = under ("spawn/tmp");
  _cleanup_free_ char *unpack = under ("spawn/unpack");
  _cleanup_free_ char *cert = under ("spawn/roots.pem");
  struct ash_strvec env = ASH_STRVEC_INIT;
  struct ash_requirements req;
  struct ash_policy pol;
  struct ash_seatbelt sb;
  struct ash_error err = ASH_ERROR_INIT;

  ash_strvec_pushf (&env, "PATH=%s/usr/bin:%s/.local/bin", root, home);
  ash_strvec_pushf (&env, "HOME=%s", home);
  ash_strvec_push (&env, "LANG=C.UTF-8");
  ash_builtin_requirements (scanner, &req);

  struct ash_policy_input in = {
    .scanner = scanner,
    .req = &req,
    .source_dir = src,
    .output_dir = out,
    .results_dir = res,
    .run_config_dir = rc,
    .tool_path = tool,
    .offline = offline,
    .environ = env.v,
    .home = home,
    .passwd_home = home,
    .bin_path = bin,
    .root = root,
  };
  if (!tap_ok (ash_policy_compute (&in, &pol, &err) == 0
                 && !pol.refusal.message,
               "%s: policy computes", name))
    {
      tap_diag ("%s", err.message           ? err.message
                      : pol.refusal.message ? pol.refusal.message
                                            : "");
      goto done;
    }
  tap_ok (pol.network == (!offline && req.network), "%s: network is %s", name,
          pol.network ? "on" : "off");

  struct ash_seatbelt_spawn sp = {
    .tmpdir = tmpdir,
    .unpack_dir = pol.unpack_dir_env ? unpack : NULL,
    .cert_file = pol.system_trust_roots ? cert : NULL,
  };
  if (tap_ok (ash_seatbelt_build (&pol, &sp, &sb, &err) == 0,
              "%s: profile builds", name))
    {
      check_profile (name, &pol, &sp, &sb);
      golden (name, sb.profile.buf);
    }
  ash_seatbelt_release (&sb);
  ash_policy_release (&pol);
done:
  ash_requirements_release (&req);
  ash_strvec_release (&env);
  ash_error_release (&err);
}

/* The output directory inside the source tree (the default layout): the
   source tree is readable again, the output directory hidden after that,
   and only the results directory readable again after that.  */
static void
output_in_tree (void)
{
  _cleanup_free_ char *home = under ("home/me");
  _cleanup_free_ char *src = under ("src");
  _cleanup_free_ char *out = under ("src/.ash/ash_output");
  _cleanup_free_ char *res = under ("src/.ash/ash_output/scanners/x/source");
  _cleanup_free_ char *tool = under ("usr/bin/tool");
  struct ash_strvec env = ASH_STRVEC_INIT;
  struct ash_requirements req;
  struct ash_policy pol;
  struct ash_seatbelt sb;
  struct ash_error err = ASH_ERROR_INIT;
  struct parsed pp;

  mkdir_p (res);
  ash_strvec_pushf (&env, "PATH=%s/usr/bin", root);
  ash_strvec_pushf (&env, "HOME=%s", home);
  ash_builtin_requirements ("bandit", &req);
  struct ash_policy_input in = {
    .scanner = "bandit",
    .req = &req,
    .source_dir = src,
    .output_dir = out,
    .results_dir = res,
    .tool_path = tool,
    .offline = true,
    .environ = env.v,
    .home = home,
    .passwd_home = home,
    .root = root,
  };
  struct ash_seatbelt_spawn sp = { .tmpdir = NULL };
  _cleanup_free_ char *tmpdir = under ("spawn/tmp");
  sp.tmpdir = tmpdir;
  if (tap_ok (ash_policy_compute (&in, &pol, &err) == 0
                && !pol.refusal.message,
              "output in the tree: policy computes")
      && tap_ok (ash_seatbelt_build (&pol, &sp, &sb, &err) == 0,
                 "output in the tree: profile builds"))
    {
      parse (sb.profile.buf, &pp);
      long allow_src = last_form (&pp, &sb, "allow file-read*", src);
      long deny_out = last_form (&pp, &sb, "deny file-read*", out);
      long allow_res = last_form (&pp, &sb, "allow file-read*", res);
      tap_ok (allow_src >= 0 && deny_out > allow_src,
              "output in the tree: the output directory is denied after the "
              "source tree is allowed (%ld, %ld)",
              allow_src, deny_out);
      tap_ok (allow_res > deny_out,
              "output in the tree: the results directory is readable after "
              "that (%ld)",
              allow_res);
      tap_ok (last_form (&pp, &sb, "allow file-read*", out) < deny_out,
              "output in the tree: the output directory is not allowed "
              "again");
      parsed_release (&pp);
      ash_seatbelt_release (&sb);
    }
  ash_policy_release (&pol);
  ash_requirements_release (&req);
  ash_strvec_release (&env);
  ash_error_release (&err);
}

/* Paths that would end a string or a form if they were pasted in.  */
static void
hostile_paths (void)
{
  struct ash_policy pol;
  struct ash_seatbelt sb;
  struct ash_error err = ASH_ERROR_INIT;
  struct parsed pp;
  const char *evil = "/x\")) (allow default) (deny file-read* (subpath \"/y";
  const char *evil2 = "/a\nb;c\\d";

  ash_policy_init (&pol);
  pol.scanner = xstrdup ("plug\")(allow default)");
  pol.home = xstrdup (evil2);
  pol.passwd_home = xstrdup (evil2);
  pol.results_dir = xstrdup (evil);
  ash_policy_add_path (&pol, evil, ASH_ACCESS_WRITE, false, "results");
  ash_policy_add_path (&pol, "/opt/\"tool\"", ASH_ACCESS_READ, true, "tool");
  struct ash_seatbelt_spawn sp = { .tmpdir = "/t)(allow default" };
  if (tap_ok (ash_seatbelt_build (&pol, &sp, &sb, &err) == 0,
              "hostile: profile builds"))
    {
      parse (sb.profile.buf, &pp);
      tap_ok (!pp.error, "hostile: still parses");
      tap_ok (!strstr (sb.profile.buf, "allow default")
                && !strstr (sb.profile.buf, "plug")
                && !strstr (sb.profile.buf, "tool\""),
              "hostile: no path or name from the policy in the text");
      bool found = false;
      for (size_t i = 0; i < sb.params.nr; i++)
        if (strstr (sb.params.v[i], evil))
          found = true;
      tap_ok (found, "hostile: the path is passed as a parameter, as is");
      parsed_release (&pp);
    }
  ash_seatbelt_release (&sb);

  /* A refused policy builds nothing.  */
  ash_policy_refuse (&pol, "no");
  tap_ok (ash_seatbelt_build (&pol, &sp, &sb, &err) == -EPERM,
          "a refused policy gives no profile");
  ash_seatbelt_release (&sb);
  ash_policy_release (&pol);
  ash_error_release (&err);
}

int
main (void)
{
  char tmpl[] = "/tmp/ash-seatbelt-XXXXXX";
  char *t = mkdtemp (tmpl);

  if (!t)
    tap_skip_all ("cannot make a temporary directory");
  root = realpath (t, NULL);
  layout ();
  for (size_t i = 0; ash_builtin_scanner_names[i]; i++)
    {
      one_scanner (ash_builtin_scanner_names[i], true);
      one_scanner (ash_builtin_scanner_names[i], false);
    }
  output_in_tree ();
  hostile_paths ();
  nftw (root, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
  free (root);
  return tap_done ();
}
