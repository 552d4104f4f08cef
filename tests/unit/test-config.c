/* SPDX-License-Identifier: Apache-2.0 */
/* test-config.c -- the configuration parser, overrides, schema, extends
   and provenance.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "config.h" here would be the build's own config.h; lib/config/ashconfig.h
   comes in through commands.h, which lib/ resolves first.  */
#include "base/util.h"
#include "cli/commands.h"
#include "config/config-overrides.h"
#include "config/config-schema.h"
#include "tap.h"

static char tmpdir[] = "/tmp/ash-test-config.XXXXXX";

static char *
write_file (const char *name, const char *text)
{
  char *p = xasprintf ("%s/%s", tmpdir, name);
  FILE *f = fopen (p, "w");
  if (!f)
    {
      perror (p);
      exit (99);
    }
  fputs (text, f);
  fclose (f);
  return p;
}

static char *
dump (const json_t *v)
{
  return json_dumps (v, JSON_ENCODE_ANY | JSON_COMPACT);
}

static void
check_value (const char *text, const char *want_json)
{
  json_t *v = ash_config_override_value (text);
  char *got = dump (v);
  tap_is_str (got, want_json, "override value '%s' is %s", text, want_json);
  free (got);
  json_decref (v);
}

static void
test_override_values (void)
{
  check_value ("{\"a\": [1, 2]}", "{\"a\":[1,2]}");
  check_value ("\"quoted\"", "\"quoted\"");
  check_value ("[1, \"x\"]", "[1,\"x\"]");
  check_value ("[grype, trivy-repo]", "[\"grype\",\"trivy-repo\"]");
  check_value ("[ 'a' , \"b\" ]", "[\"a\",\"b\"]");
  check_value ("[]", "[]");
  check_value ("True", "true");
  check_value ("FALSE", "false");
  check_value ("null", "null");
  check_value ("Null", "null");
  check_value ("42", "42");
  check_value ("-7", "-7");
  check_value ("2.5", "2.5");
  check_value ("1e3", "1000.0");
  check_value ("bwrap", "\"bwrap\"");
  check_value ("off", "\"off\"");
  check_value ("", "\"\"");
}

static void
test_override_apply (void)
{
  json_t *root = json_loads ("{\"sandbox\":{\"mode\":\"off\"},"
                             "\"list\":[\"a\"]}",
                             0, NULL);
  json_t *origins = json_object ();
  struct ash_error e = ASH_ERROR_INIT;

  tap_is_int (ash_config_override_apply (root, "sandbox.mode=bwrap", origins,
                                         &e),
              0, "set an existing key");
  tap_is_str (json_string_value (
                json_object_get (json_object_get (root, "sandbox"), "mode")),
              "bwrap", "the value was replaced");
  tap_is_str (json_string_value (json_object_get (origins, "sandbox.mode")),
              "sandbox.mode=bwrap", "its origin is the override text");

  tap_is_int (ash_config_override_apply (root, "a.b.c=1", origins, &e), 0,
              "set a new nested key");
  char *got = dump (json_object_get (root, "a"));
  tap_is_str (got, "{\"b\":{\"c\":1}}", "intermediate mappings are made");
  free (got);

  tap_is_int (ash_config_override_apply (root, "list+=[b, c]", origins, &e), 0,
              "append a list");
  tap_is_int (ash_config_override_apply (root, "list+=d", origins, &e), 0,
              "append one item");
  tap_is_int (ash_config_override_apply (root, "new+=[x]", origins, &e), 0,
              "append to a missing key makes a list");
  got = dump (json_object_get (root, "list"));
  tap_is_str (got, "[\"a\",\"b\",\"c\",\"d\"]", "appended in order");
  free (got);
  got = dump (json_object_get (root, "new"));
  tap_is_str (got, "[\"x\"]", "the new list");
  free (got);

  static const char *const bad[] = {
    "novalue",
    "=1",
    ".a=1",
    "a.=1",
    "a..b=1",
    "a b=1",
    "a[0]=1",
    "sandbox.mode.x=1",
    "sandbox.mode+=[x]",
  };
  for (size_t i = 0; i < ARRAY_SIZE (bad); i++)
    {
      int r = ash_config_override_apply (root, bad[i], origins, &e);
      tap_ok (r == -EINVAL && e.message && strstr (e.message, bad[i]),
              "invalid override '%s' is refused naming it", bad[i]);
    }
  ash_error_release (&e);
  json_decref (root);
  json_decref (origins);
}

