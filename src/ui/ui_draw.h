/* ui_draw.h: drawing for the screens: text put safely, colours by role, and
 * wrapped lines to scroll through. */
#ifndef UI_DRAW_H
#define UI_DRAW_H

#include <curses.h>
#include <stddef.h>

/* Colour roles: what a colour means, never which pair shows it (as htop's
 * ColorElements). One row each: name, colour, the attribute that stands in
 * when colours are off (NO_COLOR, a monochrome terminal), what it marks. */
#define UI_COLORS(X)                                                                               \
    X(RIGHT, COLOR_GREEN, A_BOLD, "a right answer, a good message, a finished bar")                \
    X(CHART, COLOR_GREEN, A_NORMAL, "the activity chart")                                          \
    X(WRONG, COLOR_RED, A_BOLD, "a wrong answer, an error, a limit passed")                        \
    X(WARN, COLOR_YELLOW, A_BOLD, "a diagnosis, a weak score, a figure to watch")                  \
    X(HINT, COLOR_YELLOW, A_NORMAL, "a hint")                                                      \
    X(HEADING, COLOR_BLUE, A_BOLD, "headings and module names")                                    \
    X(LINK, COLOR_BLUE, A_UNDERLINE, "a link to another lesson")                                   \
    X(WORKED, COLOR_CYAN, A_BOLD, "worked arithmetic")                                             \
    X(CODE, COLOR_CYAN, A_UNDERLINE, "`code` in text")

enum ui_color {
#define UI_COLOR_ENUM(name, color, mono, what) UI_C_##name,
    UI_COLORS(UI_COLOR_ENUM)
#undef UI_COLOR_ENUM
        UI_C__COUNT
};

/* The attribute that shows a role: its colour pair, or its stand-in when
 * colours are off. */
attr_t ui_color(enum ui_color role);

/* Gives every role its pair; called once colours are started (ui_term.c). */
void ui_color_start(void);

/* Text is sanitised and clipped to `width` columns; in a non-UTF-8 locale
 * anything beyond ASCII is shown as '?'. Returns the columns used. */
int ui_put(int y, int x, int width, const char *text, attr_t attr);

/* A layout taller than the screen, drawn in its own rows and shown from its
 * row `first` at screen row `top`, down to row `end` (not drawn): between
 * begin and end, ui_put draws layout row y at screen row y - first + top,
 * or nothing when that falls outside. ui_scroll_row maps a row the same way
 * for code that draws cells itself (-1: not shown); outside a scroll it is
 * the row itself. So a screen lays out once, whatever the terminal's height,
 * and scrolls by changing `first`. */
void ui_scroll_begin(int first, int top, int end);
void ui_scroll_end(void);
int ui_scroll_row(int y);

/* Wrapped text with light markup: *emphasis* and `code`. Adds the lines to
 * `lines` (see ui_lines) for a screen to scroll through. */
struct ui_line {
    char *text;           /* markup already removed */
    unsigned char *style; /* one byte a character: 0 plain, 1 emphasis, 2 code */
    attr_t attr;          /* the whole line's attribute (headings, code blocks) */
    int indent;
    int tag; /* the screen's own marker (a link's number, ...); -1 none */
};

struct ui_lines {
    struct ui_line *items;
    size_t n, cap;
};

void ui_lines_text(struct ui_lines *l, const char *text, int width, int indent, attr_t attr);
/* The same with a hanging indent: lines after the first start `hang`
 * columns further in, under the words after a label ("1. ", "Builds on: ");
 * none where that would leave less than half the width. */
void ui_lines_hanging(struct ui_lines *l, const char *text, int width, int indent, int hang,
                      attr_t attr);
void ui_lines_verbatim(struct ui_lines *l, const char *text, int indent, attr_t attr);
/* Code or worked arithmetic: each line as written, except that a line wider
 * than `width` (indent included) wraps at spaces, rather than run off the
 * screen: its continuation lines under its value (after its first " = ")
 * where that leaves 16 columns, else 2 columns past its own indent. */
void ui_lines_code(struct ui_lines *l, const char *text, int width, int indent, attr_t attr);
void ui_lines_blank(struct ui_lines *l);
void ui_lines_free(struct ui_lines *l);
void ui_lines_draw(const struct ui_lines *l, size_t first, int top, int rows, int cols,
                   int selected_tag);

#endif
