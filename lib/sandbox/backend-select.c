/* SPDX-License-Identifier: Apache-2.0 */
/* backend-select.c -- probing backends once per process and choosing the
   one a sandbox mode names.  */

#include <config.h>

#include "sandbox/backend.h"

#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <pwd.h>

#include "base/buf.h"
#include "sandbox/backend-impl.h"
#include "sandbox/probe-cache.h"
#include "config/options.h"

bool
ash_probe_usable (const struct ash_probe *p)
{
  return p->usable;
}

const char *
ash_probe_reason (const struct ash_probe *p)
{
  return p->usable ? NULL : p->reason;
}

const char *
ash_probe_notes (const struct ash_probe *p)
{
  return p->notes;
}

bool
ash_probe_cache_overlay (const struct ash_probe *p)
{
  return p->usable && p->cache_overlay;
}

bool
ash_probe_lists_mounts (const struct ash_probe *p)
{
  return !p || !p->backend || p->backend->lists_mounts;
}

bool
ash_probe_cached (const struct ash_probe *p)
{
  return p->cached;
}

void
ash_probe_base_release (struct ash_probe *p)
{
  if (!p)
    return;
  free (p->reason);
  free (p->notes);
  p->reason = p->notes = NULL;
}

void
ash_probe_free (struct ash_probe *p)
{
  if (!p)
    return;
  if (p->backend && p->backend->probe_free)
    p->backend->probe_free (p);
  else
    {
      ash_probe_base_release (p);
      free (p);
    }
}

struct ash_probe *
ash_probe_new_unusable (const struct ash_backend *backend, const char *reason)
{
  struct ash_probe *p = xcalloc (1, sizeof *p);

  p->backend = backend;
  p->reason = reason ? xstrdup (reason) : NULL;
  return p;
}

/* Probe BACKEND: its own probe, or the platform's message for the none
   backend.  Never NULL; an unusable probe always has a reason.  */
static struct ash_probe *
probe_backend (const struct ash_backend *backend, const struct ash_host *host)
{
  struct ash_probe *p = NULL;
  int r;

  if (backend->none_reason || !backend->probe)
    return ash_probe_new_unusable (backend,
                                   backend->none_reason
                                     ? backend->none_reason
                                     : _ ("this platform has no sandbox "
                                          "backend"));
  r = backend->probe (host, &p);
  if (!p)
    p = ash_probe_new_unusable (backend, NULL);
  p->backend = backend;
  if (r < 0 || !p->usable)
    {
      p->usable = false;
      if (!p->reason)
        p->reason = xasprintf (_ ("%s cannot be used here (%s)"),
                               backend->name, strerror (r < 0 ? -r : EINVAL));
    }
  return p;
}

/* One probe per backend and process.  Scanners are started from several
   threads; the first to need a backend probes it while the others wait.
   Entries are never moved or freed while the process runs, except by
   ash_backend_probe_cache_reset() (tests) and ash_backend_probe_drop().  */
struct probe_entry
{
  const struct ash_backend *backend;
  struct ash_probe *probe;
  struct probe_entry *next;
};

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static struct probe_entry *probe_cache;
/* Probes dropped after a spawn failure: kept alive (a scope may still
   point at one) until the cache is reset.  */
static struct probe_entry *probe_dropped;
static bool probe_cache_disabled;

void
ash_backend_probe_cache_disable (bool disable)
{
  pthread_mutex_lock (&probe_lock);
  probe_cache_disabled = disable;
  pthread_mutex_unlock (&probe_lock);
}

const struct ash_probe *
ash_backend_probe_cached (const struct ash_backend *backend,
                          const struct ash_host *host)
{
  struct probe_entry *e;
  const struct ash_probe *ret = NULL;

  pthread_mutex_lock (&probe_lock);
  for (e = probe_cache; e; e = e->next)
    if (e->backend == backend)
      {
        ret = e->probe;
        break;
      }
  if (!ret)
    {
      struct ash_probe *p = NULL;

      if (!probe_cache_disabled)
        p = ash_probe_cache_load (backend, host);
      if (!p)
        {
          p = probe_backend (backend, host);
          if (!probe_cache_disabled)
            ash_probe_cache_store (backend, host, p);
        }
      e = xcalloc (1, sizeof *e);
      e->backend = backend;
      e->probe = p;
      e->next = probe_cache;
      probe_cache = e;
      ret = p;
    }
  pthread_mutex_unlock (&probe_lock);
  return ret;
}

void
ash_backend_probe_drop (const struct ash_backend *backend)
{
  pthread_mutex_lock (&probe_lock);
  for (struct probe_entry **pe = &probe_cache; *pe; pe = &(*pe)->next)
    if ((*pe)->backend == backend)
      {
        struct probe_entry *e = *pe;
        *pe = e->next;
        e->next = probe_dropped;
        probe_dropped = e;
        break;
      }
  ash_probe_cache_forget (backend);
  pthread_mutex_unlock (&probe_lock);
}

static void
free_entries (struct probe_entry *e)
{
  while (e)
    {
      struct probe_entry *next = e->next;
      ash_probe_free (e->probe);
      free (e);
      e = next;
    }
}

