/* test_lesson_brief.c: the course opened from the briefs kept in the
 * progress database says what the course opened by loading every file says:
 * the same live lessons, numbers, prerequisites, item counts, due and done
 * figures, and the same schedules restarted. A brief holds only while its
 * file's bytes and the program are the same; a shadowed lesson stays
 * shadowed; a file that fails to load is loaded (and fails) at every start.
 *
 * The course: the 15 bundled lessons, then a drafts folder with a draft of
 * memory-bound-decode (shadowing the bundled one), "extra" (a copy of
 * paged-attention under another id and module) and a file that does not
 * load. */
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
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "lx_brief.h"
#include "store_brief.h"
#include "store_report.h"
#include "tmp_dir.h"
#include "tutor_course.h"
#include "tutor_done.h"
#include "tutor_queue.h"
#include "tutor_sync.h"

#define BUNDLED KVT_SOURCE_DIR "/lessons/part0-foundations"
#define DAY     86400

static char dir[64], db[128], draft[128], extra[128], broken[128];
static char *paths[32];
static size_t n_paths;
static struct lx_opts opts;
static int64_t now;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(1 << 20);
    size_t n = f && buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    if (f)
        fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* text with the first `from` replaced by `to` */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    char *out = malloc(strlen(text) + strlen(to) + 1);
    assert_non_null(at);
    memcpy(out, text, (size_t)(at - text));
    strcpy(out + (at - text), to);
    strcat(out, at + strlen(from));
    return out;
}

static int setup(void **state)
{
    struct dirent **ents;
    int n;
    char *src, *a, *b;
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_brief_") != 0)
        return -1;
    snprintf(db, sizeof db, "%s/progress.db", dir);
    snprintf(draft, sizeof draft, "%s/02-draft.lua", dir);
    snprintf(extra, sizeof extra, "%s/03-extra.lua", dir);
    snprintf(broken, sizeof broken, "%s/04-broken.lua", dir);
    n = scandir(BUNDLED, &ents, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        char p[512];
        if (strstr(ents[i]->d_name, ".lua")) {
            snprintf(p, sizeof p, "%s/%s", BUNDLED, ents[i]->d_name);
            paths[n_paths++] = strdup(p);
        }
        free(ents[i]);
    }
    free(ents);
    /* the draft: memory-bound-decode under a new title */
    src = slurp(BUNDLED "/02-memory-bound-decode.lua");
    a = replace(src, "title = \"", "title = \"Draft: ");
    spit(draft, a);
    free(src), free(a);
    /* extra: paged-attention as lesson "extra" of module "more" */
    src = slurp(BUNDLED "/04-paged-attention.lua");
    a = replace(src, "id = \"paged-attention\"", "id = \"extra\"");
    b = replace(a, "module = \"part0-foundations\"", "module = \"more\"");
    spit(extra, b);
    free(src), free(a), free(b);
    spit(broken, "return lesson {\n  id = \"broken\",\n");
    paths[n_paths++] = strdup(draft);
    paths[n_paths++] = strdup(extra);
    paths[n_paths++] = strdup(broken);
    lx_default_opts(&opts);
    opts.dsl = KVT_SOURCE_DIR "/lua/kvtutor.lua";
    now = (int64_t)time(NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_paths; i++)
        free(paths[i]);
    return tmp_dir_remove(dir);
}

/* A new database for each test: none sees another's schedules. */
static struct store *open_db(int64_t *learner)
{
    static int n;
    struct store *st;
    struct store_error err;
    snprintf(db, sizeof db, "%s/progress-%d.db", dir, ++n);
    assert_int_equal(store_open(db, false, &st, &err), KVT_E_OK);
    assert_int_equal(store_learner(st, "default", now, learner, &err), KVT_E_OK);
    return st;
}

/* The course as the app opens it: with briefs when build is given. */
static struct lx_course *open_course(struct store *st, int64_t learner, const char *build,
                                     struct tutor_course_result *r)
{
    const struct tutor_course_open how = {
        .lx = &opts, .store = st, .learner_id = learner, .build = build};
    struct lx_course *c;
    assert_int_equal(tutor_course_open(paths, n_paths, &how, &c, r), KVT_E_OK);
    return c;
}

