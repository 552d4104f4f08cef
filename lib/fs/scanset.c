/* SPDX-License-Identifier: Apache-2.0 */
/* scanset.c -- the scan set: walk, ignore files, links that leave the
   tree.  */

#include <config.h>

#include "fs/scanset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <unistd.h>
#include <wctype.h>
#include <stdio.h>
#include <sys/stat.h>
#if HAVE_STATX
#include <sys/sysmacros.h> /* makedev () */
#endif

#include "base/buf.h"
#include "base/escape.h"
#include "fs/tree.h"

#ifndef AT_NO_AUTOMOUNT
#define AT_NO_AUTOMOUNT 0
#endif

/* What the walk reads of the repository's ignore files is capped: the
   bytes of any one file, the bytes of all of them, and the rules they
   add.  Rules past a cap are not read (a file then scans rather than
   hides), and the scan's log says so once.  */
#define IGNORE_FILE_MAX ((size_t) 1 << 20)
#define IGNORE_TOTAL_MAX ((size_t) 8 << 20)
#define IGNORE_RULES_MAX 100000
#define SCANSET_MAX_DEPTH 512

/* ---- Patterns ------------------------------------------------------- */

struct rule
{
  char *pattern; /* without "!", leading "/" and trailing "/" */
  char *base;    /* directory the rule applies below, relative; "" */
  char *origin;  /* for the ignore report */
  bool negate;
  bool dir_only;
  bool anchored; /* the pattern holds a "/": matched from BASE */
  char *key;     /* index key ("=name" or "*suffix"), or NULL */
  ssize_t prev;  /* the previous rule with the same key, or -1 */
};

/* The rules are indexed, so that finding the last rule that matches a
   name costs about the length of the name, not the number of rules: a
   rule whose pattern is a literal file name sits under "=NAME", one that
   is "*" and a literal suffix under "*SUFFIX", each key naming its latest
   rule (and each rule the one before it with that key).  Every other rule
   is on the OTHER list and tried one by one.  */
struct slot
{
  char *key;    /* NULL when empty */
  ssize_t last; /* latest rule with this key, -1 when none is left */
};

struct rules
{
  struct rule *v;
  size_t nr, alloc;
  struct slot *tab; /* open addressing, size a power of two */
  size_t tab_size, tab_used;
  size_t *other; /* indices of rules not indexed, increasing */
  size_t n_other, alloc_other;
};

static size_t
key_hash (const char *k)
{
  size_t h = 5381;
  for (; *k; k++)
    h = h * 33 ^ (unsigned char) *k;
  return h;
}

static struct slot *
slot_find (const struct rules *rs, const char *key)
{
  if (rs->tab_size == 0)
    return NULL;
  for (size_t i = key_hash (key) & (rs->tab_size - 1);;
       i = (i + 1) & (rs->tab_size - 1))
    {
      struct slot *sl = &rs->tab[i];
      if (sl->key == NULL)
        return NULL;
      if (streq (sl->key, key))
        return sl;
    }
}

static struct slot *
slot_get (struct rules *rs, const char *key)
{
  struct slot *sl = slot_find (rs, key);
  if (sl)
    return sl;
  if (2 * (rs->tab_used + 1) > rs->tab_size)
    {
      size_t n = rs->tab_size ? 2 * rs->tab_size : 64;
      struct slot *old = rs->tab;
      size_t old_size = rs->tab_size;
      rs->tab = xcalloc (n, sizeof *rs->tab);
      rs->tab_size = n;
      for (size_t i = 0; i < old_size; i++)
        if (old[i].key)
          {
            size_t j = key_hash (old[i].key) & (n - 1);
            while (rs->tab[j].key)
              j = (j + 1) & (n - 1);
            rs->tab[j] = old[i];
          }
      free (old);
    }
  size_t j = key_hash (key) & (rs->tab_size - 1);
  while (rs->tab[j].key)
    j = (j + 1) & (rs->tab_size - 1);
  rs->tab[j].key = xstrdup (key);
  rs->tab[j].last = -1;
  rs->tab_used++;
  return &rs->tab[j];
}

/* The index key of a rule's pattern, or NULL when it has to be tried by
   itself.  A backslash, "?", "[" or "*" anywhere but first makes it
   unindexed.  */
static char *
rule_key (const struct rule *r)
{
  if (r->anchored)
    return NULL;
  const char *p = r->pattern;
  if (p[0] == '*')
    {
      if (p[1] == '\0' || strpbrk (p + 1, "*?[\\"))
        return NULL;
      return xstrdup (p);
    }
  if (strpbrk (p, "*?[\\"))
    return NULL;
  return xasprintf ("=%s", p);
}

static void
rules_release (struct rules *rs)
{
  for (size_t i = 0; i < rs->nr; i++)
    {
      free (rs->v[i].pattern);
      free (rs->v[i].base);
      free (rs->v[i].origin);
      free (rs->v[i].key);
    }
  free (rs->v);
  for (size_t i = 0; i < rs->tab_size; i++)
    free (rs->tab[i].key);
  free (rs->tab);
  free (rs->other);
  memset (rs, 0, sizeof *rs);
}

static void
rules_truncate (struct rules *rs, size_t nr)
{
  while (rs->nr > nr)
    {
      struct rule *r = &rs->v[--rs->nr];
      if (r->key)
        {
          struct slot *sl = slot_find (rs, r->key);
          if (sl)
            sl->last = r->prev;
        }
      free (r->pattern);
      free (r->base);
      free (r->origin);
      free (r->key);
    }
  while (rs->n_other && rs->other[rs->n_other - 1] >= nr)
    rs->n_other--;
}

/* Parse one line of an ignore file into RS.  Blank lines and comments add
   nothing.  */
static void
rules_add_line (struct rules *rs, const char *line, const char *base,
                const char *origin)
{
  size_t len = strlen (line);
  if (len && line[len - 1] == '\r')
    len--;
  /* Trailing spaces are dropped unless escaped.  */
  while (len && line[len - 1] == ' ' && !(len >= 2 && line[len - 2] == '\\'))
    len--;
  if (len == 0 || line[0] == '#')
    return;
  struct rule r = { 0 };
  const char *p = line;
  if (p[0] == '!')
    {
      r.negate = true;
      p++;
      len--;
    }
  else if (p[0] == '\\' && (p[1] == '#' || p[1] == '!'))
    {
      p++;
      len--;
    }
  if (len && p[len - 1] == '/')
    {
      r.dir_only = true;
      len--;
    }
  if (len == 0)
    return;
  r.pattern = xstrndup (p, len);
  if (strchr (r.pattern, '/'))
    {
      r.anchored = true;
      if (r.pattern[0] == '/')
        memmove (r.pattern, r.pattern + 1, strlen (r.pattern));
    }
  if (!*r.pattern)
    {
      free (r.pattern);
      return;
    }
  r.base = xstrdup (base);
  r.origin = xstrdup (origin);
  r.key = rule_key (&r);
  r.prev = -1;
  if (rs->nr == rs->alloc)
    {
      rs->alloc = rs->alloc ? 2 * rs->alloc : 16;
      rs->v = xreallocarray (rs->v, rs->alloc, sizeof *rs->v);
    }
  if (r.key)
    {
      struct slot *sl = slot_get (rs, r.key);
      r.prev = sl->last;
      sl->last = (ssize_t) rs->nr;
    }
  else
    {
      if (rs->n_other == rs->alloc_other)
        {
          rs->alloc_other = rs->alloc_other ? 2 * rs->alloc_other : 16;
          rs->other
            = xreallocarray (rs->other, rs->alloc_other, sizeof *rs->other);
        }
      rs->other[rs->n_other++] = rs->nr;
    }
  rs->v[rs->nr++] = r;
}

/* Does the bracket expression at P (just after its "[") match C?  Sets
   *END just past its "]", or to NULL when it has none (then the "[" is an
   ordinary character), or to P itself when a range runs into the end of
   the pattern (then the pattern matches nothing), as fnmatch has it.  */
static bool
bracket_matches (const char *p, unsigned char c, const char **end)
{
  const char *start = p;
  bool negate = *p == '!' || *p == '^';
  bool found = false;
  if (negate)
    p++;
  for (bool first = true; first || *p != ']'; first = false)
    {
      if (!*p)
        {
          *end = NULL;
          return false;
        }
      if (p[0] == '[' && p[1] == ':')
        {
          const char *close = strstr (p + 2, ":]");
          if (close)
            {
              size_t n = (size_t) (close - (p + 2));
              char name[16];
              if (n < sizeof name)
                {
                  memcpy (name, p + 2, n);
                  name[n] = '\0';
                  wctype_t t = wctype (name);
                  if (t && iswctype ((wint_t) c, t) && c < 0x80)
                    found = true;
                }
              p = close + 2;
              continue;
            }
        }
      unsigned char lo = (unsigned char) *p;
      if (lo == '\\' && p[1])
        lo = (unsigned char) *++p;
      p++;
      unsigned char hi = lo;
      if (p[0] == '-' && !p[1])
        {
          *end = start;
          return false;
        }
      if (p[0] == '-' && p[1] && p[1] != ']')
        {
          p++;
          hi = (unsigned char) *p;
          if (hi == '\\' && p[1])
            hi = (unsigned char) *++p;
          p++;
        }
      if (lo <= c && c <= hi)
        found = true;
    }
  *end = p + 1;
  return found != negate;
}

