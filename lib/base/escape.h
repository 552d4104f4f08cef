/* SPDX-License-Identifier: Apache-2.0 */
/* escape.h -- text from scanners and repositories made safe to show.

   Anything a scanner or the scanned repository wrote (a scanner's stderr,
   a file name, an in-tree project_name) may hold terminal control
   sequences: an OSC that sets the window title or the clipboard, a screen
   clear, a carriage return that overwrites a line with a fake "PASSED".
   Everything ash prints to a terminal or writes to a text report goes
   through ash_escape_control(), and the Markdown and HTML reports through
   their own escapes, which apply it first.  */

#ifndef ASH_ESCAPE_H
#define ASH_ESCAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"

/* Append S to B with every control character shown in text: ESC as
   "\e", line feed, carriage return and tab as "\n", "\r", "\t" (a tab is
   kept when KEEP_TABS), any other C0 control, DEL and a byte that is not
   part of valid UTF-8 as "\xHH", a C1 control (U+0080 to U+009F) and a
   bidirectional override or isolate (U+202A to U+202E, U+2066 to U+2069)
   as "\uHHHH".  Everything else, backslashes included, is copied.  */
void ash_escape_control_add (struct ash_buf *b, const char *s, bool keep_tabs);

/* The same into a new string (never NULL; S NULL gives "").  */
char *ash_escape_control (const char *s);

/* Append S to B as a JSON string, quotes included, as jansson's
   json_dumps writes it without flags: a quotation mark, a backslash and
   every C0 control escaped (\b \f \n \r \t or \u00XX), everything
   else copied, non-ASCII characters as UTF-8.  A byte that is not part of
   valid UTF-8, which a JSON text cannot hold, becomes the text "\xHH",
   as ash_escape_control() shows it.  */
void ash_escape_json_add (struct ash_buf *b, const char *s);

/* Whether S is valid UTF-8 (no overlong form, no surrogate, nothing
   above U+10FFFF): what jansson takes as a string, and what
   ash_escape_json_add writes as json_dumps does.  */
bool ash_utf8_valid (const char *s);

/* Does S hold anything ash_escape_control() would change?  */
bool ash_has_control (const char *s);

/* Eight bytes at a time (a word read with memcpy): whether X holds a
   byte below 0x20, one of 0x80 and above, or one equal to A or B.  Each
   test is the usual "has a zero byte" sum, exact for the word as a whole,
   which is all that is asked: a word that has one is looked at byte by
   byte.  */
static inline bool
ash_word_special (uint64_t x, unsigned char a, unsigned char b)
{
  const uint64_t ones = UINT64_C (0x0101010101010101);
  const uint64_t highs = UINT64_C (0x8080808080808080);
  uint64_t va = x ^ (a * ones), vb = x ^ (b * ones);
  return ((x & highs) | ((x - 0x20 * ones) & ~x & highs)
          | ((va - ones) & ~va & highs) | ((vb - ones) & ~vb & highs))
         != 0;
}

#endif
