# SPDX-License-Identifier: Apache-2.0
## tests/fuzz/local.mk: the fuzz targets (tests/fuzz/README.md).
##
## Every target is built twice from the same source: replay-NAME, with
## replay.c as its main, in every build (a check program: `make check`
## replays tests/fuzz/NAME/regress/ and the seed corpus tests/fuzz/NAME/),
## and, with ./configure --enable-fuzzing, fuzz-NAME linked with
## libFuzzer.  One block per target, so that lists merge cleanly.

FUZZ_TARGETS =
fuzz_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/fuzz $(YAML_CFLAGS) $(JANSSON_CFLAGS) $(LIBARCHIVE_CFLAGS)
fuzz_common = tests/fuzz/fuzz-common.c tests/fuzz/fuzz.h
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/fuzz.h

FUZZ_TARGETS += config-yaml
check_PROGRAMS += tests/fuzz/replay-config-yaml
tests_fuzz_replay_config_yaml_SOURCES = tests/fuzz/fuzz-config-yaml.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_config_yaml_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-yaml\"
tests_fuzz_replay_config_yaml_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-config-yaml
EXTRA_DIST += tests/fuzz/config-yaml
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-config-yaml
tests_fuzz_fuzz_config_yaml_SOURCES = tests/fuzz/fuzz-config-yaml.c $(fuzz_common)
tests_fuzz_fuzz_config_yaml_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-yaml\"
tests_fuzz_fuzz_config_yaml_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_config_yaml_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += config-json
check_PROGRAMS += tests/fuzz/replay-config-json
tests_fuzz_replay_config_json_SOURCES = tests/fuzz/fuzz-config-json.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_config_json_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-json\"
tests_fuzz_replay_config_json_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-config-json
EXTRA_DIST += tests/fuzz/config-json
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-config-json
tests_fuzz_fuzz_config_json_SOURCES = tests/fuzz/fuzz-config-json.c $(fuzz_common)
tests_fuzz_fuzz_config_json_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-json\"
tests_fuzz_fuzz_config_json_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_config_json_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += config-load
check_PROGRAMS += tests/fuzz/replay-config-load
tests_fuzz_replay_config_load_SOURCES = tests/fuzz/fuzz-config-load.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_config_load_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-load\"
tests_fuzz_replay_config_load_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-config-load
EXTRA_DIST += tests/fuzz/config-load
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-config-load
tests_fuzz_fuzz_config_load_SOURCES = tests/fuzz/fuzz-config-load.c $(fuzz_common)
tests_fuzz_fuzz_config_load_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-load\"
tests_fuzz_fuzz_config_load_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_config_load_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += config-overrides
check_PROGRAMS += tests/fuzz/replay-config-overrides
tests_fuzz_replay_config_overrides_SOURCES = tests/fuzz/fuzz-config-overrides.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_config_overrides_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-overrides\"
tests_fuzz_replay_config_overrides_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-config-overrides
EXTRA_DIST += tests/fuzz/config-overrides
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-config-overrides
tests_fuzz_fuzz_config_overrides_SOURCES = tests/fuzz/fuzz-config-overrides.c $(fuzz_common)
tests_fuzz_fuzz_config_overrides_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"config-overrides\"
tests_fuzz_fuzz_config_overrides_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_config_overrides_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += cli-json-input
check_PROGRAMS += tests/fuzz/replay-cli-json-input
tests_fuzz_replay_cli_json_input_SOURCES = tests/fuzz/fuzz-cli-json-input.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_cli_json_input_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"cli-json-input\"
tests_fuzz_replay_cli_json_input_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-cli-json-input
EXTRA_DIST += tests/fuzz/cli-json-input
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-cli-json-input
tests_fuzz_fuzz_cli_json_input_SOURCES = tests/fuzz/fuzz-cli-json-input.c $(fuzz_common)
tests_fuzz_fuzz_cli_json_input_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"cli-json-input\"
tests_fuzz_fuzz_cli_json_input_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_cli_json_input_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += ignore
check_PROGRAMS += tests/fuzz/replay-ignore
tests_fuzz_replay_ignore_SOURCES = tests/fuzz/fuzz-ignore.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_ignore_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"ignore\"
tests_fuzz_replay_ignore_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-ignore
EXTRA_DIST += tests/fuzz/ignore
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-ignore
tests_fuzz_fuzz_ignore_SOURCES = tests/fuzz/fuzz-ignore.c $(fuzz_common)
tests_fuzz_fuzz_ignore_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"ignore\"
tests_fuzz_fuzz_ignore_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_ignore_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += suppress
check_PROGRAMS += tests/fuzz/replay-suppress
tests_fuzz_replay_suppress_SOURCES = tests/fuzz/fuzz-suppress.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_suppress_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"suppress\"
tests_fuzz_replay_suppress_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-suppress
EXTRA_DIST += tests/fuzz/suppress
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-suppress
tests_fuzz_fuzz_suppress_SOURCES = tests/fuzz/fuzz-suppress.c $(fuzz_common)
tests_fuzz_fuzz_suppress_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"suppress\"
tests_fuzz_fuzz_suppress_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_suppress_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += sarif
check_PROGRAMS += tests/fuzz/replay-sarif
tests_fuzz_replay_sarif_SOURCES = tests/fuzz/fuzz-sarif.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_sarif_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"sarif\"
tests_fuzz_replay_sarif_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-sarif
EXTRA_DIST += tests/fuzz/sarif
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-sarif
tests_fuzz_fuzz_sarif_SOURCES = tests/fuzz/fuzz-sarif.c $(fuzz_common)
tests_fuzz_fuzz_sarif_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"sarif\"
tests_fuzz_fuzz_sarif_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_sarif_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += json-fast
check_PROGRAMS += tests/fuzz/replay-json-fast
tests_fuzz_replay_json_fast_SOURCES = tests/fuzz/fuzz-json-fast.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_json_fast_CPPFLAGS = $(fuzz_cppflags) -I$(top_srcdir)/tests -DFUZZ_NAME=\"json-fast\"
tests_fuzz_replay_json_fast_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-json-fast
EXTRA_DIST += tests/fuzz/json-fast
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-json-fast
tests_fuzz_fuzz_json_fast_SOURCES = tests/fuzz/fuzz-json-fast.c $(fuzz_common)
tests_fuzz_fuzz_json_fast_CPPFLAGS = $(fuzz_cppflags) -I$(top_srcdir)/tests -DFUZZ_NAME=\"json-fast\"
tests_fuzz_fuzz_json_fast_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_json_fast_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += reports
check_PROGRAMS += tests/fuzz/replay-reports
tests_fuzz_replay_reports_SOURCES = tests/fuzz/fuzz-reports.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_reports_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"reports\"
tests_fuzz_replay_reports_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-reports
EXTRA_DIST += tests/fuzz/reports
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-reports
tests_fuzz_fuzz_reports_SOURCES = tests/fuzz/fuzz-reports.c $(fuzz_common)
tests_fuzz_fuzz_reports_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"reports\"
tests_fuzz_fuzz_reports_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_reports_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += archive
check_PROGRAMS += tests/fuzz/replay-archive
tests_fuzz_replay_archive_SOURCES = tests/fuzz/fuzz-archive.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_archive_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"archive\"
tests_fuzz_replay_archive_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-archive
EXTRA_DIST += tests/fuzz/archive
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-archive
tests_fuzz_fuzz_archive_SOURCES = tests/fuzz/fuzz-archive.c $(fuzz_common)
tests_fuzz_fuzz_archive_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"archive\"
tests_fuzz_fuzz_archive_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_archive_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += detect-secrets-baseline
check_PROGRAMS += tests/fuzz/replay-detect-secrets-baseline
tests_fuzz_replay_detect_secrets_baseline_SOURCES = tests/fuzz/fuzz-detect-secrets-baseline.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_detect_secrets_baseline_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"detect-secrets-baseline\"
tests_fuzz_replay_detect_secrets_baseline_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-detect-secrets-baseline
EXTRA_DIST += tests/fuzz/detect-secrets-baseline
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-detect-secrets-baseline
tests_fuzz_fuzz_detect_secrets_baseline_SOURCES = tests/fuzz/fuzz-detect-secrets-baseline.c $(fuzz_common)
tests_fuzz_fuzz_detect_secrets_baseline_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"detect-secrets-baseline\"
tests_fuzz_fuzz_detect_secrets_baseline_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_detect_secrets_baseline_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-bandit
check_PROGRAMS += tests/fuzz/replay-scanner-bandit
tests_fuzz_replay_scanner_bandit_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_bandit_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-bandit\" -DFUZZ_SCANNER=\"bandit\"
tests_fuzz_replay_scanner_bandit_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-bandit
EXTRA_DIST += tests/fuzz/scanner-bandit
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-bandit
tests_fuzz_fuzz_scanner_bandit_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_bandit_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-bandit\" -DFUZZ_SCANNER=\"bandit\"
tests_fuzz_fuzz_scanner_bandit_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_bandit_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-detect-secrets
check_PROGRAMS += tests/fuzz/replay-scanner-detect-secrets
tests_fuzz_replay_scanner_detect_secrets_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_detect_secrets_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-detect-secrets\" -DFUZZ_SCANNER=\"detect-secrets\"
tests_fuzz_replay_scanner_detect_secrets_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-detect-secrets
EXTRA_DIST += tests/fuzz/scanner-detect-secrets
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-detect-secrets
tests_fuzz_fuzz_scanner_detect_secrets_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_detect_secrets_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-detect-secrets\" -DFUZZ_SCANNER=\"detect-secrets\"
tests_fuzz_fuzz_scanner_detect_secrets_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_detect_secrets_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-grype
check_PROGRAMS += tests/fuzz/replay-scanner-grype
tests_fuzz_replay_scanner_grype_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_grype_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-grype\" -DFUZZ_SCANNER=\"grype\"
tests_fuzz_replay_scanner_grype_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-grype
EXTRA_DIST += tests/fuzz/scanner-grype
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-grype
tests_fuzz_fuzz_scanner_grype_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_grype_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-grype\" -DFUZZ_SCANNER=\"grype\"
tests_fuzz_fuzz_scanner_grype_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_grype_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-syft
check_PROGRAMS += tests/fuzz/replay-scanner-syft
tests_fuzz_replay_scanner_syft_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_syft_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-syft\" -DFUZZ_SCANNER=\"syft\"
tests_fuzz_replay_scanner_syft_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-syft
EXTRA_DIST += tests/fuzz/scanner-syft
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-syft
tests_fuzz_fuzz_scanner_syft_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_syft_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-syft\" -DFUZZ_SCANNER=\"syft\"
tests_fuzz_fuzz_scanner_syft_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_syft_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-npm-audit
check_PROGRAMS += tests/fuzz/replay-scanner-npm-audit
tests_fuzz_replay_scanner_npm_audit_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_npm_audit_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-npm-audit\" -DFUZZ_SCANNER=\"npm-audit\"
tests_fuzz_replay_scanner_npm_audit_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-npm-audit
EXTRA_DIST += tests/fuzz/scanner-npm-audit
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-npm-audit
tests_fuzz_fuzz_scanner_npm_audit_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_npm_audit_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-npm-audit\" -DFUZZ_SCANNER=\"npm-audit\"
tests_fuzz_fuzz_scanner_npm_audit_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_npm_audit_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-checkov
check_PROGRAMS += tests/fuzz/replay-scanner-checkov
tests_fuzz_replay_scanner_checkov_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_checkov_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-checkov\" -DFUZZ_SCANNER=\"checkov\"
tests_fuzz_replay_scanner_checkov_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-checkov
EXTRA_DIST += tests/fuzz/scanner-checkov
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-checkov
tests_fuzz_fuzz_scanner_checkov_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_checkov_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-checkov\" -DFUZZ_SCANNER=\"checkov\"
tests_fuzz_fuzz_scanner_checkov_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_checkov_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-cfn-nag
check_PROGRAMS += tests/fuzz/replay-scanner-cfn-nag
tests_fuzz_replay_scanner_cfn_nag_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_cfn_nag_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cfn-nag\" -DFUZZ_SCANNER=\"cfn-nag\"
tests_fuzz_replay_scanner_cfn_nag_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-cfn-nag
EXTRA_DIST += tests/fuzz/scanner-cfn-nag
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-cfn-nag
tests_fuzz_fuzz_scanner_cfn_nag_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_cfn_nag_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cfn-nag\" -DFUZZ_SCANNER=\"cfn-nag\"
tests_fuzz_fuzz_scanner_cfn_nag_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_cfn_nag_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-actionlint
check_PROGRAMS += tests/fuzz/replay-scanner-actionlint
tests_fuzz_replay_scanner_actionlint_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_actionlint_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-actionlint\" -DFUZZ_SCANNER=\"actionlint\"
tests_fuzz_replay_scanner_actionlint_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-actionlint
EXTRA_DIST += tests/fuzz/scanner-actionlint
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-actionlint
tests_fuzz_fuzz_scanner_actionlint_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_actionlint_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-actionlint\" -DFUZZ_SCANNER=\"actionlint\"
tests_fuzz_fuzz_scanner_actionlint_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_actionlint_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-cfn-lint
check_PROGRAMS += tests/fuzz/replay-scanner-cfn-lint
tests_fuzz_replay_scanner_cfn_lint_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_cfn_lint_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cfn-lint\" -DFUZZ_SCANNER=\"cfn-lint\"
tests_fuzz_replay_scanner_cfn_lint_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-cfn-lint
EXTRA_DIST += tests/fuzz/scanner-cfn-lint
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-cfn-lint
tests_fuzz_fuzz_scanner_cfn_lint_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_cfn_lint_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cfn-lint\" -DFUZZ_SCANNER=\"cfn-lint\"
tests_fuzz_fuzz_scanner_cfn_lint_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_cfn_lint_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-cdk-nag
check_PROGRAMS += tests/fuzz/replay-scanner-cdk-nag
tests_fuzz_replay_scanner_cdk_nag_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_cdk_nag_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cdk-nag\" -DFUZZ_SCANNER=\"cdk-nag\"
tests_fuzz_replay_scanner_cdk_nag_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-cdk-nag
EXTRA_DIST += tests/fuzz/scanner-cdk-nag
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-cdk-nag
tests_fuzz_fuzz_scanner_cdk_nag_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_cdk_nag_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cdk-nag\" -DFUZZ_SCANNER=\"cdk-nag\"
tests_fuzz_fuzz_scanner_cdk_nag_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_cdk_nag_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-zizmor
check_PROGRAMS += tests/fuzz/replay-scanner-zizmor
tests_fuzz_replay_scanner_zizmor_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_zizmor_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-zizmor\" -DFUZZ_SCANNER=\"zizmor\"
tests_fuzz_replay_scanner_zizmor_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-zizmor
EXTRA_DIST += tests/fuzz/scanner-zizmor
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-zizmor
tests_fuzz_fuzz_scanner_zizmor_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_zizmor_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-zizmor\" -DFUZZ_SCANNER=\"zizmor\"
tests_fuzz_fuzz_scanner_zizmor_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_zizmor_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-cfn-guard
check_PROGRAMS += tests/fuzz/replay-scanner-cfn-guard
tests_fuzz_replay_scanner_cfn_guard_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_cfn_guard_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cfn-guard\" -DFUZZ_SCANNER=\"cfn-guard\"
tests_fuzz_replay_scanner_cfn_guard_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-cfn-guard
EXTRA_DIST += tests/fuzz/scanner-cfn-guard
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-cfn-guard
tests_fuzz_fuzz_scanner_cfn_guard_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_cfn_guard_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-cfn-guard\" -DFUZZ_SCANNER=\"cfn-guard\"
tests_fuzz_fuzz_scanner_cfn_guard_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_cfn_guard_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-semgrep
check_PROGRAMS += tests/fuzz/replay-scanner-semgrep
tests_fuzz_replay_scanner_semgrep_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_semgrep_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-semgrep\" -DFUZZ_SCANNER=\"semgrep\"
tests_fuzz_replay_scanner_semgrep_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-semgrep
EXTRA_DIST += tests/fuzz/scanner-semgrep
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-semgrep
tests_fuzz_fuzz_scanner_semgrep_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_semgrep_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-semgrep\" -DFUZZ_SCANNER=\"semgrep\"
tests_fuzz_fuzz_scanner_semgrep_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_semgrep_LDADD = $(ASH_LIBS)
endif