/* The tree of the built-in defaults' YAML, as compact JSON text.  */
static char *
default_yaml_json (void)
{
  json_t *tree = NULL, *pos = NULL;
  char *text = NULL;

  if (ash_config_parse_yaml (ash_default_config_yaml,
                             strlen (ash_default_config_yaml), "defaults",
                             &tree, &pos, NULL)
      == 0)
    text = json_dumps (tree, JSON_COMPACT);
  json_decref (tree);
  json_decref (pos);
  return text;
}

/* config-default-json.h's text for the defaults: the JSON as C string
   literals of at most 70 characters each, laid out as clang-format lays
   them out.  */
static int
print_default_json (void)
{
  _cleanup_free_ char *text = default_yaml_json ();
  size_t col = 0;

  if (!text)
    return 1;
  printf ("/* SPDX-License-Identifier: Apache-2.0 */\n"
          "/* config-default-json.h -- made by `make "
          "update-default-config-json`\n"
          "   from ash_default_config_yaml (config-default.c); do not edit."
          "  */\n");
  for (const char *p = text; *p; p++)
    {
      const char *e = *p == '\\' ? "\\\\" : *p == '"' ? "\\\"" : NULL;
      size_t w = e ? 2 : 1;
      if (col == 0 || col + w > 70)
        {
          printf (col ? "\"\n  \"" : "\"");
          col = 0;
        }
      if (e)
        fputs (e, stdout);
      else
        putchar (*p);
      col += w;
    }
  printf ("\"\n");
  return 0;
}

/* The JSON form every run loads is the YAML's tree, key order and all:
   after a change to the YAML, `make update-default-config-json`.  */
static void
test_default_json (void)
{
  _cleanup_free_ char *want = default_yaml_json ();
  json_t *tree = json_loads (ash_default_config_json, 0, NULL);
  _cleanup_free_ char *got = tree ? json_dumps (tree, JSON_COMPACT) : NULL;

  struct ash_error e = ASH_ERROR_INIT;

  tap_ok (want != NULL, "the defaults' YAML parses");
  tap_ok (tree != NULL, "the defaults' JSON form loads");
  /* Run time never checks them, so no position in them is needed.  */
  tap_is_int (tree ? ash_config_schema_check (tree, "defaults", NULL, &e) : -1,
              0, "the defaults pass the schema%s%s", e.message ? ": " : "",
              e.message ? e.message : "");
  ash_error_release (&e);
  if (!tap_ok (want && got && streq (want, got),
               "the defaults' JSON form is the YAML's tree, in order "
               "(else: make update-default-config-json)"))
    tap_diag ("YAML: %s\nJSON: %s", want ? want : "(none)",
              got ? got : "(none)");
  json_decref (tree);
}

/* Setting a subtree forgets every origin at or below its path (not a
   sibling that merely shares the prefix) and records one for each of
   its leaves, nested ones and an empty mapping included.  */
static void
test_origins_set (void)
{
  json_t *origins
    = json_pack ("{s:s, s:s, s:s, s:s, s:s}", "a.b", "old", "a.b.c", "old",
                 "a.b.d.e", "old", "a.x", "old", "ab.c", "old");
  json_t *value = json_pack ("{s:i, s:{s:i, s:{s:i}}, s:{}, s:[i]}", "e", 1,
                             "f", "g", 2, "h", "i", 3, "j", "k", 4);
  json_t *origin = json_string ("new");
  static const char *const gone[] = { "a.b", "a.b.c", "a.b.d.e" };
  static const char *const kept[] = { "a.x", "ab.c" };
  static const char *const set[]
    = { "a.b.e", "a.b.f.g", "a.b.f.h.i", "a.b.j", "a.b.k" };

  ash_config_origins_set (origins, "a.b", value, origin);
  for (size_t i = 0; i < ARRAY_SIZE (gone); i++)
    tap_ok (json_object_get (origins, gone[i]) == NULL,
            "origins: %s is forgotten", gone[i]);
  for (size_t i = 0; i < ARRAY_SIZE (kept); i++)
    tap_is_str (json_string_value (json_object_get (origins, kept[i])), "old",
                "origins: %s is kept", kept[i]);
  for (size_t i = 0; i < ARRAY_SIZE (set); i++)
    tap_is_str (json_string_value (json_object_get (origins, set[i])), "new",
                "origins: %s is recorded", set[i]);
  tap_is_int ((int) json_object_size (origins),
              (int) (ARRAY_SIZE (kept) + ARRAY_SIZE (set)),
              "origins: nothing else is recorded");
  json_decref (origin);
  json_decref (value);
  json_decref (origins);
}

