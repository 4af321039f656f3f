/* `kvtutor lint --answers FILE.tsv`: a rubric test for instructors. Every
 * row of an answer table (lesson, item, expected verdict, answer) is graded
 * the way `kvtutor ask` grades it, through a one-item session
 * (tutor_session_one), so the table measures the grader the learner meets,
 * not a copy of it. Per item it prints the false credits (a wrong answer
 * graded correct), the false refusals (a correct answer graded wrong) and
 * the unsure verdicts, then every row that missed and the totals. Exit 0
 * when every row got its verdict, 1 on any mismatch or a malformed table
 * ("FILE:LINE: error: ..." on stderr, nothing graded), 2 for a usage
 * error. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_args.h"
#include "cli_json.h"
#include "cli_lessons.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kvt_text.h"
#include "lx_course.h"
#include "tutor_item.h"
#include "tutor_session.h"

#define TABLE_MAX (16u << 20) /* bytes: a table past this is refused */
#define SHOWN     200         /* characters of a missed answer printed */

/* How an answer came out against what the table expects of it. */
enum outcome { O_MATCH, O_CREDIT, O_REFUSAL, O_UNSURE, O_UNREAD, O__N };

struct row {
    int line;
    const char *lesson, *item, *answer;
    bool want_correct;
    struct lx_lesson *l;
    struct tutor_item it;
    enum kv_verdict got;
    enum outcome out;
};

struct item_tally {
    const char *lesson, *item;
    size_t rows, n[O__N];
};

static int usage(FILE *out)
{
    fputs("usage: kvtutor lint --answers FILE.tsv [--json] [--lessons PATH]\n\n"
          "Grades every row of an answer table as `kvtutor ask` would and says where the\n"
          "rubric and the table disagree. The table is tab-separated, '#' lines are\n"
          "comments, and its first other line names the columns; it needs lesson, item,\n"
          "expected (correct or wrong) and answer, in any order (others are ignored).\n"
          "Per item: rows, false credits (a wrong answer graded correct), false refusals\n"
          "(a correct answer graded wrong), unsure verdicts and answers not read; then\n"
          "each row that missed, FILE:LINE first, and the totals. Exit 0 when every row\n"
          "got its verdict, 1 on any mismatch or a malformed row (FILE:LINE: error: ...),\n"
          "2 for a usage error.\n",
          out);
    return out == stdout ? 0 : 2;
}

static void row_error(const char *file, int line, const char *fmt, const char *what)
{
    char msg[600], safe[260];
    snprintf(msg, sizeof msg, fmt, what ? what : "");
    kvt_sanitize(msg, strlen(msg), safe, sizeof safe, 0);
    if (line > 0)
        fprintf(stderr, "%s:%d: error: %s\n", file, line, safe);
    else
        fprintf(stderr, "%s: error: %s\n", file, safe);
}

static char *read_all(const char *path, char *why, size_t cap)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    if (!f) {
        snprintf(why, cap, "cannot be read: %s", strerror(errno));
        return NULL;
    }
    buf = malloc(TABLE_MAX + 1);
    if (!buf) {
        fclose(f);
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    n = fread(buf, 1, TABLE_MAX + 1, f);
    fclose(f);
    if (n > TABLE_MAX) {
        free(buf);
        snprintf(why, cap, "over %u MiB: split the table", TABLE_MAX >> 20);
        return NULL;
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n)) {
        free(buf);
        snprintf(why, cap, "holds a NUL byte: not a text table");
        return NULL;
    }
    return buf;
}

/* Cuts a line at its tabs, in place; returns the number of cells (at most
 * cap; more is reported as cap + 1). */
static size_t cells(char *line, char **out, size_t cap)
{
    size_t n = 0;
    for (char *p = line;; p++) {
        char *tab = strchr(p, '\t');
        if (n == cap)
            return cap + 1;
        out[n++] = p;
        if (!tab)
            return n;
        *tab = '\0';
        p = tab;
    }
}

#define MAX_COLS 16
enum { C_LESSON, C_ITEM, C_EXPECTED, C_ANSWER, C__N };
static const char *const col_names[C__N] = {"lesson", "item", "expected", "answer"};

