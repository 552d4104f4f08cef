## win32/local.mk: ash on Windows, which has no sandbox backend.
bin_PROGRAMS += win32/ash
win32_ash_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
win32_ash_SOURCES =
win32_ash_SOURCES += win32/main.c
win32_ash_LDADD = $(ASH_LIBS)
