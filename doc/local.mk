# SPDX-License-Identifier: Apache-2.0
## doc/local.mk: man pages.  ash-sandbox(7) is assembled from the fragments
## in doc/ash-sandbox/, one per topic, in name order.
man_MANS = doc/ash-sandbox.7
ash_sandbox_parts =
ash_sandbox_parts += doc/ash-sandbox/00-head.man
EXTRA_DIST += $(ash_sandbox_parts)
CLEANFILES += doc/ash-sandbox.7
doc/ash-sandbox.7: $(ash_sandbox_parts)
	$(AM_V_GEN)$(MKDIR_P) doc && cat $(addprefix $(srcdir)/,$(sort $(ash_sandbox_parts))) > $@
ash_sandbox_parts += doc/ash-sandbox/30-backends.man
ash_sandbox_parts += doc/ash-sandbox/32-landlock.man
dist_man_MANS += doc/ash.1
dist_man_MANS += doc/invoke-ash.1
dist_man_MANS += doc/ash.yaml.5
ash_sandbox_parts += doc/ash-sandbox/40-links.man
ash_sandbox_parts += doc/ash-sandbox/50-grants.man
ash_sandbox_parts += doc/ash-sandbox/20-policy.man
ash_sandbox_parts += doc/ash-sandbox/99-see-also.man
ash_sandbox_parts += doc/ash-sandbox/34-macos-windows.man
ash_sandbox_parts += doc/ash-sandbox/36-container.man