/* Match the glob PAT against the whole of STR (LEN bytes), byte by byte:
   "*" any run of bytes, "?" any byte, "[...]" a set, "\" quotes the next
   byte.  The usual single backtrack to the last "*" suffices, since each
   later "*" can absorb whatever an earlier one could: the cost is at most
   the product of the lengths, never exponential in the number of stars.  */
static bool
glob_matches (const char *pat, const char *str, size_t len)
{
  const char *star = NULL; /* just after the last "*" seen */
  size_t star_at = 0;      /* where in STR that "*" resumes */
  size_t i = 0;
  const char *p = pat;
  for (;;)
    {
      if (*p == '*')
        {
          while (*p == '*')
            p++;
          star = p;
          star_at = i;
          continue;
        }
      if (i == len)
        {
          if (!*p)
            return true;
        }
      else if (*p)
        {
          unsigned char c = (unsigned char) str[i];
          const char *next = p + 1;
          bool ok;
          if (*p == '?')
            ok = true;
          else if (*p == '[')
            {
              const char *end;
              ok = bracket_matches (p + 1, c, &end);
              if (end == p + 1)
                return false;
              if (end)
                next = end;
              else
                ok = c == '[';
            }
          else if (*p == '\\')
            {
              if (!p[1])
                return false;
              ok = c == (unsigned char) p[1];
              next = p + 2;
            }
          else
            ok = c == (unsigned char) *p;
          if (ok)
            {
              p = next;
              i++;
              continue;
            }
        }
      /* A mismatch: let the last "*" take one byte more.  */
      if (!star || star_at >= len)
        return false;
      p = star;
      i = ++star_at;
    }
}

/* Match the "/"-separated PAT against the "/"-separated PATH, where a
   whole segment "**" matches any number of segments (at least one when it
   is the last segment of the pattern, so that "a/" followed by "**"
   matches what is inside a, as git has it).  Dynamic programming over
   (pattern segment, path segment) with each pair decided once, so that a
   pattern full of "**" costs a polynomial, not an exponential, number of
   steps.  */
static bool
match_segments (const char *pat, const char *path)
{
  struct seg
  {
    const char *s;
    size_t len;
  };
  size_t np = 1, ns = 1;
  for (const char *q = pat; *q; q++)
    np += *q == '/';
  for (const char *q = path; *q; q++)
    ns += *q == '/';
  if (!*path)
    ns = 0;
  _cleanup_free_ struct seg *ps = xreallocarray (NULL, np, sizeof *ps);
  _cleanup_free_ struct seg *ss
    = xreallocarray (NULL, ns ? ns : 1, sizeof *ss);
  _cleanup_free_ char **pz = xcalloc (np, sizeof *pz);
  size_t k = 0;
  for (const char *q = pat;; k++)
    {
      const char *e = strchrnul (q, '/');
      ps[k].s = q;
      ps[k].len = (size_t) (e - q);
      if (!*e)
        break;
      q = e + 1;
    }
  np = k + 1;
  k = 0;
  for (const char *q = path; ns; k++)
    {
      const char *e = strchrnul (q, '/');
      ss[k].s = q;
      ss[k].len = (size_t) (e - q);
      if (!*e)
        break;
      q = e + 1;
    }
  /* Each pattern segment as a string of its own for glob_matches.  */
  for (size_t i = 0; i < np; i++)
    pz[i] = xstrndup (ps[i].s, ps[i].len);

  /* M[i][j]: pattern segments i.. match path segments j..  */
  _cleanup_free_ bool *m = xcalloc ((np + 1) * (ns + 1), sizeof *m);
#define M(i, j) m[(i) * (ns + 1) + (j)]
  M (np, ns) = true;
  for (size_t i = np; i-- > 0;)
    {
      bool dstar = ps[i].len == 2 && ps[i].s[0] == '*' && ps[i].s[1] == '*';
      for (size_t j = ns + 1; j-- > 0;)
        {
          bool v;
          if (dstar && i == np - 1)
            v = j < ns;
          else if (dstar)
            /* Zero segments, or one more.  */
            v = M (i + 1, j) || (j < ns && M (i, j + 1));
          else
            v = j < ns && M (i + 1, j + 1)
                && glob_matches (pz[i], ss[j].s, ss[j].len);
          M (i, j) = v;
        }
    }
  bool r = M (0, 0);
#undef M
  for (size_t i = 0; i < np; i++)
    free (pz[i]);
  return r;
}

/* How many times ash_scanset_build() has tried a rule against a path
   (struct ash_scanset.rule_tries).  */
static _Thread_local unsigned long long rule_tries;

static bool
rule_matches (const struct rule *r, const char *rel, bool is_dir)
{
  rule_tries++;
  if (r->dir_only && !is_dir)
    return false;
  const char *sub = rel;
  if (*r->base)
    {
      size_t lb = strlen (r->base);
      if (strncmp (rel, r->base, lb) != 0 || rel[lb] != '/')
        return false;
      sub = rel + lb + 1;
    }
  if (r->anchored)
    return match_segments (r->pattern, sub);
  const char *name = strrchr (sub, '/');
  name = name ? name + 1 : sub;
  return glob_matches (r->pattern, name, strlen (name));
}

/* The latest rule under KEY that matches, as an index, or -1.  */
static ssize_t
chain_match (const struct rules *rs, const char *key, const char *rel,
             bool is_dir, ssize_t best)
{
  const struct slot *sl = slot_find (rs, key);
  for (ssize_t i = sl ? sl->last : -1; i > best; i = rs->v[i].prev)
    if (rule_matches (&rs->v[i], rel, is_dir))
      return i;
  return best;
}

/* The last rule of RS that matches REL, or NULL; negated rules count.  */
static const struct rule *
rules_match (const struct rules *rs, const char *rel, bool is_dir)
{
  ssize_t best = -1;
  for (size_t k = rs->n_other; k > 0; k--)
    if (rule_matches (&rs->v[rs->other[k - 1]], rel, is_dir))
      {
        best = (ssize_t) rs->other[k - 1];
        break;
      }
  if (rs->tab_used)
    {
      const char *name = strrchr (rel, '/');
      name = name ? name + 1 : rel;
      size_t len = strlen (name);
      _cleanup_free_ char *key = xmalloc (len + 2);
      key[0] = '=';
      memcpy (key + 1, name, len + 1);
      best = chain_match (rs, key, rel, is_dir, best);
      key[0] = '*';
      for (size_t i = 0; i < len; i++)
        {
          memcpy (key + 1, name + i, len - i + 1);
          best = chain_match (rs, key, rel, is_dir, best);
        }
    }
  return best < 0 ? NULL : &rs->v[best];
}

/* Append PATH to B as one line's worth of text: as it is, or, when it
   holds a control character (a line break above all, which would start a
   line of its own) or starts with a double quote, in double quotes with
   C escapes (\\n, \\r, \\t, \\", \\\\, \\ooo).  */
static bool
quote_byte (unsigned char c)
{
  return c < 0x20 || c == 0x7f;
}

static void
add_quoted_path (struct ash_buf *b, const char *path)
{
  /* Eight bytes at a time: a word with nothing below 0x20, nothing from
     0x7f up, is plain; one that has such a byte is looked at byte by
     byte (a UTF-8 name's bytes from 0x80 up are plain too).  */
  const unsigned char *u = (const unsigned char *) path;
  size_t n = strlen (path), i = 0;
  bool quote = u[0] == '"';
  for (; !quote && i + 8 <= n; i += 8)
    {
      uint64_t x;
      memcpy (&x, u + i, sizeof x);
      if (ash_word_special (x, 0x7f, 0x7f))
        for (size_t k = 0; k < 8 && !quote; k++)
          quote = quote_byte (u[i + k]);
    }
  for (; !quote && i < n; i++)
    quote = quote_byte (u[i]);
  if (!quote)
    {
      ash_buf_add (b, path, n);
      return;
    }
  ash_buf_addch (b, '"');
  for (const unsigned char *p = (const unsigned char *) path; *p; p++)
    switch (*p)
      {
      case '\n':
        ash_buf_addstr (b, "\\n");
        break;
      case '\r':
        ash_buf_addstr (b, "\\r");
        break;
      case '\t':
        ash_buf_addstr (b, "\\t");
        break;
      case '"':
      case '\\':
        ash_buf_addch (b, '\\');
        ash_buf_addch (b, (char) *p);
        break;
      default:
        if (*p < 0x20 || *p == 0x7f)
          ash_buf_addf (b, "\\%03o", *p);
        else
          ash_buf_addch (b, (char) *p);
      }
  ash_buf_addch (b, '"');
}

/* PATH as add_quoted_path() writes it, in a new string.  */
static char *
quoted_path (const char *path)
{
  struct ash_buf b = ASH_BUF_INIT;
  add_quoted_path (&b, path);
  return ash_buf_detach (&b);
}

char *
ash_scanset_quote_path (const char *path)
{
  return quoted_path (path);
}

/* ---- Paths ------------------------------------------------------------ */

/* The walked paths are made in blocks, not one allocation each: a tree of
   many files would otherwise spend much of its walk in malloc and free.  */
struct ash_scanset_paths
{
  struct ash_scanset_paths *next;
  size_t used, size;
  char data[];
};

#define PATHS_BLOCK ((size_t) 256 << 10)

/* DIR (LDIR bytes, "" for the top) joined with NAME (LNAME bytes), in
   S's blocks.  */
