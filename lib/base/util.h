/* SPDX-License-Identifier: Apache-2.0 */
/* util.h -- small helpers every file of ash uses.

   Cleanup attributes, checked allocation, and ownership transfer.  An
   allocation failure ends the program with a message: ash has no useful way
   to go on without memory, and a checked abort is better than a NULL that
   travels.  */

#ifndef ASH_UTIL_H
#define ASH_UTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gettext.h"
#define _(msgid) gettext (msgid)
#define N_(msgid) msgid

#define _cleanup_(f) __attribute__ ((cleanup (f)))
#define _cleanup_free_ _cleanup_ (ash_freep)
#define _cleanup_close_ _cleanup_ (ash_closep)
#define _cleanup_fclose_ _cleanup_ (ash_fclosep)
/* For a json_t * (jansson): json_decref at the end of the scope.  */
#define _cleanup_json_ _cleanup_ (ash_json_decrefp)
#define _unused_ __attribute__ ((unused))
#define _printf_(a, b) __attribute__ ((format (printf, a, b)))
#define _noreturn_ __attribute__ ((noreturn))
#define _warn_unused_result_ __attribute__ ((warn_unused_result))

/* Take ownership of a pointer or fd out of a variable that a cleanup
   attribute would otherwise release.  */
#define TAKE_PTR(p)                                                           \
  ({                                                                          \
    __typeof__ (p) *_pp = &(p);                                               \
    __typeof__ (p) _ptr = *_pp;                                               \
    *_pp = NULL;                                                              \
    _ptr;                                                                     \
  })
#define TAKE_FD(fd)                                                           \
  ({                                                                          \
    int *_pfd = &(fd);                                                        \
    int _fd = *_pfd;                                                          \
    *_pfd = -1;                                                               \
    _fd;                                                                      \
  })

#define ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))
#define streq(a, b) (strcmp ((a), (b)) == 0)
#define strneq(a, b, n) (strncmp ((a), (b), (n)) == 0)

void ash_freep (void *p);
void ash_closep (int *fd);
void ash_fclosep (void *fp);
void ash_json_decrefp (void *jp);

_noreturn_ void ash_oom (void);
void *xmalloc (size_t n);
void *xzalloc (size_t n);
void *xcalloc (size_t n, size_t size);
void *xrealloc (void *p, size_t n);
void *xreallocarray (void *p, size_t n, size_t size);
char *xstrdup (const char *s);
char *xstrndup (const char *s, size_t n);
char *xasprintf (const char *fmt, ...) _printf_ (1, 2);
char *xvasprintf (const char *fmt, va_list ap) _printf_ (1, 0);

/* Read-only helpers over a borrowed NULL-terminated list of strings (a
   static table, or the v of a struct ash_strvec, which is the one owning
   string vector: strvec.h).  A NULL list is empty.  */
size_t ash_strv_length (char *const *strv);
bool ash_strv_contains (char *const *strv, const char *s);

bool ash_str_has_prefix (const char *s, const char *prefix);
bool ash_str_has_suffix (const char *s, const char *suffix);
/* The value of the hexadecimal digit C (either case), or -1.  */
int ash_hex_digit (int c);

/* Close ignoring EINTR, keeping errno.  */
void ash_close (int fd);

/* Write all of BUF to FD; 0 or a negative errno.  */
int ash_write_all (int fd, const void *buf, size_t len);

/* Path helpers.  Results are newly allocated.  */
char *ash_path_join (const char *a, const char *b);
/* Lexically normalise a path: collapse "//", "/./", "/../" (without
   consulting the file system); a relative path keeps the ".." that
   climb above its start ("../../x" stays so).  */
char *ash_path_normalize (const char *path);
/* True when PATH equals DIR or lies below it (lexically).  */
bool ash_path_is_inside (const char *path, const char *dir);
/* Absolute form of PATH relative to the current directory (lexical).  */
char *ash_path_absolute (const char *path);

/* Monotonic seconds.  */
double ash_now (void);

#endif
