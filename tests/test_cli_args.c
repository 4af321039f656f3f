/* The command line every command shares: global flags (--db, --lessons,
 * --learner) work before or after the command's name, and every command
 * reports a usage mistake in the same one-line form
 *   kvtutor CMD: WHAT (see kvtutor CMD --help)
 * with exit status 2 and nothing on stdout (under --json, {"error": ...}). */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_cmd.h"
#include "tmp_dir.h"

static char dir[64], db[128], xdg[128], xdg_env[160], lessons[4200];

static int setup(void **state)
{
    const char *fx = getenv("KVT_FIXTURES");
    (void)state;
    if (tmp_dir_make(dir, sizeof dir, "kvt_args_") != 0)
        return -1;
    snprintf(db, sizeof db, "%s/p.db", dir);
    /* the default database would land here: a test that meant --db must not touch it */
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    snprintf(xdg_env, sizeof xdg_env, "XDG_DATA_HOME=%s", xdg);
    snprintf(lessons, sizeof lessons, "%s/lessons", fx ? fx : "fixtures");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return tmp_dir_remove(dir);
}

/* kvtutor with the arguments of `line` split at spaces (none of ours has one). */
static struct run_result kvt(const char *line)
{
    char *envs[] = {xdg_env, NULL};
    struct run_result r;
    assert_int_equal(run_kvtutor_words(line, envs, &r), 0);
    return r;
}

/* `fmt` with "%D" for the test's database, "%L" for the fixture lessons. */
static const char *expand(const char *fmt, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = fmt; *p && n + 1 < cap; p++) {
        const char *sub = p[0] == '%' && p[1] == 'D'   ? db
                          : p[0] == '%' && p[1] == 'L' ? lessons
                                                       : NULL;
        if (sub) {
            n += (size_t)snprintf(out + n, cap - n, "%s", sub);
            p++;
        } else {
            out[n++] = *p;
        }
    }
    out[n < cap ? n : cap - 1] = '\0';
    return out;
}

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* A KVTUTOR_PROBE_SIZE_MIB that is not a whole number stops the app before it
 * starts, naming the variable and its value; no database is made. */
static void test_probe_size_env_refused(void **state)
{
    char env_size[] = "KVTUTOR_PROBE_SIZE_MIB=1.5G";
    char *envs[] = {xdg_env, env_size, NULL};
    char line[600], fresh[520];
    struct run_result r;
    (void)state;
    snprintf(fresh, sizeof fresh, "%s/probe-size.db", dir);
    snprintf(line, sizeof line, "--db %s", fresh);
    assert_int_equal(run_kvtutor_words(line, envs, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "KVTUTOR_PROBE_SIZE_MIB: \"1.5G\" is not a whole number of MiB"));
    assert_false(exists(fresh));
    run_free(&r);
}

/* Each pair runs the same request with the global flag before and after the
 * command's name: both must succeed and print the same. */
static void test_global_flags_either_side(void **state)
{
    static const struct {
        const char *before, *after, *says;
    } rows[] = {
        {"--db %D config set new_per_day 7", "config set new_per_day 7 --db %D", ""},
        {"--db %D config get new_per_day", "config get new_per_day --db %D", "7\n"},
        {"--db=%D config get new_per_day", "config get new_per_day --db=%D", "7\n"},
        {"--db %D --learner ann stats", "stats --learner ann --db %D", "Progress of ann"},
        {"--learner bob --db %D stats --json", "stats --json --db %D --learner bob", "\"bob\""},
        {"--db %D export --format csv", "export --db %D --format csv", "learner"},
        /* Qwen2.5-7B: 28 layers x 4 KV heads x 128 x 2 (K and V) x 2 bytes = 57,344 B */
        {"--lessons %L ask lint-good per-token 57344", "ask lint-good per-token 57344 --lessons %L",
         "correct"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char a[1024], b[1024];
        struct run_result x = kvt(expand(rows[i].before, a, sizeof a));
        struct run_result y = kvt(expand(rows[i].after, b, sizeof b));
        if (x.status != 0 || y.status != 0)
            fail_msg("kvtutor %s: exit %d (%s); kvtutor %s: exit %d (%s)", a, x.status, x.err, b,
                     y.status, y.err);
        if (strcmp(x.out, y.out) != 0)
            fail_msg("kvtutor %s and kvtutor %s differ:\n%s\n---\n%s", a, b, x.out, y.out);
        if (!strstr(x.out, rows[i].says))
            fail_msg("kvtutor %s: \"%s\" not in: %s", a, rows[i].says, x.out);
        run_free(&x);
        run_free(&y);
    }
    /* every request above named its database: the default one was never made */
    assert_false(exists(xdg));
}

/* Without --lessons the fixture lesson is not found: the flag did the work above. */
static void test_lessons_flag_is_used(void **state)
{
    struct run_result r = kvt("ask lint-good per-token 57344");
    (void)state;
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no lesson \"lint-good\""));
    run_free(&r);
}

