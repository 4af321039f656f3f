/* tutor_session.h: a study session over items, without a screen.
 *
 * Four kinds: practice (a lesson's exercises then its follow-ups), review
 * (what is due across lessons, then up to new_per_day items never seen),
 * cram (everything seen, schedule untouched) and a mock interview (the
 * lesson's question and follow-ups, with a summary). The terminal app draws
 * a session and forwards the learner's keys to it; `kvtutor ask` grades
 * through it; the tests drive it in-process. Everything that is recorded,
 * rated or scheduled is decided here:
 *
 *   - an answer kvtutor cannot read is not an answer: nothing is recorded,
 *     the learner is told why and types again;
 *   - a read answer is recorded the moment it is given;
 *   - its rating is suggested from the grade (tutor_rating_rule) and may be
 *     changed, except that a hinted right answer is rated at most Hard;
 *   - once the expected answer has been shown, a retry (or the same item
 *     again on a day it was already reviewed) is recorded as practice and
 *     never rated: one review per item per day;
 *   - cram asks for no rating and leaves every schedule as it was;
 *   - an answer in words graded unsure (kv_claims.h) is recorded with that
 *     verdict and no rating: its schedule stays as it was.
 *
 *     struct tutor_session *s = tutor_session_practice(&env, lesson, false, NULL);
 *     while (!tutor_finished(s)) {
 *         if (tutor_begin(s, why, sizeof why) != KVT_E_OK) { tutor_skip(s); continue; }
 *         ... tutor_answer(s, typed, &err) until it says TUTOR_GRADED ...
 *         tutor_next(s, &err);
 *     }
 *     tutor_finish(s, &err);
 *     tutor_session_free(s);
 */
#ifndef TUTOR_SESSION_H
#define TUTOR_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsrs.h"
#include "lx.h"
#include "lx_course.h"
#include "store.h"
#include "tutor_item.h"

/* A right answer within this many seconds, without a hint, is Easy. */
#define TUTOR_QUICK_SECONDS 20.0

/* An interview scoring under this share of its key points names the
 * lesson's concept to review. */
#define TUTOR_INTERVIEW_PASS 0.7

enum tutor_mode { TUTOR_PRACTICE, TUTOR_REVIEW, TUTOR_CRAM, TUTOR_INTERVIEW };

/* What a session works with. The course's lessons may be replaced (a
 * reload) between items: the session refers to them by slot. */
struct tutor_env {
    struct store *store; /* NULL: nothing is recorded or read (kvtutor ask) */
    int64_t learner_id;
    const struct fsrs_params *fsrs; /* NULL: the defaults */
    unsigned new_per_day;
    struct lx_course *course; /* shadowing and lookup as the catalogue says */
    /* The learner's probe figures for "measure, then predict" exercises:
     * taken from the store's last probe run unless facts_given, then these. */
    bool facts_given;
    const struct lx_fact *facts;
    size_t n_facts;
    /* Every numeric item drawn from `seed` when fixed_seed, else from a
     * fresh seed each attempt (saved with the attempt to replay it). */
    bool fixed_seed;
    uint64_t seed;
    /* Clocks (NULL: the system's): monotonic seconds for time taken, Unix
     * seconds for what is recorded and what is due. */
    double (*monotonic)(void);
    int64_t (*wall)(void);
    /* A mock interview's limits (tutor_settings.h), 0 = none. */
    unsigned interview_answer_seconds, interview_minutes;
};

/* The rating rule before any override: wrong -> Again; right after a hint
 * -> Hard; right within quick_seconds -> Easy; right otherwise -> Good. */
enum fsrs_rating tutor_rating_rule(bool correct, bool hinted, double seconds, double quick_seconds);

/* The learner's last probe figures as lesson facts (at most 3); 0 when the
 * learner has no run or the store cannot say. */
size_t tutor_measured_facts(struct store *st, int64_t learner_id, struct lx_fact facts[3]);

struct tutor_session;

/* Sessions. Each returns NULL only when out of memory; an empty session
 * (nothing due, nothing to practise) is finished from the start.
 * practice: *waiting (may be NULL) counts exercises left out because they
 * need the learner's own measurement and there is none yet. */
struct tutor_session *tutor_session_practice(const struct tutor_env *env, size_t lesson,
                                             bool followups_only, size_t *waiting);
