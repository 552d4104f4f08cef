## data/local.mk: files installed in $(pkgdatadir).
dist_pkgdataplugins_DATA += data/plugins/snyk-code.yaml
dist_pkgdataplugins_DATA += data/plugins/trivy-repo.yaml
dist_pkgdataplugins_DATA += data/plugins/ferret-scan.yaml

## The cdk-nag worker, run by node under the scanner sandbox.
pkglibexec_SCRIPTS += data/cdk-nag-worker.js
EXTRA_DIST += data/cdk-nag-worker.js
