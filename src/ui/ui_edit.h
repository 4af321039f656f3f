/* ui_edit.h: a one-line editor with history, for answers, searches and
 * paths. It edits UTF-8 by whole characters and never takes a control
 * character into the text. */
#ifndef UI_EDIT_H
#define UI_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ui_edit {
    char buf[1024];
    size_t len, cursor; /* bytes */
    char history[16][1024];
    int n_history, browsing;
    bool offered; /* the line is a value offered whole: the first character typed replaces it */
    bool keeps_history; /* set by the owner: Up and Down recall what ui_edit_remember kept */
};

void ui_edit_clear(struct ui_edit *e);
void ui_edit_set(struct ui_edit *e, const char *text);
/* A current value offered for change, as form fields do: the first
 * character typed replaces all of it; an editing key first (an arrow,
 * Backspace, ...) keeps it and edits it. Drawn highlighted until then. */
void ui_edit_offer(struct ui_edit *e, const char *text);
/* Inserts a typed character at the cursor; controls and a full line are ignored. */
void ui_edit_insert(struct ui_edit *e, uint32_t cp);
/* Handles editing keys (arrows, Home/End, Backspace, Delete, Ctrl-U/A/E/W,
 * and Up/Down where the line keeps a history); returns true when the key
 * was one of them. */
bool ui_edit_key(struct ui_edit *e, int key);
/* For the help screen: the i-th row of editing keys, from the table the
 * keys are handled by (the history's keys only when `history`). False past
 * the last; *label and *help point into the table. */
bool ui_edit_doc(size_t i, bool history, const char **label, const char **help);
/* Keeps the line in the history (Up and Down recall it); the last 16 stay. */
void ui_edit_remember(struct ui_edit *e);
/* Draws the line at y, x in `width` columns, with the cursor shown. */
void ui_edit_draw(const struct ui_edit *e, int y, int x, int width);

#endif
