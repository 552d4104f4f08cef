/* SPDX-License-Identifier: Apache-2.0 */
/* job.h -- one scanner's part of a scan, and the scan it belongs to.

   Shared by the phases of `ash scan` (orchestrator.c) and the work done
   for each scanner (job.c): its checks, its sandbox, its run.  Internal
   to lib/scan/.  */

#ifndef ASH_JOB_H
#define ASH_JOB_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/strvec.h"
#include "config/ashconfig.h"
#include "config/config-tier.h"
#include "config/options.h"
#include "config/sandbox-settings.h"
#include "converters/phase.h"
#include "fs/scanset.h"
#include "fs/tree.h"
#include "proc/spawn.h"
#include "sandbox/backend.h"
#include "sandbox/policy.h"
#include "sandbox/requirements.h"
#include "scan/plugins.h"
#include "scan/progress.h"
#include "scan/results.h"
#include "scan/suppress.h"
#include "scanners/scanner.h"

struct job
{
  const struct ash_scanner *scanner;
  struct ash_scanner_result result;
  bool run;              /* still to run after the checks */
  const json_t *options; /* scanners.NAME.options */
  unsigned timeout;
  char *results_rel; /* scanners/NAME/source */
  char *results_abs;
  int results_fd;
  /* Exclusions for the scanner's own walk, borrowed from EXCLUDED_TEXT,
     which holds them.  */
  struct ash_strvec excluded;
  struct ash_strvec excluded_text;
  struct ash_requirements req;
  bool sandboxed;
  bool policy_init;
  struct ash_policy policy;
  /* The policy's record is still to be made into RESULT.sandbox
     (ash_job_sandbox_record()), with RECORD_MODE and RECORD_BACKEND (both
     borrowed) as its mode and backend.  */
  bool record_pending;
  const char *record_mode;
  const char *record_backend;
  struct ash_scope scope;
  struct ash_error refusal; /* why the scanner's sandbox was refused: the
                               reason its scope refuses with */
  struct ash_scan_job sj;
  char *run_config_dir; /* the run's 0700 config directory */
  /* The scanner's probes (prepare) run with a throwaway results
     directory of their own, removed after them, never the real one.  */
  char *probe_rel; /* scanners/NAME/probe */
  char *probe_abs;
  bool probe_policy_init;
  struct ash_policy probe_policy;
  struct ash_scope probe_scope;
  bool converted; /* runs on OUTPUT/converted, for the job
                     PARENT of the same scanner */
  size_t parent;
};

struct scan
{
  const struct ash_options *opts;
  const struct ash_config *config;
  const struct ash_backend *const *backends;
  const char *platform_note;
  struct ash_outdir od;
  char *source_dir;
  char *scan_set_file;
  struct ash_scanset scanset;
  bool have_scanset;   /* SCANSET is built (under SCANSET_LOCK) */
  bool scanset_failed; /* building it failed, and the scan said so */
  pthread_mutex_t scanset_lock;
  struct ash_sandbox_settings ss;
  const char *mode;
  struct ash_host host;
  enum ash_severity threshold;
  struct ash_suppressions sups;
  struct ash_plugin_set plugins;
  struct job *jobs;
  size_t n_jobs;
  struct ash_progress *progress;
  pthread_mutex_t lock;
  struct ash_scanner **unknown; /* scanners --scanners names that do not
                                   exist */
  size_t n_unknown;
  struct ash_strvec unknown_names;
  atomic_int interrupted;       /* the signal that interrupted the scan,
                                   or 0 */
  struct ash_tier_context tier; /* the scanned directory's spellings */
  char *tier_storage[3];
  struct ash_convert_phase conv; /* the convert phase's outcome */
  bool conv_failed;              /* the work directory could not be made */
  struct ash_strvec changed;     /* --changed-files-only: the files, sorted */
  bool have_changed;             /* findings are kept only in CHANGED */
  int db_lock_fds[2];            /* the shared locks on grype's and
                                    trivy's database caches, held from
                                    before the scan phase until the age
                                    check (dbphase.c), or -1 */
  struct ash_strvec ignored_files; /* walked but left out of the scan set
                                      (ignore files, ignore_paths, links
                                      leaving): sorted; findings there are
                                      dropped.  Its strings are the scan
                                      set's (only the array is its own) */
};

/* A job for scanner S, added to SC->jobs, with its status decided by the
   options and the configuration (SKIPPED when not to run).  */
void ash_job_add (struct scan *sc, const struct ash_scanner *s);

/* A job that runs the scanner of SC->jobs[PARENT] on the converted files
   (results in scanners/NAME/converted); its findings are merged into the
   parent's, at the originals.  */
void ash_job_add_converted (struct scan *sc, size_t parent);

/* The check phase of J: find its tool, open its results directory,
   decide its sandbox, run its probes inside that sandbox.  */
void ash_job_check (struct scan *sc, struct job *j);

/* The scan phase of J: run the scanner and read its output.  */
void ash_job_run (struct scan *sc, struct job *j);

/* Make the record of J's sandbox policy into its result, once it is
   decided (RESULT.sandbox); nothing when it is made already.  The
   scanner's run makes it while the program runs; the aggregation calls
   this for every job, after every job has ended.  */
void ash_job_sandbox_record (struct job *j);

/* The severity threshold of J's findings: its scanner's
   options.severity_threshold unless --min-severity was given, else the
   scan's.  */
enum ash_severity ash_job_threshold (const struct scan *sc,
                                     const struct job *j);

/* Set J's status and REASON (taken), and take it off the list to run.  */
void ash_job_set_status (struct job *j, enum ash_scanner_status st,
                         char *reason);

/* Remove what a scanner left below REL of DIRFD that a later write could
   follow, with a warning for each.  */
void ash_job_sweep (struct scan *sc, int dirfd, const char *rel);

void ash_job_release (struct job *j);

/* Build SC's scan set unless it is built: log its warnings, write
   ash-scan-set-files-list.txt and ash-ignore-report.txt, and fill
   SC->ignored_files.  Safe from any thread; a failure is returned once,
   and then -EIO.  (orchestrator.c)  */
int ash_scan_scanset_ensure (struct scan *sc, struct ash_error *err);

/* The cap on the size of a scanner's output document that ASH reads
   (global_settings.max_scanner_document), or 0 for none.  */
size_t ash_job_document_max (const struct scan *sc);

#endif
