# SPDX-License-Identifier: Apache-2.0
## lib/local.mk: libash, the portable core, by folder.  lib/README.md says
## what each folder decides and which folders it may include.  One "+="
## line per file, so that lists merge cleanly.
noinst_LIBRARIES += lib/libash.a
lib_libash_a_CPPFLAGS = $(AM_CPPFLAGS) $(YAML_CFLAGS) $(JANSSON_CFLAGS) $(LIBARCHIVE_CFLAGS)
lib_libash_a_SOURCES =

## Everything that links libash needs these.
ASH_LIBS = lib/libash.a gl/libgnu.a $(YAML_LIBS) $(JANSSON_LIBS) $(ARCHIVE_LIBS) $(LIBINTL) -lpthread

## lib/base/ (layer 1)
lib_libash_a_SOURCES += lib/base/buf.c lib/base/buf.h
lib_libash_a_SOURCES += lib/base/error.c lib/base/error.h
lib_libash_a_SOURCES += lib/base/escape.c lib/base/escape.h
lib_libash_a_SOURCES += lib/base/log.c lib/base/log.h
lib_libash_a_SOURCES += lib/base/strvec.c lib/base/strvec.h
lib_libash_a_SOURCES += lib/base/thread.c lib/base/thread.h
lib_libash_a_SOURCES += lib/base/util.c lib/base/util.h
lib_libash_a_SOURCES += lib/base/version.c lib/base/version.h

## lib/proc/ (layer 2)
## The platform seam: Windows starts no programs (win32/spawn.c) and gets
## the POSIX that lib/ uses from win32/compat/.
if ASH_WIN32
lib_libash_a_SOURCES += win32/spawn.c lib/proc/spawn.h
lib_libash_a_SOURCES += win32/compat/compat.c win32/compat/ash-win32.h
else
lib_libash_a_SOURCES += lib/proc/spawn.c lib/proc/spawn.h
lib_libash_a_SOURCES += lib/proc/cgroup.c lib/proc/cgroup.h
endif
lib_libash_a_SOURCES += lib/proc/toolfind.c lib/proc/toolfind.h

## lib/fs/ (layer 2)
lib_libash_a_SOURCES += lib/fs/scanset.c lib/fs/scanset.h
lib_libash_a_SOURCES += lib/fs/outdir.c lib/fs/outdir.h
lib_libash_a_SOURCES += lib/fs/tree.c lib/fs/tree.h
lib_libash_a_SOURCES += lib/fs/chown.c lib/fs/chown.h
lib_libash_a_SOURCES += lib/fs/owndir.c lib/fs/owndir.h

## lib/config/ (layer 3)
lib_libash_a_SOURCES += lib/config/ashconfig.c lib/config/ashconfig.h
lib_libash_a_SOURCES += lib/config/config-default.c
EXTRA_DIST += lib/config/config-default-json.h
## The JSON form of the built-in defaults, made again from
## config-default.c's YAML after it changes (test-config fails until it
## is).
update-default-config-json: tests/unit/test-config$(EXEEXT)
	$(AM_V_GEN)tests/unit/test-config$(EXEEXT) --print-default-json \
	  >$(srcdir)/lib/config/config-default-json.h.tmp \
	  && mv -f $(srcdir)/lib/config/config-default-json.h.tmp \
	     $(srcdir)/lib/config/config-default-json.h
.PHONY: update-default-config-json
lib_libash_a_SOURCES += lib/config/config-emit.c
lib_libash_a_SOURCES += lib/config/config-overrides.c lib/config/config-overrides.h
lib_libash_a_SOURCES += lib/config/config-parse.c
lib_libash_a_SOURCES += lib/config/config-schema.c lib/config/config-schema.h
lib_libash_a_SOURCES += lib/config/reporter-names.c lib/config/reporter-names.h
lib_libash_a_SOURCES += lib/config/config-tier.c lib/config/config-tier.h
lib_libash_a_SOURCES += lib/config/options.c lib/config/options.h
lib_libash_a_SOURCES += lib/config/plugin-tier.c lib/config/plugin-tier.h
lib_libash_a_SOURCES += lib/config/sandbox-settings.c lib/config/sandbox-settings.h