FUZZ_TARGETS += scanner-trivy
check_PROGRAMS += tests/fuzz/replay-scanner-trivy
tests_fuzz_replay_scanner_trivy_SOURCES = tests/fuzz/fuzz-scanner.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_replay_scanner_trivy_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-trivy\" -DFUZZ_SCANNER=\"trivy\"
tests_fuzz_replay_scanner_trivy_LDADD = $(ASH_LIBS)
TESTS += tests/fuzz/replay-scanner-trivy
EXTRA_DIST += tests/fuzz/scanner-trivy
if ASH_FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-scanner-trivy
tests_fuzz_fuzz_scanner_trivy_SOURCES = tests/fuzz/fuzz-scanner.c $(fuzz_common)
tests_fuzz_fuzz_scanner_trivy_CPPFLAGS = $(fuzz_cppflags) -DFUZZ_NAME=\"scanner-trivy\" -DFUZZ_SCANNER=\"trivy\"
tests_fuzz_fuzz_scanner_trivy_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scanner_trivy_LDADD = $(ASH_LIBS)
endif

EXTRA_DIST += $(FUZZ_DICTS)
FUZZ_DICTS = tests/fuzz/config.dict tests/fuzz/sarif.dict tests/fuzz/cli-json-input.dict \
	tests/fuzz/json-fast.dict

