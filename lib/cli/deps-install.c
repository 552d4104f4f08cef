/* SPDX-License-Identifier: Apache-2.0 */
/* deps-install.c -- `ash dependencies install`.

   Installs what can be installed without a shell pipe from the internet,
   into ASH's bin directory (ASH_BIN_PATH, default $XDG_DATA_HOME/ash/bin):
   npm packages with "npm install -g --prefix PREFIX" (PREFIX/bin is the
   bin directory), cdk-nag's modules as one project with "npm install
   --prefix PREFIX/lib" (so that cdk-nag and aws-cdk-lib share one
   node_modules, PREFIX/lib/node_modules, where the cdk-nag scanner looks),
   Python tools with "uv tool install" (UV_TOOL_BIN_DIR is the bin directory)
   or, without uv, "pipx install" (PIPX_BIN_DIR), and prints the Debian or
   Homebrew package, or the release to download, for the rest.  The text
   printed for a tool is the scanner's install hint, the same a MISSING reason
   names.

   It never runs inside a sandbox and never from the directory it was
   started in: each installer runs from a fresh private directory, so a
   .npmrc, package.json or uv.toml of a repository there changes nothing;
   the installers themselves are found like every tool ASH runs (never
   inside that directory).  --dry-run prints the commands without running
   them; --scanners picks the scanners.  Exit 0 when every install that
   ran succeeded, 1 otherwise, 5 for an unknown scanner name.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "base/util.h"
#include "cli/commands.h"
#include "proc/spawn.h"
#include "proc/toolfind.h"
#include "scan/exit-codes.h"
#include "scan/rundir.h"
#include "scanners/scanner.h"

extern char **environ;

enum how
{
  HOW_NPM,     /* npm install -g --prefix: programs into the bin directory */
  HOW_NPM_LIB, /* npm install --prefix PREFIX/lib: modules that must share
                  one node_modules (cdk-nag and its peer aws-cdk-lib) */
  HOW_PYTHON,  /* uv tool install, else pipx install */
  HOW_PRINT,   /* print the install hint */
};

/* The tool and the command that installs it come from the scanner's
   adapter (its install_hint is also the reason a MISSING scanner gives):
   one table.  Only what is not a scanner adapter (jupyter, which the
   notebook converter needs) has its own.  */
struct dep
{
  const char *scanner;
  enum how how;
  const char *packages; /* HOW_NPM, HOW_PYTHON: space-separated, the
                           packages the adapter's install_hint names */
  const char *brew;     /* the Homebrew formula, or NULL */
  const char *tool;     /* for what is not a scanner adapter */
  const char *hint;     /* likewise */
};

static const struct dep deps[] = {
  { "bandit", HOW_PRINT, NULL, "bandit", NULL, NULL },
  { "cdk-nag", HOW_NPM_LIB, "aws-cdk-lib@2 constructs@10 cdk-nag@2", NULL,
    NULL, NULL },
  { "cfn-nag", HOW_PRINT, NULL, NULL, NULL, NULL },
  { "checkov", HOW_PYTHON, "checkov", "checkov", NULL, NULL },
  { "detect-secrets", HOW_PYTHON, "detect-secrets", NULL, NULL, NULL },
  { "grype", HOW_PRINT, NULL, "grype", NULL, NULL },
  { "npm-audit", HOW_NPM, "pnpm yarn", "node", NULL, NULL },
  { "opengrep", HOW_PRINT, NULL, NULL, NULL, NULL },
  { "semgrep", HOW_PYTHON, "semgrep", "semgrep", NULL, NULL },
  { "syft", HOW_PRINT, NULL, "syft", NULL, NULL },
  { "actionlint", HOW_PRINT, NULL, "actionlint", NULL, NULL },
  { "cfn-lint", HOW_PYTHON, "cfn-lint", "cfn-lint", NULL, NULL },
  { "cfn-guard", HOW_PRINT, NULL, "cloudformation-guard", NULL, NULL },
  { "gitleaks", HOW_PRINT, NULL, "gitleaks", NULL, NULL },
  { "zizmor", HOW_PYTHON, "zizmor", "zizmor", NULL, NULL },
  { "trivy-repo", HOW_PRINT, NULL, "trivy", NULL, NULL },
  { "jupyter", HOW_PRINT, NULL, "jupyterlab", "jupyter-nbconvert",
    "apt-get install jupyter-nbconvert" },
};

