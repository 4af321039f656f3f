/* `kvtutor ask LESSON_ID ITEM_ID "ANSWER"`: grades one answer without the
 * terminal app, through the same session code the app uses (tutor_session),
 * for instructors checking a lesson and for tests. ITEM_ID is an exercise's
 * id, "question" or "followup-N". `kvtutor ask --list` names every item.
 * Exit 0 when correct, 1 when wrong or not an answer, 2 for a usage error
 * (an unknown lesson or item), 3 when unsure (an answer in words the grader
 * found neither right nor wrong on evidence: the learner checks it against
 * the points listed). */
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"
#include "cli_lessons.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_calc.h"
#include "kv_grade.h"
#include "kv_units.h"
#include "kvt_text.h"
#include "lx_course.h"
#include "tutor_item.h"
#include "tutor_session.h"

struct ask {
    const char *lesson_id, *exercise_id, *answer, *lessons_dir;
    uint64_t seed;
    bool json, list;
    struct lx_fact facts[4]; /* --measured NAME=VALUE */
    char names[4][24];       /* the facts' names */
    size_t n_facts;
};

/* What the session made of the answer (its attempt, copied out). */
struct outcome {
    enum kv_verdict verdict;
    double score;
    struct lx_draw draw;
    struct lx_grade g;
};

static int ask_usage(FILE *out)
{
    fputs("usage: kvtutor ask LESSON_ID ITEM_ID \"ANSWER\" [--seed N] [--json]\n"
          "                   [--lessons PATH] [--measured NAME=VALUE]\n"
          "       kvtutor ask --list [--json] [--lessons PATH]\n\n"
          "Grades one answer to one item, as the app would. ITEM_ID is an exercise's id,\n"
          "\"question\" (the lesson's own question) or \"followup-N\" (its N-th follow-up);\n"
          "--list names every lesson's items. For an exercise: the verdict, the expected\n"
          "value with its unit and tolerance, the parameters drawn (parametric exercises,\n"
          "from --seed, default 1), the mistake diagnosed, and the worked arithmetic:\n"
          "the exercise's own with the drawn figures where it gives one, else the\n"
          "lesson's. An answer in words is correct (its key points covered, nothing\n"
          "contradicted), wrong only on evidence (a misconception, a contradicted point,\n"
          "or a list of terms with no claim), else unsure: the points to check are listed.\n"
          "Exit 0 when correct, 1 when wrong or invalid, 2 for a usage error, 3 when\n"
          "unsure.\n"
          "--measured read_gbps=18.2 (also peak_gbps, free_gib) stands in for the probe\n"
          "figure a \"measure, then predict\" exercise uses.\n",
          out);
    return out == stdout ? 0 : 2;
}

enum { A_SEED, A_JSON, A_MEASURED, A_LIST };
static const struct cli_flag ask_flags[] = {
    [A_SEED] = {"--seed", NULL, "N", .kind = CLI_UINT, .umax = UINT64_MAX, .zero_ok = true},
    [A_JSON] = {"--json", NULL, NULL, .kind = CLI_SWITCH},
    [A_MEASURED] = {"--measured", NULL, "NAME=VALUE", .kind = CLI_LIST},
    [A_LIST] = {"--list", NULL, NULL, .kind = CLI_SWITCH},
};
/* an answer may start with '-' ("-3"): an unknown "-word" is the answer */
static const struct cli_spec ask_spec = {.cmd = "ask",
                                         .flags = ask_flags,
                                         .nflags = 4,
                                         .globals = CLI_G_LESSONS,
                                         .max_pos = 3,
                                         .dash_pos = true};

