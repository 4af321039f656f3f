/* Drawing text safely, in colours by role. Everything a lesson wrote goes
 * through ui_put, which sanitises it (no escape reaches the terminal) and
 * clips by display width, not bytes. */
#include "ui_draw.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_text.h"
#include "ui_term.h"

/* The one table from role to colour; role r is shown by pair r + 1. */
static const struct {
    short color;
    attr_t mono;
} roles[UI_C__COUNT] = {
#define UI_COLOR_ROW(name, color, mono, what) [UI_C_##name] = {color, mono},
    UI_COLORS(UI_COLOR_ROW)
#undef UI_COLOR_ROW
};

void ui_color_start(void)
{
    for (int r = 0; r < UI_C__COUNT; r++)
        init_pair((short)(r + 1), roles[r].color, -1); /* -1: the terminal's own background */
}

attr_t ui_color(enum ui_color role)
{
    return ui_term_color() ? (attr_t)COLOR_PAIR((int)role + 1) : roles[role].mono;
}

/* Length of the UTF-8 sequence starting with byte c (1 for a stray byte). */
static size_t seq_len(unsigned char c)
{
    return c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

/* The scrolled layout being drawn, if any (ui_scroll_begin). */
static struct {
    bool on;
    int first, top, end;
} layout_view;

void ui_scroll_begin(int first, int top, int end)
{
    layout_view.on = true;
    layout_view.first = first;
    layout_view.top = top;
    layout_view.end = end;
}

void ui_scroll_end(void)
{
    layout_view.on = false;
}

int ui_scroll_row(int y)
{
    if (!layout_view.on)
        return y;
    y = y - layout_view.first + layout_view.top;
    return y >= layout_view.top && y < layout_view.end ? y : -1;
}

int ui_put(int y, int x, int width, const char *text, attr_t attr)
{
    char safe[4096];
    size_t len, i = 0;
    int cols = 0;

    y = ui_scroll_row(y);
    if (width <= 0 || y < 0)
        return 0;
    len = kvt_sanitize(text, strlen(text), safe, sizeof safe, 0);
    move(y, x);
    attron(attr);
    while (i < len) {
        size_t n = seq_len((unsigned char)safe[i]);
        int w;
        if (i + n > len)
            n = len - i;
        w = (int)kvt_text_width(safe + i, n);
        if (cols + w > width)
            break;
        if (n > 1 && !ui_term_utf8()) {
            addch('?'); /* the terminal cannot show it */
            w = 1;
        } else {
            addnstr(safe + i, (int)n);
        }
        cols += w;
        i += n;
    }
    attroff(attr);
    return cols;
}

static void push_line(struct ui_lines *l, struct ui_line line)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        void *p = realloc(l->items, cap * sizeof *l->items);
        if (!p) {
            free(line.text);
            free(line.style);
            return;
        }
        l->items = p;
        l->cap = cap;
    }
    l->items[l->n++] = line;
}

void ui_lines_blank(struct ui_lines *l)
{
    push_line(l, (struct ui_line){strdup(""), NULL, 0, 0, -1});
}

void ui_lines_verbatim(struct ui_lines *l, const char *text, int indent, attr_t attr)
{
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "\n");
        char *copy = malloc(n + 1);
        if (copy) {
            memcpy(copy, p, n);
            copy[n] = '\0';
            push_line(l, (struct ui_line){copy, NULL, attr, indent, -1});
        }
        p += n + (p[n] == '\n');
    }
}

static void push_copy(struct ui_lines *l, int pad, const char *text, size_t n, int indent,
                      attr_t attr)
{
    char *t = malloc((size_t)pad + n + 1);
    if (!t)
        return;
    memset(t, ' ', (size_t)pad);
    memcpy(t + pad, text, n);
    t[(size_t)pad + n] = '\0';
    push_line(l, (struct ui_line){t, NULL, attr, indent, -1});
}

/* The column after the first " = " of line[0..n) and the spaces after it,
 * when a continuation there keeps at least 16 columns; else -1. */
static int value_column(const char *line, size_t n, int width)
{
    for (size_t i = 1; i + 1 < n; i++)
        if (line[i] == '=' && line[i - 1] == ' ' && line[i + 1] == ' ') {
            size_t v = i + 1 + strspn(line + i + 1, " ");
            int col = (int)kvt_text_width(line, v < n ? v : n);
            return col + 16 <= width ? col : -1;
        }
    return -1;
}

