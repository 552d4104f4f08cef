/* SPDX-License-Identifier: Apache-2.0 */
/* homescreen.c -- which directories a sandbox may mount.  */

#include <config.h>

#include "sandbox/homescreen.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

/* The answers of one policy's computation (ash_homescreen_memo): the
   same paths (/usr/bin, the tool's directory, the homes) are resolved
   several times over, each time one readlink() a component.  A NULL
   answer is kept too.  So are the directories found to be no link, every
   component of them checked (CANON: realpath() would give them as they
   are), so that paths that share them (/tmp/src and /tmp/out) ask the
   kernel only about what follows; and the links at the top of each home
   listed (ash_homescreen_top_links).  Per thread: policies are computed
   side by side.  */
#define MEMO_MAX 32
#define CANON_MAX 64
#define TOPS_MAX 4
static _Thread_local struct
{
  bool on;
  size_t n;
  char *path[MEMO_MAX];
  char *real[MEMO_MAX];
  size_t n_canon;
  char *canon[CANON_MAX];
  size_t canon_len[CANON_MAX];
  bool canon_dead[CANON_MAX];
  size_t n_tops;
  char *top_dir[TOPS_MAX];
  bool top_listed[TOPS_MAX];
  struct ash_strvec top_names[TOPS_MAX];
} memo;

void
ash_homescreen_memo (bool on)
{
  for (size_t i = 0; i < memo.n; i++)
    {
      free (memo.path[i]);
      free (memo.real[i]);
    }
  memo.n = 0;
  for (size_t i = 0; i < memo.n_canon; i++)
    free (memo.canon[i]);
  memo.n_canon = 0;
  for (size_t i = 0; i < memo.n_tops; i++)
    {
      free (memo.top_dir[i]);
      ash_strvec_release (&memo.top_names[i]);
    }
  memo.n_tops = 0;
  memo.on = on;
}

/* Whether P (LEN bytes) is a checked directory (DEAD false) or a path
   realpath() failed on (DEAD true).  */
static bool
canon_known (const char *p, size_t len, bool dead)
{
  for (size_t i = 0; i < memo.n_canon; i++)
    if (memo.canon_len[i] == len && memo.canon_dead[i] == dead
        && memcmp (memo.canon[i], p, len) == 0)
      return true;
  return false;
}

static void
canon_add (const char *p, size_t len, bool dead)
{
  if (memo.n_canon < CANON_MAX)
    {
      memo.canon[memo.n_canon] = xstrndup (p, len);
      memo.canon_dead[memo.n_canon] = dead;
      memo.canon_len[memo.n_canon++] = len;
    }
}

/* Whether the link target T (LEN bytes) is one the walk below follows as
   realpath() does: not empty, no ".", ".." or final slash in it.  */
static bool
plain_target (const char *t, size_t len)
{
  if (len == 0 || t[len - 1] == '/')
    return false;
  for (const char *c = t; c < t + len;)
    {
      size_t clen = strcspn (c, "/");
      if ((clen == 1 && c[0] == '.')
          || (clen == 2 && c[0] == '.' && c[1] == '.'))
        return false;
      c += clen;
      while (*c == '/')
        c++;
    }
  return true;
}

/* PATH resolved as realpath() resolves it, one component at a time with
   readlink(), as realpath() asks: a link's target takes its place (from
   the link's directory when relative, from / when absolute).  1 with *RET
   the answer; 0 (*RET NULL) when realpath() fails on a component that is
   not there or not a directory, as it then does.  -1 for realpath() to
   resolve: a relative path, ".", "..", a final slash, a target with one
   of those, too many links, any other error.  The directories already
   checked, and the paths already found missing, are not asked about
   again.  */
