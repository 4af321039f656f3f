/* lx_brief.h: a lesson's catalogue entry, what the course map shows of it
 * without running it: its id, title, module and their names for people,
 * its concept, its prerequisites, its exercises' ids, kinds and measured
 * figures, and how many follow-ups and key points it has.
 *
 * A brief is a struct lx_lesson with only those fields set (and its path
 * and content hash); every other pointer is NULL. It is made from the text
 * lx_brief_encode wrote for a loaded lesson, so the progress database can
 * keep it beside the hash of the file it came from: the lesson file stays
 * the only source, and a file whose bytes changed is loaded again. Free a
 * brief with lx_free. */
#ifndef LX_BRIEF_H
#define LX_BRIEF_H

#include <stdbool.h>
#include <stdint.h>

#include "lx.h"

/* True when l is a brief, not a loaded lesson. */
bool lx_is_brief(const struct lx_lesson *l);

/* The brief's text for a loaded lesson (malloc'd), NULL when out of memory. */
char *lx_brief_encode(const struct lx_lesson *l);

/* The brief of `path` from that text, with `hash` (16 hex digits) as its
 * content hash; NULL when the text is malformed or out of memory. */
struct lx_lesson *lx_brief_decode(const char *path, const char *hash, const char *text);

/* FNV-1a, 8 bytes a step (64 bits, 16 hex digits), of the file's bytes, the same hash
 * lx_load keeps in lesson->hash; false when it cannot be read or is larger
 * than a lesson may be. */
bool lx_file_hash(const char *path, char out[17]);

/* The lesson id the file at path writes in its lesson table, read from its
 * text without running it (lx_source_lesson_id); false when it cannot be
 * read or writes none as one plain string. The loader refuses a lesson whose
 * id is not the one its text writes, so a file that loads always peeks to
 * its id, and a lookup may pass over a file that peeks to another. */
bool lx_peek_id(const char *path, char *out, size_t cap);

/* The file's stamp, as text: its size, inode, device and its modification
 * and change times to the nanosecond. A kept hash taken with the same stamp
 * still holds, as git's index trusts the same stat data, provided the file
 * had *settled by `now` (Unix seconds, when the stamp is taken): changed
 * more than two seconds before, since a change in the same tick of a coarse
 * clock would leave the stamp the same. false when the path cannot be
 * stat'ed or is not a regular file. */
#define LX_STAMP_CAP 160
bool lx_file_stamp(const char *path, int64_t now, char out[LX_STAMP_CAP], bool *settled);

/* The same over a buffer, for lx_load. */
void lx_hash_bytes(const void *p, size_t n, char out[17]);

/* One hash of everything besides the lesson file that its load depends on
 * here: the DSL (lua/kvtutor.lua), the glossary beside it and the Lua
 * release. false when the DSL cannot be read. */
bool lx_dsl_hash(const struct lx_opts *o, char out[17]);

#endif
