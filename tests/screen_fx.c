/* The in-process screen tests' shared fixture (screen_fx.h). */
#include "screen_fx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lx.h"
#include "tmp_dir.h"

struct screen_fx *screen_fx_new(const char *prefix)
{
    struct screen_fx *f = calloc(1, sizeof *f);
    struct store_error err;
    if (!f || tmp_dir_make(f->dir, sizeof f->dir, prefix) != 0) {
        free(f);
        return NULL;
    }
    snprintf(f->db, sizeof f->db, "%s/progress.db", f->dir);
    if (store_open(f->db, false, &f->st, &err) != KVT_E_OK ||
        store_learner(f->st, "default", 1000, &f->o.learner_id, &err) != KVT_E_OK) {
        screen_fx_free(f);
        return NULL;
    }
    f->o.store = f->st;
    f->o.db_path = f->db;
    f->o.learner = "default";
    lx_default_opts(&f->o.lx);
    f->o.lx.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    f->o.build = "test";
    return f;
}

void screen_fx_free(struct screen_fx *f)
{
    if (!f)
        return;
    ui_harness_close(f->h);
    if (f->st)
        store_close(f->st);
    tmp_dir_remove(f->dir);
    free(f);
}

void screen_fx_open(struct screen_fx *f, int cols, int lines)
{
    char why[256];
    if (!(f->h = ui_harness_open(&f->o, cols, lines, why, sizeof why)))
        fail_msg("harness: %s", why);
}

void screen_fx_close(struct screen_fx *f)
{
    ui_harness_close(f->h);
    f->h = NULL;
}

const char *screen_fx_shown(struct screen_fx *f)
{
    return ui_harness_screen(f->h, f->screen, sizeof f->screen);
}

const char *screen_fx_status(struct screen_fx *f)
{
    const char *s = screen_fx_shown(f), *last = s, *p = s;
    size_t n;
    while (*p) {
        size_t len = strcspn(p, "\n");
        if (strspn(p, " ") < len)
            last = p;
        p += len + (p[len] == '\n');
    }
    last += strspn(last, " ");
    n = strcspn(last, "\n");
    while (n > 0 && last[n - 1] == ' ')
        n--;
    snprintf(f->line, sizeof f->line, "%.*s", (int)n, last);
    return f->line;
}