static char *
path_make (struct ash_scanset *s, const char *dir, size_t ldir,
           const char *name, size_t lname)
{
  size_t need = (ldir ? ldir + 1 : 0) + lname + 1;
  struct ash_scanset_paths *b = s->paths;
  if (b == NULL || b->size - b->used < need)
    {
      size_t size = need > PATHS_BLOCK ? need : PATHS_BLOCK;
      b = xmalloc (sizeof *b + size);
      b->next = s->paths;
      b->used = 0;
      b->size = size;
      s->paths = b;
    }
  char *p = b->data + b->used, *q = p;
  if (ldir)
    {
      memcpy (q, dir, ldir);
      q += ldir;
      *q++ = '/';
    }
  memcpy (q, name, lname + 1);
  b->used += need;
  return p;
}

/* Release a vector whose strings are in the blocks.  */
static void
borrowed_release (struct ash_strvec *sv)
{
  if (sv->alloc)
    free (sv->v);
  ash_strvec_init (sv);
}

/* Keep the warning MSG (freed) in the blocks, like the paths: a tree may
   hold many entries that each have one.  */
static void
warning_push (struct ash_scanset *s, char *msg)
{
  ash_strvec_push_nodup (&s->warnings,
                         path_make (s, NULL, 0, msg, strlen (msg)));
  free (msg);
}

/* ---- The walk -------------------------------------------------------- */

/* Links that leave a tree tend to point into a few directories, often at
   the same few files.  So the directory part of a link's target is
   resolved once per walk, and the target itself once: a link then costs a
   readlinkat() (and, the first time its target is seen, an fstatat() of
   the target's last component) rather than an open(), a readlink() of
   /proc and a close().  Each cache holds at most LINK_CACHE_MAX paths;
   past that, each is resolved anew.  */
#define LINK_CACHE_MAX 4096

struct link_cache_ent
{
  char *key;   /* the path as the target names it, absolute; NULL: an
                  empty slot */
  char *real;  /* what it resolves to, or NULL when it does not */
  mode_t mode; /* the type of what it resolves to, or 0 */
  bool leaves; /* REAL is NULL or outside the source directory */
};

struct link_cache
{
  struct link_cache_ent *v; /* SIZE of them (a power of two), or NULL */
  size_t size, used;
};

struct walk
{
  struct ash_scanset *s;
  struct rules rules;  /* from ignore files, root first */
  struct rules global; /* from ignore_paths */
  dev_t out_dev;
  ino_t out_ino;
  bool have_out;
  struct ash_error *err;
  size_t ignore_bytes; /* read from ignore files so far */
  bool ignore_capped;  /* a cap was hit, and the log told */
  unsigned long long max_file_size;
  struct link_cache dirs;    /* the directories links name, resolved */
  struct link_cache targets; /* the paths links name, resolved */
  struct ash_buf key;        /* scratch space for a target's path */
  struct ash_buf warn;       /* and for a warning */
  /* The warning for a leaving link, translated once (a tree may hold
     many), and split around its one "%s" when it has no other
     directive: LEAVES_LEN bytes before the path, the rest after it.  */
  const char *leaves_fmt;
  size_t leaves_len;
  bool leaves_split;
};

/* Warn that the link REL leaves the tree.  */
static void
warn_leaving (struct walk *w, const char *rel)
{
  if (!w->leaves_fmt)
    {
      w->leaves_fmt = _ ("Not scanning '%s': link leaves the scanned tree");
      const char *d = strchr (w->leaves_fmt, '%');
      w->leaves_split = d && d[1] == 's' && strchr (d + 2, '%') == NULL;
      w->leaves_len = d ? (size_t) (d - w->leaves_fmt) : 0;
    }
  if (!w->leaves_split)
    {
      /* A translation with other directives: printf's own way.  */
      _cleanup_free_ char *q = quoted_path (rel);
      warning_push (w->s, xasprintf (w->leaves_fmt, q));
      return;
    }
  /* Made in the walk's scratch buffer, kept in the blocks.  */
  struct ash_buf *b = &w->warn;
  ash_buf_reset (b);
  ash_buf_add (b, w->leaves_fmt, w->leaves_len);
  add_quoted_path (b, rel);
  ash_buf_addstr (b, w->leaves_fmt + w->leaves_len + 2);
  ash_strvec_push_nodup (&w->s->warnings,
                         path_make (w->s, NULL, 0, b->buf, b->len));
}

/* Say once that the ignore files were not read whole.  */
static void
ignore_cap_hit (struct walk *w, const char *rel, int lineno, const char *why)
{
  if (w->ignore_capped)
    return;
  w->ignore_capped = true;
  _cleanup_free_ char *q = quoted_path (rel);
  if (lineno > 0)
    warning_push (
      w->s, xasprintf (_ ("ignore files: %s; the rules from %s line %d on "
                          "are not read"),
                       why, q, lineno));
  else
    warning_push (
      w->s, xasprintf (_ ("ignore files: %s; the rules from %s on are not "
                          "read"),
                       why, q));
}