/* Everything the course map shows of a slot, as one line. */
static void map_line(struct lx_course *c, size_t i, char *out, size_t cap)
{
    const struct lx_lesson *l = lx_course_brief(c, i);
    char after[256], req[512];
    if (!l || !lx_course_live(c, i)) {
        snprintf(out, cap, "-");
        return;
    }
    lx_course_after_text(c, l, after, sizeof after);
    lx_course_requires_text(c, l, "first: ", req, sizeof req);
    snprintf(out, cap, "%s|%s|%s|%s|%zu|%s|%s|%zu ex|%zu fu|%zu pts|%s", l->id, l->title, l->module,
             lx_course_module_title(c, l->module), lx_course_number(c, i), after, req,
             l->n_exercises, l->n_followups, l->n_points, lx_course_concept_title(c, l->concept));
}

/* The map's figures and the due counts of the two courses agree, slot by slot. */
static void assert_same_map(struct lx_course *a, struct lx_course *b, struct store *st,
                            int64_t learner)
{
    struct tutor_review_counts ta, tb, da[32], db_[32];
    struct tutor_done oa[32], ob[32];
    struct store_error err;
    struct tutor_env ea = {.store = st, .learner_id = learner, .new_per_day = 20, .course = a};
    struct tutor_env eb = ea;
    eb.course = b;
    assert_int_equal(lx_course_size(a), lx_course_size(b));
    for (size_t i = 0; i < lx_course_size(a); i++) {
        char la[2048], lb[2048];
        map_line(a, i, la, sizeof la);
        map_line(b, i, lb, sizeof lb);
        assert_string_equal(la, lb);
    }
    assert_int_equal(tutor_review_counts(&ea, &ta, da, &err), KVT_E_OK);
    assert_int_equal(tutor_review_counts(&eb, &tb, db_, &err), KVT_E_OK);
    assert_memory_equal(&ta, &tb, sizeof ta);
    assert_memory_equal(da, db_, lx_course_size(a) * sizeof da[0]);
    assert_int_equal(tutor_done_counts(st, learner, a, oa, &err), KVT_E_OK);
    assert_int_equal(tutor_done_counts(st, learner, b, ob, &err), KVT_E_OK);
    assert_memory_equal(oa, ob, lx_course_size(a) * sizeof oa[0]);
}

static size_t briefed(struct lx_course *c)
{
    size_t n = 0;
    for (size_t i = 0; i < lx_course_size(c); i++)
        n += lx_course_brief(c, i) && !lx_course_loaded(c, i);
    return n;
}

/* A schedule for an item, as an import writes it, due `due` days from now. */
static void schedule(struct store *st, const char *lesson, const char *item, int due,
                     const char *content, const char *answer)
{
    struct store_review r = {.card = {.stability = 5.0, .difficulty = 5.0, .reps = 2},
                             .last_review = now - 3 * DAY,
                             .due_day = now / DAY + due};
    struct store_error err;
    bool updated;
    assert_int_equal(store_import_begin(st, &err), KVT_E_OK);
    assert_int_equal(
        store_import_review(st, "default", lesson, item, &r, content, answer, &updated, &err),
        KVT_E_OK);
    assert_int_equal(store_import_end(st, true, &err), KVT_E_OK);
}

