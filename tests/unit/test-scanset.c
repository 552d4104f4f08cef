/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for scanset.c: ignore files, ignore_paths, links that leave
   the tree and the per-scanner exclusion arguments, on real temporary
   trees.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "fs/scanset.h"
#include "fs/tree.h"
#include "tap.h"

static char *base, *src, *outside;

static void
bail (const char *what)
{
  printf ("Bail out! %s: %s\n", what, strerror (errno));
  exit (99);
}

static void
mkparents (const char *path)
{
  _cleanup_free_ char *p = xstrdup (path);
  for (char *s = strchr (p + 1, '/'); s; s = strchr (s + 1, '/'))
    {
      *s = '\0';
      if (mkdir (p, 0755) < 0 && errno != EEXIST)
        bail (p);
      *s = '/';
    }
}

/* Create SRC/REL with CONTENT.  */
static void
mk (const char *rel, const char *content)
{
  _cleanup_free_ char *p = ash_path_join (src, rel);
  mkparents (p);
  FILE *f = fopen (p, "w");
  if (!f)
    bail (p);
  fputs (content, f);
  fclose (f);
}

/* Create the symlink SRC/REL -> TARGET.  */
static void
ln (const char *target, const char *rel)
{
  _cleanup_free_ char *p = ash_path_join (src, rel);
  mkparents (p);
  if (symlink (target, p) < 0)
    bail (p);
}

static void
setup (void)
{
  char tmpl[] = "/tmp/ash-test-scanset.XXXXXX";
  if (!mkdtemp (tmpl))
    bail ("mkdtemp");
  base = xstrdup (tmpl);
  src = xasprintf ("%s/src", base);
  outside = xasprintf ("%s/outside", base);
  if (mkdir (src, 0755) < 0 || mkdir (outside, 0755) < 0)
    bail ("mkdir");
  _cleanup_free_ char *x = xasprintf ("%s/x.py", outside);
  FILE *f = fopen (x, "w");
  if (!f)
    bail (x);
  fputs ("import os\n", f);
  fclose (f);
}

static void
teardown (void)
{
  _cleanup_free_ char *cmd = xasprintf ("rm -rf '%s'", base);
  if (system (cmd) != 0)
    bail ("rm");
  free (base);
  free (src);
  free (outside);
}

static char *
joined (const struct ash_strvec *v)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; i < v->nr; i++)
    ash_buf_addf (&b, "%s\n", v->v[i]);
  return ash_buf_detach (&b);
}