static void
test_yaml (void)
{
  json_t *tree = NULL, *pos = NULL;
  struct ash_error e = ASH_ERROR_INIT;
  const char *text = "a: 1\n"
                     "b: true\n"
                     "c: ~\n"
                     "d: 1.5\n"
                     "e: 'quoted: yes'\n"
                     "f: off\n"
                     "g: \"42\"\n"
                     "list:\n"
                     "  - x\n"
                     "  - {k: v}\n"
                     "base: &b {p: 1, q: 2}\n"
                     "derived:\n"
                     "  <<: *b\n"
                     "  q: 3\n";
  tap_is_int (ash_config_parse_yaml (text, strlen (text), "t.yaml", &tree,
                                     &pos, &e),
              0, "YAML parses");
  char *got = dump (tree);
  tap_is_str (got,
              "{\"a\":1,\"b\":true,\"c\":null,\"d\":1.5,\"e\":\"quoted: yes\","
              "\"f\":\"off\",\"g\":\"42\",\"list\":[\"x\",{\"k\":\"v\"}],"
              "\"base\":{\"p\":1,\"q\":2},\"derived\":{\"p\":1,\"q\":3}}",
              "scalars resolve by the YAML 1.2 core schema, aliases and "
              "merge keys work");
  free (got);
  got = dump (json_object_get (pos, "list[1].k"));
  tap_is_str (got, "[10,6]", "position of a key inside a list item");
  free (got);
  got = dump (json_object_get (pos, "derived.q"));
  tap_is_str (got, "[14,3]", "position of a nested key");
  free (got);
  json_decref (tree);
  json_decref (pos);

  setenv ("ASH_TEST_ENV_SET", "from-env", 1);
  unsetenv ("ASH_TEST_ENV_UNSET");
  text = "a: !ENV ${ASH_TEST_ENV_SET}\n"
         "b: !ENV ${ASH_TEST_ENV_UNSET:fallback}\n"
         "c: !ENV ${ASH_TEST_ENV_UNSET:false}\n"
         "d: !ENV pre-${ASH_TEST_ENV_SET}-post\n"
         "e: !ENV ${ASH_TEST_ENV_SET:ignored}\n";
  tap_is_int (ash_config_parse_yaml (text, strlen (text), "t.yaml", &tree,
                                     NULL, &e),
              0, "!ENV parses");
  got = dump (tree);
  tap_is_str (got,
              "{\"a\":\"from-env\",\"b\":\"fallback\",\"c\":false,"
              "\"d\":\"pre-from-env-post\",\"e\":\"from-env\"}",
              "!ENV with and without default");
  free (got);
  json_decref (tree);

  /* Without the environment: nothing is expanded, and the place of every
     !ENV (an unset one without a default too) is recorded.  */
  text = "a: !ENV ${ASH_TEST_ENV_SET}\n"
         "n:\n  m: [1, !ENV \"${ASH_TEST_ENV_UNSET}\"]\n";
  json_t *uses = NULL;
  tap_is_int (ash_config_parse_yaml_env (text, strlen (text), "t.yaml",
                                         ASH_CONFIG_PARSE_NO_ENV, &tree, NULL,
                                         &uses, &e),
              0, "!ENV without the environment parses");
  got = dump (tree);
  tap_ok (got && !strstr (got, "from-env"),
          "!ENV without the environment reads nothing (%s)", got);
  free (got);
  got = dump (uses);
  tap_is_str (got, "[[1,4],[3,10]]", "the place of every !ENV is recorded");
  free (got);
  json_decref (tree);
  json_decref (uses);
  /* With it, the places are recorded as well.  */
  tap_is_int (ash_config_parse_yaml_env (text, strlen (text), "t.yaml", 0,
                                         &tree, NULL, &uses, &e),
              -EINVAL, "with the environment, the unset variable fails");
  text = "a: !ENV ${ASH_TEST_ENV_SET}\n";
  tap_is_int (ash_config_parse_yaml_env (text, strlen (text), "t.yaml", 0,
                                         &tree, NULL, &uses, &e),
              0, "!ENV with the environment parses");
  got = dump (uses);
  tap_is_str (got, "[[1,4]]", "... and records its place");
  free (got);
  json_decref (tree);
  json_decref (uses);

  text = "x: 1\n  y: [\n";
  tap_is_int (ash_config_parse_yaml (text, strlen (text), "bad.yaml", &tree,
                                     NULL, &e),
              -EINVAL, "syntax error");
  tap_ok (e.line == 2 && streq (e.path, "bad.yaml"),
          "syntax error has file and line (%s:%d:%d)", e.path, e.line,
          e.column);
  text = "a: !ENV ${ASH_TEST_ENV_UNSET}\n";
  tap_is_int (ash_config_parse_yaml (text, strlen (text), "env.yaml", &tree,
                                     NULL, &e),
              -EINVAL, "!ENV of an unset variable without default fails");
  tap_ok (e.line == 1 && e.column == 4, "at its position (%d:%d)", e.line,
          e.column);
  text = "a: !!python/object x\n";
  tap_is_int (ash_config_parse_yaml (text, strlen (text), "t.yaml", &tree,
                                     NULL, &e),
              -EINVAL, "unknown tags are refused");
  text = "";
  tap_is_int (ash_config_parse_yaml (text, 0, "t.yaml", &tree, NULL, &e), 0,
              "an empty file");
  tap_is_int (json_object_size (tree), 0, "is an empty configuration");
  json_decref (tree);
  ash_error_release (&e);
}

