/* SPDX-License-Identifier: Apache-2.0 */
/* test-version.c -- tool versions and version constraints
   (scanners.NAME.options.tool_version).  */

#include <config.h>

#include <errno.h>

#include "base/escape.h"
#include "base/util.h"
#include "base/version.h"
#include "scanners/adapter.h"
#include "tap.h"

static const char *const key = "scanners.bandit.options.tool_version";

static int
match (const char *spec, const char *version)
{
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_version_spec_match (spec, version, key, &err);
  ash_error_release (&err);
  return r;
}

static void
ordered (const char *older, const char *newer)
{
  struct ash_version a, b;
  tap_ok (ash_version_parse (older, &a) == 0
            && ash_version_parse (newer, &b) == 0
            && ash_version_compare (&a, &b) < 0
            && ash_version_compare (&b, &a) > 0,
          "%s is older than %s", older, newer);
}

static void
same (const char *x, const char *y)
{
  struct ash_version a, b;
  tap_ok (ash_version_parse (x, &a) == 0 && ash_version_parse (y, &b) == 0
            && ash_version_compare (&a, &b) == 0,
          "%s is the same version as %s", x, y);
}

static void
refused (const char *spec)
{
  struct ash_error err = ASH_ERROR_INIT;
  int r = ash_version_spec_check (spec, key, &err);
  _cleanup_free_ char *safe = ash_escape_control (spec);
  _cleanup_free_ char *msg
    = ash_escape_control (err.message ? err.message : "no message");
  tap_ok (r == -EINVAL && err.message && strstr (err.message, key),
          "'%s' is refused, naming the key (%s)", safe, msg);
  ash_error_release (&err);
  tap_is_int (match (spec, "1.0.0"), -EINVAL, "'%s' matches nothing either",
              safe);
}

