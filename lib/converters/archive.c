/* SPDX-License-Identifier: Apache-2.0 */
/* archive.c -- the archive converter: zip and tar (gzip, bzip2, xz)
   extracted in ASH's own process with libarchive, whose functions it
   calls through the table of archive-lib.h (on Linux, the library is
   loaded when the first archive is extracted).

   ASH is the trusted base here, so everything an archive says is checked
   before a byte is written: entries are written only through the
   non-following writers of fs/tree.c, below converted/archive/ARCHIVE/.
   An entry whose name is absolute or holds "..", a link that leaves the
   work directory, a device file, a FIFO or a socket is refused and
   listed.  A link that stays inside is not extracted either (listed as
   skipped): scanners read files, and a link there would only be a way for
   a later entry to be written somewhere else.

   The caps (converters.archive.options) bound what one archive, nested
   archives included, may write: total size, number of entries, nesting
   depth, and the ratio of bytes written to bytes read, which stops a
   decompression bomb after a few megabytes rather than when the disk is
   full.  An archive that breaks a cap, or that libarchive cannot read, is
   listed in failed_inputs and what was extracted of it is removed, so the
   scanners never see half an archive.

   Only the filters libarchive implements in-process are enabled: a filter
   that would fall back to an external program (libarchive runs "bunzip2"
   when built without libbz2) would start a process outside spawn.c, so
   the archive is failed instead.  */

#include <config.h>

#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#if HAVE_LIBARCHIVE
#include "converters/archive-lib.h"
#endif

#include "base/buf.h"
#include "base/log.h"
#include "base/util.h"
#include "converters/converter.h"
#include "fs/tree.h"

static const char *const archive_suffixes[] = {
  ".zip",  ".tar", ".tar.gz", ".tgz", ".tar.bz2",
  ".tbz2", ".tbz", ".tar.xz", ".txz",
};

bool
ash_archive_name_matches (const char *name)
{
  const char *base = strrchr (name, '/');
  base = base ? base + 1 : name;
  size_t n = strlen (base);
  if (n < 2)
    return false;
  /* Every file of the scan set comes through here: the last byte rules
     out most names before any suffix is compared.  */
  char last = (char) tolower ((unsigned char) base[n - 1]);
  for (size_t i = 0; i < ARRAY_SIZE (archive_suffixes); i++)
    {
      size_t k = strlen (archive_suffixes[i]);
      if (n > k && archive_suffixes[i][k - 1] == last
          && strcasecmp (base + n - k, archive_suffixes[i]) == 0)
        return true;
    }
  return false;
}

bool
ash_archive_available (const char **ret_why)
{
#if HAVE_LIBARCHIVE
  if (ret_why)
    *ret_why = NULL;
  return true;
#else
  if (ret_why)
    *ret_why = _ ("ash was built without libarchive (configure found no "
                  "libarchive; install the Debian package 'libarchive-dev' "
                  "and rebuild)");
  return false;
#endif
}

static uint64_t
opt_uint (const json_t *options, const char *key, uint64_t dflt)
{
  json_t *v = json_object_get (options, key);
  if (json_is_integer (v) && json_integer_value (v) >= 0)
    return (uint64_t) json_integer_value (v);
  return dflt;
}

void
ash_archive_limits_from_options (const json_t *options,
                                 struct ash_archive_limits *ret)
{
  ret->max_total_size
    = opt_uint (options, "max_total_size", ASH_ARCHIVE_DEFAULT_MAX_TOTAL_SIZE);
  ret->max_entries
    = opt_uint (options, "max_entries", ASH_ARCHIVE_DEFAULT_MAX_ENTRIES);
  ret->max_depth = (unsigned) opt_uint (options, "max_depth",
                                        ASH_ARCHIVE_DEFAULT_MAX_DEPTH);
  ret->max_ratio
    = opt_uint (options, "max_ratio", ASH_ARCHIVE_DEFAULT_MAX_RATIO);
}

#if HAVE_LIBARCHIVE

/* Ratios are checked once this much has been written, so that a small,
   very compressible file (a license, a table of zeros) is not refused.  */