struct tutor_session *tutor_session_interview(const struct tutor_env *env, size_t lesson);
/* review: the due items then the new ones; cram: every scheduled item. What
 * they ask, in what order, and how many are due: tutor_queue.h. Schedules
 * that cannot be read give an empty session. */
struct tutor_session *tutor_session_review(const struct tutor_env *env, bool cram);
/* One item of one lesson outside any course (kvtutor ask grades through
 * this); env->course is not used. The lesson must outlive the session. */
struct tutor_session *tutor_session_one(const struct tutor_env *env, struct lx_lesson *l,
                                        struct tutor_item it);
void tutor_session_free(struct tutor_session *s);

/* Practice begins at the first item the learner has never answered (from
 * the start when each has an answer): the position it began at, 0 for the
 * start. The lesson is marked done once every item has an answer, some
 * given in an earlier session. */
size_t tutor_resumed_at(const struct tutor_session *s);
/* Before the first tutor_begin: practice begins at this item instead (a
 * search found the learner's words in it). False when the session has no
 * such item, or has begun. */
bool tutor_seek(struct tutor_session *s, enum tutor_part part, size_t index);

enum tutor_mode tutor_mode(const struct tutor_session *s);
size_t tutor_count(const struct tutor_session *s);
size_t tutor_position(const struct tutor_session *s); /* 0-based; == count when finished */
bool tutor_finished(const struct tutor_session *s);
/* The item at a position, and its lesson. */
struct tutor_item tutor_item_at(const struct tutor_session *s, size_t pos);
const struct lx_lesson *tutor_lesson_at(const struct tutor_session *s, size_t pos);

/* The item being answered and what became of it. */
struct tutor_attempt {
    struct tutor_item item;
    const struct lx_lesson *lesson;
    char id[96];                  /* the item's id */
    struct lx_draw draw;          /* numeric: the numbers this attempt asks about */
    uint64_t seed;                /* numeric: the draw's seed */
    unsigned hints;               /* hints shown */
    bool graded;                  /* an answer was read and graded */
    bool practice;                /* recorded without a rating (cram, a retry, reviewed today) */
    char answer[KV_TEXT_MAX + 1]; /* as typed: answers are graded whole up to 16 KiB */
    struct lx_grade grade;
    bool diagnosed;     /* a wrong number traced to a known mistake, or a misconception found */
    char diagnosis[32]; /* what is recorded for it (kv_mistake_id, tutor_misconception_id) */
    double seconds;     /* time taken */
    int rating;         /* 1..4 suggested then chosen; 0 when none is asked */
    int max_rating;     /* the highest the learner may choose */
    bool saved, rated;
    struct store_attempt record;
};

const struct tutor_attempt *tutor_attempt(const struct tutor_session *s);

/* Starts the current item: a fresh draw of its numbers, no hints, no
 * answer. A numeric exercise whose expected value cannot be computed gives
 * the error with why in `why`: there is nothing to grade against, and the
 * caller skips it (tutor_skip) rather than grade against a made-up value. */
enum kvt_err tutor_begin(struct tutor_session *s, char *why, size_t cap);
void tutor_skip(struct tutor_session *s);

/* Shows the next hint of an exercise; false when there is none left. */
bool tutor_hint(struct tutor_session *s);
size_t tutor_hints_total(const struct tutor_session *s);

enum tutor_answered {
    TUTOR_UNREAD,  /* not an answer: grade.why says why; nothing recorded */
    TUTOR_GRADED,  /* graded and recorded */
    TUTOR_UNSAVED, /* graded, but the store refused it (err says why): tutor_save retries */
};

/* Grades what the learner typed and records it (with a rating of 0; the
 * rating follows with tutor_rate). */
enum tutor_answered tutor_answer(struct tutor_session *s, const char *typed,
                                 struct store_error *err);

/* Records a graded answer that did not save; KVT_E_OK when it now is (or
 * there is nothing to save). */
enum kvt_err tutor_save(struct tutor_session *s, struct store_error *err);

/* True when a graded answer is not in the database and could be (the
 * store is writable): going on would lose it. */
bool tutor_unsaved(const struct tutor_session *s);

/* Chooses the rating (1..4). NULL when taken, else why not: no rating is
 * asked here, it is already saved, or it is above what the answer allows. */
const char *tutor_choose(struct tutor_session *s, int rating);

