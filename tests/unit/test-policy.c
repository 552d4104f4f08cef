/* SPDX-License-Identifier: Apache-2.0 */
/* Table-driven tests of the sandbox policy.

   Each directory under tests/fixtures/policy/ is one case: input.json
   describes a host layout to build in a temporary directory (dirs, files,
   symlinks, fifos), the environment, the homes, the scanner's requirements
   (or a builtin scanner's), the grants and --offline; expected.json says
   what the computed policy must hold.  "@ROOT@" stands for the temporary
   directory in both.

   expected.json keys:
     policy        a subset of the policy JSON (objects: these keys; arrays:
                   each element matches some element)
     exact         keys whose values must equal the policy's exactly
     absent_paths  paths that must not be among the policy's paths
     absent_env    names that must not be passed
     present_env   NAME=VALUE pairs that must be in the environment  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "sandbox/envfilter.h"
#include "sandbox/homescreen.h"
#include "sandbox/policy.h"
#include "sandbox/requirements.h"
#include "sandbox/scanner-reqs.h"
#include "tap.h"

static char *root;

static char *
subst (const char *s, const char *from, const char *to)
{
  size_t nf = strlen (from), nt = strlen (to);
  size_t cap = strlen (s) + 1, n = 0;
  char *out;
  const char *p;

  for (p = s; (p = strstr (p, from)) != NULL; p += nf)
    cap += nt;
  out = xmalloc (cap);
  for (p = s; *p;)
    if (strneq (p, from, nf))
      {
        memcpy (out + n, to, nt);
        n += nt;
        p += nf;
      }
    else
      out[n++] = *p++;
  out[n] = '\0';
  return out;
}

static char *
read_text (const char *path)
{
  FILE *f = fopen (path, "re");
  if (!f)
    return NULL;
  struct ash_buf_local
  {
    char *s;
    size_t n, cap;
  } b = { NULL, 0, 0 };
  char chunk[4096];
  size_t r;
  while ((r = fread (chunk, 1, sizeof chunk, f)) > 0)
    {
      b.s = xrealloc (b.s, b.n + r + 1);
      memcpy (b.s + b.n, chunk, r);
      b.n += r;
    }
  fclose (f);
  if (!b.s)
    b.s = xstrdup ("");
  else
    b.s[b.n] = '\0';
  return b.s;
}

/* Load FILE with @ROOT@ replaced.  */
static json_t *
load (const char *file)
{
  _cleanup_free_ char *text = read_text (file);
  if (!text)
    return NULL;
  _cleanup_free_ char *s = subst (text, "@ROOT@", root);
  json_error_t e;
  json_t *j = json_loads (s, 0, &e);
  if (!j)
    tap_diag ("%s:%d: %s", file, e.line, e.text);
  return j;
}

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

static void
parent_p (const char *path)
{
  _cleanup_free_ char *p = xstrdup (path);
  char *slash = strrchr (p, '/');
  if (slash && slash != p)
    {
      *slash = '\0';
      mkdir_p (p);
    }
}

static char *
under_root (const char *rel)
{
  if (rel[0] == '/')
    return xstrdup (rel);
  return ash_path_join (root, rel);
}

static void
build_layout (json_t *layout)
{
  json_t *v;
  const char *k;
  size_t i;

  json_array_foreach (json_object_get (layout, "dirs"), i, v)
    {
      _cleanup_free_ char *p = under_root (json_string_value (v));
      mkdir_p (p);
    }
  json_object_foreach (json_object_get (layout, "files"), k, v)
    {
      _cleanup_free_ char *p = under_root (k);
      const char *content = json_string_value (v);
      parent_p (p);
      FILE *f = fopen (p, "we");
      if (f)
        {
          fputs (content, f);
          fclose (f);
        }
      chmod (p, strneq (content, "#!", 2) || strstr (k, "bin/") ? 0755 : 0644);
    }
  json_array_foreach (json_object_get (layout, "fifos"), i, v)
    {
      _cleanup_free_ char *p = under_root (json_string_value (v));
      parent_p (p);
      mkfifo (p, 0600);
    }
  json_object_foreach (json_object_get (layout, "symlinks"), k, v)
    {
      _cleanup_free_ char *p = under_root (k);
      parent_p (p);
      if (symlink (json_string_value (v), p) < 0)
        tap_diag ("symlink %s: %s", p, strerror (errno));
    }
}

/* The strings of the array A in SV, and SV's list; NULL when A is not an
   array (the policy input's "not given").  */