## make fuzz-smoke: every target over its seed corpus and regression
## inputs, then FUZZ_SMOKE_SECONDS of new inputs each (FUZZ_JOBS targets at
## a time).  make fuzz FUZZ_SECONDS=N [FUZZ_TARGETS="a b"]: N seconds each,
## one after the other.  New inputs and crashes go below fuzz-work/NAME/.
FUZZ_SMOKE_SECONDS = 8
FUZZ_SECONDS = 600
FUZZ_JOBS = 2
FUZZ_RSS_MB = 2048
FUZZ_TIMEOUT = 20
FUZZ_RUN = $(SHELL) $(top_srcdir)/tests/fuzz/run
fuzz_run_env = srcdir='$(abs_top_srcdir)' builddir='$(abs_top_builddir)' \
	FUZZ_RSS_MB='$(FUZZ_RSS_MB)' FUZZ_TIMEOUT='$(FUZZ_TIMEOUT)'
EXTRA_DIST += tests/fuzz/run build-aux/ci-fuzz

.PHONY: fuzz fuzz-smoke fuzz-afl check-sanitize check-valgrind
if ASH_FUZZING
fuzz-smoke: all
	$(AM_V_at)$(fuzz_run_env) $(FUZZ_RUN) --jobs $(FUZZ_JOBS) \
	  --seconds $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)
