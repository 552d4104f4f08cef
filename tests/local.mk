## tests/local.mk: the test suite (TAP through automake's tap-driver.sh).
## One "+=" line per test so that lists merge cleanly.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/tap-run
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/tap-run $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir=$$(cd '$(abs_top_srcdir)' && pwd -P); export top_srcdir; \
	top_builddir=$$(cd '$(abs_top_builddir)' && pwd -P); export top_builddir; \
	ASH='$(abs_top_builddir)/$(ash_platform)/ash'; export ASH; \
	ASH_HELPER_DIR='$(abs_top_builddir)/$(ash_platform)'; export ASH_HELPER_DIR; \
	LC_ALL=C.UTF-8; export LC_ALL; LANGUAGE=; export LANGUAGE;

EXTRA_DIST += tests/tap.h tests/libtest.sh tests/tap-run

tests_unit_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/tests $(YAML_CFLAGS) $(JANSSON_CFLAGS)

check_PROGRAMS += tests/unit/test-util
tests_unit_test_util_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_util_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-util

TESTS += tests/sh/version.sh
EXTRA_DIST += tests/sh/version.sh
TESTS += tests/sh/install-deps.sh
EXTRA_DIST += tests/sh/install-deps.sh
TESTS += tests/sh/completion.sh
TESTS += tests/sh/spdx.sh
EXTRA_DIST += tests/sh/spdx.sh build-aux/spdx
EXTRA_DIST += tests/sh/completion.sh
TESTS += tests/sh/homebrew-formula.sh
EXTRA_DIST += tests/sh/homebrew-formula.sh contrib/homebrew/automated-security-helper.rb
TESTS += tests/sh/debian-package.sh
EXTRA_DIST += tests/sh/debian-package.sh build-aux/check-debian
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/links
EXTRA_DIST += debian/README.Debian debian/rules debian/source/format
check_PROGRAMS += tests/unit/test-bandit
tests_unit_test_bandit_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_bandit_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-bandit
check_PROGRAMS += tests/unit/test-code-scanners
tests_unit_test_code_scanners_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_code_scanners_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-code-scanners
check_PROGRAMS += tests/unit/test-sarif
tests_unit_test_sarif_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_sarif_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-sarif
check_PROGRAMS += tests/unit/test-suppress
tests_unit_test_suppress_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_suppress_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-suppress
check_PROGRAMS += tests/unit/test-suppress-links
tests_unit_test_suppress_links_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_suppress_links_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-suppress-links
check_PROGRAMS += tests/unit/test-outdir-race
tests_unit_test_outdir_race_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_outdir_race_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-outdir-race
check_PROGRAMS += tests/unit/test-results
tests_unit_test_results_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_results_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-results
EXTRA_DIST += tests/fixtures/bandit/py-small-report.json
check_PROGRAMS += tests/unit/test-policy
tests_unit_test_policy_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_policy_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-policy
EXTRA_DIST += tests/fixtures/policy
check_PROGRAMS += tests/unit/test-tree
tests_unit_test_tree_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_tree_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-tree
check_PROGRAMS += tests/unit/test-scanset
tests_unit_test_scanset_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_scanset_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-scanset

check_PROGRAMS += tests/unit/test-sandbox-settings
tests_unit_test_sandbox_settings_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_sandbox_settings_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-sandbox-settings
EXTRA_DIST += tests/unit/test-config-tier-fixture.h