static char *const *
strv_of (json_t *a, struct ash_strvec *sv)
{
  if (!json_is_array (a))
    return NULL;
  size_t i;
  json_t *e;
  json_array_foreach (a, i, e)
    ash_strvec_push (sv, json_string_value (e));
  return sv->v;
}

static const char *
str_of (json_t *o, const char *key)
{
  return json_string_value (json_object_get (o, key));
}

/* Every key and element of EXP is in ACT.  */
static bool
subset (json_t *exp, json_t *act, const char *where, bool verbose)
{
  if (json_is_object (exp))
    {
      const char *k;
      json_t *v;
      if (!json_is_object (act))
        {
          if (verbose)
            tap_diag ("%s: not an object", where);
          return false;
        }
      json_object_foreach (exp, k, v)
        {
          _cleanup_free_ char *w = xasprintf ("%s.%s", where, k);
          if (!subset (v, json_object_get (act, k), w, verbose))
            return false;
        }
      return true;
    }
  if (json_is_array (exp))
    {
      size_t i, j;
      json_t *e, *a;
      if (!json_is_array (act))
        {
          if (verbose)
            tap_diag ("%s: not an array", where);
          return false;
        }
      json_array_foreach (exp, i, e)
        {
          bool found = false;
          json_array_foreach (act, j, a)
            {
              if ((json_is_object (e) || json_is_array (e))
                  && subset (e, a, where, false))
                found = true;
              else if (json_equal (e, a))
                found = true;
              if (found)
                break;
            }
          if (!found && verbose)
            {
              _cleanup_free_ char *s = json_dumps (e, JSON_COMPACT);
              tap_diag ("%s: no element matches %s", where, s);
            }
          if (!found)
            return false;
        }
      return true;
    }
  if (!act || !json_equal (exp, act))
    {
      if (!verbose)
        return false;
      _cleanup_free_ char *s = json_dumps (exp, JSON_ENCODE_ANY);
      _cleanup_free_ char *t
        = act ? json_dumps (act, JSON_ENCODE_ANY) : xstrdup ("(missing)");
      tap_diag ("%s: want %s, got %s", where, s, t);
      return false;
    }
  return true;
}

static int
rm_cb (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void) st;
  (void) flag;
  (void) ftw;
  remove (path);
  return 0;
}

/* Whether every key of OBJ (an object, or absent) is one of ALLOWED
   (NULL-terminated); names the others.  A misspelt key would otherwise
   be ignored and its case test less than it says.  */
static bool
known_keys (const json_t *obj, const char *const *allowed, const char *what)
{
  const char *k;
  json_t *v;
  bool ok = true;

  if (obj && !json_is_object (obj))
    {
      tap_diag ("%s is not an object", what);
      return false;
    }
  json_object_foreach ((json_t *) obj, k, v)
    {
      bool found = false;
      for (const char *const *a = allowed; *a && !found; a++)
        found = streq (*a, k);
      if (!found)
        {
          tap_diag ("%s: unknown key '%s'", what, k);
          ok = false;
        }
    }
  return ok;
}

static const char *const input_keys[] = {
  "layout",
  "builtin",
  "requirements",
  "environ",
  "grants",
  "system_dirs",
  "offline",
  "cache_overlay",
  "bin_path",
  "converted_dir",
  "home",
  "output_dir",
  "passwd_home",
  "results_dir",
  "run_config_dir",
  "scanner",
  "source_dir",
  "tool_path",
  NULL,
};
static const char *const layout_keys[] = {
  "dirs", "files", "fifos", "symlinks", NULL,
};
static const char *const grant_keys[] = {
  "network_scanners",
  "network_restrict",
  "extra_read_paths",
  "read_path_scanners",
  "env_scanners",
  "option_read_paths",
  NULL,
};
static const char *const expected_keys[] = {
  "policy", "exact", "absent_paths", "absent_env", "present_env", NULL,
};

