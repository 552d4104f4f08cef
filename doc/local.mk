## doc/local.mk: man pages.
