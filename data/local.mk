# SPDX-License-Identifier: Apache-2.0
## data/local.mk: files installed in $(pkgdatadir).
dist_pkgdataplugins_DATA += data/plugins/snyk-code.yaml
dist_pkgdataplugins_DATA += data/plugins/trivy-repo.yaml
dist_pkgdataplugins_DATA += data/plugins/ferret-scan.yaml

## Shell completions, generated from the command line's own tables by the
## program just built, so that they cannot drift from its options.
if !ASH_CROSS_COMPILING
nodist_bashcompletion_DATA = data/completions/ash
nodist_zshcompletion_DATA = data/completions/_ash
nodist_fishcompletion_DATA = data/completions/ash.fish
CLEANFILES += $(nodist_bashcompletion_DATA) $(nodist_zshcompletion_DATA) \
	$(nodist_fishcompletion_DATA)
ASH_BUILT_PROGRAM = $(bin_PROGRAMS)
data/completions/ash: $(ASH_BUILT_PROGRAM)
	$(AM_V_GEN)$(MKDIR_P) data/completions && \
	./$(ASH_BUILT_PROGRAM) completion bash >$@.tmp && mv $@.tmp $@
data/completions/_ash: $(ASH_BUILT_PROGRAM)
	$(AM_V_GEN)$(MKDIR_P) data/completions && \
	./$(ASH_BUILT_PROGRAM) completion zsh >$@.tmp && mv $@.tmp $@
data/completions/ash.fish: $(ASH_BUILT_PROGRAM)
	$(AM_V_GEN)$(MKDIR_P) data/completions && \
	./$(ASH_BUILT_PROGRAM) completion fish >$@.tmp && mv $@.tmp $@
endif
## The cdk-nag worker, run by node under the scanner sandbox.
pkglibexec_SCRIPTS += data/cdk-nag-worker.js
EXTRA_DIST += data/cdk-nag-worker.js
