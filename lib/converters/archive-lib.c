/* SPDX-License-Identifier: Apache-2.0 */
/* archive-lib.c -- libarchive, loaded with dlopen the first time an
   archive is extracted, or linked in (archive-lib.h says when).

   The library is loaded once per process, under pthread_once, and never
   unloaded: the table is written before pthread_once returns and only
   read after, so the threads of a scan share it without a lock.  What
   dlerror() said is kept with the failure, since it is per thread and
   gone after the next dl call, and every later call reports it again.  */

#include <config.h>

#include <errno.h>

#include "base/util.h"
#include "converters/archive-lib.h"

#if ASH_LAZY_LIBARCHIVE

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#ifdef ASH_ARCHIVE_LIB_TEST_HOOK
/* Only in the unit test that compiles this file with
   -DASH_ARCHIVE_LIB_TEST_HOOK, which defines it: the name to load, so
   that a library that is not there, or lacks the functions, can be
   tried.  ash itself has no way to load another name.  */
const char *ash_archive_lib_test_soname (void);
#define ARCHIVE_SONAME ash_archive_lib_test_soname ()
#else
#define ARCHIVE_SONAME ASH_LIBARCHIVE_SONAME
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct ash_archive_lib lib;
static char *load_error; /* NULL when loaded */

static char *
load_failure (const char *soname)
{
  const char *e = dlerror ();
  return xasprintf (_ ("cannot load libarchive (%s): %s"), soname,
                    e ? e : _ ("unknown error"));
}

/* Look NAME up in H into T.NAME; on failure, keep dlerror's text, unload
   H and return.  POSIX has dlsym return a function's address as a void *,
   and function pointers the size of one.  */
#define ASH_ARCHIVE_LIB_RESOLVE(name)                                         \
  {                                                                           \
    _Static_assert(sizeof t.name == sizeof (void *),                          \
                   "a function pointer is not the size of void *");           \
    dlerror ();                                                               \
    void *p = dlsym (h, #name);                                               \
    if (p == NULL)                                                            \
      {                                                                       \
        load_error = load_failure (soname);                                   \
        dlclose (h);                                                          \
        return;                                                               \
      }                                                                       \
    memcpy (&t.name, &p, sizeof p);                                           \
  }

static void
load (void)
{
  const char *soname = ARCHIVE_SONAME;
  struct ash_archive_lib t;

  /* RTLD_LAZY, as the loader binds the libraries a program is linked
     with: binding every function of libarchive, libxml2, ICU and
     libstdc++ up front doubles what the first archive costs, and the
     functions ash calls are looked up below, where a missing one fails
     the load.  RTLD_LOCAL: its symbols bind nothing else.  */
  void *h = dlopen (soname, RTLD_LAZY | RTLD_LOCAL);
  if (h == NULL)
    {
      load_error = load_failure (soname);
      return;
    }
  ASH_ARCHIVE_LIB_FUNCTIONS (ASH_ARCHIVE_LIB_RESOLVE)
#undef ASH_ARCHIVE_LIB_RESOLVE
  lib = t;
}

int
ash_archive_lib_load (const struct ash_archive_lib **ret,
                      struct ash_error *err)
{
  int r = pthread_once (&load_once, load);
  if (r != 0)
    return ash_error_set (err, -r, _ ("cannot load libarchive (%s): %s"),
                          ARCHIVE_SONAME, strerror (r));
  if (load_error)
    return ash_error_set (err, -ELIBACC, "%s", load_error);
  *ret = &lib;
  return 0;
}

#else /* !ASH_LAZY_LIBARCHIVE */

static const struct ash_archive_lib lib = {
#define ASH_ARCHIVE_LIB_INIT(name) .name = name,
  ASH_ARCHIVE_LIB_FUNCTIONS (ASH_ARCHIVE_LIB_INIT)
#undef ASH_ARCHIVE_LIB_INIT
};

int
ash_archive_lib_load (const struct ash_archive_lib **ret,
                      struct ash_error *err _unused_)
{
  *ret = &lib;
  return 0;
}

#endif
