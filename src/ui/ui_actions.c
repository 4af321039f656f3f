#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ui_actions.h"

#include "kvt_text.h"

struct action {
    enum ui_action id;
    unsigned ctx;
    int keys[3];
    const char *label, *help;
};

static const struct action table[] = {
#define UI_ACTION_ROW(name, ctx, k1, k2, k3, label, help)                                          \
    {UI_##name, ctx, {k1, k2, k3}, label, help},
    UI_ACTIONS(UI_ACTION_ROW)
#undef UI_ACTION_ROW
};

#define N (sizeof table / sizeof table[0])

enum ui_action ui_action_for(int key, unsigned context)
{
    if (key == '\n')
        key = '\r'; /* terminals send either for Enter */
    for (size_t i = 0; i < N; i++) {
        if (!(table[i].ctx & context))
            continue;
        for (int k = 0; k < 3; k++)
            if (table[i].keys[k] && table[i].keys[k] == key)
                return table[i].id;
    }
    return UI_NONE;
}

/* Row k takes no key of its own in this context: an earlier row has them
 * (ui_action_for returns the first). Such a row is not listed. */
static bool shadowed(size_t k, unsigned context)
{
    for (size_t j = 0; j < k; j++) {
        if (!(table[j].ctx & context))
            continue;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                if (table[k].keys[a] && table[k].keys[a] == table[j].keys[b])
                    return true;
    }
    return false;
}

/* Keys that work the same on every screen (moving, going back, quitting)
 * are listed by help, so the status line keeps its 80 columns for what this
 * screen does; "? help" comes first so the rest are one key away. */
static bool everywhere(enum ui_action id)
{
    return id == UI_BACK || id == UI_LEFT || id == UI_ESCAPE || id == UI_QUIT || id == UI_DOWN ||
           id == UI_PAGE_DOWN || id == UI_TOP;
}

void ui_action_keys(unsigned context, int width, char *buf, size_t cap)
{
    size_t o = 0, cols = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N && o + 1 < cap; i++) {
        int n;
        if (!(table[i].ctx & context) || !table[i].label || !table[i].help ||
            everywhere(table[i].id) || shadowed(i, context))
            continue;
        /* the key and the first word of its help: "e exercises" */
        n = snprintf(buf + o, cap - o, "%s%s %.*s", o ? "  " : "", table[i].label,
                     (int)strcspn(table[i].help, " ,(:"), table[i].help);
        if (n < 0 || (size_t)n >= cap - o ||
            cols + kvt_text_width(buf + o, (size_t)n) > (size_t)(width > 0 ? width : 0)) {
            buf[o] = '\0'; /* the rest are in help, one key away */
            break;
        }
        cols += kvt_text_width(buf + o, (size_t)n);
        o += (size_t)n;
    }
    if (o == 0 && (context & UC_VIEW))
        snprintf(buf, cap, "q back"); /* help lists nothing else of its own */
}

/* The keys that move through a page: nothing to say of them where it fits. */
static bool moves(enum ui_action id)
{
    return id == UI_DOWN || id == UI_UP || id == UI_PAGE_DOWN || id == UI_PAGE_UP || id == UI_TOP ||
           id == UI_BOTTOM;
}

bool ui_action_doc(unsigned context, size_t i, const char **label, const char **help)
{
    size_t seen = 0;
    for (size_t k = 0; k < N; k++) {
        if (!(table[k].ctx & context) || !table[k].label || !table[k].help || shadowed(k, context))
            continue;
        if ((context & UC_STILL) && moves(table[k].id))
            continue;
        if (seen++ == i) {
            *label = table[k].label;
            *help = table[k].help;
            return true;
        }
    }
    return false;
}
