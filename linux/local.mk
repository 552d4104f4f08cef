## linux/local.mk: the Linux programs and backends.
bin_PROGRAMS += linux/ash
linux_ash_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS)
linux_ash_SOURCES =
linux_ash_SOURCES += linux/main.c
linux_ash_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
pkglibexec_PROGRAMS += linux/ash-landlock-exec
linux_ash_landlock_exec_CPPFLAGS = $(AM_CPPFLAGS) $(SECCOMP_CFLAGS)
linux_ash_landlock_exec_LDADD = $(SECCOMP_LIBS)
linux_ash_landlock_exec_SOURCES =
linux_ash_landlock_exec_SOURCES += linux/landlock-exec.c linux/landlock-exec.h
linux_ash_landlock_exec_SOURCES += linux/landlock-uapi.h
linux_ash_landlock_exec_SOURCES += linux/socket-filter.c linux/socket-filter.h
