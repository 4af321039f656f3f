#define _POSIX_C_SOURCE 200809L
/* The course catalogue (lx_course.h): course order, shadowing by id,
 * lookup that loads no more than it must, numbering within a module, and
 * prerequisites. Lessons are written to a fresh folder for each case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "lx_course.h"
#include "run_cmd.h"
#include "tmp_dir.h"

static char dir[64];
static struct lx_opts opts;

static int setup(void **state)
{
    (void)state;
    lx_default_opts(&opts);
    opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    return tmp_dir_make(dir, sizeof dir, "kvt-course");
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

struct spec {
    const char *file, *id, *title, *module, *requires; /* requires: "" or "{ \"a\" }" */
    const char *concept, *more; /* the concept ("c" when NULL); more fields, or NULL */
};

/* Writes each lesson and returns their paths in the order given. */
static char **write_course(const struct spec *s, size_t n)
{
    char **paths = calloc(n, sizeof *paths);
    assert_non_null(paths);
    for (size_t i = 0; i < n; i++) {
        char path[256];
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, s[i].file);
        assert_non_null(f = fopen(path, "w"));
        if (strcmp(s[i].id, "!broken") == 0) {
            fputs("return lesson {\n", f); /* a syntax error */
        } else {
            fprintf(f,
                    "return lesson {\n"
                    "  id = \"%s\", title = \"%s\", module = \"%s\", baseline = \"vLLM 0.11\",\n"
                    "  concept = \"%s\", question = \"Q?\", answer = \"A.\", %s\n"
                    "  sections = { section { title = \"T\", text = \"x\" } },\n"
                    "  worked = \"1 + 1 = 2\",\n"
                    "  followups = { followup { question = \"F?\", answer = \"G.\","
                    " points = { \"g\" } } },\n"
                    "  exercises = { numeric { id = \"two\", prompt = \"1 + 1?\", expected = 2,"
                    " unit = \"blocks\" } },\n"
                    "  %s%s%s\n"
                    "}\n",
                    s[i].id, s[i].title, s[i].module, s[i].concept ? s[i].concept : "c",
                    s[i].more ? s[i].more : "", s[i].requires[0] ? "requires = " : "",
                    s[i].requires, s[i].requires[0] ? "," : "");
        }
        fclose(f);
        assert_non_null(paths[i] = strdup(path));
    }
    return paths;
}

