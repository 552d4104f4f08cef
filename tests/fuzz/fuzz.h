/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.h -- what every fuzz target shares.

   Each target in tests/fuzz/ defines LLVMFuzzerTestOneInput.  It is linked
   three ways: with libFuzzer (./configure --enable-fuzzing: fuzz-NAME),
   with AFL++'s driver (afl-clang-fast, see README.md), and with replay.c
   (replay-NAME, a check program that feeds the stored inputs to it in
   every build).  A target checks properties of what the parser returns,
   not only that it returns: a failed property calls abort(), which every
   driver reports as a crash.  */

#ifndef ASH_FUZZ_H
#define ASH_FUZZ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Abort with the failed property's text when COND does not hold.  */
#define FUZZ_CHECK(cond)                                                      \
  ((cond) ? (void) 0 : fuzz_fail (__FILE__, __LINE__, #cond))
void fuzz_fail (const char *file, int line, const char *what)
  __attribute__ ((noreturn));

/* DATA as a NUL-terminated string (newly allocated).  */
char *fuzz_text (const uint8_t *data, size_t size);

/* A private directory for this process, made once and removed at exit.  */
const char *fuzz_tmpdir (void);

/* Write LEN bytes of P into DIR/NAME (created or truncated; the missing
   directories on the way are made).  0 or -errno.  */
int fuzz_write_file (const char *dir, const char *name, const void *p,
                     size_t len);

/* Remove everything below DIR (DIR itself stays).  */
void fuzz_empty_dir (const char *dir);

/* Split DATA at each FUZZ_SEPARATOR line into at most MAX pieces (the
   last piece keeps the rest); returns how many.  The pieces point into
   DATA.  */
#define FUZZ_SEPARATOR "\n--ash-fuzz-file--\n"
size_t fuzz_split (const uint8_t *data, size_t size, size_t max,
                   const uint8_t **ret_p, size_t *ret_len);

/* Check that DOC has the shape SARIF 2.1.0 requires of a log (the
   schema's required properties and the types and values of the ones ash
   reads or writes); aborts naming what is wrong.  ASH_WROTE: DOC is one
   ash produced (normalised), which also carries properties.severity on
   every result and a rule for every ruleId.  */
void fuzz_check_sarif (const json_t *doc, bool ash_wrote);

/* Check that dumping V and loading the text back gives an equal value.  */
void fuzz_check_json_roundtrip (const json_t *v);

#endif
