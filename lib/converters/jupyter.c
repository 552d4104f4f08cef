/* SPDX-License-Identifier: Apache-2.0 */
/* jupyter.c -- the jupyter converter: jupyter-nbconvert --to script, one
   spawn per notebook.

   nbconvert is a third-party tool reading hostile input, so under a
   sandbox it runs with a scanner's confinement and less: its requirements
   say staged_input_only, so it may read neither the source tree nor the
   output directory.  Each notebook is copied (through the non-following
   readers and writers) into a directory of its own,
   converted/jupyter/.work/N/, which is that spawn's only writable place
   and the only part of the output directory it sees; nbconvert is handed
   that copy under a fixed name, so nothing in the notebook's own name
   reaches its command line or chooses where it writes.  What it wrote is
   read back from that directory only (a regular file named "notebook"
   with a plain extension), copied to converted/jupyter/PATH.py, and the
   directory is removed.

   A notebook no backend can plan a sandbox for is not converted and is
   listed in refused_inputs with the reason; one nbconvert fails on (a
   non-zero exit, a timeout, no output) is listed in failed_inputs.
   Nothing runs unsandboxed under a sandbox.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "converters/converter.h"
#include "fs/tree.h"
#include "proc/spawn.h"
#include "sandbox/policy-input.h"
#include "sandbox/policy.h"
#include "sandbox/scanner-reqs.h"
#include "scan/pool.h"

extern char **environ;

#define STAGED_NAME "notebook.ipynb"
#define OUTPUT_BASE "notebook"
#define NOTEBOOK_MAX ((size_t) 256 << 20)
#define WORK_DIR "jupyter/.work"

struct nb
{
  const struct ash_jupyter_ctx *ctx;
  const char *rel;
  unsigned idx;
  struct ash_converter_result *res;
  pthread_mutex_t *lock;
};

struct nbctx
{
  pthread_mutex_t lock;
};

static bool
plain_extension (const char *ext)
{
  size_t n = strlen (ext);
  if (n < 2 || n > 12 || ext[0] != '.')
    return false;
  for (size_t i = 1; i < n; i++)
    if (!((ext[i] >= 'a' && ext[i] <= 'z') || (ext[i] >= 'A' && ext[i] <= 'Z')
          || (ext[i] >= '0' && ext[i] <= '9')))
      return false;
  return true;
}

/* The output nbconvert wrote in the spawn directory SFD: "notebook.EXT",
   a regular file (newly allocated name), or NULL.  */