fuzz: all
	$(AM_V_at)$(fuzz_run_env) $(FUZZ_RUN) --jobs 1 \
	  --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)
## make fuzz-afl FUZZ_TARGET=NAME [FUZZ_SECONDS=N]: one target under
## afl-fuzz (a build configured with CC=afl-clang-fast --enable-fuzzing).
FUZZ_TARGET = sarif
fuzz-afl: all
	$(AM_V_at)t='$(FUZZ_TARGET)'; \
	case $$t in config-*) d=config.dict ;; cli-json-input) d=cli-json-input.dict ;; \
	  *) d=sarif.dict ;; esac; \
	mkdir -p fuzz-work/afl-$$t && \
	afl-fuzz -i '$(srcdir)'/tests/fuzz/$$t -o fuzz-work/afl-$$t \
	  -x '$(srcdir)'/tests/fuzz/$$d -V '$(FUZZ_SECONDS)' -- tests/fuzz/fuzz-$$t
else
fuzz-smoke fuzz fuzz-afl:
	@echo "make $@: the fuzz targets are built only by ./configure --enable-fuzzing (with CC=clang); see tests/fuzz/README.md" >&2; exit 1
endif

## make check-sanitize: the test suite built with AddressSanitizer and
## UndefinedBehaviorSanitizer, in sanitize-build/ (a copy of the
## distribution made by `make distdir`, configured there, so that this
## tree is not reconfigured).  SANITIZE_CC (default: this build's
## compiler), SANITIZE_FLAGS, and TESTS="..." to run part of the suite.
## Leaks are not checked here (ASAN_OPTIONS=detect_leaks=0; set
## SANITIZE_ASAN_OPTIONS to change it): check-valgrind does that.
SANITIZE_CC = $(CC)
SANITIZE_FLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
SANITIZE_ASAN_OPTIONS = detect_leaks=0:abort_on_error=1
SANITIZE_DIR = sanitize-build
check-sanitize:
	$(AM_V_at)rm -rf '$(SANITIZE_DIR)'
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) distdir distdir='$(SANITIZE_DIR)'
	$(AM_V_at)cd '$(SANITIZE_DIR)' && ./configure -q CC='$(SANITIZE_CC)' \
	  CFLAGS='$(SANITIZE_FLAGS)' LDFLAGS='-fsanitize=address,undefined'
	$(AM_V_at)cd '$(SANITIZE_DIR)' && \
	  ASAN_OPTIONS='$(SANITIZE_ASAN_OPTIONS)' \
	  UBSAN_OPTIONS='halt_on_error=1:print_stacktrace=1' \
	  $(MAKE) $(AM_MAKEFLAGS) check $${TESTS:+TESTS="$$TESTS"}

