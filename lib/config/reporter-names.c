/* SPDX-License-Identifier: Apache-2.0 */
/* reporter-names.c -- the reporter names ash knows.  */

#include <config.h>

#include "base/buf.h"
#include "base/util.h"
#include "config/reporter-names.h"

const char *const ash_reporter_names[] = {
  "sarif",
  "markdown",
  "text",
  "flat-json",
  "html",
  "junitxml",
  "csv",
  "cyclonedx",
  "gitlab-sast",
  "github-ghas",
  "ocsf",
  "yaml",
  "spdx",
  "gitlab-cyclonedx",
  "unused-suppressions",
  NULL,
};

bool
ash_reporter_known (const char *name)
{
  for (size_t i = 0; ash_reporter_names[i]; i++)
    if (streq (ash_reporter_names[i], name))
      return true;
  return false;
}

/* Upstream's ash_aws_plugins reporters (and the spellings its
   documentation uses for them).  Each sends the results to an AWS service
   with the operator's credentials; ash writes reports only below its
   output directory and hands no scanner or reporter a cloud account.  */
static const struct
{
  const char *name;
  const char *why;
} unavailable[] = {
  { "asff", N_ ("it formats findings for AWS Security Hub") },
  { "aws-security-hub", N_ ("it sends the findings to AWS Security Hub") },
  { "security-hub", N_ ("it sends the findings to AWS Security Hub") },
  { "securityhub", N_ ("it sends the findings to AWS Security Hub") },
  { "s3", N_ ("it uploads the results to Amazon S3") },
  { "cloudwatch-logs", N_ ("it sends the results to Amazon CloudWatch Logs") },
  { "cloudwatch", N_ ("it sends the results to Amazon CloudWatch Logs") },
  { "bedrock-summary-reporter",
    N_ ("it sends the findings to Amazon Bedrock for a summary") },
  { "bedrock-summary",
    N_ ("it sends the findings to Amazon Bedrock for a summary") },
  { "bedrock", N_ ("it sends the findings to Amazon Bedrock for a summary") },
};

const char *
ash_reporter_unavailable (const char *name)
{
  for (size_t i = 0; i < ARRAY_SIZE (unavailable); i++)
    if (streq (unavailable[i].name, name))
      return _ (unavailable[i].why);
  return NULL;
}

char *
ash_reporter_names_joined (void)
{
  struct ash_buf b = ASH_BUF_INIT;
  for (size_t i = 0; ash_reporter_names[i]; i++)
    {
      if (i)
        ash_buf_addstr (&b, ", ");
      ash_buf_addstr (&b, ash_reporter_names[i]);
    }
  return ash_buf_detach (&b);
}
