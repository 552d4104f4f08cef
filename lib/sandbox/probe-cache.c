/* SPDX-License-Identifier: Apache-2.0 */
/* probe-cache.c -- backend probes kept across runs.

   One file per backend, DIR/probe-NAME.json, where DIR is
   $XDG_CACHE_HOME/ash (an absolute XDG_CACHE_HOME) or $HOME/.cache/ash.
   The file holds the key the probe was made under and the backend's own
   record of a usable probe:

     { "key": { "ash": VERSION, "uid": UID, "kernel": "RELEASE VERSION",
                "backend": NAME, "identity": "..." },
       "probe": { ... } }

   Every directory on the way to DIR is opened one component at a time
   without following a link.  The directories from the home down (or all
   of them, for a cache outside the home) must belong to the user and be
   writable by nobody else; a directory above the home may belong to root
   and be writable by others only when it is sticky.  The file must be a
   regular file of the user's, writable by nobody else.  Anything else,
   and any key that differs from this run's, makes the entry unused.  */

#include <config.h>

#include "sandbox/probe-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/util.h"
#include "sandbox/backend-impl.h"
#include "sandbox/probe-entry.h"

#define CACHE_FILE_MAX (64 * 1024)

/* The cache directory for this process, or NULL.  */
static char *
cache_dir (const char **ret_home)
{
  const char *xdg = getenv ("XDG_CACHE_HOME");
  const char *home = getenv ("HOME");

  *ret_home = home && home[0] == '/' ? home : NULL;
  if (xdg && xdg[0] == '/')
    return ash_path_join (xdg, "ash");
  if (*ret_home)
    return ash_path_join (*ret_home, ".cache/ash");
  return NULL;
}

/* Whether the directory DFD may lead to the cache: with STRICT, only when
   it is UID's (the user's) and writable by nobody else; otherwise it may also
   be root's, and writable by others only when it is root's and sticky.  */
static bool
trusted_dir (int dfd, bool strict, uid_t uid)
{
  struct stat st;

  if (fstat (dfd, &st) < 0 || !S_ISDIR (st.st_mode))
    return false;
  if (strict)
    return st.st_uid == uid && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
  if (st.st_uid != uid && st.st_uid != 0)
    return false;
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) == 0)
    return true;
  /* /tmp: others may add entries, not replace ours.  */
  return st.st_uid == 0 && (st.st_mode & S_ISVTX);
}

/* Open DIR (absolute) one component at a time without following links,
   checking each directory; with CREATE, make the missing components (mode
   0700).  Returns the directory fd, or a negative errno.  */
