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

enum kvt_sanitize_flags {
    KVT_KEEP_NEWLINES = 1, /* keep '\n' (and show '\t' as a space) for multi-line text */
};

/* Writes a sanitised copy of in[0..len) into out (NUL-terminated, cut at a
 * character boundary so it fits cap, with "..." when cut). Controls become
 * "\xNN" or "\uNNNN"; '\n' and '\t' become a space unless KVT_KEEP_NEWLINES.
 * Returns the length written. */
size_t kvt_sanitize(const char *in, size_t len, char *out, size_t cap, unsigned flags);

/* True when the text is already safe (sanitising would not change it). */
bool kvt_text_is_safe(const char *in, size_t len, unsigned flags);

#endif