## CI's split of the suite between the plain build and the sanitized one
## (build-aux/test-all; tests/fuzz/README.md says why).  The plain build
## runs the unit tests and fuzz replays (which build-aux/ci-fuzz --quick
## also runs sanitized, in fuzz-build/), the sandbox escape suites
## (against the build users get), the tests that need what only a git
## checkout holds (spdx.sh and check-format.sh check the tracked files,
## debian-package.sh needs debian/; the distribution copy the sanitized
## build is made from has neither; wrapper-static.sh checks the static
## link, which a sanitized build never makes), and
## CI_SANITIZE_PARTIAL_TESTS, whose
## part that cannot run under AddressSanitizer skips there; check-sanitize
## runs every other test and CI_SANITIZE_PARTIAL_TESTS.  Every test thus
## runs in at least one build.  `make -s print-ci-tests CI_BUILD=plain`
## (or sanitize) prints a list.
CI_PLAIN_ONLY_TESTS = $(filter tests/sh/sandbox-escape-% \
	tests/sh/debian-package.sh tests/sh/spdx.sh tests/sh/check-format.sh \
	tests/sh/wrapper-static.sh,$(TESTS))
CI_SANITIZE_PARTIAL_TESTS = tests/sh/landlock-exec.sh \
	tests/sh/landlock-exec-seccomp-fd.sh