static int
resolve_plain (const char *path, char **ret)
{
  char buf[PATH_MAX], rest[PATH_MAX], target[PATH_MAX];
  size_t n = 0, plen = strlen (path);
  const char *p = rest;
  int links = 0;

  *ret = NULL;
  if (path[0] != '/' || plen >= sizeof rest
      || (plen > 1 && path[plen - 1] == '/'))
    return -1;
  memcpy (rest, path, plen + 1);
  while (*p)
    {
      size_t clen, n0 = n;
      ssize_t t;

      while (*p == '/')
        p++;
      if (!*p)
        break;
      clen = strcspn (p, "/");
      if ((clen == 1 && p[0] == '.')
          || (clen == 2 && p[0] == '.' && p[1] == '.')
          || n + 1 + clen >= sizeof buf)
        return -1;
      buf[n++] = '/';
      memcpy (buf + n, p, clen);
      n += clen;
      buf[n] = '\0';
      p += clen;
      if (canon_known (buf, n, false))
        continue;
      if (canon_known (buf, n, true))
        return 0;
      t = readlink (buf, target, sizeof target - 1);
      if (t >= 0)
        {
          size_t left = strlen (p);

          target[t] = '\0';
          /* A target that fills the buffer may be cut short.  */
          if ((size_t) t >= sizeof target - 1 || ++links > 40
              || !plain_target (target, (size_t) t)
              || (size_t) t + left >= sizeof rest)
            return -1;
          /* The target and what follows the link, in REST (P points
             into it: moved first).  */
          memmove (rest + t, p, left + 1);
          memcpy (rest, target, (size_t) t);
          p = rest;
          n = target[0] == '/' ? 0 : n0;
          continue;
        }
      if (errno == ENOENT || errno == ENOTDIR)
        {
          canon_add (buf, n, true);
          return 0;
        }
      if (errno != EINVAL)
        return -1;
      canon_add (buf, n, false);
    }
  *ret = n ? xstrndup (buf, n) : xstrdup ("/");
  return 1;
}

char *
ash_homescreen_realpath (const char *path)
{
  char *r;

  if (!path || !*path)
    return NULL;
  if (!memo.on)
    return realpath (path, NULL);
  for (size_t i = 0; i < memo.n; i++)
    if (streq (memo.path[i], path))
      return memo.real[i] ? xstrdup (memo.real[i]) : NULL;
  if (resolve_plain (path, &r) < 0)
    r = realpath (path, NULL);
  if (memo.n < MEMO_MAX)
    {
      memo.path[memo.n] = xstrdup (path);
      memo.real[memo.n] = r ? xstrdup (r) : NULL;
      memo.n++;
    }
  return r;
}

/* The links at the top of HOME into RET, listed once.  */
static bool
list_top_links (const char *home, struct ash_strvec *ret)
{
  DIR *d = opendir (home);
  struct dirent *de;

  if (!d)
    return false;
  while ((de = readdir (d)) != NULL)
    {
      if (streq (de->d_name, ".") || streq (de->d_name, ".."))
        continue;
      /* Only links matter: the type readdir() gives is enough for every
         other entry (lstat below when it gives none).  */
      if (de->d_type != DT_LNK && de->d_type != DT_UNKNOWN)
        continue;
      _cleanup_free_ char *p = ash_path_join (home, de->d_name);
      struct stat st;
      if (lstat (p, &st) < 0 || !S_ISLNK (st.st_mode))
        continue;
      ash_strvec_push (ret, de->d_name);
    }
  closedir (d);
  return true;
}

bool
ash_homescreen_top_links (const char *home, struct ash_strvec *ret)
{
  bool listed;

  ash_strvec_clear (ret);
  if (!memo.on)
    return list_top_links (home, ret);
  for (size_t i = 0; i < memo.n_tops; i++)
    if (streq (memo.top_dir[i], home))
      {
        ash_strvec_pushv (ret, memo.top_names[i].v);
        return memo.top_listed[i];
      }
  listed = list_top_links (home, ret);
  if (memo.n_tops < TOPS_MAX)
    {
      size_t i = memo.n_tops++;
      memo.top_dir[i] = xstrdup (home);
      memo.top_listed[i] = listed;
      ash_strvec_init (&memo.top_names[i]);
      ash_strvec_pushv (&memo.top_names[i], ret->v);
    }
  return listed;
}

static char *
real_or_normal (const char *path)
{
  char *r = ash_homescreen_realpath (path);
  return r ? r : ash_path_absolute (path);
}

static char *
dir_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  if (!slash)
    return xstrdup (".");
  if (slash == path)
    return xstrdup ("/");
  return xstrndup (path, slash - path);
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash ? slash + 1 : path;
}

