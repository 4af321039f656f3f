/* ui_quiz_body.h: the quiz screen's scrolled part, as lines (ui_draw.h's
 * ui_lines), built for a width and rebuilt when it changes. Only the quiz
 * screen (ui_quiz.c) uses it. */
#ifndef UI_QUIZ_BODY_H
#define UI_QUIZ_BODY_H

#include "ui_app.h"
#include "ui_draw.h"

/* The graded view of attempt `a`: verdict, what was expected, the
 * diagnosis, the model answer. Replaces what body held. */
void ui_quiz_build_result(struct ui_lines *body, const struct tutor_attempt *a, int cols);

/* The session's end: every line wraps, so nothing is cut at 80 columns,
 * and an interview's answer times are all listed (the screen scrolls). */
void ui_quiz_build_summary(struct ui_lines *body, struct ui *ui, const struct tutor_session *s,
                           int cols);

/* The serving run an exercise's figures come from, or NULL. */
const struct lx_serving *ui_quiz_serving_of(const struct tutor_attempt *a);

#endif
