#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* A session's clocks and a mock interview's limits: see tutor_session.h. */
#include "tutor_session_priv.h"

#include <stdio.h>
#include <time.h>

double tutor_system_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double tutor_mono(const struct tutor_session *s)
{
    return s->env.monotonic ? s->env.monotonic() : tutor_system_mono();
}

int64_t tutor_wall(const struct tutor_session *s)
{
    return s->env.wall ? s->env.wall() : (int64_t)time(NULL);
}

double tutor_session_seconds(const struct tutor_session *s)
{
    return (s->ended > 0 ? s->ended : tutor_mono(s)) - s->began;
}

void tutor_interview_clock(const struct tutor_session *s, struct tutor_clock *out)
{
    double now = tutor_mono(s);
    bool interview = s->mode == TUTOR_INTERVIEW;

    *out = (struct tutor_clock){
        .answer_limited = interview && s->env.interview_answer_seconds > 0,
        .session_limited = interview && s->env.interview_minutes > 0,
        .elapsed = tutor_session_seconds(s),
    };
    if (out->answer_limited)
        out->answer_left = s->env.interview_answer_seconds - (now - s->item_began);
    if (out->session_limited)
        out->session_left = 60.0 * s->env.interview_minutes - (now - s->began);
}

bool tutor_session_time_over(const struct tutor_session *s)
{
    struct tutor_clock c;
    tutor_interview_clock(s, &c);
    return c.session_limited && c.session_left <= 0 && !tutor_finished(s);
}

enum tutor_time tutor_time_up(const struct tutor_session *s)
{
    struct tutor_clock c;
    if (tutor_finished(s) || s->at.graded)
        return TUTOR_TIME_OK;
    tutor_interview_clock(s, &c);
    if (c.session_limited && c.session_left <= 0)
        return TUTOR_TIME_SESSION_UP;
    if (c.answer_limited && c.answer_left <= 0)
        return TUTOR_TIME_ANSWER_UP;
    return TUTOR_TIME_OK;
}

void tutor_pass(struct tutor_session *s)
{
    if (tutor_finished(s) || s->at.graded)
        return;
    s->passed++;
    tutor_skip(s);
}

void tutor_end(struct tutor_session *s)
{
    s->out_of_time = true;
    s->pos = s->n_items;
    s->shown = false;
    if (s->ended == 0)
        s->ended = tutor_mono(s);
}

struct tutor_cutoff tutor_cut_off(struct tutor_session *s, const char *typed,
                                  struct store_error *err)
{
    struct tutor_cutoff c = {.why = tutor_time_up(s)};

    if (c.why == TUTOR_TIME_OK)
        return c;
    if (typed && *typed) {
        c.graded = tutor_answer(s, typed, err);
        if (c.graded != TUTOR_UNREAD) {
            c.taken = true;
            return c;
        }
        c.unread = true;
        snprintf(c.unread_why, sizeof c.unread_why, "%s", s->at.grade.why);
        s->unread++;
    }
    tutor_pass(s);
    if (c.why == TUTOR_TIME_SESSION_UP) {
        tutor_end(s);
        c.ended = true;
    }
    return c;
}