static int
read_ignore_file (struct walk *w, int dfd, const char *rel_dir,
                  const char *name)
{
  _cleanup_close_ int fd
    = openat (dfd, name,
              O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  _cleanup_free_ char *rel
    = *rel_dir ? xasprintf ("%s/%s", rel_dir, name) : xstrdup (name);
  if (fd < 0)
    {
      /* Missing, or a link (an ignore file is not read through a link,
         which could name any file), or otherwise unreadable.  */
      if (errno == ENOENT || errno == ELOOP || errno == ENXIO)
        return 0;
      return ash_error_set (w->err, -errno, _ ("cannot read %s: %s"), rel,
                            strerror (errno));
    }
  struct stat st;
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    return 0;
  if (w->ignore_capped)
    return 0;
  size_t room = IGNORE_TOTAL_MAX - w->ignore_bytes;
  if (room == 0)
    {
      _cleanup_free_ char *why
        = xasprintf (_ ("more than %zu bytes in all"), IGNORE_TOTAL_MAX);
      ignore_cap_hit (w, rel, 0, why);
      return 0;
    }
  size_t want = room < IGNORE_FILE_MAX ? room : IGNORE_FILE_MAX;
  struct ash_buf b = ASH_BUF_INIT;
  b.max = want;
  int r = ash_buf_read_fd (&b, fd);
  bool truncated = false;
  if (r == -EFBIG)
    {
      /* Read no more than the cap; the rules past it are left out.  */
      ash_buf_release (&b);
      b.max = 0;
      char *chunk = xmalloc (want + 1);
      ssize_t got = 0, n;
      while ((size_t) got < want
             && (n = pread (fd, chunk + got, want - (size_t) got, got)) > 0)
        got += n;
      /* Keep only whole lines.  */
      while (got > 0 && chunk[got - 1] != '\n')
        got--;
      chunk[got] = '\0';
      ash_buf_add (&b, chunk, (size_t) got);
      free (chunk);
      truncated = true;
      r = 0;
    }
  if (r < 0)
    {
      ash_buf_release (&b);
      return ash_error_set (w->err, r, _ ("cannot read %s: %s"), rel,
                            strerror (-r));
    }
  w->ignore_bytes += b.len;
  char *p = b.buf;
  int lineno = 0;
  while (*p || p < b.buf + b.len)
    {
      char *nl = memchr (p, '\n', b.len - (size_t) (p - b.buf));
      if (nl)
        *nl = '\0';
      lineno++;
      if (w->rules.nr >= IGNORE_RULES_MAX)
        {
          _cleanup_free_ char *why
            = xasprintf (_ ("more than %d rules"), IGNORE_RULES_MAX);
          ignore_cap_hit (w, rel, lineno, why);
          break;
        }
      struct ash_buf ob = ASH_BUF_INIT;
      add_quoted_path (&ob, rel);
      ash_buf_addf (&ob, ":%d: %s", lineno, p);
      _cleanup_free_ char *origin = ash_buf_detach (&ob);
      rules_add_line (&w->rules, p, rel_dir, origin);
      if (!nl)
        break;
      p = nl + 1;
    }
  if (truncated)
    {
      _cleanup_free_ char *why
        = want < IGNORE_FILE_MAX
            ? xasprintf (_ ("more than %zu bytes in all"), IGNORE_TOTAL_MAX)
            : xasprintf (_ ("%s is larger than %zu bytes"), rel,
                         IGNORE_FILE_MAX);
      ignore_cap_hit (w, rel, lineno + 1, why);
    }
  ash_buf_release (&b);
  return 0;
}

/* The path the link NAME in DFD resolves to, every link on the way
   followed, or NULL.  The kernel resolves it in one open(), and names the
   result in /proc/self/fd; without /proc, realpath() walks its real
   path, ABS_DIR and ABS_NAME joined, component by component.  */
static char *
resolve_link (int dfd, const char *name, const char *abs_dir,
              const char *abs_name)
{
  int fd = openat (dfd, name, O_PATH | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  char proc[64], buf[PATH_MAX + 1];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (proc, buf, sizeof buf - 1);
  close (fd);
  static const char deleted[] = " (deleted)";
  if (n > 0 && n < (ssize_t) sizeof buf - 1)
    buf[n] = '\0';
  if (n <= 0 || n >= (ssize_t) sizeof buf - 1 || buf[0] != '/'
      || (n >= (ssize_t) strlen (deleted)
          && streq (buf + n - strlen (deleted), deleted)))
    {
      _cleanup_free_ char *abs
        = abs_dir ? ash_path_join (abs_dir, abs_name) : NULL;
      return realpath (abs ? abs : abs_name, NULL);
    }
  return xstrdup (buf);
}

static void
link_cache_release (struct link_cache *c)
{
  for (size_t i = 0; i < c->size; i++)
    {
      free (c->v[i].key);
      free (c->v[i].real);
    }
  free (c->v);
  memset (c, 0, sizeof *c);
}

/* The entry of C for KEY: *RET_FOUND when it is there, else the empty
   slot it goes in, or NULL when C is full.  */
static struct link_cache_ent *
link_cache_slot (struct link_cache *c, const char *key, bool *ret_found)
{
  *ret_found = false;
  if (2 * (c->used + 1) > c->size && c->used < LINK_CACHE_MAX)
    {
      /* Kept at most half full.  */
      size_t n = c->size ? 2 * c->size : 64;
      struct link_cache_ent *v = xcalloc (n, sizeof *v);
      for (size_t k = 0; k < c->size; k++)
        if (c->v[k].key)
          {
            size_t j = key_hash (c->v[k].key) & (n - 1);
            while (v[j].key)
              j = (j + 1) & (n - 1);
            v[j] = c->v[k];
          }
      free (c->v);
      c->v = v;
      c->size = n;
    }
  size_t i = key_hash (key) & (c->size - 1);
  for (; c->v[i].key; i = (i + 1) & (c->size - 1))
    if (streq (c->v[i].key, key))
      {
        *ret_found = true;
        return &c->v[i];
      }
  return c->used < LINK_CACHE_MAX ? &c->v[i] : NULL;
}

/* Keep KEY -> REAL (copied; may be NULL), MODE and LEAVES in the slot E
   of C.  */
static void
link_cache_put (struct link_cache *c, struct link_cache_ent *e,
                const char *key, const char *real, mode_t mode, bool leaves)
{
  e->key = xstrdup (key);
  e->real = real ? xstrdup (real) : NULL;
  e->mode = mode;
  e->leaves = leaves;
  c->used++;
}

/* Whether the resolved path REAL (NULL: dangling, looping or unreadable,
   which cannot be shown to stay) is outside the tree.  */
static bool
real_leaves (const struct walk *w, const char *real)
{
  return !real || !ash_path_is_inside (real, w->s->real_source_dir);
}

/* Whether the link NAME in DFD leaves the tree, resolved whole; REL is
   its path below the source directory.  */
static bool
link_leaves_uncached (struct walk *w, int dfd, const char *name,
                      const char *rel)
{
  _cleanup_free_ char *real
    = resolve_link (dfd, name, w->s->real_source_dir, rel);
  return real_leaves (w, real);
}

/* Whether the link NAME in DFD leaves the tree: what it resolves to is
   outside the source directory, or it resolves to nothing.  REL_DIR
   (LDIR bytes) is DFD's path below the source directory, REL the link's.
   *RET_MODE is set to the type of what it resolves to when that is
   known, else left 0.  A target seen before costs one readlinkat() and a
   lookup.  */
static bool
link_leaves (struct walk *w, int dfd, const char *name, const char *rel_dir,
             size_t ldir, const char *rel, mode_t *ret_mode)
{
  char t[PATH_MAX + 1];
  ssize_t n = readlinkat (dfd, name, t, sizeof t - 1);
  if (n <= 0 || n >= (ssize_t) sizeof t - 1)
    return link_leaves_uncached (w, dfd, name, rel);
  t[n] = '\0';
  const char *slash = strrchr (t, '/');
  const char *b = slash ? slash + 1 : t;
  if (!*b || streq (b, ".") || streq (b, ".."))
    return link_leaves_uncached (w, dfd, name, rel);

  /* The directory the target names.  A relative target starts from the
     link's own directory, which is a real one (the walk never goes
     through a link), so the ".." that start it are taken off by name;
     every later component is left to the kernel.  */
  struct ash_buf *d = &w->key; /* kept from link to link */
  ash_buf_reset (d);
  size_t dl = slash ? (size_t) (slash - t) : 0;
  if (t[0] == '/')
    ash_buf_add (d, t, dl ? dl : 1);
  else
    {
      ash_buf_addstr (d, w->s->real_source_dir);
      if (ldir)
        {
          ash_buf_addch (d, '/');
          ash_buf_add (d, rel_dir, ldir);
        }
      bool leading = true;
      for (size_t i = 0; i < dl;)
        {
          const char *comp = t + i;
          const char *end = memchr (comp, '/', dl - i);
          size_t cl = end ? (size_t) (end - comp) : dl - i;
          i += cl + 1;
          if (cl == 0 || (cl == 1 && comp[0] == '.'))
            continue;
          if (leading && cl == 2 && comp[0] == '.' && comp[1] == '.')
            {
              char *last = strrchr (d->buf, '/');
              d->len = last && last != d->buf ? (size_t) (last - d->buf) : 1;
              d->buf[d->len] = '\0';
              continue;
            }
          leading = false;
          if (d->len > 1)
            ash_buf_addch (d, '/');
          ash_buf_add (d, comp, cl);
        }
    }
  size_t dlen = d->len;
  if (d->len > 1)
    ash_buf_addch (d, '/');
  ash_buf_addstr (d, b);

  /* The target, as it is named, seen before?  */
  bool found;
  struct link_cache_ent *te = link_cache_slot (&w->targets, d->buf, &found);
  char *key = d->buf;
  if (found)
    {
      *ret_mode = te->mode;
      return te->leaves;
    }
  _cleanup_free_ char *ret = NULL;
  mode_t mode = 0;

  /* Its directory, resolved once.  */
  char saved = key[dlen];
  key[dlen] = '\0';
  struct link_cache_ent *de = link_cache_slot (&w->dirs, key, &found);
  _cleanup_free_ char *real_owned = NULL;
  const char *real;
  if (found)
    real = de->real;
  else
    {
      real = real_owned = resolve_link (AT_FDCWD, key, NULL, key);
      if (de)
        link_cache_put (&w->dirs, de, key, real, 0, false);
    }
  key[dlen] = saved;
  if (real)
    {
      char *cand = streq (real, "/") ? xasprintf ("/%s", b)
                                     : xasprintf ("%s/%s", real, b);
      struct stat st;
      if (fstatat (AT_FDCWD, cand, &st, AT_SYMLINK_NOFOLLOW) < 0)
        free (cand);
      else if (S_ISLNK (st.st_mode))
        {
          /* A link to a link: resolved whole.  */
          free (cand);
          ret = resolve_link (dfd, name, w->s->real_source_dir, rel);
        }
      else
        {
          ret = cand;
          mode = st.st_mode;
        }
    }
  bool leaves = real_leaves (w, ret);
  if (te)
    link_cache_put (&w->targets, te, key, ret, mode, leaves);
  *ret_mode = mode;
  return leaves;
}

/* A directory entry as readdir() gave it: its name (in the directory's
   buffer of names, one allocation for all) and d_type.  */
struct dent
{
  const char *name;
  size_t off;
  unsigned char type;
};

static int
dent_cmp (const void *a, const void *b)
{
  return strcmp ((*(const struct dent *const *) a)->name,
                 (*(const struct dent *const *) b)->name);
}

static int walk_dir (struct walk *w, int dfd, const char *rel_dir, size_t ldir,
                     bool ignored, int depth);

/* Whether the entry of type DTYPE needs an fstatat() beyond its d_type:
   when the file system does not fill d_type, for the size of a regular
   file under a size cap, and for the device and inode of a directory
   when the output directory is inside the tree.  Most entries need
   none, which is most of what a walk of a large tree costs.  */
static bool
needs_stat (const struct walk *w, unsigned char dtype)
{
  switch (dtype)
    {
    case DT_REG:
      return w->max_file_size != 0;
    case DT_DIR:
      return w->have_out;
    case DT_LNK:
    case DT_FIFO:
    case DT_SOCK:
    case DT_CHR:
    case DT_BLK:
      return false;
    default:
      return true;
    }
}

/* What the walk needs to know of NAME in DFD, for an entry of type DTYPE:
   its type, its size when it is a regular file, its device and inode
   when a directory.  statx() is asked for no more than that.  */
static int
entry_stat (int dfd, const char *name, unsigned char dtype, struct stat *st)
{
#if HAVE_STATX
  unsigned mask = dtype == DT_REG   ? STATX_TYPE | STATX_SIZE
                  : dtype == DT_DIR ? STATX_TYPE | STATX_INO
                                    : STATX_TYPE | STATX_SIZE | STATX_INO;
  struct statx sx;
  if (statx (dfd, name,
             AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC, mask,
             &sx)
      == 0)
    {
      if ((sx.stx_mask & mask) != mask)
        return fstatat (dfd, name, st, AT_SYMLINK_NOFOLLOW);
      st->st_mode = sx.stx_mode;
      st->st_size = (off_t) sx.stx_size;
      st->st_ino = (ino_t) sx.stx_ino;
      st->st_dev = makedev (sx.stx_dev_major, sx.stx_dev_minor);
      return 0;
    }
  if (errno != ENOSYS && errno != EPERM)
    return -1;
#else
  (void) dtype;
#endif
  return fstatat (dfd, name, st, AT_SYMLINK_NOFOLLOW);
}

static int
walk_entry_1 (struct walk *w, int dfd, const char *rel_dir, size_t ldir,
              const char *name, unsigned char dtype, bool ignored, int depth)
{
  struct ash_scanset *s = w->s;
  struct stat st;
  if (!needs_stat (w, dtype))
    st.st_mode = DTTOIF (dtype);
  else if (entry_stat (dfd, name, dtype, &st) < 0)
    {
      if (errno == ENOENT)
        return 0;
      int e = errno;
      _cleanup_free_ char *q
        = *rel_dir ? xasprintf ("%s/%s", rel_dir, name) : xstrdup (name);
      return ash_error_set (w->err, -e, _ ("cannot examine %s: %s"), q,
                            strerror (e));
    }
  bool is_dir = S_ISDIR (st.st_mode);
  if (is_dir && streq (name, ".git"))
    return 0;
  if (is_dir && w->have_out && st.st_dev == w->out_dev
      && st.st_ino == w->out_ino)
    return 0;
  /* The path is made once, in the scan set's blocks, and borrowed by
     ALL, FILES and UNLISTED.  */
  char *rel = path_make (s, rel_dir, ldir, name, strlen (name));
  ash_strvec_push_nodup (&s->all, rel);

  if (!ignored)
    {
      const struct rule *g = rules_match (&w->global, rel, is_dir);
      const struct rule *m = g ? g : rules_match (&w->rules, rel, is_dir);
      if (m && !m->negate)
        {
          ignored = true;
          struct ash_buf line = ASH_BUF_INIT;
          add_quoted_path (&line, rel);
          ash_buf_addf (&line, ": %s", m->origin);
          ash_strvec_push_nodup (&s->ignored, ash_buf_detach (&line));
        }
    }

  if (S_ISLNK (st.st_mode))
    {
      mode_t tmode = 0;
      if (link_leaves (w, dfd, name, rel_dir, ldir, rel, &tmode))
        {
          ash_strvec_push_nodup (&s->leaving, rel);
          if (!ignored)
            {
              /* Quoted as in the scan-set list, so that a line break in
                 the name cannot start a line of the log.  */
              warn_leaving (w, rel);
            }
          return 0;
        }
      /* A link inside the tree: a file is scanned under the link's name
         too; a directory's files are already listed under its own.  */
      if (ignored)
        return 0;
      if (tmode == 0)
        {
          _cleanup_free_ char *abs = ash_path_join (s->real_source_dir, rel);
          struct stat tst;
          if (stat (abs, &tst) == 0)
            tmode = tst.st_mode;
        }
      if (tmode != 0 && !S_ISDIR (tmode))
        ash_strvec_push_nodup (&s->files, rel);
      return 0;
    }
  if (is_dir && depth + 1 > SCANSET_MAX_DEPTH)
    {
      /* A tree built to be deep: what lies below is left out (and the
         scanners that walk the directory are told to skip it) rather
         than failing the scan.  */
      if (!ignored)
        {
          _cleanup_free_ char *q = quoted_path (rel);
          ash_strvec_push_nodup (&s->leaving, rel);
          warning_push (s,
                        xasprintf (_ ("Not scanning '%s': nested more than %d "
                                      "directories deep"),
                                   q, SCANSET_MAX_DEPTH));
        }
      return 0;
    }
  if (is_dir)
    {
      /* A directory is never listed: it goes into UNLISTED before what
         lies below it (walk_entry).  */
      ash_strvec_push_nodup (&s->unlisted, rel);
      int cfd
        = openat (dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (cfd < 0)
        return ash_error_set (w->err, -errno, _ ("cannot open %s: %s"), rel,
                              strerror (errno));
      return walk_dir (w, cfd, rel, strlen (rel), ignored, depth + 1);
    }
  if (ignored)
    return 0;
  if (!S_ISREG (st.st_mode))
    {
      /* A FIFO would block a scanner that opens it, a device could be
         anything: only regular files are scanned, and the scanners that
         walk the directory themselves are told to skip these.  */
      _cleanup_free_ char *q = quoted_path (rel);
      ash_strvec_push_nodup (&s->leaving, rel);
      ash_strvec_push (&s->specials, rel);
      warning_push (
        s, xasprintf (_ ("Not scanning '%s': not a regular file (%s)"), q,
                      S_ISFIFO (st.st_mode)   ? _ ("a FIFO")
                      : S_ISSOCK (st.st_mode) ? _ ("a socket")
                      : S_ISCHR (st.st_mode)  ? _ ("a character device")
                      : S_ISBLK (st.st_mode)  ? _ ("a block device")
                                              : _ ("an unknown type")));
      return 0;
    }
  if (w->max_file_size && (unsigned long long) st.st_size > w->max_file_size)
    {
      _cleanup_free_ char *q = quoted_path (rel);
      ash_strvec_push_nodup (&s->leaving, rel);
      warning_push (s,
                    xasprintf (_ ("Not scanning '%s': %lld bytes is more than "
                                  "global_settings.max_file_size (%llu)"),
                               q, (long long) st.st_size, w->max_file_size));
      return 0;
    }
  ash_strvec_push_nodup (&s->files, rel);
  return 0;
}

/* One entry, and what it adds to UNLISTED: the entry itself when the
   walk put it in ALL but not in FILES (a directory, an ignored file, a
   link that leaves, a special or large file).  A directory that is
   walked is put there by walk_entry_1, before what lies below it, so
   that UNLISTED is in the order of ALL (and mostly sorted already for
   the scan's sort).  */
static int
walk_entry (struct walk *w, int dfd, const char *rel_dir, size_t ldir,
            const char *name, unsigned char dtype, bool ignored, int depth)
{
  struct ash_scanset *s = w->s;
  size_t nall = s->all.nr, nfiles = s->files.nr, nun = s->unlisted.nr;
  int r = walk_entry_1 (w, dfd, rel_dir, ldir, name, dtype, ignored, depth);
  if (s->all.nr > nall)
    {
      char *rel = s->all.v[nall];
      if (!(s->files.nr > nfiles && s->files.v[nfiles] == rel)
          && !(s->unlisted.nr > nun && s->unlisted.v[nun] == rel))
        ash_strvec_push_nodup (&s->unlisted, rel);
    }
  return r;
}

/* The entries of the directory DFD but "." and "..", into *RET_ENTS
   (*RET_N of them), their names in *RET_NAMES (one allocation for all;
   the caller frees both).  Where getdents64() is there, the records are
   read into one buffer, large enough for most directories in one call,
   and the names are used where they lie.  A negative errno on failure.  */
static int
list_dir (int dfd, char **ret_names, struct dent **ret_ents, size_t *ret_n)
{
  struct dent *ents = NULL;
  size_t n = 0, alloc = 0;
#if HAVE_GETDENTS64
  size_t size = (size_t) 32 << 10, len = 0;
  char *buf = xmalloc (size);
  for (;;)
    {
      if (size - len < ((size_t) 8 << 10))
        {
          size *= 2;
          buf = xrealloc (buf, size);
        }
      ssize_t got = getdents64 (dfd, buf + len, size - len);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int e = errno;
          free (buf);
          return -e;
        }
      if (got == 0)
        break;
      len += (size_t) got;
    }
  for (size_t off = 0; off < len;)
    {
      /* The records are read in place, field by field.  */
      const char *rec = buf + off;
      unsigned short reclen;
      memcpy (&reclen, rec + offsetof (struct dirent64, d_reclen),
              sizeof reclen);
      if (reclen == 0 || reclen > len - off)
        break;
      off += reclen;
      const char *name = rec + offsetof (struct dirent64, d_name);
      if (name[0] == '.'
          && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
        continue;
      if (n == alloc)
        {
          alloc = alloc ? 2 * alloc : 64;
          ents = xreallocarray (ents, alloc, sizeof *ents);
        }
      ents[n].name = name;
      ents[n].type = (unsigned char) rec[offsetof (struct dirent64, d_type)];
      n++;
    }
  *ret_names = buf;
#else
  int dup_fd = dup (dfd);
  DIR *d = dup_fd < 0 ? NULL : fdopendir (dup_fd);
  if (!d)
    {
      int e = errno;
      if (dup_fd >= 0)
        ash_close (dup_fd);
      return -e;
    }
  struct ash_buf names = ASH_BUF_INIT;
  struct dirent *de;
  errno = 0;
  while ((de = readdir (d)))
    {
      if (!streq (de->d_name, ".") && !streq (de->d_name, ".."))
        {
          if (n == alloc)
            {
              alloc = alloc ? 2 * alloc : 64;
              ents = xreallocarray (ents, alloc, sizeof *ents);
            }
          ents[n].off = names.len;
          ents[n].type = de->d_type;
          ash_buf_add (&names, de->d_name, strlen (de->d_name) + 1);
          n++;
        }
      errno = 0;
    }
  int e = errno;
  closedir (d);
  if (e)
    {
      ash_buf_release (&names);
      free (ents);
      return -e;
    }
  /* The buffer no longer moves.  */
  for (size_t i = 0; i < n; i++)
    ents[i].name = names.buf + ents[i].off;
  *ret_names = ash_buf_detach (&names);
#endif
  *ret_ents = ents;
  *ret_n = n;
  return 0;
}

/* Walk the directory DFD (takes ownership), REL_DIR (LDIR bytes)
   relative to the source directory ("" for the top).  IGNORED:
   everything below is ignored already, and only screened for links.  */
static int
walk_dir (struct walk *w, int dfd, const char *rel_dir, size_t ldir,
          bool ignored, int depth)
{
  if (depth > SCANSET_MAX_DEPTH)
    {
      ash_close (dfd);
      return ash_error_set (w->err, -ELOOP,
                            _ ("%s is nested more than %d directories deep"),
                            rel_dir, SCANSET_MAX_DEPTH);
    }
  size_t nrules = w->rules.nr;
  char *names = NULL;
  struct dent *ents = NULL;
  size_t n = 0;
  int r = list_dir (dfd, &names, &ents, &n);
  if (r < 0)
    {
      ash_close (dfd);
      return ash_error_set (w->err, r, _ ("cannot list %s: %s"),
                            *rel_dir ? rel_dir : ".", strerror (-r));
    }
  /* The ignore files are read before any entry is looked at, and only
     those the listing holds are opened.  */
  if (!ignored)
    {
      bool git = false, ash = false;
      for (size_t i = 0; i < n; i++)
        if (ents[i].name[0] == '.')
          {
            git |= streq (ents[i].name, ".gitignore");
            ash |= streq (ents[i].name, ".ashignore");
          }
      if (git)
        r = read_ignore_file (w, dfd, rel_dir, ".gitignore");
      if (r == 0 && ash)
        r = read_ignore_file (w, dfd, rel_dir, ".ashignore");
    }
  /* Sorted by name through pointers, which qsort moves cheaply.  */
  struct dent **order = xreallocarray (NULL, n ? n : 1, sizeof *order);
  for (size_t i = 0; i < n; i++)
    order[i] = &ents[i];
  if (n > 1)
    qsort (order, n, sizeof *order, dent_cmp);
  for (size_t i = 0; r == 0 && i < n; i++)
    r = walk_entry (w, dfd, rel_dir, ldir, order[i]->name, order[i]->type,
                    ignored, depth);
  free (order);
  free (names);
  free (ents);
  ash_close (dfd);
  rules_truncate (&w->rules, nrules);
  return r;
}

void
ash_scanset_release (struct ash_scanset *s)
{
  if (!s)
    return;
  free (s->source_dir);
  free (s->real_source_dir);
  borrowed_release (&s->files);
  ash_strvec_release (&s->ignored);
  borrowed_release (&s->leaving);
  borrowed_release (&s->warnings);
  borrowed_release (&s->all);
  ash_strvec_release (&s->specials);
  borrowed_release (&s->unlisted);
  while (s->paths)
    {
      struct ash_scanset_paths *next = s->paths->next;
      free (s->paths);
      s->paths = next;
    }
  s->source_dir = s->real_source_dir = NULL;
}

int
ash_scanset_build (int srcfd, const char *source_dir,
                   const struct ash_scanset_opts *opts,
                   struct ash_scanset *ret, struct ash_error *err)
{
  struct ash_scanset s = ASH_SCANSET_INIT;
  struct walk w;
  memset (&w, 0, sizeof w);
  ash_buf_init (&w.key);
  ash_buf_init (&w.warn);
  w.s = &s;
  w.err = err;
  w.max_file_size = opts ? opts->max_file_size : 0;
  s.source_dir = ash_path_absolute (source_dir);
  s.real_source_dir = realpath (s.source_dir, NULL);
  if (!s.real_source_dir)
    {
      int r = ash_error_set (err, -errno,
                             _ ("cannot resolve the source "
                                "directory %s: %s"),
                             s.source_dir, strerror (errno));
      ash_scanset_release (&s);
      return r;
    }
  if (opts && opts->output_dir)
    {
      struct stat st;
      if (stat (opts->output_dir, &st) == 0)
        {
          w.have_out = true;
          w.out_dev = st.st_dev;
          w.out_ino = st.st_ino;
        }
    }
  for (size_t i = 0; opts && i < opts->n_ignore_paths; i++)
    {
      const struct ash_ignore_path *ip = &opts->ignore_paths[i];
      if (!ip->path)
        continue;
      _cleanup_free_ char *origin
        = ip->reason
            ? xasprintf ("global_settings.ignore_paths: %s (%s)", ip->path,
                         ip->reason)
            : xasprintf ("global_settings.ignore_paths: %s", ip->path);
      /* ignore_paths are paths relative to the source directory.  */
      _cleanup_free_ char *pat = ip->path[0] == '/' || !strchr (ip->path, '/')
                                   ? xstrdup (ip->path)
                                   : xasprintf ("/%s", ip->path);
      rules_add_line (&w.global, pat, "", origin);
    }

  int dfd = openat (srcfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int r;
  rule_tries = 0;
  if (dfd < 0)
    r = ash_error_set (err, -errno, _ ("cannot open %s: %s"), s.source_dir,
                       strerror (errno));
  else
    r = walk_dir (&w, dfd, "", 0, false, 0);
  rules_release (&w.rules);
  rules_release (&w.global);
  link_cache_release (&w.dirs);
  link_cache_release (&w.targets);
  ash_buf_release (&w.key);
  ash_buf_release (&w.warn);
  if (r < 0)
    {
      ash_scanset_release (&s);
      return r;
    }
  /* The walk lists each directory's entries in order, so that FILES is
     often sorted already (not always: "a/x" comes after "a.txt").  */
  bool sorted = true;
  for (size_t i = 1; sorted && i < s.files.nr; i++)
    sorted = strcmp (s.files.v[i - 1], s.files.v[i]) <= 0;
  if (!sorted)
    ash_strvec_sort (&s.files);
  ash_strvec_sort (&s.leaving);
  s.rule_tries = rule_tries;
  ash_scanset_release (ret);
  *ret = s;
  return 0;
}

/* Write the files list below OUTDIRFD as it is made, 256 KiB at a time:
   however large the scan set, the buffer stays that size.  */
static int
write_files_list (const struct ash_scanset *s, int outdirfd,
                  struct ash_error *err)
{
  struct ash_tree_file f = ASH_TREE_FILE_INIT;
  int r = ash_tree_file_create (outdirfd, "ash-scan-set-files-list.txt", 0644,
                                &f, err);
  if (r < 0)
    return r;
  struct ash_buf b = ASH_BUF_INIT, abs = ASH_BUF_INIT;
  for (size_t i = 0; r == 0 && i <= s->files.nr; i++)
    {
      if (i < s->files.nr)
        {
          ash_buf_reset (&abs);
          ash_buf_addstr (&abs, s->source_dir);
          ash_buf_addch (&abs, '/');
          ash_buf_addstr (&abs, s->files.v[i]);
          add_quoted_path (&b, abs.buf);
          ash_buf_addch (&b, '\n');
        }
      if ((i == s->files.nr || b.len >= ((size_t) 256 << 10)) && b.len > 0)
        {
          int w = ash_write_all (f.fd, b.buf, b.len);
          if (w < 0)
            r = ash_error_set (err, w, _ ("cannot write %s: %s"), f.path,
                               strerror (-w));
          ash_buf_reset (&b);
        }
    }
  ash_buf_release (&abs);
  ash_buf_release (&b);
  if (r < 0)
    {
      ash_tree_file_abort (&f);
      return r;
    }
  return ash_tree_file_commit (&f, err);
}

int
ash_scanset_write_reports (const struct ash_scanset *s, int outdirfd,
                           struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  int r = write_files_list (s, outdirfd, err);
  for (size_t i = 0; r == 0 && i < s->ignored.nr; i++)
    ash_buf_addf (&b, "%s\n", s->ignored.v[i]);
  if (r == 0)
    r = ash_tree_write_file (outdirfd, "ash-ignore-report.txt", b.buf, b.len,
                             0644, err);
  ash_buf_release (&b);
  return r;
}

/* ---- Exclusion options ----------------------------------------------- */

static int
not_excludable (struct ash_error *err, const char *scanner, const char *link,
                const char *why)
{
  _cleanup_free_ char *q = quoted_path (link);
  int r = ash_error_set (err, -EINVAL,
                         _ ("%s was not run on the source directory: the "
                            "link '%s' leaves the scanned tree, and %s"),
                         scanner, q, why);
  if (err)
    err->kind = ASH_KIND_LINK_NOT_EXCLUDABLE;
  return r;
}

/* Which leaving link another path of the tree holds (as a substring of
   its relative or absolute form), found for all the links at once: an
   Aho-Corasick automaton over the links, run once over the source
   directory's prefix and then over each path from the state that prefix
   left it in, so that the work is linear in the length of the paths and
   of the links rather than their product.  */

struct ac_node
{
  int fail; /* longest proper suffix that is a node */
  int out;  /* nearest node on the fail chain that ends a link, or -1 */
  int link; /* the link that ends here, or -1 */
  int emit; /* this node when it ends a link, else OUT: the first of the
               links that end on reaching it */
};

struct ac
{
  struct ac_node *n;
  size_t nr, alloc;
  int *parent;         /* while it is built: each node's parent */
  unsigned char *byte; /* and the byte that leads there from it */
  /* Each node's children side by side (those of node U are
     KIDS[FIRST[U]] to KIDS[FIRST[U + 1] - 1], on the bytes KIDC), so
     that following a path reads memory in order, and the root's
     children by byte (0 for none), where every failure chain ends.  */
  size_t *first;
  int *kids;
  unsigned char *kidc;
  int root[256];
};

static int
ac_new_node (struct ac *a, int parent, unsigned char c)
{
  if (a->nr == a->alloc)
    {
      a->alloc = a->alloc ? a->alloc * 2 : 256;
      a->n = xreallocarray (a->n, a->alloc, sizeof *a->n);
      a->parent = xreallocarray (a->parent, a->alloc, sizeof *a->parent);
      a->byte = xrealloc (a->byte, a->alloc);
    }
  a->n[a->nr] = (struct ac_node){ 0, -1, -1, -1 };
  a->parent[a->nr] = parent;
  a->byte[a->nr] = c;
  return (int) a->nr++;
}

/* A link and its index, to take the links in the order of their text.  */
struct ac_word
{
  const char *w;
  size_t i;
};

static int
ac_word_cmp (const void *x, const void *y)
{
  return strcmp (((const struct ac_word *) x)->w,
                 ((const struct ac_word *) y)->w);
}

/* The trie of the M words W[0].w, W[1].w, ... (in strcmp order, none
   empty), word W[k].i ending at a node whose link is the first of them:
   each word shares the nodes of its common prefix with the word before
   it, which lie on the path that word took, so that the build is a walk
   down the words with no lookup at all.  Then each node's children side
   by side, from the parent each node was made under.  */
static void
ac_build (struct ac *a, const struct ac_word *w, size_t m)
{
  size_t path_alloc = 64;
  int *path = xmalloc (path_alloc * sizeof *path);
  path[0] = ac_new_node (a, -1, 0);
  const char *prev = "";
  size_t prev_len = 0;
  for (size_t k = 0; k < m; k++)
    {
      const char *word = w[k].w;
      size_t l = 0;
      while (l < prev_len && prev[l] == word[l])
        l++;
      size_t len = l + strlen (word + l);
      if (len + 1 > path_alloc)
        {
          while (len + 1 > path_alloc)
            path_alloc *= 2;
          path = xreallocarray (path, path_alloc, sizeof *path);
        }
      for (size_t d = l; d < len; d++)
        path[d + 1] = ac_new_node (a, path[d], (unsigned char) word[d]);
      if (a->n[path[len]].link < 0)
        a->n[path[len]].link = (int) w[k].i;
      prev = word;
      prev_len = len;
    }
  free (path);

  /* A node's children were made in order; every node but the root is
     one of them.  */
  size_t *first = xcalloc (a->nr + 1, sizeof *first);
  for (size_t v = 1; v < a->nr; v++)
    first[a->parent[v] + 1]++;
  for (size_t u = 0; u < a->nr; u++)
    first[u + 1] += first[u];
  size_t nk = a->nr > 1 ? a->nr - 1 : 1;
  int *kids = xmalloc (nk * sizeof *kids);
  unsigned char *kidc = xmalloc (nk);
  size_t *fill = xmalloc (a->nr * sizeof *fill);
  memcpy (fill, first, a->nr * sizeof *fill);
  for (size_t v = 1; v < a->nr; v++)
    {
      size_t k = fill[a->parent[v]]++;
      kids[k] = (int) v;
      kidc[k] = a->byte[v];
    }
  free (fill);
  free (a->parent);
  free (a->byte);
  a->parent = NULL;
  a->byte = NULL;
  a->first = first;
  a->kids = kids;
  a->kidc = kidc;
}

/* The child of U on byte C, or -1; a node has at most 256 of them.  */
static int
ac_kid (const struct ac *a, int u, unsigned char c)
{
  for (size_t k = a->first[u]; k < a->first[u + 1]; k++)
    if (a->kidc[k] == c)
      return a->kids[k];
  return -1;
}

/* The fail and output links, breadth first.  */
static void
ac_finish (struct ac *a)
{
  int *queue = xcalloc (a->nr, sizeof *queue);
  size_t head = 0, tail = 0;
  const size_t *first = a->first;
  const int *kids = a->kids;
  const unsigned char *kidc = a->kidc;

  for (int c = 0; c < 256; c++)
    a->root[c] = 0;
  for (size_t k = first[0]; k < first[1]; k++)
    a->root[kidc[k]] = kids[k];
  queue[tail++] = 0;
  while (head < tail)
    {
      int u = queue[head++];
      for (size_t k = first[u]; k < first[u + 1]; k++)
        {
          int v = kids[k];
          int f = 0;
          if (u != 0)
            {
              int x = a->n[u].fail;
              for (;;)
                {
                  int c = ac_kid (a, x, kidc[k]);
                  if (c >= 0)
                    {
                      f = c;
                      break;
                    }
                  if (x == 0)
                    break;
                  x = a->n[x].fail;
                }
            }
          a->n[v].fail = f;
          a->n[v].out = a->n[f].emit;
          a->n[v].emit = a->n[v].link >= 0 ? v : a->n[v].out;
          queue[tail++] = v;
        }
    }
  free (queue);
}

static int
ac_step (const struct ac *a, int state, unsigned char c)
{
  for (; state != 0; state = a->n[state].fail)
    {
      int next = ac_kid (a, state, c);
      if (next >= 0)
        return next;
    }
  return a->root[c];
}

/* The length of the longest tail of PREFIX that begins one of the M words
   W (in strcmp order): how far into PREFIX a word held across its end
   can start.  The words that begin with a string are side by side,
   from the first word not below it.  */
static size_t
prefix_tail_depth (const char *prefix, size_t n, const struct ac_word *w,
                   size_t m)
{
  for (size_t k = n; k > 0; k--)
    {
      const char *tail = prefix + n - k;
      size_t lo = 0, hi = m;
      while (lo < hi)
        {
          size_t mid = lo + (hi - lo) / 2;
          if (strcmp (w[mid].w, tail) < 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo < m && strncmp (w[lo].w, tail, k) == 0)
        return k;
    }
  return 0;
}

/* For each leaving link i, HOLDER[i]: another path of the tree that holds
   it, or NULL.

   A path holds a link in its absolute form, the source directory's path
   with a slash before it.  An occurrence that ends in the path starts at
   most DEPTH bytes into that prefix (prefix_tail_depth), so a path of
   fewer than the shortest link's length less DEPTH bytes holds none,
   and with DEPTH 0 neither does one of that length (it would be the link
   itself); such paths are not read.  When no link fits inside the prefix
   and no path is long enough, nothing is held, and the automaton is not
   built at all.  */
static void
paths_holding (const struct ash_scanset *s, const char **holder)
{
  struct ac a = { 0 };
  size_t m = s->leaving.nr, left = 0, nw = 0;
  size_t min_len = SIZE_MAX;

  /* The links in the order of their text, which the scan set's list
     already is.  */
  struct ac_word *words = xcalloc (m ? m : 1, sizeof *words);
  bool sorted = true;
  for (size_t i = 0; i < m; i++)
    {
      holder[i] = NULL;
      size_t len = strlen (s->leaving.v[i]);
      if (len == 0)
        continue;
      if (len < min_len)
        min_len = len;
      if (nw && strcmp (words[nw - 1].w, s->leaving.v[i]) > 0)
        sorted = false;
      words[nw++] = (struct ac_word){ s->leaving.v[i], i };
    }
  left = nw;
  if (nw == 0)
    {
      free (words);
      return;
    }
  if (!sorted)
    qsort (words, nw, sizeof *words, ac_word_cmp);

  _cleanup_free_ char *prefix = ash_path_join (s->source_dir, "");
  size_t plen = strlen (prefix);
  size_t depth = prefix_tail_depth (prefix, plen, words, nw);
  size_t need = depth == 0         ? min_len + 1
                : depth >= min_len ? 0
                                   : min_len - depth;
  size_t longest = 0;
  for (size_t j = 0; j < s->all.nr && longest < need; j++)
    {
      size_t l = strlen (s->all.v[j]);
      if (l > longest)
        longest = l;
    }
  /* No path is long enough to hold a link in an occurrence that ends
     inside it, and none fits inside the prefix either.  */
  if (longest < need && min_len > plen)
    {
      free (words);
      return;
    }

  bool *in_prefix = xcalloc (m, sizeof *in_prefix);
  int start = 0;
  if (longest < need)
    {
      /* Only the source directory's own path can hold a link: each link
         that fits in it is looked for there, and the automaton, which
         would be read over that one path alone, is not built.  A link
         with a byte the path does not have is not looked for.  */
      bool in_path[256] = { false };
      for (const unsigned char *p = (const unsigned char *) prefix; *p; p++)
        in_path[*p] = true;
      for (size_t k = 0; k < nw; k++)
        {
          const unsigned char *w = (const unsigned char *) words[k].w;
          size_t len = 0;
          while (w[len] && in_path[w[len]])
            len++;
          if (!w[len] && len <= plen && memmem (prefix, plen, w, len))
            in_prefix[words[k].i] = true;
        }
    }
  else
    {
      ac_build (&a, words, nw);
      ac_finish (&a);
      /* A link held by the source directory's own path (with the slash
         after it) is held by the absolute form of every other path.  */
      for (const unsigned char *p = (const unsigned char *) prefix; *p; p++)
        {
          start = ac_step (&a, start, *p);
          for (int o = a.n[start].emit; o >= 0; o = a.n[o].out)
            in_prefix[a.n[o].link] = true;
        }
    }
  for (size_t i = 0; i < m; i++)
    if (in_prefix[i])
      for (size_t j = 0; j < s->all.nr && !holder[i]; j++)
        if (!streq (s->all.v[j], s->leaving.v[i]))
          holder[i] = s->all.v[j];
  for (size_t i = 0; i < m; i++)
    if (holder[i])
      left--;

  /* Every other occurrence ends inside a path; the absolute form holds
     whatever the relative one does.  Identical links share a node, which
     names the first of them; the others take its holder below.  A path
     in the same directory as the one before it that was read starts from
     the state that directory's name left the automaton in: what ends
     inside the name was found in the earlier path (never the link
     itself, which is longer than a directory above it), so only the last
     component is read again.  */
  const char *prev = NULL;
  size_t prev_dir = 0;
  int dir_state = start;
  for (size_t j = 0; longest >= need && j < s->all.nr && left > 0; j++)
    {
      const char *path = s->all.v[j];
      size_t len = strlen (path);
      if (len < need)
        continue;
      const char *last = memrchr (path, '/', len);
      size_t dir = last ? (size_t) (last - path) + 1 : 0;
      int state = start;
      size_t i = 0;
      if (prev && dir && dir == prev_dir && memcmp (path, prev, dir) == 0)
        {
          state = dir_state;
          i = dir;
        }
      for (; i < len; i++)
        {
          state = ac_step (&a, state, (unsigned char) path[i]);
          for (int o = a.n[state].emit; o >= 0; o = a.n[o].out)
            {
              int id = a.n[o].link;
              if (!holder[id] && !streq (path, s->leaving.v[id]))
                {
                  holder[id] = path;
                  left--;
                }
            }
          if (i + 1 == dir)
            dir_state = state;
        }
      prev = path;
      prev_dir = dir;
    }
  /* Links with the same text as an earlier one, side by side in WORDS,
     take its holder (only the first of them ends at a node).  */
  for (size_t k = 1; k < nw; k++)
    if (!holder[words[k].i] && streq (words[k].w, words[k - 1].w))
      holder[words[k].i] = holder[words[k - 1].i];
  free (words);
  free (in_prefix);
  free (a.n);
  free (a.first);
  free (a.kids);
  free (a.kidc);
}

static bool
has_line_break (const char *p)
{
  return strpbrk (p, "\n\r") != NULL;
}

char *
ash_scanset_checkov_regex (const char *path)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, "(?:^|/)");
  for (const char *p = path; *p; p++)
    {
      unsigned char c = (unsigned char) *p;
      if (c < 0x20 || c == 0x7f)
        {
          ash_buf_release (&b);
          return NULL;
        }
      if (c == '.')
        ash_buf_addstr (&b, "[.]");
      else
        {
          if (c > 0x20 && c < 0x7f && !(c >= 'a' && c <= 'z')
              && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c != '/'
              && c != '_' && c != '-')
            ash_buf_addch (&b, '\\');
          ash_buf_addch (&b, (char) c);
        }
    }
  ash_buf_addch (&b, '$');
  return ash_buf_detach (&b);
}

static int
strptrcmp (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static bool
is_leaving (const struct ash_scanset *s, const char *path)
{
  return bsearch (&path, s->leaving.v, s->leaving.nr, sizeof *s->leaving.v,
                  strptrcmp)
         != NULL;
}

/* For each leaving link, a path of the tree that ends with "/" and the
   link's path and is not itself left out as leaving (checkov's
   --skip-path for the link would skip it too), or NULL: the links looked
   up among the sorted proper suffixes of every walked path.  */
static void
paths_ending_with (const struct ash_scanset *s, const char **holder)
{
  size_t n = 0, cap = 0;
  const char **suf = NULL;
  for (size_t i = 0; i < s->all.nr; i++)
    for (const char *p = strchr (s->all.v[i], '/'); p; p = strchr (p + 1, '/'))
      {
        if (n == cap)
          {
            cap = cap ? 2 * cap : 64;
            suf = xreallocarray (suf, cap, 2 * sizeof *suf);
          }
        suf[2 * n] = p + 1;
        suf[2 * n + 1] = s->all.v[i];
        n++;
      }
  if (n)
    qsort (suf, n, 2 * sizeof *suf, strptrcmp);
  for (size_t i = 0; i < s->leaving.nr; i++)
    {
      const char *key = s->leaving.v[i];
      const char **hit
        = n ? bsearch (&key, suf, n, 2 * sizeof *suf, strptrcmp) : NULL;
      holder[i] = NULL;
      if (hit == NULL)
        continue;
      while (hit > suf && streq (hit[-2], key))
        hit -= 2;
      for (; hit < suf + 2 * n && streq (hit[0], key); hit += 2)
        if (!is_leaving (s, hit[1]))
          {
            holder[i] = hit[1];
            break;
          }
    }
  free (suf);
}

/* Escape glob characters with a backslash (grype, syft, trivy).  */
static char *
glob_escape (const char *p)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (; *p; p++)
    {
      if (strchr ("*?[]{}\\", *p))
        ash_buf_addch (&b, '\\');
      ash_buf_addch (&b, *p);
    }
  return ash_buf_detach (&b);
}

static int
substring_scanner (const struct ash_scanset *s, const char *scanner,
                   const char *option, bool refuse_glob,
                   struct ash_strvec *ret, struct ash_error *err)
{
  struct ash_buf b = ASH_BUF_INIT;
  _cleanup_free_ const char **holders
    = xcalloc (s->leaving.nr ? s->leaving.nr : 1, sizeof *holders);
  paths_holding (s, holders);
  for (size_t i = 0; i < s->leaving.nr; i++)
    {
      const char *l = s->leaving.v[i];
      const char *why = NULL;
      _cleanup_free_ char *why_buf = NULL;
      /* One pass over the path for the characters the option cannot
         hold, told in this order.  */
      bool comma = false, brk = false, glob = false;
      for (const char *p = l; *p; p++)
        switch (*p)
          {
          case ',':
            comma = true;
            break;
          case '\n':
          case '\r':
            brk = true;
            break;
          case '*':
          case '?':
          case '[':
            glob = true;
            break;
          default:
            break;
          }
      if (comma)
        why = _ ("its path holds a comma, which separates the values of "
                 "that option");
      else if (brk)
        why = _ ("its path holds a line break");
      else if (refuse_glob && glob)
        why = _ ("its path holds a glob character (* ? [)");
      else
        {
          const char *h = holders[i];
          if (h)
            {
              _cleanup_free_ char *qh = quoted_path (h);
              why = why_buf
                = xasprintf (_ ("the path '%s' holds its path, and that "
                                "option matches any path that holds the "
                                "value"),
                             qh);
            }
        }
      if (why)
        {
          ash_buf_release (&b);
          _cleanup_free_ char *full
            = xasprintf (_ ("%s's %s cannot name it alone: %s"), scanner,
                         option, why);
          return not_excludable (err, scanner, l, full);
        }
      if (b.len)
        ash_buf_addch (&b, ',');
      ash_buf_addstr (&b, l);
    }
  if (b.len)
    {
      ash_strvec_push (ret, option);
      ash_strvec_push_nodup (ret, ash_buf_detach (&b));
    }
  ash_buf_release (&b);
  return 0;
}

int
ash_scanset_exclusion_args (const struct ash_scanset *s, const char *scanner,
                            struct ash_strvec *ret_args, struct ash_error *err)
{
  struct ash_strvec args = ASH_STRVEC_INIT;
  int r = 0;

  if (streq (scanner, "bandit"))
    r = substring_scanner (s, scanner, "--exclude", true, &args, err);
  else if (streq (scanner, "ferret-scan"))
    r = substring_scanner (s, scanner, "--exclude", false, &args, err);
  else if (streq (scanner, "checkov"))
    {
      _cleanup_free_ const char **enders
        = xcalloc (s->leaving.nr ? s->leaving.nr : 1, sizeof *enders);
      paths_ending_with (s, enders);
      for (size_t i = 0; r == 0 && i < s->leaving.nr; i++)
        {
          const char *l = s->leaving.v[i];
          char *re = ash_scanset_checkov_regex (l);
          if (re == NULL || enders[i])
            {
              free (re);
              _cleanup_free_ char *qe
                = enders[i] ? quoted_path (enders[i]) : NULL;
              _cleanup_free_ char *why
                = enders[i]
                    ? xasprintf (_ ("checkov's --skip-path cannot name it "
                                    "alone: the path '%s' ends with its "
                                    "path, and that option skips every path "
                                    "that ends with the value"),
                                 qe)
                    : xstrdup (has_line_break (l)
                                 ? _ ("checkov's --skip-path cannot name it: "
                                      "its path holds a line break")
                                 : _ ("checkov's --skip-path cannot name it: "
                                      "its path holds a control character"));
              r = not_excludable (err, scanner, l, why);
              break;
            }
          ash_strvec_push (&args, "--skip-path");
          ash_strvec_push_nodup (&args, re);
        }
    }
  else if (streq (scanner, "grype") || streq (scanner, "syft"))
    for (size_t i = 0; i < s->leaving.nr; i++)
      {
        _cleanup_free_ char *e = glob_escape (s->leaving.v[i]);
        ash_strvec_push (&args, "--exclude");
        ash_strvec_pushf (&args, "./%s", e);
      }
  else if (streq (scanner, "trivy-repo"))
    for (size_t i = 0; i < s->leaving.nr; i++)
      {
        _cleanup_free_ char *e = glob_escape (s->leaving.v[i]);
        ash_strvec_push (&args, "--skip-files");
        if (strpbrk (e, ",\"") || has_line_break (e))
          {
            /* trivy splits the value as one CSV record.  */
            struct ash_buf b = ASH_BUF_INIT;
            ash_buf_addch (&b, '"');
            for (const char *p = e; *p; p++)
              {
                if (*p == '"')
                  ash_buf_addch (&b, '"');
                ash_buf_addch (&b, *p);
              }
            ash_buf_addch (&b, '"');
            ash_strvec_push_nodup (&args, ash_buf_detach (&b));
          }
        else
          ash_strvec_push (&args, e);
      }

  if (r == 0)
    ash_strvec_pushv (ret_args, args.v);
  ash_strvec_release (&args);
  return r;
}