/* Reads the rows; every malformed row is reported. Returns the number of
 * problems (0: rows and *n_rows are the table). */
static size_t parse_table(char *text, const char *file, struct lx_course *course, struct row *rows,
                          size_t cap, size_t *n_rows)
{
    int col[C__N], line = 0, ncols = 0;
    size_t bad = 0, n = 0;
    bool header = false;
    char *next;

    for (char *p = text; p; p = next) {
        char *c[MAX_COLS + 1];
        size_t k, len;
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        line++;
        len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[--len] = '\0';
        if (len == 0 || p[0] == '#')
            continue;
        k = cells(p, c, MAX_COLS);
        if (!header) {
            for (int i = 0; i < C__N; i++) {
                col[i] = -1;
                for (size_t j = 0; j < k && j < MAX_COLS; j++)
                    if (strcmp(c[j], col_names[i]) == 0)
                        col[i] = (int)j;
                if (col[i] < 0) {
                    row_error(file, line,
                              "the header names no \"%s\" column (it needs lesson, item, "
                              "expected and answer, tab-separated)",
                              col_names[i]);
                    return bad + 1;
                }
            }
            ncols = (int)k;
            header = true;
            continue;
        }
        if ((int)k != ncols) {
            char what[64];
            snprintf(what, sizeof what, "%zu", k > MAX_COLS ? (size_t)MAX_COLS + 1 : k);
            row_error(file, line,
                      "%s cells where the header has more or fewer: one row a line, "
                      "cells separated by tabs",
                      what);
            bad++;
            continue;
        }
        if (n == cap) {
            row_error(file, line, "more rows than the %s a table may have", "100,000");
            return bad + 1;
        }
        struct row *r = &rows[n];
        *r = (struct row){.line = line,
                          .lesson = c[col[C_LESSON]],
                          .item = c[col[C_ITEM]],
                          .answer = c[col[C_ANSWER]]};
        const char *want = c[col[C_EXPECTED]];
        if (strcmp(want, "correct") == 0) {
            r->want_correct = true;
        } else if (strcmp(want, "wrong") != 0) {
            row_error(file, line, "expected verdict \"%s\": write correct or wrong", want);
            bad++;
            continue;
        }
        if (!r->answer[0]) {
            row_error(file, line, "the answer is empty%s", NULL);
            bad++;
            continue;
        }
        r->l = lx_course_find(course, r->lesson, NULL);
        if (!r->l) {
            row_error(file, line, "no lesson \"%s\" in the course", r->lesson);
            bad++;
            continue;
        }
        if (!tutor_item_parse(r->l, r->item, &r->it)) {
            char what[300];
            snprintf(what, sizeof what, "%s has no item \"%s\" (kvtutor ask --list names them)",
                     r->lesson, r->item);
            row_error(file, line, "%s", what);
            bad++;
            continue;
        }
        n++;
    }
    if (!header) {
        row_error(file, 0, "no header line (lesson, item, expected, answer)%s", NULL);
        bad++;
    }
    *n_rows = n;
    return bad;
}

/* One row graded as `kvtutor ask` grades it: a one-item session with no
 * database, parametric exercises drawn from seed 1. */
static int grade_row(struct row *r)
{
    struct tutor_env env = {.facts_given = true, .fixed_seed = true, .seed = 1};
    struct tutor_session *s = tutor_session_one(&env, r->l, r->it);
    struct store_error serr;
    char why[300];
    if (!s)
        return -1;
    if (tutor_begin(s, why, sizeof why) != KVT_E_OK) {
        r->got = KV_INVALID;
    } else {
        tutor_answer(s, r->answer, &serr);
        r->got = tutor_attempt(s)->grade.verdict;
    }
    tutor_session_free(s);
    if (r->got == KV_INVALID)
        r->out = O_UNREAD;
    else if (r->got == KV_UNSURE)
        r->out = O_UNSURE;
    else if ((r->got == KV_CORRECT) == r->want_correct)
        r->out = O_MATCH;
    else
        r->out = r->want_correct ? O_REFUSAL : O_CREDIT;
    return 0;
}