static char *
find_output (int sfd)
{
  int dfd = openat (sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return NULL;
  DIR *d = fdopendir (dfd);
  if (d == NULL)
    {
      ash_close (dfd);
      return NULL;
    }
  char *ret = NULL;
  struct dirent *de;
  while ((de = readdir (d)) != NULL)
    {
      const char *n = de->d_name;
      if (!strneq (n, OUTPUT_BASE ".", strlen (OUTPUT_BASE) + 1)
          || streq (n, STAGED_NAME)
          || !plain_extension (n + strlen (OUTPUT_BASE)))
        continue;
      struct stat st;
      if (fstatat (sfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0
          || !S_ISREG (st.st_mode))
        continue;
      /* ".py" wins over anything else nbconvert may have left.  */
      if (ret == NULL || streq (n, OUTPUT_BASE ".py"))
        {
          free (ret);
          ret = xstrdup (n);
        }
    }
  closedir (d);
  return ret;
}

static char *
stderr_tail (int sfd)
{
  struct ash_buf b = ASH_BUF_INIT;
  char *ret = NULL;
  if (ash_tree_read_file (sfd, "nbconvert.stderr.log", 1 << 20, &b, NULL) == 0)
    {
      while (b.len > 0
             && (b.buf[b.len - 1] == '\n' || b.buf[b.len - 1] == ' '
                 || b.buf[b.len - 1] == '\r'))
        b.buf[--b.len] = '\0';
      const char *nl = strrchr (b.buf, '\n');
      const char *line = nl ? nl + 1 : b.buf;
      if (*line)
        {
          _cleanup_free_ char *l = xstrndup (line, 300);
          ret = ash_converter_escape (l);
        }
    }
  ash_buf_release (&b);
  return ret;
}

/* Copy the notebook REL of the source into the spawn directory SFD.  */
static int
stage (const struct ash_jupyter_ctx *ctx, const char *rel, int sfd,
       struct ash_error *err)
{
  _cleanup_close_ int fd
    = openat (ctx->srcfd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  struct ash_buf b = ASH_BUF_INIT;
  if (fd < 0)
    return ash_error_set (err, -errno, _ ("cannot open it: %s"),
                          strerror (errno));
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    return ash_error_set (err, -EPERM, _ ("not a regular file"));
  if ((size_t) st.st_size > NOTEBOOK_MAX)
    return ash_error_set (err, -EFBIG, _ ("larger than %zu MiB"),
                          NOTEBOOK_MAX >> 20);
  if (ash_buf_read_fd (&b, fd) < 0 || b.len > NOTEBOOK_MAX)
    {
      ash_buf_release (&b);
      return ash_error_set (err, -EIO, _ ("cannot read it"));
    }
  int r = ash_tree_write_file (sfd, STAGED_NAME, b.buf, b.len, 0644, err);
  ash_buf_release (&b);
  return r;
}

/* The sandbox of one notebook's spawn: 0 with SCOPE set, or -1 with
   *REFUSAL set (the notebook is refused).  */
static int
decide (const struct ash_jupyter_ctx *ctx, const char *spawn_abs,
        struct ash_requirements *req, struct ash_policy *policy,
        struct ash_scope *scope, json_t **ret_record, char **refusal)
{
  const struct ash_probe *probe = NULL;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;

  /* As for a scanner (job.c), the reason arrives as a struct ash_error:
     the platform's message on a platform without a backend, else why no
     backend of the mode can be used.  */
  const struct ash_backend *b
    = ash_backend_select (ctx->mode, ctx->backends, ctx->host, &probe, &err);
  if (b == NULL)
    {
      if (!err.message)
        ash_error_set (&err, -EPERM, "%s", _ ("no backend"));
      ash_error_prefix (&err, _ ("converter sandbox unavailable"));
      *refusal = xstrdup (err.message);
      return -1;
    }
  struct ash_policy_place place = {
    .source_dir = ctx->source_dir,
    .output_dir = ctx->output_dir,
    .results_dir = spawn_abs,
    .run_config_dir = NULL,
    .tool_path = ctx->tool_path,
  };
  struct ash_policy_input in;
  ash_policy_input_fill (&in, "jupyter", req, ctx->ss, ctx->host, &place,
                         ctx->offline, probe);
  if (ash_policy_compute (&in, policy, &err) < 0)
    ash_error_prefix (&err, _ ("jupyter cannot be sandboxed as requested"));
  else
    ash_policy_refused (policy, &err);
  if (err.message)
    {
      *refusal = xstrdup (err.message);
      return -1;
    }
  json_t *rec = ash_policy_to_json (policy);
  if (rec == NULL)
    rec = json_object ();
  json_object_set_new (rec, "mode", json_string (ctx->mode));
  json_object_set_new (rec, "backend", json_string (b->name));
  *ret_record = rec;
  scope->kind = ASH_SCOPE_SANDBOX;
  scope->backend = b;
  scope->probe = probe;
  scope->policy = policy;
  return 0;
}

/* The steps of one notebook's conversion in its spawn directory
   SPAWN_REL (SPAWN_ABS): *CONV gets the converted file's record, or the
   first step that fails sets *REFUSAL (the sandbox refused it) or
   *FAILURE, and ends it.  *RECORD gets the sandbox record.  The files
   are closed on return, before the caller removes the directory.  */
static void
convert_steps (struct nb *nb, const char *spawn_rel, const char *spawn_abs,
               json_t **record, json_t **conv, char **refusal, char **failure)
{
  const struct ash_jupyter_ctx *ctx = nb->ctx;
  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *staged = xasprintf ("%s/" STAGED_NAME, spawn_abs);
  _cleanup_free_ char *out_name = NULL;
  _cleanup_close_ int sfd = -1, outfd = -1, errfd = -1;
  _cleanup_ (ash_requirements_release) struct ash_requirements req;
  _cleanup_policy_ struct ash_policy policy;
  struct ash_scope scope = { .kind = ASH_SCOPE_NONE };
  _cleanup_cmd_ struct ash_cmd cmd;
  struct ash_cmd_result res = { 0 };
  bool sandboxed = !streq (ctx->mode, "off");

  ash_builtin_requirements ("jupyter", &req);
  ash_policy_init (&policy);
  ash_cmd_init (&cmd);

  if (ash_tree_results_dir_open (ctx->workfd, spawn_rel, &sfd, &err) < 0
      || ash_tree_check_clean (sfd, ".", &err) < 0)
    {
      *failure = xstrdup (err.message);
      return;
    }
  if (stage (ctx, nb->rel, sfd, &err) < 0)
    {
      *failure = xasprintf (_ ("cannot stage the notebook: %s"), err.message);
      return;
    }
  if (sandboxed
      && decide (ctx, spawn_abs, &req, &policy, &scope, record, refusal) < 0)
    return;

  if (ash_tree_open_stream (sfd, "nbconvert.stdout.log", true, &outfd, &err)
        < 0
      || ash_tree_open_stream (sfd, "nbconvert.stderr.log", true, &errfd, &err)
           < 0)
    {
      *failure = xstrdup (err.message);
      return;
    }
  ash_strvec_push (&cmd.argv, ctx->tool_path);
  ash_strvec_push (&cmd.argv, "--to");
  ash_strvec_push (&cmd.argv, "script");
  ash_strvec_push (&cmd.argv, "--log-level");
  ash_strvec_push (&cmd.argv, "WARN");
  ash_strvec_push (&cmd.argv, "--output-dir");
  ash_strvec_push (&cmd.argv, spawn_abs);
  ash_strvec_push (&cmd.argv, "--output");
  ash_strvec_push (&cmd.argv, OUTPUT_BASE);
  ash_strvec_push (&cmd.argv, staged);
  if (sandboxed)
    ash_strvec_pushv (&cmd.env, policy.env.v);
  else
    ash_strvec_pushv (&cmd.env, environ);
  cmd.cwd = xstrdup (spawn_abs);
  cmd.stdin_mode = ASH_STDIO_NULL;
  cmd.stdout_mode = ASH_STDIO_FD;
  cmd.stdout_fd = outfd;
  cmd.stderr_mode = ASH_STDIO_FD;
  cmd.stderr_fd = errfd;
  cmd.timeout_sec = ctx->timeout;
  cmd.scope = sandboxed ? &scope : NULL;

  int r = ash_sandbox_run (&cmd, &res, &err);
  if (sandboxed)
    {
      _cleanup_strvec_ struct ash_strvec removed = ASH_STRVEC_INIT;
      _cleanup_error_ struct ash_error serr = ASH_ERROR_INIT;
      ash_tree_sweep (sfd, ".", &removed, &serr);
    }
  if (r < 0)
    {
      *failure = xasprintf (_ ("jupyter-nbconvert could not be started: %s"),
                            err.message);
      return;
    }
  if (res.interrupted)
    {
      *failure = xstrdup (_ ("interrupted"));
      return;
    }
  if (res.timed_out)
    {
      *failure = xasprintf (_ ("timed out after %u s"), ctx->timeout);
      return;
    }
  if (res.status != 0 || res.term_signal)
    {
      _cleanup_free_ char *tail = stderr_tail (sfd);
      *failure = xasprintf (_ ("jupyter-nbconvert exited with status %d%s%s"),
                            res.status, tail ? ": " : "", tail ? tail : "");
      return;
    }
  out_name = find_output (sfd);
  if (out_name == NULL)
    {
      *failure = xstrdup (_ ("jupyter-nbconvert wrote no output"));
      return;
    }
  {
    _cleanup_buf_ struct ash_buf b = ASH_BUF_INIT;
    const char *ext = out_name + strlen (OUTPUT_BASE);
    size_t n = strlen (nb->rel);
    if (n > 6 && strcasecmp (nb->rel + n - 6, ".ipynb") == 0)
      n -= 6;
    _cleanup_free_ char *conv_rel
      = xasprintf ("jupyter/%.*s%s", (int) n, nb->rel, ext);
    if (ash_tree_read_file (sfd, out_name, ASH_TREE_READ_MAX, &b, &err) < 0
        || ash_tree_write_file (ctx->workfd, conv_rel, b.buf, b.len, 0644,
                                &err)
             < 0)
      *failure
        = xasprintf (_ ("cannot keep the converted script: %s"), err.message);
    else
      *conv = json_pack ("{s:s, s:s, s:s}", "path", conv_rel, "original",
                         nb->rel, "kind", "notebook");
  }
}

static void
convert_one (void *vctx _unused_, void *item)
{
  struct nb *nb = item;
  const struct ash_jupyter_ctx *ctx = nb->ctx;
  _cleanup_free_ char *spawn_rel = xasprintf (WORK_DIR "/%u", nb->idx);
  _cleanup_free_ char *spawn_abs
    = xasprintf ("%s/" ASH_CONVERTED_DIR "/%s", ctx->output_dir, spawn_rel);
  _cleanup_free_ char *refusal = NULL, *failure = NULL;
  _cleanup_json_ json_t *record = NULL;
  _cleanup_json_ json_t *conv = NULL;

  convert_steps (nb, spawn_rel, spawn_abs, &record, &conv, &refusal, &failure);
  {
    _cleanup_error_ struct ash_error rerr = ASH_ERROR_INIT;
    if (ash_tree_remove_all (ctx->workfd, spawn_rel, &rerr) < 0)
      ash_warning ("%s", rerr.message);
  }
  pthread_mutex_lock (nb->lock);
  if (refusal)
    ash_converter_refuse (nb->res, nb->rel, refusal);
  else if (failure)
    ash_converter_fail (nb->res, nb->rel, failure);
  else if (conv)
    json_array_append (nb->res->converted, conv);
  if (record && nb->res->sandbox == NULL)
    nb->res->sandbox = json_incref (record);
  pthread_mutex_unlock (nb->lock);
  if (refusal || failure)
    {
      _cleanup_free_ char *e = ash_converter_escape (nb->rel);
      ash_err (_ ("jupyter: %s not converted: %s"), e,
               refusal ? refusal : failure);
    }
}

void
ash_jupyter_convert (const struct ash_jupyter_ctx *ctx, char *const *notebooks,
                     size_t n, struct ash_converter_result *res)
{
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  struct nb *items = xcalloc (n + 1, sizeof *items);
  void **ptrs = xcalloc (n + 1, sizeof *ptrs);
  struct ash_error err = ASH_ERROR_INIT;

  for (size_t i = 0; i < n; i++)
    {
      items[i] = (struct nb){ .ctx = ctx,
                              .rel = notebooks[i],
                              .idx = (unsigned) i,
                              .res = res,
                              .lock = &lock };
      ptrs[i] = &items[i];
    }
  ash_pool_run (ptrs, n, ctx->workers ? ctx->workers : 1, convert_one, NULL);
  if (ash_tree_remove_all (ctx->workfd, WORK_DIR, &err) < 0)
    ash_warning ("%s", err.message);
  ash_error_release (&err);
  free (ptrs);
  free (items);
}
