/* registry.c -- the builtin scanners of upstream ASH.

   bandit has a real adapter (bandit.c).  The others are registered with
   their tool and the exact command that installs it, and have no adapter
   yet: the orchestrator records them MISSING, saying either which tool is
   missing and how to install it, or that ash cannot read the tool's
   findings yet.  */

#include <config.h>

#include "base/util.h"
#include "sandbox/scanner-reqs.h"
#include "scanners/scanner.h"

#define PENDING(NAME, TOOL, HINT, DESC)                                      \
  static const struct ash_scanner scanner_##NAME = {                         \
    .name = #NAME, .tool = TOOL, .install_hint = HINT, .description = DESC,  \
  }

/* Names with a dash cannot be C identifiers: spell them by hand.  */
static const struct ash_scanner scanner_cdk_nag = {
  .name = "cdk-nag",
  .tool = "cdk",
  .install_hint = "npm install -g aws-cdk cdk-nag",
  .description = "AWS CDK and CloudFormation rule packs",
};
static const struct ash_scanner scanner_cfn_nag = {
  .name = "cfn-nag",
  .tool = "cfn_nag_scan",
  .install_hint = "gem install cfn-nag",
  .description = "CloudFormation template linter for insecure patterns",
};
PENDING (checkov, "checkov", "uv tool install checkov",
         "infrastructure-as-code misconfiguration scanner");
static const struct ash_scanner scanner_detect_secrets = {
  .name = "detect-secrets",
  .tool = "detect-secrets",
  .install_hint = "uv tool install detect-secrets",
  .description = "secrets detection",
};
PENDING (opengrep, "opengrep",
         "a release binary from https://github.com/opengrep/opengrep/releases",
         "static analysis with Semgrep-compatible rules");
PENDING (semgrep, "semgrep", "uv tool install semgrep",
         "static analysis for many languages");
PENDING (actionlint, "actionlint",
         "go install github.com/rhysd/actionlint/cmd/actionlint@latest",
         "GitHub Actions workflow linter");
static const struct ash_scanner scanner_cfn_lint = {
  .name = "cfn-lint",
  .tool = "cfn-lint",
  .install_hint = "uv tool install cfn-lint",
  .description = "CloudFormation linter",
};
static const struct ash_scanner scanner_cfn_guard = {
  .name = "cfn-guard",
  .tool = "cfn-guard",
  .install_hint = "cargo install cfn-guard",
  .description = "CloudFormation Guard policy-as-code checks",
};
PENDING (gitleaks, "gitleaks",
         "go install github.com/zricethezav/gitleaks/v8@latest",
         "secrets detection in files and git history");
PENDING (zizmor, "zizmor", "uv tool install zizmor",
         "GitHub Actions security analysis");

const struct ash_scanner *const ash_builtin_scanners[] = {
  &ash_scanner_bandit,
  &scanner_cdk_nag,
  &scanner_cfn_nag,
  &scanner_checkov,
  &scanner_detect_secrets,
  &ash_scanner_grype,
  &ash_scanner_npm_audit,
  &scanner_opengrep,
  &scanner_semgrep,
  &ash_scanner_syft,
  &scanner_actionlint,
  &scanner_cfn_lint,
  &scanner_cfn_guard,
  &scanner_gitleaks,
  &scanner_zizmor,
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
