/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for sandbox-settings.c: grants only from files that may
   grant, the warning, the in-tree network_scanners list, the mode as a
   floor, overrides, renamed scanner sections.  */

#include <config.h>

#include "config/config-tier.h"
#include "config/sandbox-settings.h"
#include "test-config-tier-fixture.h"

#define D ASH_CONFIG_DEFAULTS
#define CLI ASH_CONFIG_CLI
#define ENV ASH_CONFIG_ENV
#define DISC ASH_CONFIG_DISCOVERED
#define EXT ASH_CONFIG_EXTENDS

static const char *const tree_ops[] = {
  "g:repo",
  "f:repo/.ash/.ash.yaml",
  "f:repo/ci/ash.yaml",
  "f:op/ash.yaml",
  "f:op/base.yaml",
  "g:dotfiles",
  "f:dotfiles/ash.yaml",
  "f:env/ash.yaml",
  "G:sup/sub",
  "f:sup/sub/ash.yaml",
  NULL,
};

#define DEFAULTS                                                              \
  {                                                                           \
    D, NULL, -1, NULL, "{\"sandbox\": {\"mode\": \"off\"}}"                   \
  }

static const char *const warning_tail
  = ": that config is inside a git checkout or the scanned tree, or was "
    "delivered by an MCP client. A network_scanners list there still removes "
    "network from scanners it does not name, and a sandbox mode there still "
    "applies when nothing else turns the sandbox on. To keep a setting, move "
    "the file outside every git checkout, or pass the setting with "
    "--config-overrides. A file inside the scanned directory has to move out "
    "of it as well.";

struct grant_case
{
  const char *title;
  struct fx_file files[5];
  const char *overrides[3];
  const char *network; /* "-" for unset */
  const char *extra;
  const char *restrict_; /* "-" for unset */
  const char *env_scanners;
  int n_warnings;
  const char *warning; /* the first warning, up to the tail; "@" = root */
};

