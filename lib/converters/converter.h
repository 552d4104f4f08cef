/* SPDX-License-Identifier: Apache-2.0 */
/* converter.h -- the convert phase: notebooks and archives made into files
   the scanners can read.

   Converters run before the scanners.  Each one reads its inputs from the
   scan set (so ignore_paths and the links that leave the tree apply to
   them), writes below the output directory's converted/ work directory
   through the non-following writers of fs/tree.c, and records, for every
   file it writes there, the original it came from (a notebook, or a member
   of an archive), so that findings in the converted files are reported at
   the original.

   jupyter  runs jupyter-nbconvert --to script, one sandboxed spawn per
            notebook, on a staged copy of the notebook in a directory of
            its own (jupyter.c);
   archive  extracts zip and tar (gzip, bzip2, xz) archives in ASH's own
            process with libarchive, refusing what could escape the work
            directory and what is too large (archive.c).

   Library code: returns 0 or a negative errno and fills a struct
   ash_error; never prints (logging goes through base/log.h).  */

#ifndef ASH_CONVERTER_H
#define ASH_CONVERTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/sandbox-settings.h"
#include "sandbox/backend.h"

/* The work directory below the output directory, and the list of the
   files written there (relative to the work directory, one a line).  */
#define ASH_CONVERTED_DIR "converted"
#define ASH_CONVERTED_LIST "ash-converted-files-list.txt"

enum ash_converter_status
{
  ASH_CONVERTER_PASSED = 0, /* every input converted */
  ASH_CONVERTER_FAILED,     /* some input refused or failed */
  ASH_CONVERTER_MISSING,    /* cannot run at all (tool, library) */
  ASH_CONVERTER_SKIPPED,    /* disabled, or nothing to convert */
};

const char *ash_converter_status_name (enum ash_converter_status s);

/* One converter's outcome, the converter_results row.  */
struct ash_converter_result
{
  char *name;
  enum ash_converter_status status;
  char *reason;            /* missing or skipped reason, or NULL */
  json_t *converted;       /* [{path, original, member?}] (converted/
                              relative paths) */
  json_t *refused_inputs;  /* [{path, reason}] */
  json_t *failed_inputs;   /* [{path, reason}] */
  json_t *skipped_entries; /* [{path, reason}]: archive entries not
                              extracted that do not make the scan
                              incomplete (links inside the archive) */
  json_t *sandbox;         /* the policy record of one spawn, or NULL */
  double duration;
};

void ash_converter_result_init (struct ash_converter_result *r,
                                const char *name);
void ash_converter_result_release (struct ash_converter_result *r);
/* The converter_results row (new reference).  */
json_t *ash_converter_result_to_json (const struct ash_converter_result *r);
/* True when R makes the scan incomplete: MISSING with inputs to convert,
   or an input refused or failed.  */
bool ash_converter_result_incomplete (const struct ash_converter_result *r);
/* Record INPUT (relative to the source directory, or "ARCHIVE!MEMBER")
   refused or failed with REASON.  */
void ash_converter_refuse (struct ash_converter_result *r, const char *input,
                           const char *reason);
void ash_converter_fail (struct ash_converter_result *r, const char *input,
                         const char *reason);

/* Caps on what the archive converter extracts (converters.archive.
   options).  */
struct ash_archive_limits
{
  uint64_t max_total_size; /* bytes written for one archive, nested ones
                              included */
  uint64_t max_entries;    /* entries of one archive, nested included */
  unsigned max_depth;      /* archives inside archives: 0 extracts none */
  uint64_t max_ratio;      /* bytes written per byte read, past 1 MiB */
};

#define ASH_ARCHIVE_DEFAULT_MAX_TOTAL_SIZE ((uint64_t) 1 << 30)
#define ASH_ARCHIVE_DEFAULT_MAX_ENTRIES 100000
#define ASH_ARCHIVE_DEFAULT_MAX_DEPTH 3
#define ASH_ARCHIVE_DEFAULT_MAX_RATIO 200

/* The limits from converters.archive.options (NULL: the defaults).  */
void ash_archive_limits_from_options (const json_t *options,
                                      struct ash_archive_limits *ret);

/* Whether NAME is an archive the archive converter extracts (by its
   name: .zip, .tar, .tar.gz, .tgz, .tar.bz2, .tbz2, .tbz, .tar.xz,
   .txz).  */
bool ash_archive_name_matches (const char *name);
/* Whether libarchive was built in; when not, *RET_WHY says why the
   converter is MISSING (static string).  Where it is loaded with dlopen
   (converters/archive-lib.h), whether it loads is known at the first
   archive: one that does not fails every archive, naming the library.  */
bool ash_archive_available (const char **ret_why);

/* Extract the archive REL (relative to SRCFD, a regular file of the scan
   set) below WORKFD (the converted/ directory) into archive/REL/, recording
   each file written, each refusal and failure in RES.  */
void ash_archive_convert (int srcfd, const char *rel, int workfd,
                          const struct ash_archive_limits *limits,
                          struct ash_converter_result *res);

/* What the jupyter converter needs from the scan.  */
struct ash_jupyter_ctx
{
  int srcfd; /* the source directory */
  const char *source_dir;
  int outfd; /* the output directory */
  const char *output_dir;
  int workfd;       /* OUTPUT/converted */
  const char *mode; /* sandbox mode ("off", ...) */
  const struct ash_backend *const *backends;
  const struct ash_host *host;
  const struct ash_sandbox_settings *ss;
  bool offline;
  unsigned workers;
  unsigned timeout;      /* seconds per notebook */
  const char *tool_path; /* jupyter-nbconvert */
};

/* Convert each notebook of NOTEBOOKS (relative to the source directory)
   into OUTPUT/converted/jupyter/, one spawn each, at most CTX->workers at
   once.  */
void ash_jupyter_convert (const struct ash_jupyter_ctx *ctx,
                          char *const *notebooks, size_t n,
                          struct ash_converter_result *res);

/* The original a converted file stands for: MAP is {converted-relative
   path: {"original": SOURCE-relative path, "member": member path or
   absent, "kind": "notebook"|"archive"}}.  Rewrite the SARIF document
   DOC, whose artifact URIs are relative to the work directory, so that
   each location names the original, keeping the converted path and the
   member (or notebook cell) in the location's properties.  */
void ash_converters_map_sarif (json_t *doc, const json_t *map, int workfd);

/* Escape NAME for a log line or a JSON string: control characters,
   backslashes and, when NAME is not valid UTF-8, every byte of 0x80 and
   above become \xNN (newly allocated).  */
char *ash_converter_escape (const char *name);

#endif
