/* Study sessions: see tutor_session.h. The session owns the rules; the
 * app's quiz screen and `kvtutor ask` only show what it decided. */
#include "tutor_session.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_report.h"
#include "tutor_session_priv.h"
#include "tutor_names.h"
#include "tutor_queue.h"
#include "tutor_sync.h"

enum fsrs_rating tutor_rating_rule(bool correct, bool hinted, double seconds, double quick_seconds)
{
    if (!correct)
        return FSRS_AGAIN;
    if (hinted)
        return FSRS_HARD;
    if (seconds >= 0 && seconds <= quick_seconds)
        return FSRS_EASY;
    return FSRS_GOOD;
}

size_t tutor_measured_facts(struct store *st, int64_t learner_id, struct lx_fact facts[3])
{
    struct store_probe_last last;
    struct store_error err;
    size_t n = 0;
    if (!st || store_probe_last(st, learner_id, NULL, &last, &err) != KVT_E_OK)
        return 0;
    facts[n++] = (struct lx_fact){"read_gbps", last.read_gbps};
    if (last.has_peak)
        facts[n++] = (struct lx_fact){"peak_gbps", last.peak_gbps};
    if (last.has_free)
        facts[n++] = (struct lx_fact){"free_gib", (double)last.free_bytes / 1073741824.0};
    return n;
}

/* The lesson in slot i (the one lesson of tutor_session_one). */
static struct lx_lesson *slot_lesson(const struct tutor_session *s, size_t i)
{
    return s->one ? s->one : lx_course_at(s->env.course, i);
}

static struct tutor_session *session_new(const struct tutor_env *env, enum tutor_mode mode)
{
    struct tutor_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    s->mode = mode;
    s->began = tutor_mono(s);
    s->started_at = tutor_wall(s);
    if (env->facts_given) {
        s->n_facts = env->n_facts < 3 ? env->n_facts : 3;
        if (s->n_facts > 0) /* facts may be NULL when there are none */
            memcpy(s->facts, env->facts, s->n_facts * sizeof *s->facts);
    } else {
        s->n_facts = tutor_measured_facts(env->store, env->learner_id, s->facts);
    }
    s->env.facts = s->facts;
    s->env.n_facts = s->n_facts;
    return s;
}

/* Adds an item (practice and interviews list each of a lesson's once);
 * false when out of memory. */
static bool add(struct tutor_session *s, struct tutor_item it)
{
    if (s->n_items == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 32;
        void *p = realloc(s->items, ncap * sizeof *s->items);
        if (!p)
            return false;
        s->items = p;
        s->cap = ncap;
    }
    s->items[s->n_items++] = it;
    return true;
}

struct seen_walk {
    struct tutor_session *s;
    const struct lx_lesson *l;
};

static int mark_had(void *ctx, const char *learner, const struct store_attempt *a)
{
    struct seen_walk *w = ctx;
    struct tutor_item it;
    (void)learner;

    if (a->learner_id != w->s->env.learner_id || !a->lesson_id || !a->exercise_id ||
        strcmp(a->lesson_id, w->l->id) != 0 || !tutor_item_parse(w->l, a->exercise_id, &it))
        return 0;
    for (size_t i = 0; i < w->s->n_items; i++)
        if (w->s->items[i].part == it.part && w->s->items[i].index == it.index)
            w->s->had[i] = true;
    return 0;
}

/* Practice begins at the first item the learner has never answered, as
 * rustlings resumes at the first exercise not done; from the start when
 * every one has an answer (or the answers cannot be read). False when out
 * of memory. */
static bool resume(struct tutor_session *s, const struct lx_lesson *l)
{
    struct seen_walk w = {s, l};
    struct store_error err;

    if (!s->env.store || s->n_items == 0)
        return true;
    if (!(s->had = calloc(s->n_items, sizeof *s->had)))
        return false;
    if (store_each_attempt(s->env.store, mark_had, &w, &err) != KVT_E_OK) {
        memset(s->had, 0, s->n_items * sizeof *s->had);
        return true;
    }
    while (s->pos < s->n_items && s->had[s->pos])
        s->pos++;
    if (s->pos == s->n_items)
        s->pos = 0;
    s->resumed = s->pos;
    return true;
}

size_t tutor_resumed_at(const struct tutor_session *s)
{
    return s->resumed;
}