static void free_paths(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

static struct lx_course *load_all(char **paths, size_t n)
{
    struct lx_course *c = lx_course_new(paths, n, &opts);
    assert_non_null(c);
    for (size_t i = 0; i < n; i++)
        lx_course_load(c, i, NULL);
    return c;
}

/* The bundled course, then a learner's draft of lesson "b" (as --lessons
 * gives it: after the bundled files). */
static const struct spec course[] = {
    {"1.lua", "a", "Alpha", "m1", "", NULL, NULL},
    {"2.lua", "b", "Beta", "m1", "{ \"a\" }", NULL, NULL},
    {"3.lua", "c", "Gamma", "m2", "{ \"a\", \"b\" }", NULL, NULL},
    {"4.lua", "d", "Delta", "m1", "", NULL, NULL},
    {"5.lua", "!broken", "", "", "", NULL, NULL},
    {"6.lua", "b", "Beta, my draft", "m1", "", NULL, NULL},
};
#define N_COURSE (sizeof course / sizeof course[0])

static void test_order_and_shadowing(void **state)
{
    (void)state;
    char **paths = write_course(course, N_COURSE), ids[256];
    struct lx_course *c = load_all(paths, N_COURSE);
    size_t at = 99;

    assert_int_equal(lx_course_size(c), N_COURSE);
    assert_string_equal(lx_course_path(c, 2), paths[2]);
    /* the later file with id "b" shadows the earlier one */
    assert_true(lx_course_live(c, 0));
    assert_false(lx_course_live(c, 1));
    assert_true(lx_course_live(c, 5));
    assert_false(lx_course_live(c, 4)); /* it failed to load */
    assert_null(lx_course_at(c, 4));
    assert_string_equal(lx_course_find(c, "b", &at)->title, "Beta, my draft");
    assert_int_equal(at, 5);
    assert_null(lx_course_find(c, "zz", NULL));
    /* the live lessons, in course order, each once */
    lx_course_ids_text(c, ids, sizeof ids);
    assert_string_equal(ids, "a, c, d, b");
    assert_string_equal(lx_course_at(c, 2)->id, "c");
    lx_course_free(c);
    free_paths(paths, N_COURSE);
}

static void test_numbering(void **state)
{
    (void)state;
    char **paths = write_course(course, N_COURSE);
    struct lx_course *c = load_all(paths, N_COURSE);

    /* m1 counts a, d, then the draft of b (the shadowed b has no number);
     * m2 starts again at 1 */
    assert_int_equal(lx_course_number(c, 0), 1);
    assert_int_equal(lx_course_number(c, 1), 0);
    assert_int_equal(lx_course_number(c, 3), 2);
    assert_int_equal(lx_course_number(c, 5), 3);
    assert_int_equal(lx_course_number(c, 2), 1);
    assert_int_equal(lx_course_number(c, 4), 0);
    lx_course_free(c);
    free_paths(paths, N_COURSE);
}

/* The catalogue's answers follow each change to its slots: once the draft
 * of "b" is taken out, the bundled "b" is live again, found by its id and
 * numbered in its place (m1: a 1, b 2, d 3); put back, the draft shadows
 * it again. */
static void test_answers_follow_changes(void **state)
{
    (void)state;
    char **paths = write_course(course, N_COURSE);
    struct lx_course *c = load_all(paths, N_COURSE);
    struct lx_lesson *draft;
    size_t at = 99;

    assert_int_equal(lx_course_number(c, 3), 2);
    draft = lx_course_take(c, 5);
    assert_non_null(draft);
    assert_string_equal(lx_course_find(c, "b", &at)->title, "Beta");
    assert_int_equal(at, 1);
    assert_true(lx_course_live(c, 1));
    assert_int_equal(lx_course_number(c, 1), 2);
    assert_int_equal(lx_course_number(c, 3), 3);
    assert_int_equal(lx_course_number(c, 5), 0);
    lx_course_replace(c, 5, draft);
    assert_ptr_equal(lx_course_find(c, "b", &at), draft);
    assert_int_equal(at, 5);
    assert_false(lx_course_live(c, 1));
    assert_int_equal(lx_course_number(c, 3), 2);
    lx_course_free(c);
    free_paths(paths, N_COURSE);
}

static void test_prerequisites(void **state)
{
    (void)state;
    static const struct spec s[] = {
        {"1.lua", "a", "Alpha", "m1", "{ \"b\" }", NULL, NULL}, /* b comes later in m1 */
        {"2.lua", "b", "Beta", "m1", "{ \"nowhere\" }", NULL, NULL},
        {"3.lua", "c", "Gamma", "m2", "{ \"a\", \"nowhere\", \"b\" }", NULL, NULL},
        {"4.lua", "d", "Delta", "m2", "{ \"b\", \"c\", \"a\" }", NULL, NULL},
    };
    char **paths = write_course(s, 4), text[256];
    struct lx_course *c = load_all(paths, 4);
    size_t at = 99;

    assert_int_equal(lx_course_requirement(c, 0, 0, &at), LX_REQ_LATER);
    assert_int_equal(at, 1);
    assert_int_equal(lx_course_requirement(c, 1, 0, NULL), LX_REQ_MISSING);
    /* another module's lesson may come later: it is not met second on the map */
    assert_int_equal(lx_course_requirement(c, 2, 0, &at), LX_REQ_MET);
    assert_int_equal(at, 0);
    assert_int_equal(lx_course_requirement(c, 2, 5, NULL), LX_REQ_MISSING);
    /* titles where a lesson has the id, the id itself where none does */
    lx_course_requires_text(c, lx_course_at(c, 2), "Builds on: ", text, sizeof text);
    assert_string_equal(text, "Builds on: Alpha · nowhere · Beta");
    /* by number in the lesson's own module ("after 2"), across modules by
     * the module's name (no module_title: its id) and its numbers, the id
     * last where no lesson has it */
    lx_course_after_text(c, lx_course_at(c, 0), text, sizeof text);
    assert_string_equal(text, "after 2");
    lx_course_after_text(c, lx_course_at(c, 2), text, sizeof text);
    assert_string_equal(text, "after m1: 1,2; nowhere");
    /* its own module first, then the other's, smallest number first */
    lx_course_after_text(c, lx_course_at(c, 3), text, sizeof text);
    assert_string_equal(text, "after 1; m1: 1,2");
    lx_course_requires_text(c, lx_course_at(c, 1), "", text, 4); /* cut to fit */
    assert_string_equal(text, "now");
    lx_course_free(c);
    free_paths(paths, 4);
}

/* Another module's name on a row: its title up to " · ", or the whole
 * title when two modules' short titles read the same ("Part 1" twice). */
static void test_after_labels(void **state)
{
    (void)state;
    static const struct spec s[] = {
        {"1.lua", "a", "Alpha", "m0", "", NULL, "module_title = \"Part 0 \xc2\xb7 Base\","},
        {"2.lua", "b", "Beta", "m1", "", NULL, "module_title = \"Part 1 \xc2\xb7 Serving\","},
        {"3.lua", "c", "Gamma", "m2", "{ \"b\", \"a\" }", NULL,
         "module_title = \"Part 1 \xc2\xb7 Beyond\","},
    };
    char **paths = write_course(s, 3), text[256];
    struct lx_course *c = load_all(paths, 3);
    lx_course_after_text(c, lx_course_at(c, 2), text, sizeof text);
    assert_string_equal(text, "after Part 1 \xc2\xb7 Serving: 1; Part 0: 1");
    lx_course_free(c);
    free_paths(paths, 3);
}

static void test_lookup_runs_only_the_files_that_name_the_id(void **state)
{
    (void)state;
    char **paths = write_course(course, N_COURSE);
    struct lx_course *c = lx_course_new(paths, N_COURSE, &opts);
    struct lx_lesson *l;
    size_t at;

    /* the draft is the last file: found without loading the bundled ones */
    assert_non_null(lx_course_find(c, "b", &at));
    assert_int_equal(at, 5);
    for (size_t i = 0; i < 5; i++)
        assert_null(lx_course_at(c, i));
    /* "a" is the first file: the later ones are passed over unrun, their
     * text writing another id (or, the broken one, none) */
    assert_non_null(lx_course_find(c, "a", &at));
    assert_int_equal(at, 0);
    for (size_t i = 1; i < 5; i++)
        assert_false(lx_course_loaded(c, i));
    /* a failed file stays failed, and says so again */
    assert_int_not_equal(lx_course_load(c, 4, NULL), KVT_E_OK);
    assert_int_not_equal(lx_course_load(c, 4, NULL), KVT_E_OK);
    assert_int_equal(lx_course_load(c, 3, NULL), KVT_E_OK);
    /* take hands the lesson over; replace puts one back */
    l = lx_course_take(c, 0);
    assert_non_null(l);
    assert_null(lx_course_at(c, 0));
    assert_null(lx_course_find(c, "a", NULL));
    lx_course_replace(c, 0, l);
    assert_ptr_equal(lx_course_find(c, "a", NULL), l);
    lx_course_free(c);
    free_paths(paths, N_COURSE);
}

/* kvtutor ask through the catalogue: a --lessons folder's draft of a
 * bundled lesson is the one graded, as the app shows it. */
static void test_lessons_folder_shadows_bundled(void **state)
{
    (void)state;
    static const struct spec draft[] = {
        {"draft/kv.lua", "kv-cache", "My draft", "m1", "", NULL, NULL}};
    char sub[128], **paths;
    char *with[] = {
        (char *)run_kvtutor_path(), "ask", "kv-cache", "two", "2", "--lessons", sub, NULL};
    char *without[] = {(char *)run_kvtutor_path(), "ask", "kv-cache", "two", "2", NULL};
    /* no learner's folder between the bundled lessons and --lessons */
    char *env[] = {"XDG_DATA_HOME=/nonexistent-kvtutor-test", NULL};
    struct run_result r;

    snprintf(sub, sizeof sub, "%s/draft", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    paths = write_course(draft, 1);
    /* the draft's only exercise, "two" (1 + 1), answered right */
    assert_int_equal(run_cmd(with, env, &r), 0);
    if (r.status != 0 || !strstr(r.out, "kv-cache / two"))
        fail_msg("ask --lessons should grade the draft: exit %d: %s%s", r.status, r.out, r.err);
    run_free(&r);
    /* the bundled kv-cache has no exercise "two": ask lists what it has */
    assert_int_equal(run_cmd(without, env, &r), 0);
    if (r.status != 2 || !strstr(r.err, "\"two\"") || !strstr(r.err, "per-token"))
        fail_msg("the bundled lesson should be asked: exit %d: %s", r.status, r.err);
    run_free(&r);
    free_paths(paths, 1);
}

/* A concept is named by the first lesson testing it that names it, else
 * by the title of the first lesson testing it; unknown, it has no name. */
static void test_concept_names(void **state)
{
    (void)state;
    static const struct spec s[] = {
        {"1.lua", "a", "Alpha", "m1", "", "kv", NULL},
        {"2.lua", "b", "Beta", "m1", "", "kv", "concept_title = \"The KV cache budget\","},
        {"3.lua", "c", "Gamma", "m1", "", "kv", "concept_title = \"Another name\","},
        {"4.lua", "d", "Delta", "m2", "", "roofline", NULL},
        {"5.lua", "e", "Epsilon", "m2", "", "roofline", NULL},
    };
    char **paths = write_course(s, 5);
    struct lx_course *c = load_all(paths, 5);

    assert_string_equal(lx_course_concept_title(c, "kv"), "The KV cache budget");
    assert_string_equal(lx_course_concept_title(c, "roofline"), "Delta");
    assert_null(lx_course_concept_title(c, "gone"));
    assert_null(lx_course_concept_title(c, NULL));
    lx_course_free(c);
    free_paths(paths, 5);
}

/* An empty concept_title is refused by name, at its line. */
static void test_empty_concept_title(void **state)
{
    (void)state;
    static const struct spec s[] = {
        {"1.lua", "a", "Alpha", "m1", "", "kv", "concept_title = \"\","}};
    char **paths = write_course(s, 1);
    struct lx_course *c = lx_course_new(paths, 1, &opts);
    struct lx_report rep = {0};

    assert_non_null(c);
    assert_int_not_equal(lx_course_load(c, 0, &rep), KVT_E_OK);
    assert_true(rep.n > 0);
    assert_non_null(strstr(rep.items[0].msg, "concept_title is empty"));
    assert_int_equal(rep.items[0].line, 3); /* the line of the field, as write_course lays it out */
    lx_report_free(&rep);
    lx_course_free(c);
    free_paths(paths, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_shadowing),
        cmocka_unit_test(test_numbering),
        cmocka_unit_test(test_answers_follow_changes),
        cmocka_unit_test(test_prerequisites),
        cmocka_unit_test(test_after_labels),
        cmocka_unit_test(test_lookup_runs_only_the_files_that_name_the_id),
        cmocka_unit_test(test_lessons_folder_shadows_bundled),
        cmocka_unit_test(test_concept_names),
        cmocka_unit_test(test_empty_concept_title),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
