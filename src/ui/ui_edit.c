/* The line editor: UTF-8 by whole characters, a history, the usual
 * editing keys. */
#include "ui_edit.h"

#include <curses.h>
#include <string.h>

#include "kvt_text.h"
#include "ui_draw.h"

/* Length of the UTF-8 sequence starting with byte c (1 for a stray byte). */
static size_t seq_len(unsigned char c)
{
    return c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

void ui_edit_clear(struct ui_edit *e)
{
    e->offered = false;
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

void ui_edit_offer(struct ui_edit *e, const char *text)
{
    ui_edit_set(e, text);
    e->offered = true;
}

void ui_edit_insert(struct ui_edit *e, uint32_t cp)
{
    char enc[4];
    size_t n;

    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
        return; /* controls are never typed into an answer */
    if (e->offered)
        ui_edit_clear(e); /* typed over: the new value starts here */
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

/* The editing keys, each row with the words help shows for it: the keys
 * are handled from this table and help lists it, so the two cannot drift
 * apart. */
enum op {
    MOVE_LEFT,
    MOVE_RIGHT,
    TO_START,
    TO_END,
    ERASE_BACK,
    ERASE_HERE,
    ERASE_TO_START,
    ERASE_WORD,
    OLDER,
    NEWER
};

static const struct row {
    const char *label, *help;
    bool history; /* only where the line keeps a history */
    struct {
        int key; /* 0 ends the list */
        enum op op;
    } keys[7];
} rows[] = {
    {"Left/Right",
     "move the cursor (Home/End or Ctrl-A/Ctrl-E: to either end)",
     false,
     {{KEY_LEFT, MOVE_LEFT},
      {KEY_RIGHT, MOVE_RIGHT},
      {KEY_HOME, TO_START},
      {1, TO_START}, /* Ctrl-A */
      {KEY_END, TO_END},
      {5, TO_END}}}, /* Ctrl-E */
    {"Backspace",
     "erase before the cursor (Delete: under it)",
     false,
     {{KEY_BACKSPACE, ERASE_BACK}, {127, ERASE_BACK}, {8, ERASE_BACK}, {KEY_DC, ERASE_HERE}}},
    {"Ctrl-U/W",
     "erase to the start of the line / the word before the cursor",
     false,
     {{21, ERASE_TO_START}, {23, ERASE_WORD}}},
    {"Up/Down",
     "earlier answers typed in this session",
     true,
     {{KEY_UP, OLDER}, {KEY_DOWN, NEWER}}},
};

#define N_ROWS (sizeof rows / sizeof rows[0])

bool ui_edit_doc(size_t i, bool history, const char **label, const char **help)
{
    for (size_t r = 0; r < N_ROWS; r++) {
        if (rows[r].history && !history)
            continue;
        if (i-- == 0) {
            *label = rows[r].label;
            *help = rows[r].help;
            return true;
        }
    }
    return false;
}

static bool find_op(const struct ui_edit *e, int key, enum op *op)
{
    for (size_t r = 0; r < N_ROWS; r++) {
        if (rows[r].history && !e->keeps_history)
            continue;
        for (size_t k = 0; k < sizeof rows[r].keys / sizeof rows[r].keys[0] && rows[r].keys[k].key;
             k++)
            if (rows[r].keys[k].key == key) {
                *op = rows[r].keys[k].op;
                return true;
            }
    }
    return false;
}

bool ui_edit_key(struct ui_edit *e, int key)
{
    enum op op;
    if (!find_op(e, key, &op))
        return false;   /* not an editing key: an offered value stands */
    e->offered = false; /* an editing key takes the value as it is */
    switch (op) {
    case MOVE_LEFT:
        e->cursor = prev_char(e, e->cursor);
        break;
    case MOVE_RIGHT:
        e->cursor = next_char(e, e->cursor);
        break;
    case TO_START:
        e->cursor = 0;
        break;
    case TO_END:
        e->cursor = e->len;
        break;
    case ERASE_BACK:
        if (e->cursor > 0)
            cut(e, prev_char(e, e->cursor), e->cursor);
        break;
    case ERASE_HERE:
        if (e->cursor < e->len)
            cut(e, e->cursor, next_char(e, e->cursor));
        break;
    case ERASE_TO_START:
        cut(e, 0, e->cursor);
        break;
    case ERASE_WORD: { /* the word before the cursor */
        size_t at = e->cursor;
        while (at > 0 && e->buf[at - 1] == ' ')
            at--;
        while (at > 0 && e->buf[at - 1] != ' ')
            at--;
        cut(e, at, e->cursor);
        break;
    }
    case OLDER:
        if (e->n_history > 0)
            recall(e, e->browsing < 0 ? e->n_history - 1 : (e->browsing > 0 ? e->browsing - 1 : 0));
        break;
    case NEWER:
        if (e->browsing >= 0)
            recall(e, e->browsing + 1 < e->n_history ? e->browsing + 1 : -1);
        break;
    }
    return true;
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
    size_t from = 0;
    int used, lead = 0;

    /* a line wider than the field scrolls, as readline's does: the text
     * before the cursor keeps its last columns, "<" marking what is out of
     * sight, so the cursor and what was just typed are always seen; ">" in
     * the last column marks text past the right edge */
    while (width > 3 && kvt_text_width(e->buf + from, e->cursor - from) > (size_t)(width - 3)) {
        from++;
        while (from < e->cursor && ((unsigned char)e->buf[from] & 0xC0) == 0x80)
            from++;
    }
    memcpy(before, e->buf + from, e->cursor - from);
    before[e->cursor - from] = '\0';
    move(y, x);
    for (int i = 0; i < width; i++)
        addch(' ');
    if (from > 0) {
        ui_put(y, x, 1, "<", A_DIM);
        lead = 1;
    }
    /* an offered value is drawn as selected: typing replaces it */
    used =
        lead + ui_put(y, x + lead, width - 1 - lead, before, A_BOLD | (e->offered ? A_REVERSE : 0));
    ui_put(y, x + used, width - 1 - used, e->buf + e->cursor,
           A_BOLD | (e->offered ? A_REVERSE : 0));
    if (width > 3 &&
        kvt_text_width(e->buf + e->cursor, e->len - e->cursor) > (size_t)(width - 1 - used))
        ui_put(y, x + width - 1, 1, ">", A_DIM);
    move(y, x + used);
    curs_set(1);
}
