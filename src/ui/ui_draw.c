/* Drawing text safely and the line editor. Everything a lesson wrote goes
 * through ui_put, which sanitises it (no escape reaches the terminal) and
 * clips by display width, not bytes. */
#include "ui_app.h"

#include <stdlib.h>
#include <string.h>

#include "kvt_text.h"
#include "ui_term.h"

attr_t ui_attr(int pair, attr_t fallback)
{
    return ui_term_color() ? (attr_t)COLOR_PAIR(pair) : fallback;
}

/* Length of the UTF-8 sequence starting with byte c (1 for a stray byte). */
static size_t seq_len(unsigned char c)
{
    return c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

int ui_put(int y, int x, int width, const char *text, attr_t attr)
{
    char safe[4096];
    size_t len = kvt_sanitize(text, strlen(text), safe, sizeof safe, 0), i = 0;
    int cols = 0;

    if (width <= 0)
        return 0;
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
    while (pos < n) {
        size_t next, take = kvt_wrap_line(plain + pos, n - pos, width, &next);
        char *t = malloc(take + 1);
        unsigned char *st = malloc(take + 1);
        if (t && st) {
            memcpy(t, plain + pos, take);
            t[take] = '\0';
            memcpy(st, style + pos, take);
            push_line(l, (struct ui_line){t, st, attr, indent, -1});
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
    return s == 1 ? A_BOLD : s == 2 ? ui_attr(1, A_UNDERLINE) : A_NORMAL;
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

void ui_edit_clear(struct ui_edit *e)
{
    e->len = e->cursor = 0;
    e->buf[0] = '\0';
    e->browsing = -1;
}

void ui_edit_set(struct ui_edit *e, const char *text)
{
    ui_edit_clear(e);
    e->len = strnlen(text, sizeof e->buf - 1);
    memcpy(e->buf, text, e->len);
    e->buf[e->len] = '\0';
    e->cursor = e->len;
}

void ui_edit_insert(struct ui_edit *e, uint32_t cp)
{
    char enc[4];
    size_t n;

    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
        return; /* controls are never typed into an answer */
    if (cp < 0x80) {
        enc[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        enc[0] = (char)(0xC0 | (cp >> 6));
        enc[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        enc[0] = (char)(0xE0 | (cp >> 12));
        enc[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        enc[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        enc[0] = (char)(0xF0 | (cp >> 18));
        enc[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        enc[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        enc[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    if (e->len + n >= sizeof e->buf)
        return;
    memmove(e->buf + e->cursor + n, e->buf + e->cursor, e->len - e->cursor + 1);
    memcpy(e->buf + e->cursor, enc, n);
    e->len += n;
    e->cursor += n;
}

static size_t prev_char(const struct ui_edit *e, size_t at)
{
    while (at > 0 && ((unsigned char)e->buf[--at] & 0xC0) == 0x80)
        ;
    return at;
}

static size_t next_char(const struct ui_edit *e, size_t at)
{
    if (at < e->len)
        at += seq_len((unsigned char)e->buf[at]);
    return at > e->len ? e->len : at;
}

static void cut(struct ui_edit *e, size_t from, size_t to)
{
    memmove(e->buf + from, e->buf + to, e->len - to + 1);
    e->len -= to - from;
    e->cursor = from;
}

static void recall(struct ui_edit *e, int which)
{
    e->browsing = which;
    if (which < 0) {
        ui_edit_clear(e);
        return;
    }
    e->len = strnlen(e->history[which], sizeof e->buf - 1);
    memcpy(e->buf, e->history[which], e->len);
    e->buf[e->len] = '\0';
    e->cursor = e->len;
}

bool ui_edit_key(struct ui_edit *e, int key)
{
    switch (key) {
    case KEY_LEFT:
        e->cursor = prev_char(e, e->cursor);
        return true;
    case KEY_RIGHT:
        e->cursor = next_char(e, e->cursor);
        return true;
    case KEY_HOME:
    case 1: /* Ctrl-A */
        e->cursor = 0;
        return true;
    case KEY_END:
    case 5: /* Ctrl-E */
        e->cursor = e->len;
        return true;
    case KEY_BACKSPACE:
    case 127:
    case 8:
        if (e->cursor > 0)
            cut(e, prev_char(e, e->cursor), e->cursor);
        return true;
    case KEY_DC:
        if (e->cursor < e->len)
            cut(e, e->cursor, next_char(e, e->cursor));
        return true;
    case 21: /* Ctrl-U */
        cut(e, 0, e->cursor);
        return true;
    case 23: { /* Ctrl-W: the word before the cursor */
        size_t at = e->cursor;
        while (at > 0 && e->buf[at - 1] == ' ')
            at--;
        while (at > 0 && e->buf[at - 1] != ' ')
            at--;
        cut(e, at, e->cursor);
        return true;
    }
    case KEY_UP:
        if (e->n_history > 0)
            recall(e, e->browsing < 0 ? e->n_history - 1 : (e->browsing > 0 ? e->browsing - 1 : 0));
        return true;
    case KEY_DOWN:
        if (e->browsing >= 0)
            recall(e, e->browsing + 1 < e->n_history ? e->browsing + 1 : -1);
        return true;
    default:
        return false;
    }
}

void ui_edit_remember(struct ui_edit *e)
{
    if (e->len == 0)
        return;
    if (e->n_history == 16) {
        memmove(e->history[0], e->history[1], sizeof e->history[0] * 15);
        e->n_history--;
    }
    memcpy(e->history[e->n_history], e->buf, e->len + 1); /* both 1024 bytes */
    e->n_history++;
    e->browsing = -1;
}

void ui_edit_draw(const struct ui_edit *e, int y, int x, int width)
{
    char before[1024];
    int used;

    memcpy(before, e->buf, e->cursor);
    before[e->cursor] = '\0';
    move(y, x);
    for (int i = 0; i < width; i++)
        addch(' ');
    used = ui_put(y, x, width - 1, before, A_BOLD);
    ui_put(y, x + used, width - 1 - used, e->buf + e->cursor, A_BOLD);
    move(y, x + used);
    curs_set(1);
}