bool tutor_seek(struct tutor_session *s, enum tutor_part part, size_t index)
{
    if (s->at.lesson) /* begun: the attempt in hand is the item at pos */
        return false;
    for (size_t i = 0; s->mode == TUTOR_PRACTICE && i < s->n_items; i++)
        if (s->items[i].part == part && s->items[i].index == index) {
            s->pos = s->resumed = i;
            s->shown = false;
            return true;
        }
    return false;
}

struct tutor_session *tutor_session_practice(const struct tutor_env *env, size_t lesson,
                                             bool followups_only, size_t *waiting)
{
    struct tutor_session *s = session_new(env, TUTOR_PRACTICE);
    const struct lx_lesson *l;
    size_t wait = 0;

    if (!s)
        return NULL;
    l = lx_course_at(env->course, lesson);
    s->first_lesson = lesson;
    for (size_t i = 0; !followups_only && i < l->n_exercises; i++) {
        if (tutor_waits_for_probe(&l->exercises[i], s->facts, s->n_facts))
            wait++;
        else if (!add(s, (struct tutor_item){lesson, TUTOR_EXERCISE, i}))
            goto oom;
    }
    for (size_t i = 0; i < l->n_followups; i++)
        if (!add(s, (struct tutor_item){lesson, TUTOR_FOLLOWUP, i}))
            goto oom;
    if (!resume(s, l))
        goto oom;
    if (waiting)
        *waiting = wait;
    return s;
oom:
    tutor_session_free(s);
    return NULL;
}

struct tutor_session *tutor_session_interview(const struct tutor_env *env, size_t lesson)
{
    struct tutor_session *s = session_new(env, TUTOR_INTERVIEW);
    const struct lx_lesson *l;
    bool ok = true;

    if (!s)
        return NULL;
    l = lx_course_at(env->course, lesson);
    s->first_lesson = lesson;
    if (l->n_points)
        ok = add(s, (struct tutor_item){lesson, TUTOR_QUESTION, 0});
    for (size_t i = 0; ok && i < l->n_followups; i++)
        ok = add(s, (struct tutor_item){lesson, TUTOR_FOLLOWUP, i});
    if (!ok) {
        tutor_session_free(s);
        return NULL;
    }
    return s;
}

struct tutor_session *tutor_session_one(const struct tutor_env *env, struct lx_lesson *l,
                                        struct tutor_item it)
{
    struct tutor_session *s = session_new(env, TUTOR_PRACTICE);
    if (!s)
        return NULL;
    s->one = l;
    s->first_lesson = it.lesson = 0;
    if (!add(s, it)) {
        tutor_session_free(s);
        return NULL;
    }
    return s;
}

struct tutor_session *tutor_session_review(const struct tutor_env *env, bool cram)
{
    struct tutor_session *s = session_new(env, cram ? TUTOR_CRAM : TUTOR_REVIEW);
    struct tutor_queue q;
    struct store_error err;

    if (!s)
        return NULL;
    switch (tutor_queue_review(&s->env, cram, s->started_at, s->facts, s->n_facts, &q, &err)) {
    case KVT_E_OK:
        s->items = q.items; /* the session's now */
        s->n_items = s->cap = q.n;
        break;
    case KVT_E_NOMEM:
        tutor_session_free(s);
        return NULL;
    default:
        break; /* schedules that cannot be read: nothing to review */
    }
    return s;
}

void tutor_session_free(struct tutor_session *s)
{
    if (!s)
        return;
    free(s->items);
    free(s->had);
    free(s);
}

enum tutor_mode tutor_mode(const struct tutor_session *s)
{
    return s->mode;
}

size_t tutor_count(const struct tutor_session *s)
{
    return s->n_items;
}

size_t tutor_position(const struct tutor_session *s)
{
    return s->pos;
}

bool tutor_finished(const struct tutor_session *s)
{
    return s->pos >= s->n_items;
}

struct tutor_item tutor_item_at(const struct tutor_session *s, size_t pos)
{
    return s->items[pos];
}

const struct lx_lesson *tutor_lesson_at(const struct tutor_session *s, size_t pos)
{
    return slot_lesson(s, pos < s->n_items ? s->items[pos].lesson : s->first_lesson);
}