/* --measured NAME=VALUE: a probe figure standing in for the learner's own. */
static int parse_measured(struct ask *a, const char *v)
{
    char(*names)[24] = a->names;
    const char *eq = strchr(v, '='), *why;
    size_t k = eq ? (size_t)(eq - v) : 0;
    double x;

    if (!eq || k == 0 || k >= sizeof names[0])
        return cli_usage_error("ask", "--measured takes NAME=VALUE (read_gbps=18.2)");
    if (a->n_facts == 4)
        return cli_usage_error("ask", "--measured %s: at most four figures", v);
    snprintf(names[a->n_facts], sizeof names[0], "%.*s", (int)k, v);
    if (!lx_fact_known(names[a->n_facts]))
        return cli_usage_error("ask",
                               "--measured %s: not a probe figure (read_gbps, peak_gbps, free_gib)",
                               names[a->n_facts]);
    if ((why = cli_parse_real(eq + 1, 0, true, KV_MAX_RATE, &x)) != NULL)
        return cli_usage_error("ask", "--measured %s: %s", v, why);
    a->facts[a->n_facts] = (struct lx_fact){names[a->n_facts], x};
    a->n_facts++;
    return 0;
}

/* Returns 0 to go on, -1 when help was printed, else the exit status. */
static int parse(int argc, char **argv, struct ask *a)
{
    struct cli_args ca;
    int rc = cli_parse(&ask_spec, argc, argv, &ca);

    *a = (struct ask){.seed = 1};
    if (rc != 0)
        return rc;
    if (ca.help)
        return ask_usage(stdout) - 1; /* -1: done, exit 0 */
    for (int i = 0; i < ca.nlist; i++)
        if ((rc = parse_measured(a, ca.list[i])) != 0)
            return rc;
    if (ca.given[A_SEED])
        a->seed = ca.u[A_SEED];
    a->json = ca.given[A_JSON];
    a->lessons_dir = ca.lessons;
    a->list = ca.given[A_LIST];
    if (a->list && ca.npos > 0)
        return cli_usage_error("ask", "--list takes no lesson or answer (%s)", ca.pos[0]);
    if (a->list)
        return 0;
    if (ca.npos < 3)
        return cli_usage_error("ask", "give LESSON_ID ITEM_ID \"ANSWER\"");
    a->lesson_id = ca.pos[0];
    a->exercise_id = ca.pos[1];
    a->answer = ca.pos[2];
    return 0;
}

/* Grades through a one-item session, as the app's quiz screen does. The
 * session records nothing: ask has no progress database. */
static int grade(struct lx_lesson *l, struct tutor_item it, const struct ask *a, struct outcome *o)
{
    struct tutor_env env = {
        .facts_given = true,
        .facts = a->facts,
        .n_facts = a->n_facts,
        .fixed_seed = true,
        .seed = a->seed,
    };
    struct tutor_session *s;
    const struct tutor_attempt *at;
    struct store_error serr;
    enum kvt_err e;
    char err[300], id[96];

    memset(o, 0, sizeof *o);
    if (!(s = tutor_session_one(&env, l, it))) {
        fputs("kvtutor ask: out of memory\n", stderr);
        return 1;
    }
    if ((e = tutor_begin(s, err, sizeof err)) == KVT_E_MISSING) {
        const struct lx_exercise *ex = &l->exercises[it.index];
        cli_fail("ask", 2,
                 "%s/%s uses your measured %s: give --measured %s=VALUE (kvtutor probe measures "
                 "it)",
                 l->id, ex->id, ex->measured, ex->measured);
        tutor_session_free(s);
        return 2;
    }
    if (e != KVT_E_OK) {
        cli_fail("ask", 1, "%s/%s: the expected value cannot be computed: %s", l->id,
                 tutor_item_id(l, it, id, sizeof id), err);
        tutor_session_free(s);
        return 1;
    }
    tutor_answer(s, a->answer, &serr);
    at = tutor_attempt(s);
    o->draw = at->draw;
    o->g = at->grade;
    o->verdict = at->grade.verdict;
    o->score = at->grade.score;
    tutor_session_free(s);
    return 0;
}

/* Untrusted lesson text, made safe for the terminal. */
static void put_safe(const char *label, const char *text, bool multiline)
{
    static char buf[16384];
    if (!text)
        return;
    kvt_sanitize(text, strlen(text), buf, sizeof buf, multiline ? KVT_KEEP_NEWLINES : 0);
    printf("%s%s\n", label, buf);
}

