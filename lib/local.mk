## lib/local.mk: libash, the portable core.  One "+=" line per file, so that
## lists merge cleanly.
noinst_LIBRARIES += lib/libash.a
lib_libash_a_CPPFLAGS = $(AM_CPPFLAGS) $(YAML_CFLAGS) $(JANSSON_CFLAGS)
lib_libash_a_SOURCES =
lib_libash_a_SOURCES += lib/util.c lib/util.h
lib_libash_a_SOURCES += lib/error.c lib/error.h
lib_libash_a_SOURCES += lib/buf.c lib/buf.h
lib_libash_a_SOURCES += lib/strvec.c lib/strvec.h
lib_libash_a_SOURCES += lib/cli.c lib/cli.h
lib_libash_a_SOURCES += lib/options.h
lib_libash_a_SOURCES += lib/config.h
lib_libash_a_SOURCES += lib/spawn.h
lib_libash_a_SOURCES += lib/backend.h
lib_libash_a_SOURCES += lib/requirements.h
lib_libash_a_SOURCES += lib/policy.h
lib_libash_a_SOURCES += lib/tree.h
lib_libash_a_SOURCES += lib/log.h

## Everything that links libash needs these.
ASH_LIBS = lib/libash.a gl/libgnu.a $(YAML_LIBS) $(JANSSON_LIBS) $(LIBINTL) -lpthread
lib_libash_a_SOURCES += lib/log.c
lib_libash_a_SOURCES += lib/commands.h
lib_libash_a_SOURCES += lib/orchestrator.c
lib_libash_a_SOURCES += lib/sandbox-probe.c
lib_libash_a_SOURCES += lib/sandbox-explain.c
lib_libash_a_SOURCES += lib/sandbox-settings.h
lib_libash_a_SOURCES += lib/requirements.c
lib_libash_a_SOURCES += lib/scanner-reqs.c lib/scanner-reqs.h
lib_libash_a_SOURCES += lib/homescreen.c lib/homescreen.h
lib_libash_a_SOURCES += lib/envfilter.c lib/envfilter.h
lib_libash_a_SOURCES += lib/policy.c
lib_libash_a_SOURCES += lib/policy-json.c