static void test_brief_round_trip(void **state)
{
    struct lx_lesson *l, *b;
    struct lx_report rep = {0};
    char *text;
    (void)state;
    assert_int_equal(lx_load(BUNDLED "/02-memory-bound-decode.lua", &opts, &l, &rep), KVT_E_OK);
    assert_non_null(text = lx_brief_encode(l));
    assert_non_null(b = lx_brief_decode(l->path, l->hash, text));
    assert_true(lx_is_brief(b));
    assert_false(lx_is_brief(l));
    assert_string_equal(b->id, l->id);
    assert_string_equal(b->title, l->title);
    assert_string_equal(b->module, l->module);
    assert_null(l->module_title); /* only the module's first lesson names it */
    assert_null(b->module_title);
    assert_string_equal(b->concept_title, l->concept_title);
    assert_string_equal(b->concept, l->concept);
    assert_int_equal(b->n_requires, l->n_requires);
    assert_string_equal(b->requires[0], "kv-cache");
    assert_int_equal(b->n_exercises, l->n_exercises);
    for (size_t i = 0; i < l->n_exercises; i++) {
        assert_string_equal(b->exercises[i].id, l->exercises[i].id);
        assert_int_equal(b->exercises[i].kind, l->exercises[i].kind);
        assert_true((b->exercises[i].measured == NULL) == (l->exercises[i].measured == NULL));
    }
    assert_int_equal(b->n_followups, l->n_followups);
    assert_int_equal(b->n_points, l->n_points);
    assert_string_equal(b->hash, l->hash);
    /* the file's hash is the hash of the bytes loaded */
    {
        char h[17];
        assert_true(lx_file_hash(l->path, h));
        assert_string_equal(h, l->hash);
    }
    lx_free(b);
    /* what it did not write is refused: a field missing, a bad escape,
     * an unknown key, an exercise without an id */
    assert_null(lx_brief_decode("x", l->hash, "id\tx\ntitle\ty\nmodule\tm\n"));
    assert_null(lx_brief_decode("x", l->hash, "id\tx\\q\ntitle\ty\nmodule\tm\nconcept\tc\n"));
    assert_null(lx_brief_decode("x", l->hash, "id\tx\ntitle\ty\nmodule\tm\nconcept\tc\nz\t1\n"));
    assert_null(
        lx_brief_decode("x", l->hash, "id\tx\ntitle\ty\nmodule\tm\nconcept\tc\nexercise\t0\t\n"));
    assert_non_null(
        b = lx_brief_decode("x", l->hash, "id\tx\\ty\ntitle\ty\nmodule\tm\nconcept\tc\n"));
    assert_string_equal(b->id, "x\ty");
    lx_free(b);
    free(text);
    lx_free(l);
    lx_report_free(&rep);
}

/* Cold, warm and the long way: the same map; warm runs no lesson. */
static void test_warm_equals_full(void **state)
{
    struct tutor_course_result cold, warm, full;
    struct lx_course *a, *b, *c;
    int64_t learner;
    struct store *st = open_db(&learner);
    (void)state;
    schedule(st, "kv-cache", "per-token", -2, "", "");
    schedule(st, "memory-bound-decode", "followup-1", 0, "", "");
    schedule(st, "extra", "question", 3, "", "");
    a = open_course(st, learner, "test-build-1", &cold);
    b = open_course(st, learner, "test-build-1", &warm);
    c = open_course(st, learner, NULL, &full);
    /* the broken file fails every time: a failure is never kept */
    assert_int_equal(cold.failed, 1);
    assert_int_equal(warm.failed, 1);
    assert_int_equal(full.failed, 1);
    /* 15 bundled + draft + extra load; warm, every one is a brief */
    assert_int_equal(briefed(b), 17);
    assert_int_equal(briefed(c), 0);
    /* the draft shadows the bundled lesson in both */
    assert_false(lx_course_live(b, 1));
    assert_true(lx_course_live(b, 15));
    assert_string_equal(lx_course_brief(b, 15)->title + 0, lx_course_brief(c, 15)->title);
    assert_same_map(b, c, st, learner);
    assert_same_map(a, c, st, learner);
    /* loading a brief's lesson whole (practice, review) gives the lesson */
    assert_non_null(lx_course_at(b, 0));
    assert_true(lx_course_loaded(b, 0));
    assert_non_null(lx_course_at(b, 0)->exercises[0].prompt);
    assert_same_map(b, c, st, learner);
    /* a different program proves nothing: every file loads */
    tutor_course_close(a);
    a = open_course(st, learner, "test-build-2", &cold);
    assert_int_equal(briefed(a), 17); /* loaded, then kept as briefs */
    tutor_course_close(a), tutor_course_close(b), tutor_course_close(c);
    store_close(st);
}

/* What the callbacks saw of one opening: the slots in the order reported,
 * and the first problem of each failed file. */
struct seen {
    size_t slots[32], n;
    char failures[512];
};