static const struct ash_scanner *
scanner_of (const struct dep *d)
{
  const struct ash_scanner *s = ash_scanner_builtin (d->scanner);
  return s ? s : ash_scanner_adapter (d->scanner);
}

static const char *
hint_of (const struct dep *d)
{
  const struct ash_scanner *s = scanner_of (d);
  return s ? s->install_hint : d->hint;
}

static const char *
tool_of (const struct dep *d)
{
  const struct ash_scanner *s = scanner_of (d);
  return s ? s->tool : d->tool;
}

static char *
find (const char *tool, const struct ash_options *o)
{
  struct ash_toolfind_opts tf = {
    .path_env = getenv ("PATH"),
    .bin_path = o->bin_path,
    .source_dir = o->source_dir,
    .allow_in_tree_tools = false,
  };
  char *path = NULL;
  struct ash_error err = ASH_ERROR_INIT;
  if (ash_toolfind (tool, &tf, &path, &err) < 0)
    path = NULL;
  ash_error_release (&err);
  return path;
}

static void
print_cmd (const char *scanner, char *const *argv, char *const *env_extra)
{
  printf ("%-16s ", scanner);
  for (char *const *e = env_extra; e && *e; e++)
    printf ("%s ", *e);
  for (char *const *a = argv; *a; a++)
    printf ("%s%s", a == argv ? "" : " ", *a);
  putchar ('\n');
}

/* Run ARGV with ASH's environment plus ENV_EXTRA, from DIR.  */
static int
run (char *const *argv, char *const *env_extra, const char *dir)
{
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  struct ash_error err = ASH_ERROR_INIT;
  int ok;

  ash_cmd_init (&cmd);
  ash_strvec_pushv (&cmd.argv, argv);
  ash_strvec_pushv (&cmd.env, environ);
  for (char *const *e = env_extra; e && *e; e++)
    {
      const char *eq = strchr (*e, '=');
      _cleanup_free_ char *n = xstrndup (*e, (size_t) (eq - *e));
      ash_strvec_setenv (&cmd.env, n, eq + 1);
    }
  cmd.cwd = xstrdup (dir);
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = ASH_STDIO_INHERIT;
  cmd.stderr_mode = ASH_STDIO_INHERIT;
  cmd.timeout_sec = 3600;
  fflush (stdout);
  if (ash_cmd_run (&cmd, &res, &err) < 0)
    {
      fprintf (stderr, _ ("ash: %s\n"), err.message);
      ok = -1;
    }
  else if (res.status != 0)
    {
      fprintf (stderr, _ ("ash: %s exited with status %d\n"), argv[0],
               res.status);
      ok = -1;
    }
  else
    ok = 0;
  ash_cmd_release (&cmd);
  ash_error_release (&err);
  return ok;
}

