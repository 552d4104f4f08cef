/* SPDX-License-Identifier: Apache-2.0 */
/* json-fast.c -- a JSON parser that builds the values jansson's would.  */

#include <config.h>

#include "scan/json-fast.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* jansson_config.h says how deep its parser goes (2048 in 2.14): a value
   nested deeper, scalars included, is refused.  */
#ifdef JSON_PARSER_MAX_DEPTH
#define MAX_DEPTH JSON_PARSER_MAX_DEPTH
#else
#define MAX_DEPTH 2048
#endif

#define READ_SIZE ((size_t) 1 << 16)

#define KNOWN_FLAGS                                                           \
  (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL                  \
   | JSON_DECODE_INT_AS_REAL)

/* A growable byte buffer of the parser's own, from malloc rather than
   jansson's allocator: the budget does not count it, but counts instead,
   through the shadow, what jansson's parser would have allocated.  */
struct bytes
{
  char *p;
  size_t len, cap;
};

struct parser
{
  const unsigned char *p, *end; /* what is left of the text read */
  json_load_callback_t read;    /* NULL: the whole text is [p, end) */
  void *arg;
  unsigned char *buf; /* READ_SIZE bytes when READ */
  bool eof;
  int status; /* the first failure, or 0 */
  size_t flags;
  unsigned depth;
  struct bytes tok;  /* a string that needed decoding, a number */
  struct bytes keys; /* the keys of the objects being parsed */
  const struct ash_json_fast_shadow *shadow;
  size_t shadow_cap; /* jansson's token buffer, as it would have grown */
  char point;        /* the locale's decimal point */
  /* The results hook (json-fast.h): the place in a SARIF log of the
     value read next, and the run being read.  */
  const struct ash_json_fast_results *results;
  int role_next;
  size_t run;
};

/* Where a value stands in a SARIF log, for the results hook: the
   top-level object, its "runs" array, a run in it, a run's "results"
   array; anywhere else.  */
enum
{
  ROLE_NONE,
  ROLE_TOP,
  ROLE_WITHIN,
  ROLE_RUNS,
  ROLE_RUN,
  ROLE_RESULTS,
};

static void *
fail (struct parser *ps, int status)
{
  if (ps->status == 0)
    ps->status = status;
  return NULL;
}

static bool
shadow_charge (struct parser *ps, size_t size, size_t ours)
{
  if (ps->shadow == NULL || ps->shadow->charge (size, ours, ps->shadow->arg))
    return true;
  fail (ps, -ENOMEM);
  return false;
}

/* jansson keeps the token being read in a buffer that grows by doubling
   when it is full; PEAK is the most of it a token takes (a string with
   its quotes, a number or a word with the byte read after it).  */
static bool
shadow_token (struct parser *ps, size_t peak)
{
  while (peak >= ps->shadow_cap)
    {
      ps->shadow_cap *= 2;
      if (!shadow_charge (ps, ps->shadow_cap, 0))
        return false;
    }
  return true;
}

static bool
bytes_reserve (struct parser *ps, struct bytes *b, size_t more)
{
  if (b->p && b->cap - b->len >= more)
    return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < more)
    {
      if (cap > SIZE_MAX / 2)
        {
          fail (ps, -ENOMEM);
          return false;
        }
      cap *= 2;
    }
  char *p = realloc (b->p, cap);
  if (p == NULL)
    {
      fail (ps, -ENOMEM);
      return false;
    }
  b->p = p;
  b->cap = cap;
  return true;
}

static bool
bytes_add (struct parser *ps, struct bytes *b, const void *p, size_t n)
{
  if (!bytes_reserve (ps, b, n))
    return false;
  memcpy (b->p + b->len, p, n);
  b->len += n;
  return true;
}

/* The next part of the text; false at its end (or when it cannot be
   read: STATUS says).  */
