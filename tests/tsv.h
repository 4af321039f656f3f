/* tsv.h: reads the fixture tables (tab-separated, '#' comment lines, first
 * other line the header) so tests can look cells up by column name. */
#ifndef TSV_H
#define TSV_H

#include <stddef.h>

struct tsv {
    char *text;   /* the file, cut in place */
    char **cells; /* rows x cols, row 0 the header */
    size_t rows, cols;
};

/* The whole of $KVT_FIXTURES/name, NUL-terminated (free it); NULL if unreadable. */
char *fixture_read(const char *name);

/* Loads $KVT_FIXTURES/name. Returns 0, or -1 (message on stderr). */
int tsv_load(const char *name, struct tsv *t);
void tsv_free(struct tsv *t);

/* The cell of data row `row` (0-based, header excluded) under `column`;
 * NULL when the column does not exist. Empty cells are "". */
const char *tsv_get(const struct tsv *t, size_t row, const char *column);

/* Data rows (header excluded). */
size_t tsv_count(const struct tsv *t);

#endif