static bool
is_dir (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

static bool
exists (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0;
}

static bool
inside_any (const struct ash_strvec *dirs, const char *path)
{
  for (size_t i = 0; i < dirs->nr; i++)
    if (ash_path_is_inside (path, dirs->v[i]))
      return true;
  return false;
}

static void
find_top_links (struct ash_homescreen *s, const char *home)
{
  _cleanup_strvec_ struct ash_strvec names = ASH_STRVEC_INIT;

  if (!ash_homescreen_top_links (home, &names))
    return;
  for (size_t i = 0; i < names.nr; i++)
    {
      _cleanup_free_ char *p = ash_path_join (home, names.v[i]);
      _cleanup_free_ char *t = ash_homescreen_realpath (p);
      if (!t || !is_dir (t))
        continue;
      /* Inside a home it is part of it already; /, a home or a directory
         holding one is never mounted anyway; a link to a system directory
         changes nothing.  */
      if (inside_any (&s->homes, t) || ash_homescreen_holds_home (s, t)
          || inside_any (&s->top_system, t))
        continue;
      ash_strvec_push (&s->link_names, p);
      ash_strvec_push (&s->link_targets, t);
    }
}

void
ash_homescreen_init (struct ash_homescreen *s, const char *root,
                     const char *home, const char *passwd_home,
                     char *const *system_dirs)
{
  static const char *const def_sys[] = { "usr", "etc", "opt", "nix" };
  static const char *const top_extra[]
    = { "bin", "sbin", "lib", "lib32", "lib64", "libx32" };

  memset (s, 0, sizeof *s);
  ash_strvec_init (&s->homes);
  ash_strvec_init (&s->system_dirs);
  ash_strvec_init (&s->top_system);
  ash_strvec_init (&s->link_names);
  ash_strvec_init (&s->link_targets);
  s->root = real_or_normal (root ? root : "/");

  if (home && *home && home[0] == '/')
    ash_strvec_push_nodup (&s->homes, real_or_normal (home));
  if (passwd_home && *passwd_home && passwd_home[0] == '/')
    {
      _cleanup_free_ char *ph = real_or_normal (passwd_home);
      if (!ash_strvec_contains (&s->homes, ph))
        ash_strvec_push (&s->homes, ph);
    }

  if (system_dirs)
    for (char *const *d = system_dirs; *d; d++)
      {
        _cleanup_free_ char *r = ash_homescreen_realpath (*d);
        if (r && is_dir (r) && !ash_strvec_contains (&s->system_dirs, r))
          ash_strvec_push (&s->system_dirs, r);
      }
  else
    for (size_t i = 0; i < ARRAY_SIZE (def_sys); i++)
      {
        _cleanup_free_ char *p = ash_path_join (s->root, def_sys[i]);
        _cleanup_free_ char *r = ash_homescreen_realpath (p);
        if (r && is_dir (r) && !ash_strvec_contains (&s->system_dirs, r))
          ash_strvec_push (&s->system_dirs, r);
      }
  ash_strvec_pushv (&s->top_system, s->system_dirs.v);
  for (size_t i = 0; i < ARRAY_SIZE (top_extra); i++)
    {
      _cleanup_free_ char *p = ash_path_join (s->root, top_extra[i]);
      _cleanup_free_ char *r = ash_homescreen_realpath (p);
      if (r && is_dir (r) && !ash_strvec_contains (&s->top_system, r))
        ash_strvec_push (&s->top_system, r);
    }

  for (size_t i = 0; i < s->homes.nr; i++)
    find_top_links (s, s->homes.v[i]);
}

void
ash_homescreen_release (struct ash_homescreen *s)
{
  free (s->root);
  ash_strvec_release (&s->homes);
  ash_strvec_release (&s->system_dirs);
  ash_strvec_release (&s->top_system);
  ash_strvec_release (&s->link_names);
  ash_strvec_release (&s->link_targets);
  s->root = NULL;
}

char *
ash_homescreen_virtual (const struct ash_homescreen *s, const char *real)
{
  for (size_t i = 0; i < s->link_targets.nr; i++)
    {
      const char *t = s->link_targets.v[i];
      if (ash_path_is_inside (real, t))
        {
          const char *rest = real + strlen (t);
          while (*rest == '/')
            rest++;
          return *rest ? ash_path_join (s->link_names.v[i], rest)
                       : xstrdup (s->link_names.v[i]);
        }
    }
  return xstrdup (real);
}

int
ash_homescreen_home_depth (const struct ash_homescreen *s, const char *virt,
                           size_t *ret_depth)
{
  for (size_t i = 0; i < s->homes.nr; i++)
    {
      const char *h = s->homes.v[i];
      if (!ash_path_is_inside (virt, h))
        continue;
      size_t depth = 0;
      const char *rest = virt + strlen (h);
      for (const char *c = rest; *c; c++)
        if (*c == '/' && c[1] && c[1] != '/')
          depth++;
      if (ret_depth)
        *ret_depth = depth;
      return (int) i;
    }
  return -1;
}

bool
ash_homescreen_holds_home (const struct ash_homescreen *s, const char *real)
{
  if (streq (real, s->root) || streq (real, "/"))
    return true;
  for (size_t i = 0; i < s->homes.nr; i++)
    if (ash_path_is_inside (s->homes.v[i], real))
      return true;
  return false;
}

bool
ash_homescreen_is_bin_name (const char *path)
{
  const char *b = base_name (path);
  return streq (b, "bin") || streq (b, "sbin") || streq (b, "Scripts");
}

static bool
never_counts (const struct ash_homescreen *s, const char *real)
{
  _cleanup_free_ char *virt = ash_homescreen_virtual (s, real);
  _cleanup_free_ char *keyrings = ash_path_join (real, "share/keyrings");
  size_t depth;

  if (exists (keyrings))
    return true;
  if (ash_homescreen_home_depth (s, virt, &depth) >= 0 && depth == 1
      && streq (base_name (virt), ".local"))
    return true;
  return false;
}

bool
ash_homescreen_is_env (const struct ash_homescreen *s, const char *real)
{
  _cleanup_free_ char *cfg = ash_path_join (real, "pyvenv.cfg");
  _cleanup_free_ char *conda = ash_path_join (real, "conda-meta");
  if (!exists (cfg) && !exists (conda))
    return false;
  return !never_counts (s, real);
}

static int
result (int verdict, char *real, char **ret_real, char *why, char **ret_why)
{
  if (verdict == ASH_SCREEN_MOUNT && ret_real)
    *ret_real = real;
  else
    free (real);
  if (ret_why)
    *ret_why = why;
  else
    free (why);
  return verdict;
}

/* Where a directory named by the user lies, for the screens below.  */
struct place
{
  char *real;      /* its real path, NULL when it does not resolve */
  char *virt;      /* REAL as spelled through the links in a home */
  bool holds_home; /* REAL is /, a home or a directory holding one */
  bool in_home;    /* VIRT is inside a home directory, */
  size_t depth;    /* this many directories below it */
};

/* Fill P for DIR.  False when DIR does not resolve to a directory; then
   only P->real may be set.  */
static bool
place_find (const struct ash_homescreen *s, const char *dir, struct place *p)
{
  memset (p, 0, sizeof *p);
  p->real = ash_homescreen_realpath (dir);
  if (!p->real || !is_dir (p->real))
    return false;
  p->holds_home = ash_homescreen_holds_home (s, p->real);
  p->virt = ash_homescreen_virtual (s, p->real);
  p->in_home = ash_homescreen_home_depth (s, p->virt, &p->depth) >= 0;
  return true;
}

static void
place_release (struct place *p)
{
  free (p->real);
  free (p->virt);
}

/* result () for the place P, which gives up its real path.  */
static int
place_result (int verdict, struct place *p, char **ret_real, char *why,
              char **ret_why)
{
  return result (verdict, TAKE_PTR (p->real), ret_real, why, ret_why);
}

int
ash_homescreen_bin_dir (const struct ash_homescreen *s, const char *dir,
                        char **ret_real, char **ret_why)
{
  _cleanup_ (place_release) struct place p = { .real = NULL };

  if (!place_find (s, dir, &p))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("%s is not a directory"), dir),
                         ret_why);
  if (p.holds_home)
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("%s resolves to %s, which is /, a "
                                       "home directory or a directory "
                                       "holding one"),
                                    dir, p.real),
                         ret_why);
  if (p.in_home && !ash_homescreen_is_bin_name (p.real))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("%s is inside a home directory and "
                                       "does not resolve to a bin, sbin or "
                                       "Scripts directory"),
                                    dir),
                         ret_why);
  return place_result (ASH_SCREEN_MOUNT, &p, ret_real, NULL, ret_why);
}