static int
open_dir (const char *dir, const char *home, bool create)
{
  _cleanup_free_ char *copy = xstrdup (dir);
  _cleanup_free_ char *walked = xstrdup ("");
  int fd = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  bool below_home = false;
  char *save = NULL;
  uid_t uid = geteuid ();

  if (fd < 0)
    return -errno;
  /* The whole cache directory is strict when it is not in the home.  */
  bool in_home = home && ash_path_is_inside (dir, home);
  if (!trusted_dir (fd, false, uid))
    {
      close (fd);
      return -EPERM;
    }
  for (char *c = strtok_r (copy, "/", &save); c;
       c = strtok_r (NULL, "/", &save))
    {
      int nfd;
      char *w;

      if (streq (c, ".") || streq (c, ".."))
        {
          close (fd);
          return -EINVAL;
        }
      w = xasprintf ("%s/%s", walked, c);
      free (walked);
      walked = w;
      nfd = openat (fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (nfd < 0 && errno == ENOENT && create)
        {
          if (mkdirat (fd, c, 0700) < 0 && errno != EEXIST)
            {
              int e = errno;
              close (fd);
              return -e;
            }
          nfd = openat (fd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
      if (nfd < 0)
        {
          int e = errno;
          close (fd);
          return -e;
        }
      close (fd);
      fd = nfd;
      if (in_home && streq (walked, home))
        below_home = true;
      /* The home and below it, and the cache directory itself, are the
         user's alone; the directories above may be root's.  */
      if (!trusted_dir (fd, below_home || streq (walked, dir), uid))
        {
          close (fd);
          return -EPERM;
        }
    }
  return fd;
}

/* As open_dir, but the descriptor returned can create and remove entries
   (an O_PATH descriptor cannot): the checked directory reopened through
   itself, so no name is resolved again.  */
static int
open_dir_usable (const char *dir, const char *home, bool create)
{
  int fd = open_dir (dir, home, create);
  int rfd;

  if (fd < 0)
    return fd;
  rfd = openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rfd < 0)
    rfd = -errno;
  close (fd);
  return rfd;
}

/* The text of DIR/NAME into TEXT when it can be trusted (a regular file
   of the user's, one name, writable by nobody else, in a trusted
   directory), and not empty.  */
static bool
read_entry_text (const char *name, struct ash_buf *text)
{
  const char *home;
  _cleanup_free_ char *dir = cache_dir (&home);
  _cleanup_close_ int dfd = -1, fd = -1;
  struct stat st;
  char chunk[4096];
  ssize_t n;

  if (!dir)
    return false;
  dfd = open_dir (dir, home, false);
  if (dfd < 0)
    return false;
  fd = openat (dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) < 0 || !S_ISREG (st.st_mode)
      || st.st_uid != geteuid () || (st.st_mode & (S_IWGRP | S_IWOTH))
      || st.st_nlink != 1 || st.st_size > CACHE_FILE_MAX)
    return false;
  while ((n = read (fd, chunk, sizeof chunk)) > 0
         && text->len < CACHE_FILE_MAX)
    ash_buf_add (text, chunk, (size_t) n);
  return n >= 0 && text->len > 0;
}

/* TEXT as a JSON object, or NULL.  */
static json_t *
parse_entry (const struct ash_buf *text)
{
  json_t *doc
    = json_loadb (text->buf, text->len, JSON_REJECT_DUPLICATES, NULL);

  if (doc && !json_is_object (doc))
    {
      json_decref (doc);
      doc = NULL;
    }
  return doc;
}

/* The document in DIR/NAME when it can be trusted, or NULL.  */
static json_t *
read_entry (const char *name)
{
  _cleanup_buf_ struct ash_buf text = ASH_BUF_INIT;

  return read_entry_text (name, &text) ? parse_entry (&text) : NULL;
}

/* Write DOC as DIR/NAME (mode 0600, replaced whole), making the cache
   directory when missing.  Failures are silent.  */
static void
write_entry (const char *name, json_t *doc)
{
  const char *home;
  _cleanup_free_ char *dir = cache_dir (&home);
  _cleanup_free_ char *tmp = NULL, *text = NULL;
  _cleanup_close_ int dfd = -1;
  int fd;
  size_t len;
  bool ok;

  if (!dir || !(text = json_dumps (doc, JSON_COMPACT)))
    return;
  dfd = open_dir_usable (dir, home, true);
  if (dfd < 0)
    return;
  tmp = xasprintf (".%s.%ld.tmp", name, (long) getpid ());
  fd = openat (dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
               0600);
  if (fd < 0)
    return;
  len = strlen (text);
  ok = write (fd, text, len) == (ssize_t) len;
  ok = close (fd) == 0 && ok;
  if (!ok || renameat (dfd, tmp, dfd, name) < 0)
    unlinkat (dfd, tmp, 0);
}

static void
forget_entry (const char *name)
{
  const char *home;
  _cleanup_free_ char *dir = cache_dir (&home);
  _cleanup_close_ int dfd = -1;

  if (!dir)
    return;
  dfd = open_dir_usable (dir, home, false);
  if (dfd < 0)
    return;
  unlinkat (dfd, name, 0);
}

static char *
file_name (const struct ash_backend *backend)
{
  return xasprintf ("probe-%s.json", backend->name);
}

/* What a backend's key is made of in this run.  */
struct key_parts
{
  struct ash_buf identity;
  char *kernel;
  long long uid;
};

static void
key_parts_release (struct key_parts *k)
{
  ash_buf_release (&k->identity);
  free (k->kernel);
}

/* This run's key for BACKEND into RET (released by the caller either
   way), or false when the backend cannot be cached or its programs are
   missing.  */
static bool
key_parts (const struct ash_backend *backend, const struct ash_host *host,
           struct key_parts *ret)
{
  struct utsname u;

  ash_buf_init (&ret->identity);
  ret->kernel = NULL;
  ret->uid = (long long) geteuid ();
  if (!backend->identity || !backend->save || !backend->load || uname (&u) < 0
      || backend->identity (host, &ret->identity) < 0)
    return false;
  ret->kernel = xasprintf ("%s %s", u.release, u.version);
  return true;
}

static json_t *
key_json (const struct ash_backend *backend, const struct key_parts *k)
{
  return json_pack ("{s:s, s:I, s:s, s:s, s:s}", "ash", PACKAGE_VERSION, "uid",
                    (json_int_t) k->uid, "kernel", k->kernel, "backend",
                    backend->name, "identity", k->identity.buf);
}

/* This run's key for BACKEND, or NULL when the backend cannot be
   cached or its programs are missing.  */
static json_t *
make_key (const struct ash_backend *backend, const struct ash_host *host)
{
  struct key_parts k;
  json_t *key = key_parts (backend, host, &k) ? key_json (backend, &k) : NULL;

  key_parts_release (&k);
  return key;
}

/* The probe object of the cached entry NAME for BACKEND under the key K
   (a new reference), or NULL.  An entry as probe-cache.c writes it is read
   by ash_probe_entry_read(); any other text by jansson, as it always
   was.  */
static json_t *
load_probe_object (const struct ash_backend *backend,
                   const struct key_parts *k, const char *name)
{
  _cleanup_buf_ struct ash_buf text = ASH_BUF_INIT;
  _cleanup_buf_ struct ash_buf key_text = ASH_BUF_INIT;
  json_t *probe = NULL;

  if (!read_entry_text (name, &text))
    return NULL;
  if (ash_probe_entry_key_text (PACKAGE_VERSION, k->uid, k->kernel,
                                backend->name, k->identity.buf, &key_text)
        == 0
      && ash_probe_entry_read (text.buf, text.len, key_text.buf, &probe) == 0)
    return probe;

  _cleanup_json_ json_t *key = key_json (backend, k);
  _cleanup_json_ json_t *doc = key ? parse_entry (&text) : NULL;
  if (!doc || !json_equal (json_object_get (doc, "key"), key))
    return NULL;
  probe = json_object_get (doc, "probe");
  return json_is_object (probe) ? json_incref (probe) : NULL;
}

struct ash_probe *
ash_probe_cache_load (const struct ash_backend *backend,
                      const struct ash_host *host)
{
  _cleanup_free_ char *name = file_name (backend);
  struct ash_probe *p = NULL;
  struct key_parts k;
  _cleanup_json_ json_t *probe = NULL;

  if (key_parts (backend, host, &k))
    probe = load_probe_object (backend, &k, name);
  key_parts_release (&k);
  if (!probe)
    return NULL;
  if (backend->load (probe, &p) < 0)
    p = NULL;
  if (p)
    {
      p->backend = backend;
      p->usable = true;
      p->cached = true;
      /* The cheap check before a run relies on it; a failure means the
         full probe.  */
      if (backend->recheck && backend->recheck (p, host) < 0)
        {
          ash_probe_free (p);
          p = NULL;
        }
    }
  return p;
}

void
ash_probe_cache_store (const struct ash_backend *backend,
                       const struct ash_host *host,
                       const struct ash_probe *probe)
{
  _cleanup_free_ char *name = file_name (backend);
  json_t *key, *doc, *pj;

  /* An unusable backend is never stored: it is probed in every run, so a
     stale entry can never make a sandbox weaker than a probe would.  */
  if (!ash_probe_usable (probe) || probe->cached)
    {
      if (!ash_probe_usable (probe))
        ash_probe_cache_forget (backend);
      return;
    }
  if (!(key = make_key (backend, host)))
    return;
  pj = json_object ();
  if (backend->save (probe, pj) < 0)
    {
      json_decref (pj);
      json_decref (key);
      return;
    }
  doc = json_pack ("{s:o, s:o}", "key", key, "probe", pj);
  if (!doc)
    return;
  write_entry (name, doc);
  json_decref (doc);
}

void
ash_probe_cache_forget (const struct ash_backend *backend)
{
  _cleanup_free_ char *name = file_name (backend);
  forget_entry (name);
}

/* ---- tool capability probes ---------------------------------------------- */

static atomic_bool tool_cache_disabled;

void
ash_tool_cache_disable (bool disable)
{
  atomic_store (&tool_cache_disabled, disable);
}

static bool
ascii_alnum (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
         || (c >= '0' && c <= '9');
}

/* The entry's file name for SCANNER's probe WHAT: only letters, digits
   and '-' of each, so that no name leaves the directory.  */
static char *
tool_file_name (const char *scanner, const char *what)
{
  struct ash_buf b = ASH_BUF_INIT;
  ash_buf_addstr (&b, "tool-");
  for (const char *s = scanner; *s; s++)
    ash_buf_addch (&b, ascii_alnum (*s) || *s == '-' ? *s : '_');
  ash_buf_addch (&b, '.');
  for (const char *s = what; *s; s++)
    ash_buf_addch (&b, ascii_alnum (*s) || *s == '-' ? *s : '_');
  ash_buf_addstr (&b, ".json");
  return ash_buf_detach (&b);
}

/* This run's key for TOOL's probe WHAT, or NULL when TOOL cannot be
   identified.  */
static json_t *
tool_key (const char *scanner, const char *tool, const char *what)
{
  struct stat st;

  if (!tool || tool[0] != '/' || stat (tool, &st) < 0 || !S_ISREG (st.st_mode))
    return NULL;
  return json_pack ("{s:s, s:I, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I}",
                    "ash", PACKAGE_VERSION, "uid", (json_int_t) geteuid (),
                    "scanner", scanner, "probe", what, "tool", tool, "dev",
                    (json_int_t) st.st_dev, "ino", (json_int_t) st.st_ino,
                    "size", (json_int_t) st.st_size, "mtime",
                    (json_int_t) st.st_mtim.tv_sec, "mtime_ns",
                    (json_int_t) st.st_mtim.tv_nsec);
}

char *
ash_tool_cache_load (const char *scanner, const char *tool, const char *what)
{
  if (atomic_load (&tool_cache_disabled))
    return NULL;
  _cleanup_free_ char *name = tool_file_name (scanner, what);
  json_t *key = tool_key (scanner, tool, what);
  json_t *doc = key ? read_entry (name) : NULL;
  char *ret = NULL;

  if (doc && json_equal (json_object_get (doc, "key"), key)
      && json_is_string (json_object_get (doc, "value")))
    ret = xstrdup (json_string_value (json_object_get (doc, "value")));
  json_decref (doc);
  json_decref (key);
  return ret;
}

void
ash_tool_cache_store (const char *scanner, const char *tool, const char *what,
                      const char *value)
{
  if (atomic_load (&tool_cache_disabled))
    return;
  _cleanup_free_ char *name = tool_file_name (scanner, what);
  json_t *key = tool_key (scanner, tool, what);
  json_t *doc;

  if (!key)
    return;
  doc = json_pack ("{s:o, s:s}", "key", key, "value", value);
  if (!doc)
    return;
  write_entry (name, doc);
  json_decref (doc);
}

void
ash_tool_cache_forget (const char *scanner, const char *what)
{
  _cleanup_free_ char *name = tool_file_name (scanner, what);
  forget_entry (name);
}
