/* SPDX-License-Identifier: Apache-2.0 */
/* changed.c -- the files changed from a base commit (changed.h).  */

#include <config.h>

#include "scan/changed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "proc/spawn.h"
#include "scan/sarif.h"

/* Run git with ARGS after the fixed safety options; its stdout into
   *OUT.  0 when git ran and exited 0.  */
static int
run_git (const char *git, const char *source_dir, const char *const *args,
         struct ash_buf *out, struct ash_error *err)
{
  static const char *const safe[] = {
    "-c", "core.fsmonitor=false",  "-c", "core.hooksPath=/dev/null",
    "-c", "core.sshCommand=false", "-c", "diff.external=",
    "-c", "protocol.allow=never",  "-c", "core.pager=cat",
    NULL,
  };
  struct ash_cmd cmd;
  struct ash_cmd_result res;
  int r;

  ash_cmd_init (&cmd);
  ash_strvec_push (&cmd.argv, git);
  ash_strvec_push (&cmd.argv, "--no-pager");
  ash_strvec_pushv (&cmd.argv, (char *const *) safe);
  ash_strvec_pushv (&cmd.argv, (char *const *) args);
  ash_strvec_push (&cmd.env, "GIT_CONFIG_NOSYSTEM=1");
  ash_strvec_push (&cmd.env, "GIT_CONFIG_GLOBAL=/dev/null");
  ash_strvec_push (&cmd.env, "GIT_TERMINAL_PROMPT=0");
  ash_strvec_push (&cmd.env, "GIT_NO_LAZY_FETCH=1");
  ash_strvec_push (&cmd.env, "GIT_OPTIONAL_LOCKS=0");
  ash_strvec_push (&cmd.env, "GIT_NO_REPLACE_OBJECTS=1");
  ash_strvec_push (&cmd.env, "LC_ALL=C");
  ash_strvec_push (&cmd.env, "HOME=/nonexistent");
  cmd.cwd = xstrdup (source_dir);
  cmd.stdout_mode = ASH_STDIO_CAPTURE;
  cmd.stderr_mode = ASH_STDIO_CAPTURE;
  cmd.out.max = 64u << 20;
  cmd.err.max = 4096;
  cmd.timeout_sec = 300;
  r = ash_cmd_run (&cmd, &res, err);
  if (r == 0 && (res.status != 0 || res.out_truncated))
    {
      size_t n = cmd.err.len;
      while (n > 0 && (cmd.err.buf[n - 1] == '\n'))
        n--;
      r = ash_error_set (err, -EIO, _ ("git %s failed: %.*s"), args[0],
                         (int) n, cmd.err.len ? cmd.err.buf : "");
    }
  if (r == 0)
    {
      ash_buf_add (out, cmd.out.buf, cmd.out.len);
    }
  ash_cmd_release (&cmd);
  return r;
}

static int
cmp_str (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

int
ash_changed_files (const char *git, const char *source_dir,
                   const char *base_ref, struct ash_strvec *ret,
                   struct ash_error *err)
{
  static const char *const defaults[]
    = { "origin/HEAD", "origin/main", "main", NULL };
  const char *base = NULL;
  int r;

  if (base_ref && (base_ref[0] == '-' || base_ref[0] == '\0'))
    return ash_error_set (err, -EINVAL,
                          _ ("--base-ref '%s' is not a git revision"),
                          base_ref);
  for (size_t i = 0; base == NULL && (base_ref ? i < 1 : defaults[i] != NULL);
       i++)
    {
      const char *cand = base_ref ? base_ref : defaults[i];
      _cleanup_free_ char *spec = xasprintf ("%s^{commit}", cand);
      const char *args[] = { "rev-parse",        "--quiet", "--verify",
                             "--end-of-options", spec,      NULL };
      struct ash_buf out = ASH_BUF_INIT;
      struct ash_error e = ASH_ERROR_INIT;
      if (run_git (git, source_dir, args, &out, &e) == 0)
        base = cand;
      else if (base_ref)
        {
          r = ash_error_set (err, -ENOENT,
                             _ ("the base revision '%s' is not in the "
                                "repository at %s"),
                             base_ref, source_dir);
          ash_buf_release (&out);
          ash_error_release (&e);
          return r;
        }
      ash_buf_release (&out);
      ash_error_release (&e);
    }
  if (base == NULL)
    return ash_error_set (err, -ENOENT,
                          _ ("no base revision for --changed-files-only: "
                             "none of origin/HEAD, origin/main and main "
                             "exists in %s; name one with --base-ref"),
                          source_dir);

  _cleanup_free_ char *range = xasprintf ("%s...HEAD", base);
  const char *args[]
    = { "diff",          "--name-only",  "-z",  "--relative", "--no-ext-diff",
        "--no-textconv", "--no-renames", range, "--",         NULL };
  struct ash_buf out = ASH_BUF_INIT;
  r = run_git (git, source_dir, args, &out, err);
  if (r < 0)
    {
      ash_buf_release (&out);
      return r;
    }
  for (size_t p = 0; p < out.len;)
    {
      size_t n = strnlen (out.buf + p, out.len - p);
      if (n > 0)
        ash_strvec_push_nodup (ret, xstrndup (out.buf + p, n));
      p += n + 1;
    }
  ash_buf_release (&out);
  if (ret->nr > 1)
    qsort (ret->v, ret->nr, sizeof *ret->v, cmp_str);
  return 0;
}

/* Remove the results of DOC whose file is (KEEP false) or is not (KEEP
   true) in SET; results without a file stay.  */
static size_t
filter_doc (json_t *doc, const struct ash_strvec *set, bool keep)
{
  size_t i, n = 0;
  json_t *run;

  json_array_foreach (json_object_get (doc, "runs"), i, run)
    {
      json_t *results = json_object_get (run, "results");
      for (size_t j = 0; j < json_array_size (results);)
        {
          const char *path
            = ash_sarif_result_location (json_array_get (results, j), NULL,
                                         NULL);
          while (path && path[0] == '.' && path[1] == '/')
            path += 2;
          /* An empty set has no array (set->v is NULL), which bsearch
             must not be given.  */
          bool in
            = path && set->nr > 0
              && bsearch (&path, set->v, set->nr, sizeof *set->v, cmp_str);
          if (path && in != keep)
            {
              json_array_remove (results, j);
              n++;
            }
          else
            j++;
        }
    }
  return n;
}

size_t
ash_paths_drop_doc (json_t *doc, const struct ash_strvec *drop)
{
  return filter_doc (doc, drop, false);
}

size_t
ash_changed_filter_doc (json_t *doc, const struct ash_strvec *changed)
{
  return filter_doc (doc, changed, true);
}
