/* The bundled course grades its own model answers as correct: the direct
 * answer against the interview question's key points, each follow-up's
 * answer against its points, each free-text exercise's answer against its
 * points, and none trips its own misconceptions. A model answer that misses its own key points
 * would tell a learner who wrote it that they were wrong. The check also counts what a course
 * lesson must have: a follow-up or more, key points for the question, and a
 * numeric exercise, and that every question and follow-up has claim points
 * and misconceptions. And a vague answer passes none of them. And every
 * numeric exercise returns its own worked arithmetic, in lines of at most
 * 76 columns. And no misconception trips on its own correction. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kvt_text.h"
#include "lx.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int misses; /* model answers short of their points, all reported */

static const char *first_found(const struct kv_text_result *r)
{
    for (size_t m = 0; m < KV_MAX_MISCONCEPTIONS; m++)
        if (r->found[m])
            return r->mis_quote[m];
    return "";
}

static void check_text(const char *where, const struct lx_point *pts, size_t n,
                       const struct lx_grade *g)
{
    char missed[800] = "";
    size_t used = 0;
    if (g->text.n_found) {
        print_error("%s: the model answer trips one of its own misconceptions: \"%s\"\n", where,
                    first_found(&g->text));
        misses++;
        return;
    }
    if (g->verdict == KV_CORRECT && g->score >= 1.0)
        return; /* every point, not just enough of them */
    for (size_t i = 0; i < n && i < KV_MAX_POINTS && used < sizeof missed; i++)
        if (!g->text.covered[i])
            used += (size_t)snprintf(missed + used, sizeof missed - used, " [%s]", pts[i].text);
    print_error("%s: the model answer scores %.2f against its own key points; missed:%s\n", where,
                g->score, missed);
    misses++;
}

/* A vague answer, the kind a candidate gives when they do not know, must
 * not pass any question: key points that accept it are too loose. */
static const char vague[] = "It depends on the model, the GPU and the workload; I would "
                            "benchmark it and tune the settings until it is fast enough.";

static void check_vague(const char *where, const struct lx_grade *g)
{
    if (g->verdict == KV_CORRECT) {
        print_error("%s: a vague answer scores %.2f and passes\n", where, g->score);
        misses++;
    }
}

/* A misconception's correction states the truth, so graded as an answer it
 * must not trip that misconception: one that does names a topic ("different
 * temperatures", "after a rejection") rather than the false claim, and would
 * refuse a learner who wrote the correction in their own words. */
static void check_corrections(const char *where, const struct lx_misconception *mis, size_t n,
                              void (*grade)(const void *, size_t, const char *, struct lx_grade *),
                              const void *ctx, size_t at)
{
    struct lx_grade g;
    for (size_t m = 0; m < n && m < KV_MAX_MISCONCEPTIONS; m++) {
        grade(ctx, at, mis[m].why, &g);
        if (g.text.found[m]) {
            print_error("%s: misconception %zu trips on its own correction (\"%s\" in \"%s\")\n",
                        where, m + 1, g.text.mis_quote[m], mis[m].why);
            misses++;
        }
    }
}
static void grade_q(const void *l, size_t at, const char *typed, struct lx_grade *g)
{
    (void)at;
    lx_grade_question(l, typed, g);
}
static void grade_f(const void *l, size_t at, const char *typed, struct lx_grade *g)
{
    lx_grade_followup(l, at, typed, g);
}
static void grade_e(const void *l, size_t at, const char *typed, struct lx_grade *g)
{
    lx_grade(l, at, NULL, typed, g);
}

/* Every question and follow-up is graded on claims and checked for the
 * misconceptions it invites, not only on phrases. */
static void check_claims(const char *where, const struct lx_point *pts, size_t n, size_t n_mis)
{
    size_t claims = 0;
    for (size_t i = 0; i < n; i++)
        claims += pts[i].n_about && pts[i].n_said;
    if (claims == 0 || n_mis == 0) {
        print_error("%s: %zu claim points, %zu misconceptions; needs one of each at least\n", where,
                    claims, n_mis);
        misses++;
    }
}

