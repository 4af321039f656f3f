#define _POSIX_C_SOURCE 200809L
/* The lesson schema (lx_schema.h) from both sides: the loader and
 * `kvtutor lint` refuse the same unknown key and the same limit passed, with
 * the same words; a lesson at a limit loads. Also the draw as a struct (its
 * parameters, the diagnosis model, MISSING for a figure not measured), the
 * prompt template it fills, and the check that worked lines reach the value
 * graded against. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kvt_template.h"
#include "lx.h"
#include "run_cmd.h"
#include "tmp_dir.h"

static char dir[64];
static struct lx_opts opts;

static int setup(void **state)
{
    (void)state;
    lx_default_opts(&opts);
    opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    return tmp_dir_make(dir, sizeof dir, "kvt-schema");
}

static int teardown(void **state)
{
    (void)state;
    opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    return tmp_dir_remove(dir);
}

/* A lesson that passes, with `lesson_extra` among its fields and
 * `exercise` as its second exercise. */
static void write_lesson(const char *path, const char *lesson_extra, const char *exercise)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "return lesson {\n"
            "  id = \"schema\", title = \"T\", module = \"tests\", baseline = \"vLLM 0.11\",\n"
            "  concept = \"c\", question = \"Q?\", answer = \"A.\",\n"
            "  sections = { section { title = \"T\", text = \"x\" } },\n"
            "  worked = \"1 + 1 = 2\",\n"
            "  followups = { followup { question = \"F?\", answer = \"G.\", points = { \"g\" } } "
            "},\n"
            "  %s\n"
            "  exercises = {\n"
            "    numeric { id = \"two\", prompt = \"1 + 1?\", expected = 2, unit = \"blocks\" },\n"
            "    %s\n"
            "  },\n"
            "}\n",
            lesson_extra, exercise);
    fclose(f);
}

/* "k1 = {1}, k2 = {1}, ..." params, or "\"p1\", \"p2\"..." points, n of them. */
static char *list_of(const char *fmt, size_t n)
{
    size_t cap = n * 64 + 1, len = 0;
    char *s = calloc(1, cap);
    assert_non_null(s);
    for (size_t i = 1; i <= n; i++)
        len += (size_t)snprintf(s + len, cap - len, fmt, i == 1 ? "" : ", ", i);
    return s;
}

/* Loads `path`: returns the code, and the problems joined by '\n' in msgs. */
static enum kvt_err load(const char *path, char *msgs, size_t cap, struct lx_lesson **out)
{
    struct lx_report rep = {0};
    struct lx_lesson *l = NULL;
    enum kvt_err rc = lx_load(path, &opts, &l, &rep);
    size_t len = 0;
    msgs[0] = '\0';
    for (size_t i = 0; i < rep.n && len < cap; i++)
        len += (size_t)snprintf(msgs + len, cap - len, "%s\n", rep.items[i].msg);
    lx_report_free(&rep);
    if (out)
        *out = l;
    else
        lx_free(l);
    return rc;
}

