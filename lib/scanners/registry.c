/* SPDX-License-Identifier: Apache-2.0 */
/* registry.c -- the builtin scanners of upstream ASH.

   bandit (bandit.c), the code and secret scanners (semgrep.c, opengrep.c,
   detect-secrets.c, gitleaks.c) and the infrastructure-as-code and
   workflow scanners (checkov.c, cfn-nag.c, cfn-lint.c, cfn-guard.c,
   cdk-nag.c, actionlint.c, zizmor.c) and the dependency and SBOM scanners
   (grype.c, syft.c, npm-audit.c) have real adapters.  A scanner whose
   tool is missing is MISSING with the command that installs it.  */

#include <config.h>

#include "base/util.h"
#include "sandbox/scanner-reqs.h"
#include "scanners/iac-common.h"
#include "scanners/scanner.h"

const struct ash_scanner *const ash_builtin_scanners[] = {
  &ash_scanner_bandit,         &ash_scanner_cdk_nag,
  &ash_scanner_cfn_nag,        &ash_scanner_checkov,
  &ash_scanner_detect_secrets, &ash_scanner_grype,
  &ash_scanner_npm_audit,      &ash_scanner_opengrep,
  &ash_scanner_semgrep,        &ash_scanner_syft,
  &ash_scanner_actionlint,     &ash_scanner_cfn_lint,
  &ash_scanner_cfn_guard,      &ash_scanner_gitleaks,
  &ash_scanner_zizmor,         NULL,
};

/* Upstream ASH's --mode precommit runs its fast scanners only: bandit,
   detect-secrets, checkov, cdk-nag and npm-audit (the slower dependency
   and SBOM scanners, grype and syft, and the semgrep/opengrep rule
   engines are left for the full scan).  */
const char *const ash_precommit_scanners[] = {
  "bandit", "detect-secrets", "checkov", "cdk-nag", "npm-audit", NULL,
};

const struct ash_scanner *
ash_scanner_builtin (const char *name)
{
  for (size_t i = 0; ash_builtin_scanners[i]; i++)
    if (streq (ash_builtin_scanners[i]->name, name))
      return ash_builtin_scanners[i];
  return NULL;
}

void
ash_scanner_requirements (const struct ash_scanner *s,
                          struct ash_requirements *req)
{
  if (s->req)
    ash_requirements_copy (req, s->req);
  else
    ash_builtin_requirements (s->name, req);
}
