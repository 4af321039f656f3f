/* tutor_session_priv.h: a study session's fields and clocks, for the
 * session's own files (tutor_session.c, tutor_clock.c); not for callers. */
#ifndef TUTOR_SESSION_PRIV_H
#define TUTOR_SESSION_PRIV_H

#include "tutor_session.h"

#define MAX_TIMES 64

struct tutor_session {
    struct tutor_env env;
    enum tutor_mode mode;
    struct tutor_item *items;
    size_t n_items, cap, pos;
    double began;       /* monotonic, the session */
    double ended;       /* monotonic, when the last item was left; 0 until then */
    int64_t started_at; /* wall, the session */
    double item_began;  /* monotonic, the current attempt */
    bool shown;         /* the current item's expected answer has been shown */
    struct tutor_attempt at;
    double times[MAX_TIMES];
    double score_sum;
    unsigned answered, right;
    size_t first_lesson;   /* practice and interview: the lesson */
    struct lx_lesson *one; /* tutor_session_one: the lesson, outside any course */
    struct lx_fact facts[3];
    size_t n_facts;
    /* practice: each item answered at some time, before this session or
     * in it (NULL without a store), and where the session began */
    bool *had;
    size_t resumed;
    /* interview: questions passed with no answer when their time ran out,
     * and whether the interview's own time ran out (tutor_clock.c) */
    unsigned passed;
    unsigned unread; /* of those passed at zero, with words typed that were not an answer */
    bool out_of_time;
};

/* The session's clocks: env's, else the system's (monotonic seconds for
 * time taken, Unix seconds for what is recorded). */
double tutor_mono(const struct tutor_session *s);
double tutor_system_mono(void); /* the system's, whatever env says (a seed's entropy) */
/* An interview whose own time limit has passed. */
bool tutor_session_time_over(const struct tutor_session *s);
int64_t tutor_wall(const struct tutor_session *s);

#endif