check_PROGRAMS += tests/unit/test-config-tier
tests_unit_test_config_tier_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_config_tier_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-config-tier
TESTS += tests/sh/tier-config-errors.sh
EXTRA_DIST += tests/sh/tier-config-errors.sh
TESTS += tests/sh/tier-hostile.sh
EXTRA_DIST += tests/sh/tier-hostile.sh
check_PROGRAMS += tests/fixtures/spawn-probe
tests_fixtures_spawn_probe_SOURCES = tests/fixtures/spawn-probe.c
check_PROGRAMS += tests/unit/test-spawn
tests_unit_test_spawn_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_spawn_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-spawn
TESTS += tests/sh/choke-point.sh
TESTS += tests/sh/layers.sh
EXTRA_DIST += tests/sh/layers.sh build-aux/check-layers
EXTRA_DIST += tests/sh/choke-point.sh build-aux/check-spawn-sites
EXTRA_DIST += tests/fixtures/choke-point/lib/proc/spawn.c
EXTRA_DIST += tests/fixtures/choke-point/lib/clean.c
EXTRA_DIST += tests/fixtures/choke-point/linux/bad.c
check_PROGRAMS += tests/unit/test-toolfind
tests_unit_test_toolfind_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_toolfind_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-toolfind
TESTS += tests/sh/config-errors.sh
EXTRA_DIST += tests/sh/config-errors.sh
TESTS += tests/sh/config-extends-tree.sh
EXTRA_DIST += tests/sh/config-extends-tree.sh
EXTRA_DIST += tests/fixtures/config
check_PROGRAMS += tests/unit/test-config
tests_unit_test_config_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_config_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-config
TESTS += tests/sh/config-resolve.sh
EXTRA_DIST += tests/sh/config-resolve.sh
TESTS += tests/sh/cli-usage.sh
EXTRA_DIST += tests/sh/cli-usage.sh
TESTS += tests/sh/cli-json-input.sh
EXTRA_DIST += tests/sh/cli-json-input.sh

check_PROGRAMS += tests/fixtures/escape-probe
tests_fixtures_escape_probe_SOURCES = tests/fixtures/escape-probe.c

