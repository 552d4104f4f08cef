/* SPDX-License-Identifier: Apache-2.0 */
/* exit-codes.h -- the exit codes of ash (DESIGN section 5).

   They live in the scan layer, the lowest that decides one (results.c
   turns the scanners' outcomes into a code); the command line includes
   this header too.  */

#ifndef ASH_EXIT_CODES_H
#define ASH_EXIT_CODES_H

/* When several apply, the first in the order 5, 3, 1, 2 wins.  */
enum
{
  ASH_EXIT_OK = 0,
  ASH_EXIT_INCOMPLETE = 1,
  ASH_EXIT_FINDINGS = 2,
  ASH_EXIT_CONFIG = 3,
  ASH_EXIT_USAGE = 5,
};

#endif