const struct tutor_attempt *tutor_attempt(const struct tutor_session *s)
{
    return &s->at;
}

/* True when the item's schedule was moved earlier today (UTC): a second
 * review the same day would tell FSRS the learner recalled what they were
 * shown minutes ago. */
static bool reviewed_today(const struct tutor_session *s, const struct lx_lesson *l, const char *id)
{
    struct store_review r;
    struct store_error err;
    if (!s->env.store ||
        store_review_get(s->env.store, s->env.learner_id, l->id, id, &r, &err) != KVT_E_OK)
        return false;
    return r.last_review / 86400 == tutor_wall(s) / 86400;
}

enum kvt_err tutor_begin(struct tutor_session *s, char *why, size_t cap)
{
    struct tutor_attempt *a = &s->at;
    struct tutor_item it;
    struct lx_lesson *l;
    bool retry = s->shown;

    if (cap)
        why[0] = '\0';
    if (tutor_finished(s))
        return KVT_E_OK;
    it = s->items[s->pos];
    l = slot_lesson(s, it.lesson);
    memset(a, 0, sizeof *a);
    a->item = it;
    a->lesson = l;
    tutor_item_id(l, it, a->id, sizeof a->id);
    a->practice = s->mode == TUTOR_CRAM || retry || reviewed_today(s, l, a->id);
    s->item_began = tutor_mono(s);
    if (it.part == TUTOR_EXERCISE && l->exercises[it.index].kind == LX_NUMERIC) {
        enum kvt_err e;
        if (s->env.fixed_seed) {
            a->seed = s->env.seed;
        } else {
            /* each attempt its own numbers; the seed is saved to replay them */
            a->seed = (uint64_t)tutor_wall(s) * 2654435761u ^ (uint64_t)(it.index + 1) * 40503u ^
                      (uint64_t)(tutor_system_mono() * 1e6);
            a->seed &= 0x7fffffffffffffffull;
        }
        e = lx_draw_measured(l, it.index, a->seed, s->facts, s->n_facts, &a->draw, why, cap);
        if (e != KVT_E_OK)
            return e;
    }
    return KVT_E_OK;
}

void tutor_skip(struct tutor_session *s)
{
    if (!tutor_finished(s))
        s->pos++;
    s->shown = false;
    /* the session's time stops with its last item, not when the learner
     * leaves the summary */
    if (tutor_finished(s) && s->ended == 0)
        s->ended = tutor_mono(s);
}

size_t tutor_hints_total(const struct tutor_session *s)
{
    const struct tutor_attempt *a = &s->at;
    if (tutor_finished(s) || a->item.part != TUTOR_EXERCISE)
        return 0;
    return a->lesson->exercises[a->item.index].n_hints;
}

bool tutor_hint(struct tutor_session *s)
{
    if (s->at.hints >= tutor_hints_total(s))
        return false;
    s->at.hints++;
    return true;
}

static void grade(struct tutor_session *s, const char *typed)
{
    struct tutor_attempt *a = &s->at;
    const struct lx_lesson *l = a->lesson;
    if (a->item.part == TUTOR_QUESTION)
        lx_grade_question(l, typed, &a->grade);
    else if (a->item.part == TUTOR_FOLLOWUP)
        lx_grade_followup(l, a->item.index, typed, &a->grade);
    else
        lx_grade(l, a->item.index, &a->draw, typed, &a->grade);
}

enum kvt_err tutor_save(struct tutor_session *s, struct store_error *err)
{
    struct tutor_attempt *a = &s->at;
    if (!a->graded || a->saved || !s->env.store)
        return KVT_E_OK;
    if (store_record_attempt(s->env.store, &a->record, NULL, NULL, err) != KVT_E_OK)
        return err->code;
    a->saved = true;
    for (size_t i = 0; s->had && i < s->n_items; i++) /* the item this attempt answers */
        if (s->items[i].lesson == a->item.lesson && s->items[i].part == a->item.part &&
            s->items[i].index == a->item.index)
            s->had[i] = true;
    return KVT_E_OK;
}

bool tutor_unsaved(const struct tutor_session *s)
{
    return s->at.graded && !s->at.saved && s->env.store && !store_readonly(s->env.store);
}

