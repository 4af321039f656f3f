#include "tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fixture_read(const char *name)
{
    const char *dir = getenv("KVT_FIXTURES");
    char path[1024], *text;
    FILE *f;
    long size;

    snprintf(path, sizeof path, "%s/%s", dir ? dir : "fixtures", name);
    f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        if (f)
            fclose(f);
        return NULL;
    }
    text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text)
        text[size] = '\0';
    return text;
}

int tsv_load(const char *name, struct tsv *t)
{
    size_t cap = 0;

    memset(t, 0, sizeof *t);
    t->text = fixture_read(name);
    if (!t->text)
        return -1;

    for (char *line = t->text, *next; line && *line; line = next) {
        size_t n = 1;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        for (char *p = line; *p; p++)
            n += *p == '\t';
        if (t->rows == 0)
            t->cols = n;
        if (n != t->cols) {
            fprintf(stderr, "%s: row %zu has %zu cells, header %zu\n", name, t->rows, n, t->cols);
            return -1;
        }
        if ((t->rows + 1) * t->cols > cap) {
            cap = cap ? cap * 2 : 64 * t->cols;
            t->cells = realloc(t->cells, cap * sizeof *t->cells);
            if (!t->cells)
                return -1;
        }
        for (size_t c = 0; c < n; c++) {
            char *tab = strchr(line, '\t');
            if (tab)
                *tab = '\0';
            t->cells[t->rows * t->cols + c] = line;
            line = tab ? tab + 1 : line + strlen(line);
        }
        t->rows++;
    }
    return t->rows > 0 ? 0 : -1;
}

void tsv_free(struct tsv *t)
{
    free(t->text);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

const char *tsv_get(const struct tsv *t, size_t row, const char *column)
{
    for (size_t c = 0; c < t->cols; c++)
        if (strcmp(t->cells[c], column) == 0)
            return t->cells[(row + 1) * t->cols + c];
    return NULL;
}

size_t tsv_count(const struct tsv *t)
{
    return t->rows ? t->rows - 1 : 0;
}