static void test_loader_and_lint_refuse_alike(void **state)
{
    (void)state;
    char *points33 = list_of("%s\"point %zu\"", 33), *params17 = list_of("%sp%zu = {1}", 17),
         *options65 = list_of("%s\"option %zu\"", 65);
    char ex_points[4096], ex_params[4096], ex_options[4096];
    snprintf(ex_points, sizeof ex_points,
             "freetext { id = \"many\", prompt = \"Why?\", answer = \"A.\", points = { %s } },",
             points33);
    snprintf(ex_params, sizeof ex_params,
             "numeric { id = \"many\", prompt = \"?\", unit = \"blocks\", params = { %s },"
             " expected = function(p) return 1 end },",
             params17);
    snprintf(ex_options, sizeof ex_options,
             "choice { id = \"many\", prompt = \"?\", options = { option { \"right\", correct = "
             "true }, %s } },",
             options65);
    const struct {
        const char *name, *lesson_extra, *exercise, *says;
    } rows[] = {
        {"lesson-key", "colour = \"red\",", "", "lesson: unknown field 'colour'"},
        /* the keys are per kind: options belong to a choice, not a numeric */
        {"numeric-key", "",
         "numeric { id = \"n\", prompt = \"?\", unit = \"blocks\", expected = 1, options = {} },",
         "exercise 'n': unknown field 'options'"},
        {"choice-key", "",
         "choice { id = \"c\", prompt = \"?\", unit = \"GiB\", options = { option { \"a\", "
         "correct = true }, \"b\" } },",
         "exercise 'c': unknown field 'unit'"},
        {"option-key", "",
         "choice { id = \"c\", prompt = \"?\", options = { option { \"a\", correct = true, "
         "because = \"x\" }, \"b\" } },",
         "option: unknown field 'because'"},
        {"section-key", "sections = { section { title = \"T\", text = \"x\", body = \"y\" } },", "",
         "section: unknown field 'body'"},
        /* 33 points: kv_grade grades 32, the 33rd was never graded */
        {"points", "", ex_points, "exercise 'many': 33 key points; at most 32 are graded"},
        {"params", "", ex_params, "exercise 'many': 17 parameters; at most 16"},
        {"options", "", ex_options, "exercise 'many': 66 options; at most 64"},
        {"param-text", "",
         "numeric { id = \"t\", prompt = \"{m}?\", unit = \"blocks\", params = { m = "
         "{\"abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij\"} }, expected = "
         "function(p) return 1 end },",
         "parameter 'm': the value \"abcdefghij-abcdefghi...\" is longer than 47 characters"},
        /* 65 characters */
        {"long-id", "",
         "choice { id = \"abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij\","
         " prompt = \"?\", options = { option { \"a\", correct = true }, \"b\" } },",
         "ids are 1 to 64 lower-case letters"},
        {"param-name", "",
         "numeric { id = \"t\", prompt = \"?\", unit = \"blocks\", params = { "
         "abcdefghijabcdefghijabcdefghijab = {1} }, expected = function(p) return 1 end },",
         "parameter names are lower-case words of at most 31 characters"},
        /* slips: the keys KV_SLIPS names; a function only where there is a draw */
        {"slip-key", "",
         "numeric { id = \"s\", prompt = \"?\", unit = \"blocks\", expected = 4, slips = { "
         "halved = 2 } },",
         "exercise 's': slips takes total_params"},
        {"slip-fn", "",
         "numeric { id = \"s\", prompt = \"?\", unit = \"blocks\", expected = 4, slips = "
         "function(p) return {} end },",
         "exercise 's': slips(p) needs params"},
        {"slip-fn-key", "",
         "numeric { id = \"s\", prompt = \"{n}?\", unit = \"blocks\", params = { n = {4} }, "
         "expected = function(p) return p.n end, slips = function(p) return { halved = 2 } "
         "end },",
         "gave \"halved\", which is no slip"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char path[256], msgs[8192];
        char *argv[] = {(char *)run_kvtutor_path(), "lint", path, NULL};
        struct run_result r;
        snprintf(path, sizeof path, "%s/%s.lua", dir, rows[i].name);
        write_lesson(path, rows[i].lesson_extra, rows[i].exercise);
        if (load(path, msgs, sizeof msgs, NULL) != KVT_E_PARSE || !strstr(msgs, rows[i].says))
            fail_msg("%s: the loader should say \"%s\"; it said: %s", rows[i].name, rows[i].says,
                     msgs);
        assert_int_equal(run_cmd(argv, NULL, &r), 0);
        if (r.status != 1 || !strstr(r.err, rows[i].says))
            fail_msg("%s: lint should exit 1 saying \"%s\"; exit %d: %s", rows[i].name,
                     rows[i].says, r.status, r.err);
        run_free(&r);
    }
    free(points33);
    free(params17);
    free(options65);
}

static void test_at_the_limits_loads(void **state)
{
    (void)state;
    char *points32 = list_of("%s\"point %zu\"", 32), *params16 = list_of("%sp%zu = {1}", 16);
    char ex[8192], path[256], msgs[4096];
    struct lx_lesson *l;
    snprintf(ex, sizeof ex,
             "freetext { id = \"pts\", prompt = \"Why?\", answer = \"A.\", points = { %s } },\n"
             "numeric { id = \"prm\", prompt = \"{p16}?\", unit = \"blocks\", params = { %s },"
             " expected = function(p) return p.p1 + p.p16 end },",
             points32, params16);
    snprintf(path, sizeof path, "%s/limits.lua", dir);
    write_lesson(path, "", ex);
    if (load(path, msgs, sizeof msgs, &l) != KVT_E_OK)
        fail_msg("a lesson at the limits should load: %s", msgs);
    assert_int_equal(l->exercises[1].n_points, 32);
    assert_int_equal(l->exercises[2].n_params, 16);
    lx_free(l);
    free(points32);
    free(params16);
}

static void test_schema_table(void **state)
{
    (void)state;
    size_t n;
    const struct lx_limit *lim = lx_limits(&n);
    /* every key listed is allowed, and only for its kind */
    assert_true(lx_shape_allows(LX_SHAPE_NUMERIC, "params"));
    assert_false(lx_shape_allows(LX_SHAPE_CHOICE, "params"));
    assert_true(lx_shape_allows(LX_SHAPE_CHOICE, "options"));
    assert_true(lx_shape_allows(LX_SHAPE_FREETEXT, "points"));
    assert_true(lx_shape_allows(LX_SHAPE_POINT, "accept"));
    assert_false(lx_shape_allows(LX_SHAPE__COUNT, "id"));
    assert_int_equal(lx_shape_find("choice"), LX_SHAPE_CHOICE);
    assert_int_equal(lx_shape_find("range"), LX_SHAPE__COUNT);
    assert_true(lx_shape_info(LX_SHAPE_OPTION)->list_ok);
    for (int s = 0; s < LX_SHAPE__COUNT; s++)
        for (size_t k = 0; lx_shape_info(s)->keys[k]; k++)
            assert_true(lx_shape_allows(s, lx_shape_info(s)->keys[k]));
    assert_true(n >= 3);
    assert_string_equal(lim[0].name, "POINTS");
    assert_int_equal(lim[0].max, KV_MAX_POINTS);
}

static void test_draw_is_a_struct(void **state)
{
    (void)state;
    char path[256], msgs[4096], err[300], text[200];
    struct lx_lesson *l;
    struct lx_draw d;
    snprintf(path, sizeof path, "%s/draw.lua", dir);
    write_lesson(path, "",
                 "numeric { id = \"kv\", prompt = \"{model} at {seq} tokens?\", unit = \"blocks\","
                 " params = { seq = {8192}, model = {\"qwen2.5-7b\"}, ratio = {0.5} },"
                 " expected = function(p) return p.seq * p.ratio end },\n"
                 "numeric { id = \"bw\", prompt = \"At {read_gbps} GB/s?\", unit = \"blocks\","
                 " measured = \"read_gbps\", expected = function(p) return p.read_gbps end },");
    if (load(path, msgs, sizeof msgs, &l) != KVT_E_OK)
        fail_msg("draw.lua should load: %s", msgs);
    assert_int_equal(lx_draw(l, 1, 7, &d, err, sizeof err), KVT_E_OK);
    /* 8192 x 0.5 */
    assert_true(d.value == 4096);
    /* a drawn count reads grouped in the prompt; its text stays as drawn */
    assert_string_equal(d.prompt, "qwen2.5-7b at 8,192 tokens?");
    /* in name order, each with its text and number */
    assert_int_equal(d.n_params, 3);
    assert_string_equal(d.params[0].name, "model");
    assert_string_equal(d.params[0].text, "qwen2.5-7b");
    assert_true(isnan(d.params[0].num));
    assert_string_equal(d.params[1].name, "ratio");
    assert_string_equal(d.params[1].text, "0.5");
    assert_true(d.params[1].num == 0.5);
    assert_string_equal(d.params[2].text, "8192");
    lx_draw_params_text(&d, text, sizeof text);
    assert_string_equal(text, "model=qwen2.5-7b, ratio=0.5, seq=8192");
    /* Qwen2.5-7B: 28 layers, 28 query heads, 4 KV heads, bf16 cache (its config.json) */
    assert_true(d.diag.known);
    assert_int_equal(d.diag.layers, 28);
    assert_int_equal(d.diag.heads, 28);
    assert_int_equal(d.diag.kv_heads, 4);
    assert_int_equal(d.diag.kv_bytes, 2);
    /* a measured exercise without the figure is MISSING, as lx.h promises */
    assert_int_equal(lx_draw(l, 2, 1, &d, err, sizeof err), KVT_E_MISSING);
    assert_non_null(strstr(err, "run the probe"));
    {
        struct lx_fact f = {"read_gbps", 18.25};
        assert_int_equal(lx_draw_measured(l, 2, 1, &f, 1, &d, err, sizeof err), KVT_E_OK);
        assert_string_equal(d.prompt, "At 18.2 GB/s?"); /* one decimal, as the probe shows */
        assert_true(d.value == 18.25);
    }
    /* slips(p): the draw's own figure for a slip, which the grade names */
    {
        struct lx_lesson *s;
        struct lx_grade g;
        snprintf(path, sizeof path, "%s/slips.lua", dir);
        write_lesson(path, "",
                     "numeric { id = \"st\", prompt = \"{n} steps?\", unit = \"steps\","
                     " params = { n = {10} }, expected = function(p) return p.n end,"
                     " slips = function(p) return { decodes_left_out = p.n - 2 } end },");
        if (load(path, msgs, sizeof msgs, &s) != KVT_E_OK)
            fail_msg("slips.lua should load: %s", msgs);
        assert_int_equal(lx_draw(s, 1, 1, &d, err, sizeof err), KVT_E_OK);
        assert_true(d.slips[KV_SLIP_DECODES_LEFT_OUT] == 8); /* 10 - 2 */
        lx_grade(s, 1, &d, "8 steps", &g);
        assert_int_equal(g.verdict, KV_WRONG);
        assert_int_equal(g.num.mistake, KV_MISTAKE_DECODES_LEFT_OUT);
        lx_free(s);
    }
    /* a fixed expected value is drawn without parameters */
    assert_int_equal(lx_draw(l, 0, 1, &d, err, sizeof err), KVT_E_OK);
    assert_true(d.value == 2);
    assert_int_equal(d.n_params, 0);
    lx_free(l);
}

static void test_template(void **state)
{
    (void)state;
    static const struct kvt_var vars[] = {{"a", "1"}, {"bb", "22"}, {"a", "shadowed"}};
    static const struct {
        const char *tmpl, *want;
        size_t cap;
        bool fits;
    } rows[] = {
        {"{a} and {bb}", "1 and 22", 64, true},
        {"{c} {} {a", "{c} {} {a", 64, true}, /* not a var, empty, unclosed: kept */
        {"{{a}}", "{1}", 64, true},
        {"x{bb}y", "x2", 3, false}, /* cut to cap - 1 bytes */
        {"", "", 1, true},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char out[64];
        assert_int_equal(kvt_template_fill(rows[i].tmpl, vars, 3, out, rows[i].cap), rows[i].fits);
        assert_string_equal(out, rows[i].want);
    }
    {
        const char *name, *at;
        size_t len;
        at = kvt_template_next("x {} {toolongname} {ok}", 8, &name, &len);
        assert_non_null(at);
        assert_int_equal(len, 2);
        assert_memory_equal(name, "ok", 2);
        assert_null(kvt_template_next(at + 1, 8, &name, &len));
    }
}

/* lx_worked_reaches reads figures as the course writes them. Each case's
 * figure and tolerance are in its comment. */
static void test_worked_reaches(void **state)
{
    (void)state;
    /* "57,344" is one figure, 57,344 */
    assert_true(lx_worked_reaches("2 × 28 × 4 × 128 × 2 = 57,344 B", 57344, 0));
    /* 28,672 (K alone) is half of it: 28,672 off, past 1% of 57,344 = 573 */
    assert_false(lx_worked_reaches("28 × 4 × 128 × 2 = 28,672 B", 57344, 573.44));
    /* "0.44" is within 2% of 0.4375 (0.00875): off by 0.0025 */
    assert_true(lx_worked_reaches("448 MiB = 0.44 GiB", 0.4375, 0.00875));
    /* ".5" is a figure; "28, 4" is two (28 and 4), not 284 */
    assert_true(lx_worked_reaches("x = .5", 0.5, 0));
    assert_false(lx_worked_reaches("heads 28, 4", 284, 0.5));
    assert_true(lx_worked_reaches("heads 28, 4", 4, 0));
    /* "1,0" is 1 then 0: a comma groups three digits only */
    assert_false(lx_worked_reaches("1,0", 10, 0.1));
    /* "1,234,567.5" is one figure; the sign is not read: "−3" reaches 3 */
    assert_true(lx_worked_reaches("total 1,234,567.5 B", 1234567.5, 0));
    assert_true(lx_worked_reaches("change −3 %", -3, 0));
    /* a percentage: 47.8% for 47.8 */
    assert_true(lx_worked_reaches("use 47.8%", 47.8, 0.1));
    /* no figure at all */
    assert_false(lx_worked_reaches("see the lesson", 1, 0.5));
    assert_false(lx_worked_reaches("", 1, 0.5));
}

/* How many misconception { ... } entries the course file has: counted from
 * its text, not from the loader under test. */
static size_t course_misconceptions(void)
{
    FILE *f = fopen(KVT_SOURCE_DIR "/lua/misconceptions.lua", "r");
    char line[4096];
    size_t n = 0;
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        n += strstr(line, "misconception {") != NULL &&
             strncmp(line + strspn(line, " "), "--", 2) != 0;
    fclose(f);
    return n;
}

/* lua/misconceptions.lua reaches every question in words (the lesson's,
 * each follow-up, each free-text exercise) after the question's own, and
 * no numeric one; a DSL folder without the file refuses to load, by name. */
static void test_course_misconceptions_follow_each_question(void **state)
{
    (void)state;
    char path[128], msgs[2048], dsl[160], cmd[512];
    struct lx_lesson *l = NULL;
    size_t n = course_misconceptions();
    assert_true(n >= 1 && n <= LX_MAX_COURSE_MISCONCEPTIONS);
    snprintf(path, sizeof path, "%s/course.lua", dir);
    write_lesson(
        path, "",
        "freetext { id = \"why\", prompt = \"Why?\", answer = \"A.\", points = { \"a\" },"
        " misconceptions = { misconception { about = {\"x\"}, said = {\"y\"}, why = \"z\" }"
        " } },");
    assert_int_equal(load(path, msgs, sizeof msgs, &l), KVT_E_OK);
    assert_int_equal(l->n_mis, n);
    assert_int_equal(l->followups[0].n_mis, n);
    assert_true(l->followups[0].mis[0].course);
    assert_int_equal(l->exercises[0].n_mis, 0); /* numeric */
    assert_int_equal(l->exercises[1].n_mis, 1 + n);
    assert_false(l->exercises[1].mis[0].course);
    assert_string_equal(l->exercises[1].mis[0].why, "z");
    for (size_t i = 1; i <= n; i++)
        assert_true(l->exercises[1].mis[i].course);
    lx_free(l);

    /* the DSL and glossary alone, without the course's misconceptions */
    snprintf(dsl, sizeof dsl, "%s/lua", dir);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && cp '%s/lua/kvtutor.lua' '%s/lua/glossary.lua' '%s/'", dsl,
             KVT_SOURCE_DIR, KVT_SOURCE_DIR, dsl);
    assert_int_equal(system(cmd), 0);
    snprintf(dsl, sizeof dsl, "%s/lua/kvtutor.lua", dir);
    opts.dsl = dsl;
    assert_int_not_equal(load(path, msgs, sizeof msgs, NULL), KVT_E_OK);
    assert_non_null(strstr(msgs, "lua/misconceptions.lua"));
    /* one that returns nothing, or an entry without what it says: refused once, by name */
    static const char *const broken[][2] = {
        {"return nil\n", "must return a list"},
        {"return { misconception { about = {\"x\"}, why = \"z\" } }\n",
         "misconception 1 needs 'said' phrasings"},
    };
    for (size_t b = 0; b < sizeof broken / sizeof broken[0]; b++) {
        char file[200];
        FILE *f;
        snprintf(file, sizeof file, "%s/lua/misconceptions.lua", dir);
        f = fopen(file, "w");
        assert_non_null(f);
        fputs(broken[b][0], f);
        fclose(f);
        assert_int_not_equal(load(path, msgs, sizeof msgs, NULL), KVT_E_OK);
        if (!strstr(msgs, "lua/misconceptions.lua") || !strstr(msgs, broken[b][1]))
            fail_msg("%s: %s", broken[b][1], msgs);
        assert_ptr_equal(strchr(msgs, '\n'), msgs + strlen(msgs) - 1); /* one line */
    }
    opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
}

