/* lx.h: lessons, loaded from untrusted Lua files into plain C structs.
 *
 * Each lesson runs in its own sandboxed Lua state (see lx_sandbox.c): only
 * base/string/table/math/utf8, text chunks only, a memory cap, and a wall-
 * clock deadline that stays armed once it fires. Loading validates the
 * lesson the way `kvtutor lint` reports it: every problem with its line.
 * Strings in the structs belong to the lesson and live until lx_free; they
 * are raw lesson text: sanitise before showing (kvt_text.h). */
#ifndef LX_H
#define LX_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "kv_claims.h"
#include "kv_grade.h"
#include "kvt_error.h"
#include "lx_schema.h"

#define LX_MAX_FILE (1u << 20) /* bytes: lessons are text; larger files are refused unread */

struct lx_opts {
    unsigned load_ms; /* deadline for loading a lesson: 2000 */
    unsigned call_ms; /* deadline for one grading callback: 250 */
    size_t mem_cap;   /* bytes per lesson state: 64 MiB */
    const char *dsl;  /* path of lua/kvtutor.lua */
    /* When it points at a non-zero value (a signal handler's flag), running
     * lesson code stops as at a deadline: quitting never waits for a lesson
     * that is still loading. NULL: only the deadlines apply. */
    const volatile sig_atomic_t *stop;
};

void lx_default_opts(struct lx_opts *o);

/* Problems found in one file, in the order found. */
struct lx_problem {
    int line;      /* 0 when the problem has no line */
    char msg[240]; /* sanitised, one line */
};

struct lx_report {
    struct lx_problem *items;
    size_t n, cap;
    size_t dropped; /* problems that found no memory to be kept in */
};

void lx_report_free(struct lx_report *r);

enum lx_kind { LX_NUMERIC, LX_CHOICE, LX_FREETEXT };

/* A key point (docs/lessons.md): plain, covered by any `accept` phrasing,
 * or a claim, covered when an `about` and a `said` phrasing share a clause
 * (kv_claims.h), or by a `short` phrasing that is a whole clause. */
struct lx_point {
    const char *text;
    double weight;
    const char **accept; /* phrasings that count as covering it (lower case) */
    size_t n_accept;
    const char **about, **said, **shorts;
    size_t n_about, n_said, n_shorts;
    enum kv_polarity polarity; /* the point is the answer yes or no (kv_claims.h) */
};

/* A wrong claim a candidate might make, and why it is wrong. */
struct lx_misconception {
    const char **about, **said, **unless;
    size_t n_about, n_said, n_unless;
    const char *why;
    bool course; /* from lua/misconceptions.lua, after the question's own */
};

struct lx_option {
    const char *text, *why;
    bool correct;
};

/* A parameter drawn for each attempt: one of `values`, or lo..hi by step. */
struct lx_param {
    const char *name;
    bool is_range;
    double lo, hi, step;
    const char **values; /* as text; numbers are also in nums */
    double *nums;        /* NAN where a value is text */
    size_t n_values;
};

/* The serving setup an exercise's figures come from, `serving = {...}`:
 * the kv.sim fields the app's serving view can show (docs/lessons.md), as
 * written. A lesson passes the same table to kv.sim, so the view opened
 * from the exercise shows the figures the exercise graded on. Zero (NULL)
 * is a field not given: kv.sim's default. */
struct lx_serving {
    bool given;
    int line;                /* where `serving =` is written */
    const char *model, *gpu; /* presets; both required */
    const char *kv_dtype, *weights_dtype;
    uint64_t max_model_len, tp, input_len, output_len, max_concurrency, num_prompts, seed;
    bool has_seed;
    double util;         /* gpu_memory_utilization */
    double request_rate; /* requests/s; INFINITY: every request at t = 0 */
};

