/* registry.c -- the builtin scanners of upstream ASH.

   bandit (bandit.c), the code and secret scanners (semgrep.c, opengrep.c,
   detect-secrets.c, gitleaks.c) and the infrastructure-as-code and
   workflow scanners (checkov.c, cfn-nag.c, cfn-lint.c, cfn-guard.c,
   cdk-nag.c, actionlint.c, zizmor.c) have real adapters.  The others are
   registered with their tool and the exact command that installs it, and
   have no adapter yet: the orchestrator records them MISSING, saying
   either which tool is missing and how to install it, or that ash cannot
   read the tool's findings yet.  */

#include <config.h>

#include "base/util.h"
#include "sandbox/scanner-reqs.h"
#include "scanners/iac-common.h"
#include "scanners/scanner.h"

#define PENDING(NAME, TOOL, HINT, DESC)                                      \
  static const struct ash_scanner scanner_##NAME = {                         \
    .name = #NAME, .tool = TOOL, .install_hint = HINT, .description = DESC,  \
  }

PENDING (grype, "grype",
         "curl -sSfL https://raw.githubusercontent.com/anchore/grype/main/"
         "install.sh | sh -s -- -b ~/.local/bin",
         "vulnerability scanner for dependencies");
/* Names with a dash cannot be C identifiers: spell them by hand.  */
static const struct ash_scanner scanner_npm_audit = {
  .name = "npm-audit",
  .tool = "npm",
  .install_hint = "apt-get install npm",
  .description = "npm, pnpm and yarn dependency audit",
};
PENDING (syft, "syft",
         "curl -sSfL https://raw.githubusercontent.com/anchore/syft/main/"
         "install.sh | sh -s -- -b ~/.local/bin",
         "software bill of materials generator");

const struct ash_scanner *const ash_builtin_scanners[] = {
  &ash_scanner_bandit,
  &ash_scanner_cdk_nag,
  &ash_scanner_cfn_nag,
  &ash_scanner_checkov,
  &ash_scanner_detect_secrets,
  &scanner_grype,
  &scanner_npm_audit,
  &ash_scanner_opengrep,
  &ash_scanner_semgrep,
  &scanner_syft,
  &ash_scanner_actionlint,
  &ash_scanner_cfn_lint,
  &ash_scanner_cfn_guard,
  &ash_scanner_gitleaks,
  &ash_scanner_zizmor,
  NULL,
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
