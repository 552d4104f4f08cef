# SPDX-License-Identifier: Apache-2.0
## container/local.mk: container mode's image and wrappers.  invoke-ash
## is installed as a command; the Containerfile, ./ash (for a checkout)
## and Invoke-ASH.ps1 go to PKGDATADIR/container.  Building the image
## needs ash's source tree as the context (ASH_ROOT_DIR, or a checkout).
dist_bin_SCRIPTS = container/invoke-ash
containerdir = $(pkgdatadir)/container
dist_container_DATA = container/Containerfile container/Invoke-ASH.ps1
dist_container_SCRIPTS = container/ash
EXTRA_DIST += ash .dockerignore build-aux/check-ps1 build-aux/container-base