int
ash_homescreen_prefix (const struct ash_homescreen *s, const char *prefix,
                       char **ret_real, char **ret_why)
{
  _cleanup_ (place_release) struct place p = { .real = NULL };

  if (!place_find (s, prefix, &p))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("%s is not a directory"), prefix),
                         ret_why);
  if (p.holds_home)
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("the install prefix %s is /, a home "
                                       "directory or a directory holding "
                                       "one"),
                                    p.real),
                         ret_why);
  if (p.in_home && p.depth <= 1)
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("the install prefix %s is not deeper "
                                       "than a directory directly in a home "
                                       "directory"),
                                    p.virt),
                         ret_why);
  return place_result (ASH_SCREEN_MOUNT, &p, ret_real, NULL, ret_why);
}

/* Screen an interpreter's prefix PREFIX (real).  0 to mount, else a
   refusal in *WHY.  */
static int
screen_interp_prefix (const struct ash_homescreen *s, const char *interp,
                      const char *prefix, char **why)
{
  size_t depth;

  if (ash_homescreen_holds_home (s, prefix))
    {
      *why
        = streq (prefix, s->root) || streq (prefix, "/")
            ? xasprintf (_ ("the prefix of its interpreter %s is /"), interp)
            : xasprintf (_ ("the prefix of its interpreter %s is %s, a "
                            "home directory or a directory holding one"),
                         interp, prefix);
      return -1;
    }
  _cleanup_free_ char *virt = ash_homescreen_virtual (s, prefix);
  if (ash_homescreen_home_depth (s, virt, &depth) >= 0 && depth <= 1
      && !ash_homescreen_is_env (s, prefix))
    {
      *why = xasprintf (_ ("the prefix of its interpreter %s is %s, directly "
                           "in a home directory, and is not a virtual "
                           "environment or conda installation"),
                        interp, virt);
      return -1;
    }
  return 0;
}