if ASH_LINUX
check_PROGRAMS += tests/unit/test-socket-filter
tests_unit_test_socket_filter_CPPFLAGS = $(tests_unit_cppflags) $(SECCOMP_CFLAGS)
tests_unit_test_socket_filter_SOURCES = tests/unit/test-socket-filter.c
tests_unit_test_socket_filter_SOURCES += linux/socket-filter.c linux/socket-filter.h
tests_unit_test_socket_filter_LDADD = $(SECCOMP_LIBS)
TESTS += tests/unit/test-socket-filter
TESTS += tests/sh/landlock-exec.sh
EXTRA_DIST += tests/sh/landlock-exec.sh
endif
check_PROGRAMS += tests/unit/test-backend-select
tests_unit_test_backend_select_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_backend_select_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-backend-select
TESTS += tests/sh/scan-bandit.sh
EXTRA_DIST += tests/sh/scan-bandit.sh
TESTS += tests/sh/option-file.sh
EXTRA_DIST += tests/sh/option-file.sh
TESTS += tests/sh/scan-gitleaks.sh
EXTRA_DIST += tests/sh/scan-gitleaks.sh
EXTRA_DIST += tests/fixtures/tools/fake-gitleaks
TESTS += tests/sh/scan-semgrep.sh
EXTRA_DIST += tests/sh/scan-semgrep.sh
EXTRA_DIST += tests/fixtures/tools/fake-semgrep
EXTRA_DIST += tests/fixtures/tools/semgrep-data/semgrep.src.json
TESTS += tests/sh/scan-opengrep.sh
EXTRA_DIST += tests/sh/scan-opengrep.sh
TESTS += tests/sh/scan-detect-secrets.sh
EXTRA_DIST += tests/sh/scan-detect-secrets.sh
EXTRA_DIST += tests/fixtures/tools/fake-detect-secrets
TESTS += tests/sh/scan-code-union.sh
EXTRA_DIST += tests/sh/scan-code-union.sh
EXTRA_DIST += tests/fixtures/repos/secrets/.gitleaks.toml
EXTRA_DIST += tests/fixtures/repos/secrets/.gitleaksignore
EXTRA_DIST += tests/fixtures/repos/secrets/app/legacy.py
EXTRA_DIST += tests/fixtures/repos/secrets/app/settings.py
EXTRA_DIST += tests/fixtures/repos/secrets/docs/notes.txt
EXTRA_DIST += tests/fixtures/repos/secrets/keys/deploy.pem
EXTRA_DIST += tests/fixtures/repos/secrets/vendor/bundle.txt
TESTS += tests/sh/scan-plugin.sh
EXTRA_DIST += tests/sh/scan-plugin.sh
TESTS += tests/sh/plugin-grants.sh
EXTRA_DIST += tests/sh/plugin-grants.sh
EXTRA_DIST += tests/fixtures/repos/py-small/pkg/__init__.py
EXTRA_DIST += tests/fixtures/repos/py-small/pkg/clean.py
EXTRA_DIST += tests/fixtures/repos/py-small/pkg/ignored.py
EXTRA_DIST += tests/fixtures/repos/py-small/pkg/runner.py
EXTRA_DIST += tests/fixtures/tools/fake-sarif-tool
EXTRA_DIST += tests/fixtures/tools/fake-hang-tool
EXTRA_DIST += tests/fixtures/tools/fake-crash-tool
EXTRA_DIST += tests/fixtures/tools/fake-invalid-tool
EXTRA_DIST += tests/fixtures/tools/fake-silent-tool
EXTRA_DIST += tests/fixtures/plugins/fake-scanners.yaml
EXTRA_DIST += tests/fixtures/plugins/bad-placeholder.yaml
EXTRA_DIST += tests/fixtures/plugins/bad-format.yaml
TESTS += tests/sh/scan-suppress.sh
EXTRA_DIST += tests/sh/scan-suppress.sh
TESTS += tests/sh/scan-exit.sh
EXTRA_DIST += tests/sh/scan-exit.sh
TESTS += tests/sh/scan-container-refused.sh
EXTRA_DIST += tests/sh/scan-container-refused.sh
TESTS += tests/sh/output-dir.sh
EXTRA_DIST += tests/sh/output-dir.sh
TESTS += tests/sh/scan-sarif-schema.sh
EXTRA_DIST += tests/sh/scan-sarif-schema.sh
TESTS += tests/sh/scan-missing.sh
EXTRA_DIST += tests/sh/scan-missing.sh
TESTS += tests/sh/scan-interrupt.sh
EXTRA_DIST += tests/sh/scan-interrupt.sh
TESTS += tests/sh/scan-select.sh
EXTRA_DIST += tests/sh/scan-select.sh
TESTS += tests/sh/sandbox-explain.sh
EXTRA_DIST += tests/sh/sandbox-explain.sh
TESTS += tests/sh/env-credentials.sh
EXTRA_DIST += tests/sh/env-credentials.sh
TESTS += tests/sh/scan-sandboxed.sh
EXTRA_DIST += tests/sh/scan-sandboxed.sh
if ASH_LINUX
check_PROGRAMS += tests/unit/test-tree-eperm
tests_unit_test_tree_eperm_CPPFLAGS = $(tests_unit_cppflags) $(SECCOMP_CFLAGS)
tests_unit_test_tree_eperm_LDADD = $(ASH_LIBS) $(SECCOMP_LIBS)
TESTS += tests/unit/test-tree-eperm
endif
TESTS += tests/sh/config-explain-tiers.sh
EXTRA_DIST += tests/sh/config-explain-tiers.sh
TESTS += tests/sh/install.sh tests/sh/nls.sh
EXTRA_DIST += tests/sh/install.sh tests/sh/nls.sh
EXTRA_DIST += tests/fixtures/plugins/hostile-probe.yaml
TESTS += tests/sh/tier-env-config.sh
EXTRA_DIST += tests/sh/tier-env-config.sh
check_PROGRAMS += tests/unit/test-spawn-races
tests_unit_test_spawn_races_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_spawn_races_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-spawn-races
TESTS += tests/sh/scan-sandbox-status.sh
EXTRA_DIST += tests/sh/scan-sandbox-status.sh
TESTS += tests/sh/scan-run-config.sh
EXTRA_DIST += tests/sh/scan-run-config.sh
TESTS += tests/sh/probe-results.sh
EXTRA_DIST += tests/sh/probe-results.sh
TESTS += tests/sh/scan-links.sh
EXTRA_DIST += tests/sh/scan-links.sh
TESTS += tests/sh/scan-example.sh
EXTRA_DIST += tests/sh/scan-example.sh
TESTS += tests/sh/scan-unpriv.sh
EXTRA_DIST += tests/sh/scan-unpriv.sh
check_PROGRAMS += tests/unit/test-seatbelt
tests_unit_test_seatbelt_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_seatbelt_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-seatbelt
EXTRA_DIST += tests/fixtures/seatbelt
EXTRA_DIST += tests/sh/darwin-stub.sh tests/fixtures/sandbox-exec-stub
EXTRA_DIST += tests/README tests/sh/sandbox-escape-sandbox-exec.sh tests/sh/win32-wine.sh
## The Windows build under wine (tests/README): its own target, since
## building libyaml and jansson for Windows and ash.exe takes minutes.
EXTRA_DIST += build-aux/win32-deps build-aux/win32-build
EXTRA_DIST += win32/compat/ash-win32.h win32/compat/compat.c
EXTRA_DIST += win32/compat/pwd.h win32/compat/poll.h win32/compat/fnmatch.h
EXTRA_DIST += win32/compat/sys/wait.h win32/compat/sys/resource.h win32/spawn.c
WIN32_BUILDDIR = $(abs_top_builddir)/win32-build
check-win32:
	$(SHELL) $(top_srcdir)/build-aux/win32-build $(top_srcdir) $(WIN32_BUILDDIR)
	ASH_WIN32_EXE='$(WIN32_BUILDDIR)/obj/win32/ash.exe' \
	  $(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/sh/win32-wine.sh
.PHONY: check-win32
TESTS += tests/sh/win32-wine.sh

## Infrastructure-as-code and workflow scanners.
check_PROGRAMS += tests/unit/test-iac
tests_unit_test_iac_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_iac_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-iac
TESTS += tests/sh/scan-iac.sh
EXTRA_DIST += tests/sh/scan-iac.sh
TESTS += tests/sh/scan-cfn-lint.sh
TESTS += tests/sh/scan-cdk-nag.sh
TESTS += tests/sh/scan-iac-hostile.sh
EXTRA_DIST += tests/sh/scan-iac-hostile.sh
EXTRA_DIST += tests/sh/scan-cdk-nag.sh
EXTRA_DIST += tests/sh/scan-cfn-lint.sh
EXTRA_DIST += tests/fixtures/repos/iac
EXTRA_DIST += tests/fixtures/tools/checkov
EXTRA_DIST += tests/fixtures/tools/node
EXTRA_DIST += tests/fixtures/tools/cfn-guard
EXTRA_DIST += tests/fixtures/cfn-guard-rules
EXTRA_DIST += tests/fixtures/tools/zizmor
EXTRA_DIST += tests/fixtures/tools/actionlint
EXTRA_DIST += tests/fixtures/tools/cfn_nag_scan
EXTRA_DIST += tests/fixtures/tools/iac-data

## The npm packages scan-cdk-nag.sh installs for itself.
clean-local: clean-local-cdk-nag-cache
clean-local-cdk-nag-cache:
	rm -rf tests/.cdk-nag-cache
.PHONY: clean-local-cdk-nag-cache

# Hostile input and runaway scanners (resource limits, escaping).
check_PROGRAMS += tests/unit/test-config-limits
tests_unit_test_config_limits_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_config_limits_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-config-limits
TESTS += tests/sh/scan-hostile-output.sh
EXTRA_DIST += tests/sh/scan-hostile-output.sh
EXTRA_DIST += tests/fixtures/plugins/hostile-scanners.yaml
EXTRA_DIST += tests/fixtures/tools/fake-hostile-tool
check_PROGRAMS += tests/unit/test-tree-remove
tests_unit_test_tree_remove_CPPFLAGS = $(tests_unit_cppflags)
tests_unit_test_tree_remove_LDADD = $(ASH_LIBS)
TESTS += tests/unit/test-tree-remove
TESTS += tests/sh/scan-limits.sh
EXTRA_DIST += tests/sh/scan-limits.sh
EXTRA_DIST += tests/fixtures/plugins/hog-scanners.yaml
EXTRA_DIST += tests/fixtures/tools/fake-hog-tool
TESTS += tests/sh/scan-hostile-repo.sh
EXTRA_DIST += tests/sh/scan-hostile-repo.sh
TESTS += tests/sh/scan-kill9.sh
EXTRA_DIST += tests/sh/scan-kill9.sh
EXTRA_DIST += tests/fixtures/tools/fake-lingerer-tool