enum tutor_answered tutor_answer(struct tutor_session *s, const char *typed,
                                 struct store_error *err)
{
    struct tutor_attempt *a = &s->at;
    const struct lx_lesson *l = a->lesson;
    bool numeric = a->item.part == TUTOR_EXERCISE && l->exercises[a->item.index].kind == LX_NUMERIC;
    bool right;

    if (tutor_finished(s) || a->graded)
        return a->graded ? (a->saved ? TUTOR_GRADED : TUTOR_UNSAVED) : TUTOR_UNREAD;
    snprintf(a->answer, sizeof a->answer, "%s", typed);
    grade(s, typed); /* the whole of it: one past 16 KiB is refused, never cut and graded */
    if (a->grade.verdict == KV_INVALID)
        return TUTOR_UNREAD; /* not an answer: the learner types again */
    a->graded = true;
    s->shown = true;
    a->seconds = tutor_mono(s) - s->item_began;
    right = a->grade.verdict == KV_CORRECT;
    a->diagnosed = false;
    a->diagnosis[0] = '\0';
    if (numeric && a->grade.num.mistake != KV_MISTAKE_NONE) {
        a->diagnosed = true;
        snprintf(a->diagnosis, sizeof a->diagnosis, "%s", kv_mistake_id(a->grade.num.mistake));
    } else if (!numeric && a->grade.text.n_found > 0) {
        /* a misconception in an answer in words is a mistake made too: the
         * first one found, by the id its claim gives it */
        struct tutor_parts t;
        tutor_item_parts(l, a->item, &t);
        for (size_t m = 0; m < t.n_mis && m < KV_MAX_MISCONCEPTIONS && !a->diagnosed; m++)
            if (a->grade.text.found[m]) {
                a->diagnosed = true;
                tutor_misconception_id(&t.mis[m], a->diagnosis, sizeof a->diagnosis);
            }
    }
    if (s->answered < MAX_TIMES)
        s->times[s->answered] = a->seconds;
    s->answered++;
    s->right += right;
    s->score_sum += a->grade.score;
    if (a->practice || a->grade.verdict == KV_UNSURE) {
        /* an unsure answer is kept as unsure, never as a confident wrong, and
         * moves no schedule: the grader does not know what to rate */
        a->rating = a->max_rating = 0;
    } else {
        a->rating = (int)tutor_rating_rule(right, a->hints > 0, a->seconds, TUTOR_QUICK_SECONDS);
        /* a hint did part of the recalling: the learner may not claim more */
        a->max_rating = right && a->hints > 0 ? FSRS_HARD : FSRS_EASY;
    }
    a->record = (struct store_attempt){
        .learner_id = s->env.learner_id,
        .module = l->module,
        .lesson_id = l->id,
        .exercise_id = a->id,
        .concept = l->concept,
        .answer = a->answer,
        .verdict = tutor_verdict_name(a->grade.verdict),
        .score = a->grade.score,
        .diagnosis = a->diagnosed ? a->diagnosis : NULL,
        .hinted = a->hints > 0,
        .rating = 0,
        .seconds = a->seconds,
        .created_at = tutor_wall(s),
    };
    if (numeric) {
        const struct lx_exercise *e = &l->exercises[a->item.index];
        a->record.has_value = !isnan(a->grade.num.parsed);
        a->record.value = a->grade.num.parsed;
        a->record.unit = e->unit;
        a->record.has_seed = e->n_params > 0;
        a->record.seed = (int64_t)a->seed;
    }
    if (!s->env.store)
        return TUTOR_GRADED;
    /* saved now: the answer exists even if the app stops before the rating */
    if (store_new_uid(a->record.uid) != KVT_E_OK) {
        *err = (struct store_error){.code = KVT_E_IO};
        snprintf(err->detail, sizeof err->detail, "no randomness for an attempt id");
        return TUTOR_UNSAVED;
    }
    return tutor_save(s, err) == KVT_E_OK ? TUTOR_GRADED : TUTOR_UNSAVED;
}

const char *tutor_choose(struct tutor_session *s, int rating)
{
    struct tutor_attempt *a = &s->at;
    if (!a->graded || a->max_rating == 0)
        return s->mode == TUTOR_CRAM ? "cram leaves the schedule alone: no rating"
                                     : "this answer is practice: no rating";
    if (a->rated)
        return "the rating is already saved";
    if (rating < FSRS_AGAIN || rating > a->max_rating)
        return "a hinted answer is rated at most hard";
    a->rating = rating;
    return NULL;
}

