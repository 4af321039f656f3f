/* `kvtutor stats`, `kvtutor config` and `kvtutor reset`: the learner's
 * progress as figures, the settings kept beside it, and starting a lesson
 * over. */
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"
#include "cli_db.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_lessons.h"
#include "kvt_text.h"
#include "store_report.h"
#include "tutor_done.h"
#include "tutor_settings.h"
#include "tutor_names.h"
#include "tutor_queue.h"

/* Options the progress commands share; positional arguments are left in
 * pos[] in order. */
struct opts {
    const char *db, *learner;
    bool json, yes, help;
    char **pos;
    int npos;
    struct cli_args a;
};

/* Each command has at most one flag of its own. */
static const struct cli_flag json_flag[] = {{"--json", NULL, NULL, .kind = CLI_SWITCH}};
static const struct cli_flag yes_flag[] = {{"--yes", "-y", NULL, .kind = CLI_SWITCH}};

/* Returns -1 to go on, else the exit status. */
static int parse_opts(const struct cli_spec *spec, int argc, char **argv, struct opts *o)
{
    int rc = cli_parse(spec, argc, argv, &o->a);

    if (rc != 0)
        return rc;
    o->db = o->a.db;
    o->learner = o->a.learner;
    o->json = spec->flags == json_flag && o->a.given[0];
    o->yes = spec->flags == yes_flag && o->a.given[0];
    o->help = o->a.help;
    o->pos = o->a.pos;
    o->npos = o->a.npos;
    return -1;
}

/* part of whole as a share: "99.7%" for 299 of 300, never "100%" */
static const char *pct(int64_t part, int64_t whole, char *buf, size_t cap)
{
    return kvt_fmt_percent(whole > 0 ? (double)part / (double)whole : 0.0, buf, cap);
}

/* text in a column `width` wide: sanitised, cut after a word with "..."
 * when longer, padded by display columns (a title may hold "·" or "×") */
static void print_cell(const char *text, int width)
{
    char safe[KVT_SAFE_FIELD], fit[KVT_SAFE_FIELD * 2];
    int used = (int)kvt_text_fit(kvt_safe(text, safe, sizeof safe), width, "...", fit, sizeof fit);
    printf("%s%*s", fit, width - used, "");
}

/* What is due, counted as review asks it (tutor_review_counts), for the
 * course and per course slot; by_slot is NULL without a course. */
struct due {
    struct tutor_review_counts total, *by_slot;
};

/* A lesson's figures by its id: zeros for a lesson the course no longer
 * has (review would not ask its items). */
static struct tutor_review_counts due_of(const struct due *d, struct lx_course *course,
                                         const char *lesson_id)
{
    size_t slot;
    if (d->by_slot && lx_course_find(course, lesson_id, &slot))
        return d->by_slot[slot];
    return (struct tutor_review_counts){0};
}

/* Lessons, modules and mistakes by name (the JSON keeps the ids): the
 * course names them; without one, the ids are all there is. */
static void stats_human(const struct cli_db *db, const struct store_stats *s, const struct due *d,
                        struct lx_course *course)
{
    char n1[32], n2[32], n3[32], n4[32], n5[32], share[32], f1[KVT_SAFE_FIELD], f2[KVT_SAFE_FIELD];
    const char *module = NULL;
    struct tutor_done_total seen;
    struct tutor_done *done = NULL;
    struct lx_lesson *les;
    size_t slot;
    struct store_error err;

