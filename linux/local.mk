# SPDX-License-Identifier: Apache-2.0
## linux/local.mk: the Linux programs and backends.
bin_PROGRAMS += linux/ash
linux_ash_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS)
linux_ash_SOURCES =
linux_ash_SOURCES += linux/main.c
linux_ash_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
linux_ash_SOURCES += linux/backends.h linux/backend-util.c
linux_ash_SOURCES += linux/bwrap.c
linux_ash_SOURCES += linux/firejail.c
linux_ash_SOURCES += linux/landlock.c
check_PROGRAMS += tests/unit/test-backend-wrap
tests_unit_test_backend_wrap_SOURCES = tests/unit/test-backend-wrap.c linux/backend-util.c linux/bwrap.c linux/firejail.c linux/landlock.c
tests_unit_test_backend_wrap_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_backend_wrap_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-backend-wrap
check_PROGRAMS += tests/unit/test-backend-run
tests_unit_test_backend_run_SOURCES = tests/unit/test-backend-run.c linux/backend-util.c linux/bwrap.c linux/firejail.c linux/landlock.c
tests_unit_test_backend_run_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_backend_run_LDADD = $(ASH_LIBS)
TESTS += tests/sh/sandbox-escape-bwrap.sh
TESTS += tests/sh/sandbox-escape-firejail.sh
TESTS += tests/sh/sandbox-escape-landlock.sh
TESTS += tests/sh/sandbox-escape-input.sh
TESTS += tests/sh/sandbox-escape-scoring.sh
EXTRA_DIST += tests/sh/sandbox-escape.sh tests/sh/sandbox-escape-bwrap.sh tests/sh/sandbox-escape-firejail.sh tests/sh/sandbox-escape-landlock.sh \
	tests/sh/sandbox-escape-input.sh tests/fixtures/mountinfo-sample \
	tests/sh/sandbox-escape-score.sh tests/sh/sandbox-escape-scoring.sh
EXTRA_DIST += bench/spawn-cost.sh bench/README.md
pkglibexec_PROGRAMS += linux/ash-landlock-exec
linux_ash_landlock_exec_CPPFLAGS = $(AM_CPPFLAGS) $(SECCOMP_CFLAGS)
linux_ash_landlock_exec_LDADD = $(SECCOMP_LIBS)
linux_ash_landlock_exec_SOURCES =
linux_ash_landlock_exec_SOURCES += linux/landlock-exec.c linux/landlock-exec.h
linux_ash_landlock_exec_SOURCES += linux/landlock-uapi.h
linux_ash_landlock_exec_SOURCES += linux/socket-filter.c linux/socket-filter.h
TESTS += tests/sh/sandbox-probe.sh
EXTRA_DIST += tests/sh/sandbox-probe.sh
EXTRA_DIST += tests/fixtures/plugins/escape-probe.yaml
TESTS += tests/sh/sandbox-scan.sh
EXTRA_DIST += tests/sh/sandbox-scan.sh
TESTS += tests/sh/sandbox-outdir.sh
EXTRA_DIST += tests/sh/sandbox-outdir.sh
TESTS += tests/sh/scan-firejail-vartmp.sh
EXTRA_DIST += tests/sh/scan-firejail-vartmp.sh