static void saw(void *ctx, size_t i, enum kvt_err e, const struct lx_report *rep)
{
    struct seen *s = ctx;
    size_t used = strlen(s->failures);
    if (s->n < 32)
        s->slots[s->n++] = i;
    if (e != KVT_E_OK)
        snprintf(s->failures + used, sizeof s->failures - used, "%zu: %s; ", i,
                 rep->n ? rep->items[0].msg : "?");
}

static struct lx_course *open_threads(struct store *st, int64_t learner, const char *build,
                                      unsigned threads, struct seen *s,
                                      struct tutor_course_result *r)
{
    const struct tutor_course_open how = {.lx = &opts,
                                          .store = st,
                                          .learner_id = learner,
                                          .build = build,
                                          .after = saw,
                                          .ctx = s,
                                          .threads = threads};
    struct lx_course *c;
    memset(s, 0, sizeof *s);
    assert_int_equal(tutor_course_open(paths, n_paths, &how, &c, r), KVT_E_OK);
    return c;
}

/* Files run side by side change nothing the caller sees: the same courses,
 * briefs and maps, every file reported once in course order, the broken
 * one's problem word for word, whether they run on one thread or four. */
static void test_threads_change_nothing(void **state)
{
    struct tutor_course_result r1, r4, rf;
    struct seen s1, s4, sf;
    struct lx_course *one, *four, *full;
    int64_t learner;
    struct store *st = open_db(&learner);
    (void)state;
    schedule(st, "kv-cache", "per-token", -2, "", "");
    schedule(st, "extra", "question", 3, "", "");
    one = open_threads(st, learner, "test-build-t1", 1, &s1, &r1);
    four = open_threads(st, learner, "test-build-t4", 4, &s4, &r4);
    full = open_threads(NULL, 0, NULL, 4, &sf, &rf); /* no database: every lesson whole */
    assert_int_equal(r1.failed, 1);
    assert_int_equal(r4.failed, 1);
    assert_int_equal(rf.failed, 1);
    assert_int_equal(s1.n, n_paths);
    assert_int_equal(s4.n, n_paths);
    assert_int_equal(sf.n, n_paths);
    for (size_t i = 0; i < n_paths; i++) {
        assert_int_equal(s1.slots[i], i);
        assert_int_equal(s4.slots[i], i);
        assert_int_equal(sf.slots[i], i);
    }
    assert_string_not_equal(s1.failures, "");
    assert_string_equal(s1.failures, s4.failures);
    assert_string_equal(s1.failures, sf.failures);
    assert_int_equal(briefed(one), 17);
    assert_int_equal(briefed(four), 17);
    assert_int_equal(briefed(full), 0);
    assert_same_map(one, four, st, learner);
    assert_same_map(one, full, st, learner);
    tutor_course_close(one), tutor_course_close(four), tutor_course_close(full);
    store_close(st);
}

static int count_stamped(void *ctx, const struct store_brief_row *row)
{
    size_t *n = ctx;
    *n += row->file_stamp[0] != '\0' && strncmp(row->path, dir, strlen(dir)) == 0;
    return 0;
}

/* Rows of the files under dir (the draft and extra) kept with a stamp. */
static size_t stamped_here(struct store *st)
{
    size_t n = 0;
    struct store_error err;
    assert_int_equal(store_brief_each(st, count_stamped, &n, &err), KVT_E_OK);
    return n;
}

static struct lx_course *open_at(struct store *st, int64_t learner, int64_t at,
                                 struct tutor_course_result *r)
{
    const struct tutor_course_open how = {
        .lx = &opts, .store = st, .learner_id = learner, .build = "test-build-s", .now = at};
    struct lx_course *c;
    assert_int_equal(tutor_course_open(paths, n_paths, &how, &c, r), KVT_E_OK);
    return c;
}

/* A kept stamp stands for a file's bytes only while the file is as it
 * was: a file changed less than two seconds before the start is not
 * stamped; settled files are, and a start that finds their stamps takes
 * their briefs; a file rewritten in place with its size and modification
 * time put back has a new change time, so it is read again, not taken for
 * its old brief. */
