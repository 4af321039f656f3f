/* kvt_text.h: making untrusted text safe to show.
 *
 * Lesson files come from third parties; their text must never drive the
 * terminal. Sanitising keeps printable UTF-8 and turns everything that could
 * act on a terminal into visible, inert escapes: C0 and C1 controls, DEL,
 * bidirectional overrides and isolates, and bytes that are not valid UTF-8. */
#ifndef KVT_TEXT_H
#define KVT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kvt_sanitize_flags {
    KVT_KEEP_NEWLINES = 1, /* keep '\n' (and show '\t' as a space) for multi-line text */
};

/* Writes a sanitised copy of in[0..len) into out (NUL-terminated, cut at a
 * character boundary so it fits cap, with "..." when cut). Controls become
 * "\xNN" or "\uNNNN"; '\n' and '\t' become a space unless KVT_KEEP_NEWLINES.
 * Returns the length written. */
size_t kvt_sanitize(const char *in, size_t len, char *out, size_t cap, unsigned flags);

/* The one way bytes from files, databases, lessons, probes or arguments
 * reach a terminal: kvt_sanitize into a buffer (kvt_safe, for a field of a
 * message, cut to fit); the caller does the writing (core does no I/O). */

/* NUL-terminated s sanitised into out (cap bytes, cut with "..." to fit;
 * KVT_SAFE_FIELD is a good cap for one value quoted in a message). NULL
 * reads as "". Returns out, so it can sit in a printf argument list. */
#define KVT_SAFE_FIELD 160
const char *kvt_safe(const char *s, char *out, size_t cap);

/* True when the text is already safe (sanitising would not change it). */
bool kvt_text_is_safe(const char *in, size_t len, unsigned flags);

/* Display columns of one code point: 0 for combining marks and zero-width
 * characters, 2 for East Asian wide and emoji, 1 otherwise. A table of our
 * own, so widths do not depend on the locale. */
int kvt_char_width(uint32_t cp);

/* Columns that text[0..len) takes; invalid bytes count as one column (they
 * are shown as escapes after sanitising anyway). */
size_t kvt_text_width(const char *text, size_t len);

/* The next line of a paragraph wrapped to `width` columns: returns how many
 * bytes of text[0..len) go on it (breaking after a space when possible, but
 * never between a number and its unit, "24 GB"; in the middle of a word only
 * when the word alone is wider than the line, then after its last '/' in the
 * line's second half where it has one (a path breaks at a folder), never
 * inside a UTF-8
 * sequence), and *next the offset where the following
 * line starts (past the spaces it broke on). 0 when len is 0. */
size_t kvt_wrap_line(const char *text, size_t len, int width, size_t *next);

/* text fitted to `width` columns for a table cell: whole when it fits; else
 * cut after the last whole word that leaves room for `ellipsis` (in the
 * middle of a word only when whole words would fill less than half the
 * cell), trailing spaces and ",;:" dropped, and `ellipsis` added. Written to
 * out (cap bytes, never cut inside a UTF-8 sequence); returns the columns
 * it takes. */
size_t kvt_text_fit(const char *text, int width, const char *ellipsis, char *out, size_t cap);

#endif
