## linux/local.mk: the Linux programs and backends.
bin_PROGRAMS += linux/ash
linux_ash_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS)
linux_ash_SOURCES =
linux_ash_SOURCES += linux/main.c
linux_ash_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
linux_ash_SOURCES += linux/backends.h linux/backend-util.c
linux_ash_SOURCES += linux/bwrap.c
linux_ash_SOURCES += linux/firejail.c
linux_ash_SOURCES += linux/landlock.c
check_PROGRAMS += tests/unit/test-backend-wrap
tests_unit_test_backend_wrap_SOURCES = tests/unit/test-backend-wrap.c linux/backend-util.c linux/bwrap.c linux/firejail.c linux/landlock.c
tests_unit_test_backend_wrap_CPPFLAGS = $(tests_unit_cppflags) -I$(top_srcdir)/linux
tests_unit_test_backend_wrap_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-backend-wrap