    /* every name below comes from the database, which an import fills */
    printf("Progress of %s (%s)\n\n", kvt_safe(db->learner, f1, sizeof f1),
           kvt_safe(db->path, f2, sizeof f2));
    if (s->attempts == 0) {
        puts("No answers yet. Open a lesson and answer its exercises; they appear here.");
        return;
    }
    printf("  answers     %s, %s right\n", kvt_fmt_int((uint64_t)s->attempts, n1, sizeof n1),
           pct(s->correct, s->attempts, share, sizeof share));
    /* seen, by kind, as the course map counts it (a follow-up is no exercise);
     * without the course, the items stored */
    if (course && tutor_done_total(db->st, db->learner_id, course, &seen, &err) == KVT_E_OK)
        printf("  seen        %s exercise%s, %s follow-up%s, %s lesson question%s\n",
               kvt_fmt_int((uint64_t)seen.exercises, n1, sizeof n1), seen.exercises == 1 ? "" : "s",
               kvt_fmt_int((uint64_t)seen.followups, n2, sizeof n2), seen.followups == 1 ? "" : "s",
               kvt_fmt_int((uint64_t)seen.questions, n3, sizeof n3),
               seen.questions == 1 ? "" : "s");
    else
        printf("  exercises   %s seen\n", kvt_fmt_int((uint64_t)s->exercises, n1, sizeof n1));
    printf("  due         %s now, %s within a week\n",
           kvt_fmt_int((uint64_t)d->total.due_now, n1, sizeof n1),
           kvt_fmt_int((uint64_t)d->total.due_week, n2, sizeof n2));
    printf("  new today   %s\n", kvt_fmt_int((uint64_t)d->total.new_today, n1, sizeof n1));
    printf("  streak      %s day%s\n", kvt_fmt_int((uint64_t)s->streak_days, n1, sizeof n1),
           s->streak_days == 1 ? "" : "s");
    printf("  time spent  %s min\n\n",
           kvt_fmt_int((uint64_t)(s->seconds / 60.0 + 0.5), n1, sizeof n1));
    done = course ? calloc(lx_course_size(course) + 1, sizeof *done) : NULL;
    if (done && tutor_done_counts(db->st, db->learner_id, course, done, &err) != KVT_E_OK) {
        free(done);
        done = NULL;
    }
    printf("  %-30s %9s %8s %8s %8s %8s\n", "LESSON", "EXERCISES", "ANSWERS", "RIGHT", "DUE",
           "WEEK");
    for (size_t i = 0; i < s->n_lessons; i++) {
        const struct store_lesson_stats *l = &s->lessons[i];
        struct tutor_review_counts ld = due_of(d, course, l->lesson_id);
        if (!module || strcmp(module, l->module) != 0) {
            module = l->module;
            printf("  %s\n", kvt_safe(tutor_module_name(course, module), f1, sizeof f1));
        }
        printf("    ");
        print_cell(tutor_lesson_name(course, l->lesson_id), 28);
        /* a lesson of the course: its exercises answered of all, as the map
         * writes them ("12/12"), follow-ups and the question apart; else
         * the items stored */
        if (done && (les = lx_course_find(course, l->lesson_id, &slot)) != NULL)
            snprintf(n1, sizeof n1, "%zu/%zu", done[slot].exercises, les->n_exercises);
        else
            kvt_fmt_int((uint64_t)l->exercises, n1, sizeof n1);
        printf(" %9s %8s %8s %8s %8s\n", n1, kvt_fmt_int((uint64_t)l->attempts, n2, sizeof n2),
               pct(l->correct, l->attempts, share, sizeof share),
               kvt_fmt_int((uint64_t)ld.due_now, n3, sizeof n3),
               kvt_fmt_int((uint64_t)ld.due_week, n4, sizeof n4));
    }
    free(done);
    if (s->n_weakest) {
        puts("\n  Most frequent mistakes");
        for (size_t i = 0; i < s->n_weakest; i++) {
            char name[512];
            tutor_diagnosis_name(course, s->weakest[i].diagnosis, name, sizeof name);
            /* the count and its sign together, as "7×" */
            printf("    %5s%s  %s\n", kvt_fmt_int((uint64_t)s->weakest[i].count, n5, sizeof n5),
                   cli_glyphs()->times, kvt_safe(name, f1, sizeof f1));
        }
    }
}

static int stats_json(const struct cli_db *db, const struct store_stats *s, const struct due *d,
                      struct lx_course *course)
{
    json_t *o = json_object(), *lessons = json_array(), *weak = json_array();
    int rc;