void
ash_backend_probe_cache_reset (void)
{
  pthread_mutex_lock (&probe_lock);
  free_entries (probe_cache);
  free_entries (probe_dropped);
  probe_cache = probe_dropped = NULL;
  pthread_mutex_unlock (&probe_lock);
}

const char *
ash_backend_none_reason (const struct ash_backend *const *list)
{
  if (list && list[0] && list[0]->none_reason && !list[1])
    return list[0]->none_reason;
  return NULL;
}

const struct ash_backend *
ash_backend_find (const struct ash_backend *const *list, const char *name)
{
  for (size_t i = 0; list && list[i]; i++)
    if (streq (list[i]->name, name))
      return list[i];
  return NULL;
}

/* Why no backend can be used, into ERR (which may be NULL) with KIND.  */
static void unavailable (struct ash_error *err, enum ash_error_kind kind,
                         const char *fmt, ...) _printf_ (3, 4);

static void
unavailable (struct ash_error *err, enum ash_error_kind kind, const char *fmt,
             ...)
{
  if (!err)
    return;
  va_list ap;
  va_start (ap, fmt);
  _cleanup_free_ char *m = xvasprintf (fmt, ap);
  va_end (ap);
  ash_error_set (err, -EPERM, "%s", m);
  err->kind = kind;
}

const struct ash_backend *
ash_backend_select (const char *mode, const struct ash_backend *const *list,
                    const struct ash_host *host,
                    const struct ash_probe **ret_probe, struct ash_error *err)
{
  const struct ash_backend *b;
  const struct ash_probe *p;

  if (ret_probe)
    *ret_probe = NULL;
  if (err)
    ash_error_release (err);
  if (!mode || streq (mode, "off"))
    return NULL;

  /* A platform whose only backend is the none backend: its message, for
     whatever mode was asked for.  */
  if (ash_backend_none_reason (list))
    {
      unavailable (err, ASH_KIND_SANDBOX_NONE, "%s",
                   ash_backend_none_reason (list));
      return NULL;
    }

  if (streq (mode, "auto"))
    {
      struct ash_buf why = ASH_BUF_INIT;

      for (size_t i = 0; list && list[i]; i++)
        {
          p = ash_backend_probe_cached (list[i], host);
          if (ash_probe_usable (p))
            {
              ash_buf_release (&why);
              if (ret_probe)
                *ret_probe = p;
              return list[i];
            }
          if (why.len > 0)
            ash_buf_addstr (&why, "; ");
          ash_buf_addf (&why, "%s: %s", list[i]->name, ash_probe_reason (p));
        }
      unavailable (err, ASH_KIND_SANDBOX_UNAVAILABLE,
                   _ ("--sandbox auto found no working sandbox (%s)"),
                   why.len ? why.buf : _ ("this platform has none"));
      ash_buf_release (&why);
      return NULL;
    }

  /* A named backend never falls back to another.  */
  b = ash_backend_find (list, mode);
  if (!b)
    {
      unavailable (err, ASH_KIND_SANDBOX_UNAVAILABLE,
                   _ ("the %s sandbox is not available on this platform"),
                   mode);
      return NULL;
    }
  p = ash_backend_probe_cached (b, host);
  if (!ash_probe_usable (p))
    {
      unavailable (err, ASH_KIND_SANDBOX_UNAVAILABLE, "%s",
                   ash_probe_reason (p));
      return NULL;
    }
  if (ret_probe)
    *ret_probe = p;
  return b;
}

/* Facts that do not change while the process runs.  */
static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static char *host_passwd_home;
static char *host_helper_dir;

static void
host_facts_init (void)
{
  struct passwd pw, *res = NULL;
  char buf[4096];
  char exe[4096];
  ssize_t n;

  if (getpwuid_r (getuid (), &pw, buf, sizeof buf, &res) == 0 && res
      && res->pw_dir && res->pw_dir[0] == '/')
    host_passwd_home = xstrdup (res->pw_dir);

  /* The directory of the running ash: in a build tree the helpers are
     next to it.  Where the system has no /proc/self/exe, the installed
     PKGLIBEXECDIR is used.  */
  n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0)
    {
      char *slash;

      exe[n] = '\0';
      slash = strrchr (exe, '/');
      if (slash && slash != exe)
        {
          *slash = '\0';
          host_helper_dir = xstrdup (exe);
        }
    }
}

void
ash_host_init (struct ash_host *host, const struct ash_options *opts)
{
  const char *home = getenv ("HOME");

  pthread_once (&host_once, host_facts_init);
  memset (host, 0, sizeof *host);
  host->path_env = getenv ("PATH");
  host->bin_path = opts ? opts->bin_path : NULL;
  host->source_dir = opts ? opts->source_dir : NULL;
  host->allow_in_tree_tools = opts ? opts->allow_in_tree_tools : false;
  host->helper_dir = host_helper_dir;
  host->home = home && home[0] == '/' ? home : host_passwd_home;
  host->passwd_home = host_passwd_home;
  host->uid = getuid ();
}