/* The course files are compiled once a process (lx_compiled.c) and every
 * later sandbox loads that: a message from inside them still names their
 * line, and a file rewritten to other bytes of the same length is run as
 * it now reads, not as it was compiled. */
static void test_course_files_compiled_once(void **state)
{
    char dsl[160], cmd[700], file[200], msgs[2048], path[200];
    static const char *const texts[] = {"local x = 1\nerror(\"boom\")\n",
                                        "local y = 1\nerror(\"bang\")\n"};
    (void)state;
    snprintf(path, sizeof path, "%s/compiled.lua", dir);
    write_lesson(path, "", "");
    snprintf(dsl, sizeof dsl, "%s/lua2", dir);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && cp '%s/lua/kvtutor.lua' '%s/lua/glossary.lua' '%s/'", dsl,
             KVT_SOURCE_DIR, KVT_SOURCE_DIR, dsl);
    assert_int_equal(system(cmd), 0);
    snprintf(file, sizeof file, "%s/misconceptions.lua", dsl);
    snprintf(dsl, sizeof dsl, "%s/lua2/kvtutor.lua", dir);
    opts.dsl = dsl;
    for (size_t t = 0; t < 2; t++) {
        FILE *f = fopen(file, "w");
        assert_non_null(f);
        fputs(texts[t], f);
        fclose(f);
        for (int again = 0; again < 2; again++) { /* compiled, then from the cache */
            assert_int_not_equal(load(path, msgs, sizeof msgs, NULL), KVT_E_OK);
            if (!strstr(msgs, "lua/misconceptions.lua:2:") ||
                !strstr(msgs, t == 0 ? "boom" : "bang"))
                fail_msg("text %zu, load %d: %s", t, again + 1, msgs);
        }
    }
    /* the course's own files again: every lesson loads as before */
    opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    assert_int_equal(load(path, msgs, sizeof msgs, NULL), KVT_E_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loader_and_lint_refuse_alike),
        cmocka_unit_test(test_at_the_limits_loads),
        cmocka_unit_test(test_schema_table),
        cmocka_unit_test(test_draw_is_a_struct),
        cmocka_unit_test(test_template),
        cmocka_unit_test(test_worked_reaches),
        cmocka_unit_test(test_course_misconceptions_follow_each_question),
        cmocka_unit_test(test_course_files_compiled_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
