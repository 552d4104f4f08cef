/* SPDX-License-Identifier: Apache-2.0 */
/* util.c -- small helpers every file of ash uses.  */

#include <config.h>

#include "base/util.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <time.h>

void
ash_freep (void *p)
{
  free (*(void **) p);
}

void
ash_closep (int *fd)
{
  if (*fd >= 0)
    ash_close (*fd);
}

void
ash_fclosep (void *fp)
{
  FILE *f = *(FILE **) fp;
  if (f)
    fclose (f);
}

void
ash_json_decrefp (void *jp)
{
  json_t **j = jp;
  json_decref (*j);
  *j = NULL;
}

void
ash_oom (void)
{
  static const char msg[] = "ash: memory exhausted\n";
  ssize_t r = write (STDERR_FILENO, msg, sizeof msg - 1);
  (void) r;
  abort ();
}

void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    ash_oom ();
  return p;
}

void *
xzalloc (size_t n)
{
  return xcalloc (1, n);
}

void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size ? size : 1);
  if (!p)
    ash_oom ();
  return p;
}

void *
xrealloc (void *p, size_t n)
{
  void *q = realloc (p, n ? n : 1);
  if (!q)
    ash_oom ();
  return q;
}

void *
xreallocarray (void *p, size_t n, size_t size)
{
  if (size && n > SIZE_MAX / size)
    ash_oom ();
  return xrealloc (p, n * size);
}

char *
xstrdup (const char *s)
{
  char *p = strdup (s);
  if (!p)
    ash_oom ();
  return p;
}

char *
xstrndup (const char *s, size_t n)
{
  char *p = strndup (s, n);
  if (!p)
    ash_oom ();
  return p;
}

char *
xvasprintf (const char *fmt, va_list ap)
{
  char *s;
  if (vasprintf (&s, fmt, ap) < 0)
    ash_oom ();
  return s;
}

char *
xasprintf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = xvasprintf (fmt, ap);
  va_end (ap);
  return s;
}

size_t
ash_strv_length (char *const *strv)
{
  size_t n = 0;
  if (strv)
    while (strv[n])
      n++;
  return n;
}

bool
ash_strv_contains (char *const *strv, const char *s)
{
  if (strv)
    for (; *strv; strv++)
      if (streq (*strv, s))
        return true;
  return false;
}

bool
ash_str_has_prefix (const char *s, const char *prefix)
{
  return strncmp (s, prefix, strlen (prefix)) == 0;
}

bool
ash_str_has_suffix (const char *s, const char *suffix)
{
  size_t ls = strlen (s), lx = strlen (suffix);
  return ls >= lx && memcmp (s + ls - lx, suffix, lx) == 0;
}

int
ash_hex_digit (int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

void
ash_close (int fd)
{
  int saved = errno;
  /* On Linux the descriptor is released even when close fails with EINTR,
     so retrying would close somebody else's descriptor.  */
  (void) close (fd);
  errno = saved;
}

int
ash_write_all (int fd, const void *buf, size_t len)
{
  const char *p = buf;
  while (len > 0)
    {
      ssize_t n = write (fd, p, len);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return -errno;
        }
      p += n;
      len -= (size_t) n;
    }
  return 0;
}

char *
ash_path_join (const char *a, const char *b)
{
  if (!a || !*a)
    return xstrdup (b);
  if (b[0] == '/')
    return xstrdup (b);
  size_t la = strlen (a), lb = strlen (b);
  bool slash = a[la - 1] != '/';
  char *r = xmalloc (la + slash + lb + 1);
  memcpy (r, a, la);
  if (slash)
    r[la] = '/';
  memcpy (r + la + slash, b, lb + 1);
  return r;
}

char *
ash_path_normalize (const char *path)
{
  size_t n = strlen (path);
  char *out = xmalloc (n + 2);
  size_t o = 0;
  bool absolute = path[0] == '/';
  const char *p = path;

  if (absolute)
    out[o++] = '/';
  while (*p)
    {
      while (*p == '/')
        p++;
      if (!*p)
        break;
      const char *end = strchrnul (p, '/');
      size_t len = (size_t) (end - p);
      if (len == 1 && p[0] == '.')
        ;
      else if (len == 2 && p[0] == '.' && p[1] == '.')
        {
          size_t floor = absolute ? 1 : 0;
          /* A relative path's leading "../" components stay: "../.."
             is not "".  */
          bool up_only = !absolute && o >= 3 && o % 3 == 0
                         && memcmp (out + o - 3, "../", 3) == 0;
          for (size_t k = 0; up_only && k < o; k += 3)
            up_only = memcmp (out + k, "../", 3) == 0;
          if (up_only)
            {
              memcpy (out + o, "../", 3);
              o += 3;
            }
          else if (o > floor)
            {
              /* Drop the last component.  */
              if (o > floor && out[o - 1] == '/')
                o--;
              while (o > floor && out[o - 1] != '/')
                o--;
            }
          else if (!absolute)
            {
              memcpy (out + o, "../", 3);
              o += 3;
            }
        }
      else
        {
          memcpy (out + o, p, len);
          o += len;
          out[o++] = '/';
        }
      p = end;
    }
  if (o > 1 && out[o - 1] == '/')
    o--;
  if (o == 0)
    out[o++] = '.';
  out[o] = '\0';
  return out;
}

bool
ash_path_is_inside (const char *path, const char *dir)
{
  size_t ld = strlen (dir);
  while (ld > 1 && dir[ld - 1] == '/')
    ld--;
  if (ld == 1 && dir[0] == '/')
    return path[0] == '/';
  if (strncmp (path, dir, ld) != 0)
    return false;
  return path[ld] == '\0' || path[ld] == '/';
}

char *
ash_path_absolute (const char *path)
{
  if (path[0] == '/')
    return ash_path_normalize (path);
  _cleanup_free_ char *cwd = getcwd (NULL, 0);
  if (!cwd)
    return ash_path_normalize (path);
  _cleanup_free_ char *j = ash_path_join (cwd, path);
  return ash_path_normalize (j);
}

double
ash_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}
