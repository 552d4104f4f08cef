## data/local.mk: files installed in $(pkgdatadir).