static struct item_tally *tally_of(struct item_tally *t, size_t *n, const struct row *r)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(t[i].lesson, r->lesson) == 0 && strcmp(t[i].item, r->item) == 0)
            return &t[i];
    t[*n] = (struct item_tally){.lesson = r->lesson, .item = r->item};
    return &t[(*n)++];
}

/* The totals: of the answers expected correct and of those expected wrong,
 * how many were graded correct, wrong, unsure, or not read. */
struct totals {
    size_t rows, want[2];         /* [0] expected wrong, [1] expected correct */
    size_t got[2][KV_UNSURE + 1]; /* [expected correct][verdict] */
    double cpu_ms;                /* CPU time the grading took, sessions included */
};

static void print_human(const char *file, const struct row *rows, size_t n,
                        const struct item_tally *t, size_t n_items, const struct totals *tot)
{
    char safe[SHOWN + 8];
    printf("%s: %zu rows, %zu items\n", file, n, n_items);
    for (size_t i = 0; i < n_items; i++) {
        char id[200];
        snprintf(id, sizeof id, "%s/%s", t[i].lesson, t[i].item);
        kvt_sanitize(id, strlen(id), safe, sizeof safe, 0);
        printf("  %-40s %3zu row%s: %zu false credit%s, %zu false refusal%s, %zu unsure", safe,
               t[i].rows, t[i].rows == 1 ? "" : "s", t[i].n[O_CREDIT],
               t[i].n[O_CREDIT] == 1 ? "" : "s", t[i].n[O_REFUSAL],
               t[i].n[O_REFUSAL] == 1 ? "" : "s", t[i].n[O_UNSURE]);
        if (t[i].n[O_UNREAD])
            printf(", %zu not read", t[i].n[O_UNREAD]);
        putchar('\n');
    }
    for (size_t i = 0; i < n; i++) {
        static const char *const what[O__N] = {"", "false credit", "false refusal", "unsure",
                                               "not read"};
        if (rows[i].out == O_MATCH)
            continue;
        kvt_sanitize(rows[i].answer, strlen(rows[i].answer), safe, SHOWN + 1, 0);
        printf("%s:%d: %s (expected %s, graded %s): %s/%s: %s\n", file, rows[i].line,
               what[rows[i].out], rows[i].want_correct ? "correct" : "wrong",
               tutor_verdict_name(rows[i].got), rows[i].lesson, rows[i].item, safe);
    }
    printf("Expected correct: %zu rows: graded correct %zu, wrong %zu, unsure %zu, not read %zu\n",
           tot->want[1], tot->got[1][KV_CORRECT], tot->got[1][KV_WRONG], tot->got[1][KV_UNSURE],
           tot->got[1][KV_INVALID]);
    printf("Expected wrong: %zu rows: graded correct %zu, wrong %zu, unsure %zu, not read %zu\n",
           tot->want[0], tot->got[0][KV_CORRECT], tot->got[0][KV_WRONG], tot->got[0][KV_UNSURE],
           tot->got[0][KV_INVALID]);
    if (tot->rows)
        printf("Grading: %.3f ms of CPU an answer (%zu answers, %.1f ms)\n",
               tot->cpu_ms / (double)tot->rows, tot->rows, tot->cpu_ms);
}

static json_t *verdicts_json(const size_t *got, size_t want)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I}", "rows", (json_int_t)want, "correct",
                     (json_int_t)got[KV_CORRECT], "wrong", (json_int_t)got[KV_WRONG], "unsure",
                     (json_int_t)got[KV_UNSURE], "invalid", (json_int_t)got[KV_INVALID]);
}

