## darwin/local.mk: ash on macOS, with the sandbox-exec backend.
bin_PROGRAMS += darwin/ash
darwin_ash_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
darwin_ash_SOURCES =
darwin_ash_SOURCES += darwin/main.c
darwin_ash_LDADD = $(ASH_LIBS)