    json_object_set_new(o, "learner", json_string(db->learner));
    json_object_set_new(o, "database", json_string(db->path));
    json_object_set_new(o, "attempts", json_integer(s->attempts));
    json_object_set_new(o, "correct", json_integer(s->correct));
    json_object_set_new(o, "accuracy",
                        s->attempts ? json_real((double)s->correct / (double)s->attempts)
                                    : json_null());
    json_object_set_new(o, "exercises_seen", json_integer(s->exercises));
    json_object_set_new(o, "due_now", json_integer((json_int_t)d->total.due_now));
    json_object_set_new(o, "due_week", json_integer((json_int_t)d->total.due_week));
    json_object_set_new(o, "new_today", json_integer((json_int_t)d->total.new_today));
    json_object_set_new(o, "streak_days", json_integer(s->streak_days));
    json_object_set_new(o, "seconds", json_real(s->seconds));
    for (size_t i = 0; i < s->n_lessons; i++) {
        const struct store_lesson_stats *l = &s->lessons[i];
        struct tutor_review_counts ld = due_of(d, course, l->lesson_id);
        json_t *j = json_object();
        json_object_set_new(j, "module", json_string(l->module));
        json_object_set_new(j, "lesson", json_string(l->lesson_id));
        json_object_set_new(j, "exercises_seen", json_integer(l->exercises));
        json_object_set_new(j, "attempts", json_integer(l->attempts));
        json_object_set_new(j, "correct", json_integer(l->correct));
        json_object_set_new(j, "accuracy", json_real((double)l->correct / (double)l->attempts));
        json_object_set_new(j, "due_now", json_integer((json_int_t)ld.due_now));
        json_object_set_new(j, "due_week", json_integer((json_int_t)ld.due_week));
        json_object_set_new(j, "seconds", json_real(l->seconds));
        json_array_append_new(lessons, j);
    }
    for (size_t i = 0; i < s->n_weakest; i++) {
        json_t *j = json_object();
        json_object_set_new(j, "diagnosis", json_string(s->weakest[i].diagnosis));
        json_object_set_new(j, "count", json_integer(s->weakest[i].count));
        json_array_append_new(weak, j);
    }
    json_object_set_new(o, "lessons", lessons);
    json_object_set_new(o, "weakest", weak);
    rc = cli_json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(o);
    return rc == 0 ? 0 : 1;
}

int cli_stats(int argc, char **argv)
{
    struct opts o;
    struct cli_db db;
    struct store_stats s;
    struct store_error err;
    int64_t now = (int64_t)time(NULL);
    static const struct cli_spec spec = {
        .cmd = "stats", .flags = json_flag, .nflags = 1, .globals = CLI_G_DB | CLI_G_LEARNER};
    int rc = parse_opts(&spec, argc, argv, &o);

    if (rc >= 0)
        return rc;
    if (o.help) {
        puts("usage: kvtutor stats [--json] [--db FILE] [--learner NAME]\n\n"
             "The current learner's progress (or --learner's): answers and accuracy per\n"
             "module and lesson, what is due now and within a week and the new exercises\n"
             "a review brings today (as the course map counts them), the daily streak,\n"
             "time spent, and the mistakes made most often.");
        return 0;
    }
    if ((rc = cli_db_open("stats", o.db, o.learner, now, &db)) != 0)
        return rc;
    /* figures from a damaged file would be wrong without saying so */
    if (store_check(db.st, STORE_CHECK_QUICK, &err) != KVT_E_OK) {
        rc = cli_db_error("stats", db.path, &err);
        cli_db_close(&db);
        return rc;
    }
    {
        /* the course opened as the app opens it: a lesson whose answers
         * changed starts those schedules over before they are counted,
         * modules and concepts find their names, and what is due is counted
         * over the course review asks from, with the app's settings */
        struct lx_opts lx;
        char data[4096], dsl[CLI_DSL_CAP];
        struct lx_course *course =
            cli_lx_opts("stats", &lx, dsl, data, sizeof data) == 0
                ? cli_course_open("stats", NULL, data, &lx, db.st, db.learner_id)
                : NULL;
        struct tutor_settings set;
        struct tutor_env env = {.store = db.st, .learner_id = db.learner_id, .course = course};
        struct due d = {0};

        tutor_settings_load(db.st, &set);
        env.new_per_day = set.new_per_day;
        if (store_stats(db.st, db.learner_id, now, &s, &err) != KVT_E_OK) {
            rc = cli_db_error("stats", db.path, &err);
            lx_course_free(course);
            cli_db_close(&db);
            return rc;
        }
        if (course && !(d.by_slot = calloc(lx_course_size(course) + 1, sizeof *d.by_slot))) {
            err = (struct store_error){.code = KVT_E_NOMEM};
            snprintf(err.detail, sizeof err.detail, "out of memory");
            rc = cli_db_error("stats", db.path, &err);
        } else if (tutor_review_counts(&env, &d.total, d.by_slot, &err) != KVT_E_OK) {
            rc = cli_db_error("stats", db.path, &err);
        } else if (o.json) {
            rc = stats_json(&db, &s, &d, course);
        } else {
            stats_human(&db, &s, &d, course);
        }
        free(d.by_slot);
        lx_course_free(course);
        store_stats_free(&s);
    }
    cli_db_close(&db);
    return rc;
}