static void test_file_stamps(void **state)
{
    struct tutor_course_result r;
    struct lx_course *c;
    struct stat sb;
    int64_t learner;
    struct store *st = open_db(&learner);
    char *src = slurp(draft), *same_size = replace(src, "Draft: ", "DRAFT: ");
    struct timespec times[2];
    struct stat d, e;
    int64_t changed;
    (void)state;
    /* the times are the files' own, so a slow run of the tests before this
     * one (valgrind, a sanitizer) cannot settle them early */
    assert_int_equal(stat(draft, &d), 0);
    assert_int_equal(stat(extra, &e), 0);
    /* a second after the older one's last change: neither settled, none stamped */
    changed = d.st_ctim.tv_sec < e.st_ctim.tv_sec ? d.st_ctim.tv_sec : e.st_ctim.tv_sec;
    tutor_course_close(open_at(st, learner, changed + 1, &r));
    changed = d.st_ctim.tv_sec > e.st_ctim.tv_sec ? d.st_ctim.tv_sec : e.st_ctim.tv_sec;
    assert_int_equal(stamped_here(st), 0);
    /* ten seconds on, both are settled: stamped */
    tutor_course_close(open_at(st, learner, changed + 10, &r));
    assert_int_equal(stamped_here(st), 2);
    c = open_at(st, learner, changed + 10, &r);
    assert_int_equal(briefed(c), 17);
    assert_true(strncmp(lx_course_brief(c, 15)->title, "Draft: ", 7) == 0);
    tutor_course_close(c);
    /* the same size, the old modification time put back */
    assert_int_equal(stat(draft, &sb), 0);
    spit(draft, same_size);
    times[0] = sb.st_atim;
    times[1] = sb.st_mtim;
    assert_int_equal(utimensat(AT_FDCWD, draft, times, 0), 0);
    c = open_at(st, learner, (int64_t)time(NULL) + 10, &r);
    assert_true(strncmp(lx_course_brief(c, 15)->title, "DRAFT: ", 7) == 0);
    tutor_course_close(c);
    spit(draft, src);
    free(src), free(same_size);
    store_close(st);
}

/* A file whose bytes changed is loaded again, and its new brief kept. */
static void test_changed_file(void **state)
{
    struct tutor_course_result r;
    struct lx_course *c;
    int64_t learner;
    struct store *st = open_db(&learner);
    char *src = slurp(extra), *changed = replace(src, "title = \"", "title = \"Changed: ");
    (void)state;
    tutor_course_close(open_course(st, learner, "test-build-1", &r));
    spit(extra, changed);
    c = open_course(st, learner, "test-build-1", &r);
    assert_true(strncmp(lx_course_brief(c, 16)->title, "Changed: ", 9) == 0);
    tutor_course_close(c);
    /* kept: the next start has it as a brief, with the new title */
    c = open_course(st, learner, "test-build-1", &r);
    assert_int_equal(briefed(c), 17);
    assert_true(strncmp(lx_course_brief(c, 16)->title, "Changed: ", 9) == 0);
    /* changed after start: loading it whole reads the file as it is now */
    spit(extra, src);
    assert_non_null(lx_course_at(c, 16));
    assert_true(strncmp(lx_course_brief(c, 16)->title, "Changed: ", 9) != 0);
    tutor_course_close(c);
    free(src), free(changed);
    store_close(st);
}

/* The kept fingerprints restart and keep the schedules the loaded lessons'
 * own would: a changed answer restarts, the same one keeps, none adopts. */