static void print_json(const char *file, const struct row *rows, size_t n,
                       const struct item_tally *t, size_t n_items, const struct totals *tot)
{
    json_t *items = json_array(), *missed = json_array(), *j;
    char safe[1024];
    for (size_t i = 0; i < n_items; i++)
        json_array_append_new(
            items, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I}", "lesson", t[i].lesson, "item",
                             t[i].item, "rows", (json_int_t)t[i].rows, "false_credits",
                             (json_int_t)t[i].n[O_CREDIT], "false_refusals",
                             (json_int_t)t[i].n[O_REFUSAL], "unsure", (json_int_t)t[i].n[O_UNSURE],
                             "not_read", (json_int_t)t[i].n[O_UNREAD]));
    for (size_t i = 0; i < n; i++) {
        if (rows[i].out == O_MATCH)
            continue;
        kvt_sanitize(rows[i].answer, strlen(rows[i].answer), safe, sizeof safe, 0);
        json_array_append_new(missed,
                              json_pack("{s:i, s:s, s:s, s:s, s:s, s:s}", "line", rows[i].line,
                                        "lesson", rows[i].lesson, "item", rows[i].item, "expected",
                                        rows[i].want_correct ? "correct" : "wrong", "verdict",
                                        tutor_verdict_name(rows[i].got), "answer", safe));
    }
    kvt_sanitize(file, strlen(file), safe, sizeof safe, 0);
    j = json_pack("{s:s, s:I, s:f, s:o, s:o, s:o, s:o}", "file", safe, "rows",
                  (json_int_t)tot->rows, "cpu_ms_per_answer",
                  tot->rows ? tot->cpu_ms / (double)tot->rows : 0.0, "expected_correct",
                  verdicts_json(tot->got[1], tot->want[1]), "expected_wrong",
                  verdicts_json(tot->got[0], tot->want[0]), "items", items, "missed", missed);
    cli_json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(j);
}

int cli_lint_answers(int argc, char **argv)
{
    enum { F_ANSWERS, F_JSON };
    static const struct cli_flag flags[] = {
        [F_ANSWERS] = {"--answers", NULL, "FILE", .kind = CLI_STR},
        [F_JSON] = {"--json", NULL, NULL, .kind = CLI_SWITCH},
    };
    static const struct cli_spec spec = {
        .cmd = "lint", .flags = flags, .nflags = 2, .globals = CLI_G_LESSONS, .max_pos = 0};
    struct cli_args a;
    struct lx_opts opts;
    struct lx_course *course = NULL;
    struct row *rows = NULL;
    struct item_tally *tally = NULL;
    struct totals tot = {0};
    char data[4096], dsl[CLI_DSL_CAP], why[200], *text = NULL;
    const char *file;
    size_t n = 0, n_items = 0, mismatches = 0, cap;
    int rc;

    for (int i = 0; i < argc; i++) /* "--answers --help" asks for help, not a file */
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return usage(stdout);
    if ((rc = cli_parse(&spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help)
        return usage(stdout);
    if (!a.given[F_ANSWERS])
        return cli_usage_error("lint", "--answers FILE.tsv names the answer table");
    file = a.text[F_ANSWERS];
    if (cli_lx_opts("lint", &opts, dsl, data, sizeof data) != 0)
        return 2;
    if (!(text = read_all(file, why, sizeof why))) {
        row_error(file, 0, "%s", why);
        return 1;
    }
    cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    cap = cap > 100000 ? 100000 : cap;
    course = cli_course(a.lessons, data, &opts);
    rows = calloc(cap, sizeof *rows);
    tally = calloc(cap, sizeof *tally);
    if (!course || !rows || !tally) {
        fputs("kvtutor lint: out of memory\n", stderr);
        rc = 1;
        goto done;
    }
    if (parse_table(text, file, course, rows, cap, &n) != 0) {
        rc = 1;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        struct item_tally *t;
        clock_t t0 = clock();
        int g = grade_row(&rows[i]);
        tot.cpu_ms += (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
        if (g != 0) {
            fputs("kvtutor lint: out of memory\n", stderr);
            rc = 1;
            goto done;
        }
        t = tally_of(tally, &n_items, &rows[i]);
        t->rows++;
        t->n[rows[i].out]++;
        tot.rows++;
        tot.want[rows[i].want_correct]++;
        tot.got[rows[i].want_correct][rows[i].got]++;
        mismatches += rows[i].out != O_MATCH;
    }
    if (a.given[F_JSON])
        print_json(file, rows, n, tally, n_items, &tot);
    else
        print_human(file, rows, n, tally, n_items, &tot);
    rc = mismatches ? 1 : 0;
done:
    lx_course_free(course);
    free(rows);
    free(tally);
    free(text);
    return rc;
}
