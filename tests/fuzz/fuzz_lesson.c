/* fuzz_lesson: a lesson file, any bytes, its id read from the text as the
 * catalogue reads it (no Lua has parsed these bytes), then loaded through
 * the sandbox with tight limits; a lesson that loads has every numeric exercise drawn and
 * every exercise graded, as the app would. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lx.h"
#include "lx_brief.h"

#ifndef KVT_DSL
#error "KVT_DSL must name lua/kvtutor.lua"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    struct lx_opts o;
    struct lx_lesson *l = NULL;
    struct lx_report rep = {0};
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/kvt-fuzz-lesson-%ld.lua", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);

    {
        char id[256];
        lx_peek_id(path, id, sizeof id);
    }
    lx_default_opts(&o);
    o.load_ms = 300; /* a hostile loop costs the fuzzer this much, no more */
    o.call_ms = 50;
    o.mem_cap = 16u << 20;
    o.dsl = KVT_DSL;
    if (lx_load(path, &o, &l, &rep) == KVT_E_OK) {
        static const struct lx_fact facts[] = {{"read_gbps", 900}, {"peak_gbps", 1008}};
        for (size_t i = 0; i < l->n_exercises; i++) {
            struct lx_draw d = {0};
            struct lx_grade g;
            char err[200];
            if (l->exercises[i].kind == LX_NUMERIC &&
                lx_draw_measured(l, i, 7, facts, 2, &d, err, sizeof err) != KVT_E_OK)
                continue;
            lx_grade(l, i, &d, "56 KiB", &g);
        }
        for (size_t i = 0; i < l->n_followups; i++) {
            struct lx_grade g;
            lx_grade_followup(l, i, "the weights are a fixed cost", &g);
        }
        lx_free(l);
    }
    lx_report_free(&rep);
    return 0;
}