#define RATIO_FLOOR ((uint64_t) 1 << 20)
#define NESTED_SUFFIX ".contents"

struct ax
{
  const struct ash_archive_limits *lim;
  int workfd;
  const char *top;  /* the archive, relative to the source */
  uint64_t written; /* for the whole top-level archive */
  uint64_t entries;
  json_t *converted; /* this archive's files, added on success */
  struct ash_converter_result *res;
  const struct ash_archive_lib *al; /* libarchive's functions */
};

/* An entry's name, checked: the components joined with '/', "." and empty
   ones dropped.  NULL with *WHY set when it is refused.  */
static char *
entry_rel (const char *name, const char **why)
{
  struct ash_buf b = ASH_BUF_INIT;
  if (name == NULL || *name == '\0')
    {
      *why = _ ("the entry has no name");
      return NULL;
    }
  if (name[0] == '/')
    {
      *why = _ ("the entry's path is absolute");
      return NULL;
    }
  const char *p = name;
  while (*p)
    {
      const char *s = strchr (p, '/');
      size_t n = s ? (size_t) (s - p) : strlen (p);
      if (n == 2 && p[0] == '.' && p[1] == '.')
        {
          ash_buf_release (&b);
          *why = _ ("the entry's path contains '..'");
          return NULL;
        }
      if (n > 0 && !(n == 1 && p[0] == '.'))
        {
          if (b.len)
            ash_buf_addch (&b, '/');
          ash_buf_add (&b, p, n);
        }
      p += n + (s ? 1 : 0);
    }
  return ash_buf_detach (&b);
}

/* Whether a link at REL (an entry path) with TARGET stays inside the
   directory the archive is extracted to.  */
static bool
link_stays_inside (const char *rel, const char *target)
{
  if (target == NULL || *target == '\0' || target[0] == '/')
    return false;
  long depth = 0;
  for (const char *p = rel; *p; p++)
    if (*p == '/')
      depth++;
  const char *p = target;
  while (*p)
    {
      const char *s = strchr (p, '/');
      size_t n = s ? (size_t) (s - p) : strlen (p);
      if (n == 2 && p[0] == '.' && p[1] == '.')
        {
          if (--depth < 0)
            return false;
        }
      else if (n > 0 && !(n == 1 && p[0] == '.'))
        depth++;
      p += n + (s ? 1 : 0);
    }
  return true;
}

/* Is S valid UTF-8 (as a JSON string must be)?  */
static bool
is_utf8 (const char *s)
{
  json_t *j = json_string (s);
  json_decref (j);
  return j != NULL;
}

static json_t *
jstr (const char *s)
{
  json_t *j = json_string (s);
  if (j == NULL)
    {
      _cleanup_free_ char *e = ash_converter_escape (s);
      j = json_string (e);
    }
  return j;
}

static void
skipped (struct ax *x, const char *label, const char *why)
{
  json_t *o = json_object ();
  json_object_set_new (o, "path", jstr (label));
  json_object_set_new (o, "reason", jstr (why));
  json_array_append_new (x->res->skipped_entries, o);
}

static char *
human_size (uint64_t n)
{
  if (n >= ((uint64_t) 1 << 30))
    return xasprintf ("%.1f GiB", (double) n / (1 << 30));
  if (n >= ((uint64_t) 1 << 20))
    return xasprintf ("%.1f MiB", (double) n / (1 << 20));
  return xasprintf ("%" PRIu64 " bytes", n);
}

static int extract (struct ax *x, int fd, const char *dest, const char *label,
                    const char *member_prefix, unsigned depth,
                    struct ash_error *err);