## lib/sandbox/ (layer 4)
lib_libash_a_SOURCES += lib/sandbox/backend-select.c
lib_libash_a_SOURCES += lib/sandbox/backend.h
lib_libash_a_SOURCES += lib/sandbox/backend-impl.h
lib_libash_a_SOURCES += lib/sandbox/probe-cache.c
lib_libash_a_SOURCES += lib/sandbox/probe-cache.h
lib_libash_a_SOURCES += lib/sandbox/probe-entry.c
lib_libash_a_SOURCES += lib/sandbox/probe-entry.h
lib_libash_a_SOURCES += lib/sandbox/envfilter.c lib/sandbox/envfilter.h
lib_libash_a_SOURCES += lib/sandbox/homescreen.c lib/sandbox/homescreen.h
lib_libash_a_SOURCES += lib/sandbox/policy-input.c lib/sandbox/policy-input.h
lib_libash_a_SOURCES += lib/sandbox/policy-json.c
lib_libash_a_SOURCES += lib/sandbox/policy-hide.c
lib_libash_a_SOURCES += lib/sandbox/policy.c lib/sandbox/policy.h
lib_libash_a_SOURCES += lib/sandbox/requirements.c lib/sandbox/requirements.h
lib_libash_a_SOURCES += lib/sandbox/run.c
lib_libash_a_SOURCES += lib/sandbox/scanner-reqs.c lib/sandbox/scanner-reqs.h
lib_libash_a_SOURCES += lib/sandbox/seatbelt.c lib/sandbox/seatbelt.h

## lib/scan/ (layer 5)
lib_libash_a_SOURCES += lib/scan/dbphase.c lib/scan/dbphase.h
lib_libash_a_SOURCES += lib/scan/exit-codes.h
lib_libash_a_SOURCES += lib/scan/job.c lib/scan/job.h
lib_libash_a_SOURCES += lib/scan/changed.c lib/scan/changed.h
lib_libash_a_SOURCES += lib/scan/container.c lib/scan/container.h
lib_libash_a_SOURCES += lib/scan/orchestrator.c lib/scan/orchestrator.h
lib_libash_a_SOURCES += lib/scan/plugins.c lib/scan/plugins.h
lib_libash_a_SOURCES += lib/scan/pool.c lib/scan/pool.h
lib_libash_a_SOURCES += lib/scan/progress.c lib/scan/progress.h
lib_libash_a_SOURCES += lib/scan/results.c lib/scan/results.h
lib_libash_a_SOURCES += lib/scan/rundir.c lib/scan/rundir.h
lib_libash_a_SOURCES += lib/scan/sarif.c lib/scan/sarif.h
lib_libash_a_SOURCES += lib/scan/json-arena.c lib/scan/json-arena.h
lib_libash_a_SOURCES += lib/scan/json-fast.c lib/scan/json-fast.h
lib_libash_a_SOURCES += lib/scan/packed.c lib/scan/packed.h
lib_libash_a_SOURCES += lib/scan/suppress.c lib/scan/suppress.h

