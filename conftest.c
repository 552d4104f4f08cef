/* confdefs.h */
#define PACKAGE_NAME "ash"
#define PACKAGE_TARNAME "ash"
#define PACKAGE_VERSION "0.1.0"
#define PACKAGE_STRING "ash 0.1.0"
#define PACKAGE_BUGREPORT "https://github.com/ash-sandbox/ash/issues"
#define PACKAGE_URL ""
#define PACKAGE "ash"
#define VERSION "0.1.0"
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_STRINGS_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_WCHAR_H 1
#define HAVE_STDBOOL_H 1
#define STDC_HEADERS 1
#define _ALL_SOURCE 1
#define _DARWIN_C_SOURCE 1
#define _GNU_SOURCE 1
#define _HPUX_ALT_XOPEN_SOCKET_API 1
#define _NETBSD_SOURCE 1
#define _OPENBSD_SOURCE 1
#define _POSIX_PTHREAD_SEMANTICS 1
#define __STDC_WANT_IEC_60559_ATTRIBS_EXT__ 1
#define __STDC_WANT_IEC_60559_BFP_EXT__ 1
#define __STDC_WANT_IEC_60559_DFP_EXT__ 1
#define __STDC_WANT_IEC_60559_FUNCS_EXT__ 1
#define __STDC_WANT_IEC_60559_TYPES_EXT__ 1
#define __STDC_WANT_LIB_EXT2__ 1
#define __STDC_WANT_MATH_SPEC_FUNCS__ 1
#define _TANDEM_SOURCE 1
#define __EXTENSIONS__ 1
#define HAVE_C_VARARRAYS 1
#define ENABLE_NLS 1
#define HAVE_GETTEXT 1
#define HAVE_DCGETTEXT 1
#define HAVE_LIBARCHIVE 1
#define HAVE_LINUX_OPENAT2_H 1
#define HAVE_SYS_PRCTL_H 1
#define HAVE_PIPE2 1
#define HAVE_CLOSE_RANGE 1
#define HAVE_GETRANDOM 1
/* end confdefs.h.  */

int
main (void)
{

  ;
  return 0;
}