void ui_lines_code(struct ui_lines *l, const char *text, int width, int indent, attr_t attr)
{
    const char *p = text;
    width -= indent;
    while (*p) {
        size_t n = strcspn(p, "\n"), lead = strspn(p, " ");
        int hang;
        if (lead > n)
            lead = n;
        /* continuation lines under the line's value, the column after its
         * first " = ", so a wrapped tail reads as part of the figure; else 2
         * past the line's own indent, if that leaves room */
        hang = value_column(p, n, width);
        if (hang < 0)
            hang = (int)lead + 2 < width / 2 ? (int)lead + 2 : (int)lead;
        if (width <= 0 || kvt_text_width(p, n) <= (size_t)width || hang >= width) {
            push_copy(l, 0, p, n, indent, attr);
        } else {
            for (size_t pos = lead; pos < n;) {
                int pad = pos == lead ? (int)lead : hang;
                size_t next, take = kvt_wrap_line(p + pos, n - pos, width - pad, &next);
                push_copy(l, pad, p + pos, take, indent, attr);
                pos += next ? next : 1;
            }
        }
        p += n + (p[n] == '\n');
    }
}

/* Removes *emphasis* and `code` markers, remembering each byte's style. */
static size_t strip_markup(const char *in, size_t len, char *out, unsigned char *style)
{
    size_t o = 0;
    unsigned char cur = 0;
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == '`' && cur != 1) {
            cur = cur == 2 ? 0 : 2;
            continue;
        }
        if (c == '*' && cur != 2 && (cur == 1 || (i + 1 < len && in[i + 1] != ' '))) {
            cur = cur == 1 ? 0 : 1;
            continue;
        }
        out[o] = c;
        style[o++] = cur;
    }
    return o;
}

void ui_lines_text(struct ui_lines *l, const char *text, int width, int indent, attr_t attr)
{
    ui_lines_hanging(l, text, width, indent, 0, attr);
}

void ui_lines_hanging(struct ui_lines *l, const char *text, int width, int indent, int hang,
                      attr_t attr)
{
    size_t len = strlen(text), n, pos = 0;
    char *plain = malloc(len + 1);
    unsigned char *style = malloc(len + 1);

    if (!plain || !style) {
        free(plain);
        free(style);
        return;
    }
    n = strip_markup(text, len, plain, style);
    plain[n] = '\0';
    width -= indent;
    if (hang < 0 || hang > width / 2)
        hang = 0; /* a narrow screen keeps its columns for the words */
    while (pos < n) {
        int h = pos ? hang : 0;
        size_t next, take = kvt_wrap_line(plain + pos, n - pos, width - h, &next);
        char *t = malloc(take + 1);
        unsigned char *st = malloc(take + 1);
        if (t && st) {
            memcpy(t, plain + pos, take);
            t[take] = '\0';
            memcpy(st, style + pos, take);
            push_line(l, (struct ui_line){t, st, attr, indent + h, -1});
        } else {
            free(t);
            free(st);
        }
        pos += next ? next : 1;
    }
    free(plain);
    free(style);
}

void ui_lines_free(struct ui_lines *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].text);
        free(l->items[i].style);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static attr_t style_attr(unsigned char s)
{
    return s == 1 ? A_BOLD : s == 2 ? ui_color(UI_C_CODE) : A_NORMAL;
}

void ui_lines_draw(const struct ui_lines *l, size_t first, int top, int rows, int cols,
                   int selected_tag)
{
    for (int r = 0; r < rows && first + (size_t)r < l->n; r++) {
        const struct ui_line *line = &l->items[first + (size_t)r];
        attr_t base = line->attr | (line->tag >= 0 && line->tag == selected_tag ? A_REVERSE : 0);
        int x = 1 + line->indent;
        if (!line->style) {
            ui_put(top + r, x, cols - x - 1, line->text, base);
            continue;
        }
        /* runs of one style at a time */
        for (size_t i = 0, n = strlen(line->text); i < n && x < cols - 1;) {
            size_t j = i;
            char run[1024];
            while (j < n && line->style[j] == line->style[i] && j - i < sizeof run - 1)
                j++;
            memcpy(run, line->text + i, j - i);
            run[j - i] = '\0';
            x += ui_put(top + r, x, cols - x - 1, run, base | style_attr(line->style[i]));
            i = j;
        }
    }
}
