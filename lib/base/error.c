/* SPDX-License-Identifier: Apache-2.0 */
/* error.c -- errors returned to the caller.  */

#include <config.h>

#include "base/error.h"

#include <stdio.h>

void
ash_error_init (struct ash_error *e)
{
  *e = (struct ash_error) ASH_ERROR_INIT;
}

const char *
ash_error_kind_name (enum ash_error_kind kind)
{
  switch (kind)
    {
    case ASH_KIND_NONE:
      return "";
    case ASH_KIND_OUTPUT_LINK:
      return "OutputLinkRefused";
    case ASH_KIND_OUTPUT_HARD_LINK:
      return "OutputHardLinkRefused";
    case ASH_KIND_OUTPUT_DIR_LINK:
      return "OutputDirLinkRefused";
    case ASH_KIND_RESULTS_DIR_LINK:
      return "ResultsDirLinkRefused";
    case ASH_KIND_RESULTS_DIR_UNCLEAN:
      return "ResultsDirNotClean";
    case ASH_KIND_OUTPUT_DIR_UNSAFE:
      return "OutputDirUnsafe";
    case ASH_KIND_OUTPUT_DIR_REFUSED:
      return "OutputDirRefused";
    case ASH_KIND_OUTPUT_READ:
      return "OutputReadRefused";
    case ASH_KIND_LINK_NOT_EXCLUDABLE:
      return "LinkNotExcludable";
    case ASH_KIND_SCANNER_MISSING:
      return "ScannerMissing";
    case ASH_KIND_SANDBOX_NONE:
      return "SandboxNone";
    case ASH_KIND_SANDBOX_UNAVAILABLE:
      return "SandboxUnavailable";
    case ASH_KIND_SANDBOX_REFUSED:
      return "SandboxRefused";
    }
  return "";
}

void
ash_error_release (struct ash_error *e)
{
  if (!e)
    return;
  free (e->message);
  free (e->path);
  ash_error_init (e);
}

static void
error_vset (struct ash_error *e, const char *path, int line, int column,
            const char *fmt, va_list ap)
{
  char *msg = xvasprintf (fmt, ap);
  char *p = path ? xstrdup (path) : NULL;
  ash_error_release (e);
  e->message = msg;
  e->path = p;
  e->line = line;
  e->column = column;
}

int
ash_error_set (struct ash_error *e, int err, const char *fmt, ...)
{
  if (e)
    {
      va_list ap;
      va_start (ap, fmt);
      error_vset (e, NULL, 0, 0, fmt, ap);
      va_end (ap);
    }
  return err;
}

int
ash_error_set_at (struct ash_error *e, int err, const char *path, int line,
                  int column, const char *fmt, ...)
{
  if (e)
    {
      va_list ap;
      va_start (ap, fmt);
      error_vset (e, path, line, column, fmt, ap);
      va_end (ap);
    }
  return err;
}

void
ash_error_prefix (struct ash_error *e, const char *fmt, ...)
{
  if (!e || !e->message)
    return;
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *prefix = xvasprintf (fmt, ap);
  va_end (ap);
  char *m = xasprintf ("%s: %s", prefix, e->message);
  free (e->message);
  e->message = m;
}

int
ash_error_copy (struct ash_error *dst, int err, const struct ash_error *src)
{
  if (!dst || dst == src)
    return err;
  ash_error_release (dst);
  dst->message = src->message ? xstrdup (src->message) : NULL;
  dst->path = src->path ? xstrdup (src->path) : NULL;
  dst->line = src->line;
  dst->column = src->column;
  dst->kind = src->kind;
  return err;
}

void
ash_error_move (struct ash_error *dst, struct ash_error *src)
{
  if (!dst)
    {
      ash_error_release (src);
      return;
    }
  ash_error_release (dst);
  *dst = *src;
  ash_error_init (src);
}

char *
ash_error_format (const struct ash_error *e)
{
  const char *m = e->message ? e->message : "unknown error";
  if (e->path && e->line > 0)
    return xasprintf ("%s:%d:%d: %s", e->path, e->line, e->column, m);
  if (e->path)
    return xasprintf ("%s: %s", e->path, m);
  return xstrdup (m);
}