## lib/scanners/ (layer 5)
lib_libash_a_SOURCES += lib/scanners/actionlint.c
lib_libash_a_SOURCES += lib/scanners/bandit-json.c
lib_libash_a_SOURCES += lib/scanners/bandit.c
lib_libash_a_SOURCES += lib/scanners/cdk-nag.c
lib_libash_a_SOURCES += lib/scanners/cfn-guard.c
lib_libash_a_SOURCES += lib/scanners/cfn-lint.c
lib_libash_a_SOURCES += lib/scanners/cfn-nag.c
lib_libash_a_SOURCES += lib/scanners/checkov.c
lib_libash_a_SOURCES += lib/scanners/detect-secrets-baseline.c lib/scanners/detect-secrets-baseline.h
lib_libash_a_SOURCES += lib/scanners/option-file.c
lib_libash_a_SOURCES += lib/scanners/iac-common.c lib/scanners/iac-common.h
lib_libash_a_SOURCES += lib/scanners/registry.c
lib_libash_a_SOURCES += lib/scanners/zizmor.c
lib_libash_a_SOURCES += lib/scanners/detect-secrets.c
lib_libash_a_SOURCES += lib/scanners/detect-secrets-baseline.c lib/scanners/detect-secrets-baseline.h
lib_libash_a_SOURCES += lib/scanners/adapter.c lib/scanners/adapter.h
lib_libash_a_SOURCES += lib/scanners/gitleaks.c
lib_libash_a_SOURCES += lib/scanners/grep-common.h
lib_libash_a_SOURCES += lib/scanners/opengrep.c
lib_libash_a_SOURCES += lib/scanners/registry.c
lib_libash_a_SOURCES += lib/scanners/semgrep.c
lib_libash_a_SOURCES += lib/scanners/deps-common.c lib/scanners/deps-common.h
lib_libash_a_SOURCES += lib/scanners/detect-secrets-baseline.c lib/scanners/detect-secrets-baseline.h
lib_libash_a_SOURCES += lib/scanners/grype.c
lib_libash_a_SOURCES += lib/scanners/npm-audit.c
lib_libash_a_SOURCES += lib/scanners/registry.c
lib_libash_a_SOURCES += lib/scanners/syft.c
lib_libash_a_SOURCES += lib/scanners/trivy.c
lib_libash_a_SOURCES += lib/scanners/scanner.h

## lib/converters/ (layer 5)
lib_libash_a_SOURCES += lib/converters/archive.c
if ASH_HAVE_LIBARCHIVE
lib_libash_a_SOURCES += lib/converters/archive-lib.c lib/converters/archive-lib.h
endif
lib_libash_a_SOURCES += lib/converters/converter.c lib/converters/converter.h
lib_libash_a_SOURCES += lib/converters/jupyter.c
lib_libash_a_SOURCES += lib/converters/phase.c lib/converters/phase.h

## lib/report/ (layer 6)
lib_libash_a_SOURCES += lib/report/cyclonedx.c
lib_libash_a_SOURCES += lib/report/flat.c
lib_libash_a_SOURCES += lib/report/ghas.c
lib_libash_a_SOURCES += lib/report/gitlab-cyclonedx.c
lib_libash_a_SOURCES += lib/report/gitlab-sast.c
lib_libash_a_SOURCES += lib/report/html.c
lib_libash_a_SOURCES += lib/report/json-out.c lib/report/json-out.h
lib_libash_a_SOURCES += lib/report/ocsf.c
lib_libash_a_SOURCES += lib/report/outputs.c
lib_libash_a_SOURCES += lib/report/report-util.c
lib_libash_a_SOURCES += lib/report/reports.h
lib_libash_a_SOURCES += lib/report/spdx.c
lib_libash_a_SOURCES += lib/report/text.c
lib_libash_a_SOURCES += lib/report/unused-suppressions.c
lib_libash_a_SOURCES += lib/report/yaml.c

## lib/cli/ (layer 7)
lib_libash_a_SOURCES += lib/cli/cli.c lib/cli/cli.h
lib_libash_a_SOURCES += lib/cli/commands.h
lib_libash_a_SOURCES += lib/cli/container-command.c
lib_libash_a_SOURCES += lib/cli/deps-install.c
lib_libash_a_SOURCES += lib/cli/sandbox-explain.c
lib_libash_a_SOURCES += lib/cli/sandbox-probe.c
lib_libash_a_SOURCES += lib/cli/scan-command.c
lib_libash_a_SOURCES += lib/cli/report-command.c
lib_libash_a_SOURCES += lib/cli/plugin-command.c
lib_libash_a_SOURCES += lib/cli/inspect-command.c

EXTRA_DIST += lib/README.md
EXTRA_DIST += lib/base/README.md
EXTRA_DIST += lib/proc/README.md
EXTRA_DIST += lib/fs/README.md
EXTRA_DIST += lib/config/README.md
EXTRA_DIST += lib/sandbox/README.md
EXTRA_DIST += lib/scan/README.md
EXTRA_DIST += lib/scanners/README.md
EXTRA_DIST += lib/converters/README.md
EXTRA_DIST += lib/report/README.md
EXTRA_DIST += lib/cli/README.md