ci_program_tests = $(filter tests/unit/test-% tests/fuzz/replay-%,$(TESTS))
CI_PLAIN_TESTS = $(ci_program_tests) $(CI_PLAIN_ONLY_TESTS) \
	$(filter $(CI_SANITIZE_PARTIAL_TESTS),$(TESTS))
CI_SANITIZE_TESTS = $(filter-out $(ci_program_tests) $(CI_PLAIN_ONLY_TESTS),$(TESTS))
CI_BUILD = plain
.PHONY: print-ci-tests
print-ci-tests:
	@case '$(CI_BUILD)' in \
	  plain) echo '$(strip $(CI_PLAIN_TESTS))' ;; \
	  sanitize) echo '$(strip $(CI_SANITIZE_TESTS))' ;; \
	  *) echo "make $@: CI_BUILD is plain or sanitize, not '$(CI_BUILD)'" >&2; exit 1 ;; \
	esac

## make check-valgrind: the unit tests and the fuzz replays under
## valgrind --leak-check=full (any error or leak fails the test).
## VALGRIND_TESTS="..." to run some of them.
VALGRIND = valgrind
VALGRIND_FLAGS = -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1
## (ThreadSanitizer's test does not run under valgrind.)
VALGRIND_TESTS = $(filter-out tests/unit/test-tree-tsan,$(filter tests/unit/test-% tests/fuzz/replay-%,$(TESTS)))
check-valgrind:
	$(AM_V_at)command -v $(VALGRIND) >/dev/null || { \
	  echo "make check-valgrind: $(VALGRIND) is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(VALGRIND_TESTS)' \
	  LOG_COMPILER='$(SHELL) $(top_srcdir)/tests/tap-run $(VALGRIND) $(VALGRIND_FLAGS)'