static void test_sync_from_briefs(void **state)
{
    struct tutor_course_result r;
    struct lx_course *full, *c;
    struct lx_lesson *l;
    struct tutor_fingerprint fp, fp2;
    struct store_review rv;
    struct store_error err;
    int64_t learner;
    struct store *st = open_db(&learner);
    (void)state;
    full = open_course(st, learner, NULL, &r);
    l = lx_course_at(full, 0); /* kv-cache */
    tutor_fingerprint(l, (struct tutor_item){0, TUTOR_EXERCISE, 0}, &fp);
    tutor_fingerprint(l, (struct tutor_item){0, TUTOR_EXERCISE, 2}, &fp2);
    tutor_course_close(open_course(st, learner, "test-build-1", &r)); /* briefs kept */
    for (int round = 0; round < 2; round++) {
        /* round 0 through the briefs, round 1 the long way */
        const char *build = round == 0 ? "test-build-1" : NULL;
        schedule(st, "kv-cache", l->exercises[0].id, 1, fp.content, "0123456789abcdef");
        schedule(st, "kv-cache", l->exercises[1].id, 1, "", "");
        schedule(st, "kv-cache", l->exercises[2].id, 1, fp2.content, fp2.answer);
        c = open_course(st, learner, build, &r);
        assert_int_equal(briefed(c), round == 0 ? 17 : 0);
        assert_int_equal(r.restarted, 1);
        assert_int_equal(store_review_get(st, learner, "kv-cache", l->exercises[0].id, &rv, &err),
                         KVT_E_DB_NOT_FOUND);
        assert_int_equal(store_review_get(st, learner, "kv-cache", l->exercises[1].id, &rv, &err),
                         KVT_E_OK);
        assert_int_equal(store_review_get(st, learner, "kv-cache", l->exercises[2].id, &rv, &err),
                         KVT_E_OK);
        /* and nothing is left to do the second time */
        tutor_course_close(c);
        c = open_course(st, learner, build, &r);
        assert_int_equal(r.restarted, 0);
        tutor_course_close(c);
    }
    tutor_course_close(full);
    store_close(st);
}

/* A file changed after start: its schedules are checked when it is first
 * loaded whole, with its new answers. */
static void test_changed_after_start(void **state)
{
    struct tutor_course_result r;
    struct lx_course *full, *c;
    struct tutor_fingerprint fp;
    struct store_review rv;
    struct store_error err;
    int64_t learner;
    struct store *st = open_db(&learner);
    char *src = slurp(extra), *changed = replace(src, "expected = contiguous.max_concurrent_seqs,",
                                                 "expected = contiguous.max_concurrent_seqs + 1,");
    (void)state;
    full = open_course(st, learner, NULL, &r);
    assert_string_equal(lx_course_at(full, 16)->exercises[0].id, "contiguous-fit");
    tutor_fingerprint(lx_course_at(full, 16), (struct tutor_item){0, TUTOR_EXERCISE, 0}, &fp);
    tutor_course_close(full);
    schedule(st, "extra", "contiguous-fit", 1, fp.content, fp.answer);
    tutor_course_close(open_course(st, learner, "test-build-1", &r));
    c = open_course(st, learner, "test-build-1", &r);
    assert_int_equal(r.restarted, 0);
    assert_false(lx_course_loaded(c, 16));
    spit(extra, changed);
    assert_non_null(lx_course_at(c, 16));
    /* a new answer: the schedule starts over, as a restart would have it */
    assert_int_equal(store_review_get(st, learner, "extra", "contiguous-fit", &rv, &err),
                     KVT_E_DB_NOT_FOUND);
    spit(extra, src);
    tutor_course_close(c);
    free(src), free(changed);
    store_close(st);
}

/* The rows an opening hands to keep, copied: what `lint --briefs` ships. */
struct rows {
    struct store_brief_row r[32];
    size_t n;
};

static void keep_rows(void *ctx, const struct store_brief_row *rows, size_t n)
{
    struct rows *k = ctx;
    for (size_t i = 0; i < n && k->n < 32; i++) {
        const struct store_brief_row *r = &rows[i];
        k->r[k->n++] = (struct store_brief_row){"",
                                                strdup(r->content_hash),
                                                strdup(r->engine),
                                                strdup(r->brief),
                                                strdup(r->fingerprints),
                                                ""};
    }
}

static void rows_free(struct rows *k)
{
    for (size_t i = 0; i < k->n; i++) {
        free((char *)k->r[i].content_hash), free((char *)k->r[i].engine);
        free((char *)k->r[i].brief), free((char *)k->r[i].fingerprints);
    }
}

static size_t runs;
static void count_run(void *ctx, size_t i, size_t n)
{
    (void)ctx, (void)i, (void)n;
    runs++;
}