static void test_one_usage_error_format(void **state)
{
    static const struct {
        const char *args, *err;
    } rows[] = {
        {"calc --bogus", "kvtutor calc: --bogus: unknown flag (see kvtutor calc --help)\n"},
        {"models --bogus", "kvtutor models: --bogus: unknown flag (see kvtutor models --help)\n"},
        {"gpus extra", "kvtutor gpus: extra: unexpected argument (see kvtutor gpus --help)\n"},
        {"ask x y z --seed", "kvtutor ask: --seed needs a value (N) (see kvtutor ask --help)\n"},
        {"ask x y z --seed=-1",
         "kvtutor ask: --seed -1: must not be negative (see kvtutor ask --help)\n"},
        {"lint --bogus", "kvtutor lint: --bogus: unknown flag (see kvtutor lint --help)\n"},
        {"lint --deadline-ms 0 x.lua",
         "kvtutor lint: --deadline-ms 0: must be a positive integer (see kvtutor lint --help)\n"},
        {"stats --bogus", "kvtutor stats: --bogus: unknown flag (see kvtutor stats --help)\n"},
        {"stats --db", "kvtutor stats: --db needs a value (FILE) (see kvtutor stats --help)\n"},
        {"config list extra more three",
         "kvtutor config: three: unexpected argument (see kvtutor config --help)\n"},
        {"reset a b", "kvtutor reset: b: unexpected argument (see kvtutor reset --help)\n"},
        {"export --out",
         "kvtutor export: --out needs a value (FILE) (see kvtutor export --help)\n"},
        {"import --bogus", "kvtutor import: --bogus: unknown flag (see kvtutor import --help)\n"},
        {"fsrs replay --bogus", "kvtutor fsrs: --bogus: unknown flag (see kvtutor fsrs --help)\n"},
        {"probe --seq 0",
         "kvtutor probe: --seq 0: must be a positive integer (see kvtutor probe --help)\n"},
        {"probe --json=yes", "kvtutor probe: --json takes no value (see kvtutor probe --help)\n"},
        /* a global flag the command has no use for is refused, on either side */
        {"calc --db %D", "kvtutor calc: --db: not used by calc (see kvtutor calc --help)\n"},
        {"--db %D calc", "kvtutor calc: --db: not used by calc (see kvtutor calc --help)\n"},
        {"--lessons %L stats",
         "kvtutor stats: --lessons: not used by stats (see kvtutor stats --help)\n"},
        {"export --learner ann",
         "kvtutor export: --learner: not used by export (see kvtutor export --help)\n"},
        /* the app itself and the command picker */
        {"--db %D --bogus", "kvtutor: --bogus: unknown flag (see kvtutor --help)\n"},
        {"--db %D open", "kvtutor: open needs a LESSON_ID (see kvtutor --help)\n"},
        {"--db %D --learner", "kvtutor: --learner needs a value (NAME) (see kvtutor --help)\n"},
        {"stats --db %D --learner \x1b[2J",
         "kvtutor stats: --learner: no control characters in a name (see kvtutor stats --help)\n"},
        {"frobnicate", "kvtutor: frobnicate: unknown command (see kvtutor --help)\n"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char a[1024];
        struct run_result r = kvt(expand(rows[i].args, a, sizeof a));
        if (r.status != 2 || r.out_len != 0 || strcmp(r.err, rows[i].err) != 0)
            fail_msg("kvtutor %s: exit %d, stdout %zu bytes, stderr:\n%s\nwant:\n%s", a, r.status,
                     r.out_len, r.err, rows[i].err);
        run_free(&r);
    }
}

/* Asked for --json, a failure is JSON on stdout too ({"error": "..."}, the
 * same words as the one line on stderr), wherever --json stands and however
 * the command fails: a usage error, a bad preset, an unreadable file, a
 * lesson that is not there, a database that cannot be opened. Before, stdout
 * was empty and a script's JSON parser failed on it. */
static void test_json_failures_are_json(void **state)
{
    static const struct {
        const char *args, *error;
    } rows[] = {
        {"calc --json --model nope", "--model nope: no such preset"},
        {"calc --bogus --json", "--bogus: unknown flag"},
        {"sim --json --model nope", "--model nope: no such preset"},
        {"explain-log --json %L", "is a folder"},
        {"ask nosuch x 1 --json --lessons %L", "nosuch"},
        {"stats --json --db /nonexistent-kvt/p.db", "does not exist"},
        {"models --json extra", "extra: unexpected argument"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char a[1024];
        struct run_result r = kvt(expand(rows[i].args, a, sizeof a));
        size_t n = r.out_len;
        if (r.status == 0 || strncmp(r.out, "{\"error\": \"", 11) != 0 || n < 4 ||
            strcmp(r.out + n - 3, "\"}\n") != 0 || !strstr(r.out, rows[i].error) ||
            run_count_lines(r.out) != 1 || run_count_lines(r.err) != 1 ||
            !strstr(r.err, rows[i].error))
            fail_msg("kvtutor %s: exit %d, stdout (%zu):\n%.300s\nstderr:\n%.300s", a, r.status,
                     r.out_len, r.out, r.err);
        run_free(&r);
    }
}

/* --help wins wherever it stands, and prints to stdout. */
static void test_help_after_globals(void **state)
{
    static const char *const rows[] = {"--db %D stats --help", "stats --db %D -h",
                                       "--learner ann reset --help", "--db %D --help"};
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char a[1024];
        struct run_result r = kvt(expand(rows[i], a, sizeof a));
        if (r.status != 0 || !strstr(r.out, "usage: kvtutor") || r.err_len != 0)
            fail_msg("kvtutor %s: exit %d: %s", a, r.status, r.err);
        run_free(&r);
    }
}

/* Token counts as vLLM reads --max-model-len (vllm/utils/argparse_utils.py,
 * human_readable_int): lower-case suffixes are decimal, upper-case binary,
 * decimals only with a decimal suffix. Expected counts by hand: 32k = 32 x
 * 1,000; 128K = 128 x 1,024 = 131,072; 1M = 2^20 = 1,048,576; 25.6k =
 * int(25.6 x 1,000) = 25,600 (the docstring's own example). */
static void test_token_counts(void **state)
{
    static const struct {
        const char *args, *echo, *figure;
    } ok[] = {
        {"calc --model qwen2.5-7b --gpu a100 --seq 32k", "--seq 32k = 32,000 tokens",
         "One sequence of 32,000 tokens"},
        /* Llama-3.1-8B: 131,072 positions, so 128K is within them */
        {"calc --model llama-3.1-8b --gpu a100 --max-model-len=128K",
         "--max-model-len 128K = 131,072 tokens", "One sequence of 131,072 tokens"},
        {"calc --model qwen2.5-7b --gpu a100 --seq 25.6k", "--seq 25.6k = 25,600 tokens",
         "One sequence of 25,600 tokens"},
        /* past its 131,072 positions: as VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 lets it */
        {"calc --model llama-3.1-8b --gpu h100 --seq 1M --kv-budget-gib 200 "
         "--allow-long-max-model-len",
         "--seq 1M = 1,048,576 tokens", "One sequence of 1,048,576 tokens"},
        {"calc --model qwen2.5-7b --gpu a100 --seq 8k --batch 4 --context 2k",
         "--context 2k = 2,000 tokens", NULL},
        {"sim --model qwen2.5-7b --gpu a100 --num-prompts 4 --input-len 2k --output-len 1K",
         "--input-len 2k = 2,000 tokens", "Total input tokens:                      8000"},
        {"sim --model qwen2.5-7b --gpu a100 --num-prompts 4 --input-len 2k --output-len 1K",
         "--output-len 1K = 1,024 tokens", "Total generated tokens:                  4096"},
    };
    static const struct {
        const char *args, *says;
    } bad[] = {
        {"calc --model qwen2.5-7b --seq 1.5K", "--seq 1.5K: no decimals with a binary suffix"},
        {"calc --model qwen2.5-7b --seq 32kb", "--seq 32kb: must be a positive integer, or one"},
        {"calc --model qwen2.5-7b --seq .5k", "--seq .5k: must be a positive integer, or one"},
        {"calc --model qwen2.5-7b --seq 5.k", "--seq 5.k: must be"},
        {"calc --model qwen2.5-7b --seq 0k", "--seq 0k: must be a positive integer"},
        {"calc --model qwen2.5-7b --max-num-batched-tokens 99999999T",
         "--max-num-batched-tokens 99999999T: is too large (at most"},
        {"sim --model qwen2.5-7b --gpu a100 --input-len 2.5K", "--input-len 2.5K: no decimals"},
        {"probe --seq 4KiB --no-record", "--seq 4KiB: must be a positive integer, or one"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct run_result r = kvt(ok[i].args);
        if (r.status != 0 || !strstr(r.out, ok[i].echo) ||
            (ok[i].figure && !strstr(r.out, ok[i].figure)))
            fail_msg("kvtutor %s: exit %d, wanted \"%s\" and \"%s\":\n%.600s%s", ok[i].args,
                     r.status, ok[i].echo, ok[i].figure ? ok[i].figure : "", r.out, r.err);
        run_free(&r);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct run_result r = kvt(bad[i].args);
        if (r.status != 2 || r.out_len != 0 || !strstr(r.err, bad[i].says))
            fail_msg("kvtutor %s: exit %d, wanted \"%s\": %s", bad[i].args, r.status, bad[i].says,
                     r.err);
        run_free(&r);
    }
    /* a plain count echoes nothing: the header stays as it was */
    {
        struct run_result r = kvt("calc --model qwen2.5-7b --gpu a100 --seq 32768");
        assert_int_equal(r.status, 0);
        assert_null(strstr(r.out, "tokens\nQwen"));
        assert_int_equal(strncmp(r.out, "Qwen/Qwen2.5-7B-Instruct", 24), 0);
        run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_flags_either_side),
        cmocka_unit_test(test_probe_size_env_refused),
        cmocka_unit_test(test_lessons_flag_is_used),
        cmocka_unit_test(test_one_usage_error_format),
        cmocka_unit_test(test_help_after_globals),
        cmocka_unit_test(test_token_counts),
        cmocka_unit_test(test_json_failures_are_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