struct lx_exercise {
    const char *id;
    enum lx_kind kind;
    int line;           /* where the exercise is written */
    int expected_line;  /* where its `expected =` is (numeric) */
    const char *prompt; /* may hold {name} placeholders for parameters */
    const char **hints;
    size_t n_hints;
    /* numeric */
    const char *unit;
    double tolerance; /* > 0 */
    bool relative;    /* tolerance is a fraction of the expected value */
    bool has_value;   /* a fixed expected value (else computed by a function) */
    double value;
    struct lx_param *params;
    size_t n_params;
    const char *model;        /* preset the figure is about, for diagnosis (or a "model" param) */
    const char *kv_dtype;     /* the cache's element type in the exercise, when not the model's */
    const char *diagnose;     /* "kv-size", "capacity" or "units": how the figure follows the KV */
    double left_out_kv;       /* left_out = { kv = ... }: the answer without the KV cache; 0 none */
    double left_out_overhead; /* left_out = { overhead = ... }: the answer without the overhead */
    const char *per;          /* "token" or "sequence": what a size is per; NULL unsaid */
    double slips[KV_SLIP__COUNT]; /* slips = {...}, by enum kv_slip; 0 none (or slips(p)) */
    const char *measured; /* a figure of the learner's own machine it needs (LX_FACTS), or NULL */
    const char *worked;   /* a fixed exercise's own worked arithmetic (worked = code [[...]]), or
                           * NULL; a drawn one returns its own from expected(p) */
    struct lx_serving serving; /* numeric and choice: the setup its figures come from */
    /* choice */
    struct lx_option *options;
    size_t n_options;
    /* freetext */
    struct lx_point *points;
    size_t n_points;
    struct lx_misconception *mis;
    size_t n_mis;
    const char *model_answer;
};

struct lx_section {
    const char *title, *text;
    int line;
};

struct lx_followup {
    const char *question, *answer;
    struct lx_point *points;
    size_t n_points;
    struct lx_misconception *mis;
    size_t n_mis;
    int line;
};

struct lx_lesson {
    const char *path;
    const char *id, *title, *module, *baseline, *concept, *question, *answer, *worked;
    const char
        *module_title; /* the module's name for people ("Part 0 · Foundations"); may be NULL */
    const char *concept_title; /* the concept's name for people ("The KV cache"); may be NULL */
    struct lx_section *sections;
    size_t n_sections;
    struct lx_followup *followups;
    size_t n_followups;
    struct lx_exercise *exercises;
    size_t n_exercises;
    struct lx_point *points; /* key points of the main question (interviews); may be none */
    size_t n_points;
    struct lx_misconception *mis; /* wrong claims the main question's answers are checked for */
    size_t n_mis;
    struct kv_phrases *glossary; /* lua/glossary.lua's groups, then the lesson's own */
    size_t n_glossary;
    const char **links; /* related lessons */
    size_t n_links;
    int *link_lines;       /* where each is written */
    const char **requires; /* lessons to take first; lint checks they exist and come earlier */
    size_t n_requires;
    int *require_lines;
    int id_line, module_title_line; /* where `id` and `module_title` are written (lint) */
    char hash[17];                  /* the hash of the bytes loaded, 16 hex digits (lx_brief.h) */
    struct lx_priv *priv;           /* the Lua state and the memory behind the strings */
};

/* Loads and validates one lesson file against the schema (lx_schema.h).
 * KVT_E_OK: *out is the lesson, the report empty. Otherwise *out is NULL
 * and the report says why: KVT_E_IO (the file or the DSL missing or
 * unreadable, too large), KVT_E_PARSE (a syntax or runtime error, a
 * deadline, a field missing, unknown or wrong, a limit passed), KVT_E_NOMEM
 * (the host ran out of memory). Never prints. */
enum kvt_err lx_load(const char *path, const struct lx_opts *opts, struct lx_lesson **out,
                     struct lx_report *report);

/* "Measure, then predict": figures from the learner's last probe run that an
 * exercise may name in `measured = "read_gbps"`. The host hands them in;
 * the expected(p) function finds the figure as p.read_gbps and the prompt
 * as {read_gbps}. name, what it is */
#define LX_FACTS(X)                                                                                \
    X(read_gbps, "the streaming read's median GB/s")                                               \
    X(peak_gbps, "the device's peak GB/s, from its memory clock and bus")                          \
    X(free_gib, "the free memory the probe saw, GiB")

struct lx_fact {
    const char *name;
    double value;
};

/* True when `name` is one of LX_FACTS. */
bool lx_fact_known(const char *name);

/* One parameter as drawn for an attempt. */
struct lx_drawn {
    char name[LX_MAX_PARAM_NAME + 1];
    char text[LX_MAX_PARAM_TEXT + 1]; /* as the prompt shows it: "8192", "qwen2.5-7b" */
    double num;                       /* the number; NAN for a text value */
};

