# SPDX-License-Identifier: Apache-2.0
## data/local.mk: files installed in $(pkgdatadir).
dist_pkgdataplugins_DATA += data/plugins/snyk-code.yaml
dist_pkgdataplugins_DATA += data/plugins/trivy-repo.yaml
dist_pkgdataplugins_DATA += data/plugins/ferret-scan.yaml

## An ash that is not installed finds the modules it ships in data/plugins,
## and cdk-nag's worker in data/, beside its own directory's parent.  In a
## build directory apart from the sources (as make distcheck builds), that
## directory is the build's: they are copied there, and removed again by
## make clean.
ash_vpath_data = $(dist_pkgdataplugins_DATA) data/cdk-nag-worker.js
all-local: all-local-vpath-plugins
all-local-vpath-plugins: $(ash_vpath_data)
	@if test "$(srcdir)" != "."; then \
	  $(MKDIR_P) data/plugins && \
	  for f in $(ash_vpath_data); do \
	    cp -pf "$(srcdir)/$$f" "$$f" || exit 1; \
	  done; \
	fi
clean-local: clean-local-vpath-plugins
clean-local-vpath-plugins:
	@if test "$(srcdir)" != "."; then \
	  rm -f $(ash_vpath_data); \
	  test ! -d data/plugins || rmdir data/plugins; \
	fi
.PHONY: all-local-vpath-plugins clean-local-vpath-plugins

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