/* The settings, for listing and help; what each accepts is the store's rule. */
static const struct setting {
    const char *key, *help;
} settings[] = {
    {"learner", "who is learning: progress is kept per name"},
    {"desired_retention", "the recall probability reviews aim for, 0.7 to 0.97"},
    {"new_per_day", "new exercises reviews bring in each day, 0 to 500"},
    {"interview_answer_seconds", "seconds for each interview answer, 0 (none) to 1800"},
    {"interview_minutes", "minutes for a whole interview, 0 (none) to 120"},
};

static const struct setting *find_setting(const char *key)
{
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        if (strcmp(settings[i].key, key) == 0)
            return &settings[i];
    return NULL;
}

static int check_value(const struct setting *s, const char *value)
{
    const char *why = store_setting_check(s->key, value);
    char f1[72]; /* a value is quoted only as far as needed to recognise it */
    if (why)
        return cli_usage_error("config", "%s %s: %s", s->key, kvt_safe(value, f1, sizeof f1), why);
    return 0;
}

int cli_config(int argc, char **argv)
{
    struct opts o;
    struct cli_db db;
    struct store_error err;
    const struct setting *s = NULL;
    char value[256], f1[KVT_SAFE_FIELD];
    bool found;
    static const struct cli_spec spec = {.cmd = "config", .globals = CLI_G_DB, .max_pos = 3};
    int rc = parse_opts(&spec, argc, argv, &o);

    if (rc >= 0)
        return rc;
    if (o.help) {
        puts("usage: kvtutor config get KEY | set KEY VALUE | list   [--db FILE]\n\nSettings:");
        for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
            printf("  %-25s %s (default %s)\n", settings[i].key, settings[i].help,
                   store_setting_fallback(settings[i].key));
        return 0;
    }
    if (o.npos == 0 || (strcmp(o.pos[0], "get") != 0 && strcmp(o.pos[0], "set") != 0 &&
                        strcmp(o.pos[0], "list") != 0)) {
        return cli_usage_error("config", "say get KEY, set KEY VALUE or list");
    }
    if (strcmp(o.pos[0], "list") != 0) {
        if (o.npos < 2) {
            return cli_usage_error("config",
                                   "%s needs a KEY (learner, desired_retention, new_per_day, "
                                   "interview_answer_seconds, interview_minutes); "
                                   "usage: kvtutor config get KEY | set KEY VALUE | list",
                                   o.pos[0]);
        }
        if (!(s = find_setting(o.pos[1]))) {
            return cli_usage_error("config",
                                   "%s: unknown setting (learner, desired_retention, "
                                   "new_per_day, interview_answer_seconds, interview_minutes)",
                                   o.pos[1]);
        }
        if ((strcmp(o.pos[0], "set") == 0) != (o.npos == 3)) {
            return cli_usage_error("config", "%s",
                                   o.npos == 3 ? "get takes a key only"
                                               : "set needs a key and a value");
        }
        if (o.npos == 3 && (rc = check_value(s, o.pos[2])) != 0)
            return rc;
    }
    if ((rc = cli_db_open("config", o.db, NULL, (int64_t)time(NULL), &db)) != 0)
        return rc;
    if (strcmp(o.pos[0], "set") == 0) {
        if (store_setting_set(db.st, s->key, o.pos[2], &err) != KVT_E_OK)
            rc = cli_db_error("config", db.path, &err);
    } else {
        for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
            if (s && s != &settings[i])
                continue;
            if (store_setting_get(db.st, settings[i].key, value, sizeof value, &found, &err) !=
                KVT_E_OK) {
                rc = cli_db_error("config", db.path, &err);
                break;
            }
            if (s)
                puts(found ? kvt_safe(value, f1, sizeof f1)
                           : store_setting_fallback(settings[i].key));
            else
                printf("%-25s %s\n", settings[i].key,
                       found ? kvt_safe(value, f1, sizeof f1)
                             : store_setting_fallback(settings[i].key));
        }
    }
    cli_db_close(&db);
    return rc;
}

