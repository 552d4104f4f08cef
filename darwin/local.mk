# SPDX-License-Identifier: Apache-2.0
## darwin/local.mk: ash on macOS, with the sandbox-exec backend.
bin_PROGRAMS += darwin/ash
darwin_ash_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
darwin_ash_SOURCES =
darwin_ash_SOURCES += darwin/main.c
darwin_ash_LDADD = $(ASH_LIBS)
darwin_ash_SOURCES += darwin/backends.h darwin/sandbox-exec.c
check_PROGRAMS += tests/unit/test-backend-run
tests_unit_test_backend_run_SOURCES = tests/unit/test-backend-run.c darwin/sandbox-exec.c
tests_unit_test_backend_run_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_backend_run_LDADD = $(ASH_LIBS)
TESTS += tests/sh/sandbox-escape-sandbox-exec.sh
