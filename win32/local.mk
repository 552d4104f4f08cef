# SPDX-License-Identifier: Apache-2.0
## win32/local.mk: ash on Windows, which has no sandbox backend.
bin_PROGRAMS += win32/ash
win32_ash_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
win32_ash_SOURCES =
win32_ash_SOURCES += win32/main.c
win32_ash_LDADD = $(ASH_LIBS)
## win32/compat/ supplies the POSIX headers lib/ includes; they are not
## installed.
EXTRA_DIST += win32/compat/pwd.h win32/compat/poll.h win32/compat/fnmatch.h \
	win32/compat/sys/wait.h win32/compat/sys/resource.h