static bool
fill (struct parser *ps)
{
  if (ps->eof)
    return false;
  if (ps->read == NULL)
    {
      ps->eof = true;
      return false;
    }
  size_t n = ps->read (ps->buf, READ_SIZE, ps->arg);
  if (n == (size_t) -1)
    {
      ps->eof = true;
      fail (ps, -EIO);
      return false;
    }
  if (n == 0)
    {
      ps->eof = true;
      return false;
    }
  if (n > READ_SIZE)
    n = READ_SIZE;
  ps->p = ps->buf;
  ps->end = ps->buf + n;
  return true;
}

/* The next byte without taking it, or -1 at the end.  */
static inline int
peek (struct parser *ps)
{
  if (ps->p == ps->end && !fill (ps))
    return -1;
  return *ps->p;
}

/* The next byte, taken, or -1 at the end.  */
static inline int
next (struct parser *ps)
{
  if (ps->p == ps->end && !fill (ps))
    return -1;
  return *ps->p++;
}

#define ONES UINT64_C (0x0101010101010101)
#define HIGHS UINT64_C (0x8080808080808080)

/* Where the first byte in memory of eight loaded as X stands in X is
   known on a little-endian machine: the lowest lane set in a mask of
   its lanes is the first byte flagged.  */
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIRST_LANE(m) ((size_t) __builtin_ctzll (m) / 8)
#endif

/* The first byte other than a space, tab, newline or carriage return,
   not taken; -1 at the end.  Runs of spaces (indentation) are skipped
   eight at a time.  */
static int
skip_space (struct parser *ps)
{
  for (;;)
    {
      const unsigned char *p = ps->p, *end = ps->end;
      while (p < end)
        {
          unsigned char c = *p;
          if (c == ' ')
            {
              while (end - p >= 8)
                {
                  uint64_t x;
                  memcpy (&x, p, 8);
                  x ^= ONES * ' ';
                  if (x)
                    {
#ifdef FIRST_LANE
                      p += FIRST_LANE (x);
#endif
                      break;
                    }
                  p += 8;
                }
              while (p < end && *p == ' ')
                p++;
            }
          else if (c == '\n' || c == '\r' || c == '\t')
            p++;
          else
            {
              ps->p = p;
              return c;
            }
        }
      ps->p = p;
      if (!fill (ps))
        return -1;
    }
}

/* Bytes that stand for themselves in a string: printable ASCII but the
   quote and the backslash.  */