static const struct grant_case grant_cases[] = {
  { "discovered in-tree config grants nothing",
    { DEFAULTS,
      { DISC, "repo/.ash/.ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"grype\"],"
        " \"extra_read_paths\": [\"/secret\"], \"mode\": \"off\"}}" } },
    { NULL },
    "-",
    "",
    "grype",
    "",
    1,
    "Ignoring sandbox.network_scanners, sandbox.extra_read_paths from "
    "@/repo/.ash/.ash.yaml" },
  { "all four settings named in order",
    { DEFAULTS,
      { DISC, "repo/.ash/.ash.yaml", -1, NULL,
        "{\"sandbox\": {\"env_scanners\": [\"a\"], \"read_path_scanners\":"
        " [\"b\"], \"extra_read_paths\": [\"/c\"], \"network_scanners\":"
        " [\"d\"]}}" } },
    { NULL },
    "-",
    "",
    "d",
    "",
    1,
    "Ignoring sandbox.network_scanners, sandbox.extra_read_paths, "
    "sandbox.read_path_scanners, sandbox.env_scanners from "
    "@/repo/.ash/.ash.yaml" },
  { "operator file outside every checkout grants",
    { DEFAULTS,
      { CLI, "op/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"grype\"],"
        " \"env_scanners\": [\"snyk-code\"]}}" } },
    { NULL },
    "grype",
    "",
    "-",
    "snyk-code",
    0,
    NULL },
  { "operator file keeps its own grants, loses the repository's",
    { DEFAULTS,
      { EXT, "repo/.ash/.ash.yaml", 2, "../repo/.ash/.ash.yaml",
        "{\"sandbox\": {\"network_scanners\": [\"evil\"],"
        " \"extra_read_paths\": [\"/x\"]}}" },
      { CLI, "op/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"semgrep\"]}}" } },
    { NULL },
    "semgrep",
    "",
    "evil",
    "",
    1,
    "Ignoring sandbox.network_scanners, sandbox.extra_read_paths from "
    "@/repo/.ash/.ash.yaml" },
  { "a base outside every checkout is lost too",
    { DEFAULTS,
      { EXT, "repo/.ash/.ash.yaml", 2, "/unused",
        "{\"sandbox\": {\"network_scanners\": []}}" },
      { EXT, "op/base.yaml", 3, "base.yaml",
        "{\"sandbox\": {\"extra_read_paths\": [\"/opt/ca\"]}}" },
      { CLI, "op/ash.yaml", -1, NULL, "{}" } },
    { NULL },
    "-",
    "",
    "",
    "",
    2,
    "Ignoring sandbox.network_scanners from @/repo/.ash/.ash.yaml" },
  { "an operator file in a checkout of its own grants nothing",
    { DEFAULTS,
      { CLI, "dotfiles/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"grype\"]}}" } },
    { NULL },
    "-",
    "",
    "grype",
    "",
    1,
    "Ignoring sandbox.network_scanners from @/dotfiles/ash.yaml" },
  { "a file in a submodule (.git file) grants nothing",
    { DEFAULTS,
      { CLI, "sup/sub/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"extra_read_paths\": [\"/x\"]}}" } },
    { NULL },
    "-",
    "",
    "-",
    "",
    1,
    "Ignoring sandbox.extra_read_paths from @/sup/sub/ash.yaml" },
  { "ASH_CONFIG's file grants over an in-tree base",
    { DEFAULTS,
      { EXT, "repo/ci/ash.yaml", 2, "/x",
        "{\"sandbox\": {\"network_scanners\": [\"evil\", \"trivy\"]}}" },
      { ENV, "env/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"trivy\"]}}" } },
    { NULL },
    "trivy",
    "",
    "evil,trivy",
    "",
    1,
    "Ignoring sandbox.network_scanners from @/repo/ci/ash.yaml" },
  { "overrides grant over an in-tree file",
    { DEFAULTS,
      { DISC, "repo/.ash/.ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"evil\"],"
        " \"extra_read_paths\": [\"/home\"]}}" } },
    { "sandbox.network_scanners=[detect-secrets]",
      "sandbox.extra_read_paths+=[/opt/ca]", NULL },
    "detect-secrets",
    "/opt/ca",
    "evil",
    "",
    1,
    NULL },
  { "+= adds to the operator's list only",
    { DEFAULTS,
      { EXT, "repo/.ash/.ash.yaml", 2, "x",
        "{\"sandbox\": {\"extra_read_paths\": [\"/home\"]}}" },
      { CLI, "op/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"extra_read_paths\": [\"/a\"]}}" } },
    { "sandbox.extra_read_paths+=[/b, \"/c\"]", NULL },
    "-",
    "/a,/b,/c",
    "-",
    "",
    1,
    NULL },
  { "all files may grant: the merged configuration",
    { DEFAULTS,
      { EXT, "op/base.yaml", 2, "base.yaml",
        "{\"sandbox\": {\"extra_read_paths\": [\"/opt/ca\"]}}" },
      { CLI, "op/ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": [\"grype\"]}}" } },
    { NULL },
    "grype",
    "/opt/ca",
    "-",
    "",
    0,
    NULL },
  { "an in-tree empty network_scanners removes every network",
    { DEFAULTS,
      { DISC, "repo/.ash/.ash.yaml", -1, NULL,
        "{\"sandbox\": {\"network_scanners\": []}}" } },
    { NULL },
    "-",
    "",
    "",
    "",
    1,
    "Ignoring sandbox.network_scanners from @/repo/.ash/.ash.yaml" },
};

static void
opts_init (struct ash_options *o, const char *source, const char *sandbox,
           const char *const *overrides)
{
  memset (o, 0, sizeof *o);
  ash_strvec_init (&o->config_overrides);
  ash_strvec_init (&o->scanners);
  ash_strvec_init (&o->exclude_scanners);
  ash_strvec_init (&o->plugin_modules);
  ash_strvec_init (&o->output_formats);
  o->source_dir = xstrdup (source);
  o->sandbox = sandbox ? xstrdup (sandbox) : NULL;
  for (size_t i = 0; overrides && overrides[i]; i++)
    ash_strvec_push (&o->config_overrides, overrides[i]);
}

static void
opts_release (struct ash_options *o)
{
  free (o->source_dir);
  free (o->sandbox);
  ash_strvec_release (&o->config_overrides);
  ash_strvec_release (&o->scanners);
  ash_strvec_release (&o->exclude_scanners);
  ash_strvec_release (&o->plugin_modules);
  ash_strvec_release (&o->output_formats);
}

static size_t
n_files (const struct fx_file *f, size_t max)
{
  size_t n = 0;
  while (n < max && (f[n].json || f[n].rel))
    n++;
  return n;
}

static void
test_grants (void)
{
  for (size_t i = 0; i < ARRAY_SIZE (grant_cases); i++)
    {
      const struct grant_case *gc = &grant_cases[i];
      struct ash_config c;
      struct ash_options o;
      struct ash_sandbox_settings s;
      struct ash_error e = ASH_ERROR_INIT;

      fx_config (&c, gc->files, n_files (gc->files, 5));
      opts_init (&o, fx_path ("repo"), NULL, gc->overrides);
      int r = ash_sandbox_settings_resolve (&o, &c, &s, &e);
      tap_is_int (r, 0, "%s: resolves", gc->title);

      _cleanup_free_ char *net = fx_join (&s.network_scanners);
      tap_is_str (s.network_scanners_set ? net : "-", gc->network,
                  "%s: network_scanners", gc->title);
      _cleanup_free_ char *extra = fx_join (&s.extra_read_paths);
      tap_is_str (extra, gc->extra, "%s: extra_read_paths", gc->title);
      _cleanup_free_ char *rs = fx_join (&s.network_restrict);
      tap_is_str (s.network_restrict_set ? rs : "-", gc->restrict_,
                  "%s: network_restrict", gc->title);
      _cleanup_free_ char *envs = fx_join (&s.env_scanners);
      tap_is_str (envs, gc->env_scanners, "%s: env_scanners", gc->title);
      tap_is_int (s.warnings.nr, gc->n_warnings, "%s: warnings", gc->title);
      if (gc->warning && s.warnings.nr > 0)
        {
          const char *at = strchr (gc->warning, '@');
          _cleanup_free_ char *want
            = at ? xasprintf ("%.*s%s%s%s", (int) (at - gc->warning),
                              gc->warning, fx_root, at + 1, warning_tail)
                 : xasprintf ("%s%s", gc->warning, warning_tail);
          tap_is_str (s.warnings.v[0], want, "%s: warning text", gc->title);
        }
      ash_sandbox_settings_release (&s);
      opts_release (&o);
      fx_config_release (&c);
      ash_error_release (&e);
    }
}

/* The floor: every combination of what the operator sets and what the
   repository's file sets.  */
enum op_kind
{
  OP_NONE,
  OP_FLAG_BWRAP,
  OP_FLAG_OFF,
  OP_OVERRIDE_OFF,
  OP_OVERRIDE_LANDLOCK,
  OP_FILE_AUTO,
  OP_CHECKOUT_FILE_AUTO,
  OP_FILE_OFF,
  OP_ENV_FIREJAIL,
  OP_BASE_OUTSIDE_BWRAP,
};

static const struct
{
  enum op_kind op;
  const char *name;
  const char *want[3]; /* repository: no mode, off, bwrap */
} floor_cases[] = {
  { OP_NONE, "nothing", { "off", "off", "bwrap" } },
  { OP_FLAG_BWRAP, "--sandbox bwrap", { "bwrap", "bwrap", "bwrap" } },
  { OP_FLAG_OFF, "--sandbox off", { "off", "off", "off" } },
  { OP_OVERRIDE_OFF, "sandbox.mode=off override", { "off", "off", "off" } },
  { OP_OVERRIDE_LANDLOCK,
    "sandbox.mode=landlock override",
    { "landlock", "landlock", "landlock" } },
  { OP_FILE_AUTO, "--config outside with auto", { "auto", "auto", "auto" } },
  { OP_CHECKOUT_FILE_AUTO,
    "--config in a checkout with auto",
    { "auto", "auto", "auto" } },
  { OP_FILE_OFF, "--config outside with off", { "off", "off", "bwrap" } },
  { OP_ENV_FIREJAIL,
    "ASH_CONFIG with firejail",
    { "firejail", "firejail", "firejail" } },
  { OP_BASE_OUTSIDE_BWRAP,
    "a base outside every checkout with landlock",
    { "landlock", "landlock", "landlock" } },
};

static void
test_floor (void)
{
  static const char *const repo_json[3] = {
    "{}",
    "{\"sandbox\": {\"mode\": \"off\"}}",
    "{\"sandbox\": {\"mode\": \"bwrap\"}}",
  };
  static const char *const repo_label[3] = { "no mode", "off", "bwrap" };

  for (size_t i = 0; i < ARRAY_SIZE (floor_cases); i++)
    for (size_t rm = 0; rm < 3; rm++)
      {
        struct fx_file files[4] = { DEFAULTS };
        size_t n = 1;
        const char *flag = NULL;
        const char *ov[2] = { NULL, NULL };

        switch (floor_cases[i].op)
          {
          case OP_FLAG_BWRAP:
            flag = "bwrap";
            break;
          case OP_FLAG_OFF:
            flag = "off";
            break;
          case OP_OVERRIDE_OFF:
            ov[0] = "sandbox.mode=off";
            break;
          case OP_OVERRIDE_LANDLOCK:
            ov[0] = "sandbox.mode=landlock";
            break;
          default:
            break;
          }
        switch (floor_cases[i].op)
          {
          case OP_FILE_AUTO:
          case OP_CHECKOUT_FILE_AUTO:
          case OP_FILE_OFF:
          case OP_ENV_FIREJAIL:
            files[n++] = (struct fx_file){ EXT, "repo/.ash/.ash.yaml", 2, "x",
                                           repo_json[rm] };
            if (floor_cases[i].op == OP_ENV_FIREJAIL)
              files[n++] = (struct fx_file){
                ENV, "env/ash.yaml", -1, NULL,
                "{\"sandbox\": {\"mode\": \"firejail\"}}"
              };
            else
              files[n++] = (struct fx_file){
                CLI,
                floor_cases[i].op == OP_CHECKOUT_FILE_AUTO
                  ? "dotfiles/ash.yaml"
                  : "op/ash.yaml",
                -1, NULL,
                floor_cases[i].op == OP_FILE_OFF
                  ? "{\"sandbox\": {\"mode\": \"off\"}}"
                  : "{\"sandbox\": {\"mode\": \"auto\"}}"
              };
            break;
          case OP_BASE_OUTSIDE_BWRAP:
            files[n++]
              = (struct fx_file){ EXT, "op/base.yaml", 2, "/x",
                                  "{\"sandbox\": {\"mode\": \"landlock\"}}" };
            files[n++] = (struct fx_file){ DISC, "repo/.ash/.ash.yaml", -1,
                                           NULL, repo_json[rm] };
            break;
          default:
            files[n++] = (struct fx_file){ DISC, "repo/.ash/.ash.yaml", -1,
                                           NULL, repo_json[rm] };
            break;
          }

        struct ash_config c;
        struct ash_options o;
        struct ash_sandbox_settings s;
        fx_config (&c, files, n);
        opts_init (&o, fx_path ("repo"), flag, ov);
        ash_sandbox_settings_resolve (&o, &c, &s, NULL);
        tap_is_str (s.mode, floor_cases[i].want[rm],
                    "floor: operator %s, repository %s", floor_cases[i].name,
                    repo_label[rm]);
        ash_sandbox_settings_release (&s);
        opts_release (&o);
        fx_config_release (&c);
      }
}

static void
test_renamed (void)
{
  struct ash_config c;
  struct fx_file files[] = {
    DEFAULTS,
    { DISC, "repo/.ash/.ash.yaml", -1, NULL,
      "{\"scanners\": {\"myplug\": {\"name\": \"grype\"},"
      " \"bandit\": {\"name\": \"bandit\"}, \"semgrep\": {}}}" },
  };
  struct ash_strvec names = ASH_STRVEC_INIT, reasons = ASH_STRVEC_INIT;

  fx_config (&c, files, ARRAY_SIZE (files));
  int n = ash_config_renamed_scanners (&c, &names, &reasons);
  tap_is_int (n, 1, "one renamed section");
  tap_is_str (names.nr ? names.v[0] : NULL, "myplug",
              "the scanner's own name is reported");
  tap_is_str (reasons.nr ? reasons.v[0] : NULL,
              "grype: the config names this scanner 'grype', but its own "
              "name is 'myplug'",
              "the MISSING reason");
  ash_strvec_release (&names);
  ash_strvec_release (&reasons);
  fx_config_release (&c);
}

static void
test_override_parse (void)
{
  static const struct
  {
    const char *text, *key, *json;
    bool append;
  } cases[] = {
    { "sandbox.mode=bwrap", "sandbox.mode", "\"bwrap\"", false },
    { "sandbox.network_scanners=[grype, trivy-repo]",
      "sandbox.network_scanners", "[\"grype\", \"trivy-repo\"]", false },
    { "sandbox.extra_read_paths+=[\"/a b\"]", "sandbox.extra_read_paths",
      "[\"/a b\"]", true },
    { "sandbox={mode: landlock}", "sandbox", "{\"mode\": \"landlock\"}",
      false },
    { "sandbox.network_scanners=[]", "sandbox.network_scanners", "[]", false },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      char *key = NULL;
      json_t *v = NULL;
      bool append = false;
      int r = ash_sandbox_settings_override_parse (cases[i].text, &key, &v,
                                                   &append, NULL);
      json_t *want = json_loads (cases[i].json, JSON_DECODE_ANY, NULL);
      tap_ok (r == 0 && streq (key, cases[i].key) && json_equal (v, want)
                && append == cases[i].append,
              "override %s", cases[i].text);
      free (key);
      json_decref (v);
      json_decref (want);
    }
  char *key = NULL;
  json_t *v = NULL;
  bool append;
  tap_ok (ash_sandbox_settings_override_parse ("no-equals", &key, &v, &append,
                                               NULL)
            < 0,
          "an override without = is refused");
}

/* --config names a file that may not grant and ASH_CONFIG is set: the
   grants come from what ASH_CONFIG's file writes itself (when it may
   grant), else the defaults, plus the overrides; its mode is a floor.  */
static const char *const env_ops[] = {
  "f:openv/ash.yaml=extends: missing-base.yaml\n"
  "sandbox:\n  mode: landlock\n  network_scanners: [trivy]\n"
  "  extra_read_paths: [/opt/ca]\n",
  "f:dotfiles/env.yaml=sandbox:\n  mode: bwrap\n"
  "  network_scanners: [trivy]\n",
  "f:openv/plain.yaml=sandbox:\n  extra_read_paths: [/opt/plain]\n",
  "f:openv/bad.yaml=sandbox: [1\n",
  NULL,
};

static const struct
{
  const char *title;
  const char *cli; /* the --config file */
  const char *cli_json;
  const char *env; /* ASH_CONFIG */
  const char *override;
  int r; /* 0, or < 0 when resolving fails */
  const char *mode, *network, *extra, *restrict_;
  int n_warnings;
} env_cases[] = {
  { "in-tree --config, ASH_CONFIG outside: its grants and its mode",
    "repo/ci/ash.yaml",
    "{\"sandbox\": {\"mode\": \"off\", \"network_scanners\": [\"evil\"],"
    " \"extra_read_paths\": [\"/home\"]}}",
    "openv/ash.yaml", NULL, 0, "landlock", "trivy", "/opt/ca", "evil", 1 },
  { "in-tree --config, ASH_CONFIG outside, plus an override",
    "repo/ci/ash.yaml", "{\"sandbox\": {\"extra_read_paths\": [\"/home\"]}}",
    "openv/ash.yaml", "sandbox.extra_read_paths+=[/b]", 0, "landlock", "trivy",
    "/opt/ca,/b", "-", 1 },
  { "in-tree --config, ASH_CONFIG in a checkout: nothing granted, mode kept",
    "repo/ci/ash.yaml",
    "{\"sandbox\": {\"mode\": \"off\", \"network_scanners\": [\"evil\"]}}",
    "dotfiles/env.yaml", NULL, 0, "bwrap", "-", "", "", 2 },
  { "in-tree --config, ASH_CONFIG without a mode: the repository's applies",
    "repo/ci/ash.yaml", "{\"sandbox\": {\"mode\": \"firejail\"}}",
    "openv/plain.yaml", NULL, 0, "firejail", "-", "/opt/plain", "-", 0 },
  { "--config outside every checkout shadows ASH_CONFIG", "op/ash.yaml",
    "{\"sandbox\": {\"network_scanners\": [\"grype\"]}}", "openv/ash.yaml",
    NULL, 0, "off", "grype", "", "-", 0 },
  { "in-tree --config, ASH_CONFIG missing: the scan stops", "repo/ci/ash.yaml",
    "{\"sandbox\": {\"network_scanners\": []}}", "openv/none.yaml", NULL, -1,
    NULL, NULL, NULL, NULL, 0 },
  { "in-tree --config, ASH_CONFIG not valid YAML: the scan stops",
    "repo/ci/ash.yaml", "{\"sandbox\": {\"network_scanners\": []}}",
    "openv/bad.yaml", NULL, -1, NULL, NULL, NULL, NULL, 0 },
};

static void
test_env_shadowed (void)
{
  fx_build (env_ops);
  for (size_t i = 0; i < ARRAY_SIZE (env_cases); i++)
    {
      struct fx_file files[2]
        = { DEFAULTS,
            { CLI, env_cases[i].cli, -1, NULL, env_cases[i].cli_json } };
      const char *ov[2] = { env_cases[i].override, NULL };
      struct ash_config c;
      struct ash_options o;
      struct ash_sandbox_settings s;
      struct ash_error e = ASH_ERROR_INIT;
      const char *t = env_cases[i].title;

      fx_config (&c, files, 2);
      opts_init (&o, fx_path ("repo"), NULL, ov);
      o.env_config = xstrdup (fx_path (env_cases[i].env));
      ash_sandbox_settings_init (&s);
      int r = ash_sandbox_settings_resolve (&o, &c, &s, &e);
      if (env_cases[i].r < 0)
        {
          tap_ok (r < 0 && e.message && strstr (e.message, env_cases[i].env),
                  "%s (%s)", t, e.message ? e.message : "no message");
        }
      else
        {
          tap_is_int (r, 0, "%s: resolves", t);
          tap_is_str (s.mode, env_cases[i].mode, "%s: mode", t);
          _cleanup_free_ char *net = fx_join (&s.network_scanners);
          tap_is_str (s.network_scanners_set ? net : "-", env_cases[i].network,
                      "%s: network_scanners", t);
          _cleanup_free_ char *extra = fx_join (&s.extra_read_paths);
          tap_is_str (extra, env_cases[i].extra, "%s: extra_read_paths", t);
          _cleanup_free_ char *rs = fx_join (&s.network_restrict);
          tap_is_str (s.network_restrict_set ? rs : "-",
                      env_cases[i].restrict_, "%s: network_restrict", t);
          tap_is_int (s.warnings.nr, env_cases[i].n_warnings, "%s: warnings",
                      t);
          if (env_cases[i].n_warnings == 2)
            tap_ok (strstr (s.warnings.v[1], fx_path (env_cases[i].env))
                      != NULL,
                    "%s: the second warning names ASH_CONFIG's file", t);
        }
      free (o.env_config);
      ash_sandbox_settings_release (&s);
      opts_release (&o);
      fx_config_release (&c);
      ash_error_release (&e);
    }
}

int
main (void)
{
  fx_new_root ();
  fx_build (tree_ops);
  test_grants ();
  test_floor ();
  test_env_shadowed ();
  test_renamed ();
  test_override_parse ();
  fx_cleanup ();
  return tap_done ();
}