static void
run_case (const char *dir, const char *name)
{
  char tmpl[] = "/tmp/ash-policy-XXXXXX";
  char *t = mkdtemp (tmpl);
  if (!t)
    {
      tap_ok (false, "%s: mkdtemp", name);
      return;
    }
  root = realpath (t, NULL);

  _cleanup_free_ char *inf = ash_path_join (dir, "input.json");
  _cleanup_free_ char *expf = ash_path_join (dir, "expected.json");
  _cleanup_free_ char *src_default = NULL, *out_default = NULL;
  _cleanup_free_ char *res_default = NULL, *text = NULL, *back = NULL;
  _cleanup_free_ char *mounts = NULL;
  struct ash_requirements req;
  struct ash_error err = ASH_ERROR_INIT;
  struct ash_strvec env = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec netsc_v = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec netr_v = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec extra_v = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec rps_v = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec envs_v = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec opts_v = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec sysd_v = ASH_STRVEC_INIT;
  char *const *netsc = NULL, *const *netr = NULL, *const *extra = NULL;
  char *const *rps = NULL, *const *envs = NULL, *const *opts = NULL;
  char *const *sysd = NULL;
  const char *k;
  json_t *v;
  json_t *in = load (inf), *exp = load (expf);

  ash_requirements_init (&req);
  if (!in || !exp)
    {
      tap_ok (false, "%s: fixtures load", name);
      goto done;
    }
  tap_ok (known_keys (in, input_keys, "input.json")
            && known_keys (json_object_get (in, "layout"), layout_keys,
                           "input.json layout")
            && known_keys (json_object_get (in, "grants"), grant_keys,
                           "input.json grants")
            && known_keys (exp, expected_keys, "expected.json"),
          "%s: the fixtures use known keys only", name);
  build_layout (json_object_get (in, "layout"));

  const char *builtin = str_of (in, "builtin");
  if (builtin)
    ash_builtin_requirements (builtin, &req);
  else if (ash_requirements_from_json (json_object_get (in, "requirements"),
                                       &req, &err)
           < 0)
    {
      tap_ok (false, "%s: requirements: %s", name, err.message);
      goto done;
    }

  json_object_foreach (json_object_get (in, "environ"), k, v)
    ash_strvec_pushf (&env, "%s=%s", k, json_string_value (v));

  json_t *g = json_object_get (in, "grants");
  netsc = strv_of (json_object_get (g, "network_scanners"), &netsc_v);
  netr = strv_of (json_object_get (g, "network_restrict"), &netr_v);
  extra = strv_of (json_object_get (g, "extra_read_paths"), &extra_v);
  rps = strv_of (json_object_get (g, "read_path_scanners"), &rps_v);
  envs = strv_of (json_object_get (g, "env_scanners"), &envs_v);
  opts = strv_of (json_object_get (g, "option_read_paths"), &opts_v);
  sysd = strv_of (json_object_get (in, "system_dirs"), &sysd_v);
  src_default = ash_path_join (root, "src");
  out_default = ash_path_join (root, "out");
  res_default = ash_path_join (root, "out/scanners/x/source");
  mkdir_p (src_default);
  mkdir_p (res_default);
  /* The host's own mounts (a tmpfs another program made under /var/tmp,
     say) must not reach the expected records: a mount table of / alone.  */
  mounts = ash_path_join (root, "mountinfo");
  {
    FILE *mf = fopen (mounts, "we");
    if (!mf
        || fputs ("22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n",
                  mf)
             < 0
        || fclose (mf) != 0)
      tap_diag ("cannot write %s", mounts);
  }

  struct ash_policy_input pin = {
    .scanner = str_of (in, "scanner") ? str_of (in, "scanner") : builtin,
    .req = &req,
    .source_dir
    = str_of (in, "source_dir") ? str_of (in, "source_dir") : src_default,
    .output_dir
    = str_of (in, "output_dir") ? str_of (in, "output_dir") : out_default,
    .results_dir
    = str_of (in, "results_dir") ? str_of (in, "results_dir") : res_default,
    .converted_dir = str_of (in, "converted_dir"),
    .run_config_dir = str_of (in, "run_config_dir"),
    .tool_path = str_of (in, "tool_path"),
    .offline = json_is_true (json_object_get (in, "offline")),
    .network_scanners = netsc,
    .network_restrict = netr,
    .extra_read_paths = extra,
    .read_path_scanners = rps,
    .env_scanners = envs,
    .option_read_paths = opts,
    .environ = env.v,
    .home = str_of (in, "home"),
    .passwd_home = str_of (in, "passwd_home") ? str_of (in, "passwd_home")
                                              : str_of (in, "home"),
    .bin_path = str_of (in, "bin_path"),
    .cache_overlay = json_is_true (json_object_get (in, "cache_overlay")),
    .root = root,
    .system_dirs = sysd,
    .mountinfo = mounts,
  };

  struct ash_policy pol;
  int r = ash_policy_compute (&pin, &pol, &err);
  if (!tap_ok (r == 0, "%s: computes", name))
    goto done;
  /* What the scan asks ahead of the policy (to build the socket filter
     early) is what the policy says.  */
  tap_is_int (ash_policy_network (&pin), pol.network,
              "%s: ash_policy_network() says what the policy says", name);

  json_t *pj = ash_policy_to_json (&pol);
  text = json_dumps (pj, JSON_INDENT (2));
  json_decref (pj);
  back = subst (text, root, "@ROOT@");
  json_t *act = json_loads (back, 0, NULL);
  if (getenv ("POLICY_DUMP"))
    tap_diag ("%s", back);

  json_t *want = json_object_get (exp, "policy");
  if (want)
    {
      /* expected.json was loaded with @ROOT@ replaced; compare in the
         same spelling as ACT.  */
      _cleanup_free_ char *s = json_dumps (want, 0);
      _cleanup_free_ char *s2 = subst (s, root, "@ROOT@");
      json_t *w = json_loads (s2, 0, NULL);
      tap_ok (subset (w, act, "policy", true),
              "%s: policy holds what is expected", name);
      json_decref (w);
    }
  json_t *exact = json_object_get (exp, "exact");
  json_object_foreach (exact, k, v)
    {
      _cleanup_free_ char *s = json_dumps (v, JSON_ENCODE_ANY);
      _cleanup_free_ char *s2 = subst (s, root, "@ROOT@");
      json_t *w = json_loads (s2, JSON_DECODE_ANY, NULL);
      json_t *a = json_object_get (act, k);
      bool eq = a && json_equal (w, a);
      tap_ok (eq, "%s: %s is exactly as expected", name, k);
      if (!eq)
        {
          _cleanup_free_ char *got
            = a ? json_dumps (a, JSON_ENCODE_ANY) : xstrdup ("(missing)");
          tap_diag ("  want %s", s2);
          tap_diag ("  got  %s", got);
        }
      json_decref (w);
    }
  size_t i;
  json_array_foreach (json_object_get (exp, "absent_paths"), i, v)
    {
      const char *ap = json_string_value (v);
      bool found = ash_policy_find_path (&pol, ap) != NULL;
      _cleanup_free_ char *shown = subst (ap, root, "@ROOT@");
      tap_ok (!found, "%s: %s is not mounted", name, shown);
    }
  json_array_foreach (json_object_get (exp, "absent_env"), i, v)
    {
      const char *n = json_string_value (v);
      tap_ok (ash_strvec_getenv (&pol.env, n) == NULL, "%s: %s is not passed",
              name, n);
    }
  json_array_foreach (json_object_get (exp, "present_env"), i, v)
    {
      const char *kv = json_string_value (v);
      tap_ok (ash_strvec_contains (&pol.env, kv), "%s: %s is passed", name,
              kv);
    }
  /* No value of a dropped variable ever appears in the JSON.  */
  json_object_foreach (json_object_get (in, "environ"), k, v)
    {
      const char *val = json_string_value (v);
      _cleanup_free_ char *kv = xasprintf ("%s=%s", k, val);
      if (strlen (val) >= 8 && !ash_strvec_contains (&pol.env, kv)
          && !strstr (val, root))
        tap_ok (strstr (text, val) == NULL,
                "%s: the value of dropped %s is not shown", name, k);
    }
  json_decref (act);
  ash_policy_release (&pol);

done:
  ash_requirements_release (&req);
  ash_strvec_release (&env);
  ash_error_release (&err);
  json_decref (in);
  json_decref (exp);
  nftw (root, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
  free (root);
  root = NULL;
}

static int
name_cmp (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
test_requirements_json (void)
{
  struct ash_requirements r;
  struct ash_error e = ASH_ERROR_INIT;
  json_t *j = json_loads ("{\"network\": true, \"read_paths\": [\"~/x\"],"
                          " \"env_prefixes\": [\"MYTOOL_\"],"
                          " \"sandbox_exec_env\": [[\"A\", \"b\"]],"
                          " \"unpack_dir_env\": \"XDG_CACHE_HOME\","
                          " \"staged_input_only\": false}",
                          0, NULL);
  tap_is_int (ash_requirements_from_json (j, &r, &e), 0, "requirements parse");
  tap_ok (r.network && r.read_paths.nr == 1 && r.env_prefixes.nr == 1
            && streq (r.sandbox_exec_env.v[0], "A=b")
            && streq (r.unpack_dir_env, "XDG_CACHE_HOME"),
          "requirements fields are filled");
  json_t *back = ash_requirements_to_json (&r);
  tap_ok (json_is_true (json_object_get (back, "network"))
            && streq (json_string_value (json_object_get (
                        json_object_get (back, "sandbox_exec_env"), "A")),
                      "b"),
          "requirements round-trip to JSON");
  json_decref (back);
  ash_requirements_release (&r);
  json_decref (j);

  static const char *const bad[] = {
    "{\"networks\": true}",
    "{\"network\": 1}",
    "{\"read_paths\": \"~/x\"}",
    "{\"read_paths\": [1]}",
    "{\"unpack_dir_env\": 3}",
    "{\"sandbox_exec_env\": {\"A\": 1}}",
    "[]",
  };
  for (size_t i = 0; i < ARRAY_SIZE (bad); i++)
    {
      j = json_loads (bad[i], 0, NULL);
      int rc = ash_requirements_from_json (j, &r, &e);
      tap_ok (rc == -EINVAL && e.message, "requirements reject %s: %s", bad[i],
              e.message ? e.message : "");
      ash_error_release (&e);
      json_decref (j);
    }
  tap_is_int (ash_requirements_from_json (NULL, &r, &e), 0,
              "no declaration gives the strictest default");
  tap_ok (!r.network && r.read_paths.nr == 0 && r.env_prefixes.nr == 0,
          "the strictest default has nothing");
  ash_requirements_release (&r);
}

static void
test_builtins (void)
{
  struct ash_requirements r;
  for (const char *const *n = ash_builtin_scanner_names; *n; n++)
    {
      tap_is_int (ash_builtin_requirements (*n, &r), 0, "%s is known", *n);
      ash_requirements_release (&r);
    }
  tap_is_int (ash_builtin_requirements ("no-such", &r), -ENOENT,
              "an unknown scanner is -ENOENT");
  tap_ok (!r.network && r.cache_paths.nr == 0, "and gets the default");
  ash_requirements_release (&r);

  static const struct
  {
    const char *name;
    bool network;
  } net[] = {
    { "bandit", false },    { "checkov", false },
    { "semgrep", true },    { "opengrep", true },
    { "grype", true },      { "syft", false },
    { "trivy-repo", true }, { "npm-audit", true },
    { "cfn-nag", false },   { "detect-secrets", false },
    { "cdk-nag", false },   { "actionlint", false },
    { "cfn-lint", false },  { "cfn-guard", false },
    { "gitleaks", false },  { "zizmor", false },
    { "snyk-code", true },  { "ferret-scan", false },
  };
  for (size_t i = 0; i < ARRAY_SIZE (net); i++)
    {
      ash_builtin_requirements (net[i].name, &r);
      tap_is_int (r.network, net[i].network, "%s network is %d", net[i].name,
                  net[i].network);
      ash_requirements_release (&r);
    }
  ash_builtin_requirements ("snyk-code", &r);
  tap_ok (ash_strvec_contains (&r.env_names, "SNYK_TOKEN")
            && ash_strvec_contains (&r.env_prefixes, "SNYK_"),
          "snyk-code names SNYK_TOKEN and SNYK_");
  ash_requirements_release (&r);
  ash_builtin_requirements ("jupyter", &r);
  tap_ok (r.staged_input_only, "jupyter's nbconvert gets staged input only");
  ash_requirements_release (&r);
  ash_builtin_requirements ("semgrep", &r);
  tap_ok (ash_strvec_contains (&r.read_path_env, "SEMGREP_RULES_CACHE_DIR")
            && r.system_trust_roots,
          "semgrep reads SEMGREP_RULES_CACHE_DIR and the trust roots");
  ash_requirements_release (&r);
  ash_builtin_requirements ("gitleaks", &r);
  tap_ok (r.env_prefixes.nr == 0, "gitleaks gets no GITLEAKS_ variables");
  ash_requirements_release (&r);
}

/* The database cache grype or trivy itself would use, as
   ash-sandbox(7) says.  */
static void
test_db_cache_dir (void)
{
  static const struct
  {
    const char *scanner;
    const char *env[3];
    const char *home;
    const char *want;
  } cases[] = {
    { "grype", { "GRYPE_DB_CACHE_DIR=/c/g", NULL }, "/h", "/c/g" },
    { "grype", { "XDG_CACHE_HOME=/x", NULL }, "/h", "/x/grype/db" },
    { "grype", { "XDG_CACHE_HOME=", NULL }, "/h", "/h/.cache/grype/db" },
    /* grype (adrg/xdg) ignores a relative XDG_CACHE_HOME.  */
    { "grype", { "XDG_CACHE_HOME=rel", NULL }, "/h", "/h/.cache/grype/db" },
    { "grype", { NULL }, "/h", "/h/.cache/grype/db" },
    { "grype", { NULL }, NULL, NULL },
    { "trivy-repo", { "TRIVY_CACHE_DIR=/c/t", NULL }, "/h", "/c/t" },
    { "trivy-repo", { "XDG_CACHE_HOME=/x", NULL }, "/h", "/x/trivy" },
    { "trivy", { NULL }, "/h", "/h/.cache/trivy" },
    /* trivy (Go's os.UserCacheDir) refuses a relative XDG_CACHE_HOME, or
       no home, and then uses os.TempDir()/trivy: ash names none when that
       is the shared /tmp.  */
    { "trivy-repo", { "XDG_CACHE_HOME=rel", NULL }, "/h", NULL },
    { "trivy-repo",
      { "XDG_CACHE_HOME=rel", "TMPDIR=/tmp", NULL },
      "/h",
      NULL },
    { "trivy-repo", { NULL }, NULL, NULL },
    { "bandit", { NULL }, "/h", NULL },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      _cleanup_free_ char *rule = NULL;
      _cleanup_free_ char *got
        = ash_scanner_db_cache_dir (cases[i].scanner, (char **) cases[i].env,
                                    cases[i].home, &rule);
      tap_is_str (got ? got : "(none)",
                  cases[i].want ? cases[i].want : "(none)",
                  "db cache of %s with %s%s, home %s", cases[i].scanner,
                  cases[i].env[0] ? cases[i].env[0] : "nothing",
                  cases[i].env[1] ? " ..." : "",
                  cases[i].home ? cases[i].home : "unset");
      tap_ok ((got == NULL) == (rule == NULL), "  and the rule is %s",
              rule ? rule : "(none)");
    }

  /* A temporary directory of this account's own is trivy's then; one
     that others can write is not.  */
  char own[] = "/tmp/test-policy-tmpdir.XXXXXX";
  if (mkdtemp (own) == NULL)
    {
      tap_ok (false, "mkdtemp");
      return;
    }
  _cleanup_free_ char *tmpdir = xasprintf ("TMPDIR=%s", own);
  _cleanup_free_ char *want = xasprintf ("%s/trivy", own);
  char *env_rel[] = { (char *) "XDG_CACHE_HOME=rel", tmpdir, NULL };
  char *env_nohome[] = { tmpdir, NULL };
  char *got = ash_scanner_db_cache_dir ("trivy-repo", env_rel, "/h", NULL);
  tap_is_str (got ? got : "(none)", want,
              "relative XDG_CACHE_HOME, TMPDIR of its own: $TMPDIR/trivy");
  free (got);
  got = ash_scanner_db_cache_dir ("trivy", env_nohome, NULL, NULL);
  tap_is_str (got ? got : "(none)", want, "no home: $TMPDIR/trivy");
  free (got);
  got = ash_scanner_db_cache_dir ("grype", env_nohome, NULL, NULL);
  tap_ok (got == NULL, "grype without a home: none");
  free (got);
  chmod (own, 0777);
  got = ash_scanner_db_cache_dir ("trivy-repo", env_rel, "/h", NULL);
  tap_ok (got == NULL, "a TMPDIR others can write: none (%s)",
          got ? got : "none");
  free (got);
  rmdir (own);
  tap_ok (strstr (ash_db_cache_unknown ("trivy"), "TRIVY_CACHE_DIR")
            && strstr (ash_db_cache_unknown ("grype"), "GRYPE_DB_CACHE_DIR"),
          "the refusals name the variable to set");
}

/* ash_homescreen_realpath answers each path once between
   ash_homescreen_memo (true) and (false), and asks again outside.  */
static void
test_realpath_memo (void)
{
  char tmpl[] = "/tmp/ash-test-memo.XXXXXX";
  if (!mkdtemp (tmpl))
    {
      tap_ok (false, "memo: mkdtemp");
      return;
    }
  _cleanup_free_ char *a = xasprintf ("%s/a", tmpl);
  _cleanup_free_ char *b = xasprintf ("%s/b", tmpl);
  _cleanup_free_ char *l = xasprintf ("%s/l", tmpl);
  bool made
    = mkdir (a, 0755) == 0 && mkdir (b, 0755) == 0 && symlink ("a", l) == 0;
  tap_ok (made, "memo: the tree is made");
  _cleanup_free_ char *ra = realpath (a, NULL);
  _cleanup_free_ char *rb = realpath (b, NULL);
  ash_homescreen_memo (true);
  char *first = ash_homescreen_realpath (l);
  (void) unlink (l);
  (void) symlink ("b", l);
  char *again = ash_homescreen_realpath (l);
  ash_homescreen_memo (false);
  char *after = ash_homescreen_realpath (l);
  tap_ok (first && ra && streq (first, ra), "memo: the link resolved: %s",
          first ? first : "NULL");
  tap_ok (again && first && again != first && streq (again, first),
          "memo: the same answer again, in a copy of its own");
  tap_ok (after && rb && streq (after, rb),
          "memo: off, the link is resolved anew: %s", after ? after : "NULL");
  free (first);
  free (again);
  free (after);
  _cleanup_free_ char *rm = xasprintf ("rm -rf '%s'", tmpl);
  if (system (rm) != 0)
    tap_diag ("cannot remove %s", tmpl);
}

/* With the memo on, paths are resolved as realpath() resolves them,
   those that share checked directories included: plain paths, repeated
   slashes, ".", "..", a final slash, a relative path, links in the middle
   and at the end, a file with a component after it, a component that is
   not there, and /.  The links at the top of a home are listed once.  */
static void
test_realpath_plain (void)
{
  char tmpl[] = "/tmp/ash-test-plain.XXXXXX";
  if (!mkdtemp (tmpl))
    {
      tap_ok (false, "plain: mkdtemp");
      return;
    }
  _cleanup_free_ char *mk = xasprintf (
    "mkdir -p '%1$s/a/b/c' '%1$s/d' && touch '%1$s/a/f' && "
    "ln -s a '%1$s/la' && ln -s '%1$s/d' '%1$s/a/ld' && ln -s f '%1$s/a/lf' "
    "&& "
    "ln -s b/c '%1$s/a/lc' && ln -s lc '%1$s/a/llc' && ln -s ../d "
    "'%1$s/a/ldd' "
    "&& ln -s nope '%1$s/a/dangling' && ln -s loop2 '%1$s/loop1' && "
    "ln -s loop1 '%1$s/loop2' && ln -s b/ '%1$s/a/lslash' && "
    "ln -s //a//b '%1$s/a/ldouble' && mkdir '%1$s/t' '%1$s/t/dir' && "
    "touch '%1$s/t/file' && ln -s ../a '%1$s/t/ld' && ln -s ../a/f "
    "'%1$s/t/lf'",
    tmpl);
  tap_ok (system (mk) == 0, "plain: the tree is made");
  static const char *const rels[] = {
    "/a/b/c",
    "/a/b",
    "/a",
    "//a///b//c",
    "/a/./b",
    "/a/b/../b",
    "/a/b/",
    "/la/b",
    "/a/ld",
    "/a/lf",
    "/a/f",
    "/a/f/x",
    "/a/nope",
    "/a/nope/x",
    "/la",
    "/d",
    "",
    "/a/lc",
    "/a/llc/",
    "/a/llc",
    "/a/llc/x",
    "/la/lc",
    "/la/ldd",
    "/a/ldd/x",
    "/a/dangling",
    "/a/dangling/x",
    "/loop1",
    "/loop1/x",
    "/a/lslash",
    "/a/lslash/c",
    "/a/lf/x",
    "/a/nope/y",
    "/la/llc/../c",
    "/a/ldouble",
  };
  bool same = true;

  ash_homescreen_memo (true);
  for (int round = 0; round < 2; round++)
    for (size_t i = 0; i < ARRAY_SIZE (rels); i++)
      {
        _cleanup_free_ char *path = xasprintf ("%s%s", tmpl, rels[i]);
        _cleanup_free_ char *want = realpath (path, NULL);
        _cleanup_free_ char *got = ash_homescreen_realpath (path);
        if (!((!want && !got) || (want && got && streq (want, got))))
          {
            same = false;
            tap_diag ("%s: realpath %s, memo %s", path, want ? want : "NULL",
                      got ? got : "NULL");
          }
      }
  {
    _cleanup_free_ char *want = realpath ("/", NULL);
    _cleanup_free_ char *got = ash_homescreen_realpath ("/");
    same &= want && got && streq (want, got);
    _cleanup_free_ char *rwant = realpath ("tests", NULL);
    _cleanup_free_ char *rgot = ash_homescreen_realpath ("tests");
    same &= (!rwant && !rgot) || (rwant && rgot && streq (rwant, rgot));
  }
  tap_ok (same, "plain: the memo resolves every path as realpath() does");

  struct ash_strvec first = ASH_STRVEC_INIT, again = ASH_STRVEC_INIT;
  _cleanup_free_ char *a = xasprintf ("%s/t", tmpl);
  _cleanup_free_ char *l2 = xasprintf ("%s/t/l2", tmpl);
  bool listed = ash_homescreen_top_links (a, &first);
  (void) symlink ("f", l2);
  bool listed_again = ash_homescreen_top_links (a, &again);
  ash_strvec_sort (&first);
  tap_ok (listed && first.nr == 2 && streq (first.v[0], "ld")
            && streq (first.v[1], "lf"),
          "plain: the links at the top of a directory, not the rest");
  tap_ok (listed_again && again.nr == 2,
          "plain: the directory is listed once while the memo is on");
  ash_homescreen_memo (false);
  tap_ok (ash_homescreen_top_links (a, &again) && again.nr == 3,
          "plain: and anew once it is off");
  _cleanup_free_ char *nope = xasprintf ("%s/nope", tmpl);
  tap_ok (!ash_homescreen_top_links (nope, &again) && again.nr == 0,
          "plain: a directory that is not there lists nothing");
  ash_strvec_release (&first);
  ash_strvec_release (&again);
  _cleanup_free_ char *rm = xasprintf ("rm -rf '%s'", tmpl);
  if (system (rm) != 0)
    tap_diag ("cannot remove %s", tmpl);
}

/* The credential word of a name: anywhere, in any case, the longer
   words first; names longer than any buffer the search uses too.  */
static void
test_credential_word (void)
{
  char long_name[600];

  tap_is_str (ash_env_credential_word ("GITHUB_TOKEN"), "TOKEN",
              "credential word: TOKEN at the end");
  tap_is_str (ash_env_credential_word ("my_api_key_x"), "API_KEY",
              "credential word: API_KEY before KEY, any case");
  tap_is_str (ash_env_credential_word ("Passwd"), "PASSWD",
              "credential word: PASSWD");
  tap_is_str (ash_env_credential_word ("PATH"), NULL,
              "credential word: none in PATH");
  tap_is_str (ash_env_credential_word ("caf\xc3\xa9_sEcReT"), "SECRET",
              "credential word: after bytes that are not ASCII");
  memset (long_name, 'A', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  tap_is_str (ash_env_credential_word (long_name), NULL,
              "credential word: none in a long name");
  memcpy (long_name + sizeof long_name - 6, "token", 5);
  tap_is_str (ash_env_credential_word (long_name), "TOKEN",
              "credential word: at the end of a long name");
}

int
main (void)
{
  test_credential_word ();
  test_realpath_memo ();
  test_realpath_plain ();
  {
    json_t *bogus = json_pack ("{s:b, s:b}", "offline", 1, "ofline", 1);
    tap_ok (!known_keys (bogus, input_keys, "a misspelt key"),
            "a fixture with an unknown key is refused");
    json_decref (bogus);
  }
  const char *srcdir = getenv ("top_srcdir");
  _cleanup_free_ char *fixtures
    = ash_path_join (srcdir ? srcdir : ".", "tests/fixtures/policy");
  DIR *d = opendir (fixtures);
  struct ash_strvec names = ASH_STRVEC_INIT;
  struct dirent *de;

  test_requirements_json ();
  test_builtins ();
  test_db_cache_dir ();

  if (!d)
    {
      tap_ok (false, "open %s", fixtures);
      return tap_done ();
    }
  while ((de = readdir (d)) != NULL)
    if (de->d_name[0] != '.')
      ash_strvec_push (&names, de->d_name);
  closedir (d);
  qsort (names.v, names.nr, sizeof *names.v, name_cmp);
  const char *only = getenv ("POLICY_CASE");
  for (size_t i = 0; i < names.nr; i++)
    {
      if (only && !streq (only, names.v[i]))
        continue;
      _cleanup_free_ char *dir = ash_path_join (fixtures, names.v[i]);
      run_case (dir, names.v[i]);
    }
  ash_strvec_release (&names);
  return tap_done ();
}