static inline bool
plain (unsigned char c)
{
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* The end of the run of plain bytes that starts at P, eight at a time:
   a byte below 0x20, a quote, a backslash or a byte with its high bit
   set sets the high bit of its lane in M (a lane above one that does
   may be set too, so the lowest lane set is the first such byte; where
   FIRST_LANE cannot tell it, the byte loop finds it).  */
static inline const unsigned char *
plain_run (const unsigned char *p, const unsigned char *end)
{
  while (end - p >= 8)
    {
      uint64_t x, q, b;
      memcpy (&x, p, 8);
      q = x ^ (ONES * '"');
      b = x ^ (ONES * '\\');
      uint64_t m = (((x - ONES * 0x20) & ~x) | ((q - ONES) & ~q)
                    | ((b - ONES) & ~b) | x)
                   & HIGHS;
      if (m)
        {
#ifdef FIRST_LANE
          return p + FIRST_LANE (m);
#else
          break;
#endif
        }
      p += 8;
    }
  while (p < end && plain (*p))
    p++;
  return p;
}

/* The four hex digits of a \u escape (after the 'u'), or -1.  */
static long
read_hex4 (struct parser *ps, size_t *raw)
{
  long v = 0;
  for (int i = 0; i < 4; i++)
    {
      int d = ash_hex_digit (next (ps));
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  *raw += 4;
  return v;
}

static size_t
utf8_put (unsigned char *out, long cp)
{
  if (cp < 0x80)
    {
      out[0] = (unsigned char) cp;
      return 1;
    }
  if (cp < 0x800)
    {
      out[0] = (unsigned char) (0xc0 | (cp >> 6));
      out[1] = (unsigned char) (0x80 | (cp & 0x3f));
      return 2;
    }
  if (cp < 0x10000)
    {
      out[0] = (unsigned char) (0xe0 | (cp >> 12));
      out[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
      out[2] = (unsigned char) (0x80 | (cp & 0x3f));
      return 3;
    }
  out[0] = (unsigned char) (0xf0 | (cp >> 18));
  out[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3f));
  out[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
  out[3] = (unsigned char) (0x80 | (cp & 0x3f));
  return 4;
}

/* An escape, after its backslash, decoded onto TOK.  */
static bool
string_escape (struct parser *ps, size_t *raw, bool *nul)
{
  int c = next (ps);
  unsigned char out[4];
  size_t n = 1;

  *raw += 1;
  switch (c)
    {
    case '"':
    case '\\':
    case '/':
      out[0] = (unsigned char) c;
      break;
    case 'b':
      out[0] = '\b';
      break;
    case 'f':
      out[0] = '\f';
      break;
    case 'n':
      out[0] = '\n';
      break;
    case 'r':
      out[0] = '\r';
      break;
    case 't':
      out[0] = '\t';
      break;
    case 'u':
      {
        long cp = read_hex4 (ps, raw);
        if (cp < 0 || (cp >= 0xdc00 && cp <= 0xdfff))
          return false;
        if (cp >= 0xd800 && cp <= 0xdbff)
          {
            /* A high surrogate is followed by a low one.  */
            if (next (ps) != '\\' || next (ps) != 'u')
              return false;
            *raw += 2;
            long lo = read_hex4 (ps, raw);
            if (lo < 0xdc00 || lo > 0xdfff)
              return false;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
        if (cp == 0)
          *nul = true;
        n = utf8_put (out, cp);
        break;
      }
    default:
      return false;
    }
  return bytes_add (ps, &ps->tok, out, n);
}

/* A byte of 0x80 or more, LEAD, taken: the rest of its UTF-8 sequence,
   checked as jansson checks it (no overlong form, no surrogate, nothing
   above U+10FFFF), onto TOK.  */
static bool
string_utf8 (struct parser *ps, int lead, size_t *raw)
{
  unsigned char seq[4];
  size_t n;
  long cp;

  if (lead >= 0xc2 && lead <= 0xdf)
    n = 2, cp = lead & 0x1f;
  else if (lead >= 0xe0 && lead <= 0xef)
    n = 3, cp = lead & 0x0f;
  else if (lead >= 0xf0 && lead <= 0xf4)
    n = 4, cp = lead & 0x07;
  else
    return false;
  seq[0] = (unsigned char) lead;
  for (size_t i = 1; i < n; i++)
    {
      int c = next (ps);
      if (c < 0x80 || c > 0xbf)
        return false;
      seq[i] = (unsigned char) c;
      cp = (cp << 6) | (c & 0x3f);
    }
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || (n == 3 && cp < 0x800)
      || (n == 4 && cp < 0x10000))
    return false;
  *raw += n - 1;
  return bytes_add (ps, &ps->tok, seq, n);
}

/* A string, after its opening quote: *RET_S and *RET_LEN its decoded
   bytes (in the text or in TOK, valid until the parser reads on),
   *RET_RAW its length as written with its quotes, *RET_NUL whether it
   holds a NUL.  */
static bool
read_string (struct parser *ps, const char **ret_s, size_t *ret_len,
             size_t *ret_raw, bool *ret_nul)
{
  const unsigned char *s = ps->p;
  const unsigned char *q = plain_run (s, ps->end);
  size_t raw = 1;
  bool nul = false;

  if (q < ps->end && *q == '"')
    {
      /* The common case: plain text, all of it in the buffer.  */
      ps->p = q + 1;
      *ret_s = (const char *) s;
      *ret_len = (size_t) (q - s);
      *ret_raw = (size_t) (q - s) + 2;
      *ret_nul = false;
      return true;
    }
  ps->tok.len = 0;
  for (;;)
    {
      if (!bytes_add (ps, &ps->tok, s, (size_t) (q - s)))
        return false;
      raw += (size_t) (q - s);
      ps->p = q;
      int c = next (ps);
      if (c < 0)
        return false;
      raw++;
      if (c == '"')
        break;
      if (c == '\\')
        {
          if (!string_escape (ps, &raw, &nul))
            return false;
        }
      else if (c >= 0x80)
        {
          if (!string_utf8 (ps, c, &raw))
            return false;
        }
      else if (c < 0x20)
        return false;
      else
        {
          /* A plain byte, first of a new read.  */
          char plain_byte = (char) c;
          if (!bytes_add (ps, &ps->tok, &plain_byte, 1))
            return false;
        }
      if (peek (ps) < 0)
        return false;
      s = ps->p;
      q = plain_run (s, ps->end);
    }
  *ret_s = ps->tok.p;
  *ret_len = ps->tok.len;
  *ret_raw = raw;
  *ret_nul = nul;
  return true;
}

/* jansson reads a byte past a number or a word and puts it back; its
   stream takes a NUL byte for the end of what it holds, so a NUL put
   back is lost: the next byte read is the one after it.  One NUL byte
   right after a number or a word is thus skipped.  */
static void
skip_lost_nul (struct parser *ps)
{
  if (peek (ps) == 0)
    ps->p++;
}

static inline bool
is_digit (int c)
{
  return c >= '0' && c <= '9';
}

/* Take digits onto TOK; false when there was none.  */
static bool
read_digits (struct parser *ps)
{
  size_t start = ps->tok.len;
  for (;;)
    {
      const unsigned char *p = ps->p, *q = p;
      while (q < ps->end && is_digit (*q))
        q++;
      if (!bytes_add (ps, &ps->tok, p, (size_t) (q - p)))
        return false;
      ps->p = q;
      if (q < ps->end || !fill (ps))
        break;
    }
  return ps->tok.len > start;
}

static json_t *
number_real (struct parser *ps)
{
  if (!bytes_add (ps, &ps->tok, "", 1))
    return NULL;
  if (ps->point != '.')
    {
      char *dot = strchr (ps->tok.p, '.');
      if (dot)
        *dot = ps->point;
    }
  errno = 0;
  double v = strtod (ps->tok.p, NULL);
  if ((v == HUGE_VAL || v == -HUGE_VAL) && errno == ERANGE)
    return fail (ps, -EINVAL);
  json_t *j = json_real (v);
  return j ? j : fail (ps, -ENOMEM);
}

/* A number, FIRST ('-' or a digit) not taken yet.  */
static json_t *
read_number (struct parser *ps)
{
  bool real = false;

  ps->tok.len = 0;
  if (*ps->p == '-')
    {
      ps->p++;
      if (!bytes_add (ps, &ps->tok, "-", 1))
        return NULL;
    }
  int c = peek (ps);
  if (c == '0')
    {
      ps->p++;
      if (!bytes_add (ps, &ps->tok, "0", 1))
        return NULL;
      if (is_digit (peek (ps)))
        return fail (ps, -EINVAL);
    }
  else if (!read_digits (ps))
    return fail (ps, -EINVAL);
  c = peek (ps);
  if (c == '.')
    {
      ps->p++;
      real = true;
      if (!bytes_add (ps, &ps->tok, ".", 1))
        return NULL;
      if (!read_digits (ps))
        return fail (ps, -EINVAL);
      c = peek (ps);
    }
  if (c == 'e' || c == 'E')
    {
      ps->p++;
      real = true;
      if (!bytes_add (ps, &ps->tok, "e", 1))
        return NULL;
      c = peek (ps);
      if (c == '+' || c == '-')
        {
          ps->p++;
          char sign = (char) c;
          if (!bytes_add (ps, &ps->tok, &sign, 1))
            return NULL;
        }
      if (!read_digits (ps))
        return fail (ps, -EINVAL);
    }
  /* jansson's buffer held the number and the byte after it.  */
  if (!shadow_token (ps, ps->tok.len + (peek (ps) >= 0)))
    return NULL;
  skip_lost_nul (ps);
  if (ps->status)
    return NULL;
  if (real || (ps->flags & JSON_DECODE_INT_AS_REAL))
    return number_real (ps);

  /* An integer: one outside json_int_t (64 bits: jansson_config.h
     makes it a long long) is refused, as jansson refuses it.  */
  const char *t = ps->tok.p;
  bool neg = *t == '-';
  uint64_t v = 0, limit = neg ? (uint64_t) INT64_MAX + 1 : INT64_MAX;
  for (t += neg; t < ps->tok.p + ps->tok.len; t++)
    {
      unsigned d = (unsigned) (*t - '0');
      if (v > (limit - d) / 10)
        return fail (ps, -EINVAL);
      v = v * 10 + d;
    }
  json_int_t n
    = neg ? (v == (uint64_t) INT64_MAX + 1 ? INT64_MIN : -(json_int_t) v)
          : (json_int_t) v;
  json_t *j = json_integer (n);
  return j ? j : fail (ps, -ENOMEM);
}

/* WORD (true, false or null), its first byte not taken yet, and not
   followed by a letter (jansson reads a run of letters as one word).  */
static bool
read_word (struct parser *ps, const char *word)
{
  for (const char *w = word; *w; w++)
    if (next (ps) != *w)
      return false;
  int c = peek (ps);
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
    return false;
  skip_lost_nul (ps);
  return true;
}

static json_t *read_value (struct parser *ps, int c);

/* What follows the opening bracket of an array or an object closed by
   CLOSE: 1 and *RET_C its first member's first byte (not taken), or 0
   when CLOSE ends it at once (taken).  */
static int
first_member (struct parser *ps, int close, int *ret_c)
{
  *ret_c = skip_space (ps);
  if (*ret_c != close)
    return 1;
  ps->p++;
  return 0;
}

/* What follows a member of an array or an object closed by CLOSE: 1 and
   *RET_C the byte after a comma (not taken) when another member
   follows, 0 when CLOSE ends it (taken), -1 when neither does.  */
static int
after_member (struct parser *ps, int close, int *ret_c)
{
  int c = skip_space (ps);
  if (c == close)
    {
      ps->p++;
      return 0;
    }
  if (c != ',')
    {
      fail (ps, -EINVAL);
      return -1;
    }
  ps->p++;
  *ret_c = skip_space (ps);
  return 1;
}

/* jansson's json_array () makes room for this many items, and an append
   to a full array makes room for twice as many.  */
#define JANSSON_ARRAY_FIRST 8

static json_t *
read_array (struct parser *ps, int role)
{
  json_t *a = json_array ();
  if (a == NULL)
    return fail (ps, -ENOMEM);
  int c;
  /* The runs of a runs array; the items of a results array taken by
     the hook, and the room jansson's array would have made for them
     (exact when every item is taken, or none).  */
  size_t n = 0, room = JANSSON_ARRAY_FIRST;
  for (int more = first_member (ps, ']', &c); more > 0;
       more = after_member (ps, ']', &c))
    {
      if (role == ROLE_RUNS)
        {
          ps->run = n++;
          ps->role_next = ROLE_RUN;
        }
      json_t *v = read_value (ps, c);
      if (v == NULL)
        break;
      if (role == ROLE_RESULTS
          && ps->results->take (v, ps->run, ps->results->arg))
        {
          /* What appending it would have cost, charged as if it was
             made: the budget counts the same whole log.  */
          if (++n > room)
            {
              room = room * 2 > n ? room * 2 : n;
              if (!shadow_charge (ps, room * sizeof (json_t *), 0))
                break;
            }
          continue;
        }
      if (json_array_append_new (a, v) < 0)
        {
          fail (ps, -ENOMEM);
          break;
        }
    }
  if (ps->status == 0)
    return a;
  json_decref (a);
  return NULL;
}

/* A member of an object, C its first byte (not taken): false when it
   cannot be read or added.  */
static bool
read_member (struct parser *ps, json_t *o, int c, int role)
{
  const char *s;
  size_t len, raw;
  bool nul;

  if (c != '"')
    {
      fail (ps, -EINVAL);
      return false;
    }
  ps->p++;
  /* jansson refuses a NUL in a key whatever the flags.  */
  if (!read_string (ps, &s, &len, &raw, &nul) || nul)
    {
      fail (ps, -EINVAL);
      return false;
    }
  if (!shadow_token (ps, raw) || !shadow_charge (ps, raw + 1, 0))
    return false;
  /* The key is kept while its value is read.  */
  size_t at = ps->keys.len;
  if (!bytes_add (ps, &ps->keys, s, len))
    return false;
  if (skip_space (ps) != ':')
    {
      fail (ps, -EINVAL);
      return false;
    }
  ps->p++;
  /* The key as kept: a read since may have moved what S pointed to.  */
  const char *key = ps->keys.p + at;
  const char *within = ps->results ? ps->results->within : NULL;
  if (role == ROLE_TOP && within)
    {
      if (len == strlen (within) && memcmp (key, within, len) == 0)
        ps->role_next = ROLE_WITHIN;
    }
  else if ((role == ROLE_TOP || role == ROLE_WITHIN) && len == 4
           && memcmp (key, "runs", 4) == 0)
    ps->role_next = ROLE_RUNS;
  else if (role == ROLE_RUN && len == 7 && memcmp (key, "results", 7) == 0)
    ps->role_next = ROLE_RESULTS;
  json_t *v = read_value (ps, skip_space (ps));
  if (v == NULL)
    return false;
  size_t size = json_object_size (o);
  if (json_object_setn_new_nocheck (o, ps->keys.p + at, len, v) < 0)
    {
      fail (ps, -ENOMEM);
      return false;
    }
  ps->keys.len = at;
  /* A key already there replaced the value, and was not added.  */
  if ((ps->flags & JSON_REJECT_DUPLICATES) && json_object_size (o) == size)
    {
      fail (ps, -EINVAL);
      return false;
    }
  return true;
}

static json_t *
read_object (struct parser *ps, int role)
{
  json_t *o = json_object ();
  if (o == NULL)
    return fail (ps, -ENOMEM);
  int c;
  for (int more = first_member (ps, '}', &c); more > 0;
       more = after_member (ps, '}', &c))
    if (!read_member (ps, o, c, role))
      break;
  if (ps->status == 0)
    return o;
  json_decref (o);
  return NULL;
}

static json_t *
read_string_value (struct parser *ps)
{
  const char *s;
  size_t len, raw;
  bool nul;

  if (!read_string (ps, &s, &len, &raw, &nul))
    return fail (ps, -EINVAL);
  if (nul && !(ps->flags & JSON_ALLOW_NUL))
    return fail (ps, -EINVAL);
  if (!shadow_token (ps, raw) || !shadow_charge (ps, raw + 1, len + 1))
    return NULL;
  json_t *j = json_stringn_nocheck (s, len);
  return j ? j : fail (ps, -ENOMEM);
}

/* A value starting with C (not taken yet; -1 at the end).  */
static json_t *
read_value (struct parser *ps, int c)
{
  json_t *v;
  int role = ps->role_next;

  ps->role_next = ROLE_NONE;
  if (++ps->depth > MAX_DEPTH)
    return fail (ps, -EINVAL);
  switch (c)
    {
    case '{':
      ps->p++;
      v = read_object (ps, role == ROLE_TOP || role == ROLE_WITHIN
                               || role == ROLE_RUN
                             ? role
                             : ROLE_NONE);
      break;
    case '[':
      ps->p++;
      v = read_array (ps, role == ROLE_RUNS || role == ROLE_RESULTS
                            ? role
                            : ROLE_NONE);
      break;
    case '"':
      ps->p++;
      v = read_string_value (ps);
      break;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      v = read_number (ps);
      break;
    case 't':
      v = read_word (ps, "true") ? json_true () : fail (ps, -EINVAL);
      break;
    case 'f':
      v = read_word (ps, "false") ? json_false () : fail (ps, -EINVAL);
      break;
    case 'n':
      v = read_word (ps, "null") ? json_null () : fail (ps, -EINVAL);
      break;
    default:
      v = fail (ps, -EINVAL);
      break;
    }
  ps->depth--;
  return v;
}

static int
parse (struct parser *ps, json_t **ret)
{
  json_t *doc = NULL;

  *ret = NULL;
  if (ps->flags & ~(size_t) KNOWN_FLAGS)
    return -ENOTSUP;
  const char *point = localeconv ()->decimal_point;
  ps->point = point && *point ? *point : '.';
  /* jansson's token buffer, first allocated.  */
  ps->shadow_cap = 16;
  if (shadow_charge (ps, ps->shadow_cap, 0))
    {
      int c = skip_space (ps);
      if (!(ps->flags & JSON_DECODE_ANY) && c != '{' && c != '[')
        fail (ps, -EINVAL);
      else
        {
          if (ps->results)
            ps->role_next = ROLE_TOP;
          doc = read_value (ps, c);
        }
      if (doc && skip_space (ps) >= 0)
        fail (ps, -EINVAL);
    }
  free (ps->tok.p);
  free (ps->keys.p);
  free (ps->buf);
  if (ps->status)
    {
      json_decref (doc);
      return ps->status;
    }
  *ret = doc;
  return 0;
}

int
ash_json_fast_loadb (const char *text, size_t len, size_t flags,
                     const struct ash_json_fast_shadow *shadow, json_t **ret)
{
  return ash_json_fast_loadb_results (text, len, flags, shadow, NULL, ret);
}

int
ash_json_fast_loadb_results (const char *text, size_t len, size_t flags,
                             const struct ash_json_fast_shadow *shadow,
                             const struct ash_json_fast_results *results,
                             json_t **ret)
{
  struct parser ps = {
    .p = (const unsigned char *) text,
    .end = (const unsigned char *) text + (text ? len : 0),
    .flags = flags,
    .shadow = shadow,
    .results = results,
  };
  if (text == NULL)
    {
      *ret = NULL;
      return -EINVAL;
    }
  return parse (&ps, ret);
}

int
ash_json_fast_load_callback (json_load_callback_t read, void *arg,
                             size_t flags,
                             const struct ash_json_fast_shadow *shadow,
                             json_t **ret)
{
  return ash_json_fast_load_callback_results (read, arg, flags, shadow, NULL,
                                              ret);
}

int
ash_json_fast_load_callback_results (
  json_load_callback_t read, void *arg, size_t flags,
  const struct ash_json_fast_shadow *shadow,
  const struct ash_json_fast_results *results, json_t **ret)
{
  static const unsigned char none[1];
  struct parser ps = {
    .p = none,
    .end = none,
    .read = read,
    .arg = arg,
    .flags = flags,
    .shadow = shadow,
    .results = results,
  };
  *ret = NULL;
  if (read == NULL)
    return -EINVAL;
  ps.buf = malloc (READ_SIZE);
  if (ps.buf == NULL)
    return -ENOMEM;
  return parse (&ps, ret);
}
