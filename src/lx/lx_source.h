/* lx_source.h: where things are written in a lesson's source text.
 *
 * A Lua table keeps no line for its fields, so the loader reads the source
 * once with a small tokenizer and records every table constructor `{ ... }`:
 * the line of its brace, the DSL word it is called with (`numeric { ... }`),
 * and the line of each field, named (`unit = ...`, `["unit"] = ...`) or listed
 * (the n-th value), with the constructor the field's value starts with, if
 * any. The reader pairs the tables it reads with these records, so a problem
 * points at the line of the field at fault. Code inside functions and blocks
 * is skipped: only what a constructor lists counts as its fields. Private to
 * lx. */
#ifndef LX_SOURCE_H
#define LX_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct lx_source;

/* Indexes src[0..len) (text Lua has already parsed); the index points into
 * src, which must outlive it. NULL when out of memory. */
struct lx_source *lx_source_scan(const char *src, size_t len);
void lx_source_free(struct lx_source *s);

/* The constructor written as `kind { ... }` (or `kind({ ... })`) on `line`,
 * the first of them; with line 0, the one the chunk returns (`return kind
 * {`), else the last. Kind NULL with line 0: the constructor the chunk's
 * own `return` is followed by (a `return` inside a function or block does
 * not count), whatever its name. -1 when there is none. */
int lx_source_find(const struct lx_source *s, const char *kind, int line);

/* The line of the brace of constructor `table`; 0 for -1. */
int lx_source_line(const struct lx_source *s, int table);

/* The line of the field `key` of constructor `table`, and in *child (when
 * not NULL) the constructor its value starts with, or -1. 0 when the
 * constructor does not write that field. */
int lx_source_key(const struct lx_source *s, int table, const char *key, int *child);

/* The same for the pos-th listed value (1-based). */
int lx_source_item(const struct lx_source *s, int table, size_t pos, int *child);

/* The value of field `key` of constructor `table` when it is written as one
 * short string with no escapes (`id = "kv-cache",`), copied to out; false
 * (out empty) for any other value, a key written twice, or a value longer
 * than cap - 1. */
bool lx_source_literal(const struct lx_source *s, int table, const char *key, char *out,
                       size_t cap);

/* The id the lesson's table writes, as lx_source_literal reads it: the
 * constructor the chunk returns (`return lesson {`), else the last `lesson
 * {`, else the one the chunk's own `return` is followed by. The loader refuses a lesson whose
 * id is not this, so a catalogue can read a file's id without running it. */
bool lx_source_lesson_id(const struct lx_source *s, char *out, size_t cap);

/* Whether that id is `id`. */
bool lx_source_lesson_id_is(const struct lx_source *s, const char *id);

/* The line of the chunk's last `return` outside any function or block;
 * 0 when it has none. */
int lx_source_return_line(const struct lx_source *s);

#endif