static int
build (const struct ash_scanset_opts *opts, struct ash_scanset *s,
       struct ash_error *e)
{
  int fd = open (src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    bail (src);
  int r = ash_scanset_build (fd, src, opts, s, e);
  close (fd);
  return r;
}

static void
test_ignore_rules (void)
{
  setup ();
  mk ("a.py", "");
  mk ("b.log", "");
  mk ("keep.log", "");
  mk ("build/x.py", "");
  mk ("docs/build", "");
  mk ("sub/t.tmp", "");
  mk ("sub/local.py", "");
  mk ("sub/deeper/local.py", "");
  mk ("sub/deeper/n.py", "");
  mk ("t.tmp", "");
  mk ("secret/a.py", "");
  mk ("secret/b/c.py", "");
  mk ("#hash", "");
  mk ("doc/a.md", "");
  mk ("doc/x/y/b.md", "");
  mk ("doc/c.txt", "");
  mk (".git/config", "");
  mk (".ash/ash_output/ash.log", "");
  mk (".ash/.ash.yaml", "");
  mk ("tests/a.py", "");
  mk ("tests/deep/b.py", "");
  mk ("readme.txt ", "");
  mk (".gitignore", "# comment\n\n*.log\n!keep.log\nbuild/\n\\#hash\n"
                    "!tests/a.py\nreadme.txt\\ \n");
  mk ("sub/.gitignore", "*.tmp\n/local.py\n!n.py\n");
  mk ("sub/deeper/.gitignore", "n.py\n");
  mk (".ashignore", "secret/**\ndoc/**/*.md\n");
  static const struct ash_ignore_path ip[]
    = { { "tests/*", "fixtures" }, { "nothing/there", NULL } };
  _cleanup_free_ char *outdir = xasprintf ("%s/.ash/ash_output", src);
  struct ash_scanset_opts opts = { outdir, ip, ARRAY_SIZE (ip) };
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  int r = build (&opts, &s, &e);
  tap_is_int (r, 0, "ignore rules: the scan set builds");
  _cleanup_free_ char *files = joined (&s.files);
  tap_is_str (files,
              ".ash/.ash.yaml\n.ashignore\n.gitignore\na.py\ndoc/c.txt\n"
              "docs/build\nkeep.log\nsub/.gitignore\nsub/deeper/.gitignore\n"
              "sub/deeper/local.py\nt.tmp\n",
              "ignore rules: the scan set");
  _cleanup_free_ char *ign = joined (&s.ignored);
  tap_is_str (ign,
              "#hash: .gitignore:6: \\#hash\n"
              "b.log: .gitignore:3: *.log\n"
              "build: .gitignore:5: build/\n"
              "doc/a.md: .ashignore:2: doc/**/*.md\n"
              "doc/x/y/b.md: .ashignore:2: doc/**/*.md\n"
              "readme.txt : .gitignore:8: readme.txt\\ \n"
              "secret/a.py: .ashignore:1: secret/**\n"
              "secret/b: .ashignore:1: secret/**\n"
              "sub/deeper/n.py: sub/deeper/.gitignore:1: n.py\n"
              "sub/local.py: sub/.gitignore:2: /local.py\n"
              "sub/t.tmp: sub/.gitignore:1: *.tmp\n"
              "tests/a.py: global_settings.ignore_paths: tests/* "
              "(fixtures)\n"
              "tests/deep: global_settings.ignore_paths: tests/* "
              "(fixtures)\n",
              "ignore rules: the ignore report");
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

static void
test_links (void)
{
  setup ();
  mk ("a.py", "x = 1\n");
  mk ("sub/b.py", "");
  mk (".gitignore", "node_modules/\n");
  mk ("node_modules/pkg/index.js", "");
  ln ("a.py", "lnk-in");
  ln ("sub", "lnk-dir");
  ln ("../a.py", "sub/up-in");
  _cleanup_free_ char *x = xasprintf ("%s/x.py", outside);
  ln (x, "vendor/config.py");
  ln ("nowhere", "zz-dangling");
  ln ("hop", "chain-link");
  ln (outside, "hop");
  ln ("../outside/x.py", "rel-out");
  ln ("../../src/../outside", "sub/dotdot");
  ln (outside, "node_modules/evil");
  ln ("loop-b", "loop-a");
  ln ("loop-a", "loop-b");
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  tap_is_int (r, 0, "links: the scan set builds");
  _cleanup_free_ char *files = joined (&s.files);
  tap_is_str (files, ".gitignore\na.py\nlnk-in\nsub/b.py\nsub/up-in\n",
              "links: links inside the tree are kept, leaving ones are not");
  _cleanup_free_ char *leaving = joined (&s.leaving);
  tap_is_str (leaving,
              "chain-link\nhop\nloop-a\nloop-b\nnode_modules/evil\n"
              "rel-out\nsub/dotdot\nvendor/config.py\nzz-dangling\n",
              "links: every leaving link is recorded, ignored ones too");
  _cleanup_free_ char *warn = joined (&s.warnings);
  tap_is_str (warn,
              "Not scanning 'chain-link': link leaves the scanned tree\n"
              "Not scanning 'hop': link leaves the scanned tree\n"
              "Not scanning 'loop-a': link leaves the scanned tree\n"
              "Not scanning 'loop-b': link leaves the scanned tree\n"
              "Not scanning 'rel-out': link leaves the scanned tree\n"
              "Not scanning 'sub/dotdot': link leaves the scanned tree\n"
              "Not scanning 'vendor/config.py': link leaves the scanned "
              "tree\n"
              "Not scanning 'zz-dangling': link leaves the scanned tree\n",
              "links: the exact warnings");
  tap_ok (!strstr (warn, outside) && !strstr (warn, "nowhere"),
          "links: the warnings never name a target");

  static const struct
  {
    const char *scanner, *want;
  } cases[] = {
    { "bandit", "--exclude\nchain-link,hop,loop-a,loop-b,node_modules/evil,"
                "rel-out,sub/dotdot,vendor/config.py,zz-dangling\n" },
    { "ferret-scan",
      "--exclude\nchain-link,hop,loop-a,loop-b,node_modules/evil,"
      "rel-out,sub/dotdot,vendor/config.py,zz-dangling\n" },
    { "checkov",
      "--skip-path\n(?:^|/)chain-link$\n--skip-path\n(?:^|/)hop$\n"
      "--skip-path\n(?:^|/)loop-a$\n--skip-path\n(?:^|/)loop-b$\n"
      "--skip-path\n(?:^|/)node_modules/evil$\n--skip-path\n"
      "(?:^|/)rel-out$\n--skip-path\n(?:^|/)sub/dotdot$\n--skip-path\n"
      "(?:^|/)vendor/config[.]py$\n--skip-path\n(?:^|/)zz-dangling$\n" },
    { "grype", "--exclude\n./chain-link\n--exclude\n./hop\n--exclude\n"
               "./loop-a\n--exclude\n./loop-b\n--exclude\n"
               "./node_modules/evil\n--exclude\n./rel-out\n--exclude\n"
               "./sub/dotdot\n--exclude\n./vendor/config.py\n--exclude\n"
               "./zz-dangling\n" },
    { "syft", "--exclude\n./chain-link\n--exclude\n./hop\n--exclude\n"
              "./loop-a\n--exclude\n./loop-b\n--exclude\n"
              "./node_modules/evil\n--exclude\n./rel-out\n--exclude\n"
              "./sub/dotdot\n--exclude\n./vendor/config.py\n--exclude\n"
              "./zz-dangling\n" },
    { "trivy-repo", "--skip-files\nchain-link\n--skip-files\nhop\n"
                    "--skip-files\nloop-a\n--skip-files\nloop-b\n"
                    "--skip-files\nnode_modules/evil\n--skip-files\n"
                    "rel-out\n--skip-files\nsub/dotdot\n--skip-files\n"
                    "vendor/config.py\n--skip-files\nzz-dangling\n" },
    { "semgrep", "" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      struct ash_strvec args = ASH_STRVEC_INIT;
      ash_strvec_push (&args, "--existing");
      r = ash_scanset_exclusion_args (&s, cases[i].scanner, &args, &e);
      ash_strvec_remove (&args, 0);
      _cleanup_free_ char *got = joined (&args);
      tap_ok (r == 0, "links: %s exclusions succeed", cases[i].scanner);
      tap_is_str (got, cases[i].want, "links: %s exclusion arguments",
                  cases[i].scanner);
      ash_strvec_release (&args);
    }

  /* The reports, through the writers.  */
  _cleanup_free_ char *out = xasprintf ("%s/out", base);
  struct ash_outdir od = ASH_OUTDIR_INIT;
  r = ash_outdir_open (out, src, &od, &e);
  if (r == 0)
    r = ash_scanset_write_reports (&s, od.fd, &e);
  tap_is_int (r, 0, "links: the reports are written");
  struct ash_buf b = ASH_BUF_INIT;
  r = ash_tree_read_file (od.fd, "ash-scan-set-files-list.txt", 1 << 20, &b,
                          &e);
  _cleanup_free_ char *want
    = xasprintf ("%s/.gitignore\n%s/a.py\n%s/lnk-in\n%s/sub/b.py\n"
                 "%s/sub/up-in\n",
                 src, src, src, src, src);
  tap_is_str (b.buf, want, "links: the files list holds absolute paths");
  r = ash_tree_read_file (od.fd, "ash-ignore-report.txt", 1 << 20, &b, &e);
  tap_is_str (b.buf, "node_modules: .gitignore:1: node_modules/\n",
              "links: the ignore report");
  ash_buf_release (&b);
  ash_outdir_release (&od);
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* Many links into the same directories, where the walk resolves each
   directory once: a name there that is itself a link back into the tree,
   a directory link outside that leads back in, a missing name, relative
   targets climbing out and back in, from several depths, targets named
   twice, targets at the top of the file system.  The verdicts are those
   of resolving every link whole.  */
static void
test_link_dir_cache (void)
{
  setup ();
  mk ("a.py", "");
  mk ("sub/b.py", "");
  mk ("sub/deep/c.py", "");
  _cleanup_free_ char *back = xasprintf ("%s/back.py", outside);
  _cleanup_free_ char *back_to = xasprintf ("%s/sub/b.py", src);
  _cleanup_free_ char *dir_in = xasprintf ("%s/dir-in", outside);
  _cleanup_free_ char *dir_in_to = xasprintf ("%s/sub", src);
  if (symlink (back_to, back) < 0 || symlink (dir_in_to, dir_in) < 0)
    bail (back);
  _cleanup_free_ char *x = xasprintf ("%s/x.py", outside);
  _cleanup_free_ char *missing = xasprintf ("%s/missing.py", outside);
  _cleanup_free_ char *via = xasprintf ("%s/dir-in/b.py", outside);
  ln (x, "l1");
  ln (missing, "l2");
  ln (back, "l3");
  ln (via, "l4");
  ln (x, "l5");
  ln ("../../a.py", "sub/deep/r1");
  ln ("../a.py", "sub/r2");
  ln ("../../../outside/x.py", "sub/deep/r3");
  ln ("./../sub/./deep/c.py", "sub/r4");
  ln ("sub", "r5");
  ln ("../src/a.py", "r6");
  ln ("../outside/dir-in/deep/c.py", "r7");
  ln ("../..", "sub/r8");
  ln ("/tmp", "l7");
  ln ("/ash-test-no-such-name", "l8");
  ln (back, "l9");
  ln ("../a.py", "sub/r9");
  ln (via, "sub/l10");
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  tap_is_int (r, 0, "link directories: the scan set builds");
  _cleanup_free_ char *files = joined (&s.files);
  tap_is_str (files,
              "a.py\nl3\nl4\nl9\nr6\nr7\nsub/b.py\nsub/deep/c.py\n"
              "sub/deep/r1\nsub/l10\nsub/r2\nsub/r4\nsub/r9\n",
              "link directories: links that come back are kept, "
              "directories are not listed");
  _cleanup_free_ char *leaving = joined (&s.leaving);
  tap_is_str (leaving, "l1\nl2\nl5\nl7\nl8\nsub/deep/r3\nsub/r8\n",
              "link directories: the leaving and dangling links");
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* One leaving link named LINK (plus OTHER, a plain file, when not NULL);
   SCANNER's exclusions must fail naming it with WANT (NULL: succeed).  */
static void
check_unrepresentable (const char *link, const char *other,
                       const char *scanner, const char *want,
                       const char *want_arg)
{
  setup ();
  mk ("a.py", "");
  if (other)
    mk (other, "");
  ln (outside, link);
  /* Test names on one line.  */
  _cleanup_free_ char *shown = xstrdup (link);
  for (char *p = shown; *p; p++)
    if (*p == '\n')
      *p = '~';
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  struct ash_strvec args = ASH_STRVEC_INIT;
  if (r == 0)
    r = ash_scanset_exclusion_args (&s, scanner, &args, &e);
  if (want)
    {
      tap_is_int (r, -EINVAL, "%s refuses the link %s", scanner, shown);
      if (*want)
        tap_is_str (e.message, want, "%s: message for %s", scanner, shown);
      else
        {
          /* A name with a line break is quoted as in the scan-set list.  */
          const char *named
            = streq (link, "line\nbreak") ? "'\"line\\nbreak\"'" : link;
          tap_ok (e.message && strstr (e.message, named)
                    && !strchr (e.message, '\n'),
                  "%s: the message names %s", scanner, shown);
        }
      tap_is_str (ash_error_kind_name (e.kind), "LinkNotExcludable",
                  "%s: kind for %s", scanner, shown);
      tap_is_int (args.nr, 0, "%s: no partial arguments for %s", scanner,
                  shown);
    }
  else
    {
      tap_is_int (r, 0, "%s can exclude the link %s", scanner, shown);
      tap_is_str (args.nr == 2 ? args.v[1] : NULL, want_arg,
                  "%s: argument for %s", scanner, shown);
    }
  ash_strvec_release (&args);
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

static void
test_unrepresentable (void)
{
  check_unrepresentable (
    "a,b.py", NULL, "bandit",
    "bandit was not run on the source directory: the link 'a,b.py' leaves "
    "the scanned tree, and bandit's --exclude cannot name it alone: its "
    "path holds a comma, which separates the values of that option",
    NULL);
  check_unrepresentable (
    "a,b.py", NULL, "ferret-scan",
    "ferret-scan was not run on the source directory: the link 'a,b.py' "
    "leaves the scanned tree, and ferret-scan's --exclude cannot name it "
    "alone: its path holds a comma, which separates the values of that "
    "option",
    NULL);
  check_unrepresentable ("a,b.py", NULL, "trivy-repo", NULL, "\"a,b.py\"");
  check_unrepresentable ("a,b.py", NULL, "grype", NULL, "./a,b.py");
  check_unrepresentable (
    "x*.py", NULL, "bandit",
    "bandit was not run on the source directory: the link 'x*.py' leaves "
    "the scanned tree, and bandit's --exclude cannot name it alone: its "
    "path holds a glob character (* ? [)",
    NULL);
  check_unrepresentable ("x[1].py", NULL, "bandit", "", NULL);
  check_unrepresentable ("x?.py", NULL, "ferret-scan", NULL, "x?.py");
  check_unrepresentable ("x*.py", NULL, "syft", NULL, "./x\\*.py");
  check_unrepresentable (
    "cfg.py", "cfg.py.bak", "bandit",
    "bandit was not run on the source directory: the link 'cfg.py' leaves "
    "the scanned tree, and bandit's --exclude cannot name it alone: the "
    "path 'cfg.py.bak' holds its path, and that option matches any path "
    "that holds the value",
    NULL);
  check_unrepresentable ("cfg.py", "lib/old-cfg.py", "ferret-scan", "", NULL);
  check_unrepresentable ("cfg.py", "cfg.py.bak", "checkov", NULL,
                         "(?:^|/)cfg[.]py$");
  /* checkov matches the end of a path: another path ending with the
     link's would be skipped too.  */
  check_unrepresentable (
    "docker", "js/docker", "checkov",
    "checkov was not run on the source directory: the link 'docker' "
    "leaves the scanned tree, and checkov's --skip-path cannot name it "
    "alone: the path 'js/docker' ends with its path, and that option skips "
    "every path that ends with the value",
    NULL);
  check_unrepresentable ("docker", "js/dockers", "checkov", NULL,
                         "(?:^|/)docker$");
  check_unrepresentable ("cfg.py", "cfg.py.bak", "grype", NULL, "./cfg.py");
  check_unrepresentable ("line\nbreak", NULL, "bandit", "", NULL);
  check_unrepresentable ("line\nbreak", NULL, "ferret-scan", "", NULL);
  check_unrepresentable (
    "line\nbreak", NULL, "checkov",
    "checkov was not run on the source directory: the link "
    "'\"line\\nbreak\"' "
    "leaves the scanned tree, and checkov's --skip-path cannot name it: its "
    "path holds a line break",
    NULL);
  /* checkov: every character but a control one is written as itself.  */
  check_unrepresentable ("a+b", NULL, "checkov", NULL, "(?:^|/)a\\+b$");
  check_unrepresentable ("dir with space/x", NULL, "checkov", NULL,
                         "(?:^|/)dir with space/x$");
  check_unrepresentable ("a[1](x)|$^{2}*?.tf", NULL, "checkov", NULL,
                         "(?:^|/)a\\[1\\]\\(x\\)\\|\\$\\^\\{2\\}\\*\\?[.]tf$");
  check_unrepresentable ("back\\slash #'\"", NULL, "checkov", NULL,
                         "(?:^|/)back\\\\slash \\#\\'\\\"$");
  check_unrepresentable ("caf\xc3\xa9.terraform", NULL, "checkov", NULL,
                         "(?:^|/)caf\xc3\xa9[.]terraform$");
  check_unrepresentable (
    "tab\there", NULL, "checkov",
    "checkov was not run on the source directory: the link "
    "'\"tab\\there\"' leaves the scanned tree, and checkov's --skip-path "
    "cannot name it: its path holds a control character",
    NULL);
  /* Held across the source directory's own path: the absolute path
     SRC/a.py holds "rc/a.py" (SRC ends in "src"), and every absolute path
     holds "src".  */
  check_unrepresentable ("rc/a.py", NULL, "bandit", "", NULL);
  check_unrepresentable ("src", NULL, "ferret-scan", "", NULL);
  /* Held inside the source directory's path (.../ash-test-scanset.XXXXXX
     /src/) with no path of the tree long enough to hold it: the absolute
     form of a.py holds "scanset".  The controls: "sett-scan", whose bytes
     are all in that path but not in that order, and "scanseu".  */
  check_unrepresentable ("scanset", NULL, "bandit", "", NULL);
  check_unrepresentable ("sett-scan", NULL, "bandit", NULL, "sett-scan");
  check_unrepresentable ("scanseu", NULL, "bandit", NULL, "scanseu");
  /* Held in the middle of a deeper path.  */
  check_unrepresentable ("cfg.py", "z/old-cfg.py.txt", "bandit", "", NULL);
  /* Controls: held by no other path.  */
  check_unrepresentable ("zz.py", NULL, "bandit", NULL, "zz.py");
  check_unrepresentable ("b/zz.py", "b/z.py", "ferret-scan", NULL, "b/zz.py");
  /* Held across the source directory's path by a path shorter than the
     link: SRC/a.py holds "c/a.py".  The control: "d/a.py", which no
     tail of SRC/ starts.  */
  check_unrepresentable ("c/a.py", NULL, "bandit", "", NULL);
  check_unrepresentable ("d/a.py", NULL, "bandit", NULL, "d/a.py");
  /* Links longer than the source directory's path and than every other
     path are held by none, and need no search; one byte more in another
     path, and it holds the link.  A path as long as the link that is not
     the link holds nothing.  */
  {
    static const char lng[]
      = "a-rather-long-directory/of-a-deep-tree/holding-a-link-named.py";
    static const char same[]
      = "a-rather-long-directory/of-a-deep-tree/holding-a-link-named.pz";
    _cleanup_free_ char *longer = xasprintf ("%s~", lng);
    _cleanup_free_ char *inner = xasprintf ("x%sy", lng);
    check_unrepresentable (lng, NULL, "bandit", NULL, lng);
    check_unrepresentable (lng, same, "bandit", NULL, lng);
    check_unrepresentable (lng, longer, "bandit", "", NULL);
    check_unrepresentable (lng, inner, "ferret-scan", "", NULL);
  }
}

/* Many leaving links, some held by other paths and some not: the ones
   held are refused, naming the first path (in walk order) that holds
   them, as a path-by-path search would.  */
static void
test_many_holders (void)
{
  setup ();
  mk ("a.py", "");
  for (int i = 0; i < 300; i++)
    {
      _cleanup_free_ char *l = xasprintf ("d%d/link%03d.py", i % 7, i);
      ln (outside, l);
    }
  mk ("zzz/d3/link150.py.orig", "");
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  struct ash_strvec args = ASH_STRVEC_INIT;
  tap_is_int (r, 0, "many links: the scan set is built");
  tap_is_int (s.leaving.nr, 300, "many links: 300 leave the tree");
  r = ash_scanset_exclusion_args (&s, "bandit", &args, &e);
  tap_is_int (r, -EINVAL, "many links: the one held is refused");
  tap_ok (e.message && strstr (e.message, "'d3/link150.py'")
            && strstr (e.message, "'zzz/d3/link150.py.orig' holds"),
          "many links: the message names it and its holder (%s)",
          e.message ? e.message : "");
  ash_strvec_release (&args);
  ash_error_release (&e);
  ash_scanset_release (&s);
  {
    _cleanup_free_ char *orig = ash_path_join (src, "zzz/d3/link150.py.orig");
    unlink (orig);
  }
  r = build (&opts, &s, &e);
  if (r == 0)
    r = ash_scanset_exclusion_args (&s, "bandit", &args, &e);
  tap_is_int (r, 0, "many links: without it, all are excluded");
  tap_ok (args.nr == 2 && strstr (args.v[1], "d3/link150.py") != NULL
            && strstr (args.v[1], "d0/link000.py") != NULL,
          "many links: the option lists them");
  ash_strvec_release (&args);
  ash_scanset_release (&s);
  ash_error_release (&e);

  /* Held across the last slash of a path whose directory the path
     before it shares: the search resumes inside that directory.  */
  mk ("zzz/d4/a.txt", "");
  mk ("zzz/d4/link200.py~", "");
  r = build (&opts, &s, &e);
  if (r == 0)
    r = ash_scanset_exclusion_args (&s, "bandit", &args, &e);
  tap_is_int (r, -EINVAL, "many links: held after a sibling is refused");
  tap_ok (e.message && strstr (e.message, "'d4/link200.py'")
            && strstr (e.message, "'zzz/d4/link200.py~' holds"),
          "many links: the message names the link held after a sibling "
          "(%s)",
          e.message ? e.message : "");
  ash_strvec_release (&args);
  ash_error_release (&e);

  /* The same with the list of leaving links in another order than its
     text's, one where the links of a directory are not side by side
     (every seventh, round and round: 7 and 300 have no common
     divisor).  */
  {
    size_t n = s.leaving.nr;
    char **v = xcalloc (n, sizeof *v);
    for (size_t k = 0; k < n; k++)
      v[k] = s.leaving.v[(k * 7) % n];
    memcpy (s.leaving.v, v, n * sizeof *v);
    free (v);
  }
  r = ash_scanset_exclusion_args (&s, "bandit", &args, &e);
  tap_is_int (r, -EINVAL, "many links, unsorted: the one held is refused");
  tap_ok (e.message && strstr (e.message, "'d4/link200.py'")
            && strstr (e.message, "'zzz/d4/link200.py~' holds"),
          "many links, unsorted: the message names it and its holder (%s)",
          e.message ? e.message : "");
  ash_strvec_release (&args);
  ash_error_release (&e);
  ash_scanset_release (&s);
  teardown ();
}

/* A name with a line break must not add a line of its own to the files
   list or the ignore report: a directory "evil\n" holding etc/passwd
   would otherwise list /etc/passwd.  */
static void
test_line_breaks (void)
{
  setup ();
  mk ("a.py", "");
  mk ("evil\n/etc/passwd", "");
  mk ("skip\n/etc/shadow", "");
  mk (".gitignore", "skip*\n");
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  tap_is_int (r, 0, "line breaks: the walk succeeds");
  tap_ok (ash_strvec_contains (&s.files, "evil\n/etc/passwd"),
          "line breaks: the file is in the scan set by its own name");
  _cleanup_free_ char *out = xasprintf ("%s/out", base);
  struct ash_outdir od = ASH_OUTDIR_INIT;
  r = ash_outdir_open (out, src, &od, &e);
  if (r == 0)
    r = ash_scanset_write_reports (&s, od.fd, &e);
  tap_is_int (r, 0, "line breaks: the reports are written");
  struct ash_buf b = ASH_BUF_INIT;
  r = ash_tree_read_file (od.fd, "ash-scan-set-files-list.txt", 1 << 20, &b,
                          &e);
  _cleanup_free_ char *want
    = xasprintf ("%s/.gitignore\n%s/a.py\n\"%s/evil\\n/etc/passwd\"\n", src,
                 src, src);
  tap_is_str (b.buf, want,
              "line breaks: a path with a line break is one quoted line");
  bool injected = false;
  for (char *line = b.buf; line && *line;)
    {
      char *nl = strchr (line, '\n');
      if (nl)
        *nl = '\0';
      if (!ash_str_has_prefix (line, src)
          && !(line[0] == '"' && ash_str_has_prefix (line + 1, src)))
        injected = true;
      line = nl ? nl + 1 : NULL;
    }
  tap_ok (!injected, "line breaks: every line names a file in the tree");
  r = ash_tree_read_file (od.fd, "ash-ignore-report.txt", 1 << 20, &b, &e);
  tap_is_str (b.buf, "\"skip\\n\": .gitignore:1: skip*\n",
              "line breaks: the ignore report quotes the path");
  ash_buf_release (&b);
  ash_outdir_release (&od);
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* The warning for a link that leaves the tree quotes a name with a line
   break, and keeps ordinary names as they are.  */
static void
test_link_warning_quoted (void)
{
  setup ();
  ln ("/etc/passwd", "out\nWARNING  forged");
  ln ("/etc/passwd", "plain");
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  tap_is_int (r, 0, "quoted warning: the walk succeeds");
  _cleanup_free_ char *warn = joined (&s.warnings);
  tap_is_str (warn,
              "Not scanning '\"out\\nWARNING  forged\"': link leaves the "
              "scanned tree\n"
              "Not scanning 'plain': link leaves the scanned tree\n",
              "quoted warning: the exact warnings");
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

static void
on_alarm (int sig)
{
  (void) sig;
  static const char msg[] = "not ok - a pathological pattern: the walk "
                            "did not finish (hung)\n";
  (void) write (1, msg, sizeof msg - 1);
  _exit (1);
}

/* A pattern with many "**" segments and many stars must not take
   exponential time against a deep path it does not match.  A hang fails
   by alarm(); no duration is asserted.  */
static void
test_pathological_pattern (void)
{
  setup ();
  struct ash_buf rel = ASH_BUF_INIT;
  ash_buf_addstr (&rel, "a");
  for (int i = 0; i < 40; i++)
    ash_buf_addstr (&rel, "/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
  ash_buf_addstr (&rel, "/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.py");
  mk (rel.buf, "");
  mk (".gitignore",
      "a/**/**/**/**/**/**/**/**/**/**/**/**/**/b*c*d*e*f*g*h*i*j*k*l*m*n*o*"
      "p*q*\n");
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  alarm (60);
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  int r = build (&opts, &s, &e);
  alarm (0);
  tap_is_int (r, 0, "pathological pattern: the walk finishes");
  tap_ok (ash_strvec_contains (&s.files, rel.buf),
          "pathological pattern: the path it does not match is scanned");
  tap_is_int ((int) s.ignored.nr, 0,
              "pathological pattern: nothing is ignored");
  ash_buf_release (&rel);
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* FIFOs, sockets and files over max_file_size are left out of the scan
   set with a warning, and the scanners that walk the directory are told
   to skip them.  */
static void
test_special_files (void)
{
  setup ();
  mk ("a.py", "import os\n");
  mk ("small.py", "x = 1\n");
  _cleanup_free_ char *fifo = ash_path_join (src, "fifo.py");
  if (mkfifo (fifo, 0644) < 0)
    bail (fifo);
  _cleanup_free_ char *big = ash_path_join (src, "big.py");
  int fd = open (big, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  /* Sparse: 3 GB that take no room.  */
  if (fd < 0 || ftruncate (fd, 3000000000LL) < 0)
    bail (big);
  close (fd);
  struct ash_scanset_opts opts = { .max_file_size = 1000 };
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  tap_is_int (build (&opts, &s, &e), 0, "special files: the scan set builds");
  _cleanup_free_ char *files = joined (&s.files);
  tap_is_str (files, "a.py\nsmall.py\n",
              "special files: only regular files within the size limit");
  _cleanup_free_ char *warn = joined (&s.warnings);
  tap_ok (strstr (warn, "Not scanning 'fifo.py': not a regular file (a "
                        "FIFO)")
            != NULL,
          "special files: the FIFO is named in a warning");
  tap_ok (strstr (warn, "Not scanning 'big.py': 3000000000 bytes is more "
                        "than global_settings.max_file_size (1000)")
            != NULL,
          "special files: the large file is named in a warning");
  struct ash_strvec args = ASH_STRVEC_INIT;
  tap_is_int (ash_scanset_exclusion_args (&s, "bandit", &args, &e), 0,
              "special files: bandit can be told to skip them");
  _cleanup_free_ char *a = joined (&args);
  tap_is_str (a, "--exclude\nbig.py,fifo.py\n",
              "special files: bandit's --exclude names both");
  _cleanup_free_ char *sp = joined (&s.specials);
  tap_is_str (sp, "fifo.py\n",
              "special files: the FIFO is listed for the sandboxes to mask");
  _cleanup_free_ char *ul = joined (&s.unlisted);
  tap_is_str (ul, "big.py\nfifo.py\n",
              "special files: what was walked and not listed");
  ash_strvec_release (&args);
  ash_scanset_release (&s);

  /* Negative control: without a limit the large file is scanned.  */
  struct ash_scanset_opts none = { 0 };
  tap_is_int (build (&none, &s, &e), 0, "no size limit: builds");
  _cleanup_free_ char *f2 = joined (&s.files);
  tap_is_str (f2, "a.py\nbig.py\nsmall.py\n",
              "no size limit: the large file is in the scan set, the FIFO "
              "(known from its d_type, not stat) is not");
  _cleanup_free_ char *sp2 = joined (&s.specials);
  tap_is_str (sp2, "fifo.py\n", "no size limit: the FIFO is still named");
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* Ignore files are read up to their caps, a warning says so, and the
   indexed rules keep git's "last rule wins" order.  */
static void
test_ignore_caps (void)
{
  setup ();
  struct ash_buf b = ASH_BUF_INIT;
  for (int i = 0; i < 150000; i++)
    ash_buf_addf (&b, "n%d.py\n", i);
  mk (".gitignore", b.buf);
  mk ("n5.py", "");
  mk ("n149999.py", "");
  ash_buf_reset (&b);
  /* Ten nested 1 MB files.  */
  struct ash_buf dir = ASH_BUF_INIT;
  for (int d = 0; d < 10; d++)
    {
      ash_buf_addf (&dir, "%sd%d", d ? "/" : "", d);
      ash_buf_reset (&b);
      while (b.len < 1000000)
        ash_buf_addf (&b, "r%zu_%d\n", b.len, d);
      _cleanup_free_ char *gi = xasprintf ("%s/.gitignore", dir.buf);
      mk (gi, b.buf);
      _cleanup_free_ char *f = xasprintf ("%s/x.py", dir.buf);
      mk (f, "");
    }
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  tap_is_int (build (NULL, &s, &e), 0, "ignore caps: the scan set builds");
  tap_ok (!ash_strvec_contains (&s.files, "n5.py"),
          "ignore caps: a rule before the cap applies");
  tap_ok (ash_strvec_contains (&s.files, "n149999.py"),
          "ignore caps: a rule past the cap is not read");
  _cleanup_free_ char *warn = joined (&s.warnings);
  tap_ok (strstr (warn, "ignore files: more than 100000 rules; the rules "
                        "from .gitignore line 100001 on are not read")
            != NULL,
          "ignore caps: the log says where (%s)", warn);
  ash_scanset_release (&s);
  ash_buf_release (&dir);
  ash_buf_release (&b);
  teardown ();

  /* Ordering across indexed and unindexed rules.  */
  setup ();
  mk ("a.log", "");
  mk ("b.log", "");
  mk ("c.log", "");
  mk ("d.txt", "");
  mk ("sub/b.log", "");
  mk (".gitignore", "*.log\n!b.log\n!c*\nc.log\nd.txt\n!d.tx?\n");
  mk ("sub/.gitignore", "b.log\n");
  tap_is_int (build (NULL, &s, &e), 0, "indexed rules: builds");
  _cleanup_free_ char *files = joined (&s.files);
  tap_is_str (files, ".gitignore\nb.log\nd.txt\nsub/.gitignore\n",
              "indexed rules: the last matching rule wins");
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* Matching does not grow with the number of rules that are literal names
   or "*" and a literal suffix: 90,000 of them that match nothing cost
   not one try more than none.  */
static void
test_ignore_index (void)
{
  unsigned long long tries[2];
  for (int big = 0; big < 2; big++)
    {
      setup ();
      struct ash_buf b = ASH_BUF_INIT;
      ash_buf_addstr (&b, "f1.py\n*.log\nf2?.py\nsub/\n");
      for (int i = 0; big && i < 50000; i++)
        ash_buf_addf (&b, "n%d.py\n", i);
      for (int i = 0; big && i < 40000; i++)
        ash_buf_addf (&b, "*.x%d\n", i);
      ash_buf_addstr (&b, "!f3.py\n");
      mk (".gitignore", b.buf);
      ash_buf_release (&b);
      for (int i = 0; i < 200; i++)
        {
          _cleanup_free_ char *f = xasprintf ("f%d.py", i);
          mk (f, "");
        }
      mk ("a.log", "");
      mk ("sub/x.py", "");
      struct ash_scanset s = ASH_SCANSET_INIT;
      struct ash_error e = ASH_ERROR_INIT;
      tap_is_int (build (NULL, &s, &e), 0, "index (%s): the scan set builds",
                  big ? "90,004 rules" : "4 rules");
      tap_ok (!ash_strvec_contains (&s.files, "f1.py")
                && !ash_strvec_contains (&s.files, "f20.py")
                && !ash_strvec_contains (&s.files, "a.log")
                && !ash_strvec_contains (&s.files, "sub/x.py")
                && ash_strvec_contains (&s.files, "f3.py")
                && ash_strvec_contains (&s.files, "f199.py"),
              "index (%s): the rules apply", big ? "90,004 rules" : "4 rules");
      tries[big] = s.rule_tries;
      ash_scanset_release (&s);
      ash_error_release (&e);
      teardown ();
    }
  tap_ok (tries[0] > 0 && tries[1] == tries[0],
          "index: 90,000 more literal rules cost no more tries (%llu, %llu)",
          tries[0], tries[1]);
}

/* What was walked and not listed comes in the walk's order, a directory
   before what is below it, so that the scan's sort finds it sorted.  */
static void
test_unlisted_order (void)
{
  setup ();
  mk ("d/a.py", "");
  _cleanup_free_ char *x = xasprintf ("%s/x.py", outside);
  ln (x, "d/out.py");
  ln (x, "d/e/out2.py");
  mk ("d/e/b.py", "");
  ln (x, "z.py");
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct ash_error e = ASH_ERROR_INIT;
  struct ash_scanset_opts opts = { 0 };
  tap_is_int (build (&opts, &s, &e), 0, "unlisted order: builds");
  _cleanup_free_ char *ul = joined (&s.unlisted);
  tap_is_str (ul, "d\nd/e\nd/e/out2.py\nd/out.py\nz.py\n",
              "unlisted order: each directory before what is below it");
  ash_scanset_release (&s);
  ash_error_release (&e);
  teardown ();
}

/* The quoting of a path in the lists and warnings, at the edges of its
   word-at-a-time check: a control character in the first word, the
   last whole word and the tail, DEL, a leading quotation mark, and bytes
   from 0x80 up, which are plain.  */
static void
test_quote_edges (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "exactly8", "exactly8" },
    { "sixteen-bytes-16", "sixteen-bytes-16" },
    { "1234567\x01", "\"1234567\\001\"" },
    { "12345678\x7f", "\"12345678\\177\"" },
    { "0123456789abcdef0\n", "\"0123456789abcdef0\\n\"" },
    { "\"quoted", "\"\\\"quoted\"" },
    { "caf\xc3\xa9/\xe2\x80\xae-long-enough",
      "caf\xc3\xa9/\xe2\x80\xae-long-enough" },
    { "tab\there/and-more", "\"tab\\there/and-more\"" },
    { "", "" },
  };
  for (size_t i = 0; i < ARRAY_SIZE (cases); i++)
    {
      _cleanup_free_ char *q = ash_scanset_quote_path (cases[i].in);
      tap_is_str (q, cases[i].out, "quoted path %zu", i);
    }
}

int
main (void)
{
  test_ignore_rules ();
  test_links ();
  test_link_dir_cache ();
  test_unrepresentable ();
  test_many_holders ();
  test_line_breaks ();
  test_pathological_pattern ();
  test_link_warning_quoted ();
  test_special_files ();
  test_unlisted_order ();
  test_ignore_caps ();
  test_ignore_index ();
  test_quote_edges ();
  return tap_done ();
}