/* Write the data of the current entry to DEST/REL.  */
static int
write_entry (struct ax *x, struct archive *a, const char *path,
             const char *label, uint64_t *level_written, struct ash_error *err)
{
  struct ash_tree_file f = ASH_TREE_FILE_INIT;
  _cleanup_free_ char *buf = xmalloc (1 << 16);
  int r = ash_tree_file_create (x->workfd, path, 0644, &f, err);
  if (r < 0)
    return r;
  for (;;)
    {
      la_ssize_t n = x->al->archive_read_data (a, buf, 1 << 16);
      if (n == 0)
        break;
      if (n < 0)
        {
          ash_tree_file_abort (&f);
          return ash_error_set (err, -EIO,
                                _ ("%s: cannot read the archive: %s"), label,
                                x->al->archive_error_string (a));
        }
      x->written += (uint64_t) n;
      *level_written += (uint64_t) n;
      if (x->written > x->lim->max_total_size)
        {
          ash_tree_file_abort (&f);
          _cleanup_free_ char *cap = human_size (x->lim->max_total_size);
          return ash_error_set (err, -EFBIG,
                                _ ("%s: refused: it expands to more than %s "
                                   "(converters.archive.options."
                                   "max_total_size)"),
                                label, cap);
        }
      int64_t in = x->al->archive_filter_bytes (a, -1);
      if (*level_written > RATIO_FLOOR
          && *level_written / (uint64_t) (in > 0 ? in : 1) > x->lim->max_ratio)
        {
          ash_tree_file_abort (&f);
          return ash_error_set (err, -EFBIG,
                                _ ("%s: refused as a decompression bomb: it "
                                   "expands more than %" PRIu64 " times its "
                                   "compressed size (converters.archive."
                                   "options.max_ratio)"),
                                label, x->lim->max_ratio);
        }
      if (write (f.fd, buf, (size_t) n) != n)
        {
          int e = errno ? errno : EIO;
          ash_tree_file_abort (&f);
          return ash_error_set (err, -e, _ ("cannot write %s: %s"), path,
                                strerror (e));
        }
    }
  return ash_tree_file_commit (&f, err);
}

/* A regular file just written at PATH that is itself an archive:
   extracted next to it, into PATH.contents/.  */