/* Why an answer in words got its score: each point covered, with the
 * learner's words that covered it, or missed; each misconception found,
 * with its correction; the weights behind the score. */
static void print_text(const struct tutor_parts *t, const struct kv_text_result *r, double score)
{
    char label[64], share[32], got[32], total[32];
    printf("Score: %s: key points worth %s of %s covered",
           kvt_fmt_percent(score, share, sizeof share), kvt_fmt_number(r->got, 3, got, sizeof got),
           kvt_fmt_number(r->total, 3, total, sizeof total));
    if (r->n_found || r->n_contra)
        printf(", held under a pass by %s\n", r->n_found ? "a misconception" : "a contradiction");
    else
        printf(" (half passes)\n");
    for (size_t i = 0; i < t->n_points && i < KV_MAX_POINTS; i++) {
        snprintf(label, sizeof label, "  %s (weight %s): ", r->covered[i] ? "covered" : "missed ",
                 kvt_fmt_number(t->points[i].weight, 3, got, sizeof got));
        put_safe(label, t->points[i].text, false);
        if (r->covered[i])
            put_safe("      in your words: ", r->quote[i], false);
        else if (r->contradicted[i])
            put_safe("      contradicted by: ", r->contra_quote[i], false);
    }
    for (size_t m = 0; m < t->n_mis && m < KV_MAX_MISCONCEPTIONS; m++) {
        if (!r->found[m])
            continue;
        put_safe("  misconception: ", r->mis_quote[m], false);
        put_safe("      why not: ", t->mis[m].why, false);
    }
    if (r->list)
        printf("  A list of terms says nothing of anything: say what is true of what "
               "(\"decode is memory-bound\").\n");
    if (r->hedged)
        printf("  A hedge (\"it depends\", \"no idea\") covers no point: say what, on what, and "
               "how.\n");
    if (r->verdict == KV_UNSURE) {
        printf("Not sure: check whether you said each of these:\n");
        for (size_t i = 0; i < t->n_points && i < KV_MAX_POINTS; i++)
            if (!r->covered[i])
                put_safe("  [ ] ", t->points[i].text, false);
    }
    put_safe("Model answer: ", t->model, true);
}

static void print_numeric(const struct lx_exercise *e, const struct outcome *o)
{
    const struct cli_glyphs *g = cli_glyphs();
    char line[256];
    /* the value as precise as its tolerance makes sense of, as the app shows it */
    printf("Expected: %s\n", tutor_item_expected(&o->g, e->unit, g->plusminus, line, sizeof line));
    if (o->verdict != KV_INVALID) {
        char read[256];
        printf("Read as: %s\n", kv_numeric_read_as(&o->g.num, e->unit, read, sizeof read));
    }
    if (o->g.num.mistake != KV_MISTAKE_NONE)
        printf("Diagnosis: %s\n", kv_mistake_text(o->g.num.mistake));
}