static void
test_schema (void)
{
  struct ash_error e = ASH_ERROR_INIT;
  json_t *t;
#define SCHEMA(json, want_ok, desc)                                           \
  do                                                                          \
    {                                                                         \
      t = json_loads (json, 0, NULL);                                         \
      int _r = ash_config_schema_check (t, "f", NULL, &e);                    \
      if (!tap_ok ((_r == 0) == (want_ok), "%s", desc))                       \
        tap_diag ("  %s", e.message ? e.message : "(no message)");            \
      json_decref (t);                                                        \
    }                                                                         \
  while (0)
  SCHEMA ("{\"sandbox\":{\"mode\":\"landlock\",\"network_scanners\":[],"
          "\"extra_read_paths\":[\"/opt\"],\"read_path_scanners\":[\"x\"],"
          "\"env_scanners\":[\"y\"]}}",
          true, "full sandbox section");
  SCHEMA ("{\"scanners\":{\"p\":{\"name\":\"grype\",\"enabled\":true,"
          "\"options\":{\"scan_timeout\":30,\"free\":{\"x\":[1]}}}}}",
          true, "scanner section with name and free-form options");
  SCHEMA ("{\"ash_aws_plugins\":true,\"ash_snyk_plugins\":[\"a\"]}", true,
          "ash_aws_plugins / ash_snyk_plugins");
  SCHEMA ("{\"global_settings\":{\"suppressions\":[{\"rule_id\":\"B101\","
          "\"path\":\"a.py\",\"line_start\":1,\"line_end\":2,\"reason\":\"r\","
          "\"expiration\":\"2030-01-01\"}]}}",
          true, "suppression");
  SCHEMA ("{\"scanners\":{\"bandit\":{\"options\":{\"scan_timeout\":0}}}}",
          false, "scan_timeout 0");
  SCHEMA ("{\"scanners\":{\"bandit\":{\"options\":{\"scan_timeout\":\"5\"}}}}",
          false, "scan_timeout as a string");
  SCHEMA ("{\"scanners\":{\"bandit\":true}}", false,
          "a scanner section must be a mapping");
  SCHEMA ("{\"scanners\":{\"a.b\":{}}}", false, "a scanner name with a dot");
  SCHEMA ("{\"reporters\":{\"sarif\":{\"enabled\":\"yes\"}}}", false,
          "enabled must be a boolean");
  SCHEMA ("{\"extends\":[\"a\"]}", false, "extends must be a string");
  SCHEMA ("{\"ash_plugin_modules\":\"a\"}", false,
          "ash_plugin_modules must be a list");
  SCHEMA ("{\"global_settings\":{\"suppressions\":[{\"path\":\"a\","
          "\"reason\":\"r\",\"line_start\":0}]}}",
          false, "line_start 0");
  ash_error_release (&e);
}