/* The prefix of an interpreter whose binary is in BINDIR (real).  */
static int
screen_bindir (const struct ash_homescreen *s, const char *interp,
               const char *bindir, struct ash_strvec *mounts,
               struct ash_strvec *rules, const char *rule, char **why)
{
  if (streq (bindir, s->root) || streq (bindir, "/"))
    {
      *why = xasprintf (_ ("the prefix of its interpreter %s is /"), interp);
      return -1;
    }
  _cleanup_free_ char *parent = dir_name (bindir);
  if (streq (parent, s->root))
    {
      if (ash_strvec_contains (&s->top_system, bindir))
        {
          ash_strvec_push (mounts, bindir);
          ash_strvec_push (rules, rule);
          return 0;
        }
      *why = xasprintf (_ ("its interpreter %s sits directly in %s, which "
                           "would mount that whole directory"),
                        interp, bindir);
      return -1;
    }
  const char *prefix = ash_homescreen_is_bin_name (bindir) ? parent : bindir;
  if (screen_interp_prefix (s, interp, prefix, why) < 0)
    return -1;
  if (!ash_strvec_contains (mounts, prefix))
    {
      ash_strvec_push (mounts, prefix);
      ash_strvec_push (rules, rule);
    }
  return 0;
}

/* The "home = DIR" line of a pyvenv.cfg, or NULL.  */
static char *
venv_home (const char *venv)
{
  _cleanup_free_ char *cfg = ash_path_join (venv, "pyvenv.cfg");
  _cleanup_fclose_ FILE *f = fopen (cfg, "re");
  char line[PATH_MAX + 64];

  if (!f)
    return NULL;
  while (fgets (line, sizeof line, f))
    {
      char *p = line;
      while (*p == ' ' || *p == '\t')
        p++;
      if (!strneq (p, "home", 4))
        continue;
      p += 4;
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p != '=')
        continue;
      p++;
      while (*p == ' ' || *p == '\t')
        p++;
      p[strcspn (p, "\r\n")] = '\0';
      size_t n = strlen (p);
      while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        p[--n] = '\0';
      return *p == '/' ? xstrdup (p) : NULL;
    }
  return NULL;
}

