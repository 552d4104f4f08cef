/* SPDX-License-Identifier: Apache-2.0 */
/* dbphase.h -- the vulnerability databases of grype and trivy.

   grype and trivy cannot update their databases from inside a sandbox, so
   ASH does it itself, outside the sandbox, between the check phase and
   the scan phase: "grype db update" and "trivy image --download-db-only"
   (with trivy's misconfiguration checks bundle when a trivy scanner's
   option scanners names misconfig, as it does by default),
   each once per scan per tool (trivy and trivy-repo share trivy's), run
   from a private directory outside the scanned tree with an explicit
   empty config file and an environment ASH builds, against the cache
   directory the scan then reads (ash_scanner_db_cache_dir).  A lock file
   in that directory (.ash-db.lock, flock) makes concurrent scans take
   turns; the wait is bounded (ASH_DB_LOCK_TIMEOUT seconds, default 600),
   and a wait that times out makes the scanner ERROR.  Offline nothing is
   updated.  Online and offline, once the update is done, the scan takes
   the same lock shared and keeps it until the staleness check has read
   the database's age: another scan's update waits for the scanners that
   read the database, and they wait for it (with the same bound and
   error); a cache the user cannot write the lock into is read without
   it.

   After the scan phase, and online or offline alike, the staleness check
   holds each database to its bound: grype's max-allowed-built-age
   (GRYPE_DB_MAX_ALLOWED_BUILT_AGE, default 120h), read from "grype db
   status -o json"; trivy's db/metadata.json UpdatedAt, within 120h.  A
   database past its bound, or none at all, makes the scanner ERROR with
   its age and the fix.  Internal to lib/scan/.  */

#ifndef ASH_DBPHASE_H
#define ASH_DBPHASE_H

struct scan;

/* Update the databases of the scanners of SC that are still to run
   (online), then take the shared lock on each database they read.  */
void ash_dbphase_update (struct scan *sc);

/* Check the age of the databases the scanners of SC that ran read, then
   release the shared locks.  */
void ash_dbphase_check (struct scan *sc);

/* Release the shared locks ash_dbphase_update() took, if still held.  */
void ash_dbphase_release (struct scan *sc);

#endif