/* Applies the chosen rating to the recorded answer and moves the item's
 * schedule, once. KVT_E_OK when done or when there is nothing to apply
 * (no rating asked, nothing saved, a read-only database). */
enum kvt_err tutor_rate(struct tutor_session *s, struct store_error *err);

/* Going on: rates the answer (tutor_rate) and moves to the next item, or
 * answers the same item again (a retry is practice once the answer was
 * shown), or jumps from an exercise to its lesson's first follow-up ahead
 * (*moved false, and no move, where tutor_followups_ahead is false). Each
 * returns the rating's error, with err; the move happens all the same. */
enum kvt_err tutor_next(struct tutor_session *s, struct store_error *err);
enum kvt_err tutor_retry(struct tutor_session *s, struct store_error *err);
enum kvt_err tutor_to_followups(struct tutor_session *s, bool *moved, struct store_error *err);
/* True when the current item is an exercise and its lesson has a
 * follow-up ahead in the session: what tutor_to_followups goes to. */
bool tutor_followups_ahead(const struct tutor_session *s);

/* The end: a practice session after which every item of it has an answer
 * (tutor_resumed_at) marks the lesson done; an interview is recorded with
 * its score. Call once finished. */
enum kvt_err tutor_finish(struct tutor_session *s, struct store_error *err);

struct tutor_summary {
    unsigned answered, right;
    double score;        /* mean score of the answers, 0..1 */
    double seconds;      /* since the session began */
    const double *times; /* seconds for each answer (the first 64) */
    size_t n_times;
    const char *review;        /* interview: the concept to review, or NULL when in hand */
    const char *review_lesson; /* the title of the lesson that teaches it, with review */
    unsigned passed;           /* passed over unanswered (tutor_pass): skipped, or out of time */
    unsigned unread;           /* of those, cut off with typed words that were not an answer */
    bool out_of_time;          /* interview: ended by its own limit (tutor_end) */
};

void tutor_summary(const struct tutor_session *s, struct tutor_summary *out);

/* A mock interview's clocks: time for the answer being given and for the
 * whole interview, from env's limits (0: none, *_limited false). Other
 * sessions are never limited. */
struct tutor_clock {
    bool answer_limited, session_limited;
    double answer_left, session_left; /* seconds; <= 0 once run out */
    double elapsed;                   /* tutor_session_seconds */
};
void tutor_interview_clock(const struct tutor_session *s, struct tutor_clock *out);
/* Seconds from the session's start to now, or to the moment its last item
 * was left (answered, passed, or the interview's time up): the time a
 * finished session took stays what it was while its summary is read. */
double tutor_session_seconds(const struct tutor_session *s);

/* What the limits say now, for an item not yet graded. At zero, as in a
 * real interview, the candidate is cut off: the answer typed so far is
 * graded as given (tutor_answer), or, with nothing typed, the question is
 * passed (tutor_pass: nothing recorded, counted in the summary). When the
 * whole interview's time is up, tutor_end then ends it: the summary counts
 * what was answered. */
enum tutor_time { TUTOR_TIME_OK, TUTOR_TIME_ANSWER_UP, TUTOR_TIME_SESSION_UP };
enum tutor_time tutor_time_up(const struct tutor_session *s);
/* Passes the item being answered over, unanswered and unrecorded, counted
 * (tutor_summary's passed): time ran out, or the learner skipped it. */
void tutor_pass(struct tutor_session *s);
void tutor_end(struct tutor_session *s);

/* The one rule for an interview at zero, for the screen's clock tick to
 * call with what is typed so far: nothing happens while time is left (why
 * is TUTOR_TIME_OK). At zero the typed words are graded as the answer
 * (taken, with tutor_answer's result in graded: a TUTOR_UNSAVED answer's
 * err says why, and tutor_save retries). With nothing typed, or words that
 * are not an answer (unread), the question is passed; and when the whole
 * interview's time is up, the interview ends (ended). A taken answer ends
 * the interview at tutor_next instead, once its result has been seen. */
struct tutor_cutoff {
    enum tutor_time why;
    bool taken;
    enum tutor_answered graded;
    bool unread;
    char unread_why[200]; /* unread: what could not be read, as tutor_answer's grade.why */
    bool ended;
};
struct tutor_cutoff tutor_cut_off(struct tutor_session *s, const char *typed,
                                  struct store_error *err);

#endif
