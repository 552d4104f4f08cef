# SPDX-License-Identifier: Apache-2.0
## darwin/build-check.mk: darwin/ compiled on Linux in make check, with a
## stub's path for sandbox-exec (tests/darwin/sandbox-exec, which
## tests/sh/darwin-stub.sh makes and removes), so that a change that breaks
## the macOS build fails here.  configure --disable-darwin-build-check
## leaves it out.
check_PROGRAMS += tests/darwin/ash
tests_darwin_ash_SOURCES = darwin/main.c darwin/sandbox-exec.c darwin/backends.h
tests_darwin_ash_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) \
	-DASH_SANDBOX_EXEC='"$(abs_top_builddir)/tests/darwin/sandbox-exec"' \
	-DASH_DARWIN_TRUE='"/bin/true"'
tests_darwin_ash_LDADD = $(ASH_LIBS)
TESTS += tests/sh/darwin-stub.sh