static void print_human(const struct lx_lesson *l, struct tutor_item it, const struct ask *a,
                        const struct outcome *o)
{
    const struct cli_glyphs *g = cli_glyphs();
    const struct lx_exercise *e = it.part == TUTOR_EXERCISE ? &l->exercises[it.index] : NULL;
    char id[96];

    printf("%s / %s", l->id, tutor_item_id(l, it, id, sizeof id));
    if (e && e->kind == LX_NUMERIC && e->n_params) {
        char drawn[1024];
        lx_draw_params_text(&o->draw, drawn, sizeof drawn);
        printf(" (seed %llu: %s)", (unsigned long long)a->seed, drawn);
    }
    putchar('\n');
    put_safe("Q: ", e && e->kind == LX_NUMERIC ? o->draw.prompt : tutor_item_prompt(l, it), false);
    put_safe("Your answer: ", a->answer, false);
    printf("%s %s",
           o->verdict == KV_CORRECT  ? g->check
           : o->verdict == KV_UNSURE ? "?"
                                     : g->cross,
           tutor_verdict_name(o->verdict));
    if (o->verdict == KV_INVALID && o->g.why[0])
        put_safe(": ", o->g.why, false);
    else
        putchar('\n');
    if (e && e->kind == LX_NUMERIC) {
        print_numeric(e, o);
    } else if (e && e->kind == LX_CHOICE) {
        if (o->g.picked >= 0 && e->options[o->g.picked].why)
            put_safe("Why: ", e->options[o->g.picked].why, false);
        if (o->verdict != KV_CORRECT && o->g.correct_option >= 0)
            put_safe("The answer: ", e->options[o->g.correct_option].text, false);
    } else if (o->verdict != KV_INVALID) {
        struct tutor_parts t;
        tutor_item_parts(l, it, &t);
        print_text(&t, &o->g.text, o->score);
    }
    if (e && o->verdict != KV_CORRECT && e->n_hints)
        put_safe("Hint: ", e->hints[0], false);
    /* the exercise's own arithmetic with its drawn figures, else the lesson's example */
    if (e && e->kind == LX_NUMERIC && o->draw.worked[0])
        put_safe("\nWorked:\n", o->draw.worked, true);
    else if (e)
        put_safe("\nWorked:\n", l->worked, true);
}

static void json_numeric(json_t *j, const struct lx_exercise *e, const struct outcome *o)
{
    json_t *params = json_object();
    json_object_set_new(j, "prompt", json_string(o->draw.prompt));
    json_object_set_new(j, "worked", o->draw.worked[0] ? json_string(o->draw.worked) : json_null());
    json_object_set_new(j, "expected", json_real(o->g.spec.expected));
    json_object_set_new(j, "unit", json_string(e->unit ? e->unit : ""));
    json_object_set_new(j, "tolerance", json_real(e->tolerance));
    json_object_set_new(j, "tolerance_kind", json_string(e->relative ? "relative" : "absolute"));
    json_object_set_new(j, "allowed", json_real(o->g.num.allowed));
    json_object_set_new(j, "parsed",
                        isnan(o->g.num.parsed) ? json_null() : json_real(o->g.num.parsed));
    /* params as drawn: name -> value text */
    for (size_t i = 0; i < o->draw.n_params; i++)
        json_object_set_new(params, o->draw.params[i].name, json_string(o->draw.params[i].text));
    json_object_set_new(j, "params", params);
    json_object_set_new(j, "diagnosis",
                        o->g.num.mistake == KV_MISTAKE_NONE
                            ? json_null()
                            : json_string(kv_mistake_id(o->g.num.mistake)));
    json_object_set_new(j, "diagnosis_text",
                        o->g.num.mistake == KV_MISTAKE_NONE
                            ? json_null()
                            : json_string(kv_mistake_text(o->g.num.mistake)));
}

/* sanitised: the learner's words need not be UTF-8, and jansson refuses
 * such a string */
static json_t *json_safe(const char *text)
{
    char buf[1024];
    kvt_sanitize(text, strlen(text), buf, sizeof buf, 0);
    return json_string(buf);
}

/* points: each with covered and the words that covered it; misconceptions:
 * each found, with why it is wrong; covered/missed: the points' texts. */
