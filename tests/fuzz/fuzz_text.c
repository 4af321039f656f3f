/* fuzz_text: any bytes, as a name from an import, a lesson's text or a
 * probe's line would bring them, through the one sanitiser every byte
 * takes to a terminal (kvt_text.h). Aborts if what comes out is not safe
 * (a control, a C1 control, a bidirectional override or invalid UTF-8
 * left in), overruns its buffer or changes safe text. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data;
    size_t big_cap = size * 4 + 8, cut_cap = size > 0 ? (size_t)data[0] % 64 + 1 : 1;
    char *big = malloc(big_cap), *cut = malloc(cut_cap);
    size_t n;

    if (!big || !cut)
        abort();
    for (unsigned flags = 0; flags <= KVT_KEEP_NEWLINES; flags += KVT_KEEP_NEWLINES) {
        n = kvt_sanitize(in, size, big, big_cap, flags);
        if (n != strlen(big) || n >= big_cap || !kvt_text_is_safe(big, n, flags))
            abort();
        if (kvt_text_is_safe(in, size, flags) && (n != size || memcmp(big, in, size) != 0))
            abort(); /* safe text comes out as it went in, whole */
        n = kvt_sanitize(in, size, cut, cut_cap, flags);
        if (n != strlen(cut) || n >= cut_cap || !kvt_text_is_safe(cut, n, flags))
            abort();
    }
    free(big);
    free(cut);
    return 0;
}
