/* SPDX-License-Identifier: Apache-2.0 */
/* report-command.c -- `ash report`: one report rendered again from the
   output directory's ash_aggregated_results.json and printed on stdout,
   as upstream's `ash report --format NAME` does.  Nothing is scanned and
   nothing is written.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/log.h"
#include "base/util.h"
#include "cli/commands.h"
#include "config/reporter-names.h"
#include "fs/outdir.h"
#include "fs/tree.h"
#include "report/reports.h"
#include "scan/exit-codes.h"
#include "scan/sarif.h"

/* Print TEXT on stdout; on a terminal, every control character a scanner
   could have put into the report (an escape sequence, a carriage return,
   a C1 control) is shown as text, line feeds and tabs kept.  */
static void
print_report (const char *text)
{
  if (!isatty (STDOUT_FILENO))
    {
      fputs (text, stdout);
      return;
    }
  struct ash_buf b = ASH_BUF_INIT;
  const char *p = text;
  while (*p)
    {
      const char *nl = strchr (p, '\n');
      _cleanup_free_ char *line
        = xstrndup (p, nl ? (size_t) (nl - p) : strlen (p));
      ash_escape_control_add (&b, line, true);
      if (nl)
        ash_buf_addstr (&b, "\n");
      p = nl ? nl + 1 : p + strlen (p);
    }
  fwrite (b.buf, 1, b.len, stdout);
  ash_buf_release (&b);
}

int
ash_cli_open_results (const struct ash_options *opts, char **ret_path,
                      int *ret_fd)
{
  struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *src = ash_path_absolute (opts->source_dir);
  _cleanup_free_ char *warning = NULL;
  int code = 0;

  *ret_path = NULL;
  *ret_fd = -1;
  if (ash_outdir_place (opts->output_dir, src, ret_path, &warning, &err) < 0)
    {
      _cleanup_free_ char *m = ash_error_format (&err);
      code = ash_cli_refuse (ASH_EXIT_CONFIG, "%s", m);
    }
  else
    {
      if (warning)
        ash_warning ("%s", warning);
      *ret_fd = open (*ret_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (*ret_fd < 0)
        code = ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                               _ ("no results of an earlier scan: %s: %s"),
                               *ret_path, strerror (errno));
    }
  ash_error_release (&err);
  return code;
}

int
ash_report_command (const struct ash_options *opts,
                    const struct ash_config *config, const char *format)
{
  const struct ash_report_format *f = NULL;
  for (size_t i = 0; ash_report_formats[i].name && f == NULL; i++)
    if (streq (ash_report_formats[i].name, format))
      f = &ash_report_formats[i];
  if (f == NULL)
    {
      /* cli.c refused a name ash does not know; what is left is one of
         upstream's cloud reporters.  */
      const char *why = ash_reporter_unavailable (format);
      return ash_cli_refuse (ASH_EXIT_CONFIG,
                             _ ("reporter '%s' is not available in ash: %s"),
                             format, why ? why : "?");
    }

  _cleanup_error_ struct ash_error err = ASH_ERROR_INIT;
  _cleanup_free_ char *placed = NULL, *body = NULL;
  _cleanup_json_ json_t *agg = NULL;
  _cleanup_close_ int fd = -1;

  int code = ash_cli_open_results (opts, &placed, &fd);
  if (code)
    return code;
  /* Read a chunk at a time, its results packed as they are parsed: the
     document is never its text and a tree of all its results.  */
  json_error_t je;
  int r = ash_json_load_file_packed (fd, "ash_aggregated_results.json",
                                     (size_t) 1 << 30, JSON_REJECT_DUPLICATES,
                                     "sarif", &agg, &je, &err);
  if (r < 0 && r != -EINVAL)
    {
      return ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                             _ ("no results of an earlier scan to report: "
                                "%s"),
                             err.message);
    }
  if (!json_is_object (agg)
      || !json_is_object (json_object_get (agg, "metadata"))
      || !json_is_object (json_object_get (agg, "scanner_results")))
    {
      return ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                             _ ("%s/ash_aggregated_results.json is not ash's "
                                "aggregated results%s%s"),
                             placed, agg ? "" : ": ", agg ? "" : je.text);
    }
  body = ash_report_render (agg, f, config);
  if (body == NULL)
    {
      return ash_cli_refuse (ASH_EXIT_INCOMPLETE,
                             _ ("report %s: nothing to report in %s/"
                                "ash_aggregated_results.json"),
                             f->name, placed);
    }
  print_report (body);
  return fflush (stdout) == 0 ? ASH_EXIT_OK : ASH_EXIT_INCOMPLETE;
}