/* The steps of ash_homescreen_interpreter(): the mounts and their rules
   into MOUNTS and RULES, or ASH_SCREEN_REFUSE with *WHY set at the first
   step that refuses.  */
static int
screen_interpreter (const struct ash_homescreen *s, const char *interp,
                    struct ash_strvec *mounts, struct ash_strvec *rules,
                    char **why)
{
  _cleanup_strvec_ struct ash_strvec hops = ASH_STRVEC_INIT; /* link
                                                                locations */
  _cleanup_strvec_ struct ash_strvec hop_dirs = ASH_STRVEC_INIT;
  _cleanup_free_ char *cur = NULL;
  _cleanup_free_ char *real = NULL;
  _cleanup_free_ char *spelled_dir = NULL;
  _cleanup_free_ char *bindir = NULL;

  if (interp[0] != '/')
    {
      *why
        = xasprintf (_ ("its interpreter %s is not an absolute path"), interp);
      return ASH_SCREEN_REFUSE;
    }

  /* Follow the links one at a time, remembering where each one is kept.  */
  cur = ash_path_normalize (interp);
  for (int n = 0; n < 40; n++)
    {
      _cleanup_free_ char *d = dir_name (cur);
      _cleanup_free_ char *dreal = ash_homescreen_realpath (d);
      if (!dreal)
        break;
      _cleanup_free_ char *loc = ash_path_join (dreal, base_name (cur));
      if (n == 0)
        spelled_dir = xstrdup (dreal);
      struct stat st;
      if (lstat (loc, &st) < 0 || !S_ISLNK (st.st_mode))
        break;
      char buf[PATH_MAX];
      ssize_t len = readlink (loc, buf, sizeof buf - 1);
      if (len < 0)
        break;
      buf[len] = '\0';
      ash_strvec_push (&hops, loc);
      ash_strvec_push (&hop_dirs, dreal);
      free (cur);
      if (buf[0] == '/')
        cur = ash_path_normalize (buf);
      else
        {
          _cleanup_free_ char *j = ash_path_join (dreal, buf);
          cur = ash_path_normalize (j);
        }
    }

  real = ash_homescreen_realpath (interp);
  if (!real)
    {
      *why = xasprintf (_ ("its interpreter %s does not exist"), interp);
      return ASH_SCREEN_REFUSE;
    }

  /* A virtual environment: the directory the interpreter is spelled in is
     its bin directory, next to a pyvenv.cfg.  Its prefix and its base
     (pyvenv.cfg's home) are both screened.  */
  if (spelled_dir && ash_homescreen_is_bin_name (spelled_dir))
    {
      _cleanup_free_ char *venv = dir_name (spelled_dir);
      _cleanup_free_ char *cfg = ash_path_join (venv, "pyvenv.cfg");
      if (exists (cfg))
        {
          if (screen_interp_prefix (s, interp, venv, why) < 0)
            return ASH_SCREEN_REFUSE;
          ash_strvec_push (mounts, venv);
          ash_strvec_push (rules, _ ("virtual environment of the "
                                     "interpreter"));
          _cleanup_free_ char *home = venv_home (venv);
          _cleanup_free_ char *home_real = ash_homescreen_realpath (home);
          if (home_real
              && screen_bindir (s, interp, home_real, mounts, rules,
                                _ ("base of the interpreter's virtual "
                                   "environment"),
                                why)
                   < 0)
            return ASH_SCREEN_REFUSE;
        }
    }

  bindir = dir_name (real);
  if (screen_bindir (s, interp, bindir, mounts, rules,
                     _ ("install prefix of the interpreter"), why)
      < 0)
    return ASH_SCREEN_REFUSE;

  /* A link kept in a home, outside a bin directory and outside the
     interpreter's own installation, is refused.  */
  for (size_t i = 0; i < hops.nr; i++)
    {
      _cleanup_free_ char *virt = ash_homescreen_virtual (s, hop_dirs.v[i]);
      if (ash_homescreen_home_depth (s, virt, NULL) < 0
          || ash_homescreen_is_bin_name (hop_dirs.v[i])
          || inside_any (mounts, hops.v[i]))
        continue;
      *why = xasprintf (_ ("its interpreter %s is reached through the link "
                           "%s, kept in a home directory outside a bin, sbin "
                           "or Scripts directory"),
                        interp, hops.v[i]);
      return ASH_SCREEN_REFUSE;
    }
  return ASH_SCREEN_MOUNT;
}