static void json_text(json_t *j, const struct tutor_parts *t, const struct kv_text_result *r,
                      json_t *covered, json_t *missed)
{
    json_t *points = json_array(), *mis = json_array(), *check = json_array();
    for (size_t i = 0; i < t->n_points && i < KV_MAX_POINTS; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "text", json_string(t->points[i].text));
        json_object_set_new(p, "weight", json_real(t->points[i].weight));
        json_object_set_new(p, "covered", json_boolean(r->covered[i]));
        json_object_set_new(p, "words", r->covered[i] ? json_safe(r->quote[i]) : json_null());
        json_object_set_new(p, "contradicted", json_boolean(r->contradicted[i]));
        json_object_set_new(p, "contradicted_by",
                            r->contradicted[i] ? json_safe(r->contra_quote[i]) : json_null());
        if (r->verdict == KV_UNSURE && !r->covered[i])
            json_array_append_new(check, json_string(t->points[i].text));
        json_array_append_new(points, p);
        json_array_append_new(r->covered[i] ? covered : missed, json_string(t->points[i].text));
    }
    for (size_t m = 0; m < t->n_mis && m < KV_MAX_MISCONCEPTIONS; m++) {
        json_t *x;
        if (!r->found[m])
            continue;
        x = json_object();
        json_object_set_new(x, "words", json_safe(r->mis_quote[m]));
        json_object_set_new(x, "why", json_string(t->mis[m].why));
        json_array_append_new(mis, x);
    }
    json_object_set_new(j, "points", points);
    json_object_set_new(j, "misconceptions", mis);
    json_object_set_new(j, "weight_covered", json_real(r->got));
    json_object_set_new(j, "weight_total", json_real(r->total));
    json_object_set_new(j, "keyword_list", json_boolean(r->list));
    json_object_set_new(j, "hedge", json_boolean(r->hedged));
    /* unsure: the points the learner is asked about ("did you say this?") */
    json_object_set_new(j, "check", check);
}

static int print_json(const struct lx_lesson *l, struct tutor_item it, const struct ask *a,
                      const struct outcome *o)
{
    const struct lx_exercise *e = it.part == TUTOR_EXERCISE ? &l->exercises[it.index] : NULL;
    json_t *j = json_object();
    char why[1024], id[96];
    int rc;

    json_object_set_new(j, "lesson", json_string(l->id));
    json_object_set_new(j, "exercise", json_string(tutor_item_id(l, it, id, sizeof id)));
    json_object_set_new(j, "kind", json_string(tutor_item_kind(l, it)));
    json_object_set_new(j, "verdict", json_string(tutor_verdict_name(o->verdict)));
    json_object_set_new(j, "score", json_real(o->score));
    json_object_set_new(j, "seed", json_integer((json_int_t)a->seed));
    if (e && e->kind == LX_NUMERIC) {
        json_numeric(j, e, o);
    } else {
        json_t *covered = json_array(), *missed = json_array();
        json_object_set_new(j, "expected", json_null());
        json_object_set_new(j, "unit", json_null());
        json_object_set_new(j, "tolerance", json_null());
        json_object_set_new(j, "parsed", json_null());
        json_object_set_new(j, "params", json_object());
        json_object_set_new(j, "diagnosis", json_null());
        if (e && e->kind == LX_CHOICE) {
            json_object_set_new(j, "picked",
                                o->g.picked >= 0 ? json_integer(o->g.picked + 1) : json_null());
            json_object_set_new(j, "correct_option", json_integer(o->g.correct_option + 1));
        } else {
            struct tutor_parts t;
            tutor_item_parts(l, it, &t);
            json_text(j, &t, &o->g.text, covered, missed);
        }
        json_object_set_new(j, "covered", covered);
        json_object_set_new(j, "missed", missed);
    }
    /* the reason may quote the answer, which need not be UTF-8: jansson
     * refuses such a string (and the key would silently go missing) */
    kvt_sanitize(o->g.why, strlen(o->g.why), why, sizeof why, 0);
    json_object_set_new(j, "reason", why[0] ? json_string(why) : json_null());
    rc = cli_json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(j);
    return rc;
}

/* Every item of a lesson, in the order practice asks them, then its
 * question when it has key points to grade it on. */
static size_t lesson_items(const struct lx_lesson *l, struct tutor_item *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n_exercises && n < cap; i++)
        out[n++] = (struct tutor_item){0, TUTOR_EXERCISE, i};
    for (size_t i = 0; i < l->n_followups && n < cap; i++)
        out[n++] = (struct tutor_item){0, TUTOR_FOLLOWUP, i};
    if (l->n_points && n < cap)
        out[n++] = (struct tutor_item){0, TUTOR_QUESTION, 0};
    return n;
}