/* One attempt at a numeric exercise: parameters drawn from `seed`, the
 * expected value computed, the prompt filled in. */
struct lx_draw {
    double value;                          /* in the exercise's unit */
    char prompt[LX_MAX_PROMPT + 1];        /* with {name} replaced by the drawn values */
    struct lx_drawn params[LX_MAX_PARAMS]; /* in name order; none without parameters */
    size_t n_params;
    char model[64];            /* the model drawn or named, for diagnosis; "" when none */
    char kv_dtype[16];         /* the KV dtype drawn or named; "" when none */
    struct kv_diag_model diag; /* what the diagnosis reasons with; .known false without a
                                  (non-MLA) preset model */
    /* The exercise's own worked arithmetic: with the drawn figures, the text
     * expected(p) returns beside the number (return value, worked); for a
     * fixed exercise, its `worked` field. "" when it has none, and then the
     * lesson's worked example stands in. The loader refuses worked lines
     * that never reach the expected value (lx_worked_reaches). */
    char worked[1024];
    /* slips(p) for this draw, by enum kv_slip; 0 where it names none (then
     * the exercise's fixed slips, if any, stand) */
    double slips[KV_SLIP__COUNT];
};

/* KVT_E_OK, or KVT_E_RANGE with why in err (the callback failed, ran past
 * its deadline, or gave something that is not a finite number; the prompt
 * did not fit once filled in; not a numeric exercise). A measured exercise
 * gives KVT_E_MISSING: lx_draw has no figures. */
enum kvt_err lx_draw(struct lx_lesson *l, size_t exercise, uint64_t seed, struct lx_draw *out,
                     char *err, size_t err_cap);

/* The same, with the learner's measured figures. An exercise whose figure
 * is not among them gives KVT_E_MISSING, err saying to run the probe. */
enum kvt_err lx_draw_measured(struct lx_lesson *l, size_t exercise, uint64_t seed,
                              const struct lx_fact *facts, size_t n_facts, struct lx_draw *out,
                              char *err, size_t err_cap);

/* Whether worked arithmetic shows the expected value: some figure written in
 * it ("57,344", "0.4375", "47.8%"; signs ignored) lies within `allowed` of
 * |value|. A check on the author, not on the learner, and a coarse one: it
 * catches lines that never come to the graded number (a slip, lines left
 * from another figure), not a figure that happens to equal it on the way
 * (an expected 2 is "reached" by a leading "2 ×"). */
bool lx_worked_reaches(const char *worked, double value, double allowed);

/* What an answer may be off by at this expected value: the tolerance, or
 * its fraction of |value| when relative. */
double lx_allowed(const struct lx_exercise *e, double value);

/* The drawn parameters as "model=qwen2.5-7b, seq=8192" ("" without any),
 * cut to fit cap; returns the length written. */
size_t lx_draw_params_text(const struct lx_draw *d, char *buf, size_t cap);

/* Grading one typed answer, the same way everywhere (the app, kvtutor ask). */
struct lx_grade {
    enum kv_verdict verdict;
    double score;                 /* 0..1 */
    struct kv_numeric spec;       /* numeric: what was asked, as graded */
    struct kv_numeric_result num; /* numeric: the reading, tolerance, diagnosis */
    int picked, correct_option;   /* choice: 0-based; -1 none */
    struct kv_text_result text;   /* free text and follow-ups: points covered */
    char why[200];                /* invalid: what could not be read */
};

/* Grades an answer to exercise `ex`; numeric exercises need the draw the
 * learner saw. The model and cache type for the diagnosis come from the
 * exercise (model, kv_dtype, diagnose) and its drawn parameters. */
void lx_grade(const struct lx_lesson *l, size_t ex, const struct lx_draw *draw, const char *typed,
              struct lx_grade *out);

/* Grades an answer to the lesson's main question on its key points. */
void lx_grade_question(const struct lx_lesson *l, const char *typed, struct lx_grade *out);

/* Grades an answer to follow-up `i` on its key points. */
void lx_grade_followup(const struct lx_lesson *l, size_t i, const char *typed,
                       struct lx_grade *out);

void lx_free(struct lx_lesson *l);

#endif