int
ash_homescreen_interpreter (const struct ash_homescreen *s, const char *interp,
                            struct ash_strvec *ret_mounts,
                            struct ash_strvec *ret_rules, char **ret_why)
{
  _cleanup_strvec_ struct ash_strvec mounts = ASH_STRVEC_INIT;
  _cleanup_strvec_ struct ash_strvec rules = ASH_STRVEC_INIT;
  char *why = NULL;
  int verdict = screen_interpreter (s, interp, &mounts, &rules, &why);

  if (verdict == ASH_SCREEN_MOUNT)
    {
      ash_strvec_pushv (ret_mounts, mounts.v);
      ash_strvec_pushv (ret_rules, rules.v);
    }
  if (ret_why)
    *ret_why = why;
  else
    free (why);
  return verdict;
}

int
ash_homescreen_bin_path (const struct ash_homescreen *s, const char *dir,
                         char **ret_real, char **ret_why)
{
  _cleanup_ (place_release) struct place p = { .real = NULL };

  if (!place_find (s, dir, &p))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real, NULL, ret_why);
  if (p.holds_home)
    return place_result (ASH_SCREEN_REFUSE, &p, ret_real,
                         xasprintf (_ ("ASH_BIN_PATH %s is /, a home "
                                       "directory or a directory holding "
                                       "one"),
                                    dir),
                         ret_why);
  if (p.in_home && p.depth == 1 && !ash_homescreen_is_bin_name (p.real))
    return place_result (ASH_SCREEN_REFUSE, &p, ret_real,
                         xasprintf (_ ("ASH_BIN_PATH %s is directly in a "
                                       "home directory and is not a bin "
                                       "directory"),
                                    dir),
                         ret_why);
  return place_result (ASH_SCREEN_MOUNT, &p, ret_real, NULL, ret_why);
}

int
ash_homescreen_uv_dir (const struct ash_homescreen *s, const char *dir,
                       char **ret_real, char **ret_why)
{
  _cleanup_ (place_release) struct place p = { .real = NULL };

  if (!place_find (s, dir, &p))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real, NULL, ret_why);
  if (p.holds_home || (p.in_home && p.depth <= 1))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("not mounting the uv directory %s: it "
                                       "is /, a home directory, a directory "
                                       "holding one, or a directory directly "
                                       "in one"),
                                    dir),
                         ret_why);
  return place_result (ASH_SCREEN_MOUNT, &p, ret_real, NULL, ret_why);
}

int
ash_homescreen_read_path_env (const struct ash_homescreen *s,
                              const char *value, char **ret_real,
                              char **ret_why)
{
  if (!value || !*value)
    return result (ASH_SCREEN_SKIP, NULL, ret_real, NULL, ret_why);
  if (value[0] != '/')
    return result (ASH_SCREEN_SKIP, NULL, ret_real,
                   xasprintf (_ ("%s is not an absolute path"), value),
                   ret_why);
  _cleanup_ (place_release) struct place p = { .real = NULL };

  if (!place_find (s, value, &p))
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         p.real
                           ? xasprintf (_ ("%s is not a directory"), value)
                           : xasprintf (_ ("%s does not exist"), value),
                         ret_why);
  if (p.holds_home)
    return place_result (ASH_SCREEN_SKIP, &p, ret_real,
                         xasprintf (_ ("%s is /, a home directory or a "
                                       "directory above one"),
                                    value),
                         ret_why);
  return place_result (ASH_SCREEN_MOUNT, &p, ret_real, NULL, ret_why);
}