int cli_reset(int argc, char **argv)
{
    struct opts o;
    struct cli_db db;
    struct store_error err;
    int64_t removed = 0;
    char answer[16] = "", n1[32], f1[KVT_SAFE_FIELD], f2[KVT_SAFE_FIELD];
    static const struct cli_spec spec = {.cmd = "reset",
                                         .flags = yes_flag,
                                         .nflags = 1,
                                         .globals = CLI_G_DB | CLI_G_LEARNER,
                                         .max_pos = 1};
    int rc = parse_opts(&spec, argc, argv, &o);

    if (rc >= 0)
        return rc;
    if (o.help) {
        puts("usage: kvtutor reset LESSON_ID [--yes] [--db FILE] [--learner NAME]\n\n"
             "Deletes the current learner's answers, schedule and progress for one lesson,\n"
             "after asking (--yes answers for you).");
        return 0;
    }
    if (o.npos != 1)
        return cli_usage_error("reset", "name the lesson to start over (LESSON_ID)");
    /* a mistyped id would delete nothing and say "0 answers deleted" */
    {
        struct lx_opts lx;
        char data[4096], dsl[CLI_DSL_CAP], seen[1024] = "";
        struct lx_lesson *l;
        if (cli_lx_opts("reset", &lx, dsl, data, sizeof data) != 0)
            return 1;
        if (!(l = cli_find_lesson(o.pos[0], NULL, data, &lx, seen, sizeof seen))) {
            fprintf(stderr, "kvtutor reset: no lesson \"%s\" (lessons: %s); nothing deleted\n",
                    kvt_safe(o.pos[0], f1, sizeof f1), seen[0] ? seen : "none found");
            return 1;
        }
        lx_free(l);
    }
    if ((rc = cli_db_open("reset", o.db, o.learner, (int64_t)time(NULL), &db)) != 0)
        return rc;
    if (!o.yes) {
        fprintf(stderr, "Delete %s's answers and schedule for lesson %s? [y/N] ",
                kvt_safe(db.learner, f1, sizeof f1), kvt_safe(o.pos[0], f2, sizeof f2));
        fflush(stderr);
        if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
            fputs("\nkvtutor reset: nothing deleted\n", stderr);
            cli_db_close(&db);
            return 1;
        }
    }
    if (store_reset_lesson(db.st, db.learner_id, o.pos[0], &removed, &err) != KVT_E_OK)
        rc = cli_db_error("reset", db.path, &err);
    else
        printf("Reset %s: %s answer%s deleted.\n", kvt_safe(o.pos[0], f1, sizeof f1),
               kvt_fmt_int((uint64_t)removed, n1, sizeof n1), removed == 1 ? "" : "s");
    cli_db_close(&db);
    return rc;
}
