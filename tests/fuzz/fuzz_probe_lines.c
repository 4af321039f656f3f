/* fuzz_probe_lines: a probe's stdout, any bytes, arriving in pieces of
 * varying size (the first byte picks the piece size) as a pipe would give
 * them. Every event handed on must be an object with a string "type". */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(void *ctx, const json_t *ev)
{
    unsigned *n = ctx;
    if (!json_is_object(ev) || !json_is_string(json_object_get(ev, "type")))
        abort();
    ++*n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct probe_lines pl;
    unsigned events = 0;
    size_t piece;
    if (size == 0 || probe_lines_init(&pl, 256) != 0)
        return 0;
    piece = (size_t)data[0] % 17 + 1;
    for (size_t at = 1; at < size; at += piece) {
        size_t n = size - at < piece ? size - at : piece;
        probe_lines_feed(&pl, (const char *)data + at, n, check, &events);
    }
    probe_lines_finish(&pl, check, &events);
    if (events != pl.lines || strlen(pl.error) >= sizeof pl.error)
        abort();
    probe_lines_free(&pl);
    return 0;
}