/* `ask --list`: the course's live lessons in course order (bundled, the
 * learner's own, --lessons; a later lesson with an id replaces an earlier
 * one, as in the app) with every item's id, kind and prompt. */
static int list_items(const struct ask *a, const struct lx_opts *opts, const char *data)
{
    /* no database: nothing to sync */
    struct lx_course *c = cli_course_open("ask", a->lessons_dir, data, opts, NULL, 0);
    json_t *lessons = json_array();

    if (!c) {
        json_decref(lessons);
        fputs("kvtutor ask: out of memory\n", stderr);
        return 1;
    }
    for (size_t i = 0; i < lx_course_size(c); i++) {
        struct lx_lesson *l = lx_course_at(c, i);
        struct tutor_item items[256];
        size_t k;
        json_t *ij = json_array();
        if (!lx_course_live(c, i)) {
            json_decref(ij);
            continue;
        }
        k = lesson_items(l, items, 256);
        if (!a->json) {
            put_safe("", l->id, false);
            put_safe("  ", l->title, false);
        }
        for (size_t m = 0; m < k; m++) {
            char id[96];
            const char *kind = tutor_item_kind(l, items[m]),
                       *prompt = tutor_item_prompt(l, items[m]);
            tutor_item_id(l, items[m], id, sizeof id);
            json_array_append_new(
                ij, json_pack("{s:s, s:s, s:s}", "id", id, "kind", kind, "prompt", prompt));
            if (!a->json) {
                char label[160];
                snprintf(label, sizeof label, "  %-24s %-9s ", id, kind);
                put_safe(label, prompt, false);
            }
        }
        json_array_append_new(
            lessons, json_pack("{s:s, s:s, s:o}", "id", l->id, "title", l->title, "items", ij));
    }
    if (a->json) {
        json_t *j = json_pack("{s:o}", "lessons", lessons);
        cli_json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        putchar('\n');
        json_decref(j);
    } else {
        json_decref(lessons);
    }
    lx_course_free(c);
    return 0;
}

int cli_ask(int argc, char **argv)
{
    struct ask a;
    struct lx_opts opts;
    struct lx_lesson *l;
    struct tutor_item it;
    struct outcome o;
    char data[4096], dsl[CLI_DSL_CAP], seen[2048];
    int rc = parse(argc, argv, &a);

    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (cli_lx_opts("ask", &opts, dsl, data, sizeof data) != 0)
        return 2;
    if (a.list)
        return list_items(&a, &opts, data);
    l = cli_find_lesson(a.lesson_id, a.lessons_dir, data, &opts, seen, sizeof seen);
    if (!l) {
        char f1[KVT_SAFE_FIELD];
        return cli_fail("ask", 2, "no lesson \"%s\" (lessons: %s)",
                        kvt_safe(a.lesson_id, f1, sizeof f1), seen[0] ? seen : "none found");
    }
    if (!tutor_item_parse(l, a.exercise_id, &it)) {
        struct tutor_item items[256];
        size_t k = lesson_items(l, items, 256), len = 0;
        seen[0] = '\0';
        for (size_t i = 0; i < k && len + 2 < sizeof seen; i++) {
            char id[96];
            len += (size_t)snprintf(seen + len, sizeof seen - len, "%s%s", i ? ", " : "",
                                    tutor_item_id(l, items[i], id, sizeof id));
        }
        char f1[KVT_SAFE_FIELD];
        cli_fail("ask", 2, "lesson %s has no item \"%s\" (it has: %s)", l->id,
                 kvt_safe(a.exercise_id, f1, sizeof f1), seen);
        lx_free(l);
        return 2;
    }
    rc = grade(l, it, &a, &o);
    if (rc != 0) {
        lx_free(l);
        return rc;
    }
    if (a.json)
        print_json(l, it, &a, &o);
    else
        print_human(l, it, &a, &o);
    lx_free(l);
    return o.verdict == KV_CORRECT ? 0 : o.verdict == KV_UNSURE ? 3 : 1;
}
