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
linux_ash_SOURCES += linux/landlock.c linux/socket-filter.c linux/socket-filter.h
linux_ash_SOURCES += linux/private-dir.c linux/private-dir.h
check_PROGRAMS += tests/unit/test-backend-wrap
tests_unit_test_backend_wrap_SOURCES = tests/unit/test-backend-wrap.c linux/backend-util.c linux/bwrap.c linux/firejail.c linux/landlock.c linux/private-dir.c linux/socket-filter.c
tests_unit_test_backend_wrap_CPPFLAGS = $(tests_unit_cppflags) $(SECCOMP_CFLAGS)
tests_unit_test_backend_wrap_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
TESTS += tests/unit/test-backend-wrap
check_PROGRAMS += tests/unit/test-explain-argv
tests_unit_test_explain_argv_SOURCES = tests/unit/test-explain-argv.c linux/backend-util.c linux/bwrap.c linux/firejail.c linux/landlock.c linux/private-dir.c linux/socket-filter.c
tests_unit_test_explain_argv_CPPFLAGS = $(tests_unit_cppflags) $(SECCOMP_CFLAGS)
tests_unit_test_explain_argv_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
TESTS += tests/unit/test-explain-argv
check_PROGRAMS += tests/unit/test-backend-run
tests_unit_test_backend_run_SOURCES = tests/unit/test-backend-run.c linux/backend-util.c linux/bwrap.c linux/firejail.c linux/landlock.c linux/private-dir.c linux/socket-filter.c
tests_unit_test_backend_run_CPPFLAGS = $(tests_unit_cppflags) $(SECCOMP_CFLAGS)
tests_unit_test_backend_run_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
TESTS += tests/sh/sandbox-escape-bwrap.sh
TESTS += tests/sh/sandbox-escape-firejail.sh
TESTS += tests/sh/sandbox-escape-landlock.sh
TESTS += tests/sh/sandbox-escape-input.sh
TESTS += tests/sh/sandbox-escape-scoring.sh
EXTRA_DIST += tests/sh/sandbox-escape.sh tests/sh/sandbox-escape-bwrap.sh tests/sh/sandbox-escape-firejail.sh tests/sh/sandbox-escape-landlock.sh \
	tests/sh/sandbox-escape-input.sh tests/fixtures/mountinfo-sample \
	tests/sh/sandbox-escape-score.sh tests/sh/sandbox-escape-scoring.sh
EXTRA_DIST += bench/README.md bench/findings.sh bench/links.sh \
	bench/noop.sh bench/one-scanner.sh bench/pygoat.sh bench/sarif-big.sh \
	bench/scanset.sh \
	bench/spawn-cost.sh bench/thread-start.sh bench/tmpdir.sh bench/tool-probe.sh \
	bench/wake.sh bench/wrapper.sh
# The socket filter's BPF programs, built from socket-filter.c's rules by
# libseccomp once, at build time, and carried by every program that
# compiles socket-filter.c.  A cross build cannot run the generator here:
# it carries none, and builds the filter when it is needed.
BUILT_SOURCES += linux/socket-filter-bpf.h
CLEANFILES += linux/socket-filter-bpf.h
if ASH_CROSS_COMPILING
linux/socket-filter-bpf.h:
	$(AM_V_GEN)$(MKDIR_P) linux && echo '#define ASH_SOCKET_FILTER_PREBUILT 0' >$@
else
noinst_PROGRAMS += linux/gen-socket-filter
linux_gen_socket_filter_SOURCES = linux/gen-socket-filter.c linux/socket-filter.c linux/socket-filter.h
linux_gen_socket_filter_CPPFLAGS = $(AM_CPPFLAGS) $(SECCOMP_CFLAGS) -DASH_SOCKET_FILTER_GENERATOR
linux_gen_socket_filter_LDADD = $(SECCOMP_LIBS)
linux/socket-filter-bpf.h: linux/gen-socket-filter$(EXEEXT)
	$(AM_V_GEN)linux/gen-socket-filter$(EXEEXT) >$@-t && mv -f $@-t $@
endif
pkglibexec_PROGRAMS += linux/ash-landlock-exec
linux_ash_landlock_exec_CPPFLAGS = $(AM_CPPFLAGS) $(SECCOMP_CFLAGS)
# A static PIE where configure found it can be (--disable-static-wrapper).
linux_ash_landlock_exec_LDFLAGS = $(AM_LDFLAGS) $(WRAPPER_LDFLAGS)
linux_ash_landlock_exec_LDADD = $(WRAPPER_LIBS)
linux_ash_landlock_exec_SOURCES =
linux_ash_landlock_exec_SOURCES += linux/landlock-exec.c linux/landlock-exec.h
linux_ash_landlock_exec_SOURCES += linux/landlock-uapi.h
linux_ash_landlock_exec_SOURCES += linux/socket-filter.c linux/socket-filter.h
TESTS += tests/sh/wrapper-static.sh
EXTRA_DIST += tests/sh/wrapper-static.sh
TESTS += tests/sh/sandbox-probe.sh
EXTRA_DIST += tests/sh/sandbox-probe.sh
EXTRA_DIST += tests/fixtures/plugins/escape-probe.yaml
TESTS += tests/sh/sandbox-scan.sh
EXTRA_DIST += tests/sh/sandbox-scan.sh
TESTS += tests/sh/sandbox-outdir.sh
EXTRA_DIST += tests/sh/sandbox-outdir.sh
TESTS += tests/sh/scan-firejail-vartmp.sh
TESTS += tests/sh/sandbox-home.sh
EXTRA_DIST += tests/sh/sandbox-home.sh tests/fixtures/tools/fake-home-probe-tool
EXTRA_DIST += tests/sh/scan-firejail-vartmp.sh
