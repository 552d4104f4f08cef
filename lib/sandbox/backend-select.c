/* SPDX-License-Identifier: Apache-2.0 */
/* backend-select.c -- probing backends once per process and choosing the
   one a sandbox mode names.  */

#include <config.h>

#include "sandbox/backend.h"

#include <errno.h>
#include <pthread.h>
#include <pwd.h>

#include "base/buf.h"
#include "config/options.h"

void
ash_probe_release (struct ash_probe *p)
{
  if (!p)
    return;
  free (p->reason);
  free (p->tool);
  free (p->helper);
  free (p->notes);
  memset (p, 0, sizeof *p);
}

/* One probe per backend and process.  Scanners are started from several
   threads; the first to need a backend probes it while the others wait.  */
struct probe_entry
{
  const struct ash_backend *backend;
  struct ash_probe probe;
};

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static struct probe_entry *probe_cache;
static size_t probe_cache_nr;

const struct ash_probe *
ash_backend_probe_cached (const struct ash_backend *backend,
                          const struct ash_host *host)
{
  const struct ash_probe *ret = NULL;

  pthread_mutex_lock (&probe_lock);
  for (size_t i = 0; i < probe_cache_nr; i++)
    if (probe_cache[i].backend == backend)
      {
        ret = &probe_cache[i].probe;
        break;
      }
  if (!ret)
    {
      struct ash_probe p;
      int r;

      memset (&p, 0, sizeof p);
      r = backend->probe (host, &p);
      if (r < 0 || !p.usable)
        {
          p.usable = false;
          if (!p.reason)
            p.reason = xasprintf (_("%s cannot be used here (%s)"),
                                  backend->name, strerror (r < 0 ? -r
                                                                 : EINVAL));
        }
      /* Entries are never moved once handed out: the cache grows by
         whole new blocks only when it is empty, and holds one entry per
         backend of this platform, so allocate room for a few at once.  */
      if (!probe_cache)
        probe_cache = xcalloc (16, sizeof *probe_cache);
      if (probe_cache_nr < 16)
        {
          probe_cache[probe_cache_nr].backend = backend;
          probe_cache[probe_cache_nr].probe = p;
          ret = &probe_cache[probe_cache_nr].probe;
          probe_cache_nr++;
        }
      else
        abort ();
    }
  pthread_mutex_unlock (&probe_lock);
  return ret;
}

void
ash_backend_probe_cache_reset (void)
{
  pthread_mutex_lock (&probe_lock);
  for (size_t i = 0; i < probe_cache_nr; i++)
    ash_probe_release (&probe_cache[i].probe);
  probe_cache_nr = 0;
  pthread_mutex_unlock (&probe_lock);
}

const struct ash_backend *
ash_backend_find (const struct ash_backend *const *list, const char *name)
{
  for (size_t i = 0; list && list[i]; i++)
    if (streq (list[i]->name, name))
      return list[i];
  return NULL;
}

const struct ash_backend *
ash_backend_select (const char *mode, const struct ash_backend *const *list,
                    const struct ash_host *host,
                    const struct ash_probe **ret_probe, char **ret_reason)
{
  const struct ash_backend *b;
  const struct ash_probe *p;

  if (ret_probe)
    *ret_probe = NULL;
  if (ret_reason)
    *ret_reason = NULL;
  if (!mode || streq (mode, "off"))
    return NULL;

  if (streq (mode, "auto"))
    {
      struct ash_buf why = ASH_BUF_INIT;

      for (size_t i = 0; list && list[i]; i++)
        {
          p = ash_backend_probe_cached (list[i], host);
          if (p->usable)
            {
              ash_buf_release (&why);
              if (ret_probe)
                *ret_probe = p;
              return list[i];
            }
          if (why.len > 0)
            ash_buf_addstr (&why, "; ");
          ash_buf_addf (&why, "%s: %s", list[i]->name, p->reason);
        }
      if (ret_reason)
        *ret_reason = xasprintf (_("--sandbox auto found no working sandbox "
                                   "(%s)"),
                                 why.len ? why.buf
                                         : _("this platform has none"));
      ash_buf_release (&why);
      return NULL;
    }

  /* A named backend never falls back to another.  */
  b = ash_backend_find (list, mode);
  if (!b)
    {
      if (ret_reason)
        *ret_reason = xasprintf (_("the %s sandbox is not available on this "
                                   "platform"),
                                 mode);
      return NULL;
    }
  p = ash_backend_probe_cached (b, host);
  if (!p->usable)
    {
      if (ret_reason)
        *ret_reason = xstrdup (p->reason);
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