/* tutor_shipped's rows: k's, counting the times they are asked for */
static size_t asks;
static const struct store_brief_row *give_rows(void *ctx, size_t *n)
{
    const struct rows *k = ctx;
    asks++;
    *n = k->n;
    return k->r;
}

/* The first np files opened with k's rows as the shipped ones; runs and
 * asks count the files run and the times the rows were asked for. */
static struct lx_course *open_shipped_n(struct store *st, int64_t learner, const char *build,
                                        const struct rows *k, size_t np,
                                        struct tutor_course_result *r)
{
    const struct tutor_shipped src = {give_rows, (void *)k};
    const struct tutor_course_open how = {.lx = &opts,
                                          .store = st,
                                          .learner_id = learner,
                                          .build = build,
                                          .shipped = &src,
                                          .before = count_run};
    struct lx_course *c;
    runs = asks = 0;
    assert_int_equal(tutor_course_open(paths, np, &how, &c, r), KVT_E_OK);
    return c;
}

static struct lx_course *open_shipped(struct store *st, int64_t learner, const char *build,
                                      const struct rows *k, struct tutor_course_result *r)
{
    return open_shipped_n(st, learner, build, k, n_paths, r);
}

/* Briefs made without a database (as the build makes them) open a first
 * start in a new one without running those files, with the map a full
 * load gives; made by another program, or damaged, they are passed over
 * and the file is run. */
static void test_shipped_briefs(void **state)
{
    struct rows k = {0};
    struct tutor_course_result r, full;
    const struct tutor_course_open make = {
        .lx = &opts, .build = "test-ship-1", .keep = keep_rows, .ctx = &k};
    struct lx_course *made, *a, *c;
    int64_t learner;
    struct store *st;
    (void)state;
    assert_int_equal(tutor_course_open(paths, n_paths, &make, &made, &r), KVT_E_OK);
    tutor_course_close(made);
    assert_int_equal(k.n, 17); /* 15 bundled + draft + extra; the broken file has none */

    st = open_db(&learner);
    schedule(st, "kv-cache", "per-token", -2, "", "");
    a = open_shipped(st, learner, "test-ship-1", &k, &r);
    assert_int_equal(runs, 1); /* the broken file alone */
    assert_int_equal(asks, 1); /* once, for 17 files */
    assert_int_equal(r.failed, 1);
    assert_int_equal(briefed(a), 17);
    c = open_course(st, learner, NULL, &full);
    assert_same_map(a, c, st, learner);
    tutor_course_close(a);
    /* kept in the database now: the next start runs nothing new either */
    a = open_shipped(st, learner, "test-ship-1", &(struct rows){0}, &r);
    assert_int_equal(runs, 1);
    tutor_course_close(a);
    /* and where every file has its brief kept, the shipped ones are not
     * even asked for (the broken file, last, is the one without) */
    a = open_shipped_n(st, learner, "test-ship-1", &k, n_paths - 1, &r);
    assert_int_equal(runs, 0);
    assert_int_equal(asks, 0);
    tutor_course_close(a);
    store_close(st);

    /* another program's rows prove nothing */
    st = open_db(&learner);
    a = open_shipped(st, learner, "test-ship-2", &k, &r);
    assert_int_equal(runs, n_paths);
    tutor_course_close(a);
    store_close(st);

    /* a damaged brief: that one file is run, and the map is still right */
    free((char *)k.r[0].brief);
    k.r[0].brief = strdup("not a brief");
    st = open_db(&learner);
    a = open_shipped(st, learner, "test-ship-1", &k, &r);
    assert_int_equal(runs, 2);
    assert_same_map(a, c, st, learner);
    tutor_course_close(a), tutor_course_close(c);
    store_close(st);
    rows_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_briefs),         cmocka_unit_test(test_brief_round_trip),
        cmocka_unit_test(test_warm_equals_full),       cmocka_unit_test(test_changed_file),
        cmocka_unit_test(test_sync_from_briefs),       cmocka_unit_test(test_changed_after_start),
        cmocka_unit_test(test_threads_change_nothing), cmocka_unit_test(test_file_stamps),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
