/* SPDX-License-Identifier: Apache-2.0 */
/* version.c -- tool versions and version constraints.  */

#include <config.h>

#include "base/version.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* A number of at most 9 digits at *P (advanced past it).  */
static bool
number (const char **p, unsigned long *ret)
{
  const char *s = *p;
  unsigned long v = 0;
  size_t n = 0;
  while (isdigit ((unsigned char) s[n]))
    {
      if (n == 9)
        return false;
      v = v * 10 + (unsigned long) (s[n] - '0');
      n++;
    }
  if (n == 0)
    return false;
  *p = s + n;
  *ret = v;
  return true;
}

static bool
word_at (const char *s, const char *w)
{
  size_t n = strlen (w);
  return strncasecmp (s, w, n) == 0 && !isalpha ((unsigned char) s[n]);
}

/* The phase a suffix names, its letters skipped; *KNOWN tells whether
   it was one of them.  */
static int
suffix_phase (const char **p, bool *known)
{
  static const struct
  {
    const char *word;
    int phase;
  } words[] = {
    { "dev", -4 }, { "alpha", -3 },   { "a", -3 },   { "beta", -2 },
    { "b", -2 },   { "preview", -1 }, { "pre", -1 }, { "rc", -1 },
    { "c", -1 },   { "post", 1 },     { "rev", 1 },  { "r", 1 },
  };
  for (size_t i = 0; i < ARRAY_SIZE (words); i++)
    if (word_at (*p, words[i].word))
      {
        *p += strlen (words[i].word);
        *known = true;
        return words[i].phase;
      }
  *known = false;
  return -1;
}

/* Parse the version at S into *RET; the end of what was read, or NULL
   when S does not start with a version.  *STRICT tells whether S is
   wholly a version in the constraints' grammar (numbers, a known suffix
   and its number, a local part of letters, digits and dots).  */
