## data/local.mk: files installed in $(pkgdatadir).
dist_pkgdataplugins_DATA += data/plugins/snyk-code.yaml
dist_pkgdataplugins_DATA += data/plugins/trivy-repo.yaml
dist_pkgdataplugins_DATA += data/plugins/ferret-scan.yaml
