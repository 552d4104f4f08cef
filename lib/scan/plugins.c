/* SPDX-License-Identifier: Apache-2.0 */
/* plugins.c -- plugin module files.

   Modules are YAML, read with the configuration's own parser
   (ash_config_parse_file), which also gives the line of every key, so an
   invalid module is reported at the line that is wrong.  */

#include <config.h>

#include "scan/plugins.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "config/ashconfig.h"
#include "config/plugin-tier.h"
#include "fs/tree.h"
#include "scan/sarif.h"

void
ash_plugin_set_init (struct ash_plugin_set *s)
{
  s->v = NULL;
  s->n = 0;
}

static void
plugin_free (struct ash_plugin_scanner *p)
{
  if (p == NULL)
    return;
  free (p->name);
  free (p->tool);
  free (p->install_hint);
  free (p->description);
  ash_strvec_release (&p->args);
  free (p->output_path);
  ash_requirements_release (&p->req);
  free (p->module);
  free (p);
}

void
ash_plugin_set_release (struct ash_plugin_set *s)
{
  for (size_t i = 0; i < s->n; i++)
    plugin_free (s->v[i]);
  free (s->v);
  ash_plugin_set_init (s);
}

void
ash_plugin_search_dirs (const char *env_path, const char *extra_dir,
                        struct ash_strvec *ret)
{
  if (env_path)
    {
      const char *p = env_path;
      while (*p)
        {
          const char *c = strchr (p, ':');
          size_t n = c ? (size_t) (c - p) : strlen (p);
          /* Relative entries would depend on the working directory.  */
          if (n > 0 && p[0] == '/')
            ash_strvec_push_nodup (ret, xstrndup (p, n));
          p += n + (c ? 1 : 0);
        }
    }
  if (extra_dir)
    ash_strvec_push (ret, extra_dir);
  ash_strvec_push (ret, PKGDATADIR "/plugins");
}