static void
test_load (void)
{
  struct ash_config c;
  struct ash_error e = ASH_ERROR_INIT;
  _cleanup_free_ char *base2
    = write_file ("base2.yaml",
                  "project_name: base2\n"
                  "sandbox:\n  extra_read_paths: [/opt/ca]\n"
                  "scanners:\n  grype:\n    options: {scan_timeout: 5}\n");
  _cleanup_free_ char *sub = xasprintf ("%s/sub", tmpdir);
  mkdir (sub, 0755);
  _cleanup_free_ char *base1
    = write_file ("sub/base1.yaml",
                  "extends: ../base2.yaml\n"
                  "project_name: base1\n"
                  "scanners:\n  grype:\n    enabled: false\n");
  _cleanup_free_ char *top
    = write_file ("top.yaml",
                  "extends: sub/base1.yaml\nsandbox:\n  mode: bwrap\n");
  char *overrides[] = { (char *) "scanners.bandit.enabled=false", NULL };
  struct ash_config_request req
    = { .source_dir = tmpdir, .config_path = top, .overrides = overrides };
  tap_is_int (ash_config_load (&req, &c, &e), 0, "extends chain loads");
  tap_is_int (c.n_files, 4, "defaults, the file and two bases");
  tap_is_int (c.files[0].origin, ASH_CONFIG_DEFAULTS, "files[0]: defaults");
  tap_is_int (c.files[1].origin, ASH_CONFIG_CLI, "files[1]: --config");
  tap_is_int (c.files[2].origin, ASH_CONFIG_EXTENDS, "files[2]: a base");
  tap_is_str (c.files[2].extends_entry, "sub/base1.yaml",
              "the extends entry text is kept");
  tap_is_int (c.files[2].parent, 1, "named by files[1]");
  tap_is_int (c.files[3].parent, 2, "files[3] named by files[2]");
  tap_is_str (c.files[3].name, base2, "the base's lexical name");
  tap_is_str (ash_config_get_string (&c, "project_name"), "base1",
              "the nearer base wins");
  tap_is_str (ash_config_get_string (&c, "sandbox.mode"), "bwrap",
              "the file wins");
  tap_ok (!ash_config_get_bool (&c, "scanners.grype.enabled", true),
          "a base's value is kept");
  tap_is_int (json_integer_value (
                ash_config_get (&c, "scanners.grype.options.scan_timeout")),
              5, "objects merge recursively");
  tap_ok (ash_config_get_bool (&c, "scanners.semgrep.enabled", false),
          "the defaults lie under everything");
  tap_ok (!ash_config_get_bool (&c, "scanners.bandit.enabled", true),
          "the override applies last");
  tap_ok (ash_config_get (&c, "extends") == NULL, "extends is consumed");
  const char *ov = NULL;
  tap_is_int (ash_config_origin_of (&c, "sandbox.mode", NULL), 1,
              "origin of sandbox.mode: the file");
  tap_is_int (ash_config_origin_of (&c, "project_name", NULL), 2,
              "origin of project_name: the first base");
  tap_is_int (ash_config_origin_of (&c, "sandbox.extra_read_paths", NULL), 3,
              "origin of a list: the deepest base");
  tap_is_int (ash_config_origin_of (&c, "scanners.semgrep.enabled", NULL), 0,
              "origin of a default");
  tap_is_int (ash_config_origin_of (&c, "scanners.bandit.enabled", &ov), -1,
              "origin of an overridden value");
  tap_is_str (ov, "scanners.bandit.enabled=false", "names the override");
  tap_is_int (c.overrides.nr, 1, "the override is recorded");
  ash_config_release (&c);

  /* A cycle names the files.  */
  _cleanup_free_ char *ca
    = write_file ("cycle-a.yaml", "extends: cycle-b.yaml\n");
  _cleanup_free_ char *cb
    = write_file ("cycle-b.yaml", "project_name: b\n"
                                  "extends: ./cycle-a.yaml\n");
  req.config_path = ca;
  req.overrides = NULL;
  tap_is_int (ash_config_load (&req, &c, &e), -ELOOP, "a cycle is refused");
  _cleanup_free_ char *want
    = xasprintf ("extends: cycle: %s -> %s -> %s", ca, cb, ca);
  tap_is_str (e.message, want, "the cycle names the files in order");
  tap_is_str (e.path, cb, "at the file that closes it");
  tap_is_int (e.line, 2, "on the extends line");

  /* A missing base.  */
  _cleanup_free_ char *mb
    = write_file ("missing-base.yaml", "project_name: x\n"
                                       "extends: nowhere/base.yaml\n");
  req.config_path = mb;
  /* Load first: the load replaces E's message, so it must not be read in
     the same call's arguments.  */
  int missing_r = ash_config_load (&req, &c, &e);
  tap_ok (missing_r < 0 && streq (e.path, mb) && e.line == 2
            && strstr (e.message, "nowhere/base.yaml"),
          "a missing base is reported at the extends entry: %s",
          e.message ? e.message : "");

  /* No file: the defaults.  */
  req.config_path = NULL;
  req.source_dir = sub; /* holds base1.yaml only, not a discovered name */
  tap_is_int (ash_config_load (&req, &c, &e), 0, "no file loads");
  tap_ok (c.from_defaults && c.n_files == 1, "from the defaults");
  tap_is_str (ash_config_get_string (&c, "sandbox.mode"), "off",
              "the default sandbox mode is off");
  tap_ok (ash_config_get_bool (&c, "fail_on_findings", false)
            && ash_config_get_bool (&c, "fail_on_incomplete_scanners", false),
          "fail_on_findings and fail_on_incomplete_scanners default true");
  tap_ok (ash_config_get (&c, "sandbox.network_scanners") == NULL,
          "network_scanners is unset by default");
  ash_config_release (&c);
  ash_error_release (&e);
}