int
ash_dependencies_install_command (const struct ash_options *o, bool dry_run)
{
  _cleanup_free_ char *npm = NULL, *uv = NULL, *pipx = NULL, *dir = NULL;
  _cleanup_free_ char *prefix = NULL;
  bool selected[ARRAY_SIZE (deps)];
  int code = ASH_EXIT_OK;

  for (size_t i = 0; i < o->scanners.nr; i++)
    {
      bool known = false;
      for (size_t k = 0; k < ARRAY_SIZE (deps); k++)
        known |= streq (deps[k].scanner, o->scanners.v[i]);
      if (!known)
        {
          fprintf (stderr,
                   _ ("ash: dependencies install: unknown scanner '%s'\n"
                      "Try 'ash dependencies install --help'.\n"),
                   o->scanners.v[i]);
          return ASH_EXIT_USAGE;
        }
    }
  for (size_t k = 0; k < ARRAY_SIZE (deps); k++)
    selected[k] = o->scanners.nr == 0
                  || ash_strvec_contains (&o->scanners, deps[k].scanner);

  if (o->bin_path == NULL)
    {
      fprintf (stderr, _ ("ash: cannot tell where ASH's bin directory is: set "
                          "ASH_BIN_PATH\n"));
      return ASH_EXIT_INCOMPLETE;
    }
  /* npm's -g --prefix P installs programs in P/bin.  */
  const char *slash = strrchr (o->bin_path, '/');
  if (slash && streq (slash + 1, "bin") && slash != o->bin_path)
    prefix = xstrndup (o->bin_path, (size_t) (slash - o->bin_path));

  npm = find ("npm", o);
  uv = find ("uv", o);
  pipx = uv ? NULL : find ("pipx", o);

  printf (_ ("Installing into %s%s\n\n"), o->bin_path,
          dry_run ? _ (" (dry run: nothing is run)") : "");
  if (!dry_run)
    {
      struct ash_error err = ASH_ERROR_INIT;
      if (ash_rundir_make (ash_rundir_base (o->source_dir, o->output_dir),
                           "dependencies", &dir, &err)
          < 0)
        {
          fprintf (stderr, _ ("ash: %s\n"), err.message);
          ash_error_release (&err);
          return ASH_EXIT_INCOMPLETE;
        }
    }

  for (size_t k = 0; k < ARRAY_SIZE (deps); k++)
    {
      const struct dep *d = &deps[k];
      if (!selected[k])
        continue;
      const char *tool = tool_of (d);
      _cleanup_free_ char *have = find (tool, o);
      struct ash_strvec argv = ASH_STRVEC_INIT, env = ASH_STRVEC_INIT;
      const char *missing_installer = NULL;

      if (d->how == HOW_NPM || d->how == HOW_NPM_LIB)
        {
          if (npm == NULL)
            missing_installer = "npm";
          else if (prefix == NULL)
            {
              fprintf (stderr,
                       _ ("ash: %s: ASH's bin directory %s does not end in "
                          "/bin, so npm's --prefix cannot install into it\n"),
                       d->scanner, o->bin_path);
              code = ASH_EXIT_INCOMPLETE;
              continue;
            }
          else
            {
              ash_strvec_push (&argv, npm);
              ash_strvec_push (&argv, "install");
              if (d->how == HOW_NPM)
                {
                  ash_strvec_push (&argv, "-g");
                  ash_strvec_push (&argv, "--prefix");
                  ash_strvec_push (&argv, prefix);
                }
              else
                {
                  /* PREFIX/lib/node_modules, where cdk-nag looks.  */
                  ash_strvec_push (&argv, "--prefix");
                  ash_strvec_pushf (&argv, "%s/lib", prefix);
                }
              ash_strvec_push (&argv, "--no-fund");
              ash_strvec_push (&argv, "--no-audit");
              ash_strvec_push (&env, "npm_config_update_notifier=false");
            }
        }
      else if (d->how == HOW_PYTHON)
        {
          if (uv)
            {
              ash_strvec_push (&argv, uv);
              ash_strvec_push (&argv, "tool");
              ash_strvec_push (&argv, "install");
              ash_strvec_pushf (&env, "UV_TOOL_BIN_DIR=%s", o->bin_path);
            }
          else if (pipx)
            {
              ash_strvec_push (&argv, pipx);
              ash_strvec_push (&argv, "install");
              ash_strvec_pushf (&env, "PIPX_BIN_DIR=%s", o->bin_path);
            }
          else
            missing_installer = "uv or pipx";
        }
      if (argv.nr > 0)
        {
          _cleanup_free_ char *pk = xstrdup (d->packages);
          for (char *save = NULL, *t = strtok_r (pk, " ", &save); t;
               t = strtok_r (NULL, " ", &save))
            ash_strvec_push (&argv, t);
          print_cmd (d->scanner, argv.v, env.v);
          if (!dry_run && run (argv.v, env.v, dir) < 0)
            code = ASH_EXIT_INCOMPLETE;
        }
      else
        {
          const char *hint = hint_of (d);
          if (have)
            printf (_ ("%-16s %s is installed at %s\n"), d->scanner, tool,
                    have);
          else if (missing_installer)
            printf (_ ("%-16s needs %s to install: %s\n"), d->scanner,
                    missing_installer, hint ? hint : "");
          else
            printf (_ ("%-16s install %s with: %s%s%s%s\n"), d->scanner, tool,
                    hint ? hint : "",
                    d->brew ? _ (" (Homebrew: brew install ") : "",
                    d->brew ? d->brew : "", d->brew ? ")" : "");
        }
      ash_strvec_release (&argv);
      ash_strvec_release (&env);
    }
  if (dir)
    {
      struct ash_error err = ASH_ERROR_INIT;
      if (ash_rundir_remove (&dir, &err) < 0)
        fprintf (stderr, _ ("ash: %s\n"), err.message);
      ash_error_release (&err);
    }
  return code;
}