static const char *
parse_at (const char *s, struct ash_version *ret, bool *strict)
{
  struct ash_version v = { .n = 0 };
  const char *p = s;
  bool known = true;
  if (*p == 'v' || *p == 'V')
    p++;
  if (!number (&p, &v.release[0]))
    return NULL;
  v.n = 1;
  while (*p == '.' && isdigit ((unsigned char) p[1]))
    {
      unsigned long x;
      p++;
      if (!number (&p, &x))
        return NULL;
      if (v.n < ASH_VERSION_MAX_PARTS)
        v.release[v.n++] = x;
    }
  if (*p && *p != '+')
    {
      if (*p == '.' || *p == '-' || *p == '_')
        p++;
      v.phase = suffix_phase (&p, &known);
      if (*p == '.' || *p == '-' || *p == '_')
        p++;
      unsigned long x;
      if (number (&p, &x))
        v.seq = x;
    }
  if (*p == '+')
    {
      p++;
      size_t n = strspn (p, "abcdefghijklmnopqrstuvwxyz"
                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.");
      known = known && n > 0;
      p += n;
    }
  *strict = known && *p == '\0' && v.n < ASH_VERSION_MAX_PARTS;
  *ret = v;
  return p;
}

int
ash_version_parse (const char *s, struct ash_version *ret)
{
  bool strict;
  return parse_at (s, ret, &strict) ? 0 : -EINVAL;
}

int
ash_version_compare (const struct ash_version *a, const struct ash_version *b)
{
  size_t n = a->n > b->n ? a->n : b->n;
  for (size_t i = 0; i < n; i++)
    {
      unsigned long x = i < a->n ? a->release[i] : 0;
      unsigned long y = i < b->n ? b->release[i] : 0;
      if (x != y)
        return x < y ? -1 : 1;
    }
  if (a->phase != b->phase)
    return a->phase < b->phase ? -1 : 1;
  if (a->seq != b->seq)
    return a->seq < b->seq ? -1 : 1;
  return 0;
}

enum op
{
  OP_EQ,
  OP_NE,
  OP_LE,
  OP_GE,
  OP_LT,
  OP_GT,
  OP_COMPAT,
  OP_ARBITRARY,
};

struct clause
{
  enum op op;
  bool prefix; /* "==1.2.*" */
  struct ash_version v;
  char text[72]; /* the version as written, for "===" */
};

/* Parse the clause of TEXT (LEN bytes, spaces trimmed).  */
static bool
clause_parse (const char *text, size_t len, struct clause *c)
{
  static const struct
  {
    const char *s;
    enum op op;
  } ops[] = {
    { "===", OP_ARBITRARY }, { "~=", OP_COMPAT }, { "==", OP_EQ },
    { "!=", OP_NE },         { "<=", OP_LE },     { ">=", OP_GE },
    { "<", OP_LT },          { ">", OP_GT },
  };
  size_t k;
  for (k = 0; k < ARRAY_SIZE (ops); k++)
    if (len >= strlen (ops[k].s) && strneq (text, ops[k].s, strlen (ops[k].s)))
      break;
  if (k == ARRAY_SIZE (ops))
    return false;
  c->op = ops[k].op;
  text += strlen (ops[k].s);
  len -= strlen (ops[k].s);
  while (len > 0 && *text == ' ')
    text++, len--;
  if (len == 0 || len >= sizeof c->text)
    return false;
  memcpy (c->text, text, len);
  c->text[len] = '\0';
  for (size_t i = 0; i < len; i++)
    if (isspace ((unsigned char) c->text[i])
        || !isprint ((unsigned char) c->text[i]))
      return false;
  if (c->op == OP_ARBITRARY)
    return true;
  c->prefix = false;
  if (len > 2 && streq (c->text + len - 2, ".*"))
    {
      if (c->op != OP_EQ && c->op != OP_NE)
        return false;
      c->prefix = true;
      c->text[len - 2] = '\0';
    }
  /* The version of a clause is numbers and a known suffix only.  */
  const char *p = c->text;
  bool strict;
  if (!isdigit ((unsigned char) *p) || !parse_at (p, &c->v, &strict)
      || !strict)
    return false;
  if (c->prefix)
    {
      /* Only release numbers before ".*".  */
      if (strspn (p, "0123456789.") != strlen (p))
        return false;
    }
  if (c->op == OP_COMPAT && c->v.n < 2)
    return false;
  if (c->prefix)
    c->text[len - 2] = '.';
  return true;
}

static bool
clause_match (const struct clause *c, const char *version_text,
              const struct ash_version *v)
{
  if (c->op == OP_ARBITRARY)
    return strcasecmp (c->text, version_text) == 0;
  if (c->prefix)
    {
      bool same = true;
      for (size_t i = 0; i < c->v.n && same; i++)
        same = (i < v->n ? v->release[i] : 0) == c->v.release[i];
      return c->op == OP_EQ ? same : !same;
    }
  int cmp = ash_version_compare (v, &c->v);
  switch (c->op)
    {
    case OP_EQ:
      return cmp == 0;
    case OP_NE:
      return cmp != 0;
    case OP_LE:
      return cmp <= 0;
    case OP_GE:
      return cmp >= 0;
    case OP_LT:
      return cmp < 0;
    case OP_GT:
      return cmp > 0;
    case OP_COMPAT:
      {
        /* ~=X.Y.Z: at least X.Y.Z, and X.Y.* */
        if (cmp < 0)
          return false;
        for (size_t i = 0; i + 1 < c->v.n; i++)
          if ((i < v->n ? v->release[i] : 0) != c->v.release[i])
            return false;
        return true;
      }
    case OP_ARBITRARY:
      break;
    }
  return false;
}

/* Parse each clause of SPEC (KEY names it in an error) and, given a
   version V (VERSION_TEXT as written), set *RET to whether V satisfies
   them all.  */
static int
spec_walk (const char *spec, const char *key, const char *version_text,
           const struct ash_version *v, bool *ret, struct ash_error *err)
{
  const char *p = spec;
  bool all = true;
  size_t clauses = 0;
  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      const char *s = p;
      while (len > 0 && (*s == ' ' || *s == '\t'))
        s++, len--;
      while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
      struct clause c;
      if (!clause_parse (s, len, &c))
        {
          _cleanup_free_ char *bad = xstrndup (s, len < 80 ? len : 80);
          _cleanup_free_ char *safe = ash_escape_control (bad);
          return ash_error_set (
            err, -EINVAL,
            _ ("%s: '%s' is not a version constraint (write clauses such "
               "as >=1.7.0,<2.0.0, ~=3.2 or ==1.2.*)"),
            key, safe);
        }
      clauses++;
      if (v && !clause_match (&c, version_text, v))
        all = false;
      if (comma == NULL)
        break;
      p = comma + 1;
    }
  if (clauses == 0)
    return ash_error_set (err, -EINVAL, _ ("%s is empty"), key);
  if (ret)
    *ret = all;
  return 0;
}

int
ash_version_spec_check (const char *spec, const char *key,
                        struct ash_error *err)
{
  return spec_walk (spec, key, NULL, NULL, NULL, err);
}

int
ash_version_spec_match (const char *spec, const char *version, const char *key,
                        struct ash_error *err)
{
  struct ash_version v;
  bool ok = false;
  int r = spec_walk (spec, key, NULL, NULL, NULL, err);
  if (r < 0)
    return r;
  if (ash_version_parse (version, &v) < 0)
    {
      _cleanup_free_ char *safe = ash_escape_control (version);
      return ash_error_set (err, -EINVAL, _ ("'%s' is not a version"), safe);
    }
  r = spec_walk (spec, key, version, &v, &ok, err);
  if (r < 0)
    return r;
  return ok ? 1 : 0;
}

char *
ash_version_from_output (const char *text)
{
  const char *p = text;
  while (*p && *p != '\n')
    {
      while (*p && *p != '\n' && isspace ((unsigned char) *p))
        p++;
      const char *w = p;
      while (*p && !isspace ((unsigned char) *p))
        p++;
      const char *d
        = ((*w == 'v' || *w == 'V') && isdigit ((unsigned char) w[1])) ? w + 1
                                                                       : w;
      if (d < p && isdigit ((unsigned char) *d))
        {
          size_t n = (size_t) (p - d);
          while (n > 0 && (d[n - 1] == ',' || d[n - 1] == ';'))
            n--;
          return xstrndup (d, n < 64 ? n : 64);
        }
    }
  return NULL;
}