static void
test_emit (void)
{
  json_t *v = json_loads ("{\"a\":\"off\",\"b\":\"x: y\",\"c\":[1,{\"d\":[]}],"
                          "\"e\":{},\"f\":\"12\",\"g\":\"plain\"}",
                          0, NULL);
  char *y = ash_config_to_yaml (v);
  tap_is_str (y,
              "a: \"off\"\nb: \"x: y\"\nc:\n- 1\n- d: []\ne: {}\nf: \"12\"\n"
              "g: plain\n",
              "YAML output quotes what needs it");
  json_t *back = NULL;
  struct ash_error e = ASH_ERROR_INIT;
  tap_is_int (ash_config_parse_yaml (y, strlen (y), "y", &back, NULL, &e), 0,
              "the YAML output parses");
  tap_ok (json_equal (back, v), "and reads back the same value");
  free (y);
  json_decref (back);
  json_decref (v);
}

int
main (int argc, char **argv)
{
  if (argc == 2 && streq (argv[1], "--print-default-json"))
    return print_default_json ();
  if (!mkdtemp (tmpdir))
    {
      perror ("mkdtemp");
      return 99;
    }
  test_override_values ();
  test_override_apply ();
  test_origins_set ();
  test_default_json ();
  test_yaml ();
  test_schema ();
  test_load ();
  test_emit ();
  static const char *const created[] = {
    "base2.yaml",   "sub/base1.yaml",    "top.yaml", "cycle-a.yaml",
    "cycle-b.yaml", "missing-base.yaml", "sub",
  };
  for (size_t i = 0; i < ARRAY_SIZE (created); i++)
    {
      char *p = xasprintf ("%s/%s", tmpdir, created[i]);
      if (unlink (p) < 0)
        rmdir (p);
      free (p);
    }
  rmdir (tmpdir);
  return tap_done ();
}
