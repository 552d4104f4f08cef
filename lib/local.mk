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
lib_libash_a_SOURCES += lib/sarif.c lib/sarif.h
lib_libash_a_SOURCES += lib/scanner.h
lib_libash_a_SOURCES += lib/scanners/registry.c
lib_libash_a_SOURCES += lib/scanners/bandit.c
lib_libash_a_SOURCES += lib/suppress.c lib/suppress.h
lib_libash_a_SOURCES += lib/results.c lib/results.h
lib_libash_a_CPPFLAGS += -I$(top_srcdir)/lib
lib_libash_a_SOURCES += lib/reports/reports.h lib/reports/flat.c
lib_libash_a_SOURCES += lib/reports/text.c
lib_libash_a_SOURCES += lib/reports/html.c
lib_libash_a_SOURCES += lib/scanners/bandit-json.c