/* Every lesson of one module folder of lessons/; returns how many. */
static int check_module(const char *module)
{
    struct dirent **ents;
    struct lx_opts o;
    char dir[600];
    int n, lessons = 0;

    lx_default_opts(&o);
    o.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    snprintf(dir, sizeof dir, KVT_SOURCE_DIR "/lessons/%s", module);
    n = scandir(dir, &ents, NULL, by_name);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char path[1024], where[1200];
        struct lx_lesson *l = NULL;
        struct lx_report rep = {0};
        struct lx_grade g;
        size_t len = strlen(ents[i]->d_name), numeric = 0;

        if (len < 5 || strcmp(ents[i]->d_name + len - 4, ".lua") != 0) {
            free(ents[i]);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
        if (lx_load(path, &o, &l, &rep) != KVT_E_OK)
            fail_msg("%s: %s", path, rep.n ? rep.items[0].msg : "does not load");
        lessons++;
        if (l->n_points == 0 || l->n_followups < 2)
            fail_msg("%s: %zu key points for the question, %zu follow-ups", l->id, l->n_points,
                     l->n_followups);
        snprintf(where, sizeof where, "%s: the direct answer", l->id);
        lx_grade_question(l, l->answer, &g);
        check_text(where, l->points, l->n_points, &g);
        check_claims(where, l->points, l->n_points, l->n_mis);
        check_corrections(where, l->mis, l->n_mis, grade_q, l, 0);
        lx_grade_question(l, vague, &g);
        check_vague(where, &g);
        for (size_t f = 0; f < l->n_followups; f++) {
            snprintf(where, sizeof where, "%s: follow-up %zu", l->id, f + 1);
            lx_grade_followup(l, f, l->followups[f].answer, &g);
            check_text(where, l->followups[f].points, l->followups[f].n_points, &g);
            check_claims(where, l->followups[f].points, l->followups[f].n_points,
                         l->followups[f].n_mis);
            check_corrections(where, l->followups[f].mis, l->followups[f].n_mis, grade_f, l, f);
            lx_grade_followup(l, f, vague, &g);
            check_vague(where, &g);
        }
        for (size_t e = 0; e < l->n_exercises; e++) {
            const struct lx_exercise *x = &l->exercises[e];
            numeric += x->kind == LX_NUMERIC;
            if (x->kind == LX_NUMERIC) {
                /* every numeric exercise shows its own arithmetic after a wrong
                 * answer, not the lesson's example with other figures: a fixed
                 * one in `worked`, a drawn one from expected(p) (the loader has
                 * checked that the lines reach the expected value) */
                struct lx_draw d;
                char err[200];
                static const struct lx_fact facts[] = {
                    {"read_gbps", 900.0}, {"peak_gbps", 1008.0}, {"free_gib", 22.0}};
                /* eight draws, as lint's, for the widths of drawn figures */
                for (uint64_t seed = 1; seed <= (x->n_params ? 8u : 1u); seed++) {
                    if (lx_draw_measured(l, e, seed, facts, 3, &d, err, sizeof err) != KVT_E_OK)
                        fail_msg("%s: exercise %s: %s", l->id, x->id, err);
                    /* the app shows it at 80 columns, indented by 2: a longer
                     * line wraps and its columns no longer line up */
                    for (const char *ln = d.worked; *ln;) {
                        size_t cut = strcspn(ln, "\n");
                        if (kvt_text_width(ln, cut) > 76) {
                            print_error("%s: exercise %s, draw %u: a worked line of %zu "
                                        "columns, over 76: %.*s\n",
                                        l->id, x->id, (unsigned)seed, kvt_text_width(ln, cut),
                                        (int)cut, ln);
                            misses++;
                        }
                        ln += cut + (ln[cut] == '\n');
                    }
                    if (!d.worked[0]) {
                        print_error("%s: exercise %s: no worked arithmetic of its own (%s)\n",
                                    l->id, x->id,
                                    x->has_value ? "worked = code [[...]]"
                                                 : "expected(p) returns value, worked");
                        misses++;
                        break;
                    }
                }
            }
            if (x->kind != LX_FREETEXT)
                continue;
            snprintf(where, sizeof where, "%s: exercise %s", l->id, x->id);
            lx_grade(l, e, NULL, x->model_answer, &g);
            check_text(where, x->points, x->n_points, &g);
            check_corrections(where, x->mis, x->n_mis, grade_e, l, e);
            lx_grade(l, e, NULL, vague, &g);
            check_vague(where, &g);
        }
        if (numeric < 3)
            fail_msg("%s: %zu numeric exercises", l->id, numeric);
        lx_free(l);
        lx_report_free(&rep);
        free(ents[i]);
    }
    free(ents);
    return lessons;
}

/* Every bundled module: Part 0's fifteen lessons and Part 1's. */
static void test_model_answers_cover_their_points(void **state)
{
    (void)state;
    assert_int_equal(check_module("part0-foundations"), 15);
    assert_int_equal(check_module("part1-serving"), 6);
    assert_int_equal(misses, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_answers_cover_their_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
