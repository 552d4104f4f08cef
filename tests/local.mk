## tests/local.mk: the test suite (TAP through automake's tap-driver.sh).
## One "+=" line per test so that lists merge cleanly.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/tap-run
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/tap-run $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	ASH='$(abs_top_builddir)/$(ash_platform)/ash'; export ASH; \
	ASH_HELPER_DIR='$(abs_top_builddir)/$(ash_platform)'; export ASH_HELPER_DIR; \
	LC_ALL=C.UTF-8; export LC_ALL; LANGUAGE=; export LANGUAGE;

EXTRA_DIST += tests/tap.h tests/libtest.sh tests/tap-run

tests_unit_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/lib -I$(top_srcdir)/tests $(YAML_CFLAGS) $(JANSSON_CFLAGS)

check_PROGRAMS += tests/unit/test-util
tests_unit_test_util_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_util_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-util

TESTS += tests/sh/version.sh
EXTRA_DIST += tests/sh/version.sh
check_PROGRAMS += tests/unit/test-bandit
tests_unit_test_bandit_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_bandit_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-bandit
check_PROGRAMS += tests/unit/test-sarif
tests_unit_test_sarif_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_sarif_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-sarif
check_PROGRAMS += tests/unit/test-suppress
tests_unit_test_suppress_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_suppress_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-suppress
check_PROGRAMS += tests/unit/test-results
tests_unit_test_results_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_results_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-results
EXTRA_DIST += tests/fixtures/bandit/py-small-report.json