static bool
is_regular (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

int
ash_plugin_find (const char *entry, char *const *dirs, char **ret_path,
                 struct ash_error *err)
{
  static const char *const exts[] = { ".yaml", ".yml" };

  if (entry[0] == '/')
    {
      if (!is_regular (entry))
        return ash_error_set (err, -ENOENT,
                              _ ("plugin module %s was not found"), entry);
      *ret_path = xstrdup (entry);
      return 0;
    }
  if (strchr (entry, '/') || *entry == '\0' || entry[0] == '.')
    return ash_error_set (err, -EINVAL,
                          _ ("plugin module '%s' is neither a name nor an "
                             "absolute path"),
                          entry);
  for (size_t i = 0; dirs && dirs[i]; i++)
    for (size_t j = 0; j < ARRAY_SIZE (exts); j++)
      {
        char *p = xasprintf ("%s/%s%s", dirs[i], entry, exts[j]);
        if (is_regular (p))
          {
            *ret_path = p;
            return 0;
          }
        free (p);
      }
  struct ash_buf where = ASH_BUF_INIT;
  for (size_t i = 0; dirs && dirs[i]; i++)
    ash_buf_addf (&where, "%s%s", i ? ", " : "", dirs[i]);
  int r = ash_error_set (err, -ENOENT,
                         _ ("plugin module '%s' was not found (looked in %s)"),
                         entry, where.buf);
  ash_buf_release (&where);
  return r;
}

/* Loading.  */

struct mctx
{
  const char *file;
  json_t *positions;
  struct ash_error *err;
};

_printf_ (3, 4) static int fail (struct mctx *m, const char *kpath,
                                 const char *fmt, ...)
{
  int line = 0, col = 0;
  json_t *pos = kpath ? json_object_get (m->positions, kpath) : NULL;
  va_list ap;

  if (json_is_array (pos))
    {
      line = (int) json_integer_value (json_array_get (pos, 0));
      col = (int) json_integer_value (json_array_get (pos, 1));
    }
  va_start (ap, fmt);
  _cleanup_free_ char *msg = xvasprintf (fmt, ap);
  va_end (ap);
  return ash_error_set_at (m->err, -EINVAL, m->file, line, col, "%s", msg);
}

static const char *const placeholders[]
  = { "{target}", "{results_dir}", "{scan_set}" };

static int
check_template (struct mctx *m, const char *kpath, const char *s)
{
  for (const char *p = strchr (s, '{'); p; p = strchr (p + 1, '{'))
    {
      bool known = false;
      for (size_t i = 0; i < ARRAY_SIZE (placeholders); i++)
        known |= strneq (p, placeholders[i], strlen (placeholders[i]));
      if (!known)
        {
          const char *e = strchr (p, '}');
          int n = e ? (int) (e - p + 1) : (int) strlen (p);
          return fail (m, kpath,
                       _ ("%s: unknown placeholder '%.*s' (known: {target}, "
                          "{results_dir}, {scan_set})"),
                       kpath, n, p);
        }
    }
  return 0;
}

static int
string_list (struct mctx *m, const char *kpath, json_t *v,
             struct ash_strvec *ret)
{
  size_t i;
  json_t *e;
  if (!json_is_array (v))
    return fail (m, kpath, _ ("%s must be a list of strings"), kpath);
  json_array_foreach (v, i, e)
    {
      if (!json_is_string (e))
        {
          _cleanup_free_ char *p = xasprintf ("%s[%zu]", kpath, i);
          return fail (m, p, _ ("%s must be a string"), p);
        }
      ash_strvec_push (ret, json_string_value (e));
    }
  return 0;
}

static int
want_bool (struct mctx *m, const char *kpath, json_t *v, bool *ret)
{
  if (!json_is_boolean (v))
    return fail (m, kpath, _ ("%s must be true or false"), kpath);
  *ret = json_is_true (v);
  return 0;
}

static int
load_requirements (struct mctx *m, const char *kpath, json_t *v,
                   struct ash_requirements *req)
{
  const char *k;
  json_t *x;
  int r = 0;

  if (!json_is_object (v))
    return fail (m, kpath, _ ("%s must be a mapping"), kpath);
  json_object_foreach (v, k, x)
    {
      _cleanup_free_ char *p = xasprintf ("%s.%s", kpath, k);
      if (streq (k, "network"))
        r = want_bool (m, p, x, &req->network);
      else if (streq (k, "read_paths_require_grant"))
        r = want_bool (m, p, x, &req->read_paths_require_grant);
      else if (streq (k, "env_requires_grant"))
        r = want_bool (m, p, x, &req->env_requires_grant);
      else if (streq (k, "staged_input_only"))
        r = want_bool (m, p, x, &req->staged_input_only);
      else if (streq (k, "system_trust_roots"))
        r = want_bool (m, p, x, &req->system_trust_roots);
      else if (streq (k, "read_paths"))
        r = string_list (m, p, x, &req->read_paths);
      else if (streq (k, "cache_paths"))
        r = string_list (m, p, x, &req->cache_paths);
      else if (streq (k, "cache_env"))
        r = string_list (m, p, x, &req->cache_env);
      else if (streq (k, "env_prefixes"))
        r = string_list (m, p, x, &req->env_prefixes);
      else if (streq (k, "env_names"))
        r = string_list (m, p, x, &req->env_names);
      else if (streq (k, "read_path_env"))
        r = string_list (m, p, x, &req->read_path_env);
      else if (streq (k, "sandbox_exec_env"))
        {
          if (json_is_object (x))
            {
              const char *n;
              json_t *val;
              json_object_foreach (x, n, val)
                {
                  if (!json_is_string (val))
                    return fail (m, p, _ ("%s.%s must be a string"), p, n);
                  ash_strvec_pushf (&req->sandbox_exec_env, "%s=%s", n,
                                    json_string_value (val));
                }
            }
          else
            r = string_list (m, p, x, &req->sandbox_exec_env);
        }
      else if (streq (k, "unpack_dir_env"))
        {
          if (!json_is_string (x))
            return fail (m, p, _ ("%s must be a string"), p);
          free (req->unpack_dir_env);
          req->unpack_dir_env = xstrdup (json_string_value (x));
        }
      else
        return fail (m, p, _ ("unknown key '%s'"), p);
      if (r < 0)
        return r;
    }
  return 0;
}

static int plugin_build (const struct ash_scanner *s,
                         const struct ash_scan_job *job, struct ash_cmd *cmd,
                         struct ash_error *err);
static int plugin_parse (const struct ash_scanner *s,
                         const struct ash_scan_job *job,
                         const struct ash_cmd_result *res, json_t **ret_doc,
                         struct ash_error *err);

static bool
name_taken (const struct ash_plugin_set *set, const char *name)
{
  if (ash_scanner_builtin (name))
    return true;
  for (size_t i = 0; i < set->n; i++)
    if (streq (set->v[i]->name, name))
      return true;
  return false;
}

static int
load_scanner (struct mctx *m, const char *name, json_t *def,
              struct ash_plugin_set *set)
{
  _cleanup_free_ char *kp = xasprintf ("scanners.%s", name);
  const char *k;
  json_t *x;
  int r = 0;

  if (!json_is_object (def))
    return fail (m, kp, _ ("%s must be a mapping"), kp);
  if (name_taken (set, name))
    return fail (m, kp, _ ("%s: a scanner named '%s' already exists"), kp,
                 name);
  for (const char *c = name; *c; c++)
    if (!(isalnum ((unsigned char) *c) || *c == '-' || *c == '_'))
      return fail (m, kp,
                   _ ("%s: a scanner name may hold only letters, digits, "
                      "'-' and '_'"),
                   kp);

  struct ash_plugin_scanner *p = xzalloc (sizeof *p);
  p->name = xstrdup (name);
  p->module = xstrdup (m->file);
  ash_strvec_init (&p->args);
  ash_requirements_init (&p->req);
  json_t *pos = json_object_get (m->positions, kp);
  p->line = (int) json_integer_value (json_array_get (pos, 0));

  json_object_foreach (def, k, x)
    {
      _cleanup_free_ char *q = xasprintf ("%s.%s", kp, k);
      if (streq (k, "tool") || streq (k, "install_hint")
          || streq (k, "description"))
        {
          if (!json_is_string (x) || *json_string_value (x) == '\0')
            {
              r = fail (m, q, _ ("%s must be a non-empty string"), q);
              break;
            }
          char **dst = streq (k, "tool")           ? &p->tool
                       : streq (k, "install_hint") ? &p->install_hint
                                                   : &p->description;
          *dst = xstrdup (json_string_value (x));
        }
      else if (streq (k, "args"))
        {
          r = string_list (m, q, x, &p->args);
          for (size_t i = 0; r == 0 && i < p->args.nr; i++)
            {
              _cleanup_free_ char *a = xasprintf ("%s[%zu]", q, i);
              r = check_template (m, a, p->args.v[i]);
            }
        }
      else if (streq (k, "output"))
        {
          const char *ok;
          json_t *ov;
          if (!json_is_object (x))
            {
              r = fail (m, q, _ ("%s must be a mapping"), q);
              break;
            }
          json_object_foreach (x, ok, ov)
            {
              _cleanup_free_ char *o = xasprintf ("%s.%s", q, ok);
              if (streq (ok, "format"))
                {
                  if (!json_is_string (ov)
                      || !streq (json_string_value (ov), "sarif"))
                    r = fail (m, o,
                              _ ("%s: the only output format is "
                                 "sarif"),
                              o);
                }
              else if (streq (ok, "path"))
                {
                  const char *s = json_string_value (ov);
                  if (s == NULL || !ash_str_has_prefix (s, "{results_dir}/")
                      || strstr (s, "..") || strchr (s + 14, '{'))
                    r = fail (m, o,
                              _ ("%s must be a file below {results_dir}, "
                                 "such as \"{results_dir}/%s.sarif\""),
                              o, name);
                  else
                    p->output_path = xstrdup (s);
                }
              else
                r = fail (m, o, _ ("unknown key '%s'"), o);
              if (r < 0)
                break;
            }
        }
      else if (streq (k, "sandbox_requirements"))
        r = load_requirements (m, q, x, &p->req);
      else if (streq (k, "adapter"))
        {
          /* A builtin adapter builds the command line and reads the
             output (trivy-repo); the module declares the scanner.  */
          const char *a = json_string_value (x);
          p->adapter = a ? ash_scanner_adapter (a) : NULL;
          if (p->adapter == NULL)
            r = fail (m, q, _ ("%s: ash has no adapter named '%s'"), q,
                      a ? a : "?");
        }
      else
        r = fail (m, q, _ ("unknown key '%s'"), q);
      if (r < 0)
        break;
    }
  if (r == 0 && p->tool == NULL)
    r = fail (m, kp, _ ("%s has no tool"), kp);
  if (r == 0 && p->output_path == NULL && p->adapter == NULL)
    r = fail (m, kp, _ ("%s has no output.path"), kp);
  if (r < 0)
    {
      plugin_free (p);
      return r;
    }

  if (p->install_hint == NULL)
    p->install_hint = xasprintf (_ ("install %s (see %s)"), p->tool, m->file);
  p->scanner.name = p->name;
  p->scanner.tool = p->tool;
  p->scanner.install_hint = p->install_hint;
  p->scanner.description = p->description;
  p->scanner.build = p->adapter ? p->adapter->build : plugin_build;
  p->scanner.parse = p->adapter ? p->adapter->parse : plugin_parse;
  p->scanner.prepare = p->adapter ? p->adapter->prepare : NULL;
  p->scanner.run = p->adapter ? p->adapter->run : NULL;
  p->scanner.check_options = p->adapter ? p->adapter->check_options : NULL;
  p->scanner.req = &p->req;
  p->scanner.data = p;
  set->v = xreallocarray (set->v, set->n + 1, sizeof *set->v);
  set->v[set->n++] = p;
  return 0;
}

int
ash_plugin_load_file (const char *path, struct ash_plugin_set *set,
                      struct ash_error *err)
{
  _cleanup_json_ json_t *tree = NULL;
  _cleanup_json_ json_t *positions = NULL;
  _cleanup_json_ json_t *env_uses = NULL;
  struct mctx m = { .file = path, .err = err };
  /* A module never reads ASH's environment: a value from it in a
     scanner's command line or options would pass the operator's
     variables around the sandbox's environment filter.  */
  int r = ash_config_parse_file_env (path, ASH_CONFIG_PARSE_NO_ENV, &tree,
                                     &positions, &env_uses, err);
  const char *k;
  json_t *x;

  if (r < 0)
    {
      if (err && err->path == NULL)
        ash_error_prefix (err, "%s", path);
      return r;
    }
  if (json_array_size (env_uses) > 0)
    {
      json_t *first = json_array_get (env_uses, 0);
      return ash_error_set_at (
        err, -EACCES, path,
        (int) json_integer_value (json_array_get (first, 0)),
        (int) json_integer_value (json_array_get (first, 1)),
        _ ("!ENV is refused in a plugin module: a module does not read ASH's "
           "environment, which would hand the operator's variables to a "
           "scanner around the sandbox's environment filter; write the value "
           "into the module, or pass it to the scanner with "
           "sandbox.env_scanners and the module's env_names"));
    }
  m.positions = positions;
  if (!json_is_object (tree))
    return fail (&m, NULL,
                 _ ("a plugin module is a mapping with a 'scanners' "
                    "key"));
  json_object_foreach (tree, k, x)
    if (!streq (k, "scanners"))
      return fail (&m, k, _ ("unknown key '%s'"), k);
  json_t *scanners = json_object_get (tree, "scanners");
  if (!json_is_object (scanners) || json_object_size (scanners) == 0)
    return fail (&m, "scanners",
                 _ ("'scanners' must be a mapping of at least one scanner"));
  json_object_foreach (scanners, k, x)
    {
      r = load_scanner (&m, k, x, set);
      if (r < 0)
        return r;
    }
  return 0;
}

/* What the scanners SET->v[FROM..] declare that only a config file that
   may grant can give them ("a network, environment variables"), or NULL
   when nothing.  Newly allocated.  */
static char *
declared_grants (const struct ash_plugin_set *set, size_t from)
{
  bool net = false, env = false, paths = false;
  for (size_t i = from; i < set->n; i++)
    {
      const struct ash_requirements *q = &set->v[i]->req;
      net |= q->network;
      env |= q->env_prefixes.nr > 0 || q->env_names.nr > 0;
      paths |= q->read_paths.nr > 0 || q->read_path_env.nr > 0
               || q->cache_paths.nr > 0;
    }
  if (!net && !env && !paths)
    return NULL;
  struct ash_buf b = ASH_BUF_INIT;
  if (net)
    ash_buf_addstr (&b, _ ("a network"));
  if (env)
    ash_buf_addf (&b, "%s%s", b.len ? ", " : "", _ ("environment variables"));
  if (paths)
    ash_buf_addf (&b, "%s%s", b.len ? ", " : "", _ ("read paths"));
  return ash_buf_detach (&b);
}

int
ash_plugin_load_configured (const struct ash_config *config,
                            const struct ash_options *opts,
                            const char *source_dir, const char *helper_dir,
                            struct ash_plugin_set *set,
                            struct ash_strvec *ret_warnings,
                            struct ash_error *err)
{
  struct ash_strvec entries = ASH_STRVEC_INIT;
  struct ash_strvec named_by = ASH_STRVEC_INIT;
  struct ash_strvec dirs = ASH_STRVEC_INIT;
  _cleanup_free_ char *build_dir = NULL;
  struct ash_tier_context ctx = { 0 };
  char *storage[3] = { NULL, NULL, NULL };
  size_t i;
  int r;

  /* In a build tree, the modules ash ships are in data/plugins beside the
     platform directory the binary is in.  */
  if (helper_dir)
    {
      struct stat st;
      build_dir = xasprintf ("%s/../data/plugins", helper_dir);
      if (stat (build_dir, &st) < 0 || !S_ISDIR (st.st_mode))
        {
          free (build_dir);
          build_dir = NULL;
        }
    }
  ash_plugin_search_dirs (getenv ("ASH_PLUGIN_PATH"), build_dir, &dirs);

  ash_tier_context_fill (&ctx, source_dir, storage);
  r = ash_plugin_modules_allowed_by (config, opts, &ctx, dirs.v, &entries,
                                     &named_by, ret_warnings, err);
  for (i = 0; i < ARRAY_SIZE (storage); i++)
    free (storage[i]);
  for (i = 0; r >= 0 && i < entries.nr; i++)
    {
      _cleanup_free_ char *path = NULL;
      size_t before = set->n;
      r = ash_plugin_find (entries.v[i], dirs.v, &path, err);
      if (r == 0)
        r = ash_plugin_load_file (path, set, err);
      if (r < 0)
        break;
      const char *by = i < named_by.nr ? named_by.v[i] : "";
      _cleanup_free_ char *what = NULL;
      if (*by)
        what = declared_grants (set, before);
      if (what)
        {
          /* A repository's config may not enable a module that would be
             given a network, the operator's variables or host paths.  */
          ash_strvec_push_nodup (ret_warnings,
                                 ash_plugin_module_refusal (entries.v[i], by,
                                                            what));
          while (set->n > before)
            plugin_free (set->v[--set->n]);
          continue;
        }
      ash_debug ("loaded plugin module %s", path);
    }
  ash_strvec_release (&entries);
  ash_strvec_release (&named_by);
  ash_strvec_release (&dirs);
  return r < 0 ? r : 0;
}

char *
ash_plugin_expand (const char *tmpl, const struct ash_scan_job *job)
{
  struct ash_buf b = ASH_BUF_INIT;
  const char *values[] = { job->target, job->results_dir,
                           job->scan_set_file ? job->scan_set_file : "" };

  for (const char *p = tmpl; *p;)
    {
      bool done = false;
      for (size_t i = 0; i < ARRAY_SIZE (placeholders); i++)
        if (strneq (p, placeholders[i], strlen (placeholders[i])))
          {
            ash_buf_addstr (&b, values[i]);
            p += strlen (placeholders[i]);
            done = true;
            break;
          }
      if (!done)
        ash_buf_addch (&b, *p++);
    }
  return ash_buf_detach (&b);
}

bool
ash_plugin_walks_target (const struct ash_scanner *s)
{
  if (s->build != plugin_build)
    return false;
  const struct ash_plugin_scanner *p = s->data;
  for (size_t i = 0; i < p->args.nr; i++)
    if (strstr (p->args.v[i], "{target}"))
      return true;
  return false;
}

bool
ash_plugin_reads_tree (const struct ash_scanner *s)
{
  if (s->build != plugin_build)
    return true;
  const struct ash_plugin_scanner *p = s->data;
  for (size_t i = 0; i < p->args.nr; i++)
    if (strstr (p->args.v[i], "{target}")
        || strstr (p->args.v[i], "{scan_set}"))
      return true;
  return false;
}

static int
plugin_build (const struct ash_scanner *s, const struct ash_scan_job *job,
              struct ash_cmd *cmd, struct ash_error *err _unused_)
{
  const struct ash_plugin_scanner *p = s->data;
  ash_strvec_push (&cmd->argv, job->tool_path);
  for (size_t i = 0; i < p->args.nr; i++)
    ash_strvec_push_nodup (&cmd->argv, ash_plugin_expand (p->args.v[i], job));
  return 0;
}

static int
plugin_parse (const struct ash_scanner *s, const struct ash_scan_job *job,
              const struct ash_cmd_result *res, json_t **ret_doc,
              struct ash_error *err)
{
  const struct ash_plugin_scanner *p = s->data;
  const char *rel = p->output_path + strlen ("{results_dir}/");
  size_t len;
  bool unread;
  /* Parsed as it is read: a large log is never held whole as text
     beside its tree.  */
  int r
    = job->sink
        ? ash_sarif_parse_file_sink (job->results_fd, rel, job->max_output,
                                     job->sink, ret_doc, &len, &unread, err)
        : ash_sarif_parse_file (job->results_fd, rel, job->max_output, ret_doc,
                                &len, &unread, err);

  if (r == -ENOENT && unread)
    {
      if (res->status != 0)
        return ash_error_set (err, r,
                              _ ("%s exited with status %d and wrote no "
                                 "output (%s)"),
                              s->name, res->status, rel);
      return ash_error_set (err, r, _ ("%s wrote no output (%s)"), s->name,
                            rel);
    }
  if (r < 0 && !unread)
    ash_error_prefix (err, _ ("%s (exit status %d)"), rel, res->status);
  return r;
}