int
main (void)
{
  /* Ordering.  */
  ordered ("1.6.2", "1.7.0");
  ordered ("1.9", "1.10");
  ordered ("1.7.0rc1", "1.7.0");
  ordered ("1.7.0a2", "1.7.0b1");
  ordered ("1.7.0.dev3", "1.7.0a1");
  ordered ("1.7.0b1", "1.7.0rc1");
  ordered ("1.7.0", "1.7.0.post1");
  ordered ("1.2.0-beta.2", "1.2.0");
  ordered ("1.2.0-foo", "1.2.0");
  ordered ("2", "10");
  same ("1.7", "1.7.0");
  same ("v8.30.1", "8.30.1");
  same ("1.2.3+ubuntu1", "1.2.3");

  struct ash_version v;
  tap_is_int (ash_version_parse ("bandit", &v), -EINVAL,
              "a word is not a version");
  tap_is_int (ash_version_parse ("1234567890.1", &v), -EINVAL,
              "a release number of ten digits is refused");

  /* Upstream's default constraints.  */
  tap_is_int (match (">=1.7.0,<2.0.0", "1.8.6"), 1, "1.8.6 in [1.7, 2)");
  tap_is_int (match (">=1.7.0,<2.0.0", "1.6.2"), 0, "1.6.2 not in [1.7, 2)");
  tap_is_int (match (">=1.7.0,<2.0.0", "2.0.0"), 0, "2.0.0 not in [1.7, 2)");
  tap_is_int (match (" >= 3.2.0 , < 4.0.0 ", "3.2.396"), 1,
              "spaces around clauses and operators");
  tap_is_int (match ("==1.2.*", "1.2.9"), 1, "==1.2.* takes 1.2.9");
  tap_is_int (match ("==1.2.*", "1.3.0"), 0, "==1.2.* not 1.3.0");
  tap_is_int (match ("!=1.2.*", "1.3.0"), 1, "!=1.2.* takes 1.3.0");
  tap_is_int (match ("~=3.2", "3.9.1"), 1, "~=3.2 takes 3.9.1");
  tap_is_int (match ("~=3.2", "4.0"), 0, "~=3.2 not 4.0");
  tap_is_int (match ("~=3.2.1", "3.2.0"), 0, "~=3.2.1 not 3.2.0");
  tap_is_int (match ("~=3.2.1", "3.3.0"), 0, "~=3.2.1 not 3.3.0");
  tap_is_int (match ("==1.7", "1.7.0"), 1, "==1.7 is 1.7.0");
  tap_is_int (match ("!=1.8.1", "1.8.1"), 0, "!=1.8.1 not 1.8.1");
  tap_is_int (match (">1.7.0", "1.7.0"), 0, ">1.7.0 not 1.7.0");
  tap_is_int (match ("<=1.7.0", "1.7.0"), 1, "<=1.7.0 takes 1.7.0");
  tap_is_int (match (">=1.7.0", "1.7.0rc1"), 0,
              "a release candidate is older than its release");
  tap_is_int (match ("===1.7.0-custom", "1.7.0-CUSTOM"), 1,
              "=== compares the text");
  tap_is_int (match ("===1.7.0-custom", "1.7.0"), 0,
              "=== does not compare versions");
  tap_is_int (match (">=1.0", "bandit"), -EINVAL,
              "a found word is no version");

  /* What is not a constraint.  */
  refused ("");
  refused ("1.7.0");
  refused ("^1.7.0");
  refused ("latest");
  refused (">=1.7.0,");
  refused (">=1.7.0 <2.0.0");
  refused ("~=3");
  refused (">=1.*");
  refused ("==1.2.*.4");
  refused (">=1.7.0\x1b[31m");
  refused ("==1.2.3;rm -rf /");

  /* A tool's --version output.  */
  static const struct
  {
    const char *out, *want;
  } outs[] = {
    { "bandit 1.6.2\n  python version = 3.11.2\n", "1.6.2" },
    { "cfn-lint 1.51.0\n", "1.51.0" },
    { "3.2.396\n", "3.2.396" },
    { "1.7.12\ninstalled by building from source\n", "1.7.12" },
    { "gitleaks version v8.30.1, built\n", "8.30.1" },
    { "\r\n1.0\n", NULL },
    { "no version here\n2.0\n", NULL },
    { "", NULL },
  };
  for (size_t i = 0; i < ARRAY_SIZE (outs); i++)
    {
      _cleanup_free_ char *got = ash_version_from_output (outs[i].out);
      tap_is_str (got, outs[i].want, "version in output %zu", i);
    }
  _cleanup_free_ char *longv = ash_version_from_output (
    "tool 1.000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000\n");
  tap_ok (longv && strlen (longv) == 64, "a version word is cut at 64 bytes");

  /* The options that carry them.  */
  static const struct
  {
    const char *json;
    bool version_checked;
    const char *error; /* NULL: accepted */
  } opts[] = {
    { "{\"tool_version\": \">=1.7.0,<2.0.0\", \"install_timeout\": 300}", true,
      NULL },
    { "{\"tool_version\": null, \"install_timeout\": null}", true, NULL },
    { "{\"tool_version\": null}", false, NULL },
    { "{\"install_timeout\": 300}", false, NULL },
    { "{\"tool_version\": \">=2\"}", false,
      "scanners.x.options.tool_version is not supported: ash does not check "
      "the version of x's modules" },
    { "{\"tool_version\": 2}", true,
      "scanners.x.options.tool_version must be a string" },
    { "{\"tool_version\": \"2\"}", true,
      "scanners.x.options.tool_version: '2' is not a version constraint" },
    { "{\"install_timeout\": 0}", true,
      "scanners.x.options.install_timeout must be a number of seconds from 1 "
      "to 86400" },
    { "{\"install_timeout\": 86401}", true,
      "scanners.x.options.install_timeout must be a number" },
    { "{\"install_timeout\": 1.5}", true,
      "scanners.x.options.install_timeout must be a number" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (opts); i++)
    {
      json_t *o = json_loads (opts[i].json, 0, NULL);
      struct ash_error err = ASH_ERROR_INIT;
      int r
        = ash_adapter_check_install_options ("x", o, opts[i].version_checked,
                                             &err);
      if (opts[i].error == NULL)
        tap_ok (r == 0, "%s is accepted", opts[i].json);
      else
        {
          tap_ok (r < 0 && err.message && strstr (err.message, opts[i].error),
                  "%s is refused", opts[i].json);
          if (err.message && !strstr (err.message, opts[i].error))
            tap_diag ("  got: %s", err.message);
        }
      ash_error_release (&err);
      json_decref (o);
    }
  return tap_done ();
}
