## linux/local.mk: the Linux programs and backends.
bin_PROGRAMS += linux/ash
linux_ash_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS)
linux_ash_SOURCES =
linux_ash_SOURCES += linux/main.c
linux_ash_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