static int
extract_nested (struct ax *x, const char *path, const char *label,
                const char *member, unsigned depth, struct ash_error *err)
{
  _cleanup_free_ char *dir = xstrdup (path);
  char *slash = strrchr (dir, '/');
  const char *base = slash ? slash + 1 : dir;
  if (slash)
    *slash = '\0';
  _cleanup_close_ int dfd = -1;
  int r = ash_tree_open_dir (x->workfd, slash ? dir : ".", &dfd, err);
  if (r < 0)
    return r;
  _cleanup_close_ int fd
    = openat (dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return ash_error_set (err, -errno, _ ("cannot open %s: %s"), path,
                          strerror (errno));
  _cleanup_free_ char *dest = xasprintf ("%s" NESTED_SUFFIX, path);
  _cleanup_free_ char *nlabel = xasprintf ("%s!%s", label, member);
  _cleanup_free_ char *prefix = xasprintf ("%s!/", member);
  return extract (x, fd, dest, nlabel, prefix, depth + 1, err);
}

static const char *
special_kind (mode_t type)
{
  switch (type)
    {
    case AE_IFCHR:
      return _ ("a character device");
    case AE_IFBLK:
      return _ ("a block device");
    case AE_IFIFO:
      return _ ("a FIFO");
    case AE_IFSOCK:
      return _ ("a socket");
    default:
      return NULL;
    }
}

/* Extract the archive open at FD into DEST (relative to the work
   directory).  LABEL names it in messages ("a.zip", "a.zip!b.tar"),
   MEMBER_PREFIX goes before each member in the map ("" at the top).
   Entries refused are listed; 0 unless the archive as a whole fails.  */
/* Free the archive reader *A, if any (a cleanup function).  A reader
   exists only once the library is loaded, so the table is there.  */
static void
archive_freep (struct archive **a)
{
  const struct ash_archive_lib *al;
  if (*a && ash_archive_lib_load (&al, NULL) == 0)
    al->archive_read_free (*a);
}

static int
extract (struct ax *x, int fd, const char *dest, const char *label,
         const char *member_prefix, unsigned depth, struct ash_error *err)
{
  _cleanup_ (archive_freep) struct archive *a = x->al->archive_read_new ();
  struct archive_entry *e;
  uint64_t level_written = 0;
  int r = 0;

  if (a == NULL)
    ash_oom ();
  x->al->archive_read_support_format_zip (a);
  x->al->archive_read_support_format_tar (a);
  x->al->archive_read_support_format_gnutar (a);
  if (x->al->archive_read_support_filter_gzip (a) != ARCHIVE_OK
      || x->al->archive_read_support_filter_bzip2 (a) != ARCHIVE_OK
      || x->al->archive_read_support_filter_xz (a) != ARCHIVE_OK)
    return ash_error_set (err, -ENOTSUP,
                          _ ("%s: this libarchive would decompress with an "
                             "external program, which ash does not start "
                             "outside its sandbox"),
                          label);
  if (x->al->archive_read_open_fd (a, fd, 1 << 16) != ARCHIVE_OK)
    return ash_error_set (err, -EINVAL, _ ("%s: not a readable archive: %s"),
                          label, x->al->archive_error_string (a));
  r = ash_tree_mkdirs (x->workfd, dest, NULL, err);
  if (r < 0)
    return r;

  for (;;)
    {
      int h = x->al->archive_read_next_header (a, &e);
      if (h == ARCHIVE_EOF)
        break;
      if (h == ARCHIVE_FATAL || h == ARCHIVE_RETRY)
        return ash_error_set (err, -EINVAL,
                              _ ("%s: cannot read the archive: %s"), label,
                              x->al->archive_error_string (a));
      if (++x->entries > x->lim->max_entries)
        return ash_error_set (err, -EFBIG,
                              _ ("%s: refused: it has more than %" PRIu64
                                 " entries (converters.archive.options."
                                 "max_entries)"),
                              label, x->lim->max_entries);
      const char *name = x->al->archive_entry_pathname (e);
      const char *why = NULL;
      _cleanup_free_ char *shown
        = xasprintf ("%s!%s", label, name ? name : "");
      _cleanup_free_ char *rel = entry_rel (name, &why);
      if (rel == NULL)
        {
          ash_converter_refuse (x->res, shown, why);
          continue;
        }
      if (*rel == '\0')
        continue;
      mode_t type = x->al->archive_entry_filetype (e);
      const char *hl = x->al->archive_entry_hardlink (e);
      if (hl)
        {
          if (link_stays_inside ("", hl) && hl[0] != '/')
            skipped (x, shown,
                     _ ("hard links in an archive are not "
                        "extracted"));
          else
            ash_converter_refuse (x->res, shown,
                                  _ ("a hard link that leaves the work "
                                     "directory"));
          continue;
        }
      if (type == AE_IFLNK)
        {
          if (link_stays_inside (rel, x->al->archive_entry_symlink (e)))
            skipped (x, shown,
                     _ ("symbolic links in an archive are not "
                        "extracted"));
          else
            ash_converter_refuse (x->res, shown,
                                  _ ("a symbolic link that leaves the work "
                                     "directory"));
          continue;
        }
      const char *special = special_kind (type);
      if (special)
        {
          _cleanup_free_ char *m = xasprintf (_ ("%s, which is never "
                                                 "extracted"),
                                              special);
          ash_converter_refuse (x->res, shown, m);
          continue;
        }
      _cleanup_free_ char *path = xasprintf ("%s/%s", dest, rel);
      if (type == AE_IFDIR)
        {
          struct ash_error derr = ASH_ERROR_INIT;
          if (ash_tree_mkdirs (x->workfd, path, NULL, &derr) < 0)
            ash_converter_refuse (x->res, shown, derr.message);
          ash_error_release (&derr);
          continue;
        }
      if (type != AE_IFREG)
        {
          ash_converter_refuse (x->res, shown,
                                _ ("an entry of an unknown type"));
          continue;
        }
      if (x->al->archive_entry_size_is_set (e)
          && (uint64_t) x->al->archive_entry_size (e) > x->lim->max_total_size)
        {
          _cleanup_free_ char *sz
            = human_size ((uint64_t) x->al->archive_entry_size (e));
          _cleanup_free_ char *cap = human_size (x->lim->max_total_size);
          return ash_error_set (err, -EFBIG,
                                _ ("%s: refused: the entry '%s' declares %s, "
                                   "more than %s (converters.archive.options."
                                   "max_total_size)"),
                                label, rel, sz, cap);
        }
      if (!is_utf8 (path))
        {
          /* The results name each converted file by its path, in JSON:
             a name that is not UTF-8 could only be named escaped, which
             is another name (and maybe another member's).  */
          ash_converter_refuse (x->res, shown,
                                _ ("its name is not UTF-8 text, which the "
                                   "results cannot name; not extracted"));
          continue;
        }
      struct ash_error werr = ASH_ERROR_INIT;
      int w = write_entry (x, a, path, shown, &level_written, &werr);
      if (w < 0 && (w == -EFBIG || w == -EIO))
        {
          ash_error_move (err, &werr);
          return w;
        }
      if (w < 0)
        {
          /* The writers refused the name (a link or a file where a
             directory belongs): that entry only.  */
          ash_converter_refuse (x->res, shown, werr.message);
          ash_error_release (&werr);
          continue;
        }
      ash_error_release (&werr);
      _cleanup_free_ char *member = xasprintf ("%s%s", member_prefix, rel);
      json_t *m = json_object ();
      json_object_set_new (m, "path", jstr (path));
      json_object_set_new (m, "original", jstr (x->top));
      json_object_set_new (m, "member", jstr (member));
      json_object_set_new (m, "kind", json_string ("archive"));
      json_array_append_new (x->converted, m);
      if (ash_archive_name_matches (rel))
        {
          if (depth + 1 > x->lim->max_depth)
            {
              ash_converter_refuse (x->res, shown,
                                    _ ("a nested archive deeper than "
                                       "converters.archive.options."
                                       "max_depth"));
              continue;
            }
          r = extract_nested (x, path, label, rel, depth, err);
          if (r < 0)
            return r;
        }
    }
  return r;
}

void
ash_archive_convert (int srcfd, const char *rel, int workfd,
                     const struct ash_archive_limits *limits,
                     struct ash_converter_result *res)
{
  struct ash_error err = ASH_ERROR_INIT;
  struct ax x = {
    .lim = limits,
    .workfd = workfd,
    .top = rel,
    .converted = json_array (),
    .res = res,
  };
  _cleanup_free_ char *dest = xasprintf ("archive/%s", rel);
  _cleanup_close_ int fd
    = openat (srcfd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  int r;

  if (fd < 0 || fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      _cleanup_free_ char *m
        = xasprintf (_ ("cannot open it as a regular file: %s"),
                     fd < 0 ? strerror (errno) : _ ("not a regular file"));
      ash_converter_fail (res, rel, m);
      json_decref (x.converted);
      return;
    }
  /* Loaded with the first archive (archive-lib.h): a library that cannot
     be loaded fails every archive, loudly, rather than skip it.  */
  r = ash_archive_lib_load (&x.al, &err);
  if (r < 0)
    {
      _cleanup_free_ char *m = xasprintf ("%s: %s", rel, err.message);
      ash_converter_fail (res, rel, m);
      json_decref (x.converted);
      ash_error_release (&err);
      return;
    }
  r = extract (&x, fd, dest, rel, "", 0, &err);
  if (r < 0)
    {
      struct ash_error rerr = ASH_ERROR_INIT;
      ash_converter_fail (res, rel, err.message ? err.message : strerror (-r));
      /* Half an archive is not scanned.  */
      if (ash_tree_remove_all (workfd, dest, &rerr) < 0)
        ash_warning ("%s", rerr.message);
      ash_error_release (&rerr);
    }
  else
    json_array_extend (res->converted, x.converted);
  json_decref (x.converted);
  ash_error_release (&err);
}

#else /* !HAVE_LIBARCHIVE */

void
ash_archive_convert (int srcfd _unused_, const char *rel, int workfd _unused_,
                     const struct ash_archive_limits *limits _unused_,
                     struct ash_converter_result *res)
{
  const char *why;
  ash_archive_available (&why);
  ash_converter_fail (res, rel, why);
}

#endif