enum kvt_err tutor_rate(struct tutor_session *s, struct store_error *err)
{
    struct tutor_attempt *a = &s->at;
    enum store_sync sync;
    if (!a->saved || a->rated || a->rating == 0 || store_readonly(s->env.store))
        return KVT_E_OK;
    if (store_rate_attempt(s->env.store, a->record.uid, a->rating, s->env.fsrs, NULL, err) !=
        KVT_E_OK)
        return err->code;
    a->rated = true;
    /* the new schedule remembers what it was trained on */
    return tutor_sync_item(s->env.store, s->env.learner_id, slot_lesson(s, a->item.lesson), a->item,
                           &sync, err);
}

enum kvt_err tutor_next(struct tutor_session *s, struct store_error *err)
{
    enum kvt_err e = tutor_rate(s, err);
    tutor_skip(s);
    if (tutor_session_time_over(s)) /* an interview past its time asks nothing more */
        tutor_end(s);
    return e;
}

enum kvt_err tutor_retry(struct tutor_session *s, struct store_error *err)
{
    return tutor_rate(s, err);
}

/* The first follow-up of the current item's lesson ahead, when the current
 * item is an exercise (from a follow-up or the question, the next item is
 * where they go on anyway); else SIZE_MAX. */
static size_t followups_at(const struct tutor_session *s)
{
    size_t lesson = s->at.item.lesson;
    if (tutor_finished(s) || s->at.item.part != TUTOR_EXERCISE)
        return SIZE_MAX;
    for (size_t i = s->pos + 1; i < s->n_items; i++)
        if (s->items[i].lesson == lesson && s->items[i].part == TUTOR_FOLLOWUP)
            return i;
    return SIZE_MAX;
}

bool tutor_followups_ahead(const struct tutor_session *s)
{
    return followups_at(s) != SIZE_MAX;
}

enum kvt_err tutor_to_followups(struct tutor_session *s, bool *moved, struct store_error *err)
{
    size_t i = followups_at(s);
    enum kvt_err e;
    *moved = false;
    if (i == SIZE_MAX)
        return KVT_E_OK;
    e = tutor_rate(s, err);
    s->pos = i;
    s->shown = false;
    *moved = true;
    return e;
}

/* Every item of the practice has an answer, given today or before: the
 * lesson is done, whether this session began at its start or resumed. */
static bool all_had(const struct tutor_session *s)
{
    for (size_t i = 0; s->had && i < s->n_items; i++)
        if (!s->had[i])
            return false;
    return s->had != NULL;
}

enum kvt_err tutor_finish(struct tutor_session *s, struct store_error *err)
{
    const struct lx_lesson *l = slot_lesson(s, s->first_lesson);
    enum kvt_err e = KVT_E_OK;
    struct tutor_summary sum;

    if (!s->env.store || store_readonly(s->env.store))
        return KVT_E_OK;
    tutor_summary(s, &sum);
    if (s->mode == TUTOR_PRACTICE && s->n_items && all_had(s))
        e = store_lesson_done(s->env.store, s->env.learner_id, l->id, tutor_wall(s), err);
    if (s->mode == TUTOR_INTERVIEW && s->answered > 0)
        e = store_interview(s->env.store, s->env.learner_id, l->id, s->started_at, sum.seconds,
                            (int)s->answered, sum.score, sum.review ? sum.review : "", err);
    return e;
}

void tutor_summary(const struct tutor_session *s, struct tutor_summary *out)
{
    *out = (struct tutor_summary){
        .answered = s->answered,
        .right = s->right,
        .score = s->answered ? s->score_sum / s->answered : 0,
        .seconds = tutor_session_seconds(s),
        .times = s->times,
        .n_times = s->answered < MAX_TIMES ? s->answered : MAX_TIMES,
        .passed = s->passed,
        .unread = s->unread,
        .out_of_time = s->out_of_time,
    };
    if (s->mode == TUTOR_INTERVIEW && s->answered && out->score < TUTOR_INTERVIEW_PASS) {
        out->review = slot_lesson(s, s->first_lesson)->concept;
        out->review_lesson = slot_lesson(s, s->first_lesson)->title;
    }
}
